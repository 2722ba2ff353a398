#pragma once
// The article's levers, in its order: 1. ZeRO sharding, 2. recomputation (gradient
// checkpointing), 3. mixed precision, 4. smaller batch or sequence. Each lever changes
// exactly one thing in a scenario; the ladder applies them one after another.

#include "core/estimate.h"
#include "core/presets.h"
#include "core/scenario.h"
#include "core/timeline.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace vl {

enum class Lever { ZeroSharding, Recomputation, MixedPrecision, SmallerBatch };
inline constexpr std::array<Lever, 4> kArticleLadder{Lever::ZeroSharding, Lever::Recomputation, Lever::MixedPrecision,
                                                     Lever::SmallerBatch};

std::string_view idString(Lever lever); // "zero", "recompute", "mixed-precision", "smaller-batch"
std::optional<Lever> parseLever(std::string_view text);

// The GPU the levers aim at: its capacity lets the batch lever pick the largest micro-batch (or
// sequence) that fits; on one without BF16 (V100, T4) the precision lever picks FP16.
struct LeverTarget {
    Bytes capacity = 0;
    bool bf16 = true;
};
inline LeverTarget leverTarget(const GpuPreset &gpu)
{
    return {gpu.capacity, gpu.bf16};
}

// The scenario with one lever pulled, or nullopt when it is already pulled as far as it goes.
// `gpus` is how many GPUs ZeRO may shard the states over (the data-parallel GPUs grow to make
// the sharding group that large); what fits is judged by `rule`.
std::optional<Scenario> applyLever(const Scenario &s, Lever lever, std::int64_t gpus, LeverTarget target,
                                   FitRule rule = kDefaultFitRule);
// What the ZeRO lever shards over for a run: its sharding group where it has data-parallel GPUs,
// else the `offered` GPUs a user names (--ladder-gpus, the window's default 8).
constexpr std::int64_t leverShardGroup(const Scenario &s, std::int64_t offered)
{
    return s.dataParallel > 1 ? s.shardGroup() : offered;
}

struct LadderStep {
    Lever lever;
    Scenario scenario;
    Breakdown breakdown;
    Bytes required; // what must fit, by the ladder's rule (the step's peak or its sum)
    Bytes saving;   // of that, versus the step before
    bool fits;
    bool shorterSequence = false; // the smaller-batch lever shortened the sequence (batch 1 already)
    std::string change;           // "ZeRO stage 3 over 8 GPUs"
    std::string cost;             // "≈ 1.5× data-parallel communication"
    // When the step costs memory instead of saving it: the items that grew, by how much
    // ("zero3_gathered_params +3.91 GiB, recompute_buffer +1.05 GiB").
    std::string grew;
};

// The items of `after` larger than in `before`, largest growth first, as "id +size" joined by ", ".
std::string grownItems(const Breakdown &before, const Breakdown &after, Units units);

// Applies `order` from `start`, skipping levers already pulled, stopping at the first step
// that fits the target's capacity by `rule` (or after the last lever).
std::vector<LadderStep> optimizationLadder(const Scenario &start, std::span<const Lever> order, std::int64_t gpus,
                                           LeverTarget target, FitRule rule = kDefaultFitRule);

// Each lever alone from `s`, biggest saving first (levers that save nothing are left out).
std::vector<LadderStep> rankLevers(const Scenario &s, std::int64_t gpus, LeverTarget target,
                                   FitRule rule = kDefaultFitRule);

} // namespace vl
