#include "core/estimate.h"

#include <array>
#include <string>

namespace vl {

namespace {

// A rough upper bound in floating point, so no 64-bit product can overflow afterwards.
std::optional<Error> checkMagnitude(const Scenario &s)
{
    const auto real = [](std::int64_t v) { return static_cast<double>(v); };
    const Architecture &a = s.arch;
    constexpr double kLimit = 4.0e18; // below 2^63 with room for the sums
    const double h = real(a.hidden);
    const double vocab = real(a.vocab) + real(s.vocabDivisibleBy) * real(s.tensorParallel); // padded, at most
    const double q = real(a.heads) * real(a.effectiveHeadDim()), kv = real(a.kvHeads) * real(a.effectiveHeadDim());
    const double params = real(a.layers) * (2.0 * h * q + 2.0 * h * kv + 3.0 * h * real(a.ffn) * real(a.experts))
        + 2.0 * vocab * h + real(a.fixedParams);
    if (params * 20.0 > kLimit)
        return Error{"hidden",
                     "the model is too large to count in bytes (over 2·10^17 parameters); "
                     "reduce hidden, ffn, layers or experts"};
    const double sb = real(s.sequence) * real(s.microBatch);
    // Bounds on bytes per token: every tensor any implementation saves fits under these.
    // Hugging Face's Mixtral keeps each token's k routed rows h wide and its router's probabilities.
    const double perLayer = sb
        * (40.0 * h + 12.0 * real(a.heads) * real(s.sequence) + 20.0 * real(a.ffn) * real(a.expertsPerToken) + 12.0 * q
           + 20.0 * h * real(a.expertsPerToken) + 8.0 * real(a.experts));
    const double activations = perLayer * real(a.layers) * real(s.pipelineParallel) * 2.0 + sb * vocab * 16.0;
    if (activations > kLimit)
        return Error{"seq",
                     "batch × sequence is too large: the activations would exceed 4 EB; "
                     "reduce --seq or --batch"};
    return std::nullopt;
}

// Gemma's traits in the Llama-family block, modelled as Hugging Face's Gemma, Gemma-2 and Gemma-3 code
// computes them (savedtensors.cpp): the norms' 1 + weight in FP32, the norms after attention and
// the MLP, soft-capping. A sliding window changes nothing saved but on Hugging Face's SDPA path;
// the other implementations' code attends to the whole sequence whatever the config states.
std::optional<Error> checkGemmaTraits(const Scenario &s)
{
    const Architecture &a = s.arch;
    const bool gemmaBlock = a.zeroCenteredNorm || a.softCapping || a.normsPerLayer == 4;
    const bool huggingFace = s.implementation == Implementation::HuggingFace;
    if (a.modeling == Modeling::Llama && a.normsPerLayer != 2 && a.normsPerLayer != 4)
        return Error{"norms-per-layer",
                     std::string(toString(s.implementation))
                         + " is modelled for the Llama block's two norms a layer, or four (Gemma-2's and Gemma-3's, "
                           "after attention and the MLP too); "
                         + std::to_string(a.normsPerLayer) + " is counted with --implementation megatron"};
    if (gemmaBlock && (!huggingFace || a.modeling != Modeling::Llama || a.experts > 1 || s.liger))
        return Error{a.softCapping            ? "soft-capping"
                         : a.zeroCenteredNorm ? "zero-centered-norm"
                                              : "norms-per-layer",
                     "Gemma's block is modelled as Hugging Face's Gemma code computes it (dense, without Liger's "
                     "patch); use --implementation huggingface with --modeling llama, or megatron"};
    // The memory-efficient kernel a mask selects keeps K and V repeated to every head and the mask.
    if (s.huggingFaceSdpaUnmodelled())
        return Error{
            "attention",
            a.softCapping ? std::string("Hugging Face's SDPA path cannot soft-cap the scores; Gemma-2 trains "
                                        "with --attention eager (as transformers advises) or flash")
                          : "a sliding window of " + std::to_string(a.slidingWindow)
                    + " tokens, no longer than the sequence, reaches SDPA as a mask, which is not modelled; use "
                      "--attention eager or flash, or a sequence shorter than the window"};
    return std::nullopt;
}

// What the code-level implementations (Hugging Face transformers, torchtitan, lit-gpt, torchtune) are
// modelled for.
std::optional<Error> checkCodeLevel(const Scenario &s)
{
    const Architecture &a = s.arch;
    const std::string code(toString(s.implementation));
    const bool titan = s.implementation == Implementation::TorchTitan;
    const bool llamaShape = a.norm == NormKind::RmsNorm && gated(a.mlp) && a.learnedPositions == 0;
    const bool gptShape = a.norm == NormKind::LayerNorm && a.mlp == MlpKind::Gelu && a.kvHeads == a.heads;
    const bool neoxShape = a.norm == NormKind::LayerNorm && a.mlp == MlpKind::Gelu && a.learnedPositions == 0
        && a.normsPerLayer <= 2;
    const bool fits = a.modeling == Modeling::Llama ? llamaShape
        : a.modeling == Modeling::GptNeox           ? neoxShape
                                                    : gptShape;
    // A mixture of experts: Hugging Face's Mixtral (MixtralSparseMoeBlock), trained whole or
    // frozen with LoRA (on attention, every expert's projections and the head), its base 16-bit or
    // bitsandbytes' 4-bit (QLoRA).
    const bool lora = s.lora();
    if (a.experts > 1 && (s.implementation != Implementation::HuggingFace || a.modeling != Modeling::Llama))
        return Error{"implementation",
                     code
                         + " is modelled for dense layers; use --implementation megatron or huggingface (Mixtral) "
                           "for a mixture of experts"};
    if (s.expertParallel > 1)
        return Error{"ep",
                     "expert parallelism is modelled for Megatron; " + code
                         + "'s code runs every expert on each GPU; use --ep 1"};
    if (auto e = checkGemmaTraits(s))
        return e;
    if (!fits)
        return Error{"modeling",
                     std::string(toString(a.modeling))
                         + " does not fit this architecture: llama needs "
                           "RMSNorm, a gated MLP and rotary positions; gpt2 and bert LayerNorm, GELU and "
                           "multi-head attention; gpt-neox LayerNorm (one or two per layer), GELU and "
                           "rotary positions"};
    const bool litgpt = s.implementation == Implementation::LitGpt;
    // lit_gpt/model.py Block.forward raises NotImplementedError for this combination.
    if (a.modeling == Modeling::GptNeox && !a.parallelResidual && a.normsPerLayer == 1)
        return Error{"parallel-residual",
                     "one norm shared by attention and MLP needs the parallel residual; use --parallel-residual "
                     "yes or --norms-per-layer 2"};
    if (a.modeling == Modeling::GptNeox && !litgpt)
        return Error{"modeling",
                     "gpt-neox blocks are modelled as lit-gpt computes them; use --implementation litgpt "
                     "or megatron"};
    // Qwen3's q_norm and k_norm are modelled in the Llama-family blocks (savedtensors.cpp qkNorms);
    // lit-gpt's of 2023 have none.
    if (a.qkNorm && (litgpt || a.modeling != Modeling::Llama))
        return Error{"qk-norm",
                     litgpt ? "lit-gpt's blocks (the code modelled, of 2023) have no query/key norms; use "
                              "--implementation huggingface, torchtitan, torchtune or megatron"
                            : "query/key norms are modelled in the Llama-family block; use --modeling llama or "
                              "--implementation megatron"};
    const bool torchtune = s.implementation == Implementation::TorchTune;
    if ((titan || torchtune) && a.modeling != Modeling::Llama)
        return Error{"implementation",
                     code + " is modelled for its Llama; use huggingface or megatron for "
                         + std::string(toString(a.modeling))};
    // torchtune's recipes train in the model's dtype (training.get_dtype: bf16 or fp32; its
    // single-device recipe refuses fp16), with no autocast.
    if (torchtune && s.precision != Precision::Bf16 && s.precision != Precision::Fp32)
        return Error{"precision",
                     "torchtune trains in the model's dtype, without autocast; use --precision bf16 or fp32"};
    // torchtitan's apply_tp (parallelisms/parallelize_llama.py at 9dec370) always pairs its
    // column- and row-wise linears with sequence-parallel norms.
    if (titan && s.tensorParallel > 1 && !s.sequenceParallel)
        return Error{"sp", "torchtitan's tensor parallelism runs its norms sequence-parallel; use --sp yes"};
    if (s.pipelineParallel > 1 || (!titan && (s.tensorParallel > 1 || s.sequenceParallel)))
        return Error{"implementation",
                     code
                         + (titan ? " is modelled without pipeline parallelism; use --implementation megatron "
                                    "with --pp"
                                  : " is modelled without tensor, sequence or pipeline parallelism; use "
                                    "--implementation megatron with --tp, --sp or --pp, or torchtitan with --tp")};
    if (s.contextParallel > 1 && !titan)
        return Error{"cp",
                     code
                         + " is modelled without context parallelism; use --implementation megatron or "
                           "torchtitan with --cp"};
    if (s.activationOffload && s.implementation == Implementation::LitGpt)
        return Error{"activation-offload",
                     "lit-gpt's scripts do not offload activations; use --implementation huggingface or torchtitan"};
    if (s.recompute == Recompute::Selective && !titan)
        return Error{"recompute",
                     "selective recomputation is Megatron's and torchtitan's; with --implementation " + code
                         + " choose none or full (checkpointing every layer)"};
    if (s.dropout && (a.modeling == Modeling::Llama || a.modeling == Modeling::GptNeox))
        return Error{"dropout",
                     std::string(toString(a.modeling)) + " trains without dropout in " + code
                         + "'s code; use --dropout no "
                           "(LoRA's dropout is --lora-dropout)"};
    if (lora && (titan || a.modeling == Modeling::Gpt2 || a.modeling == Modeling::Bert))
        return Error{"finetune",
                     "LoRA is modelled for the Llama family in Hugging Face's, torchtune's and lit-gpt's code and for "
                     "lit-gpt's gpt-neox blocks; use --finetune full or freeze, or --implementation megatron"};
    if (litgpt) {
        if (a.modeling != Modeling::Llama && a.modeling != Modeling::GptNeox)
            return Error{"implementation",
                         "litgpt is modelled for its Llama and GPT-NeoX blocks; use megatron "
                         "for "
                             + std::string(toString(a.modeling))};
        // Fabric's precision plugins: bf16-true (HalfPrecision) or bf16-mixed / 16-mixed
        // (MixedPrecision, torch.autocast over FP32 weights); finetune/lora.py refuses
        // quantization with mixed precision.
        const bool mixed = s.precision == Precision::MixedBf16 || s.precision == Precision::MixedFp16;
        if (s.precision != Precision::Bf16 && !mixed)
            return Error{"precision",
                         "litgpt is modelled as finetune/lora.py trains in bf16-true or bf16-mixed; use --precision "
                         "bf16, mixed-bf16 or mixed-fp16"};
        if (mixed && s.ampStyle != AmpStyle::Autocast)
            return Error{"amp-style", "Lightning's mixed precision is torch.autocast; use --amp-style autocast"};
        if (mixed && s.fineTune == FineTune::QLoRA)
            return Error{"finetune",
                         "lit-gpt refuses quantization with mixed precision; use --precision bf16 for QLoRA"};
        if (s.baseDtype != BaseDtype::Auto)
            return Error{"base-dtype", "lit-gpt keeps the whole model in its precision's dtype; use --base-dtype auto"};
        if (s.attention != Attention::Flash)
            return Error{"attention", "litgpt runs flash attention; use --attention flash"};
        if (s.recompute != Recompute::None)
            return Error{"recompute",
                         "lit-gpt's fine-tuning scripts do not checkpoint on one GPU; use --recompute none"};
        if (lora && (s.loraTargets & ~static_cast<unsigned>(LoraLitgpt)))
            return Error{"lora-targets",
                         "litgpt is modelled with LoRA on the fused query, key and value projection and the "
                         "head; choose among q, k, v and head"};
    }
    if (titan && s.attention != Attention::Sdpa)
        return Error{"attention", "torchtitan's Llama runs attention through SDPA; use --attention sdpa"};
    if (torchtune && s.attention != Attention::Sdpa)
        return Error{"attention",
                     "torchtune runs attention through SDPA (flex_attention with packed samples, which keeps the "
                     "same); use --attention sdpa"};
    if ((a.modeling == Modeling::Gpt2 || a.modeling == Modeling::Bert) && s.attention != Attention::Eager)
        return Error{"attention", "GPT-2 and BERT are modelled with eager attention; use --attention eager"};
    return std::nullopt;
}

// What --precision fp8 is modelled for: Megatron-LM's layers computed by Transformer Engine.
std::optional<Error> checkFp8(const Scenario &s)
{
    if (s.precision != Precision::Fp8)
        return std::nullopt;
    if (s.implementation != Implementation::Megatron)
        return Error{"precision",
                     "fp8 is modelled as Megatron-LM runs Transformer Engine's layers; use --implementation megatron"};
    if (s.fineTune != FineTune::Full)
        return Error{"precision", "fp8 is modelled for full training; use --finetune full, or --precision mixed-bf16"};
    if (s.arch.experts > 1)
        return Error{"precision",
                     "fp8 is modelled for dense layers; use --precision mixed-bf16 for a mixture of experts"};
    if (s.zeroStage >= 3)
        return Error{"precision",
                     "fp8 is modelled without sharded parameters: Transformer Engine keeps an FP8 copy of every "
                     "weight it computes with; use --zero 0, 1 or 2"};
    return std::nullopt;
}

// Every integer field's allowed range, some depending on others (pipeline stages on layers):
// `hiIs` names the field such a bound comes from, so that the message says what to change.
struct Range {
    const char *field;
    std::int64_t value, lo, hi;
    const char *hiIs = nullptr;
};

Error outOfRange(const Range &r)
{
    return Error{r.field,
                 std::to_string(r.value) + " is out of range; allowed " + std::to_string(r.lo) + " to "
                     + std::to_string(r.hi) + (r.hiIs ? std::string(", ") + r.hiIs : std::string())};
}

auto fieldRanges(const Scenario &s)
{
    const Architecture &a = s.arch;
    return std::to_array<Range>({
        {"hidden", a.hidden, 1, 1 << 20},
        {"layers", a.layers, 1, 10'000},
        {"heads", a.heads, 1, 65'536},
        {"kv-heads", a.kvHeads, 1, 65'536},
        {"head-dim", a.headDim, 0, 65'536},
        {"ffn", a.ffn, 1, 1 << 24},
        {"vocab", a.vocab, 1, 1 << 24},
        {"vocab-divisible-by", s.vocabDivisibleBy, 1, 65'536},
        {"positions", a.learnedPositions, 0, 1 << 24},
        {"max-positions", a.rotaryPositions, 0, 1 << 26},
        {"norms-per-layer", a.normsPerLayer, 0, 8},
        {"sliding-window", a.slidingWindow, 0, 1 << 24},
        {"experts", a.experts, 1, 4096},
        {"experts-per-token", a.expertsPerToken, 1, a.experts, "the experts (--experts)"},
        {"params", a.fixedParams, 0, 1'000'000'000'000'000},
        {"batch", s.microBatch, 1, 1 << 20},
        {"seq", s.sequence, 1, 1 << 24},
        {"grad-accum", s.gradAccum, 0, 1 << 20},
        {"zero", s.zeroStage, 0, 3},
        {"dp", s.dataParallel, 1, 1 << 20},
        {"reduce-bucket", s.reduceBucket, 0, 1'000'000'000'000},
        {"prefetch-bucket", s.prefetchBucket, 0, 1'000'000'000'000},
        {"max-reuse-distance", s.maxReuseDistance, 0, 1'000'000'000'000'000},
        {"max-live-parameters", s.maxLiveParameters, 0, 1'000'000'000'000'000},
        {"replicate", s.replicas, 1, s.dataParallel, "the data-parallel GPUs that replica groups divide (--dp)"},
        {"tp", s.tensorParallel, 1, 4096},
        {"pp", s.pipelineParallel, 1, a.layers, "the model's layers (--layers)"},
        {"vpp", s.virtualStages, 1, 1024},
        {"cp", s.contextParallel, 1, 4096},
        {"ep", s.expertParallel, 1, 4096},
        {"gpus-per-node", s.gpusPerNode, 1, 1024},
        {"lora-rank", s.loraRank, 1, 65'536},
        // Only freeze reads it; otherwise a stale value must not make a valid scenario invalid.
        {"trainable-layers", s.trainableLayers, 1, s.fineTune == FineTune::Freeze ? a.layers : 10'000,
         s.fineTune == FineTune::Freeze ? "the model's layers (--layers)" : nullptr},
        {"cuda-context", s.overhead.cudaContext / kMiB, 0, 65'536},
        {"allocator-percent", s.overhead.allocatorPercent, 0, 200},
        {"comm-buffers-mib", s.overhead.commBuffers / kMiB, 0, 65'536},
        // PyTorch builds for 5.0 and later; 12 is the newest NVIDIA ships (RTX 50).
        {"compute-capability", s.overhead.computeCapability, 5, 12},
    });
}

} // namespace

std::optional<std::pair<std::int64_t, std::int64_t>> allowedRange(const Scenario &s, std::string_view field)
{
    for (const Range &r : fieldRanges(s))
        if (field == r.field)
            return std::pair{r.lo, r.hi};
    return std::nullopt;
}

std::optional<Error> scenarioError(const Scenario &s)
{
    const Architecture &a = s.arch;
    const auto ranges = fieldRanges(s);
    for (const Range &r : ranges)
        if (r.value < r.lo || r.value > r.hi)
            return outOfRange(r);

    if (a.fixedParams != 0 && a.fixedParams < 1000)
        return Error{"params",
                     std::to_string(a.fixedParams)
                         + " is too small; give at least 1000 parameters, or 0 "
                           "to count them from the architecture"};
    if (a.headDim == 0 && a.hidden % a.heads != 0)
        return Error{"heads",
                     std::to_string(a.heads) + " does not divide hidden size " + std::to_string(a.hidden)
                         + "; choose a divisor of hidden, or set --head-dim"};
    if (a.kvHeads > a.heads || a.heads % a.kvHeads != 0)
        return Error{"kv-heads",
                     std::to_string(a.kvHeads) + " must divide the " + std::to_string(a.heads)
                         + " attention heads (GQA groups); allowed: a divisor of heads"};
    if (a.heads % s.tensorParallel != 0)
        return Error{"tp",
                     std::to_string(s.tensorParallel) + " does not divide the " + std::to_string(a.heads)
                         + " attention heads; tensor parallelism splits whole heads"};
    // Megatron-Core splits whole query groups over the TP ranks and refuses anything else
    // (megatron/core/transformer/attention.py: divide(num_query_groups, world_size) asserts it).
    if (a.kvHeads % s.tensorParallel != 0)
        return Error{"tp",
                     std::to_string(s.tensorParallel) + " does not divide the " + std::to_string(a.kvHeads)
                         + " key/value heads; Megatron splits whole query groups, so choose a TP size that "
                           "divides them"};
    if (s.replicas > 1 && !s.fsdp())
        return Error{"replicate",
                     "replica groups are FSDP's hybrid sharding (HSDP); use --zero 3 --sharding fsdp, or "
                     "--replicate 1"};
    if (s.dataParallel % s.replicas != 0)
        return Error{"replicate",
                     std::to_string(s.replicas) + " does not divide the " + std::to_string(s.dataParallel)
                         + " data-parallel GPUs; each replica group needs the same number of GPUs"};
    if (s.expertParallel > 1) {
        if (a.experts % s.expertParallel != 0)
            return Error{"ep",
                         std::to_string(s.expertParallel) + " does not divide the " + std::to_string(a.experts)
                             + " experts; each expert-parallel GPU holds an equal share of them"};
        if ((s.dataParallel * s.contextParallel) % s.expertParallel != 0)
            return Error{"ep",
                         std::to_string(s.expertParallel)
                             + " does not divide the data-parallel × context-parallel "
                               "GPUs ("
                             + std::to_string(s.dataParallel * s.contextParallel)
                             + "); the expert-parallel GPUs are taken from them"};
        if (s.lora())
            return Error{"ep", "expert parallelism is modelled for full training and freeze; use --ep 1 with LoRA"};
    }
    // Sequence parallelism splits the sequence evenly (Megatron's scatter_to_sequence_parallel_region,
    // torchtitan's Shard(1) as the estimate counts it).
    if (s.sequenceParallel && s.sequence % s.tensorParallel != 0)
        return Error{"sp",
                     "sequence parallelism splits the sequence of " + std::to_string(s.sequence) + " over "
                         + std::to_string(s.tensorParallel)
                         + " tensor-parallel GPUs, which do not divide it; choose a sequence they divide, or --sp no"};
    if (s.sequence % s.contextParallel != 0)
        return Error{"cp",
                     std::to_string(s.contextParallel) + " does not divide the sequence of "
                         + std::to_string(s.sequence) + "; each context-parallel GPU takes an equal slice"};
    if (s.contextParallel > 1 && s.attention == Attention::Eager)
        return Error{"cp",
                     "context parallelism runs attention as a ring of flash kernels; use --attention flash or "
                     "sdpa, or --cp 1"};
    if (s.virtualStages > 1 && s.pipelineParallel == 1)
        return Error{"vpp", "interleaved stages need pipeline parallelism; set --pp 2 or more, or --vpp 1"};
    // Megatron-Core runs an interleaved step in groups of microbatch_group_size_per_vp_stage (p by
    // default) micro-batches and refuses fewer than p in all or a shorter last group
    // (pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving).
    if (s.virtualStages > 1 && s.microBatchesPerStep() % s.pipelineParallel != 0)
        return Error{"grad-accum",
                     "an interleaved pipeline takes its micro-batches in groups of --pp ("
                         + std::to_string(s.pipelineParallel) + "); use a multiple of "
                         + std::to_string(s.pipelineParallel) + ", or --vpp 1"};
    if (s.megatron() && s.zeroStage > 1)
        return Error{"sharding",
                     "Megatron-Core's distributed optimizer shards the optimizer states only; use --zero 0 "
                     "(its DDP) or 1 (distributed optimizer), or --sharding zero|fsdp"};
    if (s.offload != Offload::None && s.megatron())
        return Error{"offload", "CPU offload is DeepSpeed's ZeRO-Offload; use --sharding zero to offload"};
    if (s.offload != Offload::None && s.zeroStage == 0)
        return Error{"offload", "CPU offload is part of ZeRO; choose --zero 1, 2 or 3 to offload"};
    if (s.offload == Offload::OptimizerAndParams && s.zeroStage != 3)
        return Error{"offload", "offloading parameters needs ZeRO stage 3; use --zero 3 or --offload optimizer"};
    if (s.baseDtype != BaseDtype::Auto
        && (s.fineTune == FineTune::Full || s.ampStyle != AmpStyle::Autocast
            || (s.precision != Precision::MixedBf16 && s.precision != Precision::MixedFp16)))
        return Error{"base-dtype",
                     "a frozen base in its own dtype is modelled under autocast; use --finetune freeze, lora "
                     "or qlora with --precision mixed-bf16 --amp-style autocast, or --base-dtype auto"};
    if (s.loraTargets == 0 || (s.loraTargets & ~static_cast<unsigned>(LoraAnyTarget)) != 0)
        return Error{"lora-targets", "choose at least one of q,k,v,o,gate,up,down,head"};
    if (auto error = checkFp8(s))
        return error;
    // torchtune's OffloadActivations: saved_tensors_hooks around the model's forward, one
    // micro-batch at a time; Megatron-Core's own CPU offloading is another mechanism.
    if (s.activationOffload && s.implementation == Implementation::Megatron)
        return Error{"activation-offload",
                     "activation offload is modelled as torchtune's OffloadActivations; use --implementation "
                     "torchtune, huggingface or torchtitan"};
    if (s.activationOffload && s.pipelineParallel > 1)
        return Error{"activation-offload", "activation offload is modelled for one micro-batch in flight; use --pp 1"};
    // torchtune's optimizer_in_bwd (training/memory.py, register_optim_in_bwd_hooks): its
    // single-device recipe refuses gradient accumulation with it; modelled on one GPU's whole
    // parameters, as its code computes them.
    if (s.optimizerInBackward
        && (s.implementation == Implementation::Megatron || s.implementation == Implementation::LitGpt))
        return Error{"optimizer-in-backward",
                     "the optimizer in backward is torchtune's; use --implementation torchtune, huggingface or "
                     "torchtitan, or --optimizer-in-backward no"};
    if (s.optimizerInBackward && s.microBatchesPerStep() > 1)
        return Error{"optimizer-in-backward",
                     "torchtune refuses gradient accumulation with the optimizer in backward; use one "
                     "micro-batch a step (--grad-accum 1), or --optimizer-in-backward no"};
    if (s.optimizerInBackward && (s.zeroStage > 0 || s.tensorParallel > 1 || s.pipelineParallel > 1))
        return Error{"optimizer-in-backward",
                     "the optimizer in backward is modelled on one GPU's whole parameters; use --zero 0, --tp 1 "
                     "and --pp 1, or --optimizer-in-backward no"};
    // Liger Kernel (liger_kernel/transformers/monkey_patch.py, apply_liger_kernel_to_llama) patches
    // Hugging Face's Llama-family modules; its fused linear cross-entropy is the whole loss and
    // reads the head's weight itself (model/llama.py lce_forward: self.lm_head.weight), so an
    // adapter wrapped around the head takes no part.
    if (s.liger && !s.ligerPatchable())
        return Error{"liger",
                     s.arch.experts > 1 ? "Liger's patch of Mixtral's experts is not modelled; use a dense model or "
                                          "--liger no"
                                        : "Liger Kernel is modelled as its patch of Hugging Face's Llama-family code; "
                                          "use --implementation huggingface with a Llama, Mistral or Qwen2 model, or "
                                          "--liger no"};
    if (s.liger && s.loss == Loss::Chunked)
        return Error{"loss",
                     "Liger's fused linear cross-entropy is the loss, in chunks of its own; use --loss standard"};
    if (s.liger && s.lora() && (s.loraTargets & LoraHead))
        return Error{"lora-targets",
                     "Liger's fused loss reads the head's weight itself, so an adapter on the head takes no part; "
                     "drop head from --lora-targets"};
    // bitsandbytes pages the states of AdamW, AdamW8bit and Lion (PagedAdamW, PagedAdamW8bit,
    // PagedLion), tensor by tensor as the optimizer sees them: ZeRO and FSDP hand it flat shards,
    // tensor parallelism slices of each tensor, which the estimate does not follow.
    if (s.pagedOptimizer && !s.pageableOptimizer())
        return Error{"paged-optimizer",
                     "bitsandbytes pages the states of AdamW, 8-bit AdamW and Lion; use --optimizer adamw, "
                     "adamw-8bit or lion, or --paged-optimizer no"};
    if (s.pagedOptimizer && (s.zeroStage > 0 || s.tensorParallel > 1))
        return Error{"paged-optimizer",
                     "a paged optimizer is modelled over whole tensors on one GPU; use --zero 0 and --tp 1, or "
                     "--paged-optimizer no"};
    if (s.implementation != Implementation::Megatron)
        if (auto error = checkCodeLevel(s))
            return error;
    return checkMagnitude(s);
}

std::optional<Error> architectureError(const Architecture &a)
{
    Scenario s;
    s.arch = a;
    return scenarioError(s);
}

} // namespace vl
