#include "ui/memorychart.h"

#include "ui/plotstyle.h"
#include "ui/theme.h"

#include <QEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace vl {

namespace {

constexpr double kBarWidth = 0.6; // in plot coordinates, where the bars stand 1 apart

} // namespace

MemoryChart::MemoryChart(QWidget *parent) : QWidget(parent), m_plot(new DirectPlot(QStringLiteral("memoryChart"), this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumSize(360, 260);
    // Bars, grid and axes are axis-aligned: antialiasing them costs a frame and buys nothing.
    // Items choose for themselves (labels yes, the straight capacity lines no).
    m_plot->setNotAntialiasedElements(~QCP::AntialiasedElements(QCP::aeItems));

    QCPBars *below = nullptr;
    for (Component c : kComponents) {
        auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setWidthType(QCPBars::wtPlotCoords);
        bars->setWidth(kBarWidth);
        if (below)
            bars->moveAbove(below);
        below = bars;
        m_bars[std::size_t(c)] = bars;
    }
    addLegendRow(m_plot);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    recolour();
}

void MemoryChart::showAnalysis(ShownPtr shown)
{
    m_shown = std::move(shown);
    rebuild();
}

void MemoryChart::rebuild()
{
    const int n = int(m_shown->analysis.bars.size());
    QVector<double> keys(n);
    std::iota(keys.begin(), keys.end(), 1.0);
    double highest = 0;
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(m_plot->xAxis->ticker());
    ticker->clear();
    const int slot = int(0.95 * m_plot->axisRect()->width() / std::max(n, 1)); // 0 before the first layout
    if (slot != m_wrappedTo) {
        m_wrappedNames.clear();
        m_wrappedTo = slot;
    }
    for (int i = 0; i < n; ++i) {
        const Bar &bar = m_shown->analysis.bars[std::size_t(i)];
        QString label = barLabel(bar);
        if (!m_shown->gpus.empty())
            label += bar.required <= m_shown->gpus.front().capacity ? QStringLiteral(" ✓") : QStringLiteral(" ✗");
        auto name = m_wrappedNames.constFind(label);
        if (name == m_wrappedNames.cend())
            name = m_wrappedNames.insert(
                label, slot > 0 ? wrappedAtWords(label, m_plot->xAxis->tickLabelFont(), slot) : label);
        ticker->addTick(keys[i], *name);
        highest = std::max(highest, toUnits(bar.breakdown.total, m_shown->units));
    }
    for (Component c : kComponents) {
        QVector<double> values(n);
        for (int i = 0; i < n; ++i)
            values[i] = toUnits(m_shown->analysis.bars[std::size_t(i)].breakdown.component(c), m_shown->units);
        QCPBars *bars = m_bars[std::size_t(c)];
        bars->setData(keys, values, true);
        bars->setName(componentName(c));
        const bool any = std::any_of(values.begin(), values.end(), [](double v) { return v > 0; });
        if (any)
            bars->addToLegend();
        else
            bars->removeFromLegend();
    }
    wrapLegendRow(m_plot);

    m_plot->clearItems();
    QFont labelFont = m_plot->font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * m_zoom);
    highest = std::max(highest,
                       addCapacityLines(m_plot, m_shown->gpus, m_shown->units, palette(), m_plot->font(), m_zoom));
    m_plot->xAxis->setRange(0.4, n + 0.6);
    m_plot->yAxis->setRange(0, std::max(highest, 1.0) * 1.12);
    m_plot->yAxis->setLabel(tr("Memory per GPU (%1)").arg(QString::fromUtf8(unitSymbol(m_shown->units).data())));
    addBarLabels(labelFont);
    m_plot->redraw();
}

void MemoryChart::addBarLabels(const QFont &font)
{
    // Each bar's total above it, and each part's size inside it where the part is tall and wide
    // enough to hold the text: a slide needs the numbers, not a ruler.
    m_plot->layOut(); // the pixel sizes of this range, before the paint
    const QRect area = m_plot->axisRect()->rect();
    if (area.height() <= 0)
        return; // no size yet: the resize that gives it one adds them
    const QFontMetrics metrics(font);
    const double pixelsPerUnit = area.height() / m_plot->yAxis->range().size();
    const double barPixels = kBarWidth * area.width() / m_plot->xAxis->range().size();
    const QColor text = palette().color(QPalette::WindowText);
    // The capacity lines' labels, placed already (the only text items yet): a bar's total must
    // not print over one.
    QList<QRectF> capacityLabels;
    for (int i = 0; i < m_plot->itemCount(); ++i)
        if (const auto *tag = qobject_cast<QCPItemText *>(m_plot->item(i)))
            capacityLabels << QRectF(tag->topLeft->pixelPosition(), tag->bottomRight->pixelPosition());
    const auto overlapsCapacity = [&](double key, double value, const QString &what) {
        const double width = metrics.horizontalAdvance(what) + 6; // the tag's padding, below
        const QPointF bottom(m_plot->xAxis->coordToPixel(key), m_plot->yAxis->coordToPixel(value));
        const QRectF tag(bottom.x() - width / 2, bottom.y() - metrics.height() - 1, width, metrics.height() + 1);
        return std::any_of(capacityLabels.begin(), capacityLabels.end(),
                           [&](const QRectF &other) { return other.intersects(tag); });
    };
    const auto label = [&](double key, double value, const QString &what, const QColor &colour, Qt::Alignment align) {
        auto *tag = new QCPItemText(m_plot);
        tag->position->setCoords(key, value);
        tag->setPositionAlignment(align);
        tag->setText(what);
        tag->setFont(font);
        tag->setColor(colour);
        tag->setClipToAxisRect(true);
        return tag;
    };
    for (std::size_t i = 0; i < m_shown->analysis.bars.size(); ++i) {
        const Bar &bar = m_shown->analysis.bars[i];
        const Breakdown &b = bar.breakdown;
        const double key = double(i + 1);
        QString total = bytesText(b.total, m_shown->units);
        if (bar.required < b.total) {
            // By the peak, the bar's parts add up to more than the step ever holds at once: a
            // dashed line marks what the verdict compares, and the label above names both (above
            // a bar too narrow for both, the peak).
            auto *line = new QCPItemLine(m_plot);
            const double at = toUnits(bar.required, m_shown->units);
            const double reach = kBarWidth / 2 + 0.04; // past the bar's edges, to read as a mark
            line->start->setCoords(key - reach, at);
            line->end->setCoords(key + reach, at);
            line->setPen(QPen(text, 1.5 * m_zoom, Qt::DashLine));
            // Both numbers where they fit the bar and clear the capacity labels, else the peak alone.
            const QString peak = bytesText(bar.required, m_shown->units);
            const QString both = tr("peak %1 · sum %2").arg(peak, total);
            const bool bothFit = metrics.horizontalAdvance(both) <= barPixels * 1.5
                && !overlapsCapacity(key, toUnits(b.total, m_shown->units), both);
            total = bothFit ? both : tr("peak %1").arg(peak);
        }
        // Left out where it cannot stand clear of a capacity label: the verdict line has the numbers.
        if (metrics.horizontalAdvance(total) <= barPixels * 1.5
            && !overlapsCapacity(key, toUnits(b.total, m_shown->units), total)) {
            // On the plot's background, so that a capacity line just above never strikes it through.
            QCPItemText *tag = label(key, toUnits(b.total, m_shown->units), total, text,
                                     Qt::AlignHCenter | Qt::AlignBottom);
            tag->setBrush(palette().base());
            tag->setPadding(QMargins(3, 0, 3, 1));
        }
        double base = 0;
        for (Component c : kComponents) {
            const double value = toUnits(b.component(c), m_shown->units);
            const QString size = bytesText(b.component(c), m_shown->units);
            if (value * pixelsPerUnit >= metrics.height() * 1.4 && metrics.horizontalAdvance(size) <= barPixels - 6) {
                // In the middle of the part, or nearer one end where a capacity line or the bar's
                // peak line crosses the middle.
                const auto near = [&](Bytes line, double y) {
                    return std::abs(toUnits(line, m_shown->units) - y) * pixelsPerUnit < metrics.height() * 0.7;
                };
                const auto clear = [&](double y) {
                    return !(bar.required < b.total && near(bar.required, y))
                        && std::none_of(m_shown->gpus.begin(), m_shown->gpus.end(),
                                        [&](const GpuPreset &gpu) { return near(gpu.capacity, y); });
                };
                const double half = metrics.height() * 0.6 / pixelsPerUnit; // keeps the text inside the part
                for (const double y : {base + value / 2, base + half, base + value - half}) {
                    if (!clear(y))
                        continue;
                    label(key, y, size, textOn(componentColor(c)), Qt::AlignCenter);
                    break;
                }
            }
            base += value;
        }
    }
}

void MemoryChart::recolour()
{
    m_wrappedNames.clear(); // the font may have changed
    const QPalette p = palette();
    const QColor text = p.color(QPalette::WindowText);
    stylePlot(m_plot, p, QWidget::font(), m_zoom);
    for (Component c : kComponents) {
        QCPBars *bars = m_bars[std::size_t(c)];
        QColor fill = componentColor(c);
        if (c == Component::Overhead)
            fill.setAlpha(150); // lighter: it is not one of the article's four
        const bool dimmed = m_highlighted && *m_highlighted != c;
        if (dimmed)
            fill.setAlpha(70);
        bars->setBrush(seenOver(fill, p.color(QPalette::Base)));
        bars->setPen(
            QPen(m_highlighted == c ? text : p.color(QPalette::Base), (m_highlighted == c ? 2.0 : 1.0) * m_zoom));
    }
    rebuild();
}

void MemoryChart::highlight(std::optional<Component> component)
{
    if (component == m_highlighted)
        return;
    m_highlighted = component;
    recolour();
}

void MemoryChart::setZoom(double zoom)
{
    m_zoom = zoom;
    recolour();
}

void MemoryChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        recolour();
    else if (event->type() == QEvent::LanguageChange)
        rebuild();
    QWidget::changeEvent(event);
}

bool MemoryChart::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Resize)
        QMetaObject::invokeMethod(this, &MemoryChart::rebuild, Qt::QueuedConnection); // labels fit the new size
    else if (watched == m_plot && event->type() == QEvent::MouseMove)
        showTooltip(static_cast<QMouseEvent *>(event)->pos());
    else if (watched == m_plot && event->type() == QEvent::Leave)
        Q_EMIT componentHovered(std::nullopt);
    return QWidget::eventFilter(watched, event);
}

void MemoryChart::showTooltip(QPoint position)
{
    const int bar = int(std::lround(m_plot->xAxis->pixelToCoord(position.x()))) - 1;
    const double y = m_plot->yAxis->pixelToCoord(position.y());
    if (bar < 0 || bar >= int(m_shown->analysis.bars.size()) || y < 0) {
        QToolTip::hideText();
        Q_EMIT componentHovered(std::nullopt);
        return;
    }
    const Breakdown &b = m_shown->analysis.bars[std::size_t(bar)].breakdown;
    double top = 0;
    for (Component c : kComponents) {
        top += toUnits(b.component(c), m_shown->units);
        if (y > top || b.component(c) == 0)
            continue;
        QString text =
            QStringLiteral("<b>%1 — %2</b>").arg(componentName(c), bytesText(b.component(c), m_shown->units));
        for (int i = 0; i < kItemCount; ++i) {
            const auto id = static_cast<ItemId>(i);
            if (componentOf(id) == c && b.has(id) && b.item(id) > 0)
                text += QStringLiteral("<br>%1: %2").arg(itemName(id), bytesText(b.item(id), m_shown->units));
        }
        QToolTip::showText(m_plot->mapToGlobal(position), text, m_plot);
        Q_EMIT componentHovered(c);
        return;
    }
    QToolTip::showText(m_plot->mapToGlobal(position), tr("Total: %1").arg(bytesText(b.total, m_shown->units)), m_plot);
    Q_EMIT componentHovered(std::nullopt);
}

double MemoryChart::barValue(int bar, Component c) const
{
    const auto values = m_bars[std::size_t(c)]->data();
    return bar < values->size() ? values->at(bar)->value : 0.0;
}

int MemoryChart::barCount() const
{
    return m_bars[0]->data()->size();
}

QList<double> MemoryChart::capacityLines() const
{
    QList<double> values;
    for (int i = 0; i < m_plot->itemCount(); ++i)
        if (auto *line = qobject_cast<QCPItemStraightLine *>(m_plot->item(i)))
            values << line->point1->coords().y();
    return values;
}

} // namespace vl
