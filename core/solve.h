#pragma once
// "What is the most I can fit?" Each answer is exact: it fits, and one more does not.

#include "core/scenario.h"
#include "core/units.h"

#include "core/estimate.h"
#include "core/result.h"
#include "core/timeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vl {

// Each searches up to the largest value the field allows (allowedRange()) and takes a scenario
// scenarioError() found nothing wrong with; 0 means no value fits. `rule` says whether the
// sum of all components or the step's peak must fit.
std::int64_t maxMicroBatch(const Scenario &s, Bytes capacity, FitRule rule = kDefaultFitRule);
std::int64_t maxSequence(const Scenario &s, Bytes capacity, FitRule rule = kDefaultFitRule);
// The fewest data-parallel ranks at the scenario's ZeRO stage (0: no count fits), and the GPUs
// the run then takes: that × TP × PP × CP.
std::int64_t minDataParallel(const Scenario &s, Bytes capacity, FitRule rule = kDefaultFitRule);
inline std::int64_t gpusWithDataParallel(const Scenario &s, std::int64_t dataParallel)
{
    return s.gpuCount() / s.dataParallel * dataParallel;
}

// A sweep: one integer field from `from` to `to`, in steps of `step` (0: doubling).
struct SweepSpec {
    std::string field;
    std::int64_t from = 1, to = 1, step = 0;
};
inline constexpr std::size_t kMaxSweepPoints = 1'000'000;

// "batch=1:64" (doubling) or "seq=512:8192:512"; the error names the part that is wrong.
Result<SweepSpec> parseSweepSpec(std::string_view text);
// Every point is validated; the first invalid one is reported with its value.
struct SweepPoint {
    std::int64_t value;
    Breakdown breakdown;
    Bytes peak = 0; // the step's peak (stepPeak()), beside the sum (breakdown.total)
    Bytes required(FitRule rule) const { return requiredBy(rule, breakdown.total, peak); }
};
Result<std::vector<SweepPoint>> runSweep(const Scenario &s, const SweepSpec &spec);

// Where a sweep crosses `capacity`: the exact boundary x, found by bisection between the
// sweep's points, such that x and x + 1 fall on different sides of the capacity (memory
// grows with batch, sequence, hidden size; it falls with GPU count). nullopt: no crossing
// inside the swept range.
std::optional<std::int64_t> sweepCrossing(const Scenario &s, const SweepSpec &spec,
                                          const std::vector<SweepPoint> &points, Bytes capacity,
                                          FitRule rule = kDefaultFitRule);

} // namespace vl
