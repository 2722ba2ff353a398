#include "core/result.h"

namespace vl {

std::string Error::describe() const
{
    std::string out;
    if (!file.empty()) {
        out += file;
        if (line > 0)
            out += ':' + std::to_string(line);
        out += ": ";
    }
    if (!field.empty())
        out += field + ": ";
    out += message;
    return out;
}

} // namespace vl
