// What the GPU holds outside PyTorch's caching allocator, which only nvidia-smi sees: NCCL's NVLS
// buffers, each expectation worked out by hand from NCCL's src/transport/nvls.cc (16 channels ×
// 2 directions × a buffer per head, one head per GPU of the node in the communicator) and from
// the process groups each engine's step runs collectives on.

#include "core/estimate.h"

#include <QTest>

using namespace vl;

Q_DECLARE_METATYPE(Scenario)

namespace {

// One communicator's NVLS buffers on one GPU: 16 channels × 2 directions × the per-channel bytes
// × the node's GPUs in it.
constexpr Bytes nvls(Bytes perChannel, std::int64_t heads)
{
    return 16 * 2 * perChannel * heads;
}
constexpr Bytes kNccl2_20 = 4 * kMiB + 2 * kMiB;       // NCCL_BUFFSIZE + NVLS_MEM_ALIGN_SIZE
constexpr Bytes kNccl2_21 = 128 * kKiB * 8 + 2 * kMiB; // NVLS_CHUNKSIZE × NCCL_STEPS + the flags
constexpr Bytes kNccl2_22 = 128 * kKiB * 8;

Scenario onNvSwitch(std::int64_t zero, std::int64_t dp, NcclRelease nccl = NcclRelease::Since2_22)
{
    Scenario s;
    s.zeroStage = zero;
    s.dataParallel = dp;
    s.overhead.measure = Measure::NvidiaSmi;
    s.overhead.nvls = true;
    s.overhead.nccl = nccl;
    return s;
}

Scenario megatron(std::int64_t zero, std::int64_t tp, std::int64_t pp, std::int64_t dp, NcclRelease nccl)
{
    Scenario s = onNvSwitch(zero, dp, nccl);
    s.sharding = Sharding::Megatron;
    s.tensorParallel = tp;
    s.pipelineParallel = pp;
    return s;
}

} // namespace

class TestRuntime : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nvlsBuffersFollowNcclsSource_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("bytes");
        const auto row = [](const char *name, const Scenario &s, Bytes bytes) {
            QTest::newRow(name) << s << qint64(bytes);
        };
        row("DeepSpeed ZeRO-3 on 8 GPUs, NCCL 2.19: the default group and DeepSpeed's clone of it",
            onNvSwitch(3, 8, NcclRelease::Before2_21), 2 * nvls(kNccl2_20, 8));
        row("the same under NCCL 2.21: 128 KiB chunks", onNvSwitch(3, 8, NcclRelease::Before2_22),
            2 * nvls(kNccl2_21, 8));
        row("the same under NCCL 2.22: no flags beside them", onNvSwitch(3, 8), 2 * nvls(kNccl2_22, 8));
        row("DeepSpeed on two nodes: 8 heads a communicator still", onNvSwitch(3, 16), 2 * nvls(kNccl2_22, 8));
        row("DeepSpeed on 2 GPUs: NCCL sets up no NVLS for two", onNvSwitch(3, 2), 0);
        row("ZeRO-2 under NCCL 2.22: the default group only sees barriers, no NVLS", onNvSwitch(2, 8),
            nvls(kNccl2_22, 8));
        row("ZeRO-2 under NCCL 2.20: every communicator's buffers at creation",
            onNvSwitch(2, 8, NcclRelease::Before2_21), 2 * nvls(kNccl2_20, 8));
        Scenario qlora = onNvSwitch(3, 8);
        qlora.fineTune = FineTune::QLoRA;
        qlora.precision = Precision::Bf16;
        row("QLoRA under ZeRO-3: built outside zero.Init, the default group only sees barriers", qlora,
            nvls(kNccl2_22, 8));
        row("PyTorch DDP on 8 GPUs: its default group", onNvSwitch(0, 8), nvls(kNccl2_22, 8));
        Scenario fourANode = onNvSwitch(3, 8);
        fourANode.gpusPerNode = 4;
        row("4 GPUs a node: 4 heads", fourANode, 2 * nvls(kNccl2_22, 4));
        Scenario fsdp = onNvSwitch(3, 32);
        fsdp.sharding = Sharding::Fsdp;
        fsdp.tensorParallel = 8;
        row("FSDP over 32 × TP 8: the TP group holds the node, the shard group one GPU a node", fsdp,
            nvls(kNccl2_22, 8));
        row("Megatron TP 4 × DP 2, distributed optimizer, NCCL 2.22: the TP group's 4; DP's 2 have none",
            megatron(1, 4, 1, 2, NcclRelease::Since2_22), nvls(kNccl2_22, 4));
        row("the same under NCCL 2.20: the gradients' norm group of all 8 too",
            megatron(1, 4, 1, 2, NcclRelease::Before2_21), nvls(kNccl2_20, 4) + nvls(kNccl2_20, 8));
        row("Megatron TP 4 × PP 4, no distributed optimizer, NCCL 2.20: the model-parallel group's 4 a node",
            megatron(0, 4, 4, 2, NcclRelease::Before2_21), nvls(kNccl2_20, 4) + nvls(kNccl2_20, 4));
        Scenario wideNode = onNvSwitch(3, 64, NcclRelease::Before2_21);
        wideNode.gpusPerNode = 64;
        row("64 GPUs a node under NCCL 2.20: at most 8 heads (NCCL_MAX_NVLS_ARITY)", wideNode, 2 * nvls(kNccl2_20, 8));
        wideNode.overhead.nccl = NcclRelease::Since2_22;
        row("the same under NCCL 2.22: at most 32", wideNode, 2 * nvls(kNccl2_22, 32));
        Scenario a100 = onNvSwitch(3, 8);
        a100.overhead.nvls = false;
        row("no NVSwitch that does SHARP (A100): none", a100, 0);
        Scenario reserved = onNvSwitch(3, 8);
        reserved.overhead.measure = Measure::Reserved;
        row("read as max_memory_reserved: outside what it sees", reserved, 0);
        row("one GPU: no communicator", onNvSwitch(0, 1), 0);
    }
    void nvlsBuffersFollowNcclsSource()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, bytes);
        QVERIFY(!scenarioError(scenario));
        const Breakdown b = estimate(scenario);
        QCOMPARE(b.item(ItemId::NvlsBuffers), bytes);
        QCOMPARE(componentOf(ItemId::NvlsBuffers), Component::Overhead);
    }
};

QTEST_GUILESS_MAIN(TestRuntime)
#include "tst_runtime.moc"
