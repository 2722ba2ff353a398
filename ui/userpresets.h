#pragma once
// Writing the user's own presets into the app-data folder, beside the built-in ones. Files
// are written atomically and an existing file is never replaced by accident.

#include "core/presets.h"

#include <QString>

namespace vl {

QString userPresetDir(); // <app data>/presets

// Saves an imported model as its own file (a new name if one exists); returns an error
// message, or empty with the path written in `written`.
QString saveUserModel(const ModelPreset &model, QString *written);

// Adds a GPU to the user's gpus/custom.yaml, keeping every GPU already in it.
QString saveUserGpu(const GpuPreset &gpu);

} // namespace vl
