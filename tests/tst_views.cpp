// The structure diagram and the step timeline against core: block areas proportional to
// bytes, colours where the blocks are, the timeline's points and peak.

#include "core/analysis.h"
#include "core/edits.h"
#include "core/fields.h"
#include "litgptscenario.h"
#include "peftscenario.h"
#include "ui/assumptionsdialog.h"
#include "ui/explanationpanel.h"
#include "ui/ledgermodel.h"
#include "ui/memorychart.h"
#include "ui/plotstyle.h"
#include "ui/richlabel.h"
#include "ui/steptimelineview.h"
#include "ui/structurediagram.h"
#include "ui/sweepview.h"
#include "ui/theme.h"
#include "ui/verdictbar.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QTest>
#include <QToolTip>

#include <algorithm>

#include <qcustomplot.h>

#include <cmath>

using namespace vl;

Q_DECLARE_METATYPE(vl::Scenario)

namespace {

// A 7B model in mixed BF16 over 8 GPUs under FSDP of the given version, as `measure` reads it.
Scenario underFsdp(FsdpVersion version, Measure measure)
{
    Scenario s;
    s.zeroStage = 3;
    s.sharding = Sharding::Fsdp;
    s.fsdpVersion = version;
    s.dataParallel = 8;
    s.precision = Precision::MixedBf16;
    s.overhead.measure = measure;
    return s;
}

// A scenario of docs/scenarios, by its file's name.
ScenarioDocument example(const QString &name)
{
    QFile file(QStringLiteral(VL_EXAMPLES "/") + name + QStringLiteral(".vramledger.yaml"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("no example %s", qPrintable(name));
    const auto doc = parseScenarioDocument(file.readAll().toStdString(), name.toStdString());
    if (!doc.ok())
        qFatal("example %s does not load", qPrintable(name));
    return *doc;
}

ScenarioDocument scenario(const QString &name)
{
    const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
    ScenarioDocument doc;
    Scenario &s = doc.scenario;
    if (name == QLatin1String("article")) {
        doc = articleExampleDocument();
    } else if (name == QLatin1String("70b-zero3-64")) {
        s.arch = catalog.findModel("llama-3.1-70b")->arch;
        s.precision = Precision::MixedBf16;
        s.zeroStage = 3;
        s.dataParallel = 64;
        s.recompute = Recompute::Full;
        s.attention = Attention::Flash;
        doc.gpuIds = {"h100-sxm"};
    } else if (name == QLatin1String("7b-zero2-offload")) {
        s.arch = catalog.findModel("llama-2-7b")->arch;
        s.precision = Precision::MixedBf16;
        s.zeroStage = 2;
        s.dataParallel = 8;
        s.offload = Offload::Optimizer;
        s.attention = Attention::Flash;
        doc.gpuIds = {"a100-80gb"};
    } else if (name == QLatin1String("7b-zero2-offload-activations")) {
        doc = scenario(QStringLiteral("7b-zero2-offload"));
        doc.scenario.implementation = Implementation::HuggingFace;
        doc.scenario.attention = Attention::Sdpa;
        doc.scenario.activationOffload = true;
    } else if (name == QLatin1String("70b-qlora-zero3")) {
        // PEFT's QLoRA under ZeRO-3 on two A100s: the run's start-up is its peak.
        s.arch = catalog.findModel("llama-2-70b")->arch;
        peftQloraUnderZero3(s);
        s.microBatch = 2;
        s.sequence = 2048;
        s.recompute = Recompute::Full;
        s.attention = Attention::Flash;
        doc.gpuIds = {"a100-40gb"};
    } else {
        s.arch = catalog.findModel("gpt2")->arch;
        s.sequence = 1024;
        s.microBatch = 8;
        s.dropout = true;
        doc.gpuIds = {"rtx-4090"};
    }
    return doc;
}

// A line of the Assumptions page that only some scenarios call for: there, opening as it does and
// holding `expected`, when `expected` is given; absent otherwise.
void saysOnlyWhere(const QString &html, const QString &opening, const QString &expected)
{
    const bool said = html.contains(opening);
    QCOMPARE(said, !expected.isEmpty());
    if (said)
        QVERIFY2(html.contains(expected), qPrintable(html));
}

} // namespace

class TestViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The step timeline's peak tag keeps clear of the capacity labels: a GPU's line within a
    // label's height above the tag lifts the tag onto it (and takes its own label under it).
    void peakTagClearsCapacityLabels_data()
    {
        QTest::addColumn<double>("tagGiB");
        QTest::addColumn<double>("expectedGiB");
        // V100 16GB (15.8 GiB) and H100 SXM (79.6 GiB): a label is a twentieth of 79.6 GiB, 3.98 GiB.
        QTest::newRow("a line just above: onto it") << 15.6 << 16160.0 / 1024;
        QTest::newRow("a line a label's height above: stays") << 11.0 << 11.0;
        QTest::newRow("a line below: stays") << 20.0 << 20.0;
        QTest::newRow("the upper line just above, the lower far below: onto it") << 77.0 << 81559.0 / 1024;
    }
    void peakTagClearsCapacityLabels()
    {
        QFETCH(double, tagGiB);
        QFETCH(double, expectedGiB);
        GpuPreset v100, h100;
        v100.capacity = 16160 * kMiB;
        h100.capacity = 81559 * kMiB;
        QCOMPARE(tagClearOfCapacityLines({v100, h100}, Units::GiB, tagGiB), expectedGiB);
    }
    // The step timeline's peak tag stays inside the plot however narrow it is: over the peak,
    // shifted in from an edge, its reason on a second line where one line is wider than the plot.
    void timelinePeakTagStaysInsideThePlot_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("name");
        QTest::newRow("narrow, a peak in backward") << 420 << QStringLiteral("mixtral-8x7b-qlora-hf");
        QTest::newRow("wide, a peak in backward") << 1400 << QStringLiteral("mixtral-8x7b-qlora-hf");
        QTest::newRow("narrow, a peak at the optimizer step") << 420 << QStringLiteral("llama-3.1-70b-zero3-64");
    }
    void timelinePeakTagStaysInsideThePlot()
    {
        QFETCH(int, width);
        QFETCH(QString, name);
        StepTimelineView view;
        view.resize(width, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showAnalysis(shownFor(example(name)));
        QCoreApplication::processEvents(); // the placing queued by the resize
        const QCPItemText *tag = nullptr;
        for (int i = 0; i < view.plot()->itemCount(); ++i)
            if (const auto *text = qobject_cast<QCPItemText *>(view.plot()->item(i));
                text && text->text().startsWith(QStringLiteral("peak")))
                tag = text;
        QVERIFY(tag);
        const QRectF box(tag->topLeft->pixelPosition(), tag->bottomRight->pixelPosition());
        const QRect area = view.plot()->axisRect()->rect();
        QVERIFY2(box.left() >= area.left() && box.right() <= area.right() + 1,
                 qPrintable(QStringLiteral("the tag spans x %1–%2, the plot %3–%4 (%5)")
                                .arg(box.left())
                                .arg(box.right())
                                .arg(area.left())
                                .arg(area.right())
                                .arg(tag->text())));
        QCOMPARE(tag->text().contains(QLatin1Char('\n')), width < 1000);
    }

    // The assumptions page says which code and which mixed precision the numbers assume, with
    // every placeholder filled.
    void assumptionsNameTheChoices_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("ampStyle");
        QTest::addColumn<int>("loss");
        QTest::addColumn<QString>("expected");
        const int mixedBf16 = int(Precision::MixedBf16);
        QTest::newRow("megatron") << int(Implementation::Megatron) << mixedBf16 << int(AmpStyle::MasterCopy)
                                  << int(Loss::Standard) << "Korthikanti";
        QTest::newRow("hugging face, autocast") << int(Implementation::HuggingFace) << mixedBf16
                                                << int(AmpStyle::Autocast) << int(Loss::Standard) << "huggingface";
        QTest::newRow("lit-gpt: the foreach AdamW step's intermediates")
            << int(Implementation::LitGpt) << int(Precision::Bf16) << int(AmpStyle::MasterCopy) << int(Loss::Standard)
            << "Optimizer step: 12.6 GiB of intermediates";
        QTest::newRow("chunked loss") << int(Implementation::Megatron) << mixedBf16 << int(AmpStyle::MasterCopy)
                                      << int(Loss::Chunked)
                                      << QStringLiteral("one chunk in %1 at a time").arg(kLossChunks);
        QTest::newRow("FP8: Transformer Engine's copies")
            << int(Implementation::Megatron) << int(Precision::Fp8) << int(AmpStyle::MasterCopy) << int(Loss::Standard)
            << "FP8 copy and FP8 transpose of every linear weight";
        QTest::newRow("lit-gpt: Fabric hands back FP32 logits")
            << int(Implementation::LitGpt) << int(Precision::Bf16) << int(AmpStyle::MasterCopy) << int(Loss::Standard)
            << "Logits are kept in FP32";
    }
    void assumptionsNameTheChoices()
    {
        QFETCH(int, implementation);
        QFETCH(int, precision);
        QFETCH(int, ampStyle);
        QFETCH(int, loss);
        QFETCH(QString, expected);
        Scenario s;
        s.precision = Precision(precision);
        s.implementation = Implementation(implementation);
        s.ampStyle = AmpStyle(ampStyle);
        s.loss = Loss(loss);
        if (s.implementation == Implementation::LitGpt)
            s.attention = Attention::Flash; // flash_attn_func
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        QVERIFY2(html.contains(expected), qPrintable(html));
        QVERIFY2(!QRegularExpression(QStringLiteral("%\\d")).match(html).hasMatch(), qPrintable(html));
        if (s.ampStyle == AmpStyle::Autocast)
            QVERIFY(html.contains(QStringLiteral("autocast")));
    }

    // Padded batches: the page says what the padding mask costs and which option drops it.
    void assumptionsNamePaddedBatches_data()
    {
        QTest::addColumn<bool>("padded");
        QTest::newRow("padded batches: named") << true;
        QTest::newRow("packed batches: not named") << false;
    }
    void assumptionsNamePaddedBatches()
    {
        QFETCH(bool, padded);
        Scenario s;
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention::Sdpa;
        s.arch.kvHeads = 8;
        s.precision = Precision::Bf16;
        s.paddingMask = padded;
        QVERIFY(!scenarioError(s));
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        QCOMPARE(html.contains(QStringLiteral("--padding-mask no")), padded);
        QVERIFY2(!QRegularExpression(QStringLiteral("%\\d")).match(html).hasMatch(), qPrintable(html));
    }

    // Where eager attention is backward's widest moment, the page says that the layer's q, k, v and
    // first-norm gradients come after it, and how much that is (Llama-2-7B's shapes in FP32: 4096 ×
    // 3 × 4096 + 4096 parameters, 4 B each).
    void assumptionsNameTheAttentionMoment_data()
    {
        QTest::addColumn<int>("attention");
        QTest::addColumn<bool>("named");
        QTest::newRow("eager attention over 4096 tokens: named") << int(Attention::Eager) << true;
        QTest::newRow("flash attention: the MLP's moment, not named") << int(Attention::Flash) << false;
    }
    void assumptionsNameTheAttentionMoment()
    {
        QFETCH(int, attention);
        QFETCH(bool, named);
        Scenario s;
        s.implementation = Implementation::HuggingFace;
        s.precision = Precision::Fp32;
        s.attention = Attention(attention);
        s.arch.fixedParams = 0;
        s.sequence = 4096;
        QVERIFY(!scenarioError(s));
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        const QString amount = bytesText(4 * (4096LL * 3 * 4096 + 4096), Units::GiB);
        QCOMPARE(html.contains(QStringLiteral("holds %1 less than the layer's whole gradients").arg(amount)), named);
        QVERIFY2(!QRegularExpression(QStringLiteral("%\\d")).match(html).hasMatch(), qPrintable(html));
    }

    // What DeepSpeed ZeRO-3's parameter coordinator keeps gathered is said where DeepSpeed shards
    // the parameters, and nowhere else.
    void assumptionsNameZero3sCoordinatorOnlyUnderIt_data()
    {
        QTest::addColumn<int>("zero");
        QTest::addColumn<int>("sharding");
        QTest::addColumn<bool>("named");
        QTest::newRow("DeepSpeed ZeRO-3: named") << 3 << int(Sharding::Zero) << true;
        QTest::newRow("PyTorch FSDP: not named") << 3 << int(Sharding::Fsdp) << false;
        QTest::newRow("DeepSpeed ZeRO-2: not named") << 2 << int(Sharding::Zero) << false;
        QTest::newRow("one GPU: not named") << 0 << int(Sharding::Zero) << false;
    }
    void assumptionsNameZero3sCoordinatorOnlyUnderIt()
    {
        QFETCH(int, zero);
        QFETCH(int, sharding);
        QFETCH(bool, named);
        Scenario s;
        s.zeroStage = zero;
        s.sharding = Sharding(sharding);
        s.dataParallel = zero > 0 ? 8 : 1;
        QVERIFY(!scenarioError(s));
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        QCOMPARE(html.contains(QStringLiteral("DeepSpeed ZeRO-3 also holds gathered")), named);
    }

    // Under FSDP2 the page says when max_memory_allocated sees the all-gather output: in forward
    // only, the largest unit's (the 7B's root: embedding, head and final norm in BF16) as forward
    // begins. A reading of the reserve keeps the copy-in stream's blocks all step instead, and
    // FSDP1 gathers into its flat parameters.
    void assumptionsSayWhenTheAllGatherOutputLives_data()
    {
        QTest::addColumn<int>("measure");
        QTest::addColumn<int>("fsdpVersion");
        QTest::addColumn<bool>("named");
        QTest::newRow("FSDP2, max_memory_allocated: named")
            << int(Measure::Allocated) << int(FsdpVersion::Fsdp2) << true;
        QTest::newRow("FSDP2, max_memory_reserved: cached all step")
            << int(Measure::Reserved) << int(FsdpVersion::Fsdp2) << false;
        QTest::newRow("FSDP1, max_memory_allocated: no output")
            << int(Measure::Allocated) << int(FsdpVersion::Fsdp1) << false;
    }
    void assumptionsSayWhenTheAllGatherOutputLives()
    {
        QFETCH(int, measure);
        QFETCH(int, fsdpVersion);
        QFETCH(bool, named);
        const Scenario s = underFsdp(FsdpVersion(fsdpVersion), Measure(measure));
        QVERIFY(!scenarioError(s));
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        const QString root = bytesText((2 * 32000LL * 4096 + 4096) * 2, Units::GiB);
        QCOMPARE(html.contains(QStringLiteral("So the largest unit's, %1, is there as forward begins").arg(root)),
                 named);
        QVERIFY2(!QRegularExpression(QStringLiteral("%\\d")).match(html).hasMatch(), qPrintable(html));
    }

    // An interleaved pipeline's page says how many chunk passes the stage holds, as Megatron
    // schedules them: stage 0 of 4 with 2 chunks and 8 micro-batches, 2·3 + 1·4 + 1 = 11 of 16.
    void assumptionsExplainInterleaving()
    {
        Scenario s;
        s.pipelineParallel = 4;
        s.virtualStages = 2;
        s.gradAccum = 8;
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        QVERIFY2(html.contains(QStringLiteral("holds 11 passes of a micro-batch through one of its 2 model chunks")),
                 qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("all 16 when")), qPrintable(html));
    }

    // Megatron-LM's page says whether its rerun state machine keeps the step's micro-batches, how
    // many, and their bytes at the step's end (4 of 4096 tokens: ids, labels, loss mask and the
    // 4096 × 4096 mask each).
    void assumptionsSayWhatMegatronKeeps_data()
    {
        QTest::addColumn<bool>("kept");
        QTest::addColumn<QString>("expected");
        QTest::newRow("kept (--rerun-mode validate_results)")
            << true << QStringLiteral("4 micro-batches, 64.4 MiB by the step's end");
        QTest::newRow("freed (--rerun-mode disabled)")
            << false << QStringLiteral("Each is freed when its forward returns, but for the ids the embedding keeps");
    }
    void assumptionsSayWhatMegatronKeeps()
    {
        QFETCH(bool, kept);
        QFETCH(QString, expected);
        Scenario s;
        s.sharding = Sharding::Megatron;
        s.precision = Precision::MixedBf16;
        s.attention = Attention::Flash;
        s.sequence = 4096;
        s.gradAccum = 4;
        s.rerunKeepsBatches = kept;
        QVERIFY(!scenarioError(s));
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        QVERIFY2(html.contains(expected), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("the causal mask its data loader builds")), qPrintable(html));
    }

    // Megatron-LM's loop and rerun state machine are Megatron's: the Hugging Face Trainer also
    // holds its batch all step, and the page does not speak of Megatron there.
    void assumptionsLeaveMegatronsLoopToMegatron_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<QString>("expected");
        QTest::newRow("Megatron-LM") << int(Implementation::Megatron)
                                     << QStringLiteral("the causal mask its data loader builds");
        QTest::newRow("Hugging Face's Trainer") << int(Implementation::HuggingFace) << QString();
    }
    void assumptionsLeaveMegatronsLoopToMegatron()
    {
        QFETCH(int, implementation);
        QFETCH(QString, expected);
        Scenario s;
        s.implementation = Implementation(implementation);
        s.sharding = implementation == int(Implementation::Megatron) ? Sharding::Megatron : Sharding::Zero;
        s = withImplementationDefaults(s);
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QVERIFY(b.has(ItemId::InputBatch));
        saysOnlyWhere(assumptionsHtml(s, b, Units::GiB), QStringLiteral("Megatron-LM's loop fetches"), expected);
    }

    // An interleaved stage holds pipeline inputs after their backward: the page says how many at
    // once and their bytes; without interleaving it says nothing of them.
    void assumptionsSayWhatTheScheduleHolds_data()
    {
        QTest::addColumn<int>("vpp");
        QTest::addColumn<QString>("expected");
        QTest::newRow("interleaved, last of 4 stages, 4 micro-batches: 2 × 4096 tokens × 4096 × 2 B")
            << 2 << QStringLiteral("At most 2 such tensors beside one steady-state forward: 64.0 MiB");
        QTest::newRow("1F1B") << 1 << QString();
    }
    void assumptionsSayWhatTheScheduleHolds()
    {
        QFETCH(int, vpp);
        QFETCH(QString, expected);
        Scenario s;
        s.sharding = Sharding::Megatron;
        s.pipelineParallel = 4;
        s.virtualStages = vpp;
        s.gradAccum = 4;
        s.arch.vocab = 4'000'000; // the last stage the heaviest
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.stage, 3);
        saysOnlyWhere(assumptionsHtml(s, b, Units::GiB),
                      QStringLiteral("a pipeline input stays referenced after its backward"), expected);
    }

    // Where the allocator's blocks hold more than lit-gpt's weights, the page says so and by how
    // much; where they hold nothing more (Llama-2-7B's weights are whole multiples of 2 MiB), nothing.
    void assumptionsSayWhatTheWeightsBlocksHold_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<QString>("expected");
        QTest::newRow("Llama-2-13B: 120 MLP matrices keep 1 MiB each")
            << litgptLlama2_13bLora() << QStringLiteral("hold 120 MiB more than the weights");
        Scenario llama7b = litgptLlama2_13bLora();
        llama7b.arch = Architecture{}; // Llama-2-7B's shapes
        QTest::newRow("Llama-2-7B: none") << llama7b << QString();
    }
    void assumptionsSayWhatTheWeightsBlocksHold()
    {
        QFETCH(Scenario, scenario);
        QFETCH(QString, expected);
        QVERIFY(!scenarioError(scenario));
        saysOnlyWhere(assumptionsHtml(scenario, estimate(scenario), Units::GiB),
                      QStringLiteral("lit-gpt makes its weights on the GPU one after another"), expected);
    }

    // QLoRA under bitsandbytes before 0.43.2: the page says its 4-bit linears keep their inputs
    // through the layer's backward; not for a newer one, nor for torchtune's (torchao's) QLoRA.
    void assumptionsSayWhatBitsandbytesKeeps_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<QString>("expected");
        Scenario newer;
        peftQloraUnderZero3(newer);
        Scenario older = newer;
        older.bitsandbytes = BitsandbytesRelease::Before0_43_2;
        QTest::newRow("PEFT's QLoRA, bitsandbytes 0.43.1") << older << QStringLiteral("pull request 1270");
        QTest::newRow("PEFT's QLoRA, bitsandbytes 0.43.2 on") << newer << QString();
        Scenario lora = older;
        lora.fineTune = FineTune::LoRA;
        QTest::newRow("LoRA, no 4-bit linear") << lora << QString();
    }
    void assumptionsSayWhatBitsandbytesKeeps()
    {
        QFETCH(Scenario, scenario);
        QFETCH(QString, expected);
        QVERIFY(!scenarioError(scenario));
        saysOnlyWhere(assumptionsHtml(scenario, estimate(scenario), Units::GiB),
                      QStringLiteral("bitsandbytes 0.43.1 or older"), expected);
    }

    // Under full recomputation in Hugging Face's code the page says what the reentrant checkpoint
    // holds beside the recomputed layer, and nothing where the checkpoint is not reentrant.
    void assumptionsSayWhatTheReentrantCheckpointHolds_data()
    {
        QTest::addColumn<bool>("reentrant");
        QTest::addColumn<QString>("expected");
        QTest::newRow("reentrant: the recomputed output") << true << QStringLiteral("32.0 MiB");
        QTest::newRow("non-reentrant: nothing") << false << QString();
    }
    void assumptionsSayWhatTheReentrantCheckpointHolds()
    {
        QFETCH(bool, reentrant);
        QFETCH(QString, expected);
        Scenario s;
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention::Sdpa;
        s.precision = Precision::Bf16;
        s.recompute = Recompute::Full;
        s.useReentrant = reentrant;
        s.microBatch = 1;
        s.sequence = 4096; // 4096 tokens × 4096 × 2 B = 32 MiB
        QVERIFY(!scenarioError(s));
        saysOnlyWhere(assumptionsHtml(s, estimate(s), Units::GiB), QStringLiteral("Reentrant checkpoint"), expected);
    }

    // Under FSDP1 with the reentrant checkpoint over frozen layers the page says what the reshard
    // hook keeps through backward and what avoids it; nothing with the non-reentrant checkpoint.
    void assumptionsSayWhatFsdp1Keeps_data()
    {
        QTest::addColumn<bool>("reentrant");
        QTest::addColumn<QString>("expected");
        // (31 layers' inputs + 30 of their gradients: the 31st is the one backward starts from)
        // × 8192 tokens × 4096 × 2 B = 3.81 GiB
        QTest::newRow("reentrant: 31 layers' inputs and 30 input gradients") << true << QStringLiteral("3.81 GiB");
        QTest::newRow("non-reentrant: nothing") << false << QString();
    }
    void assumptionsSayWhatFsdp1Keeps()
    {
        QFETCH(bool, reentrant);
        QFETCH(QString, expected);
        Scenario s;
        peftLoraUnderFsdp1(s);
        s.useReentrant = reentrant;
        s.microBatch = 2;
        s.sequence = 4096;
        QVERIFY(!scenarioError(s));
        saysOnlyWhere(assumptionsHtml(s, estimate(s), Units::GiB),
                      QStringLiteral("FSDP1 with the reentrant checkpoint"), expected);
    }

    // With K and V copied to every head before the kernel the page says how much more each layer
    // keeps, and nothing where the attention takes them at the KV heads.
    void assumptionsSayWhatRepeatedKeysAndValuesAdd_data()
    {
        QTest::addColumn<bool>("repeated");
        QTest::addColumn<QString>("expected");
        // 2 (K and V) × 4096 tokens × (32 − 8) heads × 128 × 2 B = 48 MiB
        QTest::newRow("repeated: 48 MiB a layer") << true << QStringLiteral("48.0 MiB");
        QTest::newRow("at the KV heads: nothing") << false << QString();
    }
    void assumptionsSayWhatRepeatedKeysAndValuesAdd()
    {
        QFETCH(bool, repeated);
        QFETCH(QString, expected);
        Scenario s;
        s.arch.kvHeads = 8;
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention::Flash;
        s.precision = Precision::Bf16;
        s.kvRepeated = repeated;
        s.microBatch = 1;
        s.sequence = 4096;
        QVERIFY(!scenarioError(s));
        saysOnlyWhere(assumptionsHtml(s, estimate(s), Units::GiB), QStringLiteral("K and V copied to every head"),
                      expected);
    }

    // Under FSDP with several micro-batches a step, the page says what no_sync would add and
    // that the estimate leaves it out; with one micro-batch there is nothing to accumulate.
    void assumptionsNameFsdpNoSync_data()
    {
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<bool>("said");
        QTest::newRow("4 micro-batches a step") << 4 << true;
        QTest::newRow("one micro-batch a step") << 1 << false;
    }
    void assumptionsNameFsdpNoSync()
    {
        QFETCH(int, microBatches);
        QFETCH(bool, said);
        Scenario s;
        s.zeroStage = 3;
        s.sharding = Sharding::Fsdp;
        s.dataParallel = 8;
        s.precision = Precision::MixedBf16;
        s.gradAccum = microBatches;
        QVERIFY(!scenarioError(s));
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        QCOMPARE(html.contains(QStringLiteral("no_sync")), said);
        // FSDP does mixed precision itself: no master copy, yet not "none" (which the page had said).
        QVERIFY2(html.contains(QStringLiteral("Mixed precision: FSDP's MixedPrecisionPolicy")), qPrintable(html));
    }

    // The page says how the FSDP chosen gathers a layer, and on which stream its buffers are
    // cached when the reading counts the allocator's pool.
    void assumptionsNameTheFsdpVersion_data()
    {
        QTest::addColumn<int>("version");
        QTest::addColumn<QString>("gathers");
        QTest::addColumn<QString>("stream");
        QTest::newRow("FSDP2") << int(FsdpVersion::Fsdp2) << "through an all-gather buffer"
                               << "all-gather buffers on its copy-in stream";
        QTest::newRow("FSDP1") << int(FsdpVersion::Fsdp1) << "straight into its flat parameter"
                               << "casts for the all-gather on its unshard stream";
    }
    void assumptionsNameTheFsdpVersion()
    {
        QFETCH(int, version);
        QFETCH(QString, gathers);
        QFETCH(QString, stream);
        const Scenario s = underFsdp(FsdpVersion(version), Measure::Reserved);
        QVERIFY(!scenarioError(s));
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        QVERIFY2(html.contains(gathers), qPrintable(html));
        QVERIFY2(html.contains(stream), qPrintable(html));
    }

    // The page says when the gradients are alive where the code keeps them: beside the later
    // micro-batches, and between steps under FSDP1's use_orig_params.
    void assumptionsSayWhenGradientsLive_data()
    {
        QTest::addColumn<bool>("origParams");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<QString>("says");
        QTest::newRow("FSDP1, use_orig_params") << true << 1 << "stay between steps";
        QTest::newRow("FSDP1 without") << false << 1 << "zero_grad frees the flat parameters' gradients";
        QTest::newRow("four micro-batches") << false << 4 << "each backward adds into the gradients";
    }
    void assumptionsSayWhenGradientsLive()
    {
        QFETCH(bool, origParams);
        QFETCH(int, microBatches);
        QFETCH(QString, says);
        Scenario s = underFsdp(FsdpVersion::Fsdp1, Measure::Allocated);
        s.fsdpOrigParams = origParams;
        s.gradAccum = microBatches;
        QVERIFY(!scenarioError(s));
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        QVERIFY2(html.contains(says), qPrintable(html));
    }

    // The page says why a run's start-up holds the whole model, where it does.
    void assumptionsSayWhyTheStartUpHoldsTheModel_data()
    {
        QTest::addColumn<int>("fineTune");
        QTest::addColumn<bool>("zeroInit");
        QTest::addColumn<QString>("expected");
        QTest::newRow("QLoRA") << int(FineTune::QLoRA) << true << "never builds a 4-bit model under it";
        QTest::newRow("LoRA outside zero.Init") << int(FineTune::LoRA) << false << "zero.Init is off";
        QTest::newRow("LoRA under zero.Init") << int(FineTune::LoRA) << true << "";
    }
    void assumptionsSayWhyTheStartUpHoldsTheModel()
    {
        QFETCH(int, fineTune);
        QFETCH(bool, zeroInit);
        QFETCH(QString, expected);
        Scenario s;
        peftQloraUnderZero3(s);
        s.fineTune = FineTune(fineTune);
        s.zeroInit = zeroInit;
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        const QString html = assumptionsHtml(s, b, Units::GiB);
        saysOnlyWhere(html, QStringLiteral("The model is not built under DeepSpeed's zero.Init"), expected);
        if (!expected.isEmpty())
            QVERIFY2(html.contains(bytesText(stepTimeline(b).points.front().part(Component::Parameters), Units::GiB)),
                     qPrintable(html));
    }

    // torchtune's page names its RoPE cache, how packed samples keep its rows, and its QLoRA's
    // dequantization, from the breakdown's own items.
    void assumptionsNameTorchtune_data()
    {
        QTest::addColumn<qint64>("maxPositions");
        QTest::addColumn<bool>("packed");
        QTest::addColumn<int>("fineTune");
        QTest::addColumn<QString>("cache");
        QTest::addColumn<QString>("expected");
        const QString stated = QStringLiteral("cos and sin in FP32 for 4096 positions, 2.00 MiB");
        QTest::newRow("packed samples") << qint64(4096) << true << int(FineTune::Full) << stated
                                        << "gathers the cache's rows";
        QTest::newRow("unpacked") << qint64(4096) << false << int(FineTune::Full) << stated
                                  << "every layer reads a slice of the cache";
        QTest::newRow("QLoRA") << qint64(4096) << false << int(FineTune::QLoRA) << stated << "torchao's NF4Tensor";
        QTest::newRow("no maximum stated: the sequence's 4096")
            << qint64(0) << false << int(FineTune::Full)
            << "cos and sin in FP32 for the sequence's 4096 (no maximum stated) positions, 2.00 MiB"
            << "every layer reads a slice of the cache";
    }
    void assumptionsNameTorchtune()
    {
        QFETCH(qint64, maxPositions);
        QFETCH(bool, packed);
        QFETCH(int, fineTune);
        QFETCH(QString, cache);
        QFETCH(QString, expected);
        Scenario s; // 4096 tokens of 128-wide heads
        s.implementation = Implementation::TorchTune;
        s.precision = Precision::Bf16;
        s.attention = Attention::Sdpa;
        s.arch.rotaryPositions = maxPositions;
        s.packed = packed;
        s.fineTune = FineTune(fineTune);
        s.loraTargets = LoraQ | LoraV;
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const QString html = assumptionsHtml(s, estimate(s), Units::GiB);
        QVERIFY2(html.contains(cache), qPrintable(html));
        QVERIFY2(html.contains(expected), qPrintable(html));
        QVERIFY2(!QRegularExpression(QStringLiteral("%\\d")).match(html).hasMatch(), qPrintable(html));
    }

    void diagram_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("the article's 7B on one A100") << "article";
        QTest::newRow("Llama-3.1-70B, ZeRO-3 over 64") << "70b-zero3-64";
        QTest::newRow("GPT-2 on a laptop-class GPU") << "gpt2";
        QTest::newRow("Llama-2-7B, ZeRO-2 offloading the optimizer") << "7b-zero2-offload";
        QTest::newRow("the same with its activations offloaded too") << "7b-zero2-offload-activations";
        QTest::newRow("Llama-2-70B QLoRA under ZeRO-3: the peak at start-up") << "70b-qlora-zero3";
    }
    void diagram()
    {
        QFETCH(QString, name);
        const ScenarioDocument doc = scenario(name);
        const ShownPtr shown = shownFor(doc);
        const Analysis &a = shown->analysis;
        const Breakdown &b = a.breakdown;

        // Areas are proportional to bytes: each block's area, in bytes, is its component within a
        // pixel; all blocks share one shape, square in narrow cells, taller where the area allows.
        for (const QRectF &area : {QRectF(0, 0, 900, 600), QRectF(0, 0, 1500, 1000)}) {
            const DiagramLayout layout = layoutDiagram(area, b);
            QVERIFY(layout.bytesPerSquarePixel > 0);
            QCOMPARE(layout.aspect > 1.0, area.width() > 1000); // 900 wide: cells too narrow for tall blocks
            for (int c = 0; c < 4; ++c) {
                const QRectF r = layout.blocks[std::size_t(c)];
                const double expectedArea = double(b.component(Component(c))) / layout.bytesPerSquarePixel;
                QVERIFY2(
                    std::fabs(r.width() * r.height() - expectedArea) <= r.height() + 1,
                    qPrintable(QStringLiteral("%1: %2 vs %3").arg(c).arg(r.width() * r.height()).arg(expectedArea)));
                QVERIFY(std::fabs(r.height() - r.width() * layout.aspect) < 1e-6);
                QVERIFY(r.top() >= area.top() - 1e-6);
            }
            // ZeRO-Offload's CPU memory stands, dashed, where the optimizer states would: at the
            // same scale, or capped to the largest block and said to be not to scale. Offloaded
            // activations are not in it.
            const Bytes zeroHost = zeroOffloadHost(b);
            if (doc.scenario.activationOffload)
                QVERIFY(zeroHost > 0 && zeroHost < b.host);
            QCOMPARE(layout.host.isEmpty(), zeroHost == 0);
            if (zeroHost > 0) {
                QCOMPARE(b.component(Component::OptimizerStates), Bytes(0));
                const double hostArea = double(zeroHost) / layout.bytesPerSquarePixel;
                const double drawn = layout.host.width() * layout.host.height();
                QVERIFY(layout.hostToScale ? std::fabs(drawn - hostArea) <= layout.host.height() + 1
                                           : drawn < hostArea);
                QCOMPARE(layout.host.bottom(), layout.baseline);
            }
        }

        // Painted: each visible block is filled with its component's colour (its items' shades
        // share the hue), at most of nine points across it; a label may cover the others.
        StructureDiagram diagram;
        diagram.resize(900, 600);
        diagram.showAnalysis(shown);
        const QImage image = diagram.grab().toImage();
        const DiagramLayout layout = diagram.currentLayout();
        for (int c = 0; c < 4; ++c) {
            const QRectF r = layout.blocks[std::size_t(c)];
            if (r.width() < 12)
                continue;
            int inColour = 0;
            for (double fx : {0.25, 0.5, 0.75})
                for (double fy : {0.25, 0.5, 0.75}) {
                    const QColor pixel = image.pixelColor(
                        QPointF(r.left() + fx * r.width(), r.top() + fy * r.height()).toPoint());
                    const int hueGap = std::abs(pixel.hslHue() - componentColor(Component(c)).hslHue());
                    inColour += pixel.hslSaturation() > 0 && std::min(hueGap, 360 - hueGap) <= 12;
                }
            QVERIFY2(inColour >= 5,
                     qPrintable(QStringLiteral("component %1: %2 of 9 points in its colour").arg(c).arg(inColour)));
        }
    }

    // Hovering ZeRO-Offload's CPU-memory block lists what lives there, each item with its formula.
    void hoveringCpuMemoryListsItsItems()
    {
        StructureDiagram diagram;
        diagram.resize(900, 600);
        diagram.showAnalysis(shownFor(scenario(QStringLiteral("7b-zero2-offload"))));
        diagram.show();
        QVERIFY(QTest::qWaitForWindowExposed(&diagram));
        const QRectF host = diagram.currentLayout().host;
        QVERIFY(!host.isEmpty());
        QTest::mouseMove(&diagram, host.center().toPoint());
        QTRY_VERIFY(QToolTip::isVisible());
        const QString tip = QToolTip::text();
        for (ItemId id : {ItemId::MasterWeights, ItemId::OptimizerMoments, ItemId::OffloadFp32Gradients,
                          ItemId::OffloadParamBuffer, ItemId::OffloadHostGradientBuffer})
            QVERIFY2(tip.contains(itemName(id)), qPrintable(tip));
        QVERIFY2(!tip.contains(itemName(ItemId::Weights)), qPrintable(tip)); // on the GPU
    }

    void chartPaintsBarsOverTheBackground_data()
    {
        QTest::addColumn<Theme>("theme");
        QTest::newRow("light") << Theme::Light;
        QTest::newRow("dark") << Theme::Dark;
    }
    void chartPaintsBarsOverTheBackground()
    {
        // The chart paints itself straight onto the window (no paint buffer): what reaches
        // the screen must be the bars in their colours, over the theme's background.
        QFETCH(Theme, theme);
        const ScenarioDocument doc = scenario(QStringLiteral("article"));
        const ShownPtr shown = shownFor(doc);
        MemoryChart chart;
        chart.setPalette(palette(theme));
        chart.resize(900, 600);
        chart.showAnalysis(shown);
        const QImage image = chart.grab().toImage(); // lays the plot out as it paints
        QCustomPlot *plot = chart.plot();
        const int bar = chart.barCount() - 1;
        // Off the centre line, where each part's size label is written.
        const double x = plot->xAxis->coordToPixel(bar + 1 - 0.25);
        double below = 0;
        for (Component c :
             {Component::Parameters, Component::Gradients, Component::OptimizerStates, Component::Activations}) {
            const double value = chart.barValue(bar, c);
            const QPoint centre(int(x), int(plot->yAxis->coordToPixel(below + value / 2)));
            below += value;
            QCOMPARE(image.pixelColor(centre).rgb(), componentColor(c).rgb());
        }
        below += chart.barValue(bar, Component::Overhead); // drawn lighter, on top
        const QPoint aboveTheBar(int(x), int(plot->yAxis->coordToPixel(below)) - 12);
        QCOMPARE(image.pixelColor(aboveTheBar).rgb(), palette(theme).color(QPalette::Base).rgb());
    }

    // A narrow chart wraps its legend to further rows rather than clip an entry.
    void legendEntriesAreWhole_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("oneRow");
        QTest::newRow("narrow: 380 px, wrapped") << 380 << false;
        QTest::newRow("wide: 1400 px, one row") << 1400 << true;
    }
    void legendEntriesAreWhole()
    {
        QFETCH(int, width);
        QFETCH(bool, oneRow);
        MemoryChart chart;
        chart.resize(width, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.showAnalysis(shownFor(scenario(QStringLiteral("article"))));
        QCoreApplication::processEvents(); // the rebuild queued by the resize
        const QCPLegend *legend = chart.plot()->legend;
        int entries = 0;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (const QCPAbstractLegendItem *entry = legend->item(i)) {
                ++entries;
                QVERIFY2(entry->outerRect().width() >= entry->minimumOuterSizeHint().width(),
                         qPrintable(QStringLiteral("entry %1: %2 px of %3")
                                        .arg(i)
                                        .arg(entry->outerRect().width())
                                        .arg(entry->minimumOuterSizeHint().width())));
            }
        QCOMPARE(entries, kComponentCount); // the article's scenario holds all five
        QCOMPARE(legend->rowCount() == 1, oneRow);
    }

    // A bar's total never prints over a capacity line's label: with a long-named GPU whose line
    // runs just above the bar, the label names the peak alone where "peak · sum" would reach it,
    // and is left out where even that would.
    // A block's title never runs wider than its cell: name and size on one line where they fit,
    // else on two, and a name wider than the cell broken at its words (seen at 1024 × 640:
    // "Optimizer states" clipped at both ends).
    void captionTitleFitsItsCell_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("ems"); // the cell's width in the font's "M"s
        QTest::addColumn<int>("lines");
        QTest::newRow("wide: one line") << "Optimizer states" << 30.0 << 1;
        QTest::newRow("narrower: name above size") << "Optimizer states" << 12.0 << 2;
        QTest::newRow("narrow: the name broken in two") << "Optimizer states" << 7.0 << 3;
        QTest::newRow("a single word stays whole") << "Activations" << 4.0 << 2;
        QTest::newRow("Chinese, narrow") << QStringLiteral("优化器状态") << 6.0 << 2;
        QTest::newRow("Chinese, narrower: broken between characters") << QStringLiteral("优化器状态") << 3.0 << 4;
    }
    void captionTitleFitsItsCell()
    {
        QFETCH(QString, name);
        QFETCH(double, ems);
        QFETCH(int, lines);
        QFont font;
        font.setBold(true);
        const QFontMetricsF metrics(font);
        const double width = ems * metrics.horizontalAdvance(QLatin1Char('M'));
        const QString size = QStringLiteral("78.2 GiB");
        const QString title = captionTitle(font, name, size, width);
        const QStringList shown = title.split(QLatin1Char('\n'));
        QCOMPARE(shown.size(), lines);
        // What cannot be broken may overrun: a Latin word of the name wider than the cell, or the
        // size. Chinese breaks between any two characters.
        const bool latin = name.front().script() == QChar::Script_Latin;
        for (const QString &line : shown)
            QVERIFY2(metrics.horizontalAdvance(line) <= width || (latin && !line.contains(QLatin1Char(' ')))
                         || line == size,
                     qPrintable(line));
        const QString separator = latin ? QStringLiteral(" ") : QString();
        const QStringList nameLines = shown.mid(0, shown.size() - (shown.size() > 1 ? 1 : 0));
        QCOMPARE(shown.size() > 1 ? nameLines.join(separator) + QLatin1Char(' ') + shown.back()
                                  : QString(title).remove(QStringLiteral("· ")),
                 name + QLatin1Char(' ') + size);
    }

    void barTotalsClearCapacityLabels_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("narrow: 520 px") << 520;
        QTest::newRow("wide: 1400 px") << 1400;
    }
    void barTotalsClearCapacityLabels()
    {
        QFETCH(int, width);
        ScenarioDocument doc = scenario(QStringLiteral("article"));
        doc.pins.clear(); // one bar, as wide as the chart allows
        const Bar bar = shownFor(doc)->analysis.bars.front();
        QVERIFY(bar.required < bar.breakdown.total); // the label would name both
        const GpuPreset tight = customGpu("A GPU with a long product name",
                                          bar.breakdown.total + bar.breakdown.total / 50);
        MemoryChart chart;
        chart.resize(width, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.showAnalysis(shownFor(doc, {tight}));
        QCoreApplication::processEvents(); // the rebuild queued by the resize
        QList<QRectF> capacityLabels, barLabels;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (const auto *tag = qobject_cast<QCPItemText *>(chart.plot()->item(i)))
                (tag->position->typeX() == QCPItemPosition::ptAxisRectRatio ? capacityLabels : barLabels)
                    << QRectF(tag->topLeft->pixelPosition(), tag->bottomRight->pixelPosition());
        QCOMPARE(capacityLabels.size(), 1);
        QVERIFY(!barLabels.isEmpty());
        for (const QRectF &label : barLabels)
            QVERIFY2(!label.intersects(capacityLabels.front()),
                     qPrintable(QStringLiteral("a bar label at x %1–%2 meets the capacity label at x %3–%4")
                                    .arg(label.left())
                                    .arg(label.right())
                                    .arg(capacityLabels.front().left())
                                    .arg(capacityLabels.front().right())));
    }

    // On a narrow chart the bars' names wrap at spaces, each line within its bar's share of the
    // axis, so that neighbouring names never run into each other.
    void barNamesFitTheirSlots()
    {
        MemoryChart chart;
        chart.resize(520, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const GpuPreset a100 = *loadCatalog(VL_SOURCE_PRESETS, {}).findGpu("a100-80gb"); // names gain ✓ or ✗
        chart.showAnalysis(shownFor(scenario(QStringLiteral("article")), {a100}));
        QCoreApplication::processEvents(); // the rebuild queued by the resize
        const QCPAxis *axis = chart.plot()->xAxis;
        const auto ticker = qSharedPointerCast<QCPAxisTickerText>(axis->ticker());
        const QMap<double, QString> ticks = ticker->ticks();
        QVERIFY(ticks.size() >= 3);
        const QFontMetrics metrics(axis->tickLabelFont());
        const double slot = chart.plot()->axisRect()->width() / double(ticks.size());
        bool wrappedOne = false;
        for (const QString &label : ticks) {
            const QStringList lines = label.split(QLatin1Char('\n'));
            wrappedOne = wrappedOne || lines.size() > 1;
            for (const QString &line : lines)
                QVERIFY2(metrics.horizontalAdvance(line) <= slot || !line.contains(QLatin1Char(' ')),
                         qPrintable(QStringLiteral("'%1' is wider than %2 px").arg(line).arg(slot)));
        }
        QVERIFY(wrappedOne); // "AMP as printed (no master copy) ✗" cannot stand on one line here
    }

    // Each bar carries its total, with the step's peak the verdict compares where that is lower
    // (a dashed line across the bar marks it), and each part its size where the part can hold the
    // text.
    void barsAreLabelled()
    {
        const ScenarioDocument doc = scenario(QStringLiteral("article"));
        const ShownPtr shown = shownFor(doc);
        const Analysis &a = shown->analysis;
        MemoryChart chart;
        chart.resize(1200, 800);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.showAnalysis(shown);
        QStringList texts;
        QTRY_VERIFY([&] {
            texts.clear();
            for (int i = 0; i < chart.plot()->itemCount(); ++i)
                if (auto *text = qobject_cast<QCPItemText *>(chart.plot()->item(i)))
                    texts << text->text();
            return !texts.isEmpty();
        }());
        int peakLines = 0;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            peakLines += qobject_cast<QCPItemLine *>(chart.plot()->item(i)) != nullptr;
        int peaksBelow = 0;
        for (const Bar &bar : a.bars) {
            const QString total = bytesText(bar.breakdown.total, Units::GiB);
            const QString peak = bytesText(bar.required, Units::GiB);
            const bool below = bar.required < bar.breakdown.total;
            peaksBelow += below;
            QVERIFY2(std::any_of(
                         texts.begin(), texts.end(),
                         [&](const QString &t) { return below ? t.contains(total) && t.contains(peak) : t == total; }),
                     qPrintable(texts.join(QLatin1Char('|'))));
            // The article's 7B: every one of the four parts is at least 13 GiB, tall enough here.
            for (Component c :
                 {Component::Parameters, Component::Gradients, Component::OptimizerStates, Component::Activations})
                QVERIFY2(texts.contains(bytesText(bar.breakdown.component(c), Units::GiB)),
                         qPrintable(texts.join(QLatin1Char('|'))));
        }
        QVERIFY(peaksBelow > 0); // the article's bars hold buffers that never live at once
        QCOMPARE(peakLines, peaksBelow);
    }

    // A part's size label keeps clear of its bar's dashed peak line, as of the capacity lines: it
    // moves towards an end of the part, or is left out where the part has no room. PEFT's QLoRA
    // under FSDP1 (docs/scenarios): the peak falls a little above the middle of the overhead's part.
    void partLabelsClearThePeakLine_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("large") << QSize(1600, 1000);
        QTest::newRow("small") << QSize(700, 450);
    }
    void partLabelsClearThePeakLine()
    {
        QFETCH(QSize, size);
        const ShownPtr shown = shownFor(example(QStringLiteral("llama-2-70b-qlora-fsdp-peft")));
        const Bar &bar = shown->analysis.bars.front();
        QVERIFY(bar.required < bar.breakdown.total); // a peak line is drawn
        const Bytes overheadFrom = bar.breakdown.total - bar.breakdown.component(Component::Overhead);
        QVERIFY(bar.required > overheadFrom); // it crosses the overhead's part
        MemoryChart chart;
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.showAnalysis(shown);
        QCoreApplication::processEvents(); // the rebuild queued by the resize
        QList<double> lines;
        QList<QRectF> parts;
        for (int i = 0; i < chart.plot()->itemCount(); ++i) {
            if (const auto *line = qobject_cast<QCPItemLine *>(chart.plot()->item(i)))
                lines << line->start->pixelPosition().y();
            if (const auto *tag = qobject_cast<QCPItemText *>(chart.plot()->item(i)))
                for (Component c : kComponents)
                    if (tag->text() == bytesText(bar.breakdown.component(c), Units::GiB))
                        parts << QRectF(tag->topLeft->pixelPosition(), tag->bottomRight->pixelPosition());
        }
        QCOMPARE(lines.size(), 1);
        QVERIFY(!parts.isEmpty());
        for (const QRectF &part : parts)
            QVERIFY2(part.top() > lines.front() || part.bottom() < lines.front(),
                     qPrintable(QStringLiteral("a part label at y %1–%2 meets the peak line at y %3")
                                    .arg(part.top())
                                    .arg(part.bottom())
                                    .arg(lines.front())));
    }

    // Walking through the step: the arrow keys move the cursor point by point, Play advances it
    // on its own and stops at the optimizer step, and the text says where it is and what is held.
    void timelineWalksThroughTheStep()
    {
        const ScenarioDocument doc = scenario(QStringLiteral("article"));
        const ShownPtr shown = shownFor(doc);
        const Analysis &a = shown->analysis;
        StepTimelineView view;
        view.resize(900, 600);
        view.showAnalysis(shown);
        QCOMPARE(view.cursor(), 0);
        QVERIFY2(view.cursorText().contains(QStringLiteral("before the step")), qPrintable(view.cursorText()));
        QTest::keyClick(&view, Qt::Key_Right);
        QCOMPARE(view.cursor(), 1);
        QVERIFY2(view.cursorText().startsWith(QStringLiteral("forward, layer 1:")), qPrintable(view.cursorText()));
        QTest::keyClick(&view, Qt::Key_Left);
        QTest::keyClick(&view, Qt::Key_Left); // not before the start
        QCOMPARE(view.cursor(), 0);
        const int loss = int(std::find_if(a.timeline.points.begin(), a.timeline.points.end(),
                                          [](const TimelinePoint &p) { return p.phase == StepPhase::Loss; })
                             - a.timeline.points.begin());
        view.setCursor(loss);
        QVERIFY2(view.cursorText().contains(bytesText(a.timeline.points[std::size_t(loss)].inUse, Units::GiB)),
                 qPrintable(view.cursorText()));
        view.togglePlay();
        QVERIFY(view.playing());
        QTRY_VERIFY_WITH_TIMEOUT(!view.playing(), 20'000); // it stops by itself at the end
        QCOMPARE(view.cursor(), int(a.timeline.points.size()) - 1);
        QVERIFY2(view.cursorText().startsWith(QStringLiteral("the optimizer step")), qPrintable(view.cursorText()));
    }

    // Labels beside a block never overlap one another and never reach below the block (its title):
    // each stays at its slice where it can and otherwise moves up, never down.
    void labelsBesideABlockNeverOverlap_data()
    {
        QTest::addColumn<QList<double>>("wanted");
        QTest::addColumn<QList<double>>("expected");
        QTest::newRow("spaced: where their slices are") << QList<double>{10, 40, 70} << QList<double>{10, 40, 70};
        QTest::newRow("the thin slices at the bottom push each other up")
            << QList<double>{20, 98, 99, 99.5} << QList<double>{20, 62.5, 77.5, 92.5};
        QTest::newRow("one over the bottom comes back above it") << QList<double>{104} << QList<double>{92.5};
        QTest::newRow("none") << QList<double>{} << QList<double>{};
    }
    void labelsBesideABlockNeverOverlap()
    {
        QFETCH(QList<double>, wanted);
        QFETCH(QList<double>, expected);
        constexpr double line = 15, bottom = 100;
        const QList<double> placed = stackLabels(wanted, line, bottom);
        QCOMPARE(placed, expected);
        for (qsizetype i = 0; i < placed.size(); ++i) {
            QVERIFY(placed[i] <= wanted[i]);
            QVERIFY(placed[i] + line / 2 <= bottom);
            if (i > 0)
                QVERIFY(placed[i] - placed[i - 1] >= line);
        }
    }

    void solidFillLooksLikeTheTranslucentOne_data()
    {
        QTest::addColumn<QColor>("translucent");
        QTest::addColumn<QColor>("background");
        QTest::newRow("timeline area, light")
            << QColor(204, 121, 167, 60) << palette(Theme::Light).color(QPalette::Base);
        QTest::newRow("timeline area, dark") << QColor(204, 121, 167, 60) << palette(Theme::Dark).color(QPalette::Base);
        QTest::newRow("sweep band, dark") << QColor(230, 159, 0, 190) << palette(Theme::Dark).color(QPalette::Base);
        QTest::newRow("opaque stays itself") << QColor(0, 114, 178) << QColor(Qt::white);
    }
    void solidFillLooksLikeTheTranslucentOne()
    {
        // Areas are painted in seenOver's solid colour because it is cheaper: it must be the
        // colour Qt showed when it blended the translucent one over the background.
        QFETCH(QColor, translucent);
        QFETCH(QColor, background);
        QImage blended(4, 4, QImage::Format_RGB32);
        blended.fill(background);
        QPainter(&blended).fillRect(blended.rect(), translucent);
        const QColor shown = blended.pixelColor(1, 1);
        const QColor solid = seenOver(translucent, background);
        QCOMPARE(solid.alpha(), 255);
        for (auto channel : {&QColor::red, &QColor::green, &QColor::blue})
            QVERIFY2(std::abs((solid.*channel)() - (shown.*channel)()) <= 1,
                     qPrintable(QStringLiteral("%1 vs %2").arg(solid.name(), shown.name())));
    }

    void verdictGrowsWithItsFont_data()
    {
        QTest::addColumn<double>("zoom");
        QTest::newRow("as is") << 1.0;
        QTest::newRow("presentation, 1.5×") << 1.5;
        QTest::newRow("presentation, 2×") << 2.0;
    }
    void verdictGrowsWithItsFont()
    {
        // Found by looking: in presentation mode the second line lost its descenders, the
        // bar kept the height of the smaller font.
        QFETCH(double, zoom);
        const ScenarioDocument doc = scenario(QStringLiteral("article"));
        const ShownPtr shown = shownFor(doc);
        VerdictBar bar;
        bar.showAnalysis(shown);
        QFont font = bar.font();
        font.setPointSizeF(font.pointSizeF() * zoom);
        bar.setFont(font);
        const int lines = int(bar.text().count(QLatin1Char('\n'))) + 1;
        QVERIFY(lines >= 2);
        QVERIFY2(bar.height() >= lines * QFontMetrics(font).lineSpacing(),
                 qPrintable(QStringLiteral("%1 px for %2 lines of %3 px")
                                .arg(bar.height())
                                .arg(lines)
                                .arg(QFontMetrics(font).lineSpacing())));
    }

    // Where the run's start-up is the peak, the levers' line says so, and what would avoid it where
    // anything can (a model built under zero.Init); elsewhere the levers are listed as before.
    void leversSayWhenTheStartUpIsThePeak_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("zeroInit");
        QTest::addColumn<QString>("expected");
        QTest::newRow("QLoRA under ZeRO-3: nothing avoids it") << "70b-qlora-zero3" << true << "4-bit model";
        QTest::newRow("LoRA outside zero.Init: build it under zero.Init")
            << "70b-qlora-zero3" << false << "Built under zero.Init";
        QTest::newRow("the article's 7B: the levers") << "article" << true << "";
    }
    void leversSayWhenTheStartUpIsThePeak()
    {
        QFETCH(QString, name);
        QFETCH(bool, zeroInit);
        QFETCH(QString, expected);
        ScenarioDocument doc = scenario(name);
        if (!zeroInit) {
            doc.scenario.fineTune = FineTune::LoRA;
            doc.scenario.zeroInit = false;
        }
        const ShownPtr shown = shownFor(doc, {*loadCatalog(VL_SOURCE_PRESETS, {}).findGpu("a100-40gb")});
        ExplanationPanel panel;
        panel.showAnalysis(shown);
        const QString text = panel.findChild<RichLabel *>()->text();
        QCOMPARE(text.contains(QStringLiteral("start-up")), !expected.isEmpty());
        QCOMPARE(shown->analysis.timeline.peakAtStartUp(), !expected.isEmpty());
        if (!expected.isEmpty())
            QVERIFY2(text.contains(expected), qPrintable(text));
        else
            QVERIFY2(!shown->analysis.levers.empty(), qPrintable(text));
    }

    // The levers wrap at the panel's width and the label grows to hold every line (at 1024 × 640 a
    // lever's "saves 4.44 GiB" ran past the window's edge): the label is at least as tall as Qt's
    // own word-wrapped label would be for its text and width.
    void leversWrapWithinThePanel_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("wraps");
        QTest::newRow("narrow: 300 px, the levers wrap") << 300 << true;
        QTest::newRow("wide: 1600 px, a line each") << 1600 << false;
    }
    void leversWrapWithinThePanel()
    {
        QFETCH(int, width);
        QFETCH(bool, wraps);
        ExplanationPanel panel;
        panel.resize(width, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.showAnalysis(shownFor(scenario(QStringLiteral("article"))));
        QCoreApplication::processEvents(); // the height fitted to the text reaches the layout
        const RichLabel *levers = panel.findChild<RichLabel *>();
        QLabel probe;
        probe.setTextFormat(Qt::RichText);
        probe.setWordWrap(true);
        probe.setMargin(levers->margin());
        probe.setFont(levers->font());
        probe.setText(levers->text());
        const int needed = probe.heightForWidth(levers->width());
        QVERIFY2(levers->height() >= needed,
                 qPrintable(QStringLiteral("%1 px tall for %2 px of text").arg(levers->height()).arg(needed)));
        QCOMPARE(levers->width(), width); // it never widens the panel
        const int lines = int(levers->text().count(QStringLiteral("<br>"))) + 1;
        QCOMPARE(needed > (lines + 1) * levers->fontMetrics().lineSpacing(), wraps);
    }

    void smallBlocksStayLabelled()
    {
        // ZeRO paper scale: a 1.9 GB slice next to a much bigger block is still drawn and named.
        const ScenarioDocument doc = scenario(QStringLiteral("70b-zero3-64"));
        const ShownPtr shown = shownFor(doc);
        StructureDiagram diagram;
        diagram.resize(720, 480);
        diagram.showAnalysis(shown);
        for (int c = 0; c < 4; ++c)
            QVERIFY(!diagram.currentLayout().blocks[std::size_t(c)].isEmpty());
    }

    void sweepViewEqualsCore_data()
    {
        QTest::addColumn<QString>("field");
        QTest::newRow("batch") << "batch";
        QTest::newRow("sequence") << "seq";
        QTest::newRow("GPU count") << "dp";
    }
    void sweepViewEqualsCore()
    {
        QFETCH(QString, field);
        LedgerModel model(loadCatalog(VL_SOURCE_PRESETS, {}));
        model.setDocument(scenario(QStringLiteral("70b-zero3-64")));
        SweepView view;
        view.showAnalysis(model.shown());
        view.resize(900, 600);
        view.setField(field);
        QVERIFY(!view.points().empty());
        const FieldSpec *spec = findField(field.toStdString());
        for (const SweepPoint &p : view.points()) {
            Scenario at = model.scenario();
            spec->integer(at) = p.value;
            QCOMPARE(p.breakdown.total, estimate(at).total);
        }
        QVERIFY(view.crossing());
        const Bytes h100 = model.selectedGpus().front().capacity;
        if (field == QLatin1String("batch"))
            QCOMPARE(*view.crossing(), maxMicroBatch(model.scenario(), h100));
        else if (field == QLatin1String("seq"))
            QCOMPARE(*view.crossing(), maxSequence(model.scenario(), h100));
        else
            QCOMPARE(*view.crossing() + 1, minDataParallel(model.scenario(), h100));
    }

    // The walk row says where the cursor is in one line; a long line (every component named,
    // a GPU with ZeRO-Offload's host memory) ends in an ellipsis instead of widening the window:
    // at 1024 × 640 it had held the window at 1295 pixels.
    void timelineWalkRowNeverWidensTheWindow()
    {
        StepTimelineView empty;
        StepTimelineView shown;
        shown.showAnalysis(shownFor(scenario(QStringLiteral("70b-zero3-64"))));
        QVERIFY(shown.cursorText().size() > 60);
        QCOMPARE(shown.minimumSizeHint().width(), empty.minimumSizeHint().width());
    }

    void timelineEqualsCore_data() { diagram_data(); }
    void timelineEqualsCore()
    {
        QFETCH(QString, name);
        const ScenarioDocument doc = scenario(name);
        const ShownPtr shown = shownFor(doc);
        const Analysis &a = shown->analysis;
        StepTimelineView view;
        view.showAnalysis(shown);
        const QVector<double> values = view.plottedValues();
        QCOMPARE(values.size(), qsizetype(a.timeline.points.size()));
        double peak = 0;
        for (int i = 0; i < values.size(); ++i) {
            QCOMPARE(values[i], toUnits(a.timeline.points[std::size_t(i)].inUse, Units::GiB));
            peak = std::max(peak, values[i]);
        }
        QCOMPARE(peak, toUnits(a.timeline.peak(), Units::GiB));
        // The optimizer step: the model states, the step's own intermediates and DeepSpeed's FP32
        // gradients for it, and what stays all step: DeepSpeed ZeRO-3's bucket, ZeRO-Offload's
        // staging buffer and the runtime overhead, but the logits' freed block, held while the
        // loss's backward runs; and the batch the training loop holds (the Trainer's).
        const Bytes persistent = (a.breakdown.bucketPersists ? a.breakdown.item(ItemId::ZeroReduceBucket) : 0)
            + a.breakdown.item(ItemId::OffloadGradientBuffer) + a.breakdown.component(Component::Overhead)
            - a.breakdown.item(ItemId::FreedLogitsBlock) + a.breakdown.item(ItemId::OptimizerStepBuffer)
            + a.breakdown.item(ItemId::ZeroFp32Gradients) + a.breakdown.batchesKeptAtStepEnd();
        QCOMPARE(values.back(), toUnits(a.breakdown.modelStates() + persistent, Units::GiB));

        // The peak's tag stands on the sum line (never below it, where it would cross the line)
        // and its bottom edge is the line: drawn, it sits just above.
        const double sum = toUnits(a.breakdown.total, Units::GiB);
        int tags = 0;
        for (int i = 0; i < view.plot()->itemCount(); ++i) {
            const auto *tag = qobject_cast<QCPItemText *>(view.plot()->item(i));
            if (!tag || !tag->text().startsWith(QStringLiteral("peak")))
                continue;
            ++tags;
            QCOMPARE(tag->position->value(), sum);
            QVERIFY(tag->positionAlignment().testFlag(Qt::AlignBottom));
        }
        QCOMPARE(tags, 1);
    }
};

QTEST_MAIN(TestViews)
#include "tst_views.moc"
