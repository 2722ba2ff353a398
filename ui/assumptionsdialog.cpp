#include "ui/assumptionsdialog.h"

#include "core/edits.h"
#include "core/savedtensors.h"
#include "core/units.h"
#include "ui/theme.h"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace vl {

namespace {

// Which reading of a real run the total predicts (core's Measure), in plain words.
QString measureText(Measure measure)
{
    switch (measure) {
    case Measure::Allocated:
        return QObject::tr("the tensors and cuBLAS's workspaces, what torch.cuda.max_memory_allocated reports. A real "
                           "run needs more: the caching allocator's reserve, the CUDA context and NCCL's buffers");
    case Measure::Reserved:
        return QObject::tr("the caching allocator's pool, what torch.cuda.max_memory_reserved reports: the tensors "
                           "and the allocator's reserve; nvidia-smi also shows the CUDA context and NCCL's buffers");
    case Measure::NvidiaSmi: break;
    }
    return QObject::tr("what nvidia-smi shows for the process: the tensors, the caching allocator's reserve, the "
                       "CUDA context and NCCL's buffers. GPU capacities are nvidia-smi readings too, so a plan "
                       "that fits here fits the card");
}

QString overheadText(const Overhead &o, Bytes gemmWorkspaces, Bytes nvlsBuffers, Units units)
{
    QString text = QObject::tr("cuBLAS workspaces %1 (compute capability %2)")
                       .arg(bytesText(gemmWorkspaces, units))
                       .arg(o.computeCapability);
    if (!o.reserveCounted())
        return text;
    text += QObject::tr(", allocator reserve %1 % of what is allocated at the step's peak").arg(o.allocatorPercent);
    if (o.runtimeCounted())
        text += QObject::tr(", CUDA context %1 MiB (%2 kernel loading), NCCL buffers %3 MiB with more than one GPU")
                    .arg(o.cudaContext / kMiB)
                    .arg(o.moduleLoading == ModuleLoading::Lazy ? QObject::tr("lazy") : QObject::tr("eager"))
                    .arg(o.commBuffers / kMiB);
    if (nvlsBuffers > 0)
        text += QObject::tr(", NCCL %1's NVLS buffers %2 (an NVSwitch that does NVLink SHARP)")
                    .arg(QString::fromUtf8(toString(o.nccl)))
                    .arg(bytesText(nvlsBuffers, units));
    return text;
}

} // namespace

QString assumptionsHtml(const Scenario &s, const Breakdown &b, Units units)
{
    const DtypeBytes dt = dtypeBytes(s);
    const OptimizerState optimizer = optimizerState(s);
    const QString optimizerBytes = optimizer.factored ? QObject::tr("≈ 4·(rows + columns) per matrix")
                                                      : QString::number(optimizer.bytesPerParam());
    QString html =
        QObject::tr(
            "<h3>Conventions in force</h3><ul>"
            "<li>Bytes are counted exactly; sizes show in GiB (2³⁰ B) or GB (10⁹ B) as you choose.</li>"
            "<li>Working weights: <b>%1 B</b> per parameter; gradients: <b>%2 B</b>. Mixed precision: %9.</li>"
            "<li>FP32 master copy: <b>%3</b>, counted inside the optimizer states (the ZeRO paper's K = 12).</li>"
            "<li>Optimizer moments: <b>%4 B</b> per trainable parameter.</li>"
            "<li>Activations: <b>%5 B</b> per element, 1-byte dropout masks; the tensors saved for backward are "
            "enumerated %7.</li>"
            "<li>%8</li>"
            "<li>Compared with: %10.</li>"
            "<li>The reported GPU is the most loaded one (for pipelines, the heavier of the first and last stage).</li>"
            "<li>Runtime overhead: %6.</li>"
            "<li>GPU capacities are what nvidia-smi reports, not the vendor label.</li></ul>")
            .arg(dt.weight)
            .arg(dt.gradient)
            .arg(dt.master > 0 ? QObject::tr("kept, 4 B per trainable parameter") : QObject::tr("not kept"))
            .arg(optimizerBytes)
            .arg(dt.activation)
            .arg(overheadText(s.overhead, b.item(ItemId::GemmWorkspaces), b.item(ItemId::NvlsBuffers), units))
            .arg(s.implementation == Implementation::Megatron
                     ? QObject::tr("as in Korthikanti et al. 2022, Table 2 (Megatron's fused kernels)")
                     : QObject::tr("as %1's code saves them, each checked against PyTorch's autograd")
                           .arg(QString::fromLatin1(toString(s.implementation))))
            .arg(dt.logits == 4 ? QObject::tr("Logits are kept in FP32, which the loss reads as they are.")
                     : s.loss == Loss::Chunked
                     ? QObject::tr("Logits are kept in the activation dtype, with an FP32 copy for the loss one "
                                   "chunk in %1 at a time (chunked cross-entropy).")
                           .arg(kLossChunks)
                     : QObject::tr("Logits are kept in the activation dtype, with an FP32 copy for the loss all "
                                   "at once."))
            .arg(dt.autocast ? QObject::tr("PyTorch autocast, FP32 weights with a 16-bit cast of each kept until its "
                                           "backward")
                     : dt.gemmInput < dt.activation
                     ? QObject::tr("Transformer Engine's FP8 under Megatron-LM: 16-bit weights and gradients with an "
                                   "FP32 master copy, an FP8 copy and FP8 transpose of every linear weight kept across "
                                   "micro-batches, and each linear's input saved for backward in FP8 (1 B)")
                     : dt.fsdpCast   ? QObject::tr("FSDP's MixedPrecisionPolicy: the FP32 shards, which the optimizer "
                                                     "updates, gathered in 16 bits for each layer to compute in; no "
                                                     "separate master copy")
                     : dt.master > 0 ? QObject::tr("16-bit weights and gradients with an FP32 master copy")
                                     : QObject::tr("none"))
            .arg(measureText(s.overhead.measure));
    QStringList parallel;
    const bool fsdp1 = s.fsdpVersion == FsdpVersion::Fsdp1;
    if (s.zeroStage == 3 && s.deepSpeed())
        parallel << QObject::tr(
            "DeepSpeed ZeRO-3 also holds gathered what its parameter coordinator keeps for reuse and "
            "prefetches when forward turns into backward or, under full recomputation, from a "
            "layer's recomputation to its backward, whichever is more, and the largest trainable "
            "module's gradient.");
    if (s.fsdp())
        parallel << (fsdp1 ? QObject::tr("FSDP1 (PyTorch's FullyShardedDataParallel, as accelerate and Lightning wrap "
                                         "it): FP32 shards over %1 GPUs, gathered in 16 bits under mixed precision: "
                                         "the embedding, final norm and head for the whole step, the layers one at a "
                                         "time in forward and two in backward, each straight into its flat "
                                         "parameter; in backward one layer's unsharded gradients wait with their "
                                         "reduce-scatter input.")
                           : QObject::tr("FSDP (PyTorch's fully_shard, as torchtitan applies it): FP32 shards over %1 "
                                         "GPUs, gathered in 16 bits under mixed precision: the embedding, final norm "
                                         "and head for the whole step, the layers one at a time in forward and two "
                                         "in backward, each through an all-gather buffer as large as the unit; in "
                                         "backward one layer's unsharded gradients wait with their reduce-scatter "
                                         "input."))
                        .arg(s.shardGroup());
    if (b.streamPoolsReserved)
        parallel << (fsdp1 ? QObject::tr("FSDP's streams: the sharded gradients are allocated on its reduce-scatter "
                                         "stream and the shards' 16-bit casts for the all-gather on its unshard "
                                         "stream. PyTorch's caching allocator keeps a freed block for the stream "
                                         "that allocated it, so the reserved memory holds them all step, %1 and %2, "
                                         "which the step timeline draws from its start.")
                           : QObject::tr("FSDP's streams: the sharded gradients are allocated on its reduce-scatter "
                                         "stream and the all-gather buffers on its copy-in stream. PyTorch's caching "
                                         "allocator keeps a freed block for the stream that allocated it, so the "
                                         "reserved memory holds them all step, %1 and %2, which the step timeline "
                                         "draws from its start."))
                        .arg(bytesText(b.item(ItemId::Gradients), units),
                             bytesText(b.item(ItemId::FsdpAllGatherBuffers), units));
    else if (b.allGatherOutputOnlyInForward > 0)
        parallel << QObject::tr("FSDP's all-gather output, as torch.cuda.max_memory_allocated sees it: forward keeps "
                                "each unit's until the next unit's copy-out and frees the last as it ends; backward "
                                "frees each right after its copy-out. So the largest unit's, %1, is there as forward "
                                "begins, a layer's through the rest of forward, and none at the loss or in backward, "
                                "where the layer prefetched is the second one gathered.")
                        .arg(bytesText(b.allGatherOutputOnlyInForward, units));
    if (b.has(ItemId::FreedLogitsBlock))
        parallel << QObject::tr(
                        "The loss's backward: the 16-bit logits are freed before it, and its FP32 buffers, 4 B a "
                        "logit, fill the blocks freed with them but for 2 B a logit. The caching allocator keeps "
                        "that block, %1, reserved and unused while the loss's backward runs, so a reading of "
                        "reserved memory shows it. When the GPU runs short the allocator frees such unused blocks "
                        "and tries again, so it does not by itself run a job out of memory.")
                        .arg(bytesText(b.item(ItemId::FreedLogitsBlock), units));
    if (b.item(ItemId::WeightBlockTails) > 0)
        parallel << QObject::tr(
                        "lit-gpt makes its weights on the GPU one after another. PyTorch's caching allocator gives "
                        "each weight of 10 MiB or more a segment rounded up to 2 MiB and leaves a remainder of at most "
                        "1 MiB in its block, so the weights' blocks hold %1 more than the weights, which "
                        "max_memory_allocated counts.")
                        .arg(bytesText(b.item(ItemId::WeightBlockTails), units));
    if (fieldInEffect(s, "no-sync"))
        parallel << (s.fsdpNoSync
                         ? QObject::tr("Gradients accumulate without sync (FSDP's no_sync, as accelerate's "
                                       "gradient accumulation and Lightning Fabric's no_backward_sync do): every GPU "
                                       "keeps the unsharded gradients of all it trains, in the reduce dtype (FSDP1: "
                                       "the compute dtype), until the step's last micro-batch. With FSDP1's flat "
                                       "parameters (use_orig_params) a LoRA run keeps them for the frozen weights "
                                       "too, which the estimate does not count.")
                         : QObject::tr("Each micro-batch reduce-scatters its gradients (torchtitan's and torchtune's "
                                       "way). Accumulating without sync (no_sync: accelerate's gradient "
                                       "accumulation, Lightning Fabric's no_backward_sync) would keep every GPU's "
                                       "unsharded gradients all step: --no-sync yes."));
    if (b.gradientsAccumulated)
        parallel << QObject::tr("Over the step's %1 micro-batches each backward adds into the gradients the earlier "
                                "ones left, so the last micro-batch's forward and loss run beside them, %2.")
                        .arg(s.microBatchesPerStep())
                        .arg(bytesText(b.item(ItemId::Gradients), units));
    if (fieldInEffect(s, "fsdp-orig-params"))
        parallel << (b.gradientsUntilNextForward
                         ? QObject::tr("FSDP1's use_orig_params (accelerate's and Lightning's default): zero_grad "
                                       "frees the original parameters' gradients, views of each unit's flat "
                                       "gradient, and FSDP frees the flat gradients only when the next forward "
                                       "starts, so the sharded gradients, %1, stay between steps.")
                               .arg(bytesText(b.item(ItemId::Gradients), units))
                         : QObject::tr("FSDP1 without use_orig_params: zero_grad frees the flat parameters' "
                                       "gradients after the step."));
    if (fieldInEffect(s, "expert-load"))
        parallel << QObject::tr("Mixture of experts: the block runs its experts one after another. However routing "
                                "falls, their saved rows add up to k a token; the expert computing at the block's "
                                "widest moment, its last, is taken to get %1.")
                        .arg(s.expertLoad == ExpertLoad::EveryToken
                                 ? QObject::tr("every token, the most routing can give it")
                                 : QObject::tr("its even share, k/e of the tokens (routing that favours it makes "
                                               "that moment wider)"));
    if (s.megatron())
        parallel << QObject::tr(
                        "Megatron-Core: 16-bit weights and FP32 main gradients on every GPU; the FP32 master copy "
                        "and moments %1 (Megatron's theoretical memory: 18 B per parameter, 6 + 12/d with the "
                        "distributed optimizer).")
                        .arg(s.zeroStage == 1
                                 ? QObject::tr("sharded by its distributed optimizer over %1 GPUs").arg(s.shardGroup())
                                 : QObject::tr("whole on every GPU"));
    // Megatron-LM's get_batch: the first and last pipeline stages fetch the micro-batch (the Hugging
    // Face Trainer's batch is an item of its own, with no rerun state machine).
    if (s.megatron() && (b.has(ItemId::InputBatch) || b.batchKeptAllStep)) {
        parallel << (s.dataloaderMask
                         ? QObject::tr("Megatron-LM's loop fetches each micro-batch as it runs forward: its token "
                                       "ids, labels and loss mask, and the causal mask its data loader builds, "
                                       "s × s booleans a sample (--create-attention-mask-in-dataloader, its "
                                       "default).")
                         : QObject::tr("Megatron-LM's loop fetches each micro-batch as it runs forward: its token "
                                       "ids, labels and loss mask; no causal mask from the data loader "
                                       "(--no-create-attention-mask-in-dataloader)."));
        parallel << (b.batchKeptAllStep
                         ? QObject::tr("Its rerun state machine (--rerun-mode validate_results, the default) keeps "
                                       "every micro-batch the step fetched, to replay the step, on the GPU that "
                                       "reads the data loader (tensor-parallel rank 0) until the next step begins: "
                                       "%1 micro-batches, %2 by the step's end.")
                               .arg(s.microBatchesPerStep())
                               .arg(bytesText(b.batchesKeptAtStepEnd(), units))
                         : QObject::tr("Each is freed when its forward returns, but for the ids the embedding keeps "
                                       "(--rerun-mode disabled, or Megatron-LM before May 2026)."));
    }
    if (s.zeroStage >= 1 && s.deepSpeed())
        parallel << QObject::tr(
                        "DeepSpeed ZeRO-%1: its optimizer allocates a contiguous gradient bucket of %2 elements "
                        "(reduce_bucket_size).")
                        .arg(s.zeroStage)
                        .arg(s.reduceBucket);
    if (s.offload != Offload::None)
        parallel << QObject::tr(
                        "DeepSpeed ZeRO-Offload: each GPU's process keeps its FP32 master, moments and gradients "
                        "in CPU memory (at stages 1 and 2 also a 16-bit copy of its partition, a staging buffer and, "
                        "with several micro-batches a step, their accumulated gradients): %1 per GPU, %2 for a node "
                        "of %3 GPUs.")
                        .arg(bytesText(zeroOffloadHost(b), units), bytesText(hostPerNode(s, zeroOffloadHost(b)), units))
                        .arg(s.gpusOnNode());
    if (s.implementation == Implementation::TorchTune && b.has(ItemId::RotaryTable))
        parallel << QObject::tr("torchtune's RoPE keeps a cache of cos and sin in FP32 for %1 positions, %2, all step. "
                                "%3")
                        .arg(s.arch.rotaryPositions > 0
                                 ? QString::number(rotaryCachePositions(s))
                                 : QObject::tr("the sequence's %1 (no maximum stated)").arg(rotaryCachePositions(s)))
                        .arg(bytesText(b.item(ItemId::RotaryTable), units))
                        .arg(s.packed ? QObject::tr("With packed samples every layer gathers the cache's rows at the "
                                                    "positions for its query and for its key and keeps them for "
                                                    "backward.")
                                      : QObject::tr("Samples are not packed: every layer reads a slice of the cache."));
    if (s.implementation == Implementation::TorchTune && s.fineTune == FineTune::QLoRA)
        parallel << QObject::tr("torchtune's QLoRA stores every projection of a layer as torchao's NF4Tensor and "
                                "dequantizes it with plain tensor ops for each product, forward and backward, holding "
                                "%1 at once for the largest; under torch.compile Inductor fuses those ops, which the "
                                "estimate does not count.")
                        .arg(bytesText(b.item(ItemId::QloraDequantized), units));
    if (s.activationOffload)
        parallel << QObject::tr(
                        "Activation offload (torchtune's OffloadActivations): the layers' saved tensors, %1 per GPU, "
                        "wait in pinned CPU memory from their forward to their backward; the GPU keeps those in "
                        "transit. The final norm's, the head's and the loss's tensors and autocast's weight casts "
                        "are counted on the GPU.")
                        .arg(bytesText(b.hostItem(ItemId::LayerActivations), units));
    if (b.has(ItemId::OptimizerStepBuffer))
        parallel << QObject::tr(
                        "Optimizer step: %1 of intermediates while the optimizer updates the weights (PyTorch's "
                        "foreach AdamW computes √v of every tensor at once; its for-loop version and Hugging Face's "
                        "own AdamW and Adafactor one tensor at a time, the loops keeping the previous tensor's "
                        "denominator until the next replaces it, so the widest pair of neighbouring tensors in the "
                        "order the model registers them counts), gone before the next forward. The sum counts them; "
                        "the step timeline shows them at the step. A fused optimizer needs none.")
                        .arg(bytesText(b.item(ItemId::OptimizerStepBuffer), units));
    if (s.optimizerInBackward)
        parallel << QObject::tr(
                        "Optimizer in backward (torchtune's optimizer_in_bwd): each weight is updated as soon as "
                        "its gradient is ready and the gradient is freed, so the gradients count one weight's, the "
                        "largest: %1.")
                        .arg(bytesText(b.item(ItemId::Gradients), units));
    if (s.gradientsKept && fieldInEffect(s, "gradients-kept"))
        parallel << QObject::tr(
            "Gradients kept between steps (zero_grad(set_to_none=False), PyTorch 1's default): the step "
            "timeline holds them from the start of forward, and so does its peak; the sum counts them either way.");
    if (s.liger)
        parallel << QObject::tr(
            "Liger kernels: Liger Kernel's RMSNorm keeps its input and an FP32 1/rms, its SwiGLU the gate and up "
            "outputs, and its fused linear cross-entropy computes the output layer's gradients in forward, one "
            "chunk of logits at a time, and keeps them for backward.");
    if (s.meanKeepsInput() && pytorchShapesSavedTensors(s))
        parallel << QObject::tr(
            "PyTorch 2.1 or older: torch.mean keeps its input for backward (fixed in 2.2, pytorch/pytorch#109935), "
            "so each RMSNorm written with mean also keeps x², one more tensor of the layer's width per token.");
    if (s.softmaxKeepsInput() && pytorchShapesSavedTensors(s))
        parallel << QObject::tr(
            "PyTorch 1.10 or older: softmax and log_softmax keep their input for backward beside their output "
            "(fixed in 1.11, pytorch/pytorch#65242), so eager attention keeps its scores, one more tensor of the "
            "probabilities' size per layer, and a language model's loss keeps its FP32 logits.");
    if (s.foreachAdamCopiesDenominator() && pytorchShapesOptimizerStep(s))
        parallel << QObject::tr(
            "PyTorch 2.0 or older: foreach AdamW adds eps to √v out of place (in place since 2.1, "
            "pytorch/pytorch#104898), so its step holds two intermediates as large as all the parameters it "
            "steps, not one.");
    if (s.fourBitKeepsInput())
        parallel << QObject::tr(
            "bitsandbytes 0.43.1 or older: every 4-bit linear keeps its input for backward (dropped in 0.43.2, "
            "bitsandbytes pull request 1270) as an attribute of its autograd context, which autograd frees only "
            "with the graph: through the whole backward of a layer, after its own backward has run. Under the "
            "non-reentrant checkpoint, which keeps each layer's graph from forward on, every layer's stay from its "
            "forward to the end of backward.");
    if (const Bytes held = reentrantCheckpointOutput(s); held > 0)
        parallel << QObject::tr("Reentrant checkpoint (transformers' default, use_reentrant=True): while a recomputed "
                                "layer runs backward, torch.utils.checkpoint also holds the output it recomputed, %1, "
                                "counted in the recomputation's working set. The non-reentrant checkpoint drops it "
                                "(--use-reentrant no).")
                        .arg(bytesText(held, units));
    if (b.has(ItemId::CheckpointsKeptByFsdp))
        parallel << QObject::tr(
                        "FSDP1 with the reentrant checkpoint: the hook FSDP1 sets on each frozen layer to reshard "
                        "it after its backward holds the layer's checkpointed input, and so its gradient, until "
                        "backward ends, %1 more at the first layer's backward. The non-reentrant checkpoint "
                        "(--use-reentrant no) or FSDP2 frees them layer by layer.")
                        .arg(bytesText(b.keptPastBackwardAt(b.layersOnStage), units));
    if (s.sdpaGetsPaddingMask())
        parallel << QObject::tr("Padded batches: Hugging Face hands SDPA the padding mask, so keys and values are "
                                "copied to every head (%1 more a layer than at the key/value heads) and SDPA's "
                                "memory-efficient kernel keeps the mask, s×s a sequence, for every layer's backward "
                                "(--padding-mask no: packed batches, or batches without padding).")
                        .arg(bytesText(repeatedKeysAndValues(s), units));
    else if (const Bytes repeated = repeatedKeysAndValues(s); repeated > 0)
        parallel << QObject::tr("K and V copied to every head (Hugging Face's Mistral, Mixtral and Qwen2 flash "
                                "attention before transformers 4.48, and SDPA in those releases): each layer's "
                                "attention keeps its keys and values as wide as its queries, %1 more a layer than at "
                                "the key/value heads (--kv-repeat no).")
                        .arg(bytesText(repeated, units));
    if (s.pagedOptimizer)
        parallel << QObject::tr(
                        "Paged optimizer (bitsandbytes): the states of every tensor of 1e5 elements or more, %1 per "
                        "GPU, live in CUDA managed memory. While the GPU has room they stay there and nvidia-smi "
                        "shows them; when it runs short the driver pages them out to CPU memory instead of failing, "
                        "so the verdict does not count them. PyTorch's allocator never sees them.")
                        .arg(bytesText(b.hostItem(ItemId::PagedOptimizerStates), units));
    if (b.has(ItemId::DdpGradientBuckets))
        parallel << QObject::tr("Without sharding the data-parallel GPUs run PyTorch's DistributedDataParallel, whose "
                                "all-reduce buckets hold a copy of every gradient from the moment the model is wrapped "
                                "(gradient_as_bucket_view off, PyTorch's default): %1, all step.")
                        .arg(bytesText(b.item(ItemId::DdpGradientBuckets), units));
    else if (s.pytorchDdp())
        parallel << QObject::tr(
            "Without sharding the data-parallel GPUs run PyTorch's DistributedDataParallel with "
            "gradient_as_bucket_view: the gradients are views into its all-reduce buckets, allocated for the "
            "whole step.");
    if (b.has(ItemId::ModelBeforePartitioning))
        parallel << QObject::tr("The model is not built under DeepSpeed's zero.Init (%1): its engine moves it whole "
                                "onto every GPU before ZeRO-3 partitions it, so at the run's start-up each GPU holds "
                                "all of it, %2, beside the context, NCCL's buffers and the reserve.")
                        .arg(s.zeroInitDecides() ? QObject::tr("zero.Init is off")
                                                 : QObject::tr("transformers never builds a 4-bit model under it"))
                        .arg(bytesText(stepTimeline(b).points.front().part(Component::Parameters), units));
    if (b.has(ItemId::ZeroFp32Gradients))
        parallel << QObject::tr("DeepSpeed's ZeRO steps its flat partitions one at a time: for each it makes an FP32 "
                                "copy of the partition's gradients for the optimizer (through a 16-bit flat copy, "
                                "freed once converted), %1 for the largest, and drops it after that partition's step.")
                        .arg(bytesText(b.item(ItemId::ZeroFp32Gradients), units));
    if (s.pipelineParallel > 1)
        parallel << QObject::tr(
                        "Pipeline: the reported stage holds %1 micro-batch(es) in flight (1F1B; without a count, "
                        "one per stage).")
                        .arg(b.microBatchesInFlight);
    if (s.pipelineParallel > 1 && s.virtualStages > 1)
        parallel << QObject::tr(
                        "Interleaved 1F1B, as Megatron-Core schedules it: the stage holds %1 passes of a micro-batch "
                        "through one of its %2 model chunks at once (a warm-up of 2(p − r − 1) + (v − 1)·p passes on "
                        "stage r, then one forward before each backward; all %3 when the warm-up covers them).")
                        .arg(b.chunkPassesInFlight)
                        .arg(s.virtualStages)
                        .arg(s.microBatchesPerStep() * s.virtualStages);
    if (b.has(ItemId::PipelineGradients))
        parallel << QObject::tr(
                        "The schedule holds activation gradients beside the stage's passes: from its second "
                        "steady-state forward on, the previous backward's, the one it sent back and the one it "
                        "received (or, interleaved, the next backward's, received ahead); beside a backward, the "
                        "previous backward's sent back and the one this backward started from, until it returns. "
                        "The most at once: %1.")
                        .arg(bytesText(b.item(ItemId::PipelineGradients), units));
    if (b.has(ItemId::PipelineOutputAndNextInput))
        parallel << QObject::tr(
                        "Interleaved, a steady-state backward runs beside the output of the forward before it, sent "
                        "but not freed until the next forward, and the next forward's input, received ahead: %1.")
                        .arg(bytesText(b.item(ItemId::PipelineOutputAndNextInput), units));
    if (b.has(ItemId::PipelineInputsHeld))
        parallel << QObject::tr(
                        "Interleaved, a pipeline input stays referenced after its backward, with the gradient left "
                        "on it: the one the schedule received last in warm-up until the schedule returns, and each "
                        "model chunk's latest until that chunk's next forward (set_input_tensor). At most %1 such "
                        "tensors beside one steady-state forward: %2.")
                        .arg(b.pipelineInputsHeld)
                        .arg(bytesText(b.item(ItemId::PipelineInputsHeld), units));
    if (b.has(ItemId::PipelineInputsKept))
        parallel << QObject::tr(
                        "Between steps each of the stage's model chunks keeps its last micro-batch's pipeline input "
                        "and that input's gradient until its next forward (Megatron-Core's set_input_tensor): %1, "
                        "in the step timeline before the step and during the optimizer step, never at the peak.")
                        .arg(bytesText(b.item(ItemId::PipelineInputsKept), units));
    parallel << QObject::tr(
        "Gathered parameters and gradient buckets are runtime buffers: drawn with the parameters and "
        "gradients, alive only while the step computes, and not model states (the ZeRO paper's residual "
        "states). Megatron's theoretical memory and DeepSpeed's model-state estimators leave them out.");
    if (b.backwardWorkingSet > 0)
        parallel << QObject::tr(
                        "Backward's working set: while one layer runs backward it holds %1 of gradients beside what "
                        "the layers saved (the residual stream's and its MLP's, at their widest). The loss's tensors "
                        "are freed by then, so the sum adds what it exceeds them by: %2.")
                        .arg(bytesText(b.backwardWorkingSet, units),
                             bytesText(b.item(ItemId::BackwardWorkingSet), units));
    if (b.gradientsAfterWidestMoment > 0)
        parallel << QObject::tr("Eager attention (and SDPA's math kernel) is widest in backward at its softmax, "
                                "before the layer's backward has made the gradients of its first norm and of q, k "
                                "and v: each layer's backward point holds %1 less than the layer's whole gradients.")
                        .arg(bytesText(b.gradientsAfterWidestMoment, units));
    html += QObject::tr("<h3>Parallelism and runtime buffers</h3>") + QStringLiteral("<ul><li>")
        + parallel.join(QStringLiteral("</li><li>")) + QStringLiteral("</li></ul>");
    html += QObject::tr(
        "<h3>Other tools' accounting</h3><ul>"
        "<li>Megatron-LM's theoretical memory: the same model states (18 B per parameter, 6 + 12/d with the "
        "distributed optimizer, under Megatron-Core). Its activations assume sequence parallelism with selective "
        "recomputation, count 4·ffn/h for the MLP even when it is gated, and add token ids, the embedding's "
        "dropout mask and FP32 logits: close to, not the same as, the layer lists here.</li>"
        "<li>llm-analysis: the same model states where its conventions hold (a tied head, FP32 gradients, no "
        "tensor parallelism); it counts an untied head once and divides the norms' gradients by TP. Its "
        "activations keep norm inputs in FP32 and count FlashAttention as 2·s·b·h + 4·a·s·b per layer.</li></ul>");
    html += QObject::tr(
        "<h3>Sources</h3><ul>"
        "<li>The article this program grew from: the 7B table (28/28/56 GB in FP32; 14/14/56 GB in AMP) and its "
        "script.</li>"
        "<li>Rajbhandari et al., ZeRO (arXiv 1910.02054): Figure 1 and the sharded model-state formulas.</li>"
        "<li>Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (arXiv 2205.05198).</li>"
        "<li>Dettmers et al., QLoRA (arXiv 2305.14314): NF4 with double quantization, 4.127 bits per parameter "
        "(4.5 without).</li>"
        "<li>Megatron-LM theoretical memory, DeepSpeed's ZeRO estimators, Hugging Face \"Model training anatomy\".</li>"
        "<li>Each model preset names its config.json; each GPU preset its nvidia-smi reading.</li></ul>");
    return html;
}

AssumptionsDialog::AssumptionsDialog(const Scenario &s, const Breakdown &b, Units units, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Assumptions"));
    auto *layout = new QVBoxLayout(this);
    auto *text = new QTextBrowser(this);
    text->setHtml(assumptionsHtml(s, b, units));
    text->setOpenExternalLinks(true);
    layout->addWidget(text);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(640, 520);
}

} // namespace vl
