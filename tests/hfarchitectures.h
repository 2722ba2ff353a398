#pragma once
// Hugging Face models' shapes that several tests need, from their configs' defaults:
//  - GPT-2 small (GPT2Config: n_embd 768, n_layer 12, n_head 12, n_positions 1024, vocab 50257):
//    learned positions, a GELU MLP four times as wide, LayerNorm before each block, a bias on every
//    linear, the head tied to the token embedding;
//  - BERT-large (bert-large-uncased's config.json: hidden 1024, 24 layers, 16 heads, intermediate
//    4096, 512 positions, vocab 30522): post-norm LayerNorm blocks, a bias on every linear.

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

inline vl::Architecture bertLarge()
{
    return {.hidden = 1024,
            .layers = 24,
            .heads = 16,
            .kvHeads = 16,
            .ffn = 4096,
            .vocab = 30522,
            .learnedPositions = 512,
            .mlp = vl::MlpKind::Gelu,
            .modeling = vl::Modeling::Bert,
            .norm = vl::NormKind::LayerNorm,
            .linearBias = true};
}
