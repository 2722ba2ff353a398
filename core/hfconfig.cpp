#include "core/hfconfig.h"

#include "core/estimate.h"
#include "core/yamlreader.h"

#include <algorithm>
#include <optional>
#include <string>

namespace vl {

namespace {

// Which config key holds each field, per key style (GPT-2 vs Llama-family).
struct KeyNames {
    const char *hidden, *layers, *heads, *ffn, *positions;
};
constexpr KeyNames kGpt2Keys{"n_embd", "n_layer", "n_head", "n_inner", "n_positions"};
constexpr KeyNames kLlamaKeys{"hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", ""};

std::optional<unsigned> hexUnit(std::string_view text, std::size_t at)
{
    if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u')
        return std::nullopt;
    unsigned value = 0;
    for (std::size_t i = at + 2; i < at + 6; ++i) {
        const char c = text[i];
        const int digit = c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f'             ? c - 'a' + 10
            : c >= 'A' && c <= 'F'             ? c - 'A' + 10
                                               : -1;
        if (digit < 0)
            return std::nullopt;
        value = value * 16 + unsigned(digit);
    }
    return value;
}

// JSON writes characters beyond U+FFFF as a UTF-16 surrogate pair ("\ud83d\ude42", as Python's
// json.dumps does); yaml-cpp reads \u escapes one at a time and refuses half a pair. Replace each
// escaped pair by the character in UTF-8 (an escaped backslash before it is left alone).
std::string joinSurrogatePairs(std::string_view json)
{
    std::string out;
    out.reserve(json.size());
    for (std::size_t i = 0; i < json.size(); ++i) {
        if (json[i] == '\\' && i + 1 < json.size() && json[i + 1] == '\\') {
            out += "\\\\";
            ++i;
            continue;
        }
        const auto high = hexUnit(json, i), low = hexUnit(json, i + 6);
        if (high && low && *high >= 0xD800 && *high <= 0xDBFF && *low >= 0xDC00 && *low <= 0xDFFF) {
            const unsigned code = 0x10000 + ((*high - 0xD800) << 10) + (*low - 0xDC00);
            out += char(0xF0 | (code >> 18));
            out += char(0x80 | ((code >> 12) & 0x3F));
            out += char(0x80 | ((code >> 6) & 0x3F));
            out += char(0x80 | (code & 0x3F));
            i += 11;
            continue;
        }
        out += json[i];
    }
    return out;
}

// The block a config's model_type builds, as the import reads its keys.
enum class ConfigBlock { Gpt2, Bert, GptNeox, LlamaFamily };

// Each model_type whose Hugging Face modeling code builds a block the fields express, with what
// its code fixes beyond the keys read (transformers models/<type>/modeling_<type>.py and
// configuration_<type>.py). Other types are refused, not read as the nearest one: Phi-2's
// LayerNorm and plain GELU MLP, OLMo-2's full-width query/key norms after the projections,
// GPT-BigCode's single key/value head or Jamba's Mamba layers would be counted as another model.
struct KnownModelType {
    std::string_view modelType;
    ConfigBlock block;
    bool qkvBias = false;            // Qwen2: biases on q, k and v only (qkv_bias=True in its attention)
    bool qkNorm = false;             // Qwen3, Gemma-3: an RMSNorm over each head's queries and keys
    bool zeroCenteredNorm = false;   // Gemma: RMSNorm scales by 1 + weight
    bool fourNorms = false;          // Gemma-2, Gemma-3: a norm before and after attention and the MLP
    bool tiedDefault = false;        // the config class's tie_word_embeddings default (Gemma's True)
    bool softCappingDefault = false; // Gemma2Config: final_logit_softcapping 30, attn_logit_softcapping 50
    bool slidingWindow = false;      // its sliding_window key is a window its layers attend within
};
using enum ConfigBlock;
constexpr KnownModelType kKnownModelTypes[] = {
    {.modelType = "gpt2", .block = Gpt2},
    {.modelType = "bert", .block = Bert},
    {.modelType = "gpt_neox", .block = GptNeox},
    {.modelType = "llama", .block = LlamaFamily},
    {.modelType = "mistral", .block = LlamaFamily, .slidingWindow = true},
    {.modelType = "mixtral", .block = LlamaFamily, .slidingWindow = true},
    // Phi-3: fused qkv_proj and gate_up_proj, the same weights split; Phi3Model.forward masks its
    // sliding_window
    {.modelType = "phi3", .block = LlamaFamily, .slidingWindow = true},
    {.modelType = "qwen2", .block = LlamaFamily, .qkvBias = true},
    {.modelType = "qwen2_moe", .block = LlamaFamily, .qkvBias = true},
    {.modelType = "qwen3", .block = LlamaFamily, .qkNorm = true},
    {.modelType = "qwen3_moe", .block = LlamaFamily, .qkNorm = true},
    {.modelType = "gemma", .block = LlamaFamily, .zeroCenteredNorm = true, .tiedDefault = true},
    {.modelType = "gemma2",
     .block = LlamaFamily,
     .zeroCenteredNorm = true,
     .fourNorms = true,
     .tiedDefault = true,
     .softCappingDefault = true,
     .slidingWindow = true},
    {.modelType = "gemma3_text",
     .block = LlamaFamily,
     .qkNorm = true,
     .zeroCenteredNorm = true,
     .fourNorms = true,
     .tiedDefault = true,
     .slidingWindow = true},
};

std::string knownModelTypeList()
{
    std::string list;
    for (const KnownModelType &known : kKnownModelTypes)
        list += (list.empty() ? "" : ", ") + std::string(known.modelType);
    return list;
}

// The model_type's row; a config without one (written before transformers named its types) is
// read by its keys: GPT-2's n_embd, else a Llama-family block.
Result<KnownModelType> knownModelType(YamlReader &r)
{
    std::string modelType;
    if (auto e = r.string("model_type", modelType))
        return *e;
    if (modelType.empty())
        return KnownModelType{.modelType = "", .block = r.has("n_embd") ? Gpt2 : LlamaFamily};
    for (const KnownModelType &known : kKnownModelTypes)
        if (known.modelType == modelType)
            return known;
    return r.errorAt("model_type",
                     "'" + modelType + "' is not a model type the import reads (" + knownModelTypeList()
                         + "): its blocks may differ from all of them. Enter the architecture by hand, or set "
                           "model_type to llama if its code is Llama's");
}

// What a config.json can state that no field of Architecture expresses: refused at the key that
// states it, since importing the rest would count another model.
std::optional<Error> refuseUnmodelled(YamlReader &r)
{
    if (r.has("text_config"))
        return r.errorAt("text_config",
                         "a multimodal model (its language model under text_config, beside a vision encoder) is not "
                         "modelled; enter its language model (the fields under text_config) by hand");
    if (r.has("kv_lora_rank"))
        return r.errorAt("kv_lora_rank", "multi-head latent attention (DeepSeek-V2 and V3) is not modelled");
    struct Limit {
        const char *key;
        std::int64_t most; // the largest value the estimate models
        const char *what;
    };
    static constexpr Limit kLimits[] = {
        {"shared_expert_intermediate_size", 0, "a shared expert beside the routed ones is not modelled"},
        {"n_shared_experts", 0, "shared experts beside the routed ones are not modelled"},
        {"first_k_dense_replace", 0, "dense layers before the MoE layers are not modelled"},
        {"decoder_sparse_step", 1, "MoE in every n-th layer only is not modelled"},
        {"moe_layer_freq", 1, "MoE in every n-th layer only is not modelled"},
    };
    for (const Limit &limit : kLimits) {
        std::int64_t value = 0;
        if (auto e = r.integer(limit.key, value))
            return e;
        if (value > limit.most)
            return r.errorAt(limit.key, std::to_string(value) + ": " + limit.what);
    }
    bool layerWindows = false; // Qwen2's and Qwen3's: a sliding window from max_window_layers up
    if (auto e = r.boolean("use_sliding_window", layerWindows))
        return e;
    if (layerWindows)
        return r.errorAt("use_sliding_window", "a sliding window in some layers only is not modelled");
    bool mlpBias = false; // Llama's config (transformers 4.41+): biases on the MLP's three linears
    if (auto e = r.boolean("mlp_bias", mlpBias))
        return e;
    if (mlpBias)
        return r.errorAt("mlp_bias", "biases on a gated MLP's linears are not modelled");
    if (r.has("mlp_only_layers") && r.node()["mlp_only_layers"].size() > 0)
        return r.errorAt("mlp_only_layers", "dense layers among the MoE layers are not modelled");
    return std::nullopt;
}

// Gemma-2's tanh soft-capping of the logits (final_logit_softcapping) and of the attention scores
// (attn_logit_softcapping), each a number or null; the estimate models both or neither.
Result<bool> softCapping(YamlReader &r, bool byDefault)
{
    const auto stated = [&](const char *key) {
        const YAML::Node value = r.node()[key];
        return value.IsDefined() ? !value.IsNull() : byDefault;
    };
    const bool logits = stated("final_logit_softcapping"), scores = stated("attn_logit_softcapping");
    if (logits != scores)
        return r.errorAt(logits ? "final_logit_softcapping" : "attn_logit_softcapping",
                         "soft-capping of the logits without the attention scores' (or the reverse) is not "
                         "modelled");
    return logits;
}

} // namespace

Result<ModelPreset> importHfConfig(std::string_view json, const std::string &file)
{
    return guardedLoad(file, [&]() -> Result<ModelPreset> {
        const std::string text = joinSurrogatePairs(json);
        auto opened = YamlReader::openMapping(text, file);
        if (!opened)
            return opened.error();
        YamlReader r = *opened;
        if (auto duplicate = r.rejectDuplicates())
            return *duplicate;
        if (auto unmodelled = refuseUnmodelled(r))
            return *unmodelled;

        const auto family = knownModelType(r);
        if (!family)
            return family.error();
        const std::string modelType(family->modelType);
        std::string nameOrPath;
        r.string("_name_or_path", nameOrPath);
        const bool gpt2Style = family->block == Gpt2;
        const bool bert = family->block == Bert;
        const KeyNames &keys = gpt2Style ? kGpt2Keys : kLlamaKeys;

        std::string missing;
        for (const char *key : {keys.hidden, keys.layers, keys.heads, "vocab_size"})
            if (!r.has(key))
                missing += (missing.empty() ? "" : ", ") + std::string(key);
        if (!gpt2Style && !r.has(keys.ffn))
            missing += (missing.empty() ? "" : ", ") + std::string(keys.ffn);
        if (!missing.empty())
            return Error{"",
                         "not a complete GPT-2, BERT, GPT-NeoX or Llama-family config"
                             + (modelType.empty() ? "" : " (model_type '" + modelType + "')") + "; missing " + missing
                             + ". Enter the architecture by hand instead.",
                         file};

        ModelPreset m;
        Architecture &a = m.arch;
        // An error about a field, at the config's key for it; the ranges and the rules between
        // fields are architectureError()'s, as for every other reader.
        const auto invalid = [&]() -> std::optional<Error> {
            auto error = architectureError(a);
            if (!error)
                return std::nullopt;
            const std::string_view field = error->field;
            const char *key = field == "hidden" ? keys.hidden
                : field == "layers"             ? keys.layers
                : field == "heads"              ? keys.heads
                : field == "vocab"              ? "vocab_size"
                : field == "ffn"
                ? (a.experts > 1 && r.has("moe_intermediate_size") ? "moe_intermediate_size" : keys.ffn)
                : field == "positions"         ? (bert ? "max_position_embeddings" : keys.positions)
                : field == "max-positions"     ? "max_position_embeddings"
                : field == "kv-heads"          ? "num_key_value_heads"
                : field == "head-dim"          ? "head_dim"
                : field == "experts"           ? (r.has("num_experts") ? "num_experts" : "num_local_experts")
                : field == "experts-per-token" ? "num_experts_per_tok"
                : field == "sliding-window"    ? "sliding_window"
                                               : error->field.c_str();
            return r.errorAt(key, error->message);
        };
        std::optional<Error> e;
        (e = r.integer(keys.hidden, a.hidden, true)) || (e = r.integer(keys.layers, a.layers, true))
            || (e = r.integer(keys.heads, a.heads, true)) || (e = r.integer("vocab_size", a.vocab, true));
        if (e)
            return *e;
        a.kvHeads = a.heads;
        if ((e = invalid())) // before anything is derived from these
            return *e;

        if (gpt2Style) {
            a.ffn = 4 * a.hidden; // n_inner: null means 4h
            a.mlp = MlpKind::Gelu;
            a.norm = NormKind::LayerNorm;
            a.linearBias = true;
            a.tiedEmbeddings = true;
            (e = r.integer(keys.ffn, a.ffn)) || (e = r.integer(keys.positions, a.learnedPositions))
                || (e = r.boolean("tie_word_embeddings", a.tiedEmbeddings));
            a.modeling = Modeling::Gpt2;
        } else if (bert) {
            // modeling_bert.py: post-norm LayerNorm layers with biases, GELU, learned positions.
            a.mlp = MlpKind::Gelu;
            a.norm = NormKind::LayerNorm;
            a.linearBias = true;
            a.tiedEmbeddings = true; // PretrainedConfig's default; the MLM decoder shares the embedding
            a.modeling = Modeling::Bert;
            (e = r.integer(keys.ffn, a.ffn, true)) || (e = r.integer("max_position_embeddings", a.learnedPositions))
                || (e = r.boolean("tie_word_embeddings", a.tiedEmbeddings));
        } else if (family->block == GptNeox) {
            // modeling_gpt_neox.py: two LayerNorms a layer, GELU MLP, biases everywhere, rotary on
            // rotary_pct of each head, an untied head (tie_word_embeddings defaults to false).
            a.mlp = MlpKind::Gelu;
            a.norm = NormKind::LayerNorm;
            a.linearBias = true;
            a.tiedEmbeddings = false;
            a.modeling = Modeling::GptNeox;
            (e = r.integer(keys.ffn, a.ffn, true)) || (e = r.boolean("tie_word_embeddings", a.tiedEmbeddings))
                || (e = r.boolean("use_parallel_residual", a.parallelResidual))
                || (e = r.integer("max_position_embeddings", a.rotaryPositions));
        } else {
            // hidden_act (Gemma's and Llama's configs) or hidden_activation (Gemma-2's, Gemma-3's):
            // a GELU gate makes the MLP a GeGLU.
            std::string activation;
            r.string(r.has("hidden_activation") ? "hidden_activation" : "hidden_act", activation);
            a.mlp = activation.starts_with("gelu") ? MlpKind::GeGlu : MlpKind::SwiGlu;
            a.norm = NormKind::RmsNorm;
            if (family->fourNorms)
                a.normsPerLayer = 4;
            a.qkvBias = family->qkvBias;
            a.qkNorm = family->qkNorm;
            a.zeroCenteredNorm = family->zeroCenteredNorm;
            a.tiedEmbeddings = family->tiedDefault;
            const auto capped = softCapping(r, family->softCappingDefault);
            if (!capped)
                return capped.error();
            a.softCapping = *capped;
            (e = r.integer(keys.ffn, a.ffn, true)) || (e = r.integer("num_key_value_heads", a.kvHeads))
                || (e = r.integer("head_dim", a.headDim)) || (e = r.boolean("tie_word_embeddings", a.tiedEmbeddings))
                || (e = r.boolean("attention_bias", a.qkvBias)) || (e = r.integer("num_local_experts", a.experts))
                || (e = r.integer("num_experts", a.experts)) // Qwen-MoE's name for it
                || (e = r.integer("num_experts_per_tok", a.expertsPerToken))
                || (e = r.integer("max_position_embeddings", a.rotaryPositions));
            // Qwen-MoE sizes its experts apart from a dense MLP's intermediate_size.
            if (!e && a.experts > 1)
                e = r.integer("moe_intermediate_size", a.ffn);
            if (!e && family->slidingWindow)
                e = r.integer("sliding_window", a.slidingWindow); // null: none
        }
        if (e)
            return *e;
        if ((e = invalid()))
            return *e;
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
