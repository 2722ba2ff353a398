#include "ui/sweepview.h"

#include "core/estimate.h"
#include "core/timeline.h"
#include "ui/plotstyle.h"
#include "ui/theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <qcustomplot.h>

namespace vl {

SweepView::SweepView(QWidget *parent)
    : QWidget(parent), m_plot(new DirectPlot(QStringLiteral("sweepPlot"), this)), m_field(new QComboBox(this)),
      m_log(new QCheckBox(this)), m_fieldLabel(new QLabel(this)), m_answer(new QLabel(this))
{
    setObjectName(QStringLiteral("sweep"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    m_fieldLabel->setBuddy(m_field);
    bar->addWidget(m_fieldLabel);
    bar->addWidget(m_field);
    bar->addWidget(m_log);
    bar->addWidget(m_answer, 1);
    layout->addLayout(bar);
    layout->addWidget(m_plot, 1);
    for (const char *field : {"batch", "seq", "dp", "hidden"})
        m_field->addItem(QString(), QString::fromLatin1(field));
    m_log->setChecked(true);
    m_plot->setMinimumSize(360, 240);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    for (std::size_t i = 0; i < kComponents.size(); ++i) {
        QCPGraph *graph = m_plot->addGraph();
        graph->setLayer(areaLayer(m_plot));
        if (i > 0)
            graph->setChannelFillGraph(m_plot->graph(int(i - 1)));
    }
    m_plot->addGraph(); // the step's peak, a line over the stacked parts
    retranslate();
    connect(m_field, &QComboBox::activated, this, &SweepView::refresh);
    connect(m_log, &QCheckBox::toggled, this, &SweepView::refresh);
}

void SweepView::showAnalysis(ShownPtr shown)
{
    m_shown = std::move(shown);
    if (isVisible()) // a hidden sweep costs nothing while sliders move; showEvent() catches up
        refresh();
}

void SweepView::setZoom(double zoom)
{
    m_zoom = zoom;
    refresh();
}

void SweepView::setField(const QString &field)
{
    m_field->setCurrentIndex(m_field->findData(field));
    refresh();
}

void SweepView::retranslate()
{
    m_fieldLabel->setText(tr("Memory against:"));
    m_field->setItemText(0, tr("batch size"));
    m_field->setItemText(1, tr("sequence length"));
    m_field->setItemText(2, tr("data-parallel GPUs"));
    m_field->setItemText(3, tr("hidden size"));
    m_log->setText(tr("Logarithmic axis"));
    m_field->setToolTip(tr("Everything else stays as it is. Without FlashAttention the sequence curve bends upward: "
                           "the attention scores grow with its square."));
}

void SweepView::showEvent(QShowEvent *event)
{
    refresh();
    QWidget::showEvent(event);
}

void SweepView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        refresh();
    QWidget::changeEvent(event);
}

SweepSpec SweepView::currentSpec() const
{
    const Scenario &s = m_shown->scenario;
    const std::string field = m_field->currentData().toString().toStdString();
    if (field == "seq")
        return {field, 256, 131072, 256};
    if (field == "dp")
        return {field, 1, 512, 1};
    if (field == "hidden") {
        const std::int64_t step = hiddenStep(s.arch.heads, 128);
        return {field, step, largestHidden(step), step};
    }
    return {field, 1, 512, 1};
}

void SweepView::refresh()
{
    const SweepSpec spec = currentSpec();
    const Scenario &s = m_shown->scenario;
    const Units units = m_shown->units;
    auto points = runSweep(s, spec);
    m_points = points ? std::move(points).value() : std::vector<SweepPoint>{};
    const std::vector<GpuPreset> &gpus = m_shown->gpus;
    m_crossing = gpus.empty() ? std::nullopt
                              : sweepCrossing(s, spec, m_points, gpus.front().capacity, m_shown->analysis.fitRule);

    const int n = int(m_points.size());
    QVector<double> keys(n), stacked(n, 0.0);
    for (int i = 0; i < n; ++i)
        keys[i] = double(m_points[std::size_t(i)].value);
    double highest = 0;
    for (std::size_t g = 0; g < kComponents.size(); ++g) {
        const Component c = kComponents[g];
        for (int i = 0; i < n; ++i)
            stacked[i] += toUnits(m_points[std::size_t(i)].breakdown.component(c), units);
        QCPGraph *graph = m_plot->graph(int(g));
        graph->setData(keys, stacked, true);
        graph->setName(componentName(c));
        QColor fill = componentColor(c);
        graph->setPen(QPen(fill.darker(115), 1.2 * m_zoom));
        fill.setAlpha(c == Component::Overhead ? 110 : 190);
        graph->setBrush(seenOver(fill, palette().color(QPalette::Base)));
        const bool any = std::any_of(m_points.begin(), m_points.end(),
                                     [c](const SweepPoint &p) { return p.breakdown.component(c) > 0; });
        graph->setVisible(any);
        if (any)
            graph->addToLegend();
        else
            graph->removeFromLegend();
    }
    for (double v : stacked)
        highest = std::max(highest, v);
    // The peak never exceeds the sum; the crossing follows whichever of the two the verdict uses.
    QVector<double> peaks(n);
    for (int i = 0; i < n; ++i)
        peaks[i] = toUnits(m_points[std::size_t(i)].peak, units);
    QCPGraph *peakGraph = m_plot->graph(int(kComponents.size()));
    peakGraph->setData(keys, peaks, true);
    peakGraph->setName(tr("Peak"));
    peakGraph->setPen(QPen(palette().color(QPalette::Text), 1.6 * m_zoom, Qt::DashLine));

    m_plot->clearItems();
    const QPalette pal = palette();
    highest = std::max(highest, addCapacityLines(m_plot, gpus, units, pal, font(), m_zoom));
    const QString fieldName = m_field->currentText();
    if (m_crossing) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(double(*m_crossing), 0);
        line->point2->setCoords(double(*m_crossing), 1);
        line->setPen(QPen(capacityColor(), 1.5 * m_zoom, Qt::DotLine));
        const bool growing = spec.field != "dp";
        m_answer->setText(
            growing
                ? tr("Fits %1 up to %2 = %3").arg(QString::fromStdString(gpus.front().name), fieldName).arg(*m_crossing)
                : tr("Fits %1 from %2 = %3")
                      .arg(QString::fromStdString(gpus.front().name), fieldName)
                      .arg(*m_crossing + 1));
    } else {
        m_answer->setText(
            gpus.empty() ? tr("Choose a GPU to mark where it stops fitting.")
                         : tr("No crossing with %1 in this range.").arg(QString::fromStdString(gpus.front().name)));
    }

    stylePlot(m_plot, pal, font(), m_zoom);
    const bool log = m_log->isChecked();
    m_plot->xAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log)
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    if (n > 0)
        m_plot->xAxis->setRange(keys.front(), keys.back());
    m_plot->xAxis->setLabel(fieldName);
    // Keep the capacity lines legible: curves that run far past them leave the top of the plot.
    double top = std::max(highest, 1.0) * 1.1;
    if (!gpus.empty()) {
        double largest = 0;
        for (const GpuPreset &gpu : gpus)
            largest = std::max(largest, toUnits(gpu.capacity, units));
        top = std::min(top, largest * 2.5);
    }
    m_plot->yAxis->setRange(0, top);
    m_plot->yAxis->setLabel(tr("Memory per GPU (%1)").arg(QString::fromUtf8(unitSymbol(units).data())));
    m_plot->redraw();
}

} // namespace vl
