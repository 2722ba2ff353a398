#pragma once
// A QCustomPlot that redraws with less memory traffic. Stock QCustomPlot clears its paint
// buffer to transparent, fills the widget with the background and then blends the buffer over
// it: three passes over a million pixels at 1920×1080, which cost more than drawing the plot.
// Here the buffer is cleared to the (opaque) background itself and copied to the screen, and
// the widget is marked opaque, so Qt paints nothing underneath it. Exports are unaffected:
// QCustomPlot renders those without the paint buffer.

#include <qcustomplot.h>

namespace vl {

class OpaquePlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit OpaquePlot(const QString &objectName, QWidget *parent = nullptr);

    // The solid colour the paint buffer starts from: the background brush's.
    QColor backgroundColor() const { return mBackgroundBrush.color(); }

protected:
    void paintEvent(QPaintEvent *event) override;
};

} // namespace vl
