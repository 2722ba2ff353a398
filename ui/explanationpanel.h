#pragma once
// Every item with its formula and current numbers, in the article's plain style, and which
// of the article's levers would cut the bill most.

#include "core/analysis.h"

#include <QWidget>

#include <optional>

class QTreeWidget;

namespace vl {

class RichLabel;

class ExplanationPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExplanationPanel(QWidget *parent = nullptr);
    void showAnalysis(const Analysis &analysis, Units units);
    QTreeWidget *tree() const { return m_tree; }

Q_SIGNALS:
    void componentHovered(std::optional<Component> component);

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();
    QTreeWidget *m_tree;
    RichLabel *m_levers;
    Analysis m_analysis;
    Units m_units = Units::GiB;
};

} // namespace vl
