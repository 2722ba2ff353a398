#include "core/pipeline.h"

#include "core/units.h"

#include <algorithm>
#include <initializer_list>

namespace vl {

namespace {

// Interleaved, pipeline inputs whose pass has run backward stay referenced, each with the
// gradient autograd left on it (a received input is a leaf; backward_step reads its .grad):
// the schedule's own input_tensor, assigned for the last time at the end of warm-up (the input of
// forward W, the first steady-state one; with overlap_p2p_comm the steady state receives into
// fwd_recv_buffer instead), until the schedule returns; and each model chunk's input_tensor
// (transformer_block.py, set_input_tensor in schedules.py forward_step), the input of the chunk's
// latest forward, until its next forward. How many of these tensors a steady-state forward runs
// beside, at most: steady iteration k runs forward W + k, then backward k. Forward i takes chunk
// c = (i mod pv) div p (get_schedule_table, groups of p micro-batches); its pass runs backward
// at index i + (v − 1 − 2c)·p. A pass backwarded by iteration k − 1 adds its input and its
// gradient, its input alone when it was backward k − 1 (that gradient is among `gradients`).
std::int64_t inputsHeldAfterBackward(std::int64_t p, std::int64_t v, std::int64_t m, int stage, std::int64_t warmUp)
{
    const std::int64_t group = p * v;
    if (warmUp >= m * v)
        return 0;
    const auto chunkOf = [&](std::int64_t i) { return i % group / p; };
    const auto held = [&](std::int64_t backward, std::int64_t k) -> std::int64_t {
        return backward <= k - 2 ? 2 : backward == k - 1 ? 1 : 0;
    };
    // The first stage's first chunk receives nothing: the embedding makes its input.
    const bool warmUpInput = !(stage == 0 && chunkOf(warmUp) == 0);
    const std::int64_t warmUpBackward = warmUp + (v - 1 - 2 * chunkOf(warmUp)) * p;
    // Until the next forward of its chunk, forward W's input is that chunk's input too.
    const std::int64_t nextOnItsChunk = warmUp % p < p - 1 ? warmUp + 1 : warmUp + (v - 1) * p + 1;
    const auto beside = [&](std::int64_t f) {
        const std::int64_t k = f - warmUp, chunk = chunkOf(f), u = f % p;
        std::int64_t n = 0;
        // The chunks before this forward's in its group ran forward since their last backward;
        // a chunk c after it ran its latest forward in the previous group, backwarded by now iff
        // W ≤ (c + chunk)·p + u (by iteration k − 2 unless equal).
        if (f >= group) {
            const std::int64_t lowest = std::max(chunk + 1, ceilDiv(warmUp - u, p) - chunk);
            if (lowest < v)
                n += 2 * (v - lowest) - std::int64_t((warmUp - u) % p == 0 && (warmUp - u) / p - chunk >= lowest);
        }
        if (warmUpInput && !(f > warmUp && f < nextOnItsChunk))
            n += held(warmUpBackward, k);
        return n;
    };
    // Within a run of forwards on one chunk whose u = f mod p falls on one side of W mod p, the
    // chunks' count stays and the schedule's own input only gains: each run peaks at its end.
    // The groups after W's repeat the last one's counts, which gains the most.
    std::int64_t most = 0;
    for (const std::int64_t start : {warmUp - warmUp % group, m * v - group}) {
        for (std::int64_t chunk = 0; chunk < v; ++chunk)
            for (const std::int64_t u : {warmUp % p - 1, warmUp % p, p - 1}) {
                const std::int64_t f = start + chunk * p + u;
                if (u >= 0 && f >= warmUp)
                    most = std::max(most, beside(f));
            }
    }
    return most;
}

// What an interleaved stage holds beside its backwards (pipeline.h), the most at once: steady
// iteration k runs forward W + k, then backward k; the cooldown runs the backwards left alone.
// Backward k takes chunk v − 1 − (k mod pv) div p, forward i chunk (i mod pv) div p.
struct BesideBackward {
    std::int64_t gradients = 0;   // the previous backward's input gradient and the one backward started from
    std::int64_t ahead = 0;       // the forward's output and the next forward's input
    std::int64_t atLastLayer = 0; // all but the gradient backward started from
    std::int64_t later = 0;       // all
};

BesideBackward interleavedBesideBackward(std::int64_t p, std::int64_t v, std::int64_t m, int stage, std::int64_t warmUp)
{
    const std::int64_t group = p * v, total = m * v, steady = total - warmUp;
    const bool first = stage == 0, last = stage == p - 1;
    const auto forwardChunk = [&](std::int64_t i) { return i % group / p; };
    const auto backwardChunk = [&](std::int64_t k) { return v - 1 - k % group / p; };
    BesideBackward most;
    const auto visit = [&](std::int64_t k) {
        const std::int64_t previous = k >= 1 && !(first && backwardChunk(k - 1) == 0);
        const std::int64_t own = !(last && backwardChunk(k) == v - 1);
        const std::int64_t output = k < steady && !(last && forwardChunk(warmUp + k) == v - 1);
        const std::int64_t input = k < steady - 1 && !(first && forwardChunk(warmUp + k + 1) == 0);
        most.gradients = std::max(most.gradients, previous + own);
        most.ahead = std::max(most.ahead, output + input);
        most.atLastLayer = std::max(most.atLastLayer, previous + output + input);
        most.later = std::max(most.later, previous + own + output + input);
    };
    // Each term changes only where k, or the forward beside it, crosses a chunk's boundary (mod
    // p·v): between the ends of the steady state and of the cooldown the terms repeat each
    // period, so the first k past `from` at each boundary visits every combination.
    const auto visitFrom = [&](std::int64_t from, std::int64_t to, std::initializer_list<std::int64_t> boundaries) {
        if (from > to)
            return;
        visit(from);
        for (const std::int64_t r : boundaries) {
            const std::int64_t k = from + 1 + ((r - from - 1) % group + group) % group;
            if (k <= to)
                visit(k);
        }
    };
    const std::int64_t lastChunk = (v - 1) * p;
    if (steady > 0) {
        visit(steady - 1);
        visitFrom(0, steady - 2, {0, 1, p, lastChunk + 1, lastChunk - warmUp, -warmUp, -warmUp - 1, p - warmUp - 1});
    }
    visitFrom(steady, total - 1, {0, 1, p, lastChunk + 1});
    return most;
}

} // namespace

PipelineInFlight pipelineInFlight(const Scenario &s, int stage)
{
    const std::int64_t p = s.pipelineParallel, v = s.virtualStages, m = s.microBatchesPerStep();
    const bool first = stage == 0, last = stage == p - 1;
    const std::int64_t chunksKeeping = p > 1 ? v - (first ? 1 : 0) : 0;
    if (v == 1) {
        const std::int64_t held = std::min(p - stage, m);
        const std::int64_t steady = m - std::min(p - stage - 1, m);
        const std::int64_t besideForward = steady < 2 ? 0 : std::int64_t(!first) + std::int64_t(!last);
        const std::int64_t previous = m >= 2 && !first, own = !last;
        return {.passes = held,
                .microBatches = held,
                .gradients = std::max(besideForward, previous + own),
                .outputsAhead = 0,
                .chunksKeeping = chunksKeeping,
                .inputsHeld = 0,
                .besideForward = besideForward,
                .besideBackward = previous,
                .besideLaterBackward = previous + own};
    }
    const std::int64_t warmUp = std::min(2 * (p - stage - 1) + (v - 1) * p, m * v);
    const std::int64_t passes = std::min(warmUp + 1, m * v);
    // Forward passes go in groups of p micro-batches through chunk 0, then chunk 1, …: each
    // round of p·v passes starts p new micro-batches.
    const std::int64_t rounds = passes / (p * v), started = std::min(p, passes % (p * v));
    const std::int64_t steady = m * v - warmUp;
    const std::int64_t besideForward = steady < 2 ? 0 : 1 + std::int64_t(!last || steady > p);
    const BesideBackward backward = interleavedBesideBackward(p, v, m, stage, warmUp);
    return {.passes = passes,
            .microBatches = std::min(m, rounds * p + started),
            .gradients = std::max(besideForward, backward.gradients),
            .outputsAhead = backward.ahead,
            .chunksKeeping = chunksKeeping,
            .inputsHeld = inputsHeldAfterBackward(p, v, m, stage, warmUp),
            .besideForward = besideForward,
            .besideBackward = backward.atLastLayer,
            .besideLaterBackward = backward.later};
}

} // namespace vl
