#include "core/allocator.h"

#include <algorithm>
#include <vector>

namespace vl {

namespace {

// c10/cuda/CUDACachingAllocator.cpp's constants.
constexpr Bytes kMinBlockSize = 512;      // every request is rounded up to a multiple of it
constexpr Bytes kSmallSize = kMiB;        // the largest small-pool request, and the most a block may keep unsplit
constexpr Bytes kLargeBuffer = 20 * kMiB; // the segment of a large request below kMinLargeAlloc
constexpr Bytes kMinLargeAlloc = 10 * kMiB;
constexpr Bytes kRoundLarge = 2 * kMiB; // larger requests get a segment of their own, rounded to it

Bytes roundedUp(Bytes bytes, Bytes multiple)
{
    return (bytes + multiple - 1) / multiple * multiple;
}

} // namespace

Bytes blocksAllocated(std::span<const Bytes> requests)
{
    std::vector<Bytes> freeBlocks; // the large pool's free blocks; only their sizes matter here
    Bytes total = 0;
    for (Bytes request : requests) {
        const Bytes size = std::max(kMinBlockSize, roundedUp(request, kMinBlockSize));
        if (size <= kSmallSize) {
            total += size;
            continue;
        }
        // The smallest free block that holds the request, else a new segment.
        auto fits = freeBlocks.end();
        for (auto it = freeBlocks.begin(); it != freeBlocks.end(); ++it)
            if (*it >= size && (fits == freeBlocks.end() || *it < *fits))
                fits = it;
        Bytes block = size < kMinLargeAlloc ? kLargeBuffer : roundedUp(size, kRoundLarge);
        if (fits != freeBlocks.end()) {
            block = *fits;
            freeBlocks.erase(fits);
        }
        if (block - size > kSmallSize) {
            freeBlocks.push_back(block - size);
            block = size;
        }
        total += block;
    }
    return total;
}

} // namespace vl
