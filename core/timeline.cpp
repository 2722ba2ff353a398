#include "core/timeline.h"

#include <algorithm>

namespace vl {

StepTimeline stepTimeline(const Scenario &s)
{
    return stepTimeline(estimate(s));
}

namespace {

// Walks the step's points in order, handing each to `visit`: what the timeline draws and the peak
// rule reads, without storing them (every estimate asks for the peak, for the allocator's reserve).
// `candidatesOnly` skips the points that cannot be the peak: forward only grows past its first
// point (which may hold FSDP2's all-gather output of the root), and backward, which trades each
// layer's activations for its gradients, is highest at one of its ends unless the two are within
// a few bytes a layer (integer shares can then peak inside).
template <class Visit>
void walkStep(const Breakdown &b, Visit &&visit, bool candidatesOnly = false)
{
    const std::int64_t layers = std::max<std::int64_t>(b.layersOnStage, 1);
    // All step long: the weights, master copy and moments, the overhead, DeepSpeed ZeRO-3's
    // gradient bucket (below stage 3 the bucket lives in backward only) and ZeRO-Offload's GPU
    // staging buffer, both allocated with the optimizer.
    // The logits' freed block is held while the loss's backward runs; the layers' backward
    // then reuses it.
    const Bytes freedLogits = b.item(ItemId::FreedLogitsBlock);
    const Bytes overhead = b.component(Component::Overhead) - freedLogits;
    // torch.optim's step intermediates exist during the step alone.
    const Bytes stepBuffer = b.item(ItemId::OptimizerStepBuffer);
    const Bytes optimizer = b.component(Component::OptimizerStates) - stepBuffer;
    const Bytes bucket = b.item(ItemId::ZeroReduceBucket);
    const Bytes bucketAllStep = b.bucketPersists ? bucket : 0;
    // Megatron's main gradients live in a buffer kept all step; elsewhere backward produces them.
    // So do FSDP's sharded gradients where the reading counts the blocks cached for its
    // reduce-scatter stream.
    const Bytes persistent = bucketAllStep + b.item(ItemId::OffloadGradientBuffer) + b.item(ItemId::DdpGradientBuckets)
        + (b.gradientsPersist || b.streamPoolsReserved ? b.item(ItemId::Gradients) : 0);
    // FSDP's gradients accumulated without sync over the step's micro-batches (the timeline draws
    // the last one): there from its start until its backward reduces them, before the step.
    const Bytes accumulated = b.item(ItemId::FsdpAccumulatedGradients);
    // ZeRO-3's and FSDP's gathered parameters, QLoRA's dequantized module and the copies
    // context_parallel() holds: from the first forward gather to the end of backward; so are
    // FSDP's all-gather buffers, or all step where the reading counts the blocks cached for its
    // copy-in stream, but for FSDP2's all-gather output, which only forward holds. The dequantized
    // module exists while a 4-bit linear computes, so at the loss only where the head is one.
    const Bytes gathered = b.item(ItemId::Zero3GatheredParams) + b.item(ItemId::FsdpUnshardedParams)
        + b.item(ItemId::QloraDequantized) + b.item(ItemId::ContextParallelCopies)
        + (b.streamPoolsReserved ? 0 : b.item(ItemId::FsdpAllGatherBuffers));
    const Bytes gatheredAfterForward = gathered - b.allGatherOutputOnlyInForward;
    const Bytes notAtLoss = (b.dequantizedAtLoss ? 0 : b.item(ItemId::QloraDequantized))
        + b.allGatherOutputOnlyInForward;
    // The model DeepSpeed places whole before ZeRO-3 partitions it: at start-up only, with the
    // context, NCCL's buffers of the communicators set up by then (the launcher's barriers ran on
    // the default group) and the allocator's reserve.
    const Bytes wholeModel = b.item(ItemId::ModelBeforePartitioning);
    const Bytes params = b.component(Component::Parameters) - gathered - wholeModel;
    // What each layer keeps until its backward: its saved activations and, under autocast, the
    // 16-bit casts of its weights (under full recomputation the cache's until forward ends, then
    // the recomputed layer's: castsOnlyInForward).
    const Bytes layerActivations = b.item(ItemId::LayerActivations) + b.item(ItemId::WeightCasts);
    // In backward only: FSDP's unsharded gradients and reduce-scatter input, the bucket below ZeRO-3.
    const Bytes gradientBuffers = b.item(ItemId::FsdpGradientBuffers) + bucket - bucketAllStep;
    // DeepSpeed ZeRO's FP32 gradients of the partitions it steps: at the step alone.
    const Bytes stepGradients = b.item(ItemId::ZeroFp32Gradients);
    // The gradients themselves: the component without its buffers.
    const Bytes gradients = b.component(Component::Gradients) - persistent - gradientBuffers - accumulated
        - stepGradients;
    // The step's earlier micro-batches' gradients, beside the drawn one's forward, loss and backward,
    // which adds into them; and FSDP1's flat gradients, from the last step's zero_grad until this
    // step's forward.
    const Bytes earlierMicroBatches = b.gradientsAccumulated ? gradients : 0;
    const Bytes untilForward = b.gradientsUntilNextForward ? gradients : 0;
    auto share = [layers](Bytes total, std::int64_t done) { return total * done / layers; };

    // A point's total is the sum of its parts.
    const auto emit = [&visit](TimelinePoint p) {
        for (Bytes part : p.parts)
            p.inUse += part;
        visit(p);
    };
    const auto point = [&](StepPhase phase, std::int64_t layer, Bytes parameters, Bytes grads, Bytes activations,
                           Bytes heldByAllocator = 0) {
        TimelinePoint p{phase, layer, 0, {}};
        p.parts[std::size_t(Component::Parameters)] = parameters;
        // The accumulated gradients are reduced by the end of backward, before the step.
        const Bytes held = persistent + (phase == StepPhase::OptimizerStep ? 0 : accumulated);
        p.parts[std::size_t(Component::Gradients)] = held + grads;
        p.parts[std::size_t(Component::OptimizerStates)] = optimizer
            + (phase == StepPhase::OptimizerStep ? stepBuffer : 0);
        p.parts[std::size_t(Component::Activations)] = activations;
        p.parts[std::size_t(Component::Overhead)] = overhead + heldByAllocator;
        emit(p);
    };

    // There at every point of forward, the loss and backward: the micro-batches Megatron-LM's
    // rerun state machine keeps until the next step begins (the timeline draws the last one, so
    // the others are all there), and the pipeline inputs an interleaved schedule holds after their
    // backward, from the steady state on until the schedule returns, before the optimizer step.
    const Bytes throughSchedule = b.batchesKeptThroughStep() + b.item(ItemId::PipelineInputsHeld);
    // Kept from the previous step until each pipeline chunk's first forward (set_input_tensor),
    // and again from the last backward through the optimizer step.
    const Bytes kept = b.item(ItemId::PipelineInputsKept) + b.batchesKeptAtStepEnd();
    if (wholeModel > 0) {
        TimelinePoint p{StepPhase::StartUp, 0, 0, {}};
        p.parts[std::size_t(Component::Parameters)] = b.item(ItemId::Weights) + b.item(ItemId::LoraAdapters)
            + b.item(ItemId::RotaryTable) + wholeModel;
        p.parts[std::size_t(Component::Overhead)] = b.item(ItemId::CudaContext) + b.item(ItemId::CommBuffers)
            + b.nvlsAtStartUp + b.item(ItemId::AllocatorReserve);
        emit(p);
    }
    point(StepPhase::Start, 0, params, untilForward, kept);
    // Offloaded activations keep a window on the GPU: the tensors on their way out in forward
    // (with checkpointing the last five layers' inputs, until backward starts), and in backward
    // the one layer's tensors brought back.
    const Bytes outbound = b.item(ItemId::ActivationOffloadWindow);
    const Bytes inbound = outbound > 0 ? b.keptPerLayer : 0;
    const Bytes embedding = b.item(ItemId::EmbeddingActivations);
    // Megatron's forward_step holds the micro-batch's tensors until it returns, before backward
    // (unless they are kept); a pipeline's steady-state forward runs beside the previous backward's
    // gradients.
    const Bytes forwardOnly = (b.batchKeptAllStep ? 0 : b.item(ItemId::InputBatch)) + b.pipelineBesideForward;
    // FSDP gathers one layer at a time until backward prefetches the next.
    const Bytes gatheredInForward = gathered - b.gatheredOnlyInBackward;
    // FSDP2 holds the root's all-gather output, where it is larger than a layer's, until the
    // first layer's copy-out: the first point stands for that moment.
    const auto gatheredAt = [&](std::int64_t layer) {
        return gatheredInForward - (layer > 1 ? b.rootAllGatherOutputBeyondALayer : 0);
    };
    const auto forwardPoint = [&](std::int64_t layer) {
        point(StepPhase::Forward, layer, params + gatheredAt(layer), earlierMicroBatches,
              throughSchedule + forwardOnly + embedding + outbound + share(layerActivations, layer));
    };
    if (candidatesOnly) {
        if (b.rootAllGatherOutputBeyondALayer > 0 && layers > 1)
            forwardPoint(1);
        forwardPoint(layers);
    } else {
        for (std::int64_t layer = 1; layer <= layers; ++layer)
            forwardPoint(layer);
    }
    // At the loss: the logits and what the final norm, the head and the loss keep for backward,
    // at the wider of its two moments. The training loops compute the loss inside the autocast
    // region and run backward after it has exited (torch.autocast.__exit__ clears the cast cache),
    // so the casts only the cache kept are gone by the loss's backward.
    const Bytes afterForward = embedding + layerActivations;
    const Bytes lossMoment = std::max(b.logitsInLossForward, b.logitsInLossBackward - b.castsGoneAtLossBackward);
    point(StepPhase::Loss, 0, params + gatheredInForward - notAtLoss, earlierMicroBatches,
          throughSchedule + forwardOnly + afterForward + outbound + lossMoment + b.item(ItemId::HeadActivations),
          freedLogits);

    // Each backward point is a layer's widest moment: the activations of the layers whose backward
    // has run are freed, the layer's own are still there (under full recomputation its checkpointed
    // input, which the checkpoint holds until its backward returns, beside what is rebuilt), with
    // its working set on top (the loss's tensors are gone by then, but for logits the training loop
    // still holds, lit-gpt's, and the embedding's, whose backward is the last), and of the layers
    // done what outlives their backward (bitsandbytes' kept inputs). A whole model run
    // under autograd pins this (tst_savedtensors).
    const Bytes recompute = b.item(ItemId::RecomputeBuffer);
    const Bytes backwardHolds = inbound + b.backwardWorkingSet + b.logitsKeptInBackward + b.embeddingInBackward;
    // A pipeline's schedule holds tensors beside backward; the gradient backward started from is,
    // at the stage's last layer, the working set's gradient of the layer's output, one more past it.
    const auto besideBackward = [&](std::int64_t done) {
        return done == 1 ? b.pipelineBesideBackward : b.pipelineBesideLaterBackward;
    };
    // Each layer's backward adds its gradients, into those of the earlier micro-batches where
    // there are some; the head's come before the layers', an untied embedding's after them.
    const Bytes newGradients = b.gradientsAccumulated ? 0 : gradients;
    const Bytes layerGradients = newGradients - b.gradientsBeforeLayers - b.gradientsAfterLayers;
    // At the layer's widest moment its backward has yet to make some of its own.
    const auto gradientsAfter = [&](std::int64_t done) {
        return earlierMicroBatches + b.gradientsBeforeLayers + share(layerGradients, done)
            - b.gradientsAfterWidestMoment;
    };
    // share(g, d) − share(a, d − 1) lies within 1 of ((g − a)·d + a)/layers, so with g − a ≥ layers
    // no earlier d beats d = layers; with g − a ≤ −2·layers none beats d = 1, or d = 2 past the
    // pipeline's step up there. What the layers done keep adds terms linear in d from d = 2 on,
    // which leave the most at one of those ends.
    // The head's weight casts go with the head's backward, before the layers'.
    const Bytes freedBeforeLayers = b.castsOnlyInForward + b.headWeightCasts;
    const Bytes inBackward = layerActivations - freedBeforeLayers;
    const Bytes trade = layerGradients - inBackward;
    const bool atAnEnd = candidatesOnly && (trade >= layers || trade <= -2 * layers);
    for (std::int64_t layer = layers; layer >= 1; --layer) {
        const std::int64_t done = layers - layer + 1;
        if (atAnEnd && done > 2 && done != layers)
            continue;
        point(StepPhase::Backward, layer, params + gatheredAfterForward, gradientsAfter(done) + gradientBuffers,
              throughSchedule + afterForward - freedBeforeLayers - share(inBackward, done - 1) + recompute
                  + backwardHolds + b.keptPastBackwardAt(done) + besideBackward(done));
    }
    point(StepPhase::OptimizerStep, 0, params, gradients + stepGradients, kept);
}

} // namespace

StepTimeline stepTimeline(const Breakdown &b)
{
    StepTimeline t;
    t.points.reserve(static_cast<std::size_t>(2 * b.layersOnStage + 4));
    walkStep(b, [&t](const TimelinePoint &p) {
        if (p.inUse > (t.points.empty() ? -1 : t.points[t.peakIndex].inUse))
            t.peakIndex = t.points.size();
        t.points.push_back(p);
    });
    return t;
}

Bytes stepPeak(const Breakdown &b)
{
    Bytes peak = 0;
    walkStep(
        b, [&peak](const TimelinePoint &p) { peak = std::max(peak, p.inUse); }, true);
    return peak;
}

Bytes requiredBytes(const Breakdown &b, FitRule rule)
{
    return requiredBy(rule, b.total, rule == FitRule::Peak ? stepPeak(b) : 0);
}

std::string_view idString(StepPhase phase)
{
    switch (phase) {
    case StepPhase::StartUp: return "start_up";
    case StepPhase::Start: return "start";
    case StepPhase::Forward: return "forward";
    case StepPhase::Loss: return "loss";
    case StepPhase::Backward: return "backward";
    case StepPhase::OptimizerStep: return "optimizer_step";
    }
    return "start";
}

std::string_view toString(FitRule rule)
{
    return rule == FitRule::Sum ? "sum" : "peak";
}

std::optional<FitRule> parseFitRule(std::string_view text)
{
    if (text == "sum")
        return FitRule::Sum;
    if (text == "peak")
        return FitRule::Peak;
    return std::nullopt;
}

} // namespace vl
