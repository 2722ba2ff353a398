// The main window end to end: each of the five named sliders drives the chart through core,
// and the verdict flips when a capacity line is crossed.

#include "core/edits.h"
#include "core/estimate.h"
#include "core/fields.h"
#include "core/solve.h"
#include "core/timeline.h"
#include "hubfixture.h"
#include "ui/chartpanel.h"
#include "ui/controlpanel.h"
#include "ui/customgpudialog.h"
#include "ui/explanationpanel.h"
#include "ui/language.h"
#include "ui/ledgermodel.h"
#include "ui/mainwindow.h"
#include "ui/memorychart.h"
#include "ui/settings.h"
#include "ui/sliderspin.h"
#include "ui/steptimelineview.h"
#include "ui/structurediagram.h"
#include "ui/theme.h"
#include "ui/verdictbar.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include <algorithm>

using namespace vl;

class TestMainWindow : public QObject {
    Q_OBJECT
    std::unique_ptr<LedgerModel> m_model;
    std::unique_ptr<Language> m_language;
    std::unique_ptr<MainWindow> m_window;

    void checkChartMatchesCore()
    {
        const MemoryChart *chart = m_window->chartPanel()->chart();
        const Breakdown b = estimate(m_model->scenario());
        const int current = chart->barCount() - 1; // the current scenario is the last bar after the pins
        for (int c = 0; c < kComponentCount; ++c)
            QCOMPARE(chart->barValue(current, Component(c)), toUnits(b.component(Component(c)), Units::GiB));
    }

    QAction *undoAction() const
    {
        for (QAction *a : m_window->findChildren<QAction *>())
            if (a->shortcut() == QKeySequence(QKeySequence::Undo))
                return a;
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings and user presets in a throwaway place
    }

    void init()
    {
        m_model = std::make_unique<LedgerModel>(loadCatalog(VL_SOURCE_PRESETS, {}));
        m_language = std::make_unique<Language>();
        m_window = std::make_unique<MainWindow>(*m_model, *m_language);
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void firstLaunchShowsTheArticle()
    {
        // The article's 7B in mixed precision on an A100 80GB, beside its FP32 and "as printed" columns.
        QCOMPARE(m_model->scenario().arch.fixedParams, std::int64_t(7'000'000'000));
        QCOMPARE(m_model->gpuIds(), QStringList{QStringLiteral("a100-80gb")});
        const MemoryChart *chart = m_window->chartPanel()->chart();
        QCOMPARE(chart->barCount(), 3);
        const auto gb = [](double gib) { return gib * double(kGiB) / 1e9; };
        QCOMPARE(qRound(gb(chart->barValue(0, Component::OptimizerStates))), 56); // FP32: 56 GB of Adam states
        QCOMPARE(qRound(gb(chart->barValue(1, Component::OptimizerStates))), 56); // AMP as printed: still 56
        QCOMPARE(qRound(gb(chart->barValue(2, Component::OptimizerStates))), 84); // with the master copy: 84
        QCOMPARE(chart->capacityLines(), QList<double>{81920.0 / 1024.0});
        checkChartMatchesCore();
    }

    // The first GPU checked is the one the run is checked against: its compute capability, which
    // sizes cuBLAS's workspaces, follows it (core's withGpu, as the CLI's --gpu); another GPU
    // checked beside it leaves it.
    void theFirstGpuBringsItsComputeCapability_data()
    {
        QTest::addColumn<QStringList>("gpus");
        QTest::addColumn<int>("capability");
        QTest::newRow("the article's A100") << QStringList{QStringLiteral("a100-80gb")} << 8;
        QTest::newRow("an H100 first") << QStringList{QStringLiteral("h100-sxm"), QStringLiteral("a100-80gb")} << 9;
        QTest::newRow("a T4 beside the A100") << QStringList{QStringLiteral("a100-80gb"), QStringLiteral("t4")} << 8;
        QTest::newRow("AMD's, no NVIDIA number: unchanged") << QStringList{QStringLiteral("mi300x")} << 8;
    }
    void theFirstGpuBringsItsComputeCapability()
    {
        QFETCH(QStringList, gpus);
        QFETCH(int, capability);
        m_model->setGpuIds(gpus);
        QCOMPARE(m_model->scenario().overhead.computeCapability, std::int64_t(capability));
        QCOMPARE(m_window->findChild<QComboBox *>(QStringLiteral("compute-capability"))->currentData().toInt(),
                 capability);
    }

    // The verdict has a line for each GPU; beyond seven rows they scroll, so that comparing many
    // GPUs never pushes the window past a laptop's screen (five GPUs at 1024 × 640 had held it
    // at 979 pixels).
    void manyGpusKeepTheWindowsHeight_data()
    {
        QTest::addColumn<int>("gpus");
        QTest::newRow("one GPU: the verdict whole") << 1;
        QTest::newRow("eight GPUs: seven rows, the rest scrolls") << 8;
    }
    void manyGpusKeepTheWindowsHeight()
    {
        QFETCH(int, gpus);
        const QStringList all{"a100-80gb", "h100-sxm", "h200", "b200", "rtx-4090", "l40s", "a100-40gb", "t4"};
        m_model->setGpuIds(all.mid(0, gpus));
        m_window->resize(1024, 640);
        QCoreApplication::processEvents();
        const VerdictBar *verdict = m_window->verdict();
        const auto *scroll = qobject_cast<const QScrollArea *>(verdict->parentWidget()->parentWidget());
        QVERIFY(scroll);
        QCOMPARE(scroll->height(), std::min(verdict->height(), verdict->heightForRows(7)));
        QVERIFY2(m_window->minimumSizeHint().height() <= 640,
                 qPrintable(QString::number(m_window->minimumSizeHint().height())));
    }

    // View → Custom GPU: one form; an NVIDIA GPU's compute capability goes with it, "not known"
    // leaves 0, which leaves a scenario's own (withGpu).
    void customGpuDialogBuildsThePreset_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("gib");
        QTest::addColumn<int>("capability");
        QTest::newRow("an H100 NVL, Hopper") << "H100 NVL" << 93.6 << 9;
        QTest::newRow("another vendor's, not known") << "Lab accelerator" << 64.0 << 0;
    }
    void customGpuDialogBuildsThePreset()
    {
        QFETCH(QString, name);
        QFETCH(double, gib);
        QFETCH(int, capability);
        CustomGpuDialog dialog;
        dialog.findChild<QLineEdit *>(QStringLiteral("name"))->setText(name);
        dialog.findChild<QDoubleSpinBox *>(QStringLiteral("memory"))->setValue(gib);
        auto *box = dialog.findChild<QComboBox *>(QStringLiteral("compute-capability"));
        box->setCurrentIndex(box->findData(capability));
        const GpuPreset gpu = dialog.gpu();
        QCOMPARE(QString::fromStdString(gpu.name), name);
        QCOMPARE(gpu.capacity, wholeMiBOfGiB(gib));
        QCOMPARE(gpu.computeCapability, std::int64_t(capability));
        QVERIFY(!gpu.verified); // entered by the user
    }

    void slidersDriveTheChart_data()
    {
        QTest::addColumn<QString>("slider");
        QTest::addColumn<int>("value");
        QTest::newRow("batch size") << "batch" << 4;
        QTest::newRow("sequence length") << "sequence" << 1024;
        QTest::newRow("hidden size") << "hidden" << 2048;
        QTest::newRow("layers") << "layers" << 12;
        QTest::newRow("precision: FP32") << "precision" << 0;
        QTest::newRow("precision: pure BF16") << "precision" << 3;
    }
    void slidersDriveTheChart()
    {
        QFETCH(QString, slider);
        QFETCH(int, value);
        ControlPanel *controls = m_window->controls();
        const Scenario before = m_model->scenario();
        if (slider == QLatin1String("precision")) {
            controls->precisionSlider()->slider()->setValue(value); // as a drag or arrow key would
        } else {
            SliderSpin *s = slider == QLatin1String("batch") ? controls->batchSlider()
                : slider == QLatin1String("sequence")        ? controls->sequenceSlider()
                : slider == QLatin1String("hidden")          ? controls->hiddenSlider()
                                                             : controls->layersSlider();
            s->spinBox()->setValue(value);
        }
        const Scenario &after = m_model->scenario();
        QVERIFY(!(after == before));
        if (slider == QLatin1String("batch"))
            QCOMPARE(after.microBatch, std::int64_t(value));
        else if (slider == QLatin1String("sequence"))
            QCOMPARE(after.sequence, std::int64_t(value));
        else if (slider == QLatin1String("hidden"))
            QCOMPARE(after.arch.hidden, std::int64_t(value));
        else if (slider == QLatin1String("layers"))
            QCOMPARE(after.arch.layers, std::int64_t(value));
        else
            QCOMPARE(int(after.precision), value);
        checkChartMatchesCore();
    }

    // One rule for every front end: the same edits, made with the window's controls one at a
    // time and given to the CLI as flags, give the same scenario and the same breakdown.
    void guiAndCliAgree_data()
    {
        using Edits = QList<QPair<QString, int>>; // a control (named after its field) and its value
        QTest::addColumn<QString>("model");
        QTest::addColumn<Edits>("edits");
        QTest::addColumn<QStringList>("flags");
        QTest::newRow("8B: 48 heads without the hidden size, ZeRO-3 over 8 GPUs, Hugging Face code")
            << "llama-3.1-8b"
            << Edits{{"heads", 48}, {"zero", 3}, {"dp", 8}, {"implementation", int(Implementation::HuggingFace)}}
            << QStringList{"--heads", "48", "--zero", "3", "--dp", "8", "--implementation", "huggingface"};
        QTest::newRow("70B: FSDP in HSDP groups of 8 over 64 GPUs, full recomputation, flash, batch 2 × 8192")
            << "llama-3.1-70b"
            << Edits{{"zero", 3},
                     {"sharding", int(Sharding::Fsdp)},
                     {"dp", 64},
                     {"replicate", 8},
                     {"recompute", int(Recompute::Full)},
                     {"attention", int(Attention::Flash)},
                     {"batch", 2},
                     {"seq", 8192}}
            << QStringList{"--zero",      "3",    "--sharding",  "fsdp",  "--dp",    "64", "--replicate", "8",
                           "--recompute", "full", "--attention", "flash", "--batch", "2",  "--seq",       "8192"};
        QTest::newRow("Llama-2 7B: LoRA rank 64 with dropout under autocast, 40 layers, an 8-bit optimizer")
            << "llama-2-7b"
            << Edits{{"precision", 2},
                     {"amp-style", int(AmpStyle::Autocast)},
                     {"finetune", int(FineTune::LoRA)},
                     {"lora-rank", 64},
                     {"lora-dropout", 1},
                     {"layers", 40},
                     {"optimizer", int(Optimizer::AdamW8bit)}}
            << QStringList{"--precision", "mixed-bf16",  "--amp-style", "autocast",       "--finetune",
                           "lora",        "--lora-rank", "64",          "--lora-dropout", "yes",
                           "--layers",    "40",          "--optimizer", "adamw-8bit"};
        QTest::newRow("Megatron's distributed optimizer over 8 GPUs")
            << "llama-2-7b" << Edits{{"dp", 8}, {"zero", 1}, {"sharding", int(Sharding::Megatron)}}
            << QStringList{"--dp", "8", "--zero", "1", "--sharding", "megatron"};
        QTest::newRow("Hugging Face full fine-tuning with a for-loop AdamW")
            << "llama-3.1-8b"
            << Edits{{"implementation", int(Implementation::HuggingFace)},
                     {"optimizer-impl", int(OptimizerImpl::ForLoop)}}
            << QStringList{"--implementation", "huggingface", "--optimizer-impl", "for-loop"};
        QTest::newRow("torchtune's single-device full fine-tuning: paged 8-bit AdamW in backward")
            << "llama-3.1-8b"
            << Edits{{"implementation", int(Implementation::TorchTune)},
                     {"optimizer", int(Optimizer::AdamW8bit)},
                     {"paged-optimizer", 1},
                     {"optimizer-in-backward", 1}}
            << QStringList{
                   "--implementation",        "torchtune", "--optimizer", "adamw-8bit", "--paged-optimizer", "yes",
                   "--optimizer-in-backward", "yes"};
        // Choosing torchtune brings its dtype, BF16, and SDPA; the box then ticks packed samples.
        QTest::newRow("torchtune with packed samples and the model built for 8192 positions")
            << "llama-3.1-8b"
            << Edits{{"implementation", int(Implementation::TorchTune)}, {"packed", 1}, {"max-positions", 8192}}
            << QStringList{"--implementation", "torchtune", "--packed", "yes", "--max-positions", "8192"};
        QTest::newRow("Hugging Face with gradients kept between steps")
            << "llama-2-7b" << Edits{{"implementation", int(Implementation::HuggingFace)}, {"gradients-kept", 1}}
            << QStringList{"--implementation", "huggingface", "--gradients-kept", "yes"};
        QTest::newRow("Hugging Face with Liger kernels over torchtune's chunked loss (the loss follows)")
            << "llama-3.1-8b"
            << Edits{{"implementation", int(Implementation::HuggingFace)}, {"loss", int(Loss::Chunked)}, {"liger", 1}}
            << QStringList{"--implementation", "huggingface", "--liger", "yes"};
        QTest::newRow("Mixtral in Hugging Face's code, its experts' load taken as even")
            << "mixtral-8x7b"
            << Edits{{"implementation", int(Implementation::HuggingFace)}, {"expert-load", int(ExpertLoad::Balanced)}}
            << QStringList{"--implementation", "huggingface", "--expert-load", "balanced"};
        QTest::newRow("Hugging Face on PyTorch 2.1")
            << "llama-2-7b"
            << Edits{{"implementation", int(Implementation::HuggingFace)}, {"pytorch", int(PyTorchRelease::Before2_2)}}
            << QStringList{"--implementation", "huggingface", "--pytorch", "2.1"};
        QTest::newRow("QLoRA with a paged 8-bit AdamW")
            << "llama-2-7b"
            << Edits{{"finetune", int(FineTune::QLoRA)},
                     {"lora-rank", 64},
                     {"optimizer", int(Optimizer::AdamW8bit)},
                     {"paged-optimizer", 1}}
            << QStringList{"--finetune",  "qlora",      "--lora-rank",       "64",
                           "--optimizer", "adamw-8bit", "--paged-optimizer", "yes"};
        QTest::newRow("QLoRA without double quantization")
            << "llama-2-7b" << Edits{{"finetune", int(FineTune::QLoRA)}, {"double-quant", 0}}
            << QStringList{"--finetune", "qlora", "--double-quant", "no"};
        QTest::newRow("LoRA on q, v and the LM head, ticked one box at a time")
            << "llama-2-7b"
            << Edits{{"finetune", int(FineTune::LoRA)},
                     {"lora-target-k", 0},
                     {"lora-target-o", 0},
                     {"lora-target-gate", 0},
                     {"lora-target-up", 0},
                     {"lora-target-down", 0},
                     {"lora-target-head", 1}}
            << QStringList{"--finetune", "lora", "--lora-targets", "q,v,head"};
        // Choosing LoRA under lit-gpt brings its own targets, q and v, which a box then extends.
        QTest::newRow("lit-gpt in 16-mixed (autocast), LoRA on q and v, then k too")
            << "llama-2-7b"
            << Edits{{"amp-style", int(AmpStyle::Autocast)},
                     {"implementation", int(Implementation::LitGpt)},
                     {"finetune", int(FineTune::LoRA)},
                     {"lora-target-k", 1}}
            << QStringList{"--amp-style", "autocast", "--implementation", "litgpt",
                           "--finetune",  "lora",     "--lora-targets",   "q,k,v"};
        QTest::newRow("lit-gpt's own LoRA targets when none are given")
            << "llama-2-7b" << Edits{{"implementation", int(Implementation::LitGpt)}, {"finetune", int(FineTune::LoRA)}}
            << QStringList{"--implementation", "litgpt", "--finetune", "lora"};
        QTest::newRow("torchtitan with its activations offloaded")
            << "llama-3.1-8b" << Edits{{"implementation", int(Implementation::TorchTitan)}, {"activation-offload", 1}}
            << QStringList{"--implementation", "torchtitan", "--activation-offload", "yes"};
        QTest::newRow("torchtitan's 2D: TP 8 (sequence parallel follows) and FSDP over 4, selective checkpointing")
            << "llama-3.1-70b"
            << Edits{{"implementation", int(Implementation::TorchTitan)},
                     {"zero", 3},
                     {"sharding", int(Sharding::Fsdp)},
                     {"dp", 4},
                     {"tp", 8},
                     {"recompute", int(Recompute::Selective)}}
            << QStringList{
                   "--implementation", "torchtitan", "--zero", "3", "--sharding", "fsdp", "--dp", "4", "--tp", "8",
                   "--recompute",      "selective"};
        QTest::newRow("Mixtral in Hugging Face's code, LoRA (its targets become q and v)")
            << "mixtral-8x7b"
            << Edits{{"implementation", int(Implementation::HuggingFace)}, {"finetune", int(FineTune::LoRA)}}
            << QStringList{"--implementation", "huggingface", "--finetune", "lora"};
        QTest::newRow("Mixtral: experts over 4 GPUs, ZeRO-1 offloading the optimizer, pipeline of 2")
            << "mixtral-8x7b"
            << Edits{{"dp", 8},
                     {"ep", 4},
                     {"offload", int(Offload::Optimizer)},
                     {"pp", 2},
                     {"measure", int(Measure::Reserved)},
                     {"allocator-percent", 20}}
            << QStringList{"--dp", "8", "--ep",      "4",        "--offload",           "optimizer",
                           "--pp", "2", "--measure", "reserved", "--allocator-percent", "20"};
    }
    void guiAndCliAgree()
    {
        using Edits = QList<QPair<QString, int>>;
        QFETCH(QString, model);
        QFETCH(Edits, edits);
        QFETCH(QStringList, flags);
        m_model->setModel(model);
        ControlPanel *controls = m_window->controls();
        for (const auto &[field, value] : edits) {
            QWidget *control = controls->findChild<QWidget *>(field);
            QVERIFY2(control, qPrintable(QStringLiteral("no control named '%1'").arg(field)));
            if (auto *slider = qobject_cast<SliderSpin *>(control)) {
                slider->spinBox()->setValue(value);
            } else if (auto *choices = qobject_cast<ChoiceSlider *>(control)) {
                choices->slider()->setValue(value);
            } else if (auto *spin = qobject_cast<QSpinBox *>(control)) {
                spin->setValue(value);
            } else if (auto *check = qobject_cast<QCheckBox *>(control)) {
                check->setChecked(value != 0);
            } else if (auto *combo = qobject_cast<QComboBox *>(control)) {
                const int index = combo->findData(value);
                QVERIFY2(index >= 0, qPrintable(field));
                combo->setCurrentIndex(index);
                Q_EMIT combo->activated(index); // as a user's choice does
            } else {
                QFAIL(qPrintable(QStringLiteral("'%1' is no control the test knows").arg(field)));
            }
        }
        const auto error = scenarioError(m_model->scenario());
        QVERIFY2(!error, error ? error->message.c_str() : "");

        QProcess cli;
        cli.start(QStringLiteral(VL_CLI), QStringList{"--model", model, "--format", "json"} + flags);
        QVERIFY(cli.waitForFinished(30'000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const QJsonObject perGpu = QJsonDocument::fromJson(cli.readAllStandardOutput()).object()["per_gpu"].toObject();
        const Breakdown gui = estimate(m_model->scenario());
        QCOMPARE(qint64(perGpu["total"].toDouble()), qint64(gui.total));
        QCOMPARE(qint64(perGpu["peak"].toDouble()), qint64(stepTimeline(gui).peak()));
        for (int c = 0; c < kComponentCount; ++c)
            QCOMPARE(qint64(perGpu[QString::fromUtf8(idString(Component(c)).data())].toDouble()),
                     qint64(gui.component(Component(c))));
    }

    // Every control named after a field is greyed out exactly where core says the field is not in
    // effect (fieldInEffect): the rule is core's, the panel only shows it.
    void controlsFollowWhatIsInEffect_data()
    {
        QTest::addColumn<std::function<void(Scenario &)>>("edit");
        QTest::addColumn<QString>("greyed"); // one control the scenario must grey out
        QTest::addColumn<QString>("live");   // and one it must leave editable
        QTest::newRow("the article's example: Megatron-LM's options greyed")
            << std::function<void(Scenario &)>([](Scenario &) {}) << "rerun-keeps-batches"
            << "dropout";
        QTest::newRow("Megatron-LM's loop: its batch options live, FSDP's greyed")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.sharding = Sharding::Megatron;
                   s.precision = Precision::MixedBf16;
               })
            << "no-sync"
            << "rerun-keeps-batches";
        QTest::newRow("Megatron MoE: the grouped GEMM live, LoRA's rank greyed")
            << std::function<void(Scenario &)>([](Scenario &s) {
                   s.sharding = Sharding::Megatron;
                   s.precision = Precision::MixedBf16;
                   s.arch.experts = 8;
                   s.arch.expertsPerToken = 2;
               })
            << "lora-rank"
            << "moe-grouped-gemm";
    }
    void controlsFollowWhatIsInEffect()
    {
        QFETCH(std::function<void(Scenario &)>, edit);
        QFETCH(QString, greyed);
        QFETCH(QString, live);
        Scenario s = m_model->scenario();
        edit(s);
        QVERIFY(!scenarioError(s));
        m_model->setScenario(s);
        ControlPanel *controls = m_window->controls();
        int checked = 0;
        for (QWidget *control : controls->findChildren<QWidget *>()) {
            const std::string name = control->objectName().toStdString();
            if (name.empty() || !findField(name))
                continue;
            QVERIFY2(control->isEnabled() == fieldInEffect(m_model->scenario(), name), name.c_str());
            ++checked;
        }
        QVERIFY(checked >= 40);
        QVERIFY(!controls->findChild<QWidget *>(greyed)->isEnabled());
        QVERIFY(controls->findChild<QWidget *>(live)->isEnabled());
    }

    // A greyed-out checkbox shows what is counted: QLoRA's adapters over bitsandbytes' uint8 storage
    // are FP32 whatever the setting says, so its box reads ticked even when the setting is off.
    void adaptersCheckboxShowsWhatIsCounted_data()
    {
        QTest::addColumn<bool>("qlora");
        QTest::addColumn<int>("zeroStage");
        QTest::addColumn<bool>("enabled");
        QTest::addColumn<bool>("ticked");
        QTest::newRow("QLoRA on one GPU: FP32 by the storage, greyed and ticked") << true << 0 << false << true;
        QTest::newRow("QLoRA under ZeRO-3: the setting decides, live and as set") << true << 3 << true << false;
        QTest::newRow("LoRA on one GPU: the setting decides, live and as set") << false << 0 << true << false;
    }
    void adaptersCheckboxShowsWhatIsCounted()
    {
        QFETCH(bool, qlora);
        QFETCH(int, zeroStage);
        QFETCH(bool, enabled);
        QFETCH(bool, ticked);
        Scenario s = m_model->scenario();
        s.implementation = Implementation::HuggingFace;
        s.precision = Precision::Bf16;
        s.fineTune = qlora ? FineTune::QLoRA : FineTune::LoRA;
        s.zeroStage = zeroStage;
        s.dataParallel = zeroStage == 3 ? 2 : 1;
        s.adaptersFp32 = false;
        QVERIFY(!scenarioError(s));
        m_model->setScenario(s);
        const auto *box = m_window->controls()->findChild<QCheckBox *>(QStringLiteral("adapters-fp32"));
        QVERIFY(box);
        QCOMPARE(box->isEnabled(), enabled);
        QCOMPARE(box->isChecked(), ticked);
        QCOMPARE(box->isChecked(), m_model->scenario().adaptersUpcast());
    }

    void batchSliderMovesInPowersOfTwo()
    {
        QSlider *slider = m_window->controls()->batchSlider()->slider();
        slider->setValue(slider->value() + slider->singleStep());
        QCOMPARE(m_model->scenario().microBatch, std::int64_t(2));
        slider->setValue(slider->value() + slider->singleStep());
        QCOMPARE(m_model->scenario().microBatch, std::int64_t(4));
    }

    void verdictFlipsAtTheCapacityLine()
    {
        Scenario s = m_model->scenario();
        s.zeroStage = 3;
        s.dataParallel = 8;
        s.attention = Attention::Flash;
        m_model->setScenario(s);
        const Bytes a100 = 81920 * kMiB;
        const std::int64_t largest = maxMicroBatch(m_model->scenario(), a100);
        QVERIFY(largest >= 1 && largest < 4096);
        SliderSpin *batch = m_window->controls()->batchSlider();
        batch->spinBox()->setValue(int(largest));
        QVERIFY2(m_window->verdict()->text().contains(QStringLiteral(": fits")),
                 qPrintable(m_window->verdict()->text()));
        QVERIFY(m_window->verdict()->text().contains(QStringLiteral("largest batch %1").arg(largest)));
        batch->spinBox()->setValue(int(largest + 1));
        QVERIFY2(m_window->verdict()->text().contains(QStringLiteral("does not fit")),
                 qPrintable(m_window->verdict()->text()));
        checkChartMatchesCore();
    }

    void checkingAGpuAddsItsCapacityLine()
    {
        QListWidget *gpus = m_window->controls()->gpuList();
        for (int i = 0; i < gpus->count(); ++i) // every GPU shows a check box, checked or not
            QVERIFY(gpus->item(i)->data(Qt::CheckStateRole).isValid());
        for (int i = 0; i < gpus->count(); ++i)
            if (gpus->item(i)->data(Qt::UserRole).toString() == QLatin1String("rtx-4090"))
                gpus->item(i)->setCheckState(Qt::Checked);
        QCOMPARE(m_model->gpuIds().size(), 2);
        QCOMPARE(m_window->chartPanel()->chart()->capacityLines().size(), 2);
        QVERIFY(m_window->chartPanel()->chart()->capacityLines().contains(24564.0 / 1024.0));
    }

    void choosingAModelPreset()
    {
        m_model->setModel(QStringLiteral("llama-3.1-8b"));
        QCOMPARE(totalParameters(m_model->scenario().arch), std::int64_t(8'030'261'248));
        QCOMPARE(m_window->controls()->hiddenSlider()->value(), 4096);
        QCOMPARE(m_window->controls()->modelBox()->currentData().toString(), QStringLiteral("llama-3.1-8b"));
        // Reshaping it makes the model custom, counted from its shapes.
        m_window->controls()->layersSlider()->spinBox()->setValue(16);
        QVERIFY(m_window->controls()->modelBox()->currentData().toString().isEmpty());
        checkChartMatchesCore();
    }

    void ladderBarsFollowTheChosenLevers()
    {
        m_model->setBarSet(BarSet::Ladder);
        const MemoryChart *chart = m_window->chartPanel()->chart();
        const auto &bars = m_model->analysis().bars;
        QVERIFY(bars.size() >= 2);
        QCOMPARE(chart->barCount(), int(bars.size()));
        QCOMPARE(Lever(bars[1].value), Lever::ZeroSharding); // the article's order
        for (std::size_t i = 1; i < bars.size(); ++i)        // no step adds memory; the bars show core's numbers
            QVERIFY(bars[i].breakdown.total <= bars[i - 1].breakdown.total);
        m_model->setLadderOrder({Lever::Recomputation, Lever::SmallerBatch}); // skip two, reorder
        const auto &reordered = m_model->analysis().bars;
        QCOMPARE(Lever(reordered[1].value), Lever::Recomputation);
        for (std::size_t i = 1; i < reordered.size(); ++i)
            QVERIFY(Lever(reordered[i].value) != Lever::ZeroSharding);
        QCOMPARE(chart->barValue(1, Component::Activations),
                 toUnits(reordered[1].breakdown.component(Component::Activations), Units::GiB));
    }

    void explanationEndsOnTheLastState()
    {
        QTreeWidget *tree = m_window->explanation()->tree();
        SliderSpin *batch = m_window->controls()->batchSlider();
        auto activationsText = [&] {
            return vl::bytesText(estimate(m_model->scenario()).component(Component::Activations), Units::GiB);
        };
        QTest::qWait(300);             // nothing changed for a while...
        batch->spinBox()->setValue(2); // ...so the next change shows at once
        QCOMPARE(tree->topLevelItem(int(Component::Activations))->text(1), activationsText());
        for (int b : {4, 8, 16}) // a drag: coalesced, but it must end on the last value
            batch->spinBox()->setValue(b);
        QTRY_COMPARE(tree->topLevelItem(int(Component::Activations))->text(1), activationsText());
    }

    // The explanation's formulas follow a language switched at run time, both ways.
    void explanationFollowsTheLanguage_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("shown"); // how "params" reads in the weights' formula
        QTest::newRow("to Chinese") << QStringLiteral("zh_CN") << QStringLiteral("个参数");
        QTest::newRow("back to English") << QStringLiteral("en") << QStringLiteral(" params ");
    }
    void explanationFollowsTheLanguage()
    {
        QFETCH(QString, language);
        QFETCH(QString, shown);
        m_language->apply(language);
        const QTreeWidgetItem *weights =
            m_window->explanation()->tree()->topLevelItem(int(Component::Parameters))->child(0);
        QTRY_VERIFY2(weights->text(2).contains(shown), qPrintable(weights->text(2)));
    }

    // Ctrl+Z takes back the last edit and names it in the Edit menu; Ctrl+Shift+Z brings it back.
    void undoTakesBackTheLastEdit_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("undoText");
        QTest::newRow("a slider") << QStringLiteral("en") << QStringLiteral("seq")
                                  << QStringLiteral("&Undo Sequence length");
        QTest::newRow("a box whose edit rule keeps the model multi-head: both named")
            << QStringLiteral("en") << QStringLiteral("heads")
            << QStringLiteral("&Undo Attention heads, Key/value heads");
        QTest::newRow("in Chinese: the label without its mnemonic (&S)")
            << QStringLiteral("zh_CN") << QStringLiteral("seq") << QStringLiteral("撤销“序列长度”(&U)");
    }
    void undoTakesBackTheLastEdit()
    {
        QFETCH(QString, language);
        QFETCH(QString, field);
        QFETCH(QString, undoText);
        m_language->apply(language);
        QApplication::processEvents(); // the widgets retranslate on the LanguageChange Qt posts
        const ScenarioDocument before = m_model->document();
        const ControlPanel *controls = m_window->controls();
        const auto *slider = controls->findChild<SliderSpin *>(field);
        QSpinBox *box = slider ? slider->spinBox() : controls->findChild<QSpinBox *>(field);
        QVERIFY(box);
        box->setValue(box->value() / 2);
        QVERIFY(!(m_model->document() == before));
        const ScenarioDocument edited = m_model->document();
        QAction *undo = undoAction();
        QVERIFY(undo);
        QCOMPARE(undo->text(), undoText);
        QTest::keySequence(m_window.get(), QKeySequence::Undo);
        QVERIFY(m_model->document() == before);
        QCOMPARE(std::int64_t(box->value()), findField(field.toStdString())->value(m_model->scenario()));
        QTest::keySequence(m_window.get(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
        QVERIFY(m_model->document() == edited);
        QTest::keySequence(m_window.get(), QKeySequence::Undo);
        QTest::keySequence(m_window.get(), QKeySequence(Qt::CTRL | Qt::Key_Y)); // either redo binding
        QVERIFY(m_model->document() == edited);
        m_language->apply(QStringLiteral("en"));
    }

    // A step made in one language is named in the language switched to after it.
    void undoNamesFollowTheLanguage()
    {
        m_window->controls()->sequenceSlider()->spinBox()->setValue(1024);
        QCOMPARE(undoAction()->text(), QStringLiteral("&Undo Sequence length"));
        m_language->apply(QStringLiteral("zh_CN"));
        QTRY_COMPARE(undoAction()->text(), QStringLiteral("撤销“序列长度”(&U)"));
        m_language->apply(QStringLiteral("en"));
        QTRY_COMPARE(undoAction()->text(), QStringLiteral("&Undo Sequence length"));
    }

    // File -> New: what a first launch shows, untitled, as one step that Ctrl+Z takes back.
    void newStartsFromTheArticle_data()
    {
        QTest::addColumn<bool>("fromAFile");
        QTest::newRow("an untitled session") << false;
        QTest::newRow("a saved file, no edits since: nothing to ask") << true;
    }
    void newStartsFromTheArticle()
    {
        QFETCH(bool, fromAFile);
        m_model->setModel(QStringLiteral("llama-3.1-8b"));
        QTemporaryDir dir;
        if (fromAFile)
            QVERIFY(m_window->saveScenario(dir.filePath(QStringLiteral("plan.vramledger.yaml"))).isEmpty());
        const ScenarioDocument before = m_model->document();
        m_window->newScenario();
        QVERIFY(m_model->document() == articleExampleDocument());
        QVERIFY(m_window->windowFilePath().isEmpty());
        QCOMPARE(undoAction()->text(), QStringLiteral("&Undo New scenario"));
        QTest::keySequence(m_window.get(), QKeySequence::Undo);
        QVERIFY(m_model->document() == before);
    }

    // Ctrl+1 to Ctrl+4 show the views in the order of their tabs.
    void viewsByNumber_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("tab");
        QTest::newRow("Ctrl+2: the structure") << int(Qt::Key_2) << 1;
        QTest::newRow("Ctrl+3: the step timeline") << int(Qt::Key_3) << 2;
        QTest::newRow("Ctrl+4: the sweep") << int(Qt::Key_4) << 3;
        QTest::newRow("Ctrl+1: the chart") << int(Qt::Key_1) << 0;
    }
    void viewsByNumber()
    {
        QFETCH(int, key);
        QFETCH(int, tab);
        auto *tabs = m_window->findChild<QTabWidget *>();
        tabs->setCurrentIndex((tab + 1) % tabs->count());
        QTest::keySequence(m_window.get(), QKeySequence(Qt::CTRL | Qt::Key(key)));
        QCOMPARE(tabs->currentIndex(), tab);
    }

    void titleNamesTheSavedFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("plan.vramledger.yaml"));
        QVERIFY(m_window->saveScenario(path).isEmpty());
        QVERIFY2(m_window->windowTitle().startsWith(QStringLiteral("plan.vramledger.yaml")),
                 qPrintable(m_window->windowTitle()));
        QVERIFY(!m_window->isWindowModified());
        QCOMPARE(m_window->windowFilePath(), path);
        QCOMPARE(Settings::recentFiles().value(0), QFileInfo(path).absoluteFilePath());
        m_window->controls()->sequenceSlider()->spinBox()->setValue(1024); // a change keeps the title, marked
        QVERIFY(m_window->windowTitle().startsWith(QStringLiteral("plan.vramledger.yaml")));
        QVERIFY(m_window->isWindowModified());
        QVERIFY(m_window->saveScenario(path).isEmpty());
        QVERIFY(!m_window->isWindowModified());
        m_window->controls()->sequenceSlider()->spinBox()->setValue(2048);
        QVERIFY(m_window->isWindowModified());
        QTest::keySequence(m_window.get(), QKeySequence::Undo); // back to what was saved, not to before 1024
        QVERIFY(!m_window->isWindowModified());
        QTest::keySequence(m_window.get(), QKeySequence::Redo);
        QVERIFY(m_window->isWindowModified());
        QVERIFY(!m_window->openFile(path, MainWindow::Import::ForThisRunOnly)); // what the file holds: unmodified
        QVERIFY(!m_window->isWindowModified());
        QVERIFY(!undoAction()->isEnabled()); // a file opened starts its own history
        QCOMPARE(m_window->controls()->sequenceSlider()->spinBox()->value(), 1024);
        QVERIFY(m_window->windowTitle().startsWith(QStringLiteral("plan.vramledger.yaml")));
    }

    void userPresetsAreMarked()
    {
        PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        ModelPreset mine = *catalog.findModel("gpt2");
        m_model->addModel(mine); // an import with a built-in's id: the catalog marks it
        const QComboBox *box = m_window->controls()->modelBox();
        const int index = box->findData(QStringLiteral("gpt2"));
        QVERIFY(index >= 0);
        QVERIFY2(box->itemText(index).contains(QStringLiteral("replaces the built-in")),
                 qPrintable(box->itemText(index)));
    }

    // A model fetched by its Hub id becomes the user's preset and the current model; a gated one
    // comes back as an error that says where to ask for access.
    void modelFromTheHub_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("error"); // a part of it; empty: imported
        QTest::newRow("imported") << 200 << "";
        QTest::newRow("gated") << 401 << "Request access at";
    }
    void modelFromTheHub()
    {
        QFETCH(int, status);
        QFETCH(QString, error);
        QFile gpt2(QStringLiteral(VL_TEST_DATA "/hf/gpt2.json"));
        QVERIFY(gpt2.open(QIODevice::ReadOnly));
        HubFixture hub;
        hub.routes["/openai-community/gpt2/resolve/main/config.json"] = {status, gpt2.readAll(), {}, -1, 0};
        hub.routes["/api/models/openai-community/gpt2/revision/main"] = {
            200, R"({"safetensors": {"total": 124439808}})", {}, -1, 0};
        qputenv("HF_ENDPOINT", hub.endpoint().toUtf8());
        qunsetenv("HF_TOKEN");
        bool finished = false;
        QString reported;
        QStringList notes;
        m_window->importFromHub(*parseHubModelRef("openai-community/gpt2"),
                                [&](const QString &e, const QStringList &n) {
                                    finished = true;
                                    reported = e;
                                    notes = n;
                                });
        QTRY_VERIFY_WITH_TIMEOUT(finished, 20'000);
        qunsetenv("HF_ENDPOINT");
        QVERIFY2(error.isEmpty() ? reported.isEmpty() : reported.contains(error), qPrintable(reported));
        if (error.isEmpty()) {
            QCOMPARE(totalParameters(m_model->scenario().arch), 124'439'808);
            QVERIFY2(notes.isEmpty(), qPrintable(notes.join(QLatin1Char('\n')))); // the Hub's count agrees
        }
    }

    // Presentation: the five sliders only, in larger type; back to everything afterwards.
    void presentationShowsTheFiveSliders()
    {
        const auto *advanced = m_window->findChild<QGroupBox *>(QStringLiteral("advanced"));
        const QWidget *models = m_window->controls()->modelBox();
        QVERIFY(advanced && advanced->isVisible() && models->isVisible());
        const qreal normal = m_window->controls()->batchSlider()->font().pointSizeF();
        m_window->setPresentationMode(true, false);
        QVERIFY(!advanced->isVisible() && !models->isVisible());
        QVERIFY(m_window->controls()->batchSlider()->isVisible());
        QVERIFY(m_window->controls()->batchSlider()->font().pointSizeF() > normal * 1.5);
        m_window->setPresentationMode(false, false);
        QVERIFY(advanced->isVisible() && models->isVisible());
    }

    // The timeline's cursor is the diagram's moment; the diagram's keys move the same cursor.
    void diagramShowsTheTimelinesMoment()
    {
        StepTimelineView *timeline = m_window->timeline();
        StructureDiagram *diagram = m_window->diagram();
        QVERIFY(!diagram->moment());
        const auto &points = m_model->analysis().timeline.points;
        const int loss = int(std::find_if(points.begin(), points.end(),
                                          [](const TimelinePoint &p) { return p.phase == StepPhase::Loss; })
                             - points.begin());
        timeline->setCursor(loss);
        QCOMPARE(diagram->moment(), std::optional<int>(loss));
        QTest::keyClick(diagram, Qt::Key_Right);
        QCOMPARE(timeline->cursor(), loss + 1);
        QCOMPARE(diagram->moment(), std::optional<int>(loss + 1));
        timeline->setCursor(0); // before the step: the whole picture again
        QVERIFY(!diagram->moment());
    }

    // Closing with unsaved edits asks; Cancel keeps the window and the edits.
    void closingWithChangesAsks()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("asked.vramledger.yaml"));
        QVERIFY(m_window->saveScenario(path).isEmpty());
        m_window->controls()->sequenceSlider()->spinBox()->setValue(2048);
        QVERIFY(m_window->isWindowModified());
        bool asked = false;
        QTimer::singleShot(0, this, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            asked = box != nullptr;
            if (box)
                box->button(QMessageBox::Cancel)->click();
        });
        QVERIFY(!m_window->close());
        QVERIFY(asked);
        QVERIFY(m_window->isVisible() && m_window->isWindowModified());
        QCOMPARE(m_window->controls()->sequenceSlider()->spinBox()->value(), 2048);
    }

    void cleanup()
    {
        m_window.reset();
        m_language.reset();
        m_model.reset();
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
