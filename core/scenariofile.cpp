#include "core/scenariofile.h"

#include "core/estimate.h"
#include "core/fields.h"
#include "core/presets.h"
#include "core/yamlreader.h"

namespace vl {

namespace {

// The sections read their numbers as whole numbers; ranges and the rules between fields are
// scenarioError()'s, checked once the whole scenario is read (readScenario()).
std::optional<Error> readTraining(YamlReader r, Scenario &s)
{
    if (auto e = r.rejectUnknown({"batch", "seq", "grad_accum", "vocab_divisible_by", "precision", "master_weights",
                                  "grad_dtype", "optimizer", "dropout", "flash_attention", "attention", "loss",
                                  "recompute", "amp_style", "implementation"}))
        return e;
    std::optional<Error> e;
    (e = r.integer("batch", s.microBatch)) || (e = r.integer("seq", s.sequence))
        || (e = r.integer("grad_accum", s.gradAccum)) || (e = r.integer("vocab_divisible_by", s.vocabDivisibleBy))
        || (e = r.word("precision", s.precision, parsePrecision, allowedPrecisions()))
        || (e = r.boolean("master_weights", s.masterWeights))
        || (e = r.word("grad_dtype", s.gradDtype, parseGradDtype, allowedGradDtypes()))
        || (e = r.word("optimizer", s.optimizer, parseOptimizer, allowedOptimizers()))
        || (e = r.boolean("dropout", s.dropout))
        || (e = r.word("flash_attention", s.attention, parseFlashAttention, "true|false")) // files before "attention"
        || (e = r.word("attention", s.attention, parseAttention, allowedAttentions()))
        || (e = r.word("loss", s.loss, parseLoss, allowedLosses()))
        || (e = r.word("recompute", s.recompute, parseRecompute, allowedRecomputes()))
        || (e = r.word("amp_style", s.ampStyle, parseAmpStyle, allowedAmpStyles()))
        || (e = r.word("implementation", s.implementation, parseImplementation, allowedImplementations()));
    return e;
}

std::optional<Error> readParallel(YamlReader r, Scenario &s)
{
    if (auto e = r.rejectUnknown({"zero", "sharding", "reduce_bucket", "replicate", "reshard_after_forward", "dp", "tp",
                                  "pp", "cp", "ep", "vpp", "sp", "offload"}))
        return e;
    std::optional<Error> e;
    (e = r.integer("zero", s.zeroStage)) || (e = r.word("sharding", s.sharding, parseSharding, allowedShardings()))
        || (e = r.integer("reduce_bucket", s.reduceBucket)) || (e = r.integer("replicate", s.replicas))
        || (e = r.boolean("reshard_after_forward", s.reshardAfterForward)) || (e = r.integer("dp", s.dataParallel))
        || (e = r.integer("tp", s.tensorParallel)) || (e = r.integer("pp", s.pipelineParallel))
        || (e = r.integer("cp", s.contextParallel)) || (e = r.integer("ep", s.expertParallel))
        || (e = r.integer("vpp", s.virtualStages)) || (e = r.boolean("sp", s.sequenceParallel))
        || (e = r.word("offload", s.offload, parseOffload, allowedOffloads()));
    return e;
}

std::optional<Error> readFineTune(YamlReader r, Scenario &s)
{
    if (auto e = r.rejectUnknown(
            {"mode", "lora_rank", "lora_targets", "lora_dropout", "base_dtype", "trainable_layers"}))
        return e;
    std::optional<Error> e;
    (e = r.word("mode", s.fineTune, parseFineTune, allowedFineTunes())) || (e = r.integer("lora_rank", s.loraRank))
        || (e = r.word("lora_targets", s.loraTargets, parseLoraTargets, "all, attention or a list like q,v"))
        || (e = r.boolean("lora_dropout", s.loraDropout))
        || (e = r.word("base_dtype", s.baseDtype, parseBaseDtype, allowedBaseDtypes()))
        || (e = r.integer("trainable_layers", s.trainableLayers));
    return e;
}

std::optional<Error> readOverhead(YamlReader r, Overhead &o)
{
    if (auto e = r.rejectUnknown({"enabled", "cuda_context_mib", "allocator_percent", "comm_buffers_mib"}))
        return e;
    std::int64_t contextMiB = o.cudaContext / kMiB, commMiB = o.commBuffers / kMiB;
    // Sizes in MiB become bytes here, so their range (core's) is checked before that.
    const auto [contextLo, contextHi] = *allowedRange(Scenario{}, "cuda-context");
    const auto [commLo, commHi] = *allowedRange(Scenario{}, "comm-buffers-mib");
    std::optional<Error> e;
    (e = r.boolean("enabled", o.enabled)) || (e = r.integer("cuda_context_mib", contextMiB, contextLo, contextHi))
        || (e = r.integer("allocator_percent", o.allocatorPercent))
        || (e = r.integer("comm_buffers_mib", commMiB, commLo, commHi));
    o.cudaContext = contextMiB * kMiB;
    o.commBuffers = commMiB * kMiB;
    return e;
}

// The sections that make up one scenario; a pin repeats them.
std::optional<Error> readScenario(YamlReader r, Scenario &s, std::string &modelId)
{
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
    if ((e = section("training", [&](YamlReader c) { return readTraining(c, s); }))
        || (e = section("parallel", [&](YamlReader c) { return readParallel(c, s); }))
        || (e = section("finetune", [&](YamlReader c) { return readFineTune(c, s); }))
        || (e = section("overhead", [&](YamlReader c) { return readOverhead(c, s.overhead); })))
        return e;
    // Cross-field rules (kv heads vs heads, offload vs ZeRO, ...) are checked once, by the core;
    // the error names the file's key and its line (the section's, or the document's, when the
    // file leaves the key to its default).
    if (auto invalid = scenarioError(s)) {
        YAML::Node at = r.node();
        if (const FieldSpec *spec = findField(invalid->field); spec && !spec->fileKey.empty()) {
            const std::string key(spec->fileKey);
            const auto dot = key.find('.');
            const YAML::Node group = r.node()[key.substr(0, dot)];
            const YAML::Node value = group.IsMap() ? group[key.substr(dot + 1)] : YAML::Node();
            at = value.IsDefined() ? value : group.IsDefined() ? group : at;
            invalid->field = r.pathOf(key.c_str());
        }
        invalid->file = r.file();
        invalid->line = at.Mark().is_null() ? 0 : at.Mark().line + 1;
        return invalid;
    }
    return std::nullopt;
}

void writeScenario(YAML::Emitter &out, const std::string &modelId, const Scenario &s)
{
    if (!modelId.empty())
        out << YAML::Key << "model" << YAML::Value << modelId;
    out << YAML::Key << "architecture" << YAML::Value;
    writeArchitecture(out, s.arch);
    out << YAML::Key << "training" << YAML::Value << YAML::BeginMap << YAML::Key << "batch" << YAML::Value
        << s.microBatch << YAML::Key << "seq" << YAML::Value << s.sequence << YAML::Key << "grad_accum" << YAML::Value
        << s.gradAccum << YAML::Key << "vocab_divisible_by" << YAML::Value << s.vocabDivisibleBy << YAML::Key
        << "precision" << YAML::Value << std::string(toString(s.precision)) << YAML::Key << "master_weights"
        << YAML::Value << s.masterWeights << YAML::Key << "grad_dtype" << YAML::Value
        << std::string(toString(s.gradDtype)) << YAML::Key << "optimizer" << YAML::Value
        << std::string(toString(s.optimizer)) << YAML::Key << "dropout" << YAML::Value << s.dropout << YAML::Key
        << "attention" << YAML::Value << std::string(toString(s.attention)) << YAML::Key << "loss" << YAML::Value
        << std::string(toString(s.loss)) << YAML::Key << "recompute" << YAML::Value
        << std::string(toString(s.recompute)) << YAML::Key << "amp_style" << YAML::Value
        << std::string(toString(s.ampStyle)) << YAML::Key << "implementation" << YAML::Value
        << std::string(toString(s.implementation)) << YAML::EndMap;
    out << YAML::Key << "parallel" << YAML::Value << YAML::BeginMap << YAML::Key << "zero" << YAML::Value << s.zeroStage
        << YAML::Key << "sharding" << YAML::Value << std::string(toString(s.sharding)) << YAML::Key << "reduce_bucket"
        << YAML::Value << s.reduceBucket << YAML::Key << "replicate" << YAML::Value << s.replicas << YAML::Key
        << "reshard_after_forward" << YAML::Value << s.reshardAfterForward << YAML::Key << "dp" << YAML::Value
        << s.dataParallel << YAML::Key << "tp" << YAML::Value << s.tensorParallel << YAML::Key << "pp" << YAML::Value
        << s.pipelineParallel << YAML::Key << "cp" << YAML::Value << s.contextParallel << YAML::Key << "ep"
        << YAML::Value << s.expertParallel << YAML::Key << "vpp" << YAML::Value << s.virtualStages << YAML::Key << "sp"
        << YAML::Value << s.sequenceParallel << YAML::Key << "offload" << YAML::Value
        << std::string(toString(s.offload)) << YAML::EndMap;
    out << YAML::Key << "finetune" << YAML::Value << YAML::BeginMap << YAML::Key << "mode" << YAML::Value
        << std::string(toString(s.fineTune)) << YAML::Key << "lora_rank" << YAML::Value << s.loraRank << YAML::Key
        << "lora_targets" << YAML::Value << loraTargetsToString(s.loraTargets) << YAML::Key << "lora_dropout"
        << YAML::Value << s.loraDropout << YAML::Key << "base_dtype" << YAML::Value
        << std::string(toString(s.baseDtype)) << YAML::Key << "trainable_layers" << YAML::Value << s.trainableLayers
        << YAML::EndMap;
    out << YAML::Key << "overhead" << YAML::Value << YAML::BeginMap << YAML::Key << "enabled" << YAML::Value
        << s.overhead.enabled << YAML::Key << "cuda_context_mib" << YAML::Value << s.overhead.cudaContext / kMiB
        << YAML::Key << "allocator_percent" << YAML::Value << s.overhead.allocatorPercent << YAML::Key
        << "comm_buffers_mib" << YAML::Value << s.overhead.commBuffers / kMiB << YAML::EndMap;
}

} // namespace

ScenarioDocument articleExampleDocument()
{
    ScenarioDocument doc;
    doc.modelId = "seed-7b";
    doc.gpuIds = {"a100-80gb"};
    doc.scenario.arch.fixedParams = 7'000'000'000; // the article counts its model as 7e9 parameters
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
        if (auto e = readScenario(r, doc.scenario, doc.modelId))
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
                if (auto e = readScenario(pinReader, pin.scenario, pin.modelId))
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
