#pragma once
// GPT-2 small's shapes (transformers' GPT2Config defaults: n_embd 768, n_layer 12, n_head 12,
// n_positions 1024, vocab 50257): learned positions, a GELU MLP four times as wide, LayerNorm,
// a bias on every linear, the head tied to the token embedding. Shared by the tests that need
// GPT-2's block.

#include "core/architecture.h"

inline vl::Architecture gpt2Small()
{
    return {.hidden = 768,
            .layers = 12,
            .heads = 12,
            .kvHeads = 12,
            .ffn = 3072,
            .vocab = 50257,
            .learnedPositions = 1024,
            .mlp = vl::MlpKind::Gelu,
            .modeling = vl::Modeling::Gpt2,
            .norm = vl::NormKind::LayerNorm,
            .tiedEmbeddings = true,
            .linearBias = true};
}
