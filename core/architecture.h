#pragma once
// A decoder-only transformer described by the fields of its config.json, and the exact
// parameter count those fields imply.

#include <cstdint>
#include <string>

namespace vl {

// SwiGLU and GeGLU (gated: three matrices) differ only in the gate's activation, SiLU or GELU.
enum class MlpKind { Gelu, SwiGlu, GeGlu };
constexpr bool gated(MlpKind kind)
{
    return kind != MlpKind::Gelu;
}
enum class NormKind { LayerNorm, RmsNorm }; // LayerNorm has weight and bias, RMSNorm weight only
// Which block the model's code computes (what its layers save depends on it): Hugging Face
// transformers' modeling_llama.py (also Mistral, Qwen2), modeling_gpt2.py, modeling_bert.py, or
// the GPT-NeoX-style parallel-residual block (phi-1.5, StableLM-alpha) as lit-gpt writes it.
enum class Modeling { Llama, Gpt2, Bert, GptNeox };

// The defaults are Llama-2-7B's shapes, counted from them. The article's example uses these
// shapes with its "7B" given directly (articleExampleDocument(), the seed-7b preset).
struct Architecture {
    std::int64_t hidden = 4096;
    std::int64_t layers = 32;
    std::int64_t heads = 32;
    std::int64_t kvHeads = 32; // = heads for multi-head attention
    std::int64_t headDim = 0;  // 0: hidden / heads
    std::int64_t ffn = 11008;  // MLP intermediate size (per expert for MoE)
    std::int64_t vocab = 32000;
    std::int64_t learnedPositions = 0; // GPT-2's n_positions; 0 for rotary models
    // The positions a rotary model is built for (config.json's max_position_embeddings, torchtune's
    // max_seq_len), which torchtune's RoPE caches whole; 0: not stated.
    std::int64_t rotaryPositions = 0;
    MlpKind mlp = MlpKind::SwiGlu;
    Modeling modeling = Modeling::Llama;
    NormKind norm = NormKind::RmsNorm;
    // Two: before attention and before the MLP. Four (Gemma-2, Gemma-3): after each of them too.
    std::int64_t normsPerLayer = 2;
    bool zeroCenteredNorm = false;  // Gemma: norms scale by 1 + weight (Megatron's --apply-layernorm-1p)
    bool softCapping = false;       // Gemma-2: tanh soft-capping of the attention scores and the logits
    std::int64_t slidingWindow = 0; // tokens a sliding-window layer attends back to; 0: none
    bool tiedEmbeddings = false;
    bool qkvBias = false;             // Qwen2
    bool qkNorm = false;              // Qwen3: a norm over each head's queries and keys (q_norm, k_norm)
    bool linearBias = false;          // GPT-2: every linear layer has a bias
    bool parallelResidual = true;     // gpt-neox blocks: attention and MLP read the same input
    std::int64_t experts = 1;         // MoE: experts per layer (1 = dense)
    std::int64_t expertsPerToken = 1; // MoE: top-k
    std::int64_t fixedParams = 0; // > 0: a count given directly (the article's "7B"); shapes still drive activations

    std::int64_t effectiveHeadDim() const { return headDim > 0 ? headDim : hidden / heads; }
    bool operator==(const Architecture &) const = default;
};

// Parameter counts by where they live, so sharding and pipelining can split them.
struct ParameterCounts {
    std::int64_t perLayerMatrices = 0;       // weight matrices of one transformer layer (split by TP)
    std::int64_t perLayerExpertMatrices = 0; // the MoE experts' among them (split by EP as well)
    std::int64_t perLayerVectors = 0;        // biases and norms of one layer (replicated under TP)
    std::int64_t perLayerBiases = 0;         // the biases among them: what a linear layer reads with its weight
    // The column-parallel linears' biases among them (query/key/value, the MLP's up and gate):
    // split by TP with their weights; the row-parallel ones (output projection, down) are whole.
    std::int64_t perLayerColumnBiases = 0;
    // Of one layer's parameters, those its forward uses before the attention's scores: the first
    // norm, the query, key and value projections with their biases, the query and key norms.
    // Unknown (0) where a stated total scales the layer away from its shapes.
    std::int64_t perLayerBeforeAttention = 0;
    std::int64_t embedding = 0; // token embedding (+ learned positions)
    // The learned positions (and BERT's token types) among them: a plain embedding on every
    // tensor-parallel GPU, not split like the vocabulary.
    std::int64_t replicatedEmbedding = 0;
    std::int64_t head = 0; // untied LM head (0 when tied)
    std::int64_t finalNorm = 0;
    std::int64_t activePerLayer = 0; // MoE: what one token touches in one layer
    std::int64_t largestMatrix = 0;  // the biggest single weight (ZeRO-3 gathers whole modules)

    std::int64_t perLayer() const { return perLayerMatrices + perLayerVectors; }
    std::int64_t total(std::int64_t layers) const { return perLayer() * layers + embedding + head + finalNorm; }
};

// Exact counts from the shapes. With fixedParams set, the layer share is scaled so the
// total equals fixedParams while embedding and head keep their real sizes.
ParameterCounts countParameters(const Architecture &arch);
std::int64_t totalParameters(const Architecture &arch);
std::int64_t activeParameters(const Architecture &arch);

// The step in which hidden size can move, at least `atLeast`, so that the heads always
// divide it: a whole number of heads.
std::int64_t hiddenStep(std::int64_t heads, std::int64_t atLeast);
// The largest hidden size the sliders and sweeps offer, in whole steps (at least one step).
inline constexpr std::int64_t kLargestHidden = 32768;
std::int64_t largestHidden(std::int64_t step);
// A hidden size the heads divide: arch.hidden itself, or the next one up. A model that
// fixes head_dim keeps its hidden size as it is (the heads need not divide it).
std::int64_t headsDividingHidden(const Architecture &arch);

const char *toString(MlpKind kind);
const char *toString(NormKind kind);
const char *toString(Modeling modeling);
// A model given only by its shapes: LayerNorm with a GELU MLP reads as GPT-2, anything else as Llama.
Modeling modelingOf(MlpKind mlp, NormKind norm);

} // namespace vl
