#include "core/fields.h"

#include "core/estimate.h"
#include "core/units.h"
#include "core/yamlreader.h"

#include <algorithm>
#include <array>
#include <string>

namespace vl {

namespace {

template <class T, class Parse>
std::optional<Error> assign(T &out, std::string_view value, Parse &&parse, std::string_view field,
                            std::string_view allowed)
{
    const auto parsed = parse(value);
    if (!parsed)
        return Error{std::string(field), "'" + std::string(value) + "' is not allowed; use " + std::string(allowed)};
    out = *parsed;
    return std::nullopt;
}

#define VL_INT(member) [](Scenario &s) -> std::int64_t & { return s.member; }
// How a text field is written: an enum by its name, a boolean as YAML's true/false.
#define VL_NAMED(member) [](const Scenario &s) { return std::string(toString(s.member)); }
#define VL_BOOL(member) [](const Scenario &s) { return std::string(s.member ? "true" : "false"); }
#define VL_WORD(member, parser, field, allowed)                                                                        \
    [](Scenario &s, std::string_view v) { return assign(s.member, v, parser, field, allowed); }

constexpr std::string_view kYesNo = "yes|no";

const std::array kFields = {
    FieldSpec{"params", "architecture.params", "N",
              "Parameter count given directly, e.g. 7e9, 7B or 6738415616; the architecture still "
              "shapes activations (0: count from the architecture)",
              VL_INT(arch.fixedParams)},
    FieldSpec{"hidden", "architecture.hidden", "N", "Hidden size h", VL_INT(arch.hidden), nullptr, true},
    FieldSpec{"layers", "architecture.layers", "N", "Transformer layers L", VL_INT(arch.layers), nullptr, true},
    FieldSpec{"heads", "architecture.heads", "N", "Attention heads a", VL_INT(arch.heads), nullptr, true},
    FieldSpec{"kv-heads", "architecture.kv_heads", "N",
              "Key/value heads (GQA); equal to heads for multi-head attention", VL_INT(arch.kvHeads), nullptr, true},
    FieldSpec{"head-dim", "architecture.head_dim", "N", "Head dimension (0: hidden / heads)", VL_INT(arch.headDim),
              nullptr, true},
    FieldSpec{"ffn", "architecture.ffn", "N", "MLP intermediate size (per expert)", VL_INT(arch.ffn), nullptr, true},
    FieldSpec{"vocab", "architecture.vocab", "N", "Vocabulary size", VL_INT(arch.vocab), nullptr, true},
    FieldSpec{"vocab-divisible-by", "training.vocab_divisible_by", "N",
              "Pad the vocabulary to a multiple of N × TP, as Megatron's "
              "--make-vocab-size-divisible-by does (its default 128; 1: as given)",
              VL_INT(vocabDivisibleBy)},
    FieldSpec{"positions", "architecture.positions", "N", "Learned position embeddings (GPT-2); 0 for rotary",
              VL_INT(arch.learnedPositions), nullptr, true},
    FieldSpec{"max-positions", "architecture.max_positions", "N",
              "Positions a rotary model is built for (config.json's max_position_embeddings), which torchtune's "
              "RoPE caches whole (0: not stated, the training sequence)",
              VL_INT(arch.rotaryPositions), nullptr, true},
    FieldSpec{"experts", "architecture.experts", "N", "MoE experts per layer (1: dense)", VL_INT(arch.experts), nullptr,
              true},
    FieldSpec{"experts-per-token", "architecture.experts_per_token", "N", "MoE experts each token uses (top-k)",
              VL_INT(arch.expertsPerToken), nullptr, true},
    FieldSpec{"norms-per-layer", "architecture.norms_per_layer", "N",
              "Norm layers per transformer layer: 2 before attention and the MLP; 4 after them too (Gemma-2, Gemma-3)",
              VL_INT(arch.normsPerLayer), nullptr, true},
    FieldSpec{"zero-centered-norm", "architecture.zero_centered_norm", "yes|no",
              "Norms scale by 1 + weight (Gemma; Megatron's --apply-layernorm-1p), which Hugging Face's Gemma code "
              "multiplies in FP32",
              nullptr, VL_WORD(arch.zeroCenteredNorm, parseYesNo, "zero-centered-norm", kYesNo), true},
    FieldSpec{"soft-capping", "architecture.soft_capping", "yes|no",
              "tanh soft-capping of the attention scores and the logits (Gemma-2)", nullptr,
              VL_WORD(arch.softCapping, parseYesNo, "soft-capping", kYesNo), true},
    FieldSpec{"sliding-window", "architecture.sliding_window", "N",
              "Tokens a sliding-window layer attends back to (Mistral v0.1, Gemma-2, Gemma-3); 0: none",
              VL_INT(arch.slidingWindow), nullptr, true},
    FieldSpec{"mlp", "architecture.mlp", "KIND",
              "MLP kind: gelu, or gated: swiglu (SiLU gate) or geglu (GELU gate, Gemma)", nullptr,
              VL_WORD(arch.mlp, parseMlp, "mlp", "gelu|swiglu|geglu"), true},
    FieldSpec{"modeling", "architecture.modeling", "BLOCK",
              "Block the model's code computes: llama (also Mistral, Qwen2), gpt2 or bert, as "
              "--implementation huggingface counts them, or gpt-neox (parallel residual: phi-1.5, "
              "StableLM-alpha), as --implementation litgpt counts it",
              nullptr, VL_WORD(arch.modeling, parseModeling, "modeling", "llama|gpt2|bert|gpt-neox"), true},
    FieldSpec{"norm", "architecture.norm", "KIND", "Norm kind: layernorm or rmsnorm", nullptr,
              VL_WORD(arch.norm, parseNorm, "norm", "layernorm|rmsnorm"), true},
    FieldSpec{"tied-embeddings", "architecture.tied_embeddings", "yes|no", "LM head shares the embedding matrix",
              nullptr, VL_WORD(arch.tiedEmbeddings, parseYesNo, "tied-embeddings", kYesNo), true},
    FieldSpec{"linear-bias", "architecture.linear_bias", "yes|no", "Every linear layer has a bias (GPT-2, BERT)",
              nullptr, VL_WORD(arch.linearBias, parseYesNo, "linear-bias", kYesNo), true},
    FieldSpec{"qkv-bias", "architecture.qkv_bias", "yes|no", "Query, key and value projections have a bias (Qwen2)",
              nullptr, VL_WORD(arch.qkvBias, parseYesNo, "qkv-bias", kYesNo), true},
    FieldSpec{"qk-norm", "architecture.qk_norm", "yes|no",
              "A norm over each head's queries and keys after their projections (Qwen3; Megatron's --qk-layernorm)",
              nullptr, VL_WORD(arch.qkNorm, parseYesNo, "qk-norm", kYesNo), true},
    FieldSpec{"parallel-residual", "architecture.parallel_residual", "yes|no",
              "GPT-NeoX blocks: attention and MLP both read the block's input (yes, GPT-NeoX, Pythia, phi, "
              "StableLM-alpha) or the MLP reads the attention's residual sum (no, RedPajama-INCITE)",
              nullptr, VL_WORD(arch.parallelResidual, parseYesNo, "parallel-residual", kYesNo), true},
    FieldSpec{"batch", "training.batch", "N", "Micro-batch size b per GPU", VL_INT(microBatch)},
    FieldSpec{"seq", "training.seq", "N", "Sequence length s", VL_INT(sequence)},
    FieldSpec{"grad-accum", "training.grad_accum", "N",
              "Micro-batches per step; 0 (the default): one per pipeline stage, the 1F1B pipeline "
              "full",
              VL_INT(gradAccum)},
    FieldSpec{"precision", "training.precision", "MODE",
              "Training precision: fp32, mixed-fp16, mixed-bf16, bf16 or fp8 (Transformer Engine under Megatron)",
              nullptr, VL_WORD(precision, parsePrecision, "precision", allowedPrecisions()), false,
              VL_NAMED(precision)},
    FieldSpec{"amp-style", "training.amp_style", "STYLE",
              "How mixed precision is implemented: master-copy (16-bit weights and grads + FP32 "
              "master, Megatron/DeepSpeed) or autocast (FP32 weights and grads, 16-bit casts; "
              "Hugging Face Trainer, Lightning: what a mixed precision chosen under litgpt runs)",
              nullptr, VL_WORD(ampStyle, parseAmpStyle, "amp-style", allowedAmpStyles()), false, VL_NAMED(ampStyle)},
    FieldSpec{"implementation", "training.implementation", "CODE",
              "Code that computes a layer: megatron (fused kernels, Korthikanti et al.), "
              "huggingface (transformers' modeling code), torchtitan, litgpt or torchtune",
              nullptr, VL_WORD(implementation, parseImplementation, "implementation", allowedImplementations()), false,
              VL_NAMED(implementation)},
    FieldSpec{"master-weights", "training.master_weights", "yes|no", "Keep the FP32 master copy in mixed precision",
              nullptr, VL_WORD(masterWeights, parseYesNo, "master-weights", kYesNo), false, VL_BOOL(masterWeights)},
    FieldSpec{"grad-dtype", "training.grad_dtype", "DTYPE",
              "Gradient dtype: auto (the weights' dtype; FP32 under --sharding megatron), fp32 (Megatron's 18 "
              "B/param), bf16 or fp16",
              nullptr, VL_WORD(gradDtype, parseGradDtype, "grad-dtype", allowedGradDtypes()), false,
              VL_NAMED(gradDtype)},
    FieldSpec{"optimizer", "training.optimizer", "NAME",
              "Optimizer: adamw, adamw-8bit, sgd, sgd-momentum, lion or adafactor", nullptr,
              VL_WORD(optimizer, parseOptimizer, "optimizer", allowedOptimizers()), false, VL_NAMED(optimizer)},
    FieldSpec{"optimizer-in-backward", "training.optimizer_in_backward", "yes|no",
              "torchtune's optimizer_in_bwd: each parameter steps as soon as its gradient is ready and frees "
              "it, so one parameter's gradient is alive at a time; with --implementation huggingface or "
              "torchtitan, one micro-batch a step, --zero 0, --tp 1, --pp 1",
              nullptr, VL_WORD(optimizerInBackward, parseYesNo, "optimizer-in-backward", kYesNo), false,
              VL_BOOL(optimizerInBackward)},
    FieldSpec{"gradients-kept", "training.gradients_kept", "yes|no",
              "The gradients stay allocated between steps, zeroed (zero_grad(set_to_none=False), PyTorch "
              "1.x's default): the step timeline holds them through forward; no: freed after the step (PyTorch "
              "2's default), they appear in backward",
              nullptr, VL_WORD(gradientsKept, parseYesNo, "gradients-kept", kYesNo), false, VL_BOOL(gradientsKept)},
    FieldSpec{"pytorch", "training.pytorch", "VERSION",
              "PyTorch version the run uses, e.g. 1.10, 2.1 or 2.5: before 2.2 torch.mean keeps its input for "
              "backward, so an RMSNorm written with mean (Hugging Face's, lit-gpt's, torchtitan's unfused "
              "one) saves x² as well (pytorch/pytorch#109935); before 1.11 softmax and log_softmax keep "
              "their input too, eager attention's scores and the loss's FP32 logits (pytorch/pytorch#65242); "
              "before 2.1 foreach AdamW holds two intermediates as large as all parameters (pytorch/pytorch#104898); "
              "default 2.2+",
              nullptr, VL_WORD(pytorch, parsePyTorchRelease, "pytorch", allowedPyTorchReleases()), false,
              VL_NAMED(pytorch)},
    FieldSpec{"transformers", "training.transformers", "VERSION",
              "transformers version whose causal-LM loss the run uses, e.g. 4.39, 4.47 or 4.57 (Llama-family code, "
              "--implementation huggingface): before 4.49 the loss shifts a contiguous FP32 copy of the logits "
              "(pull request 35646 shifts the labels instead), and from 4.46 it upcasts them while the model's "
              "forward still holds the 16-bit ones; before 4.46 the upcast replaces them; default 4.49+",
              nullptr, VL_WORD(transformers, parseTransformersRelease, "transformers", allowedTransformersReleases()),
              false, VL_NAMED(transformers)},
    FieldSpec{"liger", "training.liger", "yes|no",
              "Liger Kernel's patch of Hugging Face's Llama-family code (apply_liger_kernel_to_llama, "
              "TRL's use_liger_kernel): RMSNorm keeps its input and an FP32 1/rms, SwiGLU keeps the gate "
              "and up outputs, and the fused linear cross-entropy computes the head's gradients in "
              "forward, chunk by chunk, without the logits; with --implementation huggingface",
              nullptr, VL_WORD(liger, parseYesNo, "liger", kYesNo), false, VL_BOOL(liger)},
    FieldSpec{"per-layer-rope", "training.per_layer_rope", "yes|no",
              "Hugging Face's Mistral and Mixtral code before transformers 4.42, its Llama code before 4.40: every "
              "attention layer's rotary embedding keeps cos and sin tables for max_position_embeddings positions "
              "(--max-positions) in the dtype the model was loaded in (MistralRotaryEmbedding._set_cos_sin_cache); "
              "no: computed on the fly, as transformers does since; with --implementation huggingface",
              nullptr, VL_WORD(perLayerRope, parseYesNo, "per-layer-rope", kYesNo), false, VL_BOOL(perLayerRope)},
    FieldSpec{"kv-repeat", "training.kv_repeat", "yes|no",
              "Hugging Face's attention copies K and V to every head before the kernel, which saves the copies "
              "(repeat_kv: Mistral's, Mixtral's and Qwen2's flash_attention_2 before transformers 4.48, and SDPA "
              "where it gets no enable_gqa, as in every release before 4.48); no: K and V reach the kernel at the "
              "KV heads, as Llama's flash_attention_2 always did; with --implementation huggingface, --attention "
              "flash or sdpa and fewer KV heads than heads",
              nullptr, VL_WORD(kvRepeated, parseYesNo, "kv-repeat", kYesNo), false, VL_BOOL(kvRepeated)},
    FieldSpec{"padding-mask", "training.padding_mask", "yes|no",
              "The batch carries padding (a collator's padded rows, not packed ones): Hugging Face's SDPA path "
              "gets the attention mask, so K and V are copied to every head and SDPA's memory-efficient kernel "
              "keeps the mask, made additive in the model's dtype, for each layer (s·s per sequence); with "
              "--implementation huggingface and --attention sdpa",
              nullptr, VL_WORD(paddingMask, parseYesNo, "padding-mask", kYesNo), false, VL_BOOL(paddingMask)},
    FieldSpec{"paged-optimizer", "training.paged_optimizer", "yes|no",
              "bitsandbytes' paged optimizer (PagedAdamW, PagedAdamW8bit, PagedLion; the QLoRA paper's "
              "recipe): the states of each tensor of 1e5 elements or more live in CUDA managed memory, "
              "paged out to CPU memory when the GPU runs short; with adamw, adamw-8bit or lion, --zero 0, "
              "--tp 1",
              nullptr, VL_WORD(pagedOptimizer, parseYesNo, "paged-optimizer", kYesNo), false, VL_BOOL(pagedOptimizer)},
    FieldSpec{"optimizer-impl", "training.optimizer_impl", "IMPL",
              "How AdamW steps: auto (what the code's defaults run: foreach in lit-gpt's scripts; fused in "
              "Hugging Face's Trainer from PyTorch 2.8, torchtitan, Megatron and DeepSpeed), for-loop (one "
              "tensor at a time, the previous one's denominator kept beside two intermediates of the next), "
              "foreach (every tensor at once: an intermediate as large as the second moment), fused, or "
              "transformers (Hugging Face's own AdamW, the Trainer's adamw_hf: a loop with one intermediate)",
              nullptr, VL_WORD(optimizerImpl, parseOptimizerImpl, "optimizer-impl", allowedOptimizerImpls()), false,
              VL_NAMED(optimizerImpl)},
    FieldSpec{"dropout", "training.dropout", "yes|no", "Dropout on (saves masks for backward)", nullptr,
              VL_WORD(dropout, parseYesNo, "dropout", kYesNo), false, VL_BOOL(dropout)},
    FieldSpec{"flash-attention", "training.flash_attention", "yes|no", "FlashAttention (no s² attention scores kept)",
              nullptr, VL_WORD(attention, parseFlashAttention, "flash-attention", kYesNo)},
    FieldSpec{"attention", "training.attention", "KERNEL",
              "Attention kernel: eager (the s×s scores are kept), sdpa (PyTorch's "
              "scaled_dot_product_attention: its flash kernel or, for an FP32 model with fewer KV heads than "
              "heads, its math kernel, which keeps the scores as eager does) or flash (flash-attn)",
              nullptr, VL_WORD(attention, parseAttention, "attention", allowedAttentions()), false,
              VL_NAMED(attention)},
    FieldSpec{"loss", "training.loss", "MODE",
              "Cross-entropy over the logits: standard (their FP32 upcast alive whole) or chunked "
              "(torchtune's CEWithChunkedOutputLoss: one of 8 chunks upcast at a time)",
              nullptr, VL_WORD(loss, parseLoss, "loss", allowedLosses()), false, VL_NAMED(loss)},
    FieldSpec{"expert-load", "training.expert_load", "LOAD",
              "Where a MoE block runs its experts one after another (Hugging Face's): the tokens the expert "
              "computing at the block's widest moment takes, balanced (tokens·k / experts) or every-token (the "
              "most routing can give it, each token picking k distinct experts)",
              nullptr, VL_WORD(expertLoad, parseExpertLoad, "expert-load", allowedExpertLoads()), false,
              VL_NAMED(expertLoad)},
    FieldSpec{"packed", "training.packed", "yes|no",
              "torchtune's packed dataset: several samples to a row, positions restarting with each, so its "
              "RoPE gathers and keeps the cache's rows per call (--implementation torchtune)",
              nullptr, VL_WORD(packed, parseYesNo, "packed", kYesNo), false, VL_BOOL(packed)},
    FieldSpec{"dataloader-mask", "training.dataloader_mask", "yes|no",
              "Megatron-LM's data loader hands every micro-batch a b×1×s×s boolean attention mask, held on the "
              "GPU while it runs forward (its default; no: --no-create-attention-mask-in-dataloader); with "
              "--sharding megatron",
              nullptr, VL_WORD(dataloaderMask, parseYesNo, "dataloader-mask", kYesNo), false, VL_BOOL(dataloaderMask)},
    FieldSpec{"rerun-keeps-batches", "training.rerun_keeps_batches", "yes|no",
              "Megatron-LM's rerun state machine keeps every micro-batch of the step on the GPU until the next "
              "step begins (its default --rerun-mode validate_results, since Megatron-LM of 2026-05-21; no: "
              "--rerun-mode disabled or an older Megatron-LM); with --sharding megatron",
              nullptr, VL_WORD(rerunKeepsBatches, parseYesNo, "rerun-keeps-batches", kYesNo), false,
              VL_BOOL(rerunKeepsBatches)},
    FieldSpec{"recompute", "training.recompute", "MODE",
              "Activation recomputation: none, selective or full (gradient checkpointing)", nullptr,
              VL_WORD(recompute, parseRecompute, "recompute", allowedRecomputes()), false, VL_NAMED(recompute)},
    FieldSpec{"use-reentrant", "training.use_reentrant", "yes|no",
              "With --recompute full in Hugging Face's code: torch.utils.checkpoint's use_reentrant (yes, "
              "transformers' default: the recomputed layer's output is held while that layer's backward runs; "
              "no: dropped, and with bitsandbytes before 0.43.2 every layer's 4-bit inputs kept to the step's end)",
              nullptr, VL_WORD(useReentrant, parseYesNo, "use-reentrant", kYesNo), false, VL_BOOL(useReentrant)},
    FieldSpec{"activation-offload", "training.activation_offload", "yes|no",
              "Copy the layers' saved activations to CPU memory in forward and back in backward "
              "(torchtune's enable_activation_offloading, OffloadActivations); with --implementation "
              "huggingface or torchtitan",
              nullptr, VL_WORD(activationOffload, parseYesNo, "activation-offload", kYesNo), false,
              VL_BOOL(activationOffload)},
    FieldSpec{"zero", "parallel.zero", "0|1|2|3", "ZeRO stage", VL_INT(zeroStage)},
    FieldSpec{"sharding", "parallel.sharding", "ENGINE",
              "Who shards: zero (DeepSpeed ZeRO, stages 1-3), fsdp (at --zero 3, PyTorch FSDP: one unit per "
              "layer, FP32 shards gathered in 16 bits; which FSDP, --fsdp-version) or megatron "
              "(Megatron-Core's DDP with FP32 main gradients; at --zero 1 its distributed optimizer)",
              nullptr, VL_WORD(sharding, parseSharding, "sharding", allowedShardings()), false, VL_NAMED(sharding)},
    FieldSpec{"prefetch-bucket", "parallel.prefetch_bucket", "N",
              "DeepSpeed's stage3_prefetch_bucket_size at --zero 3: parameters gathered ahead of use "
              "(default 5e7)",
              VL_INT(prefetchBucket)},
    FieldSpec{"max-reuse-distance", "parallel.max_reuse_distance", "N",
              "DeepSpeed's stage3_max_reuse_distance at --zero 3: a module used again within this many "
              "parameters stays gathered (default 1e9)",
              VL_INT(maxReuseDistance)},
    FieldSpec{"max-live-parameters", "parallel.max_live_parameters", "N",
              "DeepSpeed's stage3_max_live_parameters at --zero 3: no prefetch while this many are "
              "gathered (default 1e9)",
              VL_INT(maxLiveParameters)},
    FieldSpec{"reduce-bucket", "parallel.reduce_bucket", "N",
              "DeepSpeed's reduce_bucket_size at --zero 1, 2 or 3: the elements of its contiguous "
              "gradient bucket (default 5e8, DeepSpeed's; 0: none)",
              VL_INT(reduceBucket)},
    FieldSpec{"overlap-comm", "parallel.overlap_comm", "yes|no",
              "DeepSpeed's overlap_comm at --zero 1 or 2: two gradient buckets, one reduced while the other "
              "fills (no: DeepSpeed's default below stage 3; Hugging Face's sample configurations say yes)",
              nullptr, VL_WORD(overlapComm, parseYesNo, "overlap-comm", kYesNo), false, VL_BOOL(overlapComm)},
    FieldSpec{"zero-init", "parallel.zero_init", "yes|no",
              "DeepSpeed's zero.Init at --zero 3 in Hugging Face's code: the model is built already partitioned "
              "(from_pretrained under a ZeRO-3 config, accelerate's zero3_init_flag; the default). no: it is built "
              "whole in CPU memory and DeepSpeed's engine moves it whole onto every GPU before partitioning it, "
              "the run's start-up. A 4-bit model is never built under it",
              nullptr, VL_WORD(zeroInit, parseYesNo, "zero-init", kYesNo), false, VL_BOOL(zeroInit)},
    FieldSpec{"replicate", "parallel.replicate", "N",
              "HSDP with --sharding fsdp: the data-parallel GPUs form N groups; FSDP shards within a "
              "group of dp/N and replicates across groups",
              VL_INT(replicas)},
    FieldSpec{"reshard-after-forward", "parallel.reshard_after_forward", "yes|no",
              "FSDP frees each layer's gathered parameters after its forward (yes) or "
              "keeps every layer gathered until its backward (no; torchtitan's choice "
              "under pipeline parallelism)",
              nullptr, VL_WORD(reshardAfterForward, parseYesNo, "reshard-after-forward", kYesNo), false,
              VL_BOOL(reshardAfterForward)},
    FieldSpec{"fsdp-version", "parallel.fsdp_version", "1|2",
              "Which FSDP shards with --sharding fsdp: 2 (fully_shard, torchtitan's and torchtune's: each "
              "parameter its own shard, gathered through an all-gather buffer and copied out) or 1 "
              "(FullyShardedDataParallel, what accelerate, the Hugging Face Trainer and Lightning wrap: each unit "
              "one flat parameter, gathered in place). Choosing the code sets the one it wraps",
              nullptr, VL_WORD(fsdpVersion, parseFsdpVersion, "fsdp-version", allowedFsdpVersions()), false,
              VL_NAMED(fsdpVersion)},
    FieldSpec{"fsdp-orig-params", "parallel.fsdp_use_orig_params", "yes|no",
              "FSDP1's use_orig_params (yes: what accelerate, the Hugging Face Trainer and Lightning set): the "
              "optimizer steps the original parameters, whose gradients are views of each unit's flat gradient; "
              "zero_grad frees the views and FSDP frees the flat gradient only at the next forward, so the sharded "
              "gradients stay between steps (no: zero_grad frees the flat parameters' gradients)",
              nullptr, VL_WORD(fsdpOrigParams, parseYesNo, "fsdp-orig-params", kYesNo), false, VL_BOOL(fsdpOrigParams)},
    FieldSpec{"no-sync", "parallel.no_sync", "yes|no",
              "With --sharding fsdp and several micro-batches a step: accumulate their gradients without "
              "syncing (FSDP's no_sync inside accelerate's gradient accumulation, Lightning Fabric's "
              "no_backward_sync), so every GPU keeps the unsharded gradients of all it trains until the last "
              "micro-batch (no: each micro-batch reduce-scatters, torchtitan's and torchtune's way). Choosing "
              "the code sets what it does",
              nullptr, VL_WORD(fsdpNoSync, parseYesNo, "no-sync", kYesNo), false, VL_BOOL(fsdpNoSync)},
    FieldSpec{"ddp-bucket-view", "parallel.ddp_bucket_view", "yes|no",
              "Without sharding (--zero 0, PyTorch DDP): the gradients are views into DDP's all-reduce buckets "
              "(gradient_as_bucket_view; yes) or tensors of their own that DDP copies into buckets as large "
              "(no, PyTorch's default)",
              nullptr, VL_WORD(ddpBucketView, parseYesNo, "ddp-bucket-view", kYesNo), false, VL_BOOL(ddpBucketView)},
    FieldSpec{"dp", "parallel.dp", "N", "Data-parallel GPUs (ZeRO shards over these, with the context-parallel ones)",
              VL_INT(dataParallel)},
    FieldSpec{"tp", "parallel.tp", "N", "Tensor-parallel size", VL_INT(tensorParallel)},
    FieldSpec{"pp", "parallel.pp", "N", "Pipeline stages", VL_INT(pipelineParallel)},
    FieldSpec{"ep", "parallel.ep", "N",
              "Expert-parallel GPUs (MoE): each holds experts/ep of every layer's experts; taken from the "
              "data-parallel GPUs",
              VL_INT(expertParallel)},
    FieldSpec{"moe-grouped-gemm", "parallel.moe_grouped_gemm", "yes|no",
              "Megatron's MoE experts through Transformer Engine's grouped GEMM (--moe-grouped-gemm): its 4 cuBLAS "
              "streams keep a workspace each",
              nullptr, VL_WORD(groupedGemm, parseYesNo, "moe-grouped-gemm", kYesNo), false, VL_BOOL(groupedGemm)},
    FieldSpec{"cp", "parallel.cp", "N",
              "Context-parallel GPUs: each splits the sequence, attention runs as a ring of flash kernels "
              "(eager attention follows to Megatron's flash or torchtitan's SDPA)",
              VL_INT(contextParallel)},
    FieldSpec{"vpp", "parallel.vpp", "N", "Interleaved model chunks per pipeline stage", VL_INT(virtualStages)},
    FieldSpec{"sp", "parallel.sp", "yes|no", "Sequence parallelism (with TP)", nullptr,
              VL_WORD(sequenceParallel, parseYesNo, "sp", kYesNo), false, VL_BOOL(sequenceParallel)},
    FieldSpec{"offload", "parallel.offload", "WHAT", "ZeRO-Offload to CPU memory: none, optimizer or optimizer-params",
              nullptr, VL_WORD(offload, parseOffload, "offload", allowedOffloads()), false, VL_NAMED(offload)},
    FieldSpec{"gpus-per-node", "parallel.gpus_per_node", "N",
              "GPUs in one node: with --offload, the node's CPU memory holds every one's offloaded states and "
              "buffers; with --nvls, how many of a communicator's GPUs share the node's NVSwitch (default 8)",
              VL_INT(gpusPerNode)},
    FieldSpec{"finetune", "finetune.mode", "MODE", "Fine-tuning: full, freeze, lora or qlora", nullptr,
              VL_WORD(fineTune, parseFineTune, "finetune", allowedFineTunes()), false, VL_NAMED(fineTune)},
    FieldSpec{"lora-rank", "finetune.lora_rank", "N", "LoRA rank r", VL_INT(loraRank)},
    FieldSpec{"lora-targets", "finetune.lora_targets", "LIST",
              "Projections LoRA adapts: all (every layer's), attention, or a list of q,k,v,o,gate,up,down,router "
              "(a mixture of experts' router); head adds the LM head (e.g. all,head)",
              nullptr, VL_WORD(loraTargets, parseLoraTargets, "lora-targets", "all, attention or a list like q,v,head"),
              false, [](const Scenario &s) { return loraTargetsToString(s.loraTargets); }},
    FieldSpec{"lora-dropout", "finetune.lora_dropout", "yes|no",
              "LoRA dropout on: each adapter saves its own dropped copy of its input", nullptr,
              VL_WORD(loraDropout, parseYesNo, "lora-dropout", kYesNo), false, VL_BOOL(loraDropout)},
    FieldSpec{"adapters-fp32", "finetune.adapters_fp32", "yes|no",
              "PEFT 0.12 and later upcast the LoRA adapters of a model trained in 16 bits without autocast to FP32 "
              "(get_peft_model's autocast_adapter_dtype, on by default): FP32 adapter weights, gradients and "
              "optimizer states, and each adapter casts its input to FP32 and keeps its saved tensors in FP32; "
              "no: the adapters in the base's dtype (PEFT before 0.12, or autocast_adapter_dtype=False); with "
              "--finetune lora, or qlora at --zero 3 (QLoRA's adapters over bitsandbytes' unsharded uint8 "
              "storage are FP32 in every release), --implementation huggingface and --precision bf16",
              nullptr, VL_WORD(adaptersFp32, parseYesNo, "adapters-fp32", kYesNo), false, VL_BOOL(adaptersFp32)},
    FieldSpec{"double-quant", "finetune.double_quant", "yes|no",
              "With --finetune qlora: bitsandbytes' double quantization of the NF4 blocks' constants "
              "(bnb_4bit_use_double_quant, the QLoRA paper's recipe, lit-gpt's bnb.nf4-dq): 4.127 bits per "
              "weight; no: an FP32 absmax per 64 weights, 4.5 bits (transformers' BitsAndBytesConfig default)",
              nullptr, VL_WORD(doubleQuant, parseYesNo, "double-quant", kYesNo), false, VL_BOOL(doubleQuant)},
    FieldSpec{"bitsandbytes", "finetune.bitsandbytes", "VERSION",
              "With --finetune qlora: the bitsandbytes version whose 4-bit linear runs, e.g. 0.41, 0.43.1 or 0.45 "
              "(Hugging Face's and lit-gpt's QLoRA): before 0.43.2 each 4-bit linear keeps its input for "
              "backward (bitsandbytes pull request 1270 dropped it); default 0.43.2+",
              nullptr, VL_WORD(bitsandbytes, parseBitsandbytesRelease, "bitsandbytes", allowedBitsandbytesReleases()),
              false, VL_NAMED(bitsandbytes)},
    FieldSpec{"base-dtype", "finetune.base_dtype", "DTYPE",
              "Dtype of the frozen base weights (freeze, lora, qlora): auto (the working "
              "weights'), fp32, bf16 or fp16",
              nullptr, VL_WORD(baseDtype, parseBaseDtype, "base-dtype", allowedBaseDtypes()), false,
              VL_NAMED(baseDtype)},
    FieldSpec{"trainable-layers", "finetune.trainable_layers", "N", "With --finetune freeze: how many top layers train",
              VL_INT(trainableLayers)},
    // Files and commands before --measure: `overhead: yes|no` (read, never written).
    FieldSpec{"overhead", "overhead.enabled", "yes|no",
              "Same as --measure nvidia-smi (yes) or --measure allocated (no)", nullptr,
              VL_WORD(overhead.measure, parseOverheadOn, "overhead", kYesNo)},
    FieldSpec{"measure", "overhead.measure", "WHAT",
              "What the estimate predicts and the verdict compares with the GPU: allocated "
              "(torch.cuda.max_memory_allocated: the tensors and cuBLAS's workspaces), reserved (max_memory_reserved: "
              "+ the caching allocator's reserve) or nvidia-smi (+ CUDA context and NCCL buffers; "
              "the default, as GPU capacities are nvidia-smi readings)",
              nullptr, VL_WORD(overhead.measure, parseMeasure, "measure", allowedMeasures()), false,
              VL_NAMED(overhead.measure)},
    FieldSpec{"allocator-percent", "overhead.allocator_percent", "N",
              "Allocator reserve with --measure reserved or nvidia-smi, % of the memory allocated at the step's peak",
              VL_INT(overhead.allocatorPercent)},
    FieldSpec{"cuda-loading", "overhead.cuda_loading", "MODE",
              "How CUDA loads kernels into the context nvidia-smi shows: lazy (CUDA 11.7 or later under "
              "PyTorch 1.13 or later, CUDA 12.2 or later anywhere; 400MiB) or eager (older CUDA, or "
              "CUDA_MODULE_LOADING=EAGER; 1343MiB, a V100 with CUDA 11.2); sets --cuda-context unless that is "
              "given",
              nullptr, VL_WORD(overhead.moduleLoading, parseModuleLoading, "cuda-loading", allowedModuleLoadings()),
              false, VL_NAMED(overhead.moduleLoading)},
    FieldSpec{"cuda-context", "overhead.cuda_context_mib", "SIZE",
              "CUDA context and kernels with --measure nvidia-smi, e.g. 1343MiB (V100, CUDA 11.2, eager "
              "loading) or 287MiB (lazy loading); default: what --cuda-loading takes",
              nullptr,
              VL_WORD(overhead.cudaContext, parseSize, "cuda-context", "a size such as 400MiB, 1.3GiB or 1.4GB")},
    FieldSpec{"compute-capability", "overhead.compute_capability", "N",
              "Major number of the GPU's compute capability: 7 (V100, T4), 8 (A100, A10, L4, L40S, RTX 30 and 40), "
              "9 (H100, H200, H20), 10 (B200) or 12 (RTX 50); sizes the cuBLAS workspaces, 32MiB each from 9 on, "
              "8MiB 128KiB before",
              VL_INT(overhead.computeCapability)},
    FieldSpec{"nvls", "overhead.nvls", "yes|no",
              "The node's GPUs hang off an NVSwitch that does NVLink SHARP (HGX and DGX H100, H200, B200): with "
              "--measure nvidia-smi, NCCL's NVLS buffers for each communicator with more than two of the node's GPUs; "
              "default: what the GPU preset says",
              nullptr, VL_WORD(overhead.nvls, parseYesNo, "nvls", kYesNo), false, VL_BOOL(overhead.nvls)},
    FieldSpec{"nccl", "overhead.nccl", "VERSION",
              "The NCCL release the run links (torch 2.2.0 pins 2.19.3): 2.22+ (NVLS buffers of 1MiB per channel, "
              "direction and GPU of the node in a process group, set up at the group's first collective that runs "
              "NVLS), 2.21 (3MiB, set up with every communicator) or 2.20 (2.17 to 2.20: 6MiB, likewise)",
              nullptr, VL_WORD(overhead.nccl, parseNcclRelease, "nccl", allowedNcclReleases()), false,
              VL_NAMED(overhead.nccl)},
};

#undef VL_INT
#undef VL_WORD
#undef VL_NAMED
#undef VL_BOOL

} // namespace

std::span<const FieldSpec> scenarioFields()
{
    return kFields;
}

std::vector<std::string_view> changedFields(const Scenario &a, const Scenario &b)
{
    std::vector<std::string_view> changed;
    for (const FieldSpec &f : kFields)
        if (f.integer ? f.value(a) != f.value(b) : f.format && f.format(a) != f.format(b))
            changed.push_back(f.name);
    return changed;
}

const FieldSpec *findField(std::string_view name)
{
    const auto it = std::find_if(kFields.begin(), kFields.end(), [&](const FieldSpec &f) { return f.name == name; });
    return it == kFields.end() ? nullptr : &*it;
}

std::optional<Error> setField(Scenario &s, std::string_view name, std::string_view value)
{
    const FieldSpec *field = findField(name);
    if (!field)
        return Error{std::string(name), "is not a scenario field"};
    if (field->text)
        return field->text(s, value);
    const auto parsed = parseCount(value);
    if (!parsed) {
        const auto range = allowedRange(s, name);
        return Error{std::string(name),
                     "'" + std::string(value) + "' is not a whole number"
                         + (range ? "; allowed " + std::to_string(range->first) + " to " + std::to_string(range->second)
                                  : std::string())};
    }
    field->integer(s) = *parsed;
    return std::nullopt;
}

std::optional<Error> readFields(YamlReader r, std::string_view section, Scenario &s,
                                std::initializer_list<std::string_view> own)
{
    const std::string prefix = std::string(section) + '.';
    std::vector<std::string> known(own.begin(), own.end());
    std::vector<std::pair<std::string, const FieldSpec *>> fields;
    for (const FieldSpec &field : scenarioFields()) {
        if (!field.fileKey.starts_with(prefix))
            continue;
        std::string key(field.fileKey.substr(prefix.size()));
        if (std::find(own.begin(), own.end(), key) != own.end())
            continue;
        known.push_back(key);
        fields.emplace_back(std::move(key), &field);
    }
    if (auto e = r.rejectUnknown(known))
        return e;
    for (const auto &[key, field] : fields) { // the table's order: flash_attention before attention
        std::string text;
        if (!r.has(key.c_str()))
            continue;
        if (auto e = r.string(key.c_str(), text))
            return e;
        if (auto e = setField(s, field->name, text))
            return r.errorAt(key.c_str(), e->message);
    }
    return std::nullopt;
}

void writeFields(YAML::Emitter &out, std::string_view section, const Scenario &s)
{
    const std::string prefix = std::string(section) + '.';
    for (const FieldSpec &field : scenarioFields()) {
        if (!field.fileKey.starts_with(prefix) || (!field.integer && !field.format))
            continue;
        out << YAML::Key << std::string(field.fileKey.substr(prefix.size())) << YAML::Value;
        if (field.integer)
            out << field.value(s);
        else
            out << field.format(s);
    }
}

Error placedInFile(const YamlReader &file, Error error)
{
    YAML::Node at = file.node();
    if (const FieldSpec *spec = findField(error.field); spec && !spec->fileKey.empty()) {
        const std::string key(spec->fileKey);
        const auto dot = key.find('.');
        const YAML::Node section = file.node()[key.substr(0, dot)];
        const YAML::Node value = section.IsMap() ? section[key.substr(dot + 1)] : YAML::Node();
        at = value.IsDefined() ? value : section.IsDefined() ? section : at;
        error.field = file.pathOf(key.c_str());
    }
    error.file = file.file();
    error.line = at.Mark().is_null() ? 0 : at.Mark().line + 1;
    return error;
}

} // namespace vl
