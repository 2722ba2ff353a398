#include "core/yamlreader.h"

#include "core/units.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace vl {

YamlReader::YamlReader(YAML::Node node, std::string file, std::string path)
    : m_node(std::move(node)), m_file(std::move(file)), m_path(std::move(path))
{
}

Result<YAML::Node> YamlReader::parse(std::string_view text, const std::string &file)
{
    try {
        return YAML::Load(std::string(text));
    } catch (const YAML::Exception &e) {
        return Error{"", "not valid YAML: " + e.msg, file, e.mark.is_null() ? 0 : e.mark.line + 1};
    }
}

Result<YamlReader> YamlReader::openMapping(std::string_view text, const std::string &file)
{
    auto parsed = parse(text, file);
    if (!parsed)
        return parsed.error();
    YamlReader reader(*parsed, file);
    if (auto e = reader.requireMap())
        return *e;
    return reader;
}

std::string YamlReader::pathOf(const char *key) const
{
    return m_path.empty() ? std::string(key) : m_path + '.' + key;
}

Error YamlReader::errorAt(const char *key, std::string message) const
{
    const YAML::Node value = m_node.IsMap() ? m_node[key] : YAML::Node();
    const YAML::Mark mark = value.IsDefined() ? value.Mark() : m_node.Mark();
    return Error{pathOf(key), std::move(message), m_file, mark.is_null() ? 0 : mark.line + 1};
}

Error YamlReader::error(std::string message) const
{
    const YAML::Mark mark = m_node.Mark();
    return Error{m_path, std::move(message), m_file, mark.is_null() ? 0 : mark.line + 1};
}

bool YamlReader::has(const char *key) const
{
    return m_node.IsMap() && m_node[key].IsDefined() && !m_node[key].IsNull();
}

std::optional<Error> YamlReader::requireMap() const
{
    if (!m_node.IsMap())
        return error("expected a mapping of keys to values");
    return std::nullopt;
}

YamlReader YamlReader::child(const char *key) const
{
    return YamlReader(m_node.IsMap() ? m_node[key] : YAML::Node(), m_file, pathOf(key));
}

std::optional<Error> YamlReader::rejectDuplicates() const
{
    if (!m_node.IsMap())
        return std::nullopt;
    // YAML keeps the first of two equal keys and JSON readers the last: neither is what a person
    // meant, so both are refused. Sorted, so a long mapping is checked in n·log n.
    std::vector<std::pair<std::string, YAML::Mark>> keys;
    for (const auto &entry : m_node)
        keys.emplace_back(entry.first.as<std::string>(""), entry.first.Mark());
    std::stable_sort(keys.begin(), keys.end(), [](const auto &l, const auto &r) { return l.first < r.first; });
    for (std::size_t i = 1; i < keys.size(); ++i)
        if (keys[i].first == keys[i - 1].first) {
            const YAML::Mark mark = keys[i].second;
            return Error{pathOf(keys[i].first.c_str()), "appears twice; keep one", m_file,
                         mark.is_null() ? 0 : mark.line + 1};
        }
    return std::nullopt;
}

std::optional<Error> YamlReader::rejectUnknown(std::initializer_list<const char *> known) const
{
    return rejectUnknown(std::vector<std::string>(known.begin(), known.end()));
}

std::optional<Error> YamlReader::rejectUnknown(const std::vector<std::string> &known) const
{
    if (!m_node.IsMap())
        return std::nullopt;
    if (auto duplicate = rejectDuplicates())
        return duplicate;
    for (const auto &entry : m_node) {
        const std::string key = entry.first.as<std::string>("");
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            std::string allowed;
            for (const std::string &k : known)
                allowed += (allowed.empty() ? "" : ", ") + k;
            const YAML::Mark mark = entry.first.Mark();
            return Error{pathOf(key.c_str()), "unknown key; allowed keys here: " + allowed, m_file,
                         mark.is_null() ? 0 : mark.line + 1};
        }
    }
    return std::nullopt;
}

namespace {

std::optional<Error> missing(const YamlReader &r, const char *key, bool required)
{
    if (required && !r.has(key))
        return r.errorAt(key, "is required");
    return std::nullopt;
}

} // namespace

std::optional<Error> YamlReader::integer(const char *key, std::int64_t &out, std::int64_t lo, std::int64_t hi,
                                         bool required)
{
    if (!has(key))
        return missing(*this, key, required);
    const YAML::Node value = m_node[key];
    const std::string text = value.IsScalar() ? value.Scalar() : std::string();
    std::int64_t parsed = 0;
    try {
        if (!value.IsScalar())
            throw YAML::Exception(value.Mark(), "not a scalar");
        parsed = value.as<std::int64_t>();
    } catch (const YAML::Exception &) {
        const bool ranged = lo != std::numeric_limits<std::int64_t>::min()
            || hi != std::numeric_limits<std::int64_t>::max();
        return errorAt(key,
                       "'" + text + "' is not a whole number"
                           + (ranged ? "; allowed " + std::to_string(lo) + " to " + std::to_string(hi) : ""));
    }
    if (parsed < lo || parsed > hi)
        return errorAt(key,
                       std::to_string(parsed) + " is out of range; allowed " + std::to_string(lo) + " to "
                           + std::to_string(hi));
    out = parsed;
    return std::nullopt;
}

std::optional<Error> YamlReader::integer(const char *key, std::int64_t &out, bool required)
{
    return integer(key, out, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
                   required);
}

std::optional<Error> YamlReader::integer(const char *key, int &out, int lo, int hi, bool required)
{
    std::int64_t wide = out;
    if (auto e = integer(key, wide, lo, hi, required))
        return e;
    out = static_cast<int>(wide);
    return std::nullopt;
}

std::optional<Error> YamlReader::count(const char *key, std::int64_t &out, bool required)
{
    if (!has(key))
        return missing(*this, key, required);
    const YAML::Node value = m_node[key];
    const auto parsed = value.IsScalar() ? parseCount(value.Scalar()) : std::nullopt;
    if (!parsed || *parsed < 0)
        return errorAt(key,
                       "'" + (value.IsScalar() ? value.Scalar() : std::string("(not a scalar)"))
                           + "' is not a count; write e.g. 6738415616, 7e9 or 7B");
    out = *parsed;
    return std::nullopt;
}

std::optional<Error> YamlReader::real(const char *key, double &out, double lo, double hi, bool required)
{
    if (!has(key))
        return missing(*this, key, required);
    const YAML::Node value = m_node[key];
    double parsed = 0;
    try {
        if (!value.IsScalar())
            throw YAML::Exception(value.Mark(), "not a scalar");
        parsed = value.as<double>();
    } catch (const YAML::Exception &) {
        return errorAt(key, "'" + (value.IsScalar() ? value.Scalar() : std::string()) + "' is not a number");
    }
    if (!std::isfinite(parsed) || parsed < lo || parsed > hi)
        return errorAt(
            key, value.Scalar() + " is out of range; allowed " + std::to_string(lo) + " to " + std::to_string(hi));
    out = parsed;
    return std::nullopt;
}

std::optional<Error> YamlReader::boolean(const char *key, bool &out, bool required)
{
    if (!has(key))
        return missing(*this, key, required);
    const YAML::Node value = m_node[key];
    try {
        if (!value.IsScalar())
            throw YAML::Exception(value.Mark(), "not a scalar");
        out = value.as<bool>();
    } catch (const YAML::Exception &) {
        return errorAt(key, "'" + (value.IsScalar() ? value.Scalar() : std::string()) + "' is not true or false");
    }
    return std::nullopt;
}

std::optional<Error> YamlReader::string(const char *key, std::string &out, bool required)
{
    if (!has(key))
        return missing(*this, key, required);
    const YAML::Node value = m_node[key];
    if (!value.IsScalar())
        return errorAt(key, "expected text");
    out = value.Scalar();
    return std::nullopt;
}

} // namespace vl
