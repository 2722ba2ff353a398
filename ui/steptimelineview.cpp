#include "ui/steptimelineview.h"

#include "ui/elidedlabel.h"
#include "ui/plotstyle.h"
#include "ui/theme.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>

namespace vl {

StepTimelineView::StepTimelineView(QWidget *parent)
    : QWidget(parent), m_plot(new DirectPlot(QStringLiteral("stepTimeline"), this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *walk = new QHBoxLayout;
    m_play = new QPushButton(this);
    m_where = new ElidedLabel(this);
    walk->addWidget(m_play);
    walk->addWidget(m_where, 1);
    layout->addLayout(walk, 0);
    layout->addWidget(m_plot, 1);     // the plot takes the height; the walk row stays one line
    m_plot->installEventFilter(this); // the peak's tag is placed again at each size
    // The whole step in about twelve seconds, however many layers: time to say what happens.
    m_timer = new QTimer(this);
    connect(m_timer, &QTimer::timeout, this, [this] {
        const int last = pointCount() - 1;
        if (m_cursor >= last)
            togglePlay(); // stops at the optimizer step
        else
            setCursor(m_cursor + 1);
    });
    connect(m_play, &QPushButton::clicked, this, &StepTimelineView::togglePlay);
    setFocusPolicy(Qt::StrongFocus); // the arrow keys step through
    retranslate();
    m_plot->setMinimumSize(360, 240);
    // The step line, its area, the grid and the axes are all axis-aligned: antialiasing them
    // costs a third of the paint and changes nothing. Items choose for themselves: the peak's
    // circle and the labels keep it, the straight lines do not.
    m_plot->setNotAntialiasedElements(~QCP::AntialiasedElements(QCP::aeItems));
    // Each component's area is its running total filled down to the axis, the top one drawn
    // first: the same picture as fills between neighbours, without QCustomPlot's costly
    // channel fills.
    for (auto c = kComponents.rbegin(); c != kComponents.rend(); ++c) {
        QCPGraph *area = m_plot->addGraph();
        area->setLayer(areaLayer(m_plot));
        area->setLineStyle(QCPGraph::lsStepLeft);
        area->setPen(Qt::NoPen);
        m_areas[std::size_t(*c)] = area;
    }
    for (Component c : kComponents) // the legend in the chart's order, bottom part first
        m_areas[std::size_t(c)]->removeFromLegend();
    m_graph = m_plot->addGraph();
    m_graph->setLayer(areaLayer(m_plot));
    m_graph->removeFromLegend();
    addLegendRow(m_plot);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->xAxis->grid()->setVisible(false);
}

void StepTimelineView::showAnalysis(ShownPtr shown)
{
    m_shown = std::move(shown);
    rebuild();
}

void StepTimelineView::setCursor(int point)
{
    const int last = pointCount() - 1;
    const int previous = m_cursor;
    m_cursor = std::clamp(point, 0, std::max(last, 0));
    placeCursor();
    m_plot->redraw();
    if (m_cursor != previous)
        Q_EMIT cursorChanged(m_cursor);
}

bool StepTimelineView::playing() const
{
    return m_timer->isActive();
}

void StepTimelineView::togglePlay()
{
    if (playing()) {
        m_timer->stop();
    } else {
        if (m_cursor >= pointCount() - 1)
            setCursor(0); // from the start again
        m_timer->start(std::max(120, 12'000 / std::max(1, pointCount())));
    }
    retranslate();
}

void StepTimelineView::retranslate()
{
    m_play->setText(playing() ? tr("❚❚ Pause") : tr("▶ Play the step"));
    m_play->setToolTip(tr("Walks a cursor through the step; the Structure tab shows what is alive at that moment. "
                          "Space plays or pauses, the arrow keys step, here and there."));
}

QString StepTimelineView::cursorText() const
{
    const auto &points = m_shown->analysis.timeline.points;
    if (m_cursor < 0 || m_cursor >= int(points.size()))
        return {};
    return describePoint(points[std::size_t(m_cursor)], m_shown->units);
}

void StepTimelineView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Right || event->key() == Qt::Key_Left) {
        if (playing())
            togglePlay();
        setCursor(m_cursor + (event->key() == Qt::Key_Right ? 1 : -1));
        return;
    }
    if (event->key() == Qt::Key_Space) {
        togglePlay();
        return;
    }
    QWidget::keyPressEvent(event);
}

void StepTimelineView::placeCursor()
{
    // A vertical line through the point, and the point in words above the plot.
    for (int i = m_plot->itemCount() - 1; i >= 0; --i)
        if (m_plot->item(i)->objectName() == QLatin1String("cursor"))
            m_plot->removeItem(i);
    auto *line = new QCPItemStraightLine(m_plot);
    line->setObjectName(QStringLiteral("cursor"));
    line->point1->setCoords(m_cursor, 0);
    line->point2->setCoords(m_cursor, 1);
    line->setPen(QPen(palette().color(QPalette::WindowText), 1.2 * m_zoom, Qt::DotLine));
    m_where->setFullText(cursorText());
}

void StepTimelineView::setZoom(double zoom)
{
    m_zoom = zoom;
    rebuild();
}

QVector<double> StepTimelineView::plottedValues() const
{
    QVector<double> values;
    for (auto it = m_graph->data()->constBegin(); it != m_graph->data()->constEnd(); ++it)
        values << it->value;
    return values;
}

void StepTimelineView::rebuild()
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const StepTimeline &t = m_shown->analysis.timeline;
    const int n = int(t.points.size());
    QVector<double> keys(n), values(n);
    double highest = toUnits(m_shown->analysis.breakdown.total, m_shown->units);
    for (int i = 0; i < n; ++i) {
        keys[i] = i;
        values[i] = toUnits(t.points[std::size_t(i)].inUse, m_shown->units);
    }
    m_graph->setData(keys, values, true);
    m_graph->setLineStyle(QCPGraph::lsStepLeft);
    m_graph->setPen(QPen(text, 1.6 * m_zoom));
    m_graph->setBrush(Qt::NoBrush);
    m_graph->setName(tr("In use"));
    // Each component stacked on the ones below it.
    QVector<double> stacked(n, 0.0);
    for (Component c : kComponents) {
        QCPGraph *area = m_areas[std::size_t(c)];
        bool any = false;
        for (int i = 0; i < n; ++i) {
            const Bytes part = t.points[std::size_t(i)].part(c);
            stacked[i] += toUnits(part, m_shown->units);
            any = any || part > 0;
        }
        area->setData(keys, stacked, true);
        QColor fill = componentColor(c);
        fill.setAlpha(c == Component::Overhead ? 110 : 170);
        area->setBrush(seenOver(fill, pal.color(QPalette::Base)));
        area->setName(componentName(c));
        if (any)
            area->addToLegend();
        else
            area->removeFromLegend();
    }
    wrapLegendRow(m_plot);

    // Phase labels at the middle of each phase, so neighbours never overlap.
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(m_plot->xAxis->ticker());
    ticker->clear();
    for (int i = 0; i < n;) {
        const StepPhase phase = t.points[std::size_t(i)].phase;
        int j = i;
        while (j + 1 < n && t.points[std::size_t(j + 1)].phase == phase)
            ++j;
        const double middle = (i + j) / 2.0;
        switch (phase) {
        case StepPhase::StartUp: ticker->addTick(middle, tr("start-up")); break;
        case StepPhase::Start: break; // the axis' left end says it
        case StepPhase::Forward: ticker->addTick(middle, tr("forward →")); break;
        case StepPhase::Loss: ticker->addTick(middle, tr("loss")); break;
        case StepPhase::Backward: ticker->addTick(middle, tr("← backward")); break;
        case StepPhase::OptimizerStep: ticker->addTick(middle, tr("optimizer")); break;
        }
        i = j + 1;
    }
    // Ticks and labels in the zoomed font. The last phase's label is centred near the axis'
    // right end: leave it room to be drawn whole.
    QFont labelFont = font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * m_zoom);
    const QString lastLabel = ticker->ticks().isEmpty() ? QString() : ticker->ticks().last();
    m_plot->axisRect()->setMinimumMargins(
        QMargins(0, 0, QFontMetrics(labelFont).horizontalAdvance(lastLabel) / 2 + 4, 0));

    m_plot->clearItems();
    // The sum's label under its line, the peak's tag above it: however narrow the plot and
    // wherever the peak, the two never cover each other.
    addHorizontalLine(m_plot, toUnits(m_shown->analysis.breakdown.total, m_shown->units),
                      QPen(text, 1.2 * m_zoom, Qt::DashLine),
                      tr("sum of all parts %1").arg(bytesText(m_shown->analysis.breakdown.total, m_shown->units)),
                      LabelSide::Left, labelFont, pal.base(), LabelEdge::Below);
    const double peak = toUnits(t.peak(), m_shown->units);
    const double sum = toUnits(m_shown->analysis.breakdown.total, m_shown->units);
    // The peak's tag stands on the sum line, which is never below the peak, so the two never
    // cross; or on a capacity line just above, whose label then goes under it.
    const double tagAt = n > 0 ? tagClearOfCapacityLines(m_shown->gpus, m_shown->units, std::max(sum, peak)) : -1;
    highest = std::max(highest, addCapacityLines(m_plot, m_shown->gpus, m_shown->units, pal, font(), m_zoom, tagAt));
    if (n > 0) {
        auto *marker = new QCPItemTracer(m_plot);
        marker->setGraph(m_graph);
        marker->setGraphKey(double(t.peakIndex));
        marker->setStyle(QCPItemTracer::tsCircle);
        marker->setSize(9 * m_zoom);
        marker->setPen(QPen(text, 1.5 * m_zoom));
        marker->setBrush(componentColor(Component::Activations));
        // A dotted leader joins the tag to the peak's circle.
        if (tagAt > peak) {
            auto *leader = new QCPItemLine(m_plot);
            leader->start->setCoords(double(t.peakIndex), peak);
            leader->end->setCoords(double(t.peakIndex), tagAt);
            leader->setPen(QPen(text, 1.0 * m_zoom, Qt::DotLine));
        }
        auto *tag = new QCPItemText(m_plot);
        tag->position->setCoords(double(t.peakIndex), tagAt);
        tag->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        tag->setPadding(QMargins(2, 0, 2, int(3 * m_zoom)));
        QString why;
        switch (t.points[t.peakIndex].phase) {
        case StepPhase::Loss: why = tr("what forward kept on the GPU, plus the logits"); break;
        case StepPhase::Forward: why = tr("activations of the forward pass"); break;
        case StepPhase::Backward:
            why = m_shown->analysis.breakdown.has(ItemId::CheckpointsKeptByFsdp)
                ? tr("FSDP1 keeps each layer's checkpoint and its gradient until backward ends")
                : tr("gradients appearing while activations are still held");
            break;
        case StepPhase::OptimizerStep:
            why = m_shown->analysis.breakdown.has(ItemId::OptimizerStepBuffer)
                ? tr("gradients, optimizer states, step intermediates")
                : tr("all gradients with the optimizer states");
            break;
        case StepPhase::Start: why = tr("the model states alone"); break;
        case StepPhase::StartUp: why = tr("the model whole, before it is sharded"); break;
        }
        tag->setColor(text);
        tag->setBrush(pal.base()); // readable over the capacity lines' labels and the grid
        QFont bold = labelFont;
        bold.setBold(true);
        tag->setFont(bold);
        m_peakTag = tag;
        m_peakText = tr("peak %1: %2").arg(bytesText(t.peak(), m_shown->units), why);
    } else {
        m_peakTag = nullptr;
    }

    stylePlot(m_plot, pal, font(), m_zoom);
    m_plot->xAxis->setRange(-0.5, std::max(1, n) - 0.5);
    m_plot->yAxis->setRange(0, std::max(highest, 1.0) * 1.18);
    m_plot->yAxis->setLabel(tr("In use on this GPU (%1)").arg(QString::fromUtf8(unitSymbol(m_shown->units).data())));
    m_cursor = std::clamp(m_cursor, 0, std::max(n - 1, 0)); // a new scenario may have fewer layers
    placeCursor();
    placePeakTag();
    m_plot->redraw();
}

// Over the peak, shifted no further than keeps the whole tag inside the axis rect (a peak at the
// start or at the optimizer step sits near an edge), its words wrapped onto as many lines as the
// plot's width needs.
void StepTimelineView::placePeakTag()
{
    if (!m_peakTag)
        return;
    m_plot->layOut();
    const QRect area = m_plot->axisRect()->rect();
    const QFontMetricsF metrics(m_peakTag->font());
    const int padding = m_peakTag->padding().left() + m_peakTag->padding().right();
    m_peakTag->setText(wrappedAtWords(m_peakText, m_peakTag->font(), area.width() - padding));
    const double width = metrics.boundingRect(QRectF(), 0, m_peakTag->text()).width() + padding;
    const double peakX = m_plot->xAxis->coordToPixel(double(m_shown->analysis.timeline.peakIndex));
    const double lowest = area.left() + width / 2, highest = area.right() - width / 2;
    const double x = lowest <= highest ? std::clamp(peakX, lowest, highest) : area.center().x();
    m_peakTag->position->setCoords(m_plot->xAxis->pixelToCoord(x), m_peakTag->position->coords().y());
}

bool StepTimelineView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Resize)
        QMetaObject::invokeMethod(
            this,
            [this] {
                placePeakTag(); // the tag fits the new size
                m_plot->redraw();
            },
            Qt::QueuedConnection);
    return QWidget::eventFilter(watched, event);
}

void StepTimelineView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::LanguageChange) {
        retranslate();
        rebuild();
    }
    QWidget::changeEvent(event);
}

} // namespace vl
