#pragma once
// Help → Assumptions: every convention in force for the current scenario, and the sources,
// so a number can be defended in a meeting.

#include "core/estimate.h"
#include "core/scenario.h"

#include <QDialog>

namespace vl {

// `b` is the scenario's estimate, as the window already holds it; sizes in `units`.
QString assumptionsHtml(const Scenario &s, const Breakdown &b, Units units);

class AssumptionsDialog : public QDialog {
    Q_OBJECT
public:
    AssumptionsDialog(const Scenario &s, const Breakdown &b, Units units, QWidget *parent = nullptr);
};

} // namespace vl
