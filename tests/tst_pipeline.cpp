// Megatron-Core's pipeline schedules as core/pipeline.h counts them. The pipeline inputs an
// interleaved stage holds after their backward, and what a stage holds beside its backwards, are
// checked against step-by-step replays of forward_backward_pipelining_with_interleaving
// (schedules.py at 6e091e1b68, overlap_p2p_comm) and forward_backward_pipelining_without_
// interleaving: the replays follow the schedule's variables, the core's counts are closed-form.

#include "core/pipeline.h"

#include <QTest>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

using namespace vl;

namespace {

Scenario pipelined(int p, int v, int microBatches)
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

// What the schedule's variables hold beside each backward, the most at once: the previous
// backward's input_tensor_grad, the gradient this backward started from (its root), and
// interleaved the forward's output, full until the next pp_pre_forward deallocates it, and the
// input pp_post_forward received ahead.
struct Beside {
    std::int64_t gradients = 0, ahead = 0, atLastLayer = 0, later = 0;
    void record(int previous, int root, int output, int received)
    {
        gradients = std::max<std::int64_t>(gradients, previous + root);
        ahead = std::max<std::int64_t>(ahead, output + received);
        atLastLayer = std::max<std::int64_t>(atLastLayer, previous + output + received);
        later = std::max<std::int64_t>(later, previous + root + output + received);
    }
};

// forward_backward_pipelining_without_interleaving: warm-up forwards; steady iterations of
// forward, send_forward_recv_backward (a new gradient, none on the last stage; the output
// deallocated once sent), backward, send_backward_recv_forward; cooldown iterations of
// recv_backward and backward.
Beside replayBesideBackward1F1B(int p, int m, int stage)
{
    const bool first = stage == 0, last = stage == p - 1;
    const int warmUp = std::min(p - stage - 1, m);
    bool inputTensorGrad = false, outputTensorGrad = false; // the locals hold a tensor
    Beside most;
    const auto backward = [&] {
        most.record(inputTensorGrad, outputTensorGrad, 0, 0);
        inputTensorGrad = !first; // backward_step returns the input's .grad; the first stage has no input
    };
    for (int i = warmUp; i < m; ++i) {
        outputTensorGrad = !last;
        backward();
    }
    for (int i = 0; i < warmUp; ++i) {
        outputTensorGrad = !last;
        backward();
    }
    return most;
}

// forward_backward_pipelining_with_interleaving, overlap_p2p_comm: steady iteration k runs
// pp_pre_forward (deallocating the last output), forward W + k, pp_post_forward (sending it and
// receiving ahead where recv_tensor_from_previous_stage says so), then backward k; the cooldown
// runs the backwards left after the last output's deallocation.
Beside replayBesideBackwardInterleaved(int p, int v, int m, int stage)
{
    const bool first = stage == 0, last = stage == p - 1;
    const int total = m * v;
    const int warmUp = std::min(2 * (p - stage - 1) + (v - 1) * p, total);
    const auto chunkOf = [&](int virtualId, bool forward) {
        const int chunk = virtualId % (p * v) / p;
        return forward ? chunk : v - 1 - chunk;
    };
    // schedules.py recv_tensor_from_previous_stage(forward_k, forward=True).
    const auto receivesAhead = [&](int forwardK) {
        if (!first)
            return true;
        if (forwardK < p - 1)
            return false;
        return chunkOf(forwardK - (p - 1), true) != v - 1;
    };
    bool inputTensorGrad = false, outputFull = false, receivedAhead = false;
    Beside most;
    const auto backward = [&](int k) {
        const bool root = !(last && chunkOf(k, false) == v - 1);
        most.record(inputTensorGrad, root, outputFull, receivedAhead);
        inputTensorGrad = !(first && chunkOf(k, false) == 0);
    };
    const int steady = total - warmUp;
    for (int k = 0; k < steady; ++k) {
        const int forwardK = warmUp + k;
        // pp_pre_forward deallocated the last forward's output; the input received ahead is this
        // forward's. The new output stays full through backward k.
        outputFull = !(last && chunkOf(forwardK, true) == v - 1);
        receivedAhead = k != steady - 1 && receivesAhead(forwardK);
        backward(k);
    }
    outputFull = receivedAhead = false;
    for (int k = steady; k < total; ++k)
        backward(k);
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
        QCOMPARE(qint64(pipelineInFlight(pipelined(pp, vpp, microBatches), stage).inputsHeld), held);
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
        QCOMPARE(qint64(pipelineInFlight(pipelined(pp, vpp, microBatches), stage).inputsHeld),
                 qint64(replayInputsHeld(pp, vpp, microBatches, stage)));
    }

    // Beside its backwards a stage holds the previous backward's input gradient (not after the
    // first stage's first chunk), the gradient a backward started from (not where the loss starts
    // it), and interleaved the last forward's output and the next forward's input.
    void besideBackwardByHand_data()
    {
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("vpp");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<int>("stage");
        QTest::addColumn<qint64>("atLastLayer");
        QTest::addColumn<qint64>("later");
        QTest::addColumn<qint64>("ahead");
        QTest::newRow("1F1B, last stage: the gradient sent back")
            << 4 << 1 << 8 << 3 << qint64(1) << qint64(1) << qint64(0);
        QTest::newRow("1F1B, middle stage: sent back, and received past the last layer")
            << 4 << 1 << 8 << 1 << qint64(1) << qint64(2) << qint64(0);
        QTest::newRow("1F1B, first stage, one micro-batch: the one received past the last layer")
            << 2 << 1 << 1 << 0 << qint64(0) << qint64(1) << qint64(0);
        QTest::newRow("1F1B, last stage, one micro-batch: none")
            << 2 << 1 << 1 << 1 << qint64(0) << qint64(0) << qint64(0);
        QTest::newRow("7B run: sent back and forward 29's input beside backward 1; chunk 6's root later")
            << 4 << 8 << 4 << 3 << qint64(2) << qint64(2) << qint64(1);
        QTest::newRow("interleaved middle stage: all four tensors")
            << 4 << 2 << 8 << 1 << qint64(3) << qint64(4) << qint64(2);
    }
    void besideBackwardByHand()
    {
        QFETCH(int, pp);
        QFETCH(int, vpp);
        QFETCH(int, microBatches);
        QFETCH(int, stage);
        QFETCH(qint64, atLastLayer);
        QFETCH(qint64, later);
        QFETCH(qint64, ahead);
        const PipelineInFlight held = pipelineInFlight(pipelined(pp, vpp, microBatches), stage);
        QCOMPARE(qint64(held.besideBackward), atLastLayer);
        QCOMPARE(qint64(held.besideLaterBackward), later);
        QCOMPARE(qint64(held.outputsAhead), ahead);
    }

    void besideBackwardMatchesTheReplay_data()
    {
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("vpp");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<int>("stage");
        for (int p : {2, 3, 4, 8})
            for (int v : {1, 2, 3, 5, 8})
                for (int groups : {1, 2, 3, 6})
                    for (int stage = 0; stage < p; ++stage)
                        QTest::addRow("pp %d, vpp %d, %d micro-batches, stage %d", p, v, groups * p, stage)
                            << p << v << groups * p << stage;
        QTest::newRow("1F1B, fewer micro-batches than stages") << 4 << 1 << 2 << 1;
    }
    void besideBackwardMatchesTheReplay()
    {
        QFETCH(int, pp);
        QFETCH(int, vpp);
        QFETCH(int, microBatches);
        QFETCH(int, stage);
        const PipelineInFlight held = pipelineInFlight(pipelined(pp, vpp, microBatches), stage);
        const Beside replay = vpp == 1 ? replayBesideBackward1F1B(pp, microBatches, stage)
                                       : replayBesideBackwardInterleaved(pp, vpp, microBatches, stage);
        QCOMPARE(qint64(held.besideBackward), qint64(replay.atLastLayer));
        QCOMPARE(qint64(held.besideLaterBackward), qint64(replay.later));
        QCOMPARE(qint64(held.outputsAhead), qint64(replay.ahead));
        // The item counts the most gradients at once, beside a forward or a backward.
        QCOMPARE(qint64(held.gradients), std::max(qint64(held.besideForward), qint64(replay.gradients)));
    }
};

QTEST_APPLESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
