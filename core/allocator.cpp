#include "core/allocator.h"

#include <algorithm>

namespace vl {

namespace {

// c10/cuda/CUDACachingAllocator.cpp's constants.
constexpr Bytes kMinBlockSize = 512;      // every request is rounded up to a multiple of it
constexpr Bytes kSmallSize = kMiB;        // the largest small-pool request, and the most a block keeps unsplit
constexpr Bytes kLargeBuffer = 20 * kMiB; // the segment of a large request below kMinLargeAlloc
constexpr Bytes kMinLargeAlloc = 10 * kMiB;
constexpr Bytes kRoundLarge = 2 * kMiB; // larger requests get a segment of their own, rounded to it

Bytes roundedUp(Bytes bytes, Bytes multiple)
{
    return ceilDiv(bytes, multiple) * multiple;
}

Bytes roundSize(Bytes request)
{
    return std::max(kMinBlockSize, roundedUp(request, kMinBlockSize));
}

} // namespace

void CachingAllocatorReplay::expect(Bytes request)
{
    const Bytes size = roundSize(request);
    if (size > kSmallSize)
        m_smallestLarge = m_smallestLarge == 0 ? size : std::min(m_smallestLarge, size);
}

void CachingAllocatorReplay::allocate(Bytes request)
{
    const Bytes size = roundSize(request);
    if (size <= kSmallSize) {
        m_blocks += size;
        return;
    }
    // The smallest free block that holds the request, else a new segment.
    const auto fits = std::lower_bound(m_free.begin(), m_free.end(), size);
    Bytes block = size < kMinLargeAlloc ? kLargeBuffer : roundedUp(size, kRoundLarge);
    if (fits != m_free.end()) {
        block = *fits;
        m_free.erase(fits);
    }
    if (block - size > kSmallSize) {
        const Bytes rest = block - size;
        if (rest >= m_smallestLarge) // else no request to come fits in it
            m_free.insert(std::upper_bound(m_free.begin(), m_free.end(), rest), rest);
        block = size;
    }
    m_blocks += block;
}

} // namespace vl
