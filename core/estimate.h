#pragma once
// estimate(): one scenario in, the memory of its most loaded GPU out, in bytes, split into
// the article's four components (docs/sources.md) plus optional runtime overhead, each a list of items.
//
// The numeric path allocates nothing and builds no text; explain() runs the very same
// formulas again and also writes each item's formula with the numbers substituted.

#include "core/result.h"
#include "core/scenario.h"
#include "core/units.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vl {

enum class Component { Parameters, Gradients, OptimizerStates, Activations, Overhead };
inline constexpr int kComponentCount = 5;
// Bottom to top in every stacked view; the article's four first.
inline constexpr std::array<Component, kComponentCount> kComponents{Component::Parameters, Component::Gradients,
                                                                    Component::OptimizerStates, Component::Activations,
                                                                    Component::Overhead};

enum class ItemId {
    Weights,
    LoraAdapters,
    Zero3GatheredParams,
    Zero3PersistentParams, // DeepSpeed ZeRO-3's small parameters, kept whole beside their shards
    FsdpUnshardedParams,
    FsdpAllGatherBuffers,
    QloraDequantized,
    Fp8WeightCache,
    RotaryTable,           // RoPE's table, a buffer of the model (torchtitan's freqs_cis)
    ContextParallelCopies, // what context_parallel() clones and shards while it is open
    // The other GPUs' shards of a model DeepSpeed's engine places whole before ZeRO-3 partitions it
    // (a quantized model, which transformers does not build under zero.Init): at start-up only.
    ModelBeforePartitioning,
    Gradients,
    FsdpGradientBuffers,
    FsdpAccumulatedGradients,
    DdpGradientBuckets, // PyTorch DDP's all-reduce buckets, as large as the gradients they copy
    ZeroReduceBucket,
    ZeroFp32Gradients, // DeepSpeed ZeRO's FP32 gradient of the partition it steps, during the optimizer step only
    OffloadGradientBuffer,
    // DeepSpeed ZeRO-Offload's buffers in CPU memory: no GPU bytes, counted in Breakdown::host.
    OffloadParamBuffer,
    OffloadFp32Gradients,
    OffloadHostGradientBuffer,
    OffloadAccumulatedGradients,
    MasterWeights,
    OptimizerMoments,
    // A paged optimizer's states in CUDA managed memory: no GPU bytes, counted in Breakdown::host.
    PagedOptimizerStates,
    OptimizerStepBuffer, // torch.optim's intermediates, alive during the optimizer step only
    LayerActivations,
    EmbeddingActivations,
    InputBatch,        // the micro-batch's tokens, labels and masks as the training loop hands them to the model
    BatchesKept,       // the step's other micro-batches, which Megatron-LM's rerun state machine keeps
    PipelineGradients, // activation gradients a pipeline's schedule holds beside a forward or a backward
    PipelineOutputAndNextInput, // interleaved: a forward's output, not yet freed, and the next input, beside a backward
    PipelineInputsHeld, // interleaved: pipeline inputs and their gradients still referenced after their backward
    PipelineInputsKept, // each model chunk's last pipeline input and its gradient, kept between steps
    Logits,
    RecomputeBuffer,
    // FSDP1's reshard-only hook on a frozen unit holds the reentrant checkpoint's detached input,
    // and with it that input's gradient, from each layer's backward until backward ends
    CheckpointsKeptByFsdp,
    ActivationOffloadWindow,
    WeightCasts,
    HeadActivations,
    BackwardWorkingSet, // beyond the loss's tensors, which are freed before a layer's backward runs
    GemmWorkspaces,     // cuBLAS's (and Transformer Engine's) scratch, allocated through PyTorch's allocator
    GatherBuffer,       // Megatron-Core's all-gather buffer, kept at its largest use
    CudaContext,
    WeightBlockTails, // what the allocator's blocks for the weights hold beyond them (lit-gpt)
    FreedLogitsBlock, // the 16-bit logits' block, cached by the allocator and too small for the loss's backward
    AllocatorReserve,
    CommBuffers,
    NvlsBuffers, // NCCL's NVLink SHARP buffers, outside PyTorch's allocator
};
inline constexpr int kItemCount = int(ItemId::NvlsBuffers) + 1; // the last one

Component componentOf(ItemId id);
// Over how many GPUs a component's model states are sharded (1: this GPU holds them whole),
// and the name of the engine that shards them: ZeRO, FSDP or HSDP.
std::int64_t shardCount(const Scenario &s, Component c);
std::string_view shardingName(const Scenario &s);
// How the states are sharded, for a label: "ZeRO-2", "FSDP", "HSDP".
std::string shardingLabel(const Scenario &s);

// A buffer the runtime allocates while it computes (gathered parameters, gradient buckets, the
// optimizer step's intermediates), not a model state: the ZeRO paper counts such temporary
// buffers among the residual states.
bool isRuntimeBuffer(ItemId id);
std::string_view idString(ItemId id);   // "master_weights": stable, for JSON and files
std::string_view idString(Component c); // "optimizer_states"

struct Breakdown {
    std::array<Bytes, kItemCount> itemBytes{};     // on this GPU
    std::array<Bytes, kItemCount> itemHostBytes{}; // in CPU memory: offloaded or the offload's own buffers
    std::array<bool, kItemCount> present{};
    std::array<Bytes, kComponentCount> componentBytes{};
    Bytes total = 0; // everything on this GPU
    Bytes host = 0;  // everything in CPU memory, per GPU

    std::int64_t totalParams = 0;
    std::int64_t trainableParams = 0;
    int stage = 0; // the pipeline stage reported (the most loaded one)
    std::int64_t layersOnStage = 0;
    std::int64_t microBatchesInFlight = 1; // micro-batches whose activations the stage holds at once
    std::int64_t chunkPassesInFlight = 1;  // with interleaving: their passes through the stage's model chunks
    std::int64_t pipelineInputsHeld = 0;   // with interleaving: inputs and gradients held after their backward
    Bytes oneLayerActivations = 0;         // saved by one layer for one micro-batch (no recomputation)
    Bytes keptPerLayer = 0;                // what each layer actually keeps under the recompute setting
    Bytes castsOnlyInForward = 0;          // of the weight casts, those the autocast cache drops before backward
    // Of the weight casts, those not there at the loss's backward: under full recomputation all but
    // the head's (the cache is cleared and no layer is recomputed yet).
    Bytes castsGoneAtLossBackward = 0;
    Bytes headWeightCasts = 0;    // of the weight casts, the head's: freed by its backward, before the layers'
    Bytes backwardWorkingSet = 0; // one layer's backward at its widest, beyond the saved tensors
    // Of the layer's own gradients, those its backward makes after that moment (an eager
    // attention's: the first norm's, q's, k's and v's), which the moment does not hold.
    Bytes gradientsAfterWidestMoment = 0;
    // Per layer whose backward has run, what outlives it: FSDP1's kept checkpointed input and its
    // gradient (CheckpointsKeptByFsdp), bitsandbytes' kept inputs without recomputation.
    Bytes keptPastBackward = 0;
    // Of that, FSDP1's newest kept gradient: the one the next layer's backward starts from, which
    // its working set counts.
    Bytes keptAsStreamGradient = 0;
    Bytes logitsKeptInBackward = 0; // of the logits item, what the training loop keeps through backward
    // The logits item is the wider of two moments of the loss: its forward's tensors, and its
    // backward's, after the autocast region has exited (castsGoneAtLossBackward gone by then).
    Bytes logitsInLossForward = 0;
    Bytes logitsInLossBackward = 0;
    Bytes embeddingInBackward = 0; // of the head's activations, the embedding's: there until its backward, the last
    Bytes freedLogits = 0;         // the 16-bit logits' block, which no buffer of the loss's backward fits
    // Of NCCL's NVLS buffers, those of the communicators set up before the model is placed: the
    // start-up's (DeepSpeed clones its data-parallel group, and gets its communicator, later).
    Bytes nvlsAtStartUp = 0;
    // Of the gathered parameters, those only backward holds: FSDP's layer prefetched ahead of
    // backward's, ZeRO-3's beyond the turn as a recomputed layer's backward begins.
    Bytes gatheredOnlyInBackward = 0;
    // Of FSDP's all-gather buffers, FSDP2's output of the largest unit where the reading does not
    // keep its stream's blocks: held in forward only, and where that unit is the root, beyond a
    // layer's only as forward begins.
    Bytes allGatherOutputOnlyInForward = 0;
    Bytes rootAllGatherOutputBeyondALayer = 0;
    bool batchKeptAllStep = false;  // the micro-batch's tensors stay until the next step (Megatron's rerun)
    Bytes batchIdsInEmbedding = 0;  // of a kept batch, the ids the embedding item counts while it keeps them
    bool dequantizedAtLoss = false; // QLoRA's dequantized module is alive at the loss: a 4-bit head (lit-gpt)
    bool bucketPersists = false;    // DeepSpeed's gradient bucket lives all step (ZeRO-3), not only in backward
    bool gradientsPersist = false;  // the gradients live in a buffer kept all step (Megatron's main_grad)
    // Of the gradients, where each backward makes them whole as it goes (else 0): the head's, made
    // before any layer's backward, and an untied embedding's, made after every layer's.
    Bytes gradientsBeforeLayers = 0;
    Bytes gradientsAfterLayers = 0;
    // The step's earlier micro-batches' gradients, which each backward adds into: there through the
    // drawn (last) micro-batch's forward, loss and backward.
    bool gradientsAccumulated = false;
    // FSDP1 with use_orig_params: zero_grad frees the original parameters' gradients, views of each
    // unit's flat gradient, which FSDP frees at the next forward: there between steps.
    bool gradientsUntilNextForward = false;
    // The reading counts the caching allocator's reserve and FSDP allocates the sharded gradients
    // and the all-gather buffers on its own streams: their blocks stay reserved all step.
    bool streamPoolsReserved = false;
    // The s·b·h tensors a pipeline's schedule holds beside a steady-state forward, beside a
    // backward at the stage's last layer, and past it (core/pipeline.h).
    Bytes pipelineBesideForward = 0;
    Bytes pipelineBesideBackward = 0;
    Bytes pipelineBesideLaterBackward = 0;

    // What the layers done keep past their backward, at the backward of the `done`th layer from
    // the last.
    Bytes keptPastBackwardAt(std::int64_t done) const
    {
        return done > 1 ? (done - 1) * keptPastBackward - keptAsStreamGradient : 0;
    }
    Bytes item(ItemId id) const { return itemBytes[static_cast<int>(id)]; }
    Bytes hostItem(ItemId id) const { return itemHostBytes[static_cast<int>(id)]; }
    bool has(ItemId id) const { return present[static_cast<int>(id)]; }
    Bytes component(Component c) const { return componentBytes[static_cast<int>(c)]; }
    // Megatron-LM's micro-batches its rerun state machine holds once the step has fetched them
    // all: while the step computes (the ids the embedding saved are counted with it), and at the
    // step's end, those ids included, which stays until the next step begins.
    Bytes batchesKeptThroughStep() const
    {
        return batchKeptAllStep ? item(ItemId::BatchesKept) + item(ItemId::InputBatch) : 0;
    }
    Bytes batchesKeptAtStepEnd() const { return batchesKeptThroughStep() + batchIdsInEmbedding; }
    // Parameters, gradients and optimizer states as the ZeRO paper counts them: without the
    // runtime's buffers.
    Bytes modelStates() const
    {
        return component(Component::Parameters) + component(Component::Gradients)
            + component(Component::OptimizerStates) - runtimeBuffers();
    }
    Bytes runtimeBuffers() const
    {
        Bytes sum = 0;
        for (int i = 0; i < int(itemBytes.size()); ++i)
            if (isRuntimeBuffer(static_cast<ItemId>(i)))
                sum += itemBytes[i];
        return sum;
    }
};

struct ExplainedItem {
    ItemId id;
    Bytes bytes;
    std::string formula; // "7.00e9 params × 4 B = 26.1 GiB"
    Bytes hostBytes = 0; // what it holds in CPU memory instead
    // Offloaded, or one of the offload's own buffers: its size is the one in CPU memory.
    bool livesInCpuMemory() const { return bytes == 0 && hostBytes > 0; }
};

// The CPU memory one node needs for `perGpu` bytes a GPU: each GPU's process on it keeps its own.
inline Bytes hostPerNode(const Scenario &s, Bytes perGpu)
{
    return perGpu * s.gpusOnNode();
}

// Whether an item's CPU memory is DeepSpeed's ZeRO-Offload's (its offloaded states and
// buffers): not the activations offloaded between forward and backward, nor a paged
// optimizer's states.
inline bool zeroOffloadItem(ItemId id)
{
    return id != ItemId::LayerActivations && id != ItemId::PagedOptimizerStates;
}

// What DeepSpeed's ZeRO-Offload keeps in CPU memory per GPU.
inline Bytes zeroOffloadHost(const Breakdown &b)
{
    Bytes total = 0;
    for (int i = 0; i < kItemCount; ++i)
        if (zeroOffloadItem(static_cast<ItemId>(i)))
            total += b.itemHostBytes[static_cast<std::size_t>(i)];
    return total;
}

// What is wrong with a scenario, if anything: the first field out of its range or at odds with
// another, named as the CLI spells it, with what is allowed. Nothing: the scenario is valid.
[[nodiscard]] std::optional<Error> scenarioError(const Scenario &s);
// NCCL's NVLS buffers on one GPU, were the node's NVSwitch to do NVLink SHARP (Overhead::nvls):
// what the NVLS settings act on.
Bytes nvlsBuffersOnNvSwitch(const Scenario &s);
// The same rules for an architecture on its own (a preset, a config.json), with every other
// field at its default: what the readers check once they have read one.
[[nodiscard]] std::optional<Error> architectureError(const Architecture &a);
// An integer field's allowed range in this scenario (some depend on others), for messages.
std::optional<std::pair<std::int64_t, std::int64_t>> allowedRange(const Scenario &s, std::string_view field);

// Assumes scenarioError(s) found nothing; call validatedEstimate() when that is not known.
Breakdown estimate(const Scenario &s);

// The activations this step would hold without recomputation: every saved layer at its full
// size and no recomputation working set (the diagram draws it as a dashed outline).
Bytes activationsWithoutRecompute(const Breakdown &b);
Result<Breakdown> validatedEstimate(const Scenario &s);

// The same numbers as estimate(), with a formula per present item, in component order.
std::vector<ExplainedItem> explain(const Scenario &s, Units units);

} // namespace vl
