#include "core/savedtensors.h"

#include <algorithm>
#include <bit>

namespace vl {

// The base weights train (full fine-tuning, or the trainable top layers under freeze).
bool baseTrains(const Scenario &s)
{
    return s.fineTune == FineTune::Full || s.fineTune == FineTune::Freeze;
}

bool torchtuneQwenRope(const Architecture &a)
{
    return a.qkvBias || a.qkNorm;
}

Bytes megatronNormStatisticsPerToken(const Architecture &a)
{
    return (a.norm == NormKind::LayerNorm ? 2 : 1) * 4;
}

constexpr std::int64_t kLitgptHeadChunk = 128;

std::int64_t litgptHeadChunks(const Scenario &s)
{
    return ceilDiv(s.sequence, kLitgptHeadChunk);
}

std::int64_t litgptLastChunkLength(const Scenario &s)
{
    return s.sequence - kLitgptHeadChunk * (litgptHeadChunks(s) - 1);
}

std::int64_t litgptLossChunkTokens(const Scenario &s)
{
    return s.microBatch * (litgptHeadChunks(s) > 1 ? kLitgptHeadChunk : litgptLastChunkLength(s) - 1);
}

Bytes litgptLossPositionsGradient(const Scenario &s)
{
    return litgptHeadChunks(s) > 1 ? 4 * s.microBatch * (s.sequence - 1) : 0;
}

namespace {

// The terms of Korthikanti et al.'s Table 2 for one layer.
struct ActivationParts {
    Bytes inputs = 0;    // norm inputs, QKV input, MLP input, dropout masks on h: the sbh terms
    Bytes attention = 0; // Q, K, V, output-projection input (and FlashAttention's LSE)
    Bytes scores = 0;    // the s² terms: softmax output, its dropout mask and output
    Bytes mlp = 0;       // the f-wide terms
    // Beyond the paper, which leaves them out as small: the two norms' FP32 statistics per token.
    Bytes statistics = 0;
    Bytes routing = 0; // MoE: the experts' permuted input rows and the permutation's indices
    Bytes qkNorms = 0; // --qk-layernorm: the query and key norms' inputs and statistics
    Bytes total() const { return inputs + attention + scores + mlp + statistics + routing + qkNorms; }
};

// Korthikanti et al. 2022, Table 2, generalised to GQA, gated MLPs, MoE top-k, FlashAttention.
// One layer, one micro-batch, on one tensor-parallel rank.
ActivationParts megatronLayer(const Scenario &s, Recompute recompute)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    // What a linear layer saves of its input: under FP8, Transformer Engine's LayerNormLinear,
    // Linear and LayerNormMLP save the input they cast to FP8 (transformer_engine/pytorch/module/
    // layernorm_linear.py ln_out, linear.py inputmat or inputmat_t, layernorm_mlp.py ln_out and
    // gelu_out), while the norms' inputs and FC1's output stay 16-bit.
    const std::int64_t gemm = dt.gemmInput;
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
    const std::int64_t masks = s.dropout ? 2 * sb * h : 0;           // attention-out and MLP dropout masks, 1 B each
    p.inputs = (2 * e * sb * h + 2 * gemm * sb * h + masks) / spDiv; // 2 norm inputs, QKV input, MLP input
    // Transformer Engine's two norms, fused into the QKV and FC1 linears, keep their statistics;
    // under sequence parallelism for this GPU's tokens.
    p.statistics = 2 * megatronNormStatisticsPerToken(a) * sb / spDiv;
    // The out-projection's input; under FP8 a flash kernel also keeps its 16-bit output. Megatron's
    // selective recomputation checkpoints the core attention (recompute_modules core_attn): its
    // output and log-sum-exp are made again in backward, only its inputs are kept.
    const bool flashKeepsOutput = s.attention != Attention::Eager && recompute != Recompute::Selective;
    const std::int64_t projInput = gemm + (gemm < e && flashKeepsOutput ? e : 0);
    p.attention = sb * (e * (a.heads * d + 2 * a.kvHeads * d) + projInput * a.heads * d) / t; // Q, K, V, out-proj input
    if (a.qkNorm) {
        // --qk-layernorm (transformer/attention.py, get_query_key_value_tensors: q_layernorm and
        // k_layernorm, TENorm over each head's width): Transformer Engine's norm saves its 16-bit
        // input and its statistics a row (module/rmsnorm.py, layernorm.py: inputmat, rsigma, mu).
        const std::int64_t rows = sb * (a.heads + a.kvHeads) / t;
        p.qkNorms = (e * d + megatronNormStatisticsPerToken(a)) * rows;
    }
    if (s.attention != Attention::Eager) {
        if (flashKeepsOutput)
            p.attention += 4 * a.heads * sb / t; // fp32 log-sum-exp
    } else if (recompute == Recompute::None) {
        const std::int64_t scores = a.heads * s.sequence * sb; // a·s²·b
        p.scores = (e * scores + (s.dropout ? scores + e * scores : 0)) / t;
    }
    // FC1's output(s) for the activation's backward, and the activation's output, FC2's input.
    const std::int64_t fc1Outputs = gated(a.mlp) ? 2 : 1;
    const std::int64_t k = std::min(a.expertsPerToken, a.experts);
    p.mlp = (fc1Outputs * e + gemm) * sb * a.ffn * k / t;
    if (a.experts > 1) {
        // Megatron-Core's MoE layer with its default allgather dispatcher (moe/token_dispatcher.py,
        // MoEAllGatherTokenDispatcher; experts split over the TP GPUs, --expert-tensor-parallel-size
        // defaulting to TP): each GPU gathers its TP × EP group's tokens and permutes the rows routed
        // to its local experts (moe/moe_utils.py, permute: index_select, whose backward keeps the
        // int64 indices), s·b·k rows with balanced routing; the experts' fc1 saves those rows. A
        // non-gated activation is then weighted by the routing probabilities and cast back
        // (transformer/mlp.py, MLP.forward with per_token_scale), which keeps its output as well;
        // the fused weighted SwiGLU keeps only its input, as the dense count has it.
        const std::int64_t rows = sb * k;
        p.routing = rows * (e * h + 8);
        if (!gated(a.mlp))
            p.mlp += e * rows * a.ffn / t;
    }
    return p;
}

bool loraOn(const Scenario &s, unsigned bit)
{
    return s.lora() && (s.loraTargets & bit);
}

// The input of a group of projections, saved once for all of them (projectionInputs).
constexpr std::string_view kProjectionInput = "projection input";
// ... kept by nothing but bitsandbytes' 4-bit linear before 0.43.2, in its autograd context
// (ctx.tensors), not saved: the non-reentrant checkpoint does not drop it, and its recomputation
// makes it again only for the graph it builds, gone once the recomputed forward returns. Mixtral's
// block has three more such inputs (mixtralMoe, expertTensors).
constexpr std::string_view kProjectionInputInContext = "projection input, kept in the 4-bit linear's context";
constexpr std::string_view kRouterInputInContext = "router input, kept by its 4-bit linear";
constexpr std::string_view kExpertRowsInContext = "each expert's rows, gathered, kept by the 4-bit w1 and w3";
constexpr std::string_view kExpertProductInContext = "SiLU × w3, kept by the 4-bit w2";

// Hugging Face's QLoRA: every projection of a layer is bitsandbytes' Linear4bit under PEFT's
// LoRA layer for it. Linear4bit computes in its input's dtype when that is FP32 or BF16
// (nn/modules.py, set_compute_type) and casts its output back to the input's dtype
// (`.to(inp_dtype)`): a layer that reads the FP32 stream (prepare_model_for_kbit_training's FP32
// norms) gets FP32 projections, and its MLP runs in FP32.
bool bitsandbytesLayer(const Scenario &s)
{
    return s.fineTune == FineTune::QLoRA && s.implementation == Implementation::HuggingFace;
}

// What the MLP's products are computed in: the activations' dtype, or bitsandbytes' projections'
// output dtype, the stream's.
std::int64_t mlpBytes(const Scenario &s, const DtypeBytes &dt)
{
    return bitsandbytesLayer(s) ? dt.stream : dt.activation;
}

// The input of one group of projections that read the same tensor (q, k, v; gate, up; o; down),
// as autograd keeps it; `input` is the bytes an element of that tensor. An nn.Linear whose weight
// trains saves its input; a frozen one does not (mm's derivative needs the input only for the
// weight's gradient), except bitsandbytes' 4-bit linear before 0.43.2 (Scenario::fourBitKeepsInput), which
// saves the input as it comes. PEFT's LoRA (peft/tuners/lora/layer.py, Linear.forward) casts x to
// the adapter's dtype, then runs lora_A on dropout(x): without dropout lora_A saves x itself; with
// it, each adapter keeps its own 1-byte mask and dropped copy. Around a 4-bit base
// (peft/tuners/lora/bnb.py, Linear4bit.forward) it casts x only outside autocast, so under
// autocast lora_A reads x as it comes. `castPerReader`: the input is the FP32 norm output under
// autocast, which every nn.Linear and FP32 adapter casts to 16 bits separately, each keeping its
// own cast (cached_cast caches weights, not activations). FP32 adapters over a 16-bit model
// without autocast (Scenario::adaptersFp32) each cast x up for themselves: lora_A keeps that FP32
// copy, or its dropped FP32 copy, and lora_B lora_A's FP32 output.
// `keptAnyway`: the input is saved by another op already (flash attention's output).
// `fourBitUnderQlora`: QLoRA quantizes this base projection (PEFT's leaves the LM head in 16 bits).
// Over `tokens` rows (one for a Mixtral expert's, listed a row). Returns whether the input itself
// is kept for backward.
bool projectionInputs(const Scenario &s, TensorList &out, std::initializer_list<unsigned> group, std::int64_t tokens,
                      std::int64_t width, std::int64_t input, bool castPerReader, bool keptAnyway = false,
                      bool fourBitUnderQlora = true)
{
    const DtypeBytes dt = dtypeBytes(s);
    const bool fourBit = bitsandbytesLayer(s) && fourBitUnderQlora;
    const bool baseSaves = baseTrains(s) || (s.fourBitKeepsInput() && fourBitUnderQlora);
    // A 4-bit base keeps x as it comes; its adapters cast an FP32 x under autocast each.
    const bool castEach = dt.autocast && (fourBit ? input == 4 : castPerReader);
    const bool upcastEach = s.adaptersUpcast();
    const std::int64_t adapterBytes = upcastEach ? dt.weight : dt.activation;
    bool shared = false;
    bool savedByAnOp = baseTrains(s); // beside a 4-bit linear's context
    for (unsigned bit : group) {
        const bool loraReadsInput = loraOn(s, bit) && !s.loraDropout;
        if (upcastEach) {
            shared = shared || baseSaves;
            if (loraReadsInput)
                out.add("FP32 cast of the input, saved by LoRA A", adapterBytes * tokens * width);
        } else if (castEach) {
            if (baseSaves && !fourBit)
                out.add("16-bit cast of the input, saved by the projection", 2 * tokens * width);
            shared = shared || (baseSaves && fourBit);
            if (loraReadsInput)
                out.add("16-bit cast of the input, saved by LoRA A", 2 * tokens * width);
        } else if (dt.autocast && loraReadsInput && !fourBit) {
            // A 16-bit input goes up to the FP32 adapter's dtype and autocast casts it back down
            // for lora_A: a copy of its own, even where another op keeps the input.
            out.add("16-bit cast of the input, saved by LoRA A", 2 * tokens * width);
            shared = shared || baseSaves;
        } else {
            shared = shared || baseSaves || loraReadsInput;
            savedByAnOp = savedByAnOp || loraReadsInput;
        }
        if (loraOn(s, bit) && s.loraDropout) {
            out.add("LoRA dropout mask (1 B)", tokens * width);
            out.add("LoRA dropout output, saved by LoRA A", adapterBytes * tokens * width);
        }
        if (loraOn(s, bit))
            out.add("LoRA A output (rank r), saved by LoRA B", adapterBytes * tokens * s.loraRank);
    }
    if (shared && !keptAnyway)
        out.add(fourBit && !savedByAnOp ? kProjectionInputInContext : kProjectionInput,
                (fourBit ? input : dt.activation) * tokens * width);
    return shared || keptAnyway;
}

// What one RMSNorm's saved tensors are called in the explanation.
struct RmsNormNames {
    std::string_view fp32Input, squares, rms, normalized, ligerInput, onePlusWeight;
};

// LlamaRMSNorm.forward (transformers/models/llama/modeling_llama.py): x.to(float32), pow(2),
// mean, rsqrt, x * rsqrt, weight * x.to(input_dtype). pow and the product save the FP32 input;
// rsqrt saves its result; before PyTorch 2.2 mean saves its input, x²; the product with the
// weight saves the normalized tensor only when the weight trains. torchtitan's unfused RMSNorm
// (models/norms.py) and torchtune's compose the same ops. Here over `rows` rows of `width` (the
// layer's norms: tokens × hidden; Qwen3's q_norm and k_norm: tokens × heads rows of the head's
// width); `input` is the bytes an element of what it reads: the stream's dtype for the layer's
// norms, the activations' for q_norm and k_norm.
// Gemma's RMSNorm (Gemma3RMSNorm.forward, models/gemma3/modeling_gemma3.py; Gemma's and Gemma-2's
// alike) multiplies in FP32, output * (1.0 + weight.float()), then casts back (type_as): the
// product saves 1 + weight, FP32, and the normalized tensor in FP32 when the weight trains.
void rmsNorm(const Scenario &s, TensorList &out, std::int64_t rows, std::int64_t width, const RmsNormNames &names,
             std::int64_t input)
{
    if (s.liger) {
        // Liger's LigerRMSNormFunction (liger_kernel/ops/rms_norm.py at ead96b6, casting mode
        // "llama"): save_for_backward(X, W, RSTD), the input as it comes and an FP32 1/rms a row.
        out.add(names.ligerInput, input * rows * width);
        out.add(names.rms, 4 * rows);
        return;
    }
    out.add(names.fp32Input, 4 * rows * width);
    if (s.meanKeepsInput())
        out.add(names.squares, 4 * rows * width);
    out.add(names.rms, 4 * rows);
    if (baseTrains(s))
        out.add(names.normalized, (s.arch.zeroCenteredNorm ? 4 : input) * rows * width);
    if (s.arch.zeroCenteredNorm)
        out.add(names.onePlusWeight, 4 * width);
}

void rmsNorm(const Scenario &s, TensorList &out, std::int64_t tokens)
{
    static constexpr RmsNormNames kNames{"RMSNorm input in FP32",
                                         "x² (FP32), saved by mean (PyTorch before 2.2)",
                                         "RMSNorm 1/rms (FP32)",
                                         "RMSNorm normalized input, saved by × weight",
                                         "RMSNorm input, saved by Liger's kernel",
                                         "RMSNorm 1 + weight (FP32), saved by ×"};
    rmsNorm(s, out, tokens, s.arch.hidden, kNames, dtypeBytes(s).stream);
}

// Gemma-2's and Gemma-3's norms after attention and after the MLP (post_attention_layernorm,
// post_feedforward_layernorm in Gemma3DecoderLayer.forward), over the output projection's and
// down_proj's outputs, before the residual sum: with four norms a layer.
void postNorm(const Scenario &s, TensorList &out, std::int64_t tokens, bool afterAttention)
{
    if (s.arch.normsPerLayer != 4)
        return;
    static constexpr RmsNormNames kAttention{"post-attention norm input in FP32",
                                             "post-attention norm x² (FP32), saved by mean (PyTorch before 2.2)",
                                             "post-attention norm 1/rms (FP32)",
                                             "post-attention norm normalized input, saved by × weight",
                                             "",
                                             "post-attention norm 1 + weight (FP32), saved by ×"};
    static constexpr RmsNormNames kMlp{"post-MLP norm input in FP32",
                                       "post-MLP norm x² (FP32), saved by mean (PyTorch before 2.2)",
                                       "post-MLP norm 1/rms (FP32)",
                                       "post-MLP norm normalized input, saved by × weight",
                                       "",
                                       "post-MLP norm 1 + weight (FP32), saved by ×"};
    rmsNorm(s, out, tokens, s.arch.hidden, afterAttention ? kAttention : kMlp, dtypeBytes(s).activation);
}

// Qwen3's q_norm and k_norm, an RMSNorm over each head's width on the query and key projections'
// outputs: Hugging Face's Qwen3Attention.forward (models/qwen3/modeling_qwen3.py, Qwen3RMSNorm,
// LlamaRMSNorm's code) and torchtitan's Attention.forward (models/common/attention.py, nn.RMSNorm)
// before rotary, as torchtune's Qwen3Attention (models/qwen3/_attention.py, its RMSNorm on the
// transposed heads). Pinned to autograd by tests/oracle.
void qkNorms(const Scenario &s, TensorList &out, std::int64_t tokens, std::int64_t heads, std::int64_t kvHeads)
{
    if (!s.arch.qkNorm)
        return;
    static constexpr RmsNormNames kQuery{"q_norm input in FP32",
                                         "q_norm x² (FP32), saved by mean (PyTorch before 2.2)",
                                         "q_norm 1/rms (FP32)",
                                         "q_norm normalized query, saved by × weight",
                                         "q_norm input, saved by Liger's kernel",
                                         "q_norm 1 + weight (FP32), saved by ×"};
    static constexpr RmsNormNames kKey{"k_norm input in FP32",
                                       "k_norm x² (FP32), saved by mean (PyTorch before 2.2)",
                                       "k_norm 1/rms (FP32)",
                                       "k_norm normalized key, saved by × weight",
                                       "k_norm input, saved by Liger's kernel",
                                       "k_norm 1 + weight (FP32), saved by ×"};
    const std::int64_t d = s.arch.effectiveHeadDim(), e = dtypeBytes(s).activation;
    rmsNorm(s, out, tokens * heads, d, kQuery, e);
    rmsNorm(s, out, tokens * kvHeads, d, kKey, e);
}

// torchtitan's tensor parallelism (parallelisms/parallelize_llama.py at 9dec370, apply_tp): each
// GPU computes heads/t and ffn/t of every projection over the whole sequence, runs its norms and
// residual sums on s/t of the tokens (SequenceParallel, Shard(1)), and PrepareModuleInput
// all-gathers the attention's and the MLP's input to the whole sequence, which the column-wise
// projections save. Hugging Face is modelled on one tensor-parallel GPU (scenarioError()).
std::int64_t titanTp(const Scenario &s)
{
    return s.implementation == Implementation::TorchTitan ? s.tensorParallel : 1;
}

// Before PyTorch 1.11 softmax's and log_softmax's backward named their input, so autograd kept it
// beside their output (Scenario::softmaxKeepsInput()): `what` it was, `bytes` its size.
void softmaxInput(const Scenario &s, TensorList &out, std::string_view what, Bytes bytes)
{
    if (s.softmaxKeepsInput())
        out.add(what, bytes);
}

// ... and what softmax(x, dtype=float32) keeps of `elements` inputs (at::softmax): BF16 or FP32
// converted with toType to FP32, FP16 as it comes, into CUDA's half-to-float kernel.
void fp32SoftmaxInput(const Scenario &s, TensorList &out, std::string_view what, std::int64_t elements)
{
    softmaxInput(s, out, what, (s.precision == Precision::MixedFp16 ? 2 : 4) * elements);
}

// The gradient of a layer's output, alive through its whole backward (backwardWorkingSet).
constexpr std::string_view kStreamGradient = "gradient of the layer's output (the residual stream)";
constexpr std::string_view kOutputGradientHeld = "gradient of the layer's output, held by the reentrant checkpoint";

// Each expert's token and slot indices (torch.where's int64 pair a row), saved by its gather and
// by index_add_ until the gather's backward has scattered its rows.
constexpr Bytes kRoutedIndicesPerRow = 16;

// Whether the MoE block's input as it comes is what its router and its experts' w1 and w3 keep:
// when they train outside autocast (under it they save 16-bit casts), or where bitsandbytes' 4-bit
// linears before 0.43.2 keep their input.
bool moeInputSaved(const Scenario &s)
{
    return (baseTrains(s) && !dtypeBytes(s).autocast) || (bitsandbytesLayer(s) && s.fourBitKeepsInput());
}

// The router's input, the norm's output: whether it is saved (or kept) as it comes, by the router
// (moeInputSaved) or by PEFT's LoRA adapter on it, whose tensors go into `out`, as on any
// projection's.
bool routerInputs(const Scenario &s, TensorList &out)
{
    const DtypeBytes dt = dtypeBytes(s);
    const bool byRouter = moeInputSaved(s);
    if (!s.lora())
        return byRouter;
    return projectionInputs(s, out, {LoraRouter}, s.sequence * s.microBatch, s.arch.hidden, dt.stream, dt.autocast,
                            byRouter);
}

// What one expert of Hugging Face's sparse MoE block (mixtralMoe, below) keeps for backward, per row
// routed to it, and of that what bitsandbytes' 4-bit linears keep as attributes of their autograd
// context: freed with the graph, not once the expert has run.
struct ExpertTensors {
    TensorList perRow;
    Bytes ctxAttributesPerRow = 0;
    bool rowsSaved = false;    // the gathered rows, which w1 and w3 (or their adapters) save or keep
    bool productSaved = false; // SiLU × w3, which w2 (or its adapter) saves or keeps
    // What it saves from w2 on (w2's input, its adapter's tensors, its output, the routing weight,
    // the weighted output), freed once backward reaches SiLU × w3; not what a 4-bit context keeps.
    Bytes fromW2PerRow = 0;
};

ExpertTensors expertTensors(const Scenario &s)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t mlp = mlpBytes(s, dt);
    const std::int64_t h = a.hidden, f = a.ffn;
    const bool trains = baseTrains(s);
    const bool fourBitKeeps = bitsandbytesLayer(s) && s.fourBitKeepsInput();
    ExpertTensors out;
    const auto keptByCtx = [&](std::string_view name, Bytes perRow) {
        out.perRow.add(name, perRow);
        out.ctxAttributesPerRow += perRow;
    };
    out.perRow.add("routed token and slot indices of each expert (int64)", kRoutedIndicesPerRow);
    if (trains && dt.autocast) {
        out.perRow.add("16-bit casts of each expert's rows, saved by w1", 2 * h);
        out.perRow.add("16-bit casts of each expert's rows, saved by w3", 2 * h);
    } else if (trains) {
        out.perRow.add("each expert's rows, gathered, saved by w1 and w3", dt.stream * h);
    } else if (fourBitKeeps) {
        keptByCtx(kExpertRowsInContext, dt.stream * h);
    }
    // PEFT's LoRA on an expert's w1, w3 and w2 (target_modules "all-linear"), each adapter on the
    // rows routed to it, as on the dense MLP's projections.
    out.rowsSaved = s.lora()
        ? projectionInputs(s, out.perRow, {LoraGate, LoraUp}, 1, h, dt.stream, dt.autocast, fourBitKeeps)
        : moeInputSaved(s);
    out.perRow.add("w1 output, saved by SiLU", mlp * f);
    out.perRow.add("SiLU output, saved by × w3", mlp * f);
    out.perRow.add("w3 output, saved by × SiLU", mlp * f);
    const Bytes beforeW2 = out.perRow.total - out.ctxAttributesPerRow;
    if (trains)
        out.perRow.add("SiLU × w3, saved by w2", mlp * f);
    else if (fourBitKeeps)
        keptByCtx(kExpertProductInContext, mlp * f);
    out.productSaved = s.lora() ? projectionInputs(s, out.perRow, {LoraDown}, 1, f, mlp, false, fourBitKeeps)
                                : trains || fourBitKeeps;
    out.perRow.add("w2 output, saved by × routing weight", mlp * h);
    out.perRow.add("routing weight of each row", dt.stream);
    // index_add_'s derivative expands the gradient as its source (derivatives.yaml), which it keeps.
    out.perRow.add("weighted expert output, saved by index_add_", dt.stream * h);
    out.fromW2PerRow = out.perRow.total - out.ctxAttributesPerRow - beforeW2;
    return out;
}

// How the tokens·k rows of Hugging Face's MoE block fall on its experts (Scenario::expertLoad):
// spread evenly, the first experts a row more where they do not divide; under every-token the last
// expert, which forward runs last and backward first, takes every token and the others share the rest.
// As runs of experts alike, in the order the block runs them: the first `extra` a row more, the
// rest of the sharing ones, and the last on its own under every-token.
struct ExpertRouting {
    struct Run {
        std::int64_t experts, rows;
    };
    std::array<Run, 3> runs;
    std::int64_t lastRows() const { return runs[2].experts > 0 ? runs[2].rows : runs[1].rows; }
    // The expert before the last: one of the sharing ones, the first `extra` of which a row more.
    std::int64_t nextToLastRows() const
    {
        return runs[2].experts > 0 || runs[1].experts > 1 ? runs[1].rows : runs[0].rows;
    }
};

ExpertRouting expertRouting(const Scenario &s)
{
    const Architecture &a = s.arch;
    const std::int64_t tokens = s.sequence * s.microBatch, k = std::min(a.expertsPerToken, a.experts);
    const bool everyToken = s.expertLoad == ExpertLoad::EveryToken;
    const std::int64_t sharing = everyToken ? a.experts - 1 : a.experts;
    const std::int64_t shared = tokens * (everyToken ? k - 1 : k);
    const std::int64_t extra = shared % sharing;
    return {{{{extra, shared / sharing + 1}, {sharing - extra, shared / sharing}, {everyToken ? 1 : 0, tokens}}}};
}

// Hugging Face transformers' MixtralSparseMoeBlock (models/mixtral/modeling_mixtral.py, v4.4x), in
// place of the MLP: the router (gate, a linear to the experts) saves its input when it trains;
// softmax in FP32 saves its probabilities, topk its indices, the in-place renormalisation of the
// top-k weights its operand and their sum. Each expert takes the rows routed to it: torch.where on
// the one-hot mask gives the token and slot indices (one int64 storage of both, nonzero's), the
// rows are gathered by index, and MixtralBlockSparseTop2MLP w2(silu(w1(x)) * w3(x)) saves what
// LlamaMLP does on them; its output times the routing weight saves both, and index_add_ the
// product. However routing falls, the experts' rows add up to tokens·k (expertRouting).
// Under Hugging Face's QLoRA the router and every expert's w1, w2 and w3 are bitsandbytes'
// Linear4bit (transformers' replace_with_bnb_linear spares only the head): the experts' products
// come in the stream's dtype (mlpBytes), and before 0.43.2 each 4-bit linear keeps its input.
void mixtralMoe(const Scenario &s, TensorList &out)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t k = a.expertsPerToken, experts = a.experts, h = a.hidden;
    if (baseTrains(s))
        out.add(dt.autocast ? "16-bit cast of the input, saved by the router" : "router input",
                (dt.autocast ? 2 : dt.stream) * tokens * h);
    else if (bitsandbytesLayer(s) && s.fourBitKeepsInput())
        out.add(kRouterInputInContext, dt.stream * tokens * h);
    routerInputs(s, out);
    fp32SoftmaxInput(s, out, "router logits, kept by softmax before PyTorch 1.11", tokens * experts);
    out.add("router probabilities (softmax in FP32)", 4 * tokens * experts);
    out.add("top-k expert indices (int64)", 8 * tokens * k);
    out.add("top-k routing weights (FP32), renormalised in place", 4 * tokens * k);
    out.add("their sum (FP32)", 4 * tokens);
    // Each tensor once for every run of experts with the same rows.
    const ExpertRouting routing = expertRouting(s);
    const TensorList perRow = expertTensors(s).perRow;
    for (int i = 0; i < perRow.count; ++i)
        for (const ExpertRouting::Run &run : routing.runs)
            out.add(perRow.items[i].name, perRow.items[i].bytes * run.rows * run.experts, run.experts);
}

// The bytes an element of what PEFT's LoRA adapters read (lora_A.weight's dtype, which PEFT casts x
// to) and compute in. Under autocast the adapters are the model's FP32 weights, and lora_A and
// lora_B compute in 16 bits, each casting its input first (torch/csrc/autograd/autocast_mode.cpp,
// cached_cast: a new tensor unless a leaf weight); else both are the adapters' dtype, FP32 over a
// 16-bit model (adaptersUpcast) or the model's.
struct AdapterBytes {
    std::int64_t input, output;
};

AdapterBytes adapterBytes(const Scenario &s)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t own = s.adaptersUpcast() ? 4 : dt.activation;
    return dt.autocast ? AdapterBytes{dt.weight, dt.activation} : AdapterBytes{own, own};
}

// What a walk through a forward's ops holds a row (a token, or an expert's row) beyond what it
// started with: at its widest, and the saved tensors it made. A saved tensor is never released:
// autograd holds it.
class OpWalk {
public:
    void alloc(Bytes bytes, bool saved = false)
    {
        m_widest = std::max(m_widest, m_held += bytes);
        m_made += saved ? bytes : 0;
    }
    void release(Bytes bytes) { m_held -= bytes; }
    Bytes widest() const { return m_widest; }
    Bytes made() const { return m_made; }

private:
    Bytes m_held = 0, m_widest = 0, m_made = 0;
};

// Walks a gated MLP's forward op by op, down(act(gate(x)) * up(x)) (LlamaMLP.forward; a Mixtral
// expert's MixtralBlockSparseTop2MLP.forward on its rows), with PEFT's LoRA on its projections:
// each projection's base output (bitsandbytes' cloned, peft/tuners/lora/bnb.py Linear4bit.forward)
// beside the adapter's, PEFT's cast of the input held until the projection returns, the sum and
// its cast back (peft/tuners/lora/layer.py Linear.forward). `input`: the bytes an element of x;
// `productSaved`: whether down's input is saved (or kept), `outputSaved`: whether down's output is.
// The frozen base's input casts under autocast are temporaries; a base that trains saves them.
void walkGatedMlp(const Scenario &s, OpWalk &walk, std::int64_t input, bool productSaved, bool outputSaved)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const bool bnb = bitsandbytesLayer(s);
    const std::int64_t h = a.hidden, f = a.ffn, r = s.loraRank;
    const std::int64_t m = mlpBytes(s, dt), act = dt.activation;
    const AdapterBytes adapter = adapterBytes(s); // named, not bound: lambdas capture it (clang 14)
    const std::int64_t adapterIn = adapter.input, adapterOut = adapter.output;
    // Around a 4-bit base PEFT casts the input to the adapters' dtype and their output back only
    // outside autocast (bnb.py: `requires_conversion`).
    const bool convertsForAdapter = !(bnb && dt.autocast);
    // One projection from `in` to `out` elements a row, its input `inBytes` an element; its result
    // made as a saved tensor or held.
    const auto projection = [&](unsigned target, std::int64_t in, std::int64_t inBytes, std::int64_t out,
                                bool resultSaved) {
        // The base: autocast's 16-bit cast of the input and the product, which bitsandbytes casts
        // back to its FP32 input's dtype (`.to(inp_dtype)`).
        const bool baseCast = dt.autocast && inBytes != act;
        const std::int64_t product = dt.autocast ? act : m;
        const bool baseSaved = resultSaved && !loraOn(s, target);
        if (baseCast)
            walk.alloc(in * act, baseTrains(s));
        walk.alloc(out * product, baseSaved && product == m);
        if (baseCast && !baseTrains(s))
            walk.release(in * act);
        if (product != m)
            walk.alloc(out * m, baseSaved), walk.release(out * product);
        if (!loraOn(s, target))
            return;
        if (bnb) {
            walk.alloc(out * m), walk.release(out * m); // `result = result.clone()`
        }
        // `x = self._cast_input_dtype(x, lora_A.weight.dtype)`, held until the return (saved by
        // lora_A without dropout)
        const bool cast = convertsForAdapter && inBytes != adapterIn;
        const std::int64_t dropped = cast ? adapterIn : inBytes;
        if (cast)
            walk.alloc(in * adapterIn, !s.loraDropout);
        if (s.loraDropout)
            walk.alloc(in, true); // dropout's mask
        if (dt.autocast && dropped != act) {
            // dropout's output, cast for lora_A (saved), lora_A's output; the output freed as
            // lora_A returns. Without dropout lora_A casts x itself.
            if (s.loraDropout)
                walk.alloc(in * dropped);
            walk.alloc(in * act, true), walk.alloc(r * act, true);
            if (s.loraDropout)
                walk.release(in * dropped);
        } else {
            if (s.loraDropout)
                walk.alloc(in * dropped, true); // dropout's output, lora_A's input
            walk.alloc(r * adapterOut, true);   // lora_A's output
        }
        walk.alloc(out * adapterOut); // lora_B's output
        walk.alloc(out * adapterOut); // times scaling
        walk.release(out * adapterOut);
        if (bnb) {
            std::int64_t output = adapterOut;
            if (convertsForAdapter && adapterOut != m)
                walk.alloc(out * m), walk.release(out * adapterOut), output = m; // `output = output.to(expected_dtype)`
            walk.alloc(out * m, resultSaved), walk.release(out * m); // `result = result + output`, the clone freed
            walk.release(out * output);                              // `output`, at the return
        } else {
            const std::int64_t sum = std::max(m, adapterOut); // an FP32 adapter's sum is FP32
            walk.alloc(out * sum, resultSaved && sum == m), walk.release(out * adapterOut), walk.release(out * m);
            if (sum != m)
                walk.alloc(out * m, resultSaved), walk.release(out * sum); // `result.to(torch_result_dtype)`
        }
        if (cast && s.loraDropout)
            walk.release(in * adapterIn); // at the return
    };
    projection(LoraGate, h, input, f, true);
    walk.alloc(f * m, true); // SiLU's output
    projection(LoraUp, h, input, f, true);
    walk.alloc(f * m, productSaved); // SiLU × up
    projection(LoraDown, f, m, h, outputSaved);
}

// Hugging Face's checkpoints recompute a layer inside its backward (torch/utils/checkpoint.py: the
// reentrant one in CheckpointFunction.backward, the non-reentrant one in the unpack hook of
// _checkpoint_without_reentrant, when the layer's backward first unpacks a saved tensor), so the
// gradient it started from is there while
// MixtralSparseMoeBlock runs forward again; at the last expert the block's passing tensors are
// too, which with the tokens spread over the experts outweigh an expert's backward: the
// decoder layer's residual (the stream after attention) and the norm's output the block reads
// (unless the router saves it), the block's output accumulating (final_hidden_states, in the
// input's dtype), the one-hot expert mask (int64, tokens × k × experts), the router's logits
// and the top-k weights cast to the input's dtype, and the last expert's gathered rows (where
// nothing saves them), beside that expert's MLP walked op by op (walkGatedMlp: SiLU × w3 and, with
// LoRA on the experts, each adapter's transient tensors), then its routing weight and weighted
// output. Of the layer's saved tensors those not made yet are left out, the layer's output too,
// which the recompute buffer counts under the reentrant checkpoint. Beyond the gradient of the
// layer's output; nothing without a checkpoint.
SavedTensor mixtralRecomputedForward(const Scenario &s, const TensorList &wholeLayer, const ExpertTensors &perExpert)
{
    if (!s.huggingFaceCheckpoint())
        return {};
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t rows = expertRouting(s).lastRows();
    const std::int64_t h = a.hidden, sb = dt.stream;
    TensorList routerAdapter; // mixtralMoe lists it; here only whether it keeps the norm's output
    const bool inputSaved = routerInputs(s, routerAdapter);
    const Bytes logits = (dt.autocast && !bitsandbytesLayer(s) ? 2 : sb) * tokens * a.experts;
    // With bitsandbytes before 0.43.2 under the non-reentrant checkpoint the 4-bit linears' inputs
    // are not in the recompute buffer: the graph the recomputation builds holds them again, the
    // attention's, the router's and every expert's so far, the last expert's among the walk's.
    const bool heldAgain = s.fourBitInputsOutliveCheckpoint();
    const Bytes heldAgainBefore = heldAgain
        ? keptOnlyInFourBitContext(wholeLayer) - perExpert.ctxAttributesPerRow * rows
        : 0;
    const Bytes beside = sb * tokens * h * (inputSaved ? 2 : 3) + 8 * tokens * a.expertsPerToken * a.experts + logits
        + sb * tokens * a.expertsPerToken + (perExpert.rowsSaved && !heldAgain ? 0 : sb * rows * h) + heldAgainBefore;
    // The last expert, op by op: its MLP (SiLU × w3 a temporary freed once w2 has run, unless
    // saved or kept), its output times the routing weight.
    OpWalk walk;
    walkGatedMlp(s, walk, sb, perExpert.productSaved && !heldAgain, true);
    if (!perExpert.productSaved)
        walk.release(mlpBytes(s, dt) * a.ffn);
    walk.alloc(sb, true), walk.alloc(sb * h, true); // the routing weight, the weighted output
    return {"the recomputed forward at the last expert: the layer's residual, the norm's output the block reads, the "
            "block's output so far, the expert mask (int64), the router's logits and top-k weights, the last "
            "expert's rows and its MLP's tensors at their widest (with LoRA, each projection's base and adapter "
            "outputs), less the layer's saved tensors not made yet",
            beside + (walk.widest() - walk.made()) * rows - reentrantCheckpointOutput(s), 1};
}

// PEFT's FP32 adapter on the first expert's w2, as on the dense down_proj (backwardWorkingSet's
// adapterCast): under autocast the 16-bit gradient of the expert's output waits for w2's base
// while the adapter's backward turns the gradient of its input to FP32 (with LoRA dropout, the
// gradients before and after the dropout), lora_A's 16-bit input and rank-r output freed by then;
// over a 16-bit model without autocast (a 4-bit base's too: bnb.py casts the input up there), the
// same wait beside the FP32 gradient of the adapter's input. Beside the routing weights' gradient,
// less the expert's output, its routing weight and the weighted output, freed by then. Nothing
// around a 4-bit base under autocast, whose adapter reads w2's input as it comes.
SavedTensor firstExpertAdapterCast(const Scenario &s, std::int64_t rows, Bytes routingGradient)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const bool autocastCasts = dt.autocast && !bitsandbytesLayer(s);
    if (!loraOn(s, LoraDown) || !(autocastCasts || s.adaptersUpcast()))
        return {};
    const std::int64_t e = dt.activation, h = a.hidden, f = a.ffn, sb = dt.stream;
    const Bytes inputGradients = !autocastCasts ? 4 * f : (s.loraDropout ? 6 : 4) * f - e * s.loraRank;
    const Bytes outputsFreed = mlpBytes(s, dt) * h + sb * h + sb;
    return {"the first expert's FP32 LoRA adapter on w2: the FP32 gradients of its input beside the 16-bit "
            "gradient of the expert's output waiting for w2's base and the routing weights' gradient, less the "
            "expert's output, its routing weight and the weighted output, freed by then",
            routingGradient + (e * h + inputGradients - outputsFreed) * rows, 1};
}

// MixtralSparseMoeBlock's backward (mixtralMoe) beyond the gradient of the layer's output, at its
// widest, as the oracle measures it: the experts run backward last first, each on its rows. In the
// first, the routing weight's product (the gradients of the expert's output and of the weight's
// product; under autocast the 16-bit output is promoted to FP32 and the gradient cast back) or,
// wider where each expert's MLP is, the gradients of SiLU × w3 and of its two factors, less what
// this expert saved after them, freed by then (w2's output, the weighted output, the routing
// weight), with the routing weights' gradient beside. Where experts are many and narrow, the
// gradient of the block's input grows instead: the first expert's row gradients scattered into a
// zero tensor of every token (IndexBackward), then each next expert's added to it out of place
// (autograd's InputBuffer), the old sum, the new tensor and their sum alive at once, less the
// two experts' saved tensors, freed by then (not bitsandbytes' kept inputs).
// Under either checkpoint the layer's recomputed forward runs inside its backward, beside the
// gradient it started from, and its last expert is a moment of its own (mixtralRecomputedForward).
TensorList mixtralBackwardWorkingSet(const Scenario &s, const TensorList &wholeLayer, Bytes stream)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t mlp = mlpBytes(s, dt);
    const std::int64_t tokens = s.sequence * s.microBatch;
    const ExpertRouting routing = expertRouting(s);
    const std::int64_t rows = routing.lastRows(); // backward's first expert
    const std::int64_t h = a.hidden, f = a.ffn, sb = dt.stream;
    const Bytes routingGradient = sb * tokens * a.expertsPerToken;
    const Bytes rowsWide = sb * rows * h;
    const ExpertTensors perExpert = expertTensors(s);
    const Bytes freedPerRow = perExpert.perRow.total - perExpert.ctxAttributesPerRow;
    const Bytes freedPerExpert = freedPerRow * rows;
    const std::array<SavedTensor, 4> moments{{
        {"the first expert's routing product: the gradients of its output and of its routing weight",
         2 * rowsWide + (mlp < sb ? mlp * rows * h : sb * rows), 1},
        {"the first expert's gradients of SiLU × w3 and of its two factors, beside the routing weights' gradient, "
         "less what that expert saved from w2 on (w2's input and its adapter's tensors too, where saved), freed by "
         "then",
         routingGradient + 3 * mlp * rows * f - perExpert.fromW2PerRow * rows, 1},
        {"gradient of the MoE block's input: the first expert's rows scattered into every token, beside the routing "
         "weights' gradient, less that expert's saved tensors, freed by then",
         sb * tokens * h + rowsWide + routingGradient - (freedPerExpert - kRoutedIndicesPerRow * rows), 1},
        {"gradient of the MoE block's input: the sum so far, the next expert's rows scattered into every token and "
         "their sum, beside the routing weights' gradient, less two experts' saved tensors, freed by then",
         3 * sb * tokens * h + routingGradient - freedPerExpert - freedPerRow * routing.nextToLastRows(), 1},
    }};
    SavedTensor widest = *std::max_element(
        moments.begin(), moments.end(), [](const SavedTensor &l, const SavedTensor &r) { return l.bytes < r.bytes; });
    if (const SavedTensor forward = mixtralRecomputedForward(s, wholeLayer, perExpert); forward.bytes > widest.bytes)
        widest = forward;
    if (const SavedTensor adapter = firstExpertAdapterCast(s, rows, routingGradient); adapter.bytes > widest.bytes)
        widest = adapter;
    // With bitsandbytes before 0.43.2 the non-reentrant checkpoint's recomputation returns only
    // once the layer's forward has (torch/utils/checkpoint.py, the unpack hook of
    // _checkpoint_without_reentrant runs the whole function): at its last op, the residual add, the
    // graph it built is whole, every 4-bit linear holding its input again in its context beside
    // what the layer saves, with the stream after attention, the block's output and the layer's
    // output being made. At any load the layer's widest moment.
    if (s.fourBitInputsOutliveCheckpoint()) {
        const SavedTensor end{"the recomputed forward's last op: the 4-bit linears' inputs made again in the graph "
                              "it built, beside the stream after attention, the block's output and the layer's "
                              "output",
                              keptOnlyInFourBitContext(wholeLayer) + 3 * sb * tokens * h, 1};
        if (end.bytes > widest.bytes)
            widest = end;
    }
    TensorList out;
    out.add(kStreamGradient, stream);
    out.add(widest.name, widest.bytes);
    return out;
}

// Hugging Face's checkpoint recomputes a layer inside its backward, beside the gradient it started
// from; with PEFT's LoRA (and dropout) on the MLP's projections that forward can hold more than any
// moment of the backward after it, where the adapters' transient tensors meet (walkGatedMlp), with
// the stream after attention, the MLP's input and SwiGLU's product alive. Walked op by op through
// LlamaMLP.forward, then the residual add; returned as what the walk holds at its widest beyond the
// recompute buffer (the layer's saved tensors, less those not made yet) and the gradient of the
// layer's output. Modelled with LoRA dropout, for 16-bit or FP32 adapters over a 16-bit base or a
// 4-bit one, and for an FP32 model under autocast (its adapters' inputs cast to 16 bits op by op,
// its FP32 stream); nothing elsewhere.
SavedTensor loraMlpRecomputedForward(const Scenario &s, const TensorList &wholeLayer)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const bool bnb = bitsandbytesLayer(s);
    if (!s.huggingFaceCheckpoint() || !loraOn(s, LoraMlp) || !s.loraDropout || s.liger || a.experts > 1
        || a.modeling != Modeling::Llama || !gated(a.mlp) || a.normsPerLayer != 2 || baseTrains(s))
        return {};
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t h = a.hidden, f = a.ffn;
    const std::int64_t m = mlpBytes(s, dt), adapter = adapterBytes(s).output;
    const std::int64_t x2 = dt.stream; // the norm's output, the MLP's input (FP32 under autocast: × its FP32 weight)
    // Kept by the 4-bit linears' contexts (bitsandbytes before 0.43.2): saved, unless the
    // non-reentrant checkpoint drops them from the recompute buffer; its recomputation's graph then
    // holds them again, with the attention's, until it returns.
    const bool inputsHeldAgain = s.fourBitInputsOutliveCheckpoint();
    const bool inputsKept = bnb && s.fourBitKeepsInput() && !inputsHeldAgain;
    OpWalk walk;
    walkGatedMlp(s, walk, x2, inputsKept, false);
    if (!inputsKept && !inputsHeldAgain)
        walk.release(f * m + h * x2); // SwiGLU's product, and the MLP's input as it returns
    walk.alloc(h * dt.stream);        // the layer's output, residual + MLP output
    // Beside the walk from its start: the stream after attention (the residual the layer adds back,
    // unless FP32: then it is the second norm's saved FP32 input itself) and the MLP's input unless a
    // 4-bit context keeps it (then saved); not yet made: the walk's saved tensors and the layer's
    // output the reentrant checkpoint holds, both in the recompute buffer. The non-reentrant
    // checkpoint recomputes once the layer's backward first unpacks a saved tensor, down_proj's
    // adapter's scaling (MulBackward0 keeps the scaling, a wrapped number), with the gradients made
    // on the way waiting beside the walk: the residual add's cast of the output's gradient to a
    // 16-bit MLP's dtype (AddBackward0, over an FP32 stream under autocast), then within down_proj's
    // LoRA the casts to the adapter's output dtype: ToCopyBackward0 of an FP32 adapter's over a
    // 16-bit base and, outside bitsandbytes, the sum's back to the base's for its output's branch;
    // under autocast, the sum's to the 16-bit adapter output beside bitsandbytes' FP32 one.
    const Bytes castInLora = !loraOn(s, LoraDown) || adapter == m ? 0
        : dt.autocast                                             ? (bnb ? h * adapter : 0)
                                                                  : h * (adapter + (bnb ? 0 : m));
    const Bytes waiting = s.useReentrant ? 0 : castInLora + (m != dt.stream ? h * m : 0);
    const Bytes beside = (dt.stream == 4 ? 0 : h * dt.stream) + (inputsKept ? 0 : h * x2) + waiting;
    // ... and, held again by that graph, the attention's 4-bit inputs (the MLP's are in the walk).
    const Bytes attentionHeldAgain = inputsHeldAgain ? keptOnlyInFourBitContext(wholeLayer) - (h * x2 + f * m) * tokens
                                                     : 0;
    const Bytes moment = (beside + walk.widest() - walk.made()) * tokens + attentionHeldAgain
        - reentrantCheckpointOutput(s);
    return {"the recomputed forward in the MLP's LoRA: each projection's base and adapter outputs, their sum and "
            "PEFT's cast of the input, beside the stream after attention, the MLP's input and SwiGLU's product, less "
            "the layer's saved tensors not made yet",
            moment, 1};
}

// The eager attentions' probabilities and value as they are saved, which backward's softmax
// moment (backwardWorkingSet()) finds in a layer's list.
constexpr std::string_view kProbabilitiesFp32 = "attention probabilities (softmax in FP32)";
constexpr std::string_view kProbabilities = "attention probabilities (softmax)";
constexpr std::string_view kRepeatedValue = "value, repeated to every head";
constexpr std::string_view kCopiedValue = "value, copied for the batched matmul";

// torchtune's RoPE, called for q and for k, reads its FP32 cache sliced to the sequence (a view)
// or, with packed samples, gathered at input_pos (`self.cache[input_pos]`, a new tensor each call).
// Llama's and Mistral's (modules/position_embeddings.py RotaryPositionalEmbeddings, models/
// llama3_1/_position_embeddings.py Llama3ScaledRoPE) multiply x by the cache's pairs, which the
// products keep: the gathered rows when packed. Qwen2's (models/qwen2/_positional_embeddings.py
// Qwen2RotaryPositionalEmbeddings) cast cos and sin, each head_dim wide, to x's dtype for x * cos
// and rotate_half(x) * sin to keep: in 16 bits new tensors each call, one row for all sequences
// unless packed; in FP32 the cast is the slice itself, a view of the cache or of the gathered rows.
void torchtuneRopeRows(const Scenario &s, TensorList &out)
{
    if (s.implementation != Implementation::TorchTune)
        return;
    const std::int64_t d = s.arch.effectiveHeadDim();
    const std::int64_t rows = s.sequence * (s.packed ? s.microBatch : 1);
    const int e = dtypeBytes(s).activation;
    if (!torchtuneQwenRope(s.arch)) {
        if (!s.packed)
            return;
        const Bytes gathered = rows * (d / 2) * 2 * 4;
        out.add("RoPE cache rows gathered at the packed positions (FP32), saved by the query's rotation", gathered);
        out.add("RoPE cache rows gathered at the packed positions (FP32), saved by the key's rotation", gathered);
        return;
    }
    if (e < 4) {
        out.add("Qwen2's RoPE: cos and sin cast to 16 bits, saved by the query's rotation", 2 * rows * d * e, 2);
        out.add("Qwen2's RoPE: cos and sin cast to 16 bits, saved by the key's rotation", 2 * rows * d * e, 2);
    } else if (s.packed) {
        const Bytes gathered = rows * 2 * d * 4;
        out.add("Qwen2's RoPE: cache rows gathered at the packed positions (FP32), saved by the query's rotation",
                gathered);
        out.add("Qwen2's RoPE: cache rows gathered at the packed positions (FP32), saved by the key's rotation",
                gathered);
    }
}

// Hugging Face transformers' Llama-family decoder layer (Llama, Mistral, Qwen2): modeling_llama.py
// LlamaDecoderLayer.forward, LlamaAttention with eager_attention_forward (repeat_kv, softmax in
// FP32, cast back), SDPA or flash_attention_2, LlamaMLP down_proj(act_fn(gate_proj(x)) *
// up_proj(x)); torchtitan's Llama block saves the same but for repeat_kv before SDPA, and
// torchtune's (modules/transformer.py TransformerSelfAttentionLayer, modules/attention.py
// MultiHeadAttention, its RMSNorm and FeedForward) as torchtitan's, expanding K and V to every
// head after RoPE, with its RoPE's gathered rows beside. Pinned tensor by tensor to PyTorch's
// autograd by tests/oracle (SDPA's flash kernel by its saved set).
void llamaLayer(const Scenario &s, TensorList &out)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t t = titanTp(s);
    const std::int64_t d = a.effectiveHeadDim();
    const std::int64_t heads = a.heads / t, kvHeads = a.kvHeads / t, ffn = a.ffn / t;
    const std::int64_t q = heads * d;
    rmsNorm(s, out, tokens / t);
    projectionInputs(s, out, {LoraQ, LoraK, LoraV}, tokens, a.hidden, dt.stream, dt.autocast);
    qkNorms(s, out, tokens, heads, kvHeads);
    const bool math = sdpaRunsMath(s);
    if (s.attention != Attention::Eager && !math) {
        // The flash kernel saves q, k, v, its output and the FP32 log-sum-exp (derivatives.yaml,
        // _scaled_dot_product_flash_attention; flash_attn_func likewise). Hugging Face passes K and
        // V at the KV heads (flash_attention_2, or SDPA with enable_gqa from PyTorch 2.5 when no
        // padding mask is given: integrations/sdpa_attention.py); torchtitan repeats them to every
        // head first (models/llama3/model/model.py, Attention.forward: repeat_kv), and so did
        // Hugging Face's before 4.48 (kvRepeated: modeling_mistral.py MistralFlashAttention2.forward,
        // modeling_llama.py LlamaSdpaAttention.forward).
        // With a single KV head repeat_kv's reshape stays a stride-0 view: nothing is copied.
        const bool repeated = (s.implementation == Implementation::TorchTitan
                               || s.implementation == Implementation::TorchTune || s.keysAndValuesRepeated())
            && kvHeads > 1;
        torchtuneRopeRows(s, out);
        const std::int64_t kv = repeated ? q : kvHeads * d;
        out.add("query after rotary", e * tokens * q);
        out.add(repeated ? "key after rotary, repeated to every head" : "key after rotary (KV heads)", e * tokens * kv);
        out.add(repeated ? "value, repeated to every head" : "value (KV heads)", e * tokens * kv);
        out.add("attention output, saved by the kernel and the output projection", e * tokens * q);
        out.add("log-sum-exp (FP32)", 4 * tokens * heads);
        // SDPA handed a padding mask runs the memory-efficient kernel: scaled_dot_product_attention
        // makes the boolean mask additive in the query's dtype for each call
        // (aten/src/ATen/native/transformers/attention.cpp, convert_boolean_attn_mask), broadcast over
        // the heads, and the kernel saves it (derivatives.yaml, _scaled_dot_product_efficient_attention:
        // attn_bias).
        if (s.sdpaGetsPaddingMask())
            out.add("padding mask made additive, saved by SDPA's memory-efficient kernel", e * s.sequence * tokens);
        projectionInputs(s, out, {LoraO}, tokens, q, e, false, true);
    } else {
        // Eager attention, or SDPA's math composite (_scaled_dot_product_attention_math in
        // aten/src/ATen/native/transformers/attention.cpp), which saves as much: the query times
        // the scale's square root (copied by matmul's reshape of its permuted layout), the key
        // repeated to every head times the same, the value repeated, the probabilities.
        out.add(math ? "query × √scale, copied by the batched matmul (SDPA's math kernel)" : "query after rotary",
                e * tokens * q);
        out.add(math ? "key repeated to every head × √scale (SDPA's math kernel)"
                     : "key after rotary, repeated to every head",
                e * tokens * q);
        out.add(kRepeatedValue, e * tokens * q);
        const std::int64_t scores = heads * s.sequence * tokens;
        // Gemma-2's eager_attention_forward: scores / softcap, tanh, × softcap; tanh saves its output.
        if (a.softCapping)
            out.add("tanh of the soft-capped scores, saved by tanh", e * scores);
        fp32SoftmaxInput(s, out, "attention scores, kept by softmax before PyTorch 1.11", scores);
        out.add(kProbabilitiesFp32, 4 * scores);
        if (e < 4)
            out.add("attention probabilities cast back to 16 bits", e * scores);
        projectionInputs(s, out, {LoraO}, tokens, q, e, false);
    }
    postNorm(s, out, tokens, true);
    rmsNorm(s, out, tokens / t);
    if (a.experts > 1) {
        mixtralMoe(s, out);
        return;
    }
    projectionInputs(s, out, {LoraGate, LoraUp}, tokens, a.hidden, dt.stream, dt.autocast);
    const std::int64_t mlp = mlpBytes(s, dt);
    if (s.liger) {
        // LigerSiLUMulFunction (liger_kernel/ops/swiglu.py): save_for_backward(a, b), SiLU
        // recomputed in backward.
        out.add("gate_proj output, saved by Liger's SiLU × up", mlp * tokens * ffn);
        out.add("up_proj output, saved by Liger's SiLU × up", mlp * tokens * ffn);
    } else if (a.mlp == MlpKind::GeGlu) {
        // Gemma's MLP: gelu_pytorch_tanh, whose backward, like SiLU's, needs only its input.
        out.add("gate_proj output, saved by GELU", mlp * tokens * ffn);
        out.add("GELU output, saved by × up", mlp * tokens * ffn);
        out.add("up_proj output, saved by × GELU", mlp * tokens * ffn);
    } else {
        out.add("gate_proj output, saved by SiLU", mlp * tokens * ffn);
        out.add("SiLU output, saved by × up", mlp * tokens * ffn);
        out.add("up_proj output, saved by × SiLU", mlp * tokens * ffn);
    }
    projectionInputs(s, out, {LoraDown}, tokens, ffn, mlp, false);
    postNorm(s, out, tokens, false);
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
    out.add("LayerNorm input", dt.stream * tokens * s.arch.hidden);
    out.add("LayerNorm mean (FP32)", 4 * tokens);
    out.add("LayerNorm 1/std (FP32)", 4 * tokens);
}

// The FP32 output of a LayerNorm read by a linear whose weight trains: under autocast the linear
// keeps its 16-bit cast, otherwise the output itself.
void normOutputRead(const Scenario &s, TensorList &out, std::int64_t elements)
{
    const DtypeBytes dt = dtypeBytes(s);
    if (baseTrains(s))
        out.add(dt.autocast ? "16-bit cast of the norm output, saved by the next linear"
                            : "norm output, saved by the next linear",
                (dt.autocast ? 2 : dt.activation) * elements);
}

// The attention probabilities as the eager matmul with V reads them, after softmax (on autocast's
// FP32 list) and dropout. `cast16`: GPT-2 casts the FP32 softmax back to V's dtype before dropout.
void eagerProbabilities(const Scenario &s, TensorList &out, bool cast16)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t scores = s.arch.heads * s.sequence * s.sequence * s.microBatch;
    const std::int64_t e = dt.activation;
    // Under autocast the softmax's input is FP32: autocast's cast (GPT-2) or the scores promoted
    // by BERT's FP32 mask.
    const Bytes probabilities = (dt.autocast ? 4 : e) * scores;
    softmaxInput(s, out, "attention scores, kept by softmax before PyTorch 1.11", probabilities);
    out.add(dt.autocast ? kProbabilitiesFp32 : kProbabilities, probabilities);
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

// Eager attention over heads split from a (b, s, h) tensor: torch.matmul reshapes the permuted
// query, key and value to (b·heads, s, d), which copies them, and saves the copies.
void matmulCopies(TensorList &out, Bytes each)
{
    out.add("query, copied for the batched matmul", each);
    out.add("key, copied for the batched matmul", each);
    out.add(kCopiedValue, each);
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
        matmulCopies(out, e * tokens * h);
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
    matmulCopies(out, e * tokens * h);
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

// One of lit-gpt's norms: torch's LayerNorm in the GPT-NeoX blocks, else lit_gpt/rmsnorm.py's
// RMSNorm written out (x·x, mean, × 1/rms, × weight; mean keeps x·x before PyTorch 2.2). Both run
// in the residual stream's dtype:
// BF16 in bf16-true; FP32 under autocast, where none of RMSNorm's ops is cast down (rsqrt is on
// the FP32 list) and LayerNorm is on the FP32 list.
void litgptNorm(const Scenario &s, TensorList &out)
{
    if (s.arch.modeling == Modeling::GptNeox) {
        layerNorm(s, out);
        return;
    }
    const std::int64_t stream = dtypeBytes(s).stream;
    const std::int64_t elements = s.sequence * s.microBatch * s.arch.hidden;
    out.add("RMSNorm input, saved by x·x and × 1/rms", stream * elements);
    if (s.meanKeepsInput())
        out.add("x·x, saved by mean (PyTorch before 2.2)", stream * elements);
    out.add("RMSNorm 1/rms", stream * s.sequence * s.microBatch);
    if (baseTrains(s))
        out.add("RMSNorm normalized input, saved by × weight", stream * elements);
}

// A norm's output as the linears that save it read it: the tensor itself, or under autocast a
// 16-bit cast that each of them makes and keeps (cached_cast caches weights, not activations).
void litgptNormOutput(const Scenario &s, TensorList &out, std::initializer_list<std::string_view> readers,
                      std::string_view together)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t elements = s.sequence * s.microBatch * s.arch.hidden;
    if (!dt.autocast) {
        out.add(together, dt.activation * elements);
        return;
    }
    for (std::string_view reader : readers)
        out.add(reader, 2 * elements);
}

// The norm's output as the fused qkv projection reads it, LoRAQKVLinear's adapters and the
// attention: lit-gpt's CausalSelfAttention in both kinds of block.
void litgptAttention(const Scenario &s, TensorList &out, bool normOutputSaved)
{
    const Architecture &a = s.arch;
    const std::int64_t e = dtypeBytes(s).activation;
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t h = a.hidden;
    const std::int64_t d = a.effectiveHeadDim();
    const unsigned qkvBits = s.loraTargets & (LoraQ | LoraK | LoraV);
    const bool lora = loraOn(s, LoraQ) || loraOn(s, LoraK) || loraOn(s, LoraV);
    const bool sharedNorm = a.modeling == Modeling::GptNeox && a.normsPerLayer == 1;
    const bool autocast = dtypeBytes(s).autocast;
    if (normOutputSaved && sharedNorm)
        litgptNormOutput(s, out,
                         {"16-bit cast of the norm output, saved by the qkv projection",
                          "16-bit cast of the norm output, saved by fc"},
                         "norm output, saved by the qkv projection and fc");
    else if (normOutputSaved)
        litgptNormOutput(s, out, {"16-bit cast of the norm output, saved by the qkv projection"},
                         "norm output, saved by the qkv projection");
    if (lora && !s.loraDropout && !(normOutputSaved && !autocast))
        litgptNormOutput(s, out, {"16-bit cast of the norm output, saved by LoRA A"}, "norm output, saved by LoRA A");
    if (lora && s.loraDropout) {
        out.add("LoRA dropout mask (1 B)", tokens * h);
        out.add(autocast ? "16-bit cast of the LoRA dropout output, saved by LoRA A"
                         : "LoRA dropout output, saved by LoRA A",
                e * tokens * h);
    }
    if (lora)
        out.add("LoRA A output (rank r), saved by LoRA B", e * tokens * s.loraRank * std::popcount(qkvBits));
    if (lora && qkvBits != (LoraQ | LoraK | LoraV)) {
        // zero_pad scatters the adapted columns into zeros with index_copy, which saves its index
        // and its source: the transposed LoRA-B output reshaped, a copy.
        const std::int64_t adapted = ((qkvBits & LoraQ) ? a.heads * d : 0) + ((qkvBits & LoraK) ? a.kvHeads * d : 0)
            + ((qkvBits & LoraV) ? a.kvHeads * d : 0);
        out.add("LoRA B output, copied by zero_pad and saved by index_copy", e * tokens * adapted);
        out.add("adapted columns (int64), saved by index_copy", 8 * adapted);
    }
    // V is a view of the fused qkv output unless GQA repeats it into a copy; then it is that copy.
    if (a.kvHeads == a.heads || a.kvHeads == 1)
        out.add("fused qkv output, kept whole by the value view", e * tokens * (a.heads + 2 * a.kvHeads) * d);
    else
        out.add("value, repeated to every head", e * tokens * a.heads * d);
    out.add("query after rotary", e * tokens * a.heads * d);
    out.add(a.kvHeads == 1 ? "key after rotary (KV heads)" : "key after rotary, repeated to every head",
            e * tokens * (a.kvHeads == 1 ? d : a.heads * d));
    out.add("attention output, saved by the kernel", e * tokens * a.heads * d);
    out.add("log-sum-exp (FP32)", 4 * tokens * a.heads);
    // flash_attn_func's output keeps q's (b, heads, s, d) memory (mha_fwd: empty_like(q)), so
    // y.reshape(B, T, C) copies it.
    if (normOutputSaved)
        out.add("attention output reshaped (a copy), saved by the output projection", e * tokens * a.heads * d);
}

// lit-gpt at commit 8641822 (Lightning-AI/lit-gpt, Oct 2023), what finetune/lora.py trains in
// bf16-true: lit_gpt/model.py Block, CausalSelfAttention (one fused qkv linear viewed, permuted
// and split into heads; apply_rope on the first rope_n_elem of each head and cat make new q and
// k; flash_attn_func) and lit_gpt/lora.py LoRAQKVLinear (lora_A on dropout(x), a conv1d for
// lora_B, zero_pad's index_copy). Two kinds of block:
// - Llama: norm_1, attention, residual, norm_2, LLaMAMLP (fc_1, fc_2, SiLU, proj), with
//   lit_gpt/rmsnorm.py RMSNorm (x·x, mean, × 1/rms, × weight);
// - GPT-NeoX (phi-1.5, StableLM-alpha): the parallel residual x + attn(norm_1(x)) + mlp(n_2),
//   n_2 = norm_1's output under shared_attention_norm, else norm_2 of the same x (or, without
//   the parallel residual, of x + attn); torch's LayerNorm; GptNeoxMLP (fc, GELU, proj); biases.
// Frozen nn.Linear layers save no input; under QLoRA every one is bitsandbytes' 4-bit linear,
// whose MatMul4Bit saves it. In bf16-mixed (Fabric's MixedPrecision: torch.autocast over FP32
// weights) the residual stream and the norms stay FP32 and the linears save 16-bit casts.
// Pinned to autograd by tests/oracle (LitgptLlamaLayer, LitgptNeoxLayer).
void litgptLayer(const Scenario &s, TensorList &out)
{
    const Architecture &a = s.arch;
    const std::int64_t e = dtypeBytes(s).activation;
    const std::int64_t tokens = s.sequence * s.microBatch;
    // A linear saves its input when its weight trains, or when it is 4-bit (MatMul4Bit).
    const bool inputsSaved = baseTrains(s) || s.fourBitKeepsInput();
    litgptNorm(s, out);
    litgptAttention(s, out, inputsSaved);
    if (a.modeling == Modeling::GptNeox) {
        if (a.normsPerLayer == 2) {
            // In parallel, norm_2 reads the block's input, which norm_1 already keeps: only its
            // statistics are new. In sequence it reads the attention's residual sum.
            if (a.parallelResidual) {
                out.add("LayerNorm mean (FP32)", 4 * tokens);
                out.add("LayerNorm 1/std (FP32)", 4 * tokens);
            } else {
                litgptNorm(s, out);
            }
            if (inputsSaved)
                litgptNormOutput(s, out, {"16-bit cast of the norm output, saved by fc"}, "norm output, saved by fc");
        }
        out.add("fc output, saved by GELU", e * tokens * a.ffn);
        if (inputsSaved)
            out.add("GELU output, saved by the MLP's proj", e * tokens * a.ffn);
        return;
    }
    litgptNorm(s, out);
    if (inputsSaved)
        litgptNormOutput(
            s, out, {"16-bit cast of the norm output, saved by fc_1", "16-bit cast of the norm output, saved by fc_2"},
            "norm output, saved by fc_1 and fc_2");
    out.add("fc_1 output, saved by SiLU", e * tokens * a.ffn);
    out.add("SiLU output, saved by × fc_2", e * tokens * a.ffn);
    out.add("fc_2 output, saved by × SiLU", e * tokens * a.ffn);
    if (inputsSaved)
        out.add("SiLU × fc_2, saved by the MLP's proj", e * tokens * a.ffn);
}

// torchtitan's op-level selective checkpointing (torchtitan/parallelisms/parallelize_llama.py at
// commit 9dec370, _apply_ac_to_transformer_block with selective_ac_option = "op"): around each
// block, torch.utils.checkpoint keeps the block's input and the outputs of the ops on _save_list:
// SDPA's flash kernel (its output and log-sum-exp) and every odd-numbered mm of the block's seven
// (wq, wk, wv, wo, w1, w3, w2 in call order: wq, wv, w1 and w2). Everything else is recomputed in
// backward, a layer at a time (estimate()'s recomputation working set).
void titanSelectiveLayer(const Scenario &s, TensorList &out)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t t = titanTp(s);
    const std::int64_t d = a.effectiveHeadDim();
    out.add("layer input, kept by the checkpoint", dt.stream * tokens / t * a.hidden);
    out.add("wq output (1st mm), saved by the op policy", e * tokens * a.heads / t * d);
    out.add("wv output (3rd mm), saved by the op policy", e * tokens * a.kvHeads / t * d);
    out.add("attention output, saved by the op policy", e * tokens * a.heads / t * d);
    out.add("log-sum-exp (FP32), saved by the op policy", 4 * tokens * a.heads / t);
    out.add("w1 output (5th mm), saved by the op policy", e * tokens * a.ffn / t);
    // Under TP the row-wise w2's mm gives partial sums over the whole sequence, and the
    // reduce-scatters after wo and w2 (_c10d_functional.reduce_scatter_tensor, on _save_list) a
    // slice of the sequence each.
    out.add("w2 output (7th mm), saved by the op policy", e * tokens * a.hidden);
    if (t > 1)
        out.add("wo and w2 reduce-scatter outputs, saved by the op policy", 2 * e * tokens / t * a.hidden, 2);
}

// Layers as the named code computes them (Hugging Face transformers, torchtitan, lit-gpt).
void codeLayer(const Scenario &s, TensorList &out)
{
    if (s.implementation == Implementation::LitGpt) {
        litgptLayer(s, out);
        return;
    }
    if (s.recompute == Recompute::Selective) { // scenarioError(): torchtitan only
        titanSelectiveLayer(s, out);
        return;
    }
    if (s.recompute == Recompute::Full) {
        // torch.utils.checkpoint around each layer (gradient_checkpointing_enable) keeps its input.
        const DtypeBytes dt = dtypeBytes(s);
        out.add("layer input, kept by the checkpoint",
                dt.stream * s.sequence * s.microBatch / titanTp(s) * s.arch.hidden);
        if (s.fourBitInputsOutliveCheckpoint())
            out.add("the 4-bit linears' inputs, kept in their context past the non-reentrant checkpoint",
                    fourBitInputsKeptPerLayer(s));
        return;
    }
    switch (s.arch.modeling) {
    case Modeling::Llama: llamaLayer(s, out); break;
    case Modeling::Gpt2: gpt2Layer(s, out); break;
    case Modeling::Bert: bertLayer(s, out); break;
    case Modeling::GptNeox: break; // lit-gpt's alone (checkCodeLevel), counted above
    }
}

// The causal-LM loss (transformers v4.46+ loss/loss_utils.py ForCausalLMLoss; torchtitan
// components/loss.py cross_entropy_loss): logits.float(), cross_entropy = log_softmax, which saves
// its FP32 result, and nll_loss, which saves the labels.
void causalLmLoss(const Scenario &s, TensorList &out)
{
    const std::int64_t tokens = s.sequence * s.microBatch;
    // torchtitan's loss_parallel (train.py, the output's Shard(-1) logits): each GPU keeps the
    // log-softmax of its slice of the vocabulary.
    const Bytes perToken = 4 * ceilDiv(s.arch.vocab, titanTp(s));
    out.add("log-softmax over the vocabulary (FP32), saved by the loss", perToken * tokens);
    // Before 1.11 log_softmax keeps its input as well: the FP32 logits (the logits item leaves out
    // the FP32 copy it would otherwise count while the loss runs).
    softmaxInput(s, out, "FP32 logits, kept by log-softmax before PyTorch 1.11", perToken * tokens);
    // Hugging Face: labels = F.pad(labels, (0, 1), value=-100); labels[..., 1:].contiguous(): with
    // one sequence the slice is already contiguous and keeps the padded storage, one token longer.
    // torchtitan's cross_entropy_loss reads the labels as they come.
    const bool padded = s.implementation == Implementation::HuggingFace && s.microBatch == 1;
    const std::int64_t labels = padded ? s.sequence + 1 : tokens;
    out.add("shifted labels (int64), saved by the loss", 8 * labels);
}

// lit_gpt/lora.py LoRALinear around the head (finetune/lora.py's lora_head), once per chunk:
// (lora_dropout(x) @ lora_A.T @ lora_B.T) * scaling. The first product saves its input: the
// chunk's dropped copy, else under autocast its 16-bit cast, else the chunk itself: a view of the
// final norm's output, or when the chunk strides over several sequences the copy matmul makes to
// flatten it; the second saves lora_A's output.
void litgptHeadLora(const Scenario &s, TensorList &out, std::int64_t fullChunks, std::int64_t fullTokens,
                    std::int64_t lastTokens)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    const std::int64_t h = s.arch.hidden;
    const auto chunked = [&](std::string_view full, std::string_view last, std::int64_t bytesPerToken) {
        out.add(full, bytesPerToken * fullChunks * fullTokens, fullChunks);
        out.add(last, bytesPerToken * lastTokens);
    };
    if (s.loraDropout)
        chunked("LoRA dropout masks of the full chunks (1 B)", "LoRA dropout mask of the last chunk (1 B)", h);
    // Several sequences cut into several chunks: each chunk strides over the sequences.
    const bool strided = s.microBatch > 1 && fullChunks > 0;
    if (s.loraDropout || dt.autocast || strided)
        chunked("LoRA A inputs of the full chunks", "LoRA A input of the last chunk", e * h);
    else if (!baseTrains(s) && !s.fourBitKeepsInput()) // else the head keeps it already
        out.add("LM-head input", e * (fullChunks * fullTokens + lastTokens) * h);
    chunked("LoRA A outputs of the full chunks (rank r), saved by LoRA B",
            "LoRA A output of the last chunk (rank r), saved by LoRA B", e * s.loraRank);
}

// What the embeddings save, kept until backward's very end: the token ids; GPT-2 its position ids
// and the embedding dropout's mask, BERT its token-type ids, embedding LayerNorm and dropout.
void codeEmbedding(const Scenario &s, TensorList &out)
{
    const std::int64_t tokens = s.sequence * s.microBatch;
    const bool trains = baseTrains(s);
    if (trains)
        out.add("token ids, saved by the embedding (int64)", 8 * tokens);
    // The padding mask Hugging Face's model builds once for every layer (masking_utils.py,
    // sdpa_mask: boolean, batch × 1 × s × s) is an input of each checkpointed layer, which keeps it
    // for the recomputation until its backward: there until the first layer's. Without
    // checkpointing it goes when the model's forward returns. (Measured on an H200:
    // h200-qwen3-0.6b-bf16-sdpa-b4-s2048-ckpt-padded.)
    if (s.sdpaGetsPaddingMask() && s.recompute == Recompute::Full)
        out.add("padding mask (boolean), built by the model and kept by the checkpointed layers", s.sequence * tokens);
    if (s.implementation == Implementation::LitGpt)
        return;
    switch (s.arch.modeling) {
    case Modeling::Gpt2:
        if (trains)
            out.add("position ids (int64), saved by the position embedding", 8 * s.sequence);
        dropoutMask(s, out, tokens * s.arch.hidden);
        break;
    case Modeling::Bert:
        if (trains)
            out.add("token-type ids (int64), saved by their embedding", 8 * tokens);
        layerNorm(s, out);
        dropoutMask(s, out, tokens * s.arch.hidden);
        break;
    case Modeling::Llama:
        // In the releases from transformers 4.46 on, the model computes RoPE's cos and sin once a
        // forward, in the stream's dtype, for position ids it makes of one row when the batch
        // brings none (modeling_llama.py, LlamaModel.forward: position_ids =
        // cache_position.unsqueeze(0), position_embeddings = self.rotary_emb(hidden_states,
        // position_ids)); every layer's rotation saves them (apply_rotary_pos_emb: q * cos,
        // rotate_half(q) * sin), so they stay until the first layer's backward. Up to 4.44 each
        // layer's attention computed its own (4.38's LlamaAttention.forward: cos, sin =
        // self.rotary_emb(value_states, position_ids)): not counted.
        // (Measured on an H200: at h200-llama1b-fp32-sdpa-b1-s4096's peak, modeling_llama.py's
        // LlamaRotaryEmbedding.forward holds them.)
        if (s.implementation == Implementation::HuggingFace && s.transformers != TransformersRelease::Before4_46)
            out.add("RoPE's cos and sin, computed once for a row of positions, saved by every layer's rotation",
                    2 * s.sequence * s.arch.effectiveHeadDim() * dtypeBytes(s).stream, 2);
        break;
    case Modeling::GptNeox: break;
    }
}

// After the layers, Hugging Face, torchtitan and lit-gpt: the final norm and the head with its loss:
// LlamaForCausalLM and GPT2LMHeadModel (LM head; GPT-2's tied to wte), or
// BertForSequenceClassification (pooler on the first token, dropout, a 2-label classifier).
void codeHead(const Scenario &s, TensorList &out)
{
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    const std::int64_t tokens = s.sequence * s.microBatch;
    const std::int64_t h = s.arch.hidden;
    const bool trains = baseTrains(s);
    if (s.implementation == Implementation::LitGpt) {
        // GPT.forward(lm_head_chunk_size=128) and utils.py chunked_cross_entropy: ln_f, the LM
        // head per 128-token chunk (a 4-bit linear under QLoRA), which Fabric returns in FP32
        // (_FabricModule.forward: precision.convert_output casts to the default dtype), and a
        // cross-entropy per chunk over all but the last position, each keeping its FP32
        // log-softmax and its targets.
        litgptNorm(s, out); // ln_f
        // Every chunk but the last is 128 tokens of each sequence; the loss drops the last position.
        const std::int64_t fullChunks = litgptHeadChunks(s) - 1;
        const std::int64_t fullTokens = s.microBatch * kLitgptHeadChunk;
        const std::int64_t lastTokens = tokens - fullChunks * fullTokens;
        // Under autocast the head casts each chunk to 16 bits; a head that trains saves the casts.
        if (dt.autocast && trains) {
            out.add("16-bit casts of the full chunks, saved by the LM head", 2 * fullChunks * fullTokens * h,
                    fullChunks);
            out.add("16-bit cast of the last chunk, saved by the LM head", 2 * lastTokens * h);
        } else if (trains && s.microBatch > 1 && fullChunks > 0) {
            // With several sequences a chunk is no contiguous view: linear's matmul reshapes it
            // into a copy, which mm saves.
            out.add("LM-head input of the full chunks, copied by the matmul's reshape", e * fullChunks * fullTokens * h,
                    fullChunks);
            out.add("LM-head input of the last chunk, copied by the matmul's reshape", e * lastTokens * h);
        } else if (trains || s.fourBitKeepsInput()) {
            out.add("LM-head input", e * tokens * h);
        }
        if (loraOn(s, LoraHead))
            litgptHeadLora(s, out, fullChunks, fullTokens, lastTokens);
        const std::int64_t lastPredicted = lastTokens - s.microBatch;
        const std::int64_t v = s.arch.vocab;
        out.add("log-softmax (FP32) of the full 128-token chunks, saved by the loss",
                dt.logits * fullChunks * fullTokens * v, fullChunks);
        out.add("log-softmax (FP32) of the last chunk, saved by the loss", dt.logits * lastPredicted * v);
        // One sequence: each chunk's targets are views of the whole target row; else a copy per chunk.
        if (s.microBatch == 1) {
            out.add("targets (int64), saved by the loss", 8 * s.sequence);
        } else {
            out.add("targets (int64) of the full chunks, saved by the loss", 8 * fullChunks * fullTokens, fullChunks);
            out.add("targets (int64) of the last chunk, saved by the loss", 8 * lastPredicted);
        }
        return;
    }
    switch (s.arch.modeling) {
    case Modeling::Llama:
        rmsNorm(s, out, tokens / titanTp(s)); // torchtitan's norm is SequenceParallel; the head's
                                              // input all-gathered (ColwiseParallel, Shard(1) in)
        if (s.liger) {
            // LigerFusedLinearCrossEntropyFunction (liger_kernel/ops/fused_linear_cross_entropy.py):
            // the gradients are computed in forward, chunk by chunk, and saved for backward, which
            // only scales them: the head input's in its dtype, the head weight's in the weight's
            // dtype when it trains (accum_dtype unset, model/loss_utils.py LigerForCausalLMLoss).
            out.add("gradient of the LM-head input, computed in forward by Liger's loss", dt.stream * tokens * h);
            if (trains)
                out.add("gradient of the LM-head weight, computed in forward by Liger's loss",
                        std::int64_t(dt.weight) * s.arch.vocab * h);
            break;
        }
        if (trains)
            out.add(dt.autocast ? "16-bit cast of the input, saved by the LM head" : "LM-head input",
                    (dt.autocast ? 2 : e) * tokens * h);
        // LoRA on the head reads the final norm's output like a layer's projections read theirs.
        if (loraOn(s, LoraHead))
            projectionInputs(s, out, {LoraHead}, tokens, h, dt.stream, dt.autocast, false, false);
        // Gemma2ForCausalLM.forward: logits / final_logit_softcapping, tanh, × the cap; tanh saves
        // its output.
        if (s.arch.softCapping)
            out.add("tanh of the soft-capped logits, saved by tanh", e * tokens * s.arch.vocab);
        causalLmLoss(s, out);
        break;
    case Modeling::Gpt2:
        layerNorm(s, out);
        normOutputRead(s, out, tokens * h);
        causalLmLoss(s, out);
        break;
    case Modeling::Bert: {
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
        const Bytes labelLogits = (dt.autocast ? 4 : e) * s.microBatch * kLabels;
        softmaxInput(s, out, "classifier logits, kept by log-softmax before PyTorch 1.11", labelLogits);
        out.add("log-softmax over the labels, saved by the loss", labelLogits);
        out.add("labels (int64), saved by the loss", 8 * s.microBatch);
        break;
    }
    case Modeling::GptNeox: break; // lit-gpt's alone (checkCodeLevel), counted above
    }
}

} // namespace

bool headSavesNormOutput(const Scenario &s)
{
    // Under autocast both keep a 16-bit cast of it instead (projectionInputs' castPerReader).
    return !dtypeBytes(s).autocast && (baseTrains(s) || (loraOn(s, LoraHead) && !s.loraDropout));
}

TensorList layerTensors(const Scenario &s)
{
    TensorList list;
    if (s.implementation != Implementation::Megatron) {
        codeLayer(s, list);
        return list;
    }
    const ActivationParts p = megatronLayer(s, s.recompute);
    list.add("inputs & norms", p.inputs);
    list.add("Q/K/V/out", p.attention);
    list.add("attention scores (a·s²·b)", p.scores);
    list.add("MLP", p.mlp);
    list.add("norm statistics (FP32)", p.statistics);
    list.add("MoE permuted rows and indices", p.routing);
    list.add("query and key norms' inputs and statistics", p.qkNorms);
    return list;
}

TensorList layerTensorsWithoutRecompute(const Scenario &s)
{
    Scenario whole = s;
    whole.recompute = Recompute::None;
    return layerTensors(whole);
}

Bytes recomputationReusesInput(const Scenario &s)
{
    if (s.recompute != Recompute::Full || s.implementation == Implementation::Megatron)
        return 0;
    const DtypeBytes dt = dtypeBytes(s);
    const Bytes input = dt.stream * s.sequence * s.microBatch / titanTp(s) * s.arch.hidden;
    switch (s.arch.modeling) {
    case Modeling::Llama:
        // The first norm: RMSNorm's upcast (x.to(float32), x.float()) copies a 16-bit stream only;
        // Liger's kernel and lit-gpt's RMSNorm save x as it comes.
        return s.liger || s.implementation == Implementation::LitGpt || dt.stream == 4 ? input : 0;
    case Modeling::GptNeox: // lit-gpt's LayerNorm, over bf16-true's stream or bf16-mixed's FP32 one
        return input;
    case Modeling::Gpt2: // ln_1; autocast casts a 16-bit stream to FP32 for it (layer_norm's FP32 list)
        return dt.autocast && dt.stream == 2 ? 0 : input;
    case Modeling::Bert: // the query, key and value linears that train keep the input itself
        return baseTrains(s) && !dt.autocast ? input : 0;
    }
    return 0;
}

std::int64_t lastExpertRows(const Scenario &s)
{
    return s.expertsOneByOne() ? expertRouting(s).lastRows() : 0;
}

// Megatron's dispatcher hands this GPU's experts the rows of the whole expert-parallel group (the
// tokens all-gathered over TP × EP, MoEAllGatherTokenDispatcher), so under balanced routing each
// local expert takes EP times its share of this GPU's tokens × k; the grouped GEMM computes all of
// them at once (TEGroupedMLP.forward: one GroupedLinear over every local expert's rows),
// SequentialMLP one expert after another.
std::int64_t megatronExpertRows(const Scenario &s)
{
    if (!s.megatronExperts())
        return 0;
    const Architecture &a = s.arch;
    // This GPU's tokens × k: the grouped GEMM takes EP × (E/EP)/E of them, all; one expert EP/E,
    // divided first so that no product overflows.
    const std::int64_t routed = s.sequence * s.microBatch * std::min(a.expertsPerToken, a.experts);
    if (s.groupedGemm)
        return routed;
    return routed / a.experts * s.expertParallel + routed % a.experts * s.expertParallel / a.experts;
}

Bytes reentrantCheckpointOutput(const Scenario &s)
{
    return s.reentrantCheckpoint() ? dtypeBytes(s).stream * s.sequence * s.microBatch * s.arch.hidden : 0;
}

// MatMul4Bit.forward (bitsandbytes/autograd/_functions.py, before 0.43.2): ctx.tensors = (A, B)
// whenever the input wants a gradient. In Hugging Face's QLoRA every projection of a layer is 4-bit
// (transformers' replace_with_bnb_linear): q, k and v keep the first norm's output, o the
// attention's output, gate and up the second norm's output and down SwiGLU's product; in Mixtral's
// block the router keeps the norm's output, each expert's w1 and w3 its gathered rows and w2 its
// SiLU × w3 (expertTensors).
Bytes fourBitInputsKeptPerLayer(const Scenario &s)
{
    if (!bitsandbytesLayer(s) || !s.fourBitKeepsInput())
        return 0;
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t tokens = s.sequence * s.microBatch;
    const bool moe = a.experts > 1;
    const std::int64_t routed = tokens * (moe ? std::min(a.expertsPerToken, a.experts) : 1);
    const Bytes norms = 2 * dt.stream * tokens * a.hidden;
    const Bytes attentionOutput = dt.activation * tokens * a.heads * a.effectiveHeadDim();
    const Bytes expertRows = moe ? dt.stream * routed * a.hidden : 0;
    return norms + attentionOutput + expertRows + mlpBytes(s, dt) * routed * a.ffn;
}

Bytes keptOnlyInFourBitContext(const TensorList &layer)
{
    Bytes kept = 0;
    for (int i = 0; i < layer.count; ++i)
        if (const std::string_view name = layer.items[i].name; name == kProjectionInputInContext
            || name == kRouterInputInContext || name == kExpertRowsInContext || name == kExpertProductInContext)
            kept += layer.items[i].bytes;
    return kept;
}

Bytes repeatedKeysAndValues(const Scenario &s)
{
    if (!s.keysAndValuesRepeated())
        return 0;
    const Architecture &a = s.arch;
    return 2 * dtypeBytes(s).activation * s.sequence * s.microBatch * (a.heads - a.kvHeads) * a.effectiveHeadDim();
}

// Backward's working set: what one layer's backward holds at once beyond what every layer saved,
// at its widest moment, the MLP's (tests/oracle's backward_working_set measures it through
// PyTorch's allocations; tst_savedtensors pins it). Autograd frees a node's saved tensors once
// the node has run and a gradient once its last reader has (torch/csrc/autograd/engine.cpp,
// evaluate_function), so at that moment:
//  - the residual stream's gradient is alive through the layer: the residual sum hands the same
//    tensor to the layer's input (BERT's post-norm LayerNorm frees its saved input instead);
//  - the output projection's backward allocates the gradient of its input before it frees the
//    input it saved; under autocast the stream's FP32 gradient reaches the 16-bit MLP output as a
//    16-bit copy (the sum's type promotion), alive until that projection has run;
//  - then the activation's backward: SwiGLU's product allocates the gradients of both factors
//    while the product's gradient is alive; GELU the gradient of its input; Liger's SiLU × up
//    writes both over the tensors it saved (liger_kernel/ops/swiglu.py, swiglu_backward). A LoRA
//    adapter on the output projection hands back a gradient of its own, added to the base's, and
//    frees its rank-r output; GPT-2's NewGELU ends in the product 0.5·x · (1 + tanh(…)), whose
//    backward makes both factors' gradients (under autocast in FP32).
// The attention's moment comes after the MLP's saved tensors are freed: below the MLP's with the
// flash kernels, above it for Hugging Face's eager Llama, GPT-2 and BERT attention at long
// sequences (counted below). PEFT's FP32 adapter on down_proj under autocast has a moment of its
// own (its input's gradient going through FP32). Under recomputation the layer being computed has
// rebuilt its whole saved set first: the same moments.
TensorList backwardWorkingSet(const Scenario &s)
{
    return widestBackwardMoment(s, layerTensorsWithoutRecompute(s), 0).tensors;
}

BackwardMoment widestBackwardMoment(const Scenario &s, const TensorList &wholeLayer, Bytes gradientsAfterAttention)
{
    const Architecture &a = s.arch;
    const DtypeBytes dt = dtypeBytes(s);
    const std::int64_t e = dt.activation;
    const bool megatron = s.implementation == Implementation::Megatron;
    const std::int64_t t = megatron ? s.tensorParallel : titanTp(s);
    // Megatron's residual stream is this GPU's slice under sequence parallelism; torchtitan's too.
    const std::int64_t streamSplit = megatron ? (s.sequenceParallel ? t : 1) : t;
    const std::int64_t tokens = s.sequence * s.microBatch;
    // The rows the MLP computes at once: every token's, or what Megatron's experts take.
    const std::int64_t rows = s.megatronExperts() ? megatronExpertRows(s) : tokens;
    // The MLP's products, in what they are computed in (mlpBytes), and what a 16-bit kernel hands back.
    const std::int64_t wide = mlpBytes(s, dt) * rows * (a.ffn / t);
    const std::int64_t wide16 = e * rows * (a.ffn / t);
    TensorList out;
    const bool bertPostNorm = !megatron && a.modeling == Modeling::Bert;
    // GPT-2's dropout after the MLP's c_proj saved a 1-byte mask, which its backward, the layer's
    // first, frees (modeling_gpt2.py, GPT2MLP.forward).
    const bool maskFreedFirst = !megatron && a.modeling == Modeling::Gpt2 && s.dropout;
    const Bytes stream = dt.stream * tokens / streamSplit * a.hidden;
    if (a.experts > 1 && !megatron)
        return {mixtralBackwardWorkingSet(s, wholeLayer, stream)};
    if (maskFreedFirst)
        out.add("gradient of the layer's output (the residual stream), less the MLP dropout's 1-byte mask, freed "
                "first",
                stream - tokens / streamSplit * a.hidden);
    else if (!bertPostNorm)
        out.add(kStreamGradient, stream);
    // BERT's LayerNorm after the MLP frees the gradient of the layer's output once it has run (the
    // gradient of its input takes the residual's place), but the reentrant checkpoint's backward
    // holds it until the layer's backward ends (CheckpointFunction.backward's `args`).
    const Bytes heldOutputGradient = bertPostNorm && s.reentrantCheckpoint() ? stream : 0;
    out.add(kOutputGradientHeld, heldOutputGradient);

    const bool frozenAdapter = loraOn(s, LoraDown) && !baseTrains(s);
    // The second linear's saved input, freed once it has run, as large as the gradient its backward
    // allocates. bitsandbytes' 4-bit linear before 0.43.2 keeps it as an attribute of its ctx
    // (MatMul4Bit: ctx.tensors = (A, B)), which autograd frees with the graph only: after the
    // layer's backward (torch.utils.checkpoint's recomputed graph), or after the whole backward.
    const bool keepsInput = megatron || baseTrains(s) || loraOn(s, LoraDown);
    // The adapter's rank-r output, in the adapter's dtype, and, with LoRA dropout, its 1-byte mask
    // are freed by the MLP's moment (dropout's backward has run).
    const Bytes adapterFreed = frozenAdapter
        ? (s.adaptersUpcast() ? 4 : e) * rows * s.loraRank + (s.loraDropout ? rows * (a.ffn / t) : 0)
        : 0;
    // Each moment holds at most two tensors beside the stream's gradient.
    struct Moment {
        std::array<SavedTensor, 2> tensors{};
        Bytes total() const { return tensors[0].bytes + tensors[1].bytes; }
    };
    // Gemma-2's and Gemma-3's norm after the MLP runs backward first. At its widest it holds four
    // FP32 tensors the size of its input (the gradient cast to FP32, through 1 + weight, and the
    // input's two gradient terms), less the normalized input it saved when the weight trains and
    // its 1 + weight, both freed by then; before PyTorch 2.2 (mean keeping x²) one FP32 value a
    // row fewer, as the oracle measures. Its saved tensors are all freed before the MLP's moment.
    Bytes postMlpNormSaved = 0;
    Moment postMlpNorm;
    if (!megatron && a.normsPerLayer == 4 && a.modeling == Modeling::Llama) {
        TensorList norm;
        postNorm(s, norm, tokens, false);
        postMlpNormSaved = norm.total;
        const Bytes input = 4 * tokens * a.hidden;
        postMlpNorm.tensors[0] = {
            "the post-MLP norm's backward: four FP32 tensors the size of its input, less its "
            "saved normalized input and 1 + weight, freed by then (before PyTorch 2.2, one FP32 "
            "value a row fewer)",
            (baseTrains(s) ? 3 : 4) * input - 4 * a.hidden - (s.meanKeepsInput() ? 4 * tokens : 0), 1};
    }
    // bitsandbytes' 4-bit MLP under PEFT (bitsandbytesLayer): the products are computed in the
    // stream's dtype; down_proj's 4-bit backward hands its input's gradient back in 16 bits
    // (MatMul4Bit.backward: grad_output @ dequantize(B)), which autograd casts up to an FP32
    // input's dtype, after the 16-bit copy of the output's gradient that its cast back to the
    // input's dtype takes (`.to(inp_dtype)`); PEFT's adapter (peft/tuners/lora/bnb.py) reads the
    // product as it comes, so its gradient goes through FP32 only where the product is FP32. The
    // adapter's saved input (its dropped copy or cast) is freed once it has run; the base's, kept
    // before bitsandbytes 0.43.2, stays (keepsInput above). Three moments: the adapter's backward,
    // the base's, and SwiGLU's product.
    const bool fourBitMlp = bitsandbytesLayer(s) && gated(a.mlp) && !s.liger && postMlpNormSaved == 0;
    // The stream gradient's 16-bit copy where the MLP's output is cast back from 16 bits.
    const SavedTensor streamCopy{"16-bit copy of the stream's gradient for the MLP's output",
                                 dt.stream > 2 ? 2 * tokens / streamSplit * a.hidden : 0, 1};
    Moment core, adapter, base;
    if (fourBitMlp) {
        const bool fp32Mlp = wide > wide16; // an FP32 stream under autocast
        const bool lora = loraOn(s, LoraDown);
        // PEFT's FP32 adapters outside autocast (adaptersFp32): x cast up for the adapter, whose
        // output is cast back to 16 bits before the sum (peft/tuners/lora/bnb.py, Linear4bit.forward).
        const bool fp32Adapter = s.adaptersUpcast();
        const Bytes wide32 = 4 * rows * (a.ffn / t);
        // What the adapter saved of the product: its FP32 cast or dropped copy, its 16-bit dropped
        // copy or cast, or the 16-bit product itself, which the base may keep already.
        const Bytes loraSaved = !lora  ? 0
            : fp32Adapter              ? wide32
            : s.loraDropout || fp32Mlp ? wide16
            : s.fourBitKeepsInput()    ? 0
                                       : wide;
        const Bytes loraFreed = lora ? loraSaved + adapterFreed : 0;
        // lora_A's backward hands back the gradient of its input; an FP32 product's is cast up once
        // lora_A's 16-bit input is freed, and LoRA dropout's backward makes another beside it. An
        // FP32 adapter's gradient of its FP32 input; dropout's and the cast's come once lora_A's
        // saved input is freed.
        if (lora && fp32Adapter)
            adapter.tensors[0] = {"the FP32 LoRA adapter's gradient of down_proj's input", wide32, 1};
        else if (lora)
            adapter.tensors[0] = {"the LoRA adapter's gradients of down_proj's input",
                                  fp32Mlp && s.loraDropout ? 2 * wide - wide16 : wide, 1};
        base.tensors = {{{"down_proj's 4-bit backward: the 16-bit gradients of its output and input, the input's "
                          "FP32 one and the adapter's, less what the adapter saved, freed by then",
                          (fp32Mlp ? streamCopy.bytes + wide : 0) + wide16 + (lora ? wide : 0) - loraFreed, 1}}};
        core.tensors = {{{"gradients of SiLU's output, of up_proj's output and of their product, less what the "
                          "adapter saved, freed by then",
                          3 * wide - loraFreed, 1}}};
    } else if (a.modeling == Modeling::Gpt2 && !megatron) {
        // Under autocast the product is FP32 (1 + tanh is); 0.5·x's gradient, cast back to 16 bits,
        // takes the place of c_proj's 16-bit input, freed by then.
        core.tensors = dt.autocast
            ? std::array<SavedTensor, 2>{{{"FP32 gradient of NewGELU's output", 4 * rows * a.ffn, 1},
                                          {"FP32 gradients of its two factors, 0.5·x and 1 + tanh", 8 * rows * a.ffn,
                                           1}}}
            : std::array<SavedTensor, 2>{{{"gradients of NewGELU's two factors, 0.5·x and 1 + tanh", 2 * wide, 1}}};
    } else if (gated(a.mlp) && s.liger) {
        core.tensors[0] = {"gradient of down_proj's input", wide, 1};
        if (loraOn(s, LoraDown))
            core.tensors[1] = {"LoRA's gradient of down_proj's input, less its rank-r output", wide - adapterFreed, 1};
    } else if (gated(a.mlp) && postMlpNormSaved > 0) {
        core.tensors[0] = {a.mlp == MlpKind::GeGlu ? "gradients of GELU's output and of up_proj's output, less the "
                                                     "post-MLP norm's saved tensors, freed by then"
                                                   : "gradients of SiLU's output and of up_proj's output, less the "
                                                     "post-MLP norm's saved tensors, freed by then",
                           2 * wide - adapterFreed - postMlpNormSaved, 1};
        if (!keepsInput)
            core.tensors[1] = {"gradient of down_proj's input", wide, 1};
    } else if (gated(a.mlp)) {
        core.tensors[0] = {a.mlp == MlpKind::GeGlu ? "gradients of GELU's output and of up_proj's output"
                                                   : "gradients of SiLU's output and of up_proj's output",
                           2 * wide - adapterFreed, 1};
        if (!keepsInput)
            core.tensors[1] = {"gradient of down_proj's input", wide, 1};
    } else if (bertPostNorm) {
        // BertOutput's backward, the layer's first: its LayerNorm hands the gradient of its input
        // to the residual and to the dense, and frees its saved input (the stream's gradient takes
        // its place) and its FP32 statistics; with dropout, dropout's gradient replaces its 1-byte
        // mask, and under autocast the 16-bit dense's output gets a 16-bit copy of the gradient.
        // The dense then allocates the gradient of its input beside it.
        const Bytes statistics = 8 * tokens;
        if (s.dropout)
            core.tensors = {{{"gradient of the output dense's input", wide, 1},
                             {"dropout's gradient of its output, less the dropout's 1-byte mask and the LayerNorm's "
                              "FP32 statistics, freed by then",
                              e * tokens * a.hidden - tokens * a.hidden - statistics, 1}}};
        else if (dt.autocast)
            core.tensors = {{{"gradient of the output dense's input", wide, 1},
                             {"16-bit copy of the gradient of its output, less the LayerNorm's FP32 statistics, "
                              "freed by then",
                              e * tokens * a.hidden - statistics, 1}}};
        else
            core.tensors[0] = {"gradient of the output dense's input, less the LayerNorm's FP32 statistics, freed "
                               "by then",
                               wide - statistics, 1};
    } else {
        core.tensors[0] = {"gradient of GELU's input", wide, 1};
        if (!keepsInput)
            core.tensors[1] = {"gradient of the second linear's input", wide, 1};
    }
    // Under autocast, the moment the output projection runs: the stream gradient's 16-bit copy
    // (an FP32 stream's; a 16-bit stream hands its own) and the gradient of the projection's
    // input, if that is wider.
    Moment projection;
    if (dt.autocast && !fourBitMlp && !bertPostNorm)
        projection.tensors = {{streamCopy, {"gradient of the MLP's second linear's input", wide, 1}}};
    // PEFT's FP32 adapter on down_proj under autocast (peft/tuners/lora/layer.py, Linear.forward
    // casts x to lora_A's dtype; autocast casts it back to 16 bits for the product): backward
    // turns the 16-bit gradient of lora_A's input into an FP32 one (the first cast's backward)
    // while the 16-bit one is alive, with the stream gradient's 16-bit copy waiting for
    // down_proj's own backward; lora_A's 16-bit input and its rank-r output, saved, are freed by
    // then (one 16-bit input-wide tensor for the other).
    // With LoRA dropout (CUDA's fused backward, one output) the FP32 gradient of the dropped copy
    // joins it instead, and LoRA A's 16-bit input freed is the dropped copy's cast.
    Moment adapterCast;
    if (dt.autocast && s.implementation == Implementation::HuggingFace && loraOn(s, LoraDown) && !fourBitMlp)
        adapterCast.tensors = {
            {streamCopy,
             s.loraDropout ? SavedTensor{"FP32 gradients of down_proj's LoRA input before and after LoRA dropout, "
                                         "less LoRA A's 16-bit input and rank-r output",
                                         6 * rows * (a.ffn / t) - e * rows * s.loraRank, 1}
                           : SavedTensor{"FP32 gradient of down_proj's LoRA input (PEFT's cast to the adapter's "
                                         "dtype), less LoRA A's rank-r output",
                                         4 * rows * (a.ffn / t) - e * rows * s.loraRank, 1}}};
    // PEFT's FP32 adapter on down_proj over a 16-bit model without autocast (adaptersFp32): the
    // sum's FP32 gradient reaches the base as a 16-bit one, which waits for down_proj's own
    // backward, while lora_A's backward hands back the FP32 gradient of its FP32 input; lora_B's
    // FP32 gradient of lora_A's output has taken the place of that output, freed by then. With
    // LoRA dropout the dropped copy lora_A saved is freed before the dropout's own gradient comes:
    // no wider.
    if (s.adaptersUpcast() && loraOn(s, LoraDown) && !fourBitMlp)
        adapterCast.tensors = {{{"16-bit gradient of down_proj's output, waiting for its base's backward",
                                 e * tokens / streamSplit * a.hidden, 1},
                                {"FP32 gradient of down_proj's LoRA input (PEFT's cast up to the adapter's dtype)",
                                 4 * rows * (a.ffn / t), 1}}};
    // Behind a post-MLP norm these moments come after its backward, its saved tensors freed; the
    // gradient reaching the MLP's output is the norm's, cast back to 16 bits, not a copy of the
    // stream's.
    if (postMlpNormSaved > 0) {
        if (projection.total() > 0)
            projection.tensors = {{{"16-bit gradient of the MLP's output from the post-MLP norm and the gradient of "
                                    "the MLP's second linear's input, less the norm's saved tensors, freed by then",
                                    projection.total() - postMlpNormSaved, 1}}};
        if (adapterCast.total() > 0)
            adapterCast.tensors = {{{"16-bit gradient of the MLP's output from the post-MLP norm and the FP32 "
                                     "gradients of down_proj's LoRA input, less the norm's saved tensors and LoRA "
                                     "A's, freed by then",
                                     adapterCast.total() - postMlpNormSaved, 1}}};
    }
    // BERT's LayerNorm after the MLP runs backward first: the gradient of its input beside the
    // layer's output's, before either its saved tensors or that gradient are freed.
    Moment bertNorm;
    if (bertPostNorm)
        bertNorm.tensors[0] = {heldOutputGradient > 0
                                   ? "the output LayerNorm's backward: the gradient of the norm's input"
                                   : "the output LayerNorm's backward: the gradients of the layer's "
                                     "output and of the norm's input",
                               2 * stream - heldOutputGradient, 1};
    Moment recomputed;
    recomputed.tensors[0] = loraMlpRecomputedForward(s, wholeLayer);
    const Moment &widest = std::max({core, projection, adapterCast, postMlpNorm, bertNorm, adapter, base, recomputed},
                                    [](const Moment &l, const Moment &r) { return l.total() < r.total(); });
    for (const SavedTensor &tensor : widest.tensors)
        out.add(tensor.name, tensor.bytes);
    // Hugging Face's eager attention (Llama's eager_attention_forward, GPT-2's _attn, BERT's
    // BertSelfAttention), and SDPA's math composite, which Llama's FP32 runs: backward reaches the softmax with
    // everything saved after the probabilities freed (the MLP's, the output projection's, a 16-bit copy of the
    // probabilities) and the value's copy, if it has one. There the residual stream's gradient is alive (BERT's first
    // LayerNorm's, handed to the residual and to the attention alike), the gradient of the attention's output, and the
    // gradients of the probabilities and of the scores with, between them, CUDA's softmax backward's tmp = grad ×
    // output (aten/src/ATen/native/cuda/SoftMax.cu, softmax_backward_cuda_out; seen on an H200,
    // tests/gpu/attention_backward.py), in the softmax's dtype: FP32 for Llama (softmax(dtype=float32)) and for GPT-2
    // and BERT under autocast (softmax is on its FP32 list); at long sequences the wider moment. The gradients of the
    // first norm and of q, k and v come after it (autograd runs the layer's nodes in reverse; seen on an H200:
    // h200-llama1b-fp32-sdpa-b1-s4096's peak holds the layer's o and MLP weight gradients, not those): it is weighed
    // without them.
    const bool eagerAttention = s.implementation == Implementation::HuggingFace
        && (s.attention == Attention::Eager || sdpaRunsMath(s)) && a.experts == 1
        && (a.modeling == Modeling::Llama || a.modeling == Modeling::Gpt2 || a.modeling == Modeling::Bert);
    if (!eagerAttention)
        return {out};
    const SavedTensor streamGradient = bertPostNorm
        ? SavedTensor{"gradient of the first LayerNorm's input (the residual stream)", stream, 1}
        : out.items[0];
    // What the layer saved, as it has rebuilt it under recomputation; the inputs bitsandbytes'
    // 4-bit linears keep stay (keepsInput above).
    Bytes freed = 0;
    bool afterProbabilities = false;
    for (int i = 0; i < wholeLayer.count; ++i) {
        const std::string_view name = wholeLayer.items[i].name;
        const bool kept = s.fourBitKeepsInput() && (name == kProjectionInput || name == kProjectionInputInContext);
        if (!kept && (afterProbabilities || name == kRepeatedValue || name == kCopiedValue))
            freed += wholeLayer.items[i].bytes;
        afterProbabilities = afterProbabilities || name == kProbabilitiesFp32 || name == kProbabilities;
    }
    const std::int64_t softmaxBytes = a.modeling == Modeling::Llama || dt.autocast ? 4 : e;
    const std::int64_t scores = a.heads * s.sequence * tokens;
    const Bytes attentionOutput = e * tokens * a.heads * a.effectiveHeadDim();
    // bitsandbytes' value projection hands on an FP32 stream's dtype (bitsandbytesLayer), which
    // autocast casts to 16 bits for the product: the value's gradient comes back in FP32, in the
    // place of the 16-bit copy freed.
    const Bytes fp32Value = bitsandbytesLayer(s) && dt.autocast && dt.stream == 4
        ? (4 - e) * tokens * a.heads * a.effectiveHeadDim()
        : 0;
    const Bytes softmax = heldOutputGradient + streamGradient.bytes + attentionOutput + fp32Value
        + 3 * softmaxBytes * scores - freed;
    if (softmax - gradientsAfterAttention <= out.total)
        return {out};
    TensorList attention;
    attention.add(kOutputGradientHeld, heldOutputGradient);
    attention.add(streamGradient.name, streamGradient.bytes);
    attention.add("gradient of the attention's output", attentionOutput);
    attention.add("FP32 gradient of the value, beyond its 16-bit copy", fp32Value);
    attention.add(softmaxBytes == 4
                      ? "FP32 gradients of the attention probabilities and scores and the softmax backward's "
                        "grad × output, less what was saved after the probabilities and the value's copy, freed by then"
                      : "gradients of the attention probabilities and scores and the softmax backward's grad × output, "
                        "less what was saved after the probabilities and the value's copy, freed by then",
                  3 * softmaxBytes * scores - freed);
    return {attention, gradientsAfterAttention};
}

TensorList outsideTensors(const Scenario &s)
{
    TensorList list;
    if (s.implementation != Implementation::Megatron) {
        codeEmbedding(s, list);
        codeHead(s, list);
    }
    return list;
}

TensorList embeddingTensors(const Scenario &s)
{
    TensorList list;
    if (s.implementation != Implementation::Megatron)
        codeEmbedding(s, list);
    return list;
}

std::vector<SavedTensor> savedTensors(const Scenario &s, TensorScope scope)
{
    const TensorList list = scope == TensorScope::Layer ? layerTensors(s) : outsideTensors(s);
    return {list.items.begin(), list.items.begin() + list.count};
}

} // namespace vl
