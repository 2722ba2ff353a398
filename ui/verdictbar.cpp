#include "ui/verdictbar.h"

#include "ui/theme.h"

#include <QEvent>
#include <QPainter>

namespace vl {

namespace {

constexpr int kMargin = 6;

} // namespace

VerdictBar::VerdictBar(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("verdict"));
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed); // a longer line never re-lays the window out
    setAutoFillBackground(true); // opaque: Qt need not repaint the window underneath each time
}

void VerdictBar::showAnalysis(ShownPtr shown)
{
    m_shown = std::move(shown);
    render();
}

QString VerdictBar::text() const
{
    QStringList lines;
    for (const Line &line : m_lines) {
        QString plain;
        for (const Run &run : line)
            plain += run.text;
        lines << plain;
    }
    return lines.join(QLatin1Char('\n'));
}

QSize VerdictBar::sizeHint() const
{
    return {100, heightForRows(int(std::max<qsizetype>(2, m_rows.size())))};
}

int VerdictBar::heightForRows(int rows) const
{
    return rows * fontMetrics().lineSpacing() + 2 * kMargin;
}

void VerdictBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange)
        render();
    QWidget::changeEvent(event);
}

void VerdictBar::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    layoutRows();
}

void VerdictBar::layoutRows()
{
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics normal(font()), strong(bold);
    const int available = std::max(width() - 2 * kMargin, 1);
    const int indent = normal.horizontalAdvance(QStringLiteral("✓ ")); // continuation rows start under the name
    m_rows.clear();
    for (const Line &line : m_lines) {
        Line row;
        int x = 0;
        for (Run run : line) {
            // Measuring shapes the text: once per run, again only where the run changed.
            const QFontMetrics &metrics = run.bold ? strong : normal;
            int advance = metrics.horizontalAdvance(run.text);
            if (!row.isEmpty() && x + advance > available) {
                m_rows.append(row);
                row.clear();
                x = indent;
                if (run.text.startsWith(QStringLiteral(" · "))) {
                    run.text = run.text.mid(3);
                    advance = metrics.horizontalAdvance(run.text);
                }
            }
            if (x + advance > available) {
                run.text = metrics.elidedText(run.text, Qt::ElideRight, available - x);
                advance = metrics.horizontalAdvance(run.text);
            }
            run.x = x;
            x += advance;
            row.append(run);
        }
        m_rows.append(row);
    }
    m_shaped = false;
    // Grows or shrinks with the rows and the font (presentation mode); the same height again is
    // a no-op, so a slider tick that keeps the rows never re-lays the window out.
    const int height = sizeHint().height();
    if (height != this->height()) {
        setFixedHeight(height);
        Q_EMIT heightChanged(height);
    }
    update();
}

void VerdictBar::render()
{
    const Analysis &a = m_shown->analysis;
    m_lines.clear();
    Line summary{
        {tr("%1 per GPU").arg(bytesText(a.required, m_shown->units)), true, {}},
        {QStringLiteral(" (%1)").arg(a.fitRule == FitRule::Peak ? tr("peak") : tr("sum of all parts")), false, {}}};
    // The other of the two numbers, where they differ.
    if (a.timeline.peak() < a.breakdown.total)
        summary.append(
            {a.fitRule == FitRule::Sum
                 ? (a.timeline.peakAtStartUp() ? tr(" · the peak, at start-up, is %1") : tr(" · the step's peak is %1"))
                       .arg(bytesText(a.timeline.peak(), m_shown->units))
                 : tr(" · all parts at once %1").arg(bytesText(a.breakdown.total, m_shown->units)),
             false,
             {}});
    // A paged optimizer's states sit in managed memory, on the GPU while it has room.
    const bool paged = a.breakdown.hostItem(ItemId::PagedOptimizerStates) > 0;
    if (a.breakdown.host > 0)
        summary.append({(paged ? tr(" · %1 in CPU or managed memory per GPU, %2 per node of %3")
                               : tr(" · %1 in CPU memory per GPU, %2 per node of %3"))
                            .arg(bytesText(a.breakdown.host, m_shown->units),
                                 bytesText(hostPerNode(m_shown->scenario, a.breakdown.host), m_shown->units))
                            .arg(m_shown->scenario.gpusOnNode()),
                        false,
                        {}});
    m_lines.append(summary);
    if (a.verdicts.empty())
        m_lines.append(Line{{tr("Choose a GPU to see whether it fits."), false, {}}});

    for (const GpuVerdict &v : a.verdicts) {
        Line line;
        line.append({v.fits() ? QStringLiteral("✓ ") : QStringLiteral("✗ "), true, verdictColor(v.fits())});
        line.append({QString::fromStdString(v.gpu.name), true, {}});
        line.append({v.fits() ? tr(": fits, %1 to spare").arg(bytesText(v.headroom, m_shown->units))
                              : tr(": does not fit, %1 short").arg(bytesText(-v.headroom, m_shown->units)),
                     false, v.fits() ? QColor() : verdictColor(false)});
        // Each answer its own run, so that a narrow bar breaks the line between them.
        const auto detail = [&line](const QString &text, const QColor &color = QColor()) {
            line.append({QStringLiteral(" · ") + text, false, color});
        };
        detail(v.maxBatch > 0 ? tr("largest batch %1").arg(v.maxBatch) : tr("not even batch 1"));
        if (v.maxSequence > 0)
            detail(tr("longest sequence %1").arg(v.maxSequence));
        const QString sharding = QString::fromStdString(shardingLabel(m_shown->scenario));
        detail(v.minDataParallel > 0 ? tr("fewest GPUs with %1: %2").arg(sharding).arg(v.minGpus)
                                     : tr("no GPU count fits with %1").arg(sharding));
        if (!v.runsPrecision)
            detail(tr("no FP8 tensor cores: FP8 will not run on it"), verdictColor(false));
        m_lines.append(line);
    }
    layoutRows();
}

void VerdictBar::paintEvent(QPaintEvent *)
{
    QFont bold = font();
    bold.setBold(true);
    if (!m_shaped) { // once per change that gets painted, not per change: bursts shape once
        for (Line &line : m_rows)
            for (Run &run : line) {
                run.shaped.setText(run.text);
                run.shaped.setTextFormat(Qt::PlainText);
                run.shaped.prepare(QTransform(), run.bold ? bold : font());
            }
        m_shaped = true;
    }
    QPainter p(this);
    const QColor text = palette().color(QPalette::WindowText);
    double y = kMargin;
    for (const Line &line : m_rows) {
        for (const Run &run : line) {
            p.setFont(run.bold ? bold : font());
            p.setPen(run.color.isValid() ? run.color : text);
            p.drawStaticText(QPointF(kMargin + run.x, y), run.shaped);
        }
        y += fontMetrics().lineSpacing();
    }
}

} // namespace vl
