#pragma once
// One line per chosen GPU: fits or not, by how much, and the solvers' answers.

#include "core/analysis.h"

#include <QLabel>

namespace vl {

class VerdictBar : public QLabel {
    Q_OBJECT
public:
    explicit VerdictBar(QWidget *parent = nullptr);
    void showAnalysis(const Analysis &analysis, const Scenario &scenario, Units units);

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();
    Analysis m_analysis;
    Scenario m_scenario;
    Units m_units = Units::GiB;
};

} // namespace vl
