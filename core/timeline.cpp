#include "core/timeline.h"

#include <algorithm>

namespace vl {

StepTimeline stepTimeline(const Scenario &s)
{
    return stepTimeline(estimate(s));
}

StepTimeline stepTimeline(const Breakdown &b)
{
    StepTimeline t;
    t.points.reserve(static_cast<std::size_t>(2 * b.layersOnStage + 3));
    const std::int64_t layers = std::max<std::int64_t>(b.layersOnStage, 1);
    const Bytes overhead = b.component(Component::Overhead);
    // DeepSpeed's gradient bucket: all step long at ZeRO-3, only in backward below.
    const Bytes bucket = b.item(ItemId::ZeroReduceBucket);
    // Resident all step long: the weights, master copy, moments. ZeRO-3's and FSDP's gathered
    // parameters from the first forward gather to the end of backward.
    const Bytes gathered = b.item(ItemId::Zero3GatheredParams) + b.item(ItemId::FsdpUnshardedParams);
    const Bytes resident = b.component(Component::Parameters) - gathered + b.component(Component::OptimizerStates) + overhead
        + (b.bucketPersists ? bucket : 0);
    // What each layer keeps until its backward: its saved activations and, under autocast, the
    // 16-bit casts of its weights.
    const Bytes layerActivations = b.item(ItemId::LayerActivations) + b.item(ItemId::WeightCasts);
    // FSDP's unsharded gradients and reduce-scatter input, DeepSpeed's gradient bucket below
    // ZeRO-3: they live only while backward runs (ZeRO-3's bucket stays all step).
    const Bytes gradientBuffers = b.item(ItemId::FsdpGradientBuffers) + (b.bucketPersists ? 0 : bucket);
    const Bytes gradients = b.component(Component::Gradients) - gradientBuffers - (b.bucketPersists ? bucket : 0);
    auto share = [layers](Bytes total, std::int64_t done) { return total * done / layers; };

    Bytes inUse = resident;
    t.points.push_back({StepPhase::Start, 0, inUse});
    inUse += gathered;
    inUse += b.item(ItemId::EmbeddingActivations);
    for (std::int64_t layer = 1; layer <= layers; ++layer)
        t.points.push_back({StepPhase::Forward, layer, inUse + share(layerActivations, layer)});
    const Bytes afterForward = inUse + layerActivations;
    // At the loss: the logits and what the final norm, the head and the loss keep for backward.
    t.points.push_back({StepPhase::Loss, 0, afterForward + b.item(ItemId::Logits) + b.item(ItemId::HeadActivations)});

    // Backward frees each layer's activations as it produces that layer's gradients; under full
    // recomputation the layer's whole working set is rebuilt first.
    const Bytes recompute = b.item(ItemId::RecomputeBuffer);
    for (std::int64_t layer = layers; layer >= 1; --layer) {
        const std::int64_t done = layers - layer + 1;
        const Bytes held = afterForward - share(layerActivations, done) + share(gradients, done);
        t.points.push_back({StepPhase::Backward, layer, held + recompute + gradientBuffers});
    }
    t.points.push_back({StepPhase::OptimizerStep, 0, resident + gradients});

    for (std::size_t i = 0; i < t.points.size(); ++i)
        if (t.points[i].inUse > t.points[t.peakIndex].inUse)
            t.peakIndex = i;
    return t;
}

Bytes requiredBytes(const Breakdown &b, FitRule rule)
{
    return rule == FitRule::Sum ? b.total : stepTimeline(b).peak();
}

std::string_view toString(FitRule rule)
{
    return rule == FitRule::Sum ? "sum" : "peak";
}

std::optional<FitRule> parseFitRule(std::string_view text)
{
    if (text == "sum")
        return FitRule::Sum;
    if (text == "peak")
        return FitRule::Peak;
    return std::nullopt;
}

} // namespace vl
