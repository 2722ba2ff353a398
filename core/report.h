#pragma once
// Text renderings of an estimate — table, Markdown, CSV and JSON — shared by the CLI and the
// GUI's "copy as Markdown/CSV". JSON carries integer bytes; the others format in `units`.

#include "core/advice.h"
#include "core/estimate.h"
#include "core/presets.h"
#include "core/solve.h"
#include "core/units.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vl {

enum class Format { Table, Json, Markdown, Csv };
std::optional<Format> parseFormat(std::string_view text);

struct SolveAnswer {
    std::string kind;       // "max-batch", "max-seq", "min-gpus"
    std::int64_t value = 0; // 0: nothing fits
    std::int64_t gpus = 0;  // min-gpus: total GPUs (dp × tp × pp)
};

struct Report {
    Scenario scenario;
    Breakdown breakdown;
    std::vector<ExplainedItem> items;
    std::optional<GpuPreset> gpu;
    std::optional<SolveAnswer> solve;
    Units units = Units::GiB;
    Bytes peak = 0;                         // the step timeline's peak, beside the sum (breakdown.total)
    StepPhase peakPhase = StepPhase::Start; // where the peak is: the run's start-up or a point of the step
    Bytes betweenSteps = 0;                 // what the timeline holds before the step, kept from the last
    FitRule fitRule = kDefaultFitRule;      // which of the two the verdict compares with the GPU
    Bytes required() const { return requiredBy(fitRule, breakdown.total, peak); }
};

// Whether the GPU can run the scenario's precision at all: Transformer Engine refuses FP8 below
// compute capability 8.9, Ada and Hopper (transformer_engine/pytorch/fp8.py, check_fp8_support).
bool runsPrecision(const GpuPreset &gpu, Precision precision);

Report makeReport(const Scenario &s, Units units, std::optional<GpuPreset> gpu = std::nullopt,
                  FitRule fitRule = kDefaultFitRule);

std::string renderReport(const Report &report, Format format);

// Each point's parts, sum and step peak; with a GPU, whether it fits by `rule`.
std::string renderSweep(std::string_view field, const std::vector<SweepPoint> &points, Units units,
                        std::optional<GpuPreset> gpu, FitRule rule, Format format);

// The optimization ladder: what the starting scenario requires by `rule`, then each step with its
// requirement, saving and cost.
std::string renderLadder(Bytes start, FitRule rule, const std::vector<LadderStep> &steps, const GpuPreset &gpu,
                         Units units, Format format);

std::string renderModelList(const PresetCatalog &catalog, Format format);
std::string renderGpuList(const PresetCatalog &catalog, Units units, Format format);

// Component names as people read them: "Optimizer states".
std::string_view componentTitle(Component c);

} // namespace vl
