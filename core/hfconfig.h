#pragma once
// Import a Hugging Face config.json (the model types of kKnownModelTypes in hfconfig.cpp) as a model preset.

#include "core/presets.h"
#include "core/result.h"

#include <string>
#include <string_view>

namespace vl {

// The preset's id and name come from _name_or_path, else model_type. An unknown model_type, or a
// config missing fields, is refused with an error that lists every missing key.
Result<ModelPreset> importHfConfig(std::string_view json, const std::string &file);

} // namespace vl
