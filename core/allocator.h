#pragma once
// PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp) as it sizes the blocks it
// hands out: torch.cuda.max_memory_allocated counts blocks, not the bytes the tensors asked for.

#include "core/units.h"

#include <array>
#include <cstddef>
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
    Bytes blocks() const { return m_blocks; } // all the blocks handed out so far

private:
    std::array<std::byte, 2048> m_arena;
    std::pmr::monotonic_buffer_resource m_resource{m_arena.data(), m_arena.size()};
    std::pmr::vector<Bytes> m_free{&m_resource}; // the large pool's free blocks, by size
    Bytes m_smallestLarge = 0;                   // the smallest large request expected; 0: none
    Bytes m_blocks = 0;
};

} // namespace vl
