// Megatron-Core's pipeline schedules as core/pipeline.h counts them. The pipeline inputs an
// interleaved stage holds after their backward are checked against a step-by-step replay of
// forward_backward_pipelining_with_interleaving (schedules.py at 6e091e1b68, overlap_p2p_comm):
// the replay follows each tensor by identity, the core's count is closed-form.

#include "core/pipeline.h"

#include <QTest>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

using namespace vl;

namespace {

Scenario interleaved(int p, int v, int microBatches)
{
    Scenario s;
    s.arch.layers = 2 * p * v;
    s.pipelineParallel = p;
    s.virtualStages = v;
    s.gradAccum = microBatches;
    return s;
}

// Steady iteration k runs forward W + k, then backward k. A pass is (chunk, micro-batch), in
// get_schedule_table's order: groups of p micro-batches through chunk 0, then chunk 1, ...; the
// backwards take the chunks from the last. Held beside forward W + k: the input of every chunk's
// latest forward (set_input_tensor) and of forward W (the schedule's input_tensor after warm-up),
// each once, whose pass ran backward by iteration k − 1, with its gradient unless that backward
// was k − 1 (whose gradient the schedule's input_tensor_grad holds, counted apart).
std::int64_t replayInputsHeld(int p, int v, int m, int stage)
{
    using Pass = std::pair<int, int>; // chunk, micro-batch
    std::vector<Pass> order;
    for (int group = 0; group < m / p; ++group)
        for (int chunk = 0; chunk < v; ++chunk)
            for (int u = 0; u < p; ++u)
                order.push_back({chunk, group * p + u});
    const int total = m * v;
    const auto backwardIndex = [&](Pass pass) {
        for (int b = 0; b < total; ++b)
            if (order[b].first == v - 1 - pass.first && order[b].second == pass.second)
                return b;
        return total;
    };
    const int warmUp = std::min(2 * (p - stage - 1) + (v - 1) * p, total);
    const auto receives = [&](int chunk) { return !(stage == 0 && chunk == 0); };
    std::vector<Pass> latest(v, {-1, -1});
    for (int i = 0; i < warmUp; ++i)
        latest[order[i].first] = order[i];
    std::int64_t most = 0;
    for (int k = 0; warmUp + k < total; ++k) {
        const Pass forward = order[warmUp + k];
        latest[forward.first] = forward;
        std::set<Pass> holders;
        for (int chunk = 0; chunk < v; ++chunk)
            if (receives(chunk) && latest[chunk].first >= 0)
                holders.insert(latest[chunk]);
        if (receives(order[warmUp].first))
            holders.insert(order[warmUp]);
        std::int64_t held = 0;
        for (const Pass &pass : holders) {
            const int b = backwardIndex(pass);
            held += b <= k - 2 ? 2 : b == k - 1 ? 1 : 0;
        }
        most = std::max(most, held);
    }
    return most;
}

} // namespace

class TestPipeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Worked by hand through the schedule; the two measured runs (the 7B and the small GPT of
    // Megatron-LM's tests, tests/data/measured-runs.yaml) read 2 s·b·h tensors above the count
    // without them.
    void inputsHeldByHand_data()
    {
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("vpp");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<int>("stage");
        QTest::addColumn<qint64>("held");
        QTest::newRow("7B run: last of 4 stages, 8 chunks, 4 micro-batches: forward 28's input and gradient")
            << 4 << 8 << 4 << 3 << qint64(2);
        QTest::newRow("small run: last of 4 stages, 3 chunks, 4 micro-batches") << 4 << 3 << 4 << 3 << qint64(2);
        QTest::newRow("last stage, 2 chunks, 8 micro-batches: beside forward 9, chunk 1 keeps micro-batch 3's too")
            << 4 << 2 << 8 << 3 << qint64(4);
        QTest::newRow("first stage, 2 chunks, 8 micro-batches: forward 10 is chunk 0's, made by the embedding")
            << 4 << 2 << 8 << 0 << qint64(0);
        QTest::newRow("the warm-up covers every pass: no steady state") << 4 << 2 << 4 << 0 << qint64(0);
        QTest::newRow("no interleaving: input_tensor is received anew each iteration")
            << 4 << 1 << 16 << 3 << qint64(0);
    }
    void inputsHeldByHand()
    {
        QFETCH(int, pp);
        QFETCH(int, vpp);
        QFETCH(int, microBatches);
        QFETCH(int, stage);
        QFETCH(qint64, held);
        QCOMPARE(qint64(pipelineInFlight(interleaved(pp, vpp, microBatches), stage).inputsHeld), held);
    }

    void inputsHeldMatchTheReplay_data()
    {
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("vpp");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<int>("stage");
        for (int p : {2, 3, 4, 8})
            for (int v : {2, 3, 5, 8})
                for (int groups : {1, 2, 3, 6})
                    for (int stage = 0; stage < p; ++stage)
                        QTest::addRow("pp %d, vpp %d, %d micro-batches, stage %d", p, v, groups * p, stage)
                            << p << v << groups * p << stage;
    }
    void inputsHeldMatchTheReplay()
    {
        QFETCH(int, pp);
        QFETCH(int, vpp);
        QFETCH(int, microBatches);
        QFETCH(int, stage);
        QCOMPARE(qint64(pipelineInFlight(interleaved(pp, vpp, microBatches), stage).inputsHeld),
                 qint64(replayInputsHeld(pp, vpp, microBatches, stage)));
    }
};

QTEST_APPLESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
