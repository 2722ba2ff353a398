#include "core/analysis.h"

#include "core/report.h"
#include "core/solve.h"

#include <algorithm>

namespace vl {

namespace {

// The levers aim at the first GPU chosen; with none, at nothing (every lever is tried).
LeverTarget firstGpu(const std::vector<GpuPreset> &gpus)
{
    return gpus.empty() ? LeverTarget{} : leverTarget(gpus.front());
}

Bar makeBar(Bar::Kind kind, std::int64_t value, std::string name, const Scenario &s, FitRule rule)
{
    Bar bar{kind, value, std::move(name), estimate(s), 0};
    bar.required = requiredBytes(bar.breakdown, rule);
    return bar;
}

std::vector<Bar> makeBars(const ScenarioDocument &doc, const std::vector<GpuPreset> &gpus, const AnalysisOptions &o)
{
    const Scenario &s = doc.scenario;
    std::vector<Bar> bars;
    switch (o.bars) {
    case BarSet::Pins:
        for (const Pin &pin : doc.pins)
            if (!scenarioError(pin.scenario))
                bars.push_back(makeBar(Bar::Kind::Pin, 0, pin.name, pin.scenario, o.fitRule));
        bars.push_back(makeBar(Bar::Kind::Current, 0, {}, s, o.fitRule));
        break;
    case BarSet::GpuCounts: {
        // Data-parallel GPUs, each bar named by all the GPUs the run then takes (× TP, PP, CP).
        std::vector<std::int64_t> counts{1, 2, 4, 8, 16, 32, 64, s.dataParallel};
        std::sort(counts.begin(), counts.end());
        counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
        for (std::int64_t n : counts) {
            Scenario at = s;
            at.dataParallel = n;
            if (!scenarioError(at))
                bars.push_back(makeBar(n == s.dataParallel ? Bar::Kind::Current : Bar::Kind::GpuCount, at.gpuCount(),
                                       {}, at, o.fitRule));
        }
        break;
    }
    case BarSet::ZeroStages:
        for (std::int64_t stage = 0; stage <= 3; ++stage) {
            Scenario at = s;
            at.zeroStage = stage;
            if (!scenarioError(at))
                bars.push_back(stage == s.zeroStage ? makeBar(Bar::Kind::Current, 0, {}, at, o.fitRule)
                                                    : makeBar(Bar::Kind::ZeroStage, stage, {}, at, o.fitRule));
        }
        break;
    case BarSet::Ladder: {
        bars.push_back(makeBar(Bar::Kind::Current, 0, {}, s, o.fitRule));
        const std::int64_t ladderGpus = leverShardGroup(s, o.ladderGpus);
        for (const LadderStep &step : optimizationLadder(s, o.ladderOrder, ladderGpus, firstGpu(gpus), o.fitRule))
            bars.push_back(makeBar(Bar::Kind::LadderStep, static_cast<std::int64_t>(step.lever), step.change,
                                   step.scenario, o.fitRule));
        break;
    }
    }
    return bars;
}

} // namespace

Analysis analyse(const ScenarioDocument &doc, const std::vector<GpuPreset> &gpus, const AnalysisOptions &o)
{
    const Scenario &s = doc.scenario;
    Analysis a;
    a.breakdown = estimate(s);
    a.items = explain(s, o.units);
    a.timeline = stepTimeline(a.breakdown);
    a.fitRule = o.fitRule;
    a.required = requiredBy(o.fitRule, a.breakdown.total, a.timeline.peak());
    a.bars = makeBars(doc, gpus, o);
    for (const GpuPreset &gpu : gpus) {
        GpuVerdict v{gpu, a.required, gpu.capacity - a.required};
        v.maxBatch = maxMicroBatch(s, gpu.capacity, o.fitRule);
        v.maxSequence = maxSequence(s, gpu.capacity, o.fitRule);
        v.minDataParallel = minDataParallel(s, gpu.capacity, o.fitRule);
        v.minGpus = gpusWithDataParallel(s, v.minDataParallel);
        v.runsPrecision = runsPrecision(gpu, s.precision);
        a.verdicts.push_back(std::move(v));
    }
    a.levers = rankLevers(s, leverShardGroup(s, o.ladderGpus), firstGpu(gpus), o.fitRule);
    return a;
}

} // namespace vl
