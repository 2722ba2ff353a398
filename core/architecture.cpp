#include "core/architecture.h"

#include <algorithm>

namespace vl {

namespace {

std::int64_t mlpMatrices(const Architecture &a)
{
    return (gated(a.mlp) ? 3 : 2) * a.hidden * a.ffn;
}

std::int64_t mlpBiases(const Architecture &a)
{
    return a.linearBias ? (gated(a.mlp) ? 2 * a.ffn : a.ffn) + a.hidden : 0;
}

std::int64_t normSize(const Architecture &a)
{
    return a.norm == NormKind::LayerNorm ? 2 * a.hidden : a.hidden;
}

// Qwen3's q_norm and k_norm (modeling_qwen3.py, Qwen3RMSNorm(head_dim)), Megatron's --qk-layernorm:
// one norm over a head's width for the queries, one for the keys, shared by every head.
std::int64_t qkNormSize(const Architecture &a)
{
    if (!a.qkNorm)
        return 0;
    return 2 * (a.norm == NormKind::LayerNorm ? 2 : 1) * a.effectiveHeadDim();
}

} // namespace

ParameterCounts countParameters(const Architecture &a)
{
    const std::int64_t d = a.effectiveHeadDim();
    const std::int64_t qWidth = a.heads * d;
    const std::int64_t kvWidth = a.kvHeads * d;

    ParameterCounts c;
    const std::int64_t attention = a.hidden * qWidth + 2 * a.hidden * kvWidth + qWidth * a.hidden;
    std::int64_t attentionBias = 0;
    if (a.qkvBias || a.linearBias)
        attentionBias += qWidth + 2 * kvWidth;
    const std::int64_t columnBiases = attentionBias
        + (a.linearBias ? (gated(a.mlp) ? 2 * a.ffn : a.ffn) * a.experts : 0);
    if (a.linearBias)
        attentionBias += a.hidden;
    const std::int64_t router = a.experts > 1 ? a.hidden * a.experts : 0;

    c.perLayerMatrices = attention + mlpMatrices(a) * a.experts + router;
    c.perLayerExpertMatrices = a.experts > 1 ? mlpMatrices(a) * a.experts : 0;
    c.perLayerBiases = attentionBias + mlpBiases(a) * a.experts;
    c.perLayerColumnBiases = columnBiases;
    c.perLayerVectors = c.perLayerBiases + a.normsPerLayer * normSize(a) + qkNormSize(a);
    c.perLayerBeforeAttention = a.hidden * (qWidth + 2 * kvWidth)
        + (a.qkvBias || a.linearBias ? qWidth + 2 * kvWidth : 0) + normSize(a) + qkNormSize(a);
    c.activePerLayer = attention + attentionBias + router + a.normsPerLayer * normSize(a) + qkNormSize(a)
        + (mlpMatrices(a) + mlpBiases(a)) * std::min(a.expertsPerToken, a.experts);
    c.embedding = a.vocab * a.hidden + a.learnedPositions * a.hidden;
    c.replicatedEmbedding = a.learnedPositions * a.hidden;
    c.head = a.tiedEmbeddings ? 0 : a.vocab * a.hidden;
    c.finalNorm = normSize(a); // BERT: the embeddings' LayerNorm, the same size
    if (a.modeling == Modeling::Bert) {
        // modeling_bert.py: token-type embeddings (type_vocab_size 2), and instead of an LM head
        // the pooler (h×h + h) and BertForSequenceClassification's classifier (2 labels).
        c.embedding += 2 * a.hidden;
        c.replicatedEmbedding += 2 * a.hidden;
        c.head = a.hidden * a.hidden + a.hidden + 2 * a.hidden + 2;
    }
    c.largestMatrix = std::max({a.vocab * a.hidden, a.hidden * a.ffn, a.hidden * qWidth});

    if (a.fixedParams > 0 && a.layers > 0) {
        // Keep the embeddings real and put the rest of the stated total into the layers.
        const std::int64_t outside = c.embedding + c.head + c.finalNorm;
        const std::int64_t layerShare = std::max<std::int64_t>(a.fixedParams - outside, a.layers);
        const std::int64_t perLayer = layerShare / a.layers;
        c.perLayerVectors = std::min(c.perLayerVectors, perLayer);
        c.perLayerBiases = std::min(c.perLayerBiases, c.perLayerVectors);
        c.perLayerColumnBiases = std::min(c.perLayerColumnBiases, c.perLayerBiases);
        // The experts keep their share of the layer's matrices.
        const double expertShare = c.perLayerMatrices > 0
            ? double(c.perLayerExpertMatrices) / double(c.perLayerMatrices)
            : 0.0;
        c.perLayerMatrices = perLayer - c.perLayerVectors;
        c.perLayerBeforeAttention = 0;
        c.perLayerExpertMatrices = static_cast<std::int64_t>(expertShare * double(c.perLayerMatrices));
        c.activePerLayer = perLayer;
        // Whatever the integer division left over goes to the final norm so the total is exact.
        c.finalNorm = a.fixedParams - outside - perLayer * a.layers + c.finalNorm;
        if (c.finalNorm < 0) { // the stated total is smaller than the embeddings alone
            c.embedding = std::max<std::int64_t>(a.fixedParams - perLayer * a.layers, 0);
            c.replicatedEmbedding = std::min(c.replicatedEmbedding, c.embedding);
            c.head = 0;
            c.finalNorm = 0;
        }
    }
    return c;
}

std::int64_t totalParameters(const Architecture &a)
{
    return countParameters(a).total(a.layers);
}

std::int64_t activeParameters(const Architecture &a)
{
    const ParameterCounts c = countParameters(a);
    return c.activePerLayer * a.layers + c.embedding + c.head + c.finalNorm;
}

std::int64_t hiddenStep(std::int64_t heads, std::int64_t atLeast)
{
    const std::int64_t h = std::max<std::int64_t>(heads, 1);
    return h * std::max<std::int64_t>(1, atLeast / h);
}

std::int64_t largestHidden(std::int64_t step)
{
    const std::int64_t s = std::max<std::int64_t>(step, 1);
    return std::max(s, kLargestHidden / s * s);
}

std::int64_t headsDividingHidden(const Architecture &arch)
{
    const std::int64_t heads = std::max<std::int64_t>(arch.heads, 1);
    if (arch.headDim > 0 || arch.hidden % heads == 0)
        return arch.hidden;
    return (arch.hidden / heads + 1) * heads;
}

const char *toString(MlpKind kind)
{
    switch (kind) {
    case MlpKind::Gelu: return "gelu";
    case MlpKind::SwiGlu: return "swiglu";
    case MlpKind::GeGlu: return "geglu";
    }
    return "swiglu";
}

const char *toString(Modeling modeling)
{
    switch (modeling) {
    case Modeling::Llama: return "llama";
    case Modeling::Gpt2: return "gpt2";
    case Modeling::Bert: return "bert";
    case Modeling::GptNeox: return "gpt-neox";
    }
    return "llama";
}

Modeling modelingOf(MlpKind mlp, NormKind norm)
{
    return mlp == MlpKind::Gelu && norm == NormKind::LayerNorm ? Modeling::Gpt2 : Modeling::Llama;
}

const char *toString(NormKind kind)
{
    return kind == NormKind::LayerNorm ? "layernorm" : "rmsnorm";
}

} // namespace vl
