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
constexpr Bytes kNccl2_22 = 128 * kKiB * 8 + 2 * kMiB; // NVLS_CHUNKSIZE × NCCL_STEPS + the flags
constexpr Bytes kNccl2_23 = 128 * kKiB * 8;

Scenario onNvSwitch(std::int64_t zero, std::int64_t dp)
{
    Scenario s;
    s.zeroStage = zero;
    s.dataParallel = dp;
    s.overhead.measure = Measure::NvidiaSmi;
    s.overhead.nvls = true;
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
        Scenario s = onNvSwitch(3, 8);
        s.overhead.nccl = NcclRelease::Before2_21;
        QTest::newRow("DeepSpeed ZeRO-3 on 8 GPUs, NCCL 2.19: the default group and DeepSpeed's clone of it")
            << s << qint64(2 * nvls(kNccl2_20, 8));
        s.overhead.nccl = NcclRelease::Before2_23;
        QTest::newRow("the same under NCCL 2.22: 128 KiB chunks") << s << qint64(2 * nvls(kNccl2_22, 8));
        s.overhead.nccl = NcclRelease::Since2_23;
        QTest::newRow("the same under NCCL 2.23: no flags beside them") << s << qint64(2 * nvls(kNccl2_23, 8));
        s.dataParallel = 16;
        QTest::newRow("DeepSpeed on two nodes: 8 heads a communicator still") << s << qint64(2 * nvls(kNccl2_23, 8));
        s.dataParallel = 2;
        QTest::newRow("DeepSpeed on 2 GPUs: NCCL sets up no NVLS for two") << s << qint64(0);
        QTest::newRow("PyTorch DDP on 8 GPUs: its default group") << onNvSwitch(0, 8) << qint64(nvls(kNccl2_23, 8));
        s = onNvSwitch(3, 8);
        s.gpusPerNode = 4;
        QTest::newRow("4 GPUs a node: 4 heads") << s << qint64(2 * nvls(kNccl2_23, 4));
        s = onNvSwitch(3, 32);
        s.sharding = Sharding::Fsdp;
        s.tensorParallel = 8;
        QTest::newRow("FSDP over 32 × TP 8: the TP group holds the node, the shard group one GPU a node")
            << s << qint64(nvls(kNccl2_23, 8));
        s = onNvSwitch(1, 2);
        s.sharding = Sharding::Megatron;
        s.tensorParallel = 4;
        QTest::newRow("Megatron TP 4 × DP 2 on 8 GPUs: the TP group's 4; DP's 2 have none")
            << s << qint64(nvls(kNccl2_23, 4));
        s = onNvSwitch(3, 8);
        s.overhead.nvls = false;
        QTest::newRow("no NVSwitch that does SHARP (A100): none") << s << qint64(0);
        s = onNvSwitch(3, 8);
        s.overhead.measure = Measure::Reserved;
        QTest::newRow("read as max_memory_reserved: outside what it sees") << s << qint64(0);
        QTest::newRow("one GPU: no communicator") << onNvSwitch(0, 1) << qint64(0);
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
