#pragma once
// PEFT's QLoRA in Hugging Face's code under DeepSpeed ZeRO-3 (its DeepSpeed guide's recipe:
// BF16, LoRA on every projection, a 4-bit base that is never built under zero.Init): the
// scenario whose start-up holds the whole model, shared by the tests that look at it.

#include "core/scenario.h"

inline void peftQloraUnderZero3(vl::Scenario &s)
{
    s.implementation = vl::Implementation::HuggingFace;
    s.precision = vl::Precision::MixedBf16;
    s.fineTune = vl::FineTune::QLoRA;
    s.loraTargets = vl::LoraAll;
    s.zeroStage = 3;
    s.dataParallel = 2;
}
