#include "ui/chartpanel.h"

#include "ui/ledgermodel.h"
#include "ui/memorychart.h"
#include "ui/settings.h"
#include "ui/theme.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <qcustomplot.h>

namespace vl {

ChartPanel::ChartPanel(LedgerModel &model, QWidget *parent)
    : QWidget(parent), m_model(model), m_chart(new MemoryChart(this)), m_bars(new QComboBox(this)),
      m_fitRule(new QComboBox(this)), m_units(new QComboBox(this)), m_pin(new QPushButton(this)),
      m_ladderOrder(new QPushButton(this)), m_barsLabel(new QLabel(this)), m_fitLabel(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *toolbar = new QHBoxLayout;
    m_barsLabel->setBuddy(m_bars);
    m_fitLabel->setBuddy(m_fitRule);
    toolbar->addWidget(m_barsLabel);
    toolbar->addWidget(m_bars);
    toolbar->addWidget(m_pin);
    toolbar->addWidget(m_ladderOrder);
    toolbar->addStretch(1);
    toolbar->addWidget(m_fitLabel);
    toolbar->addWidget(m_fitRule);
    toolbar->addWidget(m_units);
    layout->addLayout(toolbar);
    layout->addWidget(m_chart, 1);
    m_bars->setObjectName(QStringLiteral("barSet"));
    for (int i = 0; i < 4; ++i)
        m_bars->addItem(QString(), i);
    for (int i = 0; i < 2; ++i)
        m_fitRule->addItem(QString(), i);
    m_units->addItem(QStringLiteral("GiB"), int(Units::GiB));
    m_units->addItem(QStringLiteral("GB"), int(Units::GB));
    retranslate();

    m_bars->setCurrentIndex(int(m_model.options().bars));
    m_fitRule->setCurrentIndex(int(m_model.options().fitRule));
    m_units->setCurrentIndex(int(m_model.units()));
    connect(m_bars, &QComboBox::activated, this, [this](int i) {
        m_model.setBarSet(BarSet(i));
        Settings::setBarSet(BarSet(i));
    });
    connect(m_fitRule, &QComboBox::activated, this, [this](int i) {
        m_model.setFitRule(FitRule(i));
        Settings::setFitRule(FitRule(i));
    });
    connect(m_units, &QComboBox::activated, this, [this](int i) {
        m_model.setUnits(Units(i));
        Settings::setUnits(Units(i));
    });
    connect(m_pin, &QPushButton::clicked, this, &ChartPanel::pinCurrent);
    connect(m_ladderOrder, &QPushButton::clicked, this, &ChartPanel::editLadderOrder);
    connect(&m_model, &LedgerModel::changed, this, [this] {
        for (QComboBox *box : {m_bars, m_fitRule, m_units}) {
            const QSignalBlocker block(box);
            box->setCurrentIndex(box == m_bars          ? int(m_model.options().bars)
                                     : box == m_fitRule ? int(m_model.options().fitRule)
                                                        : int(m_model.units()));
        }
        m_ladderOrder->setVisible(m_model.options().bars == BarSet::Ladder);
        m_chart->showAnalysis(m_model.shown());
    });
    m_ladderOrder->setVisible(m_model.options().bars == BarSet::Ladder);
    m_chart->plot()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_chart->plot(), &QWidget::customContextMenuRequested, this, &ChartPanel::showPinMenu);
    m_chart->showAnalysis(m_model.shown());
}

void ChartPanel::retranslate()
{
    m_barsLabel->setText(tr("&Bars:"));
    m_bars->setItemText(0, tr("Pinned scenarios"));
    m_bars->setItemText(1, tr("GPU counts"));
    m_bars->setItemText(2, tr("ZeRO stages"));
    m_bars->setItemText(3, tr("Optimization ladder"));
    m_bars->setToolTip(
        tr("What the bars compare: your pinned scenarios beside the current one, the current scenario "
           "over 1–64 GPUs or ZeRO stages 0–3, or the article's levers applied one at a time until it fits "
           "the first chosen GPU."));
    m_pin->setText(tr("&Pin current"));
    m_pin->setToolTip(tr("Keep the current scenario as a bar to compare against. Right-click a pinned bar to rename, "
                         "move or remove it."));
    m_ladderOrder->setText(tr("Levers…"));
    m_ladderOrder->setToolTip(tr("Choose which of the article's levers the ladder tries, and in which order."));
    m_fitLabel->setText(tr("&Fits by:"));
    m_fitRule->setItemText(0, tr("sum of all parts"));
    m_fitRule->setItemText(1, tr("peak of the step"));
    m_fitRule->setToolTip(tr("Peak: the most in use at any moment of the step, or of the run's start-up where a "
                             "model is placed whole before it is sharded, from the timeline; the measured runs "
                             "read within a few per cent of it. Sum: everything at once, as other tools count, an "
                             "upper bound that adds buffers which never live together (the optimizer step's beside "
                             "the loss's)."));
    m_units->setToolTip(
        tr("GiB = 2³⁰ bytes (what nvidia-smi and PyTorch report); GB = 10⁹ bytes (papers, vendor labels)."));
}

void ChartPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ChartPanel::pinCurrent()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Pin scenario"), tr("Name for this bar:"), QLineEdit::Normal,
                                               tr("Pin %1").arg(m_model.document().pins.size() + 1), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    m_model.pinCurrent(name.trimmed());
    if (m_model.options().bars != BarSet::Pins)
        m_model.setBarSet(BarSet::Pins);
}

void ChartPanel::editLadderOrder()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Optimization ladder"));
    auto *layout = new QVBoxLayout(&dialog);
    auto *hint = new QLabel(tr("Checked levers are tried from the top down, one at a time, until the scenario fits "
                               "the first chosen GPU. Drag to reorder."),
                            &dialog);
    hint->setWordWrap(true);
    auto *list = new QListWidget(&dialog);
    list->setDragDropMode(QAbstractItemView::InternalMove);
    const std::vector<Lever> &current = m_model.options().ladderOrder;
    std::vector<Lever> shown = current;
    for (Lever lever : kArticleLadder)
        if (std::find(shown.begin(), shown.end(), lever) == shown.end())
            shown.push_back(lever);
    const auto addLever = [list](Lever lever, bool checked) {
        auto *item = new QListWidgetItem(leverName(lever), list);
        item->setData(Qt::UserRole, int(lever));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    };
    for (Lever lever : shown)
        addLever(lever, std::find(current.begin(), current.end(), lever) != current.end());
    auto *buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, &dialog, [list, addLever] {
        list->clear();
        for (Lever lever : kArticleLadder)
            addLever(lever, true);
    });
    layout->addWidget(hint);
    layout->addWidget(list);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    std::vector<Lever> order;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            order.push_back(Lever(list->item(i)->data(Qt::UserRole).toInt()));
    m_model.setLadderOrder(std::move(order));
}

void ChartPanel::showPinMenu(const QPoint &position)
{
    if (m_model.options().bars != BarSet::Pins)
        return;
    const int bar = int(std::lround(m_chart->plot()->xAxis->pixelToCoord(position.x()))) - 1;
    const int pins = int(m_model.document().pins.size());
    if (bar < 0 || bar >= pins)
        return;
    QMenu menu(this);
    menu.addAction(tr("Rename…"), this, [this, bar] {
        bool ok = false;
        const QString name = QInputDialog::getText(
            this, tr("Rename pin"), tr("Name:"), QLineEdit::Normal,
            QString::fromStdString(m_model.document().pins[std::size_t(bar)].name), &ok);
        if (ok && !name.trimmed().isEmpty())
            m_model.renamePin(bar, name.trimmed());
    });
    menu.addAction(tr("Move left"), this, [this, bar] { m_model.movePin(bar, -1); })->setEnabled(bar > 0);
    menu.addAction(tr("Move right"), this, [this, bar] { m_model.movePin(bar, 1); })->setEnabled(bar + 1 < pins);
    menu.addAction(tr("Remove"), this, [this, bar] { m_model.removePin(bar); });
    menu.exec(m_chart->plot()->mapToGlobal(position));
}

} // namespace vl
