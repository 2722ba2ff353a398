#include "core/advice.h"

#include "core/solve.h"

#include <algorithm>

namespace vl {

std::string_view idString(Lever lever)
{
    switch (lever) {
    case Lever::ZeroSharding: return "zero";
    case Lever::Recomputation: return "recompute";
    case Lever::MixedPrecision: return "mixed-precision";
    case Lever::SmallerBatch: return "smaller-batch";
    }
    return "?";
}

std::optional<Lever> parseLever(std::string_view text)
{
    for (Lever lever : kArticleLadder)
        if (idString(lever) == text)
            return lever;
    return std::nullopt;
}

namespace {

std::string describeChange(Lever lever, const Scenario &before, const Scenario &after)
{
    switch (lever) {
    case Lever::ZeroSharding:
        return "ZeRO stage " + std::to_string(after.zeroStage) + " over " + std::to_string(after.shardGroup())
            + " GPUs";
    case Lever::Recomputation: return "full activation recomputation";
    case Lever::MixedPrecision:
        return std::string("mixed precision (") + (after.precision == Precision::MixedFp16 ? "FP16" : "BF16")
            + " with an FP32 master copy)";
    case Lever::SmallerBatch:
        if (after.microBatch != before.microBatch)
            return "micro-batch " + std::to_string(after.microBatch) + " × "
                + std::to_string(after.microBatchesPerStep()) + " accumulation steps";
        return "sequence " + std::to_string(after.sequence);
    }
    return {};
}

std::string describeCost(Lever lever, const Scenario &after)
{
    switch (lever) {
    case Lever::ZeroSharding:
        return after.zeroStage == 3 ? "≈ 1.5× data-parallel communication (parameters gathered every step)"
                                    : "same communication as data parallelism";
    case Lever::Recomputation: return "≈ 33 % more compute (one extra forward pass)";
    case Lever::MixedPrecision:
        return after.precision == Precision::MixedFp16 ? "FP16 needs loss scaling (this GPU has no BF16)"
                                                       : "no slowdown on GPUs with BF16";
    case Lever::SmallerBatch:
        return "same global batch through accumulation, lower GPU utilisation; "
               "a shorter sequence changes what the model learns";
    }
    return {};
}

} // namespace

std::optional<Scenario> applyLever(const Scenario &s, Lever lever, std::int64_t gpus, LeverTarget target, FitRule rule)
{
    Scenario next = s;
    switch (lever) {
    case Lever::ZeroSharding: {
        // The states shard over `gpus` GPUs: the data-parallel GPUs grow until the group that
        // shards them (the context-parallel GPUs with them, HSDP's within one replica) is that large.
        const std::int64_t replicas = s.sharding == Sharding::Fsdp ? s.replicas : 1;
        next.dataParallel = std::max(s.dataParallel, (gpus + s.contextParallel - 1) / s.contextParallel * replicas);
        // As far as the engine shards: Megatron's distributed optimizer is stage 1.
        next.zeroStage = next.dataParallel * next.contextParallel > 1 ? (s.megatron() ? 1 : 3) : s.zeroStage;
        break;
    }
    case Lever::Recomputation: next.recompute = Recompute::Full; break;
    case Lever::MixedPrecision:
        if (s.precision == Precision::Fp32)
            next.precision = target.bf16 ? Precision::MixedBf16 : Precision::MixedFp16;
        break;
    case Lever::SmallerBatch:
        if (s.microBatch > 1) {
            // The largest micro-batch that fits, keeping the global batch through accumulation.
            const std::int64_t fitting = std::clamp<std::int64_t>(maxMicroBatch(s, target.capacity, rule), 1,
                                                                  s.microBatch - 1);
            const std::int64_t globalBatch = s.microBatch * s.microBatchesPerStep();
            next.microBatch = fitting;
            next.gradAccum = (globalBatch + fitting - 1) / fitting;
        } else if (s.sequence > 1) {
            const std::int64_t fitting = maxSequence(s, target.capacity, rule);
            next.sequence = fitting > 0 && fitting < s.sequence ? fitting : s.sequence / 2;
        }
        break;
    }
    if (next == s || scenarioError(next))
        return std::nullopt;
    return next;
}

std::string grownItems(const Breakdown &before, const Breakdown &after, Units units)
{
    std::vector<std::pair<Bytes, ItemId>> grown;
    for (int i = 0; i < kItemCount; ++i)
        if (after.itemBytes[i] > before.itemBytes[i])
            grown.emplace_back(after.itemBytes[i] - before.itemBytes[i], static_cast<ItemId>(i));
    std::sort(grown.begin(), grown.end(), [](const auto &l, const auto &r) { return l.first > r.first; });
    std::string text;
    for (const auto &[bytes, id] : grown)
        text += (text.empty() ? "" : ", ") + std::string(idString(id)) + " +" + formatBytes(bytes, units);
    // Accumulating over micro-batches grows no item but keeps the earlier micro-batches' gradients
    // through forward and the loss, where the peak may then lie.
    if (after.gradientsAccumulated && !before.gradientsAccumulated && after.item(ItemId::Gradients) > 0)
        text += (text.empty() ? "" : ", ") + std::string(idString(ItemId::Gradients))
            + " held through forward (accumulated over micro-batches) +"
            + formatBytes(after.item(ItemId::Gradients), units);
    return text;
}

std::vector<LadderStep> optimizationLadder(const Scenario &start, std::span<const Lever> order, std::int64_t gpus,
                                           LeverTarget target, FitRule rule)
{
    std::vector<LadderStep> steps;
    Scenario current = start;
    Breakdown currentBreakdown = estimate(start);
    Bytes currentRequired = requiredBytes(currentBreakdown, rule);
    if (currentRequired <= target.capacity)
        return steps;
    for (Lever lever : order) {
        const auto next = applyLever(current, lever, gpus, target, rule);
        if (!next)
            continue;
        const Breakdown b = estimate(*next);
        const Bytes required = requiredBytes(b, rule);
        steps.push_back({lever, *next, b, required, currentRequired - required, required <= target.capacity,
                         next->sequence != current.sequence, describeChange(lever, current, *next),
                         describeCost(lever, *next),
                         required > currentRequired ? grownItems(currentBreakdown, b, Units::GiB) : std::string()});
        current = *next;
        currentBreakdown = b;
        currentRequired = required;
        if (steps.back().fits)
            break;
    }
    return steps;
}

std::vector<LadderStep> rankLevers(const Scenario &s, std::int64_t gpus, LeverTarget target, FitRule rule)
{
    const Bytes start = requiredBytes(estimate(s), rule);
    std::vector<LadderStep> levers;
    for (Lever lever : kArticleLadder) {
        const auto next = applyLever(s, lever, gpus, target, rule);
        if (!next)
            continue;
        const Breakdown b = estimate(*next);
        const Bytes required = requiredBytes(b, rule);
        if (required < start)
            levers.push_back({lever, *next, b, required, start - required, required <= target.capacity,
                              next->sequence != s.sequence, describeChange(lever, s, *next),
                              describeCost(lever, *next)});
    }
    std::stable_sort(levers.begin(), levers.end(),
                     [](const LadderStep &a, const LadderStep &b) { return a.saving > b.saving; });
    return levers;
}

} // namespace vl
