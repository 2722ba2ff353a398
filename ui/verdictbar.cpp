#include "ui/verdictbar.h"

#include "ui/theme.h"

#include <QEvent>

namespace vl {

VerdictBar::VerdictBar(QWidget *parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("verdict"));
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setMargin(6);
}

void VerdictBar::showAnalysis(const Analysis &analysis, const Scenario &scenario, Units units)
{
    m_analysis = analysis;
    m_scenario = scenario;
    m_units = units;
    render();
}

void VerdictBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        render();
    QLabel::changeEvent(event);
}

void VerdictBar::render()
{
    const Analysis &a = m_analysis;
    const QString rule = a.fitRule == FitRule::Peak ? tr("peak") : tr("sum of all parts");
    QString html = tr("<b>%1 per GPU</b> (%2)").arg(bytesText(a.required, m_units), rule);
    if (a.fitRule == FitRule::Sum && a.timeline.peak() < a.breakdown.total)
        html += tr(" · the step's peak is %1").arg(bytesText(a.timeline.peak(), m_units));
    if (a.breakdown.host > 0)
        html += tr(" · %1 in CPU memory").arg(bytesText(a.breakdown.host, m_units));
    if (a.verdicts.empty())
        html += QStringLiteral("<br>") + tr("Choose a GPU to see whether it fits.");
    const QString good = componentColor(Component::Gradients).name();
    const QString bad = QColor(0xD5, 0x5E, 0x00).name();
    for (const GpuVerdict &v : a.verdicts) {
        const QString name = QString::fromStdString(v.gpu.name).toHtmlEscaped();
        html += QStringLiteral("<br>");
        if (v.fits())
            html += QStringLiteral("<span style='color:%1'>✓</span> ").arg(good)
                + tr("<b>%1</b>: fits, %2 to spare").arg(name, bytesText(v.headroom, m_units));
        else
            html += QStringLiteral("<span style='color:%1'>✗</span> ").arg(bad)
                + tr("<b>%1</b>: does not fit, %2 short").arg(name, bytesText(-v.headroom, m_units));
        html += QStringLiteral(" · ");
        html += v.maxBatch > 0 ? tr("largest batch %1").arg(v.maxBatch) : tr("not even batch 1");
        if (v.maxSequence > 0)
            html += QStringLiteral(" · ") + tr("longest sequence %1").arg(v.maxSequence);
        html += QStringLiteral(" · ");
        if (v.minDataParallel > 0)
            html += tr("fewest GPUs at ZeRO-%1: %2").arg(m_scenario.zeroStage).arg(v.minGpus);
        else
            html += tr("no GPU count fits at ZeRO-%1").arg(m_scenario.zeroStage);
    }
    setText(html);
}

} // namespace vl
