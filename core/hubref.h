#pragma once
// A model on the Hugging Face Hub as people name it, "meta-llama/Llama-3.1-8B[@REVISION]", and
// the Hub's paths for its config.json and its model information (huggingface_hub's
// hf_hub_url and HfApi.model_info). Parsing and paths only; fetching is io/'s.

#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vl {

struct HubModelRef {
    std::string repo;     // "meta-llama/Llama-3.1-8B", or a legacy id without owner ("gpt2")
    std::string revision; // a branch, tag or commit; "main" when not given
    std::string text() const { return revision == "main" ? repo : repo + "@" + revision; }
    bool operator==(const HubModelRef &) const = default;
};

// Refuses what the Hub refuses (huggingface_hub validate_repo_id): each part 1–96 characters of
// letters, digits, '-', '_' and '.', not starting or ending with '-' or '.', no "--" or "..";
// a revision without spaces or control characters. The error names `field`.
Result<HubModelRef> parseHubModelRef(std::string_view text, std::string_view field = "hf-model");

// "/meta-llama/Llama-3.1-8B/resolve/main/config.json"; the revision percent-encoded whole, as
// the Hub expects ("refs/pr/1" → "refs%2Fpr%2F1").
std::string hubConfigPath(const HubModelRef &ref);
// "/api/models/meta-llama/Llama-3.1-8B/revision/main": the model's information, with the
// parameter count its safetensors files hold.
std::string hubModelInfoPath(const HubModelRef &ref);

// The Hub's published parameter count ("safetensors": {"total": N}), when the answer has one.
std::optional<std::int64_t> publishedParameterCount(std::string_view modelInfoJson);

} // namespace vl
