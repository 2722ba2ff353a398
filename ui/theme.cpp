#include "ui/theme.h"

#include "core/units.h"

#include <QApplication>
#include <QCoreApplication>
#include <QStyle>
#include <QStyleFactory>

#include <numeric>

#include <algorithm>
#include <cstring>
#include <memory>
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
    case ItemId::Logits:
    case ItemId::HeadActivations:
    case ItemId::AllocatorReserve: return base.lighter(135);
    case ItemId::WeightCasts: return base.darker(145);
    case ItemId::Zero3GatheredParams:
    case ItemId::FsdpUnshardedParams:
    case ItemId::FsdpGradientBuffers:
    case ItemId::ZeroReduceBucket:
    case ItemId::EmbeddingActivations:
    case ItemId::CommBuffers: return base.darker(125);
    case ItemId::RecomputeBuffer: return base.lighter(160);
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
    case ItemId::Zero3GatheredParams: return QCoreApplication::translate("vl::ui", "ZeRO-3 gathered layer");
    case ItemId::FsdpUnshardedParams: return QCoreApplication::translate("vl::ui", "FSDP gathered parameters");
    case ItemId::Gradients: return QCoreApplication::translate("vl::ui", "Gradients");
    case ItemId::FsdpGradientBuffers: return QCoreApplication::translate("vl::ui", "FSDP gradient buffers");
    case ItemId::ZeroReduceBucket: return QCoreApplication::translate("vl::ui", "DeepSpeed gradient bucket");
    case ItemId::MasterWeights: return QCoreApplication::translate("vl::ui", "FP32 master copy");
    case ItemId::OptimizerMoments: return QCoreApplication::translate("vl::ui", "Optimizer moments (m, v)");
    case ItemId::LayerActivations: return QCoreApplication::translate("vl::ui", "Layer activations");
    case ItemId::EmbeddingActivations: return QCoreApplication::translate("vl::ui", "Embedding output");
    case ItemId::Logits: return QCoreApplication::translate("vl::ui", "Logits (+ FP32 loss copy)");
    case ItemId::RecomputeBuffer: return QCoreApplication::translate("vl::ui", "Recomputation working set");
    case ItemId::WeightCasts: return QCoreApplication::translate("vl::ui", "Weight casts");
    case ItemId::HeadActivations: return QCoreApplication::translate("vl::ui", "Final norm, LM head and loss");
    case ItemId::CudaContext: return QCoreApplication::translate("vl::ui", "CUDA context");
    case ItemId::AllocatorReserve: return QCoreApplication::translate("vl::ui", "Allocator reserve");
    case ItemId::CommBuffers: return QCoreApplication::translate("vl::ui", "Communication buffers");
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
        return QCoreApplication::translate("vl::ui", "ZeRO stage %1 over %2 GPUs").arg(s.zeroStage).arg(s.dataParallel);
    case Lever::Recomputation: return QCoreApplication::translate("vl::ui", "full activation recomputation");
    case Lever::MixedPrecision:
        return QCoreApplication::translate("vl::ui", "BF16 mixed precision with an FP32 master copy");
    case Lever::SmallerBatch:
        if (step.change.rfind("sequence", 0) == 0)
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
    case Bar::Kind::Current: return QCoreApplication::translate("vl::ui", "Current");
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

QString localizedFormula(const std::string &formula)
{
    // The words and tensor names core's formulas use; numbers, units and symbols stay as they
    // are. Longer phrases are replaced before the shorter ones they contain.
    static const std::vector<const char *> words = [] {
        std::vector<const char *> list{
            QT_TRANSLATE_NOOP("vl::formula", "the article's b·s·h·L·2 estimate"),
            QT_TRANSLATE_NOOP("vl::formula", "trainable params"),
            QT_TRANSLATE_NOOP("vl::formula", "adapter params"),
            QT_TRANSLATE_NOOP("vl::formula", "factor entries"),
            QT_TRANSLATE_NOOP("vl::formula", "params"),
            QT_TRANSLATE_NOOP("vl::formula", "FP32 master copy"),
            QT_TRANSLATE_NOOP("vl::formula", "8-bit Adam m and v"),
            QT_TRANSLATE_NOOP("vl::formula", "Adam m and v"),
            QT_TRANSLATE_NOOP("vl::formula", "plain SGD keeps no state"),
            QT_TRANSLATE_NOOP("vl::formula", "Lion momentum"),
            QT_TRANSLATE_NOOP("vl::formula", "momentum"),
            QT_TRANSLATE_NOOP("vl::formula", "Adafactor row/column factors"),
            QT_TRANSLATE_NOOP("vl::formula", "GPUs (ZeRO)"),
            QT_TRANSLATE_NOOP("vl::formula", "offloaded to CPU memory"),
            QT_TRANSLATE_NOOP("vl::formula", "largest layer"),
            QT_TRANSLATE_NOOP("vl::formula", "weights"),
            QT_TRANSLATE_NOOP("vl::formula", "grads"),
            QT_TRANSLATE_NOOP("vl::formula", "per layer:"),
            QT_TRANSLATE_NOOP("vl::formula", "inputs & norms"),
            QT_TRANSLATE_NOOP("vl::formula", "attention scores"),
            QT_TRANSLATE_NOOP("vl::formula", "micro-batches in flight"),
            QT_TRANSLATE_NOOP("vl::formula", "each layer keeps only its input:"),
            QT_TRANSLATE_NOOP("vl::formula", "one layer's full activations while it is recomputed"),
            QT_TRANSLATE_NOOP("vl::formula", "FP32 copy for the loss"),
            QT_TRANSLATE_NOOP("vl::formula", "tokens"),
            QT_TRANSLATE_NOOP("vl::formula", "layers"),
            QT_TRANSLATE_NOOP("vl::formula", "hidden"),
            QT_TRANSLATE_NOOP("vl::formula", "vocab"),
            QT_TRANSLATE_NOOP("vl::formula", "0.5·x, saved by the product"),
            QT_TRANSLATE_NOOP("vl::formula", "1 + tanh, saved by the product"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit cast of the dropped probabilities, saved by × V"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit cast of the input, saved by LoRA A"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit cast of the input, saved by the projection"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit cast of the input, saved by the LM head"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit cast of the layer input, saved by the query, key or value linear"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit cast of the GELU output, saved by c_proj"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit cast of the first token, saved by the pooler"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit cast of the norm output, saved by the next linear"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit cast of the probabilities, saved by × V"),
            QT_TRANSLATE_NOOP("vl::formula", "FP32 cast of c_fc's output, saved by pow"),
            QT_TRANSLATE_NOOP("vl::formula", "GELU output, saved by the output dense"),
            QT_TRANSLATE_NOOP("vl::formula", "GELU output, saved by c_proj"),
            QT_TRANSLATE_NOOP("vl::formula", "c_fc output, saved by pow"),
            QT_TRANSLATE_NOOP("vl::formula", "RMSNorm input, saved by x·x and × 1/rms"),
            QT_TRANSLATE_NOOP("vl::formula", "norm output, saved by the qkv projection"),
            QT_TRANSLATE_NOOP("vl::formula", "fused qkv output, kept whole by the value view"),
            QT_TRANSLATE_NOOP("vl::formula", "norm output, saved by fc_1 and fc_2"),
            QT_TRANSLATE_NOOP("vl::formula", "fc_1 output, saved by SiLU"),
            QT_TRANSLATE_NOOP("vl::formula", "SiLU output, saved by × fc_2"),
            QT_TRANSLATE_NOOP("vl::formula", "fc_2 output, saved by × SiLU"),
            QT_TRANSLATE_NOOP("vl::formula", "SiLU × fc_2, saved by the MLP's proj"),
            QT_TRANSLATE_NOOP("vl::formula", "log-softmax per chunk of 128 tokens, saved by the loss"),
            QT_TRANSLATE_NOOP("vl::formula", "targets (int64), saved by the loss"),
            QT_TRANSLATE_NOOP("vl::formula", "LayerNorm 1/std (FP32)"),
            QT_TRANSLATE_NOOP("vl::formula", "LayerNorm mean (FP32)"),
            QT_TRANSLATE_NOOP("vl::formula", "LayerNorm input"),
            QT_TRANSLATE_NOOP("vl::formula", "LoRA A output (rank r), saved by LoRA B"),
            QT_TRANSLATE_NOOP("vl::formula", "LoRA dropout mask (1 B)"),
            QT_TRANSLATE_NOOP("vl::formula", "LoRA dropout output, saved by LoRA A"),
            QT_TRANSLATE_NOOP("vl::formula", "RMSNorm 1/rms (FP32)"),
            QT_TRANSLATE_NOOP("vl::formula", "RMSNorm input in FP32"),
            QT_TRANSLATE_NOOP("vl::formula", "RMSNorm normalized input, saved by × weight"),
            QT_TRANSLATE_NOOP("vl::formula", "SiLU output, saved by × up"),
            QT_TRANSLATE_NOOP("vl::formula", "attention context, saved by the output dense"),
            QT_TRANSLATE_NOOP("vl::formula", "attention output, saved by the kernel and the output projection"),
            QT_TRANSLATE_NOOP("vl::formula", "attention probabilities (softmax in FP32)"),
            QT_TRANSLATE_NOOP("vl::formula", "attention probabilities (softmax)"),
            QT_TRANSLATE_NOOP("vl::formula", "attention probabilities cast back to 16 bits"),
            QT_TRANSLATE_NOOP("vl::formula", "c_attn output; query, key and value are views of it"),
            QT_TRANSLATE_NOOP("vl::formula", "dropout mask (1 B)"),
            QT_TRANSLATE_NOOP("vl::formula", "dropout output of the probabilities, saved by × V"),
            QT_TRANSLATE_NOOP("vl::formula", "dropout output of the 16-bit probabilities, saved by × V"),
            QT_TRANSLATE_NOOP("vl::formula", "dropout output, saved by the classifier"),
            QT_TRANSLATE_NOOP("vl::formula", "gate_proj output, saved by SiLU"),
            QT_TRANSLATE_NOOP("vl::formula", "intermediate output, saved by GELU"),
            QT_TRANSLATE_NOOP("vl::formula", "key after rotary, repeated to every head"),
            QT_TRANSLATE_NOOP("vl::formula", "key after rotary (KV heads)"),
            QT_TRANSLATE_NOOP("vl::formula", "key, copied for the batched matmul"),
            QT_TRANSLATE_NOOP("vl::formula", "labels (int64), saved by the loss"),
            QT_TRANSLATE_NOOP("vl::formula", "last layer's output, kept by the pooler's first-token slice"),
            QT_TRANSLATE_NOOP("vl::formula", "layer input, kept by the checkpoint"),
            QT_TRANSLATE_NOOP("vl::formula", "layer input, saved by the query, key and value linears"),
            QT_TRANSLATE_NOOP("vl::formula", "LM-head input"),
            QT_TRANSLATE_NOOP("vl::formula", "log-softmax over the labels, saved by the loss"),
            QT_TRANSLATE_NOOP("vl::formula", "log-softmax over the vocabulary (FP32), saved by the loss"),
            QT_TRANSLATE_NOOP("vl::formula", "log-sum-exp (FP32)"),
            QT_TRANSLATE_NOOP("vl::formula", "merged heads, saved by c_proj"),
            QT_TRANSLATE_NOOP("vl::formula", "norm output, saved by the next linear"),
            QT_TRANSLATE_NOOP("vl::formula", "pooler tanh output"),
            QT_TRANSLATE_NOOP("vl::formula", "position ids (int64), saved by the position embedding"),
            QT_TRANSLATE_NOOP("vl::formula", "projection input"),
            QT_TRANSLATE_NOOP("vl::formula", "query after rotary"),
            QT_TRANSLATE_NOOP("vl::formula", "query, copied for the batched matmul"),
            QT_TRANSLATE_NOOP("vl::formula", "shifted labels (int64), saved by the loss"),
            QT_TRANSLATE_NOOP("vl::formula", "tanh output"),
            QT_TRANSLATE_NOOP("vl::formula", "token ids, saved by the embedding (int64)"),
            QT_TRANSLATE_NOOP("vl::formula", "token-type ids (int64), saved by their embedding"),
            QT_TRANSLATE_NOOP("vl::formula", "up_proj output, saved by × SiLU"),
            QT_TRANSLATE_NOOP("vl::formula", "value, copied for the batched matmul"),
            QT_TRANSLATE_NOOP("vl::formula", "value, repeated to every head"),
            QT_TRANSLATE_NOOP("vl::formula", "value (KV heads)"),
            QT_TRANSLATE_NOOP("vl::formula", "per layer, as"),
            QT_TRANSLATE_NOOP("vl::formula", "saves it:"),
            QT_TRANSLATE_NOOP("vl::formula", "frozen params"),
            QT_TRANSLATE_NOOP("vl::formula", "16-bit casts of the FP32 weights, kept for backward:"),
            QT_TRANSLATE_NOOP("vl::formula", "output head"),
            QT_TRANSLATE_NOOP("vl::formula", "adapter"),
            QT_TRANSLATE_NOOP("vl::formula", "one chunk's FP32 copy (chunked loss,"),
            QT_TRANSLATE_NOOP("vl::formula", "chunks)"),
            QT_TRANSLATE_NOOP("vl::formula", "(1F1B, pipeline full)"),
            QT_TRANSLATE_NOOP("vl::formula", "elements"),
            QT_TRANSLATE_NOOP("vl::formula", "layers, not resharded after forward,"),
            QT_TRANSLATE_NOOP("vl::formula", "GPUs (HSDP group)"),
            QT_TRANSLATE_NOOP("vl::formula", "(the sequence ÷"),
            QT_TRANSLATE_NOOP("vl::formula", "context-parallel GPUs:"),
            QT_TRANSLATE_NOOP("vl::formula", "tokens each)"),
            QT_TRANSLATE_NOOP("vl::formula", "experts' ÷"),
            QT_TRANSLATE_NOOP("vl::formula", "(DeepSpeed's contiguous gradient bucket)"),
            QT_TRANSLATE_NOOP("vl::formula", "gathered by FSDP: (root unit"),
            QT_TRANSLATE_NOOP("vl::formula", "layers, computed and prefetched,"),
            QT_TRANSLATE_NOOP("vl::formula", "GPUs (FSDP)"),
            QT_TRANSLATE_NOOP("vl::formula", "one layer's unsharded gradients"),
            QT_TRANSLATE_NOOP("vl::formula", "reduce-scatter input"),
            QT_TRANSLATE_NOOP("vl::formula", "the head's, held until the root reduces,"),
            QT_TRANSLATE_NOOP("vl::formula", "wq output (1st mm), saved by the op policy"),
            QT_TRANSLATE_NOOP("vl::formula", "wv output (3rd mm), saved by the op policy"),
            QT_TRANSLATE_NOOP("vl::formula", "w1 output (5th mm), saved by the op policy"),
            QT_TRANSLATE_NOOP("vl::formula", "w2 output (7th mm), saved by the op policy"),
            QT_TRANSLATE_NOOP("vl::formula", "attention output, saved by the op policy"),
            QT_TRANSLATE_NOOP("vl::formula", "log-sum-exp (FP32), saved by the op policy"),
            QT_TRANSLATE_NOOP("vl::formula",
                              "the loss's backward: FP32 gradients of the log-softmax and of the logits, more than the "
                              "forward's logits and FP32 copy,"),
        };
        std::stable_sort(list.begin(), list.end(),
                         [](const char *l, const char *r) { return std::strlen(l) > std::strlen(r); });
        return list;
    }();
    QString text = QString::fromStdString(formula);
    for (const char *english : words) {
        const QString source = QString::fromUtf8(english);
        const QString translated = QCoreApplication::translate("vl::formula", english);
        if (translated != source)
            text.replace(source, translated);
    }
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

QString bytesText(Bytes bytes, Units units)
{
    return QString::fromStdString(vl::formatBytes(bytes, units));
}

QString capacityLabel(const GpuPreset &gpu, Units units)
{
    return QStringLiteral("%1 · %2").arg(QString::fromStdString(gpu.name), bytesText(gpu.capacity, units));
}

} // namespace vl
