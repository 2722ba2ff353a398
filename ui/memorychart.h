#pragma once
// The stacked bar chart: one bar per scenario in the comparison, stacked parameters,
// gradients, optimizer states, activations (+ overhead), with a capacity line for every
// chosen GPU. QCustomPlot draws it; the numbers come from the Analysis.

#include "core/analysis.h"
#include "ui/directplot.h"

#include "ui/shown.h"

#include <QHash>
#include <QWidget>

#include <array>
#include <optional>

class QCPBars;

namespace vl {

class MemoryChart : public QWidget {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget *parent = nullptr);

    void showAnalysis(ShownPtr shown);
    void highlight(std::optional<Component> component);
    void setZoom(double zoom); // presentation: larger fonts and thicker lines, still vector-sharp

    QCustomPlot *plot() const { return m_plot; }
    // What the chart shows, in chart units, for tests: bar b's value of component c.
    double barValue(int bar, Component c) const;
    int barCount() const;
    QList<double> capacityLines() const;

Q_SIGNALS:
    void componentHovered(std::optional<Component> component);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    ShownPtr m_shown = std::make_shared<const Shown>(); // what it draws (ui/shown.h)
    void recolour();
    void rebuild();
    void addBarLabels(const QFont &font);
    void showTooltip(QPoint position);

    DirectPlot *m_plot;
    std::array<QCPBars *, kComponentCount> m_bars{};
    std::optional<Component> m_highlighted;
    double m_zoom = 1.0;
    // Bar names as wrapped to fit their share of the axis, for the width they were wrapped to:
    // measuring text costs more than a redraw, and the names rarely change while a slider moves.
    QHash<QString, QString> m_wrappedNames;
    int m_wrappedTo = 0;
};

} // namespace vl
