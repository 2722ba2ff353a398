#pragma once
// Every item with its formula and current numbers, in the article's plain style, and which
// of the article's levers would cut the bill most.

#include "core/analysis.h"

#include "ui/shown.h"
#include "ui/theme.h"

#include <QWidget>

#include <optional>

class QTreeWidget;

namespace vl {

class RichLabel;

class ExplanationPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExplanationPanel(QWidget *parent = nullptr);
    void showAnalysis(ShownPtr shown);
    QTreeWidget *tree() const { return m_tree; }

Q_SIGNALS:
    void componentHovered(std::optional<Component> component);

protected:
    void changeEvent(QEvent *event) override;

private:
    ShownPtr m_shown = std::make_shared<const Shown>(); // what it draws (ui/shown.h)
    FormulaLocalizer m_formulas;                        // its items' formulas in the current language
    void render();
    QTreeWidget *m_tree;
    RichLabel *m_levers;
};

} // namespace vl
