// PyTorch's caching allocator as core/allocator.h replays it: the blocks that
// c10/cuda/CUDACachingAllocator.cpp hands out for tensors allocated one after another, each
// expectation worked out by hand from its rules (round_size, get_allocation_size, should_split).

#include "core/allocator.h"

#include <QTest>

#include <vector>

using namespace vl;

Q_DECLARE_METATYPE(std::vector<vl::Bytes>)

class TestAllocator : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void blocksAllocated_data()
    {
        QTest::addColumn<std::vector<Bytes>>("requests");
        QTest::addColumn<qint64>("blocks");
        QTest::newRow("a 100-byte tensor takes the smallest block, 512 B") << std::vector<Bytes>{100} << qint64(512);
        QTest::newRow("1 MiB is still the small pool's, whose blocks split down to 512 B")
            << std::vector<Bytes>{kMiB, 1000} << qint64(kMiB + 1024);
        QTest::newRow("135 MiB: a 136 MiB segment, whose last 1 MiB is not split off")
            << std::vector<Bytes>{135 * kMiB} << qint64(136 * kMiB);
        QTest::newRow("12.5 MiB: a 14 MiB segment, whose 1.5 MiB remainder is split off")
            << std::vector<Bytes>{25 * kMiB / 2} << qint64(25 * kMiB / 2);
        QTest::newRow("a later 1.25 MiB tensor takes that remainder whole (0.25 MiB would be left)")
            << std::vector<Bytes>{25 * kMiB / 2, 5 * kMiB / 4} << qint64(14 * kMiB);
        QTest::newRow("two 9 MiB tensors share a 20 MiB segment; 2 MiB stays free")
            << std::vector<Bytes>{9 * kMiB, 9 * kMiB} << qint64(18 * kMiB);
        QTest::newRow("two 9.5 MiB tensors: the second keeps the segment's last 1 MiB")
            << std::vector<Bytes>{19 * kMiB / 2, 19 * kMiB / 2} << qint64(20 * kMiB);
        QTest::newRow("the smallest free block that holds a request serves it")
            << std::vector<Bytes>{25 * kMiB / 2, 3 * kMiB, 5 * kMiB / 4}
            // 12.5 MiB: a 14 MiB segment, 1.5 MiB left free; 3 MiB: a 20 MiB segment, 17 MiB left
            // free; 1.25 MiB takes the 1.5 MiB block whole, where the 17 MiB one would be split.
            << qint64(17 * kMiB);
        QTest::newRow("an odd size rounds up to 512 B before the pool is chosen")
            << std::vector<Bytes>{kMiB + 1} << qint64(kMiB + 512);
    }
    void blocksAllocated()
    {
        QFETCH(std::vector<Bytes>, requests);
        QFETCH(qint64, blocks);
        CachingAllocatorReplay replay;
        for (Bytes request : requests)
            replay.expect(request);
        for (Bytes request : requests)
            replay.allocate(request);
        QCOMPARE(qint64(replay.blocks()), blocks);
    }

    // A model's layers are the same requests again and again: once the free blocks repeat, the
    // replay counts the rest instead of replaying them, and must reach what replaying would.
    void allocateRepeated_data()
    {
        QTest::addColumn<std::vector<Bytes>>("run");
        QTest::addColumn<qint64>("times");
        QTest::addColumn<qint64>("blocks");
        QTest::newRow("every run alike from the first: 135 MiB keeps 136 MiB")
            << std::vector<Bytes>{135 * kMiB} << qint64(40) << qint64(40 * 136 * kMiB);
        QTest::newRow("a period of two runs: 9.5 MiB split off a segment, then its 10.5 MiB rest whole")
            << std::vector<Bytes>{19 * kMiB / 2} << qint64(5) << qint64(99 * kMiB / 2);
        QTest::newRow("the same over 1001 runs, counted from the period")
            << std::vector<Bytes>{19 * kMiB / 2} << qint64(1001) << qint64(500 * 20 * kMiB + 19 * kMiB / 2);
        QTest::newRow("a period of five, longer than the replay looks back: replayed in full")
            // 3.875 MiB four times from a 20 MiB segment, the fifth takes the 4.5 MiB left whole.
            << std::vector<Bytes>{31 * kMiB / 8} << qint64(12) << qint64(2 * 20 * kMiB + 2 * 31 * kMiB / 8);
        QTest::newRow("free blocks that pile up past what the replay records: replayed in full")
            // Each run leaves two 1.5 MiB blocks from its 12.5 MiB tensors; its 1.25 MiB one takes one whole.
            << std::vector<Bytes>{25 * kMiB / 2, 25 * kMiB / 2, 5 * kMiB / 4} << qint64(20)
            << qint64(20 * 53 * kMiB / 2);
        QTest::newRow("a run of several requests, small ones among them")
            // 12.5 MiB (1.5 MiB split off), 1.25 MiB (takes those 1.5 MiB whole), 100 B (512 B).
            << std::vector<Bytes>{25 * kMiB / 2, 5 * kMiB / 4, 100} << qint64(3) << qint64(3 * (14 * kMiB + 512));
    }
    void allocateRepeated()
    {
        QFETCH(std::vector<Bytes>, run);
        QFETCH(qint64, times);
        QFETCH(qint64, blocks);
        CachingAllocatorReplay replay;
        for (Bytes request : run)
            replay.expect(request);
        replay.allocateRepeated(times, [&](auto &&allocate) {
            for (Bytes request : run)
                allocate(request);
        });
        QCOMPARE(qint64(replay.blocks()), blocks);
    }
};

QTEST_GUILESS_MAIN(TestAllocator)
#include "tst_allocator.moc"
