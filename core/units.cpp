#include "core/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace vl {

std::string_view unitSymbol(Units units)
{
    return units == Units::GiB ? "GiB" : "GB";
}

Bytes unitSize(Units units)
{
    return units == Units::GiB ? kGiB : kGB;
}

double toUnits(Bytes bytes, Units units)
{
    return static_cast<double>(bytes) / static_cast<double>(unitSize(units));
}

namespace {

std::string threeDigits(double value)
{
    char buffer[32];
    const double magnitude = std::fabs(value);
    const char *format = magnitude >= 100.0 ? "%.0f" : magnitude >= 10.0 ? "%.1f" : "%.2f";
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

} // namespace

std::string formatBytes(Bytes bytes, Units units)
{
    const bool binary = units == Units::GiB;
    const Bytes magnitude = std::llabs(bytes);
    if (magnitude == 0)
        return "0 " + std::string(unitSymbol(units));
    if (magnitude >= unitSize(units))
        return threeDigits(toUnits(bytes, units)) + ' ' + std::string(unitSymbol(units));
    struct Step {
        Bytes size;
        const char *symbol;
    };
    const Step steps[] = {binary ? Step{kMiB, "MiB"} : Step{1'000'000, "MB"},
                          binary ? Step{kKiB, "KiB"} : Step{1'000, "kB"}};
    for (const Step &step : steps)
        if (magnitude >= step.size)
            return threeDigits(static_cast<double>(bytes) / static_cast<double>(step.size)) + ' ' + step.symbol;
    return std::to_string(bytes) + " B";
}

std::string formatCount(std::int64_t count)
{
    if (std::llabs(count) < 100'000)
        return std::to_string(count);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2e", static_cast<double>(count));
    // "7.00e+09" -> "7.00e9"
    std::string text = buffer;
    const auto e = text.find('e');
    std::string mantissa = text.substr(0, e);
    int exponent = std::stoi(text.substr(e + 1));
    return mantissa + 'e' + std::to_string(exponent);
}

std::optional<std::int64_t> parseCount(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    if (text.empty())
        return std::nullopt;

    double scale = 1.0;
    switch (std::toupper(static_cast<unsigned char>(text.back()))) {
    case 'K': scale = 1e3; break;
    case 'M': scale = 1e6; break;
    case 'B':
    case 'G': scale = 1e9; break;
    case 'T': scale = 1e12; break;
    default: break;
    }
    if (scale != 1.0)
        text.remove_suffix(1);

    // Plain integers stay exact; anything with a point or exponent goes through double.
    std::int64_t integer = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), integer);
    if (error == std::errc() && end == text.data() + text.size()) {
        const double scaled = static_cast<double>(integer) * scale;
        if (scaled > 9.0e18)
            return std::nullopt;
        return scale == 1.0 ? integer : static_cast<std::int64_t>(std::llround(scaled));
    }
    double real = 0.0;
    const auto [endReal, errorReal] = std::from_chars(text.data(), text.data() + text.size(), real);
    if (errorReal != std::errc() || endReal != text.data() + text.size() || !std::isfinite(real))
        return std::nullopt;
    const double scaled = real * scale;
    if (!(scaled >= -9.0e18 && scaled <= 9.0e18) || std::fabs(scaled - std::round(scaled)) > 1e-6 * std::fabs(scaled))
        return std::nullopt; // "1.5" is no count; "6.7B" is

    return static_cast<std::int64_t>(std::llround(scaled));
}

Bytes wholeMiBOfGiB(double gib)
{
    return Bytes(std::llround(gib * double(kGiB / kMiB))) * kMiB;
}

std::optional<Bytes> parseSize(std::string_view text)
{
    struct Suffix {
        std::string_view text;
        Bytes unit;
    };
    for (const Suffix &s : {Suffix{"GiB", kGiB}, Suffix{"MiB", kMiB}, Suffix{"GB", kGB}}) {
        if (text.size() <= s.text.size() || !text.ends_with(s.text))
            continue;
        const std::string_view number = text.substr(0, text.size() - s.text.size());
        double amount = 0;
        const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), amount);
        const double bytes = amount * static_cast<double>(s.unit);
        if (error != std::errc() || end != number.data() + number.size() || !(bytes >= 1.0)
            || bytes > static_cast<double>(Bytes(1) << 50))
            return std::nullopt;
        return static_cast<Bytes>(std::llround(bytes)); // sizes need not be whole: "23.988GB"
    }
    return std::nullopt;
}

std::optional<Units> parseUnits(std::string_view text)
{
    if (text == "gib" || text == "GiB")
        return Units::GiB;
    if (text == "gb" || text == "GB")
        return Units::GB;
    return std::nullopt;
}

} // namespace vl
