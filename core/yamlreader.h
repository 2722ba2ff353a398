#pragma once
// Strict, typed reading of a YAML mapping. Every failure becomes an Error naming the file,
// the line and the dotted field path, and saying what is allowed. Unknown keys are errors
// too: a typo must not silently fall back to a default.

#include "core/result.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace vl {

// Runs a loader and turns any yaml-cpp exception it lets through (a node of an unexpected
// shape deep inside) into an Error, so no file can crash the program.
template <class Load>
auto guardedLoad(const std::string &file, Load &&load) -> decltype(load())
{
    try {
        return load();
    } catch (const YAML::Exception &e) {
        return Error{"", "unexpected structure: " + e.msg, file, e.mark.is_null() ? 0 : e.mark.line + 1};
    }
}

class YamlReader {
public:
    YamlReader(YAML::Node node, std::string file, std::string path = {});

    // Parses text; a syntax error comes back with yaml-cpp's line.
    static Result<YAML::Node> parse(std::string_view text, const std::string &file);
    // Parses text that must be a mapping at the top, as every file of ours is.
    static Result<YamlReader> openMapping(std::string_view text, const std::string &file);

    bool has(const char *key) const;
    std::optional<Error> requireMap() const;

    // Each reader leaves `out` alone when the key is absent and `required` is false.
    // A scenario's numbers are read as whole numbers only: their ranges are scenarioError()'s.
    std::optional<Error> integer(const char *key, std::int64_t &out, bool required = false);
    std::optional<Error> integer(const char *key, std::int64_t &out, std::int64_t lo, std::int64_t hi,
                                 bool required = false);
    std::optional<Error> integer(const char *key, int &out, int lo, int hi, bool required = false);
    std::optional<Error> count(const char *key, std::int64_t &out, bool required = false); // accepts 7e9, 7B
    std::optional<Error> real(const char *key, double &out, double lo, double hi, bool required = false);
    std::optional<Error> boolean(const char *key, bool &out, bool required = false);
    std::optional<Error> string(const char *key, std::string &out, bool required = false);
    // A word from a fixed set, parsed by `parse`; `allowed` lists the words for the message.
    template <class T, class Parse>
    std::optional<Error> word(const char *key, T &out, Parse &&parse, std::string_view allowed, bool required = false)
    {
        std::string text;
        if (auto error = string(key, text, required))
            return error;
        if (text.empty() && !has(key))
            return std::nullopt;
        const auto value = parse(text);
        if (!value)
            return errorAt(key, "'" + text + "' is not allowed; use one of " + std::string(allowed));
        out = *value;
        return std::nullopt;
    }

    YamlReader child(const char *key) const;
    // Errors for every key of this mapping not in `known`.
    std::optional<Error> rejectDuplicates() const; // a key given twice
    std::optional<Error> rejectUnknown(std::initializer_list<const char *> known) const;
    std::optional<Error> rejectUnknown(const std::vector<std::string> &known) const;

    Error errorAt(const char *key, std::string message) const;
    Error error(std::string message) const; // about this node itself
    const YAML::Node &node() const { return m_node; }
    const std::string &file() const { return m_file; }
    std::string pathOf(const char *key) const;

private:
    YAML::Node m_node;
    std::string m_file;
    std::string m_path;
};

} // namespace vl
