#include "core/edits.h"

#include <algorithm>

namespace vl {

Scenario withImplementationDefaults(Scenario s, std::span<const std::string_view> keep)
{
    if (s.implementation == Implementation::Megatron)
        return s;
    const auto free = [&](std::initializer_list<std::string_view> names) {
        return std::none_of(names.begin(), names.end(),
                            [&](std::string_view name) { return std::find(keep.begin(), keep.end(), name) != keep.end(); });
    };
    const bool llama = s.arch.modeling == Modeling::Llama;
    if (free({"attention", "flash-attention"})) {
        if (s.implementation == Implementation::TorchTitan)
            s.attention = Attention::Sdpa;
        else if (!llama)
            s.attention = Attention::Eager;
    }
    if (free({"recompute"}) && s.recompute == Recompute::Selective)
        s.recompute = Recompute::Full;
    if (free({"dropout"}) && llama)
        s.dropout = false;
    return s;
}

} // namespace vl
