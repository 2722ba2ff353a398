#include "ui/plotstyle.h"

#include "ui/theme.h"

#include <QEvent>
#include <QPalette>

#include <qcustomplot.h>

#include <algorithm>

namespace vl {

void stylePlot(QCustomPlot *plot, const QPalette &palette, const QFont &font, double zoom)
{
    const QColor text = palette.color(QPalette::WindowText);
    QFont scaled = font;
    scaled.setPointSizeF(font.pointSizeF() * zoom);
    // DirectPlot fills with it under an opaque widget: it must be solid. The axis rect
    // needs no fill of its own on top.
    plot->setBackground(QBrush(palette.color(QPalette::Base)));
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        axis->setBasePen(QPen(text, zoom));
        axis->setTickPen(QPen(text, zoom));
        axis->setSubTickPen(QPen(text, zoom));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->setTickLabelFont(scaled);
        axis->setLabelFont(scaled);
        // Solid, faint grid lines: dotted pens cost the raster engine several times more.
        QColor grid = text;
        grid.setAlpha(45); // faint on light and dark alike
        axis->grid()->setPen(QPen(grid, zoom));
    }
    plot->legend->setBrush(palette.brush(QPalette::Base));
    plot->legend->setTextColor(text);
    plot->legend->setBorderPen(QPen(palette.color(QPalette::Mid), zoom));
    plot->legend->setFont(scaled);
}

QCPLayer *areaLayer(QCustomPlot *plot)
{
    const QString name = QStringLiteral("areas");
    if (!plot->layer(name))
        plot->addLayer(name, plot->layer(QStringLiteral("grid")), QCustomPlot::limBelow);
    return plot->layer(name);
}

void addHorizontalLine(QCustomPlot *plot, double y, const QPen &pen, const QString &label, LabelSide side,
                       const QFont &font, const QBrush &labelBackground, LabelEdge edge)
{
    auto *line = new QCPItemStraightLine(plot);
    line->point1->setCoords(0, y);
    line->point2->setCoords(1, y);
    line->setPen(pen);
    line->setAntialiased(false); // exactly horizontal: antialiasing would only blur it
    auto *tag = new QCPItemText(plot);
    tag->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    tag->position->setTypeY(QCPItemPosition::ptPlotCoords);
    tag->position->setCoords(side == LabelSide::Left ? 0.005 : 0.995, y);
    tag->setPositionAlignment((side == LabelSide::Left ? Qt::AlignLeft : Qt::AlignRight)
                              | (edge == LabelEdge::Above ? Qt::AlignBottom : Qt::AlignTop));
    tag->setText(label);
    tag->setColor(pen.color());
    tag->setFont(font);
    tag->setBrush(labelBackground);
    tag->setPadding(QMargins(4, 1, 4, 1));
}

namespace {

// Wraps a plot's legend row again whenever the plot is resized.
class LegendRowWrapper : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize)
            wrapLegendRow(static_cast<QCustomPlot *>(watched));
        return false;
    }
};

} // namespace

void addLegendRow(QCustomPlot *plot)
{
    plot->installEventFilter(new LegendRowWrapper(plot));
    plot->legend->setVisible(true);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->legend->setMargins(QMargins(4, 2, 4, 2));
}

void wrapLegendRow(QCustomPlot *plot)
{
    QCPLegend *legend = plot->legend;
    // Measuring text is the costly part (it shapes it): only when the entries, their font or the
    // width changed, not on every slider tick.
    QString key = legend->font().key() + QLatin1Char('\n') + QString::number(plot->width());
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
            key += QLatin1Char('\n') + entry->plottable()->name();
    if (legend->property("wrappedFor").toString() == key)
        return;
    legend->setProperty("wrappedFor", key);
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem *entry = legend->item(i)) // cells emptied by removeFromLegend are null
            widest = std::max(widest, entry->minimumOuterSizeHint().width());
    const int usable = plot->width() - legend->margins().left() - legend->margins().right();
    const int columns = std::max(1, (usable + legend->columnSpacing()) / (widest + legend->columnSpacing()));
    if (columns == legend->wrap())
        return;
    legend->setWrap(columns);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true); // rearranges the entries
}

namespace {

double highestCapacity(const std::vector<GpuPreset> &gpus, Units units)
{
    double highest = 0;
    for (const GpuPreset &gpu : gpus)
        highest = std::max(highest, toUnits(gpu.capacity, units));
    return highest;
}

// A label's height in the units of an axis that runs a little above `highest`: about a twentieth.
constexpr double labelHeight(double highest)
{
    return 0.05 * highest;
}

// A capacity line standing within a label's height above a tag placed at `tagAt`.
bool crowdsTag(double y, double tagAt, double crowded)
{
    return y >= tagAt && y - tagAt < crowded;
}

} // namespace

double tagClearOfCapacityLines(const std::vector<GpuPreset> &gpus, Units units, double tagAt)
{
    const double crowded = labelHeight(highestCapacity(gpus, units));
    double clear = tagAt;
    for (const GpuPreset &gpu : gpus)
        if (const double y = toUnits(gpu.capacity, units); crowdsTag(y, tagAt, crowded))
            clear = std::max(clear, y);
    return clear;
}

double addCapacityLines(QCustomPlot *plot, const std::vector<GpuPreset> &gpus, Units units, const QPalette &palette,
                        const QFont &font, double zoom, double tagAt)
{
    QFont scaled = font;
    scaled.setPointSizeF(font.pointSizeF() * zoom);
    const double highest = highestCapacity(gpus, units);
    // A line within a label's height below another (an H100's 79.6 GiB under an A100's 80 GiB)
    // takes its label under the line, so the two labels do not print over each other; so does a
    // line just above the tag at `tagAt`, which tagClearOfCapacityLines() lifts onto it.
    const double crowded = labelHeight(highest);
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const double y = toUnits(gpus[i].capacity, units);
        // Of two equal lines, the later one's label goes under.
        bool labelUnder = tagAt >= 0 && crowdsTag(y, tagAt, crowded);
        for (std::size_t j = 0; j < gpus.size(); ++j) {
            const double other = toUnits(gpus[j].capacity, units);
            labelUnder |= other - y < crowded && (other > y || (other == y && j < i));
        }
        const bool target = i == 0;
        const QPen pen(target ? capacityColor() : palette.color(QPalette::WindowText), 1.5 * zoom,
                       target ? Qt::SolidLine : Qt::DashLine);
        addHorizontalLine(plot, y, pen, capacityLabel(gpus[i], units), LabelSide::Right, scaled, palette.base(),
                          labelUnder ? LabelEdge::Below : LabelEdge::Above);
    }
    return highest;
}

} // namespace vl
