#include "core/estimate.h"

#include "core/allocator.h"
#include "core/pipeline.h"
#include "core/savedtensors.h"
#include "core/timeline.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace vl {

namespace {

constexpr std::array<std::pair<ItemId, std::string_view>, kItemCount> kItemNames{{
    {ItemId::Weights, "weights"},
    {ItemId::LoraAdapters, "lora_adapters"},
    {ItemId::Zero3GatheredParams, "zero3_gathered_params"},
    {ItemId::Zero3PersistentParams, "zero3_persistent_params"},
    {ItemId::FsdpUnshardedParams, "fsdp_unsharded_params"},
    {ItemId::FsdpAllGatherBuffers, "fsdp_all_gather_buffers"},
    {ItemId::QloraDequantized, "qlora_dequantized_weight"},
    {ItemId::Fp8WeightCache, "fp8_weight_cache"},
    {ItemId::RotaryTable, "rotary_table"},
    {ItemId::ContextParallelCopies, "context_parallel_copies"},
    {ItemId::ModelBeforePartitioning, "model_before_partitioning"},
    {ItemId::Gradients, "gradients"},
    {ItemId::FsdpGradientBuffers, "fsdp_gradient_buffers"},
    {ItemId::FsdpAccumulatedGradients, "fsdp_accumulated_gradients"},
    {ItemId::DdpGradientBuckets, "ddp_gradient_buckets"},
    {ItemId::ZeroReduceBucket, "zero_reduce_bucket"},
    {ItemId::ZeroFp32Gradients, "zero_fp32_gradients"},
    {ItemId::OffloadGradientBuffer, "offload_gradient_buffer"},
    {ItemId::OffloadParamBuffer, "offload_param_buffer"},
    {ItemId::OffloadFp32Gradients, "offload_fp32_gradients"},
    {ItemId::OffloadHostGradientBuffer, "offload_host_gradient_buffer"},
    {ItemId::OffloadAccumulatedGradients, "offload_accumulated_gradients"},
    {ItemId::MasterWeights, "master_weights"},
    {ItemId::OptimizerMoments, "optimizer_moments"},
    {ItemId::PagedOptimizerStates, "paged_optimizer_states"},
    {ItemId::OptimizerStepBuffer, "optimizer_step_buffer"},
    {ItemId::LayerActivations, "layer_activations"},
    {ItemId::EmbeddingActivations, "embedding_activations"},
    {ItemId::InputBatch, "input_batch"},
    {ItemId::BatchesKept, "batches_kept"},
    {ItemId::PipelineGradients, "pipeline_gradients"},
    {ItemId::PipelineOutputAndNextInput, "pipeline_output_and_next_input"},
    {ItemId::PipelineInputsHeld, "pipeline_inputs_held"},
    {ItemId::PipelineInputsKept, "pipeline_inputs_kept"},
    {ItemId::Logits, "logits"},
    {ItemId::RecomputeBuffer, "recompute_buffer"},
    {ItemId::CheckpointsKeptByFsdp, "checkpoints_kept_by_fsdp"},
    {ItemId::ActivationOffloadWindow, "activation_offload_window"},
    {ItemId::WeightCasts, "weight_casts"},
    {ItemId::HeadActivations, "head_activations"},
    {ItemId::BackwardWorkingSet, "backward_working_set"},
    {ItemId::GemmWorkspaces, "gemm_workspaces"},
    {ItemId::GatherBuffer, "gather_buffer"},
    {ItemId::CudaContext, "cuda_context"},
    {ItemId::WeightBlockTails, "weight_block_tails"},
    {ItemId::FreedLogitsBlock, "freed_logits_block"},
    {ItemId::AllocatorReserve, "allocator_reserve"},
    {ItemId::CommBuffers, "comm_buffers"},
    {ItemId::NvlsBuffers, "nvls_buffers"},
}};

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
    if (gated(a.mlp))
        m[count++] = {a.hidden, a.ffn, experts, LoraGate};
    m[count++] = {a.hidden, a.ffn, experts, LoraUp};
    m[count++] = {a.ffn, a.hidden, experts, LoraDown};
    if (a.experts > 1)
        m[count++] = {a.hidden, experts, 1, LoraRouter};
    return m;
}

// Each LoRA tensor of one layer: lora_A (r × in) and lora_B (out × r) of every adapted matrix,
// with how many copies of it the layer has (MoE experts).
template <class Visit>
void forEachLoraTensor(const Scenario &s, Visit &&visit)
{
    int count = 0;
    const auto matrices = layerMatrices(s.arch, count);
    for (int i = 0; i < count; ++i)
        if (matrices[i].loraBit & s.loraTargets) {
            visit(s.loraRank * matrices[i].in, matrices[i].copies);
            visit(s.loraRank * matrices[i].out, matrices[i].copies);
        }
}

std::int64_t loraParamsPerLayer(const Scenario &s)
{
    std::int64_t total = 0;
    forEachLoraTensor(s, [&](std::int64_t elements, std::int64_t copies) { total += elements * copies; });
    return total;
}

// LoRA on the LM head (PEFT's Linear around lm_head): lora_A is r × h, lora_B vocab × r.
std::int64_t loraHeadParams(const Scenario &s)
{
    return (s.loraTargets & LoraHead) ? s.loraRank * (s.arch.hidden + s.arch.vocab) : 0;
}

// Adafactor keeps one row and one column accumulator per matrix instead of a full second moment;
// a GPU holds experts/ep of each layer's experts.
std::int64_t adafactorStatePerLayer(const Architecture &a, std::int64_t expertParallel)
{
    int count = 0;
    const auto matrices = layerMatrices(a, count);
    std::int64_t total = 0;
    for (int i = 0; i < count; ++i)
        total += (matrices[i].in + matrices[i].out)
            * (matrices[i].copies > 1 ? matrices[i].copies / expertParallel : 1);
    return total;
}

// bitsandbytes' optimizers treat each tensor by its size (bitsandbytes/optim/optimizer.py): the
// paged ones allocate its states in CUDA managed memory from 1e5 elements on, and with
// torch.zeros_like on the GPU below that (Optimizer8bit.get_state_buffer); the 8-bit ones keep
// FP32 states for a tensor under min_8bit_size, 4096 elements (Optimizer2State.init_state).
constexpr std::int64_t kPagedMinElements = 100000;
// DeepSpeed ZeRO-3's stage3_param_persistence_threshold (runtime/zero/config.py default): a
// parameter of at most this many elements is never released.
constexpr std::int64_t kZero3PersistenceThreshold = 100000;
constexpr std::int64_t kMin8bitElements = 4096;

// A tensor's elements if it has fewer than `threshold`, else none.
std::int64_t below(std::int64_t elements, std::int64_t threshold)
{
    return elements < threshold ? elements : 0;
}

// The elements of one layer's tensors with fewer than `threshold` each: norms' weights and
// biases, the linears' biases and, for small shapes, weight matrices (`withMatrices`: false when
// the layer's count was given directly and its matrices are not known one by one). A GPU holds
// experts/ep of the experts.
std::int64_t layerTensorsBelow(const Scenario &s, std::int64_t threshold, bool withMatrices)
{
    const Architecture &a = s.arch;
    const std::int64_t d = a.effectiveHeadDim();
    const std::int64_t experts = a.experts / s.expertParallel;
    const auto small = [&](std::int64_t elements) { return below(elements, threshold); };
    std::int64_t total = a.normsPerLayer * (a.norm == NormKind::LayerNorm ? 2 : 1) * small(a.hidden);
    if (a.qkvBias || a.linearBias)
        total += small(a.heads * d) + 2 * small(a.kvHeads * d);
    if (a.linearBias)
        total += small(a.hidden) + experts * ((gated(a.mlp) ? 2 : 1) * small(a.ffn) + small(a.hidden));
    if (withMatrices) {
        int count = 0;
        const auto matrices = layerMatrices(a, count);
        for (int i = 0; i < count; ++i)
            total += small(matrices[i].in * matrices[i].out) * (matrices[i].copies > 1 ? experts : 1);
    }
    return total;
}

// The same for LoRA's adapters.
std::int64_t loraTensorsBelow(const Scenario &s, std::int64_t threshold)
{
    std::int64_t total = 0;
    forEachLoraTensor(
        s, [&](std::int64_t elements, std::int64_t copies) { total += below(elements, threshold) * copies; });
    return total;
}

// Under autocast, whether the base weights are cast to 16 bits as a linear reads them: FP32
// weights are (trained ones, or a frozen base kept in FP32); a frozen base already 16-bit is
// never cast (autocast casts FP32 inputs only).
bool autocastCastsBase(const Scenario &s, const DtypeBytes &dt)
{
    return baseTrains(s) || dt.base == 4;
}

// The largest single LoRA tensor, of a layer or of the head (lora_A r × h, lora_B vocab × r).
std::int64_t largestLoraTensor(const Scenario &s)
{
    std::int64_t largest = (s.loraTargets & LoraHead) ? s.loraRank * std::max(s.arch.hidden, s.arch.vocab) : 0;
    forEachLoraTensor(s, [&](std::int64_t elements, std::int64_t) { largest = std::max(largest, elements); });
    return largest;
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

// The embedding on one tensor-parallel GPU: its vocabulary slice, and the learned positions
// whole (Megatron's LanguageModelEmbedding keeps them in a plain torch.nn.Embedding,
// models/common/embeddings/language_model_embedding.py; only the word embeddings are vocab-parallel).
std::int64_t embeddingOnRank(const ParameterCounts &counts, std::int64_t t)
{
    return ceilDiv(counts.embedding - counts.replicatedEmbedding, t) + counts.replicatedEmbedding;
}

std::int64_t overlap(StageLayers a, std::int64_t first, std::int64_t last)
{
    return std::max<std::int64_t>(0, std::min(a.last, last) - std::max(a.first, first));
}

// Which component each item belongs to, as a table made at compile time.
constexpr Component itemComponent(ItemId id)
{
    switch (id) {
    case ItemId::Weights:
    case ItemId::LoraAdapters:
    case ItemId::Zero3GatheredParams:
    case ItemId::Zero3PersistentParams:
    case ItemId::FsdpUnshardedParams:
    case ItemId::FsdpAllGatherBuffers:
    case ItemId::QloraDequantized:
    case ItemId::Fp8WeightCache:
    case ItemId::RotaryTable:
    case ItemId::ContextParallelCopies:
    case ItemId::ModelBeforePartitioning:
    case ItemId::OffloadParamBuffer: return Component::Parameters;
    case ItemId::Gradients:
    case ItemId::FsdpGradientBuffers:
    case ItemId::FsdpAccumulatedGradients:
    case ItemId::DdpGradientBuckets:
    case ItemId::ZeroReduceBucket:
    case ItemId::ZeroFp32Gradients:
    case ItemId::OffloadGradientBuffer:
    case ItemId::OffloadFp32Gradients:
    case ItemId::OffloadHostGradientBuffer:
    case ItemId::OffloadAccumulatedGradients: return Component::Gradients;
    case ItemId::MasterWeights:
    case ItemId::OptimizerMoments:
    case ItemId::PagedOptimizerStates:
    case ItemId::OptimizerStepBuffer: return Component::OptimizerStates;
    case ItemId::LayerActivations:
    case ItemId::EmbeddingActivations:
    case ItemId::InputBatch:
    case ItemId::BatchesKept:
    case ItemId::PipelineGradients:
    case ItemId::PipelineOutputAndNextInput:
    case ItemId::PipelineInputsHeld:
    case ItemId::PipelineInputsKept:
    case ItemId::Logits:
    case ItemId::RecomputeBuffer:
    case ItemId::CheckpointsKeptByFsdp:
    case ItemId::ActivationOffloadWindow:
    case ItemId::WeightCasts:
    case ItemId::HeadActivations:
    case ItemId::BackwardWorkingSet: return Component::Activations;
    case ItemId::GemmWorkspaces:
    case ItemId::GatherBuffer:
    case ItemId::CudaContext:
    case ItemId::WeightBlockTails:
    case ItemId::FreedLogitsBlock:
    case ItemId::AllocatorReserve:
    case ItemId::CommBuffers:
    case ItemId::NvlsBuffers: return Component::Overhead;
    }
    return Component::Overhead;
}
constexpr auto kItemComponents = [] {
    std::array<Component, kItemCount> table{};
    for (int i = 0; i < kItemCount; ++i)
        table[static_cast<std::size_t>(i)] = itemComponent(static_cast<ItemId>(i));
    return table;
}();

// An item's bytes into the breakdown: the item's, its component's and the totals, as each item
// is recorded (summing every component from all the items once took a quarter of an estimate).
// `host`: what the item holds in CPU memory rather than on the GPU.
void record(Breakdown &b, ItemId id, Bytes bytes, Bytes host)
{
    const auto i = static_cast<std::size_t>(id);
    b.itemBytes[i] += bytes;
    b.itemHostBytes[i] += host;
    b.present[i] = true;
    b.componentBytes[static_cast<std::size_t>(kItemComponents[i])] += bytes;
    b.total += bytes;
    b.host += host;
}

// Where the numbers go. Numbers only: adds bytes. With text: also asks each item for its formula.
struct NumbersSink {
    Breakdown &b;
    template <class Formula>
    void add(ItemId id, Bytes bytes, Formula &&, Bytes host = 0)
    {
        record(b, id, bytes, host);
    }
};

struct TextSink {
    Breakdown &b;
    std::vector<ExplainedItem> &items;
    template <class Formula>
    void add(ItemId id, Bytes bytes, Formula &&formula, Bytes host = 0)
    {
        record(b, id, bytes, host);
        items.push_back({id, bytes, formula(), host});
    }
};

std::string times(std::int64_t value)
{
    return " × " + std::to_string(value);
}

std::string shardText(const Scenario &s, bool sharded)
{
    if (!sharded || s.shardGroup() == 1)
        return {};
    std::string text = " ÷ " + std::to_string(s.shardGroup()) + " GPUs (" + std::string(shardingName(s))
        + (s.replicas > 1 && s.fsdp() ? " group)" : ")");
    if (s.expertParallel > 1 && s.arch.experts > 1)
        text += ", experts' ÷ " + std::to_string(std::max<std::int64_t>(s.shardGroup() / s.expertParallel, 1));
    return text;
}

std::string equals(Bytes bytes, Units units)
{
    return " = " + formatBytes(bytes, units);
}

// One NCCL communicator: the process group it serves and where its ranks are: `runs` runs of
// `run` consecutive ranks, `stride` ranks apart (the product of the parallel dimensions ordered
// inside it). `bulk`: the step moves tensors over it, which NCCL may run as NVLS; otherwise only a
// few bytes (barriers, the gradients' norm).
struct Communicator {
    const char *group = "";
    std::int64_t run = 1, runs = 1, stride = 1;
    bool bulk = true;
    // Set up before the model is placed on the GPU (the launcher's barriers): there at start-up.
    bool beforeTheModel = false;
    // How many of a node's GPUs it joins: NCCL's NVLS heads.
    std::int64_t onNode(std::int64_t gpusPerNode) const
    {
        if (run >= gpusPerNode)
            return gpusPerNode;
        return run * std::min(runs, std::max<std::int64_t>(1, gpusPerNode / stride));
    }
};

// The process groups the training step runs collectives on, each with a communicator of its
// own: ProcessGroupNCCL creates one per group, at the group's first collective
// (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp, getNCCLComm). Ranks are ordered as
// Megatron-Core (parallel_state.py, order "tp-cp-ep-dp-pp") and torchtitan (parallel_dims.py,
// build_mesh: pp, dp_replicate, dp_shard, cp, tp) order them: TP innermost.
struct Communicators {
    std::array<Communicator, 5> list;
    int count = 0;
    void add(Communicator c)
    {
        if (c.run * c.runs > 1)
            list[std::size_t(count++)] = c;
    }
    void contiguous(const char *group, std::int64_t gpus, bool bulk = true, bool beforeTheModel = false)
    {
        add({group, gpus, 1, gpus, bulk, beforeTheModel});
    }
    void strided(const char *group, std::int64_t gpus, std::int64_t stride) { add({group, 1, gpus, stride, true}); }
};

Communicators communicators(const Scenario &s)
{
    Communicators c;
    const std::int64_t tp = s.tensorParallel, cp = s.contextParallel;
    if (s.megatron()) {
        c.contiguous("the tensor-parallel group", tp);
        c.strided("the context-parallel group", cp, tp);
        c.strided("the data-parallel group with the context-parallel GPUs", s.dataParallel * cp, tp);
        // The gradients' norm and zeros (megatron/core/optimizer/__init__.py, grad_stats_parallel_group):
        // the distributed optimizer's instance, every GPU; otherwise the model-parallel group, TP × PP.
        if (s.zeroStage >= 1)
            c.contiguous("the distributed optimizer's group (the gradients' norm)", s.gpuCount(), false);
        else
            c.add({"the model-parallel group (the gradients' norm)", tp, s.pipelineParallel, tp * cp * s.dataParallel,
                   false});
    } else if (s.fsdp()) {
        c.contiguous("the tensor-parallel group", tp);
        c.strided("the context-parallel group", cp, tp);
        c.strided("FSDP's shard group (dp_shard × cp)", s.shardGroup(), tp);
        c.strided("HSDP's replicate group", s.replicas, tp * s.shardGroup());
    } else if (s.pytorchDdp()) {
        c.contiguous("the default group, DDP's", s.gpuCount());
    } else if (s.zeroStage >= 1) {
        // The launcher's barriers (accelerate's wait_for_everyone) run on the default group, and so
        // do zero.Init's gathers (partition_parameters.py: ds_process_group = dist.get_world_group()),
        // which transformers skips for a quantized model (modeling_utils.py: not is_quantized); the
        // engine's reductions run on a clone of it (deepspeed/utils/groups.py, _clone_world_group).
        const bool zeroInit = s.builtUnderZeroInit();
        c.contiguous(zeroInit ? "the default group (barriers, zero.Init's gathers)" : "the default group (barriers)",
                     s.gpuCount(), zeroInit, true);
        c.strided("DeepSpeed's data-parallel group (groups._clone_world_group)", s.dataParallel, tp * cp);
    }
    return c;
}

// What each NVLS channel holds for one head and direction: NCCL_BUFFSIZE (4 MiB) up to 2.20, then
// NVLS_CHUNKSIZE (128 KiB) × NCCL_STEPS (8); beside it NVLS_MEM_ALIGN_SIZE (2 MiB) of head and tail
// flags until 2.22 moved them out of the buffer.
Bytes nvlsChunk(NcclRelease release)
{
    return release == NcclRelease::Before2_21 ? 4 * kMiB : 128 * kKiB * 8;
}
Bytes nvlsFlags(NcclRelease release)
{
    return release == NcclRelease::Since2_22 ? 0 : 2 * kMiB;
}

// The node's GPUs in a communicator when NCCL maps NVLS buffers for it, else 0: more than two of
// them, and, from 2.22, which sets the buffers up at the first collective that runs NVLS, a
// communicator the step moves tensors over (a few bytes never run as NVLS).
// At most NCCL_MAX_NVLS_ARITY heads (src/include/device.h: 8 up to 2.20, then 32).
std::int64_t nvlsHeads(const Scenario &s, const Communicator &c)
{
    const std::int64_t heads = c.onNode(s.gpusPerNode);
    const bool setUp = c.bulk || s.overhead.nccl != NcclRelease::Since2_22;
    const std::int64_t arity = s.overhead.nccl == NcclRelease::Before2_21 ? 8 : 32;
    return heads > 2 && setUp ? std::min(heads, arity) : 0;
}

// Two tensors a loop optimizer reaches one after the other, in elements.
struct LoopStep {
    std::int64_t previous = 0, current = 0;
    std::int64_t elements(int working) const { return previous + working * current; }
};

// One pipeline stage of one GPU: what it holds of the model, what of that trains, and how
// ZeRO/FSDP shard it. Every component below is counted from this.
struct Stage {
    Scenario s; // with the sequence this GPU computes (context parallelism) and the padded vocabulary
    DtypeBytes dt;
    ParameterCounts counts;
    std::int64_t t = 1, p = 1, n = 1; // tensor-parallel GPUs, pipeline stages, GPUs sharding the states
    std::int64_t spDiv = 1;           // how the residual stream splits: over the TP GPUs under sequence parallelism
    int stage = 0;
    bool firstStage = true, lastStage = true;
    StageLayers layers;
    std::int64_t matricesOnRank = 0, perLayerOnRank = 0, outsideLayers = 0, stageParams = 0;
    std::int64_t trainable = 0, trainableLayersHere = 0, adapters = 0;
    std::int64_t expertsHere = 0, trainableExperts = 0;
    bool shardOptimizer = false, shardGradients = false, shardParams = false;
    // The largest of DeepSpeed ZeRO's flat partitions (none where the optimizer steps the
    // tensors), found once: several items ask for it.
    std::int64_t largestFlatPartition = 0;

    // " ÷ 4 (sequence parallel)" after a residual-stream tensor's formula, or nothing.
    std::string sequenceParallelSplit() const
    {
        return spDiv > 1 ? " ÷ " + std::to_string(spDiv) + " (sequence parallel)" : "";
    }

    // Each component of the ledger, as this stage holds it.
    template <class Sink>
    void addParameters(Units units, Breakdown &b, Sink &sink) const;
    template <class Sink>
    void addRotaryTable(Units units, Sink &sink) const;
    template <class Sink>
    void addGradients(Units units, Breakdown &b, Sink &sink) const;
    // Each backward makes the gradients whole as it goes, into no gradient made before (autograd's
    // AccumulateGrad): full training, unsharded, not in a buffer kept all step, neither stepped in
    // backward nor offloaded, one micro-batch a step on one tensor-parallel rank. Reads what
    // addGradients decided.
    bool gradientsMadeAsBackwardGoes(const Breakdown &b) const
    {
        return s.fineTune == FineTune::Full && !shardGradients && !b.gradientsPersist && !b.gradientsAccumulated
            && !s.optimizerInBackward && !(deepSpeedOffload() && s.zeroStage >= 2) && s.tensorParallel == 1;
    }
    template <class Sink>
    void addOptimizerStates(Units units, Sink &sink) const;
    // Of the trainable parameters here, those in tensors of fewer than `threshold` elements; of
    // every parameter here, trained or frozen, likewise; and the two parts they are made of: the
    // base model's small tensors in `layerCount` of this stage's layers and around them, and
    // LoRA's adapters.
    std::int64_t trainableBelow(std::int64_t threshold) const;
    std::int64_t paramsBelow(std::int64_t threshold) const;
    std::int64_t baseTensorsBelow(std::int64_t threshold, std::int64_t layerCount, bool embeddings) const;
    std::int64_t adaptersBelow(std::int64_t threshold) const;
    // The largest trainable module's weight on this tensor-parallel GPU, whole (a LoRA adapter's
    // under LoRA), and the largest trainable tensor the optimizer sees here (that, sharded).
    std::int64_t largestTrainableModule() const;
    std::int64_t largestTrainableTensor() const;
    // The trainable tensors in the order the model registers them, each's elements on this GPU,
    // as `visit(elements)`; `layersShown` of the layers (alike: two show every neighbouring pair),
    // each visited as `eachLayer(layer)`, where calling `layer()` visits its tensors.
    template <class Visit, class EachLayer>
    void registeredTensors(std::int64_t layersShown, Visit &&visit, EachLayer &&eachLayer) const;
    template <class Visit>
    void registeredTensors(std::int64_t layersShown, Visit &&visit) const
    {
        registeredTensors(layersShown, visit, [](const auto &layer) { layer(); });
    }
    // What an optimizer's step reaches, as `visit(elements, newCall)`: the tensors, or DeepSpeed
    // ZeRO's flat partitions, each stepped by a step() call of its own, which starts afresh.
    template <class Visit>
    void tensorsInStepOrder(Visit &&visit) const;
    bool optimizerStepsFlatPartitions() const { return s.deepSpeed() && shardOptimizer; }
    std::int64_t findLargestFlatPartition() const;
    // The Hugging Face Trainer (get_decay_parameter_names) and Megatron
    // (megatron/core/optimizer/__init__.py, _get_param_groups) put the biases and norms in a
    // second param group, without weight decay.
    bool decayGroupFirst() const
    {
        return s.implementation == Implementation::HuggingFace || s.implementation == Implementation::Megatron;
    }
    // The elements of that second group here (none where one group holds all, or under LoRA).
    std::int64_t noDecayElements() const;
    // What a loop optimizer holds at once while it steps, in elements: at its widest, the previous
    // tensor's denominator, kept until the next is assigned, and `working` intermediates of the
    // current tensor. transformers' loops keep their locals from one param group to the next
    // within a step() call, but the walk stops before the only second group (the biases and
    // norms); a new step() call (DeepSpeed's, one per partition) starts afresh.
    LoopStep loopStep(int working) const;
    template <class Sink>
    void addActivations(Units units, Breakdown &b, Sink &sink) const;
    template <class Sink>
    void addInputBatch(bool embeddingSavesIds, Units units, Breakdown &b, Sink &sink) const;
    template <class Sink>
    void addTrainerBatch(Units units, Breakdown &b, Sink &sink) const;
    template <class Sink>
    void addBackwardWorkingSet(std::int64_t savingLayers, Bytes lossFreed, const TensorList &wholeLayer, Units units,
                               Breakdown &b, Sink &sink) const;
    template <class Sink>
    void addGemmWorkspaces(Units units, Sink &sink) const;
    template <class Sink>
    void addGatherBuffer(Units units, Sink &sink) const;
    // Whether the code creates the weights on the GPU one tensor at a time with nothing freed in
    // between, and if so each tensor's bytes, in that order: those before the layers, each
    // layer's (alike), those after.
    bool weightsMadeOneByOne() const;
    // A weight's bytes as the model is made: the working dtype when all of it trains, else the frozen base's.
    int madeWeightBytes() const { return s.fineTune == FineTune::Full ? dt.weight : dt.base; }
    template <class Visit>
    void weightsBeforeLayers(Visit &&visit) const;
    template <class Visit>
    void layerWeights(Visit &&visit) const;
    template <class Visit>
    void weightsAfterLayers(Visit &&visit) const;
    template <class Sink>
    void addWeightBlockTails(Units units, Sink &sink) const;
    template <class Sink>
    void addOverhead(Units units, Breakdown &b, Sink &sink) const;
    template <class Sink>
    void addNvlsBuffers(Units units, Sink &sink) const;
    template <class Sink>
    void addOffloadHostBuffers(Units units, Sink &sink) const;
    // How the logits' formulas begin and end: "8192 tokens × 128256 vocab × " and, split over
    // tensor-parallel GPUs, " ÷ 8 (vocab-parallel)".
    std::string logitsShape() const
    {
        return formatCount(s.sequence * s.microBatch) + " tokens × " + std::to_string(s.arch.vocab) + " vocab × ";
    }
    std::string vocabParallel() const { return t > 1 ? " ÷ " + std::to_string(t) + " (vocab-parallel)" : ""; }

    // DeepSpeed ZeRO-3's gathered parameters as forward turns into backward, and as a recomputed
    // layer turns from its forward again to its backward (zero3Turn()).
    struct Zero3Turn {
        std::int64_t kept = 0;              // gathered after their forward: used again soon, or the head
        std::int64_t prefetched = 0;        // gathered ahead of backward's first modules
        std::int64_t outsideLayers = 0;     // of kept and prefetched, the head's and the embedding's
        std::int64_t keptInLayer = 0;       // of a recomputed layer, kept from its forward to its backward
        std::int64_t prefetchedInLayer = 0; // and gathered ahead of the rest of its backward
        std::int64_t atTurn() const { return kept + prefetched; }
        std::int64_t inLayer() const { return keptInLayer + prefetchedInLayer; }
    };
    Zero3Turn zero3Turn() const;

    // DeepSpeed's ZeRO-Offload: the optimizer (and at stage 3 perhaps the parameters) in CPU memory.
    bool deepSpeedOffload() const { return s.offload != Offload::None && s.deepSpeed() && s.zeroStage >= 1; }

    Bytes shard(std::int64_t value, bool sharded) const { return sharded ? ceilDiv(value, n) : value; }
    // Expert parameters are shared by fewer GPUs: the expert data-parallel group, n / ep.
    Bytes shardSplit(std::int64_t count, std::int64_t experts, int bytes, bool sharded) const
    {
        if (!sharded || experts == 0)
            return shard(count * bytes, sharded);
        return ceilDiv((count - experts) * bytes, n)
            + ceilDiv(experts * bytes, std::max<std::int64_t>(n / s.expertParallel, 1));
    }
};

// DeepSpeed ZeRO-3's parameter coordinator (deepspeed/runtime/zero/partitioned_param_coordinator.py,
// PartitionedParameterCoordinator) at the turn from forward to backward. The trace it records is
// the modules in call order - the embedding, each layer's projections, the head - then backward's,
// in reverse (under full recomputation each layer's forward again before its backward); norms
// stay whole (below param_persistence_threshold) and are left out. After its forward a module is
// released unless the modules between this use and its next hold fewer than max_reuse_distance
// parameters (__params_to_release); the head, used again at once, stays. fetch_sub_module then
// prefetches the trace's next modules that are not gathered until prefetch_bucket_size
// parameters are on their way, and none while max_live_parameters are gathered.
Stage::Zero3Turn Stage::zero3Turn() const
{
    int count = 0;
    const auto matrices = layerMatrices(s.arch, count);
    // Each projection's share of the layer's matrices on this GPU (split by TP, experts by EP).
    std::array<std::int64_t, 8> module{};
    std::int64_t raw = 0;
    for (int i = 0; i < count; ++i)
        raw += module[std::size_t(i)] = matrices[i].in * matrices[i].out
            * (matrices[i].copies > 1 ? matrices[i].copies / s.expertParallel : 1);
    const std::int64_t layer = matricesOnRank;
    // Scaled where the layer's count is not its shapes' (--params given, TP): in floating point,
    // as the product may pass 2^63 for huge MoE layers.
    if (raw > 0 && raw != layer)
        for (int i = 0; i < count; ++i)
            module[std::size_t(i)] = std::int64_t(double(module[std::size_t(i)]) * double(layer) / double(raw));
    const std::int64_t head = lastStage ? ceilDiv(s.arch.vocab * s.arch.hidden, t) : 0;
    // A head tied to the embedding is its parameter: gathered with the head, counted there.
    const bool tied = s.arch.tiedEmbeddings && firstStage && lastStage;
    const std::int64_t embedding = firstStage ? embeddingOnRank(counts, t) - (tied ? head : 0) : 0;
    const std::int64_t layerCount = layers.count();
    const bool recomputed = s.recompute == Recompute::Full;
    const std::int64_t reach = s.maxReuseDistance;

    // The parameters between module i of the layer j layers before the last and its next use:
    // the rest of its layer, the later layers and the head forward, then backward back to it.
    std::array<std::int64_t, 8> before{}; // parameters of the layer's modules called before module i
    for (int i = 1; i < count; ++i)
        before[std::size_t(i)] = before[std::size_t(i - 1)] + module[std::size_t(i - 1)];
    // At most three times the model's parameters, which scenarioError() keeps below 2·10^17.
    const auto distance = [&](int i, std::int64_t j) {
        const std::int64_t after = layer - before[std::size_t(i)] - module[std::size_t(i)];
        // Recomputed, its next use is the layer's forward again, after every later layer's twice.
        return recomputed ? after + 3 * j * layer + 2 * head + before[std::size_t(i)]
                          : 2 * after + 2 * j * layer + 2 * head;
    };
    const auto kept = [&](int i, std::int64_t j) { return distance(i, j) < reach; };
    const bool embeddingKept = 2 * (layer * layerCount + head) < reach;

    Zero3Turn turn;
    turn.kept = head;
    for (int i = 0; i < count; ++i) {
        // distance() grows with j: the layers nearest the turn stay, up to the first that goes.
        std::int64_t stay = 0;
        while (stay < layerCount && kept(i, stay))
            ++stay;
        turn.kept += module[std::size_t(i)] * stay;
    }
    if (embedding > 0 && embeddingKept)
        turn.kept += embedding;
    turn.outsideLayers = head + (embeddingKept ? embedding : 0);

    // Backward's modules, nearest first, that are not gathered, until the bucket is on its way.
    const std::int64_t room = std::min(s.prefetchBucket, s.maxLiveParameters - turn.kept);
    for (std::int64_t j = 0; j < layerCount && turn.prefetched < room; ++j)
        for (int k = 0; k < count && turn.prefetched < room; ++k) {
            const int i = recomputed ? k : count - 1 - k; // recomputation calls the layer in forward order
            if (!kept(i, j))
                turn.prefetched += module[std::size_t(i)];
        }
    if (turn.prefetched < room && embedding > 0 && !embeddingKept) {
        turn.prefetched += embedding;
        turn.outsideLayers += embedding;
    }

    // Recomputed, each layer's forward runs again right before its backward: a module stays
    // gathered when the rest of the layer, twice (forward on, backward back to it), holds fewer
    // than max_reuse_distance parameters. As its backward begins, the trace's next modules that
    // are not gathered are prefetched: the layer's released ones in backward's order, then the
    // next layer's recomputation in forward's, none of it gathered since that layer's forward.
    if (recomputed && layerCount > 1) {
        std::array<bool, 8> stays{};
        for (int i = 0; i < count; ++i)
            if ((stays[std::size_t(i)] = 2 * (layer - before[std::size_t(i)] - module[std::size_t(i)]) < reach))
                turn.keptInLayer += module[std::size_t(i)];
        const std::int64_t roomInLayer = std::min(s.prefetchBucket, s.maxLiveParameters - turn.keptInLayer);
        for (int i = count - 1; i >= 0 && turn.prefetchedInLayer < roomInLayer; --i)
            if (!stays[std::size_t(i)])
                turn.prefetchedInLayer += module[std::size_t(i)];
        for (int i = 0; i < count && turn.prefetchedInLayer < roomInLayer; ++i)
            turn.prefetchedInLayer += module[std::size_t(i)];
    }
    return turn;
}

Stage layOut(const Scenario &whole, int stage, Breakdown &b)
{
    Stage g;
    // Under context parallelism each GPU computes its slice of the sequence; nothing else in the
    // model states depends on the sequence.
    g.s = whole;
    Scenario &s = g.s;
    s.sequence = whole.sequence / whole.contextParallel;
    // The embedding, the head and the logits are as wide as the padded vocabulary.
    const std::int64_t multiple = whole.vocabDivisibleBy * whole.tensorParallel;
    s.arch.vocab = (whole.arch.vocab + multiple - 1) / multiple * multiple;
    const Architecture &a = s.arch;
    g.dt = dtypeBytes(s);
    g.counts = countParameters(a);
    const ParameterCounts &counts = g.counts;
    g.t = s.tensorParallel;
    g.p = s.pipelineParallel;
    g.spDiv = s.sequenceParallel ? g.t : 1;
    g.n = s.shardGroup();
    const std::int64_t t = g.t;
    g.stage = stage;
    g.firstStage = stage == 0;
    g.lastStage = stage == g.p - 1;
    g.layers = stageLayers(s, stage);
    const StageLayers &layers = g.layers;

    b.stage = stage;
    b.layersOnStage = layers.count();
    b.totalParams = counts.total(a.layers);

    // --- what this GPU holds of the model -------------------------------------------------
    // Expert matrices split over EP × TP ranks (Megatron's expert tensor parallelism follows TP).
    const std::int64_t expertsPerLayerOnRank = ceilDiv(counts.perLayerExpertMatrices, s.expertParallel * t);
    g.matricesOnRank = ceilDiv(counts.perLayerMatrices - counts.perLayerExpertMatrices, t) + expertsPerLayerOnRank;
    // Megatron's column-parallel linears split their biases with their weights; the row-parallel
    // ones and the norms are whole on every tensor-parallel GPU (core/tensor_parallel/layers.py:
    // ColumnParallelLinear's bias has output_size_per_partition elements, RowParallelLinear's
    // output_size).
    g.perLayerOnRank = g.matricesOnRank + ceilDiv(counts.perLayerColumnBiases, t)
        + (counts.perLayerVectors - counts.perLayerColumnBiases);
    if (g.firstStage)
        g.outsideLayers += embeddingOnRank(counts, t);
    if (g.lastStage) {
        g.outsideLayers += counts.finalNorm + ceilDiv(counts.head, t);
        if (g.p > 1 && a.tiedEmbeddings)
            g.outsideLayers += ceilDiv(a.vocab * a.hidden, t); // the last stage keeps its own copy to tie
    }
    g.stageParams = g.perLayerOnRank * layers.count() + g.outsideLayers;

    // --- what trains ----------------------------------------------------------------------
    g.trainable = g.stageParams;
    g.trainableLayersHere = layers.count();
    switch (s.fineTune) {
    case FineTune::Full: b.trainableParams = b.totalParams; break;
    case FineTune::Freeze:
        g.trainableLayersHere = overlap(layers, a.layers - s.trainableLayers, a.layers);
        g.trainable = g.perLayerOnRank * g.trainableLayersHere
            + (g.lastStage ? counts.finalNorm + ceilDiv(counts.head, t) : 0);
        b.trainableParams = counts.perLayer() * s.trainableLayers + counts.finalNorm + counts.head;
        break;
    case FineTune::LoRA:
    case FineTune::QLoRA:
        g.adapters = ceilDiv(loraParamsPerLayer(s), t) * layers.count()
            + (g.lastStage ? ceilDiv(loraHeadParams(s), t) : 0);
        g.trainable = g.adapters;
        b.trainableParams = loraParamsPerLayer(s) * a.layers + loraHeadParams(s);
        break;
    }
    g.shardOptimizer = s.zeroStage >= 1;
    g.shardGradients = s.zeroStage >= 2;
    g.shardParams = s.zeroStage >= 3;
    g.largestFlatPartition = g.findLargestFlatPartition();
    g.expertsHere = expertsPerLayerOnRank * layers.count();
    g.trainableExperts = s.fineTune == FineTune::Full ? g.expertsHere
        : s.fineTune == FineTune::Freeze              ? expertsPerLayerOnRank * g.trainableLayersHere
                                                      : 0;
    return g;
}

// `weights` stored as bitsandbytes' NF4 (functional.py quantize_4bit, blocksize 64): the codes,
// two per byte (the packed parameter), and the quantization constants, an FP32 absmax per block;
// double quantization (compress_statistics) keeps the absmax in 8 bits, blockwise-quantized with
// an FP32 absmax per 256 of them.
Bytes nf4Codes(std::int64_t weights)
{
    return ceilDiv(weights, 2);
}
Bytes nf4Constants(std::int64_t weights, bool doubleQuant)
{
    const std::int64_t blocks = ceilDiv(weights, 64);
    return doubleQuant ? blocks + 4 * ceilDiv(blocks, 256) : 4 * blocks;
}
Bytes nf4Bytes(std::int64_t weights, bool doubleQuant)
{
    return nf4Codes(weights) + nf4Constants(weights, doubleQuant);
}

// What torchao's get_original_weight holds at once for `weights`: int64 codes of both halves 8 B,
// their NF4 values 2 B, the scaled values 2 B and the stacked weight 2 B a weight, and the block
// scalers dequantized to BF16, 2 B a block of 64 (see addParameters).
Bytes torchaoDequantizeBytes(std::int64_t weights)
{
    return weights * (8 + 2 + 2 + 2) + 2 * ceilDiv(weights, 64);
}

// `weights` in `tensors` stored as torchao's NF4Tensor (torchao/dtypes/nf4tensor.py, to_nf4 with
// torchtune's defaults, block 64 and scaler block 256): two 4-bit codes a byte, an int8 scaler per
// block of 64 (double_quantize_scalers), a factor in the weight's dtype, BF16, per 256 scalers; and
// for each tensor its scaler mean (BF16) and its 16-entry NF4 table (BF16): 34 B.
Bytes torchaoNf4Bytes(std::int64_t weights, std::int64_t tensors)
{
    return nf4Codes(weights) + ceilDiv(weights, 64) + 2 * ceilDiv(weights, 64 * 256) + 34 * tensors;
}

// Parameters: the weights this GPU holds, in their dtype (ZeRO paper, Rajbhandari et al. 2020:
// 2Ψ bytes in 16 bits), sharded by ZeRO-3/FSDP, with the LoRA adapters, QLoRA's NF4 base
// (Dettmers et al. 2023) and what a sharded engine gathers to compute.
template <class Sink>
void Stage::addParameters(Units units, Breakdown &b, Sink &sink) const
{
    Bytes weightBytes = 0;
    std::string how;
    bool shardedInHow = false; // `how` says what is sharded itself
    // QLoRA's 4-bit format (torchtune's torchao NF4, else bitsandbytes'), and what computing the
    // largest 4-bit module dequantizes (the item after the weights).
    const bool torchao = s.implementation == Implementation::TorchTune;
    const bool lightning = s.implementation == Implementation::LitGpt;
    // bitsandbytes' copy: Lightning's from FP16, cast on to BF16; transformers' in the dtype the
    // model was loaded in (DtypeBytes::loaded).
    const int copyBytes = lightning ? 2 : dt.loaded;
    const bool cast = lightning && s.precision != Precision::MixedFp16;
    std::int64_t largestFourBit = 0;
    Bytes dequantized = 0;
    Bytes wholeWeights = 0;        // the weights unsharded, where the GPU holds them so at start-up
    Bytes constantsWholeBytes = 0; // bitsandbytes' quantization constants, whole on every GPU
    std::string wholeHow;
    if (s.fineTune == FineTune::QLoRA) {
        // NF4 (Dettmers et al. 2023; bitsandbytes functional.py quantize_4bit, blocksize 64): 4 bits
        // per weight and an FP32 absmax per block of 64, 0.5 bits; double quantization
        // (compress_statistics) stores the absmax in 8 bits with an FP32 constant per 256 of
        // them, 0.127 bits. Lightning's BitsandbytesPrecision (lit-gpt) replaces every nn.Linear,
        // the LM head too; PEFT's QLoRA leaves the head in 16 bits.
        // torchtune's QLoRA builders make every projection of a layer a torchao NF4Tensor
        // (LoRALinear with quantize_base, FrozenNF4Linear for the rest) and keep the output
        // projection in BF16 (models/llama3/_component_builders.py).
        const bool fourBitHead = lightning && lastStage;
        const std::int64_t head = fourBitHead ? ceilDiv(counts.head, t) : 0;
        const std::int64_t quantised = matricesOnRank * layers.count() + head;
        const std::int64_t kept = stageParams - quantised;
        int matrixCount = 0;
        const auto matrices = layerMatrices(s.arch, matrixCount);
        const std::int64_t tensors = matrixCount * layers.count();
        // bitsandbytes keeps a weight's quantization constants in its quant_state, an attribute of
        // the Params4bit and of its Linear4bit, not a parameter (bitsandbytes nn/modules.py,
        // Params4bit._quantize: self.module.quant_state; Linear4bit.forward:
        // fix_4bit_weight_quant_state_from_module): DeepSpeed's ZeRO-3 and FSDP partition the
        // packed codes and leave them whole on every GPU. torchao's NF4Tensor shards both.
        const bool constantsWhole = shardParams && n > 1 && !torchao;
        shardedInHow = constantsWhole;
        const Bytes nf4 = torchao ? torchaoNf4Bytes(quantised, tensors) : nf4Bytes(quantised, s.doubleQuant);
        const Bytes constants = constantsWhole ? nf4Constants(quantised, s.doubleQuant) : 0;
        constantsWholeBytes = constants;
        weightBytes = shard(nf4 - constants + kept * dt.base, shardParams) + constants;
        const std::string_view bitsBnb = s.doubleQuant ? " params × 4.127 bits (NF4, double-quantized) + "
                                                       : " params × 4.5 bits (NF4) + ";
        // transformers quantizes a bitsandbytes model on the GPU and, with ZeRO-3 enabled, moves
        // each 4-bit weight to CPU memory instead of building the model under zero.Init
        // (modeling_utils.py, _load_state_dict_into_meta_model: is_deepspeed_zero3_enabled() ->
        // value.data.to("cpu")); the 16-bit rest loads onto the GPU and the constants stay there.
        if (s.placedWholeBeforePartitioning()) {
            wholeWeights = nf4 + kept * dt.base;
            if constexpr (std::is_same_v<Sink, TextSink>)
                wholeHow = formatCount(quantised) + std::string(bitsBnb) + formatCount(kept) + " × "
                    + std::to_string(dt.base) + " B";
        }
        if constexpr (std::is_same_v<Sink, TextSink>) {
            how = formatCount(quantised)
                + (torchao ? " params × 4.126 bits (torchao's NF4: 4-bit codes, an int8 scaler per 64, a BF16 factor "
                             "per 16384) + "
                           + formatCount(tensors) + " tensors × 34 B + "
                       : constantsWhole ? " params × 4 bits (NF4 codes) + "
                                        : std::string(bitsBnb))
                + formatCount(kept) + " × " + std::to_string(dt.base) + " B";
            if (constantsWhole)
                how = "(" + how + ")" + shardText(s, shardParams) + " + their quantization constants "
                    + formatBytes(constants, units)
                    + (s.doubleQuant ? " (0.127 bits a weight, double-quantized)" : " (0.5 bits a weight)")
                    + ", whole on every GPU (bitsandbytes' quant_state is not a parameter)";
        }

        // bitsandbytes computes a 4-bit linear from a dequantized copy of its weight, one module at
        // a time, in forward and again in backward (bitsandbytes/autograd/_functions.py,
        // MatMul4Bit: F.dequantize_4bit(B, state).to(A.dtype)): the copy in the dtype the weight
        // was quantized from and, where that is not the compute dtype, its cast, alive together
        // for a moment. Lightning's BitsandbytesPrecision quantizes from FP16
        // (fabric/plugins/precision/bitsandbytes.py, _Linear4bit._quantize_weight: .to(torch.half)),
        // so under BF16 both copies exist; PEFT quantizes the weights as loaded, in the compute dtype.
        //
        // torchao dequantizes an NF4Tensor with plain tensor ops for each linear_nf4, forward and
        // backward (nf4tensor.py, LinearNF4: weight.to(input.dtype) -> get_original_weight): the
        // codes of both halves widened to int64 (8 B a weight), their NF4 values (2 B), scaled by
        // the block scalers (2 B) and stacked into the weight (2 B), all alive at the stack with
        // the scalers (torchaoDequantizeBytes; pinned to the profiler's allocations by tests/oracle).
        for (int i = 0; i < matrixCount; ++i)
            largestFourBit = std::max(largestFourBit, ceilDiv(matrices[i].in * matrices[i].out, t));
        largestFourBit = std::max(largestFourBit, head);
        b.dequantizedAtLoss = fourBitHead;
        dequantized = torchao ? torchaoDequantizeBytes(largestFourBit)
                              : largestFourBit * (copyBytes + (cast ? dt.activation : 0));
    } else {
        // What trains is in the working dtype; a frozen base in its own (LoRA adapters are their own item).
        const std::int64_t frozen = s.fineTune == FineTune::Full ? 0
            : s.fineTune == FineTune::Freeze                     ? stageParams - trainable
                                                                 : stageParams;
        const std::int64_t frozenExperts = s.fineTune == FineTune::Full ? 0 : expertsHere - trainableExperts;
        const auto weights = [&](bool sharded) {
            return shardSplit(stageParams - frozen, expertsHere - frozenExperts, dt.weight, sharded)
                + shardSplit(frozen, frozenExperts, dt.base, sharded);
        };
        weightBytes = weights(shardParams);
        if constexpr (std::is_same_v<Sink, TextSink>)
            if (frozen > 0 && dt.base != dt.weight)
                how = (frozen < stageParams
                           ? formatCount(stageParams - frozen) + " params × " + std::to_string(dt.weight) + " B + "
                           : std::string())
                    + formatCount(frozen) + " frozen params × " + std::to_string(dt.base) + " B";
        if constexpr (std::is_same_v<Sink, TextSink>)
            if (how.empty())
                how = formatCount(stageParams) + " params × " + std::to_string(dt.weight) + " B";
        if (s.placedWholeBeforePartitioning()) {
            wholeWeights = weights(false);
            wholeHow = how; // unsharded: the shards' text comes after
        }
    }
    // Offloading moves the parameters' shards to CPU memory (DeepSpeed's offload_param, FSDP's
    // CPUOffload); bitsandbytes' quantization constants are not parameters and stay on the GPU.
    const bool onHost = s.offload == Offload::OptimizerAndParams;
    const Bytes weightsOnGpu = onHost ? constantsWholeBytes : weightBytes;
    sink.add(
        ItemId::Weights, weightsOnGpu,
        [&] {
            std::string text = how;
            if (!shardedInHow)
                text += shardText(s, shardParams);
            if (!onHost)
                return text + equals(weightBytes, units);
            text += equals(weightBytes, units) + ", offloaded to CPU memory";
            if (weightsOnGpu > 0)
                text += " but the quantization constants" + equals(weightsOnGpu, units);
            return text;
        },
        weightBytes - weightsOnGpu);
    if (s.fineTune == FineTune::QLoRA)
        sink.add(ItemId::QloraDequantized, dequantized, [&] {
            return "largest 4-bit module " + formatCount(largestFourBit) + " params × "
                + (torchao ? "(14 B + 2 B a block of 64) (torchao's dequantization: the codes as int64 8 B, their "
                             "NF4 values 2 B, scaled 2 B, stacked 2 B, and the block scalers)"
                       : cast
                       ? "(2 B dequantized in FP16 + " + std::to_string(dt.activation) + " B cast to the compute dtype)"
                       : std::to_string(copyBytes) + " B dequantized")
                + equals(dequantized, units);
        });
    if (s.precision == Precision::Fp8) {
        // Transformer Engine computes each linear from an FP8 copy of its weight and its input
        // gradient from an FP8 transpose (transformer_engine/pytorch/module/linear.py,
        // _Linear.forward: fp8_cast_transpose_fused into weight_fp8 and weight_t_fp8). Megatron
        // passes is_first_microbatch (megatron/core/extensions/transformer_engine.py, unless
        // disable_parameter_transpose_cache), so both are the module's own buffers, kept across
        // micro-batches and steps (module/base.py, get_fp8_weights_scratchpad). The embedding
        // and Megatron's output layer stay 16-bit.
        const std::int64_t linear = matricesOnRank * layers.count();
        const Bytes cache = 2 * linear;
        sink.add(ItemId::Fp8WeightCache, cache, [&] {
            return formatCount(linear) + " linear-layer params × (1 B FP8 copy + 1 B FP8 transpose)"
                + equals(cache, units);
        });
    }
    const Bytes adapterBytes = shard(adapters * dt.weight, shardParams);
    if (adapters > 0)
        sink.add(ItemId::LoraAdapters, adapterBytes, [&] {
            return formatCount(adapters) + " adapter params (rank " + std::to_string(s.loraRank) + ") × "
                + std::to_string(dt.weight) + " B" + shardText(s, shardParams) + equals(adapterBytes, units);
        });
    if (wholeWeights > 0) {
        // A model built outside zero.Init: DeepSpeed's engine casts it to the 16-bit dtype and
        // moves it whole to the GPU (runtime/engine.py, _configure_distributed_model:
        // self.module.to(self.device), skipped only for a zero.Init model) before its ZeRO-3
        // optimizer partitions each parameter (runtime/zero/parameter_offload.py,
        // _convert_to_zero_parameters). Until then this GPU holds the other GPUs' shards too.
        const Bytes whole = wholeWeights + adapters * dt.weight;
        const Bytes own = weightsOnGpu + adapterBytes;
        sink.add(ItemId::ModelBeforePartitioning, whole - own, [&] {
            return "the model whole, as DeepSpeed's engine moves it to the GPU before ZeRO-3 partitions it (" + wholeHow
                + " + " + formatCount(adapters) + " adapter params × " + std::to_string(dt.weight) + " B, unsharded"
                + equals(whole, units) + "), less this GPU's shards of the weights and adapters "
                + formatBytes(own, units) + equals(whole - own, units) + "; at start-up only";
        });
    }
    if (shardParams && s.fsdp()) {
        // FSDP2 (torch/distributed/_composable/fsdp), and FSDP1 as accelerate wraps it
        // (TRANSFORMER_BASED_WRAP): each transformer layer is a unit, the rest (embedding, final
        // norm, head) the root. foreach_all_gather fills the unit's
        // unsharded parameters in the compute dtype; the root is never resharded after forward
        // (_fsdp_state.py, FSDPState._lazy_init: post_forward_mesh_info = None), so it stays
        // gathered all step. Forward gathers one layer at a time (FSDPParamGroup.pre_forward
        // unshards it, post_forward reshards it before the next layer's pre_forward). At the loss
        // one layer is gathered: torchtitan's apply_fsdp leaves the last one gathered; where every
        // layer reshards (torchtune's shard_model, accelerate), the root's pre-backward prefetches
        // it as the loss's gradient reaches the model's output, before the head's backward
        // (FSDPParamGroup._backward_prefetch; FSDP1's _pre_backward_hook). Backward holds the layer
        // it computes and the one it prefetches (pre_backward: _backward_prefetch), two. FSDP1
        // alike (_runtime_utils.py: _post_forward_reshard frees a unit unless it is the root,
        // _pre_backward_hook prefetches under BACKWARD_PRE, accelerate's default).
        // Gathered in the compute dtype: MixedPrecisionPolicy's param_dtype, or the parameters' own;
        // QLoRA's 4-bit matrices in the form they are stored in, as ZeRO-3 gathers them below:
        // torchao's NF4Tensor hands FSDP its codes, int8 scalers and BF16 factors
        // (torchao/dtypes/nf4tensor.py, NF4Tensor.fsdp_pre_all_gather: quantized_scalers,
        // quantization_factor, quantized_data; scaler_mean and the NF4 table stay local), and
        // bitsandbytes' Params4bit is its packed codes, two a byte, whose quant_state is whole on
        // every GPU already.
        // Not resharded after forward, every layer stays gathered until its backward.
        // FSDP1 prefetches in backward only a unit whose forward ran with grad in this step
        // (_get_handle_to_prefetch: its _needs_pre_backward_unshard, set by
        // _register_pre_backward_hooks, which returns early without grad, and cleared as the unit
        // unshards for its backward): under the reentrant checkpoint, whose forward runs without
        // grad and whose recomputation comes only as each layer's backward begins, it prefetches
        // none, and backward holds the layer it computes alone.
        const bool prefetchesInBackward = !s.fsdp1UnderReentrantCheckpoint();
        const std::int64_t gatheredLayers = std::min<std::int64_t>(
            layers.count(), s.reshardAfterForward ? (prefetchesInBackward ? 2 : 1) : layers.count());
        const bool fourBit = s.fineTune == FineTune::QLoRA;
        const std::int64_t fourBitInLayer = fourBit ? matricesOnRank : 0;
        const std::int64_t sixteenBitInLayer = perLayerOnRank - fourBitInLayer;
        const Bytes fourBitForm = torchao ? torchaoNf4Bytes(fourBitInLayer, 0) : nf4Codes(fourBitInLayer);
        const Bytes layerBytes = fourBitForm + sixteenBitInLayer * dt.activation;
        const Bytes rootBytes = outsideLayers * dt.activation;
        const Bytes gathered = rootBytes + gatheredLayers * layerBytes;
        b.gatheredOnlyInBackward = s.reshardAfterForward && gatheredLayers == 2 ? layerBytes : 0;
        // "(Y 4-bit params × 0.5 B + Z params × 2 B)" for a QLoRA layer, "Y params" otherwise.
        const auto layerText = [&] {
            const std::string sixteen = formatCount(sixteenBitInLayer) + " params × " + std::to_string(dt.activation)
                + " B";
            if (!fourBit)
                return sixteen;
            return "(" + formatCount(fourBitInLayer)
                + (torchao ? " 4-bit params × 4.126 bits (torchao's codes, scalers and factors)"
                           : " 4-bit params × 0.5 B (packed codes)")
                + " + " + sixteen + ")";
        };
        sink.add(ItemId::FsdpUnshardedParams, gathered, [&] {
            return "gathered by FSDP: root unit " + formatCount(outsideLayers) + " params × "
                + std::to_string(dt.activation) + " B + " + std::to_string(gatheredLayers)
                + (!s.reshardAfterForward ? " layers, not resharded after forward, × "
                       : prefetchesInBackward
                       ? " layers, computed and prefetched, × "
                       : " layer, computed (nothing prefetched after a reentrant checkpoint), × ")
                + layerText() + equals(gathered, units);
        });
        // FSDP2's foreach_all_gather (_fsdp_collectives.py) gathers a unit into one all-gather
        // output of the whole unit in the compute dtype, allocated on FSDP's all-gather copy-in
        // stream together with the shard's cast to that dtype (where the shards are kept in another
        // one); the copy-out fills the parameters above from it. FSDP1 gathers into the flat
        // parameter itself (_flat_param.py, FlatParamHandle._all_gather_flat_param:
        // all_gather_into_tensor into _full_param_padded, whose views the parameters are), so only
        // the shard's cast is extra (pre_unshard: _use_low_precision_shard into _mp_shard, freed in
        // post_unshard). The largest unit's are the widest moment. The caching allocator keeps a
        // freed block for the stream that allocated it (c10/cuda/CUDACachingAllocator.cpp: "Once
        // freed, blocks can be re-allocated on the same stream, but not on any other stream"), so
        // where the reading counts the reserve they stay reserved all step. Where it does not, FSDP2
        // holds an all-gather output in forward only: each unit's until the next unit's copy-out
        // (the root's, gathered first, until the first layer's), the last until the forward root's
        // post-forward; backward frees each right after its copy-out, and the one it prefetches
        // is the second layer gathered above (_fsdp_param_group.py, FSDPParamGroup.wait_for_unshard
        // and [Note: Overlapping all-gather copy-in and all-gather]; _fsdp_state.py,
        // FSDPState._post_forward). 4-bit matrices are not cast.
        const bool flatParams = s.fsdpVersion == FsdpVersion::Fsdp1;
        const bool layerIsLargest = layers.count() > 0 && layerBytes > rootBytes;
        const Bytes largestUnit = layerIsLargest ? layerBytes : rootBytes;
        b.allGatherOutputOnlyInForward = flatParams || s.overhead.reserveCounted() ? 0 : largestUnit;
        b.rootAllGatherOutputBeyondALayer = b.allGatherOutputOnlyInForward > 0 && !layerIsLargest
            ? rootBytes - (layers.count() > 0 ? layerBytes : 0)
            : 0;
        const std::int64_t castable = layerIsLargest ? sixteenBitInLayer : outsideLayers;
        const bool castsShard = (baseTrains(s) ? dt.weight : dt.base) != dt.activation;
        const std::int64_t shardOfUnit = castsShard ? ceilDiv(castable, s.shardGroup()) : 0;
        const Bytes allGather = (flatParams ? 0 : largestUnit) + shardOfUnit * dt.activation;
        const std::string_view stream = flatParams ? "FSDP's unshard stream" : "FSDP's copy-in stream";
        sink.add(ItemId::FsdpAllGatherBuffers, allGather, [&] {
            const std::string castText = formatCount(shardOfUnit) + " params × " + std::to_string(dt.activation) + " B";
            std::string text;
            if (!flatParams)
                text = "the largest unit's all-gather output "
                    + (layerIsLargest ? "(a layer) " + layerText()
                                      : "(the root) " + formatCount(outsideLayers) + " params × "
                               + std::to_string(dt.activation) + " B")
                    + (shardOfUnit > 0 ? " + its shard's cast " + castText : std::string());
            else if (shardOfUnit > 0)
                text = "the largest unit's shard, cast for its all-gather, " + castText;
            else
                text = "none: FSDP1 gathers each unit into its flat parameter";
            if (allGather > 0 && s.overhead.reserveCounted())
                text += ", cached for " + std::string(stream) + " all step";
            else if (b.allGatherOutputOnlyInForward > 0)
                text += ", held in forward only";
            return text + equals(allGather, units);
        });
    } else if (shardParams && n > 1) {
        // DeepSpeed ZeRO-3 gathers each module's 16-bit parameters whole; when forward turns into
        // backward (the activations' peak) it holds those it keeps for reuse and those it
        // prefetched, and under full recomputation, as each layer's backward begins, those of the
        // layer kept since its forward ran again, if more (zero3Turn()). Each module's backward
        // produces its full gradient before it goes into the bucket: the largest module's, as
        // DeepSpeed's estimator counts it (estimate_zero3_model_states_mem_needs:
        // largest_layer_memory), where it trains.
        const Zero3Turn turn = zero3Turn();
        // Only a module that trains has a gradient: under LoRA the largest adapter matrix's.
        const std::int64_t largest = largestTrainableModule();
        // Gathered in the form it is stored in: QLoRA's layers as bitsandbytes' packed 4-bit codes,
        // half a byte a weight (its quant_state is whole on every GPU already).
        const bool fourBitLayers = s.fineTune == FineTune::QLoRA;
        const auto held = [&](std::int64_t params, std::int64_t outside) {
            return (fourBitLayers ? nf4Codes(params - outside) : (params - outside) * dt.weight) + outside * dt.weight;
        };
        const Bytes atTurn = held(turn.atTurn(), turn.outsideLayers);
        const Bytes most = std::max(atTurn, held(turn.inLayer(), 0));
        const Bytes gathered = most + largest * dt.gradient;
        b.gatheredOnlyInBackward = most - atTurn;
        sink.add(ItemId::Zero3GatheredParams, gathered, [&] {
            const std::string turnText = "(" + formatCount(turn.kept) + " kept for reuse + "
                + formatCount(turn.prefetched) + " prefetched)";
            std::string text = most == atTurn ? turnText
                                              : "(" + formatCount(turn.keptInLayer)
                    + " kept from a layer's recomputation to its backward + " + formatCount(turn.prefetchedInLayer)
                    + " prefetched, more than at the turn from forward to backward, " + turnText + ")";
            const std::int64_t outside = most == atTurn ? turn.outsideLayers : 0;
            text += " params × ";
            if (fourBitLayers)
                text += outside > 0 ? "0.5 B (4-bit codes), of them the head's and embedding's " + formatCount(outside)
                        + " × " + std::to_string(dt.weight) + " B"
                                    : "0.5 B (4-bit codes)";
            else
                text += std::to_string(dt.weight) + " B";
            return text + " + the largest trainable module's gradient " + formatCount(largest) + " × "
                + std::to_string(dt.gradient) + " B" + equals(gathered, units);
        });
        // A parameter of at most param_persistence_threshold elements stays gathered all step
        // beside its shard (runtime/zero/parameter_offload.py, mark_persistent_parameters sets
        // ds_persist; partition_parameters.py keeps its data whole): the norms and, under LoRA,
        // most adapters. What trains is in the working dtype, the frozen in the base's (QLoRA's
        // small tensors are not quantized).
        const std::int64_t keptUpTo = kZero3PersistenceThreshold + 1; // the threshold itself included
        const std::int64_t persistent = paramsBelow(keptUpTo);
        const std::int64_t persistentTrained = trainableBelow(keptUpTo);
        const int frozenBytes = s.fineTune == FineTune::QLoRA ? dt.weight : dt.base;
        const Bytes persistentBytes = persistentTrained * dt.weight + (persistent - persistentTrained) * frozenBytes;
        sink.add(ItemId::Zero3PersistentParams, persistentBytes, [&] {
            const std::string bytes = frozenBytes != dt.weight && persistentTrained > 0
                    && persistent > persistentTrained
                ? " params (" + formatCount(persistentTrained) + " trainable params × " + std::to_string(dt.weight)
                    + " B + " + formatCount(persistent - persistentTrained) + " frozen params × "
                    + std::to_string(frozenBytes) + " B)"
                : " params × " + std::to_string(persistentTrained > 0 ? dt.weight : frozenBytes) + " B";
            return formatCount(persistent) + bytes + " in tensors of at most " + formatCount(kZero3PersistenceThreshold)
                + " elements, kept whole beside their shards (DeepSpeed's param_persistence_threshold)"
                + equals(persistentBytes, units);
        });
    }
    addRotaryTable(units, sink);
}

// torchtitan keeps RoPE's table as a buffer of the model on every GPU, all step
// (models/llama/model.py, Transformer.__init__: register_buffer("freqs_cis", precompute_freqs_cis(
// head_dim, max_seq_len)), complex64 of max_seq_len × head_dim/2, max_seq_len the training's whole
// sequence (train.py). Under context parallelism train.py hands it, the token ids and the labels
// to context_parallel() (torch/distributed/tensor/experimental/_attention.py), which clones the
// table to restore it on exit, then shards each buffer with the load balancer (torch.cat of two
// chunks: new tensors), clones the shard and resize_()s the buffer to it, which keeps the
// buffer's storage; while the context is open its frame holds the clone, the shards and the last
// shard's clone, the table's.
//
// torchtune builds its RoPE once per model with the model's max_seq_len (models/llama3_2/
// _model_builders.py and the others: the context length, 131072 for Llama 3.1 and 3.2) and
// registers `cache` (position_embeddings.py, build_rope_cache: torch.stack of cos and sin, FP32,
// max_seq_len × head_dim/2 × 2; Qwen2's, models/qwen2/_positional_embeddings.py, cos and sin each
// head_dim wide, twice that), shared by every layer, on the GPU all step.
//
// lit-gpt (lit_gpt/model.py at 8641822, GPT.max_seq_length's setter, build_rope_cache) registers
// cos and sin of max_seq_length × rope_n_elem; finetune/lora.py sets max_seq_length to the longest
// sample, outside Fabric's init_module, so in the default dtype, FP32. For its Llama block
// rope_n_elem is the head's width; GPT-NeoX blocks rotate a fraction of it (rotary_percentage),
// which the architecture does not carry, so theirs is not counted.
//
// transformers' Mistral and Mixtral code before 4.42, and its Llama code before 4.40, give every
// attention layer its own rotary embedding (models/mistral/modeling_mistral.py,
// MistralAttention.__init__: self.rotary_emb = MistralRotaryEmbedding(head_dim,
// max_position_embeddings); models/llama/modeling_llama.py, LlamaAttention._init_rope), which builds
// its tables at once (MistralRotaryEmbedding._set_cos_sin_cache: register_buffer("cos_cached") and
// "sin_cached"; Llama's 4.38 and 4.39 keep "_cos_cached" and "_sin_cached" "for BC":
// max_position_embeddings × head_dim each, in torch.get_default_dtype(), the dtype from_pretrained
// loads in). Buffers are not sharded: every GPU keeps its stage's layers' tables.
// FSDP1's mixed precision casts buffers to its buffer_dtype, the compute dtype under accelerate.
template <class Sink>
void Stage::addRotaryTable(Units units, Sink &sink) const
{
    if (s.perLayerRope && s.perLayerRopePossible()) {
        const bool stated = s.arch.rotaryPositions > 0;
        const std::int64_t positions = rotaryCachePositions(s);
        const std::int64_t d = s.arch.effectiveHeadDim();
        const int bytes = dt.fsdpCast && s.fsdpVersion == FsdpVersion::Fsdp1 ? dt.activation : dt.loaded;
        const Bytes tables = layers.count() * positions * d * 2 * bytes;
        sink.add(ItemId::RotaryTable, tables, [&] {
            return "transformers' per-layer RoPE tables: " + std::to_string(layers.count()) + " layers × "
                + formatCount(positions)
                + (stated ? " positions (max_position_embeddings)" : " positions (the sequence; no maximum stated)")
                + " × " + std::to_string(d) + " × 2 (cos and sin) × " + std::to_string(bytes) + " B"
                + equals(tables, units);
        });
        return;
    }
    if (s.arch.learnedPositions > 0)
        return;
    if (s.implementation == Implementation::LitGpt) {
        if (s.arch.modeling == Modeling::GptNeox)
            return;
        const std::int64_t d = s.arch.effectiveHeadDim();
        const Bytes cache = s.sequence * d * 2 * 4;
        sink.add(ItemId::RotaryTable, cache, [&] {
            return "lit-gpt's RoPE cache: " + formatCount(s.sequence) + " positions (the longest sample) × "
                + std::to_string(d) + " × 2 × 4 B (FP32 cos and sin)" + equals(cache, units);
        });
        return;
    }
    if (s.implementation == Implementation::TorchTune) {
        const bool stated = s.arch.rotaryPositions > 0;
        const std::int64_t positions = rotaryCachePositions(s);
        // Per position: cos and sin of head_dim/2 angles, or for Qwen's of head_dim (each angle twice).
        const std::int64_t perPosition = torchtuneQwenRope(s.arch) ? s.arch.effectiveHeadDim()
                                                                   : s.arch.effectiveHeadDim() / 2;
        const Bytes cache = positions * perPosition * 2 * 4;
        sink.add(ItemId::RotaryTable, cache, [&] {
            return "torchtune's RoPE cache: " + formatCount(positions)
                + (stated ? " positions (the model's max_seq_len)" : " positions (the sequence; no maximum stated)")
                + " × " + std::to_string(perPosition) + " × 2 × 4 B (FP32 cos and sin)" + equals(cache, units);
        });
        return;
    }
    if (s.implementation != Implementation::TorchTitan)
        return;
    const std::int64_t positions = s.sequence * s.contextParallel;
    const std::int64_t pairs = s.arch.effectiveHeadDim() / 2;
    const Bytes table = positions * pairs * 8;
    sink.add(ItemId::RotaryTable, table, [&] {
        return "freqs_cis, torchtitan's rotary table: " + formatCount(positions) + " positions × "
            + std::to_string(pairs) + " × 8 B (complex64)" + equals(table, units);
    });
    if (s.contextParallel == 1)
        return;
    const Bytes shard = table / s.contextParallel;
    const Bytes ids = 8 * s.microBatch * s.sequence;
    const Bytes copies = table + 2 * shard + 2 * ids;
    sink.add(ItemId::ContextParallelCopies, copies, [&] {
        return "context_parallel()'s copies: the rotary table's clone, kept to restore it, " + formatBytes(table, units)
            + " + its shard and the shard's clone 2 × " + formatBytes(shard, units)
            + " + the token ids' and the labels' shards (int64) 2 × " + formatBytes(ids, units) + equals(copies, units);
    });
}

// lit-gpt creates its model on the GPU one tensor at a time, on one device before anything is
// freed (finetune/lora.py and full.py at 8641822: `with fabric.init_module(empty_init=(devices >
// 1))`, in the default dtype the precision sets; lit_gpt/lora.py, GPT.__init__): the LM head, the
// embedding, then each block's norm_1, attn (the fused q/k/v linear, then LoRA's A and B), proj,
// norm_2 and MLP (LLaMAMLP's fc_1, fc_2, proj; GptNeoxMLP's fc, proj), then ln_f; nn.Linear makes
// its weight, then its bias. On more than one device FSDP materialises a model made on the meta
// device, and under QLoRA bitsandbytes quantizes each linear as it is made, freeing its 16-bit
// weight: other orders, not listed; nor are freezing layers or experts, which lit-gpt's scripts
// do not do. The LM head's bias (phi-1.5's) is not in the architecture.
bool Stage::weightsMadeOneByOne() const
{
    return s.implementation == Implementation::LitGpt && s.gpuCount() == 1
        && (s.fineTune == FineTune::Full || s.fineTune == FineTune::LoRA) && s.arch.experts == 1;
}

// The weight of a norm: lit-gpt's RMSNorm has a weight, its LayerNorm a bias as well.
template <class Visit>
void litgptNorm(const Architecture &a, int bytes, Visit &&visit)
{
    visit(a.hidden * bytes);
    if (a.norm == NormKind::LayerNorm)
        visit(a.hidden * bytes);
}

template <class Visit>
void Stage::weightsBeforeLayers(Visit &&visit) const
{
    // The LM head, a LoRALinear: its linear, then lora_A and lora_B where the head is adapted.
    const int bytes = madeWeightBytes();
    visit(s.arch.vocab * s.arch.hidden * bytes);
    if (s.fineTune == FineTune::LoRA && (s.loraTargets & LoraHead)) {
        visit(s.loraRank * s.arch.hidden * dt.weight);
        visit(s.arch.vocab * s.loraRank * dt.weight);
    }
    visit(s.arch.vocab * s.arch.hidden * bytes); // the embedding
}

template <class Visit>
void Stage::layerWeights(Visit &&visit) const
{
    const Architecture &a = s.arch;
    const int bytes = madeWeightBytes();
    const bool lora = s.fineTune == FineTune::LoRA;
    int count = 0;
    const auto matrices = layerMatrices(a, count); // q, k, v, o, then the MLP's, in lit-gpt's order
    // A linear over `in` × `out`, its bias, then lora_A (r × in) and lora_B (out × r) where adapted.
    const auto linear = [&](std::int64_t in, std::int64_t out, bool adapted) {
        visit(in * out * bytes);
        if (a.linearBias)
            visit(out * bytes);
        if (lora && adapted) {
            visit(s.loraRank * in * dt.weight);
            visit(out * s.loraRank * dt.weight);
        }
    };
    litgptNorm(a, bytes, visit);
    // LoRAQKVLinear fuses q, k and v into one linear with one lora_A of r rows per adapted
    // projection and one lora_B as tall as they are; 512 B rounding aside, the same bytes.
    std::int64_t qkvWidth = 0, adaptedWidth = 0, adaptedRanks = 0;
    for (int i = 0; i < 3; ++i) {
        qkvWidth += matrices[i].out;
        if (matrices[i].loraBit & s.loraTargets) {
            adaptedWidth += matrices[i].out;
            ++adaptedRanks;
        }
    }
    visit(a.hidden * qkvWidth * bytes);
    if (a.linearBias)
        visit(qkvWidth * bytes);
    if (lora && adaptedRanks > 0) {
        visit(adaptedRanks * s.loraRank * a.hidden * dt.weight);
        visit(adaptedWidth * s.loraRank * dt.weight);
    }
    const Matrix &o = matrices[3];
    linear(o.in, o.out, o.loraBit & s.loraTargets);
    if (a.normsPerLayer > 1)
        litgptNorm(a, bytes, visit);
    for (int i = 4; i < count; ++i)
        linear(matrices[i].in, matrices[i].out, matrices[i].loraBit & s.loraTargets);
}

template <class Visit>
void Stage::weightsAfterLayers(Visit &&visit) const
{
    litgptNorm(s.arch, madeWeightBytes(), visit); // ln_f
}

// torch.cuda.max_memory_allocated counts each tensor's block, which PyTorch's caching allocator
// may make larger than the tensor (CachingAllocatorReplay, core/allocator.h): a weight of 10 MiB or more
// created while nothing is free gets a segment of its own rounded up to 2 MiB, and a remainder of
// at most 1 MiB stays in its block. Llama-2-13B's 120 MLP matrices, 135 MiB each, hold 136 MiB.
template <class Sink>
void Stage::addWeightBlockTails(Units units, Sink &sink) const
{
    if (!weightsMadeOneByOne())
        return;
    CachingAllocatorReplay allocator;
    Bytes outside = 0, perLayer = 0;
    std::int64_t tensorsOutside = 0, tensorsPerLayer = 0;
    const auto expect = [&](Bytes &bytes, std::int64_t &tensors) {
        return [&](Bytes tensor) {
            allocator.expect(tensor);
            bytes += tensor;
            ++tensors;
        };
    };
    weightsBeforeLayers(expect(outside, tensorsOutside));
    layerWeights(expect(perLayer, tensorsPerLayer));
    weightsAfterLayers(expect(outside, tensorsOutside));
    const auto allocate = [&](Bytes tensor) { allocator.allocate(tensor); };
    weightsBeforeLayers(allocate);
    allocator.allocateRepeated(s.arch.layers, [&](auto &&allocateInRun) { layerWeights(allocateInRun); });
    weightsAfterLayers(allocate);
    const std::int64_t tensors = tensorsOutside + s.arch.layers * tensorsPerLayer;
    const Bytes requested = outside + s.arch.layers * perLayer;
    const Bytes tails = allocator.blocks() - requested;
    sink.add(ItemId::WeightBlockTails, tails, [&] {
        return "the caching allocator's blocks for lit-gpt's " + std::to_string(tensors)
            + " weight tensors, made one after another on the GPU, less the tensors " + formatBytes(requested, units)
            + " (a weight of 10 MiB or more gets a segment rounded up to 2 MiB and keeps a remainder of at most "
              "1 MiB; smaller ones are rounded up to 512 B)"
            + equals(tails, units);
    });
}

// Gradients: one per trainable parameter in the gradient dtype (the ZeRO paper's 2Ψ), sharded
// from ZeRO-2 on, with the buffers DeepSpeed and FSDP reduce them through.
template <class Sink>
void Stage::addGradients(Units units, Breakdown &b, Sink &sink) const
{
    const Architecture &a = s.arch;
    // torchtune's optimizer in backward (training/memory.py, register_optim_in_bwd_hooks): each
    // parameter's post-accumulate-grad hook steps its optimizer and zeroes (frees) its gradient,
    // so one parameter's gradient is alive at a time, at most the largest.
    const std::int64_t largestGradient = s.optimizerInBackward ? largestTrainableTensor() : 0;
    const Bytes gradBytes = s.optimizerInBackward
        ? largestGradient * dt.gradient
        : shardSplit(trainable, trainableExperts, dt.gradient, shardGradients);
    // ZeRO-Offload keeps no partitioned 16-bit gradients on the GPU. At stage 2 there are none:
    // each reduced partition is copied straight into the FP32 gradients in CPU memory
    // (stage_1_and_2.py, copy_grads_in_partition returns before grads_in_partition is made); at
    // stage 3 they live in CPU memory (stage3.py, grad_partitions_flat_buffer on self.device,
    // the CPU when the optimizer is offloaded, in grad_accum_dtype: the model's by default).
    const bool offloadsGradients = deepSpeedOffload() && s.zeroStage >= 2;
    const bool gradientsOnHost = offloadsGradients && s.zeroStage == 3;
    // Megatron-Core's DDP allocates its FP32 main gradients once, in the buffer it wraps the model
    // with (distributed/param_and_grad_buffer.py, _ParamAndGradBuffer: grad_data), and zeroes it
    // each step (zero_grad_buffer) instead of freeing it: there before the first backward.
    // So do gradients that zero_grad(set_to_none=False) zeroes instead of freeing (PyTorch 1.x's
    // default, torch/optim/optimizer.py and torch/nn/modules/module.py zero_grad), and DDP's
    // gradients as views of its buckets (gradient_as_bucket_view, below).
    // DeepSpeed ZeRO-3 reduces each gradient into its partition of one flat buffer it allocates with
    // the optimizer and keeps (stage3.py, _setup_for_real_optimizer: grad_partitions_flat_buffer =
    // torch.zeros(...) on self.device; CPU memory when offloaded).
    b.gradientsPersist = s.megatron() || (s.gradientsKept && !s.optimizerInBackward)
        || (s.pytorchDdp() && s.ddpBucketView) || (s.deepSpeed() && s.zeroStage == 3 && !offloadsGradients);
    // Over a step's micro-batches each backward adds into the gradients the earlier ones left
    // (autograd's AccumulateGrad into .grad; DeepSpeed's partitions, grads_in_partition; FSDP's
    // sharded gradients, _accumulate_sharded_grad and FSDPParam's sharded_param.grad): the last
    // micro-batch runs beside them. Without sync, FSDP reduces only in the last backward.
    b.gradientsAccumulated = s.microBatchesPerStep() > 1 && !(s.fsdp() && s.fsdpNoSync) && !s.optimizerInBackward;
    // The head's backward runs before any layer's and makes the gradients of its weight (with tied
    // embeddings the shared matrix's, into which the embedding's backward adds last) and of the
    // final norm (autograd's AccumulateGrad); an untied embedding's gradient is made after every
    // layer's, by the step's last backward. The step timeline spreads the layers' own over their
    // backward. (Measured on an H200: h200-llama1b-fp32-sdpa-b1-s4096 peaks in the last layer's
    // backward with the tied head's gradient there, a fifth of the model's.) Sharded, persistent,
    // accumulated or stepped-in-backward gradients keep their own timing; BERT's pooler and
    // classifier, small, stay spread with the layers'.
    if (gradientsMadeAsBackwardGoes(b) && a.modeling != Modeling::Bert) {
        const std::int64_t tokenEmbedding = counts.embedding - counts.replicatedEmbedding;
        b.gradientsBeforeLayers = lastStage
            ? dt.gradient * ((a.tiedEmbeddings ? tokenEmbedding : counts.head) + counts.finalNorm)
            : 0;
        b.gradientsAfterLayers = firstStage && !a.tiedEmbeddings ? dt.gradient * counts.embedding : 0;
    }
    // FSDP1 with use_orig_params: the optimizer's zero_grad(set_to_none=True) frees the original
    // parameters' gradients, views of each unit's flat gradient; FSDP frees that one when the root's
    // next forward starts (torch/distributed/fsdp/_runtime_utils.py, _root_pre_forward:
    // _reset_flat_param_grad_info_if_needed, "free the gradients as soon after the zero_grad() call
    // as possible").
    b.gradientsUntilNextForward = s.fsdp() && s.fsdpVersion == FsdpVersion::Fsdp1 && s.fsdpOrigParams;
    // FSDP's sharded gradients are views of the reduce-scatter output, which foreach_reduce
    // allocates on FSDP's reduce-scatter stream (_fsdp_collectives.py: "the GPU sharded gradient
    // is allocated in the RS stream"); zero_grad frees them, but their blocks stay cached for that
    // stream, out of the compute stream's reach, and so does the all-gather buffer (above).
    b.streamPoolsReserved = s.fsdp() && shardParams && s.overhead.reserveCounted();
    sink.add(
        ItemId::Gradients, offloadsGradients ? 0 : gradBytes,
        [&] {
            if (s.optimizerInBackward)
                return "one parameter's gradient at a time (optimizer in backward), the largest "
                    + formatCount(largestGradient) + " × " + std::to_string(dt.gradient) + " B"
                    + equals(gradBytes, units);
            std::string text = formatCount(trainable) + " trainable params × " + std::to_string(dt.gradient) + " B"
                + shardText(s, shardGradients);
            if (b.streamPoolsReserved)
                return text + equals(gradBytes, units) + ", cached for FSDP's reduce-scatter stream all step";
            if (b.gradientsUntilNextForward)
                return text + equals(gradBytes, units)
                    + ", kept after zero_grad until the next forward (FSDP1's flat gradients, use_orig_params)";
            if (!offloadsGradients)
                return text + equals(gradBytes, units);
            if (gradientsOnHost)
                return text + equals(gradBytes, units) + ", in CPU memory";
            return text + ": none on the GPU (ZeRO-Offload reduces into the FP32 gradients in CPU memory)";
        },
        gradientsOnHost ? gradBytes : 0);
    // PyTorch's DistributedDataParallel builds its Reducer with flat all-reduce buckets that hold
    // every trainable parameter's gradient in the parameter's dtype, allocated when the model is
    // wrapped (torch/csrc/distributed/c10d/reducer.cpp, Reducer::initialize_buckets:
    // bucket.gradients = at::empty(...)); backward copies each gradient in and the reduced ones
    // are copied back. With gradient_as_bucket_view the gradients are views of the buckets: no
    // copy, but allocated all step ("the saved memory size will be equal to the total gradients
    // size", DistributedDataParallel's documentation).
    if (s.pytorchDdp() && !s.ddpBucketView) {
        const Bytes buckets = trainable * dt.gradient;
        sink.add(ItemId::DdpGradientBuckets, buckets, [&] {
            return formatCount(trainable) + " trainable params × " + std::to_string(dt.gradient)
                + " B (DDP's all-reduce buckets, each gradient copied in; not gradient_as_bucket_view)"
                + equals(buckets, units);
        });
    }
    if (shardOptimizer && s.deepSpeed() && s.reduceBucket > 0) {
        // DeepSpeed's ZeRO optimizers, with contiguous_gradients (on by default): at stages 1
        // and 2 every backward allocates an ipg_buffer of reduce_bucket_size elements in the
        // 16-bit dtype (deepspeed/runtime/zero/stage_1_and_2.py, DeepSpeedZeroOptimizer.backward;
        // with overlap_comm, off by default below stage 3 (zero/config.py), a second one: "Use
        // double buffers to avoid data access conflict when overlap_comm is enabled"); at stage 3
        // the optimizer allocates one such __ipg_bucket_flat_buffer when it is built
        // (stage3.py, DeepSpeedZeroOptimizer_Stage3.__init__).
        const int buffers = s.overlapComm && !shardParams ? 2 : 1;
        const Bytes bucket = buffers * s.reduceBucket * dt.weight;
        b.bucketPersists = shardParams;
        sink.add(ItemId::ZeroReduceBucket, bucket, [&] {
            return (buffers > 1 ? "2 × " : "") + ("reduce_bucket_size " + formatCount(s.reduceBucket)) + " elements × "
                + std::to_string(dt.weight) + " B (DeepSpeed's contiguous gradient bucket"
                + (buffers > 1 ? "s, one reduced while the other fills: overlap_comm)" : ")") + equals(bucket, units);
        });
    }
    if (optimizerStepsFlatPartitions() && s.offload == Offload::None) {
        // DeepSpeed's step hands the optimizer an FP32 gradient for each flat partition it steps,
        // made from the partition's gradients (stage_1_and_2.py, DeepSpeedZeroOptimizer.step;
        // stage3.py, _prepare_fp32_grad_for_sub_group: single_grad_partition =
        // self.flatten(self.averaged_gradients[i]).to(fp32)) and dropped after that partition's
        // step; the 16-bit flat copy .to() converts is an intermediate of the step (addOptimizerStates).
        const std::int64_t partition = largestFlatPartition;
        const Bytes fp32 = partition * 4;
        sink.add(ItemId::ZeroFp32Gradients, fp32, [&] {
            return "the largest flat partition " + formatCount(partition)
                + " × 4 B (DeepSpeed's FP32 gradient for the optimizer, during the step)" + equals(fp32, units);
        });
    }
    if (deepSpeedOffload() && s.zeroStage <= 2 && baseTrains(s)) {
        // ZeRO-Offload at stages 1 and 2 stages each gradient through a GPU buffer as large as the
        // largest trainable parameter, in the 16-bit dtype, allocated when the optimizer is built
        // (deepspeed/runtime/zero/stage_1_and_2.py, DeepSpeedZeroOptimizer.__init__:
        // temp_grad_buffer_for_gpu_offload = torch.zeros(largest_param_numel, dtype=self.dtype)).
        const std::int64_t largest = ceilDiv(counts.largestMatrix, t);
        const Bytes buffer = largest * dt.weight;
        sink.add(ItemId::OffloadGradientBuffer, buffer, [&] {
            return "largest parameter " + formatCount(largest) + " × " + std::to_string(dt.weight)
                + " B (DeepSpeed's GPU buffer for gradients bound for the CPU)" + equals(buffer, units);
        });
    }
    if (deepSpeedOffload())
        addOffloadHostBuffers(units, sink);
    if (shardGradients && s.fsdp()) {
        // FSDP2 backward, per unit (_fsdp_collectives.py, foreach_reduce_scatter): autograd's
        // unsharded gradients in the compute dtype, copied into a reduce-scatter input of the
        // whole unit in the reduce dtype, freed once the shard is reduced. The head's gradient
        // arrives in the loss's backward and waits for the root's reduce-scatter at the end of
        // backward (the root unit reduces when its last gradient, the embedding's, is in).
        const int reduceBytes = s.gradDtype == GradDtype::Auto ? dt.gradient : s.gradDtype == GradDtype::Fp32 ? 4 : 2;
        const std::int64_t layerGrads = trainableLayersHere == 0 ? 0
            : baseTrains(s)                                      ? perLayerOnRank
                                                                 : ceilDiv(loraParamsPerLayer(s), t);
        const std::int64_t headParams = a.tiedEmbeddings ? a.vocab * a.hidden : counts.head; // tied: the embedding's
        const std::int64_t headGrads = !lastStage ? 0
            : baseTrains(s)                       ? counts.finalNorm + ceilDiv(headParams, t)
                                                  : ceilDiv(loraHeadParams(s), t); // the head's adapter
        const Bytes buffers = layerGrads * (dt.activation + reduceBytes) + headGrads * dt.activation;
        sink.add(ItemId::FsdpGradientBuffers, buffers, [&] {
            std::string text = "one layer's unsharded gradients " + formatCount(layerGrads) + " × ("
                + std::to_string(dt.activation) + " B + " + std::to_string(reduceBytes) + " B reduce-scatter input)";
            if (headGrads > 0)
                text += " + the head's, held until the root reduces, " + formatCount(headGrads) + " × "
                    + std::to_string(dt.activation) + " B";
            return text + equals(buffers, units);
        });
        if (s.fsdpNoSync && s.microBatchesPerStep() > 1) {
            // Gradient sync off between micro-batches (FSDP2: FSDPParamGroup.post_backward skips
            // the reduce-scatter and FSDPParam.to_accumulated_grad_if_needed keeps the unsharded
            // gradient, cast to the reduce dtype, in unsharded_accumulated_grad;
            // torch/distributed/fsdp/_fully_shard/_fsdp_param.py. FSDP1: _post_backward_hook
            // returns before casting and reduce-scattering, the unsharded flat gradient stays in the
            // compute dtype; fsdp/_runtime_utils.py): every trainable parameter this GPU computes
            // with, unsharded, from the first micro-batch's backward to the last one's.
            const int accumulatedBytes = s.fsdpVersion == FsdpVersion::Fsdp1 ? dt.activation : reduceBytes;
            const Bytes accumulated = trainable * accumulatedBytes;
            sink.add(ItemId::FsdpAccumulatedGradients, accumulated, [&] {
                return formatCount(trainable) + " trainable params × " + std::to_string(accumulatedBytes)
                    + " B (unsharded, summed over the step's micro-batches without syncing)"
                    + equals(accumulated, units);
            });
        }
    }
}

// DeepSpeed ZeRO-Offload's buffers in CPU memory, per GPU (each rank's optimizer allocates its
// own, so a node needs them once per GPU): no GPU bytes.
template <class Sink>
void Stage::addOffloadHostBuffers(Units units, Sink &sink) const
{
    const auto onHost = [&](ItemId id, Bytes bytes, auto &&formula) {
        sink.add(
            id, 0, [&] { return formula() + equals(bytes, units) + ", in CPU memory"; }, bytes);
    };
    // The FP32 gradients the CPU optimizer steps with, one per master partition:
    // stage_1_and_2.py initialize_optimizer_states (single_partition_of_fp32_groups[i].grad) and
    // stage3.py _setup_for_real_optimizer (subgroup_gradient_buffer).
    const Bytes fp32Gradients = shardSplit(trainable, trainableExperts, 4, shardOptimizer);
    onHost(ItemId::OffloadFp32Gradients, fp32Gradients, [&] {
        return formatCount(trainable) + " trainable params × 4 B (FP32 gradients for the CPU optimizer)"
            + shardText(s, shardOptimizer);
    });
    if (s.zeroStage == 3)
        return;
    // Stages 1 and 2 (stage_1_and_2.py, DeepSpeedZeroOptimizer.__init__): the updated partition in
    // the 16-bit dtype, to be copied back to the GPU (param_buffer_of_bit16_for_cpu_offload_groups)...
    const Bytes partition16 = shardSplit(trainable, trainableExperts, dt.weight, shardOptimizer);
    onHost(ItemId::OffloadParamBuffer, partition16, [&] {
        return formatCount(trainable) + " trainable params × " + std::to_string(dt.weight)
            + " B (the updated partition, for the GPU)" + shardText(s, shardOptimizer);
    });
    // ... the pinned twin of the GPU's staging buffer (temp_grad_buffer_for_cpu_offload) ...
    if (baseTrains(s)) {
        const std::int64_t largest = ceilDiv(counts.largestMatrix, t);
        onHost(ItemId::OffloadHostGradientBuffer, largest * dt.weight, [&] {
            return "largest parameter " + formatCount(largest) + " × " + std::to_string(dt.weight)
                + " B (DeepSpeed's CPU buffer for gradients from the GPU)";
        });
    }
    // ... and, with more than one micro-batch per step, each parameter's gradient accumulated in
    // CPU memory between them, in its own dtype (async_accumulate_grad_in_cpu_via_gpu:
    // accumulated_grads_in_cpu; a parameter that straddles two partitions is kept whole).
    if (s.microBatchesPerStep() > 1)
        onHost(ItemId::OffloadAccumulatedGradients, partition16, [&] {
            return formatCount(trainable) + " trainable params × " + std::to_string(dt.weight)
                + " B (gradients accumulated between micro-batches)" + shardText(s, shardOptimizer);
        });
}

std::int64_t Stage::trainableBelow(std::int64_t threshold) const
{
    if (s.lora())
        return std::min(adaptersBelow(threshold), trainable);
    return std::min(baseTensorsBelow(threshold, trainableLayersHere, s.fineTune == FineTune::Full), trainable);
}

std::int64_t Stage::paramsBelow(std::int64_t threshold) const
{
    return baseTensorsBelow(threshold, layers.count(), true) + (s.lora() ? adaptersBelow(threshold) : 0);
}

std::int64_t Stage::adaptersBelow(std::int64_t threshold) const
{
    std::int64_t total = loraTensorsBelow(s, threshold) * layers.count();
    if (lastStage && (s.loraTargets & LoraHead))
        total += below(s.loraRank * s.arch.hidden, threshold) + below(s.arch.vocab * s.loraRank, threshold);
    return total;
}

// Whole tensors on one tensor-parallel GPU. A count given directly keeps its layers' matrices
// whole, and large. `embeddings`: the learned positions and BERT's token types, tensors of the
// embedding that train only under full fine-tuning.
std::int64_t Stage::baseTensorsBelow(std::int64_t threshold, std::int64_t layerCount, bool embeddings) const
{
    const Architecture &a = s.arch;
    const std::int64_t h = a.hidden;
    const auto small = [&](std::int64_t elements) { return below(elements, threshold); };
    const bool shapesKnown = a.fixedParams == 0;
    const std::int64_t perLayer = std::min(layerTensorsBelow(s, threshold, shapesKnown),
                                           counts.perLayerVectors + (shapesKnown ? counts.perLayerMatrices : 0));
    std::int64_t total = perLayer * layerCount;
    if (firstStage && embeddings)
        total += small(a.learnedPositions * h) + (a.modeling == Modeling::Bert ? small(2 * h) : 0);
    if (lastStage) {
        total += std::min(counts.finalNorm, (a.norm == NormKind::LayerNorm ? 2 : 1) * small(h));
        if (a.modeling == Modeling::Bert) // the pooler's weight and bias, the classifier's
            total += small(h * h) + small(h) + small(2 * h) + small(2);
    }
    return total;
}

std::int64_t Stage::largestTrainableModule() const
{
    return ceilDiv(s.lora() ? largestLoraTensor(s) : counts.largestMatrix, t);
}

std::int64_t Stage::largestTrainableTensor() const
{
    return s.lora() ? largestTrainableModule() : shard(largestTrainableModule(), shardOptimizer);
}

// The order is the one the modeling code registers its parameters in (model.parameters()):
// the embeddings, each layer, the final norm and the head; lit-gpt registers its head first
// (lit_gpt/model.py GPT.__init__). Megatron fuses q, k and v into linear_qkv and gate and up into
// linear_fc1; lit-gpt and GPT-2 fuse q, k and v (attn, c_attn). Where the biases and norms step
// in a group of their own after the weights (decayGroupFirst()), a pair of those vectors is far
// below any pair of weights, so the walk stops before them. Elsewhere one group
// holds all, the norms between the weights where the layer registers them (torchtitan's and
// torchtune's after the layer's linears, lit-gpt's before attention and the MLP). LoRA steps
// each adapted projection's lora_A then lora_B (PEFT's LoraLayer; lit-gpt's fused qkv adapter
// counted as its parts). Each tensor is split as the GPU holds it: by tensor parallelism and by
// FSDP's and ZeRO-3's per-parameter shards (Megatron's distributed optimizer, whose shards are
// ranges of a flat buffer, counted alike: Megatron runs its FusedAdam, a loop there is a what-if).
template <class Visit, class EachLayer>
void Stage::registeredTensors(std::int64_t layersShown, Visit &&visit, EachLayer &&eachLayer) const
{
    const Architecture &a = s.arch;
    const bool grouped = decayGroupFirst();
    const std::int64_t perTensorShard = shardOptimizer ? n : 1;
    const auto tensor = [&](std::int64_t elements, std::int64_t split) {
        visit(ceilDiv(ceilDiv(elements, split), perTensorShard));
    };
    const auto vector = [&](std::int64_t elements, std::int64_t split) {
        if (!grouped)
            tensor(elements, split);
    };
    const auto norm = [&] {
        vector(a.hidden, 1);
        if (a.norm == NormKind::LayerNorm)
            vector(a.hidden, 1);
    };
    const auto linear = [&](std::int64_t in, std::int64_t out, std::int64_t split) {
        tensor(in * out, split);
        if (a.linearBias)
            vector(out, split);
    };
    const bool fusedQkv = s.implementation == Implementation::LitGpt || s.implementation == Implementation::Megatron
        || a.modeling == Modeling::Gpt2;
    const bool fusedGateUp = s.implementation == Implementation::Megatron && gated(a.mlp);
    const bool normsFirst = s.implementation == Implementation::LitGpt || s.implementation == Implementation::Megatron;
    int count = 0;
    const auto m = layerMatrices(a, count);
    const int mlpEnd = a.experts > 1 ? count - 1 : count; // the router last
    const auto layer = [&] {
        if (s.lora()) {
            forEachLoraTensor(s, [&](std::int64_t elements, std::int64_t copies) {
                for (std::int64_t c = 0; c < std::min<std::int64_t>(copies, 2); ++c)
                    tensor(elements, t);
            });
            return;
        }
        if (normsFirst)
            norm();
        if (fusedQkv)
            linear(a.hidden, m[0].out + m[1].out + m[2].out, t);
        else
            for (int i = 0; i < 3; ++i)
                linear(m[i].in, m[i].out, t);
        linear(m[3].in, m[3].out, t);
        if (normsFirst && a.normsPerLayer > 1)
            norm();
        // The router, then each expert's matrices one after another (Mixtral's gate, then
        // experts[i].w1, w2, w3).
        if (a.experts > 1)
            tensor(a.hidden * a.experts, 1);
        const std::int64_t experts = std::clamp<std::int64_t>(a.experts / s.expertParallel, 1, 2);
        for (std::int64_t e = 0; e < experts; ++e) {
            if (fusedGateUp)
                linear(a.hidden, 2 * a.ffn, t);
            for (int i = fusedGateUp ? mlpEnd - 1 : 4; i < mlpEnd; ++i)
                linear(m[i].in, m[i].out, t);
        }
        if (!normsFirst)
            for (int i = 0; i < a.normsPerLayer; ++i)
                norm();
    };
    const auto head = [&] {
        if (!lastStage)
            return;
        if (s.lora() && (s.loraTargets & LoraHead)) {
            tensor(s.loraRank * a.hidden, t);
            tensor(a.vocab * s.loraRank, t);
        } else if (s.lora()) {
            return;
        } else if (a.modeling == Modeling::Bert) { // the pooler and the classifier
            linear(a.hidden, a.hidden, 1);
            linear(a.hidden, 2, 1);
        } else if (counts.head > 0 || p > 1) { // untied, or the last stage's copy of a tied one
            tensor(a.vocab * a.hidden, t);
        }
    };
    const bool headFirst = s.implementation == Implementation::LitGpt;
    if (headFirst)
        head();
    if (s.fineTune == FineTune::Full && firstStage) {
        tensor(a.vocab * a.hidden, t);
        if (a.learnedPositions > 0)
            tensor(a.learnedPositions * a.hidden, 1);
        if (a.modeling == Modeling::Bert) {
            tensor(2 * a.hidden, 1); // token types
            norm();
        }
    }
    for (std::int64_t i = 0; i < std::min(layersShown, s.lora() ? layers.count() : trainableLayersHere); ++i)
        eachLayer(layer);
    if (!s.lora() && lastStage && a.modeling != Modeling::Bert)
        norm();
    if (!headFirst)
        head();
}

// DeepSpeed's ZeRO-1/2 hands the optimizer one flat partition per group (stage_1_and_2.py,
// single_partition_of_fp32_groups), ZeRO-3 one per sub-group, whose parameters' partitions it
// gathers until they reach sub_group_size, 1e9 elements by default (stage3.py
// _create_fp16_sub_groups); it steps each by a call of its own.
template <class Visit>
void Stage::tensorsInStepOrder(Visit &&visit) const
{
    if (!optimizerStepsFlatPartitions()) {
        registeredTensors(2, [&](std::int64_t elements) { visit(elements, false); });
        return;
    }
    const std::int64_t vectors = noDecayElements();
    if (shardParams) { // each parameter's partition, gathered into sub-groups of sub_group_size or more
        constexpr std::int64_t kSubGroup = 1'000'000'000;
        std::int64_t subGroup = 0;
        // The layers are alike: one that cannot close a sub-group adds its partitions at once.
        std::int64_t layerSum = -1;
        bool summingLayer = false;
        const auto gather = [&](std::int64_t partition) {
            if (summingLayer) {
                layerSum += partition;
                return;
            }
            subGroup += partition;
            if (subGroup >= kSubGroup) {
                visit(subGroup, true);
                subGroup = 0;
            }
        };
        registeredTensors(layers.count(), gather, [&](const auto &layer) {
            if (layerSum < 0) {
                layerSum = 0;
                summingLayer = true;
                layer();
                summingLayer = false;
            }
            if (subGroup + layerSum < kSubGroup)
                subGroup += layerSum;
            else
                layer();
        });
        if (subGroup > 0)
            visit(subGroup, true);
    } else {
        visit(ceilDiv(trainable - vectors, n), true);
    }
    if (vectors > 0)
        visit(ceilDiv(vectors, n), true);
}

std::int64_t Stage::findLargestFlatPartition() const
{
    std::int64_t largest = 0;
    if (optimizerStepsFlatPartitions())
        tensorsInStepOrder([&](std::int64_t partition, bool) { largest = std::max(largest, partition); });
    return largest;
}

std::int64_t Stage::noDecayElements() const
{
    if (!decayGroupFirst() || s.lora())
        return 0;
    const std::int64_t perLayer = ceilDiv(counts.perLayerColumnBiases, t) + counts.perLayerVectors
        - counts.perLayerColumnBiases;
    std::int64_t outside = lastStage ? counts.finalNorm : 0;
    if (s.arch.modeling == Modeling::Bert) // the embeddings' LayerNorm; the pooler's and the classifier's biases
        outside = (firstStage && s.fineTune == FineTune::Full ? counts.finalNorm : 0)
            + (lastStage ? s.arch.hidden + 2 : 0);
    return perLayer * trainableLayersHere + outside;
}

LoopStep Stage::loopStep(int working) const
{
    LoopStep widest;
    std::int64_t previous = 0;
    tensorsInStepOrder([&](std::int64_t elements, bool newCall) {
        if (newCall)
            previous = 0;
        const LoopStep here{previous, elements};
        if (here.elements(working) > widest.elements(working))
            widest = here;
        previous = elements;
    });
    return widest;
}

// Optimizer states: the FP32 master copy of mixed precision and the optimizer's moments (the
// ZeRO paper's KΨ, K = 12 for mixed-precision Adam), sharded from ZeRO-1 on or offloaded.
template <class Sink>
void Stage::addOptimizerStates(Units units, Sink &sink) const
{
    const Architecture &a = s.arch;
    const bool offloaded = s.offload != Offload::None;
    auto place = [&](ItemId id, Bytes bytes, auto &&formula) {
        sink.add(
            id, offloaded ? 0 : bytes,
            [&] {
                return formula() + shardText(s, shardOptimizer) + equals(bytes, units)
                    + (offloaded ? ", offloaded to CPU memory" : "");
            },
            offloaded ? bytes : 0);
    };
    if (dt.master > 0) {
        const Bytes master = shardSplit(trainable, trainableExperts, dt.master, shardOptimizer);
        place(ItemId::MasterWeights, master,
              [&] { return formatCount(trainable) + " params × 4 B (FP32 master copy)"; });
    }

    const OptimizerState optimizer = optimizerState(s);
    const int states = optimizer.states;
    const int bytesPerState = optimizer.bytesPerState;
    // Adafactor factors the second moment of a tensor of two dimensions or more (transformers
    // optimization.py, Adafactor._get_options); DeepSpeed's ZeRO hands it 1-D flat partitions,
    // whose second moment it keeps whole.
    const bool factored = optimizer.factored && !optimizerStepsFlatPartitions();
    const char *what = optimizer.factored && !factored
        ? "Adafactor's second moment, whole: DeepSpeed's partitions are flat"
        : optimizer.what;
    std::int64_t stateElements = trainable;
    if (factored && (s.fineTune == FineTune::Full || s.fineTune == FineTune::Freeze)) {
        const std::int64_t perLayer = adafactorStatePerLayer(a, s.expertParallel) / t + counts.perLayerVectors;
        const std::int64_t outside = trainable - perLayerOnRank * trainableLayersHere;
        const std::int64_t outsideFactored = outside > 0 ? a.vocab + a.hidden : 0;
        stateElements = perLayer * trainableLayersHere + std::min(outside, outsideFactored);
    }
    // Adafactor's factors are counted per matrix; the rest is one state per expert parameter.
    const std::int64_t momentExperts = factored ? 0 : trainableExperts;
    // The state elements this GPU holds (one per trainable parameter here, or per factor entry).
    const std::int64_t elementsHere = shardSplit(stateElements, momentExperts, 1, shardOptimizer);
    Bytes moments = shardSplit(stateElements, momentExperts, states * bytesPerState, shardOptimizer);
    // bitsandbytes' 8-bit AdamW keeps FP32 states for a tensor under 4096 elements and, for the
    // others, an FP32 absmax per block of 256 elements of each state (Optimizer2State.init_state:
    // absmax1, absmax2; ≤ 8 B a tensor less than block by block). Counted over whole tensors on
    // one GPU; ZeRO and FSDP hand the optimizer flat or sliced shards, counted as 8-bit throughout.
    const bool eightBit = s.optimizer == Optimizer::AdamW8bit;
    const std::int64_t fp32States = eightBit && !shardOptimizer && t == 1 ? trainableBelow(kMin8bitElements) : 0;
    const std::int64_t quantized = eightBit ? elementsHere - fp32States : 0;
    const Bytes absmax = states * 4 * ceilDiv(quantized, 256);
    moments += fp32States * states * (4 - bytesPerState) + absmax;
    // A paged optimizer (one GPU's whole tensors: scenarioError()) keeps the small tensors' states
    // and the absmax blocks here.
    const std::int64_t paged = s.pagedOptimizer ? trainable - trainableBelow(kPagedMinElements) : 0;
    const Bytes pagedBytes = paged * states * bytesPerState;
    if (moments > pagedBytes || paged == 0)
        place(ItemId::OptimizerMoments, moments - pagedBytes, [&] {
            if (states == 0)
                return std::string(what);
            std::string text = paged > 0 || fp32States > 0
                ? "(" + formatCount(stateElements) + (fp32States > 0 ? " − " + formatCount(fp32States) : "")
                    + (paged > 0 ? " − " + formatCount(paged) + " paged" : "") + ") params"
                : formatCount(stateElements) + (factored ? " factor entries" : " params");
            text += " × " + std::to_string(states) + " × " + std::to_string(bytesPerState) + " B (" + what + ")";
            if (fp32States > 0)
                text += " + " + formatCount(fp32States) + " params in tensors under 4096 elements × "
                    + std::to_string(states) + " × 4 B (FP32 states)";
            if (absmax > 0)
                text += " + " + formatCount(quantized) + " × " + std::to_string(states)
                    + " × 4 B ÷ 256 (absmax per block)";
            return text;
        });
    // The step's intermediates, alive during the step only. torch.optim.AdamW
    // (torch/optim/adamw.py): foreach takes torch._foreach_sqrt of every exp_avg_sq at once, an
    // intermediate as large as v (PyTorch's docs: "~ sizeof(params) more peak memory than the
    // for-loop version"); the for-loop version (_single_tensor_adamw) evaluates
    // denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps) for one tensor while the
    // previous tensor's denom is still bound, until the assignment (3 tensors at once); Hugging
    // Face's own AdamW (transformers optimization.py, AdamW.step) writes
    // denom = exp_avg_sq.sqrt().add_(eps), 2 at once, its denom outliving the param group; a
    // fused kernel none. In backward each parameter has an optimizer of its own, stepped alone.
    // Hugging Face's Adafactor (Adafactor.step, a loop) computes update = (grad**2) + eps beside
    // grad**2 while the previous tensor's update is still bound, then its factored approximation
    // beside it, with FP32 copies of a 16-bit gradient and parameter. bitsandbytes' optimizers
    // (8-bit, paged) step in their own kernels.
    const OptimizerImpl impl = optimizerImplOf(s);
    const bool adafactor = s.optimizer == Optimizer::Adafactor;
    const bool torchIntermediates = s.torchAdamWOnGpu() && impl != OptimizerImpl::Fused;
    // DeepSpeed makes each partition's FP32 gradient (addGradients) from a 16-bit flat copy of its
    // gradients, freed once converted: an intermediate of the step before the optimizer's own.
    const std::int64_t partition = largestFlatPartition;
    const Bytes conversion = offloaded || dt.gradient >= 4 ? 0 : partition * dt.gradient;
    const bool intermediates = torchIntermediates || (adafactor && !offloaded);
    if (intermediates || conversion > 0) {
        const std::int64_t largest = largestTrainableTensor();
        const bool allAtOnce = intermediates && !adafactor && impl == OptimizerImpl::Foreach && !s.optimizerInBackward;
        const bool loop = intermediates && !allAtOnce && !s.optimizerInBackward;
        // Before PyTorch 2.1 foreach added eps out of place: √v and √v + eps side by side; the
        // for-loop's √v and √v / c are two as well; Adafactor's grad² and grad² + eps, with the
        // gradient's and the parameter's FP32 copies where they are 16-bit.
        const bool sixteenBitInput = dt.gradient < 4 && !optimizerStepsFlatPartitions(); // DeepSpeed's are FP32
        const int workingCopies = adafactor ? (sixteenBitInput ? 4 : 2)
            : (impl == OptimizerImpl::Foreach && s.foreachAdamCopiesDenominator()) || impl == OptimizerImpl::ForLoop
            ? 2
            : 1;
        const LoopStep pair = loop ? loopStep(workingCopies) : LoopStep{};
        // Foreach over each group in turn: the weights' where the biases and norms have a group of
        // their own, under ZeRO the largest flat partition.
        const std::int64_t foreachElements = optimizerStepsFlatPartitions()
            ? partition
            : elementsHere - shard(noDecayElements(), shardOptimizer);
        const int stepBytes = adafactor ? 4 : bytesPerState; // Adafactor computes its update in FP32
        const Bytes buffer = !intermediates ? 0
            : allAtOnce                     ? Bytes(foreachElements) * stepBytes * workingCopies
            : loop                          ? Bytes(pair.elements(workingCopies)) * stepBytes
                                            : Bytes(largest) * stepBytes * workingCopies;
        sink.add(ItemId::OptimizerStepBuffer, std::max(buffer, conversion), [&] {
            if (conversion > buffer) // FusedAdam's none; any other optimizer's FP32 ones outgrow it
                return "DeepSpeed's 16-bit flat copy of the largest partition's gradients, converted to FP32, "
                    + formatCount(partition) + " × " + std::to_string(dt.gradient) + " B, during the step"
                    + equals(conversion, units);
            const std::string copies = workingCopies > 1 ? " × " + std::to_string(workingCopies) : "";
            const std::string perState = " × " + std::to_string(stepBytes) + " B";
            const std::string widestPair = (pair.previous > 0 ? formatCount(pair.previous) + " + " : "")
                + formatCount(pair.current) + copies + ")" + perState + ", during the step" + equals(buffer, units);
            if (adafactor && loop)
                return std::string(workingCopies > 2
                                       ? "Adafactor, one tensor at a time: the previous tensor's FP32 update, bound "
                                         "until the next replaces it, beside the current one's grad², update and "
                                         "FP32 copies of its gradient and parameter, at the widest pair: ("
                                       : "Adafactor, one tensor at a time: the previous tensor's FP32 update, bound "
                                         "until the next replaces it, beside the current one's grad² and update, at "
                                         "the widest pair: (")
                    + widestPair;
            if (loop)
                return std::string(impl == OptimizerImpl::ForLoop
                                       ? "for-loop AdamW, one tensor at a time: the previous tensor's denominator "
                                         "√v / c + eps, bound until the next replaces it, beside the current one's √v "
                                         "and √v / c, at the widest pair: ("
                                       : "transformers' AdamW, one tensor at a time: the previous tensor's √v + eps, "
                                         "bound until the next replaces it, beside the current one's, at the widest "
                                         "pair: (")
                    + widestPair;
            if (adafactor) // in backward: each tensor alone
                return "Adafactor's FP32 update and its factored approximation"
                    + std::string(workingCopies > 2 ? ", with FP32 copies of the gradient and the parameter," : "")
                    + " of one tensor at a time, the largest " + formatCount(largest) + copies + perState
                    + ", during the step" + equals(buffer, units);
            const std::string held = workingCopies > 1 && impl == OptimizerImpl::Foreach
                ? "√v and √v + eps (out of place before PyTorch 2.1)"
                : impl == OptimizerImpl::ForLoop ? "√v and √v / c"
                                                 : "√v";
            if (allAtOnce && optimizerStepsFlatPartitions())
                return "foreach AdamW's " + held + " of ZeRO's largest flat partition at once, during the step: "
                    + formatCount(foreachElements) + copies + perState + equals(buffer, units);
            if (allAtOnce && foreachElements < elementsHere)
                return "foreach AdamW's " + held
                    + " of every weight at once (the biases and norms step after, "
                      "in a group of their own), during the step: "
                    + formatCount(foreachElements) + copies + perState + equals(buffer, units);
            if (allAtOnce)
                return "foreach AdamW's " + held + " of every parameter at once, during the step: "
                    + formatCount(elementsHere) + copies + perState + equals(buffer, units);
            return "AdamW's " + held + " of one tensor at a time (optimizer in backward), the largest "
                + formatCount(largest) + copies + perState + ", during the step" + equals(buffer, units);
        });
    }
    if (paged > 0)
        sink.add(
            ItemId::PagedOptimizerStates, 0,
            [&] {
                return formatCount(paged) + " params in tensors of 1e5 elements or more × " + std::to_string(states)
                    + " × " + std::to_string(bytesPerState) + " B (" + what
                    + "), in CUDA managed memory: paged out to CPU memory when the GPU runs short"
                    + equals(pagedBytes, units);
            },
            pagedBytes);
}

// Activations: what each layer saves for backward (Korthikanti et al. 2022 for Megatron's
// kernels; the saved-tensor lists of core/savedtensors.cpp for the code people run), the
// micro-batches a pipeline keeps in flight, recomputation, autocast's weight casts, the
// embedding and the logits with their loss.
template <class Sink>
void Stage::addActivations(Units units, Breakdown &b, Sink &sink) const
{
    const Architecture &a = s.arch;
    const std::int64_t e = dt.activation;
    const std::int64_t sb = s.sequence * s.microBatch;
    const PipelineInFlight held = pipelineInFlight(s, stage);
    const std::int64_t inFlight = held.microBatches;
    b.microBatchesInFlight = held.microBatches;
    b.chunkPassesInFlight = held.passes;
    b.pipelineInputsHeld = held.inputsHeld;
    // A frozen layer below every trainable one needs nothing saved for backward.
    const std::int64_t savingLayers = s.fineTune == FineTune::Freeze ? trainableLayersHere : layers.count();

    const bool codeLevel = s.implementation != Implementation::Megatron;
    const TensorList kept = layerTensors(s);
    const TensorList whole = s.recompute == Recompute::None ? kept : layerTensorsWithoutRecompute(s);
    b.oneLayerActivations = whole.total;
    b.keptPerLayer = kept.total;
    // Without recomputation the layers' graph is the step's: what bitsandbytes' 4-bit linears keep
    // in their autograd context stays until backward ends, as it does under the non-reentrant
    // checkpoint, whose forward keeps each layer's graph (with the reentrant checkpoint it goes
    // with each layer's recomputed graph).
    if (s.recompute == Recompute::None || s.fourBitInputsOutliveCheckpoint())
        b.keptPastBackward = fourBitInputsKeptPerLayer(s);

    // Each pass holds 1/v of the stage's layers. Divided first, so the product cannot overflow
    // where the result fits (scenarioError() bounds that). On the first stage, with the
    // pipeline full, this is Korthikanti et al.'s L·(1 + (p−1)/(p·v)) layers' worth.
    const std::int64_t v = s.virtualStages;
    const bool interleaved = v > 1;
    const Bytes stageLayersOnce = kept.total * savingLayers;
    const Bytes layerTotal = stageLayersOnce / v * held.passes + stageLayersOnce % v * held.passes / v;
    // torchtune's OffloadActivations (training/_activation_offloading.py, pack_tensor): every saved
    // tensor of 1 KiB or more that is no parameter is copied to pinned CPU memory in forward and
    // brought back for backward; the output head runs under a NoOpManager and the loss outside it.
    const bool offload = s.activationOffload;
    sink.add(
        ItemId::LayerActivations, offload ? 0 : layerTotal,
        [&] {
            // What each layer keeps, item by item.
            const auto listed = [&] {
                std::string items;
                for (int i = 0; i < kept.count; ++i)
                    items += std::string(i ? " + " : " ") + std::string(kept.items[i].name) + " "
                        + formatBytes(kept.items[i].bytes, units);
                return items + " = " + formatBytes(kept.total, units);
            };
            std::string text;
            if (s.fourBitInputsOutliveCheckpoint()) {
                text = "each layer keeps its input and more:" + listed() + "/layer";
            } else if (s.recompute == Recompute::Full) {
                text = "each layer keeps only its input: s·b·h × "
                    + std::to_string(kept.total / (sb * a.hidden / spDiv)) + " B" + sequenceParallelSplit() + " = "
                    + formatBytes(kept.total, units) + "/layer";
            } else {
                text = (codeLevel ? "per layer, as " + std::string(toString(s.implementation)) + " saves it:"
                            : dt.gemmInput < dt.activation ? "per layer, the linears' inputs in FP8:"
                                                           : "per layer:")
                    + listed();
            }
            if (s.contextParallel > 1)
                text += " (the sequence ÷ " + std::to_string(s.contextParallel)
                    + " context-parallel GPUs: " + std::to_string(s.sequence) + " tokens each)";
            text += times(savingLayers) + " layers";
            if (interleaved)
                text += times(held.passes) + " chunk passes in flight ÷ " + std::to_string(v)
                    + " chunks (interleaved 1F1B)";
            else if (inFlight > 1)
                text += times(inFlight) + " micro-batches in flight"
                    + (s.gradAccum == 0 ? " (1F1B, pipeline full)" : "");
            text += equals(layerTotal, units);
            if (offload)
                text += ", offloaded to CPU memory";
            if (s.recompute == Recompute::Full && inFlight == 1 && spDiv == 1 && e == 2 && !dt.autocast)
                text += " — the article's b·s·h·L·2 estimate";
            return text;
        },
        offload ? layerTotal : 0);
    if (offload && savingLayers > 0) {
        // What stays on the GPU: the last max_fwd_stash_size (5) tensors copied out, kept until
        // their copy is done, and in backward a layer's tensors brought back. With checkpointing a
        // layer saves one tensor, its input, so the stash holds the last five layers' inputs;
        // without, a layer's own tensors outnumber the stash.
        constexpr std::int64_t kForwardStash = 5;
        const std::int64_t stashed = s.recompute == Recompute::Full ? std::min(kForwardStash, savingLayers) : 1;
        const Bytes window = kept.total * stashed;
        sink.add(ItemId::ActivationOffloadWindow, window, [&] {
            if (stashed == 1)
                return "one layer's saved tensors, brought back for its backward" + equals(window, units);
            return "the inputs of the last " + std::to_string(stashed)
                + " layers, kept until their copy to CPU memory is done: " + formatBytes(kept.total, units)
                + times(stashed) + equals(window, units);
        });
    }
    // Full checkpointing, and torchtitan's op-level selective policy, rebuild a layer's
    // saved tensors in its backward.
    const bool rebuildsLayer = s.recompute == Recompute::Full || (codeLevel && s.recompute == Recompute::Selective);
    if (rebuildsLayer && savingLayers > 0) {
        const Bytes reused = recomputationReusesInput(s);
        const Bytes heldOutput = reentrantCheckpointOutput(s);
        const Bytes fromForward = s.fourBitInputsOutliveCheckpoint() ? keptOnlyInFourBitContext(whole) : 0;
        const Bytes buffer = b.oneLayerActivations - reused + heldOutput - fromForward;
        sink.add(ItemId::RecomputeBuffer, buffer, [&] {
            std::string text = "one layer's full activations while it is recomputed";
            if (reused > 0)
                text += ", " + formatBytes(b.oneLayerActivations, units)
                    + ", less its input, which the checkpoint keeps and the recomputation saves as it is, "
                    + formatBytes(reused, units);
            if (fromForward > 0)
                text += ", less the 4-bit linears' inputs its forward kept in their context, which the "
                        "recomputation holds again only until it returns, "
                    + formatBytes(fromForward, units);
            if (heldOutput > 0)
                text += std::string(reused > 0 ? "," : "") + " + the recomputed layer's output, which the reentrant "
                    + "checkpoint holds while the layer's backward runs, " + formatCount(s.sequence * s.microBatch)
                    + " tokens × " + std::to_string(a.hidden) + " × " + std::to_string(dt.stream) + " B "
                    + formatBytes(heldOutput, units);
            return text + equals(buffer, units);
        });
        // FSDP1 registers, on a unit whose flat parameter does not train (a LoRA or QLoRA layer
        // once PEFT's fsdp_auto_wrap_policy gives the adapters units of their own, as transformers'
        // Trainer has it do), a multi-grad hook on the unit's inputs to reshard it after backward
        // (torch/distributed/fsdp/_runtime_utils.py, _register_post_backward_reshard_only_hook,
        // in the recomputation, the first forward with grad), kept in
        // flat_param._post_backward_hook_state until backward ends (_finalize_params).
        // register_multi_grad_hook (torch/autograd/graph.py) holds the grad_fn of each input, for
        // the reentrant checkpoint's detached input its AccumulateGrad node, which holds the input
        // and, once backward has reached it, its .grad. So each layer's checkpointed input and its
        // gradient outlive its backward: at the first layer's, every other layer's are there. The
        // newest of those gradients is the one the current layer's backward started from (the
        // checkpoint hands the detached input's .grad itself down), which its working set counts.
        const bool reshardHookKeeps = s.fsdp1UnderReentrantCheckpoint() && s.lora() && savingLayers > 1;
        if (reshardHookKeeps) {
            const Bytes input = dt.stream * s.sequence * s.microBatch * a.hidden;
            b.keptPastBackward += 2 * input;
            b.keptAsStreamGradient = input;
            const Bytes heldByHook = input * (savingLayers - 2);
            sink.add(ItemId::CheckpointsKeptByFsdp, heldByHook, [&] {
                return "FSDP1's reshard hook on each frozen layer holds the reentrant checkpoint's input of the layer "
                       "and its gradient until backward ends: at the first layer's backward the gradients of "
                    + std::to_string(savingLayers - 2)
                    + " other layers' inputs beyond the one the first layer's backward starts from, "
                    + formatCount(s.sequence * s.microBatch) + " tokens × " + std::to_string(a.hidden) + " × "
                    + std::to_string(dt.stream) + " B each, beside their inputs" + equals(heldByHook, units);
            });
        }
    }
    if (dt.autocast) {
        // Autocast casts every FP32 weight a linear reads to 16 bits, and autograd keeps the cast
        // until that linear's backward (aten/src/ATen/autocast_mode.cpp, cached_cast: casts of
        // FP32 leaf weights that require grad stay in the cast cache for the whole forward, even
        // under checkpointing; a frozen weight's cast is saved by mm, so checkpointing drops it).
        // A bias is cast too, but nothing saves its cast (its gradient needs no input): the cache
        // lets it go when the autocast region exits (torch.clear_autocast_cache), before backward.
        // QLoRA's 4-bit projections dequantize themselves; its head, not quantized, is cast when FP32.
        const bool baseCast = autocastCastsBase(s, dt);
        const std::int64_t perLayer = baseCast && s.fineTune != FineTune::QLoRA ? ceilDiv(counts.perLayerMatrices, t)
                                                                                : 0;
        const bool frozenRecomputed = !baseTrains(s) && s.recompute == Recompute::Full;
        const std::int64_t castLayers = savingLayers == 0 ? 0 : frozenRecomputed ? 1 : savingLayers;
        // The head's weight matrices: the LM head (tied or not), or BERT's pooler (h×h) and
        // 2-label classifier (2×h).
        // Liger's fused loss casts the head inside its own forward, where autograd records
        // nothing: no cast of the head is saved (the logits item counts the one it holds).
        const std::int64_t head = !lastStage || !baseCast || s.liger ? 0
            : a.modeling == Modeling::Bert && codeLevel              ? a.hidden * a.hidden + 2 * a.hidden
                                                                     : ceilDiv(a.vocab * a.hidden, t);
        // lit-gpt runs its head once per 128-token chunk: a frozen head's weight, which the cast
        // cache does not keep, is cast anew for each chunk, and each chunk's mm saves its cast.
        const bool litgpt = s.implementation == Implementation::LitGpt;
        const std::int64_t headCasts = litgpt && !baseTrains(s) ? litgptHeadChunks(s) : 1;
        // lit-gpt's head adapter multiplies by lora_A.T and lora_B.T, views that the cache does
        // not keep either: cast for each chunk too.
        const std::int64_t headAdapter = litgpt && lastStage ? ceilDiv(loraHeadParams(s), t) : 0;
        const Bytes casts = 2 * (perLayer * castLayers + (adapters - headAdapter) + (head + headAdapter) * headCasts);
        // The head's casts are saved by its matmuls (mm keeps the weight for the input's gradient),
        // which run backward first: gone before the layers' backward.
        b.headWeightCasts = 2 * (head + headAdapter) * headCasts;
        // Under full recomputation the checkpointed layers run forward without grad: nothing saves
        // the casts of their weights that train and of their adapters, which the cache keeps until
        // the autocast region exits, after the loss. In backward each recomputed layer casts its
        // own anew (torch.utils.checkpoint re-enters autocast), kept until its backward: one layer's.
        // The loss's backward runs after the region has exited and before any layer is recomputed:
        // of the casts, the head's alone are there then.
        if (s.recompute == Recompute::Full && castLayers > 0) {
            b.castsOnlyInForward = 2
                * (perLayer * (castLayers - 1)
                   + (s.lora() ? ceilDiv(loraParamsPerLayer(s), t) : 0) * (layers.count() - 1));
            b.castsGoneAtLossBackward = casts - b.headWeightCasts;
        }
        sink.add(ItemId::WeightCasts, casts, [&] {
            std::string parts;
            const auto part = [&](std::int64_t count, const std::string &what) {
                if (count > 0)
                    parts += (parts.empty() ? "" : " + ") + formatCount(count) + what;
            };
            part(perLayer, " × " + std::to_string(castLayers) + " layers");
            const std::string perChunk = headCasts > 1 ? " × " + std::to_string(headCasts) + " chunks" : "";
            part(adapters - headAdapter, " adapter");
            part(head, " output head" + perChunk);
            part(headAdapter, " head adapter" + perChunk);
            const std::string lifetime = b.castsOnlyInForward > 0
                ? "16-bit casts of the FP32 weights, kept by the cast cache through forward, in the layers' "
                  "backward the recomputed layer's alone, "
                    + formatBytes(casts - b.castsOnlyInForward - b.headWeightCasts, units) + ": ("
                : "16-bit casts of the FP32 weights, kept for backward: (";
            return lifetime + parts + ") params × 2 B" + equals(casts, units);
        });
    }
    // Megatron's embeddings (megatron/core/models/common/embeddings/language_model_embedding.py,
    // LanguageModelEmbedding.forward) keep for backward their inputs and the dropout's mask; their
    // output, dropped out, is the first layer's input and is counted there. The inputs: the token
    // ids, int64 (under TP VocabParallelEmbedding's copy shifted into its slice of the vocabulary,
    // and the boolean mask of the ids outside it, which index_put_ saves; tensor_parallel/layers.py)
    // and with learned positions the position ids. Megatron's theoretical memory counts the same
    // 8·s·b + s·b·h of one micro-batch (theoretical_memory_usage.py, "input to embedding" and
    // "dropout in embedding layer").
    const bool megatronEmbedding = firstStage && s.fineTune != FineTune::Freeze && !codeLevel;
    if (megatronEmbedding) {
        const std::int64_t idBytes = 8 + (t > 1 ? 1 : 0) + (a.learnedPositions > 0 ? 8 : 0);
        const Bytes mask = s.dropout ? sb * a.hidden / spDiv : 0;
        const Bytes embedding = (idBytes * sb + mask) * inFlight;
        sink.add(ItemId::EmbeddingActivations, embedding, [&] {
            const char *ids = t > 1      ? (a.learnedPositions > 0 ? "token ids shifted to this GPU's vocabulary, the "
                                                                     "mask of those outside it and position ids"
                                                                   : "token ids shifted to this GPU's vocabulary and the "
                                                                     "mask of those outside it")
                : a.learnedPositions > 0 ? "token and position ids"
                                         : "token ids";
            return formatCount(sb) + " tokens × " + std::to_string(idBytes) + " B (" + ids + ")"
                + (mask ? " + dropout mask (1 B) " + formatBytes(mask, units) : "")
                + (inFlight > 1 ? times(inFlight) : "") + equals(embedding, units);
        });
    }
    if (s.megatron())
        addInputBatch(megatronEmbedding, units, b, sink);
    else if (s.implementation == Implementation::HuggingFace && a.modeling != Modeling::Bert)
        addTrainerBatch(units, b, sink);
    // pipelineInFlight(): the inputs and gradients the schedule holds, each the tensor the stages
    // exchange (schedules.py tensor_shape: s × b × h, a tensor-parallel GPU's slice under SP).
    const Bytes pipelineTensor = e * sb * a.hidden / spDiv;
    const auto addPipelineTensors = [&](ItemId id, std::int64_t count, std::string_view what) {
        if (count <= 0)
            return;
        const Bytes bytes = count * pipelineTensor;
        sink.add(id, bytes, [&] {
            return std::to_string(count) + " × " + formatCount(sb) + " tokens × " + std::to_string(a.hidden)
                + " hidden × " + std::to_string(e) + " B" + sequenceParallelSplit() + std::string(what)
                + equals(bytes, units);
        });
    };
    addPipelineTensors(ItemId::PipelineInputsKept, 2 * held.chunksKeeping,
                       " (each model chunk's last pipeline input and its gradient, kept until its next forward: "
                       "between steps, not at the peak)");
    addPipelineTensors(ItemId::PipelineGradients, held.gradients,
                       " (activation gradients the schedule holds: the previous backward's, beside the next forward "
                       "and the next backward, and the one a backward started from, until it returns; the most at "
                       "once)");
    addPipelineTensors(ItemId::PipelineOutputAndNextInput, held.outputsAhead,
                       " (beside a steady-state backward: the output of the forward before it, sent but not freed "
                       "until the next forward, and the next forward's input, received ahead)");
    addPipelineTensors(ItemId::PipelineInputsHeld, held.inputsHeld,
                       " (pipeline inputs whose backward has run and the gradients left on them, still referenced "
                       "beside a steady-state forward: the input the schedule received last in warm-up, until it "
                       "returns, and each model chunk's latest input, until its next forward; the most at once)");
    b.pipelineBesideForward = held.besideForward * pipelineTensor;
    b.pipelineBesideBackward = held.besideBackward * pipelineTensor;
    b.pipelineBesideLaterBackward = held.besideLaterBackward * pipelineTensor;
    if (codeLevel) {
        const TensorList outside = outsideTensors(s);
        sink.add(ItemId::HeadActivations, outside.total, [&] {
            std::string text;
            for (int i = 0; i < outside.count; ++i)
                text += std::string(i ? " + " : "") + std::string(outside.items[i].name) + " "
                    + formatBytes(outside.items[i].bytes, units);
            return text + equals(outside.total, units);
        });
    } else if (lastStage) {
        // Megatron's last stage keeps, for backward, the final norm's input (Transformer Engine's
        // norm saves it) and the output layer's input, the norm's output
        // (megatron/core/tensor_parallel/layers.py, LinearWithGradAccumulationAndAsyncCommunication
        // .forward: ctx.save_for_backward(input, weight), this GPU's slice under sequence
        // parallelism). Megatron's theoretical memory counts them as 4·s·b·h, "inputs to output layer".
        // Beside them the final norm's FP32 statistics, as the layers' norms keep theirs.
        const Bytes statistics = megatronNormStatisticsPerToken(a) * sb / spDiv;
        const Bytes head = 2 * e * sb * a.hidden / spDiv + statistics;
        sink.add(ItemId::HeadActivations, head, [&] {
            return formatCount(sb) + " tokens × " + std::to_string(a.hidden) + " hidden × 2 × " + std::to_string(e)
                + " B (the final norm's input and its output, saved by the output layer)" + sequenceParallelSplit()
                + " + the final norm's statistics (FP32) " + formatBytes(statistics, units) + equals(head, units);
        });
    }
    // What of the head's and the loss's tensors backward has freed by the time it reaches the last
    // layer: not the embeddings', whose backward is the step's last.
    b.embeddingInBackward = codeLevel ? embeddingTensors(s).total : 0;
    Bytes lossFreed = b.item(ItemId::HeadActivations) - b.embeddingInBackward;
    if (lastStage && s.liger) {
        // Liger's fused linear cross-entropy (liger_kernel/ops/fused_linear_cross_entropy.py,
        // fused_linear_cross_entropy_forward) never holds the whole logits: it splits the tokens into
        // chunks of next_power_of_2(⌈tokens / ⌈vocab / hidden⌉⌉) and computes each chunk's logits in
        // the matmul's dtype, overwriting them with their gradient in place.
        // Under autocast its matmuls take a 16-bit cast of an FP32 head: the cache keeps a trained
        // head's until the autocast region exits, a frozen head's is made for each chunk.
        const std::int64_t factor = ceilDiv(a.vocab, a.hidden);
        const std::int64_t rows = std::min<std::int64_t>(std::bit_ceil(std::uint64_t(ceilDiv(sb, factor))), sb);
        const Bytes chunk = std::int64_t(e) * rows * a.vocab;
        const Bytes headCast = dt.autocast && autocastCastsBase(s, dt) ? 2 * a.vocab * a.hidden : 0;
        const Bytes logits = chunk + headCast;
        lossFreed += logits;
        b.logitsInLossForward = b.logitsInLossBackward = logits;
        sink.add(ItemId::Logits, logits, [&] {
            return std::to_string(rows) + " tokens × " + std::to_string(a.vocab) + " vocab × " + std::to_string(e)
                + " B (one chunk of the logits in Liger's fused loss, its gradient written in place)"
                + (headCast ? " + the head's 16-bit cast (autocast) " + formatBytes(headCast, units) : "")
                + equals(logits, units);
        });
    } else if (lastStage && !(codeLevel && a.modeling == Modeling::Bert)) {
        // Logits in the activation dtype, plus the FP32 copy the loss computes on: whole, or one
        // chunk at a time (torchtune, modules/loss/ce_chunked_output_loss.py: each chunk's
        // .float() lives only until its log-softmax; the log-softmax outputs stay saved).
        const std::int64_t elements = ceilDiv(sb * a.vocab, t);
        const bool chunked = s.loss == Loss::Chunked;
        // lit-gpt's FP32 logits (dtypeBytes()): the BF16 chunks, saved by nothing, are freed, and
        // the chunked cross-entropy reads the FP32 chunks as they are.
        const std::int64_t logitBytes = dt.logits;
        const bool upcast = logitBytes < 4;
        // Before PyTorch 1.11 log_softmax keeps that copy for backward: the saved tensors count it.
        const Bytes fp32Copy = upcast && !s.softmaxKeepsInput()
            ? 4 * (chunked ? ceilDiv(elements, kLossChunks) : elements)
            : 0;
        // The code-level loss is log_softmax then nll_loss. In its backward, nll_loss_backward's
        // dense FP32 gradient and _log_softmax_backward_data's FP32 gradient of the logits are
        // alive together beside the saved log-softmax: 8 B per logit, more than the forward's
        // logits with their FP32 copy (the model's logits are freed before backward: torchtitan
        // train.py `del pred`; Hugging Face's Trainer drops the outputs).
        const bool lossBackward = codeLevel && !chunked && s.implementation != Implementation::LitGpt;
        // torchtitan under TP computes the loss with loss_parallel (train.py, its default) on each
        // GPU's slice of the vocabulary (torch/distributed/tensor/parallel/loss.py): _log_softmax
        // keeps x - max beside the FP32 copy while it takes exp, so the forward holds 4 B more a
        // logit; the fused _nll_loss_and_log_softmax_backward builds zeros_like(x), exp(x), their
        // sum and its product with the output's gradient: 12 B a logit beside the saved log-softmax.
        const bool lossParallel = lossBackward && s.implementation == Implementation::TorchTitan && t > 1;
        // lit-gpt's chunked_cross_entropy (lit_gpt/utils.py at 8641822) reshapes every chunk to
        // (tokens, vocab) before the first cross-entropy. The last chunk, sliced by finetune/lora.py
        // to drop its final position, is no view for more than one sequence, so its reshape copies
        // it, and the list keeps the copy through the loss.
        const Bytes lastChunkCopy = s.implementation == Implementation::LitGpt && s.microBatch > 1
            ? logitBytes * s.microBatch * (litgptLastChunkLength(s) - 1) * a.vocab
            : 0;
        // lit-gpt's training loop keeps the list of FP32 chunks referenced through fabric.backward
        // (finetune/lora.py: `logits` outlives the loss); the loss's backward then runs a chunk at
        // a time, nll_loss_backward's dense FP32 gradient and _log_softmax_backward_data's FP32
        // gradient of the logits alive together: 8 B per logit of the largest chunk, on top.
        const bool litgpt = s.implementation == Implementation::LitGpt;
        const std::int64_t chunkTokens = litgpt ? litgptLossChunkTokens(s) : 0;
        const Bytes positionsGradient = litgpt ? litgptLossPositionsGradient(s) : 0;
        const Bytes chunkBackward = 8 * chunkTokens * a.vocab + positionsGradient;
        // transformers' causal-LM loss as its release computes it (Scenario::transformersLoss): before
        // 4.49 it shifts a contiguous FP32 copy of the logits, and before 4.46, in the model's own
        // forward, the upcast replaces the 16-bit logits first (modeling_llama.py
        // LlamaForCausalLM.forward: logits = logits.float(); shift_logits = logits[..., :-1, :]
        // .contiguous()), where from 4.46 the forward still holds them (loss/loss_utils.py,
        // ForCausalLMLoss). Meanwhile the model's output holds the final norm's output
        // (last_hidden_state), beyond what the head saves unless it trains in the stream's dtype or
        // LoRA reads it without dropout. Before PyTorch 1.11, whose log_softmax saves its input,
        // today's loss is counted.
        const bool lossByRelease = lossBackward && s.transformersLoss() && !s.softmaxKeepsInput();
        const Bytes shiftedCopy = lossByRelease && s.transformers != TransformersRelease::Since4_49 ? 4 * elements
                                                                                                    : Bytes(0);
        const bool upcastReplaces = lossByRelease && s.transformers == TransformersRelease::Before4_46;
        const Bytes normOutput = lossByRelease && !headSavesNormOutput(s) ? sb * a.hidden * dt.stream : Bytes(0);
        const Bytes logitsChain = upcastReplaces
            ? std::max(logitBytes * elements + fp32Copy, 4 * elements + shiftedCopy)
            : logitBytes * elements + fp32Copy + shiftedCopy;
        const Bytes forward = logitsChain + normOutput + lastChunkCopy + (lossParallel ? 4 * elements : 0);
        const Bytes backward = lossBackward ? (lossParallel ? 12 : 8) * elements : forward + chunkBackward;
        const Bytes logits = std::max(forward, backward);
        b.logitsInLossForward = forward;
        b.logitsInLossBackward = backward;
        lossFreed += chunkBackward > 0 ? chunkBackward : logits;
        b.logitsKeptInBackward = logits - (chunkBackward > 0 ? chunkBackward : logits);
        // What the allocator keeps of the 16-bit logits' block while the loss's backward runs (addOverhead).
        b.freedLogits = lossBackward && upcast ? logitBytes * elements : 0;
        sink.add(ItemId::Logits, logits, [&] {
            if (lossBackward && backward > forward && lossParallel)
                return logitsShape()
                    + "3 × 4 B (loss_parallel's backward: zeros for the targets, exp of the log-softmax "
                      "and their sum, then its product with the loss's gradient; its forward holds the logits, "
                      "their FP32 copy and the shifted copy, "
                    + formatBytes(forward, units) + ")" + vocabParallel() + equals(logits, units);
            if (lossBackward && backward > forward) {
                const std::string forwardHeld = fp32Copy > 0
                    ? (normOutput ? ", FP32 copy and the final norm's output, " : " and FP32 copy, ")
                    : (normOutput ? " and the final norm's output, " : ", ");
                return logitsShape()
                    + "2 × 4 B (the loss's backward: FP32 gradients of the log-softmax and of the logits"
                      ", more than the forward's logits"
                    + forwardHeld + formatBytes(forward, units) + ")" + vocabParallel() + equals(logits, units);
            }
            std::string text = logitsShape();
            if (lossByRelease) {
                text += upcastReplaces ? std::string("(4 B FP32 logits")
                                       : "(" + std::to_string(logitBytes) + " B + 4 B FP32 copy";
                text += " + 4 B shifted FP32 copy, transformers' loss before "
                    + std::string(upcastReplaces ? "4.46" : "4.49")
                    + ", in forward, more than its backward's gradients, " + formatBytes(backward, units) + ")";
                if (normOutput)
                    text += " + the final norm's output, held by the model's output, " + formatCount(sb) + " tokens × "
                        + std::to_string(a.hidden) + " × " + std::to_string(dt.stream) + " B "
                        + formatBytes(normOutput, units);
                return text + equals(logits, units);
            }
            if (fp32Copy && !chunked)
                text += "(" + std::to_string(e) + " B + 4 B FP32 copy for the loss)";
            else
                text += std::to_string(logitBytes) + " B" + (logitBytes > e ? " (FP32, as Fabric returns them)" : "");
            text += vocabParallel();
            if (fp32Copy && chunked)
                text += " + one chunk's FP32 copy (chunked loss, " + std::to_string(kLossChunks) + " chunks) "
                    + formatBytes(fp32Copy, units);
            if (lastChunkCopy)
                text += " + the last chunk less its final position, copied by reshape for the loss "
                    + formatBytes(lastChunkCopy, units);
            if (chunkBackward)
                text +=
                    " + the loss's backward, a chunk at a time: FP32 gradients of the log-softmax and of the logits, "
                    + formatCount(chunkTokens) + " tokens × " + std::to_string(a.vocab) + " vocab × 8 B "
                    + formatBytes(8 * chunkTokens * a.vocab, units);
            if (positionsGradient)
                text += " + the FP32 gradient of every position's loss " + formatBytes(positionsGradient, units);
            return text + equals(logits, units);
        });
    }
    addBackwardWorkingSet(savingLayers, lossFreed, whole, units, b, sink);
}

// Backward's working set (backwardWorkingSet(), pinned to autograd by tests/oracle): one layer's
// backward at its widest holds these gradients beside every layer's saved tensors. What the head
// saved and the loss's tensors are freed before the last layer's backward begins (but lit-gpt's
// FP32 logits, which its loop keeps), so the step needs only what the working set exceeds them by.
template <class Sink>
void Stage::addBackwardWorkingSet(std::int64_t savingLayers, Bytes lossFreed, const TensorList &wholeLayer, Units units,
                                  Breakdown &b, Sink &sink) const
{
    if (savingLayers == 0)
        return;
    // BERT's layer runs no norm before its attention, and is weighed whole: its attention's and its
    // MLP's moments lie close, and with only the attention's weighed without the gradients it lacks
    // (q, k, v) core's choice between them misses the whole-model oracle's BERT rows under autocast
    // by 120 B a token; each moment would need its own gradients.
    const Bytes afterAttention = gradientsMadeAsBackwardGoes(b) && s.arch.modeling != Modeling::Bert
        ? dt.gradient * counts.perLayerBeforeAttention
        : 0;
    const BackwardMoment moment = widestBackwardMoment(s, wholeLayer, afterAttention);
    const TensorList &set = moment.tensors;
    b.backwardWorkingSet = set.total;
    b.gradientsAfterWidestMoment = moment.gradientsYetToMake;
    const Bytes beyond = std::max<Bytes>(set.total - lossFreed, 0);
    sink.add(ItemId::BackwardWorkingSet, beyond, [&] {
        std::string text = "one layer's backward at its widest:";
        for (int i = 0; i < set.count; ++i)
            text += std::string(i ? " + " : " ") + std::string(set.items[i].name) + " "
                + formatBytes(set.items[i].bytes, units);
        if (const std::int64_t rows = lastExpertRows(s); rows > 0)
            text += " (the block's last expert, its backward's first, taking " + formatCount(rows) + " rows: "
                + (s.expertLoad == ExpertLoad::EveryToken ? "every token, the most routing can give it)"
                                                          : "its even share of tokens × k)");
        if (const std::int64_t rows = megatronExpertRows(s); rows > 0) {
            const std::string_view who = s.groupedGemm ? " (this GPU's experts at once in the grouped GEMM: "
                                                       : " (one of this GPU's experts, which run one after another: ";
            text += std::string(who) + formatCount(rows) + " rows, " + (s.groupedGemm ? "their" : "its")
                + " share of the tokens × k gathered over TP × EP)";
        }
        if (moment.gradientsYetToMake > 0)
            text += " (the gradients of the layer's first norm and of q, k and v, which its backward makes after "
                    "this moment: "
                + formatBytes(moment.gradientsYetToMake, units) + ")";
        if (lossFreed == 0)
            return text + equals(beyond, units);
        return text + " = " + formatBytes(set.total, units)
            + ", less the loss's tensors and what the head saved, freed by then, " + formatBytes(lossFreed, units)
            + " (never below 0)" + equals(beyond, units);
    });
}

// The Hugging Face Trainer moves each batch to the GPU (Trainer._prepare_inputs) and its training
// loop holds it (_inner_training_loop's `inputs`) from forward through the optimizer step, until
// the next batch replaces it: for a causal LM the collator's input_ids, attention_mask and labels
// (DataCollatorForLanguageModeling, TRL's SFT collators), int64, one per token each. The input ids
// are the storage the embedding saves while its weight trains, counted there until its backward.
// (BERT's batches differ with the task: not counted.)
template <class Sink>
void Stage::addTrainerBatch(Units units, Breakdown &b, Sink &sink) const
{
    const std::int64_t sb = s.sequence * s.microBatch;
    const bool idsInEmbedding = baseTrains(s);
    const Bytes ids = 8 * sb;
    const Bytes batch = 16 * sb + (idsInEmbedding ? 0 : ids);
    sink.add(ItemId::InputBatch, batch, [&] {
        return formatCount(sb) + " tokens × ("
            + (idsInEmbedding ? std::string() : std::string("input ids (int64) 8 B + "))
            + "attention mask (int64) 8 B + labels (int64) 8 B), the Trainer's batch, held through the optimizer step"
            + (idsInEmbedding ? std::string(" with its input ids, which the embedding counts until its backward")
                              : std::string())
            + equals(batch, units);
    });
    b.batchKeptAllStep = true;
    b.batchIdsInEmbedding = idsInEmbedding ? ids : 0;
}

// Megatron-LM's get_batch (pretrain_gpt.py; megatron/core/utils.py, get_batch_on_this_tp_rank):
// every tensor-parallel rank of the first and the last pipeline stage holds a micro-batch's
// tensors while it runs forward: the tokens and position ids (first stage) and the labels and
// loss mask (last stage), int64 but the loss mask's FP32, and with the data loader's mask
// (--create-attention-mask-in-dataloader, the default) the causal mask the dataset builds
// (megatron/core/datasets/gpt_dataset.py, _get_ltor_masks_and_position_ids: b×1×s×s booleans).
// Context parallelism keeps the rows of this GPU's queries (get_batch_on_this_cp_rank).
// forward_step frees them when it returns, before backward - unless the rerun state machine
// keeps them (megatron/core/rerun_state_machine.py, RerunDataIterator.__next__ saves each batch
// the data iterator yields, advance() drops them as the next step begins): get_batch writes the
// GPU copies, and the CP slices, into that dict on tensor-parallel rank 0, which reads the data
// loader (the others receive fresh buffers). The ids the embeddings save (the tokens without TP,
// learned positions' ids) are counted with them.
template <class Sink>
void Stage::addInputBatch(bool embeddingSavesIds, Units units, Breakdown &b, Sink &sink) const
{
    if (!firstStage && !lastStage)
        return;
    const std::int64_t sb = s.sequence * s.microBatch;
    const std::int64_t keys = s.sequence * s.contextParallel;
    const Bytes mask = s.dataloaderMask ? sb * keys : 0;
    const std::int64_t wholePerToken = (firstStage ? 8 + 8 : 0) + (lastStage ? 8 + 4 : 0);
    const Bytes whole = wholePerToken * sb + mask;
    const bool tokens = firstStage && !(embeddingSavesIds && t == 1);
    const bool positions = firstStage && !(embeddingSavesIds && s.arch.learnedPositions > 0);
    const std::int64_t perToken = (tokens ? 8 : 0) + (positions ? 8 : 0) + (lastStage ? 8 + 4 : 0);
    const Bytes batch = perToken * sb + mask;
    const auto tensorsOf = [&](bool withTokens, bool withPositions) {
        std::string tensors;
        const auto list = [&](bool present, const char *name) {
            if (present)
                tensors += (tensors.empty() ? "" : " + ") + std::string(name);
        };
        list(withTokens, "token ids (int64) 8 B");
        list(withPositions, "position ids (int64) 8 B");
        list(lastStage, "labels (int64) 8 B + loss mask (FP32) 4 B");
        std::string text = tensors.empty() ? "" : formatCount(sb) + " tokens × (" + tensors + ")";
        if (mask)
            text += (tensors.empty() ? "" : " + ") + std::string("the data loader's causal mask ") + formatCount(sb)
                + " × " + std::to_string(keys) + " booleans " + formatBytes(mask, units);
        return text;
    };
    const bool kept = s.rerunKeepsBatches;
    const std::string_view rank = t > 1 ? " on tensor-parallel rank 0, which reads the data loader" : "";
    if (batch > 0)
        sink.add(ItemId::InputBatch, batch, [&] {
            return tensorsOf(tokens, positions)
                + (kept ? ", kept until the next step begins (Megatron-LM's rerun state machine)" + std::string(rank)
                        : std::string(", held while the micro-batch runs forward"))
                + equals(batch, units);
        });
    if (!kept)
        return;
    b.batchKeptAllStep = true;
    b.batchIdsInEmbedding = whole - batch;
    const std::int64_t others = s.microBatchesPerStep() - 1;
    if (others > 0)
        sink.add(ItemId::BatchesKept, others * whole, [&] {
            return "the step's earlier micro-batches: " + std::to_string(others) + " × ("
                + tensorsOf(firstStage, firstStage) + ") " + formatBytes(whole, units)
                + ", kept by Megatron-LM's rerun state machine (--rerun-mode validate_results) until the next step "
                  "begins"
                + std::string(rank) + equals(others * whole, units);
        });
}

// The matrix libraries' scratch, kept from a thread's first matmul on. PyTorch hands cuBLAS a
// workspace per (thread's handle, stream) from its caching allocator (aten/src/ATen/cuda/
// CublasHandlePool.cpp getCurrentCUDABlasHandle, parseChosenWorkspaceSize: ":4096:2:16:8" by
// default, 8 MiB 128 KiB, and 32 MiB on compute capability 9, on Blackwell's 10 to 12 too in the
// releases of 2026, counted here from 9 on, the larger; pytorch/pytorch#86167 and #89027, PyTorch
// 2.0; before, cuBLAS allocated its own, outside the allocator). Forward's matmuls run on
// the main thread and backward's on autograd's device thread: two handles on the default stream.
// cuBLASLt's workspace adds nothing at the step's peak: allocated for one call until PyTorch 2.7,
// cuBLAS's own since (pytorch/pytorch#145130, unified by default).
// Transformer Engine, which computes Megatron's layers, keeps one workspace of its own
// (transformer_engine/pytorch/cpp_extensions/gemm.py get_cublas_workspace: 32 MiB + 1 KiB from
// compute capability 9, 4 MiB before), and for grouped GEMMs one for each of its compute streams
// (module/base.py get_multi_stream_cublas_workspace: get_num_cublas_streams(), 4).
template <class Sink>
void Stage::addGemmWorkspaces(Units units, Sink &sink) const
{
    const bool hopperOrLater = s.overhead.computeCapability >= 9;
    const Bytes cublas = hopperOrLater ? 32 * kMiB : 8 * kMiB + 128 * kKiB;
    const bool transformerEngine = s.implementation == Implementation::Megatron;
    const Bytes engine = !transformerEngine ? 0 : hopperOrLater ? 32 * kMiB + kKiB : 4 * kMiB;
    const std::int64_t groupedStreams = s.groupedGemm && s.megatronExperts() ? 4 : 0;
    const Bytes total = 2 * cublas + engine * (1 + groupedStreams);
    sink.add(ItemId::GemmWorkspaces, total, [&] {
        return "cuBLAS workspaces for 2 threads (forward's, autograd's backward) × " + formatBytes(cublas, units)
            + " (compute capability " + std::to_string(s.overhead.computeCapability) + ")"
            + (engine ? " + Transformer Engine's workspace " + formatBytes(engine, units) : "")
            + (groupedStreams ? " + its grouped GEMM's stream workspaces " + std::to_string(groupedStreams) + " × "
                       + formatBytes(engine, units)
                              : "")
            + equals(total, units);
    });
}

// Megatron-Core gathers into one buffer it keeps (utils.py GlobalMemoryBuffer, which parallel_state
// get_global_memory_buffer holds, "mpu": allocated at its largest request and reused): the output
// layer's input under sequence parallelism (tensor_parallel/layers.py,
// LinearWithGradAccumulationAndAsyncCommunication, which saves its own slice and gathers again in
// backward), and the MoE allgather dispatcher's tokens of the TP × EP group
// (moe/token_dispatcher.py, use_global_buffer=True), neither saved by autograd.
template <class Sink>
void Stage::addGatherBuffer(Units units, Sink &sink) const
{
    if (s.implementation != Implementation::Megatron)
        return;
    const std::int64_t local = s.sequence * s.microBatch / spDiv; // this GPU's tokens
    const std::int64_t head = lastStage && s.sequenceParallel && t > 1 ? local * t : 0;
    const std::int64_t group = t * s.expertParallel;
    const std::int64_t dispatch = s.arch.experts > 1 && group > 1 ? local * group : 0;
    const std::int64_t tokens = std::max(head, dispatch);
    if (tokens == 0)
        return;
    const Bytes buffer = tokens * s.arch.hidden * dt.activation;
    sink.add(ItemId::GatherBuffer, buffer, [&] {
        return formatCount(tokens) + " tokens × " + std::to_string(s.arch.hidden) + " hidden × "
            + std::to_string(dt.activation) + " B ("
            + (dispatch >= head ? "the MoE dispatcher's tokens gathered over TP × EP"
                                : "the output layer's input gathered over TP")
            + ", Megatron's all-gather buffer, kept)" + equals(buffer, units);
    });
}

// NCCL's NVLS buffers (src/transport/nvls.cc, ncclNvlsSetup; from 2.22 ncclNvlsBufferSetup): on an
// NVSwitch node that does NVLink SHARP, every communicator with more than two of the node's GPUs
// (ncclNvlsInit: gpuCount <= 2 returns; from 2.22 only those that run NVLS, nvlsHeads) maps, on
// each GPU, 16 channels (NCCL_NVLS_NCHANNELS) × 2 directions (reduce, broadcast) of one buffer per
// head, one head per GPU of the node in it (search.cc: the NVLS graph's channels, one per GPU).
// cuMemCreate allocates them outside PyTorch's allocator, so only nvidia-smi sees them. Not
// counted: the multicast granularity they are rounded up to (the driver's), 2.22's credits (16 B
// a channel, direction and head) and 2.20's exception for communicators across nodes.
template <class Sink>
void Stage::addNvlsBuffers(Units units, Sink &sink) const
{
    const Bytes bytes = nvlsBuffersOnNvSwitch(s);
    if (bytes == 0)
        return;
    sink.add(ItemId::NvlsBuffers, bytes, [&] {
        const NcclRelease release = s.overhead.nccl;
        const Bytes chunk = nvlsChunk(release), flags = nvlsFlags(release);
        std::string text = "NCCL " + std::string(toString(release)) + "'s NVLS buffers: 16 channels × 2 directions × "
            + (flags > 0 ? "(" + formatBytes(chunk, units) + " buffer + " + formatBytes(flags, units) + " flags)"
                         : formatBytes(chunk, units) + " buffer")
            + " × the node's GPUs in each communicator:";
        const char *separator = " ";
        const Communicators all = communicators(s);
        for (int i = 0; i < all.count; ++i) {
            const Communicator &c = all.list[std::size_t(i)];
            if (const std::int64_t heads = nvlsHeads(s, c); heads > 0) {
                text += separator + std::to_string(heads) + " in " + c.group;
                separator = " + ";
            }
        }
        return text + equals(bytes, units);
    });
}

// NCCL's NVLS buffers on one GPU (addNvlsBuffers), of every communicator or of those set up
// before the model is placed (the run's start-up).
Bytes nvlsBuffers(const Scenario &s, bool atStartUp)
{
    constexpr std::int64_t kChannels = 16, kDirections = 2; // NCCL_NVLS_NCHANNELS; reduce and broadcast
    const Bytes perHead = kChannels * kDirections * (nvlsChunk(s.overhead.nccl) + nvlsFlags(s.overhead.nccl));
    const Communicators all = communicators(s);
    Bytes bytes = 0;
    for (int i = 0; i < all.count; ++i)
        if (!atStartUp || all.list[std::size_t(i)].beforeTheModel)
            bytes += perHead * nvlsHeads(s, all.list[std::size_t(i)]);
    return bytes;
}

// Runtime overhead, when asked for: the CUDA context (Hugging Face's Model training anatomy
// reads 1343 MB on a V100 under CUDA 11; CUDA 12's lazy loading takes 300-400 MiB), NCCL's
// buffers when GPUs talk, and the caching allocator's reserve as a share of what is allocated
// at the step's peak. `b` holds the tensors and the GEMM workspaces, tallied, and no other overhead.
template <class Sink>
void Stage::addOverhead(Units units, Breakdown &b, Sink &sink) const
{
    // What max_memory_reserved reads beyond max_memory_allocated: a share of the tensors the
    // step holds at its peak (the timeline's, which the overhead does not move).
    const Bytes allocated = stepPeak(b);
    // The context and NCCL's buffers are allocated outside PyTorch's caching allocator: only
    // nvidia-smi sees them. The reserve is the allocator's own (max_memory_reserved).
    const Overhead &o = s.overhead;
    if (o.runtimeCounted()) {
        sink.add(ItemId::CudaContext, o.cudaContext,
                 [&] { return "CUDA context and kernels" + equals(o.cudaContext, units); });
        if (s.gpuCount() > 1)
            sink.add(ItemId::CommBuffers, o.commBuffers,
                     [&] { return "NCCL communication buffers" + equals(o.commBuffers, units); });
        if (o.nvls) {
            addNvlsBuffers(units, sink);
            if (s.placedWholeBeforePartitioning())
                b.nvlsAtStartUp = nvlsBuffers(s, true);
        }
    }
    // The 16-bit logits are freed before the loss's backward (torchtitan train.py `del pred`; the
    // Trainer drops the outputs), and with them the FP32 copies nothing saved. The loss's backward
    // then allocates FP32 buffers of 4 B a logit. PyTorch's caching allocator
    // (c10/cuda/CUDACachingAllocator.cpp) hands each the smallest cached block that holds it
    // (get_free_block) and splits it, but never joins two segments' blocks nor moves one; with
    // expandable_segments freed neighbours merge, and a request no hole fits extends the
    // segment's end (try_allocate_expandable_block). Either way the buffers take 4 B a logit of
    // the 6 B freed (10 B under loss_parallel) and leave 2 B reserved and unused while the loss's
    // backward runs. The loss's own allocation stream, replayed through both rules, leaves that
    // (tests/oracle/allocator_replay.py).
    if (b.freedLogits > 0)
        sink.add(ItemId::FreedLogitsBlock, b.freedLogits, [&] {
            return logitsShape() + std::to_string(dt.logits) + " B" + vocabParallel()
                + " (the 16-bit logits' block: freed before the loss's backward, whose FP32 buffers, 4 B a logit, "
                  "take the blocks freed with it but do not fit in it; the allocator keeps it unused until backward "
                  "reuses it)"
                + equals(b.freedLogits, units);
        });
    const Bytes reserve = allocated * o.allocatorPercent / 100;
    sink.add(ItemId::AllocatorReserve, reserve, [&] {
        // A share of whichever point is the peak: the start-up's where a model is placed whole.
        return std::to_string(o.allocatorPercent) + " % of " + formatBytes(allocated, units)
            + (stepTimeline(b).peakAtStartUp() ? " allocated at start-up, the run's peak (caching-allocator reserve)"
                                               : " allocated at the step's peak (caching-allocator reserve)")
            + equals(reserve, units);
    });
}

template <class Sink>
void compute(const Scenario &whole, int stage, Units units, Breakdown &b, Sink &sink)
{
    const Stage g = layOut(whole, stage, b);
    g.addParameters(units, b, sink);
    g.addGradients(units, b, sink);
    g.addOptimizerStates(units, sink);
    g.addActivations(units, b, sink);
    g.addGemmWorkspaces(units, sink);
    g.addGatherBuffer(units, sink);
    g.addWeightBlockTails(units, sink);
    if (g.s.overhead.reserveCounted())
        g.addOverhead(units, b, sink);
}

// The first stage holds the most activations and the embedding; the last holds the logits
// and the head. Whichever is heavier at its step's peak decides whether the run fits.
int heaviestStage(const Scenario &s)
{
    if (s.pipelineParallel == 1)
        return 0;
    const int last = static_cast<int>(s.pipelineParallel - 1);
    Breakdown first, final;
    NumbersSink firstSink{first}, finalSink{final};
    compute(s, 0, Units::GiB, first, firstSink);
    compute(s, last, Units::GiB, final, finalSink);
    return stepPeak(final) > stepPeak(first) ? last : 0;
}

} // namespace

Component componentOf(ItemId id)
{
    return kItemComponents[static_cast<std::size_t>(id)];
}

std::int64_t shardCount(const Scenario &s, Component c)
{
    const bool sharded = (c == Component::OptimizerStates && s.zeroStage >= 1)
        || (c == Component::Gradients && s.zeroStage >= 2) || (c == Component::Parameters && s.zeroStage >= 3);
    return sharded ? s.shardGroup() : 1;
}

std::string_view shardingName(const Scenario &s)
{
    if (s.megatron())
        return "Megatron";
    return !s.fsdp() ? "ZeRO" : s.replicas > 1 ? "HSDP" : "FSDP";
}

std::string shardingLabel(const Scenario &s)
{
    if (s.megatron())
        return s.zeroStage == 1 ? "Megatron (ZeRO-1)" : "Megatron DDP";
    return s.fsdp() ? std::string(shardingName(s)) : "ZeRO-" + std::to_string(s.zeroStage);
}

bool isRuntimeBuffer(ItemId id)
{
    return id == ItemId::Zero3GatheredParams || id == ItemId::FsdpUnshardedParams || id == ItemId::FsdpAllGatherBuffers
        || id == ItemId::QloraDequantized || id == ItemId::FsdpGradientBuffers || id == ItemId::FsdpAccumulatedGradients
        || id == ItemId::DdpGradientBuckets || id == ItemId::ZeroReduceBucket || id == ItemId::ZeroFp32Gradients
        || id == ItemId::OffloadGradientBuffer || id == ItemId::ContextParallelCopies
        || id == ItemId::ModelBeforePartitioning || id == ItemId::OptimizerStepBuffer;
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
    const double fullLayers = double(b.item(ItemId::LayerActivations)) * double(b.oneLayerActivations)
        / double(b.keptPerLayer);
    // Offloaded, the GPU keeps one whole layer's tensors in transit instead.
    const Bytes window = b.has(ItemId::ActivationOffloadWindow) ? b.oneLayerActivations : 0;
    return b.component(Component::Activations) - b.item(ItemId::LayerActivations) - b.item(ItemId::RecomputeBuffer)
        - b.item(ItemId::ActivationOffloadWindow) + window + Bytes(std::llround(fullLayers));
}

Result<Breakdown> validatedEstimate(const Scenario &s)
{
    if (auto error = scenarioError(s))
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

Bytes nvlsBuffersOnNvSwitch(const Scenario &s)
{
    return nvlsBuffers(s, false);
}

} // namespace vl
