#pragma once
// Memory in use through one training step, layer by layer, stacked by component in the chart's
// colours (the parameters stay, activations pile up in forward and drain in backward while the
// gradients grow), with its peak marked beside the sum of all components (the upper bound every
// other tool reports) and the GPU capacities.

#include "core/analysis.h"
#include "ui/directplot.h"

#include "ui/shown.h"

#include <QWidget>

#include <array>

class QCPGraph;
class QCPItemText;
class QPushButton;
class QTimer;

namespace vl {

class ElidedLabel;

class StepTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit StepTimelineView(QWidget *parent = nullptr);
    void showAnalysis(ShownPtr shown);
    void setZoom(double zoom);
    QCustomPlot *plot() const { return m_plot; }
    // For tests: the plotted values, in chart units.
    QVector<double> plottedValues() const;

    // Walking through the step, for a classroom: a cursor on one point of the timeline, moved by
    // Play (slow enough to explain; Play again pauses) or by the arrow keys.
    int cursor() const { return m_cursor; }
    int pointCount() const { return int(m_shown->analysis.timeline.points.size()); }
    void setCursor(int point);
    void togglePlay();
    bool playing() const;
    QString cursorText() const; // "backward, layer 12: 34.5 GiB (parameters …)"

Q_SIGNALS:
    void cursorChanged(int point); // for views that show the same moment

protected:
    void changeEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    ShownPtr m_shown = std::make_shared<const Shown>(); // what it draws (ui/shown.h)
    void rebuild();
    void retranslate(); // the play button's text and tooltip
    void placeCursor();
    void placePeakTag(); // within the plot at its present size
    DirectPlot *m_plot;
    QCPGraph *m_graph;                                 // the total, outlined
    std::array<QCPGraph *, kComponentCount> m_areas{}; // stacked, bottom to top in kComponents order
    QPushButton *m_play;
    ElidedLabel *m_where; // one line: a narrow window ends it in an ellipsis
    QTimer *m_timer;
    QCPItemText *m_peakTag = nullptr; // "peak …: why", over the peak's point
    QString m_peakText;               // what it says, wrapped to the plot's width
    int m_cursor = 0;
    double m_zoom = 1.0;
};

} // namespace vl
