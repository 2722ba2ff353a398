#pragma once
// A scenario file (.vramledger.yaml): the model, every setting, the chosen GPUs, display
// options and pinned comparisons — small, readable, and shared between colleagues.

#include "core/result.h"
#include "core/scenario.h"
#include "core/units.h"

#include <string>
#include <string_view>
#include <vector>

namespace vl {

struct Pin {
    std::string name;
    std::string modelId;
    Scenario scenario;
    bool operator==(const Pin &) const = default;
};

struct ScenarioDocument {
    std::string modelId;             // the preset it started from; empty for a custom model
    Scenario scenario;               // architecture always written in full
    std::vector<std::string> gpuIds; // capacity lines to draw
    Units units = Units::GiB;
    std::vector<Pin> pins;
    bool operator==(const ScenarioDocument &) const = default;
};

// The first thing a person sees: the article's 7B in mixed precision with Adam, batch 1,
// sequence 4096, on an A100 80GB — pinned beside its FP32 column and its AMP column as the
// article printed it (without the FP32 master copy it then warns about).
ScenarioDocument articleExampleDocument();

// What one file may hold: every pin is estimated on every redraw, every GPU drawn as a line.
inline constexpr std::size_t kMaxPins = 256;
inline constexpr std::size_t kMaxGpus = 256;

Result<ScenarioDocument> parseScenarioDocument(std::string_view yaml, const std::string &file);
std::string scenarioDocumentToYaml(const ScenarioDocument &doc);

} // namespace vl
