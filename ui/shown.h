#pragma once
// The one contract between the model and the views. After every change LedgerModel makes one
// Shown - core's analysis with what it was computed from - and every view receives that same
// one through showAnalysis(), keeps it (shared, never copied) and redraws from it alone.

#include "core/analysis.h"
#include "core/presets.h"
#include "core/scenariofile.h"
#include "core/units.h"

#include <memory>
#include <vector>

namespace vl {

struct Shown {
    Analysis analysis;
    Scenario scenario;
    std::vector<GpuPreset> gpus; // the chosen GPUs; the first is the target (solid line, the ladder's aim)
    Units units = Units::GiB;
};

using ShownPtr = std::shared_ptr<const Shown>;

// Core's analysis of a document against the chosen GPUs, made into what the views show.
ShownPtr shownFor(const ScenarioDocument &document, std::vector<GpuPreset> gpus = {},
                  const AnalysisOptions &options = {});

} // namespace vl
