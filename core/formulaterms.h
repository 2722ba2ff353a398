#pragma once
// The words core's formulas are made of ("trainable params", "saved by the loss"), in one
// table. The CLI prints formulas as they are; the GUI shows each term translated (context
// "vl::formula"). tst_formulaterms checks that every formula is made of these terms, numbers,
// units and symbols only, so a word changed in estimate.cpp cannot go untranslated silently.

#include <span>
#include <string_view>

namespace vl {

std::span<const std::string_view> formulaTerms(); // longest first

} // namespace vl
