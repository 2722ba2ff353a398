#include "core/hfconfig.h"

#include "core/yamlreader.h"

#include <algorithm>

namespace vl {

namespace {

// Which config key holds each field, per key style (GPT-2 vs Llama-family).
struct KeyNames {
    const char *hidden, *layers, *heads, *ffn, *positions;
};
constexpr KeyNames kGpt2Keys{"n_embd", "n_layer", "n_head", "n_inner", "n_positions"};
constexpr KeyNames kLlamaKeys{"hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", ""};

} // namespace

Result<ModelPreset> importHfConfig(std::string_view json, const std::string &file)
{
    return guardedLoad(file, [&]() -> Result<ModelPreset> {
        auto opened = YamlReader::openMapping(json, file);
        if (!opened)
            return opened.error();
        YamlReader r = *opened;

        std::string modelType, nameOrPath;
        r.string("model_type", modelType);
        r.string("_name_or_path", nameOrPath);
        const bool gpt2Style = r.has("n_embd") || modelType == "gpt2";
        const bool bert = modelType == "bert";
        const KeyNames &keys = gpt2Style ? kGpt2Keys : kLlamaKeys;

        std::string missing;
        for (const char *key : {keys.hidden, keys.layers, keys.heads, "vocab_size"})
            if (!r.has(key))
                missing += (missing.empty() ? "" : ", ") + std::string(key);
        if (!gpt2Style && !r.has(keys.ffn))
            missing += (missing.empty() ? "" : ", ") + std::string(keys.ffn);
        if (!missing.empty())
            return Error{"", "not a complete GPT-2, BERT or Llama-family config" + (modelType.empty() ? "" : " (model_type '" + modelType + "')")
                                 + "; missing " + missing + ". Enter the architecture by hand instead.",
                         file};

        ModelPreset m;
        Architecture &a = m.arch;
        a.fixedParams = 0;
        std::optional<Error> e;
        (e = r.integer(keys.hidden, a.hidden, 1, 1 << 20, true))
            || (e = r.integer(keys.layers, a.layers, 1, 10'000, true))
            || (e = r.integer(keys.heads, a.heads, 1, 65'536, true))
            || (e = r.integer("vocab_size", a.vocab, 1, 1 << 24, true));
        if (e)
            return *e;

        if (gpt2Style) {
            a.kvHeads = a.heads;
            a.ffn = 4 * a.hidden; // n_inner: null means 4h
            a.mlp = MlpKind::Gelu;
            a.norm = NormKind::LayerNorm;
            a.linearBias = true;
            a.tiedEmbeddings = true;
            (e = r.integer(keys.ffn, a.ffn, 1, 1 << 24))
                || (e = r.integer(keys.positions, a.learnedPositions, 0, 1 << 24))
                || (e = r.boolean("tie_word_embeddings", a.tiedEmbeddings));
            a.modeling = Modeling::Gpt2;
        } else if (bert) {
            // modeling_bert.py: post-norm LayerNorm layers with biases, GELU, learned positions.
            a.kvHeads = a.heads;
            a.mlp = MlpKind::Gelu;
            a.norm = NormKind::LayerNorm;
            a.linearBias = true;
            a.tiedEmbeddings = true; // PretrainedConfig's default; the MLM decoder shares the embedding
            a.modeling = Modeling::Bert;
            (e = r.integer(keys.ffn, a.ffn, 1, 1 << 24, true))
                || (e = r.integer("max_position_embeddings", a.learnedPositions, 0, 1 << 24))
                || (e = r.boolean("tie_word_embeddings", a.tiedEmbeddings));
        } else {
            a.kvHeads = a.heads;
            a.mlp = MlpKind::Gated;
            a.norm = NormKind::RmsNorm;
            if (modelType == "gemma2")
                a.normsPerLayer = 4;
            a.qkvBias = modelType == "qwen2" || modelType == "qwen2_moe";
            (e = r.integer(keys.ffn, a.ffn, 1, 1 << 24, true))
                || (e = r.integer("num_key_value_heads", a.kvHeads, 1, 65'536))
                || (e = r.integer("head_dim", a.headDim, 0, 65'536))
                || (e = r.boolean("tie_word_embeddings", a.tiedEmbeddings))
                || (e = r.boolean("attention_bias", a.qkvBias))
                || (e = r.integer("num_local_experts", a.experts, 1, 4096))
                || (e = r.integer("num_experts_per_tok", a.expertsPerToken, 1, 4096));
            if (!r.has("tie_word_embeddings") && modelType == "gemma2")
                a.tiedEmbeddings = true;
        }
        if (e)
            return *e;
        if (a.headDim == 0 && a.hidden % a.heads != 0)
            return r.errorAt(keys.heads, std::to_string(a.heads) + " does not divide " + keys.hidden + " "
                                             + std::to_string(a.hidden) + " and there is no head_dim");
        if (a.heads % a.kvHeads != 0)
            return r.errorAt("num_key_value_heads", std::to_string(a.kvHeads) + " must divide the attention heads");
        if (a.expertsPerToken > a.experts)
            return r.errorAt("num_experts_per_tok", "exceeds num_local_experts");
        if (a.headDim == a.hidden / a.heads)
            a.headDim = 0; // the default; keep presets minimal

        m.family = modelType.empty() ? (gpt2Style ? "gpt2" : "llama") : modelType;
        m.id = slugify(nameOrPath.empty() ? m.family : nameOrPath);
        if (m.id.empty())
            m.id = "imported";
        m.name = nameOrPath.empty() ? m.family : nameOrPath;
        m.source = "imported from " + file;
        return m;
    });
}

} // namespace vl
