// The code-level implementations' saved tensors (Hugging Face, torchtitan, lit-gpt, torchtune) against
// PyTorch's autograd: every row of tests/data/saved-tensors.yaml (written by tests/oracle/generate.py) must equal
// core's list, storage for storage, for one layer, for what lies outside the layers, and for autocast's 16-bit weight
// casts; and tests/data/whole-model.yaml, what a whole model holds at its last and first layer's
// backward, the step timeline's points there.

#include "core/estimate.h"
#include "core/savedtensors.h"
#include "core/timeline.h"

#include <QTest>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>

using namespace vl;

Q_DECLARE_METATYPE(Scenario)
Q_DECLARE_METATYPE(std::vector<Bytes>)

namespace {

Scenario scenarioOf(const YAML::Node &c)
{
    Scenario s;
    s.implementation = Implementation::HuggingFace;
    s.sequence = c["seq"].as<std::int64_t>();
    s.microBatch = c["batch"].as<std::int64_t>();
    Architecture &a = s.arch;
    a.layers = 1; // the weight casts of one layer, plus the LM head
    s.trainableLayers = 1;
    a.hidden = c["hidden"].as<std::int64_t>();
    a.heads = c["heads"].as<std::int64_t>();
    a.kvHeads = c["kv_heads"].as<std::int64_t>();
    a.ffn = c["ffn"].as<std::int64_t>();
    a.vocab = c["vocab"].as<std::int64_t>();
    const std::string family = c["family"].as<std::string>();
    if (family == "torchtitan") {
        s.implementation = Implementation::TorchTitan;
        s.tensorParallel = c["tp"] ? c["tp"].as<std::int64_t>() : 1; // one GPU of the group, norms on its slice
        s.sequenceParallel = s.tensorParallel > 1;
    }
    if (family == "torchtune") {
        s.implementation = Implementation::TorchTune;
        s.packed = c["packed"] && c["packed"].as<bool>();
    }
    const bool litgpt = family == "litgpt" || family == "litgpt-neox";
    if (litgpt)
        s.implementation = Implementation::LitGpt;
    if (family == "mixtral") { // Hugging Face's Llama-family code with a sparse MoE block
        a.experts = c["experts"].as<std::int64_t>();
        a.expertsPerToken = c["top_k"].as<std::int64_t>();
        // The oracle's router spreads the tokens evenly unless a row routes every token to the last expert.
        s.expertLoad = c["expert_load"] ? *parseExpertLoad(c["expert_load"].as<std::string>()) : ExpertLoad::Balanced;
    }
    const bool llamaCode = family == "torchtitan" || family == "torchtune" || family == "litgpt" || family == "mixtral";
    a.modeling = llamaCode ? Modeling::Llama : family == "litgpt-neox" ? Modeling::GptNeox : *parseModeling(family);
    s.attention = c["attention"] ? *parseAttention(c["attention"].as<std::string>()) : Attention::Eager;
    if (a.modeling == Modeling::GptNeox) { // phi-1.5 (one shared norm) or StableLM-alpha
        a.mlp = MlpKind::Gelu;
        a.norm = NormKind::LayerNorm;
        a.linearBias = true;
        a.tiedEmbeddings = false;
        a.normsPerLayer = c["shared_attention_norm"].as<bool>() ? 1 : 2;
        a.parallelResidual = c["parallel_residual"].as<bool>();
    } else if (a.modeling == Modeling::Llama) {
        a.qkvBias = c["qkv_bias"] && c["qkv_bias"].as<bool>();
        a.qkNorm = c["qk_norm"] && c["qk_norm"].as<bool>();
        a.zeroCenteredNorm = c["zero_centered_norm"] && c["zero_centered_norm"].as<bool>(); // Gemma's blocks
        a.normsPerLayer = c["norms"] ? c["norms"].as<std::int64_t>() : 2;
        a.softCapping = c["soft_capping"] && c["soft_capping"].as<bool>();
        a.mlp = a.zeroCenteredNorm ? MlpKind::GeGlu : MlpKind::SwiGlu;
        a.norm = NormKind::RmsNorm;
        a.tiedEmbeddings = false;
    } else {
        a.mlp = MlpKind::Gelu;
        a.norm = NormKind::LayerNorm;
        a.linearBias = true;
        a.learnedPositions = s.sequence;
        a.tiedEmbeddings = a.modeling == Modeling::Gpt2;
    }
    s.dropout = c["dropout"].as<double>() > 0;
    s.recompute = *parseRecompute(c["recompute"].as<std::string>());
    if (c["autocast"]) {
        s.precision = Precision::MixedBf16;
        s.ampStyle = AmpStyle::Autocast;
        if (c["weights"].as<std::string>() == "bf16") // a model loaded in BF16, adapters in FP32
            s.baseDtype = BaseDtype::Bf16;
    } else {
        s.precision = c["weights"].as<std::string>() == "fp32" ? Precision::Fp32 : Precision::Bf16;
        // PEFT's FP32 adapters over a 16-bit model (autocast_adapter_dtype)
        s.adaptersFp32 = c["adapter_dtype"] && c["adapter_dtype"].as<std::string>() == "fp32";
    }
    if (litgpt)
        s.attention = Attention::Flash; // flash_attn_func
    if (c["pytorch"])
        s.pytorch = *parsePyTorchRelease(c["pytorch"].as<std::string>());
    if (c["bitsandbytes"])
        s.bitsandbytes = *parseBitsandbytesRelease(c["bitsandbytes"].as<std::string>());
    s.liger = c["liger"] && c["liger"].as<bool>();
    s.kvRepeated = c["kv_repeat"] && c["kv_repeat"].as<bool>();
    s.useReentrant = !c["use_reentrant"] || c["use_reentrant"].as<bool>();
    if (c["finetune"].as<std::string>() != "full") {
        s.fineTune = c["finetune"].as<std::string>() == "qlora" ? FineTune::QLoRA : FineTune::LoRA;
        s.loraRank = c["lora_rank"].as<std::int64_t>();
        std::string targets;
        for (const auto &t : c["lora_targets"])
            targets += (targets.empty() ? "" : ",") + t.as<std::string>();
        s.loraTargets = *parseLoraTargets(targets);
        s.loraDropout = c["lora_dropout"].as<bool>();
    }
    // QLoRA's adapters in the base's dtype: PEFT before 0.12 over the float storage FSDP shards
    // (over bitsandbytes' uint8 storage they are FP32 in every release).
    if (s.fineTune == FineTune::QLoRA && !c["autocast"] && !s.adaptersFp32) {
        s.zeroStage = 3;
        s.sharding = Sharding::Fsdp;
        s.dataParallel = 2;
    }
    return s;
}

std::string rowName(const YAML::Node &c)
{
    std::string name = c["family"].as<std::string>() + " h" + c["hidden"].as<std::string>() + " a"
        + c["heads"].as<std::string>() + " g" + c["kv_heads"].as<std::string>() + " s" + c["seq"].as<std::string>()
        + " b" + c["batch"].as<std::string>() + " " + c["weights"].as<std::string>()
        + (c["autocast"] ? "+autocast" : "")
        + (!c["autocast"] && c["adapter_dtype"]
                   && c["adapter_dtype"].as<std::string>() != c["weights"].as<std::string>()
               ? " adapters " + c["adapter_dtype"].as<std::string>()
               : "")
        + " " + c["finetune"].as<std::string>() + (c["dropout"].as<double>() > 0 ? " dropout" : "")
        + (c["attention"] ? " " + c["attention"].as<std::string>() : "");
    if (c["lora_targets"])
        name += "(" + std::to_string(c["lora_targets"].size()) + " targets"
            + (c["lora_dropout"].as<bool>() ? ", dropout)" : ")");
    if (c["tp"])
        name += " tp" + c["tp"].as<std::string>();
    if (c["experts"])
        name += " e" + c["experts"].as<std::string>() + " top" + c["top_k"].as<std::string>();
    if (c["expert_load"])
        name += " " + c["expert_load"].as<std::string>();
    if (c["pytorch"])
        name += " pytorch " + c["pytorch"].as<std::string>();
    if (c["bitsandbytes"])
        name += " bitsandbytes " + c["bitsandbytes"].as<std::string>();
    if (c["liger"])
        name += " liger";
    if (c["kv_repeat"])
        name += " kv-repeat";
    if (c["packed"] && c["packed"].as<bool>())
        name += " packed";
    if (c["qk_norm"] && c["qk_norm"].as<bool>())
        name += " qk-norm";
    if (c["zero_centered_norm"])
        name += " gemma";
    if (c["norms"])
        name += " " + c["norms"].as<std::string>() + " norms";
    if (c["soft_capping"])
        name += " soft-capped";
    if (c["use_reentrant"] && !c["use_reentrant"].as<bool>())
        name += " non-reentrant";
    return name + " recompute " + c["recompute"].as<std::string>();
}

std::vector<Bytes> sortedBytes(const std::vector<SavedTensor> &tensors)
{
    std::vector<Bytes> bytes;
    for (const SavedTensor &t : tensors)
        bytes.insert(bytes.end(), t.storages, t.bytes / t.storages);
    std::sort(bytes.begin(), bytes.end(), std::greater<>());
    return bytes;
}

QString describe(const std::vector<SavedTensor> &tensors)
{
    QStringList lines;
    for (const SavedTensor &t : tensors)
        lines << QStringLiteral("  %1 B in %2 storages  %3")
                     .arg(t.bytes)
                     .arg(t.storages)
                     .arg(QString::fromUtf8(t.name.data(), qsizetype(t.name.size())));
    return lines.join(u'\n');
}

// Fails naming every tensor core lists, beside the storages autograd saved.
void compareSaved(const std::vector<SavedTensor> &core, const std::vector<Bytes> &oracle, const char *scope)
{
    const std::vector<Bytes> mine = sortedBytes(core);
    if (mine == oracle)
        return;
    QStringList theirs;
    for (Bytes b : oracle)
        theirs << QString::number(b);
    QFAIL(qPrintable(QStringLiteral("%1: core lists\n%2\nautograd saved (bytes): %3")
                         .arg(QLatin1String(scope), describe(core), theirs.join(QStringLiteral(", ")))));
}

// What the oracle's working set may differ by: the few 0-dim scalars autograd makes on the way.
constexpr Bytes kScalars = 64;

// Why core's working set is not pinned to this row, or nothing where it is.
std::string_view workingSetUnpinned(const Scenario &s)
{
    const bool flash = s.attention != Attention::Eager;
    if (flash && (s.sequence % 128 != 0 || s.arch.effectiveHeadDim() % 32 != 0))
        return "the flash kernels round the sequence to 128 and the head dimension to 32, which at this tiny "
               "shape makes their backward wider than the MLP's";
    return {};
}

} // namespace

class TestSavedTensors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesAutograd_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<std::vector<Bytes>>("layer");
        QTest::addColumn<std::vector<Bytes>>("outside");
        QTest::addColumn<qint64>("weightCasts");
        const YAML::Node rows = YAML::LoadFile(VL_TEST_DATA "/saved-tensors.yaml");
        QVERIFY(rows.IsSequence() && rows.size() >= 180);
        for (const auto &row : rows) {
            const YAML::Node c = row["config"];
            QTest::newRow(rowName(c).c_str())
                << scenarioOf(c) << row["layer"].as<std::vector<Bytes>>() << row["outside"].as<std::vector<Bytes>>()
                << row["weight_casts"].as<qint64>();
        }
    }
    void matchesAutograd()
    {
        QFETCH(Scenario, scenario);
        QFETCH(std::vector<Bytes>, layer);
        QFETCH(std::vector<Bytes>, outside);
        QFETCH(qint64, weightCasts);
        QVERIFY2(!scenarioError(scenario), scenarioError(scenario) ? scenarioError(scenario)->message.c_str() : "");
        compareSaved(savedTensors(scenario, TensorScope::Layer), layer, "one layer");
        compareSaved(savedTensors(scenario, TensorScope::Outside), outside, "outside the layers");
        // Under checkpointing core also counts the one layer being recomputed, which the oracle
        // (what is saved between forward and backward) does not see.
        if (scenario.recompute == Recompute::None)
            QCOMPARE(estimate(scenario).item(ItemId::WeightCasts), weightCasts);
        // The estimate's layer item is the same list, summed.
        Bytes sum = 0;
        for (Bytes b : layer)
            sum += b;
        QCOMPARE(estimate(scenario).keptPerLayer, sum);
    }

    // Under full recomputation the estimate's recompute buffer is what the layer saves again while
    // torch.utils.checkpoint recomputes it, which the oracle counts in backward: the whole layer's
    // tensors less its input where an op saves the input as it comes.
    void recomputationMatchesAutograd_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("recomputed");
        const YAML::Node rows = YAML::LoadFile(VL_TEST_DATA "/saved-tensors.yaml");
        for (const auto &row : rows) {
            if (!row["recomputed"])
                continue;
            Bytes sum = 0;
            for (Bytes b : row["recomputed"].as<std::vector<Bytes>>())
                sum += b;
            QTest::newRow(rowName(row["config"]).c_str()) << scenarioOf(row["config"]) << qint64(sum);
        }
        QVERIFY(QTest::currentTestFunction() != nullptr);
    }
    void recomputationMatchesAutograd()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, recomputed);
        QCOMPARE(estimate(scenario).item(ItemId::RecomputeBuffer) - reentrantCheckpointOutput(scenario), recomputed);
    }

    // Backward's working set against what the oracle measured (PyTorch's allocations while one
    // layer's backward runs), where core models it (see workingSetPinned).
    void workingSetMatchesAutograd_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("measured");
        const YAML::Node rows = YAML::LoadFile(VL_TEST_DATA "/saved-tensors.yaml");
        int pinned = 0;
        for (const auto &row : rows) {
            const YAML::Node c = row["config"];
            const Scenario scenario = scenarioOf(c);
            if (row["working_set"].IsNull() || !workingSetUnpinned(scenario).empty())
                continue;
            QTest::newRow(rowName(c).c_str()) << scenario << row["working_set"].as<qint64>();
            ++pinned;
        }
        QVERIFY(pinned >= 100);
    }
    void workingSetMatchesAutograd()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, measured);
        const TensorList set = backwardWorkingSet(scenario);
        QString items;
        for (int i = 0; i < set.count; ++i)
            items += QStringLiteral("\n  %1 B  %2")
                         .arg(set.items[i].bytes)
                         .arg(QString::fromUtf8(set.items[i].name.data(), qsizetype(set.items[i].name.size())));
        QVERIFY2(std::abs(set.total - measured) <= kScalars,
                 qPrintable(QStringLiteral("core %1 B, measured %2 B (%3)%4")
                                .arg(set.total)
                                .arg(measured)
                                .arg(set.total - measured)
                                .arg(items)));
    }

    // lit-gpt's loss's backward against the oracle's measure of it (the head and loss run backward
    // beside the FP32 logit chunks the loop keeps), at vocabularies where it is the widest moment.
    void litgptLossBackwardMatchesAutograd_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("measured");
        const YAML::Node rows = YAML::LoadFile(VL_TEST_DATA "/saved-tensors.yaml");
        int measured = 0;
        for (const auto &row : rows) {
            if (!row["loss_working_set"] || row["loss_working_set"].IsNull())
                continue;
            QTest::newRow(rowName(row["config"]).c_str())
                << scenarioOf(row["config"]) << row["loss_working_set"].as<qint64>();
            ++measured;
        }
        QVERIFY(measured >= 4);
    }
    void litgptLossBackwardMatchesAutograd()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, measured);
        const Bytes core = 8 * litgptLossChunkTokens(scenario) * scenario.arch.vocab
            + litgptLossPositionsGradient(scenario);
        QVERIFY2(std::abs(core - measured) <= kScalars,
                 qPrintable(QStringLiteral("core %1 B, measured %2 B").arg(core).arg(measured)));
    }

    // The timeline's points at the last and the first layer's backward against a whole model's
    // (forward, loss and backward of a few layers under the profiler): what one more sequence adds
    // there, the layer's own activations, the other layers', its working set and what the loss
    // leaves, while the weights and their gradients, which the CPU's kernels and the estimate's
    // workspaces do not size alike at this scale, drop out.
    void layerBackwardMatchesAWholeModel_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<std::vector<Bytes>>("batches"); // sequences a micro-batch
        QTest::addColumn<std::int64_t>("layer");
        QTest::addColumn<std::vector<Bytes>>("measured");
        const YAML::Node rows = YAML::LoadFile(VL_TEST_DATA "/whole-model.yaml");
        QVERIFY(rows.IsSequence() && rows.size() >= 10);
        for (const auto &row : rows) {
            const auto batches = row["batches"].as<std::vector<Bytes>>();
            YAML::Node c = YAML::Clone(row["config"]);
            c["batch"] = batches.front();
            Scenario s = scenarioOf(c);
            s.arch.layers = s.trainableLayers = row["layers"].as<std::int64_t>();
            s.overhead.measure = Measure::Allocated;
            QVERIFY2(!scenarioError(s), rowName(c).c_str());
            QTest::newRow((rowName(c) + ", last layer").c_str())
                << s << batches << s.arch.layers << row["last_layer_backward"].as<std::vector<Bytes>>();
            QTest::newRow((rowName(c) + ", first layer").c_str())
                << s << batches << std::int64_t(1) << row["first_layer_backward"].as<std::vector<Bytes>>();
        }
    }
    void layerBackwardMatchesAWholeModel()
    {
        QFETCH(Scenario, scenario);
        QFETCH(std::vector<Bytes>, batches);
        QFETCH(std::int64_t, layer);
        QFETCH(std::vector<Bytes>, measured);
        QCOMPARE(batches.size(), std::size_t(2));
        const auto layerBackward = [&](std::int64_t batch) {
            Scenario s = scenario;
            s.microBatch = batch;
            const StepTimeline t = stepTimeline(estimate(s));
            const auto at = std::find_if(t.points.begin(), t.points.end(), [&](const TimelinePoint &p) {
                return p.phase == StepPhase::Backward && p.layer == layer;
            });
            return at == t.points.end() ? Bytes(-1) : at->inUse;
        };
        const Bytes core = layerBackward(batches[1]) - layerBackward(batches[0]);
        const Bytes oracle = measured[1] - measured[0];
        // Without a checkpoint (and PEFT's enable_input_require_grads for it) nothing makes a
        // frozen embedding's output require grad, and the first layer saves nothing to compute its
        // input's gradient (its first norm's input, bitsandbytes' kept inputs). Core counts every
        // layer alike: high by less than a layer's share while the first layer's activations are
        // there.
        if (scenario.lora() && scenario.recompute == Recompute::None) {
            const Bytes perSequence = estimate(scenario).oneLayerActivations / scenario.microBatch;
            QVERIFY2(core > oracle && core - oracle < perSequence,
                     qPrintable(QStringLiteral("one more sequence adds %1 B in core, %2 B in the whole model, a "
                                               "layer %3 B")
                                    .arg(core)
                                    .arg(oracle)
                                    .arg(perSequence)));
            return;
        }
        QVERIFY2(
            std::abs(core - oracle) <= kScalars,
            qPrintable(QStringLiteral("one more sequence adds %1 B in core, %2 B in the whole model (%3 B a token)")
                           .arg(core)
                           .arg(oracle)
                           .arg(double(core - oracle) / double(scenario.sequence))));
    }
};

QTEST_GUILESS_MAIN(TestSavedTensors)
#include "tst_savedtensors.moc"
