#include "ui/explanationpanel.h"

#include "ui/richlabel.h"
#include "ui/theme.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace vl {

ExplanationPanel::ExplanationPanel(QWidget *parent)
    : QWidget(parent), m_tree(new QTreeWidget(this)), m_levers(new RichLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_levers);
    m_tree->setObjectName(QStringLiteral("explanation"));
    m_tree->setColumnCount(3);
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setMouseTracking(true);
    m_tree->setTextElideMode(Qt::ElideRight); // a formula wider than its column: whole in its tooltip
    // Column widths are fitted when rows come or go, not on every slider tick (fitting
    // measures every row).
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_tree->header()->setStretchLastSection(true);
    m_levers->setLines(5); // a heading and the four levers
    connect(m_tree, &QTreeWidget::itemEntered, this, [this](QTreeWidgetItem *item) {
        const QVariant c = item->data(0, Qt::UserRole);
        Q_EMIT componentHovered(c.isValid() ? std::optional(Component(c.toInt())) : std::nullopt);
    });
}

void ExplanationPanel::showAnalysis(ShownPtr shown)
{
    m_shown = std::move(shown);
    render();
}

void ExplanationPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_formulas.retranslate();
        render();
    }
    QWidget::changeEvent(event);
}

void ExplanationPanel::render()
{
    const Breakdown &b = m_shown->analysis.breakdown;
    const QStringList headers{tr("Component"), tr("Size"), tr("How it is counted")};
    if (m_tree->headerItem()->text(0) != headers[0])
        m_tree->setHeaderLabels(headers);
    int rowsBefore = 0;
    for (int c = 0; c < m_tree->topLevelItemCount(); ++c)
        rowsBefore += 1 + m_tree->topLevelItem(c)->childCount();
    // Reuse rows: this runs on every slider tick.
    std::array<QTreeWidgetItem *, kComponentCount> groups{};
    for (int c = 0; c < kComponentCount; ++c) {
        QTreeWidgetItem *group = m_tree->topLevelItem(c);
        if (!group) {
            group = new QTreeWidgetItem(m_tree);
            group->setExpanded(true);
            group->setData(0, Qt::UserRole, c);
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFont(1, bold);
        }
        const auto component = Component(c);
        QPixmap swatch(12, 12);
        swatch.fill(componentColor(component));
        group->setIcon(0, QIcon(swatch));
        group->setText(0, componentName(component));
        group->setText(1, bytesText(b.component(component), m_shown->units));
        group->setText(
            2,
            b.total > 0
                ? tr("%1 % of the total").arg(100.0 * double(b.component(component)) / double(b.total), 0, 'f', 1)
                : QString());
        group->setHidden(component == Component::Overhead && b.component(component) == 0);
        groups[std::size_t(c)] = group;
    }
    std::array<int, kComponentCount> used{};
    for (const ExplainedItem &item : m_shown->analysis.items) {
        const auto c = std::size_t(componentOf(item.id));
        QTreeWidgetItem *group = groups[c];
        QTreeWidgetItem *row = used[c] < group->childCount() ? group->child(used[c]) : new QTreeWidgetItem(group);
        ++used[c];
        row->setData(0, Qt::UserRole, int(c));
        row->setText(0, itemName(item.id));
        // An item that lives in CPU memory shows its size there.
        row->setText(1,
                     item.livesInCpuMemory() ? tr("CPU %1").arg(bytesText(item.hostBytes, m_shown->units))
                                             : bytesText(item.bytes, m_shown->units));
        const QString formula = m_formulas.localized(item.formula);
        row->setText(2, formula);
        row->setToolTip(2, formula);
    }
    for (std::size_t c = 0; c < groups.size(); ++c)
        while (groups[c]->childCount() > used[c])
            delete groups[c]->takeChild(groups[c]->childCount() - 1);
    int rowsAfter = 0;
    for (int c = 0; c < m_tree->topLevelItemCount(); ++c)
        rowsAfter += 1 + m_tree->topLevelItem(c)->childCount();
    if (rowsAfter != rowsBefore) {
        m_tree->resizeColumnToContents(0);
        m_tree->resizeColumnToContents(1);
    }

    QString levers = QStringLiteral("<b>%1</b>").arg(tr("What would cut it most (the article's levers):"));
    // The levers act on the step; a start-up that holds the whole model is beyond them.
    const Analysis &a = m_shown->analysis;
    if (a.fitRule == FitRule::Peak && a.timeline.peakAtStartUp()) {
        QStringList startUp{tr("The peak is the run's start-up, before ZeRO-3 partitions the model:")};
        const bool zeroInitAvoidsIt = m_shown->scenario.zeroInitDecides();
        startUp << (zeroInitAvoidsIt ? tr("DeepSpeed puts it whole on each GPU; no lever lowers that.")
                                     : tr("a 4-bit model reaches DeepSpeed whole; no lever lowers that."));
        if (zeroInitAvoidsIt)
            startUp << tr("Built under zero.Init (Advanced), it never is whole.");
        levers += QStringLiteral("<br>") + startUp.join(QStringLiteral("<br>"));
    } else if (a.levers.empty())
        levers += QStringLiteral("<br>") + tr("Every lever is already pulled.");
    int rank = 0;
    const bool fitsAlready = !m_shown->analysis.verdicts.empty() && m_shown->analysis.verdicts.front().fits();
    for (const LadderStep &step : m_shown->analysis.levers)
        levers += QStringLiteral("<br>%1. <b>%2</b> — %3: %4 %5")
                      .arg(++rank)
                      .arg(leverName(step.lever), leverChange(step),
                           tr("saves %1").arg(bytesText(step.saving, m_shown->units)),
                           step.fits && !fitsAlready ? tr("(then fits)") : QString());
    m_levers->showText(levers);
}

} // namespace vl
