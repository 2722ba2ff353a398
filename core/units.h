#pragma once
// Bytes inside, units only at the edge: this is the one formatter for memory sizes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vl {

using Bytes = std::int64_t;

inline constexpr Bytes kKiB = 1024;
inline constexpr Bytes kMiB = 1024 * kKiB;
inline constexpr Bytes kGiB = 1024 * kMiB;
inline constexpr Bytes kGB = 1'000'000'000;

// a ÷ b rounded up, for positive counts: the shards, chunks or blocks that hold a.
inline constexpr std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

enum class Units { GiB, GB };

std::string_view unitSymbol(Units units);
Bytes unitSize(Units units);
double toUnits(Bytes bytes, Units units);

// "28.0 GB", "1.07 GiB", "512 MiB": three significant digits, dropping to MiB/MB below one unit.
std::string formatBytes(Bytes bytes, Units units);

// A count in the article's style: "7.00e9"; small counts print in full.
std::string formatCount(std::int64_t count);

// Parses "7e9", "7B", "6.7b", "1.5M", "6738415616" into a count; nullopt when malformed.
std::optional<std::int64_t> parseCount(std::string_view text);

std::optional<Units> parseUnits(std::string_view text);

// "80GB", "23.988GB", "24GiB", "81920MiB" -> bytes (a number, then GB, GiB or MiB);
// nullopt when malformed, not positive, or over 1 PiB.
std::optional<Bytes> parseSize(std::string_view text);

// A capacity given in GiB the way nvidia-smi's MiB ÷ 1024 reads: rounded to whole MiB, which
// is what the driver counts in.
Bytes wholeMiBOfGiB(double gib);

} // namespace vl
