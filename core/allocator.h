#pragma once
// PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp) as it sizes the blocks it
// hands out: torch.cuda.max_memory_allocated counts blocks, not the bytes the tensors asked for.

#include "core/units.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <vector>

namespace vl {

// The blocks of tensors allocated one after another with nothing freed in between (a model
// created on the GPU): each request rounded up to 512 B (round_size); up to 1 MiB from the small
// pool, whose blocks split down to 512 B; above, the smallest free block that holds it
// (get_free_block) or else a new segment, 20 MiB below 10 MiB, else the request rounded up to
// 2 MiB (get_allocation_size); split only when more than 1 MiB would remain (should_split), the
// rest staying free for later requests. Without expandable segments.
//
// Hand it every request with expect() first, then each in order with allocate(): a free block
// smaller than every large request to come can serve none and is dropped, so the free list stays
// short and lives in the replay's own buffer (the estimate's numeric path allocates nothing).
class CachingAllocatorReplay {
public:
    CachingAllocatorReplay() = default;
    CachingAllocatorReplay(const CachingAllocatorReplay &) = delete;
    CachingAllocatorReplay &operator=(const CachingAllocatorReplay &) = delete;

    void expect(Bytes request);
    void allocate(Bytes request);
    // `times` runs of the same requests, which `run(allocate)` makes: once a run leaves the free
    // blocks as a run up to kPeriods before it did, the runs repeat from there and the rest are
    // counted, not replayed (a model's layers, alike, cost a few runs whatever their number).
    template <class Run>
    void allocateRepeated(std::int64_t times, Run &&run);
    Bytes blocks() const { return m_blocks; } // all the blocks handed out so far

private:
    static constexpr std::int64_t kPeriods = 4;
    // The pool after a run: its free blocks, unless more than a few (then no period is looked for).
    struct AfterRun {
        std::array<Bytes, 16> free{};
        std::size_t count = 0;
        bool recorded = false;
        Bytes blocks = 0;
        bool holds(const std::pmr::vector<Bytes> &now) const
        {
            return recorded && std::equal(free.begin(), free.begin() + count, now.begin(), now.end());
        }
    };
    std::array<std::byte, 2048> m_arena;
    std::pmr::monotonic_buffer_resource m_resource{m_arena.data(), m_arena.size()};
    std::pmr::vector<Bytes> m_free{&m_resource}; // the large pool's free blocks, smallest first
    std::array<AfterRun, kPeriods> m_history{};  // after each of the last kPeriods runs
    Bytes m_smallestLarge = 0;                   // the smallest large request expected; 0: none
    Bytes m_blocks = 0;
};

template <class Run>
void CachingAllocatorReplay::allocateRepeated(std::int64_t times, Run &&run)
{
    const auto allocateOne = [this](Bytes request) { allocate(request); };
    for (std::int64_t done = 1; done <= times; ++done) {
        run(allocateOne);
        // Runs done − period + 1 … done left the pool as they found it: each later period of
        // runs hands out what those did.
        for (std::int64_t period = 1; period <= std::min(done - 1, kPeriods); ++period) {
            const AfterRun &then = m_history[std::size_t((done - period) % kPeriods)];
            if (!then.holds(m_free))
                continue;
            const std::int64_t left = times - done;
            m_blocks += left / period * (m_blocks - then.blocks);
            for (std::int64_t rest = left % period; rest > 0; --rest)
                run(allocateOne);
            return;
        }
        AfterRun &now = m_history[std::size_t(done % kPeriods)];
        now.recorded = m_free.size() <= now.free.size();
        now.count = std::min(m_free.size(), now.free.size());
        std::copy_n(m_free.begin(), now.count, now.free.begin());
        now.blocks = m_blocks;
    }
}

} // namespace vl
