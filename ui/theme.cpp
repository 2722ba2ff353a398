#include "ui/theme.h"

#include "core/formulaterms.h"
#include "core/units.h"

#include <QApplication>
#include <QCoreApplication>
#include <QStyle>
#include <QStyleFactory>
#include <QTextLayout>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

namespace vl {

QColor componentColor(Component c)
{
    switch (c) {
    case Component::Parameters: return QColor(0x00, 0x72, 0xB2);      // blue
    case Component::Gradients: return QColor(0x00, 0x9E, 0x73);       // bluish green
    case Component::OptimizerStates: return QColor(0xE6, 0x9F, 0x00); // orange
    case Component::Activations: return QColor(0xCC, 0x79, 0xA7);     // reddish purple
    case Component::Overhead: return QColor(0x99, 0x99, 0x99);        // grey
    }
    return Qt::gray;
}

QColor capacityColor()
{
    return QColor(0xD5, 0x5E, 0x00); // Okabe–Ito vermillion: apart from every component colour
}

QColor verdictColor(bool fits)
{
    // Okabe–Ito bluish green and vermillion: told apart by colour-blind viewers too. Not fitting
    // shares the capacity line's colour: the line it crosses.
    return fits ? QColor(0x00, 0x9E, 0x73) : capacityColor();
}

QColor seenOver(const QColor &translucent, const QColor &background)
{
    const double a = translucent.alphaF();
    auto mix = [a](double top, double below) { return a * top + (1 - a) * below; };
    return QColor::fromRgbF(float(mix(translucent.redF(), background.redF())),
                            float(mix(translucent.greenF(), background.greenF())),
                            float(mix(translucent.blueF(), background.blueF())));
}

QColor textOn(const QColor &fill)
{
    return fill.lightnessF() > 0.6 ? QColor(Qt::black) : QColor(Qt::white);
}

QColor itemColor(ItemId id)
{
    const QColor base = componentColor(componentOf(id));
    switch (id) {
    case ItemId::MasterWeights:
    case ItemId::LoraAdapters:
    case ItemId::Zero3PersistentParams:
    case ItemId::RotaryTable:
    case ItemId::Logits:
    case ItemId::HeadActivations:
    case ItemId::AllocatorReserve: return base.lighter(135);
    case ItemId::WeightCasts: return base.darker(145);
    case ItemId::Zero3GatheredParams:
    case ItemId::FsdpUnshardedParams:
    case ItemId::FsdpAllGatherBuffers:
    case ItemId::QloraDequantized:
    case ItemId::Fp8WeightCache:
    case ItemId::ContextParallelCopies:
    case ItemId::ModelBeforePartitioning:
    case ItemId::FsdpGradientBuffers:
    case ItemId::FsdpAccumulatedGradients:
    case ItemId::DdpGradientBuckets:
    case ItemId::ZeroReduceBucket:
    case ItemId::OffloadGradientBuffer:
    case ItemId::OffloadParamBuffer:
    case ItemId::OffloadFp32Gradients:
    case ItemId::OffloadHostGradientBuffer:
    case ItemId::OffloadAccumulatedGradients:
    case ItemId::PagedOptimizerStates:
    case ItemId::EmbeddingActivations:
    case ItemId::InputBatch:
    case ItemId::BatchesKept:
    case ItemId::PipelineGradients:
    case ItemId::PipelineOutputAndNextInput:
    case ItemId::PipelineInputsHeld:
    case ItemId::PipelineInputsKept:
    case ItemId::GemmWorkspaces:
    case ItemId::GatherBuffer:
    case ItemId::CommBuffers:
    case ItemId::NvlsBuffers: return base.darker(125);
    case ItemId::RecomputeBuffer:
    case ItemId::CheckpointsKeptByFsdp:
    case ItemId::BackwardWorkingSet:
    case ItemId::OptimizerStepBuffer:
    case ItemId::ZeroFp32Gradients:
    case ItemId::ActivationOffloadWindow: return base.lighter(160);
    default: return base;
    }
}

QString componentName(Component c)
{
    switch (c) {
    case Component::Parameters: return QCoreApplication::translate("vl::ui", "Parameters");
    case Component::Gradients: return QCoreApplication::translate("vl::ui", "Gradients");
    case Component::OptimizerStates: return QCoreApplication::translate("vl::ui", "Optimizer states");
    case Component::Activations: return QCoreApplication::translate("vl::ui", "Activations");
    case Component::Overhead: return QCoreApplication::translate("vl::ui", "Overhead");
    }
    return {};
}

QString itemName(ItemId id)
{
    switch (id) {
    case ItemId::Weights: return QCoreApplication::translate("vl::ui", "Weights");
    case ItemId::LoraAdapters: return QCoreApplication::translate("vl::ui", "LoRA adapters");
    case ItemId::Zero3GatheredParams: return QCoreApplication::translate("vl::ui", "ZeRO-3 gathered parameters");
    case ItemId::Zero3PersistentParams: return QCoreApplication::translate("vl::ui", "ZeRO-3 persistent parameters");
    case ItemId::FsdpUnshardedParams: return QCoreApplication::translate("vl::ui", "FSDP gathered parameters");
    case ItemId::FsdpAllGatherBuffers: return QCoreApplication::translate("vl::ui", "FSDP all-gather buffers");
    case ItemId::QloraDequantized: return QCoreApplication::translate("vl::ui", "QLoRA dequantized module");
    case ItemId::Fp8WeightCache: return QCoreApplication::translate("vl::ui", "FP8 weight copies");
    case ItemId::RotaryTable: return QCoreApplication::translate("vl::ui", "Rotary table");
    case ItemId::ContextParallelCopies: return QCoreApplication::translate("vl::ui", "Context-parallel copies");
    case ItemId::ModelBeforePartitioning:
        return QCoreApplication::translate("vl::ui", "Model before partitioning (start-up)");
    case ItemId::Gradients: return QCoreApplication::translate("vl::ui", "Gradients");
    case ItemId::FsdpGradientBuffers: return QCoreApplication::translate("vl::ui", "FSDP gradient buffers");
    case ItemId::FsdpAccumulatedGradients:
        return QCoreApplication::translate("vl::ui", "FSDP gradients accumulated without sync");
    case ItemId::DdpGradientBuckets: return QCoreApplication::translate("vl::ui", "DDP gradient buckets");
    case ItemId::ZeroReduceBucket: return QCoreApplication::translate("vl::ui", "DeepSpeed gradient bucket");
    case ItemId::ZeroFp32Gradients: return QCoreApplication::translate("vl::ui", "DeepSpeed FP32 step gradients");
    case ItemId::OffloadGradientBuffer:
        return QCoreApplication::translate("vl::ui", "DeepSpeed offload gradient buffer");
    case ItemId::OffloadParamBuffer: return QCoreApplication::translate("vl::ui", "Offload: 16-bit partition (CPU)");
    case ItemId::OffloadFp32Gradients: return QCoreApplication::translate("vl::ui", "Offload: FP32 gradients (CPU)");
    case ItemId::OffloadHostGradientBuffer:
        return QCoreApplication::translate("vl::ui", "Offload: gradient staging buffer (CPU)");
    case ItemId::OffloadAccumulatedGradients:
        return QCoreApplication::translate("vl::ui", "Offload: accumulated gradients (CPU)");
    case ItemId::MasterWeights: return QCoreApplication::translate("vl::ui", "FP32 master copy");
    case ItemId::OptimizerMoments: return QCoreApplication::translate("vl::ui", "Optimizer moments (m, v)");
    case ItemId::PagedOptimizerStates:
        return QCoreApplication::translate("vl::ui", "Paged optimizer states (managed memory)");
    case ItemId::OptimizerStepBuffer: return QCoreApplication::translate("vl::ui", "Optimizer step intermediates");
    case ItemId::LayerActivations: return QCoreApplication::translate("vl::ui", "Layer activations");
    case ItemId::EmbeddingActivations: return QCoreApplication::translate("vl::ui", "Embedding layer");
    case ItemId::InputBatch: return QCoreApplication::translate("vl::ui", "Input batch");
    case ItemId::BatchesKept: return QCoreApplication::translate("vl::ui", "Batches kept for a rerun");
    case ItemId::PipelineGradients: return QCoreApplication::translate("vl::ui", "Pipeline gradients in flight");
    case ItemId::PipelineOutputAndNextInput:
        return QCoreApplication::translate("vl::ui", "Pipeline output and next input beside backward");
    case ItemId::PipelineInputsHeld:
        return QCoreApplication::translate("vl::ui", "Pipeline inputs held after their backward");
    case ItemId::PipelineInputsKept: return QCoreApplication::translate("vl::ui", "Pipeline inputs kept between steps");
    case ItemId::Logits: return QCoreApplication::translate("vl::ui", "Logits");
    case ItemId::RecomputeBuffer: return QCoreApplication::translate("vl::ui", "Recomputation working set");
    case ItemId::CheckpointsKeptByFsdp:
        return QCoreApplication::translate("vl::ui", "Checkpoints FSDP1 keeps in backward");
    case ItemId::ActivationOffloadWindow: return QCoreApplication::translate("vl::ui", "Activations in transit");
    case ItemId::WeightCasts: return QCoreApplication::translate("vl::ui", "Weight casts");
    case ItemId::HeadActivations: return QCoreApplication::translate("vl::ui", "Final norm, LM head and loss");
    case ItemId::BackwardWorkingSet: return QCoreApplication::translate("vl::ui", "Backward working set");
    case ItemId::GemmWorkspaces: return QCoreApplication::translate("vl::ui", "cuBLAS workspaces");
    case ItemId::GatherBuffer: return QCoreApplication::translate("vl::ui", "All-gather buffer");
    case ItemId::CudaContext: return QCoreApplication::translate("vl::ui", "CUDA context");
    case ItemId::WeightBlockTails: return QCoreApplication::translate("vl::ui", "Weights' block tails");
    case ItemId::FreedLogitsBlock: return QCoreApplication::translate("vl::ui", "Freed logits block");
    case ItemId::AllocatorReserve: return QCoreApplication::translate("vl::ui", "Allocator reserve");
    case ItemId::CommBuffers: return QCoreApplication::translate("vl::ui", "Communication buffers");
    case ItemId::NvlsBuffers: return QCoreApplication::translate("vl::ui", "NCCL NVLS buffers");
    }
    return {};
}

QString leverName(Lever lever)
{
    switch (lever) {
    case Lever::ZeroSharding: return QCoreApplication::translate("vl::ui", "ZeRO sharding");
    case Lever::Recomputation: return QCoreApplication::translate("vl::ui", "Gradient checkpointing");
    case Lever::MixedPrecision: return QCoreApplication::translate("vl::ui", "Mixed precision");
    case Lever::SmallerBatch: return QCoreApplication::translate("vl::ui", "Smaller batch or sequence");
    }
    return {};
}

QString leverChange(const LadderStep &step)
{
    const Scenario &s = step.scenario;
    switch (step.lever) {
    case Lever::ZeroSharding:
        return QCoreApplication::translate("vl::ui", "ZeRO stage %1 over %2 GPUs").arg(s.zeroStage).arg(s.shardGroup());
    case Lever::Recomputation: return QCoreApplication::translate("vl::ui", "full activation recomputation");
    case Lever::MixedPrecision:
        return s.precision == Precision::MixedFp16
            ? QCoreApplication::translate("vl::ui", "FP16 mixed precision with an FP32 master copy and loss scaling")
            : QCoreApplication::translate("vl::ui", "BF16 mixed precision with an FP32 master copy");
    case Lever::SmallerBatch:
        if (step.shorterSequence)
            return QCoreApplication::translate("vl::ui", "sequence %1").arg(s.sequence);
        return QCoreApplication::translate("vl::ui", "micro-batch %1 × %2 accumulation steps")
            .arg(s.microBatch)
            .arg(s.microBatchesPerStep());
    }
    return {};
}

QString barLabel(const Bar &bar)
{
    switch (bar.kind) {
    case Bar::Kind::Current:
        if (bar.value > 0) // among the GPU counts
            return QCoreApplication::translate("vl::ui", "Current, %n GPU(s)", nullptr, int(bar.value));
        return QCoreApplication::translate("vl::ui", "Current");
    case Bar::Kind::Pin: return QString::fromStdString(bar.name);
    case Bar::Kind::GpuCount: return QCoreApplication::translate("vl::ui", "%n GPU(s)", nullptr, int(bar.value));
    case Bar::Kind::ZeroStage: return QCoreApplication::translate("vl::ui", "ZeRO %1").arg(bar.value);
    case Bar::Kind::LadderStep:
        return QCoreApplication::translate("vl::ui", "+ %1").arg(leverName(static_cast<Lever>(bar.value)));
    }
    return {};
}

QString describePoint(const TimelinePoint &p, Units units)
{
    QString where;
    switch (p.phase) {
    case StepPhase::StartUp: where = QCoreApplication::translate("vl::ui", "start-up"); break;
    case StepPhase::Start: where = QCoreApplication::translate("vl::ui", "before the step"); break;
    case StepPhase::Forward: where = QCoreApplication::translate("vl::ui", "forward, layer %1").arg(p.layer); break;
    case StepPhase::Loss: where = QCoreApplication::translate("vl::ui", "the loss"); break;
    case StepPhase::Backward: where = QCoreApplication::translate("vl::ui", "backward, layer %1").arg(p.layer); break;
    case StepPhase::OptimizerStep: where = QCoreApplication::translate("vl::ui", "the optimizer step"); break;
    }
    QStringList parts;
    for (Component c : kComponents)
        if (p.part(c) > 0)
            parts << QStringLiteral("%1 %2").arg(componentName(c), bytesText(p.part(c), units));
    return QCoreApplication::translate("vl::ui", "%1: %2 in use (%3)")
        .arg(where, bytesText(p.inUse, units), parts.join(QStringLiteral(" · ")));
}

namespace {

std::uint32_t unitPair(QChar first, QChar second)
{
    return std::uint32_t(first.unicode()) << 16 | second.unicode();
}

} // namespace

FormulaLocalizer::FormulaLocalizer()
{
    retranslate();
}

void FormulaLocalizer::retranslate()
{
    m_terms.clear();
    for (const std::string_view term : formulaTerms()) {
        // translate() wants its text NUL-terminated.
        const QByteArray source(term.data(), qsizetype(term.size()));
        QString english = QString::fromUtf8(source);
        QString translated = QCoreApplication::translate("vl::formula", source.constData());
        if (translated == english)
            continue;
        const std::uint32_t pair = english.size() < 2 ? 0 : unitPair(english[0], english[1]);
        m_terms.push_back({std::move(english), std::move(translated), pair});
    }
}

QString FormulaLocalizer::localized(const std::string &formula) const
{
    // Core's terms, translated where they occur; numbers, units and symbols stay as they are.
    // One pass over the English: each term found is first replaced by a mark from Unicode's
    // private use area, which no term contains, and the marks by the translations at the end, so
    // a translation that keeps an English word ("bitsandbytes") is not translated again by a
    // shorter term ("bits").
    QString text = QString::fromStdString(formula);
    // The pairs of neighbouring units the formula holds: a term whose first pair is not among them
    // cannot occur, in the formula or in what replacing longer terms leaves of it, and is not
    // searched for (most of core's terms, in any one formula).
    std::vector<std::uint32_t> pairs;
    pairs.reserve(std::size_t(text.size()));
    for (qsizetype i = 1; i < text.size(); ++i)
        pairs.push_back(unitPair(text[i - 1], text[i]));
    std::sort(pairs.begin(), pairs.end());
    std::vector<const QString *> translations;
    for (const auto &[english, translated, firstPair] : m_terms) {
        if (firstPair != 0 && !std::binary_search(pairs.begin(), pairs.end(), firstPair))
            continue;
        if (!text.contains(english))
            continue;
        text.replace(english, QChar(char16_t(0xE000 + translations.size())));
        translations.push_back(&translated);
    }
    for (std::size_t i = 0; i < translations.size(); ++i)
        text.replace(QChar(char16_t(0xE000 + i)), *translations[i]);
    return text;
}

QPalette palette(Theme theme)
{
    if (theme == Theme::Light) {
        const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
        return fusion->standardPalette();
    }
    QPalette p;
    const QColor window(0x2b, 0x2e, 0x35), base(0x1f, 0x22, 0x28), text(0xe6, 0xe6, 0xe6);
    const QColor highlight(0x3d, 0x8e, 0xd9);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, highlight.lighter(130));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Midlight, window.lighter(125));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    return p;
}

void applyTheme(QApplication &app, Theme theme)
{
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    app.setPalette(palette(theme));
}

QString wrappedAtWords(const QString &text, const QFont &font, double width)
{
    QTextLayout layout(text, font);
    QTextOption wrapping;
    wrapping.setWrapMode(QTextOption::WordWrap);
    layout.setTextOption(wrapping);
    QStringList lines;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return lines.join(QLatin1Char('\n'));
}

QString bytesText(Bytes bytes, Units units)
{
    return QString::fromStdString(vl::formatBytes(bytes, units));
}

QString capacityLabel(const GpuPreset &gpu, Units units)
{
    return QStringLiteral("%1 · %2").arg(QString::fromStdString(gpu.name), bytesText(gpu.capacity, units));
}

std::vector<int> computeCapabilities()
{
    const auto [lowest, highest] = *allowedRange(Scenario{}, "compute-capability");
    std::vector<int> majors;
    for (std::int64_t major = lowest; major <= highest; ++major)
        majors.push_back(int(major));
    return majors;
}

QString computeCapabilityName(int major)
{
    switch (major) {
    case 5: return QCoreApplication::translate("vl::ui", "5 — Maxwell");
    case 6: return QCoreApplication::translate("vl::ui", "6 — Pascal (P100)");
    case 7: return QCoreApplication::translate("vl::ui", "7 — Volta, Turing (V100, T4)");
    case 8: return QCoreApplication::translate("vl::ui", "8 — Ampere, Ada (A100, L40S, RTX 30/40)");
    case 9: return QCoreApplication::translate("vl::ui", "9 — Hopper (H100, H200)");
    case 10: return QCoreApplication::translate("vl::ui", "10 — Blackwell (B200)");
    case 11: return QCoreApplication::translate("vl::ui", "11 — Blackwell (Thor)");
    case 12: return QCoreApplication::translate("vl::ui", "12 — Blackwell (RTX 50)");
    }
    return QString::number(major);
}

} // namespace vl
