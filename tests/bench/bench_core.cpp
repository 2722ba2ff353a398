// Core speed: estimates per second (numbers only and with formula text), solvers, sweeps.
// Prints one JSON object. Run a release build: cmake --preset release && build-release/bench/vl-bench-core

#include "core/estimate.h"
#include "core/solve.h"

#include <chrono>
#include <cstdio>

using namespace vl;
using Clock = std::chrono::steady_clock;

namespace {

Scenario llamaClass()
{
    Scenario s;
    s.arch.kvHeads = 8;
    s.arch.ffn = 14336;
    s.arch.vocab = 128256;
    s.precision = Precision::MixedBf16;
    s.attention = Attention::Flash;
    s.zeroStage = 3;
    s.dataParallel = 8;
    s.recompute = Recompute::Selective;
    return s;
}

// Seconds per call of f, over enough calls to take about `budget` seconds in all.
template <class F>
double secondsPerCall(F &&f, double budget = 0.5)
{
    long calls = 1;
    for (;;) {
        const auto start = Clock::now();
        for (long i = 0; i < calls; ++i)
            f(i);
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (elapsed > budget)
            return elapsed / static_cast<double>(calls);
        calls *= 2;
    }
}

volatile Bytes g_sink; // keeps the optimiser from discarding the work

} // namespace

int main()
{
    Scenario s = llamaClass();
    const double numeric = secondsPerCall([&](long i) {
        s.microBatch = 1 + (i & 7); // vary the input so nothing is hoisted out of the loop
        g_sink = estimate(s).total;
    });
    const double text = secondsPerCall([&](long i) {
        s.microBatch = 1 + (i & 7);
        g_sink = static_cast<Bytes>(explain(s, Units::GiB).size());
    });
    s.microBatch = 1;
    const Bytes h100 = 81559 * kMiB;
    const double batchSolve = secondsPerCall([&](long) { g_sink = maxMicroBatch(s, h100); });
    const double seqSolve = secondsPerCall([&](long) { g_sink = maxSequence(s, h100); });
    const double gpuSolve = secondsPerCall([&](long) { g_sink = minDataParallel(s, 24 * kGiB); });
    const SweepSpec spec{"seq", 1, 1000, 1};
    const double sweep = secondsPerCall([&](long) { g_sink = static_cast<Bytes>(runSweep(s, spec)->size()); });

    std::printf("{\n  \"estimates_per_second\": %.0f,\n  \"explained_estimates_per_second\": %.0f,\n"
                "  \"solve_max_batch_us\": %.2f,\n  \"solve_max_seq_us\": %.2f,\n  \"solve_min_gpus_us\": %.2f,\n"
                "  \"sweep_1000_points_ms\": %.3f\n}\n",
                1.0 / numeric, 1.0 / text, batchSolve * 1e6, seqSolve * 1e6, gpuSolve * 1e6, sweep * 1e3);
    return 0;
}
