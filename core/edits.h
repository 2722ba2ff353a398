#pragma once
// What follows an edit: rules that every front end applies the same way.

#include "core/scenario.h"

#include <span>
#include <string_view>

namespace vl {

// Once an implementation is chosen, the fields it requires: torchtitan runs attention through
// SDPA; the code-level implementations checkpoint whole layers (no selective recomputation) and
// train Llama without dropout; GPT-2 and BERT are modelled with eager attention. Fields named in
// `keep` (by their CLI names) were set explicitly and stay as they are; validate() then says what
// does not fit.
Scenario withImplementationDefaults(Scenario s, std::span<const std::string_view> keep = {});

} // namespace vl
