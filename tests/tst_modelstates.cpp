// Parameters, gradients and optimizer states against the article's table, the ZeRO paper's
// Figure 1, Megatron's 18 bytes per parameter and PEFT's LoRA counts.

#include "core/edits.h"
#include "core/estimate.h"
#include "core/fields.h"
#include "core/timeline.h"
#include "hfarchitectures.h"
#include "litgptscenario.h"

#include <QTest>

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <functional>
#include <optional>

using namespace vl;

Q_DECLARE_METATYPE(std::function<void(vl::Scenario &)>)
Q_DECLARE_METATYPE(vl::Scenario)

namespace {

Scenario withParams(std::int64_t params)
{
    Scenario s;
    s.arch.fixedParams = params;
    return s;
}

// Llama 3.1 8B by its shapes (the default's 4096 × 32 layers, 32 heads) with mixed BF16.
Scenario llama31_8b()
{
    Scenario s;
    s.arch.kvHeads = 8;
    s.arch.ffn = 14336;
    s.arch.vocab = 128256;
    s.precision = Precision::MixedBf16;
    return s;
}

// Llama-2-7B (Architecture{}'s shapes) in mixed BF16 under DeepSpeed ZeRO-3 over 8 GPUs, with
// `edits` (field, value, field, value...) applied; nothing where an edit is refused.
std::optional<Scenario> zero3Llama2_7b(const QStringList &edits)
{
    Scenario s;
    s.precision = Precision::MixedBf16;
    s.zeroStage = 3;
    s.dataParallel = 8;
    for (qsizetype i = 0; i + 1 < edits.size(); i += 2)
        if (setField(s, edits[i].toStdString(), edits[i + 1].toStdString()))
            return std::nullopt;
    return s;
}

double decimalGB(Bytes bytes)
{
    return static_cast<double>(bytes) / 1e9;
}

} // namespace

class TestModelStates : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The article's table for 7e9 parameters: FP32 28/28/56 = 112 GB; AMP 14/14/56 = 84 GB,
    // which forgets the FP32 master copy; with it the AMP total is 112 GB again.
    void articleTable_data()
    {
        QTest::addColumn<QString>("precision");
        QTest::addColumn<bool>("master");
        QTest::addColumn<double>("weightsGB");
        QTest::addColumn<double>("gradientsGB");
        QTest::addColumn<double>("optimizerGB");
        QTest::addColumn<double>("totalGB");
        QTest::newRow("FP32 column") << QStringLiteral("fp32") << true << 28.0 << 28.0 << 56.0 << 112.0;
        QTest::newRow("AMP column as printed (no master copy)")
            << QStringLiteral("mixed-fp16") << false << 14.0 << 14.0 << 56.0 << 84.0;
        QTest::newRow("AMP with the master copy it warns about")
            << QStringLiteral("mixed-fp16") << true << 14.0 << 14.0 << 84.0 << 112.0;
        QTest::newRow("AMP in BF16 is the same size")
            << QStringLiteral("mixed-bf16") << true << 14.0 << 14.0 << 84.0 << 112.0;
    }
    void articleTable()
    {
        QFETCH(QString, precision);
        QFETCH(bool, master);
        QFETCH(double, weightsGB);
        QFETCH(double, gradientsGB);
        QFETCH(double, optimizerGB);
        QFETCH(double, totalGB);
        Scenario s = withParams(7'000'000'000);
        s.precision = *parsePrecision(precision.toStdString());
        s.masterWeights = master;
        const Breakdown b = estimate(s);
        QCOMPARE(decimalGB(b.component(Component::Parameters)), weightsGB);
        QCOMPARE(decimalGB(b.component(Component::Gradients)), gradientsGB);
        QCOMPARE(decimalGB(b.component(Component::OptimizerStates)), optimizerGB);
        QCOMPARE(decimalGB(b.modelStates()), totalGB);
    }

    // ZeRO paper (Rajbhandari et al. 2019), Figure 1: Ψ = 7.5B, K = 12, N = 64, decimal GB.
    void zeroPaperFigure1_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("publishedGB");
        QTest::newRow("baseline 120 GB") << 0 << 120.0;
        QTest::newRow("P_os 31.4 GB") << 1 << 31.4;
        QTest::newRow("P_os+g 16.6 GB") << 2 << 16.6;
        QTest::newRow("P_os+g+p 1.9 GB") << 3 << 1.9;
    }
    void zeroPaperFigure1()
    {
        QFETCH(int, stage);
        QFETCH(double, publishedGB);
        Scenario s = withParams(7'500'000'000);
        s.zeroStage = stage;
        s.dataParallel = 64;
        const double gb = decimalGB(estimate(s).modelStates());
        QVERIFY2(std::fabs(gb - publishedGB) < 0.05, qPrintable(QString::number(gb)));
    }

    // DeepSpeed ZeRO-3's gathered parameters as forward turns into backward, traced by hand for
    // Llama-2-7B over 8 GPUs in BF16 (partitioned_param_coordinator.py). Modules: q, k, v, o
    // 16,777,216 each, gate, up, down 45,088,768 each (a layer 202,375,168), the head 131,072,000.
    // A module stays gathered when the modules between its forward and its backward hold fewer
    // than max_reuse_distance parameters: 2·(the rest of its layer) + 2·j·layer + 2·head for the
    // layer j before the last. With 1e9: the head, the last layer whole (its q: 2·185,597,952 +
    // 262,144,000 = 633,339,904) and of the one before v, o, gate, up and down (v: 2·152,043,520
    // + 404,750,336 + 262,144,000 = 970,981,376; k: 1,004,535,808 goes): 502,267,904 kept. Then
    // backward's next modules that are not gathered are prefetched until 5e7 are on their way:
    // that layer's k and q, the next layer's down: 78,643,200. Both in 2 B, and the gradient of
    // the largest module that trains (the head's) before it enters the bucket.
    // Under full recomputation a layer's next use is its forward again: (the rest of its layer) +
    // 3·j·layer + 2·head + (its layer before it). With 1e9 the last layer stays whole (q:
    // 185,597,952 + 262,144,000), none before it (gate, the nearest: 157,286,400 + 607,125,504 +
    // 262,144,000 > 1e9): 333,447,168 with the head; prefetched, the next layer's q, k and v,
    // 50,331,648. As each layer's backward begins, the modules whose rest of the layer, twice,
    // holds fewer than 1e9 are still gathered from its recomputation: the whole layer
    // (2·185,597,952 at most), 202,375,168, and the next layer's q, k and v prefetched - fewer
    // than at the turn. With a reuse distance of 3e8 the turn keeps the head alone (the last
    // layer's nearest, gate: 157,286,400 + 262,144,000) and prefetches 50,331,648: 181,403,648;
    // the layer keeps o, gate, up and down (v: 2·152,043,520 goes), 152,043,520, and prefetches
    // its v, k and q, 50,331,648: 202,375,168, now the most. QLoRA's layers are gathered as their
    // packed 4-bit codes, half a byte a weight; the head stays 16-bit.
    void zero3GathersWhatItKeepsAndPrefetches_data()
    {
        QTest::addColumn<QStringList>("edits");
        QTest::addColumn<qint64>("gatheredBytes");
        QTest::addColumn<qint64>("gradient");
        const qint64 head = 131'072'000;
        const qint64 atTurn = 502'267'904 + 78'643'200;
        QTest::newRow("DeepSpeed's defaults") << QStringList{} << 2 * atTurn << head;
        QTest::newRow("no prefetch") << QStringList{"prefetch-bucket", "0"} << 2 * qint64(502'267'904) << head;
        // 5e8 gathered at most: the 502,267,904 kept leave no room to prefetch.
        QTest::newRow("max live parameters 5e8")
            << QStringList{"max-live-parameters", "5e8"} << 2 * qint64(502'267'904) << head;
        // Reuse distance 0: only the head stays; prefetched: the last layer's down and up.
        QTest::newRow("no reuse") << QStringList{"max-reuse-distance", "0"} << 2 * (head + 2 * 45'088'768) << head;
        QTest::newRow("full recomputation: the turn holds more")
            << QStringList{"recompute", "full"} << 2 * qint64(333'447'168 + 50'331'648) << head;
        QTest::newRow("full recomputation: the layer's backward holds more")
            << QStringList{"recompute", "full", "max-reuse-distance", "3e8"} << 2 * qint64(202'375'168) << head;
        // The head is frozen: the largest adapter matrix trains, lora_B of gate/up (11008 × 16).
        QTest::newRow("LoRA: the largest adapter's gradient")
            << QStringList{"finetune", "lora"} << 2 * atTurn << qint64(176'128);
        QTest::newRow("QLoRA: 4-bit layers, a 16-bit head")
            << QStringList{"finetune", "qlora"} << (atTurn - head) / 2 + 2 * head << qint64(176'128);
    }
    void zero3GathersWhatItKeepsAndPrefetches()
    {
        QFETCH(QStringList, edits);
        QFETCH(qint64, gatheredBytes);
        QFETCH(qint64, gradient);
        const std::optional<Scenario> s = zero3Llama2_7b(edits);
        QVERIFY(s);
        QCOMPARE(estimate(*s).item(ItemId::Zero3GatheredParams), Bytes(gatheredBytes) + Bytes(gradient) * 2);
    }

    // DeepSpeed ZeRO-3 keeps every parameter of at most 1e5 elements whole beside its shard
    // (parameter_offload.py, mark_persistent_parameters), counted by hand for Llama-2-7B: the two
    // norms of each layer and the final norm, 4096 each, 266,240; under LoRA r 16 also q's, k's,
    // v's and o's lora_A and lora_B (16 × 4096 each), gate's and up's lora_A and down's lora_B,
    // 720,896 a layer (gate's and up's lora_B and down's lora_A, 176,128, are partitioned).
    void zero3KeepsSmallParametersWhole_data()
    {
        QTest::addColumn<QStringList>("edits");
        QTest::addColumn<qint64>("persistent");
        const qint64 norms = 2 * 4096 * 32 + 4096;
        QTest::newRow("full fine-tuning: the norms") << QStringList{} << 2 * norms;
        QTest::newRow("LoRA: the norms and most adapters")
            << QStringList{"finetune", "lora"} << 2 * (norms + 720'896 * 32);
        QTest::newRow("LoRA on q and v: their adapters")
            << QStringList{"finetune", "lora", "lora-targets", "q,v"} << 2 * (norms + 4 * 65'536 * 32);
        QTest::newRow("FSDP shards every parameter") << QStringList{"sharding", "fsdp"} << qint64(0);
        QTest::newRow("ZeRO-2 shards no parameter") << QStringList{"zero", "2"} << qint64(0);
    }
    void zero3KeepsSmallParametersWhole()
    {
        QFETCH(QStringList, edits);
        QFETCH(qint64, persistent);
        const std::optional<Scenario> s = zero3Llama2_7b(edits);
        QVERIFY(s && !scenarioError(*s));
        QCOMPARE(estimate(*s).item(ItemId::Zero3PersistentParams), Bytes(persistent));
    }

    // FSDP2 as torchtitan applies it to Llama 3.1 8B (8,030,261,248 parameters; per layer
    // 4096·(4096+1024+1024+4096) + 3·4096·14336 + 2·4096 = 218,112,000; root: embedding and head
    // 128256·4096 each plus the final norm, 1,050,677,248), counted by hand from the PyTorch code
    // the items cite, for each precision FSDP's MixedPrecisionPolicy may gather in.
    void fsdpBuffers_data()
    {
        QTest::addColumn<QString>("fsdpVersion");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<QString>("reduceDtype");
        QTest::addColumn<qint64>("shardedWeights");
        QTest::addColumn<qint64>("gathered");
        QTest::addColumn<qint64>("gradientBuffers");
        QTest::addColumn<qint64>("allGatherBuffers");
        constexpr qint64 params = 8'030'261'248, layer = 218'112'000, root = 1'050'677'248, head = 525'336'576 + 4096;
        // The root unit (embedding, final norm, head) is the largest; its all-gather output is the
        // whole unit, beside its shard's cast to 16 bits where the shards are FP32.
        QTest::newRow("bf16 gather, FP32 reduce (torchtitan's default)")
            << "2"
            << "mixed-bf16"
            << "auto" << params * 4 / 8 << (root + 2 * layer) * 2 << layer * (2 + 4) + head * 2
            << (root + root / 8) * 2;
        QTest::newRow("bf16 gather, BF16 reduce") << "2"
                                                  << "mixed-bf16"
                                                  << "bf16" << params * 4 / 8 << (root + 2 * layer) * 2
                                                  << layer * (2 + 2) + head * 2 << (root + root / 8) * 2;
        QTest::newRow("FP32, no mixed precision: the shard gathers as it is")
            << "2"
            << "fp32"
            << "auto" << params * 4 / 8 << (root + 2 * layer) * 4 << layer * (4 + 4) + head * 4 << root * 4;
        QTest::newRow("pure BF16 parameters: the shard gathers as it is")
            << "2"
            << "bf16"
            << "auto" << params * 2 / 8 << (root + 2 * layer) * 2 << layer * (2 + 2) + head * 2 << root * 2;
        // FSDP1 gathers into the flat parameter itself: only the FP32 shard's cast is extra.
        QTest::newRow("FSDP1, bf16 gather: the root's shard cast, no all-gather output")
            << "1"
            << "mixed-bf16"
            << "auto" << params * 4 / 8 << (root + 2 * layer) * 2 << layer * (2 + 4) + head * 2 << root / 8 * 2;
        QTest::newRow("FSDP1, pure BF16 parameters: nothing beside the flat parameter")
            << "1"
            << "bf16"
            << "auto" << params * 2 / 8 << (root + 2 * layer) * 2 << layer * (2 + 2) + head * 2 << qint64(0);
    }
    void fsdpBuffers()
    {
        QFETCH(QString, fsdpVersion);
        QFETCH(QString, precision);
        QFETCH(QString, reduceDtype);
        QFETCH(qint64, shardedWeights);
        QFETCH(qint64, gathered);
        QFETCH(qint64, gradientBuffers);
        QFETCH(qint64, allGatherBuffers);
        Scenario s = llama31_8b();
        s.precision = *parsePrecision(precision.toStdString());
        s.gradDtype = *parseGradDtype(reduceDtype.toStdString());
        s.zeroStage = 3;
        s.dataParallel = 8;
        s.sharding = Sharding::Fsdp;
        s.fsdpVersion = *parseFsdpVersion(fsdpVersion.toStdString());
        const Breakdown b = estimate(s);
        QCOMPARE(b.totalParams, 8'030'261'248);
        QCOMPARE(b.item(ItemId::Weights), shardedWeights);
        QCOMPARE(b.item(ItemId::FsdpUnshardedParams), gathered);
        QCOMPARE(b.item(ItemId::FsdpGradientBuffers), gradientBuffers);
        QCOMPARE(b.item(ItemId::FsdpAllGatherBuffers), allGatherBuffers);
        // The FP32 shard is the optimizer's parameter: no master copy; DeepSpeed's gathered layer is not FSDP's.
        QVERIFY(!b.has(ItemId::MasterWeights) && !b.has(ItemId::Zero3GatheredParams));
        // The sharded gradient is cast back to the parameter's dtype, whatever the reduce dtype.
        QCOMPARE(b.item(ItemId::Gradients), shardedWeights);
    }

    // QLoRA under FSDP gathers each layer's 4-bit matrices in the form they are stored in, counted
    // by hand for Llama 3.1 8B (a layer's matrices 218,103,808 weights, its two norms 8,192; the
    // root, 1,050,677,248, stays 16-bit): bitsandbytes' packed codes, half a byte a weight
    // (109,051,904 B), or torchao's NF4Tensor components, its codes, an int8 scaler per 64 weights
    // (3,407,872) and a BF16 factor per 16,384 (2 × 13,312), 112,486,400 B; the norms in BF16.
    // FSDP1 prefetches in backward only a unit whose forward ran with grad in this step
    // (_get_handle_to_prefetch reads _needs_pre_backward_unshard, which _register_pre_backward_hooks
    // sets only with grad enabled): after Hugging Face's reentrant checkpoint, whose forward runs
    // without grad, backward gathers the layer it computes alone.
    void fsdp1PrefetchesOnlyUnitsRunWithGrad_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<bool>("reentrant");
        QTest::addColumn<int>("fsdpVersion");
        QTest::addColumn<qint64>("layersGathered");
        QTest::newRow("FSDP1, Hugging Face, reentrant checkpoint: the layer computed alone")
            << int(Implementation::HuggingFace) << int(Recompute::Full) << true << int(FsdpVersion::Fsdp1) << qint64(1);
        QTest::newRow("FSDP1, Hugging Face, non-reentrant checkpoint: computed and prefetched")
            << int(Implementation::HuggingFace) << int(Recompute::Full) << false << int(FsdpVersion::Fsdp1)
            << qint64(2);
        QTest::newRow("FSDP1, Hugging Face, no recomputation: computed and prefetched")
            << int(Implementation::HuggingFace) << int(Recompute::None) << true << int(FsdpVersion::Fsdp1) << qint64(2);
        QTest::newRow("FSDP2, Hugging Face, reentrant checkpoint: computed and prefetched")
            << int(Implementation::HuggingFace) << int(Recompute::Full) << true << int(FsdpVersion::Fsdp2) << qint64(2);
    }
    void fsdp1PrefetchesOnlyUnitsRunWithGrad()
    {
        QFETCH(int, implementation);
        QFETCH(int, recompute);
        QFETCH(bool, reentrant);
        QFETCH(int, fsdpVersion);
        QFETCH(qint64, layersGathered);
        constexpr qint64 layer = 218'112'000, root = 1'050'677'248;
        Scenario s = llama31_8b();
        s.precision = Precision::Bf16;
        s.implementation = Implementation(implementation);
        s.attention = Attention::Sdpa;
        s.recompute = Recompute(recompute);
        s.useReentrant = reentrant;
        s.zeroStage = 3;
        s.dataParallel = 8;
        s.sharding = Sharding::Fsdp;
        s.fsdpVersion = FsdpVersion(fsdpVersion);
        QVERIFY(!scenarioError(s));
        QCOMPARE(estimate(s).item(ItemId::FsdpUnshardedParams), (root + layersGathered * layer) * 2);
    }

    void fsdpGathersFourBitLayersAsStored_data()
    {
        QTest::addColumn<QString>("implementation");
        QTest::addColumn<QString>("fsdpVersion");
        QTest::addColumn<qint64>("layerBytes");
        constexpr qint64 norms = 8192 * 2;
        QTest::newRow("PEFT's bitsandbytes layers under FSDP1: packed codes") << "huggingface"
                                                                              << "1" << qint64(109'051'904) + norms;
        QTest::newRow("torchtune's torchao layers under FSDP2: codes, scalers and factors")
            << "torchtune"
            << "2" << qint64(112'486'400) + norms;
    }
    void fsdpGathersFourBitLayersAsStored()
    {
        QFETCH(QString, implementation);
        QFETCH(QString, fsdpVersion);
        QFETCH(qint64, layerBytes);
        Scenario s = llama31_8b();
        s.implementation = *parseImplementation(implementation.toStdString());
        s.precision = Precision::Bf16;
        s.fineTune = FineTune::QLoRA;
        s.zeroStage = 3;
        s.dataParallel = 8;
        s.sharding = Sharding::Fsdp;
        s.fsdpVersion = *parseFsdpVersion(fsdpVersion.toStdString());
        const Breakdown b = estimate(s);
        constexpr qint64 root = 1'050'677'248 * 2;
        QCOMPARE(b.item(ItemId::FsdpUnshardedParams), root + 2 * layerBytes);
        // The root, in 16 bits, is the largest unit: FSDP2's all-gather output is the root's; FSDP1
        // has none, and BF16 shards need no cast.
        QCOMPARE(b.item(ItemId::FsdpAllGatherBuffers), fsdpVersion == QLatin1String("2") ? root : 0);
    }

    // transformers' Mistral code before 4.42: every attention layer's rotary embedding keeps cos
    // and sin for max_position_embeddings positions, in the dtype the model was loaded in. Mistral
    // 7B: 32 layers × 32768 positions × 128 × 2 tables, 2 B each loaded in 16 bits (512 MiB).
    void perLayerRopeTables_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("tables");
        Scenario mistral;
        mistral.implementation = Implementation::HuggingFace;
        mistral.precision = Precision::Bf16;
        mistral.perLayerRope = true;
        mistral.arch.ffn = 14336;
        mistral.arch.kvHeads = 8;
        mistral.arch.rotaryPositions = 32'768;
        constexpr qint64 perLayer = qint64(32'768) * 128 * 2;
        QTest::newRow("loaded in BF16") << mistral << perLayer * 32 * 2;
        Scenario autocast = mistral;
        autocast.precision = Precision::MixedBf16;
        autocast.ampStyle = AmpStyle::Autocast;
        QTest::newRow("loaded in FP32 under autocast") << autocast << perLayer * 32 * 4;
        Scenario bf16Base = autocast;
        bf16Base.fineTune = FineTune::LoRA;
        bf16Base.baseDtype = BaseDtype::Bf16;
        QTest::newRow("LoRA under autocast over a base loaded in BF16") << bf16Base << perLayer * 32 * 2;
        Scenario fsdp1 = mistral;
        fsdp1.precision = Precision::MixedBf16;
        fsdp1.zeroStage = 3;
        fsdp1.sharding = Sharding::Fsdp;
        fsdp1.fsdpVersion = FsdpVersion::Fsdp1;
        fsdp1.dataParallel = 2;
        QTest::newRow("FSDP1 casts buffers to BF16, and shards none") << fsdp1 << perLayer * 32 * 2;
        Scenario qlora = autocast;
        qlora.precision = Precision::MixedFp16;
        qlora.fineTune = FineTune::QLoRA;
        qlora.baseDtype = BaseDtype::Fp32;
        QTest::newRow("QLoRA loaded in FP16, its other parameters cast to FP32: the tables stay FP16")
            << qlora << perLayer * 32 * 2;
        Scenario today = mistral;
        today.perLayerRope = false;
        QTest::newRow("transformers 4.42 on: none") << today << qint64(0);
        Scenario megatron = mistral;
        megatron.implementation = Implementation::Megatron;
        QTest::newRow("Megatron's code: none") << megatron << qint64(0);
    }
    void perLayerRopeTables()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, tables);
        QVERIFY2(!scenarioError(scenario), scenarioError(scenario) ? scenarioError(scenario)->message.c_str() : "");
        QCOMPARE(estimate(scenario).item(ItemId::RotaryTable), tables);
    }

    // torchtitan's freqs_cis: precompute_freqs_cis(128, seq_len) is a complex64 tensor of
    // seq_len × 64, 512 B a position, on every GPU. Under CP context_parallel() keeps its clone to
    // restore, its load-balanced shard and that shard's clone, and the int64 shards of the token
    // ids and the labels, from forward into backward: gone by the optimizer step.
    void torchtitanRotaryTable_data()
    {
        QTest::addColumn<int>("cp");
        QTest::addColumn<qint64>("sequence");
        QTest::addColumn<qint64>("table");
        QTest::addColumn<qint64>("copies");
        QTest::newRow("8192 positions, no CP") << 1 << qint64(8192) << qint64(4) * kMiB << qint64(0);
        QTest::newRow("CP 2 over 65536 positions")
            << 2 << qint64(65'536) << qint64(32) * kMiB << qint64(32) * kMiB + 2 * 16 * kMiB + 2 * 8 * 32'768;
        QTest::newRow("CP 8 over 262144 positions")
            << 8 << qint64(262'144) << qint64(128) * kMiB << qint64(128) * kMiB + 2 * 16 * kMiB + 2 * 8 * 32'768;
    }
    void torchtitanRotaryTable()
    {
        QFETCH(int, cp);
        QFETCH(qint64, sequence);
        QFETCH(qint64, table);
        QFETCH(qint64, copies);
        Scenario s = llama31_8b();
        s.implementation = Implementation::TorchTitan;
        s.attention = Attention::Sdpa;
        s.microBatch = 1;
        s.sequence = sequence;
        s.contextParallel = cp;
        s.dataParallel = 8 / cp;
        s.zeroStage = 3;
        s.sharding = Sharding::Fsdp;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::RotaryTable), table);
        QCOMPARE(b.item(ItemId::ContextParallelCopies), copies);
        const StepTimeline t = stepTimeline(b);
        const auto parameters = [&](StepPhase phase) {
            for (const TimelinePoint &p : t.points)
                if (p.phase == phase)
                    return p.part(Component::Parameters);
            return Bytes(-1);
        };
        // The copies live from forward to the end of backward, the table all step (at the loss
        // FSDP holds the root and the last layer gathered).
        QCOMPARE(parameters(StepPhase::Loss) - parameters(StepPhase::OptimizerStep),
                 copies + b.item(ItemId::FsdpUnshardedParams) - b.gatheredOnlyInBackward);
        // Hugging Face computes its cos and sin in each forward: no table kept.
        s.implementation = Implementation::HuggingFace;
        s.contextParallel = 1;
        s.dataParallel = 8;
        QVERIFY(!estimate(s).has(ItemId::RotaryTable));
    }

    // lit-gpt's RoPE cache (lit_gpt/model.py at 8641822, build_rope_cache): cos and sin of the
    // longest sample's positions × the head's width, FP32 (set outside Fabric's init_module); its
    // GPT-NeoX blocks rotate a fraction of the head the tool does not carry: none counted.
    void litgptRopeCache_data()
    {
        QTest::addColumn<bool>("neox");
        QTest::addColumn<qint64>("sequence");
        QTest::addColumn<qint64>("cache");
        QTest::newRow("Llama 2, Alpaca's longest sample: 1304 × 128 × 2 × 4 B")
            << false << qint64(1304) << qint64(1304) * 128 * 2 * 4;
        QTest::newRow("Llama 2 at 4096 positions") << false << qint64(4096) << qint64(4) * kMiB;
        QTest::newRow("GPT-NeoX (phi-1.5, StableLM-alpha): not counted") << true << qint64(1304) << qint64(0);
    }
    void litgptRopeCache()
    {
        QFETCH(bool, neox);
        QFETCH(qint64, sequence);
        QFETCH(qint64, cache);
        Scenario s; // the article's 7B: Llama-2-7B's shapes, 128-wide heads
        s.implementation = Implementation::LitGpt;
        s.precision = Precision::Bf16;
        s.attention = Attention::Flash;
        s.fineTune = FineTune::LoRA;
        s.loraTargets = LoraQ | LoraV; // finetune/lora.py's defaults
        s.sequence = sequence;
        if (neox) {
            s.arch.modeling = Modeling::GptNeox;
            s.arch.norm = NormKind::LayerNorm;
            s.arch.mlp = MlpKind::Gelu;
            s.arch.kvHeads = s.arch.heads;
        }
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        QCOMPARE(qint64(estimate(s).item(ItemId::RotaryTable)), cache);
    }

    // lit-gpt makes its weights on the GPU one after another (finetune/lora.py at 8641822:
    // fabric.init_module on one device). A weight of 10 MiB or more gets a segment of its own
    // rounded up to 2 MiB, and a remainder of at most 1 MiB is not split off its block: Llama-2-13B's
    // MLP matrices, 5120 × 13824 × 2 B = 135 MiB, each hold 136 MiB; its q/k/v (150 MiB), output
    // projection (50 MiB), embedding and head (312.5 MiB: 1.5 MiB left, split off) hold none, nor
    // do any of Llama-2-7B's, whose weights are whole multiples of 2 MiB.
    void litgptWeightBlockTails_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("tails");
        QTest::addColumn<bool>("listed");
        Scenario llama13b = litgptLlama2_13bLora();
        llama13b.overhead.measure = Measure::Allocated; // lit-gpt's table: max_memory_allocated
        const Bytes mlpMatrix = 5120 * 13824 * 2, segment = (mlpMatrix + 2 * kMiB - 1) / (2 * kMiB) * 2 * kMiB;
        QTest::newRow("Llama-2-13B LoRA: 3 MLP matrices × 40 layers keep 1 MiB each")
            << llama13b << qint64(3 * 40 * (segment - mlpMatrix)) << true;
        Scenario full = llama13b;
        full.fineTune = FineTune::Full;
        QTest::newRow("Llama-2-13B fully fine-tuned: the same weights, the same tails")
            << full << qint64(3 * 40 * (segment - mlpMatrix)) << true;
        Scenario llama7b = llama13b;
        llama7b.arch = Architecture{}; // Llama-2-7B's shapes
        QTest::newRow("Llama-2-7B: every weight a multiple of 2 MiB") << llama7b << qint64(0) << true;
        Scenario qlora = llama13b;
        qlora.fineTune = FineTune::QLoRA;
        QTest::newRow("QLoRA quantizes each linear as it is made: not this order") << qlora << qint64(0) << false;
        Scenario fsdp = llama13b;
        fsdp.dataParallel = 2;
        fsdp.zeroStage = 3;
        fsdp.sharding = Sharding::Fsdp;
        QTest::newRow("on two GPUs FSDP materialises the model instead") << fsdp << qint64(0) << false;
        Scenario huggingface = llama13b;
        huggingface.implementation = Implementation::HuggingFace;
        QTest::newRow("Hugging Face: its loading order is not listed") << huggingface << qint64(0) << false;
    }
    void litgptWeightBlockTails()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, tails);
        QFETCH(bool, listed);
        QVERIFY2(!scenarioError(scenario), scenarioError(scenario) ? scenarioError(scenario)->message.c_str() : "");
        const Breakdown b = estimate(scenario);
        QCOMPARE(b.has(ItemId::WeightBlockTails), listed);
        QCOMPARE(qint64(b.item(ItemId::WeightBlockTails)), tails);
        // Held with the weights, all step: the overhead beside the GEMM workspaces between steps.
        const StepTimeline t = stepTimeline(b);
        QCOMPARE(t.points.front().part(Component::Overhead) - b.item(ItemId::GemmWorkspaces), Bytes(tails));
    }

    // torchtune's RoPE cache (modules/position_embeddings.py build_rope_cache): cos and sin in FP32
    // for every position the builder names (llama3_2_3b, llama3_1_8b: max_seq_len 131072;
    // llama2_7b: 4096), head_dim/2 pairs of each, on the GPU all step; Qwen2's
    // (models/qwen2/_positional_embeddings.py) cos and sin each head_dim wide. With packed samples
    // each layer gathers the cache's rows at the positions for its query and for its key: at two
    // packs of 4096 tokens and 128-wide heads, 4 MiB each. Qwen2 casts cos and sin to BF16 for each
    // call, one row for all sequences (1 MiB each) or, packed, a row a sequence (2 MiB each).
    void torchtuneRopeCache_data()
    {
        QTest::addColumn<bool>("qwen2");
        QTest::addColumn<qint64>("maxPositions");
        QTest::addColumn<qint64>("sequence");
        QTest::addColumn<qint64>("cache");
        QTest::addColumn<qint64>("packedMorePerLayer");
        QTest::newRow("Llama 3.1 and 3.2: 131072 positions")
            << false << qint64(131'072) << qint64(4096) << qint64(64) * kMiB << qint64(8) * kMiB;
        QTest::newRow("Llama 2: 4096 positions")
            << false << qint64(4096) << qint64(4096) << qint64(2) * kMiB << qint64(8) * kMiB;
        QTest::newRow("no maximum stated: the sequence's 8192")
            << false << qint64(0) << qint64(8192) << qint64(4) * kMiB << qint64(16) * kMiB;
        QTest::newRow("Qwen2.5: 131072 positions, cos and sin each head_dim wide")
            << true << qint64(131'072) << qint64(4096) << qint64(128) * kMiB << qint64(4) * kMiB;
    }
    void torchtuneRopeCache()
    {
        QFETCH(bool, qwen2);
        QFETCH(qint64, maxPositions);
        QFETCH(qint64, sequence);
        QFETCH(qint64, cache);
        QFETCH(qint64, packedMorePerLayer);
        Scenario s = llama31_8b();
        s.implementation = Implementation::TorchTune;
        s.precision = Precision::Bf16;
        s.attention = Attention::Sdpa;
        s.arch.qkvBias = qwen2;
        s.arch.rotaryPositions = maxPositions;
        s.microBatch = 2;
        s.sequence = sequence;
        QVERIFY(!scenarioError(s));
        const Breakdown unpacked = estimate(s);
        QCOMPARE(unpacked.item(ItemId::RotaryTable), cache);
        s.packed = true;
        const Breakdown packed = estimate(s);
        QCOMPARE(packed.item(ItemId::RotaryTable), cache);
        QCOMPARE(packed.item(ItemId::LayerActivations) - unpacked.item(ItemId::LayerActivations),
                 packedMorePerLayer * s.arch.layers);
        // torchtitan's block keeps its own table, of the sequence, and gathers nothing.
        s.implementation = Implementation::TorchTitan;
        QCOMPARE(estimate(s).item(ItemId::RotaryTable), sequence * 64 * 8);
    }

    // HSDP shards within a replica group and copies the shards across groups; without resharding
    // after forward FSDP keeps every layer gathered from its forward to its backward.
    void hybridShardingAndResharding_data()
    {
        QTest::addColumn<int>("replicas");
        QTest::addColumn<bool>("reshard");
        QTest::addColumn<qint64>("shardedWeights");
        QTest::addColumn<qint64>("gathered");
        constexpr qint64 params = 8'030'261'248, layer = 218'112'000, root = 1'050'677'248;
        QTest::newRow("FSDP over 16") << 1 << true << params * 4 / 16 << (root + 2 * layer) * 2;
        QTest::newRow("HSDP: 2 groups of 8") << 2 << true << params * 4 / 8 << (root + 2 * layer) * 2;
        QTest::newRow("HSDP: 16 replicas, nothing sharded") << 16 << true << params * 4 << (root + 2 * layer) * 2;
        QTest::newRow("not resharded after forward: all 32 layers gathered")
            << 1 << false << params * 4 / 16 << (root + 32 * layer) * 2;
    }
    void hybridShardingAndResharding()
    {
        QFETCH(int, replicas);
        QFETCH(bool, reshard);
        QFETCH(qint64, shardedWeights);
        QFETCH(qint64, gathered);
        Scenario s = llama31_8b();
        s.zeroStage = 3;
        s.dataParallel = 16;
        s.sharding = Sharding::Fsdp;
        s.replicas = replicas;
        s.reshardAfterForward = reshard;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::Weights), shardedWeights);
        QCOMPARE(b.item(ItemId::OptimizerMoments), shardedWeights * 2);
        QCOMPARE(b.item(ItemId::FsdpUnshardedParams), gathered);
    }

    // Expert parallelism on Mixtral-8x7B (46,702,792,704 parameters; per layer 8 experts of
    // 3·4096·14336 = 176,160,768, the rest dense: 1,605,636,096 in all): a GPU holds experts/ep,
    // and an expert's optimizer states are sharded only over the dp/ep GPUs that hold it.
    void expertParallelism_data()
    {
        QTest::addColumn<int>("ep");
        QTest::addColumn<qint64>("weights");
        QTest::addColumn<qint64>("moments");
        constexpr qint64 dense = 1'605'636'096, expert = 176'160'768, layers = 32, dp = 8;
        QTest::newRow("EP 1: every expert everywhere")
            << 1 << (dense + layers * 8 * expert) * 2 << (dense + layers * 8 * expert) * 8 / dp;
        QTest::newRow("EP 4: two experts per GPU, their states over 2 GPUs")
            << 4 << (dense + layers * 2 * expert) * 2 << dense * 8 / dp + layers * 2 * expert * 8 / 2;
        QTest::newRow("EP 8: one expert per GPU, its states unsharded")
            << 8 << (dense + layers * expert) * 2 << dense * 8 / dp + layers * expert * 8;
    }
    void expertParallelism()
    {
        QFETCH(int, ep);
        QFETCH(qint64, weights);
        QFETCH(qint64, moments);
        Scenario s = llama31_8b();
        s.arch.vocab = 32000; // Mixtral-8x7B: Llama's shapes with 8 experts, top 2
        s.arch.experts = 8;
        s.arch.expertsPerToken = 2;
        s.zeroStage = 1;
        s.dataParallel = 8;
        s.expertParallel = ep;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.totalParams, 46'702'792'704);
        QCOMPARE(b.item(ItemId::Weights), weights);
        QCOMPARE(b.item(ItemId::OptimizerMoments), moments);
    }

    // Megatron pads the vocabulary to a multiple of 128 × TP: GPT-2's 50,257 becomes 50,304 on
    // one GPU and 51,200 under TP 8 (megatron/training/tokenizer/tokenizer.py, _vocab_size_with_padding).
    void vocabularyPadding_data()
    {
        QTest::addColumn<int>("divisibleBy");
        QTest::addColumn<int>("tp");
        QTest::addColumn<qint64>("paddedVocab");
        QTest::newRow("as given") << 1 << 1 << qint64(50'257);
        QTest::newRow("128, one GPU") << 128 << 1 << qint64(50'304);
        QTest::newRow("128 × TP 8") << 128 << 8 << qint64(51'200);
    }
    void vocabularyPadding()
    {
        QFETCH(int, divisibleBy);
        QFETCH(int, tp);
        QFETCH(qint64, paddedVocab);
        Scenario s;
        s.arch.vocab = 50'257;
        s.arch.heads = 32;
        s.vocabDivisibleBy = divisibleBy;
        s.tensorParallel = tp;
        QVERIFY(!scenarioError(s));
        Scenario unpadded = s;
        unpadded.arch.vocab = paddedVocab;
        unpadded.vocabDivisibleBy = 1;
        const Breakdown b = estimate(s), expected = estimate(unpadded);
        QCOMPARE(b.totalParams, expected.totalParams);
        QCOMPARE(b.item(ItemId::Weights), expected.item(ItemId::Weights));
        QCOMPARE(b.item(ItemId::Logits), expected.item(ItemId::Logits));
    }

    // What one tensor-parallel GPU holds of a Megatron GPT (learned positions, biases, LayerNorm,
    // GELU, untied head; the 7B of Megatron-LM's memory tests: h 4096, 32 layers, 8 key/value
    // groups of 128, ffn 16384, vocabulary padded to 131584 for TP 4), counted by hand from the
    // modules' shapes: per layer the column-parallel QKV (h × 6144 and its bias) and fc1 (h × ffn
    // and its bias) split by t, the row-parallel proj and fc2 split but their biases whole, two
    // LayerNorms whole; the word embedding and the head split by vocabulary, the 8192 learned
    // positions and the final LayerNorm whole.
    void megatronTensorParallelSlice_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<qint64>("vocab");
        QTest::addColumn<qint64>("params");
        const auto slice = [](qint64 t, qint64 vocab) {
            const qint64 h = 4096, f = 16384, qkv = 6144, positions = 8192;
            const qint64 layer = (h * qkv + qkv) / t + (h * h) / t + h + (h * f + f) / t + (f * h) / t + h + 2 * 2 * h;
            return 32 * layer + 2 * (vocab * h / t) + positions * h + 2 * h;
        };
        QTest::newRow("one GPU") << 1 << qint64(131'200) << slice(1, 131'200);
        QTest::newRow("TP 4 (the memory test's 1,713,299,456)") << 4 << qint64(131'584) << slice(4, 131'584);
    }
    void megatronTensorParallelSlice()
    {
        QFETCH(int, tp);
        QFETCH(qint64, vocab);
        QFETCH(qint64, params);
        Scenario s;
        s.arch.hidden = 4096;
        s.arch.layers = 32;
        s.arch.heads = 32;
        s.arch.kvHeads = 8;
        s.arch.ffn = 16384;
        s.arch.vocab = vocab;
        s.arch.learnedPositions = 8192;
        s.arch.mlp = MlpKind::Gelu;
        s.arch.norm = NormKind::LayerNorm;
        s.arch.linearBias = true;
        s.arch.tiedEmbeddings = false;
        s.tensorParallel = tp;
        s.precision = Precision::MixedBf16;
        QVERIFY(!scenarioError(s));
        QCOMPARE(qint64(estimate(s).item(ItemId::Weights)), 2 * params);
        if (tp == 4)
            QCOMPARE(params, qint64(1'713'299'456));
    }

    // DeepSpeed's ZeRO optimizers allocate a contiguous gradient bucket: reduce_bucket_size
    // elements (5e8 by default) in the working weights' dtype, every backward at stages 1 and 2
    // (two with overlap_comm), once at stage 3. FSDP has buffers of its own; without ZeRO there is no DeepSpeed
    // optimizer (PyTorch DDP's buckets instead, ddpGradientBuckets).
    void deepspeedReduceBucket_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<qint64>("elements");
        QTest::addColumn<bool>("overlapComm");
        QTest::addColumn<qint64>("bucket");
        QTest::newRow("ZeRO-1, mixed precision: 5e8 × 2 B")
            << 1 << "mixed-bf16" << qint64(500'000'000) << false << qint64(1'000'000'000);
        QTest::newRow("ZeRO-2, FP32: 5e8 × 4 B")
            << 2 << "fp32" << qint64(500'000'000) << false << qint64(2'000'000'000);
        QTest::newRow("ZeRO-2, a bucket of 2e8")
            << 2 << "mixed-bf16" << qint64(200'000'000) << false << qint64(400'000'000);
        QTest::newRow("ZeRO-2, overlap_comm: two buckets")
            << 2 << "mixed-bf16" << qint64(500'000'000) << true << qint64(2'000'000'000);
        QTest::newRow("ZeRO-2, no bucket") << 2 << "mixed-bf16" << qint64(0) << true << qint64(0);
        QTest::newRow("no ZeRO") << 0 << "mixed-bf16" << qint64(500'000'000) << false << qint64(0);
        QTest::newRow("ZeRO-3: its flat bucket")
            << 3 << "mixed-bf16" << qint64(500'000'000) << false << qint64(1'000'000'000);
        QTest::newRow("ZeRO-3 with overlap_comm: still one")
            << 3 << "mixed-bf16" << qint64(500'000'000) << true << qint64(1'000'000'000);
    }
    void deepspeedReduceBucket()
    {
        QFETCH(int, stage);
        QFETCH(QString, precision);
        QFETCH(qint64, elements);
        QFETCH(bool, overlapComm);
        QFETCH(qint64, bucket);
        Scenario s = withParams(7'000'000'000);
        s.zeroStage = stage;
        s.dataParallel = 8;
        s.precision = *parsePrecision(precision.toStdString());
        s.reduceBucket = elements;
        s.overlapComm = overlapComm;
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::ZeroReduceBucket), bucket);
        QCOMPARE(b.has(ItemId::ZeroReduceBucket), bucket > 0);
        QCOMPARE(b.runtimeBuffers(),
                 bucket + b.item(ItemId::Zero3GatheredParams) + b.item(ItemId::DdpGradientBuckets)
                     + b.item(ItemId::ZeroFp32Gradients) + b.item(ItemId::OptimizerStepBuffer));
    }

    // DeepSpeed's step (stage_1_and_2.py step; stage3.py _prepare_fp32_grad_for_sub_group) makes
    // an FP32 gradient for each flat partition it steps from a 16-bit flat copy of its gradients,
    // one partition at a time: the largest's 4 B, at the step only, and its 2 B copy among the
    // step's intermediates (FusedAdam has none of its own). Llama-2-7B's shapes: the weights
    // partition apart from the 65 norms of 4096 (the no-decay group).
    void deepSpeedStepGradients_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("fp32Gradients");
        QTest::addColumn<qint64>("stepBuffer");
        const qint64 weightsPartition = (6'738'415'616LL - 65 * 4096 + 7) / 8;
        Scenario zero2; // mixed FP16 with a master copy: 16-bit gradients
        zero2.zeroStage = 2;
        zero2.dataParallel = 8;
        QTest::newRow("ZeRO-2 over 8: the weights' partition in FP32 and its 16-bit copy")
            << zero2 << 4 * weightsPartition << 2 * weightsPartition;
        Scenario zero1 = zero2;
        zero1.zeroStage = 1;
        QTest::newRow("ZeRO-1 over 8: the same") << zero1 << 4 * weightsPartition << 2 * weightsPartition;
        Scenario fp32 = zero2; // the flat copy is FP32 already: nothing to convert
        fp32.precision = Precision::Fp32;
        QTest::newRow("ZeRO-2 in FP32: the flat copy is the FP32 gradient")
            << fp32 << 4 * weightsPartition << qint64(0);
        Scenario foreach = zero2; // torch's foreach AdamW after it: √v of the partition, 4 B, outgrows the copy
        foreach
            .optimizerImpl = OptimizerImpl::Foreach;
        QTest::newRow("ZeRO-2, foreach AdamW: √v outgrows the copy")
            << foreach << 4 * weightsPartition << 4 * weightsPartition;
        Scenario transformersLoop = zero2; // step() once per partition: nothing kept from the one before
        transformersLoop.optimizerImpl = OptimizerImpl::TransformersLoop;
        QTest::newRow("ZeRO-2, transformers' AdamW: one step() per partition")
            << transformersLoop << 4 * weightsPartition << 4 * weightsPartition;
        // ZeRO-3 over 2 (Hugging Face's order, halves): the largest sub-group holds layer 9's
        // o_proj and MLP, layers 10 to 18 and layer 19's q_proj and k_proj (optimizerStepIntermediate).
        Scenario zero3 = zero2;
        zero3.implementation = Implementation::HuggingFace;
        zero3.attention = Attention::Sdpa;
        zero3.zeroStage = 3;
        zero3.dataParallel = 2;
        const qint64 square = 4096LL * 4096 / 2, mlp = 3 * 11'008LL * 4096 / 2;
        const qint64 subGroup = square + mlp + 9 * (4 * square + mlp) + 2 * square;
        QTest::newRow("ZeRO-3 over 2: the largest sub-group") << zero3 << 4 * subGroup << 2 * subGroup;
        Scenario offload = zero2; // the CPU steps: its FP32 gradients are in CPU memory
        offload.offload = Offload::Optimizer;
        QTest::newRow("ZeRO-Offload: on the CPU") << offload << qint64(0) << qint64(0);
        Scenario megatron = zero1; // Megatron's distributed optimizer steps its own main gradients
        megatron.sharding = Sharding::Megatron;
        QTest::newRow("Megatron's distributed optimizer: none") << megatron << qint64(0) << qint64(0);
    }
    void deepSpeedStepGradients()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, fp32Gradients);
        QFETCH(qint64, stepBuffer);
        QVERIFY2(!scenarioError(scenario), scenarioError(scenario) ? scenarioError(scenario)->message.c_str() : "");
        const Breakdown b = estimate(scenario);
        QCOMPARE(b.item(ItemId::ZeroFp32Gradients), Bytes(fp32Gradients));
        QCOMPARE(b.item(ItemId::OptimizerStepBuffer), Bytes(stepBuffer));
        // At the optimizer step alone, beside the gradients and what is kept all step (ZeRO-3's
        // bucket, ZeRO-Offload's staging buffer).
        const StepTimeline t = stepTimeline(b);
        const Bytes allStep = (b.bucketPersists ? b.item(ItemId::ZeroReduceBucket) : 0)
            + b.item(ItemId::OffloadGradientBuffer);
        QCOMPARE(t.points.back().part(Component::Gradients),
                 b.item(ItemId::Gradients) + allStep + Bytes(fp32Gradients));
        for (std::size_t i = 0; i + 1 < t.points.size(); ++i)
            QVERIFY(t.points[i].part(Component::Gradients) <= b.component(Component::Gradients) - Bytes(fp32Gradients));
    }

    // Without sharding, data parallelism outside Megatron-Core is PyTorch's DistributedDataParallel:
    // its Reducer's buckets hold every trainable parameter's gradient in the parameter's dtype, a
    // second copy, from the moment the model is wrapped (reducer.cpp, initialize_buckets). With
    // gradient_as_bucket_view the gradients are the buckets' views: no copy, allocated all step.
    // 7e9 parameters on 8 GPUs.
    void ddpGradientBuckets_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("edit");
        QTest::addColumn<qint64>("buckets");
        QTest::addColumn<bool>("gradientsAllStep");
        const auto row = [](const char *name, qint64 buckets, bool allStep, std::function<void(Scenario &)> edit) {
            QTest::newRow(name) << edit << buckets << allStep;
        };
        row("FP32: 4 B a gradient", 28'000'000'000, false, [](Scenario &s) { s.precision = Precision::Fp32; });
        row("autocast, Hugging Face's Trainer: FP32 gradients", 28'000'000'000, false, [](Scenario &s) {
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
            s.implementation = Implementation::HuggingFace;
        });
        row("mixed BF16 with an FP32 master copy: 2 B", 14'000'000'000, false, [](Scenario &) {});
        row("gradient_as_bucket_view: no copy, the gradients kept all step", 0, true,
            [](Scenario &s) { s.ddpBucketView = true; });
        row("one GPU: no DDP", 0, false, [](Scenario &s) { s.dataParallel = 1; });
        row("ZeRO-1: DeepSpeed's optimizer, not DDP", 0, false, [](Scenario &s) { s.zeroStage = 1; });
        row("Megatron-Core's own DDP: its FP32 buffer, kept all step", 0, true,
            [](Scenario &s) { s.sharding = Sharding::Megatron; });
    }
    void ddpGradientBuckets()
    {
        QFETCH(std::function<void(Scenario &)>, edit);
        QFETCH(qint64, buckets);
        QFETCH(bool, gradientsAllStep);
        Scenario s = withParams(7'000'000'000);
        s.dataParallel = 8;
        edit(s);
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(qint64(b.item(ItemId::DdpGradientBuckets)), buckets);
        QCOMPARE(b.gradientsPersist, gradientsAllStep);
        QVERIFY(isRuntimeBuffer(ItemId::DdpGradientBuckets));
        // Allocated when the model is wrapped: before the step and through the optimizer step.
        const StepTimeline t = stepTimeline(b);
        const Bytes allStep = buckets + (gradientsAllStep ? b.item(ItemId::Gradients) : 0);
        QCOMPARE(t.points.front().part(Component::Gradients), allStep);
        QCOMPARE(t.points.back().part(Component::Gradients),
                 b.item(ItemId::Gradients) + buckets + b.item(ItemId::ZeroFp32Gradients));
    }

    // Bytes per parameter in each regime (memory-model.md's table).
    void bytesPerParameter_data()
    {
        QTest::addColumn<QString>("precision");
        QTest::addColumn<QString>("gradDtype");
        QTest::addColumn<QString>("optimizer");
        QTest::addColumn<bool>("master");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("ampStyle");
        QTest::newRow("FP32 Adam: 16") << "fp32"
                                       << "auto"
                                       << "adamw" << true << 16.0 << "master-copy";
        QTest::newRow("mixed Adam (ZeRO, K=12): 16") << "mixed-bf16"
                                                     << "auto"
                                                     << "adamw" << true << 16.0 << "master-copy";
        QTest::newRow("Megatron, FP32 grads: 18") << "mixed-bf16"
                                                  << "fp32"
                                                  << "adamw" << true << 18.0 << "master-copy";
        QTest::newRow("pure BF16, BF16 moments: 8") << "bf16"
                                                    << "auto"
                                                    << "adamw" << true << 8.0 << "master-copy";
        QTest::newRow("the article's table: 12") << "mixed-fp16"
                                                 << "auto"
                                                 << "adamw" << false << 12.0 << "master-copy";
        // bitsandbytes' blockwise 8-bit states: an FP32 absmax per 256 elements of m and of v
        QTest::newRow("8-bit Adam: 2+2+4+2 + 2 × 4/256") << "mixed-bf16"
                                                         << "auto"
                                                         << "adamw-8bit" << true << 10.03125 << "master-copy";
        QTest::newRow("SGD keeps no state: 2+2+4") << "mixed-bf16"
                                                   << "auto"
                                                   << "sgd" << true << 8.0 << "master-copy";
        QTest::newRow("SGD momentum: 2+2+4+4") << "mixed-bf16"
                                               << "auto"
                                               << "sgd-momentum" << true << 12.0 << "master-copy";
        // Autocast (Hugging Face Trainer, Lightning): FP32 weights and grads are the master copy;
        // the 16-bit casts its linears read are counted with the activations (tst_savedtensors).
        QTest::newRow("autocast Adam: 4+4+8") << "mixed-bf16"
                                              << "auto"
                                              << "adamw" << true << 16.0 << "autocast";
        QTest::newRow("autocast ignores the master switch") << "mixed-fp16"
                                                            << "auto"
                                                            << "adamw" << false << 16.0 << "autocast";
        QTest::newRow("Lion: 2+2+4+4") << "mixed-bf16"
                                       << "auto"
                                       << "lion" << true << 12.0 << "master-copy";
    }
    void bytesPerParameter()
    {
        QFETCH(QString, precision);
        QFETCH(QString, gradDtype);
        QFETCH(QString, optimizer);
        QFETCH(bool, master);
        QFETCH(double, bytes);
        QFETCH(QString, ampStyle);
        Scenario s = withParams(1'000'000'000);
        s.precision = *parsePrecision(precision.toStdString());
        s.gradDtype = *parseGradDtype(gradDtype.toStdString());
        s.optimizer = *parseOptimizer(optimizer.toStdString());
        s.masterWeights = master;
        s.ampStyle = *parseAmpStyle(ampStyle.toStdString());
        QCOMPARE(estimate(s).modelStates(), Bytes(std::llround(bytes * 1e9)));
    }

    // Megatron-LM's theoretical memory (megatron/training/theoretical_memory_usage.py,
    // num_bytes_per_parameter): 18 B per parameter - BF16 weights, FP32 main gradients, FP32 main
    // parameters and Adam's two FP32 moments - or 6 + 12/d with the distributed optimizer over
    // d data-parallel GPUs. Checked on 1e9 parameters with --sharding megatron.
    void megatronTheoreticalMemory_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("dataParallel");
        QTest::addColumn<double>("bytesPerParam");
        QTest::newRow("DDP: 18") << 0 << 8 << 18.0;
        QTest::newRow("distributed optimizer over 8: 6 + 12/8") << 1 << 8 << 6 + 12.0 / 8;
        QTest::newRow("distributed optimizer over 64: 6 + 12/64") << 1 << 64 << 6 + 12.0 / 64;
    }
    void megatronTheoreticalMemory()
    {
        QFETCH(int, stage);
        QFETCH(int, dataParallel);
        QFETCH(double, bytesPerParam);
        Scenario s = withParams(1'000'000'000);
        s.precision = Precision::MixedBf16;
        s.sharding = Sharding::Megatron;
        s.zeroStage = stage;
        s.dataParallel = dataParallel;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(double(b.modelStates()), bytesPerParam * 1e9);
        QVERIFY(!b.has(ItemId::ZeroReduceBucket)); // DeepSpeed's bucket is DeepSpeed's
    }

    // llm-analysis (cli99/llm-analysis, llm_analysis/analysis.py at d841e40): 16-bit weights,
    // gradients in the master dtype (FP32) and Adam's master copy and moments (12 B), sharded by
    // the ZeRO stage (get_weight_memory_per_layer, get_memory_optimizer_state_and_gradient_*), the
    // embedding counted once (get_num_params_embedding's shared_embedding=True). Where the
    // conventions match - a tied head, FP32 gradients, no tensor parallelism (llm-analysis divides
    // the norms' gradients by TP but not their weights) - the model states agree to the byte:
    // Llama-2-7B's shapes tied, 6,607,343,616 parameters over 8 GPUs.
    void llmAnalysisModelStates_data()
    {
        QTest::addColumn<int>("stage");
        QTest::newRow("ZeRO-0") << 0;
        QTest::newRow("ZeRO-1") << 1;
        QTest::newRow("ZeRO-2") << 2;
        QTest::newRow("ZeRO-3") << 3;
    }
    void llmAnalysisModelStates()
    {
        QFETCH(int, stage);
        Scenario s; // Architecture{} is Llama-2-7B's shapes
        s.arch.tiedEmbeddings = true;
        s.precision = Precision::MixedBf16;
        s.gradDtype = GradDtype::Fp32;
        s.zeroStage = stage;
        s.dataParallel = 8;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        const Bytes params = 32 * (4 * 4096LL * 4096 + 3 * 4096LL * 11008 + 2 * 4096) + 32000LL * 4096 + 4096;
        QCOMPARE(b.totalParams, params);
        const auto shard = [&](int from) { return stage >= from ? 8 : 1; };
        QCOMPARE(b.item(ItemId::Weights), params * 2 / shard(3));
        QCOMPARE(b.item(ItemId::Gradients), params * 4 / shard(2));
        QCOMPARE(b.item(ItemId::MasterWeights) + b.item(ItemId::OptimizerMoments), params * 12 / shard(1));
    }

    // QLoRA computes each 4-bit linear from a dequantized copy (bitsandbytes' MatMul4Bit), one
    // module at a time: Llama-2-7B. Lightning (lit-gpt) quantizes every linear, the 32000 × 4096
    // head too, from FP16 and casts the copy to BF16: 131,072,000 × (2 + 2) B. PEFT keeps the head
    // in 16 bits and quantizes the weights as loaded (the compute dtype): the largest layer
    // matrix, 4096 × 11008, × 2 B, also where prepare_model_for_kbit_training cast the rest to FP32
    // (the 4-bit weights' quant_state keeps the dtype they were quantized from).
    void qloraDequantizesOneModule_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("precision");
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("lit-gpt, BF16") << int(Implementation::LitGpt) << int(Precision::Bf16)
                                       << qint64(131'072'000) * 4;
        QTest::newRow("Hugging Face PEFT, BF16")
            << int(Implementation::HuggingFace) << int(Precision::Bf16) << qint64(4096) * 11008 * 2;
        QTest::newRow("Hugging Face PEFT, FP16 autocast over an FP32 base")
            << int(Implementation::HuggingFace) << int(Precision::MixedFp16) << qint64(4096) * 11008 * 2;
    }
    void qloraDequantizesOneModule()
    {
        QFETCH(int, implementation);
        QFETCH(int, precision);
        QFETCH(qint64, bytes);
        Scenario s; // Architecture{} is Llama-2-7B's shapes
        s.implementation = Implementation(implementation);
        s.precision = Precision(precision);
        if (s.precision == Precision::MixedFp16) {
            s.ampStyle = AmpStyle::Autocast;
            s.baseDtype = BaseDtype::Fp32;
        }
        s.fineTune = FineTune::QLoRA;
        s.loraTargets = LoraQ | LoraV; // lit-gpt adapts the fused qkv projection
        s = withImplementationDefaults(s);
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::QloraDequantized), Bytes(bytes));
        s.fineTune = FineTune::LoRA;
        QVERIFY(!estimate(s).has(ItemId::QloraDequantized));
    }

    // torchtune's QLoRA keeps every projection of a layer as a torchao NF4Tensor and the output
    // projection in BF16. Each linear dequantizes its weight with plain tensor ops: against
    // tests/data/nf4-dequantize.yaml, what the profiler saw get_original_weight hold (written by
    // tests/oracle/generate.py), for a model whose largest matrix, gate and up, is out × inp.
    void torchaoDequantizationIsWhatTheProfilerHolds_data()
    {
        QTest::addColumn<qint64>("out");
        QTest::addColumn<qint64>("inp");
        QTest::addColumn<qint64>("held");
        for (const YAML::Node &row : YAML::LoadFile(VL_TEST_DATA "/nf4-dequantize.yaml")) {
            const std::string name = row["out"].as<std::string>() + " × " + row["inp"].as<std::string>();
            QTest::newRow(name.c_str()) << row["out"].as<qint64>() << row["inp"].as<qint64>()
                                        << row["held"].as<qint64>();
        }
    }
    void torchaoDequantizationIsWhatTheProfilerHolds()
    {
        QFETCH(qint64, out);
        QFETCH(qint64, inp);
        QFETCH(qint64, held);
        Scenario s;
        s.arch.hidden = inp;
        s.arch.ffn = out;
        s.arch.heads = s.arch.kvHeads = 4;
        s.arch.vocab = 1000;
        s.implementation = Implementation::TorchTune;
        s.fineTune = FineTune::QLoRA;
        s.loraTargets = LoraQ | LoraV;
        s = withImplementationDefaults(s);
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        QCOMPARE(estimate(s).item(ItemId::QloraDequantized), Bytes(held));
    }

    // torchao's NF4 storage (to_nf4 with block 64, scaler block 256): Llama-3.1-8B's 32 layers of
    // seven projections, 6,979,321,856 weights, two 4-bit codes a byte, an int8 scaler per 64, a
    // BF16 factor per 16384, and 34 B a tensor (its scaler mean and 16-entry table); the
    // embeddings, head and norms, 1,050,939,392 parameters, in BF16.
    void torchaoNf4Storage()
    {
        Scenario s = llama31_8b();
        s.implementation = Implementation::TorchTune;
        s.fineTune = FineTune::QLoRA;
        s.loraTargets = LoraQ | LoraV;
        s = withImplementationDefaults(s);
        QVERIFY(!scenarioError(s));
        const qint64 quantised = 32LL * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336);
        QCOMPARE(quantised, qint64(6'979'321'856));
        const qint64 kept = estimate(s).totalParams - quantised;
        QCOMPARE(kept, qint64(1'050'939'392));
        const Bytes nf4 = quantised / 2 + quantised / 64 + 2 * (quantised / 16384) + 34 * 32 * 7;
        QCOMPARE(estimate(s).item(ItemId::Weights), nf4 + 2 * kept);
    }

    // bitsandbytes' quantization constants live in each weight's quant_state, not a parameter:
    // sharded over 4 GPUs, Llama-2-7B's 32 layers of seven projections, 6,476,005,376 weights,
    // keep their 4-bit codes split four ways with the embeddings, head and norms (262,410,240
    // parameters; 16-bit, or FP32 shards under FSDP's mixed precision), and the constants whole
    // on every GPU: with double quantization a
    // byte per block of 64 and an FP32 per 256 blocks; without, an FP32 per block. torchao's
    // NF4Tensor, under torchtune's FSDP, shards its scalers with its codes. Offloading the
    // parameters moves the shards to CPU memory and leaves the constants on the GPU.
    void qloraConstantsStayWholeWhenSharded_data()
    {
        QTest::addColumn<int>("sharding");
        QTest::addColumn<bool>("doubleQuant");
        QTest::addColumn<int>("keptBytes");
        QTest::addColumn<bool>("offloaded");
        QTest::newRow("DeepSpeed ZeRO-3, double-quantized") << int(Sharding::Zero) << true << 2 << false;
        QTest::newRow("DeepSpeed ZeRO-3, FP32 absmax") << int(Sharding::Zero) << false << 2 << false;
        QTest::newRow("FSDP, double-quantized") << int(Sharding::Fsdp) << true << 4 << false;
        QTest::newRow("DeepSpeed ZeRO-3, parameters offloaded: the constants stay")
            << int(Sharding::Zero) << true << 2 << true;
        QTest::newRow("FSDP, parameters offloaded: the constants stay") << int(Sharding::Fsdp) << true << 4 << true;
    }
    void qloraConstantsStayWholeWhenSharded()
    {
        QFETCH(int, sharding);
        QFETCH(bool, doubleQuant);
        QFETCH(int, keptBytes);
        QFETCH(bool, offloaded);
        Scenario s;
        s.precision = Precision::MixedBf16;
        s.implementation = Implementation::HuggingFace;
        s.fineTune = FineTune::QLoRA;
        s.doubleQuant = doubleQuant;
        s.zeroStage = 3;
        s.dataParallel = 4;
        s.sharding = Sharding(sharding);
        if (offloaded)
            s.offload = Offload::OptimizerAndParams;
        QVERIFY(!scenarioError(s));
        const qint64 quantised = 32LL * (4 * 4096 * 4096 + 3 * 4096 * 11008);
        QCOMPARE(quantised, qint64(6'476'005'376));
        const qint64 kept = estimate(s).totalParams - quantised;
        QCOMPARE(kept, qint64(262'410'240));
        const qint64 blocks = quantised / 64;
        const Bytes constants = doubleQuant ? blocks + 4 * ((blocks + 255) / 256) : 4 * blocks;
        const Bytes codesAndKept = quantised / 2 + keptBytes * kept;
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::Weights), offloaded ? constants : (codesAndKept + 3) / 4 + constants);
        QCOMPARE(b.hostItem(ItemId::Weights), offloaded ? (codesAndKept + 3) / 4 : 0);
    }

    // Transformer Engine's FP8 copy and FP8 transpose of every linear weight, kept as module
    // buffers across micro-batches (Megatron passes is_first_microbatch): 2 B per linear-layer
    // parameter on this GPU. Llama-2-7B: 4·4096² + 3·4096·11008 = 202,375,168 per layer, × 32;
    // TP splits every matrix, PP the layers. The model states around it are mixed BF16's: BF16
    // weights, Megatron's FP32 main gradients, the FP32 master and Adam's moments.
    void fp8KeepsWeightCopies_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<qint64>("cache");
        const qint64 perLayer = 4LL * 4096 * 4096 + 3LL * 4096 * 11008;
        QTest::newRow("one GPU") << 1 << 1 << 2 * perLayer * 32;
        QTest::newRow("TP 4") << 4 << 1 << 2 * perLayer / 4 * 32;
        QTest::newRow("PP 4: 8 layers a stage") << 1 << 4 << 2 * perLayer * 8;
    }
    void fp8KeepsWeightCopies()
    {
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(qint64, cache);
        Scenario s; // Architecture{} is Llama-2-7B's shapes
        s.precision = Precision::Fp8;
        s.sharding = Sharding::Megatron;
        s.tensorParallel = tp;
        s.pipelineParallel = pp;
        s.gradAccum = 8;
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const Breakdown fp8 = estimate(s);
        QCOMPARE(fp8.item(ItemId::Fp8WeightCache), Bytes(cache));
        s.precision = Precision::MixedBf16;
        const Breakdown bf16 = estimate(s);
        QVERIFY(!bf16.has(ItemId::Fp8WeightCache));
        for (const ItemId id : {ItemId::Weights, ItemId::Gradients, ItemId::MasterWeights, ItemId::OptimizerMoments})
            QCOMPARE(fp8.item(id), bf16.item(id));
    }

    void adafactorIsFactored()
    {
        Scenario adam = withParams(0);
        Scenario factored = adam;
        factored.optimizer = Optimizer::Adafactor;
        const Bytes adamMoments = estimate(adam).item(ItemId::OptimizerMoments);
        const Bytes adafactor = estimate(factored).item(ItemId::OptimizerMoments);
        QVERIFY(adafactor > 0);
        QVERIFY2(adafactor * 100 < adamMoments, "row/column factors are a tiny fraction of Adam's m and v");
        // Under DeepSpeed's ZeRO it steps 1-D flat partitions: a whole second moment, 4 B a
        // parameter, half of Adam's m and v (FSDP keeps each tensor's shape and its factors).
        for (const Sharding sharding : {Sharding::Zero, Sharding::Fsdp}) {
            Scenario sharded = factored;
            sharded.zeroStage = 3;
            sharded.sharding = sharding;
            sharded.dataParallel = 8;
            Scenario shardedAdam = sharded;
            shardedAdam.optimizer = Optimizer::AdamW;
            const Bytes shardedMoments = estimate(sharded).item(ItemId::OptimizerMoments);
            const Bytes shardedAdamMoments = estimate(shardedAdam).item(ItemId::OptimizerMoments);
            if (sharding == Sharding::Zero)
                QCOMPARE(2 * shardedMoments, shardedAdamMoments);
            else
                QVERIFY(shardedMoments * 100 < shardedAdamMoments);
        }
    }

    // PEFT prints "trainable params: 4,194,304" for Llama-2-7B with r = 8 on q and v; on the LM
    // head too its lora_A (h → r) and lora_B (r → vocab) add r·(4096 + 32000). Everything that
    // trains follows: gradients and Adam's moments, under ZeRO-2 sharded over its GPUs. PEFT 0.12
    // and later keep the adapters of a model trained in BF16 in FP32 (autocast_adapter_dtype): 4 B
    // a weight, gradient and moment, the frozen base still 2 B a weight.
    void loraOnTheHead_data()
    {
        QTest::addColumn<QString>("targets");
        QTest::addColumn<qint64>("trainable");
        QTest::addColumn<bool>("adaptersFp32");
        QTest::newRow("q,v") << "q,v" << qint64(4'194'304) << false;
        QTest::newRow("q,v and the head") << "q,v,head" << qint64(4'194'304 + 8 * (4096 + 32000)) << false;
        QTest::newRow("the head alone") << "head" << qint64(8 * (4096 + 32000)) << false;
        QTest::newRow("q,v, FP32 adapters (PEFT 0.12 and later)") << "q,v" << qint64(4'194'304) << true;
    }
    void loraOnTheHead()
    {
        QFETCH(QString, targets);
        QFETCH(qint64, trainable);
        QFETCH(bool, adaptersFp32);
        Scenario s; // Llama-2-7B's shapes
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention::Sdpa;
        s.fineTune = FineTune::LoRA;
        s.loraRank = 8;
        s.loraTargets = *parseLoraTargets(targets.toStdString());
        s.precision = Precision::Bf16;
        s.adaptersFp32 = adaptersFp32;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        const Bytes bytes = adaptersFp32 ? 4 : 2;
        QCOMPARE(b.trainableParams, trainable);
        QCOMPARE(b.item(ItemId::LoraAdapters), bytes * trainable);
        QCOMPARE(b.item(ItemId::Gradients), bytes * trainable);
        QCOMPARE(b.item(ItemId::OptimizerMoments), 2 * bytes * trainable);
        QCOMPARE(b.item(ItemId::Weights), Bytes(2) * b.totalParams); // the base, without the adapters
        s.zeroStage = 2;
        s.dataParallel = 4;
        QCOMPARE(estimate(s).item(ItemId::Gradients), bytes * trainable / 4);
    }

    // PEFT prints "trainable params: 39,976,960" for Llama-2-7B with r = 16 on all linear layers.
    void loraTrainableCount()
    {
        Scenario s;
        s.fineTune = FineTune::LoRA;
        s.loraRank = 16;
        s.loraTargets = LoraAll;
        const Breakdown b = estimate(s);
        QCOMPARE(b.trainableParams, qint64(39'976'960));
        // Frozen base weights: no gradients and no optimizer states for them.
        QCOMPARE(b.item(ItemId::Gradients), Bytes(2) * 39'976'960);
        QCOMPARE(b.item(ItemId::MasterWeights), Bytes(4) * 39'976'960);
        QCOMPARE(b.item(ItemId::OptimizerMoments), Bytes(8) * 39'976'960);
    }

    void qloraStoresBaseInFourBits()
    {
        Scenario lora;
        lora.fineTune = FineTune::LoRA;
        Scenario qlora = lora;
        qlora.fineTune = FineTune::QLoRA;
        const double loraWeights = static_cast<double>(estimate(lora).item(ItemId::Weights));
        const double qloraWeights = static_cast<double>(estimate(qlora).item(ItemId::Weights));
        // Layer matrices at 4.127 bits instead of 16; embeddings stay 16-bit: about 0.3× overall.
        QVERIFY(qloraWeights < 0.35 * loraWeights);
        QVERIFY(qloraWeights > 0.25 * loraWeights);
        QVERIFY(estimate(qlora).total < estimate(lora).total); // never the gpu_poor bug
    }

    // One Llama-2-7B layer under QLoRA, each of its seven matrices stored as bitsandbytes lays
    // out a 4-bit tensor (functional.py quantize_4bit, blocksize 64): packed 4-bit weights, and an
    // FP32 absmax per block, or with double quantization an 8-bit absmax per block plus an FP32
    // absmax per 256 of those; the embedding, the head and the norms stay 16-bit.
    void nf4Layout_data()
    {
        QTest::addColumn<bool>("doubleQuant");
        QTest::newRow("double quantization (QLoRA paper, lit-gpt's bnb.nf4-dq)") << true;
        QTest::newRow("FP32 absmax per block (BitsAndBytesConfig default)") << false;
    }
    void nf4Layout()
    {
        QFETCH(bool, doubleQuant);
        Scenario s;
        s.arch.layers = 1;
        s.fineTune = FineTune::QLoRA;
        s.doubleQuant = doubleQuant;
        const std::int64_t h = s.arch.hidden, f = s.arch.ffn;
        QCOMPARE(h, 4096);
        QCOMPARE(f, 11008);
        Bytes expected = 0;
        for (const std::int64_t weights : {h * h, h * h, h * h, h * h, h * f, h * f, h * f}) {
            const std::int64_t blocks = weights / 64;
            expected += weights / 2 + (doubleQuant ? blocks + 4 * (blocks / 256) : 4 * blocks);
        }
        const std::int64_t sixteenBit = 2 * s.arch.vocab * h + 3 * h; // embedding, head, three norms
        expected += 2 * sixteenBit;
        QCOMPARE(estimate(s).item(ItemId::Weights), expected);
        // 4.127 and 4.5 bits per quantized weight
        const double bits = 8.0 * double(expected - 2 * sixteenBit) / double(4 * h * h + 3 * h * f);
        QVERIFY(qAbs(bits - (doubleQuant ? 4.127 : 4.5)) < 0.001);
    }

    // bitsandbytes' paged optimizers (optim/optimizer.py, get_state_buffer) put the states of a
    // tensor with 1e5 elements or more in CUDA managed memory and keep smaller ones' on the GPU;
    // the 32-bit ones keep FP32 states even for BF16 parameters. Counted here tensor by tensor
    // from the shapes.
    void pagedOptimizerPagesLargeTensors_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("onGpu"); // parameters whose states stay on the GPU
        QTest::addColumn<qint64>("paged");
        QTest::addColumn<int>("bytesPerState");
        Scenario full; // Llama-2-7B: every matrix is paged, the 65 RMSNorm weights of 4096 are not
        full.precision = Precision::Bf16;
        full.optimizer = Optimizer::AdamW8bit;
        full.pagedOptimizer = true;
        QTest::newRow("Llama-2-7B, full, paged 8-bit AdamW")
            << full << qint64(65 * 4096) << qint64(6'738'415'616 - 65 * 4096) << 1;
        Scenario qlora = full; // r = 64: every lora_A (64 × 4096 or 64 × 11008) and lora_B is paged
        qlora.optimizer = Optimizer::AdamW;
        qlora.fineTune = FineTune::QLoRA;
        qlora.loraRank = 64;
        qlora.loraTargets = LoraAll;
        const qint64 r64 = 32 * 64 * (4 * (4096 + 4096) + 2 * (4096 + 11008) + (11008 + 4096));
        QTest::newRow("Llama-2-7B, QLoRA r = 64 on every projection, paged AdamW") << qlora << qint64(0) << r64 << 4;
        Scenario lora = qlora; // r = 8 on q and v: 8 × 4096 = 32,768 elements each, below 1e5
        lora.fineTune = FineTune::LoRA;
        lora.loraRank = 8;
        lora.loraTargets = LoraQ | LoraV;
        QTest::newRow("Llama-2-7B, LoRA r = 8 on q and v, paged AdamW") << lora << qint64(4'194'304) << qint64(0) << 4;
        Scenario gpt2; // GPT-2 small: the biases and LayerNorms stay, the positions (1024 × 768) page
        gpt2.arch = gpt2Small();
        gpt2.implementation = Implementation::HuggingFace;
        gpt2.precision = Precision::Fp32;
        gpt2.pagedOptimizer = true;
        const qint64 perLayer = 2 * 2 * 768 + 3 * 768 + 768 + 3072 + 768; // norms, q/k/v, o, up, down biases
        const qint64 unpaged = 12 * perLayer + 2 * 768;                   // and ln_f
        QTest::newRow("GPT-2 small, full, paged AdamW") << gpt2 << unpaged << qint64(124'439'808) - unpaged << 4;
    }
    void pagedOptimizerPagesLargeTensors()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, onGpu);
        QFETCH(qint64, paged);
        QFETCH(int, bytesPerState);
        QVERIFY(!scenarioError(scenario));
        const Breakdown b = estimate(scenario);
        QCOMPARE(b.trainableParams, onGpu + paged);
        // 8-bit states carry an FP32 absmax per 256 elements of each, kept on the GPU (torch.zeros).
        const Bytes absmax = bytesPerState == 1 ? 2 * 4 * ((onGpu + paged + 255) / 256) : 0;
        QCOMPARE(b.item(ItemId::OptimizerMoments), Bytes(2) * bytesPerState * onGpu + absmax);
        QCOMPARE(b.hostItem(ItemId::PagedOptimizerStates), Bytes(2) * bytesPerState * paged);
        QCOMPARE(b.item(ItemId::PagedOptimizerStates), Bytes(0)); // off the GPU's account
        QCOMPARE(zeroOffloadHost(b), Bytes(0));
        // Without paging the same states are all on the GPU (in BF16 only bitsandbytes keeps FP32).
        Scenario unpagedRun = scenario;
        unpagedRun.pagedOptimizer = false;
        if (scenario.precision != Precision::Bf16 || scenario.optimizer == Optimizer::AdamW8bit)
            QCOMPARE(estimate(unpagedRun).item(ItemId::OptimizerMoments),
                     Bytes(2) * bytesPerState * (onGpu + paged) + absmax);
    }

    // torch.optim.AdamW's step (torch/optim/adamw.py): foreach builds sqrt(v) for every tensor
    // at once ("~ sizeof(params) more peak memory than the for-loop version", PyTorch's docs), and
    // before 2.1 sqrt(v) + eps beside it, the for-loop version for one tensor at a time (the
    // largest counts), a fused kernel nothing. Under auto, Megatron's and DeepSpeed's fused Adam,
    // else PyTorch's default, foreach.
    void optimizerStepIntermediate_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("expected");
        Scenario hf; // Llama-2-7B under autocast: FP32 moments
        hf.implementation = Implementation::HuggingFace;
        hf.attention = Attention::Sdpa;
        hf.precision = Precision::MixedBf16;
        hf.ampStyle = AmpStyle::Autocast;
        QTest::newRow("Hugging Face, auto: the Trainer's adamw_torch_fused") << hf << qint64(0);
        // Foreach steps the Trainer's weight-decay group, then its biases and norms: 64 layer norms
        // and the final one, 4096 each, step after the weights.
        const qint64 weights = 6'738'415'616LL - 65 * 4096;
        Scenario foreach = hf;
        foreach
            .optimizerImpl = OptimizerImpl::Foreach;
        QTest::newRow("foreach: 4 B for every weight") << foreach << 4 * weights;
        Scenario foreachBefore21 = foreach; // torch._foreach_add: √v + eps beside √v
        foreachBefore21.pytorch = *parsePyTorchRelease("2.0");
        QTest::newRow("foreach on PyTorch 2.0: √v and √v + eps, 2 × 4 B for every weight")
            << foreachBefore21 << 2 * 4 * weights;
        Scenario foreach21 = foreach;
        foreach21.pytorch = *parsePyTorchRelease("2.1");
        QTest::newRow("foreach on PyTorch 2.1: in place again") << foreach21 << 4 * weights;
        Scenario foreachOneGroup = foreach; // torchtune in FP32: every parameter in one group
        foreachOneGroup.implementation = Implementation::TorchTune;
        foreachOneGroup.precision = Precision::Fp32;
        foreachOneGroup.ampStyle = AmpStyle::MasterCopy;
        QTest::newRow("foreach in one group: 4 B for every parameter") << foreachOneGroup << qint64(4) * 6'738'415'616;
        // The for-loop holds the previous tensor's denominator beside the current one's √v and
        // √v / c. In the Trainer's weight-decay group the head follows the last down_proj.
        const qint64 embedding = 32'000LL * 4096, mlpMatrix = 11'008LL * 4096;
        Scenario loop = hf;
        loop.optimizerImpl = OptimizerImpl::ForLoop;
        QTest::newRow("for-loop: down_proj's denominator beside 2 of the 32000 × 4096 head")
            << loop << 4 * (mlpMatrix + 2 * embedding);
        Scenario transformersLoop = loop; // denom = exp_avg_sq.sqrt().add_(eps): one of the current
        transformersLoop.optimizerImpl = OptimizerImpl::TransformersLoop;
        QTest::newRow("transformers' AdamW: down_proj's denominator beside the head's")
            << transformersLoop << 4 * (mlpMatrix + embedding);
        Scenario oneGroup = loop; // torchtune in FP32: one group, the final norm before the head
        oneGroup.implementation = Implementation::TorchTune;
        oneGroup.precision = Precision::Fp32;
        oneGroup.ampStyle = AmpStyle::MasterCopy;
        QTest::newRow("for-loop in one group: the final norm's denominator beside 2 of the head")
            << oneGroup << 4 * (4096 + 2 * embedding);
        Scenario headFirst = oneGroup; // lit-gpt registers lm_head before the embedding; BF16 states
        headFirst.implementation = Implementation::LitGpt;
        headFirst.precision = Precision::Bf16;
        headFirst.attention = Attention::Flash;
        QTest::newRow("lit-gpt, for-loop: the head's denominator beside 2 of the embedding")
            << headFirst << 2 * (embedding + 2 * embedding);
        Scenario flatPartition = loop; // DeepSpeed ZeRO-2: the weight-decay group's flat partition
        flatPartition.zeroStage = 2;
        flatPartition.sharding = Sharding::Zero;
        flatPartition.dataParallel = 8;
        const qint64 decayWeights = 6'738'415'616LL - 32 * 2 * 4096 - 4096;
        QTest::newRow("ZeRO-2 over 8, for-loop: 2 of the weights' flat partition")
            << flatPartition << 4 * 2 * ((decayWeights + 7) / 8);
        Scenario perTensorShards = loop; // FSDP2: each parameter's shard
        perTensorShards.zeroStage = 3;
        perTensorShards.sharding = Sharding::Fsdp;
        perTensorShards.dataParallel = 8;
        QTest::newRow("FSDP over 8, for-loop: each tensor's shard")
            << perTensorShards << 4 * ((mlpMatrix + 7) / 8 + 2 * ((embedding + 7) / 8));
        Scenario fsdp = foreach; // FSDP2 steps on each GPU's shards
        fsdp.zeroStage = 3;
        fsdp.sharding = Sharding::Fsdp;
        fsdp.dataParallel = 8;
        QTest::newRow("FSDP over 8, foreach over the shards")
            << fsdp << qint64(4) * ((6'738'415'616 + 7) / 8 - (65 * 4096 + 7) / 8);
        Scenario zero3 = fsdp; // DeepSpeed ZeRO-3: one call per sub-group of 1e9 elements or more
        zero3.sharding = Sharding::Zero;
        zero3.dataParallel = 2;
        // Halves: a layer holds 4 × 4096² / 2 + 3 × 11008 × 4096 / 2 = 101187584. The first sub-group
        // closes at layer 9's v_proj (the embedding and 9 layers fall short); the second, the
        // largest, holds layer 9's o_proj and MLP, layers 10 to 18 and layer 19's q_proj and k_proj.
        const qint64 layerHalf = 4 * 4096LL * 4096 / 2 + 3 * mlpMatrix / 2;
        QTest::newRow("ZeRO-3 over 2, foreach: the largest sub-group")
            << zero3 << 4 * (4096LL * 4096 / 2 + 3 * mlpMatrix / 2 + 9 * layerHalf + 2 * 4096LL * 4096 / 2);
        Scenario megatron; // the article's scenario, Megatron-style: FusedAdam
        QTest::newRow("Megatron, auto: FusedAdam") << megatron << qint64(0);
        Scenario litgpt; // finetune/lora.py: torch.optim.AdamW, foreach; LoRA r = 8 on q and v, BF16 states
        litgpt.implementation = Implementation::LitGpt;
        litgpt.precision = Precision::Bf16;
        litgpt.attention = Attention::Flash;
        litgpt.fineTune = FineTune::LoRA;
        litgpt.loraTargets = LoraQ | LoraV;
        litgpt.loraRank = 8;
        QTest::newRow("lit-gpt, auto: foreach over the adapters") << litgpt << qint64(2) * 4'194'304;
        Scenario lora = hf; // r = 8 on q and v: the largest adapter tensor is 8 × 4096
        lora.fineTune = FineTune::LoRA;
        lora.loraTargets = LoraQ | LoraV;
        lora.loraRank = 8;
        lora.optimizerImpl = OptimizerImpl::ForLoop;
        QTest::newRow("LoRA, for-loop: lora_A's denominator beside 2 of lora_B")
            << lora << qint64(4) * (8 * 4096 + 2 * 4096 * 8);
        Scenario eightBit = foreach;
        eightBit.optimizer = Optimizer::AdamW8bit;
        QTest::newRow("bitsandbytes' 8-bit AdamW: its own kernel") << eightBit << qint64(0);
        // Adafactor (FP32 gradients under autocast): the previous tensor's update beside the current
        // one's grad² and update; the head follows down_proj in the Trainer's weight-decay group.
        Scenario adafactor = hf;
        adafactor.optimizer = Optimizer::Adafactor;
        QTest::newRow("Hugging Face's Adafactor: down_proj's update beside 2 FP32 tensors of the head")
            << adafactor << 4 * (mlpMatrix + 2 * embedding);
        Scenario adafactorBf16 = adafactor; // 16-bit gradients and weights are copied to FP32 first
        adafactorBf16.precision = Precision::Bf16;
        adafactorBf16.ampStyle = AmpStyle::MasterCopy;
        QTest::newRow("Hugging Face's Adafactor in pure BF16: beside 4 of the head")
            << adafactorBf16 << 4 * (mlpMatrix + 4 * embedding);
        Scenario adafactorInBackward = adafactorBf16; // torchtune's optimizer in backward: each tensor alone
        adafactorInBackward.implementation = Implementation::TorchTune;
        adafactorInBackward.optimizerInBackward = true;
        QTest::newRow("Adafactor in backward, BF16: 4 FP32 tensors of the largest")
            << adafactorInBackward << 4 * 4 * embedding;
    }
    void optimizerStepIntermediate()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, expected);
        QVERIFY(!scenarioError(scenario));
        QCOMPARE(estimate(scenario).item(ItemId::OptimizerStepBuffer), Bytes(expected));
    }

    // tests/data/optimizer-step.yaml, what the profiler saw PyTorch's AdamW hold while it stepped
    // a Hugging Face Llama's FP32 parameters (written by tests/oracle/generate.py, on a PyTorch
    // before 2.1): foreach, and the for-loop in one param group (torchtune's) and in the Trainer's
    // two; the estimate of the same model, on that release.
    void stepIsWhatTheProfilerHolds_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("held");
        for (const YAML::Node &row : YAML::LoadFile(VL_TEST_DATA "/optimizer-step.yaml")) {
            Scenario s;
            s.arch.hidden = row["hidden"].as<std::int64_t>();
            s.arch.heads = row["heads"].as<std::int64_t>();
            s.arch.kvHeads = row["kv_heads"].as<std::int64_t>();
            s.arch.ffn = row["ffn"].as<std::int64_t>();
            s.arch.vocab = row["vocab"].as<std::int64_t>();
            s.arch.layers = row["layers"].as<std::int64_t>();
            s.arch.mlp = MlpKind::SwiGlu;
            s.arch.norm = NormKind::RmsNorm;
            s.arch.modeling = Modeling::Llama;
            s.arch.tiedEmbeddings = false;
            s.implementation = Implementation::HuggingFace;
            s.attention = Attention::Sdpa;
            s.precision = Precision::Fp32;
            s.pytorch = *parsePyTorchRelease("1.13");
            const std::string name = "hidden " + row["hidden"].as<std::string>() + ", "
                + row["layers"].as<std::string>() + " layers";
            for (const OptimizerImpl impl : {OptimizerImpl::Foreach, OptimizerImpl::ForLoop}) {
                const bool foreach = impl == OptimizerImpl::Foreach;
                Scenario trainer = s;
                trainer.optimizerImpl = impl;
                QTest::newRow(
                    ((foreach ? "foreach" : "for-loop") + std::string(" in the Trainer's groups, ") + name).c_str())
                    << trainer
                    << row[foreach ? "foreach_trainer_groups_held" : "for_loop_trainer_groups_held"].as<qint64>();
                Scenario oneGroup = trainer;
                oneGroup.implementation = Implementation::TorchTune;
                QTest::newRow(
                    ((foreach ? "foreach" : "for-loop") + std::string(" in torchtune's one group, ") + name).c_str())
                    << oneGroup << row[foreach ? "foreach_held" : "for_loop_held"].as<qint64>();
            }
        }
    }
    void stepIsWhatTheProfilerHolds()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, held);
        QVERIFY2(!scenarioError(scenario), scenarioError(scenario) ? scenarioError(scenario)->message.c_str() : "");
        QCOMPARE(estimate(scenario).item(ItemId::OptimizerStepBuffer), Bytes(held));
    }

    // torchtune's optimizer in backward (training/memory.py, register_optim_in_bwd_hooks): one
    // parameter's gradient at a time, the largest; its optimizer steps one tensor too.
    void optimizerInBackward_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("gradients");
        QTest::addColumn<qint64>("stepBuffer");
        Scenario full; // Llama-3.1-8B in BF16: the 128256 × 4096 embedding (and head) is the largest
        full.arch.kvHeads = 8;
        full.arch.ffn = 14336;
        full.arch.vocab = 128'256;
        full.implementation = Implementation::TorchTitan;
        full.attention = Attention::Sdpa;
        full.precision = Precision::Bf16;
        full.optimizerImpl = OptimizerImpl::Foreach;
        full.optimizerInBackward = true;
        const qint64 largest = 128'256LL * 4096;
        QTest::newRow("full, BF16, foreach AdamW per parameter") << full << 2 * largest << 2 * largest;
        Scenario before21 = full; // foreach over one tensor, √v + eps out of place
        before21.pytorch = *parsePyTorchRelease("2.0");
        QTest::newRow("full, BF16, foreach AdamW per parameter, PyTorch 2.0")
            << before21 << 2 * largest << 2 * 2 * largest;
        Scenario loop = full; // alone in its optimizer: √v and √v / c, nothing before it
        loop.optimizerImpl = OptimizerImpl::ForLoop;
        QTest::newRow("full, BF16, for-loop AdamW per parameter") << loop << 2 * largest << 2 * 2 * largest;
        Scenario paged = full; // torchtune's 8B_full_single_device: PagedAdamW8bit, in backward
        paged.optimizer = Optimizer::AdamW8bit;
        paged.pagedOptimizer = true;
        QTest::newRow("full, paged 8-bit AdamW in backward") << paged << 2 * largest << qint64(0);
    }
    void optimizerInBackward()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, gradients);
        QFETCH(qint64, stepBuffer);
        QVERIFY2(!scenarioError(scenario), scenarioError(scenario) ? scenarioError(scenario)->message.c_str() : "");
        const Breakdown b = estimate(scenario);
        QCOMPARE(b.item(ItemId::Gradients), Bytes(gradients));
        QCOMPARE(b.item(ItemId::OptimizerStepBuffer), Bytes(stepBuffer));
        Scenario afterward = scenario; // the same run with the step after backward: every gradient
        afterward.optimizerInBackward = false;
        QCOMPARE(estimate(afterward).item(ItemId::Gradients), Bytes(2) * b.trainableParams);
    }

    // bitsandbytes' AdamW8bit (optim/optimizer.py, Optimizer2State.init_state): a tensor under
    // min_8bit_size, 4096 elements, keeps FP32 m and v; a larger one 8-bit m and v with an FP32
    // absmax per block of 256 elements for each. Counted tensor by tensor from the shapes.
    void eightBitAdamLayout_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("trainable");
        QTest::addColumn<qint64>("fp32States"); // parameters in tensors under 4096 elements
        Scenario llama;                         // every Llama-2-7B tensor has 4096 elements or more
        llama.optimizer = Optimizer::AdamW8bit;
        QTest::newRow("Llama-2-7B: every tensor 8-bit") << llama << qint64(6'738'415'616) << qint64(0);
        Scenario bert = llama;
        bert.arch = bertLarge();
        bert.implementation = Implementation::HuggingFace;
        bert.attention = Attention::Eager;
        // per layer: two LayerNorms' weights and biases, the q, k, v, o and output biases (1024
        // each; the intermediate bias has 4096); the token types (2 × 1024), the embeddings'
        // LayerNorm, the pooler's bias, the classifier's weight (2 × 1024) and bias
        const qint64 small = 24 * (4 * 1024 + 5 * 1024) + 2 * 1024 + 2 * 1024 + 1024 + 2 * 1024 + 2;
        QTest::newRow("BERT-large for sequence classification: biases and norms in FP32")
            << bert << qint64(335'143'938) << small;
    }
    void eightBitAdamLayout()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, trainable);
        QFETCH(qint64, fp32States);
        QVERIFY(!scenarioError(scenario));
        const Breakdown b = estimate(scenario);
        QCOMPARE(b.trainableParams, trainable);
        const qint64 eightBit = trainable - fp32States;
        QCOMPARE(b.item(ItemId::OptimizerMoments), Bytes(2) * eightBit + 8 * fp32States + 8 * ((eightBit + 255) / 256));
    }

    // ZeRO-Offload over 8 GPUs, 7e9 parameters, mixed precision. In CPU memory, per GPU, what
    // DeepSpeed allocates there for its CPU Adam, each per parameter ÷ 8: the FP32 master and
    // moments (12 B) and the FP32 gradients (4 B); at stages 1 and 2 (stage_1_and_2.py) also the
    // 16-bit updated partition (2 B), the pinned staging buffer of the largest parameter (the
    // 32000 × 4096 embedding, 16-bit) and, with accumulation, 16-bit accumulated gradients (2 B);
    // at stage 3 (stage3.py) the 16-bit gradient partitions themselves (2 B). On the GPU the
    // master copy, the moments and, from stage 2, the partitioned gradients are gone; stages 1
    // and 2 stage gradients through a GPU buffer of the largest parameter.
    void offloadMovesOptimizerToHost_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("gradAccum");
        QTest::addColumn<qint64>("hostBytesPerParam");
        QTest::addColumn<bool>("stagingBuffers");
        QTest::addColumn<bool>("gradientsLeaveTheGpu");
        QTest::newRow("ZeRO-1") << 1 << 1 << qint64(12 + 4 + 2) << true << false;
        QTest::newRow("ZeRO-2") << 2 << 1 << qint64(12 + 4 + 2) << true << true;
        QTest::newRow("ZeRO-2, 4 micro-batches a step") << 2 << 4 << qint64(12 + 4 + 2 + 2) << true << true;
        QTest::newRow("ZeRO-3") << 3 << 1 << qint64(12 + 4 + 2) << false << true;
        QTest::newRow("ZeRO-3, 4 micro-batches a step") << 3 << 4 << qint64(12 + 4 + 2) << false << true;
    }
    void offloadMovesOptimizerToHost()
    {
        QFETCH(int, stage);
        QFETCH(int, gradAccum);
        QFETCH(qint64, hostBytesPerParam);
        QFETCH(bool, stagingBuffers);
        QFETCH(bool, gradientsLeaveTheGpu);
        Scenario s = withParams(7'000'000'000);
        s.zeroStage = stage;
        s.dataParallel = 8;
        s.gradAccum = gradAccum;
        s.overhead.measure = Measure::Allocated; // the tensors alone: the reserve follows them
        const Breakdown onGpu = estimate(s);
        s.offload = Offload::Optimizer;
        const Breakdown offloaded = estimate(s);
        const Bytes staging = stagingBuffers ? Bytes(32000) * 4096 * 2 : 0;
        QCOMPARE(offloaded.host, Bytes(7'000'000'000) / 8 * hostBytesPerParam + staging);
        // Item by item: the FP32 gradients the CPU optimizer steps with, 4 B per parameter ÷ 8.
        QCOMPARE(offloaded.hostItem(ItemId::OffloadFp32Gradients), Bytes(7'000'000'000) / 8 * 4);
        QCOMPARE(offloaded.hostItem(ItemId::MasterWeights) + offloaded.hostItem(ItemId::OptimizerMoments),
                 Bytes(7'000'000'000) / 8 * 12);
        QCOMPARE(offloaded.item(ItemId::MasterWeights) + offloaded.item(ItemId::OptimizerMoments), Bytes(0));
        QCOMPARE(offloaded.item(ItemId::Gradients), gradientsLeaveTheGpu ? 0 : onGpu.item(ItemId::Gradients));
        QCOMPARE(onGpu.has(ItemId::OffloadGradientBuffer), false);
        QCOMPARE(offloaded.item(ItemId::OffloadGradientBuffer), staging);
        // On the GPU the step also had its FP32 gradients and the 16-bit copy they were made from.
        QCOMPARE(offloaded.has(ItemId::ZeroFp32Gradients) || offloaded.has(ItemId::OptimizerStepBuffer), false);
        QCOMPARE(offloaded.total,
                 onGpu.total - onGpu.item(ItemId::MasterWeights) - onGpu.item(ItemId::OptimizerMoments)
                     - onGpu.item(ItemId::ZeroFp32Gradients) - onGpu.item(ItemId::OptimizerStepBuffer)
                     - (onGpu.item(ItemId::Gradients) - offloaded.item(ItemId::Gradients)) + staging);
    }

    // Where ZeRO-Offload's GPU staging buffer exists: DeepSpeed's stages 1 and 2 with a trainable
    // base (its size follows the largest trainable parameter, split by tensor parallelism).
    void offloadGradientBuffer_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("fsdp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("fineTune");
        QTest::addColumn<qint64>("buffer");
        const qint64 embedding = qint64(32000) * 4096 * 2;
        QTest::newRow("ZeRO-1 offload") << 1 << false << 1 << int(FineTune::Full) << embedding;
        QTest::newRow("ZeRO-2 offload, TP 2: half the embedding")
            << 2 << false << 2 << int(FineTune::Full) << embedding / 2;
        QTest::newRow("ZeRO-2 offload, freeze: the head still trains")
            << 2 << false << 1 << int(FineTune::Freeze) << embedding;
        QTest::newRow("ZeRO-3 offload: stage 3 has other buffers")
            << 3 << false << 1 << int(FineTune::Full) << qint64(0);
        QTest::newRow("FSDP offload: not DeepSpeed") << 3 << true << 1 << int(FineTune::Full) << qint64(0);
    }
    void offloadGradientBuffer()
    {
        QFETCH(int, stage);
        QFETCH(bool, fsdp);
        QFETCH(int, tp);
        QFETCH(int, fineTune);
        QFETCH(qint64, buffer);
        Scenario s = withParams(7'000'000'000);
        s.zeroStage = stage;
        s.sharding = fsdp ? Sharding::Fsdp : Sharding::Zero;
        s.dataParallel = 8;
        s.tensorParallel = tp;
        s.fineTune = FineTune(fineTune);
        s.offload = Offload::Optimizer;
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::OffloadGradientBuffer), Bytes(buffer));
        // Allocated with the optimizer, it is there all step: at the start and at the optimizer step.
        const StepTimeline t = stepTimeline(b);
        QVERIFY(t.points.front().part(Component::Gradients) >= Bytes(buffer));
    }

    void tensorAndPipelineParallelSplitTheModel()
    {
        Scenario s;
        const Bytes whole = estimate(s).item(ItemId::Weights);
        s.tensorParallel = 8;
        const Bytes tp = estimate(s).item(ItemId::Weights);
        QVERIFY(tp * 8 >= whole && tp * 7 < whole); // norms stay replicated, so a little over 1/8
        s.tensorParallel = 1;
        s.pipelineParallel = 4;
        const Bytes pp = estimate(s).item(ItemId::Weights);
        QVERIFY(pp * 4 > whole / 2 && pp < whole / 3);
    }
};

QTEST_APPLESS_MAIN(TestModelStates)
#include "tst_modelstates.moc"
