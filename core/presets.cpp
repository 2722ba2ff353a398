#include "core/presets.h"

#include "core/estimate.h"
#include "core/fields.h"
#include "core/scenario.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace vl {

namespace fs = std::filesystem;

namespace {

// Longer than any id anyone types: beyond it no suggestion is looked for (the distance is quadratic).
constexpr std::size_t kMaxTypedIdLength = 200;

// Every id is a slug (slugify()), so "Llama-3.1-8B" and "meta-llama/Llama-3.1-8B" name the same
// preset as "llama-3.1-8b".
template <class Preset>
const Preset *findById(const std::vector<Preset> &list, std::string_view typed)
{
    const auto named = [&](std::string_view id) {
        return std::find_if(list.begin(), list.end(), [&](const Preset &p) { return p.id == id; });
    };
    auto it = named(typed);
    if (it == list.end())
        it = named(slugify(typed));
    return it == list.end() ? nullptr : &*it;
}

// Levenshtein's distance: the fewest characters inserted, deleted or replaced to turn a into b.
std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j < row.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row.back();
}

// Whether `part` occurs in `whole` from a dash or its start ("qwen" in "qwen2.5-7b"), and with
// `toWordEnd` up to a dash or its end too ("a100" holds no "a10").
bool holdsWord(std::string_view whole, std::string_view part, bool toWordEnd)
{
    for (std::size_t at = whole.find(part); at != std::string_view::npos; at = whole.find(part, at + 1)) {
        const std::size_t end = at + part.size();
        if ((at == 0 || whole[at - 1] == '-') && (!toWordEnd || end == whole.size() || whole[end] == '-'))
            return true;
    }
    return false;
}

// How many of the words typed ("h100", "80gb") are words of the preset's id or of its name as a
// slug ("nvidia-h100-sxm-80gb").
template <class Preset>
int sharedWords(const Preset &p, std::string_view slug)
{
    const std::string name = slugify(p.name);
    int shared = 0;
    for (std::size_t start = 0; start < slug.size();) {
        const std::size_t end = std::min(slug.find('-', start), slug.size());
        const std::string_view word = slug.substr(start, end - start);
        if (!word.empty() && (holdsWord(p.id, word, true) || holdsWord(name, word, true)))
            ++shared;
        start = end + 1;
    }
    return shared;
}

// The presets whose id or name contains what was typed, or whose id is contained in it ("h100" ->
// h100-sxm, "mixtral" -> mixtral-8x7b, "meta-llama-3-8b-instruct" -> llama-3-8b, "NVIDIA H100" ->
// the H100 boards); failing those, the ones sharing the most of two or more of its words
// ("h100-80gb" -> h100-sxm, h100-pcie); failing those, the ids a typo or two away (one in four
// characters, at least one). Nearest first, at most three.
template <class Preset>
std::vector<std::string> similarIds(const std::vector<Preset> &list, std::string_view typed)
{
    const std::string slug = slugify(typed);
    if (slug.size() > kMaxTypedIdLength)
        return {};
    const auto contains = [&](const Preset &p) {
        return slug.size() >= 2
            && (holdsWord(p.id, slug, false) || holdsWord(slug, p.id, true) || holdsWord(slugify(p.name), slug, false));
    };
    const bool anyContains = std::any_of(list.begin(), list.end(), contains);
    int mostShared = 0;
    if (!anyContains)
        for (const Preset &p : list)
            mostShared = std::max(mostShared, sharedWords(p, slug));
    const std::size_t typos = std::max<std::size_t>(1, slug.size() / 4);
    std::vector<std::pair<std::size_t, std::string>> near;
    for (const Preset &p : list) {
        const std::size_t distance = editDistance(slug, p.id);
        const bool similar = anyContains ? contains(p)
            : mostShared >= 2            ? sharedWords(p, slug) == mostShared
                                         : distance <= typos;
        if (similar)
            near.emplace_back(distance, p.id);
    }
    std::sort(near.begin(), near.end());
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < near.size() && i < 3; ++i)
        ids.push_back(near[i].second);
    return ids;
}

} // namespace

const ModelPreset *PresetCatalog::findModel(std::string_view id) const
{
    return findById(models, id);
}

const GpuPreset *PresetCatalog::findGpu(std::string_view id) const
{
    return findById(gpus, id);
}

std::vector<std::string> PresetCatalog::similarModelIds(std::string_view typed) const
{
    return similarIds(models, typed);
}

std::vector<std::string> PresetCatalog::similarGpuIds(std::string_view typed) const
{
    return similarIds(gpus, typed);
}

std::string didYouMean(const std::vector<std::string> &ids)
{
    std::string text;
    for (std::size_t i = 0; i < ids.size(); ++i)
        text += (i == 0 ? "did you mean " : i + 1 == ids.size() ? " or " : ", ") + ids[i];
    return text.empty() ? text : text + "?";
}

PresetCatalog::ResolvedGpus PresetCatalog::resolveGpus(const std::vector<std::string> &ids) const
{
    ResolvedGpus resolved;
    for (const std::string &id : ids) {
        if (std::find(resolved.ids.begin(), resolved.ids.end(), id) != resolved.ids.end())
            continue;
        resolved.ids.push_back(id);
        if (const GpuPreset *gpu = findGpu(id))
            resolved.found.push_back(*gpu);
        else
            resolved.missing.push_back(id);
    }
    return resolved;
}

namespace {

template <class Preset>
void replaceOrAppend(std::vector<Preset> &list, Preset preset)
{
    preset.user = true;
    const auto same = std::find_if(list.begin(), list.end(), [&](const Preset &p) { return p.id == preset.id; });
    if (same == list.end()) {
        preset.shadowsBuiltin = false;
        list.push_back(std::move(preset));
        return;
    }
    preset.shadowsBuiltin = !same->user || same->shadowsBuiltin;
    *same = std::move(preset);
}

} // namespace

void PresetCatalog::addUserPreset(ModelPreset preset)
{
    replaceOrAppend(models, std::move(preset));
}

void PresetCatalog::addUserPreset(GpuPreset gpu)
{
    replaceOrAppend(gpus, std::move(gpu));
}

fs::path builtinPresetDir(const fs::path &executableDir, const std::string &override)
{
    if (!override.empty())
        return override;
    return (executableDir / ".." / "share" / "vram-ledger" / "presets").lexically_normal();
}

Result<std::string> readTextFile(const fs::path &path)
{
    // Only regular files, and only so much: a directory, a FIFO or /dev/zero must not block or
    // exhaust memory (a scenario or config.json is a few KiB).
    std::error_code code;
    if (fs::exists(path, code) && !fs::is_regular_file(path, code))
        return Error{"", "cannot be read: not a regular file", path.string(), 0, ErrorKind::Io};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{"", "cannot be read (missing or not permitted)", path.string(), 0, ErrorKind::Io};
    std::string text(kMaxTextFileBytes + 1, '\0');
    in.read(text.data(), std::streamsize(text.size()));
    if (in.bad())
        return Error{"", "cannot be read: reading failed part-way", path.string(), 0, ErrorKind::Io};
    if (std::size_t(in.gcount()) > kMaxTextFileBytes)
        return Error{"",
                     "cannot be read: larger than " + std::to_string(kMaxTextFileBytes / (1024 * 1024))
                         + " MiB, which no scenario, preset or config.json needs",
                     path.string(), 0, ErrorKind::Io};
    text.resize(std::size_t(in.gcount()));
    return text;
}

std::optional<Error> readArchitecture(YamlReader r, Architecture &a)
{
    if (auto e = r.requireMap())
        return e;
    // Counted from the shapes unless the file states `params`; read through the field table.
    Scenario read;
    if (auto e = readFields(r, "architecture", read))
        return e;
    for (const char *key : {"hidden", "layers", "heads", "ffn", "vocab"})
        if (!r.has(key))
            return r.errorAt(key, "is required");
    a = read.arch;
    if (!r.has("modeling")) // the modeling code follows the MLP and norm unless named
        a.modeling = modelingOf(a.mlp, a.norm);
    if (!r.has("kv_heads"))
        a.kvHeads = a.heads;
    return std::nullopt;
}

void writeArchitecture(YAML::Emitter &out, const Architecture &a)
{
    out << YAML::BeginMap;
    out << YAML::Key << "hidden" << YAML::Value << a.hidden;
    out << YAML::Key << "layers" << YAML::Value << a.layers;
    out << YAML::Key << "heads" << YAML::Value << a.heads;
    out << YAML::Key << "kv_heads" << YAML::Value << a.kvHeads;
    if (a.headDim > 0)
        out << YAML::Key << "head_dim" << YAML::Value << a.headDim;
    out << YAML::Key << "ffn" << YAML::Value << a.ffn;
    out << YAML::Key << "vocab" << YAML::Value << a.vocab;
    if (a.learnedPositions > 0)
        out << YAML::Key << "positions" << YAML::Value << a.learnedPositions;
    if (a.rotaryPositions > 0)
        out << YAML::Key << "max_positions" << YAML::Value << a.rotaryPositions;
    out << YAML::Key << "mlp" << YAML::Value << toString(a.mlp);
    out << YAML::Key << "norm" << YAML::Value << toString(a.norm);
    if (a.modeling != modelingOf(a.mlp, a.norm))
        out << YAML::Key << "modeling" << YAML::Value << toString(a.modeling);
    if (a.normsPerLayer != 2)
        out << YAML::Key << "norms_per_layer" << YAML::Value << a.normsPerLayer;
    if (a.zeroCenteredNorm)
        out << YAML::Key << "zero_centered_norm" << YAML::Value << true;
    if (a.softCapping)
        out << YAML::Key << "soft_capping" << YAML::Value << true;
    if (a.slidingWindow > 0)
        out << YAML::Key << "sliding_window" << YAML::Value << a.slidingWindow;
    out << YAML::Key << "tied_embeddings" << YAML::Value << a.tiedEmbeddings;
    if (a.qkvBias)
        out << YAML::Key << "qkv_bias" << YAML::Value << true;
    if (a.qkNorm)
        out << YAML::Key << "qk_norm" << YAML::Value << true;
    if (!a.parallelResidual)
        out << YAML::Key << "parallel_residual" << YAML::Value << false;
    if (a.linearBias)
        out << YAML::Key << "linear_bias" << YAML::Value << true;
    if (a.experts > 1) {
        out << YAML::Key << "experts" << YAML::Value << a.experts;
        out << YAML::Key << "experts_per_token" << YAML::Value << a.expertsPerToken;
    }
    if (a.fixedParams > 0)
        out << YAML::Key << "params" << YAML::Value << a.fixedParams;
    out << YAML::EndMap;
}

namespace {

std::optional<Error> readSchema(YamlReader &r)
{
    int schema = 0;
    if (auto e = r.integer("schema", schema, 1, kSchemaVersion, true)) {
        if (r.has("schema"))
            e->message += " (this version reads schema 1 to " + std::to_string(kSchemaVersion) + ")";
        return e;
    }
    return std::nullopt;
}

} // namespace

Result<ModelPreset> parseModelPreset(std::string_view yaml, const std::string &file)
{
    return guardedLoad(file, [&]() -> Result<ModelPreset> {
        auto opened = YamlReader::openMapping(yaml, file);
        if (!opened)
            return opened.error();
        YamlReader r = *opened;
        if (auto e = r.rejectUnknown({"schema", "id", "name", "family", "source", "published_params", "architecture"}))
            return *e;
        ModelPreset m;
        m.file = file;
        std::optional<Error> e;
        (e = readSchema(r)) || (e = r.string("id", m.id, true)) || (e = r.string("name", m.name, true))
            || (e = r.string("family", m.family)) || (e = r.string("source", m.source, true))
            || (e = r.count("published_params", m.publishedParams));
        if (e)
            return *e;
        if (!r.has("architecture"))
            return r.errorAt("architecture", "is required");
        if (auto archError = readArchitecture(r.child("architecture"), m.arch))
            return *archError;
        if (auto invalid = architectureError(m.arch))
            return placedInFile(r, *invalid);
        return m;
    });
}

std::string modelPresetToYaml(const ModelPreset &m)
{
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "schema" << YAML::Value << kSchemaVersion;
    out << YAML::Key << "id" << YAML::Value << m.id;
    out << YAML::Key << "name" << YAML::Value << m.name;
    if (!m.family.empty())
        out << YAML::Key << "family" << YAML::Value << m.family;
    out << YAML::Key << "source" << YAML::Value << m.source;
    if (m.publishedParams > 0)
        out << YAML::Key << "published_params" << YAML::Value << m.publishedParams;
    out << YAML::Key << "architecture" << YAML::Value;
    writeArchitecture(out, m.arch);
    out << YAML::EndMap;
    return std::string(out.c_str()) + '\n';
}

Result<std::vector<GpuPreset>> parseGpuPresets(std::string_view yaml, const std::string &file)
{
    return guardedLoad(file, [&]() -> Result<std::vector<GpuPreset>> {
        auto opened = YamlReader::openMapping(yaml, file);
        if (!opened)
            return opened.error();
        YamlReader r = *opened;
        if (auto e = r.rejectUnknown({"schema", "gpus"}))
            return *e;
        if (auto e = readSchema(r))
            return *e;
        const YAML::Node list = r.node()["gpus"];
        if (!list.IsSequence())
            return r.errorAt("gpus", "expected a list of GPUs");
        std::vector<GpuPreset> gpus;
        // The scenario's range (validate.cpp), so that every preset's capability is one a scenario takes.
        const auto capabilityRange = *allowedRange(Scenario{}, "compute-capability");
        for (std::size_t i = 0; i < list.size(); ++i) {
            YamlReader g(list[i], file, "gpus[" + std::to_string(i) + "]");
            if (auto e = g.requireMap())
                return *e;
            if (auto e = g.rejectUnknown({"id", "name", "vendor", "label", "capacity_mib", "bandwidth_gbs",
                                          "compute_capability", "bf16", "fp8", "nvls", "verified", "source"}))
                return *e;
            GpuPreset gpu;
            gpu.file = file;
            std::int64_t mib = 0;
            std::optional<Error> e;
            (e = g.string("id", gpu.id, true)) || (e = g.string("name", gpu.name, true))
                || (e = g.string("vendor", gpu.vendor)) || (e = g.string("label", gpu.label, true))
                || (e = g.integer("capacity_mib", mib, 1, 16 * 1024 * 1024, true))
                || (e = g.real("bandwidth_gbs", gpu.bandwidthGBs, 0, 1e6))
                || (e = g.integer("compute_capability", gpu.computeCapability, capabilityRange.first,
                                  capabilityRange.second))
                || (e = g.boolean("bf16", gpu.bf16)) || (e = g.boolean("fp8", gpu.fp8))
                || (e = g.boolean("nvls", gpu.nvls)) || (e = g.boolean("verified", gpu.verified))
                || (e = g.string("source", gpu.source, true));
            if (e)
                return *e;
            gpu.capacity = mib * kMiB;
            gpus.push_back(std::move(gpu));
        }
        return gpus;
    });
}

GpuPreset customGpu(const std::string &name, Bytes capacity)
{
    GpuPreset gpu;
    gpu.id = "custom-" + slugify(name);
    gpu.name = name;
    gpu.label = formatBytes(capacity, Units::GiB);
    gpu.capacity = capacity;
    gpu.verified = false;
    gpu.source = "entered by the user";
    return gpu;
}

std::string slugify(std::string_view text)
{
    const auto slash = text.find_last_of('/');
    if (slash != std::string_view::npos)
        text = text.substr(slash + 1);
    std::string out;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '.')
            out += static_cast<char>(std::tolower(u));
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}

std::string gpuPresetsToYaml(const std::vector<GpuPreset> &gpus)
{
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "schema" << YAML::Value << kSchemaVersion;
    out << YAML::Key << "gpus" << YAML::Value << YAML::BeginSeq;
    for (const GpuPreset &g : gpus) {
        out << YAML::BeginMap;
        out << YAML::Key << "id" << YAML::Value << g.id;
        out << YAML::Key << "name" << YAML::Value << g.name;
        if (!g.vendor.empty())
            out << YAML::Key << "vendor" << YAML::Value << g.vendor;
        out << YAML::Key << "label" << YAML::Value << g.label;
        out << YAML::Key << "capacity_mib" << YAML::Value << g.capacity / kMiB;
        if (g.bandwidthGBs > 0)
            out << YAML::Key << "bandwidth_gbs" << YAML::Value << g.bandwidthGBs;
        if (g.computeCapability > 0)
            out << YAML::Key << "compute_capability" << YAML::Value << g.computeCapability;
        out << YAML::Key << "bf16" << YAML::Value << g.bf16;
        out << YAML::Key << "fp8" << YAML::Value << g.fp8;
        if (g.nvls)
            out << YAML::Key << "nvls" << YAML::Value << g.nvls;
        out << YAML::Key << "verified" << YAML::Value << g.verified;
        out << YAML::Key << "source" << YAML::Value << g.source;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
    return std::string(out.c_str()) + '\n';
}

namespace {

// "llama-3-8b" before "llama-3-70b": runs of digits compare as numbers, the rest as text.
bool naturalLess(std::string_view a, std::string_view b)
{
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            const std::size_t iEnd = a.find_first_not_of("0123456789", i), jEnd = b.find_first_not_of("0123456789", j);
            std::string_view x = a.substr(i, iEnd - i), y = b.substr(j, jEnd - j);
            x.remove_prefix(std::min(x.find_first_not_of('0'), x.size()));
            y.remove_prefix(std::min(y.find_first_not_of('0'), y.size()));
            if (x.size() != y.size())
                return x.size() < y.size();
            if (x != y)
                return x < y;
            i = std::min(iEnd, a.size());
            j = std::min(jEnd, b.size());
        } else {
            if (a[i] != b[j])
                return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    if (a.size() - i != b.size() - j)
        return a.size() - i < b.size() - j;
    return a < b; // "a01" and "a1": equal as numbers, still two names
}

std::vector<fs::path> yamlFilesIn(const fs::path &dir)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto ext = it->path().extension();
        if (it->is_regular_file(ec) && (ext == ".yaml" || ext == ".yml"))
            files.push_back(it->path());
    }
    // By name without the extension (gpt2 before gpt2-xl), then with it (x.yaml before x.yml).
    std::sort(files.begin(), files.end(), [](const fs::path &a, const fs::path &b) {
        const std::string stemA = a.stem().string(), stemB = b.stem().string();
        if (stemA != stemB)
            return naturalLess(stemA, stemB);
        return a.filename() < b.filename();
    });
    return files;
}

// A list of presets with an index by id, so that merging thousands of user presets stays linear.
template <class Preset>
struct Indexed {
    std::vector<Preset> &list;
    std::unordered_map<std::string, std::size_t> positions;
    explicit Indexed(std::vector<Preset> &presets) : list(presets)
    {
        for (std::size_t i = 0; i < list.size(); ++i)
            positions.emplace(list[i].id, i);
    }
};

// Adds or, for a user preset, replaces the built-in with the same id.
template <class Preset>
void merge(Indexed<Preset> &presets, Preset preset, bool user, std::vector<Error> &skipped)
{
    preset.user = user;
    const auto known = presets.positions.find(preset.id);
    if (known == presets.positions.end()) {
        presets.positions.emplace(preset.id, presets.list.size());
        presets.list.push_back(std::move(preset));
        return;
    }
    Preset *same = &presets.list[known->second];
    if (user && !same->user) {
        preset.shadowsBuiltin = true;
        *same = std::move(preset);
    } else {
        skipped.push_back(Error{
            "id", "'" + preset.id + "' is already defined in " + same->file + "; ids must be unique", preset.file});
    }
}

void loadFrom(const fs::path &root, bool user, PresetCatalog &catalog)
{
    if (root.empty())
        return;
    Indexed models(catalog.models);
    Indexed gpus(catalog.gpus);
    for (const fs::path &path : yamlFilesIn(root / "models")) {
        auto text = readTextFile(path);
        auto preset = text ? parseModelPreset(*text, path.string()) : Result<ModelPreset>(text.error());
        if (preset)
            merge(models, std::move(preset).value(), user, catalog.skipped);
        else
            catalog.skipped.push_back(preset.error());
    }
    for (const fs::path &path : yamlFilesIn(root / "gpus")) {
        auto text = readTextFile(path);
        auto parsed = text ? parseGpuPresets(*text, path.string()) : Result<std::vector<GpuPreset>>(text.error());
        if (!parsed) {
            catalog.skipped.push_back(parsed.error());
            continue;
        }
        for (GpuPreset gpu : *parsed)
            merge(gpus, std::move(gpu), user, catalog.skipped);
    }
}

} // namespace

PresetCatalog loadCatalog(const fs::path &builtinDir, const fs::path &userDir)
{
    PresetCatalog catalog;
    loadFrom(builtinDir, false, catalog);
    loadFrom(userDir, true, catalog);
    return catalog;
}

} // namespace vl
