// The optimization ladder: each step changes exactly one thing, never adds memory, and
// the ladder stops at the first step that fits.

#include "core/advice.h"

#include <QTest>

using namespace vl;

Q_DECLARE_METATYPE(FitRule)

namespace {

int differingFields(const Scenario &a, const Scenario &b)
{
    int n = 0;
    n += a.zeroStage != b.zeroStage || a.dataParallel != b.dataParallel; // ZeRO over N GPUs is one decision
    n += a.recompute != b.recompute;
    n += a.precision != b.precision;
    n += a.microBatch != b.microBatch || a.gradAccum != b.gradAccum; // same global batch
    n += a.sequence != b.sequence;
    n += !(a.arch == b.arch);
    return n;
}

Scenario fp32Llama()
{
    Scenario s;
    s.precision = Precision::Fp32;
    s.microBatch = 8;
    return s;
}

} // namespace

class TestAdvice : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ladder_data()
    {
        QTest::addColumn<qint64>("capacityMiB");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<FitRule>("rule");
        for (const FitRule rule : {FitRule::Peak, FitRule::Sum}) {
            const std::string by = std::string(", by the ") + std::string(toString(rule));
            QTest::newRow(("A100 80GB, 8 GPUs" + by).c_str()) << qint64(81920) << 8 << rule;
            QTest::newRow(("RTX 4090, 8 GPUs" + by).c_str()) << qint64(24564) << 8 << rule;
            QTest::newRow(("T4, one GPU" + by).c_str()) << qint64(15360) << 1 << rule;
            QTest::newRow(("H200, 64 GPUs" + by).c_str()) << qint64(143771) << 64 << rule;
        }
    }
    void ladder()
    {
        QFETCH(qint64, capacityMiB);
        QFETCH(int, gpus);
        QFETCH(FitRule, rule);
        const Bytes capacity = capacityMiB * kMiB;
        const Scenario start = fp32Llama();
        const auto steps = optimizationLadder(start, kArticleLadder, gpus, {capacity}, rule);
        QVERIFY(!steps.empty());
        Scenario previous = start;
        Bytes previousRequired = requiredBytes(estimate(start), rule);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const LadderStep &step = steps[i];
            QCOMPARE(differingFields(previous, step.scenario), 1);
            QCOMPARE(step.required, requiredBytes(step.breakdown, rule));
            QVERIFY(step.required <= previousRequired);
            QCOMPARE(step.saving, previousRequired - step.required);
            QCOMPARE(step.fits, step.required <= capacity);
            QVERIFY(!step.change.empty() && !step.cost.empty());
            if (i + 1 < steps.size())
                QVERIFY2(!step.fits, "the ladder stops at the first step that fits");
            previous = step.scenario;
            previousRequired = step.required;
        }
    }

    void articleOrderFirstShardsThenRecomputes()
    {
        const auto steps = optimizationLadder(fp32Llama(), kArticleLadder, 8, {1 * kGiB});
        QVERIFY(steps.size() >= 3);
        QCOMPARE(steps[0].lever, Lever::ZeroSharding);
        QCOMPARE(steps[0].scenario.zeroStage, std::int64_t(3));
        QCOMPARE(steps[1].lever, Lever::Recomputation);
        QCOMPARE(steps[2].lever, Lever::MixedPrecision);
    }

    // The ZeRO lever shards the states over that many GPUs, counting those that already share
    // them: FSDP shards over the context-parallel GPUs too (torchtitan's dp_shard_cp).
    void zeroLeverCountsTheShardingGroup_data()
    {
        QTest::addColumn<int>("contextParallel");
        QTest::addColumn<int>("zeroStage");
        QTest::addColumn<int>("dataParallelAfter"); // 0: no step
        QTest::newRow("CP 8, FSDP over all 8 already: nothing to shard") << 8 << 3 << 0;
        QTest::newRow("CP 8, not sharded: FSDP over the 8") << 8 << 0 << 1;
        QTest::newRow("CP 2: 4 data-parallel GPUs make 8") << 2 << 0 << 4;
        QTest::newRow("no CP: 8 data-parallel GPUs") << 1 << 0 << 8;
    }
    void zeroLeverCountsTheShardingGroup()
    {
        QFETCH(int, contextParallel);
        QFETCH(int, zeroStage);
        QFETCH(int, dataParallelAfter);
        Scenario s;
        s.precision = Precision::MixedBf16;
        s.sharding = Sharding::Fsdp;
        s.sequence = 8192;
        s.attention = Attention::Sdpa; // context parallelism runs a ring of flash kernels
        s.contextParallel = contextParallel;
        s.zeroStage = zeroStage;
        QVERIFY(!scenarioError(s));
        const auto next = applyLever(s, Lever::ZeroSharding, 8, {1 * kGiB}, FitRule::Peak);
        QCOMPARE(next.has_value(), dataParallelAfter > 0);
        if (!next)
            return;
        QCOMPARE(next->dataParallel, std::int64_t(dataParallelAfter));
        QCOMPARE(next->zeroStage, std::int64_t(3));
        QCOMPARE(next->shardGroup(), std::int64_t(8));
    }

    // The precision lever picks what the GPU computes in: BF16 where it can, FP16 (with loss
    // scaling) on a V100 or T4, and says which.
    void precisionLeverFollowsTheGpu_data()
    {
        QTest::addColumn<bool>("bf16");
        QTest::addColumn<int>("precision");
        QTest::addColumn<QString>("change");
        QTest::newRow("A100: BF16") << true << int(Precision::MixedBf16)
                                    << "mixed precision (BF16 with an FP32 master copy)";
        QTest::newRow("V100: FP16") << false << int(Precision::MixedFp16)
                                    << "mixed precision (FP16 with an FP32 master copy)";
    }
    void precisionLeverFollowsTheGpu()
    {
        QFETCH(bool, bf16);
        QFETCH(int, precision);
        QFETCH(QString, change);
        const Lever order[] = {Lever::MixedPrecision};
        const auto steps = optimizationLadder(fp32Llama(), order, 1, {1 * kGiB, bf16});
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(int(steps.front().scenario.precision), precision);
        QCOMPARE(QString::fromStdString(steps.front().change), change);
        QCOMPARE(QString::fromStdString(steps.front().cost).contains(QStringLiteral("loss scaling")), !bf16);
    }
    void reorderedAndSkippedSteps()
    {
        const std::array order{Lever::MixedPrecision, Lever::SmallerBatch};
        const auto steps = optimizationLadder(fp32Llama(), order, 8, {1 * kGiB});
        QVERIFY(!steps.empty());
        QCOMPARE(steps[0].lever, Lever::MixedPrecision);
        for (const LadderStep &step : steps)
            QVERIFY(step.lever != Lever::ZeroSharding && step.lever != Lever::Recomputation);
    }

    void nothingToDoWhenItFits()
    {
        Scenario small;
        small.arch.fixedParams = 100'000'000;
        small.sequence = 512;
        QVERIFY(optimizationLadder(small, kArticleLadder, 8, {80 * kGiB}).empty());
    }

    // The smaller-batch lever cuts the micro-batch while it can, then the sequence; the step says
    // which, so that a front end words it without reading the English text.
    void smallerBatchSaysWhatItCut_data()
    {
        QTest::addColumn<int>("batch");
        QTest::addColumn<bool>("shorterSequence");
        QTest::newRow("micro-batch 8: a smaller micro-batch") << 8 << false;
        QTest::newRow("micro-batch 1: a shorter sequence") << 1 << true;
    }
    void smallerBatchSaysWhatItCut()
    {
        QFETCH(int, batch);
        QFETCH(bool, shorterSequence);
        Scenario s = fp32Llama();
        s.microBatch = batch;
        const Lever smaller[] = {Lever::SmallerBatch};
        const auto steps = optimizationLadder(s, smaller, 1, {24 * kGiB});
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps.front().shorterSequence, shorterSequence);
        QCOMPARE(steps.front().scenario.sequence < s.sequence, shorterSequence);
        QCOMPARE(steps.front().scenario.microBatch < s.microBatch, !shorterSequence);
    }

    void leversRankedBySaving()
    {
        const auto levers = rankLevers(fp32Llama(), 8, {80 * kGiB});
        QVERIFY(levers.size() >= 3);
        for (std::size_t i = 1; i < levers.size(); ++i)
            QVERIFY(levers[i - 1].saving >= levers[i].saving);
    }
};

QTEST_APPLESS_MAIN(TestAdvice)
#include "tst_advice.moc"
