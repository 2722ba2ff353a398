#pragma once
// Llama-2-13B fine-tuned with LoRA by lit-gpt (finetune/lora.py at 8641822: bf16-true, LoRA on q
// and v, flash attention), whose weights lit-gpt makes on the GPU one after another: the
// scenario of the allocator's block tails, shared by the tests that look at them.

#include "core/scenario.h"

inline vl::Scenario litgptLlama2_13bLora()
{
    vl::Scenario s;
    s.arch.hidden = 5120;
    s.arch.layers = 40;
    s.arch.heads = s.arch.kvHeads = 40;
    s.arch.ffn = 13824;
    s.implementation = vl::Implementation::LitGpt;
    s.precision = vl::Precision::Bf16;
    s.attention = vl::Attention::Flash;
    s.fineTune = vl::FineTune::LoRA;
    s.loraTargets = vl::LoraQ | vl::LoraV;
    return s;
}
