#pragma once
// Help → Assumptions: every convention in force for the current scenario, and the sources,
// so a number can be defended in a meeting.

#include "core/scenario.h"

#include <QDialog>

namespace vl {

QString assumptionsHtml(const Scenario &s);

class AssumptionsDialog : public QDialog {
    Q_OBJECT
public:
    AssumptionsDialog(const Scenario &s, QWidget *parent = nullptr);
};

} // namespace vl
