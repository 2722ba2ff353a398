// The numeric path allocates nothing: estimate() and the solvers run on every slider tick
// and thousands of times per sweep. Counted with a replaced global operator new.

#include "core/estimate.h"
#include "core/solve.h"
#include "litgptscenario.h"

#include <QTest>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};
}

void *operator new(std::size_t size)
{
    ++g_allocations;
    if (void *p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}

using namespace vl;

class TestNoAlloc : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void numericPathAllocatesNothing_data()
    {
        QTest::addColumn<int>("variant");
        QTest::newRow("the article's 7B") << 0;
        QTest::newRow("ZeRO-3, pipeline, full recompute, overhead") << 1;
        QTest::newRow("QLoRA with Adafactor, tensor + sequence parallel") << 2;
        QTest::newRow("Hugging Face's Mixtral, paged 8-bit AdamW in backward") << 3;
        QTest::newRow("torchtitan, TP 4 and FSDP, op-level checkpointing, foreach AdamW") << 4;
        QTest::newRow("lit-gpt LoRA on Llama-2-13B's shapes: the allocator replayed over its weights") << 5;
    }
    void numericPathAllocatesNothing()
    {
        QFETCH(int, variant);
        Scenario s;
        if (variant == 1) {
            s.zeroStage = 3;
            s.dataParallel = 8;
            s.pipelineParallel = 4;
            s.virtualStages = 2;
            s.gradAccum = 8;
            s.recompute = Recompute::Full;
            s.overhead.measure = Measure::NvidiaSmi;
        } else if (variant == 2) {
            s.fineTune = FineTune::QLoRA;
            s.optimizer = Optimizer::Adafactor;
            s.tensorParallel = 4;
            s.sequenceParallel = true;
        } else if (variant == 3) {
            s.implementation = Implementation::HuggingFace;
            s.attention = Attention::Sdpa;
            s.arch.experts = 8;
            s.arch.expertsPerToken = 2;
            s.optimizer = Optimizer::AdamW8bit;
            s.pagedOptimizer = true;
            s.optimizerInBackward = true;
        } else if (variant == 4) {
            s.implementation = Implementation::TorchTitan;
            s.attention = Attention::Sdpa;
            s.tensorParallel = 4;
            s.sequenceParallel = true;
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.dataParallel = 8;
            s.recompute = Recompute::Selective;
            s.optimizerImpl = OptimizerImpl::Foreach;
        } else if (variant == 5) {
            s = litgptLlama2_13bLora();
        }
        QVERIFY(!scenarioError(s));
        const long before = g_allocations.load();
        Bytes sum = 0;
        for (int i = 0; i < 100; ++i) {
            s.microBatch = 1 + i % 8;
            sum += estimate(s).total;
        }
        sum += maxMicroBatch(s, 80 * kGiB) + maxSequence(s, 80 * kGiB) + minDataParallel(s, 24 * kGiB);
        const long allocations = g_allocations.load() - before;
        QVERIFY(sum > 0);
        QCOMPARE(allocations, 0L);
    }
};

QTEST_APPLESS_MAIN(TestNoAlloc)
#include "tst_noalloc.moc"
