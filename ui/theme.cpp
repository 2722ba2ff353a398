#include "ui/theme.h"

#include "core/units.h"

#include <QApplication>
#include <QCoreApplication>
#include <QStyle>
#include <QStyleFactory>

#include <numeric>

#include <array>
#include <memory>
#include <utility>

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
    case ItemId::Gradients: return QCoreApplication::translate("vl::ui", "Gradients");
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
        return QCoreApplication::translate("vl::ui", "micro-batch %1 × %2 accumulation steps").arg(s.microBatch).arg(s.gradAccum);
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

QString localizedFormula(const std::string &formula)
{
    // The words core's formulas use; numbers, units and symbols stay as they are. Longer
    // phrases come before the words they contain.
    static const std::array<std::pair<const char *, const char *>, 28> words{{
        {"the article's b·s·h·L·2 estimate", QT_TRANSLATE_NOOP("vl::formula", "the article's b·s·h·L·2 estimate")},
        {"trainable params", QT_TRANSLATE_NOOP("vl::formula", "trainable params")},
        {"adapter params", QT_TRANSLATE_NOOP("vl::formula", "adapter params")},
        {"factor entries", QT_TRANSLATE_NOOP("vl::formula", "factor entries")},
        {"params", QT_TRANSLATE_NOOP("vl::formula", "params")},
        {"FP32 master copy", QT_TRANSLATE_NOOP("vl::formula", "FP32 master copy")},
        {"8-bit Adam m and v", QT_TRANSLATE_NOOP("vl::formula", "8-bit Adam m and v")},
        {"Adam m and v", QT_TRANSLATE_NOOP("vl::formula", "Adam m and v")},
        {"plain SGD keeps no state", QT_TRANSLATE_NOOP("vl::formula", "plain SGD keeps no state")},
        {"Lion momentum", QT_TRANSLATE_NOOP("vl::formula", "Lion momentum")},
        {"momentum", QT_TRANSLATE_NOOP("vl::formula", "momentum")},
        {"Adafactor row/column factors", QT_TRANSLATE_NOOP("vl::formula", "Adafactor row/column factors")},
        {"GPUs (ZeRO)", QT_TRANSLATE_NOOP("vl::formula", "GPUs (ZeRO)")},
        {"offloaded to CPU memory", QT_TRANSLATE_NOOP("vl::formula", "offloaded to CPU memory")},
        {"largest layer", QT_TRANSLATE_NOOP("vl::formula", "largest layer")},
        {"weights", QT_TRANSLATE_NOOP("vl::formula", "weights")},
        {"grads", QT_TRANSLATE_NOOP("vl::formula", "grads")},
        {"per layer:", QT_TRANSLATE_NOOP("vl::formula", "per layer:")},
        {"inputs & norms", QT_TRANSLATE_NOOP("vl::formula", "inputs & norms")},
        {"attention scores", QT_TRANSLATE_NOOP("vl::formula", "attention scores")},
        {"micro-batches in flight", QT_TRANSLATE_NOOP("vl::formula", "micro-batches in flight")},
        {"each layer keeps only its input:", QT_TRANSLATE_NOOP("vl::formula", "each layer keeps only its input:")},
        {"one layer's full activations while it is recomputed", QT_TRANSLATE_NOOP("vl::formula", "one layer's full activations while it is recomputed")},
        {"FP32 copy for the loss", QT_TRANSLATE_NOOP("vl::formula", "FP32 copy for the loss")},
        {"tokens", QT_TRANSLATE_NOOP("vl::formula", "tokens")},
        {"layers", QT_TRANSLATE_NOOP("vl::formula", "layers")},
        {"hidden", QT_TRANSLATE_NOOP("vl::formula", "hidden")},
        {"vocab", QT_TRANSLATE_NOOP("vl::formula", "vocab")},
    }};
    QString text = QString::fromStdString(formula);
    for (const auto &[english, key] : words) {
        const QString translated = QCoreApplication::translate("vl::formula", key);
        if (translated != QLatin1String(english))
            text.replace(QLatin1String(english), translated);
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
