#include "core/estimate.h"

#include <algorithm>
#include <cmath>

namespace vl {

namespace {

constexpr std::array<std::pair<ItemId, std::string_view>, kItemCount> kItemNames{{
    {ItemId::Weights, "weights"},
    {ItemId::LoraAdapters, "lora_adapters"},
    {ItemId::Zero3GatheredParams, "zero3_gathered_params"},
    {ItemId::Gradients, "gradients"},
    {ItemId::MasterWeights, "master_weights"},
    {ItemId::OptimizerMoments, "optimizer_moments"},
    {ItemId::LayerActivations, "layer_activations"},
    {ItemId::EmbeddingActivations, "embedding_activations"},
    {ItemId::Logits, "logits"},
    {ItemId::RecomputeBuffer, "recompute_buffer"},
    {ItemId::WeightCasts, "weight_casts"},
    {ItemId::HeadActivations, "head_activations"},
    {ItemId::CudaContext, "cuda_context"},
    {ItemId::AllocatorReserve, "allocator_reserve"},
    {ItemId::CommBuffers, "comm_buffers"},
}};

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

// One weight matrix of a transformer layer: its shape, how many copies (MoE experts), and
// which LoRA target it is. LoRA counts, Adafactor's factored state and QLoRA's quantised
// base all walk this one list.
struct Matrix {
    std::int64_t in, out, copies;
    unsigned loraBit;
};

std::array<Matrix, 8> layerMatrices(const Architecture &a, int &count)
{
    const std::int64_t d = a.effectiveHeadDim();
    const std::int64_t experts = a.experts;
    std::array<Matrix, 8> m{};
    count = 0;
    m[count++] = {a.hidden, a.heads * d, 1, LoraQ};
    m[count++] = {a.hidden, a.kvHeads * d, 1, LoraK};
    m[count++] = {a.hidden, a.kvHeads * d, 1, LoraV};
    m[count++] = {a.heads * d, a.hidden, 1, LoraO};
    if (a.mlp == MlpKind::Gated)
        m[count++] = {a.hidden, a.ffn, experts, LoraGate};
    m[count++] = {a.hidden, a.ffn, experts, LoraUp};
    m[count++] = {a.ffn, a.hidden, experts, LoraDown};
    if (a.experts > 1)
        m[count++] = {a.hidden, experts, 1, 0};
    return m;
}

std::int64_t loraParamsPerLayer(const Scenario &s)
{
    int count = 0;
    const auto matrices = layerMatrices(s.arch, count);
    std::int64_t total = 0;
    for (int i = 0; i < count; ++i)
        if (matrices[i].loraBit & s.loraTargets)
            total += s.loraRank * (matrices[i].in + matrices[i].out) * matrices[i].copies;
    return total;
}

// Adafactor keeps one row and one column accumulator per matrix instead of a full second moment.
std::int64_t adafactorStatePerLayer(const Architecture &a)
{
    int count = 0;
    const auto matrices = layerMatrices(a, count);
    std::int64_t total = 0;
    for (int i = 0; i < count; ++i)
        total += (matrices[i].in + matrices[i].out) * matrices[i].copies;
    return total;
}

// The layers [first, last) that pipeline stage `stage` holds.
struct StageLayers {
    std::int64_t first, last;
    std::int64_t count() const { return last - first; }
};

StageLayers stageLayers(const Scenario &s, int stage)
{
    const std::int64_t perStage = ceilDiv(s.arch.layers, s.pipelineParallel);
    const std::int64_t first = std::min(s.arch.layers, stage * perStage);
    return {first, std::min(s.arch.layers, first + perStage)};
}

std::int64_t overlap(StageLayers a, std::int64_t first, std::int64_t last)
{
    return std::max<std::int64_t>(0, std::min(a.last, last) - std::max(a.first, first));
}

struct ActivationParts {
    Bytes inputs = 0;    // norm inputs, QKV input, MLP input, dropout masks on h: the sbh terms
    Bytes attention = 0; // Q, K, V, output-projection input (and FlashAttention's LSE)
    Bytes scores = 0;    // the s² terms: softmax output, its dropout mask and output
    Bytes mlp = 0;       // the f-wide terms
    Bytes total() const { return inputs + attention + scores + mlp; }
};

// A list of saved tensors with room for the longest one; fills without allocating.
struct TensorList {
    std::array<SavedTensor, 48> items{};
    int count = 0;
    Bytes total = 0;
    void add(std::string_view name, Bytes bytes)
    {
        if (bytes > 0 && count < int(items.size())) {
            items[count++] = {name, bytes};
            total += bytes;
        }
    }
};

// Korthikanti et al. 2022, Table 2, generalised to GQA, gated MLPs, MoE top-k, FlashAttention.
// One layer, one micro-batch, on one tensor-parallel rank.
ActivationParts megatronLayer(const Scenario &s, Recompute recompute)
{
    const Architecture &a = s.arch;
    const std::int64_t e = dtypeBytes(s).activation;
    const std::int64_t sb = s.sequence * s.microBatch;
    const std::int64_t t = s.tensorParallel;
    const std::int64_t spDiv = s.sequenceParallel ? t : 1;
    const std::int64_t d = a.effectiveHeadDim();
    const std::int64_t h = a.hidden;

    ActivationParts p;
    if (recompute == Recompute::Full) {
        p.inputs = e * sb * h / spDiv; // the layer input is all a checkpointed layer keeps
        return p;
    }
    const std::int64_t masks = s.dropout ? 2 * sb * h : 0; // attention-out and MLP dropout masks, 1 B each
    p.inputs = (4 * e * sb * h + masks) / spDiv;            // 2 norm inputs, QKV input, MLP input
    p.attention = e * sb * (a.heads * d + 2 * a.kvHeads * d + a.heads * d) / t; // Q, K, V, out-proj input
    if (s.attention != Attention::Eager) {
        p.attention += 4 * a.heads * sb / t; // fp32 log-sum-exp
    } else if (recompute == Recompute::None) {
        const std::int64_t scores = a.heads * s.sequence * sb; // a·s²·b
        p.scores = (e * scores + (s.dropout ? scores + e * scores : 0)) / t;
    }
    const std::int64_t mlpTensors = a.mlp == MlpKind::Gated ? 3 : 2;
    p.mlp = mlpTensors * e * sb * a.ffn * std::min(a.expertsPerToken, a.experts) / t;
    return p;
}

// The base weights train (full fine-tuning, or the trainable top layers under freeze).
bool baseTrains(const Scenario &s)
{
    return s.fineTune == FineTune::Full || s.fineTune == FineTune::Freeze;
}

bool loraOn(const Scenario &s, unsigned bit)
{
    return (s.fineTune == FineTune::LoRA || s.fineTune == FineTune::QLoRA) && (s.loraTargets & bit);
}

// The input of one group of projections that read the same tensor (q, k, v; gate, up; o; down),
// as autograd keeps it. An nn.Linear whose weight trains saves its input; a frozen one does not
// (mm's derivative needs the input only for the weight's gradient), except bitsandbytes'
// MatMul4Bit, which saves it whenever it needs an input gradient (bitsandbytes/autograd/
// _functions.py, MatMul4Bit.forward). PEFT's LoRA (peft/tuners/lora/layer.py, Linear.forward)
// runs lora_A on dropout(x): without dropout lora_A saves x itself; with it, each adapter keeps
// its own 1-byte mask and dropped copy. Under autocast an FP32 input is cast to 16 bits by
// every linear separately, and each cast is what that linear saves.
// `keptAnyway`: the input is saved by another op already (flash attention's output).
void projectionInputs(const Scenario &s, TensorList &out, std::initializer_list<unsigned> group, std::int64_t width,
                      bool fp32Input, bool keptAnyway = false)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t tokens = s.sequence * s.microBatch;
    const bool baseSaves = baseTrains(s) || s.fineTune == FineTune::QLoRA;
    const bool castEach = dt.autocast && fp32Input;
    bool shared = false;
    for (unsigned bit : group) {
        const bool loraReadsInput = loraOn(s, bit) && !s.loraDropout;
        if (castEach) {
            if (baseSaves)
                out.add("16-bit cast of the input, saved by the projection", 2 * tokens * width);
            if (loraReadsInput)
                out.add("16-bit cast of the input, saved by LoRA A", 2 * tokens * width);
        } else {
            shared = shared || baseSaves || loraReadsInput;
        }
        if (loraOn(s, bit) && s.loraDropout) {
            out.add("LoRA dropout mask (1 B)", tokens * width);
            out.add("LoRA dropout output, saved by LoRA A", dt.activation * tokens * width);
        }
        if (loraOn(s, bit))
            out.add("LoRA A output (rank r), saved by LoRA B", dt.activation * tokens * s.loraRank);
    }
    if (shared && !keptAnyway)
        out.add("projection input", dt.activation * tokens * width);
}

// LlamaRMSNorm.forward (transformers/models/llama/modeling_llama.py): x.to(float32), pow(2),
// mean, rsqrt, x * rsqrt, weight * x.to(input_dtype). pow and the product save the FP32 input;
// rsqrt saves its result; the product with the weight saves the normalized tensor only when the
// weight trains.
void rmsNorm(const Scenario &s, TensorList &out)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t stream = dt.autocast ? 4 : dt.activation;
    out.add("RMSNorm input in FP32", 4 * tokens * s.arch.hidden);
    out.add("RMSNorm 1/rms (FP32)", 4 * tokens);
    if (baseTrains(s))
        out.add("RMSNorm normalized input, saved by × weight", stream * tokens * s.arch.hidden);
}

// Hugging Face transformers' Llama-family decoder layer (Llama, Mistral, Qwen2): modeling_llama.py
// LlamaDecoderLayer.forward, LlamaAttention with eager_attention_forward (repeat_kv, softmax in
// FP32, cast back) or flash_attention_2, LlamaMLP down_proj(act_fn(gate_proj(x)) * up_proj(x)).
// Pinned tensor by tensor to PyTorch's autograd by tests/oracle (eager; flash is CUDA-only).
void llamaLayer(const Scenario &s, TensorList &out)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t d = a.effectiveHeadDim();
    const std::int64_t q = a.heads * d;
    rmsNorm(s, out);
    projectionInputs(s, out, {LoraQ, LoraK, LoraV}, a.hidden, dt.autocast);
    if (s.attention != Attention::Eager) {
        // The flash kernel saves q, k, v, its output and the FP32 log-sum-exp (derivatives.yaml,
        // _scaled_dot_product_flash_attention; flash_attn_func likewise). Hugging Face passes K and
        // V at the KV heads (flash_attention_2, or SDPA with enable_gqa from PyTorch 2.5 when no
        // padding mask is given: integrations/sdpa_attention.py); torchtitan repeats them to every
        // head first (models/llama3/model/model.py, Attention.forward: repeat_kv).
        // With a single KV head repeat_kv's reshape stays a stride-0 view: nothing is copied.
        const bool repeated = s.implementation == Implementation::TorchTitan && a.kvHeads > 1;
        const std::int64_t kv = repeated ? q : a.kvHeads * d;
        out.add("query after rotary", e * tokens * q);
        out.add(repeated ? "key after rotary, repeated to every head" : "key after rotary (KV heads)", e * tokens * kv);
        out.add(repeated ? "value, repeated to every head" : "value (KV heads)", e * tokens * kv);
        out.add("attention output, saved by the kernel and the output projection", e * tokens * q);
        out.add("log-sum-exp (FP32)", 4 * tokens * a.heads);
        projectionInputs(s, out, {LoraO}, q, false, true);
    } else {
        out.add("query after rotary", e * tokens * q);
        out.add("key after rotary, repeated to every head", e * tokens * q);
        out.add("value, repeated to every head", e * tokens * q);
        const std::int64_t scores = a.heads * s.sequence * tokens;
        out.add("attention probabilities (softmax in FP32)", 4 * scores);
        if (e < 4)
            out.add("attention probabilities cast back to 16 bits", e * scores);
        projectionInputs(s, out, {LoraO}, q, false);
    }
    rmsNorm(s, out);
    projectionInputs(s, out, {LoraGate, LoraUp}, a.hidden, dt.autocast);
    out.add("gate_proj output, saved by SiLU", e * tokens * a.ffn);
    out.add("SiLU output, saved by × up", e * tokens * a.ffn);
    out.add("up_proj output, saved by × SiLU", e * tokens * a.ffn);
    projectionInputs(s, out, {LoraDown}, a.ffn, false);
}

// One dropout (nn.Dropout in training; CUDA's fused kernel saves a 1-byte mask; none at p = 0).
void dropoutMask(const Scenario &s, TensorList &out, std::int64_t elements)
{
    if (s.dropout)
        out.add("dropout mask (1 B)", elements);
}

// nn.LayerNorm: CUDA's native_layer_norm saves its input and the FP32 mean and 1/std per token
// (aten/src/ATen/native/cuda/layer_norm_kernel.cu, layer_norm_cuda). LayerNorm is on autocast's
// FP32 list, so under autocast its input is the FP32 stream.
void layerNorm(const Scenario &s, TensorList &out)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t tokens = s.sequence * s.microBatch;
    out.add("LayerNorm input", (dt.autocast ? 4 : dt.activation) * tokens * s.arch.hidden);
    out.add("LayerNorm mean (FP32)", 4 * tokens);
    out.add("LayerNorm 1/std (FP32)", 4 * tokens);
}

// The FP32 output of a LayerNorm read by a linear whose weight trains: under autocast the linear
// keeps its 16-bit cast, otherwise the output itself.
void normOutputRead(const Scenario &s, TensorList &out, std::int64_t elements)
{
    const DtypeBytes dt = dtypeBytes(s);
    if (baseTrains(s))
        out.add(dt.autocast ? "16-bit cast of the norm output, saved by the next linear" : "norm output, saved by the next linear",
                (dt.autocast ? 2 : dt.activation) * elements);
}

// The attention probabilities as the eager matmul with V reads them, after softmax (on autocast's
// FP32 list) and dropout. `cast16`: GPT-2 casts the FP32 softmax back to V's dtype before dropout.
void eagerProbabilities(const Scenario &s, TensorList &out, bool cast16)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t scores = s.arch.heads * s.sequence * s.sequence * s.microBatch;
    const std::int64_t e = dt.activation;
    out.add(dt.autocast ? "attention probabilities (softmax in FP32)" : "attention probabilities (softmax)",
            (dt.autocast ? 4 : e) * scores);
    dropoutMask(s, out, scores);
    // What the matmul with V saves: the dropout output, or a 16-bit cast under autocast.
    if (dt.autocast && (cast16 || !s.dropout))
        out.add(s.dropout ? "dropout output of the 16-bit probabilities, saved by × V"
                          : "16-bit cast of the probabilities, saved by × V",
                2 * scores);
    else if (dt.autocast)
        out.add("16-bit cast of the dropped probabilities, saved by × V", 2 * scores);
    else if (s.dropout)
        out.add("dropout output of the probabilities, saved by × V", e * scores);
}

// GPT-2 in Hugging Face transformers (modeling_gpt2.py, eager): GPT2Block with GPT2Attention's
// _attn (matmul, scale, causal torch.where, softmax, .type(value.dtype), attn_dropout), Conv1D
// projections (addmm saves its input) and GPT2MLP with NewGELUActivation, a composite of pow,
// tanh and products that saves five f-wide tensors (activations.py).
void gpt2Layer(const Scenario &s, TensorList &out)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t h = s.arch.hidden;
    const std::int64_t f = s.arch.ffn;
    layerNorm(s, out);
    normOutputRead(s, out, tokens * h);
    if (s.microBatch == 1) {
        // With one sequence the heads of c_attn's output reshape as views: the matmuls keep it whole.
        out.add("c_attn output; query, key and value are views of it", 3 * e * tokens * h);
    } else {
        out.add("query, copied for the batched matmul", e * tokens * h);
        out.add("key, copied for the batched matmul", e * tokens * h);
        out.add("value, copied for the batched matmul", e * tokens * h);
    }
    eagerProbabilities(s, out, true);
    if (baseTrains(s))
        out.add("merged heads, saved by c_proj", e * tokens * h);
    dropoutMask(s, out, tokens * h);
    layerNorm(s, out);
    normOutputRead(s, out, tokens * h);
    // NewGELU: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))); pow is on autocast's FP32 list.
    const std::int64_t wide = dt.autocast ? 4 : e;
    out.add(dt.autocast ? "FP32 cast of c_fc's output, saved by pow" : "c_fc output, saved by pow", wide * tokens * f);
    out.add("tanh output", wide * tokens * f);
    out.add("0.5·x, saved by the product", e * tokens * f);
    out.add("1 + tanh, saved by the product", wide * tokens * f);
    if (baseTrains(s))
        out.add(dt.autocast ? "16-bit cast of the GELU output, saved by c_proj" : "GELU output, saved by c_proj",
                e * tokens * f);
    dropoutMask(s, out, tokens * h);
}

// BERT in Hugging Face transformers (modeling_bert.py, eager): BertSelfAttention (query, key,
// value linears; scores / √d + the extended mask, which is FP32 under autocast and so promotes
// the scores; softmax; dropout), BertSelfOutput and BertOutput (dense, dropout, LayerNorm of the
// residual sum: post-norm) and BertIntermediate (F.gelu, which saves its input).
void bertLayer(const Scenario &s, TensorList &out)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t h = s.arch.hidden;
    const std::int64_t f = s.arch.ffn;
    if (baseTrains(s)) {
        // The layer's input is the previous LayerNorm's output (FP32 under autocast).
        if (dt.autocast)
            for (int i = 0; i < 3; ++i)
                out.add("16-bit cast of the layer input, saved by the query, key or value linear", 2 * tokens * h);
        else
            out.add("layer input, saved by the query, key and value linears", e * tokens * h);
    }
    out.add("query, copied for the batched matmul", e * tokens * h);
    out.add("key, copied for the batched matmul", e * tokens * h);
    out.add("value, copied for the batched matmul", e * tokens * h);
    eagerProbabilities(s, out, false);
    if (baseTrains(s))
        out.add("attention context, saved by the output dense", e * tokens * h);
    dropoutMask(s, out, tokens * h);
    layerNorm(s, out);
    normOutputRead(s, out, tokens * h);
    out.add("intermediate output, saved by GELU", e * tokens * f);
    if (baseTrains(s))
        out.add("GELU output, saved by the output dense", e * tokens * f);
    dropoutMask(s, out, tokens * h);
    layerNorm(s, out);
}

// Layers as the named code computes them (Hugging Face transformers or torchtitan).
void codeLayer(const Scenario &s, TensorList &out)
{
    if (s.recompute == Recompute::Full) {
        // torch.utils.checkpoint around each layer (gradient_checkpointing_enable) keeps its input.
        const DtypeBytes dt = dtypeBytes(s);
        out.add("layer input, kept by the checkpoint",
                (dt.autocast ? 4 : dt.activation) * s.sequence * s.microBatch * s.arch.hidden);
        return;
    }
    switch (s.arch.modeling) {
    case Modeling::Llama: llamaLayer(s, out); break;
    case Modeling::Gpt2: gpt2Layer(s, out); break;
    case Modeling::Bert: bertLayer(s, out); break;
    }
}

// The causal-LM loss (transformers v4.46+ loss/loss_utils.py ForCausalLMLoss; torchtitan
// components/loss.py cross_entropy_loss): logits.float(), cross_entropy = log_softmax, which saves
// its FP32 result, and nll_loss, which saves the labels.
void causalLmLoss(const Scenario &s, TensorList &out)
{
    const std::int64_t tokens = s.sequence * s.microBatch;
    out.add("log-softmax over the vocabulary (FP32), saved by the loss", 4 * tokens * s.arch.vocab);
    // Hugging Face: labels = F.pad(labels, (0, 1), value=-100); labels[..., 1:].contiguous(): with
    // one sequence the slice is already contiguous and keeps the padded storage, one token longer.
    // torchtitan's cross_entropy_loss reads the labels as they come.
    const bool padded = s.implementation == Implementation::HuggingFace && s.microBatch == 1;
    const std::int64_t labels = padded ? s.sequence + 1 : tokens;
    out.add("shifted labels (int64), saved by the loss", 8 * labels);
}

// Outside the layers, Hugging Face and torchtitan: what the embeddings save (token ids; GPT-2 its position ids,
// BERT its token-type ids and embedding LayerNorm), the final norm and the head with its loss:
// LlamaForCausalLM and GPT2LMHeadModel (LM head; GPT-2's tied to wte), or
// BertForSequenceClassification (pooler on the first token, dropout, a 2-label classifier).
void codeOutside(const Scenario &s, TensorList &out)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t h = s.arch.hidden;
    const bool trains = baseTrains(s);
    if (trains)
        out.add("token ids, saved by the embedding (int64)", 8 * tokens);
    switch (s.arch.modeling) {
    case Modeling::Llama:
        rmsNorm(s, out);
        if (trains)
            out.add(dt.autocast ? "16-bit cast of the input, saved by the LM head" : "LM-head input",
                    (dt.autocast ? 2 : e) * tokens * h);
        causalLmLoss(s, out);
        break;
    case Modeling::Gpt2:
        if (trains)
            out.add("position ids (int64), saved by the position embedding", 8 * s.sequence);
        dropoutMask(s, out, tokens * h);
        layerNorm(s, out);
        normOutputRead(s, out, tokens * h);
        causalLmLoss(s, out);
        break;
    case Modeling::Bert: {
        if (trains)
            out.add("token-type ids (int64), saved by their embedding", 8 * tokens);
        layerNorm(s, out);
        dropoutMask(s, out, tokens * h);
        // The pooler reads the first token of the last layer's output; without autocast that
        // slice keeps the whole output's storage alive.
        if (trains)
            out.add(dt.autocast ? "16-bit cast of the first token, saved by the pooler"
                                : "last layer's output, kept by the pooler's first-token slice",
                    dt.autocast ? 2 * s.microBatch * h : e * tokens * h);
        const std::int64_t pooled = s.microBatch * h;
        out.add("pooler tanh output", e * pooled);
        dropoutMask(s, out, pooled);
        if (s.dropout && trains)
            out.add("dropout output, saved by the classifier", e * pooled);
        constexpr std::int64_t kLabels = 2; // BertForSequenceClassification's default num_labels
        out.add("log-softmax over the labels, saved by the loss", (dt.autocast ? 4 : e) * s.microBatch * kLabels);
        out.add("labels (int64), saved by the loss", 8 * s.microBatch);
        break;
    }
    }
}

TensorList layerTensors(const Scenario &s)
{
    TensorList list;
    if (s.implementation != Implementation::Megatron) {
        codeLayer(s, list);
        return list;
    }
    const ActivationParts p = megatronLayer(s, s.recompute);
    list.add("inputs and norms", p.inputs);
    list.add("Q, K, V and output-projection input", p.attention);
    list.add("attention scores (a·s²·b)", p.scores);
    list.add("MLP", p.mlp);
    return list;
}

Bytes layerBytes(const Scenario &s, Recompute recompute)
{
    if (s.implementation != Implementation::Megatron) {
        Scenario withRecompute = s;
        withRecompute.recompute = recompute;
        return layerTensors(withRecompute).total;
    }
    return megatronLayer(s, recompute).total();
}

// Where the numbers go. Numbers only: adds bytes. With text: also asks each item for its formula.
struct NumbersSink {
    Breakdown &b;
    template <class Formula>
    void add(ItemId id, Bytes bytes, Formula &&)
    {
        b.itemBytes[static_cast<int>(id)] += bytes;
        b.present[static_cast<int>(id)] = true;
    }
};

struct TextSink {
    Breakdown &b;
    std::vector<ExplainedItem> &items;
    template <class Formula>
    void add(ItemId id, Bytes bytes, Formula &&formula)
    {
        b.itemBytes[static_cast<int>(id)] += bytes;
        b.present[static_cast<int>(id)] = true;
        items.push_back({id, bytes, formula()});
    }
};

std::string times(std::int64_t value)
{
    return " × " + std::to_string(value);
}

std::string shardText(std::int64_t n, bool sharded)
{
    return sharded && n > 1 ? " ÷ " + std::to_string(n) + " GPUs (ZeRO)" : std::string();
}

std::string equals(Bytes bytes, Units units)
{
    return " = " + formatBytes(bytes, units);
}

template <class Sink>
void compute(const Scenario &s, int stage, Units units, Breakdown &b, Sink &sink)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const ParameterCounts counts = countParameters(a);
    const std::int64_t t = s.tensorParallel;
    const std::int64_t p = s.pipelineParallel;
    const std::int64_t n = s.dataParallel;
    const bool firstStage = stage == 0;
    const bool lastStage = stage == p - 1;
    const StageLayers layers = stageLayers(s, stage);

    b.stage = stage;
    b.layersOnStage = layers.count();
    b.totalParams = counts.total(a.layers);

    // --- what this GPU holds of the model -------------------------------------------------
    const std::int64_t perLayerOnRank = ceilDiv(counts.perLayerMatrices, t) + counts.perLayerVectors;
    std::int64_t stageParams = perLayerOnRank * layers.count();
    std::int64_t outsideLayers = 0;
    if (firstStage)
        outsideLayers += ceilDiv(counts.embedding, t);
    if (lastStage) {
        outsideLayers += counts.finalNorm + ceilDiv(counts.head, t);
        if (p > 1 && a.tiedEmbeddings)
            outsideLayers += ceilDiv(a.vocab * a.hidden, t); // the last stage keeps its own copy to tie
    }
    stageParams += outsideLayers;

    // --- what trains ----------------------------------------------------------------------
    std::int64_t trainable = stageParams;
    std::int64_t trainableLayersHere = layers.count();
    std::int64_t adapters = 0;
    switch (s.fineTune) {
    case FineTune::Full:
        break;
    case FineTune::Freeze:
        trainableLayersHere = overlap(layers, a.layers - s.trainableLayers, a.layers);
        trainable = perLayerOnRank * trainableLayersHere
            + (lastStage ? counts.finalNorm + ceilDiv(counts.head, t) : 0);
        b.trainableParams = (counts.perLayer()) * s.trainableLayers + counts.finalNorm + counts.head;
        break;
    case FineTune::LoRA:
    case FineTune::QLoRA:
        adapters = ceilDiv(loraParamsPerLayer(s), t) * layers.count();
        trainable = adapters;
        b.trainableParams = loraParamsPerLayer(s) * a.layers;
        break;
    }
    if (s.fineTune == FineTune::Full)
        b.trainableParams = b.totalParams;

    const bool shardOptimizer = s.zeroStage >= 1;
    const bool shardGradients = s.zeroStage >= 2;
    const bool shardParams = s.zeroStage >= 3;
    auto shard = [&](std::int64_t value, bool sharded) { return sharded ? ceilDiv(value, n) : value; };

    // Parameters --------------------------------------------------------------------------
    {
        Bytes weightBytes = 0;
        std::string how;
        if (s.fineTune == FineTune::QLoRA) {
            // NF4: 4 bits per weight plus double-quantised constants, 0.127 bits (Dettmers et al. 2023).
            const std::int64_t quantised = ceilDiv(counts.perLayerMatrices, t) * layers.count();
            const std::int64_t kept = stageParams - quantised;
            weightBytes = ceilDiv(quantised * 4127, 8000) + kept * dt.weight;
            weightBytes = shard(weightBytes, shardParams);
            if constexpr (std::is_same_v<Sink, TextSink>)
                how = formatCount(quantised) + " params × 4.127 bits (NF4) + " + formatCount(kept) + " × "
                    + std::to_string(dt.weight) + " B";
        } else {
            weightBytes = shard(stageParams * dt.weight, shardParams);
        }
        const bool onHost = s.offload == Offload::OptimizerAndParams;
        if (onHost)
            b.host += weightBytes;
        sink.add(ItemId::Weights, onHost ? 0 : weightBytes, [&] {
            std::string text = how.empty() ? formatCount(stageParams) + " params × " + std::to_string(dt.weight) + " B"
                                           : how;
            text += shardText(n, shardParams);
            if (onHost)
                return text + equals(weightBytes, units) + ", offloaded to CPU memory";
            return text + equals(weightBytes, units);
        });
        if (adapters > 0) {
            const Bytes adapterBytes = shard(adapters * dt.weight, shardParams);
            sink.add(ItemId::LoraAdapters, adapterBytes, [&] {
                return formatCount(adapters) + " adapter params (rank " + std::to_string(s.loraRank) + ") × "
                    + std::to_string(dt.weight) + " B" + equals(adapterBytes, units);
            });
        }
        if (shardParams && n > 1) {
            // DeepSpeed's estimator: the largest module is gathered whole, with its gradient.
            const std::int64_t largest = ceilDiv(counts.largestMatrix, t);
            const Bytes gathered = largest * (dt.weight + dt.gradient);
            sink.add(ItemId::Zero3GatheredParams, gathered, [&] {
                return "largest layer " + formatCount(largest) + " params × (" + std::to_string(dt.weight)
                    + " B weights + " + std::to_string(dt.gradient) + " B grads)" + equals(gathered, units);
            });
        }
    }

    // Gradients ---------------------------------------------------------------------------
    {
        const Bytes gradBytes = shard(trainable * dt.gradient, shardGradients);
        sink.add(ItemId::Gradients, gradBytes, [&] {
            return formatCount(trainable) + " trainable params × " + std::to_string(dt.gradient) + " B"
                + shardText(n, shardGradients) + equals(gradBytes, units);
        });
    }

    // Optimizer states ----------------------------------------------------------------------
    {
        const bool offloaded = s.offload != Offload::None;
        auto place = [&](ItemId id, Bytes bytes, auto &&formula) {
            if (offloaded)
                b.host += bytes;
            sink.add(id, offloaded ? 0 : bytes, [&] {
                return formula() + shardText(n, shardOptimizer) + equals(bytes, units)
                    + (offloaded ? ", offloaded to CPU memory" : "");
            });
        };
        if (dt.master > 0) {
            const Bytes master = shard(trainable * dt.master, shardOptimizer);
            place(ItemId::MasterWeights, master,
                  [&] { return formatCount(trainable) + " params × 4 B (FP32 master copy)"; });
        }

        // Pure BF16 keeps its moments in BF16; everything else keeps them in FP32.
        const int stateBytes = s.precision == Precision::Bf16 ? 2 : 4;
        int states = 0;
        std::int64_t stateElements = trainable;
        const char *what = "";
        switch (s.optimizer) {
        case Optimizer::AdamW: states = 2; what = "Adam m and v"; break;
        case Optimizer::AdamW8bit: states = 2; what = "8-bit Adam m and v"; break;
        case Optimizer::Sgd: states = 0; what = "plain SGD keeps no state"; break;
        case Optimizer::SgdMomentum: states = 1; what = "momentum"; break;
        case Optimizer::Lion: states = 1; what = "Lion momentum"; break;
        case Optimizer::Adafactor:
            states = 1;
            what = "Adafactor row/column factors";
            if (s.fineTune == FineTune::Full || s.fineTune == FineTune::Freeze) {
                const std::int64_t factored = adafactorStatePerLayer(a) / t + counts.perLayerVectors;
                const std::int64_t outside = trainable - perLayerOnRank * trainableLayersHere;
                const std::int64_t outsideFactored = outside > 0 ? a.vocab + a.hidden : 0;
                stateElements = factored * trainableLayersHere + std::min(outside, outsideFactored);
            }
            break;
        }
        const int bytesPerState = s.optimizer == Optimizer::AdamW8bit ? 1 : stateBytes;
        const Bytes moments = shard(stateElements * states * bytesPerState, shardOptimizer);
        place(ItemId::OptimizerMoments, moments, [&] {
            if (states == 0)
                return std::string(what);
            return formatCount(stateElements) + (s.optimizer == Optimizer::Adafactor ? " factor entries" : " params")
                + " × " + std::to_string(states) + " × " + std::to_string(bytesPerState) + " B (" + what + ")";
        });
    }

    // Activations -----------------------------------------------------------------------------
    {
        const std::int64_t e = dt.activation;
        const std::int64_t sb = s.sequence * s.microBatch;
        const std::int64_t spDiv = s.sequenceParallel ? t : 1;
        // 1F1B: stage k holds p − k micro-batches while the pipeline is full.
        const std::int64_t inFlight = std::min<std::int64_t>(p - stage, s.gradAccum);
        b.microBatchesInFlight = inFlight;
        // A frozen layer below every trainable one needs nothing saved for backward.
        const std::int64_t savingLayers = s.fineTune == FineTune::Freeze ? trainableLayersHere : layers.count();

        const bool codeLevel = s.implementation != Implementation::Megatron;
        const TensorList kept = layerTensors(s);
        b.oneLayerActivations = layerBytes(s, Recompute::None);
        b.keptPerLayer = kept.total;

        Bytes layerTotal = kept.total * savingLayers * inFlight;
        const bool interleaved = s.virtualStages > 1 && p > 1 && firstStage;
        if (interleaved) // Korthikanti et al.: interleaving multiplies the first stage by 1 + (p−1)/(p·v)
            layerTotal = layerTotal * (p * s.virtualStages + p - 1) / (p * s.virtualStages);
        sink.add(ItemId::LayerActivations, layerTotal, [&] {
            std::string text;
            if (s.recompute == Recompute::Full) {
                text = "each layer keeps only its input: s·b·h × " + std::to_string(kept.total / (sb * a.hidden / spDiv))
                    + " B = " + formatBytes(kept.total, units) + "/layer";
            } else {
                text = codeLevel ? "per layer (" + std::string(toString(s.implementation)) + " code):" : "per layer:";
                for (int i = 0; i < kept.count; ++i)
                    text += std::string(i ? " + " : " ") + std::string(kept.items[i].name) + " "
                        + formatBytes(kept.items[i].bytes, units);
                text += " = " + formatBytes(kept.total, units);
            }
            text += times(savingLayers) + " layers";
            if (inFlight > 1)
                text += times(inFlight) + " micro-batches in flight";
            if (interleaved)
                text += " × (1 + (p−1)/(p·v))";
            text += equals(layerTotal, units);
            if (s.recompute == Recompute::Full && inFlight == 1 && spDiv == 1 && e == 2 && !dt.autocast)
                text += " — the article's b·s·h·L·2 estimate";
            return text;
        });
        if (s.recompute == Recompute::Full && savingLayers > 0) {
            const Bytes buffer = b.oneLayerActivations;
            sink.add(ItemId::RecomputeBuffer, buffer, [&] {
                return "one layer's full activations while it is recomputed" + equals(buffer, units);
            });
        }
        if (dt.autocast && s.fineTune != FineTune::QLoRA) {
            // Autocast casts every FP32 weight a linear reads to 16 bits, and autograd keeps the cast
            // until that linear's backward (aten/src/ATen/autocast_mode.cpp, cached_cast: casts of
            // FP32 leaf weights that require grad stay in the cast cache for the whole forward, even
            // under checkpointing; a frozen weight's cast is saved by mm, so checkpointing drops it).
            // A frozen bias is cast too, but nothing keeps its cast: its gradient needs no input.
            const std::int64_t d = a.effectiveHeadDim();
            const std::int64_t biases = !baseTrains(s) ? 0
                : a.linearBias ? (a.heads + 2 * a.kvHeads) * d + a.hidden + a.ffn * a.experts + a.hidden
                : a.qkvBias    ? (a.heads + 2 * a.kvHeads) * d
                               : 0;
            const std::int64_t perLayer = ceilDiv(counts.perLayerMatrices + biases, t);
            const bool frozenRecomputed = !baseTrains(s) && s.recompute == Recompute::Full;
            const std::int64_t castLayers = savingLayers == 0 ? 0 : frozenRecomputed ? 1 : savingLayers;
            // The head's linears: the LM head (tied or not), or BERT's pooler and 2-label classifier.
            const std::int64_t head = !lastStage ? 0
                : a.modeling == Modeling::Bert && codeLevel ? a.hidden * a.hidden + a.hidden + 2 * a.hidden + 2
                                                              : ceilDiv(a.vocab * a.hidden, t);
            const Bytes casts = 2 * (perLayer * castLayers + adapters + head);
            sink.add(ItemId::WeightCasts, casts, [&] {
                return "16-bit casts of the FP32 weights, kept for backward: (" + formatCount(perLayer) + " × "
                    + std::to_string(castLayers) + " layers" + (adapters ? " + " + formatCount(adapters) + " adapter" : "")
                    + (head ? " + " + formatCount(head) + " head" : "") + ") params × 2 B" + equals(casts, units);
            });
        }
        if (firstStage && s.fineTune != FineTune::Freeze && !codeLevel) {
            const Bytes embedding = (e * sb * a.hidden + (s.dropout ? sb * a.hidden : 0)) / spDiv * inFlight;
            sink.add(ItemId::EmbeddingActivations, embedding, [&] {
                return formatCount(sb) + " tokens × " + std::to_string(a.hidden) + " hidden × " + std::to_string(e)
                    + " B" + (s.dropout ? " + dropout mask" : "") + (inFlight > 1 ? times(inFlight) : "")
                    + equals(embedding, units);
            });
        }
        if (codeLevel) {
            TensorList outside;
            codeOutside(s, outside);
            sink.add(ItemId::HeadActivations, outside.total, [&] {
                std::string text;
                for (int i = 0; i < outside.count; ++i)
                    text += std::string(i ? " + " : "") + std::string(outside.items[i].name) + " "
                        + formatBytes(outside.items[i].bytes, units);
                return text + equals(outside.total, units);
            });
        }
        if (lastStage && !(codeLevel && a.modeling == Modeling::Bert)) {
            // Logits in the activation dtype, plus the FP32 copy the loss computes on: whole, or one
            // chunk at a time (torchtune, modules/loss/ce_chunked_output_loss.py: each chunk's
            // .float() lives only until its log-softmax; the log-softmax outputs stay saved).
            const std::int64_t elements = ceilDiv(sb * a.vocab, t);
            const bool chunked = s.loss == Loss::Chunked;
            const Bytes fp32Copy = e < 4 ? 4 * (chunked ? ceilDiv(elements, kLossChunks) : elements) : 0;
            const Bytes logits = e * elements + fp32Copy;
            sink.add(ItemId::Logits, logits, [&] {
                std::string text = formatCount(sb) + " tokens × " + std::to_string(a.vocab) + " vocab × ";
                if (fp32Copy && !chunked)
                    text += "(" + std::to_string(e) + " B + 4 B FP32 copy for the loss)";
                else
                    text += std::to_string(e) + " B";
                if (t > 1)
                    text += " ÷ " + std::to_string(t) + " (vocab-parallel)";
                if (fp32Copy && chunked)
                    text += " + FP32 copy of one chunk in " + std::to_string(kLossChunks) + " " + formatBytes(fp32Copy, units);
                return text + equals(logits, units);
            });
        }
    }

    // Overhead ------------------------------------------------------------------------------------
    if (s.overhead.enabled) {
        const Overhead &o = s.overhead;
        sink.add(ItemId::CudaContext, o.cudaContext,
                 [&] { return "CUDA context and kernels" + equals(o.cudaContext, units); });
        if (s.gpuCount() > 1)
            sink.add(ItemId::CommBuffers, o.commBuffers,
                     [&] { return "NCCL communication buffers" + equals(o.commBuffers, units); });
        Bytes allocated = 0;
        for (int i = 0; i < kItemCount; ++i)
            if (componentOf(static_cast<ItemId>(i)) != Component::Overhead)
                allocated += b.itemBytes[i];
        const Bytes reserve = allocated * o.allocatorPercent / 100;
        sink.add(ItemId::AllocatorReserve, reserve, [&] {
            return std::to_string(o.allocatorPercent) + " % of " + formatBytes(allocated, units)
                + " allocated (caching-allocator reserve)" + equals(reserve, units);
        });
    }

    for (int i = 0; i < kItemCount; ++i) {
        b.componentBytes[static_cast<int>(componentOf(static_cast<ItemId>(i)))] += b.itemBytes[i];
        b.total += b.itemBytes[i];
    }
}

// The first stage holds the most activations and the embedding; the last holds the logits
// and the head. Whichever is heavier decides whether the run fits.
int heaviestStage(const Scenario &s)
{
    if (s.pipelineParallel == 1)
        return 0;
    const int last = static_cast<int>(s.pipelineParallel - 1);
    Breakdown first, final;
    NumbersSink firstSink{first}, finalSink{final};
    compute(s, 0, Units::GiB, first, firstSink);
    compute(s, last, Units::GiB, final, finalSink);
    return final.total > first.total ? last : 0;
}

// A rough upper bound in floating point, so no 64-bit product can overflow afterwards.
std::optional<Error> checkMagnitude(const Scenario &s)
{
    const auto real = [](std::int64_t v) { return static_cast<double>(v); };
    const Architecture &a = s.arch;
    constexpr double kLimit = 4.0e18; // below 2^63 with room for the sums
    const double h = real(a.hidden);
    const double params = real(a.layers) * (4.0 * h * h + 3.0 * h * real(a.ffn) * real(a.experts))
        + 2.0 * real(a.vocab) * h + real(a.fixedParams);
    if (params * 20.0 > kLimit)
        return Error{"hidden", "the model is too large to count in bytes (over 2·10^17 parameters); "
                               "reduce hidden, ffn, layers or experts"};
    const double sb = real(s.sequence) * real(s.microBatch);
    const double perLayer = sb * (40.0 * h + 12.0 * real(a.heads) * real(s.sequence)
                                  + 8.0 * real(a.ffn) * real(a.expertsPerToken)
                                  + 4.0 * real(a.heads) * real(a.effectiveHeadDim()));
    const double activations = perLayer * real(a.layers) * real(s.pipelineParallel) * 2.0 + sb * real(a.vocab) * 8.0;
    if (activations > kLimit)
        return Error{"seq", "batch × sequence is too large: the activations would exceed 4 EB; "
                            "reduce --seq or --batch"};
    return std::nullopt;
}

// What the code-level implementations (Hugging Face transformers, torchtitan) are modelled for.
std::optional<Error> checkCodeLevel(const Scenario &s)
{
    const Architecture &a = s.arch;
    const std::string code(toString(s.implementation));
    const bool titan = s.implementation == Implementation::TorchTitan;
    const bool llamaShape = a.norm == NormKind::RmsNorm && a.mlp == MlpKind::Gated && a.learnedPositions == 0;
    const bool gptShape = a.norm == NormKind::LayerNorm && a.mlp == MlpKind::Gelu && a.kvHeads == a.heads;
    if (a.experts > 1)
        return Error{"implementation", code + " is modelled for dense layers; use --implementation megatron for a "
                                              "mixture of experts"};
    if (a.modeling == Modeling::Llama ? !llamaShape : !gptShape)
        return Error{"modeling", std::string(toString(a.modeling)) + " does not fit this architecture: llama needs "
                                 "RMSNorm, a gated MLP and rotary positions; gpt2 and bert LayerNorm, GELU and "
                                 "multi-head attention"};
    if (titan && a.modeling != Modeling::Llama)
        return Error{"implementation", "torchtitan is modelled for its Llama; use huggingface or megatron for "
                                       + std::string(toString(a.modeling))};
    if (s.tensorParallel > 1 || s.pipelineParallel > 1 || s.sequenceParallel)
        return Error{"implementation", code + " is modelled without tensor, sequence or pipeline parallelism; use "
                                              "--implementation megatron with --tp, --sp or --pp"};
    if (s.recompute == Recompute::Selective)
        return Error{"recompute", "selective recomputation is Megatron's; with --implementation " + code
                                      + " choose none or full (checkpointing every layer)"};
    if (s.dropout && a.modeling == Modeling::Llama)
        return Error{"dropout", "Llama trains without dropout in " + code + "'s code; use --dropout no "
                                "(LoRA's dropout is --lora-dropout)"};
    const bool lora = s.fineTune == FineTune::LoRA || s.fineTune == FineTune::QLoRA;
    if (lora && (titan || a.modeling != Modeling::Llama))
        return Error{"finetune", "LoRA is modelled for Hugging Face's Llama family; use --finetune full or freeze, "
                                 "or --implementation megatron"};
    if (titan && s.attention != Attention::Sdpa)
        return Error{"attention", "torchtitan's Llama runs attention through SDPA; use --attention sdpa"};
    if (a.modeling != Modeling::Llama && s.attention != Attention::Eager)
        return Error{"attention", "GPT-2 and BERT are modelled with eager attention; use --attention eager"};
    return std::nullopt;
}

Error outOfRange(std::string field, std::int64_t value, std::int64_t lo, std::int64_t hi, std::string extra = {})
{
    return Error{std::move(field), std::to_string(value) + " is out of range; allowed " + std::to_string(lo) + " to "
                                       + std::to_string(hi) + extra};
}

} // namespace

Component componentOf(ItemId id)
{
    switch (id) {
    case ItemId::Weights:
    case ItemId::LoraAdapters:
    case ItemId::Zero3GatheredParams: return Component::Parameters;
    case ItemId::Gradients: return Component::Gradients;
    case ItemId::MasterWeights:
    case ItemId::OptimizerMoments: return Component::OptimizerStates;
    case ItemId::LayerActivations:
    case ItemId::EmbeddingActivations:
    case ItemId::Logits:
    case ItemId::RecomputeBuffer:
    case ItemId::WeightCasts:
    case ItemId::HeadActivations: return Component::Activations;
    case ItemId::CudaContext:
    case ItemId::AllocatorReserve:
    case ItemId::CommBuffers: return Component::Overhead;
    }
    return Component::Overhead;
}

std::string_view idString(ItemId id)
{
    return kItemNames[static_cast<int>(id)].second;
}

std::string_view idString(Component c)
{
    constexpr std::array<std::string_view, kComponentCount> names{"parameters", "gradients", "optimizer_states",
                                                                  "activations", "overhead"};
    return names[static_cast<int>(c)];
}

std::optional<Error> validate(const Scenario &s)
{
    const Architecture &a = s.arch;
    struct Range {
        const char *field;
        std::int64_t value, lo, hi;
    };
    const Range ranges[] = {
        {"hidden", a.hidden, 1, 1 << 20},
        {"layers", a.layers, 1, 10'000},
        {"heads", a.heads, 1, 65'536},
        {"kv-heads", a.kvHeads, 1, 65'536},
        {"head-dim", a.headDim, 0, 65'536},
        {"ffn", a.ffn, 1, 1 << 24},
        {"vocab", a.vocab, 1, 1 << 24},
        {"positions", a.learnedPositions, 0, 1 << 24},
        {"norms-per-layer", a.normsPerLayer, 0, 8},
        {"experts", a.experts, 1, 4096},
        {"experts-per-token", a.expertsPerToken, 1, a.experts},
        {"params", a.fixedParams, 0, 1'000'000'000'000'000},
        {"batch", s.microBatch, 1, 1 << 20},
        {"seq", s.sequence, 1, 1 << 24},
        {"grad-accum", s.gradAccum, 1, 1 << 20},
        {"zero", s.zeroStage, 0, 3},
        {"dp", s.dataParallel, 1, 1 << 20},
        {"tp", s.tensorParallel, 1, 4096},
        {"pp", s.pipelineParallel, 1, a.layers},
        {"vpp", s.virtualStages, 1, 1024},
        {"lora-rank", s.loraRank, 1, 65'536},
        {"trainable-layers", s.trainableLayers, 1, a.layers},
        {"cuda-context", s.overhead.cudaContext / kMiB, 0, 65'536},
        {"allocator-percent", s.overhead.allocatorPercent, 0, 200},
        {"comm-buffers-mib", s.overhead.commBuffers / kMiB, 0, 65'536},
    };
    for (const Range &r : ranges)
        if (r.value < r.lo || r.value > r.hi)
            return outOfRange(r.field, r.value, r.lo, r.hi);

    if (a.fixedParams != 0 && a.fixedParams < 1000)
        return Error{"params", std::to_string(a.fixedParams) + " is too small; give at least 1000 parameters, or 0 "
                                                               "to count them from the architecture"};
    if (a.headDim == 0 && a.hidden % a.heads != 0)
        return Error{"heads", std::to_string(a.heads) + " does not divide hidden size " + std::to_string(a.hidden)
                                  + "; choose a divisor of hidden, or set --head-dim"};
    if (a.kvHeads > a.heads || a.heads % a.kvHeads != 0)
        return Error{"kv-heads", std::to_string(a.kvHeads) + " must divide the " + std::to_string(a.heads)
                                     + " attention heads (GQA groups); allowed: a divisor of heads"};
    if (a.heads % s.tensorParallel != 0)
        return Error{"tp", std::to_string(s.tensorParallel) + " does not divide the " + std::to_string(a.heads)
                               + " attention heads; tensor parallelism splits whole heads"};
    if (s.virtualStages > 1 && s.pipelineParallel == 1)
        return Error{"vpp", "interleaved stages need pipeline parallelism; set --pp 2 or more, or --vpp 1"};
    if (s.offload != Offload::None && s.zeroStage == 0)
        return Error{"offload", "CPU offload is part of ZeRO; choose --zero 1, 2 or 3 to offload"};
    if (s.offload == Offload::OptimizerAndParams && s.zeroStage != 3)
        return Error{"offload", "offloading parameters needs ZeRO stage 3; use --zero 3 or --offload optimizer"};
    if (s.loraTargets == 0 || (s.loraTargets & ~static_cast<unsigned>(LoraAll)) != 0)
        return Error{"lora-targets", "choose at least one of q,k,v,o,gate,up,down"};
    if (s.implementation != Implementation::Megatron)
        if (auto error = checkCodeLevel(s))
            return error;
    return checkMagnitude(s);
}

std::vector<SavedTensor> savedTensors(const Scenario &s, TensorScope scope)
{
    TensorList list;
    if (scope == TensorScope::Layer)
        list = layerTensors(s);
    else if (s.implementation != Implementation::Megatron)
        codeOutside(s, list);
    return {list.items.begin(), list.items.begin() + list.count};
}

Breakdown estimate(const Scenario &s)
{
    Breakdown b;
    NumbersSink sink{b};
    compute(s, heaviestStage(s), Units::GiB, b, sink);
    return b;
}

Bytes activationsWithoutRecompute(const Breakdown &b)
{
    if (b.keptPerLayer <= 0)
        return b.component(Component::Activations);
    const double fullLayers =
        double(b.item(ItemId::LayerActivations)) * double(b.oneLayerActivations) / double(b.keptPerLayer);
    return b.component(Component::Activations) - b.item(ItemId::LayerActivations) - b.item(ItemId::RecomputeBuffer)
        + Bytes(std::llround(fullLayers));
}

Result<Breakdown> validatedEstimate(const Scenario &s)
{
    if (auto error = validate(s))
        return *error;
    return estimate(s);
}

std::vector<ExplainedItem> explain(const Scenario &s, Units units)
{
    std::vector<ExplainedItem> items;
    Breakdown b;
    TextSink sink{b, items};
    compute(s, heaviestStage(s), units, b, sink);
    std::stable_sort(items.begin(), items.end(), [](const ExplainedItem &l, const ExplainedItem &r) {
        return componentOf(l.id) < componentOf(r.id);
    });
    return items;
}

} // namespace vl
