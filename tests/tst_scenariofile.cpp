// Scenario files: every setting round-trips; broken files name file, line and field.

#include "core/estimate.h"
#include "core/fields.h"
#include "core/scenariofile.h"

#include <QTest>

using namespace vl;

namespace {

// A small file of the given schema: a Llama-7B-shaped architecture, then `sections` as written.
Result<ScenarioDocument> parseSketch(int schema, const QString &sections, const std::string &file)
{
    const QString yaml = QStringLiteral("schema: %1\narchitecture: {hidden: 4096, layers: 32, heads: 32, ffn: 11008, "
                                        "vocab: 32000}\n%2\n")
                             .arg(schema)
                             .arg(sections);
    return parseScenarioDocument(yaml.toStdString(), file);
}

} // namespace

class TestScenarioFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip()
    {
        ScenarioDocument doc;
        doc.modelId = "llama-3.1-70b";
        Scenario &s = doc.scenario;
        s.arch.kvHeads = 8;
        s.arch.experts = 8;
        s.arch.expertsPerToken = 2;
        s.arch.parallelResidual = false;
        s.microBatch = 3;
        s.sequence = 8192;
        s.gradAccum = 16;
        s.precision = Precision::MixedBf16;
        s.gradDtype = GradDtype::Fp32;
        s.optimizer = Optimizer::Lion;
        s.zeroStage = 3;
        s.sharding = Sharding::Fsdp;
        s.fsdpVersion = FsdpVersion::Fsdp1; // written "1", read back as a version
        s.perLayerRope = true;
        s.kvRepeated = true;
        s.adaptersFp32 = true;
        s.dataParallel = 64;
        s.tensorParallel = 4;
        s.pipelineParallel = 2;
        s.virtualStages = 2;
        s.sequenceParallel = true;
        s.offload = Offload::OptimizerAndParams;
        s.recompute = Recompute::Selective;
        s.attention = Attention::Flash;
        s.dropout = true;
        s.fineTune = FineTune::LoRA;
        s.loraRank = 64;
        s.loraTargets = LoraAll | LoraHead; // written "all,head"
        s.loraDropout = true;
        s.doubleQuant = false;
        s.ampStyle = AmpStyle::Autocast;
        s.baseDtype = BaseDtype::Bf16;
        s.pytorch = PyTorchRelease::Before2_2; // written "2.1", read back as a version
        s.overhead.measure = Measure::Reserved;
        s.overhead.allocatorPercent = 7;
        s.overhead.cudaContext = 1343 * kMiB;
        doc.gpuIds = {"h100-sxm", "rtx-4090"};
        doc.units = Units::GB;
        Pin pin{"before", "seed-7b", Scenario{}};
        pin.scenario.pagedOptimizer = true; // one GPU, whole tensors: where paging is modelled
        doc.pins = {pin};

        const std::string yaml = scenarioDocumentToYaml(doc);
        const auto back = parseScenarioDocument(yaml, "roundtrip.vramledger.yaml");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().describe().c_str());
        QVERIFY(*back == doc);
    }

    // The file is written from the field table: every field a section files is written (but the
    // keys kept only for older files, and the CUDA context, which the file keeps in MiB).
    void everyFieldIsWritten()
    {
        ScenarioDocument doc = articleExampleDocument();
        doc.pins.clear();
        const QString yaml = QString::fromStdString(scenarioDocumentToYaml(doc));
        for (const FieldSpec &field : scenarioFields()) {
            const std::string key(field.fileKey);
            if (key.starts_with("architecture.") || field.name == "flash-attention" || field.name == "overhead"
                || field.name == "cuda-context")
                continue;
            QVERIFY2(field.integer || field.format, key.c_str());
            const QString leaf = QString::fromStdString(key.substr(key.find('.') + 1));
            QVERIFY2(yaml.contains(QStringLiteral("\n  ") + leaf + QStringLiteral(":")), key.c_str());
        }
    }

    // Files written before the attention kernel was a choice keep their meaning.
    void olderAttentionKey_data()
    {
        QTest::addColumn<QString>("training");
        QTest::addColumn<int>("attention");
        QTest::newRow("flash_attention: true is the flash kernel") << "flash_attention: true" << int(Attention::Flash);
        QTest::newRow("flash_attention: false is eager") << "flash_attention: false" << int(Attention::Eager);
        QTest::newRow("attention: sdpa") << "attention: sdpa" << int(Attention::Sdpa);
    }
    void olderAttentionKey()
    {
        QFETCH(QString, training);
        QFETCH(int, attention);
        const auto doc = parseSketch(1, QStringLiteral("training: {%1}").arg(training), "older.vramledger.yaml");
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().describe().c_str());
        QCOMPARE(int(doc->scenario.attention), attention);
    }

    // The library releases a run uses, as a version number or the release names the file is
    // written with: PyTorch's, where only how it falls against 1.11, 2.1 and 2.2 counts, and
    // bitsandbytes', against 0.43.2, whose 4-bit linear stopped keeping its input (every release
    // of it is 0.x). Anything else is refused, naming the key.
    void releaseVersions_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("release"); // -1: refused
        const QString pytorch = QStringLiteral("training.pytorch");
        QTest::newRow("2.1") << pytorch << "'2.1'" << int(PyTorchRelease::Before2_2);
        QTest::newRow("2.0, the last foreach AdamW adding eps out of place")
            << pytorch << "'2.0'" << int(PyTorchRelease::Before2_1);
        QTest::newRow("1.13") << pytorch << "'1.13'" << int(PyTorchRelease::Before2_1);
        QTest::newRow("1.11, the first without softmax's kept input")
            << pytorch << "'1.11'" << int(PyTorchRelease::Before2_1);
        QTest::newRow("1.10, as written") << pytorch << "'1.10'" << int(PyTorchRelease::Before1_11);
        QTest::newRow("1.9.1, a patch release") << pytorch << "1.9.1" << int(PyTorchRelease::Before1_11);
        QTest::newRow("2.1.2, a patch release") << pytorch << "2.1.2" << int(PyTorchRelease::Before2_2);
        QTest::newRow("2.2") << pytorch << "'2.2'" << int(PyTorchRelease::Since2_2);
        QTest::newRow("2.10") << pytorch << "'2.10'" << int(PyTorchRelease::Since2_2);
        QTest::newRow("3.0") << pytorch << "'3.0'" << int(PyTorchRelease::Since2_2);
        QTest::newRow("2.2+, as written") << pytorch << "2.2+" << int(PyTorchRelease::Since2_2);
        QTest::newRow("a bare 2") << pytorch << "2" << -1;
        QTest::newRow("2.x") << pytorch << "2.x" << -1;
        QTest::newRow("0.4") << pytorch << "'0.4'" << -1;
        QTest::newRow("a negative minor") << pytorch << "'2.-1'" << -1;
        QTest::newRow("a trailing dot") << pytorch << "'2.1.'" << -1;
        QTest::newRow("a number too large") << pytorch << "'99999999999.1'" << -1;
        const QString bitsandbytes = QStringLiteral("finetune.bitsandbytes");
        QTest::newRow("bitsandbytes 0.41, lit-gpt's of 2023")
            << bitsandbytes << "'0.41'" << int(BitsandbytesRelease::Before0_43_2);
        QTest::newRow("bitsandbytes 0.43.1, the last keeping the input")
            << bitsandbytes << "0.43.1" << int(BitsandbytesRelease::Before0_43_2);
        QTest::newRow("bitsandbytes 0.43.2, the first without it")
            << bitsandbytes << "0.43.2" << int(BitsandbytesRelease::Since0_43_2);
        QTest::newRow("bitsandbytes 1.0") << bitsandbytes << "'1.0'" << int(BitsandbytesRelease::Since0_43_2);
        QTest::newRow("bitsandbytes 0.43.2+, as written")
            << bitsandbytes << "0.43.2+" << int(BitsandbytesRelease::Since0_43_2);
        QTest::newRow("bitsandbytes 0.0") << bitsandbytes << "'0.0'" << -1;
        QTest::newRow("bitsandbytes, a word") << bitsandbytes << "latest" << -1;
        QTest::newRow("bitsandbytes, a negative patch") << bitsandbytes << "0.43.-2" << -1;
    }
    void releaseVersions()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(int, release);
        const bool pytorch = key == QLatin1String("training.pytorch");
        const QString sections = pytorch
            ? QStringLiteral("training: {implementation: huggingface, pytorch: %1}").arg(value)
            : QStringLiteral("training: {implementation: huggingface}\nfinetune: {mode: qlora, bitsandbytes: %1}")
                  .arg(value);
        const auto doc = parseSketch(2, sections, "release.vramledger.yaml");
        if (release < 0) {
            QVERIFY(!doc.ok());
            QVERIFY2(doc.error().describe().find(key.toStdString()) != std::string::npos,
                     doc.error().describe().c_str());
            return;
        }
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().describe().c_str());
        QCOMPARE(pytorch ? int(doc->scenario.pytorch) : int(doc->scenario.bitsandbytes), release);
    }

    // What the total predicts: a file before schema 2 meant the tensors alone unless it turned the
    // overhead on; a newer file that does not say takes the default, what nvidia-smi shows.
    void measureAcrossSchemas_data()
    {
        QTest::addColumn<int>("schema");
        QTest::addColumn<QString>("overhead");
        QTest::addColumn<int>("measure");
        QTest::newRow("schema 1, no overhead section") << 1 << "" << int(Measure::Allocated);
        QTest::newRow("schema 1, overhead on") << 1 << "overhead: {enabled: yes}" << int(Measure::NvidiaSmi);
        QTest::newRow("schema 1, overhead off") << 1 << "overhead: {enabled: false}" << int(Measure::Allocated);
        QTest::newRow("schema 2, no overhead section") << 2 << "" << int(Measure::NvidiaSmi);
        QTest::newRow("schema 2, reserved") << 2 << "overhead: {measure: reserved}" << int(Measure::Reserved);
    }
    void measureAcrossSchemas()
    {
        QFETCH(int, schema);
        QFETCH(QString, overhead);
        QFETCH(int, measure);
        const auto doc = parseSketch(schema, overhead, "measure.vramledger.yaml");
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().describe().c_str());
        QCOMPARE(int(doc->scenario.overhead.measure), measure);
    }

    // PEFT's adapters over a 16-bit model: a file before schema 3 that does not say meant them in
    // the model's dtype (PEFT before 0.12); a newer one takes the default, FP32, as PEFT since.
    void adaptersFp32AcrossSchemas_data()
    {
        QTest::addColumn<int>("schema");
        QTest::addColumn<QString>("finetune");
        QTest::addColumn<bool>("fp32");
        QTest::newRow("schema 2, not said: the model's dtype") << 2 << "finetune: {mode: lora}" << false;
        QTest::newRow("schema 2, said yes") << 2 << "finetune: {mode: lora, adapters_fp32: yes}" << true;
        QTest::newRow("schema 3, not said: FP32") << 3 << "finetune: {mode: lora}" << true;
        QTest::newRow("schema 3, said no") << 3 << "finetune: {mode: lora, adapters_fp32: no}" << false;
    }
    void adaptersFp32AcrossSchemas()
    {
        QFETCH(int, schema);
        QFETCH(QString, finetune);
        QFETCH(bool, fp32);
        const auto doc = parseSketch(schema, finetune, "adapters.vramledger.yaml");
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().describe().c_str());
        QCOMPARE(doc->scenario.adaptersFp32, fp32);
    }

    // The CUDA context: a file that names the kernel loading without a size takes that loading's
    // context; a size it gives is kept; a file before the loading existed keeps its size, lazily.
    void cudaContextFollowsLoading_data()
    {
        QTest::addColumn<QString>("overhead");
        QTest::addColumn<int>("loading");
        QTest::addColumn<qint64>("contextMiB");
        QTest::newRow("eager, no size: 1343 MiB")
            << "overhead: {cuda_loading: eager}" << int(ModuleLoading::Eager) << qint64(1343);
        QTest::newRow("eager with a size: the size")
            << "overhead: {cuda_loading: eager, cuda_context_mib: 900}" << int(ModuleLoading::Eager) << qint64(900);
        QTest::newRow("no loading, a size: lazy, the size")
            << "overhead: {cuda_context_mib: 287}" << int(ModuleLoading::Lazy) << qint64(287);
        QTest::newRow("nothing said: lazy, 400 MiB") << "" << int(ModuleLoading::Lazy) << qint64(400);
    }
    void cudaContextFollowsLoading()
    {
        QFETCH(QString, overhead);
        QFETCH(int, loading);
        QFETCH(qint64, contextMiB);
        const auto doc = parseSketch(2, overhead, "context.vramledger.yaml");
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().describe().c_str());
        QCOMPARE(int(doc->scenario.overhead.moduleLoading), loading);
        QCOMPARE(qint64(doc->scenario.overhead.cudaContext), contextMiB * 1024 * 1024);
    }

    void badMeasureNamesTheKey()
    {
        const auto doc = parseSketch(2, QStringLiteral("overhead: {measure: smi}"), "bad.vramledger.yaml");
        QVERIFY(!doc.ok());
        const std::string message = doc.error().describe();
        QVERIFY2(message.find("overhead.measure") != std::string::npos, message.c_str());
        QVERIFY2(message.find("allocated|reserved|nvidia-smi") != std::string::npos, message.c_str());
    }

    // A pipeline whose file names no micro-batch count runs with its 1F1B pipeline full; a count
    // the file gives, 1 included, is kept.
    void pipelineMicroBatches_data()
    {
        QTest::addColumn<QString>("training");
        QTest::addColumn<int>("inFlight");
        QTest::newRow("grad_accum absent: one per stage") << "batch: 1" << 4;
        QTest::newRow("grad_accum: 1 stays one") << "grad_accum: 1" << 1;
        QTest::newRow("grad_accum: 0 is the same as absent") << "grad_accum: 0" << 4;
    }
    void pipelineMicroBatches()
    {
        QFETCH(QString, training);
        QFETCH(int, inFlight);
        const auto doc = parseSketch(1, QStringLiteral("training: {%1}\nparallel: {pp: 4}").arg(training),
                                     "pipeline.vramledger.yaml");
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().describe().c_str());
        QCOMPARE(int(estimate(doc->scenario).microBatchesInFlight), inFlight);
    }

    void brokenFiles_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        const QString arch = QStringLiteral(
            "architecture: {hidden: 4096, layers: 32, heads: 32, ffn: 11008, vocab: 32000}\n");
        QTest::newRow("no schema") << arch << 1 << "schema"
                                   << "is required";
        QTest::newRow("wrong type") << QStringLiteral("schema: 1\n") + arch
                + QStringLiteral("training:\n  batch: many\n")
                                    << 4 << "training.batch"
                                    << "not a whole number";
        QTest::newRow("negative") << QStringLiteral("schema: 1\n") + arch + QStringLiteral("training:\n  seq: -1\n")
                                  << 4 << "training.seq"
                                  << "allowed 1 to";
        QTest::newRow("unknown key") << QStringLiteral("schema: 1\n") + arch + QStringLiteral("trainig:\n  batch: 2\n")
                                     << 3 << "trainig"
                                     << "unknown key";
        QTest::newRow("bad word") << QStringLiteral("schema: 1\n") + arch
                + QStringLiteral("training:\n  precision: fp4\n")
                                  << 4 << "training.precision"
                                  << "fp32|mixed-fp16";
        QTest::newRow("a key given twice")
            << QStringLiteral("schema: 1\n") + arch + QStringLiteral("training:\n  batch: 2\n  batch: 64\n") << 5
            << "training.batch"
            << "appears twice";
        QTest::newRow("a section that is a list")
            << QStringLiteral("schema: 1\n") + arch + QStringLiteral("training: [1, 2]\n") << 3 << "training"
            << "expected a mapping";
        QTest::newRow("a section that is a word")
            << QStringLiteral("schema: 1\n") + arch + QStringLiteral("overhead: on\n") << 3 << "overhead"
            << "expected a mapping";
        QTest::newRow("unknown implementation")
            << QStringLiteral("schema: 1\n") + arch + QStringLiteral("training:\n  implementation: nemo\n") << 4
            << "training.implementation"
            << "megatron|huggingface|torchtitan|litgpt";
        QTest::newRow("bad LoRA dropout")
            << QStringLiteral("schema: 1\n") + arch + QStringLiteral("finetune:\n  lora_dropout: maybe\n") << 4
            << "finetune.lora_dropout"
            << "";
        // Cross-field rules come from the core; the error names the file's key at its own line.
        QTest::newRow("cross-field rule from the core")
            << QStringLiteral("schema: 1\n") + arch + QStringLiteral("parallel:\n  offload: optimizer\n") << 4
            << "parallel.offload"
            << "choose --zero";
        QTest::newRow("paged optimizer states sharded by ZeRO") << QStringLiteral("schema: 1\n") + arch
                + QStringLiteral("training:\n  paged_optimizer: yes\nparallel:\n  zero: 2\n  dp: 8\n")
                                                                << 4 << "training.paged_optimizer"
                                                                << "modelled over whole tensors on one GPU";
        QTest::newRow("cross-field rule in the architecture") << QStringLiteral(
            "schema: 1\narchitecture: {hidden: 4096, layers: 32, heads: 32, kv_heads: 5, ffn: 11008, vocab: 32000}\n")
                                                              << 2 << "architecture.kv_heads"
                                                              << "must divide the 32 attention heads";
        QTest::newRow("cross-field rule on a key left to its default: its section") << QStringLiteral("schema: 1\n")
                + arch + QStringLiteral("training:\n  seq: 4096\nparallel:\n  cp: 3\n  sp: false\n")
                                                                                    << 6 << "parallel.cp"
                                                                                    << "does not divide the sequence";
        QTest::newRow("cross-field rule inside a pin") << QStringLiteral("schema: 1\n") + arch
                + QStringLiteral("pins:\n  - name: a\n    architecture: {hidden: 4096, layers: 32, heads: 32, ffn: "
                                 "11008, vocab: 32000}\n    parallel:\n      offload: optimizer\n")
                                                       << 7 << "pins[0].parallel.offload"
                                                       << "choose --zero";
        QString manyPins = QStringLiteral("schema: 1\n") + arch + QStringLiteral("pins:\n");
        for (std::size_t i = 0; i <= kMaxPins; ++i)
            manyPins += QStringLiteral(
                            "  - {name: p%1, architecture: {hidden: 64, layers: 2, heads: 4, ffn: 256, vocab: 100}}\n")
                            .arg(i);
        QTest::newRow("more pins than a file keeps") << manyPins << 4 << "pins"
                                                     << "pinned scenarios; a file keeps at most 256";
        QString manyGpus = QStringLiteral("schema: 1\n") + arch + QStringLiteral("gpus: [");
        for (std::size_t i = 0; i <= kMaxGpus; ++i)
            manyGpus += QStringLiteral("gpu-%1, ").arg(i);
        QTest::newRow("more GPUs than a file lists") << manyGpus + QStringLiteral("last]\n") << 3 << "gpus"
                                                     << "a file lists at most 256";
        QTest::newRow("truncated") << QStringLiteral("schema: 1\narchitecture: {hidden: 4096, layers") << 2 << ""
                                   << "not valid YAML";
    }
    void brokenFiles()
    {
        QFETCH(QString, yaml);
        QFETCH(int, line);
        QFETCH(QString, field);
        QFETCH(QString, message);
        const auto doc = parseScenarioDocument(yaml.toStdString(), "team.vramledger.yaml");
        QVERIFY(!doc.ok());
        const Error &e = doc.error();
        QCOMPARE(QString::fromStdString(e.file), QStringLiteral("team.vramledger.yaml"));
        QCOMPARE(e.line, line);
        QCOMPARE(QString::fromStdString(e.field), field);
        QVERIFY2(QString::fromStdString(e.message).contains(message), e.describe().c_str());
    }
};

QTEST_APPLESS_MAIN(TestScenarioFile)
#include "tst_scenariofile.moc"
