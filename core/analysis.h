#pragma once
// Everything one screen shows for a scenario, computed in one place: the breakdown and its
// formulas, the bars to compare, a verdict per chosen GPU, the solvers' answers, the levers
// and the step timeline. The GUI only draws this; it never computes memory itself.

#include "core/advice.h"
#include "core/estimate.h"
#include "core/presets.h"
#include "core/scenariofile.h"
#include "core/timeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vl {

enum class BarSet { Pins, GpuCounts, ZeroStages, Ladder };

struct Bar {
    enum class Kind { Current, Pin, GpuCount, ZeroStage, LadderStep } kind;
    // A GPU count's bar, and the current one among them: all the GPUs the run takes; a ZeRO
    // stage's: the stage; a ladder step's: its lever; otherwise 0.
    std::int64_t value = 0;
    std::string name; // pin name, or the ladder step's change
    Breakdown breakdown;
    Bytes required = 0; // by the fit rule in force (sum or peak)
};

struct GpuVerdict {
    GpuPreset gpu;
    Bytes required = 0;
    Bytes headroom = 0; // negative: the shortfall
    bool fits() const { return headroom >= 0; }
    std::int64_t maxBatch = 0; // 0: not even one
    std::int64_t maxSequence = 0;
    std::int64_t minDataParallel = 0; // at the scenario's ZeRO stage; 0: no GPU count helps
    std::int64_t minGpus = 0;         // minDataParallel × TP × PP × CP
    bool runsPrecision = true;        // false: the GPU cannot run the precision (FP8 before Ada)
};

struct Analysis {
    Breakdown breakdown;
    std::vector<ExplainedItem> items;
    StepTimeline timeline;
    FitRule fitRule = kDefaultFitRule;
    Bytes required = 0; // the total the verdicts use
    std::vector<Bar> bars;
    std::vector<GpuVerdict> verdicts;
    std::vector<LadderStep> levers; // each lever alone, biggest saving first
};

struct AnalysisOptions {
    BarSet bars = BarSet::Pins;
    FitRule fitRule = kDefaultFitRule;
    Units units = Units::GiB;
    std::int64_t ladderGpus = 8; // GPUs the ZeRO lever may shard over when the scenario has one
    std::vector<Lever> ladderOrder{kArticleLadder.begin(), kArticleLadder.end()};
};

Analysis analyse(const ScenarioDocument &doc, const std::vector<GpuPreset> &gpus, const AnalysisOptions &options);

} // namespace vl
