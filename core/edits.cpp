#include "core/edits.h"

#include "core/estimate.h"
#include "core/fields.h"
#include "core/presets.h"

#include <algorithm>
#include <numeric>

namespace vl {

namespace {

bool contains(std::span<const std::string_view> names, std::string_view name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

Scenario withImplementationDefaults(Scenario s, std::span<const std::string_view> keep)
{
    const auto free = [&](std::initializer_list<std::string_view> names) {
        return std::none_of(names.begin(), names.end(), [&](std::string_view name) { return contains(keep, name); });
    };
    if (free({"liger"}) && !s.ligerPatchable())
        s.liger = false; // Liger Kernel patches Hugging Face's dense Llama-family modules
    if (s.implementation == Implementation::Megatron)
        return s;
    // GPT-2 and BERT run eager attention with dropout; Llama and lit-gpt's GPT-NeoX blocks no dropout.
    const bool gpt2OrBert = s.arch.modeling == Modeling::Gpt2 || s.arch.modeling == Modeling::Bert;
    if (free({"attention", "flash-attention"})) {
        if (s.implementation == Implementation::TorchTitan || s.implementation == Implementation::TorchTune)
            s.attention = Attention::Sdpa;
        else if (s.implementation == Implementation::LitGpt)
            s.attention = Attention::Flash;
        else if (gpt2OrBert)
            s.attention = Attention::Eager;
    }
    // Selective recomputation is Megatron's and torchtitan's (its op-level policy); the others
    // checkpoint whole layers.
    if (free({"recompute"}) && s.recompute == Recompute::Selective && s.implementation != Implementation::TorchTitan)
        s.recompute = Recompute::Full;
    if (s.implementation == Implementation::LitGpt) {
        // finetune/lora.py: bf16-true (or bf16-mixed, Lightning's autocast, but not with
        // quantization), no checkpointing on one GPU
        const bool autocastMixed = (s.precision == Precision::MixedBf16 || s.precision == Precision::MixedFp16)
            && s.ampStyle == AmpStyle::Autocast && s.fineTune != FineTune::QLoRA;
        if (free({"precision"}) && !autocastMixed)
            s.precision = Precision::Bf16;
        if (free({"recompute"}))
            s.recompute = Recompute::None;
    }
    // torchtune trains in the model's dtype (its configs' dtype: bf16), no autocast.
    if (s.implementation == Implementation::TorchTune && free({"precision"}) && s.precision != Precision::Fp32)
        s.precision = Precision::Bf16;
    if (free({"dropout"}) && !gpt2OrBert)
        s.dropout = false;
    // Expert parallelism is Megatron's: Hugging Face's Mixtral runs every expert on each GPU.
    if (free({"ep"}))
        s.expertParallel = 1;
    return s;
}

Scenario withAmpStyleDefaults(Scenario s, std::span<const std::string_view> given)
{
    const bool mixed = s.precision == Precision::MixedBf16 || s.precision == Precision::MixedFp16;
    if (s.implementation == Implementation::LitGpt && mixed && !contains(given, "amp-style")
        && (contains(given, "precision") || contains(given, "implementation")))
        s.ampStyle = AmpStyle::Autocast;
    return s;
}

Scenario withShardingDefaults(Scenario s, std::span<const std::string_view> given)
{
    const bool zero = contains(given, "zero"), offload = contains(given, "offload");
    if (zero && !offload) {
        if (s.zeroStage == 0)
            s.offload = Offload::None;
        else if (s.zeroStage < 3 && s.offload == Offload::OptimizerAndParams)
            s.offload = Offload::Optimizer;
    } else if (offload && !zero) {
        if (s.offload == Offload::OptimizerAndParams)
            s.zeroStage = 3;
        else if (s.offload == Offload::Optimizer && s.zeroStage == 0)
            s.zeroStage = 2;
    }
    return s;
}

std::int64_t kvHeadsFollowing(const Architecture &before, std::int64_t heads)
{
    return before.kvHeads == before.heads ? heads : std::gcd(before.kvHeads, heads);
}

Scenario withArchitectureDefaults(Scenario s, const Architecture &before, std::span<const std::string_view> given)
{
    const auto isGiven = [&](std::string_view name) { return contains(given, name); };
    const bool reshaped = std::any_of(given.begin(), given.end(), [](std::string_view name) {
        const FieldSpec *field = findField(name);
        return field && field->shapesModel;
    });
    if (reshaped && !isGiven("params"))
        s.arch.fixedParams = 0;
    if (isGiven("heads") && !isGiven("kv-heads"))
        s.arch.kvHeads = kvHeadsFollowing(before, s.arch.heads);
    if (isGiven("heads") && !isGiven("hidden"))
        s.arch.hidden = headsDividingHidden(s.arch);
    return s;
}

Scenario withModel(Scenario s, const Architecture &arch)
{
    s.arch = arch;
    if (arch.heads % s.tensorParallel != 0 || arch.kvHeads % s.tensorParallel != 0)
        s.tensorParallel = 1;
    s.pipelineParallel = std::min(s.pipelineParallel, arch.layers);
    s.trainableLayers = std::min(s.trainableLayers, arch.layers);
    return withAttentionDefaults(std::move(s), {});
}

Scenario withAttentionDefaults(Scenario s, std::span<const std::string_view> given)
{
    if (contains(given, "attention") || contains(given, "flash-attention"))
        return s;
    if (s.huggingFaceSdpaUnmodelled())
        s.attention = Attention::Eager;
    // Context parallelism passes keys and values around a ring of flash kernels: Megatron's through
    // Transformer Engine's DotProductAttention, torchtitan's through SDPA's.
    if (s.contextParallel > 1 && s.attention == Attention::Eager) {
        if (s.implementation == Implementation::Megatron)
            s.attention = Attention::Flash;
        else if (s.implementation == Implementation::TorchTitan)
            s.attention = Attention::Sdpa;
    }
    return s;
}

Scenario withOverheadDefaults(Scenario s, std::span<const std::string_view> given)
{
    if (contains(given, "cuda-loading") && !contains(given, "cuda-context"))
        s.overhead.cudaContext = cudaContextOf(s.overhead.moduleLoading);
    return s;
}

Scenario withGpu(Scenario s, const GpuPreset &gpu, std::span<const std::string_view> given)
{
    if (gpu.computeCapability > 0 && !contains(given, "compute-capability"))
        s.overhead.computeCapability = gpu.computeCapability;
    if (!contains(given, "nvls"))
        s.overhead.nvls = gpu.nvls;
    return s;
}

Scenario withLigerDefaults(Scenario s, std::span<const std::string_view> given)
{
    if (!s.liger || !contains(given, "liger"))
        return s;
    if (!contains(given, "loss"))
        s.loss = Loss::Standard;
    if (s.lora() && !contains(given, "lora-targets") && (s.loraTargets & LoraHead)) {
        s.loraTargets &= ~static_cast<unsigned>(LoraHead);
        if (s.loraTargets == 0)
            s.loraTargets = LoraQ | LoraV;
    }
    return s;
}

Scenario withLoraTargetDefaults(Scenario s, std::span<const std::string_view> given)
{
    const bool lora = s.lora();
    const bool met = contains(given, "implementation") || contains(given, "finetune");
    // What the code can adapt: lit-gpt its fused q/k/v projection and head.
    const unsigned allowed = s.implementation == Implementation::LitGpt ? LoraLitgpt : LoraAnyTarget;
    if (lora && met && !contains(given, "lora-targets") && (s.loraTargets & ~allowed) != 0)
        s.loraTargets = LoraQ | LoraV; // finetune/lora.py's defaults
    return s;
}

Scenario withTorchtitanSequenceParallel(Scenario s, std::span<const std::string_view> given)
{
    const bool met = contains(given, "implementation") || contains(given, "tp");
    if (s.implementation == Implementation::TorchTitan && met && !contains(given, "sp"))
        s.sequenceParallel = s.tensorParallel > 1; // apply_tp: SequenceParallel norms with every TP plan
    return s;
}

Scenario withFsdpDefaults(Scenario s, std::span<const std::string_view> given)
{
    const bool met = contains(given, "implementation") || contains(given, "sharding");
    if (!met || s.implementation == Implementation::Megatron)
        return s;
    const bool wrapsFsdp1 = s.implementation == Implementation::HuggingFace
        || s.implementation == Implementation::LitGpt;
    if (!contains(given, "fsdp-version"))
        s.fsdpVersion = wrapsFsdp1 ? FsdpVersion::Fsdp1 : FsdpVersion::Fsdp2;
    if (!contains(given, "no-sync"))
        s.fsdpNoSync = wrapsFsdp1;
    return s;
}

Scenario withEditRules(Scenario s, const Architecture &before, std::span<const std::string_view> given)
{
    s = withArchitectureDefaults(std::move(s), before, given);
    s = withShardingDefaults(std::move(s), given);
    s = withOverheadDefaults(std::move(s), given);
    if (contains(given, "implementation"))
        s = withImplementationDefaults(std::move(s), given);
    s = withAmpStyleDefaults(std::move(s), given);
    s = withTorchtitanSequenceParallel(std::move(s), given);
    s = withFsdpDefaults(std::move(s), given);
    s = withLigerDefaults(std::move(s), given);
    s = withAttentionDefaults(std::move(s), given);
    return withLoraTargetDefaults(std::move(s), given);
}

// An RMSNorm composed of torch ops (mean among them), softmax, log_softmax; not lit-gpt's GPT-NeoX
// blocks (LayerNorm, SDPA, FP32 logits its loop keeps anyway) nor Liger's kernels, which replace
// the norm and the loss.
bool pytorchShapesSavedTensors(const Scenario &s)
{
    return s.implementation != Implementation::Megatron && s.arch.modeling != Modeling::GptNeox
        && (!s.liger || s.attention == Attention::Eager);
}

// PyTorch's foreach AdamW on the GPU (not bitsandbytes' kernels, not the CPU's offloaded step).
bool pytorchShapesOptimizerStep(const Scenario &s)
{
    return s.torchAdamWOnGpu() && optimizerImplOf(s) == OptimizerImpl::Foreach;
}

unsigned loraTargetsPresent(const Architecture &a)
{
    return a.experts > 1 ? LoraAnyTarget : LoraAnyTarget & ~static_cast<unsigned>(LoraRouter);
}

bool fieldInEffect(const Scenario &s, std::string_view field)
{
    const bool mixed = s.precision == Precision::MixedFp16 || s.precision == Precision::MixedBf16;
    const bool fp8 = s.precision == Precision::Fp8; // always a master copy: Megatron's recipe
    const bool lora = s.lora();
    // Under FSDP, mixed precision is FSDP's own parameter cast: no master copy, no autocast.
    if (field == "master-weights")
        return fp8 || (mixed && s.ampStyle == AmpStyle::MasterCopy && !s.fsdp());
    if (field == "amp-style")
        return mixed && !s.fsdp() && !s.megatron();
    if (field == "base-dtype")
        return mixed && s.ampStyle == AmpStyle::Autocast && !s.fsdp() && !s.megatron() && s.fineTune != FineTune::Full;
    if (field == "sharding") // FSDP or DeepSpeed at stage 3; Megatron or DeepSpeed below stage 2
        return s.zeroStage != 2;
    if (field == "replicate" || field == "reshard-after-forward" || field == "fsdp-version")
        return s.fsdp();
    if (field == "no-sync")
        return s.fsdp() && s.microBatchesPerStep() > 1;
    if (field == "fsdp-orig-params")
        return s.fsdp() && s.fsdpVersion == FsdpVersion::Fsdp1;
    if (field == "ddp-bucket-view")
        return s.pytorchDdp();
    if (field == "parallel-residual")
        return s.arch.modeling == Modeling::GptNeox;
    if (field == "ep") // Megatron's expert parallelism; Hugging Face runs every expert on each GPU
        return s.arch.experts > 1 && s.implementation == Implementation::Megatron;
    if (field == "prefetch-bucket" || field == "max-reuse-distance" || field == "max-live-parameters")
        return s.zeroStage == 3 && s.deepSpeed() && s.shardGroup() > 1;
    if (field == "reduce-bucket")
        return s.zeroStage >= 1 && s.deepSpeed();
    if (field == "zero-init") // transformers' from_pretrained; a 4-bit model is never built under it
        return s.zeroInitDecides();
    if (field == "overlap-comm") // stage 3 allocates one bucket whatever it says
        return (s.zeroStage == 1 || s.zeroStage == 2) && s.deepSpeed() && s.reduceBucket > 0;
    if (field == "sp")
        return s.tensorParallel > 1;
    if (field == "lora-rank" || field == "lora-dropout" || field == "lora-targets")
        return lora;
    const bool torchCode = s.implementation == Implementation::HuggingFace
        || s.implementation == Implementation::TorchTitan || s.implementation == Implementation::TorchTune;
    if (field == "activation-offload")
        return torchCode;
    if (field == "use-reentrant") // torch.utils.checkpoint as transformers' gradient checkpointing calls it
        return s.huggingFaceCheckpoint();
    if (field == "optimizer-impl") // torch.optim's AdamW: not bitsandbytes' kernels, not the CPU's
        return s.torchAdamWOnGpu();
    if (field == "dataloader-mask" || field == "rerun-keeps-batches") // Megatron-LM's get_batch (pretrain_gpt.py)
        return s.megatron();
    if (field == "moe-grouped-gemm")
        return s.megatronExperts();
    if (field == "expert-load")
        return s.expertsOneByOne();
    if (field == "packed" || field == "max-positions") // what torchtune's RoPE keeps
        return s.implementation == Implementation::TorchTune;
    if (field == "optimizer-in-backward")
        return torchCode && s.microBatchesPerStep() == 1 && s.zeroStage == 0 && s.tensorParallel == 1
            && s.pipelineParallel == 1;
    if (field == "gradients-kept") // Megatron's buffer and DDP's bucket views are kept anyway; in
        // backward each gradient is freed
        return !s.megatron() && !s.optimizerInBackward && !(s.pytorchDdp() && s.ddpBucketView);
    if (field == "pytorch")
        return pytorchShapesSavedTensors(s) || pytorchShapesOptimizerStep(s);
    if (field == "transformers")
        return s.transformersLoss();
    if (field == "liger")
        return s.ligerPatchable();
    if (field == "per-layer-rope")
        return s.perLayerRopePossible();
    if (field == "kv-repeat")
        return s.kvRepeatPossible();
    if (field == "padding-mask")
        return s.paddingMaskPossible();
    if (field == "adapters-fp32")
        return s.adaptersFp32Possible() && !s.adaptersFp32Regardless();
    if (field == "paged-optimizer")
        return s.pageableOptimizer() && s.zeroStage == 0 && s.tensorParallel == 1;
    if (field == "double-quant" || field == "bitsandbytes") // bitsandbytes' choices
        return s.bitsandbytesQuantizes();
    // NCCL's NVLS buffers (nvlsBuffersOnNvSwitch): --nvls matters where some communicator would
    // have them, --nccl where one would under 2.20 (which sets them up for every communicator),
    // --gpus-per-node where one would on the largest node allowed.
    const auto nvlsWith = [&](auto &&edit) {
        Scenario other = s;
        edit(other);
        return s.overhead.runtimeCounted() && nvlsBuffersOnNvSwitch(other) > 0;
    };
    if (field == "nvls")
        return s.overhead.runtimeCounted() && nvlsBuffersOnNvSwitch(s) > 0;
    if (field == "nccl")
        return s.overhead.nvls && nvlsWith([](Scenario &o) { o.overhead.nccl = NcclRelease::Before2_21; });
    if (field == "gpus-per-node") // also how many GPUs' offloaded states a node's CPU memory holds
        return s.offload != Offload::None || (s.overhead.nvls && nvlsWith([](Scenario &o) {
                                                  o.gpusPerNode = allowedRange(o, "gpus-per-node")->second;
                                              }));
    if (field == "allocator-percent")
        return s.overhead.reserveCounted();
    if (field == "cuda-context" || field == "cuda-loading")
        return s.overhead.runtimeCounted();
    return true;
}

} // namespace vl
