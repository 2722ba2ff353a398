#include "core/solve.h"

#include "core/edits.h"
#include "core/estimate.h"
#include "core/fields.h"

#include <numeric>

namespace vl {

namespace {

// The largest x in [1, limit] with fits(x), for a predicate that holds up to some point and
// fails after it; 0 when fits(1) fails. Doubling then bisection: O(log limit) estimates.
template <class Fits>
std::int64_t largestFitting(std::int64_t limit, Fits &&fits)
{
    if (!fits(1))
        return 0;
    std::int64_t good = 1, bad = 2;
    while (bad <= limit && fits(bad)) {
        good = bad;
        bad *= 2;
    }
    if (bad > limit) {
        if (fits(limit))
            return limit;
        bad = limit;
    }
    while (bad - good > 1) {
        const std::int64_t mid = good + (bad - good) / 2;
        (fits(mid) ? good : bad) = mid;
    }
    return good;
}

bool fitsIn(const Scenario &trial, Bytes capacity, FitRule rule)
{
    return !scenarioError(trial) && requiredBytes(estimate(trial), rule) <= capacity;
}

} // namespace

std::int64_t maxMicroBatch(const Scenario &s, Bytes capacity, FitRule rule)
{
    Scenario trial = s;
    return largestFitting(allowedRange(s, "batch")->second, [&](std::int64_t batch) {
        trial.microBatch = batch;
        return fitsIn(trial, capacity, rule);
    });
}

std::int64_t maxSequence(const Scenario &s, Bytes capacity, FitRule rule)
{
    // Context parallelism splits the sequence in equal slices, and so does sequence parallelism
    // over the tensor-parallel GPUs: search a slice both divide, report the whole.
    Scenario trial = s;
    const std::int64_t slices = std::lcm(s.contextParallel, s.sequenceParallel ? s.tensorParallel : 1);
    return slices * largestFitting(allowedRange(s, "seq")->second / slices, [&](std::int64_t slice) {
               trial.sequence = slice * slices;
               return fitsIn(trial, capacity, rule);
           });
}

std::int64_t minDataParallel(const Scenario &s, Bytes capacity, FitRule rule)
{
    Scenario trial = s;
    // Under HSDP the GPUs come in whole replica groups: search the group size, report all GPUs.
    const std::int64_t groups = s.fsdp() ? s.replicas : 1;
    auto fits = [&](std::int64_t ranks) {
        trial.dataParallel = ranks * groups;
        return fitsIn(trial, capacity, rule);
    };
    if (fits(1))
        return groups;
    if (s.zeroStage == 0)
        return 0; // without sharding every rank holds everything: more GPUs never help
    // From 2 ranks on memory only falls as ranks grow (1 → 2 may add communication buffers),
    // so search for the first fitting count as the last failing one plus one.
    const std::int64_t most = allowedRange(s, "dp")->second / groups;
    if (!fits(most))
        return 0;
    std::int64_t bad = 1, good = most;
    std::int64_t probe = 2;
    while (probe < good && !fits(probe)) {
        bad = probe;
        probe *= 2;
    }
    if (probe < good)
        good = probe;
    while (good - bad > 1) {
        const std::int64_t mid = bad + (good - bad) / 2;
        (fits(mid) ? good : bad) = mid;
    }
    return good * groups;
}

Result<SweepSpec> parseSweepSpec(std::string_view text)
{
    const auto equals = text.find('=');
    if (equals == std::string_view::npos)
        return Error{"sweep",
                     "'" + std::string(text) + "' is not FIELD=FROM:TO[:STEP], e.g. batch=1:64 or seq=512:8192:512"};
    SweepSpec spec;
    spec.field = std::string(text.substr(0, equals));
    const FieldSpec *field = findField(spec.field);
    if (!field || !field->integer)
        return Error{"sweep",
                     "'" + spec.field + "' is not a numeric scenario field; try batch, seq, hidden, layers, dp"};
    std::string_view rest = text.substr(equals + 1);
    std::int64_t *parts[] = {&spec.from, &spec.to, &spec.step};
    int count = 0;
    while (count < 3) {
        const auto colon = rest.find(':');
        const auto value = parseCount(rest.substr(0, colon));
        if (!value || *value < 0)
            return Error{"sweep",
                         "'" + std::string(rest.substr(0, colon)) + "' is not a whole number in " + std::string(text)};
        *parts[count++] = *value;
        if (colon == std::string_view::npos)
            break;
        if (count == 3)
            return Error{"sweep", "'" + std::string(text) + "' has more than FROM:TO:STEP"};
        rest = rest.substr(colon + 1);
    }
    if (count < 2)
        return Error{"sweep", "give a range FROM:TO, e.g. " + spec.field + "=1:64"};
    if (spec.from < 1 || spec.to < spec.from)
        return Error{"sweep",
                     "the range must satisfy 1 <= FROM <= TO; got " + std::to_string(spec.from) + ":"
                         + std::to_string(spec.to)};
    const std::int64_t points = spec.step > 0 ? (spec.to - spec.from) / spec.step + 1 : 64;
    if (static_cast<std::size_t>(points) > kMaxSweepPoints)
        return Error{"sweep",
                     std::to_string(points) + " points is too many; allowed up to " + std::to_string(kMaxSweepPoints)
                         + ", use a larger STEP"};
    return spec;
}

Result<std::vector<SweepPoint>> runSweep(const Scenario &s, const SweepSpec &spec)
{
    const FieldSpec *field = findField(spec.field);
    if (!field || !field->integer)
        return Error{"sweep", "'" + spec.field + "' is not a numeric scenario field"};
    std::vector<SweepPoint> points;
    points.reserve(spec.step > 0 ? static_cast<std::size_t>((spec.to - spec.from) / spec.step + 1) : 64);
    // A swept shape counts the parameters from the shapes, as every front end does.
    const std::string_view swept = field->name;
    Scenario trial = withArchitectureDefaults(s, s.arch, std::span(&swept, 1));
    for (std::int64_t value = spec.from; value <= spec.to; value = spec.step > 0 ? value + spec.step : value * 2) {
        field->integer(trial) = value;
        if (auto error = scenarioError(trial)) {
            error->message += " (at " + spec.field + " = " + std::to_string(value) + ")";
            return *error;
        }
        Breakdown b = estimate(trial);
        const Bytes peak = stepPeak(b);
        points.push_back({value, std::move(b), peak});
    }
    return points;
}

std::optional<std::int64_t> sweepCrossing(const Scenario &s, const SweepSpec &spec,
                                          const std::vector<SweepPoint> &points, Bytes capacity, FitRule rule)
{
    const FieldSpec *field = findField(spec.field);
    if (!field || !field->integer)
        return std::nullopt;
    for (std::size_t i = 1; i < points.size(); ++i) {
        const bool before = points[i - 1].required(rule) <= capacity;
        if ((points[i].required(rule) <= capacity) == before)
            continue;
        // Bisect between the two points for the last value still on the first one's side.
        const std::string_view swept = field->name;
        Scenario trial = withArchitectureDefaults(s, s.arch, std::span(&swept, 1));
        std::int64_t same = points[i - 1].value, other = points[i].value;
        while (other - same > 1) {
            const std::int64_t mid = same + (other - same) / 2;
            field->integer(trial) = mid;
            const bool valid = !scenarioError(trial);
            (valid && (requiredBytes(estimate(trial), rule) <= capacity) == before ? same : other) = mid;
        }
        return same;
    }
    return std::nullopt;
}

} // namespace vl
