#pragma once
// Memory in use through one training step, on the GPU estimate() reports: forward layer by
// layer, the loss, backward layer by layer, the optimizer step (and the run's start-up where it
// holds more). The peak — not the sum of
// all components — is what decides whether a run fits; the sum is an upper bound.

#include "core/estimate.h"
#include "core/scenario.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace vl {

// StartUp: before the first step, where the run holds more than between steps (a model placed
// whole before it is sharded); a timeline has that point only then.
enum class StepPhase { StartUp, Start, Forward, Loss, Backward, OptimizerStep };

// "start_up", "start", "forward", "loss", "backward", "optimizer_step": stable, for JSON.
std::string_view idString(StepPhase phase);

struct TimelinePoint {
    StepPhase phase;
    std::int64_t layer;                         // the layer just processed (forward 1..L, backward L..1); 0 elsewhere
    Bytes inUse;                                // the sum of the parts
    std::array<Bytes, kComponentCount> parts{}; // what each component holds at this point
    Bytes part(Component c) const { return parts[static_cast<std::size_t>(c)]; }
};

struct StepTimeline {
    std::vector<TimelinePoint> points;
    std::size_t peakIndex = 0;
    Bytes peak() const { return points.empty() ? 0 : points[peakIndex].inUse; }
    StepPhase peakPhase() const { return points.empty() ? StepPhase::Start : points[peakIndex].phase; }
    bool peakAtStartUp() const { return peakPhase() == StepPhase::StartUp; }
    // What stays allocated from one step to the next (Megatron-LM logs it as mem-allocated-bytes).
    Bytes beforeTheStep() const
    {
        if (points.empty())
            return 0;
        return points[points.front().phase == StepPhase::StartUp && points.size() > 1 ? 1 : 0].inUse;
    }
};

StepTimeline stepTimeline(const Scenario &s);
StepTimeline stepTimeline(const Breakdown &b); // from an estimate already at hand
Bytes stepPeak(const Breakdown &b);            // the timeline's peak, without building it

enum class FitRule { Sum, Peak }; // Sum: every component at once, as other tools count
// The peak is what a run's reading is compared with: on the measured runs it lands within a few
// per cent of what the GPU held, where the sum adds buffers that never live at the same moment
// (the optimizer step's beside the loss's) and overshoots sharded runs (tests/tst_measured.cpp).
inline constexpr FitRule kDefaultFitRule = FitRule::Peak;
// What must fit the GPU under `rule`: the sum of all parts or the step's peak.
constexpr Bytes requiredBy(FitRule rule, Bytes sum, Bytes peak)
{
    return rule == FitRule::Sum ? sum : peak;
}
// The same from an estimate, walking the step for its peak only when the rule reads it.
Bytes requiredBytes(const Breakdown &b, FitRule rule);
std::string_view toString(FitRule rule); // "sum", "peak"
std::optional<FitRule> parseFitRule(std::string_view text);

} // namespace vl
