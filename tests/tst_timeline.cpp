// The step timeline against the breakdown: its peak never exceeds the sum, its end state is
// the model states, and the peak sits where the text book says.

#include "core/edits.h"
#include "core/timeline.h"
#include "hfarchitectures.h"
#include "peftscenario.h"

#include <QTest>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>

using namespace vl;

Q_DECLARE_METATYPE(std::function<void(vl::Scenario &)>)
Q_DECLARE_METATYPE(vl::Scenario)

namespace {

// The first point of a phase of the step.
const TimelinePoint &phaseStart(const StepTimeline &t, StepPhase phase)
{
    return *std::find_if(t.points.begin(), t.points.end(),
                         [phase](const TimelinePoint &p) { return p.phase == phase; });
}

// The point of a phase at a layer (forward's after the layer, backward's in it).
const TimelinePoint &pointAt(const StepTimeline &t, StepPhase phase, std::int64_t layer)
{
    return *std::find_if(t.points.begin(), t.points.end(),
                         [=](const TimelinePoint &p) { return p.phase == phase && p.layer == layer; });
}

// torchtitan's Llama under the reading of the allocator's pool (max_memory_reserved), where the
// logits' freed block shows.
void torchtitanReadReserved(Scenario &s)
{
    s.implementation = Implementation::TorchTitan;
    s.arch.modeling = Modeling::Llama;
    s.attention = Attention::Sdpa;
    s.overhead.measure = Measure::Reserved;
}

// Point by point, the activations a breakdown's step holds beyond the same step without some of
// them (`without`) are what `expected` says for that point.
template <class Expected>
void activationsBeyond(const Breakdown &b, const Breakdown &without, Expected &&expected)
{
    const StepTimeline t = stepTimeline(b), others = stepTimeline(without);
    QCOMPARE(t.points.size(), others.points.size());
    for (std::size_t i = 0; i < t.points.size(); ++i)
        QCOMPARE(t.points[i].part(Component::Activations) - others.points[i].part(Component::Activations),
                 expected(t.points[i]));
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shape_data()
    {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<int>("zero");
        QTest::addColumn<int>("peakPhase");
        // Long sequences: the activations dominate. At batch 1 the peak is as backward begins, every
        // activation there with the head's gradient (made before any layer's) and the last layer's;
        // at batch 8 at the loss, the logits on top.
        QTest::newRow("article 7B, s=4096: peak as backward begins")
            << 1 << int(Recompute::None) << 0 << int(StepPhase::Backward);
        QTest::newRow("batch 8: peak at the loss") << 8 << int(Recompute::None) << 0 << int(StepPhase::Loss);
        // Tiny activations: gradients outweigh them, and the peak moves to the end of backward,
        // when every gradient exists and the last layer is being recomputed.
        QTest::newRow("full recompute, batch 1: end of backward")
            << 1 << int(Recompute::Full) << 0 << int(StepPhase::Backward);
    }
    void shape()
    {
        QFETCH(int, batch);
        QFETCH(int, recompute);
        QFETCH(int, zero);
        QFETCH(int, peakPhase);
        Scenario s;
        s.microBatch = batch;
        s.recompute = static_cast<Recompute>(recompute);
        s.zeroStage = zero;
        const Breakdown b = estimate(s);
        const StepTimeline t = stepTimeline(s);
        QCOMPARE(int(t.points[t.peakIndex].phase), peakPhase);
        QVERIFY(t.peak() <= b.total);
        QCOMPARE(requiredBytes(b, FitRule::Peak), t.peak());
        QCOMPARE(requiredBytes(b, FitRule::Sum), b.total);
        QCOMPARE(t.points.front().phase, StepPhase::Start);
        QCOMPARE(t.points.back().phase, StepPhase::OptimizerStep);
        // Weights, gradients and optimizer states, and the runtime overhead, there all step long.
        QCOMPARE(t.points.back().inUse, b.modelStates() + b.component(Component::Overhead));
        QCOMPARE(qsizetype(t.points.size()), qsizetype(2 * b.layersOnStage + 3));
    }

    // Megatron-Core's DDP keeps its FP32 main gradients in a buffer it zeroes, never frees: they
    // are there before the first backward, so at the loss the step holds the whole sum (its
    // memory tests read max_memory_allocated at the sum, not below it).
    void megatronGradientsFromTheStart_data()
    {
        QTest::addColumn<int>("sharding");
        QTest::addColumn<bool>("atStart");
        QTest::newRow("Megatron: from the start") << int(Sharding::Megatron) << true;
        QTest::newRow("DeepSpeed: made in backward") << int(Sharding::Zero) << false;
    }
    void megatronGradientsFromTheStart()
    {
        QFETCH(int, sharding);
        QFETCH(bool, atStart);
        Scenario s;
        s.precision = Precision::MixedBf16;
        s.dataParallel = 2;
        s.zeroStage = 1;
        s.sharding = Sharding(sharding);
        const Breakdown b = estimate(s);
        const StepTimeline t = stepTimeline(s);
        const Bytes atFirst = t.points.front().part(Component::Gradients);
        QCOMPARE(atFirst >= b.item(ItemId::Gradients), atStart);
        if (atStart)
            QCOMPARE(t.peak(), b.total);
    }

    // FSDP's gradients accumulated without sync are there from the start of the step's last
    // micro-batch through its backward, and gone (reduce-scattered) by the optimizer step.
    void accumulatedGradientsUntilBackwardEnds()
    {
        Scenario s;
        s.zeroStage = 3;
        s.dataParallel = 8;
        s.sharding = Sharding::Fsdp;
        s.precision = Precision::MixedBf16;
        s.gradAccum = 4;
        Scenario synced = s;
        s.fsdpNoSync = true;
        const Breakdown b = estimate(s);
        const Bytes accumulated = b.item(ItemId::FsdpAccumulatedGradients);
        QVERIFY(accumulated > 0);
        const StepTimeline with = stepTimeline(s), without = stepTimeline(synced);
        QCOMPARE(with.points.size(), without.points.size());
        for (std::size_t i = 0; i + 1 < with.points.size(); ++i)
            QCOMPARE(with.points[i].part(Component::Gradients),
                     without.points[i].part(Component::Gradients) + accumulated);
        QCOMPARE(with.points.back().part(Component::Gradients), without.points.back().part(Component::Gradients));
    }

    // Every activation item is alive at the loss: with nothing else resident there, the loss point
    // holds the model states and all activations, the sum.
    void lossHoldsEveryActivationItem_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("ampStyle");
        QTest::addColumn<bool>("offload");
        QTest::newRow("megatron") << int(Implementation::Megatron) << int(Precision::MixedBf16)
                                  << int(AmpStyle::MasterCopy) << false;
        QTest::newRow("hugging face under autocast: weight casts and head")
            << int(Implementation::HuggingFace) << int(Precision::MixedBf16) << int(AmpStyle::Autocast) << false;
        // Transformer Engine's FP8 weight copies are module buffers: resident all step, like the weights.
        QTest::newRow("megatron FP8: the FP8 weight copies stay")
            << int(Implementation::Megatron) << int(Precision::Fp8) << int(AmpStyle::MasterCopy) << false;
        // Offloaded activations: the window on the GPU instead of the layers' activations.
        QTest::newRow("torchtitan, activations offloaded")
            << int(Implementation::TorchTitan) << int(Precision::Bf16) << int(AmpStyle::MasterCopy) << true;
    }
    void lossHoldsEveryActivationItem()
    {
        QFETCH(int, implementation);
        QFETCH(int, precision);
        QFETCH(int, ampStyle);
        QFETCH(bool, offload);
        Scenario s;
        s.precision = Precision(precision);
        s.implementation = Implementation(implementation);
        s.ampStyle = AmpStyle(ampStyle);
        s.activationOffload = offload;
        if (s.implementation == Implementation::TorchTitan)
            s.attention = Attention::Sdpa;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        if (s.ampStyle == AmpStyle::Autocast)
            QVERIFY(b.item(ItemId::WeightCasts) > 0 && b.item(ItemId::HeadActivations) > 0);
        if (offload)
            QVERIFY(b.item(ItemId::ActivationOffloadWindow) > 0 && b.item(ItemId::LayerActivations) == 0);
        const StepTimeline t = stepTimeline(b);
        const auto loss = std::find_if(t.points.begin(), t.points.end(),
                                       [](const TimelinePoint &p) { return p.phase == StepPhase::Loss; });
        QVERIFY(loss != t.points.end());
        // Everything but the gradients, the optimizer step's intermediates and backward's working
        // set is alive at the loss, all of it at once; the intermediates only during the step.
        const Bytes stepBuffer = b.item(ItemId::OptimizerStepBuffer);
        const Bytes workingSet = b.item(ItemId::BackwardWorkingSet);
        QCOMPARE(loss->inUse, b.total - b.component(Component::Gradients) - stepBuffer - workingSet);
        for (Component c : kComponents)
            QCOMPARE(loss->part(c),
                     c == Component::Gradients             ? 0
                         : c == Component::OptimizerStates ? b.component(c) - stepBuffer
                         : c == Component::Activations     ? b.component(c) - workingSet
                                                           : b.component(c));
        const TimelinePoint &step = t.points.back();
        QCOMPARE(step.phase, StepPhase::OptimizerStep);
        QCOMPARE(step.part(Component::OptimizerStates), b.component(Component::OptimizerStates));
        for (const TimelinePoint &p : t.points) {
            Bytes sum = 0;
            for (Component c : kComponents)
                sum += p.part(c);
            QCOMPARE(sum, p.inUse);
        }
        QCOMPARE(t.points.front().part(Component::Parameters), b.component(Component::Parameters)); // from the start
        // At the optimizer step only the batch the training loop still holds (the Trainer's).
        QCOMPARE(t.points.back().part(Component::Activations), b.batchesKeptAtStepEnd());
        QCOMPARE(t.points.back().part(Component::Gradients), b.component(Component::Gradients)); // every gradient
    }

    // Backward holds its working set beside what the layers still keep: on a pipeline's first
    // stage, where no loss is computed, the whole of it is an item of the sum; lit-gpt's loop also
    // keeps its FP32 logits referenced through backward (finetune/lora.py), less the loss's chunk
    // gradients. The first backward point holds them beside every other layer's activations.
    void backwardHoldsItsWorkingSet_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("edit");
        QTest::addColumn<bool>("logitsKept");
        QTest::newRow("megatron, first of 4 pipeline stages: no loss there")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.pipelineParallel = 4;
                   s.attention = Attention::Flash;
               })
            << false;
        // Without the rerun state machine, Megatron-LM's forward_step frees the micro-batch it
        // fetched when it returns; the gradient the stage received for the previous backward is
        // held while the next forward runs. Backward starts from the one received next, the working
        // set's gradient of the last layer's output.
        QTest::newRow("Megatron-LM's loop, first of 4 stages: the micro-batch and the last gradient in forward only")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.pipelineParallel = 4;
                   s.gradAccum = 8;
                   s.attention = Attention::Flash;
                   s.sharding = Sharding::Megatron;
                   s.precision = Precision::MixedBf16;
                   s.rerunKeepsBatches = false;
               })
            << false;
        QTest::newRow("lit-gpt LoRA: the FP32 logits stay") << std::function<void(Scenario &)>([](Scenario &s) {
            s.implementation = Implementation::LitGpt;
            s.precision = Precision::Bf16;
            s.attention = Attention::Flash;
            s.fineTune = FineTune::LoRA;
            s.loraTargets = LoraQ | LoraV;
            s.sequence = 1024;
        }) << true;
    }
    void backwardHoldsItsWorkingSet()
    {
        QFETCH(std::function<void(Scenario &)>, edit);
        QFETCH(bool, logitsKept);
        Scenario s;
        edit(s);
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QVERIFY(b.backwardWorkingSet > 0);
        if (logitsKept)
            QVERIFY(b.logitsKeptInBackward > 0 && b.logitsKeptInBackward < b.item(ItemId::Logits));
        else { // the first stage, where no loss is freed before it: the whole working set is an item
            QCOMPARE(b.stage, 0);
            QCOMPARE(b.item(ItemId::BackwardWorkingSet), b.backwardWorkingSet);
        }
        const StepTimeline t = stepTimeline(b);
        const auto first = std::find_if(t.points.begin(), t.points.end(),
                                        [](const TimelinePoint &p) { return p.phase == StepPhase::Backward; });
        QVERIFY(first != t.points.end());
        const Bytes layers = b.item(ItemId::LayerActivations);
        const Bytes batch = b.item(ItemId::InputBatch) + b.pipelineBesideForward;
        QCOMPARE(b.item(ItemId::InputBatch) > 0, s.megatron());
        QCOMPARE(b.pipelineBesideForward > 0, s.megatron());
        QCOMPARE(b.pipelineBesideBackward, 0);                   // the first stage sends no gradient back
        QCOMPARE(std::prev(first)->part(Component::Activations), // the loss
                 batch + b.item(ItemId::EmbeddingActivations) + layers + b.item(ItemId::Logits)
                     + b.item(ItemId::HeadActivations));
        // The last layer's backward at its widest: its activations are still there.
        QCOMPARE(first->part(Component::Activations),
                 b.item(ItemId::EmbeddingActivations) + layers + b.backwardWorkingSet + b.logitsKeptInBackward
                     + b.embeddingInBackward);
        QVERIFY(t.peak() <= b.total);
    }

    // FSDP1's reshard hook on a frozen layer unit keeps the reentrant checkpoint's detached input, and
    // its gradient, from the layer's backward to the end of backward: at the first layer's backward
    // every other layer's input gradient is there beside its input (the fms-acceleration runs under
    // FSDP1 read 31 × 8 KiB a token above the last layer's backward without it). Nothing under FSDP2,
    // the non-reentrant checkpoint or full training, whose units' flat parameters train.
    void fsdp1KeepsCheckpointsThroughBackward_data()
    {
        QTest::addColumn<int>("fsdpVersion");
        QTest::addColumn<bool>("reentrant");
        QTest::addColumn<int>("fineTune");
        QTest::addColumn<bool>("kept");
        QTest::newRow("FSDP1, LoRA, reentrant: kept") << int(FsdpVersion::Fsdp1) << true << int(FineTune::LoRA) << true;
        QTest::newRow("FSDP2: freed") << int(FsdpVersion::Fsdp2) << true << int(FineTune::LoRA) << false;
        QTest::newRow("non-reentrant checkpoint: freed")
            << int(FsdpVersion::Fsdp1) << false << int(FineTune::LoRA) << false;
        QTest::newRow("full training: freed") << int(FsdpVersion::Fsdp1) << true << int(FineTune::Full) << false;
    }
    void fsdp1KeepsCheckpointsThroughBackward()
    {
        QFETCH(int, fsdpVersion);
        QFETCH(bool, reentrant);
        QFETCH(int, fineTune);
        QFETCH(bool, kept);
        Scenario s; // 32 layers of 4096
        peftLoraUnderFsdp1(s);
        s.useReentrant = reentrant;
        s.fineTune = FineTune(fineTune);
        s.fsdpVersion = FsdpVersion(fsdpVersion);
        s.microBatch = 2;
        s.sequence = 4096;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        const Bytes input = 2 * 8192 * 4096; // one layer's checkpointed input: tokens × hidden × 2 B
        // Beside the gradients the layers' backward starts from, counted in the working set.
        QCOMPARE(b.item(ItemId::CheckpointsKeptByFsdp), kept ? 30 * input : 0);
        Breakdown freed = b;
        freed.keptPastBackward = 0;
        freed.keptAsStreamGradient = 0;
        const StepTimeline with = stepTimeline(b), without = stepTimeline(freed);
        QCOMPARE(with.points.size(), without.points.size());
        std::int64_t done = 0;
        for (std::size_t i = 0; i < with.points.size(); ++i) {
            const bool backward = with.points[i].phase == StepPhase::Backward;
            done += backward ? 1 : 0;
            QCOMPARE(with.points[i].inUse - without.points[i].inUse,
                     backward && kept && done > 1 ? (done - 1) * 2 * input - input : 0);
        }
        QCOMPARE(done, 32);
    }

    // Under autocast the cast cache keeps a 16-bit copy of every FP32 weight that trains for the
    // whole forward. Without recomputation the linears save them until their backward; under full
    // recomputation nothing saves them, so they go when the autocast region exits, after the loss,
    // and backward holds the recomputed layer's casts alone. The head's cast, saved by its matmul,
    // goes with the head's backward, before the layers'.
    void autocastCastsLiveWhereTheCacheKeepsThem_data()
    {
        QTest::addColumn<int>("fineTune");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<bool>("goneInBackward");
        QTest::newRow("full training, no recomputation: kept until each layer's backward")
            << int(FineTune::Full) << int(Recompute::None) << false;
        QTest::newRow("full training, every layer recomputed: all but one layer's gone in backward")
            << int(FineTune::Full) << int(Recompute::Full) << true;
        QTest::newRow("LoRA, every layer recomputed: all but one layer's adapters' gone in backward")
            << int(FineTune::LoRA) << int(Recompute::Full) << true;
    }
    void autocastCastsLiveWhereTheCacheKeepsThem()
    {
        QFETCH(int, fineTune);
        QFETCH(int, recompute);
        QFETCH(bool, goneInBackward);
        Scenario s;
        s.implementation = Implementation::HuggingFace;
        s.precision = Precision::MixedBf16;
        s.ampStyle = AmpStyle::Autocast;
        s.attention = Attention::Flash;
        s.fineTune = FineTune(fineTune);
        s.recompute = Recompute(recompute);
        s.overhead.measure = Measure::Allocated;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        const Bytes casts = b.item(ItemId::WeightCasts);
        QVERIFY(casts > 0);
        const std::int64_t layers = b.layersOnStage;
        // What the timeline drops before backward: every layer's casts but one, 2 B a weight.
        // (the adapters are FP32 under autocast, 4 B a weight)
        const std::int64_t perLayer = s.fineTune == FineTune::Full ? countParameters(s.arch).perLayerMatrices
                                                                   : b.item(ItemId::LoraAdapters) / 4 / layers;
        QCOMPARE(b.castsOnlyInForward, goneInBackward ? 2 * perLayer * (layers - 1) : Bytes(0));
        QCOMPARE(b.headWeightCasts, 2 * s.arch.vocab * s.arch.hidden); // an untied FP32 head, cast to 16 bits
        // The loss's backward runs after the autocast region has exited: under recomputation only
        // the head's casts are there then, measured on an H200 (tst_measured's h200 runs).
        QCOMPARE(b.castsGoneAtLossBackward, goneInBackward ? casts - b.headWeightCasts : Bytes(0));
        const StepTimeline t = stepTimeline(b);
        const TimelinePoint &loss = phaseStart(t, StepPhase::Loss);
        const TimelinePoint &backward = phaseStart(t, StepPhase::Backward);
        // From the loss to the last layer's backward the activations change by what backward
        // frees and holds (what the embedding saved it holds); the casts the cache dropped and the
        // head's are among what it frees. The loss holds the wider of its forward and backward.
        const Bytes lossMoment = std::max(b.logitsInLossForward, b.logitsInLossBackward - b.castsGoneAtLossBackward);
        QCOMPARE(b.item(ItemId::Logits), std::max(b.logitsInLossForward, b.logitsInLossBackward));
        QCOMPARE(backward.part(Component::Activations),
                 loss.part(Component::Activations) - lossMoment - b.item(ItemId::HeadActivations) - b.castsOnlyInForward
                     - b.headWeightCasts + b.item(ItemId::RecomputeBuffer) + b.backwardWorkingSet
                     + b.logitsKeptInBackward + b.embeddingInBackward);
    }

    // The Hugging Face Trainer holds its batch, input_ids, attention_mask and labels (int64, 24 B a
    // token), from forward through the optimizer step: between steps and at the step the timeline
    // holds all of it, the ids counted with the embedding while it saves them (its weight trains).
    // Pinned by fms-acceleration's measured runs too: batch 8 allocated 4 × 4096 × 24 B more than 4.
    void trainerHoldsItsBatch_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("edit");
        QTest::addColumn<qint64>("throughStep");
        QTest::addColumn<qint64>("idsInEmbedding");
        constexpr qint64 tokens = 4 * 4096;
        const auto huggingFace = [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.attention = Attention::Flash;
            s.microBatch = 4;
            s.sequence = 4096;
        };
        QTest::newRow("full fine-tuning: the embedding saves the ids")
            << std::function<void(Scenario &)>(huggingFace) << tokens * 16 << tokens * 8;
        QTest::newRow("LoRA: a frozen embedding saves nothing, the batch holds the ids")
            << std::function<void(Scenario &)>([huggingFace](Scenario &s) {
                   huggingFace(s);
                   s.fineTune = FineTune::LoRA;
               })
            << tokens * 24 << qint64(0);
        QTest::newRow("BERT's batches differ with the task: not counted")
            << std::function<void(Scenario &)>([huggingFace](Scenario &s) {
                   huggingFace(s);
                   s.arch.modeling = Modeling::Bert;
                   s.arch.mlp = MlpKind::Gelu;
                   s.arch.norm = NormKind::LayerNorm;
                   s.arch.learnedPositions = 4096;
                   s.attention = Attention::Eager;
               })
            << qint64(0) << qint64(0);
    }
    void trainerHoldsItsBatch()
    {
        QFETCH(std::function<void(Scenario &)>, edit);
        QFETCH(qint64, throughStep);
        QFETCH(qint64, idsInEmbedding);
        Scenario s;
        edit(s);
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::InputBatch), throughStep);
        QCOMPARE(b.batchIdsInEmbedding, idsInEmbedding);
        const StepTimeline t = stepTimeline(b);
        QCOMPARE(t.points.back().phase, StepPhase::OptimizerStep);
        QCOMPARE(t.points.back().part(Component::Activations), throughStep + idsInEmbedding);
        const auto start = std::find_if(t.points.begin(), t.points.end(),
                                        [](const TimelinePoint &p) { return p.phase == StepPhase::Start; });
        QVERIFY(start != t.points.end());
        QCOMPARE(start->part(Component::Activations), throughStep + idsInEmbedding); // between steps
    }

    // Megatron-LM's rerun state machine keeps every micro-batch the step fetched (RerunDataIterator
    // saves the dict get_batch fills with the GPU copies) until the next step begins: the timeline,
    // which draws the step's last micro-batch, holds all of them at every point, and between steps
    // with the ids the embedding saved. `whole`: one micro-batch's tensors on the stage, from
    // get_batch's keys: token and position ids (int64) on the first stage, labels (int64) and the
    // FP32 loss mask on the last, and the data loader's b×1×s×s boolean mask.
    void rerunKeepsEveryBatch_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("edit");
        QTest::addColumn<int>("stage");
        QTest::addColumn<qint64>("whole");
        QTest::newRow("one stage, 4 micro-batches of 2 × 2048 tokens: every key and the mask")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.microBatch = 2;
                   s.sequence = 2048;
                   s.gradAccum = 4;
               })
            << 0 << qint64(2 * 2048 * (8 + 8 + 8 + 4) + 2LL * 2048 * 2048);
        QTest::newRow("first of 2 stages, TP 2, 8 micro-batches: the ids and the mask")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.pipelineParallel = 2;
                   s.tensorParallel = 2;
                   s.gradAccum = 8;
                   s.arch.vocab = 1000; // the first stage, two micro-batches in flight, the heaviest
               })
            << 0 << qint64(4096 * (8 + 8) + 4096LL * 4096);
        // megatron-7b-pp4-vpp8-distopt: its last stage held 257.3 MiB more between steps than its
        // model states, workspaces and kept pipeline inputs (golden mem-allocated-bytes at 6e091e1b68).
        QTest::newRow("7B, last of 4 interleaved stages, 4 micro-batches: labels, loss mask and the mask")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.arch.hidden = 4096;
                   s.arch.heads = 32;
                   s.arch.kvHeads = 8;
                   s.arch.ffn = 16384;
                   s.arch.vocab = 131073;
                   s.arch.learnedPositions = 8192;
                   s.arch.mlp = MlpKind::Gelu;
                   s.arch.norm = NormKind::LayerNorm;
                   s.arch.linearBias = true;
                   s.microBatch = 1;
                   s.sequence = 8192;
                   s.dropout = true;
                   s.gradAccum = 4;
                   s.vocabDivisibleBy = 128;
                   s.zeroStage = 1;
                   s.dataParallel = 2;
                   s.pipelineParallel = 4;
                   s.virtualStages = 8;
               })
            << 3 << qint64(8192 * (8 + 4) + 8192LL * 8192);
    }
    void rerunKeepsEveryBatch()
    {
        QFETCH(std::function<void(Scenario &)>, edit);
        QFETCH(int, stage);
        QFETCH(qint64, whole);
        Scenario s;
        s.precision = Precision::MixedBf16;
        s.attention = Attention::Flash;
        s.sharding = Sharding::Megatron;
        s.overhead.measure = Measure::Allocated; // the tensors alone, without the allocator's reserve on them
        edit(s);
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.stage, stage);
        const std::int64_t m = s.microBatchesPerStep();
        QCOMPARE(qint64(b.item(ItemId::BatchesKept)), (m - 1) * whole);
        QCOMPARE(qint64(b.item(ItemId::InputBatch) + b.batchIdsInEmbedding), whole);
        QCOMPARE(qint64(b.batchesKeptAtStepEnd()), m * whole);
        const Bytes inputsKept = b.item(ItemId::PipelineInputsKept);
        const Bytes held = b.item(ItemId::BatchesKept) + b.item(ItemId::InputBatch);
        const StepTimeline t = stepTimeline(b);
        QCOMPARE(qint64(t.points.front().part(Component::Activations)), inputsKept + m * whole);
        QCOMPARE(qint64(t.points.back().part(Component::Activations)), inputsKept + m * whole);
        for (const TimelinePoint &p : t.points)
            QVERIFY(p.part(Component::Activations) >= held);

        // Without it the micro-batch lives in forward only, and nothing of it between steps.
        s.rerunKeepsBatches = false;
        const Breakdown freed = estimate(s);
        QVERIFY(!freed.has(ItemId::BatchesKept));
        QCOMPARE(freed.batchIdsInEmbedding, 0);
        const StepTimeline freedTimeline = stepTimeline(freed);
        QCOMPARE(freedTimeline.points.front().part(Component::Activations), inputsKept);
        // In forward the peak gains the other micro-batches; in backward this one's tensors too.
        const Bytes gained = stepPeak(b) - stepPeak(freed);
        QVERIFY(gained >= b.item(ItemId::BatchesKept));
        QVERIFY(gained <= held);
    }

    // Each pipeline chunk keeps its last micro-batch's input and that input's gradient from its last
    // backward until its next forward (Megatron-Core's set_input_tensor and retain_grad): at the
    // step's start and through the optimizer step, not beside forward's activations. The loss holds
    // every other activation item but backward's.
    void pipelineInputsKeptBetweenSteps_data()
    {
        QTest::addColumn<int>("vpp");
        QTest::newRow("1F1B, last stage: one chunk") << 1;
        QTest::newRow("interleaved, last stage: two chunks") << 2;
    }
    void pipelineInputsKeptBetweenSteps()
    {
        QFETCH(int, vpp);
        Scenario s;
        s.pipelineParallel = 4;
        s.virtualStages = vpp;
        s.gradAccum = 8;
        s.recompute = Recompute::Full;
        s.arch.vocab = 4'000'000; // the last stage the heaviest
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.stage, 3);
        const Bytes kept = b.item(ItemId::PipelineInputsKept);
        QVERIFY(kept > 0);
        const StepTimeline t = stepTimeline(b);
        QCOMPARE(t.points.front().part(Component::Activations), kept);
        QCOMPARE(t.points.back().part(Component::Activations), kept);
        for (const TimelinePoint &p : t.points)
            if (p.phase == StepPhase::Loss)
                QCOMPARE(p.part(Component::Activations),
                         b.component(Component::Activations) - kept - b.item(ItemId::BackwardWorkingSet)
                             - b.item(ItemId::RecomputeBuffer) - b.item(ItemId::PipelineOutputAndNextInput));
    }

    // Beside a backward the schedule holds the previous backward's input gradient and, interleaved,
    // the last forward's output and the next forward's input; past the stage's last layer also the
    // gradient backward started from, which at that layer is the working set's (tst_pipeline
    // replays the counts). The first of 4 stages, which sends no gradient back: 1F1B none, then the
    // gradient received; interleaved 3 (from backward 1 on: chunk 1's gradient sent back, forward
    // 11's output and forward 12's input), then 4.
    void pipelineTensorsBesideBackward_data()
    {
        QTest::addColumn<int>("vpp");
        QTest::addColumn<int>("atLastLayer");
        QTest::addColumn<int>("later");
        QTest::newRow("1F1B, first of 4 stages") << 1 << 0 << 1;
        QTest::newRow("interleaved, first of 4 stages") << 2 << 3 << 4;
    }
    void pipelineTensorsBesideBackward()
    {
        QFETCH(int, vpp);
        QFETCH(int, atLastLayer);
        QFETCH(int, later);
        Scenario s;
        s.pipelineParallel = 4;
        s.virtualStages = vpp;
        s.gradAccum = 8;
        s.arch.vocab = 8; // the first stage the heaviest
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.stage, 0);
        const Bytes tensor = Bytes(2) * s.sequence * s.microBatch * s.arch.hidden;
        QCOMPARE(b.pipelineBesideBackward, atLastLayer * tensor);
        QCOMPARE(b.pipelineBesideLaterBackward, later * tensor);
        Breakdown without = b; // the same step but for what the schedule holds beside backward
        without.pipelineBesideBackward = without.pipelineBesideLaterBackward = 0;
        activationsBeyond(b, without, [&](const TimelinePoint &p) {
            return p.phase != StepPhase::Backward ? 0
                : p.layer == b.layersOnStage      ? atLastLayer * tensor
                                                  : later * tensor;
        });
        QVERIFY(stepTimeline(b).peak() <= b.total);
    }

    // Interleaved, the pipeline inputs held after their backward (the schedule's input_tensor from
    // the end of warm-up, each chunk's set_input_tensor) are there from the steady state until the
    // schedule returns: at every point of forward, the loss and backward, not before the step nor in
    // the optimizer step. Four micro-batches: forward 4's input and its gradient; eight: chunk 1's
    // last input and gradient beside them (tst_pipeline).
    void pipelineInputsHeldThroughTheSchedule_data()
    {
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<int>("held");
        QTest::newRow("4 micro-batches: 2 tensors") << 4 << 2;
        QTest::newRow("8 micro-batches: 4 tensors") << 8 << 4;
    }
    void pipelineInputsHeldThroughTheSchedule()
    {
        QFETCH(int, microBatches);
        QFETCH(int, held);
        Scenario s;
        s.pipelineParallel = 4;
        s.virtualStages = 2;
        s.gradAccum = microBatches;
        s.arch.vocab = 4'000'000; // the last stage the heaviest
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.stage, 3);
        const Bytes tensor = Bytes(2) * s.sequence * s.microBatch * s.arch.hidden;
        QCOMPARE(b.item(ItemId::PipelineInputsHeld), held * tensor);
        Breakdown without = b; // the same step but for the inputs held
        without.itemBytes[std::size_t(ItemId::PipelineInputsHeld)] = 0;
        activationsBeyond(b, without, [&](const TimelinePoint &p) {
            const bool inSchedule = p.phase != StepPhase::Start && p.phase != StepPhase::OptimizerStep;
            return inSchedule ? held * tensor : 0;
        });
    }

    // Offloaded activations (checkpointing every layer): at the loss the GPU holds the forward
    // stash, five layers' inputs, instead of every layer's; in backward one layer's input at a time
    // comes back beside the layer being recomputed, as it would have stayed without offload.
    void offloadedActivationsInTransit()
    {
        Scenario kept;
        kept.implementation = Implementation::TorchTitan;
        kept.attention = Attention::Sdpa;
        kept.precision = Precision::Bf16;
        kept.recompute = Recompute::Full;
        Scenario offloaded = kept;
        offloaded.activationOffload = true;
        QVERIFY(!scenarioError(offloaded));
        const Breakdown before = estimate(kept), after = estimate(offloaded);
        const StepTimeline withStash = stepTimeline(after), without = stepTimeline(before);
        const auto at = [](const StepTimeline &t, StepPhase phase) {
            return std::find_if(t.points.begin(), t.points.end(),
                                [phase](const TimelinePoint &p) { return p.phase == phase; })
                ->part(Component::Activations);
        };
        QCOMPARE(after.item(ItemId::ActivationOffloadWindow), 5 * before.keptPerLayer);
        QCOMPARE(at(withStash, StepPhase::Loss) - at(without, StepPhase::Loss),
                 5 * before.keptPerLayer - before.item(ItemId::LayerActivations));
        // The step's last backward point, the first layer's: every other layer's input is gone and
        // the first layer's is on the GPU either way, kept there or brought back.
        const auto lastBackward = [](const StepTimeline &t) { return t.points[t.points.size() - 2]; };
        QCOMPARE(lastBackward(withStash).phase, StepPhase::Backward);
        QCOMPARE(lastBackward(withStash).part(Component::Activations),
                 lastBackward(without).part(Component::Activations));
        QCOMPARE(after.item(ItemId::LayerActivations), 0);
    }

    // Gradients that zero_grad(set_to_none=False) keeps are there from the step's start, so the
    // end of forward holds them too; freed ones appear in backward. Megatron's buffer is kept
    // either way.
    void keptGradientsAreThereAllStep_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<bool>("kept");
        QTest::addColumn<bool>("atStart");
        QTest::newRow("Hugging Face, freed (PyTorch 2)") << int(Implementation::HuggingFace) << false << false;
        QTest::newRow("Hugging Face, kept (PyTorch 1's zero_grad)") << int(Implementation::HuggingFace) << true << true;
    }
    void keptGradientsAreThereAllStep()
    {
        QFETCH(int, implementation);
        QFETCH(bool, kept);
        QFETCH(bool, atStart);
        Scenario s;
        s.implementation = Implementation(implementation);
        s.attention = Attention::Sdpa;
        s.gradientsKept = kept;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        const StepTimeline t = stepTimeline(b);
        const TimelinePoint &start = t.points.front();
        QCOMPARE(start.part(Component::Gradients), atStart ? b.item(ItemId::Gradients) : Bytes(0));
        const auto loss = std::find_if(t.points.begin(), t.points.end(),
                                       [](const TimelinePoint &p) { return p.phase == StepPhase::Loss; });
        QCOMPARE(loss->part(Component::Gradients), atStart ? b.item(ItemId::Gradients) : Bytes(0));
        // The sum's tensors do not change: it counts the gradients either way (the allocator's
        // reserve follows the peak).
        Scenario other = s;
        other.gradientsKept = !kept;
        const Breakdown o = estimate(other);
        QCOMPARE(o.total - o.component(Component::Overhead), b.total - b.component(Component::Overhead));
        QVERIFY(kept ? t.peak() >= stepTimeline(estimate(other)).peak() : true);
    }

    // An eager attention's widest moment in backward, its softmax's, comes before the layer's
    // backward has made the gradients of its first norm and of q, k and v (measured on an H200:
    // h200-llama1b-fp32-sdpa-b1-s4096 peaks there without them): every backward point, each at
    // its layer's widest moment, holds those of the layer being computed less. The MLP's moments,
    // gradients not made whole as backward goes, and BERT's post-norm block (estimate.cpp says
    // why) keep the layer's all.
    void attentionMomentComesBeforeItsProjectionsGradients_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("setUp");
        QTest::addColumn<bool>("atAttention");
        const auto eager = [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.precision = Precision::Fp32;
            s.attention = Attention::Eager;
            s.arch.fixedParams = 0;
            s.sequence = 4096;
        };
        QTest::newRow("Hugging Face's Llama in FP32, eager attention over 4096 tokens")
            << std::function<void(Scenario &)>(eager) << true;
        QTest::newRow("GPT-2's block: its fused c_attn with the bias, its LayerNorm")
            << std::function<void(Scenario &)>([eager](Scenario &s) {
                   eager(s);
                   s.arch = gpt2Small();
                   s.sequence = 1024;
               })
            << true;
        QTest::newRow("BERT-large's post-norm block: weighed whole")
            << std::function<void(Scenario &)>([eager](Scenario &s) {
                   eager(s);
                   s.arch = bertLarge();
                   s.sequence = 512;
                   s.microBatch = 8;
               })
            << false;
        QTest::newRow("SDPA's flash kernel in BF16: the MLP's moment")
            << std::function<void(Scenario &)>([eager](Scenario &s) {
                   eager(s);
                   s.precision = Precision::Bf16;
                   s.attention = Attention::Sdpa;
               })
            << false;
        QTest::newRow("four micro-batches: added into the gradients made before")
            << std::function<void(Scenario &)>([eager](Scenario &s) {
                   eager(s);
                   s.gradAccum = 4;
               })
            << false;
        QTest::newRow("ZeRO-2 over 8 GPUs: sharded as they are made")
            << std::function<void(Scenario &)>([eager](Scenario &s) {
                   eager(s);
                   s.zeroStage = 2;
                   s.dataParallel = 8;
               })
            << false;
    }
    void attentionMomentComesBeforeItsProjectionsGradients()
    {
        QFETCH(std::function<void(Scenario &)>, setUp);
        QFETCH(bool, atAttention);
        Scenario s;
        setUp(s);
        QVERIFY(!scenarioError(s));
        const Architecture &a = s.arch;
        // The first norm's weight (and bias), q's, k's and v's weights (and biases), FP32 gradients.
        const std::int64_t qkvWidth = (a.heads + 2 * a.kvHeads) * a.effectiveHeadDim();
        const std::int64_t beforeAttention = a.hidden * qkvWidth + (a.linearBias ? qkvWidth : 0)
            + (a.norm == NormKind::LayerNorm ? 2 : 1) * a.hidden;
        const Breakdown b = estimate(s);
        QCOMPARE(b.gradientsAfterWidestMoment, atAttention ? 4 * beforeAttention : Bytes(0));
        Breakdown allMade = b;
        allMade.gradientsAfterWidestMoment = 0;
        const StepTimeline t = stepTimeline(b), whole = stepTimeline(allMade);
        QCOMPARE(t.points.size(), whole.points.size());
        for (std::size_t i = 0; i < t.points.size(); ++i)
            QCOMPARE(whole.points[i].part(Component::Gradients) - t.points[i].part(Component::Gradients),
                     t.points[i].phase == StepPhase::Backward ? b.gradientsAfterWidestMoment : Bytes(0));
    }

    // When the gradients exist: made in backward by default; over several micro-batches the
    // earlier ones' are there beside the last one's forward and loss; FSDP1's flat gradients
    // (use_orig_params) outlive zero_grad until the next forward, so they are there between steps
    // but not at the loss; DeepSpeed ZeRO-3 reduces into one flat buffer it keeps all step. Read
    // as max_memory_allocated reads it, where FSDP's stream pools do not count.
    void gradientsLiveWhereTheCodeKeepsThem_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("setUp");
        QTest::addColumn<bool>("atStart");
        QTest::addColumn<bool>("atLoss");
        const auto fsdp = [](Scenario &s) {
            s.zeroStage = 3;
            s.dataParallel = 8;
            s.sharding = Sharding::Fsdp;
        };
        QTest::newRow("one micro-batch: made in backward") << std::function<void(Scenario &)>(fsdp) << false << false;
        QTest::newRow("four micro-batches: the earlier ones' beside the last")
            << std::function<void(Scenario &)>([fsdp](Scenario &s) {
                   fsdp(s);
                   s.gradAccum = 4;
               })
            << false << true;
        QTest::newRow("four micro-batches without sync: reduced in the last backward")
            << std::function<void(Scenario &)>([fsdp](Scenario &s) {
                   fsdp(s);
                   s.gradAccum = 4;
                   s.fsdpNoSync = true;
               })
            << false << false;
        QTest::newRow("FSDP1 with use_orig_params: until the next forward")
            << std::function<void(Scenario &)>([fsdp](Scenario &s) {
                   fsdp(s);
                   s.fsdpVersion = FsdpVersion::Fsdp1;
               })
            << true << false;
        QTest::newRow("FSDP1 without: freed by zero_grad") << std::function<void(Scenario &)>([fsdp](Scenario &s) {
            fsdp(s);
            s.fsdpVersion = FsdpVersion::Fsdp1;
            s.fsdpOrigParams = false;
        }) << false << false;
        QTest::newRow("DeepSpeed ZeRO-3: its partitions' buffer all step")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.zeroStage = 3;
                   s.dataParallel = 8;
               })
            << true << true;
        QTest::newRow("DeepSpeed ZeRO-2: made in backward, freed by the step")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.zeroStage = 2;
                   s.dataParallel = 8;
               })
            << false << false;
    }
    void gradientsLiveWhereTheCodeKeepsThem()
    {
        QFETCH(std::function<void(Scenario &)>, setUp);
        QFETCH(bool, atStart);
        QFETCH(bool, atLoss);
        Scenario s;
        s.precision = Precision::MixedBf16;
        s.overhead.measure = Measure::Allocated;
        setUp(s);
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        const Bytes gradients = b.item(ItemId::Gradients);
        QVERIFY(gradients > 0);
        const StepTimeline t = stepTimeline(b);
        // Beside them: the unsharded gradients accumulated without sync, and ZeRO-3's reduce
        // bucket, there from the last micro-batch's start.
        const Bytes besides = b.item(ItemId::FsdpAccumulatedGradients)
            + (b.bucketPersists ? b.item(ItemId::ZeroReduceBucket) : Bytes(0));
        QCOMPARE(t.points.front().part(Component::Gradients), (atStart ? gradients : Bytes(0)) + besides);
        QCOMPARE(phaseStart(t, StepPhase::Loss).part(Component::Gradients), (atLoss ? gradients : Bytes(0)) + besides);
        // Backward starts from them where the forward had them; by the step they are all there.
        QVERIFY(phaseStart(t, StepPhase::Backward).part(Component::Gradients) >= (atLoss ? gradients : Bytes(0)));
        QVERIFY(t.points.back().part(Component::Gradients) >= gradients);
    }

    // FSDP allocates the sharded gradients on its reduce-scatter stream and the all-gather
    // buffers on its copy-in stream, whose freed blocks the caching allocator keeps for them: a
    // reading of reserved memory holds both from the step's start, while max_memory_allocated
    // sees the gradients only from backward and FSDP2's all-gather output only in forward (each
    // unit's until the next unit's copy-out, the last until the root's post-forward; backward
    // frees each after its copy-out).
    void fsdpStreamPoolsHeldWhenTheReserveCounts_data()
    {
        QTest::addColumn<int>("measure");
        QTest::addColumn<bool>("allStep");
        QTest::newRow("max_memory_allocated: made in backward, gathered in forward")
            << int(Measure::Allocated) << false;
        QTest::newRow("max_memory_reserved: cached all step") << int(Measure::Reserved) << true;
        QTest::newRow("nvidia-smi: cached all step") << int(Measure::NvidiaSmi) << true;
    }
    void fsdpStreamPoolsHeldWhenTheReserveCounts()
    {
        QFETCH(int, measure);
        QFETCH(bool, allStep);
        Scenario s;
        s.precision = Precision::MixedBf16;
        s.zeroStage = 3;
        s.dataParallel = 8;
        s.sharding = Sharding::Fsdp;
        s.overhead.measure = Measure(measure);
        const Breakdown b = estimate(s);
        QCOMPARE(b.streamPoolsReserved, allStep);
        const Bytes allGather = b.item(ItemId::FsdpAllGatherBuffers);
        QVERIFY(allGather > 0);
        const StepTimeline t = stepTimeline(b);
        const TimelinePoint &start = t.points.front();
        QCOMPARE(start.part(Component::Gradients), allStep ? b.item(ItemId::Gradients) : Bytes(0));
        QCOMPARE(start.part(Component::Parameters), b.item(ItemId::Weights) + (allStep ? allGather : 0));
        // Forward gathers one layer at a time (the 7B's 4·h² + 3·h·ffn + 2·h parameters in BF16)
        // and keeps the last into backward: at the loss one layer is gathered, in backward two, the
        // one computed and the one prefetched. The root (embedding, head and final norm) is the
        // largest unit: its all-gather output, the buffer's, is there as forward begins, a layer's
        // through the rest of forward, none after it under max_memory_allocated.
        constexpr Bytes layer = (4 * 4096 * 4096 + 3 * 4096 * 11008 + 2 * 4096) * 2;
        constexpr Bytes root = (2 * 32000 * 4096 + 4096) * 2;
        const Bytes outputGone = allStep ? 0 : root;
        QCOMPARE(b.gatheredOnlyInBackward, layer);
        const Bytes parameters = b.component(Component::Parameters);
        QCOMPARE(pointAt(t, StepPhase::Forward, 1).part(Component::Parameters), parameters - layer);
        QCOMPARE(pointAt(t, StepPhase::Forward, 2).part(Component::Parameters),
                 parameters - layer - (allStep ? 0 : root - layer));
        QCOMPARE(phaseStart(t, StepPhase::Loss).part(Component::Parameters), parameters - layer - outputGone);
        QCOMPARE(phaseStart(t, StepPhase::Backward).part(Component::Parameters), parameters - outputGone);
    }

    // One layer is gathered at the loss whoever applies FSDP: torchtitan leaves its last layer
    // unresharded; where every layer reshards after its forward (torchtune's shard_model,
    // accelerate's FSDP1), the root's pre-backward prefetches the last one as the loss's gradient
    // reaches the model's output, before the head's backward.
    void fsdpHoldsALayerAtTheLoss_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("fsdpVersion");
        QTest::newRow("torchtitan: the last layer kept") << int(Implementation::TorchTitan) << int(FsdpVersion::Fsdp2);
        QTest::newRow("torchtune's shard_model: the last layer prefetched")
            << int(Implementation::TorchTune) << int(FsdpVersion::Fsdp2);
        QTest::newRow("accelerate's FSDP1: the last layer prefetched")
            << int(Implementation::HuggingFace) << int(FsdpVersion::Fsdp1);
    }
    void fsdpHoldsALayerAtTheLoss()
    {
        QFETCH(int, implementation);
        QFETCH(int, fsdpVersion);
        Scenario s;
        s.implementation = Implementation(implementation);
        s.precision = Precision::Bf16;
        s.zeroStage = 3;
        s.dataParallel = 8;
        s.sharding = Sharding::Fsdp;
        s.fsdpVersion = FsdpVersion(fsdpVersion);
        s.overhead.measure = Measure::Reserved; // the all-gather buffers are then reserved all step
        const Breakdown b = estimate(s);
        const StepTimeline t = stepTimeline(b);
        // The 7B's layer (4·h² + 3·h·ffn + 2·h parameters) and its root (embedding, head, final
        // norm), in BF16.
        constexpr Bytes layer = (4 * 4096 * 4096 + 3 * 4096 * 11008 + 2 * 4096) * 2;
        constexpr Bytes root = (2 * 32000 * 4096 + 4096) * 2;
        const Bytes before = t.points.front().part(Component::Parameters);
        QCOMPARE(b.item(ItemId::FsdpUnshardedParams), root + 2 * layer);
        QCOMPARE(pointAt(t, StepPhase::Forward, 1).part(Component::Parameters), before + root + layer);
        QCOMPARE(phaseStart(t, StepPhase::Loss).part(Component::Parameters), before + root + layer);
        QCOMPARE(phaseStart(t, StepPhase::Backward).part(Component::Parameters), before + root + 2 * layer);
    }

    // DeepSpeed ZeRO-3 under full recomputation with a reuse distance of 3e8 (tst_modelstates
    // traces it by hand for Llama-2-7B): at the loss the turn's 181,403,648 parameters are
    // gathered, as each layer's backward begins the 202,375,168 kept from its recomputation.
    void zero3GathersMoreForARecomputedLayersBackward()
    {
        Scenario s;
        s.precision = Precision::MixedBf16;
        s.zeroStage = 3;
        s.dataParallel = 8;
        s.recompute = Recompute::Full;
        s.maxReuseDistance = 300'000'000;
        const Breakdown b = estimate(s);
        QCOMPARE(b.gatheredOnlyInBackward, Bytes(202'375'168 - 181'403'648) * 2);
        const StepTimeline t = stepTimeline(b);
        QCOMPARE(phaseStart(t, StepPhase::Loss).part(Component::Parameters),
                 b.component(Component::Parameters) - b.gatheredOnlyInBackward);
        QCOMPARE(phaseStart(t, StepPhase::Backward).part(Component::Parameters), b.component(Component::Parameters));
    }

    // The allocator's reserve is a share of what the step holds at its peak (what
    // max_memory_reserved reads beyond max_memory_allocated), not of the sum of all parts, whose
    // buffers never live at once.
    void reserveIsAShareOfThePeak_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("edit");
        QTest::addColumn<int>("percent");
        QTest::newRow("the article's 7B, reserved pool")
            << std::function<void(Scenario &)>([](Scenario &s) { s.overhead.measure = Measure::Reserved; }) << 10;
        QTest::newRow("FSDP over 8, foreach AdamW, nvidia-smi, 25 %")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.precision = Precision::MixedBf16;
                   s.zeroStage = 3;
                   s.dataParallel = 8;
                   s.sharding = Sharding::Fsdp;
                   s.optimizerImpl = OptimizerImpl::Foreach;
                   s.overhead.measure = Measure::NvidiaSmi;
               })
            << 25;
        QTest::newRow("full recomputation, reserved pool") << std::function<void(Scenario &)>([](Scenario &s) {
            s.recompute = Recompute::Full;
            s.overhead.measure = Measure::Reserved;
        }) << 10;
    }
    void reserveIsAShareOfThePeak()
    {
        QFETCH(std::function<void(Scenario &)>, edit);
        QFETCH(int, percent);
        Scenario s;
        edit(s);
        s.overhead.allocatorPercent = percent;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        // Of the overhead, only the GEMM workspaces come from PyTorch's allocator.
        const Bytes outsideAllocated = b.component(Component::Overhead) - b.item(ItemId::GemmWorkspaces);
        const Bytes allocatedAtPeak = stepTimeline(b).peak() - outsideAllocated;
        QCOMPARE(b.item(ItemId::AllocatorReserve), allocatedAtPeak * percent / 100);
        QVERIFY(allocatedAtPeak < b.total - outsideAllocated); // below the sum's
    }

    // QLoRA's dequantized module exists while a 4-bit linear computes, in forward and in
    // backward: at the loss only where the head is 4-bit (lit-gpt's, Lightning quantizes every
    // linear); PEFT's and torchtune's heads stay 16-bit.
    void dequantizedModuleAtTheLoss_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<bool>("atLoss");
        QTest::newRow("lit-gpt: its 4-bit head computes the logits") << int(Implementation::LitGpt) << true;
        QTest::newRow("Hugging Face PEFT: a 16-bit head") << int(Implementation::HuggingFace) << false;
        QTest::newRow("torchtune: torchao's NF4 layers, a 16-bit head") << int(Implementation::TorchTune) << false;
    }
    void dequantizedModuleAtTheLoss()
    {
        QFETCH(int, implementation);
        QFETCH(bool, atLoss);
        Scenario s;
        s.implementation = Implementation(implementation);
        s.fineTune = FineTune::QLoRA;
        s.loraTargets = LoraQ | LoraV;
        s = withImplementationDefaults(s);
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const Breakdown b = estimate(s);
        const Bytes dequantized = b.item(ItemId::QloraDequantized);
        QVERIFY(dequantized > 0);
        const StepTimeline t = stepTimeline(b);
        const auto parameters = [&](StepPhase phase) { return phaseStart(t, phase).part(Component::Parameters); };
        // Forward's last layer and backward's first hold it; the loss only with a 4-bit head.
        QCOMPARE(parameters(StepPhase::Forward), parameters(StepPhase::Backward));
        QCOMPARE(parameters(StepPhase::Forward) - parameters(StepPhase::Loss), atLoss ? Bytes(0) : dequantized);
        QCOMPARE(parameters(StepPhase::Start) + dequantized, parameters(StepPhase::Forward));
    }

    // transformers does not build a 4-bit model under DeepSpeed's zero.Init (nor any model without
    // it); the engine moves it whole onto every GPU before ZeRO-3 partitions it. The run's start-up then holds the
    // model as one GPU alone would, before the step's first point; other runs start at the step.
    void startUpHoldsTheModelWhole_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("edit");
        QTest::addColumn<bool>("startUp");
        const auto row = [](const char *name, bool startUp, std::function<void(Scenario &)> edit) {
            QTest::newRow(name) << edit << startUp;
        };
        row("PEFT's QLoRA under DeepSpeed ZeRO-3 over 2 GPUs", true, [](Scenario &) {});
        row("the same over 8 GPUs, as nvidia-smi reads", true, [](Scenario &s) {
            s.dataParallel = 8;
            s.overhead.measure = Measure::NvidiaSmi;
        });
        row("the same with its weights offloaded to the CPU", true,
            [](Scenario &s) { s.offload = Offload::OptimizerAndParams; });
        row("ZeRO-2: the weights are never partitioned", false, [](Scenario &s) { s.zeroStage = 2; });
        row("ZeRO-3 on one GPU: nothing to partition", false, [](Scenario &s) { s.dataParallel = 1; });
        row("FSDP: wraps and shards one unit at a time", false, [](Scenario &s) { s.sharding = Sharding::Fsdp; });
        row("LoRA over a 16-bit base: built under zero.Init", false, [](Scenario &s) { s.fineTune = FineTune::LoRA; });
        row("LoRA built outside zero.Init (no zero3_init_flag)", true, [](Scenario &s) {
            s.fineTune = FineTune::LoRA;
            s.zeroInit = false;
        });
        row("full fine-tuning built outside zero.Init, 8 GPUs", true, [](Scenario &s) {
            s.fineTune = FineTune::Full;
            s.zeroInit = false;
            s.dataParallel = 8;
        });
        row("FSDP, whatever zero.Init says", false, [](Scenario &s) {
            s.fineTune = FineTune::Full;
            s.sharding = Sharding::Fsdp;
            s.zeroInit = false;
        });
    }
    void startUpHoldsTheModelWhole()
    {
        QFETCH(std::function<void(Scenario &)>, edit);
        QFETCH(bool, startUp);
        Scenario s;
        peftQloraUnderZero3(s);
        edit(s);
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const Breakdown b = estimate(s);
        const StepTimeline t = stepTimeline(b);
        QCOMPARE(b.has(ItemId::ModelBeforePartitioning), startUp);
        QCOMPARE(t.points.front().phase == StepPhase::StartUp, startUp);
        QCOMPARE(std::count_if(t.points.begin(), t.points.end(),
                               [](const TimelinePoint &p) { return p.phase == StepPhase::StartUp; }),
                 startUp ? 1 : 0);
        if (!startUp)
            return;
        Scenario alone = s;
        alone.dataParallel = 1;
        alone.offload = Offload::None;
        const Breakdown one = estimate(alone);
        const TimelinePoint &first = t.points.front();
        QCOMPARE(first.part(Component::Parameters),
                 one.item(ItemId::Weights) + one.item(ItemId::LoraAdapters) + one.item(ItemId::RotaryTable));
        for (Component c : {Component::Gradients, Component::OptimizerStates, Component::Activations})
            QCOMPARE(first.part(c), Bytes(0));
        QCOMPARE(first.part(Component::Overhead),
                 b.item(ItemId::CudaContext) + b.item(ItemId::CommBuffers) + b.nvlsAtStartUp
                     + b.item(ItemId::AllocatorReserve));
        // The step after it is what it was: between steps, and the item nowhere in it.
        QCOMPARE(t.points[1].phase, StepPhase::Start);
        QCOMPARE(t.beforeTheStep(), t.points[1].inUse);
        QVERIFY(t.peak() >= first.inUse);
        QCOMPARE(stepPeak(b), t.peak());
    }

    // At start-up only the default group has a communicator (the launcher's barriers); DeepSpeed
    // clones its data-parallel group after placing the model. On an NVSwitch node NCCL up to 2.21
    // gives every communicator of more than two GPUs NVLS buffers, 2.22 only those that run NVLS:
    // the default group, which then carries barriers alone, has none.
    void startUpHasTheDefaultGroupsNvlsBuffers_data()
    {
        QTest::addColumn<int>("nccl");
        QTest::addColumn<int>("groupsAtStartUp"); // of the step's two equal communicators
        QTest::newRow("NCCL 2.20: the default group's, half the step's") << int(NcclRelease::Before2_21) << 1;
        QTest::newRow("NCCL 2.22: none, the barriers run no NVLS") << int(NcclRelease::Since2_22) << 0;
    }
    void startUpHasTheDefaultGroupsNvlsBuffers()
    {
        QFETCH(int, nccl);
        QFETCH(int, groupsAtStartUp);
        Scenario s;
        peftQloraUnderZero3(s);
        s.fineTune = FineTune::LoRA;
        s.zeroInit = false;
        s.dataParallel = 8;
        s.overhead.measure = Measure::NvidiaSmi;
        s.overhead.nvls = true;
        s.overhead.nccl = NcclRelease(nccl);
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const Breakdown b = estimate(s);
        // 16 channels × 2 directions × one chunk and its flags a head, 8 heads (nvls.cc).
        const Bytes perGroup = 16 * 2 * (nccl == int(NcclRelease::Since2_22) ? 128 * 1024 * 8 : 6 * 1024 * 1024) * 8;
        QCOMPARE(b.item(ItemId::NvlsBuffers), (groupsAtStartUp == 1 ? 2 : 1) * perGroup);
        QCOMPARE(b.nvlsAtStartUp, groupsAtStartUp * perGroup);
        const StepTimeline t = stepTimeline(b);
        const TimelinePoint &first = t.points.front();
        QCOMPARE(first.phase, StepPhase::StartUp);
        QCOMPARE(first.part(Component::Overhead),
                 b.item(ItemId::CudaContext) + b.item(ItemId::CommBuffers) + groupsAtStartUp * perGroup
                     + b.item(ItemId::AllocatorReserve));
    }

    // The 16-bit logits are freed before the loss's backward, whose FP32 buffers (4 B a logit)
    // fill the blocks freed with them but for 2 B a logit (pinned to the allocator below). A
    // reading of reserved memory sees that block while the loss's backward runs;
    // max_memory_allocated never does.
    void freedLogitsBlockWhileTheLossRuns_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("edit");
        QTest::addColumn<qint64>("logitBytes"); // of the 16-bit logits on this GPU, 0: no such block
        const auto titan = [](Scenario &s) {
            torchtitanReadReserved(s);
            s.precision = Precision::MixedBf16;
        };
        const qint64 logits = 2 * 4096 * 32000; // the 7B's tokens × vocabulary, 2 B each
        QTest::newRow("torchtitan, reserved") << std::function<void(Scenario &)>(titan) << logits;
        QTest::newRow("torchtitan, nvidia-smi") << std::function<void(Scenario &)>([titan](Scenario &s) {
            titan(s);
            s.overhead.measure = Measure::NvidiaSmi;
        }) << logits;
        QTest::newRow("torchtitan, loss_parallel over TP 2: the GPU's half of the vocabulary")
            << std::function<void(Scenario &)>([titan](Scenario &s) {
                   titan(s);
                   s.tensorParallel = 2;
                   s.sequenceParallel = true;
               })
            << logits / 2;
        QTest::newRow("Hugging Face on PyTorch 1.10: log_softmax keeps the FP32 copy, not the 16-bit logits")
            << std::function<void(Scenario &)>([titan](Scenario &s) {
                   titan(s);
                   s.implementation = Implementation::HuggingFace;
                   s.attention = Attention::Eager;
                   s.pytorch = PyTorchRelease::Before1_11;
               })
            << logits;
        QTest::newRow("max_memory_allocated: no cached block in it")
            << std::function<void(Scenario &)>([titan](Scenario &s) {
                   titan(s);
                   s.overhead.measure = Measure::Allocated;
               })
            << qint64(0);
        QTest::newRow("chunked loss: no whole-vocabulary buffers")
            << std::function<void(Scenario &)>([titan](Scenario &s) {
                   titan(s);
                   s.loss = Loss::Chunked;
               })
            << qint64(0);
        QTest::newRow("Megatron: its own vocab-parallel loss") << std::function<void(Scenario &)>([](Scenario &s) {
            s.precision = Precision::MixedBf16;
            s.overhead.measure = Measure::Reserved;
        }) << qint64(0);
    }
    void freedLogitsBlockWhileTheLossRuns()
    {
        QFETCH(std::function<void(Scenario &)>, edit);
        QFETCH(qint64, logitBytes);
        Scenario s;
        edit(s);
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::FreedLogitsBlock), Bytes(logitBytes));
        const StepTimeline t = stepTimeline(b);
        const Bytes allStep = t.points.front().part(Component::Overhead);
        for (const TimelinePoint &p : t.points)
            QCOMPARE(p.part(Component::Overhead), allStep + (p.phase == StepPhase::Loss ? Bytes(logitBytes) : 0));
    }

    // The block against the caching allocator: tests/data/allocator-replay.yaml (written by
    // tests/oracle/generate.py) replays the loss's real allocation stream through the
    // allocator's rules, with and without expandable segments, and reads what the pool holds
    // at its peak beyond the tensors.
    void freedLogitsBlockIsWhatTheAllocatorHolds_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<qint64>("held");
        for (const YAML::Node &row : YAML::LoadFile(VL_TEST_DATA "/allocator-replay.yaml")) {
            Scenario s;
            torchtitanReadReserved(s);
            s.precision = row["logits"].as<std::string>() == "bf16" ? Precision::MixedBf16 : Precision::Fp32;
            s.pytorch = *parsePyTorchRelease(row["pytorch"].as<std::string>());
            s.sequence = row["tokens"].as<std::int64_t>();
            s.arch.vocab = row["vocab"].as<std::int64_t>();
            if (row["loss"].as<std::string>() == "torchtune") { // its model's dtype, no autocast
                s.implementation = Implementation::TorchTune;
                s.precision = Precision::Bf16;
            }
            if (row["loss"].as<std::string>() == "vocab-parallel") { // the replay's vocabulary is one GPU's half
                s.tensorParallel = 2;
                s.sequenceParallel = true;
                s.arch.vocab *= 2;
            }
            const std::string name = row["loss"].as<std::string>() + " loss, PyTorch "
                + row["pytorch"].as<std::string>() + ", " + row["logits"].as<std::string>() + " logits, "
                + std::to_string(s.sequence) + " tokens × " + row["vocab"].as<std::string>() + ", expandable segments "
                + (row["expandable_segments"].as<bool>() ? "on" : "off");
            QTest::newRow(name.c_str()) << s << qint64(row["held"].as<std::int64_t>());
        }
    }
    void freedLogitsBlockIsWhatTheAllocatorHolds()
    {
        QFETCH(Scenario, scenario);
        QFETCH(qint64, held);
        QVERIFY2(!scenarioError(scenario), scenarioError(scenario) ? scenarioError(scenario)->message.c_str() : "");
        QCOMPARE(estimate(scenario).item(ItemId::FreedLogitsBlock), Bytes(held));
    }

    void forwardGrowsBackwardShrinks()
    {
        const StepTimeline t = stepTimeline(Scenario{});
        Bytes last = 0;
        for (const TimelinePoint &p : t.points) {
            if (p.phase == StepPhase::Forward)
                QVERIFY(p.inUse >= last);
            last = p.inUse;
        }
        bool backward = false;
        for (const TimelinePoint &p : t.points) {
            if (p.phase != StepPhase::Backward)
                continue;
            if (backward)
                QVERIFY(p.inUse <= last); // activations freed outweigh the 16-bit gradients that appear
            backward = true;
            last = p.inUse;
        }
    }
};

QTEST_APPLESS_MAIN(TestTimeline)
#include "tst_timeline.moc"
