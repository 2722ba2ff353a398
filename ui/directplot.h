#pragma once
// A QCustomPlot that paints itself straight onto the window. Stock QCustomPlot replots into a
// paint buffer cleared to transparent, then on paint fills the widget with its background and
// blends the buffer over it: three passes over a million pixels at 1920×1080, each costing
// more than drawing the plot itself. Here paintEvent fills once and draws the layers directly,
// the widget is opaque (Qt paints nothing underneath), and redraw() is a plain update(), so
// changes coalesce into the next paint and a plot on a hidden tab costs nothing until shown.
// Exports are unaffected: QCustomPlot renders those through draw() as well.

#include <qcustomplot.h>

namespace vl {

class DirectPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit DirectPlot(const QString &objectName, QWidget *parent = nullptr);

    // Use instead of replot(): schedules a paint, which lays the plot out and draws it.
    void redraw() { update(); }
    // Lays the axes and margins out now, for a caller that needs pixel sizes before the paint.
    void layOut() { updateLayout(); }

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
};

} // namespace vl
