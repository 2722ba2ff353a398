#include "ui/structurediagram.h"

#include "ui/theme.h"

#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace vl {

namespace {

// The article's cycle: parameters → (forward) → activations → (backward) → gradients →
// (optimizer step, with its states) → parameters. Quadrants in reading order.
constexpr std::array kQuadrantOf{0, 3, 2, 1, -1}; // by Component: P top-left, G bottom-right, O bottom-left, A top-right

constexpr double kMinSide = 10.0; // the smallest block still drawn as a block

QRectF quadrant(const QRectF &area, int index)
{
    const double w = area.width() / 2, h = area.height() / 2;
    return QRectF(area.left() + (index % 2) * w, area.top() + (index / 2) * h, w, h);
}

} // namespace

DiagramLayout layoutDiagram(const QRectF &area, const Breakdown &b)
{
    DiagramLayout layout;
    // Room for each block: its quadrant less space for the label and the flow arrows.
    const double cell = std::min(area.width(), area.height()) / 2;
    const double maxSide = std::max(1.0, cell * 0.62);
    Bytes largest = 0;
    for (int c = 0; c < 4; ++c)
        largest = std::max(largest, b.component(Component(c)));
    if (largest <= 0)
        return layout;
    layout.bytesPerSquarePixel = double(largest) / (maxSide * maxSide);
    for (int c = 0; c < 4; ++c) {
        const Bytes bytes = b.component(Component(c));
        if (bytes <= 0)
            continue;
        const double side = std::sqrt(double(bytes) / layout.bytesPerSquarePixel);
        const QRectF q = quadrant(area, kQuadrantOf[std::size_t(c)]);
        layout.blocks[std::size_t(c)] = QRectF(q.center().x() - side / 2, q.center().y() - side / 2, side, side);
    }
    if (b.component(Component::Overhead) > 0) {
        // Overhead is not one of the four: a strip along the bottom, its area to the same scale.
        const double area_ = double(b.component(Component::Overhead)) / layout.bytesPerSquarePixel;
        const double width = area.width() * 0.5;
        layout.blocks[std::size_t(Component::Overhead)] =
            QRectF(area.center().x() - width / 2, area.bottom() - 2, width, std::max(2.0, area_ / width));
    }
    return layout;
}

StructureDiagram::StructureDiagram(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("structureDiagram"));
    setMouseTracking(true);
    setMinimumSize(360, 260);
    setAutoFillBackground(false);
}

void StructureDiagram::showAnalysis(const Analysis &analysis, const Scenario &scenario, Units units)
{
    m_analysis = analysis;
    m_scenario = scenario;
    m_units = units;
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
    const double title = fontMetrics().height() * 2.2 * m_zoom;
    const double overhead = m_analysis.breakdown.component(Component::Overhead) > 0 ? fontMetrics().height() * 2.5 * m_zoom : 0;
    return QRectF(rect()).adjusted(8, title, -8, -8 - overhead);
}

DiagramLayout StructureDiagram::currentLayout() const
{
    return layoutDiagram(diagramArea(), m_analysis.breakdown);
}

void StructureDiagram::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    QFont font = p.font();
    font.setPointSizeF(font.pointSizeF() * m_zoom);
    p.setFont(font);
    const Breakdown &b = m_analysis.breakdown;
    const QColor text = palette().color(QPalette::Text);

    QFont titleFont = font;
    titleFont.setBold(true);
    p.setFont(titleFont);
    p.setPen(text);
    p.drawText(QRectF(8, 4, width() - 16, fontMetrics().height() * 2 * m_zoom), Qt::AlignLeft | Qt::AlignVCenter,
               tr("One GPU's memory: %1 in all (block areas are proportional to bytes)")
                   .arg(bytesText(b.total, m_units)));
    p.setFont(font);

    const DiagramLayout layout = currentLayout();
    paintFlow(p);
    for (int c = 0; c < kComponentCount; ++c)
        if (!layout.blocks[std::size_t(c)].isEmpty())
            paintBlock(p, Component(c), layout.blocks[std::size_t(c)]);
}

void StructureDiagram::paintBlock(QPainter &p, Component c, const QRectF &rect) const
{
    const Breakdown &b = m_analysis.breakdown;
    const QColor text = palette().color(QPalette::Text);
    const QColor base = palette().color(QPalette::Base);
    const bool dim = m_highlighted && *m_highlighted != c;
    const QRectF solid = rect.width() < kMinSide && c != Component::Overhead
        ? QRectF(rect.center() - QPointF(kMinSide, kMinSide) / 2, QSizeF(kMinSide, kMinSide))
        : rect;

    // Levers drawn as ghosts behind the block: what recomputation saved (outline of the
    // activations it would otherwise keep), what ZeRO moved to other GPUs (N slices).
    p.save();
    if (c == Component::Activations && m_scenario.recompute != Recompute::None && b.keptPerLayer > 0) {
        const double ratio = double(b.oneLayerActivations) / double(b.keptPerLayer);
        const double side = std::min(rect.width() * std::sqrt(std::max(1.0, ratio)), rect.width() * 3);
        const QRectF ghost(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side);
        p.setPen(QPen(componentColor(c), 1.2 * m_zoom, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(ghost.intersected(QRectF(this->rect())));
    }
    p.restore();

    // Items as slices, top to bottom, each with its share of the height.
    const Bytes total = b.component(c);
    double y = solid.top();
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
            // One slab per layer, as the article says activations pile up layer by layer.
            p.setPen(QPen(base, 0.6));
            for (std::int64_t l = 1; l < b.layersOnStage; ++l) {
                const double ly = y + h * double(l) / double(b.layersOnStage);
                p.drawLine(QPointF(slice.left(), ly), QPointF(slice.right(), ly));
            }
        }
        if (h >= p.fontMetrics().height() * 1.1 && solid.width() > 90 * m_zoom) {
            p.setPen(Qt::white);
            p.drawText(slice.adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       p.fontMetrics().elidedText(QStringLiteral("%1 %2").arg(itemName(id), bytesText(b.item(id), m_units)),
                                                  Qt::ElideRight, int(slice.width() - 8)));
        }
        y += h;
    }
    p.setPen(QPen(m_highlighted == c ? text : componentColor(c).darker(130), (m_highlighted == c ? 2.5 : 1.0) * m_zoom));
    p.setBrush(Qt::NoBrush);
    p.drawRect(solid);

    // ZeRO: this GPU holds one of N slices of a sharded block.
    const bool sharded = m_scenario.dataParallel > 1
        && ((c == Component::OptimizerStates && m_scenario.zeroStage >= 1)
            || (c == Component::Gradients && m_scenario.zeroStage >= 2)
            || (c == Component::Parameters && m_scenario.zeroStage >= 3));
    double labelTop = solid.bottom() + 3;
    if (sharded) {
        const int slices = int(std::min<std::int64_t>(m_scenario.dataParallel, 64));
        const double stripWidth = std::max(solid.width(), 80.0 * m_zoom);
        const QRectF strip(solid.center().x() - stripWidth / 2, labelTop, stripWidth, 7 * m_zoom);
        p.setPen(QPen(componentColor(c), 0.8));
        for (int i = 0; i < slices; ++i) {
            const QRectF s(strip.left() + strip.width() * i / slices, strip.top(), strip.width() / slices, strip.height());
            p.setBrush(i == 0 ? QBrush(componentColor(c)) : QBrush(Qt::NoBrush));
            p.drawRect(s);
        }
        labelTop = strip.bottom() + 2;
    }

    // The label always outside, so a 1.9 GB slice beside a 120 GB block is still named.
    QString label = QStringLiteral("%1 · %2").arg(componentName(c), bytesText(total, m_units));
    if (sharded)
        label += QStringLiteral("\n") + tr("ZeRO: this GPU's 1 of %1 slices").arg(m_scenario.dataParallel);
    if (c == Component::Activations && m_scenario.recompute == Recompute::Full)
        label += QStringLiteral("\n") + tr("dashed: what recomputation avoids keeping");
    if (c == Component::Parameters && b.has(ItemId::Weights) && dtypeBytes(m_scenario).master > 0)
        label += QStringLiteral("\n") + tr("16-bit working copy (FP32 master in optimizer states)");
    p.setPen(dim ? palette().color(QPalette::Disabled, QPalette::Text) : text);
    const double labelWidth = std::max(solid.width(), 220.0 * m_zoom);
    p.drawText(QRectF(solid.center().x() - labelWidth / 2, labelTop, labelWidth, p.fontMetrics().height() * 4),
               Qt::AlignHCenter | Qt::AlignTop, label);
}

void StructureDiagram::paintFlow(QPainter &p) const
{
    const QRectF area = diagramArea();
    const QColor ink = palette().color(QPalette::PlaceholderText);
    p.save();
    p.setPen(QPen(ink, 1.5 * m_zoom));
    auto arrow = [&](QPointF from, QPointF to, const QString &label) {
        p.drawLine(from, to);
        const QPointF d = to - from;
        const double len = std::hypot(d.x(), d.y());
        if (len < 1)
            return;
        const QPointF u = d / len, n(-u.y(), u.x());
        const double s = 8 * m_zoom;
        QPainterPath head;
        head.moveTo(to);
        head.lineTo(to - u * s + n * s * 0.5);
        head.lineTo(to - u * s - n * s * 0.5);
        head.closeSubpath();
        p.fillPath(head, ink);
        const QPointF mid = (from + to) / 2;
        const QRectF box(mid.x() - 110 * m_zoom, mid.y() - p.fontMetrics().height() * 1.2, 220 * m_zoom,
                         p.fontMetrics().height() * 2.4);
        p.drawText(box, Qt::AlignCenter | Qt::TextWordWrap, label);
    };
    const QRectF pq = quadrant(area, 0), aq = quadrant(area, 1), oq = quadrant(area, 2), gq = quadrant(area, 3);
    const double inset = 0.2;
    arrow({pq.right() - pq.width() * inset, pq.top() + pq.height() * 0.2},
          {aq.left() + aq.width() * inset, aq.top() + aq.height() * 0.2},
          tr("forward reads the parameters, leaves activations"));
    arrow({aq.right() - aq.width() * 0.12, aq.bottom() - aq.height() * 0.1},
          {gq.right() - gq.width() * 0.12, gq.top() + gq.height() * 0.1},
          tr("backward consumes activations, produces gradients"));
    arrow({gq.left() + gq.width() * inset, gq.bottom() - gq.height() * 0.2},
          {oq.right() - oq.width() * inset, oq.bottom() - oq.height() * 0.2},
          tr("optimizer step reads gradients, master copy and moments"));
    arrow({oq.left() + oq.width() * 0.12, oq.top() + oq.height() * 0.1},
          {pq.left() + pq.width() * 0.12, pq.bottom() - pq.height() * 0.1}, tr("…and writes the parameters"));
    p.restore();
}

void StructureDiagram::mouseMoveEvent(QMouseEvent *event)
{
    const DiagramLayout layout = currentLayout();
    const Breakdown &b = m_analysis.breakdown;
    for (int c = 0; c < kComponentCount; ++c) {
        const QRectF block = layout.blocks[std::size_t(c)];
        if (block.isEmpty() || !block.adjusted(-4, -4, 4, 4).contains(event->position()))
            continue;
        QString tip = QStringLiteral("<b>%1 — %2</b>").arg(componentName(Component(c)), bytesText(b.component(Component(c)), m_units));
        for (const ExplainedItem &item : m_analysis.items)
            if (componentOf(item.id) == Component(c))
                tip += QStringLiteral("<br>%1: %2").arg(itemName(item.id), localizedFormula(item.formula).toHtmlEscaped());
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
        Q_EMIT componentHovered(Component(c));
        highlight(Component(c));
        return;
    }
    QToolTip::hideText();
    Q_EMIT componentHovered(std::nullopt);
    highlight(std::nullopt);
}

void StructureDiagram::leaveEvent(QEvent *event)
{
    Q_EMIT componentHovered(std::nullopt);
    highlight(std::nullopt);
    QWidget::leaveEvent(event);
}

void StructureDiagram::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::LanguageChange)
        update();
    QWidget::changeEvent(event);
}

} // namespace vl
