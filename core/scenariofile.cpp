#include "core/scenariofile.h"

#include "core/edits.h"
#include "core/estimate.h"
#include "core/fields.h"
#include "core/presets.h"
#include "core/yamlreader.h"

#include <algorithm>
#include <vector>

namespace vl {

namespace {

std::optional<Error> readOverhead(YamlReader r, Scenario &s)
{
    // The file keeps these two in MiB (the CLI takes a size with its unit); they become bytes
    // here, so their range, core's, is checked first.
    if (auto e = readFields(r, "overhead", s, {"cuda_context_mib", "comm_buffers_mib"}))
        return e;
    Overhead &o = s.overhead;
    // What follows an edit follows a file's keys too: the context follows the loading it names,
    // unless the file gives the context's size.
    if (r.has("cuda_loading") && !r.has("cuda_context_mib")) {
        const std::string_view given[] = {"cuda-loading"};
        s = withOverheadDefaults(s, given);
    }
    std::int64_t contextMiB = o.cudaContext / kMiB, commMiB = o.commBuffers / kMiB;
    const auto [contextLo, contextHi] = *allowedRange(Scenario{}, "cuda-context");
    const auto [commLo, commHi] = *allowedRange(Scenario{}, "comm-buffers-mib");
    std::optional<Error> e;
    (e = r.integer("cuda_context_mib", contextMiB, contextLo, contextHi))
        || (e = r.integer("comm_buffers_mib", commMiB, commLo, commHi));
    o.cudaContext = contextMiB * kMiB;
    o.commBuffers = commMiB * kMiB;
    return e;
}

// The sections that make up one scenario; a pin repeats them.
std::optional<Error> readScenario(YamlReader r, int schema, Scenario &s, std::string &modelId)
{
    // Before schema 2 (every file states its schema) the runtime overhead was off unless a file
    // turned it on: such a file keeps meaning the tensors alone, not the newer default.
    if (schema < 2)
        s.overhead.measure = Measure::Allocated;
    // Before schema 3 PEFT's adapters over a 16-bit model were in its dtype unless a file said FP32
    // (finetune.adapters_fp32), PEFT before 0.12; the default now follows PEFT since.
    if (schema < 3)
        s.adaptersFp32 = false;
    std::optional<Error> e;
    (e = r.string("model", modelId));
    if (e)
        return e;
    if (!r.has("architecture"))
        return r.errorAt("architecture", "is required (the full architecture, so the file opens anywhere)");
    if ((e = readArchitecture(r.child("architecture"), s.arch)))
        return e;
    // Each section, when present, must be a mapping: `training: [1, 2]` or `overhead: on` is an error.
    const auto section = [&](const char *name, auto &&read) -> std::optional<Error> {
        if (!r.node()[name].IsDefined())
            return std::nullopt; // absent: the defaults; present but empty (null) is refused below
        const YamlReader child = r.child(name);
        if (auto error = child.requireMap())
            return error;
        return read(child);
    };
    if ((e = section("training", [&](YamlReader c) { return readFields(c, "training", s); }))
        || (e = section("parallel", [&](YamlReader c) { return readFields(c, "parallel", s); }))
        || (e = section("finetune", [&](YamlReader c) { return readFields(c, "finetune", s); }))
        || (e = section("overhead", [&](YamlReader c) { return readOverhead(c, s); })))
        return e;
    // Ranges and cross-field rules (kv heads vs heads, offload vs ZeRO, ...) are checked once, by
    // the core, for the architecture too; the error names the file's key at its own line (the
    // section's, or the document's, when the file leaves the key to its default).
    if (auto invalid = scenarioError(s))
        return placedInFile(r, *invalid);
    return std::nullopt;
}

void writeScenario(YAML::Emitter &out, const std::string &modelId, const Scenario &s)
{
    if (!modelId.empty())
        out << YAML::Key << "model" << YAML::Value << modelId;
    out << YAML::Key << "architecture" << YAML::Value;
    writeArchitecture(out, s.arch);
    for (const std::string_view section : {"training", "parallel", "finetune", "overhead"}) {
        out << YAML::Key << std::string(section) << YAML::Value << YAML::BeginMap;
        writeFields(out, section, s);
        if (section == "overhead") // the two sizes it keeps in MiB
            out << YAML::Key << "cuda_context_mib" << YAML::Value << s.overhead.cudaContext / kMiB << YAML::Key
                << "comm_buffers_mib" << YAML::Value << s.overhead.commBuffers / kMiB;
        out << YAML::EndMap;
    }
}

} // namespace

ScenarioDocument articleExampleDocument()
{
    ScenarioDocument doc;
    doc.modelId = "seed-7b";
    doc.gpuIds = {"a100-80gb"};
    doc.scenario.arch.fixedParams = 7'000'000'000; // the article counts its model as 7e9 parameters
    doc.scenario.overhead.computeCapability = 8;   // the A100's
    Scenario fp32 = doc.scenario;
    fp32.precision = Precision::Fp32;
    Scenario asPrinted = doc.scenario;
    asPrinted.masterWeights = false;
    doc.pins = {Pin{"FP32", "seed-7b", fp32}, Pin{"AMP as printed (no master copy)", "seed-7b", asPrinted}};
    return doc;
}

Result<ScenarioDocument> parseScenarioDocument(std::string_view yaml, const std::string &file)
{
    return guardedLoad(file, [&]() -> Result<ScenarioDocument> {
        auto opened = YamlReader::openMapping(yaml, file);
        if (!opened)
            return opened.error();
        YamlReader r = *opened;
        if (auto e = r.rejectUnknown({"schema", "model", "architecture", "training", "parallel", "finetune", "overhead",
                                      "gpus", "display", "pins"}))
            return *e;
        int schema = 0;
        if (auto e = r.integer("schema", schema, 1, kSchemaVersion, true))
            return *e;

        ScenarioDocument doc;
        if (auto e = readScenario(r, schema, doc.scenario, doc.modelId))
            return *e;

        if (r.has("gpus")) {
            const YAML::Node gpus = r.node()["gpus"];
            if (!gpus.IsSequence())
                return r.errorAt("gpus", "expected a list of GPU ids, e.g. [a100-80gb, h100-sxm]");
            if (gpus.size() > kMaxGpus)
                return r.errorAt(
                    "gpus", std::to_string(gpus.size()) + " GPU ids; a file lists at most " + std::to_string(kMaxGpus));
            for (const auto &gpu : gpus) {
                if (!gpu.IsScalar())
                    return r.errorAt("gpus", "expected GPU ids as text");
                doc.gpuIds.push_back(gpu.Scalar());
            }
        }
        if (r.has("display")) {
            YamlReader display = r.child("display");
            std::optional<Error> e;
            (e = display.rejectUnknown({"units"})) || (e = display.word("units", doc.units, parseUnits, "gib|gb"));
            if (e)
                return *e;
        }
        if (r.has("pins")) {
            const YAML::Node pins = r.node()["pins"];
            if (!pins.IsSequence())
                return r.errorAt("pins", "expected a list of pinned scenarios");
            if (pins.size() > kMaxPins)
                return r.errorAt("pins",
                                 std::to_string(pins.size()) + " pinned scenarios; a file keeps at most "
                                     + std::to_string(kMaxPins));
            for (std::size_t i = 0; i < pins.size(); ++i) {
                YamlReader pinReader(pins[i], file, "pins[" + std::to_string(i) + "]");
                if (auto e = pinReader.requireMap())
                    return *e;
                if (auto e = pinReader.rejectUnknown(
                        {"name", "model", "architecture", "training", "parallel", "finetune", "overhead"}))
                    return *e;
                Pin pin;
                if (auto e = pinReader.string("name", pin.name, true))
                    return *e;
                if (auto e = readScenario(pinReader, schema, pin.scenario, pin.modelId))
                    return *e;
                doc.pins.push_back(std::move(pin));
            }
        }
        return doc;
    });
}

std::string scenarioDocumentToYaml(const ScenarioDocument &doc)
{
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "schema" << YAML::Value << kSchemaVersion;
    writeScenario(out, doc.modelId, doc.scenario);
    out << YAML::Key << "gpus" << YAML::Value << YAML::Flow << doc.gpuIds;
    out << YAML::Key << "display" << YAML::Value << YAML::BeginMap << YAML::Key << "units" << YAML::Value
        << (doc.units == Units::GiB ? "gib" : "gb") << YAML::EndMap;
    if (!doc.pins.empty()) {
        out << YAML::Key << "pins" << YAML::Value << YAML::BeginSeq;
        for (const Pin &pin : doc.pins) {
            out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << pin.name;
            writeScenario(out, pin.modelId, pin.scenario);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
    return "# VRAM Ledger scenario: vram-ledger --scenario FILE, or vram-ledger-cli --scenario FILE\n"
        + std::string(out.c_str()) + '\n';
}

} // namespace vl
