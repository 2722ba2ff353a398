// Properties every estimate must keep, over a grid of very different scenarios.

#include "core/advice.h"
#include "core/edits.h"
#include "core/estimate.h"
#include "core/savedtensors.h"
#include "core/timeline.h"

#include <QTest>

#include <map>
#include <random>
#include <set>

using namespace vl;

namespace {

QList<Scenario> variedScenarios()
{
    QList<Scenario> list;
    for (Precision precision : {Precision::Fp32, Precision::MixedBf16, Precision::Bf16})
        for (Recompute recompute : {Recompute::None, Recompute::Selective, Recompute::Full})
            for (FineTune fineTune : {FineTune::Full, FineTune::LoRA, FineTune::QLoRA, FineTune::Freeze})
                for (int zero : {0, 1, 2, 3}) {
                    Scenario s;
                    s.arch.kvHeads = 8;
                    s.precision = precision;
                    s.recompute = recompute;
                    s.fineTune = fineTune;
                    s.zeroStage = zero;
                    s.dataParallel = 8;
                    s.tensorParallel = zero == 3 ? 2 : 1;
                    s.pipelineParallel = zero == 1 ? 2 : 1;
                    s.gradAccum = 4;
                    s.attention = recompute != Recompute::None ? Attention::Flash : Attention::Eager;
                    s.dropout = zero == 2;
                    s.overhead.measure = fineTune == FineTune::Full ? Measure::NvidiaSmi : Measure::Allocated;
                    list.append(s);
                }
    return list;
}

void addRows()
{
    QTest::addColumn<int>("index");
    const auto list = variedScenarios();
    for (int i = 0; i < list.size(); ++i) {
        const Scenario &s = list[i];
        const QString name = QStringLiteral("%1 %2 %3 zero%4")
                                 .arg(QString::fromUtf8(toString(s.precision).data()),
                                      QString::fromUtf8(toString(s.recompute).data()),
                                      QString::fromUtf8(toString(s.fineTune).data()))
                                 .arg(s.zeroStage);
        QTest::newRow(qPrintable(name)) << i;
    }
}

// Random valid scenarios for one implementation: shapes, batch, sequence, precision, mixed
// precision style, attention, loss, fine-tuning and recomputation drawn with a fixed seed, then
// given what the implementation requires (the core edit rule); invalid draws are skipped.
QList<Scenario> randomScenarios(Implementation implementation, Modeling modeling, int count)
{
    std::mt19937 random(2026 + int(implementation) * 7 + int(modeling));
    const auto pick = [&](auto... options) {
        const std::array values{options...};
        return values[std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(random)];
    };
    QList<Scenario> list;
    for (int attempt = 0; list.size() < count && attempt < 50 * count; ++attempt) {
        Scenario s;
        Architecture &a = s.arch;
        a.modeling = modeling;
        a.heads = pick(8, 12, 16, 32);
        a.hidden = a.heads * pick(64, 80, 128);
        a.kvHeads = modeling == Modeling::Llama ? pick(1, 2, 4, 8) : a.heads;
        a.ffn = a.hidden * pick(2, 3, 4) + pick(0, 64, 176);
        a.vocab = pick(1000, 32000, 128256);
        a.layers = pick(2, 12, 32);
        if (modeling != Modeling::Llama) {
            a.mlp = MlpKind::Gelu;
            a.norm = NormKind::LayerNorm;
            a.linearBias = true;
            a.learnedPositions = 2048;
            s.dropout = pick(false, true);
        }
        const bool moeCode = implementation == Implementation::HuggingFace
            || implementation == Implementation::Megatron;
        if (modeling == Modeling::Llama && moeCode) { // a mixture of experts now and then, Mixtral's shape
            a.experts = pick(1, 1, 1, 8);
            a.expertsPerToken = 2;
            s.expertLoad = pick(ExpertLoad::Balanced, ExpertLoad::EveryToken);
        }
        s.microBatch = pick(1, 2, 8);
        s.sequence = pick(128, 1024, 4096);
        s.precision = pick(Precision::Fp32, Precision::MixedBf16, Precision::MixedFp16, Precision::Bf16);
        s.ampStyle = pick(AmpStyle::MasterCopy, AmpStyle::Autocast);
        s.attention = pick(Attention::Eager, Attention::Sdpa, Attention::Flash);
        s.loss = pick(Loss::Standard, Loss::Chunked);
        s.fineTune = pick(FineTune::Full, FineTune::LoRA, FineTune::QLoRA, FineTune::Freeze);
        s.loraTargets = pick(unsigned(LoraQ | LoraV), unsigned(LoraAll), unsigned(LoraQ | LoraK | LoraV));
        s.loraDropout = pick(false, true);
        s.recompute = pick(Recompute::None, Recompute::Full);
        s.zeroStage = pick(0, 1, 2, 3);
        s.dataParallel = pick(1, 8);
        s.sharding = pick(Sharding::Zero, Sharding::Fsdp);
        s.overhead.measure = pick(Measure::NvidiaSmi, Measure::Allocated);
        if (s.fineTune != FineTune::Full && s.ampStyle == AmpStyle::Autocast)
            s.baseDtype = pick(BaseDtype::Auto, BaseDtype::Bf16);
        s.implementation = implementation;
        s = withImplementationDefaults(s);
        if (!scenarioError(s))
            list.append(s);
    }
    return list;
}

} // namespace

class TestProperties : public QObject {
    Q_OBJECT
    QList<Scenario> m_scenarios = variedScenarios();

private Q_SLOTS:
    void componentsNonNegativeAndTotalIsTheirSum_data() { addRows(); }
    void componentsNonNegativeAndTotalIsTheirSum()
    {
        QFETCH(int, index);
        const Scenario &s = m_scenarios[index];
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        Bytes sum = 0;
        for (int c = 0; c < kComponentCount; ++c) {
            QVERIFY(b.componentBytes[c] >= 0);
            sum += b.componentBytes[c];
        }
        QCOMPARE(b.total, sum);
        Bytes items = 0;
        for (Bytes bytes : b.itemBytes) {
            QVERIFY(bytes >= 0);
            items += bytes;
        }
        QCOMPARE(items, b.total);
    }

    void explainMatchesEstimate_data() { addRows(); }
    void explainMatchesEstimate()
    {
        QFETCH(int, index);
        const Scenario &s = m_scenarios[index];
        const Breakdown b = estimate(s);
        Bytes sum = 0;
        for (const ExplainedItem &item : explain(s, Units::GiB)) {
            QCOMPARE(item.bytes, b.item(item.id));
            QVERIFY2(!item.formula.empty(), idString(item.id).data());
            sum += item.bytes;
        }
        QCOMPARE(sum, b.total);
    }

    void moreBatchNeverLessMemory_data() { addRows(); }
    void moreBatchNeverLessMemory()
    {
        QFETCH(int, index);
        Scenario s = m_scenarios[index];
        Bytes previous = 0;
        for (std::int64_t batch = 1; batch <= 64; batch *= 2) {
            s.microBatch = batch;
            const Bytes total = estimate(s).total;
            QVERIFY(total >= previous);
            previous = total;
        }
    }

    void longerSequenceNeverLessMemory_data() { addRows(); }
    void longerSequenceNeverLessMemory()
    {
        QFETCH(int, index);
        Scenario s = m_scenarios[index];
        Bytes previous = 0;
        for (std::int64_t seq = 128; seq <= 32768; seq *= 2) {
            s.sequence = seq;
            const Bytes total = estimate(s).total;
            QVERIFY(total >= previous);
            previous = total;
        }
    }

    void higherZeroStageNeverMoreModelState_data() { addRows(); }
    void higherZeroStageNeverMoreModelState()
    {
        QFETCH(int, index);
        Scenario s = m_scenarios[index];
        Bytes previous = -1;
        for (int stage = 0; stage <= 3; ++stage) {
            s.zeroStage = stage;
            if (s.offload != Offload::None && stage == 0)
                continue;
            const Breakdown b = estimate(s);
            const Bytes states = b.modelStates();
            if (previous >= 0)
                QVERIFY(states <= previous);
            previous = states;
        }
    }

    // Every implementation and mixed-precision path, drawn at random: nothing negative, the items
    // sum to the total and to the explanation, the step's peak stays within the sum, and a larger
    // micro-batch never needs less.
    void randomScenariosKeepTheInvariants_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("modeling");
        QTest::newRow("megatron") << int(Implementation::Megatron) << int(Modeling::Llama);
        QTest::newRow("hugging face llama") << int(Implementation::HuggingFace) << int(Modeling::Llama);
        QTest::newRow("hugging face gpt2") << int(Implementation::HuggingFace) << int(Modeling::Gpt2);
        QTest::newRow("hugging face bert") << int(Implementation::HuggingFace) << int(Modeling::Bert);
        QTest::newRow("torchtitan") << int(Implementation::TorchTitan) << int(Modeling::Llama);
        QTest::newRow("lit-gpt") << int(Implementation::LitGpt) << int(Modeling::Llama);
    }
    void randomScenariosKeepTheInvariants()
    {
        QFETCH(int, implementation);
        QFETCH(int, modeling);
        const QList<Scenario> scenarios = randomScenarios(Implementation(implementation), Modeling(modeling), 400);
        QVERIFY2(scenarios.size() == 400, "too few valid draws: the rules refuse most of the space");
        for (const Scenario &s : scenarios) {
            QCOMPARE(layerTensors(s).unlisted, 0); // every saved tensor has its line in the explanation
            QCOMPARE(outsideTensors(s).unlisted, 0);
            const Breakdown b = estimate(s);
            Bytes items = 0;
            for (Bytes bytes : b.itemBytes) {
                QVERIFY(bytes >= 0);
                items += bytes;
            }
            QCOMPARE(items, b.total);
            Bytes explained = 0, explainedHost = 0;
            for (const ExplainedItem &item : explain(s, Units::GiB)) {
                explained += item.bytes;
                explainedHost += item.hostBytes;
            }
            QCOMPARE(explained, b.total);
            QCOMPARE(explainedHost, b.host);
            const Bytes peak = stepTimeline(b).peak();
            QVERIFY(peak <= b.total);
            QCOMPARE(stepPeak(b), peak); // the shortcut through the candidate points finds the same
            Scenario bigger = s;
            bigger.microBatch *= 2;
            const Breakdown more = estimate(bigger);
            QVERIFY(more.total >= b.total);
            QVERIFY(stepPeak(more) >= peak);
        }
    }

    // A lever may cost memory only through what pulling it really allocates (ZeRO-3's and FSDP's
    // gathered parameters, FSDP's all-gather and gradient buffers, DeepSpeed's bucket and the FP32
    // gradients it makes for each partition's step, through a 16-bit copy, recomputation's working set;
    // mixed precision's master copy, DeepSpeed's 16-bit gradient copy converted for the step, the
    // loss's FP32 copy and, under autocast, the 16-bit casts
    // kept beside FP32 results and backward's FP32 gradients and 16-bit copies of the stream's; the
    // 16-bit logits' block the allocator keeps beside the loss's FP32 buffers),
    // never through weights, gradients or moments; and the ladder then
    // names what grew instead of calling it a saving.
    void leversCostMemoryOnlyThroughTheirBuffers_data() { randomScenariosKeepTheInvariants_data(); }
    void leversCostMemoryOnlyThroughTheirBuffers()
    {
        QFETCH(int, implementation);
        QFETCH(int, modeling);
        const std::map<Lever, std::set<ItemId>> mayGrow{
            // FSDP reduces gradients into FP32 shards where ZeRO-2 kept 16-bit ones: the gradients
            // item may grow, the model states as a whole may not (checked below). FSDP also does
            // mixed precision itself (16-bit parameters, no autocast), so the head's first-token
            // slice becomes a view keeping the last layer's output instead of a small 16-bit cast,
            // and a frozen base kept in FP32 makes QLoRA's dequantized copy FP32. A 4-bit model
            // reaches DeepSpeed's ZeRO-3 whole, which holds it so until it partitions it. Its
            // 16-bit stream makes the recomputed layer's first norm copy its input to FP32, where
            // autocast's FP32 stream was the checkpoint's own tensor.
            {Lever::ZeroSharding,
             {ItemId::Zero3GatheredParams, ItemId::Zero3PersistentParams, ItemId::ModelBeforePartitioning,
              ItemId::FsdpUnshardedParams, ItemId::FsdpAllGatherBuffers, ItemId::FsdpGradientBuffers,
              ItemId::ZeroReduceBucket, ItemId::ZeroFp32Gradients, ItemId::OptimizerStepBuffer, ItemId::CommBuffers,
              ItemId::AllocatorReserve, ItemId::Gradients, ItemId::HeadActivations, ItemId::QloraDequantized,
              ItemId::RecomputeBuffer}},
            // The reentrant checkpoint holds the gradient of a post-norm layer's output (BERT's),
            // which its LayerNorm's backward would have freed, through that layer's backward; ZeRO-3
            // keeps a recomputed layer's modules gathered from its recomputation to its backward
            // (stage3_max_reuse_distance), more than it holds at the turn of an unrecomputed step
            // where the layers are large (a MoE layer's experts).
            {Lever::Recomputation,
             {ItemId::RecomputeBuffer, ItemId::BackwardWorkingSet, ItemId::Zero3GatheredParams,
              ItemId::AllocatorReserve}},
            // Halving the weights' bytes may leave a segment's remainder in their blocks (lit-gpt's).
            {Lever::MixedPrecision,
             {ItemId::MasterWeights, ItemId::OptimizerStepBuffer, ItemId::Logits, ItemId::WeightCasts,
              ItemId::LayerActivations, ItemId::HeadActivations, ItemId::RecomputeBuffer, ItemId::BackwardWorkingSet,
              ItemId::FreedLogitsBlock, ItemId::WeightBlockTails, ItemId::AllocatorReserve}},
            {Lever::SmallerBatch, {ItemId::AllocatorReserve}},
        };
        int costly = 0;
        for (const Scenario &s : randomScenarios(Implementation(implementation), Modeling(modeling), 400)) {
            const Breakdown before = estimate(s);
            for (Lever lever : kArticleLadder) {
                const std::array order{lever};
                const auto steps = optimizationLadder(s, order, 8, {}); // capacity 0: every lever is tried
                if (steps.empty())
                    continue;
                const LadderStep &step = steps.front();
                QCOMPARE(step.saving < 0, !step.grew.empty());
                if (lever == Lever::ZeroSharding)
                    QVERIFY(step.breakdown.modelStates() <= before.modelStates());
                if (step.saving >= 0)
                    continue;
                ++costly;
                for (int i = 0; i < kItemCount; ++i)
                    if (step.breakdown.itemBytes[i] > before.itemBytes[i])
                        QVERIFY2(mayGrow.at(lever).count(ItemId(i)),
                                 qPrintable(QStringLiteral("%1 grew with lever %2: %3")
                                                .arg(QString::fromUtf8(idString(ItemId(i)).data()),
                                                     QString::fromUtf8(idString(lever).data()),
                                                     QString::fromStdString(step.grew))));
            }
        }
        qInfo("%d of the lever steps cost memory, each through its named buffers", costly);
    }

    void recomputationNeverAddsMemory_data() { addRows(); }
    void recomputationNeverAddsMemory()
    {
        QFETCH(int, index);
        Scenario s = m_scenarios[index];
        s.recompute = Recompute::None;
        const Bytes none = estimate(s).component(Component::Activations);
        s.recompute = Recompute::Selective;
        const Bytes selective = estimate(s).component(Component::Activations);
        s.recompute = Recompute::Full;
        const Bytes full = estimate(s).component(Component::Activations);
        // Full is not always below selective: it still needs one whole layer (s² scores and
        // all) while that layer is recomputed, which can outweigh a few selective layers.
        QVERIFY(selective <= none);
        QVERIFY(full <= none);
    }
};

QTEST_APPLESS_MAIN(TestProperties)
#include "tst_properties.moc"
