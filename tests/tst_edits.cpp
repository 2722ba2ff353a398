// What follows an edit (core/edits.h): the same rule for the GUI's controls and the CLI's flags.

#include "core/edits.h"
#include "core/estimate.h"
#include "core/fields.h"
#include "core/presets.h"
#include "core/scenariofile.h"
#include "core/timeline.h"

#include <QTest>

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

using namespace vl;

Q_DECLARE_METATYPE(Scenario)

namespace {

Scenario llama()
{
    Scenario s;
    return s;
}

Scenario bert()
{
    Scenario s = llama();
    s.arch.mlp = MlpKind::Gelu;
    s.arch.norm = NormKind::LayerNorm;
    s.arch.modeling = Modeling::Bert;
    s.arch.learnedPositions = 512;
    s.arch.linearBias = true;
    return s;
}

// Field names as the edit rules take them: views into strings kept here (not copyable, so the
// views cannot outlive them).
class FieldNames {
public:
    explicit FieldNames(const QStringList &given)
    {
        for (const QString &name : given)
            m_owned.push_back(name.toStdString());
        m_views.assign(m_owned.begin(), m_owned.end());
    }
    FieldNames(const FieldNames &) = delete;
    FieldNames &operator=(const FieldNames &) = delete;
    std::span<const std::string_view> views() const { return m_views; }

private:
    std::vector<std::string> m_owned;
    std::vector<std::string_view> m_views;
};

} // namespace

class TestEdits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void implementationDefaults_data()
    {
        QTest::addColumn<Scenario>("before");
        QTest::addColumn<int>("implementation");
        QTest::addColumn<QString>("kept"); // a field the user set explicitly, or empty
        QTest::addColumn<int>("attention");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<bool>("dropout");
        QTest::addColumn<int>("precision");
        QTest::addColumn<bool>("valid");

        Scenario eagerDropout = llama();
        eagerDropout.dropout = true;
        eagerDropout.recompute = Recompute::Selective;
        QTest::newRow("torchtitan: SDPA, its op-level selective checkpointing, no dropout")
            << eagerDropout << int(Implementation::TorchTitan) << "" << int(Attention::Sdpa)
            << int(Recompute::Selective) << false << int(Precision::MixedFp16) << true;
        QTest::newRow("huggingface: whole-layer checkpointing, eager attention for Llama")
            << eagerDropout << int(Implementation::HuggingFace) << "" << int(Attention::Eager) << int(Recompute::Full)
            << false << int(Precision::MixedFp16) << true;
        QTest::newRow("an attention the user typed stays, and is refused")
            << llama() << int(Implementation::TorchTitan) << "attention" << int(Attention::Eager)
            << int(Recompute::None) << false << int(Precision::MixedFp16) << false;
        Scenario flashBert = bert();
        flashBert.attention = Attention::Flash;
        flashBert.dropout = true;
        QTest::newRow("BERT: eager attention, dropout stays")
            << flashBert << int(Implementation::HuggingFace) << "" << int(Attention::Eager) << int(Recompute::None)
            << true << int(Precision::MixedFp16) << true;
        QTest::newRow("lit-gpt: flash attention, bf16-true, no checkpointing")
            << eagerDropout << int(Implementation::LitGpt) << "" << int(Attention::Flash) << int(Recompute::None)
            << false << int(Precision::Bf16) << true;
        Scenario autocastMixed = llama();
        autocastMixed.precision = Precision::MixedBf16;
        autocastMixed.ampStyle = AmpStyle::Autocast;
        QTest::newRow("lit-gpt keeps bf16-mixed under autocast (Lightning's MixedPrecision)")
            << autocastMixed << int(Implementation::LitGpt) << "" << int(Attention::Flash) << int(Recompute::None)
            << false << int(Precision::MixedBf16) << true;
        Scenario mixedQlora = autocastMixed;
        mixedQlora.fineTune = FineTune::QLoRA;
        mixedQlora.loraTargets = LoraQ | LoraV;
        QTest::newRow("lit-gpt QLoRA: bf16-true, which its script requires with quantization")
            << mixedQlora << int(Implementation::LitGpt) << "" << int(Attention::Flash) << int(Recompute::None) << false
            << int(Precision::Bf16) << true;
        QTest::newRow("torchtune: SDPA, whole-layer checkpointing, no dropout, the model's dtype bf16")
            << eagerDropout << int(Implementation::TorchTune) << "" << int(Attention::Sdpa) << int(Recompute::Full)
            << false << int(Precision::Bf16) << true;
        Scenario fp32 = llama();
        fp32.precision = Precision::Fp32;
        QTest::newRow("torchtune keeps fp32, a dtype of its own")
            << fp32 << int(Implementation::TorchTune) << "" << int(Attention::Sdpa) << int(Recompute::None) << false
            << int(Precision::Fp32) << true;
        QTest::newRow("a mixed precision the user typed stays, and torchtune refuses it")
            << llama() << int(Implementation::TorchTune) << "precision" << int(Attention::Sdpa) << int(Recompute::None)
            << false << int(Precision::MixedFp16) << false;
        QTest::newRow("megatron changes nothing")
            << eagerDropout << int(Implementation::Megatron) << "" << int(Attention::Eager) << int(Recompute::Selective)
            << true << int(Precision::MixedFp16) << true;
    }
    void implementationDefaults()
    {
        QFETCH(Scenario, before);
        QFETCH(int, implementation);
        QFETCH(QString, kept);
        QFETCH(int, attention);
        QFETCH(int, recompute);
        QFETCH(bool, dropout);
        QFETCH(int, precision);
        QFETCH(bool, valid);
        before.implementation = Implementation(implementation);
        const std::string keptName = kept.toStdString();
        std::vector<std::string_view> keep;
        if (!keptName.empty())
            keep.push_back(keptName);
        const Scenario after = withImplementationDefaults(before, keep);
        QCOMPARE(int(after.attention), attention);
        QCOMPARE(int(after.recompute), recompute);
        QCOMPARE(after.dropout, dropout);
        QCOMPARE(int(after.precision), precision);
        const std::optional<Error> error = scenarioError(after);
        QVERIFY2(!error == valid, error ? error->message.c_str() : "no error");
    }

    // lit-gpt adapts its fused q/k/v projection (and head) only: targets the code cannot take become
    // q and v. Hugging Face's PEFT adapts Mixtral's experts as any projection.
    void loraTargetsForTheCode_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<QString>("targets");
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<QString>("after");
        QTest::addColumn<int>("experts");
        QTest::newRow("LoRA chosen under lit-gpt: q and v")
            << int(Implementation::LitGpt) << "all" << QStringList{"finetune"} << "q,v" << 1;
        QTest::newRow("lit-gpt chosen for a LoRA run: q and v")
            << int(Implementation::LitGpt) << "q,o" << QStringList{"implementation"} << "q,v" << 1;
        QTest::newRow("targets lit-gpt can take stay")
            << int(Implementation::LitGpt) << "k,v" << QStringList{"finetune"} << "k,v" << 1;
        QTest::newRow("targets given in the same edit stay (and are refused)")
            << int(Implementation::LitGpt) << "all" << QStringList{"finetune", "lora-targets"} << "all" << 1;
        QTest::newRow("Hugging Face's PEFT takes every projection")
            << int(Implementation::HuggingFace) << "all" << QStringList{"finetune"} << "all" << 1;
        QTest::newRow("LoRA chosen for Mixtral under Hugging Face: every projection, its experts' too")
            << int(Implementation::HuggingFace) << "all" << QStringList{"finetune"} << "all" << 8;
        QTest::newRow("Mixtral's attention targets stay")
            << int(Implementation::HuggingFace) << "q,k,v,o" << QStringList{"finetune"} << "q,k,v,o" << 8;
    }
    void loraTargetsForTheCode()
    {
        QFETCH(int, implementation);
        QFETCH(QString, targets);
        QFETCH(QStringList, given);
        QFETCH(QString, after);
        QFETCH(int, experts);
        Scenario s = llama();
        s.implementation = Implementation(implementation);
        s.arch.experts = experts;
        s.arch.expertsPerToken = std::min(experts, 2);
        s.fineTune = FineTune::LoRA;
        s.loraTargets = *parseLoraTargets(targets.toStdString());
        const FieldNames names(given);
        QCOMPARE(QString::fromStdString(loraTargetsToString(withLoraTargetDefaults(s, names.views()).loraTargets)),
                 after);
    }

    // Lightning's mixed precision is autocast: a mixed precision chosen under lit-gpt (or lit-gpt
    // chosen with one asked for) runs under autocast unless --amp-style is given in the same edit.
    void ampStyleFollowsLightning_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("fineTune");
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<int>("ampAfter");
        QTest::addColumn<int>("precisionAfter");
        QTest::addColumn<bool>("valid");
        const int lit = int(Implementation::LitGpt), hf = int(Implementation::HuggingFace);
        const int mixedBf16 = int(Precision::MixedBf16), bf16 = int(Precision::Bf16);
        const int lora = int(FineTune::LoRA), qlora = int(FineTune::QLoRA);
        const int autocast = int(AmpStyle::Autocast), masterCopy = int(AmpStyle::MasterCopy);
        QTest::newRow("mixed BF16 chosen under lit-gpt: autocast, bf16-mixed")
            << lit << mixedBf16 << lora << QStringList{"precision"} << autocast << mixedBf16 << true;
        QTest::newRow("--implementation litgpt --precision mixed-bf16: autocast")
            << lit << mixedBf16 << lora << QStringList{"implementation", "precision"} << autocast << mixedBf16 << true;
        QTest::newRow("lit-gpt chosen over a master-copy mixed precision: its default bf16-true")
            << lit << mixedBf16 << lora << QStringList{"implementation"} << masterCopy << bf16 << true;
        QTest::newRow("--amp-style master-copy given in the same edit stays (and is refused)")
            << lit << mixedBf16 << lora << QStringList{"precision", "amp-style"} << masterCopy << mixedBf16 << false;
        QTest::newRow("QLoRA: autocast, and lit-gpt's refusal of quantization with mixed precision")
            << lit << mixedBf16 << qlora << QStringList{"precision"} << autocast << mixedBf16 << false;
        QTest::newRow("Hugging Face keeps its master copy (DeepSpeed's, or the Trainer's choice)")
            << hf << mixedBf16 << lora << QStringList{"precision"} << masterCopy << mixedBf16 << true;
    }
    void ampStyleFollowsLightning()
    {
        QFETCH(int, implementation);
        QFETCH(int, precision);
        QFETCH(int, fineTune);
        QFETCH(QStringList, given);
        QFETCH(int, ampAfter);
        QFETCH(int, precisionAfter);
        QFETCH(bool, valid);
        Scenario s = llama();
        s.implementation = Implementation(implementation);
        s.precision = Precision(precision);
        s.ampStyle = AmpStyle::MasterCopy;
        s.fineTune = FineTune(fineTune);
        s.loraTargets = LoraQ | LoraV;
        s.attention = Attention::Flash; // lit-gpt's, without checkpointing
        s.recompute = Recompute::None;
        const FieldNames names(given);
        const Scenario after = withEditRules(s, s.arch, names.views());
        QCOMPARE(int(after.ampStyle), ampAfter);
        QCOMPARE(int(after.precision), precisionAfter);
        const std::optional<Error> error = scenarioError(after);
        QVERIFY2(!error == valid, error ? error->message.c_str() : "no error");
    }

    // torchtitan's TP always comes with sequence-parallel norms: --sp follows --tp unless given.
    void sequenceParallelForTorchtitan_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("spBefore");
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<bool>("spAfter");
        QTest::addColumn<bool>("valid");
        QTest::newRow("TP 8 set under torchtitan: sequence parallel on")
            << int(Implementation::TorchTitan) << 8 << false << QStringList{"tp"} << true << true;
        QTest::newRow("torchtitan chosen with TP 8: on")
            << int(Implementation::TorchTitan) << 8 << false << QStringList{"implementation"} << true << true;
        QTest::newRow("TP back to 1 under torchtitan: off")
            << int(Implementation::TorchTitan) << 1 << true << QStringList{"tp"} << false << true;
        QTest::newRow("--sp no given in the same edit stays (and is refused)")
            << int(Implementation::TorchTitan) << 8 << false << QStringList{"tp", "sp"} << false << false;
        QTest::newRow("Megatron's sequence parallelism is a choice")
            << int(Implementation::Megatron) << 8 << false << QStringList{"tp"} << false << true;
    }
    void sequenceParallelForTorchtitan()
    {
        QFETCH(int, implementation);
        QFETCH(int, tp);
        QFETCH(bool, spBefore);
        QFETCH(QStringList, given);
        QFETCH(bool, spAfter);
        QFETCH(bool, valid);
        Scenario s = llama();
        s.implementation = Implementation(implementation);
        s.attention = Attention::Sdpa;
        s.tensorParallel = tp;
        s.sequenceParallel = spBefore;
        const FieldNames names(given);
        const Scenario after = withEditRules(s, s.arch, names.views());
        QCOMPARE(after.sequenceParallel, spAfter);
        const std::optional<Error> error = scenarioError(after);
        QVERIFY2(!error == valid, error ? error->message.c_str() : "no error");
    }

    // The FSDP version and whether micro-batches accumulate without sync follow the code that
    // wraps FSDP: accelerate's and Lightning's FSDP1 inside no_sync under Hugging Face and lit-gpt,
    // fully_shard (FSDP2) reducing every micro-batch under torchtitan and torchtune; what is given
    // in the same edit stays.
    void fsdpFollowsTheCode_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("before");
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<int>("after");
        QTest::addColumn<bool>("noSyncAfter");
        const int fsdp1 = int(FsdpVersion::Fsdp1), fsdp2 = int(FsdpVersion::Fsdp2);
        QTest::newRow("Hugging Face chosen: accelerate's FSDP1, no_sync")
            << int(Implementation::HuggingFace) << fsdp2 << QStringList{"implementation"} << fsdp1 << true;
        QTest::newRow("FSDP chosen under lit-gpt: Lightning's FSDP1, no_backward_sync")
            << int(Implementation::LitGpt) << fsdp2 << QStringList{"sharding"} << fsdp1 << true;
        QTest::newRow("torchtune chosen: fully_shard, synced")
            << int(Implementation::TorchTune) << fsdp1 << QStringList{"implementation"} << fsdp2 << false;
        QTest::newRow("FSDP chosen under torchtitan: fully_shard, synced")
            << int(Implementation::TorchTitan) << fsdp1 << QStringList{"sharding"} << fsdp2 << false;
        QTest::newRow("Hugging Face with FSDP2 given in the same edit: stays")
            << int(Implementation::HuggingFace) << fsdp2 << QStringList{"implementation", "fsdp-version"} << fsdp2
            << true;
        QTest::newRow("Hugging Face with sync given in the same edit: stays")
            << int(Implementation::HuggingFace) << fsdp2 << QStringList{"implementation", "no-sync"} << fsdp1 << false;
        QTest::newRow("another field edited: both stay")
            << int(Implementation::HuggingFace) << fsdp2 << QStringList{"batch"} << fsdp2 << false;
    }
    void fsdpFollowsTheCode()
    {
        QFETCH(int, implementation);
        QFETCH(int, before);
        QFETCH(QStringList, given);
        QFETCH(int, after);
        QFETCH(bool, noSyncAfter);
        Scenario s = llama();
        s.implementation = Implementation(implementation);
        s.zeroStage = 3;
        s.sharding = Sharding::Fsdp;
        s.dataParallel = 8;
        s.gradAccum = 4;
        s.fsdpVersion = FsdpVersion(before);
        s.fsdpNoSync = false;
        if (implementation == int(Implementation::TorchTune) || implementation == int(Implementation::TorchTitan))
            s.fsdpNoSync = true; // so that following the code changes it
        const FieldNames names(given);
        const Scenario edited = withEditRules(s, s.arch, names.views());
        QCOMPARE(int(edited.fsdpVersion), after);
        QCOMPARE(edited.fsdpNoSync, noSyncAfter);
    }

    // Liger's fused loss is the loss and reads the head's weight itself: ticking Liger brings the
    // loss back to the standard one and takes the head out of the LoRA targets, unless those were
    // set in the same edit (then refused); another implementation turns Liger off.
    void ligerFollowsItsLoss_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<bool>("ligerAfter");
        QTest::addColumn<int>("lossAfter");
        QTest::addColumn<QString>("targetsAfter");
        QTest::addColumn<bool>("valid");
        QTest::newRow("Liger ticked: standard loss, no adapter on the head")
            << int(Implementation::HuggingFace) << QStringList{"liger"} << true << int(Loss::Standard) << "all" << true;
        QTest::newRow("Liger ticked with the chunked loss given too: refused")
            << int(Implementation::HuggingFace) << QStringList{"liger", "loss"} << true << int(Loss::Chunked) << "all"
            << false;
        QTest::newRow("Liger ticked with the head among the targets given: refused")
            << int(Implementation::HuggingFace) << QStringList{"liger", "lora-targets"} << true << int(Loss::Standard)
            << "all,head" << false;
        QTest::newRow("Megatron chosen: Liger off") << int(Implementation::Megatron) << QStringList{"implementation"}
                                                    << false << int(Loss::Chunked) << "all,head" << true;
    }
    void ligerFollowsItsLoss()
    {
        QFETCH(int, implementation);
        QFETCH(QStringList, given);
        QFETCH(bool, ligerAfter);
        QFETCH(int, lossAfter);
        QFETCH(QString, targetsAfter);
        QFETCH(bool, valid);
        Scenario s = llama();
        s.implementation = Implementation(implementation);
        s.attention = Attention::Sdpa;
        s.liger = true;
        s.loss = Loss::Chunked;
        s.fineTune = FineTune::LoRA;
        s.loraTargets = LoraAll | LoraHead;
        const FieldNames names(given);
        const Scenario after = withEditRules(s, s.arch, names.views());
        QCOMPARE(after.liger, ligerAfter);
        QCOMPARE(int(after.loss), lossAfter);
        QCOMPARE(QString::fromStdString(loraTargetsToString(after.loraTargets)), targetsAfter);
        const std::optional<Error> error = scenarioError(after);
        QVERIFY2(!error == valid, error ? error->message.c_str() : "no error");
    }

    // ZeRO and offload follow each other, the same rule in the GUI and the CLI.
    // The CUDA context follows the kernel loading chosen, unless its size was set in the same edit.
    void contextFollowsLoading_data()
    {
        QTest::addColumn<int>("loading");
        QTest::addColumn<bool>("sizeGiven");
        QTest::addColumn<qint64>("contextMiB");
        QTest::newRow("eager: 1343 MiB") << int(ModuleLoading::Eager) << false << qint64(1343);
        QTest::newRow("lazy again: 400 MiB") << int(ModuleLoading::Lazy) << false << qint64(400);
        QTest::newRow("eager with a size given: the size") << int(ModuleLoading::Eager) << true << qint64(777);
    }
    void contextFollowsLoading()
    {
        QFETCH(int, loading);
        QFETCH(bool, sizeGiven);
        QFETCH(qint64, contextMiB);
        Scenario s = llama();
        s.overhead.cudaContext = 777 * kMiB;
        s.overhead.moduleLoading = ModuleLoading(loading);
        const std::string_view loadingOnly[] = {"cuda-loading"};
        const std::string_view both[] = {"cuda-loading", "cuda-context"};
        const Scenario after = sizeGiven ? withEditRules(s, s.arch, both) : withEditRules(s, s.arch, loadingOnly);
        QCOMPARE(qint64(after.overhead.cudaContext), contextMiB * kMiB);
        // Any other edit leaves the context as it is.
        const std::string_view other[] = {"batch"};
        QCOMPARE(qint64(withEditRules(s, s.arch, other).overhead.cudaContext), qint64(777) * kMiB);
    }

    // The GPU a run is checked against brings its compute capability (cuBLAS's workspace size),
    // unless the capability was set in the same edit; a GPU without NVIDIA's number leaves it.
    void computeCapabilityFollowsTheGpu_data()
    {
        QTest::addColumn<qint64>("gpuCapability");
        QTest::addColumn<bool>("given");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("an A100: 8") << qint64(8) << false << qint64(8);
        QTest::newRow("a B200: 10") << qint64(10) << false << qint64(10);
        QTest::newRow("given with the GPU: kept") << qint64(8) << true << qint64(7);
        QTest::newRow("AMD's, no number: kept") << qint64(0) << false << qint64(7);
    }
    void computeCapabilityFollowsTheGpu()
    {
        QFETCH(qint64, gpuCapability);
        QFETCH(bool, given);
        QFETCH(qint64, expected);
        Scenario s = llama();
        s.overhead.computeCapability = 7;
        GpuPreset gpu;
        gpu.computeCapability = gpuCapability;
        const std::string_view capability[] = {"compute-capability"};
        const Scenario after = withGpu(
            s, gpu, given ? std::span<const std::string_view>(capability) : std::span<const std::string_view>());
        QCOMPARE(qint64(after.overhead.computeCapability), expected);
        QVERIFY(!scenarioError(after));
    }

    // A GPU preset says whether its board's NVSwitch does NVLink SHARP (NCCL's NVLS buffers),
    // unless --nvls was set in the same edit.
    void nvlsFollowsTheGpu_data()
    {
        QTest::addColumn<bool>("gpuNvls");
        QTest::addColumn<bool>("given");
        QTest::addColumn<bool>("expected");
        QTest::newRow("an H100 SXM: on") << true << false << true;
        QTest::newRow("an A100: off") << false << false << false;
        QTest::newRow("given with the GPU: kept") << false << true << true;
    }
    void nvlsFollowsTheGpu()
    {
        QFETCH(bool, gpuNvls);
        QFETCH(bool, given);
        QFETCH(bool, expected);
        Scenario s = llama();
        s.overhead.nvls = !gpuNvls;
        GpuPreset gpu;
        gpu.nvls = gpuNvls;
        const std::string_view nvls[] = {"nvls"};
        const Scenario after = withGpu(
            s, gpu, given ? std::span<const std::string_view>(nvls) : std::span<const std::string_view>());
        QCOMPARE(after.overhead.nvls, expected);
    }

    void shardingDefaults_data()
    {
        QTest::addColumn<int>("zero");
        QTest::addColumn<int>("offload");
        QTest::addColumn<QString>("changed");
        QTest::addColumn<int>("zeroAfter");
        QTest::addColumn<int>("offloadAfter");
        QTest::newRow("stage 0 ends offload") << 0 << int(Offload::Optimizer) << "zero" << 0 << int(Offload::None);
        QTest::newRow("below stage 3 keeps the optimizer on the host")
            << 2 << int(Offload::OptimizerAndParams) << "zero" << 2 << int(Offload::Optimizer);
        QTest::newRow("stage 3 keeps what is offloaded")
            << 3 << int(Offload::OptimizerAndParams) << "zero" << 3 << int(Offload::OptimizerAndParams);
        QTest::newRow("offloading the optimizer brings stage 2")
            << 0 << int(Offload::Optimizer) << "offload" << 2 << int(Offload::Optimizer);
        QTest::newRow("offloading parameters brings stage 3")
            << 1 << int(Offload::OptimizerAndParams) << "offload" << 3 << int(Offload::OptimizerAndParams);
        QTest::newRow("a stage that offloads already stays")
            << 1 << int(Offload::Optimizer) << "offload" << 1 << int(Offload::Optimizer);
    }
    void shardingDefaults()
    {
        QFETCH(int, zero);
        QFETCH(int, offload);
        QFETCH(QString, changed);
        QFETCH(int, zeroAfter);
        QFETCH(int, offloadAfter);
        Scenario s = llama();
        s.zeroStage = zero;
        s.offload = Offload(offload);
        s.dataParallel = 8;
        const std::string name = changed.toStdString();
        const std::string_view given[] = {name};
        const Scenario after = withShardingDefaults(s, given);
        QCOMPARE(int(after.zeroStage), zeroAfter);
        QCOMPARE(int(after.offload), offloadAfter);
        QVERIFY(!scenarioError(after));
        // Both given: neither follows the other (scenarioError() judges them together).
        const std::string_view both[] = {"zero", "offload"};
        QVERIFY(withShardingDefaults(s, both) == s);
    }

    void kvHeadsFollowHeads_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("newHeads");
        QTest::addColumn<int>("expected");
        QTest::newRow("multi-head stays multi-head") << 32 << 32 << 64 << 64;
        QTest::newRow("GQA keeps its KV heads when they divide") << 32 << 8 << 64 << 8;
        QTest::newRow("GQA shrinks to a divisor") << 32 << 8 << 12 << 4;
    }
    void kvHeadsFollowHeads()
    {
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(int, newHeads);
        QFETCH(int, expected);
        Architecture before;
        before.heads = heads;
        before.kvHeads = kvHeads;
        QCOMPARE(kvHeadsFollowing(before, newHeads), qint64(expected));
    }

    // What an edit changed, by field name in the table's order: integers by value, the others by
    // what a file would write; an edit rule's follow-up is a change of its own.
    void changedFieldsNameTheEdit_data()
    {
        QTest::addColumn<Scenario>("after");
        QTest::addColumn<QStringList>("changed");
        const Scenario base;
        Scenario s = base;
        QTest::newRow("nothing") << s << QStringList{};
        s.microBatch = 8;
        QTest::newRow("an integer") << s << QStringList{QStringLiteral("batch")};
        s.sequence = 1024;
        QTest::newRow("two integers, in the table's order")
            << s << QStringList{QStringLiteral("batch"), QStringLiteral("seq")};
        s = base;
        s.precision = Precision::Bf16;
        QTest::newRow("a word") << s << QStringList{QStringLiteral("precision")};
        const std::string_view heads[] = {"heads"};
        s = withEditRules(
            [&] {
                Scenario h = base;
                h.arch.heads = 64;
                return h;
            }(),
            base.arch, heads);
        QTest::newRow("heads on a multi-head model: the KV heads follow")
            << s << QStringList{QStringLiteral("heads"), QStringLiteral("kv-heads")};
    }
    void changedFieldsNameTheEdit()
    {
        QFETCH(Scenario, after);
        QFETCH(QStringList, changed);
        QStringList names;
        for (const std::string_view field : changedFields(Scenario{}, after))
            names << QString::fromUtf8(field.data(), qsizetype(field.size()));
        QCOMPARE(names, changed);
    }

    // Heads changed without the hidden size: it moves up to a whole number of heads, as the GUI's
    // hidden slider (which steps in whole heads) and the CLI both need; given with them, it stays
    // and scenarioError() judges the pair.
    void hiddenFollowsHeads_data()
    {
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<int>("newHeads");
        QTest::addColumn<int>("headDim");
        QTest::addColumn<int>("expectedHidden");
        QTest::newRow("heads dividing it: unchanged") << QStringList{"heads"} << 64 << 0 << 4096;
        QTest::newRow("30 heads: up to 4110") << QStringList{"heads"} << 30 << 0 << 4110;
        QTest::newRow("hidden given too: as given") << QStringList{"heads", "hidden"} << 30 << 0 << 4096;
        QTest::newRow("a fixed head_dim: hidden need not divide") << QStringList{"heads"} << 30 << 128 << 4096;
        QTest::newRow("heads not edited") << QStringList{"layers"} << 30 << 0 << 4096;
    }
    void hiddenFollowsHeads()
    {
        QFETCH(QStringList, given);
        QFETCH(int, newHeads);
        QFETCH(int, headDim);
        QFETCH(int, expectedHidden);
        Scenario s;
        s.arch.hidden = 4096;
        s.arch.heads = 32;
        s.arch.headDim = headDim;
        const Architecture before = s.arch;
        s.arch.heads = newHeads;
        const FieldNames names(given);
        QCOMPARE(withEditRules(s, before, names.views()).arch.hidden, qint64(expectedHidden));
    }

    // Another model: what the new shapes cannot take is brought back into range, the rest kept.
    void anotherModelKeepsWhatFits_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("trainableLayers");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("layers");
        QTest::addColumn<QList<int>>("expected"); // tp, pp, trainable layers
        QTest::newRow("all fit: kept") << 4 << 4 << 8 << 64 << 8 << 80 << QList<int>{4, 4, 8};
        QTest::newRow("TP not dividing the heads: 1") << 8 << 1 << 8 << 12 << 12 << 12 << QList<int>{1, 1, 8};
        QTest::newRow("TP not dividing the KV heads: 1") << 8 << 1 << 8 << 32 << 4 << 32 << QList<int>{1, 1, 8};
        QTest::newRow("more stages and trainable layers than layers: the layers")
            << 1 << 32 << 24 << 12 << 12 << 12 << QList<int>{1, 12, 12};
    }
    void anotherModelKeepsWhatFits()
    {
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, trainableLayers);
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(int, layers);
        QFETCH(QList<int>, expected);
        Scenario s;
        s.tensorParallel = tp;
        s.pipelineParallel = pp;
        s.trainableLayers = trainableLayers;
        Architecture a;
        a.heads = heads;
        a.kvHeads = kvHeads;
        a.hidden = heads * 128;
        a.layers = layers;
        const Scenario after = withModel(s, a);
        QCOMPARE(after.arch, a);
        QCOMPARE((QList<int>{int(after.tensorParallel), int(after.pipelineParallel), int(after.trainableLayers)}),
                 expected);
    }

    // What Hugging Face's SDPA path cannot run as modelled falls back to eager attention, unless the
    // attention was chosen in the same edit.
    void attentionFollowsWhatSdpaCannotRun_data()
    {
        QTest::addColumn<bool>("softCapping");
        QTest::addColumn<int>("window");
        QTest::addColumn<int>("seq");
        QTest::addColumn<QString>("implementation");
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<QString>("expected");
        QTest::newRow("Gemma-2's soft-capping: eager")
            << true << 4096 << 2048 << "huggingface" << QStringList{"model"} << "eager";
        QTest::newRow("a 512-token window, 2048 tokens: eager")
            << false << 512 << 2048 << "huggingface" << QStringList{"seq"} << "eager";
        QTest::newRow("a sequence as long as the window: masked, eager")
            << false << 4096 << 4096 << "huggingface" << QStringList{"seq"} << "eager";
        QTest::newRow("a sequence one token shorter than the window: SDPA kept")
            << false << 4096 << 4095 << "huggingface" << QStringList{"seq"} << "sdpa";
        QTest::newRow("no window, no soft-capping: SDPA kept")
            << false << 0 << 8192 << "huggingface" << QStringList{"model"} << "sdpa";
        QTest::newRow("SDPA chosen in the same edit: kept, for scenarioError()")
            << false << 512 << 2048 << "huggingface" << QStringList{"attention"} << "sdpa";
        QTest::newRow("torchtitan's SDPA: not Hugging Face's path")
            << false << 512 << 2048 << "torchtitan" << QStringList{"seq"} << "sdpa";
    }
    void attentionFollowsWhatSdpaCannotRun()
    {
        QFETCH(bool, softCapping);
        QFETCH(int, window);
        QFETCH(int, seq);
        QFETCH(QString, implementation);
        QFETCH(QStringList, given);
        QFETCH(QString, expected);
        Scenario s;
        s.implementation = *parseImplementation(implementation.toStdString());
        s.attention = Attention::Sdpa;
        s.sequence = seq;
        s.arch.softCapping = softCapping;
        s.arch.slidingWindow = window;
        const FieldNames names(given);
        const Scenario edited = given.contains(QStringLiteral("model")) ? withModel(s, s.arch)
                                                                        : withEditRules(s, s.arch, names.views());
        QCOMPARE(QString::fromLatin1(toString(edited.attention)), expected);
    }

    // Context parallelism is a ring of flash kernels: --cp above 1 moves eager attention to the
    // code's flash path unless the attention is given in the same edit.
    void attentionFollowsContextParallelism_data()
    {
        QTest::addColumn<QString>("implementation");
        QTest::addColumn<int>("cp");
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("valid");
        QTest::newRow("--cp 2 under Megatron: Transformer Engine's flash attention")
            << "megatron" << 2 << QStringList{"cp"} << "flash" << true;
        QTest::newRow("--cp 2 under torchtitan: SDPA") << "torchtitan" << 2 << QStringList{"cp"} << "sdpa" << true;
        QTest::newRow("--cp 1: eager kept") << "megatron" << 1 << QStringList{"cp"} << "eager" << true;
        QTest::newRow("--attention eager given with --cp 2: kept, and refused")
            << "megatron" << 2 << QStringList{"cp", "attention"} << "eager" << false;
        QTest::newRow("Hugging Face has no context parallelism to run: eager kept, and refused")
            << "huggingface" << 2 << QStringList{"cp"} << "eager" << false;
    }
    void attentionFollowsContextParallelism()
    {
        QFETCH(QString, implementation);
        QFETCH(int, cp);
        QFETCH(QStringList, given);
        QFETCH(QString, expected);
        QFETCH(bool, valid);
        Scenario s;
        s.implementation = *parseImplementation(implementation.toStdString());
        s.attention = Attention::Eager;
        s.contextParallel = cp;
        const FieldNames names(given);
        const Scenario edited = withEditRules(s, s.arch, names.views());
        QCOMPARE(QString::fromLatin1(toString(edited.attention)), expected);
        const std::optional<Error> error = scenarioError(edited);
        QVERIFY2(!error == valid, error ? error->message.c_str() : "no error");
    }

    // `vram-ledger-cli --hidden 8192 --layers 80 --heads 64` on the default 7B must not keep "7B".
    void shapesGivenAreCounted_data()
    {
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<bool>("counted");
        QTest::addColumn<int>("kvHeads");
        QTest::newRow("shapes alone: counted from them") << QStringList{"hidden", "layers", "heads"} << true << 64;
        QTest::newRow("shapes and params: params kept") << QStringList{"hidden", "params", "heads"} << false << 64;
        QTest::newRow("heads and kv-heads: both kept") << QStringList{"heads", "kv-heads"} << true << 8;
        QTest::newRow("no shape: nothing moves") << QStringList{"batch", "seq"} << false << 32;
    }
    void shapesGivenAreCounted()
    {
        QFETCH(QStringList, given);
        QFETCH(bool, counted);
        QFETCH(int, kvHeads);
        Scenario s = articleExampleDocument().scenario; // 32 heads, multi-head, 7e9 parameters given
        const Architecture before = s.arch;
        s.arch.hidden = 8192;
        s.arch.heads = 64;
        s.arch.kvHeads = given.contains(QStringLiteral("kv-heads")) ? 8 : before.kvHeads;
        const FieldNames names(given);
        const Scenario after = withArchitectureDefaults(s, before, names.views());
        QCOMPARE(after.arch.fixedParams == 0, counted);
        QCOMPARE(after.arch.kvHeads, qint64(kvHeads));
    }

    // A control is greyed out exactly when its field changes nothing: set it to another value
    // and the total moves if and only if fieldInEffect() said so (or scenarioError() refuses the value).
    void fieldInEffectMatchesTheEstimate_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("inEffect");
        Scenario pure = llama();
        pure.precision = Precision::Bf16;
        Scenario autocast = llama();
        autocast.ampStyle = AmpStyle::Autocast;
        Scenario lora = llama();
        lora.fineTune = FineTune::LoRA;
        Scenario autocastLora = autocast;
        autocastLora.fineTune = FineTune::LoRA;
        Scenario tensorParallel = llama();
        tensorParallel.tensorParallel = 8;
        Scenario tensorsAlone = llama();
        tensorsAlone.overhead.measure = Measure::Allocated;
        Scenario reserved = llama();
        reserved.overhead.measure = Measure::Reserved;
        Scenario fsdpOneMicroBatch = llama();
        fsdpOneMicroBatch.zeroStage = 3;
        fsdpOneMicroBatch.dataParallel = 8;
        fsdpOneMicroBatch.sharding = Sharding::Fsdp;
        fsdpOneMicroBatch.gradAccum = 1;
        Scenario fsdpAccumulating = fsdpOneMicroBatch;
        fsdpAccumulating.gradAccum = 4;
        Scenario zero3Accumulating = fsdpAccumulating;
        zero3Accumulating.sharding = Sharding::Zero;
        Scenario zero3 = llama();
        zero3.zeroStage = 3;
        zero3.dataParallel = 8;
        Scenario fsdp = zero3;
        fsdp.sharding = Sharding::Fsdp;
        Scenario zero2 = zero3;
        zero2.zeroStage = 2;
        Scenario zero1 = zero3;
        zero1.zeroStage = 1;
        Scenario nvSwitch = zero3;
        nvSwitch.overhead.nvls = true;
        Scenario nvSwitchTwoGpus = nvSwitch;
        nvSwitchTwoGpus.dataParallel = 2;
        Scenario nvSwitchReserved = nvSwitch;
        nvSwitchReserved.overhead.measure = Measure::Reserved;
        QTest::newRow("NVLS, ZeRO-3 over 8 GPUs") << zero3 << "nvls"
                                                  << "yes" << true;
        QTest::newRow("NVLS, 2 GPUs: NCCL sets none up") << nvSwitchTwoGpus << "nvls"
                                                         << "no" << false;
        QTest::newRow("NVLS, read as reserved") << nvSwitchReserved << "nvls"
                                                << "no" << false;
        QTest::newRow("NCCL release, NVSwitch") << nvSwitch << "nccl"
                                                << "2.20" << true;
        QTest::newRow("NCCL release, no NVSwitch") << zero3 << "nccl"
                                                   << "2.20" << false;
        QTest::newRow("GPUs per node, NVSwitch") << nvSwitch << "gpus-per-node"
                                                 << "2" << true;
        QTest::newRow("GPUs per node, NVSwitch, 2 GPUs") << nvSwitchTwoGpus << "gpus-per-node"
                                                         << "4" << false;
        // Megatron TP 2 × PP 2 × DP 2 with the distributed optimizer: only the gradients' norm
        // group spans more than two GPUs, and it sends a few bytes, so NCCL 2.22+ maps no NVLS for
        // it while 2.20 maps it with every communicator.
        Scenario megatronNvSwitch = nvSwitch;
        megatronNvSwitch.sharding = Sharding::Megatron;
        megatronNvSwitch.zeroStage = 1;
        megatronNvSwitch.dataParallel = 2;
        megatronNvSwitch.tensorParallel = 2;
        megatronNvSwitch.pipelineParallel = 2;
        QTest::newRow("NCCL release, NVLS only for a group of a few bytes") << megatronNvSwitch << "nccl"
                                                                            << "2.20" << true;
        QTest::newRow("GPUs per node, NCCL 2.22+, NVLS only for a group of a few bytes")
            << megatronNvSwitch << "gpus-per-node"
            << "4" << false;
        QTest::newRow("sharding engine, ZeRO-1: Megatron") << zero1 << "sharding"
                                                           << "megatron" << true;
        QTest::newRow("prefetch bucket, DeepSpeed ZeRO-3") << zero3 << "prefetch-bucket"
                                                           << "0" << true;
        QTest::newRow("prefetch bucket, FSDP") << fsdp << "prefetch-bucket"
                                               << "0" << false;
        QTest::newRow("prefetch bucket, ZeRO-2") << zero2 << "prefetch-bucket"
                                                 << "0" << false;
        QTest::newRow("reuse distance, DeepSpeed ZeRO-3") << zero3 << "max-reuse-distance"
                                                          << "0" << true;
        QTest::newRow("sharding engine, ZeRO-3") << zero3 << "sharding"
                                                 << "fsdp" << true;
        QTest::newRow("sharding engine, ZeRO-2") << zero2 << "sharding"
                                                 << "fsdp" << false;
        QTest::newRow("master copy, FSDP") << fsdp << "master-weights"
                                           << "no" << false;
        QTest::newRow("mixed-precision style, FSDP") << fsdp << "amp-style"
                                                     << "autocast" << false;
        QTest::newRow("master copy, mixed precision") << llama() << "master-weights"
                                                      << "no" << true;
        QTest::newRow("master copy, pure BF16") << pure << "master-weights"
                                                << "no" << false;
        QTest::newRow("master copy, autocast") << autocast << "master-weights"
                                               << "no" << false;
        QTest::newRow("mixed-precision style, mixed") << llama() << "amp-style"
                                                      << "autocast" << true;
        QTest::newRow("mixed-precision style, pure BF16") << pure << "amp-style"
                                                          << "autocast" << false;
        QTest::newRow("frozen base, full fine-tuning") << autocast << "base-dtype"
                                                       << "bf16" << false;
        QTest::newRow("frozen base, LoRA under autocast") << autocastLora << "base-dtype"
                                                          << "bf16" << true;
        QTest::newRow("frozen base, LoRA with a master copy") << lora << "base-dtype"
                                                              << "fp32" << false;
        QTest::newRow("sequence parallel, one GPU") << llama() << "sp"
                                                    << "yes" << false;
        QTest::newRow("sequence parallel, TP 8") << tensorParallel << "sp"
                                                 << "yes" << true;
        QTest::newRow("LoRA rank, full fine-tuning") << llama() << "lora-rank"
                                                     << "64" << false;
        QTest::newRow("LoRA rank, LoRA") << lora << "lora-rank"
                                         << "64" << true;
        QTest::newRow("LoRA dropout, full fine-tuning") << llama() << "lora-dropout"
                                                        << "yes" << false;
        QTest::newRow("allocator reserve, tensors alone") << tensorsAlone << "allocator-percent"
                                                          << "50" << false;
        QTest::newRow("allocator reserve, reserved") << reserved << "allocator-percent"
                                                     << "50" << true;
        QTest::newRow("CUDA context, reserved") << reserved << "cuda-context"
                                                << "1343MiB" << false;
        QTest::newRow("CUDA context, nvidia-smi") << llama() << "cuda-context"
                                                  << "1343MiB" << true;
        QTest::newRow("no-sync, FSDP, 4 micro-batches") << fsdpAccumulating << "no-sync"
                                                        << "yes" << true;
        QTest::newRow("no-sync, FSDP, one micro-batch") << fsdpOneMicroBatch << "no-sync"
                                                        << "yes" << false;
        QTest::newRow("no-sync, DeepSpeed ZeRO-3") << zero3Accumulating << "no-sync"
                                                   << "yes" << false;
        Scenario huggingFace = llama();
        huggingFace.implementation = Implementation::HuggingFace;
        QTest::newRow("per-layer RoPE tables, Hugging Face") << huggingFace << "per-layer-rope"
                                                             << "yes" << true;
        QTest::newRow("per-layer RoPE tables, Megatron") << llama() << "per-layer-rope"
                                                         << "yes" << false;
        Scenario hfFlash = huggingFace; // Llama 2 7B: as many KV heads as heads
        hfFlash.attention = Attention::Flash;
        QTest::newRow("K and V repeated, no GQA") << hfFlash << "kv-repeat"
                                                  << "yes" << false;
        hfFlash.arch.kvHeads = 8;
        QTest::newRow("K and V repeated, GQA under flash") << hfFlash << "kv-repeat"
                                                           << "yes" << true;
        Scenario hfEager = hfFlash; // eager attention repeats them anyway
        hfEager.attention = Attention::Eager;
        QTest::newRow("K and V repeated, eager attention") << hfEager << "kv-repeat"
                                                           << "yes" << false;
        Scenario hfSdpa = hfFlash;
        hfSdpa.attention = Attention::Sdpa;
        QTest::newRow("padding mask, Hugging Face's SDPA") << hfSdpa << "padding-mask"
                                                           << "yes" << true;
        QTest::newRow("padding mask, flash_attention_2") << hfFlash << "padding-mask"
                                                         << "yes" << false;
        Scenario hfLora = huggingFace;
        hfLora.fineTune = FineTune::LoRA;
        hfLora.precision = Precision::Bf16;
        QTest::newRow("FP32 adapters, LoRA in BF16") << hfLora << "adapters-fp32"
                                                     << "no" << true;
        Scenario hfQloraBf16 = hfLora; // bitsandbytes' uint8 storage: PEFT never casts the adapters
        hfQloraBf16.fineTune = FineTune::QLoRA;
        QTest::newRow("FP32 adapters, QLoRA in BF16 on one GPU") << hfQloraBf16 << "adapters-fp32"
                                                                 << "no" << false;
        Scenario hfQloraFsdp = hfQloraBf16; // FSDP's float storage: PEFT casts them to it
        hfQloraFsdp.zeroStage = 3;
        hfQloraFsdp.sharding = Sharding::Fsdp;
        hfQloraFsdp.dataParallel = 2;
        QTest::newRow("FP32 adapters, QLoRA in BF16 under FSDP") << hfQloraFsdp << "adapters-fp32"
                                                                 << "no" << true;
        Scenario hfLoraAutocast = hfLora; // autocast's adapters are FP32 anyway
        hfLoraAutocast.precision = Precision::MixedBf16;
        hfLoraAutocast.ampStyle = AmpStyle::Autocast;
        QTest::newRow("FP32 adapters, LoRA under autocast") << hfLoraAutocast << "adapters-fp32"
                                                            << "no" << false;
        QTest::newRow("FP32 adapters, full fine-tuning") << huggingFace << "adapters-fp32"
                                                         << "no" << false;
        Scenario megatronGqa = llama();
        megatronGqa.arch.kvHeads = 8;
        megatronGqa.attention = Attention::Flash;
        QTest::newRow("K and V repeated, Megatron") << megatronGqa << "kv-repeat"
                                                    << "yes" << false;
        Scenario hfQlora = huggingFace; // gate_proj and up_proj keep their input only as 4-bit layers do
        hfQlora.fineTune = FineTune::QLoRA;
        hfQlora.loraTargets = LoraQ | LoraV;
        QTest::newRow("bitsandbytes release, Hugging Face's QLoRA") << hfQlora << "bitsandbytes"
                                                                    << "0.43.1" << true;
        QTest::newRow("bitsandbytes release, LoRA") << huggingFace << "bitsandbytes"
                                                    << "0.43.1" << false;
        Scenario hfCheckpointed = huggingFace; // the reentrant checkpoint holds the recomputed layer's output
        hfCheckpointed.recompute = Recompute::Full;
        QTest::newRow("use_reentrant, Hugging Face checkpointed") << hfCheckpointed << "use-reentrant"
                                                                  << "no" << true;
        QTest::newRow("use_reentrant, Hugging Face without recomputation") << huggingFace << "use-reentrant"
                                                                           << "no" << false;
        // bitsandbytes before 0.43.2 under the non-reentrant checkpoint: every layer's 4-bit inputs
        // stay to the step's end (Scenario::fourBitInputsOutliveCheckpoint)
        Scenario hfQloraCheckpointed = hfQlora;
        hfQloraCheckpointed.recompute = Recompute::Full;
        hfQloraCheckpointed.bitsandbytes = BitsandbytesRelease::Before0_43_2;
        QTest::newRow("use_reentrant, Hugging Face's QLoRA with bitsandbytes 0.43.1, checkpointed")
            << hfQloraCheckpointed << "use-reentrant"
            << "no" << true;
        Scenario hfQloraNonReentrant = hfQlora;
        hfQloraNonReentrant.recompute = Recompute::Full;
        hfQloraNonReentrant.useReentrant = false;
        QTest::newRow("bitsandbytes release, QLoRA under the non-reentrant checkpoint")
            << hfQloraNonReentrant << "bitsandbytes"
            << "0.43.1" << true;
        Scenario megatronCheckpointed = llama();
        megatronCheckpointed.recompute = Recompute::Full;
        QTest::newRow("use_reentrant, Megatron checkpointed") << megatronCheckpointed << "use-reentrant"
                                                              << "no" << false;
        Scenario torchaoQlora = hfQlora;
        torchaoQlora.implementation = Implementation::TorchTune;
        torchaoQlora.precision = Precision::Bf16;
        torchaoQlora.attention = Attention::Sdpa;
        QTest::newRow("bitsandbytes release, torchtune's QLoRA (torchao)") << torchaoQlora << "bitsandbytes"
                                                                           << "0.43.1" << false;
        QTest::newRow("FSDP version, FSDP") << fsdpOneMicroBatch << "fsdp-version"
                                            << "1" << true;
        QTest::newRow("FSDP version, DeepSpeed ZeRO-3") << zero3Accumulating << "fsdp-version"
                                                        << "1" << false;
        QTest::newRow("CUDA kernel loading, reserved") << reserved << "cuda-loading"
                                                       << "eager" << false;
        QTest::newRow("CUDA kernel loading, nvidia-smi") << llama() << "cuda-loading"
                                                         << "eager" << true;
        Scenario titan = llama();
        titan.implementation = Implementation::TorchTitan;
        titan.attention = Attention::Sdpa;
        QTest::newRow("activation offload, torchtitan") << titan << "activation-offload"
                                                        << "yes" << true;
        QTest::newRow("activation offload, Megatron's kernels (refused)") << llama() << "activation-offload"
                                                                          << "yes" << false;
        Scenario qlora = llama();
        qlora.fineTune = FineTune::QLoRA;
        QTest::newRow("double quantization, QLoRA") << qlora << "double-quant"
                                                    << "no" << true;
        QTest::newRow("double quantization, LoRA") << lora << "double-quant"
                                                   << "no" << false;
        Scenario adam8bit = llama();
        adam8bit.optimizer = Optimizer::AdamW8bit;
        Scenario hf = llama();
        hf.implementation = Implementation::HuggingFace;
        hf.attention = Attention::Sdpa;
        QTest::newRow("optimizer in backward, Hugging Face") << hf << "optimizer-in-backward"
                                                             << "yes" << true;
        QTest::newRow("gradients kept, Hugging Face") << hf << "gradients-kept"
                                                      << "yes" << true;
        Scenario ddp = hf; // PyTorch's DDP over 8 GPUs
        ddp.dataParallel = 8;
        QTest::newRow("gradients as bucket views, DDP") << ddp << "ddp-bucket-view"
                                                        << "yes" << true;
        QTest::newRow("gradients as bucket views, one GPU") << hf << "ddp-bucket-view"
                                                            << "yes" << false;
        Scenario bucketViews = ddp;
        bucketViews.ddpBucketView = true;
        QTest::newRow("gradients kept, DDP's bucket views: kept anyway") << bucketViews << "gradients-kept"
                                                                         << "yes" << false;
        QTest::newRow("PyTorch 2.1, Hugging Face's RMSNorm") << hf << "pytorch"
                                                             << "2.1" << true;
        QTest::newRow("PyTorch 2.1, Megatron's fused norm") << llama() << "pytorch"
                                                            << "2.1" << false;
        QTest::newRow("Liger kernels, Hugging Face's Llama") << hf << "liger"
                                                             << "yes" << true;
        QTest::newRow("Liger kernels, Megatron (refused)") << llama() << "liger"
                                                           << "yes" << false;
        Scenario gpt2 = hf;
        gpt2.arch.modeling = Modeling::Gpt2;
        gpt2.arch.norm = NormKind::LayerNorm;
        gpt2.arch.mlp = MlpKind::Gelu;
        gpt2.attention = Attention::Eager;
        QTest::newRow("PyTorch 1.10, GPT-2's eager softmax") << gpt2 << "pytorch"
                                                             << "1.10" << true;
        Scenario neox = gpt2;
        neox.implementation = Implementation::LitGpt;
        neox.arch.modeling = Modeling::GptNeox;
        neox.attention = Attention::Flash;
        neox.precision = Precision::Bf16;          // lit-gpt's bf16-true
        neox.optimizerImpl = OptimizerImpl::Fused; // no foreach step for the release to change
        QTest::newRow("PyTorch 1.10, lit-gpt's GPT-NeoX block, fused AdamW") << neox << "pytorch"
                                                                             << "1.10" << false;
        Scenario foreachStep = llama(); // Megatron's layers: only the optimizer step follows the release
        foreachStep.optimizerImpl = OptimizerImpl::Foreach;
        QTest::newRow("PyTorch 2.0, foreach AdamW: √v + eps out of place") << foreachStep << "pytorch"
                                                                           << "2.0" << true;
        Scenario offloadedStep = foreachStep; // DeepSpeed's CPU Adam steps instead
        offloadedStep.zeroStage = 2;
        offloadedStep.dataParallel = 8;
        offloadedStep.sharding = Sharding::Zero;
        offloadedStep.offload = Offload::Optimizer;
        QTest::newRow("PyTorch 2.0, the optimizer offloaded to the CPU") << offloadedStep << "pytorch"
                                                                         << "2.0" << false;
        QTest::newRow("optimizer in backward, Megatron (refused)") << llama() << "optimizer-in-backward"
                                                                   << "yes" << false;
        QTest::newRow("AdamW implementation, AdamW") << llama() << "optimizer-impl"
                                                     << "foreach" << true;
        QTest::newRow("AdamW implementation, 8-bit AdamW") << adam8bit << "optimizer-impl"
                                                           << "foreach" << false;
        QTest::newRow("paged optimizer, 8-bit AdamW") << adam8bit << "paged-optimizer"
                                                      << "yes" << true;
        Scenario sharded = adam8bit;
        sharded.zeroStage = 1;
        sharded.dataParallel = 8;
        QTest::newRow("paged optimizer, ZeRO-1 (refused)") << sharded << "paged-optimizer"
                                                           << "yes" << false;
        QTest::newRow("LoRA targets, LoRA") << lora << "lora-targets"
                                            << "all,head" << true;
        QTest::newRow("LoRA targets, full fine-tuning") << llama() << "lora-targets"
                                                        << "all,head" << false;
        Scenario torchtune = llama();
        torchtune.implementation = Implementation::TorchTune;
        torchtune.precision = Precision::Bf16;
        torchtune.attention = Attention::Sdpa;
        Scenario huggingface = torchtune;
        huggingface.implementation = Implementation::HuggingFace;
        QTest::newRow("packed samples, torchtune") << torchtune << "packed"
                                                   << "yes" << true;
        QTest::newRow("packed samples, Hugging Face") << huggingface << "packed"
                                                      << "yes" << false;
        QTest::newRow("maximum positions, torchtune") << torchtune << "max-positions"
                                                      << "131072" << true;
        QTest::newRow("maximum positions, Hugging Face") << huggingface << "max-positions"
                                                         << "131072" << false;
        // torchao always quantizes its NF4 scalers: bitsandbytes' choice is not torchtune's.
        Scenario torchtuneQlora = torchtune;
        torchtuneQlora.fineTune = FineTune::QLoRA;
        torchtuneQlora.loraTargets = LoraQ | LoraV;
        QTest::newRow("double quantization, torchtune's QLoRA") << torchtuneQlora << "double-quant"
                                                                << "no" << false;
        // zero.Init decides whether the start-up holds the whole model on each GPU.
        Scenario peftZero3 = lora;
        peftZero3.implementation = Implementation::HuggingFace;
        peftZero3.zeroStage = 3;
        peftZero3.dataParallel = 8;
        QTest::newRow("zero.Init, Hugging Face's LoRA under ZeRO-3") << peftZero3 << "zero-init"
                                                                     << "no" << true;
        Scenario peftQlora = peftZero3;
        peftQlora.fineTune = FineTune::QLoRA;
        QTest::newRow("zero.Init, QLoRA: a 4-bit model is never built under it") << peftQlora << "zero-init"
                                                                                 << "no" << false;
        Scenario peftZero2 = peftZero3;
        peftZero2.zeroStage = 2;
        QTest::newRow("zero.Init, ZeRO-2: nothing partitioned") << peftZero2 << "zero-init"
                                                                << "no" << false;
        Scenario peftFsdp = peftZero3;
        peftFsdp.sharding = Sharding::Fsdp;
        QTest::newRow("zero.Init, FSDP") << peftFsdp << "zero-init"
                                         << "no" << false;
        // Hugging Face's MoE block runs its experts one by one; Megatron's counts them together.
        Scenario huggingfaceMoe = huggingface;
        huggingfaceMoe.arch.experts = 8;
        huggingfaceMoe.arch.expertsPerToken = 2;
        QTest::newRow("busiest expert, Hugging Face's MoE block") << huggingfaceMoe << "expert-load"
                                                                  << "balanced" << true;
        Scenario megatronMoe = llama();
        megatronMoe.arch.experts = 8;
        megatronMoe.arch.expertsPerToken = 2;
        QTest::newRow("busiest expert, Megatron's MoE layer") << megatronMoe << "expert-load"
                                                              << "balanced" << false;
        QTest::newRow("busiest expert, a dense model") << huggingface << "expert-load"
                                                       << "balanced" << false;
    }
    void fieldInEffectMatchesTheEstimate()
    {
        QFETCH(Scenario, scenario);
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(bool, inEffect);
        const std::string name = field.toStdString();
        QCOMPARE(fieldInEffect(scenario, name), inEffect);
        Scenario changed = scenario;
        QVERIFY(!setField(changed, name, value.toStdString()));
        const std::string_view given[] = {name}; // as a front end edits: the field, then what follows it
        changed = withEditRules(changed, scenario.arch, given);
        if (const auto error = scenarioError(changed)) { // refused outright: out of effect too, and said why
            QVERIFY2(!inEffect, error->message.c_str());
            QCOMPARE(QString::fromStdString(error->field), field);
            return;
        }
        // In effect: the sum or the step's peak moves (kept gradients move only the peak).
        const bool moves = estimate(changed).total != estimate(scenario).total
            || stepTimeline(changed).peak() != stepTimeline(scenario).peak();
        QCOMPARE(moves, inEffect);
    }

    // A LoRA target's box is greyed out exactly when the model has no such projection: adapting it
    // changes nothing.
    void loraTargetsPresentMatchTheEstimate_data()
    {
        QTest::addColumn<int>("experts");
        QTest::addColumn<int>("target");
        QTest::addColumn<bool>("present");
        QTest::newRow("a dense model's gate") << 1 << int(LoraGate) << true;
        QTest::newRow("a dense model has no router") << 1 << int(LoraRouter) << false;
        QTest::newRow("Mixtral's router") << 8 << int(LoraRouter) << true;
        QTest::newRow("Mixtral's experts' down") << 8 << int(LoraDown) << true;
    }
    void loraTargetsPresentMatchTheEstimate()
    {
        QFETCH(int, experts);
        QFETCH(int, target);
        QFETCH(bool, present);
        Scenario s = llama();
        s.implementation = Implementation::HuggingFace;
        s.arch.experts = experts;
        s.arch.expertsPerToken = std::min(experts, 2);
        s.fineTune = FineTune::LoRA;
        s.loraTargets = LoraQ;
        Scenario adapted = s;
        adapted.loraTargets |= unsigned(target);
        QVERIFY(!scenarioError(s) && !scenarioError(adapted));
        QCOMPARE((loraTargetsPresent(s.arch) & unsigned(target)) != 0, present);
        QCOMPARE(estimate(adapted).total != estimate(s).total, present);
    }

    // GPUs per node says how many GPUs' offloaded memory one node's CPU memory holds: it matters
    // with an offload only, and, on a node without NVLS (nvlsFollowsTheGpu), never to the GPU.
    void gpusPerNodeCountsTheNodesHostMemory_data()
    {
        QTest::addColumn<int>("offload");
        QTest::addColumn<int>("dataParallel");
        QTest::addColumn<int>("gpusPerNode");
        QTest::addColumn<int>("gpusOnNode");
        QTest::newRow("no offload") << int(Offload::None) << 16 << 4 << 4;
        QTest::newRow("offload, 4 of 16 GPUs a node") << int(Offload::Optimizer) << 16 << 4 << 4;
        QTest::newRow("offload, 2 GPUs in all") << int(Offload::Optimizer) << 2 << 8 << 2;
    }
    void gpusPerNodeCountsTheNodesHostMemory()
    {
        QFETCH(int, offload);
        QFETCH(int, dataParallel);
        QFETCH(int, gpusPerNode);
        QFETCH(int, gpusOnNode);
        Scenario s = llama();
        s.zeroStage = 1;
        s.dataParallel = dataParallel;
        s.offload = Offload(offload);
        QVERIFY(!scenarioError(s));
        QCOMPARE(fieldInEffect(s, "gpus-per-node"), s.offload != Offload::None);
        Scenario node = s;
        QVERIFY(!setField(node, "gpus-per-node", std::to_string(gpusPerNode)));
        QCOMPARE(node.gpusOnNode(), std::int64_t(gpusOnNode));
        QCOMPARE(estimate(node).total, estimate(s).total);
        QCOMPARE(estimate(node).host > 0, s.offload != Offload::None);
    }
};

QTEST_GUILESS_MAIN(TestEdits)
#include "tst_edits.moc"
