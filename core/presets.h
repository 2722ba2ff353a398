#pragma once
// Model and GPU presets: YAML files with their sources, built-in ones shipped in presets/
// and the user's own beside them. A user preset with a built-in's id shadows it.

#include "core/architecture.h"
#include "core/result.h"
#include "core/units.h"
#include "core/yamlreader.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace vl {

// 2: scenario files say what the estimate predicts (overhead.measure); a file before it that
// does not say `overhead: {enabled: yes}` meant the tensors alone (Measure::Allocated).
// 3: PEFT's adapters over a 16-bit model are FP32 by default (finetune.adapters_fp32); a file
// before it that does not say meant them in the model's dtype.
inline constexpr int kSchemaVersion = 3;

struct ModelPreset {
    std::string id;
    std::string name;
    std::string family;
    Architecture arch;
    std::int64_t publishedParams = 0; // the total the model's authors state; 0 if none
    std::string source;               // where the architecture came from (its config.json)
    std::string file;                 // the file it was loaded from
    bool user = false;
    bool shadowsBuiltin = false;
};

struct GpuPreset {
    std::string id;
    std::string name;
    std::string vendor;
    std::string label;  // the vendor's "80 GB"
    Bytes capacity = 0; // what nvidia-smi reports; the capacity lines use this
    double bandwidthGBs = 0;
    std::int64_t computeCapability = 0; // its major number (NVIDIA's); 0: not known or not NVIDIA
    bool bf16 = false;
    bool fp8 = false;
    bool nvls = false; // an NVSwitch board that does NVLink SHARP (Overhead::nvls)
    bool verified = true;
    std::string source;
    std::string file;
    bool user = false;
    bool shadowsBuiltin = false;
};

struct PresetCatalog {
    std::vector<ModelPreset> models;
    std::vector<GpuPreset> gpus;
    std::vector<Error> skipped; // files that failed to load; everything else still loaded

    // By id, in any case, or by a Hub name whose slug is an id ("meta-llama/Llama-3.1-8B").
    const ModelPreset *findModel(std::string_view id) const;
    const GpuPreset *findGpu(std::string_view id) const;
    // For an id that names no preset: the ids the user may have meant, nearest first, at most three.
    std::vector<std::string> similarModelIds(std::string_view typed) const;
    std::vector<std::string> similarGpuIds(std::string_view typed) const;
    // The GPUs a scenario names, each once and in order: those the catalog has, and the ids it
    // does not (a colleague's custom GPU, a typo), to say so and to keep them when saving.
    struct ResolvedGpus {
        std::vector<GpuPreset> found;
        std::vector<std::string> missing;
        std::vector<std::string> ids; // every id once, in the order given
    };
    ResolvedGpus resolveGpus(const std::vector<std::string> &ids) const;

    // A preset the user saved while the program runs (an import, a custom GPU): marked as the
    // user's, it replaces one with the same id, and says so when that one is built in.
    void addUserPreset(ModelPreset preset);
    void addUserPreset(GpuPreset gpu);
};

Result<ModelPreset> parseModelPreset(std::string_view yaml, const std::string &file);
Result<std::vector<GpuPreset>> parseGpuPresets(std::string_view yaml, const std::string &file);
std::string modelPresetToYaml(const ModelPreset &preset);
std::string gpuPresetsToYaml(const std::vector<GpuPreset> &gpus); // a user's own GPUs file

// A GPU described by a name and its capacity alone (no source vouches for it): the CLI's
// "--gpu 80GB" and the GUI's custom GPUs. Its id is "custom-" and the name as a slug.
GpuPreset customGpu(const std::string &name, Bytes capacity);

// "meta-llama/Llama-2-7b-hf" -> "llama-2-7b-hf": lower case, letters, digits, '.', '-'.
std::string slugify(std::string_view text);

// "did you mean a, b or c?" for similarModelIds()/similarGpuIds(); empty for none.
std::string didYouMean(const std::vector<std::string> &ids);

// Reads <dir>/models/*.yaml and <dir>/gpus/*.yaml from the built-in folder, then the user's;
// a bad file is listed in `skipped` and never stops the others. Either folder may be missing.
PresetCatalog loadCatalog(const std::filesystem::path &builtinDir, const std::filesystem::path &userDir);

// Where the built-in presets live relative to the running program: <bin>/../share/vram-ledger/presets,
// the same in the build tree and after installation. A non-empty override wins.
std::filesystem::path builtinPresetDir(const std::filesystem::path &executableDir, const std::string &override);

// Reads the whole of a regular file of at most kMaxTextFileBytes; an Error names the file and why
// it cannot be read.
inline constexpr std::size_t kMaxTextFileBytes = 16u * 1024 * 1024;
Result<std::string> readTextFile(const std::filesystem::path &path);

// Architecture <-> YAML mapping, shared by presets and scenario files. Reading leaves ranges and
// the rules between fields to the caller (architectureError(), scenarioError()).
std::optional<Error> readArchitecture(YamlReader reader, Architecture &arch);
void writeArchitecture(YAML::Emitter &out, const Architecture &arch);

} // namespace vl
