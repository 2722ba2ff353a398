#include "core/hubref.h"

#include "core/yamlreader.h"

#include <algorithm>

namespace vl {

namespace {

constexpr std::size_t kMaxPart = 96; // huggingface_hub: REPO_ID_REGEX allows 1 to 96
constexpr std::size_t kMaxRevision = 256;

bool validPart(std::string_view part)
{
    const auto allowed = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
            || c == '.';
    };
    return !part.empty() && part.size() <= kMaxPart && std::all_of(part.begin(), part.end(), allowed)
        && part.front() != '-' && part.front() != '.' && part.back() != '-' && part.back() != '.'
        && part.find("--") == std::string_view::npos && part.find("..") == std::string_view::npos;
}

std::string percentEncoded(std::string_view text)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        const bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '-'
            || u == '_' || u == '.' || u == '~';
        if (plain) {
            out += c;
        } else {
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 15];
        }
    }
    return out;
}

} // namespace

Result<HubModelRef> parseHubModelRef(std::string_view text, std::string_view field)
{
    const auto fail = [&](std::string why) { return Error{std::string(field), std::move(why)}; };
    HubModelRef ref;
    const auto at = text.find('@');
    const std::string_view repo = text.substr(0, at);
    ref.revision = at == std::string_view::npos ? "main" : std::string(text.substr(at + 1));
    const auto slash = repo.find('/');
    const std::string_view owner = slash == std::string_view::npos ? std::string_view() : repo.substr(0, slash);
    const std::string_view name = slash == std::string_view::npos ? repo : repo.substr(slash + 1);
    if (repo.empty() || (slash != std::string_view::npos && !validPart(owner)) || !validPart(name))
        return fail("'" + std::string(text)
                    + "' is not a Hub model id; write ORG/NAME[@REVISION], e.g. "
                      "meta-llama/Llama-3.1-8B or Qwen/Qwen2.5-7B@main (letters, digits, '-', '_' and '.', at most "
                      "96 each)");
    // "." and ".." name no revision, and would be folders in a cache path.
    const bool revisionOk = !ref.revision.empty() && ref.revision != "." && ref.revision != ".."
        && ref.revision.size() <= kMaxRevision && std::none_of(ref.revision.begin(), ref.revision.end(), [](char c) {
               return static_cast<unsigned char>(c) <= ' ' || c == 0x7f;
           });
    if (!revisionOk)
        return fail("'" + ref.revision + "' is not a revision; give a branch, tag or commit without spaces after '@'");
    ref.repo = std::string(repo);
    return ref;
}

std::string hubConfigPath(const HubModelRef &ref)
{
    return "/" + ref.repo + "/resolve/" + percentEncoded(ref.revision) + "/config.json";
}

std::string hubModelInfoPath(const HubModelRef &ref)
{
    return "/api/models/" + ref.repo + "/revision/" + percentEncoded(ref.revision);
}

std::optional<std::int64_t> publishedParameterCount(std::string_view modelInfoJson)
{
    const auto info = YamlReader::parse(modelInfoJson, "model info"); // JSON is YAML
    if (!info || !info->IsMap())
        return std::nullopt;
    try {
        const YAML::Node safetensors = (*info)["safetensors"];
        const YAML::Node total = safetensors.IsMap() ? safetensors["total"] : YAML::Node();
        if (total.IsDefined() && total.IsScalar()) {
            const auto count = total.as<std::int64_t>();
            if (count > 0)
                return count;
        }
    } catch (const YAML::Exception &) { // a total that is no whole number: as if none were given
    }
    return std::nullopt;
}

} // namespace vl
