// What one screen shows about GPU counts, computed by core's analysis: the "GPU counts" bars and
// the fewest GPUs name every GPU the run takes, the tensor-, pipeline- and context-parallel ones
// with the data-parallel ones; the ZeRO lever is offered only where it shards over more GPUs.

#include "core/analysis.h"

#include <QTest>

#include <algorithm>

using namespace vl;

namespace {

// Llama-3.1-70B with FSDP and every layer checkpointed, 16384 tokens, SDPA (context parallelism
// needs a flash-style kernel).
ScenarioDocument llama70b(std::int64_t tp, std::int64_t pp, std::int64_t cp)
{
    ScenarioDocument doc;
    Scenario &s = doc.scenario;
    s.arch.hidden = 8192;
    s.arch.layers = 80;
    s.arch.heads = 64;
    s.arch.kvHeads = 8;
    s.arch.ffn = 28672;
    s.arch.vocab = 128256;
    s.precision = Precision::MixedBf16;
    s.attention = Attention::Sdpa;
    s.recompute = Recompute::Full;
    s.sequence = 16384;
    s.zeroStage = 3;
    s.sharding = Sharding::Fsdp;
    s.tensorParallel = tp;
    s.pipelineParallel = pp;
    s.contextParallel = cp;
    return doc;
}

GpuPreset h100()
{
    GpuPreset gpu;
    gpu.id = "h100-sxm";
    gpu.name = "NVIDIA H100 SXM 80GB";
    gpu.capacity = 81'559 * kMiB;
    gpu.computeCapability = 9;
    gpu.bf16 = true;
    return gpu;
}

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gpuCountsNameEveryGpu_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("cp");
        QTest::newRow("data parallel alone") << 1 << 1 << 1;
        QTest::newRow("TP 8") << 8 << 1 << 1;
        QTest::newRow("CP 4") << 1 << 1 << 4;
        QTest::newRow("TP 2 × PP 2 × CP 2") << 2 << 2 << 2;
    }
    void gpuCountsNameEveryGpu()
    {
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, cp);
        const ScenarioDocument doc = llama70b(tp, pp, cp);
        QVERIFY(!scenarioError(doc.scenario));
        AnalysisOptions options;
        options.bars = BarSet::GpuCounts;
        const Analysis a = analyse(doc, {h100()}, options);
        const std::int64_t perRank = std::int64_t(tp) * pp * cp;
        // Bars for 1, 2, 4, … data-parallel GPUs (the scenario's own, 1, is the current one).
        QVERIFY(a.bars.size() >= 4);
        for (std::size_t i = 0; i < a.bars.size(); ++i)
            QCOMPARE(a.bars[i].value, (std::int64_t(1) << i) * perRank);
        QCOMPARE(a.bars.front().kind, Bar::Kind::Current);
        // The fewest: that many data-parallel GPUs, each with its TP × PP × CP GPUs.
        const GpuVerdict &v = a.verdicts.front();
        QVERIFY(v.minDataParallel > 1);
        QCOMPARE(v.minGpus, v.minDataParallel * perRank);
    }

    // With FSDP over the 8 context-parallel GPUs the states are already sharded 8 ways: the
    // ZeRO lever (over the window's 8 GPUs) has nothing to add; without CP it shards over 8.
    void zeroLeverOnlyWhereItShardsMore_data()
    {
        QTest::addColumn<int>("cp");
        QTest::addColumn<bool>("offered");
        QTest::newRow("CP 8: sharded 8 ways already") << 8 << false;
        QTest::newRow("no CP: one GPU holds everything") << 1 << true;
    }
    void zeroLeverOnlyWhereItShardsMore()
    {
        QFETCH(int, cp);
        QFETCH(bool, offered);
        ScenarioDocument doc = llama70b(1, 1, cp);
        doc.scenario.sequence = 8192 * cp;
        QVERIFY(!scenarioError(doc.scenario));
        const Analysis a = analyse(doc, {h100()}, AnalysisOptions{});
        const bool zero = std::any_of(a.levers.begin(), a.levers.end(),
                                      [](const LadderStep &step) { return step.lever == Lever::ZeroSharding; });
        QCOMPARE(zero, offered);
    }
};

QTEST_APPLESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
