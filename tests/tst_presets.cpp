// Preset loading: built-ins beside the user's own, shadowing, and broken files that are
// reported (file, line, field) without stopping anything else from loading.

#include "core/presets.h"
#include "core/scenariofile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace vl;

namespace {

void writeFile(const QString &path, const std::string &content)
{
    std::ofstream(path.toStdString()) << content;
}

std::string sample(const std::string &id, std::int64_t hidden)
{
    return "schema: 1\nid: " + id + "\nname: Sample\nsource: test\narchitecture:\n  hidden: " + std::to_string(hidden)
        + "\n  layers: 2\n  heads: 8\n  ffn: 64\n  vocab: 100\n";
}

} // namespace

class TestPresets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A scenario's GPUs: each once, in order, and the ones not here named rather than dropped.
    void scenarioGpusResolveOnce_data()
    {
        QTest::addColumn<QStringList>("ids");
        QTest::addColumn<QStringList>("found");
        QTest::addColumn<QStringList>("missing");
        QTest::addColumn<QStringList>("kept"); // what the document keeps, so saving it loses no GPU
        QTest::newRow("known, unknown, repeated")
            << QStringList{"a100-80gb", "colleagues-gpu", "a100-80gb", "h100-sxm"}
            << QStringList{"a100-80gb", "h100-sxm"} << QStringList{"colleagues-gpu"}
            << QStringList{"a100-80gb", "colleagues-gpu", "h100-sxm"};
        QStringList many;
        for (int i = 0; i < 10'000; ++i)
            many << QStringLiteral("h100-sxm");
        QTest::newRow("one id 10,000 times")
            << many << QStringList{"h100-sxm"} << QStringList{} << QStringList{"h100-sxm"};
    }
    void scenarioGpusResolveOnce()
    {
        QFETCH(QStringList, ids);
        QFETCH(QStringList, found);
        QFETCH(QStringList, missing);
        QFETCH(QStringList, kept);
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        std::vector<std::string> wanted;
        for (const QString &id : ids)
            wanted.push_back(id.toStdString());
        const PresetCatalog::ResolvedGpus resolved = catalog.resolveGpus(wanted);
        QStringList gotFound, gotMissing, gotIds;
        for (const GpuPreset &gpu : resolved.found)
            gotFound << QString::fromStdString(gpu.id);
        for (const std::string &id : resolved.missing)
            gotMissing << QString::fromStdString(id);
        for (const std::string &id : resolved.ids)
            gotIds << QString::fromStdString(id);
        QCOMPARE(gotFound, found);
        QCOMPARE(gotMissing, missing);
        QCOMPARE(gotIds, kept);
    }

    void gpuTableHasReportedCapacities_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("mib");
        // memory-model.md: what nvidia-smi reports for each.
        QTest::newRow("A100 80GB") << "a100-80gb" << qint64(81920);
        QTest::newRow("H100 SXM") << "h100-sxm" << qint64(81559);
        QTest::newRow("H200") << "h200" << qint64(143771);
        QTest::newRow("B200") << "b200" << qint64(183359);
        QTest::newRow("A100 40GB") << "a100-40gb" << qint64(40960);
        QTest::newRow("L40S") << "l40s" << qint64(46068);
        QTest::newRow("A10") << "a10" << qint64(23028);
        QTest::newRow("L4") << "l4" << qint64(23034);
        QTest::newRow("T4") << "t4" << qint64(15360);
    }
    void gpuTableHasReportedCapacities()
    {
        QFETCH(QString, id);
        QFETCH(qint64, mib);
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        const GpuPreset *gpu = catalog.findGpu(id.toStdString());
        QVERIFY(gpu);
        QCOMPARE(gpu->capacity, mib * kMiB);
        QVERIFY(gpu->verified);
        QVERIFY(!gpu->source.empty());
    }

    void userPresetsShadowBuiltIns()
    {
        QTemporaryDir user;
        QVERIFY(user.isValid());
        QDir(user.path()).mkpath(QStringLiteral("models"));
        writeFile(user.filePath(QStringLiteral("models/gpt2.yaml")), sample("gpt2", 64));
        writeFile(user.filePath(QStringLiteral("models/mine.yaml")), sample("mine", 128));
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, user.path().toStdString());
        QVERIFY(catalog.skipped.empty());
        const ModelPreset *gpt2 = catalog.findModel("gpt2");
        QVERIFY(gpt2);
        QVERIFY(gpt2->user);
        QVERIFY(gpt2->shadowsBuiltin);
        QCOMPARE(gpt2->arch.hidden, qint64(64));
        const ModelPreset *mine = catalog.findModel("mine");
        QVERIFY(mine && mine->user && !mine->shadowsBuiltin);
    }

    void presetsAddedWhileRunning_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<bool>("shadows");
        QTest::newRow("a new id is appended") << "my-import" << false;
        QTest::newRow("a built-in's id replaces it, marked") << "gpt2" << true;
    }
    void presetsAddedWhileRunning()
    {
        QFETCH(QString, id);
        QFETCH(bool, shadows);
        PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        const std::size_t before = catalog.models.size();
        ModelPreset preset = catalog.models.front();
        preset.id = id.toStdString();
        preset.arch.hidden = 96;
        catalog.addUserPreset(preset);
        QCOMPARE(catalog.models.size(), before + (shadows ? 0 : 1));
        const ModelPreset *added = catalog.findModel(preset.id);
        QVERIFY(added && added->user);
        QCOMPARE(added->shadowsBuiltin, shadows);
        QCOMPARE(added->arch.hidden, qint64(96));
        // Saved again: still the user's, still replacing the built-in if it did.
        preset.arch.hidden = 128;
        catalog.addUserPreset(preset);
        QCOMPARE(catalog.models.size(), before + (shadows ? 0 : 1));
        QCOMPARE(catalog.findModel(preset.id)->shadowsBuiltin, shadows);
        QCOMPARE(catalog.findModel(preset.id)->arch.hidden, qint64(128));

        GpuPreset gpu = customGpu("Lab card", 24 * kGiB);
        catalog.addUserPreset(gpu);
        catalog.addUserPreset(gpu);
        QVERIFY(catalog.findGpu(gpu.id)->user);
        QCOMPARE(
            std::count_if(catalog.gpus.begin(), catalog.gpus.end(), [&](const GpuPreset &g) { return g.id == gpu.id; }),
            std::ptrdiff_t(1));
    }

    void brokenFilesAreReportedAndSkipped_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative layers") << "negative-layers.yaml" << 7 << "architecture.layers"
                                         << "-3 is out of range; allowed 1 to 10000";
        QTest::newRow("misspelt key") << "unknown-key.yaml" << 6 << "architecture.hiden"
                                      << "unknown key; allowed keys here: params, hidden,";
        QTest::newRow("malformed YAML") << "malformed.yaml" << 3 << ""
                                        << "not valid YAML";
        QTest::newRow("text where a number goes") << "wrong-type.yaml" << 6 << "architecture.hidden"
                                                  << "'lots' is not a whole number";
        QTest::newRow("newer schema") << "future-schema.yaml" << 1 << "schema"
                                      << QStringLiteral("this version reads schema 1 to %1").arg(kSchemaVersion);
        QTest::newRow("absurdly large") << "absurd.yaml" << 6 << "architecture.hidden"
                                        << "out of range";
    }
    void brokenFilesAreReportedAndSkipped()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, field);
        QFETCH(QString, message);
        QTemporaryDir user;
        QDir(user.path()).mkpath(QStringLiteral("models"));
        QVERIFY(QFile::copy(QStringLiteral(VL_TEST_DATA "/broken/") + file,
                            user.filePath(QStringLiteral("models/") + file)));
        writeFile(user.filePath(QStringLiteral("models/good.yaml")), sample("good", 256));

        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, user.path().toStdString());
        QCOMPARE(catalog.skipped.size(), std::size_t(1));
        const Error &e = catalog.skipped.front();
        QVERIFY2(QString::fromStdString(e.file).endsWith(file), e.file.c_str());
        QCOMPARE(e.line, line);
        QCOMPARE(QString::fromStdString(e.field), field);
        QVERIFY2(QString::fromStdString(e.message).contains(message), e.describe().c_str());
        // Everything else still loaded: the user's good file and every built-in.
        QVERIFY(catalog.findModel("good"));
        QVERIFY(catalog.findModel("llama-2-7b"));
    }

    // Two of the user's files with one id: the first by name loads (x.yaml before x.yml), the
    // other is reported.
    void oneIdInTwoFilesKeepsTheFirstByName()
    {
        QTemporaryDir user;
        QDir(user.path()).mkpath(QStringLiteral("models"));
        writeFile(user.filePath(QStringLiteral("models/twin.yml")), sample("twin", 512));
        writeFile(user.filePath(QStringLiteral("models/twin.yaml")), sample("twin", 256));
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, user.path().toStdString());
        const ModelPreset *twin = catalog.findModel("twin");
        QVERIFY(twin);
        QCOMPARE(twin->arch.hidden, qint64(256));
        QCOMPARE(catalog.skipped.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(catalog.skipped.front().file).endsWith(QLatin1String("twin.yml")),
                 catalog.skipped.front().describe().c_str());
    }

    void modelPresetRoundTrips()
    {
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        for (const ModelPreset &m : catalog.models) {
            const auto again = parseModelPreset(modelPresetToYaml(m), "roundtrip");
            QVERIFY2(again.ok(), again.ok() ? "" : again.error().describe().c_str());
            QCOMPARE(again->arch, m.arch);
            QCOMPARE(again->publishedParams, m.publishedParams);
            QCOMPARE(again->id, m.id);
        }
    }

    void gpuPresetsRoundTrip()
    {
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        const auto again = parseGpuPresets(gpuPresetsToYaml(catalog.gpus), "roundtrip.yaml");
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().describe().c_str());
        QCOMPARE(again->size(), catalog.gpus.size());
        for (std::size_t i = 0; i < again->size(); ++i) {
            QCOMPARE((*again)[i].id, catalog.gpus[i].id);
            QCOMPARE((*again)[i].capacity, catalog.gpus[i].capacity);
            QCOMPARE((*again)[i].verified, catalog.gpus[i].verified);
            QCOMPARE((*again)[i].computeCapability, catalog.gpus[i].computeCapability);
        }
    }

    // NVIDIA's compute capability, by its major number (the CUDA GPUs list); it sizes cuBLAS's
    // workspaces. Other vendors' GPUs have none.
    void gpuComputeCapabilities_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("major");
        QTest::newRow("V100: 7.0") << "v100-16gb" << qint64(7);
        QTest::newRow("T4: 7.5") << "t4" << qint64(7);
        QTest::newRow("A100: 8.0") << "a100-80gb" << qint64(8);
        QTest::newRow("A800: 8.0") << "a800-80gb" << qint64(8);
        QTest::newRow("L4: 8.9") << "l4" << qint64(8);
        QTest::newRow("H100: 9.0") << "h100-sxm" << qint64(9);
        QTest::newRow("H800: 9.0") << "h800" << qint64(9);
        QTest::newRow("H100 PCIe: 9.0") << "h100-pcie" << qint64(9);
        QTest::newRow("RTX 6000 Ada: 8.9") << "rtx-6000-ada" << qint64(8);
        QTest::newRow("B200: 10.0") << "b200" << qint64(10);
        QTest::newRow("RTX 5090: 12.0") << "rtx-5090" << qint64(12);
        QTest::newRow("MI300X: AMD's, none") << "mi300x" << qint64(0);
    }
    void gpuComputeCapabilities()
    {
        QFETCH(QString, id);
        QFETCH(qint64, major);
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        const GpuPreset *gpu = catalog.findGpu(id.toStdString());
        QVERIFY(gpu);
        QCOMPARE(qint64(gpu->computeCapability), major);
    }

    void gpuComputeCapabilityOutOfRangeIsRefused()
    {
        const auto gpus = parseGpuPresets("schema: 1\ngpus:\n  - {id: odd, name: Odd, label: 1 GB, capacity_mib: 1024, "
                                          "compute_capability: 99, source: me}\n",
                                          "odd.yaml");
        QVERIFY(!gpus.ok());
        QCOMPARE(QString::fromStdString(gpus.error().field), QStringLiteral("gpus[0].compute_capability"));
        QVERIFY2(QString::fromStdString(gpus.error().describe()).contains("99"), gpus.error().describe().c_str());
    }

    void slugs_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("slug");
        QTest::newRow("Hub path") << "meta-llama/Llama-2-7b-hf"
                                  << "llama-2-7b-hf";
        QTest::newRow("spaces and symbols") << "My  GPU (lab #2)"
                                            << "my-gpu-lab-2";
        QTest::newRow("dots kept") << "Qwen2.5-7B"
                                   << "qwen2.5-7b";
    }
    void slugs()
    {
        QFETCH(QString, text);
        QFETCH(QString, slug);
        QCOMPARE(QString::fromStdString(slugify(text.toStdString())), slug);
    }

    // The presets are listed with their sizes in numeric order, as the files name them.
    void presetsInNaturalOrder_data()
    {
        QTest::addColumn<QString>("earlier");
        QTest::addColumn<QString>("later");
        QTest::newRow("7B before 13B") << "llama-2-7b"
                                       << "llama-2-13b";
        QTest::newRow("8B before 70B") << "llama-3-8b"
                                       << "llama-3-70b";
        QTest::newRow("Llama-3 before Llama-3.1") << "llama-3-70b"
                                                  << "llama-3.1-8b";
        QTest::newRow("GPT-2 before GPT-2 XL") << "gpt2"
                                               << "gpt2-xl";
        QTest::newRow("Qwen2.5 7B before 14B") << "qwen2.5-7b"
                                               << "qwen2.5-14b";
    }
    void presetsInNaturalOrder()
    {
        QFETCH(QString, earlier);
        QFETCH(QString, later);
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        const auto at = [&](const QString &id) {
            return std::find_if(catalog.models.begin(), catalog.models.end(),
                                [&](const ModelPreset &m) { return m.id == id.toStdString(); })
                - catalog.models.begin();
        };
        QVERIFY(at(later) < qsizetype(catalog.models.size()));
        QVERIFY2(at(earlier) < at(later), qPrintable(earlier + " lists after " + later));
    }

    // What a user types for a preset: its id in any case, or the model's name on the Hub.
    void presetsFoundByWhatUsersType_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("id");
        QTest::newRow("the id") << "llama-3.1-8b"
                                << "llama-3.1-8b";
        QTest::newRow("capitals") << "Llama-3.1-8B"
                                  << "llama-3.1-8b";
        QTest::newRow("the Hub's name") << "meta-llama/Llama-3.2-1B"
                                        << "llama-3.2-1b";
        QTest::newRow("a GPU in capitals") << "H100-SXM"
                                           << "h100-sxm";
    }
    void presetsFoundByWhatUsersType()
    {
        QFETCH(QString, typed);
        QFETCH(QString, id);
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        const ModelPreset *model = catalog.findModel(typed.toStdString());
        const GpuPreset *gpu = catalog.findGpu(typed.toStdString());
        QVERIFY2(model || gpu, qPrintable(typed));
        QCOMPARE(QString::fromStdString(model ? model->id : gpu->id), id);
    }

    // An id that names no preset: the ones meant, nearest first, for the CLI's "did you mean".
    void similarIdsForAMistypedPreset_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QStringList>("similar");
        QTest::newRow("a dash left out") << "llama3-70b" << QStringList{"llama-3-70b", "llama-2-70b"};
        QTest::newRow("a family: its sizes") << "llama-3.2" << QStringList{"llama-3.2-1b", "llama-3.2-3b"};
        QTest::newRow("a large family: the nearest three")
            << "llama" << QStringList{"llama-2-7b", "llama-3-8b", "llama-2-13b"};
        QTest::newRow("the Hub's name of an instruct model")
            << "meta-llama/Meta-Llama-3-8B-Instruct" << QStringList{"llama-3-8b"};
        QTest::newRow("the chip alone: its boards") << "h100" << QStringList{"h100-nvl", "h100-sxm", "h100-pcie"};
        QTest::newRow("a100 is no a10") << "a100" << QStringList{"a100-40gb", "a100-80gb"};
        QTest::newRow("the number alone") << "4090" << QStringList{"rtx-4090"};
        QTest::newRow("the chip and its memory: the boards named so")
            << "h100-80gb" << QStringList{"h100-pcie", "h100-sxm"};
        QTest::newRow("the maker's name of a chip")
            << "NVIDIA H100" << QStringList{"h100-nvl", "h100-pcie", "h100-sxm"};
        QTest::newRow("a board's whole name") << "NVIDIA H100 SXM 80GB" << QStringList{"h100-sxm"};
        QTest::newRow("a model's family and size in another order") << "70b-llama-3.1" << QStringList{"llama-3.1-70b"};
        QTest::newRow("nothing close") << "banana" << QStringList{};
        QTest::newRow("hostile length") << QString(100000, QLatin1Char('h')) << QStringList{};
    }
    void similarIdsForAMistypedPreset()
    {
        QFETCH(QString, typed);
        QFETCH(QStringList, similar);
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        std::vector<std::string> ids = catalog.similarModelIds(typed.toStdString());
        const std::vector<std::string> gpuIds = catalog.similarGpuIds(typed.toStdString());
        ids.insert(ids.end(), gpuIds.begin(), gpuIds.end());
        QStringList got;
        for (const std::string &id : ids)
            got << QString::fromStdString(id);
        QCOMPARE(got, similar);
    }

    void didYouMeanLists_data()
    {
        QTest::addColumn<QStringList>("ids");
        QTest::addColumn<QString>("text");
        QTest::newRow("none") << QStringList{} << "";
        QTest::newRow("one") << QStringList{"h100-sxm"} << "did you mean h100-sxm?";
        QTest::newRow("two") << QStringList{"a100-40gb", "a100-80gb"} << "did you mean a100-40gb or a100-80gb?";
        QTest::newRow("three") << QStringList{"a", "b", "c"} << "did you mean a, b or c?";
    }
    void didYouMeanLists()
    {
        QFETCH(QStringList, ids);
        QFETCH(QString, text);
        std::vector<std::string> list;
        for (const QString &id : ids)
            list.push_back(id.toStdString());
        QCOMPARE(QString::fromStdString(didYouMean(list)), text);
    }

    void customGpuIsMarkedUnverified()
    {
        const GpuPreset gpu = customGpu("80GB", 80 * kGB);
        QCOMPARE(QString::fromStdString(gpu.id), QStringLiteral("custom-80gb"));
        QCOMPARE(gpu.capacity, 80 * kGB);
        QVERIFY(!gpu.verified);
        QCOMPARE(QString::fromStdString(gpu.label), QStringLiteral("74.5 GiB"));
    }

    // An example that names a model preset opens as that preset: its architecture is the
    // preset's, field for field, or the model box would call it "Custom".
    void examplesOpenAsTheirPreset_data()
    {
        QTest::addColumn<QString>("file");
        const QDir examples(QStringLiteral(VL_EXAMPLES));
        const QStringList files = examples.entryList({QStringLiteral("*.vramledger.yaml")}, QDir::Files);
        QVERIFY(files.size() >= 3);
        for (const QString &name : files)
            QTest::newRow(qPrintable(name)) << examples.filePath(name);
    }
    void examplesOpenAsTheirPreset()
    {
        QFETCH(QString, file);
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const auto doc = parseScenarioDocument(in.readAll().toStdString(), file.toStdString());
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().describe().c_str());
        if (doc->modelId.empty())
            return; // a custom model, said as such
        const PresetCatalog catalog = loadCatalog(VL_SOURCE_PRESETS, {});
        const ModelPreset *preset = catalog.findModel(doc->modelId);
        QVERIFY2(preset, doc->modelId.c_str());
        QCOMPARE(doc->scenario.arch, preset->arch);
    }

    void missingFolderIsNoError()
    {
        const PresetCatalog catalog = loadCatalog("/nonexistent/vram-ledger", "/nonexistent/user");
        QVERIFY(catalog.models.empty());
        QVERIFY(catalog.skipped.empty());
    }
};

QTEST_APPLESS_MAIN(TestPresets)
#include "tst_presets.moc"
