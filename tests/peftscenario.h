#pragma once
// PEFT scenarios shared by the tests that look at them.

#include "core/scenario.h"

// PEFT's QLoRA in Hugging Face's code under DeepSpeed ZeRO-3 (its DeepSpeed guide's recipe:
// BF16, LoRA on every projection, a 4-bit base that is never built under zero.Init): the
// scenario whose start-up holds the whole model.
inline void peftQloraUnderZero3(vl::Scenario &s)
{
    s.implementation = vl::Implementation::HuggingFace;
    s.precision = vl::Precision::MixedBf16;
    s.fineTune = vl::FineTune::QLoRA;
    s.loraTargets = vl::LoraAll;
    s.zeroStage = 3;
    s.dataParallel = 2;
}

// PEFT's LoRA in Hugging Face's code, pure BF16 with flash attention and every layer recomputed
// under the reentrant checkpoint, over accelerate's FSDP1 on two GPUs: the scenario whose frozen
// layers' checkpoints FSDP1's reshard hook keeps through backward.
inline void peftLoraUnderFsdp1(vl::Scenario &s)
{
    s.implementation = vl::Implementation::HuggingFace;
    s.attention = vl::Attention::Flash;
    s.precision = vl::Precision::Bf16;
    s.recompute = vl::Recompute::Full;
    s.fineTune = vl::FineTune::LoRA;
    s.zeroStage = 3;
    s.sharding = vl::Sharding::Fsdp;
    s.fsdpVersion = vl::FsdpVersion::Fsdp1;
    s.dataParallel = 2;
}
