#include "ui/structurediagram.h"

#include "ui/theme.h"

#include <QEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>

namespace vl {

namespace {

// `font`, made smaller step by step (down to `floor` of its size) until `text` wrapped in `box`
// fits its height.
QFont fitted(QFont font, const QRectF &box, int flags, const QString &text, double floor)
{
    const double full = font.pointSizeF();
    while (font.pointSizeF() > full * floor
           && QFontMetricsF(font).boundingRect(box, flags, text).height() > box.height())
        font.setPointSizeF(font.pointSizeF() * 0.92);
    return font;
}

// `text` cut at the end, with an ellipsis, to the longest start that wrapped in `box` fits its
// height: a small window gets a legible start of a long list (the table and the tooltip have it
// all), never text too small to read.
QString elidedToFit(const QFontMetricsF &metrics, const QRectF &box, int flags, const QString &text)
{
    if (metrics.boundingRect(box, flags, text).height() <= box.height())
        return text;
    qsizetype fits = 0, tooLong = text.size();
    while (tooLong - fits > 1) {
        const qsizetype middle = (fits + tooLong) / 2;
        if (metrics.boundingRect(box, flags, text.left(middle) + QChar(0x2026)).height() <= box.height())
            fits = middle;
        else
            tooLong = middle;
    }
    return text.left(fits).trimmed() + QChar(0x2026);
}

} // namespace

QString captionTitle(const QFont &font, const QString &name, const QString &size, double width)
{
    const QString oneLine = QStringLiteral("%1 · %2").arg(name, size);
    if (QFontMetricsF(font).horizontalAdvance(oneLine) <= width)
        return oneLine;
    return wrappedAtWords(name, font, width) + QLatin1Char('\n') + size;
}

namespace {

void paintArrowHead(QPainter &p, QPointF tip, QPointF direction, double size, const QColor &ink)
{
    const QPointF n(-direction.y(), direction.x());
    QPainterPath path;
    path.moveTo(tip);
    path.lineTo(tip - direction * size + n * size * 0.5);
    path.lineTo(tip - direction * size - n * size * 0.5);
    path.closeSubpath();
    p.fillPath(path, ink);
}

// The order of one training step: parameters → (forward) → activations → (backward) →
// gradients → (optimizer step) → optimizer states → (update) → parameters. Overhead, not
// part of the cycle, stands last when present.
constexpr std::array kFlowOrder{Component::Parameters, Component::Activations, Component::Gradients,
                                Component::OptimizerStates, Component::Overhead};

constexpr double kMinSide = 10.0; // the smallest block still drawn as a block

// A tooltip's line for one item: its name and its formula.
QString itemLine(const ExplainedItem &item, const FormulaLocalizer &formulas)
{
    return QStringLiteral("<br>%1: %2").arg(itemName(item.id), formulas.localized(item.formula).toHtmlEscaped());
}

} // namespace

DiagramLayout layoutDiagram(const QRectF &area, const Breakdown &b)
{
    DiagramLayout layout;
    const int cells = b.component(Component::Overhead) > 0 ? 5 : 4;
    const double cellWidth = area.width() / cells;
    // Every block has the same shape, so areas stay proportional to bytes; where the cells are
    // wide enough to hold labels in a narrower block, the shape is as tall as the window allows
    // (up to twice its width), so a tall window is used, not left empty.
    const double maxWidth = std::max(1.0, cellWidth * 0.78);
    const double maxHeight = std::max(1.0, area.height());
    constexpr double kNarrowest = 180.0; // a block narrower than this cannot hold "Weights 13.0 GiB"
    layout.aspect = maxWidth < kNarrowest
        ? 1.0
        : std::clamp(maxHeight / maxWidth, 1.0, std::min(2.0, maxWidth / kNarrowest * 1.2));
    const double largestWidth = std::min(maxWidth, maxHeight / layout.aspect);
    Bytes largest = 0;
    for (Component c : kFlowOrder)
        largest = std::max(largest, b.component(c));
    if (largest <= 0)
        return layout;
    layout.bytesPerSquarePixel = double(largest) / (largestWidth * largestWidth * layout.aspect);
    layout.baseline = area.top() + largestWidth * layout.aspect;
    layout.cellWidth = cellWidth;
    for (int i = 0; i < cells; ++i) {
        const Bytes bytes = b.component(kFlowOrder[std::size_t(i)]);
        if (bytes <= 0)
            continue;
        const double width = layout.side(bytes);
        const double height = width * layout.aspect;
        const double centre = area.left() + cellWidth * (i + 0.5);
        layout.blocks[std::size_t(kFlowOrder[std::size_t(i)])] = QRectF(centre - width / 2, layout.baseline - height,
                                                                        width, height);
    }
    if (zeroOffloadHost(b) > 0 && b.component(Component::OptimizerStates) == 0) {
        const auto cell = std::find(kFlowOrder.begin(), kFlowOrder.end(), Component::OptimizerStates)
            - kFlowOrder.begin();
        const double centre = area.left() + cellWidth * (double(cell) + 0.5);
        const double side = layout.side(zeroOffloadHost(b));
        const double width = std::min(side, largestWidth);
        layout.hostToScale = side <= largestWidth;
        layout.host = QRectF(centre - width / 2, layout.baseline - width * layout.aspect, width, width * layout.aspect);
    }
    return layout;
}

QList<double> stackLabels(const QList<double> &wanted, double lineHeight, double bottom)
{
    // From the bottom up: a label moves up, never down, out of the way of the one below.
    QList<double> placed(wanted.size());
    double below = bottom + lineHeight / 2;
    for (qsizetype i = wanted.size() - 1; i >= 0; --i)
        below = placed[i] = std::min(wanted[i], below - lineHeight);
    return placed;
}

StructureDiagram::StructureDiagram(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("structureDiagram"));
    setMouseTracking(true);
    setMinimumSize(360, 260);
    setFocusPolicy(Qt::StrongFocus); // Space and the arrow keys walk through the step
    // paintEvent fills every pixel: Qt need not paint the tab page underneath first.
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void StructureDiagram::showMoment(std::optional<int> point)
{
    m_moment = point;
    update();
}

void StructureDiagram::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Space)
        Q_EMIT playRequested();
    else if (event->key() == Qt::Key_Left || event->key() == Qt::Key_Right)
        Q_EMIT stepRequested(event->key() == Qt::Key_Right ? 1 : -1);
    else
        QWidget::keyPressEvent(event);
}

void StructureDiagram::showAnalysis(ShownPtr shown)
{
    m_shown = std::move(shown);
    update();
}

void StructureDiagram::highlight(std::optional<Component> component)
{
    if (component != m_highlighted) {
        m_highlighted = component;
        update();
    }
}

void StructureDiagram::setZoom(double zoom)
{
    m_zoom = zoom;
    update();
}

QRectF StructureDiagram::diagramArea() const
{
    const double line = fontMetrics().height() * m_zoom;
    // Above the blocks: the title and the labelled flow arrows; below: the labels and the
    // arrow that closes the loop.
    return QRectF(rect()).adjusted(8, line * 5.2, -8, -line * 7.6);
}

DiagramLayout StructureDiagram::currentLayout() const
{
    return layoutDiagram(diagramArea(), m_shown->analysis.breakdown);
}

void StructureDiagram::paintEvent(QPaintEvent *)
{
    // No antialiasing for the blocks: they are axis-aligned, and antialiased fills and outlines
    // of fractional rectangles cost several times more. paintFlow turns it on for its arrows.
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    QFont font = p.font();
    font.setPointSizeF(font.pointSizeF() * m_zoom);
    QFont titleFont = font;
    titleFont.setBold(true);
    p.setFont(titleFont);
    p.setPen(palette().color(QPalette::Text));
    const auto &points = m_shown->analysis.timeline.points;
    const bool moment = m_moment && *m_moment >= 0 && *m_moment < int(points.size());
    // At a moment of the step, the moment in words; its parts' list gives way first where the
    // window is narrow (each block shows its part anyway).
    const QString sum = bytesText(m_shown->analysis.breakdown.total, m_shown->units);
    const QString peak = bytesText(m_shown->analysis.timeline.peak(), m_shown->units);
    QString title = moment ? tr("At %1").arg(describePoint(points[std::size_t(*m_moment)], m_shown->units))
        : m_shown->analysis.timeline.peakAtStartUp()
        ? tr("One GPU's memory: %1 in all, %2 at its peak, the run's start-up (block areas are proportional to bytes)")
              .arg(sum, peak)
        : tr("One GPU's memory: %1 in all, %2 at the step's peak (block areas are proportional to bytes)")
              .arg(sum, peak);
    p.drawText(QRectF(8, 4, width() - 16, p.fontMetrics().height() * 1.6), Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(title, Qt::ElideRight, width() - 16));
    p.setFont(font);

    const DiagramLayout layout = currentLayout();
    if (layout.bytesPerSquarePixel <= 0)
        return;
    paintFlow(p, layout);
    double captionsBottom = layout.baseline;
    for (int c = 0; c < kComponentCount; ++c)
        if (!layout.blocks[std::size_t(c)].isEmpty())
            captionsBottom = std::max(captionsBottom, paintBlock(p, Component(c), layout));
    if (!layout.host.isEmpty())
        captionsBottom = std::max(captionsBottom, paintHostMemory(p, layout));
    paintLoop(p, layout, captionsBottom);
}

double StructureDiagram::paintBlock(QPainter &p, Component c, const DiagramLayout &layout) const
{
    const QRectF rect = layout.blocks[std::size_t(c)];
    const Breakdown &b = m_shown->analysis.breakdown;
    const QColor text = palette().color(QPalette::Text);
    const QColor base = palette().color(QPalette::Base);
    const bool dim = m_highlighted && *m_highlighted != c;
    const QRectF solid = rect.width() < kMinSide
        ? QRectF(rect.center().x() - kMinSide / 2, rect.bottom() - kMinSide, kMinSide, kMinSide)
        : rect;
    const double cellLeft = rect.center().x() - layout.cellWidth / 2;
    QStringList notes;

    // Recomputation drawn as an outline: what the activations would be without it.
    if (c == Component::Activations && m_shown->scenario.recompute != Recompute::None) {
        const Bytes without = activationsWithoutRecompute(b);
        // The same shape as the blocks, so its area too is proportional to the bytes.
        const double side = layout.side(without);
        // No taller than the room above the baseline: the flow's labels stand over it.
        const double limit = std::min(layout.cellWidth * 0.95, (layout.baseline - diagramArea().top()) / layout.aspect);
        const QRectF ghost(rect.center().x() - std::min(side, limit) / 2,
                           rect.bottom() - std::min(side, limit) * layout.aspect, std::min(side, limit),
                           std::min(side, limit) * layout.aspect);
        p.setPen(QPen(componentColor(c), 1.2 * m_zoom, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(ghost);
        notes << (side > limit ? tr("dashed: %1 without recomputation (not to scale)")
                               : tr("dashed: %1 without recomputation"))
                     .arg(bytesText(without, m_shown->units));
    }
    // Offloaded activations wait in CPU memory, not in this block.
    if (c == Component::Activations && b.hostItem(ItemId::LayerActivations) > 0)
        notes << tr("offloaded: %1 in CPU memory").arg(bytesText(b.hostItem(ItemId::LayerActivations), m_shown->units));
    // A paged optimizer's states live in managed memory, which the driver can page out.
    if (c == Component::OptimizerStates && b.hostItem(ItemId::PagedOptimizerStates) > 0)
        notes << tr("paged: %1 in managed memory")
                     .arg(bytesText(b.hostItem(ItemId::PagedOptimizerStates), m_shown->units));

    // Items as slices, top to bottom, each with its share of the height. A label that does not fit
    // inside its slice goes beside the block with a leader line; such labels stack so that they
    // never overlap.
    const Bytes total = b.component(c);
    double y = solid.top();
    // Beside the block: up to the next block on the right (or the widget's edge).
    double rightLimit = width() - 4.0;
    for (const QRectF &other : layout.blocks)
        if (!other.isEmpty() && other != rect && other.left() >= solid.right())
            rightLimit = std::min(rightLimit, other.left());
    if (!layout.host.isEmpty() && layout.host.left() >= solid.right())
        rightLimit = std::min(rightLimit, layout.host.left());
    const double roomRight = rightLimit - solid.right() - 24 * m_zoom;
    const double lineHeight = p.fontMetrics().height();
    struct Outside {
        double sliceY;
        QString label;
    };
    QVarLengthArray<Outside, 8> outside;
    for (int i = 0; i < kItemCount; ++i) {
        const auto id = ItemId(i);
        if (componentOf(id) != c || !b.has(id) || b.item(id) <= 0)
            continue;
        const double h = solid.height() * double(b.item(id)) / double(total);
        QColor fill = itemColor(id);
        if (dim)
            fill.setAlpha(60);
        const QRectF slice(solid.left(), y, solid.width(), h);
        p.fillRect(slice, fill);
        if (id == ItemId::LayerActivations && b.layersOnStage > 1 && h / double(b.layersOnStage) >= 3.0) {
            // One slab per layer: activations pile up layer by layer, as the article says.
            QVarLengthArray<QLineF, 128> slabs;
            for (std::int64_t l = 1; l < b.layersOnStage; ++l) {
                const double ly = y + h * double(l) / double(b.layersOnStage);
                slabs.append(QLineF(slice.left(), ly, slice.right(), ly));
            }
            QColor seam = base;
            seam.setAlphaF(0.45f);                   // faint: the slabs must not drown the slice's label
            p.setPen(QPen(seenOver(seam, fill), 0)); // a hairline, in a solid colour
            p.drawLines(slabs.constData(), int(slabs.size()));
        }
        const QString name = itemName(id), size = bytesText(b.item(id), m_shown->units);
        // A wrapped note keeps each number beside its unit.
        const QString label = QStringLiteral("%1 %2").arg(name, QString(size).replace(QLatin1Char(' '), QChar(0x00A0)));
        const QFontMetrics &metrics = p.fontMetrics();
        const int labelWidth = metrics.horizontalAdvance(label);
        const double inner = slice.width() - 8;
        if (h >= lineHeight * 1.1 && labelWidth <= inner) {
            p.setPen(textOn(fill));
            p.drawText(slice.adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
        } else if (h >= lineHeight * 2.2 && metrics.horizontalAdvance(name) <= inner
                   && metrics.horizontalAdvance(size) <= inner) {
            p.setPen(textOn(fill)); // the name above its size
            p.drawText(slice.adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter, name + QLatin1Char('\n') + size);
        } else {
            outside.append({slice.center().y(), label});
        }
        y += h;
    }
    // Outside labels, to the right where the whole label has room (the gap up to the next block
    // is this block's alone), laid out from the bottom up so that none reaches below the block
    // (where its title is) and none overlaps the next. The rest are listed under the title.
    const double edge = solid.right();
    p.setPen(QPen(dim ? palette().color(QPalette::Disabled, QPalette::Text) : text, 0));
    QStringList unplaced;
    QList<double> wanted;
    QStringList beside;
    for (const Outside &label : outside) {
        if (p.fontMetrics().horizontalAdvance(label.label) > roomRight) {
            unplaced << label.label;
            continue;
        }
        wanted << label.sliceY;
        beside << label.label;
    }
    const QList<double> placed = stackLabels(wanted, lineHeight, solid.bottom());
    for (qsizetype i = 0; i < placed.size(); ++i) {
        const double start = edge + 10 * m_zoom;
        p.drawLine(QPointF(edge - 4 * m_zoom, wanted[i]), QPointF(start - 2, placed[i]));
        p.drawText(QRectF(start, placed[i] - lineHeight / 2, roomRight, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   beside[i]);
    }
    if (!unplaced.isEmpty())
        notes << unplaced.join(QStringLiteral(" ·\u00A0")); // a wrapped line starts with the dot, none ends with it
    // At a moment of the step: what is not alive then is faded, from the top down.
    const auto &points = m_shown->analysis.timeline.points;
    if (m_moment && *m_moment >= 0 && *m_moment < int(points.size()) && total > 0) {
        const double alive = std::clamp(double(points[std::size_t(*m_moment)].part(c)) / double(total), 0.0, 1.0);
        QColor veil = base;
        veil.setAlphaF(0.82f);
        p.fillRect(QRectF(solid.left(), solid.top(), solid.width(), solid.height() * (1.0 - alive)), veil);
    }
    p.setPen(
        QPen(m_highlighted == c ? text : componentColor(c).darker(130), (m_highlighted == c ? 2.5 : 1.0) * m_zoom));
    p.setBrush(Qt::NoBrush);
    p.drawRect(solid);

    // Sharded: this GPU holds one of N slices of the block.
    const std::int64_t shards = shardCount(m_shown->scenario, c);
    double labelTop = solid.bottom() + 3;
    if (shards > 1) {
        const int slices = int(std::min<std::int64_t>(shards, 64));
        const double stripWidth = std::min(layout.cellWidth * 0.9, std::max(solid.width(), 90.0 * m_zoom));
        const QRectF strip(rect.center().x() - stripWidth / 2, labelTop, stripWidth, 7 * m_zoom);
        p.setPen(QPen(componentColor(c), 0.8));
        for (int i = 0; i < slices; ++i) {
            const QRectF slot(strip.left() + strip.width() * i / slices, strip.top(), strip.width() / slices,
                              strip.height());
            p.setBrush(i == 0 ? QBrush(componentColor(c)) : QBrush(Qt::NoBrush));
            p.drawRect(slot);
        }
        labelTop = strip.bottom() + 2;
        notes << tr("%1: this GPU holds 1 of %2 slices")
                     .arg(QString::fromUtf8(shardingName(m_shown->scenario).data(),
                                            qsizetype(shardingName(m_shown->scenario).size())),
                          QString::number(shards));
    }
    if (c == Component::Parameters && dtypeBytes(m_shown->scenario).master > 0)
        notes << tr("16-bit working copy; the FP32 master is in the optimizer states");

    // The label is always outside the block, so a 1.9 GB slice beside a 120 GB block is still named.
    return paintCaption(p, layout, cellLeft, labelTop, componentName(c), bytesText(total, m_shown->units), notes, dim);
}

double StructureDiagram::paintCaption(QPainter &p, const DiagramLayout &layout, double cellLeft, double top,
                                      const QString &name, const QString &size, const QStringList &notes,
                                      bool dim) const
{
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(dim ? palette().color(QPalette::Disabled, QPalette::Text) : palette().color(QPalette::Text));
    const QString title = captionTitle(p.font(), name, size, layout.cellWidth - 6);
    const double lines = double(title.count(QLatin1Char('\n')) + 1);
    const QRectF labelBox(cellLeft + 3, top, layout.cellWidth - 6, p.fontMetrics().height() * (lines + 0.2));
    p.drawText(labelBox, Qt::AlignHCenter | Qt::AlignTop, title);
    QFont restore = QWidget::font();
    restore.setPointSizeF(restore.pointSizeF() * m_zoom);
    QFont normal = bold;
    normal.setBold(false);
    normal.setPointSizeF(normal.pointSizeF() * 0.9);
    // Up to seven lines, and room left under them for the loop that closes the step and its label.
    const double line = QFontMetricsF(restore).height();
    const double room = std::min(QFontMetricsF(normal).height() * 7, height() - line * 2.6 - labelBox.bottom());
    const QRectF notesBox(labelBox.left(), labelBox.bottom(), labelBox.width(), std::max(room, 0.0));
    const int flags = Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap;
    const QString noteText = notes.join(QLatin1Char('\n'));
    p.setFont(fitted(normal, notesBox, flags, noteText, 0.85));
    const QString shown = elidedToFit(p.fontMetrics(), notesBox, flags, noteText);
    QRectF drawn;
    p.drawText(notesBox, flags, shown, &drawn);
    p.setFont(restore);
    return noteText.isEmpty() ? labelBox.bottom() : std::max(labelBox.bottom(), drawn.bottom());
}

// ZeRO-Offload's CPU memory where the optimizer states would stand: beside this GPU's memory,
// not part of it.
double StructureDiagram::paintHostMemory(QPainter &p, const DiagramLayout &layout) const
{
    p.setPen(QPen(componentColor(Component::OptimizerStates), 1.2 * m_zoom, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(layout.host);
    const QStringList notes{layout.hostToScale ? tr("offloaded by ZeRO-Offload, not on this GPU")
                                               : tr("offloaded by ZeRO-Offload, not on this GPU (not to scale)")};
    return paintCaption(p, layout, layout.host.center().x() - layout.cellWidth / 2, layout.host.bottom() + 3,
                        tr("CPU memory"), bytesText(zeroOffloadHost(m_shown->analysis.breakdown), m_shown->units),
                        notes, false);
}

void StructureDiagram::paintFlow(QPainter &p, const DiagramLayout &layout) const
{
    const QColor ink = palette().color(QPalette::PlaceholderText);
    const double line = p.fontMetrics().height();
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(ink, 1.5 * m_zoom));
    const QRectF area = diagramArea();
    const double arrowY = area.top() - line * 0.6;
    const QFont base = p.font();
    const QStringList steps{tr("forward: reads the parameters, leaves activations"),
                            tr("backward: consumes activations, produces gradients"),
                            tr("optimizer step: reads gradients, master copy and moments")};
    for (int i = 0; i < 3; ++i) {
        const double from = area.left() + layout.cellWidth * (i + 0.5) + 10;
        const double to = area.left() + layout.cellWidth * (i + 1.5) - 10;
        p.drawLine(QPointF(from, arrowY), QPointF(to, arrowY));
        paintArrowHead(p, QPointF(to, arrowY), QPointF(1, 0), 7 * m_zoom, ink);
        // A line's gap above the arrow: CJK lines stand taller than the Latin font's metrics say.
        // The title keeps its line above: three lines of label shrink to fit 2.6.
        const QRectF box(from, arrowY - line * 3.0, to - from, line * 2.6);
        const int flags = Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap;
        p.setFont(fitted(base, box, flags, steps[i], 0.6));
        p.drawText(box, flags, steps[i]);
        p.setFont(base);
    }
    p.restore();
}

void StructureDiagram::paintLoop(QPainter &p, const DiagramLayout &layout, double captionsBottom) const
{
    // The loop closes under the captions, its sentence just above it: the update writes the parameters.
    const QColor ink = palette().color(QPalette::PlaceholderText);
    const double line = p.fontMetrics().height();
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(ink, 1.5 * m_zoom));
    const double loopY = std::min(height() - line * 0.4, captionsBottom + line * 1.4);
    const QRectF area = diagramArea();
    const double first = area.left() + layout.cellWidth * 0.5, last = area.left() + layout.cellWidth * 3.5;
    const double rise = loopY - line * 0.8;
    QPainterPath loop;
    loop.moveTo(last, rise);
    loop.lineTo(last, loopY);
    loop.lineTo(first, loopY);
    loop.lineTo(first, rise);
    p.drawPath(loop);
    paintArrowHead(p, QPointF(first, rise), QPointF(0, -1), 7 * m_zoom, ink);
    // A narrow window (five blocks with ZeRO-Offload's) leaves less than the sentence: elided, not
    // cut, and clear of the loop's upright ends.
    const double clear = line * 0.5;
    const QString closing = p.fontMetrics().elidedText(tr("the update writes new parameters, and the next step begins"),
                                                       Qt::ElideRight, int(last - first - 2 * clear));
    p.drawText(QRectF(first + clear, loopY - line * 1.1, last - first - 2 * clear, line),
               Qt::AlignHCenter | Qt::AlignBottom, closing);
    p.restore();
}

void StructureDiagram::mouseMoveEvent(QMouseEvent *event)
{
    const DiagramLayout layout = currentLayout();
    const Breakdown &b = m_shown->analysis.breakdown;
    for (int c = 0; c < kComponentCount; ++c) {
        const QRectF block = layout.blocks[std::size_t(c)];
        if (block.isEmpty() || !block.adjusted(-4, -4, 4, 4).contains(event->position()))
            continue;
        QString tip = QStringLiteral("<b>%1 — %2</b>")
                          .arg(componentName(Component(c)), bytesText(b.component(Component(c)), m_shown->units));
        for (const ExplainedItem &item : m_shown->analysis.items)
            if (componentOf(item.id) == Component(c))
                tip += itemLine(item, m_formulas);
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
        Q_EMIT componentHovered(Component(c));
        highlight(Component(c));
        return;
    }
    if (!layout.host.isEmpty() && layout.host.adjusted(-4, -4, 4, 4).contains(event->position())) {
        QToolTip::showText(event->globalPosition().toPoint(), hostTip(), this);
        return;
    }
    QToolTip::hideText();
    Q_EMIT componentHovered(std::nullopt);
    highlight(std::nullopt);
}

QString StructureDiagram::hostTip() const
{
    QString tip = QStringLiteral("<b>%1 — %2</b>")
                      .arg(tr("CPU memory"), bytesText(zeroOffloadHost(m_shown->analysis.breakdown), m_shown->units));
    for (const ExplainedItem &item : m_shown->analysis.items)
        if (item.hostBytes > 0 && zeroOffloadItem(item.id)) // the others have their own notes
            tip += itemLine(item, m_formulas);
    return tip;
}

void StructureDiagram::leaveEvent(QEvent *event)
{
    Q_EMIT componentHovered(std::nullopt);
    highlight(std::nullopt);
    QWidget::leaveEvent(event);
}

void StructureDiagram::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        m_formulas.retranslate();
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::LanguageChange)
        update();
    QWidget::changeEvent(event);
}

} // namespace vl
