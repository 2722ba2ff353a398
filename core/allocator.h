#pragma once
// PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp) as it sizes the blocks it
// hands out: torch.cuda.max_memory_allocated counts blocks, not the bytes the tensors asked for.

#include "core/units.h"

#include <span>

namespace vl {

// The block of every request, for tensors allocated one after another with nothing freed in
// between (a model created on the GPU): each request rounded up to 512 B (round_size); up to
// 1 MiB from the small pool, whose blocks split down to 512 B; above, the smallest free block
// that holds it (get_free_block) or else a new segment, 20 MiB below 10 MiB, else the request
// rounded up to 2 MiB (get_allocation_size); split only when more than 1 MiB would remain
// (should_split), the rest staying free for later requests. Without expandable segments.
Bytes blocksAllocated(std::span<const Bytes> requests);

} // namespace vl
