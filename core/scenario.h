#pragma once
// Everything that decides the memory of one training step: the input of estimate().

#include "core/architecture.h"
#include "core/units.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

namespace vl {

// Fp8: Megatron-LM with Transformer Engine's FP8 linears (--fp8-format): BF16 weights and
// gradients with an FP32 master copy, the GEMMs' inputs cast to FP8.
enum class Precision { Fp32, MixedFp16, MixedBf16, Bf16, Fp8 };
enum class GradDtype { Auto, Fp32, Bf16, Fp16 }; // Auto: the dtype of the working weights
// The dtype of frozen base weights (freeze, LoRA, QLoRA's unquantised modules). Auto: the working
// weights' dtype; a model loaded in BF16 under autocast keeps its frozen base in BF16, and PEFT's
// prepare_model_for_kbit_training puts QLoRA's embeddings, norms and head in FP32.
enum class BaseDtype { Auto, Fp32, Bf16, Fp16 };
enum class Optimizer { AdamW, AdamW8bit, Sgd, SgdMomentum, Lion, Adafactor };
// How AdamW runs its step: torch.optim.AdamW's loop over the tensors (torch/optim/adamw.py), its
// foreach ops over all of them at once (PyTorch's default on CUDA) or one fused kernel, or Hugging
// Face's own AdamW (transformers optimization.py, the Trainer's adamw_hf), a loop of its own.
// Auto: what the named code uses (optimizerImplOf()).
enum class OptimizerImpl { Auto, ForLoop, Foreach, Fused, TransformersLoop };
// The PyTorch release the run uses, where autograd's saved set changed: before 2.2, torch.mean's
// backward kept its input (derivatives.yaml read self's element count from the tensor; fixed by
// pytorch/pytorch#109935, first released in 2.2), so an RMSNorm written with mean saves x² too;
// before 1.11, softmax's and log_softmax's backward named their input as well
// (derivatives.yaml: _softmax_backward_data(grad, result, dim, self)), so autograd kept the
// input beside the output (pytorch/pytorch#65242, first released in 1.11, where the backward
// takes the input's dtype instead; huggingface/transformers#16043 on that API change).
// The PyTorch releases whose differences the estimate counts: 2.2 or newer, 2.1, 1.11 to 2.0,
// 1.10 or older.
enum class PyTorchRelease { Since2_2, Before2_2, Before2_1, Before1_11 };
// The transformers release whose causal-LM loss the run uses (Llama-family models): before 4.46
// the model's forward upcast the logits in place of the 16-bit ones and shifted a contiguous FP32
// copy (modeling_llama.py, LlamaForCausalLM.forward); from 4.46 loss_utils.py's ForCausalLMLoss
// upcasts while the forward still holds the 16-bit logits, and shifted a copy until 4.49, which
// shifts the labels instead (huggingface/transformers pull request 35646).
enum class TransformersRelease { Since4_49, Before4_49, Before4_46 };
// The bitsandbytes release whose 4-bit linear (QLoRA's base, under Hugging Face's and lit-gpt's
// code) runs: before 0.43.2 its MatMul4Bit keeps its input for backward, which only the weight's
// gradient would need (autograd/_functions.py: ctx.tensors = (A, B); bitsandbytes pull request
// 1270 keeps (None, B)).
enum class BitsandbytesRelease { Since0_43_2, Before0_43_2 };
enum class Offload { None, Optimizer, OptimizerAndParams };
enum class Recompute { None, Selective, Full };
enum class FineTune { Full, Freeze, LoRA, QLoRA };
// Whose code computes a layer: Megatron's fused kernels (Korthikanti et al.'s accounting) or
// the modeling code of Hugging Face transformers, torchtitan, lit-gpt or torchtune, each of which
// saves its own set of tensors.
enum class Implementation { Megatron, HuggingFace, TorchTitan, LitGpt, TorchTune };
// How mixed precision is implemented: 16-bit weights and grads plus an FP32 master copy
// (Megatron, DeepSpeed), or PyTorch autocast: FP32 weights and grads, 16-bit casts per op.
enum class AmpStyle { MasterCopy, Autocast };
// How attention is computed: eager (the s×s scores are materialised and kept for backward),
// PyTorch's scaled_dot_product_attention (on a recent GPU its flash kernel: no scores kept), or
// the flash-attn package (Hugging Face's flash_attention_2).
enum class Attention { Eager, Sdpa, Flash };
// How the loss reads the logits: all at once (their FP32 upcast alive whole), or in chunks as
// torchtune's CEWithChunkedOutputLoss does (one chunk's FP32 upcast at a time).
enum class Loss { Standard, Chunked };
// How many of the tokens the expert computing at its widest moment takes, where a MoE block runs
// its experts one after another (Hugging Face's, transformers' MixtralSparseMoeBlock): its share
// of tokens·k rows spread evenly (balanced), or every token (every-token: top-k picks k distinct
// experts, so no expert takes more), the rest spread evenly over the others. Routing follows the
// data; the second is the most it can be.
enum class ExpertLoad { Balanced, EveryToken };
// Which engine shards at ZeRO stage 3: DeepSpeed's ZeRO-3, or PyTorch's FSDP (fully_shard, as
// torchtitan applies it: one unit per transformer layer plus the root, FP32 sharded parameters
// gathered in 16 bits under mixed precision, gradients reduced in FP32). Their buffers differ.
enum class Sharding { Zero, Fsdp, Megatron };
// Which FSDP: FSDP2 (fully_shard: per-parameter shards, gathered through an all-gather buffer and
// copied out) or FSDP1 (FullyShardedDataParallel, what accelerate and Lightning wrap: each unit one
// flat parameter, gathered in place). Their all-gather buffers differ.
enum class FsdpVersion { Fsdp1, Fsdp2 };
// Which reading of a real run the estimate predicts, and the verdict holds against the GPU's
// capacity: torch.cuda.max_memory_allocated (the tensors alone), max_memory_reserved (+ the caching
// allocator's reserve) or what nvidia-smi shows (+ the CUDA context and NCCL's buffers, which live
// outside PyTorch's allocator). GPU capacities are nvidia-smi readings, so that is the safe default.
enum class Measure { Allocated, Reserved, NvidiaSmi };
// How CUDA loads a process's kernels into its context: lazily, each module on its first launch
// (CUDA ≥ 11.7 with CUDA_MODULE_LOADING=LAZY, which PyTorch sets since 1.13; CUDA's own default
// from 12.2), or eagerly, every kernel of every library when it loads (older CUDA, or
// CUDA_MODULE_LOADING=EAGER). The context nvidia-smi shows follows it.
enum class ModuleLoading { Lazy, Eager };
// The context each mode takes when no size is given: "around 400MB if CUDA >= 11.7 is used and
// lazy module loading enabled (default in PyTorch)" (PyTorch maintainer, pytorch/pytorch issue
// #109888, 2023); 1343 MiB measured on a V100 with CUDA 11.2, before lazy loading (Hugging Face
// transformers docs, model_memory_anatomy.md).
constexpr Bytes cudaContextOf(ModuleLoading loading)
{
    return loading == ModuleLoading::Lazy ? 400 * kMiB : 1343 * kMiB;
}
inline constexpr int kLossChunks = 8; // torchtune's num_output_chunks
// The NCCL release a run links, where the NVLS buffers each communicator allocates on an NVSwitch
// node changed (src/transport/nvls.cc): 2.17 to 2.20 give each channel NCCL_BUFFSIZE (4 MiB) and
// 2 MiB of flags, when the communicator is created; 2.21 a chunk of 128 KiB × 8 steps and the
// 2 MiB; from 2.22 the chunks alone, at the first collective that runs NVLS (runtime connection,
// ncclNvlsBufferSetup). PyTorch's wheels pin one: torch 2.2.0 requires nvidia-nccl-cu12==2.19.3.
enum class NcclRelease { Since2_22, Before2_22, Before2_21 };

// Which projections LoRA adapts; a bit set so scenarios stay trivially copyable.
enum LoraTarget : unsigned {
    LoraQ = 1u << 0,
    LoraK = 1u << 1,
    LoraV = 1u << 2,
    LoraO = 1u << 3,
    LoraGate = 1u << 4,
    LoraUp = 1u << 5,
    LoraDown = 1u << 6,
    LoraHead = 1u << 7,   // the LM head (PEFT's "lm_head", torchtune's apply_lora_to_output)
    LoraRouter = 1u << 8, // a mixture of experts' router (PEFT's "gate" in Mixtral); a dense layer has none
    LoraAttention = LoraQ | LoraK | LoraV | LoraO,
    LoraMlp = LoraGate | LoraUp | LoraDown,
    // Every layer's projections (PEFT's "all-linear"), as before the head.
    LoraAll = LoraAttention | LoraMlp | LoraRouter,
    LoraAnyTarget = LoraAll | LoraHead,
    LoraLitgpt = LoraQ | LoraK | LoraV | LoraHead, // lit-gpt's LoRA: its fused qkv projection and its head
};

struct Overhead {
    Measure measure = Measure::NvidiaSmi;
    ModuleLoading moduleLoading = ModuleLoading::Lazy;
    Bytes cudaContext = cudaContextOf(ModuleLoading::Lazy); // a setting; follows moduleLoading unless given
    std::int64_t allocatorPercent = 10;                     // caching-allocator reserve and fragmentation
    Bytes commBuffers = 512 * kMiB;                         // NCCL buffers, only when more than one GPU talks
    // The node's NVSwitch does NVLink SHARP (multicast: HGX and DGX H100, H200, B200), so that NCCL
    // sets up NVLS buffers for each communicator with more than two of the node's GPUs; follows
    // the GPU preset unless given.
    bool nvls = false;
    NcclRelease nccl = NcclRelease::Since2_22;
    // The major number of the GPU's compute capability (8: A100, 9: H100): the size of the GEMM
    // libraries' workspaces follows it (Stage::addGemmWorkspaces in core/estimate.cpp).
    std::int64_t computeCapability = 9;
    bool reserveCounted() const { return measure != Measure::Allocated; }
    bool runtimeCounted() const { return measure == Measure::NvidiaSmi; } // CUDA context, NCCL
    bool operator==(const Overhead &) const = default;
};

struct Scenario {
    Architecture arch;

    std::int64_t microBatch = 1;
    std::int64_t sequence = 4096;
    // Micro-batches per step. 0 (the default): as many as pipeline stages, so 1F1B runs with its
    // pipeline full, as Megatron's and llm-analysis's accounting assume; one without a pipeline.
    std::int64_t gradAccum = 0;

    Precision precision = Precision::MixedFp16;
    AmpStyle ampStyle = AmpStyle::MasterCopy;
    Implementation implementation = Implementation::Megatron;
    bool masterWeights = true; // the FP32 copy mixed precision keeps (the article's table forgot it)
    GradDtype gradDtype = GradDtype::Auto;
    BaseDtype baseDtype = BaseDtype::Auto;
    Optimizer optimizer = Optimizer::AdamW;
    // bitsandbytes' paged optimizers (PagedAdamW, PagedAdamW8bit, PagedLion): the states of
    // every tensor of 1e5 elements or more live in CUDA managed memory, which the driver pages
    // out to CPU memory instead of running out.
    bool pagedOptimizer = false;
    OptimizerImpl optimizerImpl = OptimizerImpl::Auto;
    // torchtune's optimizer_in_bwd: each parameter steps as soon as its gradient is ready and the
    // gradient is freed, so one parameter's gradient is alive at a time.
    bool optimizerInBackward = false;
    // zero_grad(set_to_none=False), PyTorch 1.x's default: the gradients stay allocated, zeroed,
    // from one step to the next, through forward too.
    bool gradientsKept = false;
    PyTorchRelease pytorch = PyTorchRelease::Since2_2;
    TransformersRelease transformers = TransformersRelease::Since4_49;
    BitsandbytesRelease bitsandbytes = BitsandbytesRelease::Since0_43_2;
    bool meanKeepsInput() const { return pytorch != PyTorchRelease::Since2_2; }      // before 2.2
    bool softmaxKeepsInput() const { return pytorch == PyTorchRelease::Before1_11; } // before 1.11
    // Before 2.1 foreach AdamW added eps out of place (torch/optim/adamw.py, _multi_tensor_adamw:
    // torch._foreach_add; in place since pytorch/pytorch#104898): two intermediates as large as v.
    bool foreachAdamCopiesDenominator() const
    {
        return pytorch == PyTorchRelease::Before2_1 || pytorch == PyTorchRelease::Before1_11;
    }
    // Liger Kernel's patch of Hugging Face's Llama-family code (apply_liger_kernel_to_llama):
    // Triton RMSNorm and SwiGLU, in-place RoPE, and the fused linear cross-entropy, which never
    // materialises the logits.
    bool liger = false;
    // Hugging Face's Mistral and Mixtral code before transformers 4.42, its Llama code before 4.40:
    // each attention layer's rotary embedding keeps cos and sin tables for max_position_embeddings
    // positions.
    bool perLayerRope = false;

    std::int64_t zeroStage = 0;
    Sharding sharding = Sharding::Zero; // the engine: DeepSpeed, FSDP (stage 3) or Megatron (stages 0-1)
    // DeepSpeed's reduce_bucket_size (elements): the contiguous gradient bucket its ZeRO optimizer
    // allocates (deepspeed/runtime/zero/config.py default 5e8).
    std::int64_t reduceBucket = 500'000'000;
    // DeepSpeed's overlap_comm at ZeRO-1/2: a second gradient bucket, so that one is reduced while
    // the other fills (off by default below stage 3, DeepSpeed's zero/config.py).
    bool overlapComm = false;
    // DeepSpeed's zero.Init at ZeRO-3: the model is built already partitioned (transformers'
    // from_pretrained under a ZeRO-3 config, accelerate's zero3_init_flag). false: it is built
    // whole in CPU memory and DeepSpeed's engine moves it whole onto every GPU before partitioning
    // it. transformers never builds a 4-bit model under it (modeling_utils.py: not is_quantized).
    bool zeroInit = true;
    // DeepSpeed ZeRO-3's parameter coordinator (deepspeed/runtime/zero/config.py defaults): how many
    // parameters it prefetches ahead, how near a module's next use must be for it to stay gathered,
    // and how many may be gathered at once before prefetching stops.
    std::int64_t prefetchBucket = 50'000'000;
    std::int64_t maxReuseDistance = 1'000'000'000;
    std::int64_t maxLiveParameters = 1'000'000'000;
    // HSDP (FSDP's hybrid sharding, torchtitan's dp_replicate): the data-parallel GPUs form this
    // many groups; FSDP shards within a group and replicates across them.
    std::int64_t replicas = 1;
    // FSDP frees each layer's gathered parameters after its forward and gathers them again in
    // backward; off (what torchtitan sets under pipeline parallelism) every layer stays gathered.
    bool reshardAfterForward = true;
    FsdpVersion fsdpVersion = FsdpVersion::Fsdp2;
    // FSDP1's use_orig_params (accelerate's, the Trainer's and Lightning's default): the optimizer
    // steps the original parameters, whose gradients are views of each unit's flat gradient.
    bool fsdpOrigParams = true;
    // FSDP without syncing gradients between micro-batches (no_sync(), FSDP2's
    // set_requires_gradient_sync(False), Lightning Fabric's no_backward_sync): each unit keeps its
    // unsharded gradient, summed over the step's micro-batches, until the last one reduces them.
    bool fsdpNoSync = false;
    // PyTorch DDP's gradient_as_bucket_view: each gradient a view into DDP's all-reduce buckets
    // instead of a tensor of its own copied into them (false, PyTorch's default).
    bool ddpBucketView = false;
    std::int64_t dataParallel = 1;
    std::int64_t tensorParallel = 1;
    std::int64_t pipelineParallel = 1;
    // Context parallelism: each micro-batch's sequence split over this many GPUs, attention run
    // as a ring (Megatron's --context-parallel-size, torchtitan's context_parallel_degree).
    std::int64_t contextParallel = 1;
    // Expert parallelism (MoE): each GPU of an expert-parallel group holds experts/ep of every
    // layer's experts; the group is carved out of the data-parallel GPUs, so an expert's states
    // are sharded over dp × cp / ep GPUs (Megatron-Core's expert data-parallel group).
    std::int64_t expertParallel = 1;
    // Megatron pads the vocabulary to a multiple of this × TP (--make-vocab-size-divisible-by, its
    // default 128; megatron/training/tokenizer/tokenizer.py, _vocab_size_with_padding). 1: as given.
    std::int64_t vocabDivisibleBy = 1;
    std::int64_t virtualStages = 1; // interleaved 1F1B model chunks per stage
    bool sequenceParallel = false;
    Offload offload = Offload::None;
    // GPUs whose processes share one node's CPU memory: each rank's optimizer allocates its own
    // offload buffers there, so the node needs them once per GPU (a DGX/HGX node has 8).
    std::int64_t gpusPerNode = 8;

    Recompute recompute = Recompute::None;
    // The layers' saved activations copied to CPU memory in forward (torchtune's OffloadActivations).
    bool activationOffload = false;
    // torch.utils.checkpoint(use_reentrant=...) under full recomputation in Hugging Face's code: the
    // reentrant checkpoint (transformers' default, gradient_checkpointing_enable) holds the
    // recomputed layer's output while that layer's backward runs; the non-reentrant one drops it.
    // (huggingFaceCheckpoint, reentrantCheckpoint)
    bool useReentrant = true;
    Attention attention = Attention::Eager;
    // Hugging Face's attention copies K and V to every head before the kernel (repeat_kv), which
    // then saves the copies: Mistral's, Mixtral's and Qwen2's flash_attention_2 before transformers
    // 4.48, and SDPA where it gets no enable_gqa (every release before 4.48). false: K and V reach
    // the kernel at the KV heads, as its Llama flash_attention_2 always did (kvRepeatPossible).
    bool kvRepeated = false;
    // The batch carries padding (a collator's padded rows rather than packed ones), so Hugging
    // Face's SDPA path gets the attention mask: no enable_gqa (K and V repeated to every head), and
    // SDPA runs the memory-efficient kernel, which saves the mask it is handed, made additive in the
    // model's dtype, for each layer (measured on an H200: h200-llama1b-bf16-sdpa-b4-s1024-padded).
    bool paddingMask = false;
    Loss loss = Loss::Standard;
    ExpertLoad expertLoad = ExpertLoad::EveryToken;
    // torchtune's packed dataset (datasets/_packed.py, PackedDataset): several samples share a
    // row and each token's position restarts with its sample, so the model is handed input_pos.
    bool packed = false;
    // Megatron-LM's data loader builds each sample's causal attention mask, b×1×s×s booleans,
    // and get_batch moves it to the GPU with the tokens (--create-attention-mask-in-dataloader,
    // its default; --no-create-attention-mask-in-dataloader turns it off).
    bool dataloaderMask = true;
    // Megatron-LM's rerun state machine (--rerun-mode validate_results, its default, or
    // report_stats) keeps every micro-batch a step fetched, to replay the step; since get_batch
    // writes the GPU copies into the dict it kept (Megatron-LM #4103, 2026-05-21) they stay on
    // the GPU until the next step begins. false: --rerun-mode disabled, or an older Megatron-LM.
    bool rerunKeepsBatches = true;
    // Megatron's MoE experts as Transformer Engine's grouped GEMM (--moe-grouped-gemm, TEGroupedMLP),
    // which spreads the experts' matmuls over TE's own cuBLAS streams, each with its workspace.
    bool groupedGemm = false;
    bool dropout = false;

    FineTune fineTune = FineTune::Full;
    std::int64_t loraRank = 16;
    unsigned loraTargets = LoraAll;
    bool loraDropout = false; // PEFT's lora_dropout > 0: each adapter keeps its own dropped copy of the input
    // PEFT 0.12 and later upcast the adapters of a 16-bit model to FP32 (get_peft_model's
    // autocast_adapter_dtype, on by default: BaseTuner._cast_adapter_dtype), and each adapter casts
    // its input to FP32 (peft/tuners/lora/layer.py, Linear.forward: x.to(lora_A.weight.dtype)): FP32 adapter
    // weights, gradients and optimizer states, FP32 tensors saved by the adapters, a 16-bit base and
    // stream. false: the adapters in the base's dtype (PEFT before 0.12, what a scenario file before
    // schema 3 that does not say means). (adaptersFp32Possible)
    bool adaptersFp32 = true;
    bool doubleQuant = true;          // QLoRA: bitsandbytes quantizes the NF4 blocks' absmax constants too
    std::int64_t trainableLayers = 2; // Freeze: only the top layers train

    Overhead overhead;

    std::int64_t gpuCount() const { return dataParallel * tensorParallel * pipelineParallel * contextParallel; }
    std::int64_t gpusOnNode() const { return std::min(gpusPerNode, gpuCount()); }
    bool fsdp() const { return sharding == Sharding::Fsdp && zeroStage == 3; }
    // Megatron-Core's DDP with FP32 main gradients; at ZeRO-1 its distributed optimizer.
    bool megatron() const { return sharding == Sharding::Megatron; }
    // Low-rank adapters train over a frozen base (LoRA, or QLoRA's 4-bit one).
    bool lora() const { return fineTune == FineTune::LoRA || fineTune == FineTune::QLoRA; }
    // Where adaptersFp32 can hold: PEFT's LoRA in Hugging Face's code, or its QLoRA over
    // bitsandbytes' 4-bit base, over a model trained in 16 bits without autocast, its base 16-bit
    // too (under autocast the adapters are FP32 anyway).
    bool adaptersFp32Possible() const
    {
        return implementation == Implementation::HuggingFace && lora() && precision == Precision::Bf16
            && baseDtype != BaseDtype::Fp32;
    }
    // bitsandbytes stores QLoRA's 4-bit weights as uint8 unless FSDP or ZeRO-3 shard them, which need
    // a float bnb_4bit_quant_storage; PEFT casts adapters only to a float base dtype
    // (_move_adapter_to_device_of_base_layer), so over uint8 storage they stay FP32 in every release.
    bool adaptersFp32Regardless() const { return fineTune == FineTune::QLoRA && zeroStage < 3; }
    // What --adapters-fp32 amounts to: the setting, or yes where the storage decides (what the GUI's
    // greyed-out checkbox shows, so that it never reads "no" beside FP32 adapters counted).
    bool adaptersFp32Effective() const { return adaptersFp32 || adaptersFp32Regardless(); }
    bool adaptersUpcast() const { return adaptersFp32Possible() && adaptersFp32Effective(); }
    // bitsandbytes has a paged version of the optimizer (PagedAdamW, PagedAdamW8bit, PagedLion).
    bool pageableOptimizer() const
    {
        return optimizer == Optimizer::AdamW || optimizer == Optimizer::AdamW8bit || optimizer == Optimizer::Lion;
    }
    // Hugging Face's attention receives a sliding-window mask: it leaves the mask out only for a
    // sequence shorter than the window (masking_utils.py _ignore_causal_mask_sdpa: kv_length <
    // local_attention_size).
    bool slidingWindowMasked() const { return arch.slidingWindow > 0 && sequence >= arch.slidingWindow; }
    // Hugging Face's SDPA path gets what it cannot run as modelled: soft-capping, which
    // scaled_dot_product_attention takes no argument for, or a sliding-window mask, under which
    // PyTorch runs its memory-efficient kernel (integrations/sdpa_attention.py).
    bool huggingFaceSdpaUnmodelled() const
    {
        return implementation == Implementation::HuggingFace && attention == Attention::Sdpa
            && (arch.softCapping || slidingWindowMasked());
    }
    // Liger Kernel's patch applies: Hugging Face's code for a dense Llama-family model with a SwiGLU
    // MLP (apply_liger_kernel_to_llama; its Mixtral and Gemma patches are not modelled).
    bool ligerPatchable() const
    {
        return implementation == Implementation::HuggingFace && arch.modeling == Modeling::Llama && arch.experts == 1
            && arch.mlp == MlpKind::SwiGlu;
    }
    // Hugging Face's code checkpoints every layer through torch.utils.checkpoint, where
    // use_reentrant matters; the reentrant checkpoint runs each layer's forward without grad and
    // recomputes it as its backward begins.
    bool huggingFaceCheckpoint() const
    {
        return implementation == Implementation::HuggingFace && recompute == Recompute::Full;
    }
    bool reentrantCheckpoint() const { return huggingFaceCheckpoint() && useReentrant; }
    // FSDP1 over Hugging Face's reentrant checkpoint: each layer's forward runs without grad, which
    // FSDP1's hooks read as a unit not run (no prefetch in backward, reshard hooks set in the
    // recomputation on its detached input).
    bool fsdp1UnderReentrantCheckpoint() const
    {
        return fsdp() && fsdpVersion == FsdpVersion::Fsdp1 && reentrantCheckpoint();
    }
    // QLoRA's 4-bit layers are bitsandbytes' (Hugging Face's and lit-gpt's code); torchtune's are
    // torchao's NF4, which saves its weight alone (dtypes/nf4tensor.py).
    bool bitsandbytesQuantizes() const
    {
        return fineTune == FineTune::QLoRA && implementation != Implementation::TorchTune;
    }
    // bitsandbytes' MatMul4Bit before 0.43.2 keeps its input for backward as an attribute of its
    // autograd context (autograd/_functions.py, ctx.tensors = (A, B); since then (None, B)).
    bool fourBitKeepsInput() const
    {
        return bitsandbytesQuantizes() && bitsandbytes == BitsandbytesRelease::Before0_43_2;
    }
    // Under the non-reentrant checkpoint forward runs with autograd on and the layer's graph stays
    // until backward ends, its saved tensors dropped and rebuilt: what those 4-bit linears keep in
    // their context, not being saved, stays from forward to the step's end, every layer's.
    bool fourBitInputsOutliveCheckpoint() const
    {
        return fourBitKeepsInput() && huggingFaceCheckpoint() && !useReentrant;
    }
    // Where the transformers release shapes the loss: its causal-LM loss over a Llama-family head
    // (Liger's fused loss replaces it).
    bool transformersLoss() const
    {
        return implementation == Implementation::HuggingFace && arch.modeling == Modeling::Llama && !liger;
    }
    // Where perLayerRope can hold: Hugging Face's code for a rotary model.
    bool perLayerRopePossible() const
    {
        return implementation == Implementation::HuggingFace && arch.learnedPositions == 0;
    }
    // Where kvRepeated can hold: Hugging Face's Llama-family code, a flash or SDPA kernel (eager
    // attention repeats K and V anyway) and more than one KV head for fewer than every head (a
    // single head's repetition stays a stride-0 view; under autocast the kernel's cast of an FP32
    // key copies it, as the release's RoPE tables' dtype decides: not modelled).
    bool kvRepeatPossible() const
    {
        return implementation == Implementation::HuggingFace && arch.modeling == Modeling::Llama
            && attention != Attention::Eager && arch.kvHeads > 1 && arch.kvHeads < arch.heads;
    }
    bool keysAndValuesRepeated() const { return (kvRepeated || sdpaGetsPaddingMask()) && kvRepeatPossible(); }
    // Where paddingMask can hold: Hugging Face's code under SDPA (flash_attention_2 unpads the batch
    // instead: not modelled; eager attention adds a mask anyway).
    bool paddingMaskPossible() const
    {
        return implementation == Implementation::HuggingFace && attention == Attention::Sdpa;
    }
    bool sdpaGetsPaddingMask() const { return paddingMask && paddingMaskPossible(); }
    // Megatron-Core's MoE layer, whose experts may run as Transformer Engine's grouped GEMM.
    bool megatronExperts() const { return arch.experts > 1 && implementation == Implementation::Megatron; }
    // The other codes' MoE block, Hugging Face's: its experts run one after another (expertLoad).
    bool expertsOneByOne() const { return arch.experts > 1 && implementation != Implementation::Megatron; }
    // DeepSpeed's ZeRO optimizers and their buffers (FSDP chosen below stage 3 is not in effect).
    bool deepSpeed() const { return !fsdp() && !megatron(); }
    // Whether DeepSpeed's zero.Init builds the model: ZeRO-3, not a 4-bit model, unless switched off.
    bool builtUnderZeroInit() const { return zeroStage == 3 && deepSpeed() && fineTune != FineTune::QLoRA && zeroInit; }
    // Hugging Face's code with DeepSpeed's ZeRO-3 over more than one GPU: where transformers may
    // build the model under zero.Init (zeroInit decides, but for a 4-bit model: never).
    bool huggingFaceUnderZero3() const
    {
        return zeroStage == 3 && deepSpeed() && implementation == Implementation::HuggingFace && shardGroup() > 1;
    }
    // Where zeroInit decides whether the model is built partitioned: not for a 4-bit model, which
    // reaches DeepSpeed whole whatever it says.
    bool zeroInitDecides() const { return huggingFaceUnderZero3() && fineTune != FineTune::QLoRA; }
    // Whether each GPU holds the whole model at start-up, before DeepSpeed's ZeRO-3 partitions it.
    bool placedWholeBeforePartitioning() const { return huggingFaceUnderZero3() && !builtUnderZeroInit(); }
    // torch.optim's AdamW stepping on the GPU: not bitsandbytes' kernels, not the CPU's offloaded step.
    bool torchAdamWOnGpu() const
    {
        return optimizer == Optimizer::AdamW && !pagedOptimizer && offload == Offload::None;
    }
    // Data parallelism without sharding outside Megatron-Core: PyTorch's DistributedDataParallel
    // (Hugging Face's Trainer and Accelerate, Lightning, torchtitan's replicate).
    bool pytorchDdp() const { return zeroStage == 0 && dataParallel > 1 && !megatron(); }
    std::int64_t microBatchesPerStep() const { return gradAccum > 0 ? gradAccum : pipelineParallel; }
    // The GPUs that share one copy of the sharded states: the data-parallel ones (or an HSDP
    // group) times the context-parallel ones, which hold the same weights (Megatron's distributed
    // optimizer shards over dp × cp; torchtitan's FSDP mesh is dp_shard × cp).
    std::int64_t shardGroup() const { return (fsdp() ? dataParallel / replicas : dataParallel) * contextParallel; }
    bool operator==(const Scenario &) const = default;
};

// Bytes per element of each kind of tensor under a scenario's precision settings.
struct DtypeBytes {
    int weight; // working (forward/backward) copy
    int gradient;
    int master;            // 0 when no FP32 master copy is kept
    int activation;        // what linear layers and attention compute in
    bool autocast;         // PyTorch autocast: FP32 weights cast to 16 bits per op
    int base;              // frozen base weights
    int stream;            // the residual stream, as the embedding outputs it
    int logits = 0;        // the logits as the loss reads them
    int gemmInput = 0;     // a linear layer's input as it is saved for backward: 1 B in FP8
    bool fsdpCast = false; // FSDP's mixed precision: FP32 shards gathered in 16 bits, no separate master copy
    int loaded = 0;        // the dtype from_pretrained builds the model in, which its buffers keep
};
DtypeBytes dtypeBytes(const Scenario &s);

// Whether PyTorch's SDPA runs its math composite rather than a fused kernel: Hugging Face's
// Llama-family code hands it FP32 inputs with enable_gqa, which the flash and cuDNN kernels (16-bit
// inputs alone) and the memory-efficient one (no enable_gqa) refuse
// (aten/src/ATen/native/transformers/cuda/sdp_utils.cpp). Measured on an H200 with PyTorch 2.11
// (tests/gpu/measure_training.py).
bool sdpaRunsMath(const Scenario &s);

// The positions torchtune's RoPE caches: the model's stated maximum (architecture.max_positions),
// else the training sequence.
std::int64_t rotaryCachePositions(const Scenario &s);

// What the optimizer keeps per trainable parameter: `states` tensors of `bytesPerState` each
// (AdamW: m and v in FP32; pure BF16 keeps them in BF16; bitsandbytes' 8-bit Adam one byte
// each). Adafactor's factored state is counted per matrix instead (`factored`).
struct OptimizerState {
    int states;
    int bytesPerState;
    bool factored;
    const char *what; // "Adam m and v"
    int bytesPerParam() const { return states * bytesPerState; }
};
OptimizerState optimizerState(const Scenario &s);
// The AdamW implementation in effect: under Auto, what the named code's defaults run today —
// foreach for lit-gpt's scripts, a fused kernel for the others.
OptimizerImpl optimizerImplOf(const Scenario &s);

// Text names used by the CLI, scenario files and presets ("mixed-bf16", "adamw-8bit", ...).
std::string_view toString(Precision v);
std::string_view toString(GradDtype v);
std::string_view toString(BaseDtype v);
std::string_view toString(Optimizer v);
std::string_view toString(Offload v);
std::string_view toString(Recompute v);
std::string_view toString(FineTune v);
std::string_view toString(Implementation v);
std::string_view toString(AmpStyle v);
std::string_view toString(Measure v);
std::string_view toString(ModuleLoading v);
std::string_view toString(NcclRelease v);
std::string_view toString(Attention v);
std::string_view toString(Loss v);
std::string_view toString(ExpertLoad v);
std::string_view toString(OptimizerImpl v);
std::string_view toString(Sharding v);
std::string_view toString(FsdpVersion v);
std::string_view toString(PyTorchRelease v);
std::string_view toString(TransformersRelease v);
std::string_view toString(BitsandbytesRelease v);
std::optional<Precision> parsePrecision(std::string_view text);
std::optional<GradDtype> parseGradDtype(std::string_view text);
std::optional<BaseDtype> parseBaseDtype(std::string_view text);
std::optional<Optimizer> parseOptimizer(std::string_view text);
std::optional<Offload> parseOffload(std::string_view text);
std::optional<Recompute> parseRecompute(std::string_view text);
std::optional<FineTune> parseFineTune(std::string_view text);
std::optional<Implementation> parseImplementation(std::string_view text);
std::optional<AmpStyle> parseAmpStyle(std::string_view text);
std::optional<Measure> parseMeasure(std::string_view text);
std::optional<ModuleLoading> parseModuleLoading(std::string_view text);
std::optional<NcclRelease> parseNcclRelease(std::string_view text);
// `overhead: yes|no`, before measure existed: yes is what nvidia-smi shows, no the tensors alone.
std::optional<Measure> parseOverheadOn(std::string_view text);
std::optional<Attention> parseAttention(std::string_view text);
std::optional<Loss> parseLoss(std::string_view text);
std::optional<ExpertLoad> parseExpertLoad(std::string_view text);
std::optional<OptimizerImpl> parseOptimizerImpl(std::string_view text);
std::optional<Sharding> parseSharding(std::string_view text);
std::optional<FsdpVersion> parseFsdpVersion(std::string_view text);
// A release as its name ("2.2+", "2.1") or any version number ("1.13", "2.1.2", "2.5").
std::optional<PyTorchRelease> parsePyTorchRelease(std::string_view text);
std::optional<TransformersRelease> parseTransformersRelease(std::string_view text);
std::optional<BitsandbytesRelease> parseBitsandbytesRelease(std::string_view text);
// --flash-attention yes|no, the older spelling: yes is the flash kernel, no is eager attention.
std::optional<Attention> parseFlashAttention(std::string_view text);
std::optional<MlpKind> parseMlp(std::string_view text);
std::optional<NormKind> parseNorm(std::string_view text);
std::optional<Modeling> parseModeling(std::string_view text);
std::optional<bool> parseYesNo(std::string_view text);

// "q,k,v,o,gate,up,down,head", "all" or "attention" <-> LoraTarget bits.
std::string loraTargetsToString(unsigned targets);
std::optional<unsigned> parseLoraTargets(std::string_view text);
// Each target bit with its name, in the order the list reads.
std::span<const std::pair<unsigned, std::string_view>> loraTargetNames();

// The allowed words of each enumeration, for error messages: "fp32|mixed-fp16|...".
std::string_view allowedPrecisions();
std::string_view allowedGradDtypes();
std::string_view allowedBaseDtypes();
std::string_view allowedOptimizers();
std::string_view allowedOffloads();
std::string_view allowedRecomputes();
std::string_view allowedFineTunes();
std::string_view allowedImplementations();
std::string_view allowedAmpStyles();
std::string_view allowedMeasures();
std::string_view allowedModuleLoadings();
std::string_view allowedNcclReleases();
std::string_view allowedAttentions();
std::string_view allowedLosses();
std::string_view allowedExpertLoads();
std::string_view allowedOptimizerImpls();
std::string_view allowedShardings();
std::string_view allowedFsdpVersions();
std::string_view allowedPyTorchReleases();
std::string_view allowedTransformersReleases();
std::string_view allowedBitsandbytesReleases();

} // namespace vl
