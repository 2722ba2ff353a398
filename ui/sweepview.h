#pragma once
// Memory against one setting — batch, sequence, GPU count or hidden size — as stacked areas
// per component, with the chosen GPUs' capacity lines and the exact crossing point marked.

#include "core/solve.h"
#include "ui/directplot.h"
#include "ui/shown.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;

namespace vl {

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget *parent = nullptr);
    void showAnalysis(ShownPtr shown); // swept again when visible: a hidden sweep costs nothing
    void setZoom(double zoom);
    void setField(const QString &field); // "batch", "seq", "dp", "hidden"

    QCustomPlot *plot() const { return m_plot; }
    // For tests: the swept points and the crossing drawn (against the first chosen GPU).
    const std::vector<SweepPoint> &points() const { return m_points; }
    std::optional<std::int64_t> crossing() const { return m_crossing; }

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    SweepSpec currentSpec() const;
    void refresh();
    void retranslate();

    ShownPtr m_shown = std::make_shared<const Shown>(); // the scenario swept (ui/shown.h)
    DirectPlot *m_plot;
    QComboBox *m_field;
    QCheckBox *m_log;
    QLabel *m_fieldLabel;
    QLabel *m_answer;
    std::vector<SweepPoint> m_points;
    std::optional<std::int64_t> m_crossing;
    double m_zoom = 1.0;
};

} // namespace vl
