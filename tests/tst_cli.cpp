// vram-ledger-cli as a process: its JSON contract, exit codes and one-line errors.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

constexpr qint64 kNoSuchItem = -1; // an item the report does not list

// Rows for a test of --fit-by: the value given ("" for none) and the rule that must follow.
void fitByRows()
{
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("rule");
    QTest::newRow("not given: the peak") << ""
                                         << "peak";
    QTest::newRow("peak") << "peak"
                          << "peak";
    QTest::newRow("sum") << "sum"
                         << "sum";
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_home; // an empty user-preset folder, whatever the machine has

    Run cli(const QStringList &args)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        env.remove(QStringLiteral("VRAM_LEDGER_PRESETS"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(VL_CLI), args);
        if (!process.waitForFinished(60'000))
            return {};
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
                process.readAllStandardError()};
    }

    QJsonObject json(const QStringList &args)
    {
        const Run run = cli(args + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        if (run.exitCode != 0)
            qWarning("%s", run.err.constData());
        return QJsonDocument::fromJson(run.out).object();
    }

private Q_SLOTS:
    void defaultIsTheArticleExample()
    {
        const QJsonObject o = json({});
        QCOMPARE(o[QStringLiteral("parameters")][QStringLiteral("total")].toInteger(), 7'000'000'000);
        const QJsonObject perGpu = o[QStringLiteral("per_gpu")].toObject();
        QCOMPARE(perGpu[QStringLiteral("parameters")].toInteger(), 14'000'000'000);
        QCOMPARE(perGpu[QStringLiteral("gradients")].toInteger(), 14'000'000'000);
        QCOMPARE(perGpu[QStringLiteral("optimizer_states")].toInteger(), 84'000'000'000);
        qint64 sum = 0;
        for (const char *c : {"parameters", "gradients", "optimizer_states", "activations", "overhead"})
            sum += perGpu[QLatin1String(c)].toInteger();
        QCOMPARE(perGpu[QStringLiteral("total")].toInteger(), sum);
        QStringList ids;
        for (const QJsonValue &item : o[QStringLiteral("items")].toArray())
            ids << item[QStringLiteral("id")].toString();
        for (const char *id : {"weights", "gradients", "master_weights", "optimizer_moments", "layer_activations",
                               "embedding_activations", "logits"})
            QVERIFY2(ids.contains(QLatin1String(id)), id);
    }

    void itemsExplainThemselves()
    {
        const QJsonObject o = json({QStringLiteral("--units"), QStringLiteral("gb")});
        for (const QJsonValue &item : o[QStringLiteral("items")].toArray())
            if (item[QStringLiteral("id")] == QStringLiteral("weights"))
                QCOMPARE(item[QStringLiteral("formula")].toString(), QStringLiteral("7.00e9 params × 2 B = 14.0 GB"));
    }

    void options_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("path");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("model preset") << QStringList{"--model", "llama-2-7b"} << "parameters.total"
                                      << qint64(6'738'415'616);
        QTest::newRow("LoRA on every projection and the LM head (PEFT: 19,988,480 + r·(h + vocab))")
            << QStringList{"--model",     "llama-2-7b", "--finetune",     "lora",
                           "--lora-rank", "8",          "--lora-targets", "all,head"}
            << "parameters.trainable" << qint64(19'988'480 + 8 * (4096 + 32000));
        QTest::newRow("lit-gpt's LoRA on q, v and its head (lora_head)")
            << QStringList{"--model",    "llama-2-7b", "--implementation", "litgpt", "--precision",    "bf16",
                           "--finetune", "lora",       "--lora-rank",      "8",      "--lora-targets", "q,v,head"}
            << "parameters.trainable" << qint64(4'194'304 + 8 * (4096 + 32000));
        QTest::newRow("params with suffix")
            << QStringList{"--params", "7.5B"} << "parameters.total" << qint64(7'500'000'000);
        QTest::newRow("torchtitan picks its own attention: SDPA, no s² scores")
            << QStringList{"--model", "llama-3.1-8b", "--implementation", "torchtitan", "--precision", "bf16",
                           "--seq",   "2048"}
            << "parameters.total" << qint64(8'030'261'248);
        QTest::newRow("a CUDA context as nvidia-smi read it on a V100")
            << QStringList{"--overhead", "yes", "--cuda-context", "1343MiB"} << "items.cuda_context"
            << qint64(1343) * 1024 * 1024;
        QTest::newRow("eager kernel loading: the context of CUDA before 11.7")
            << QStringList{"--cuda-loading", "eager"} << "items.cuda_context" << qint64(1343) * 1024 * 1024;
        QTest::newRow("a context size given stays beside the loading")
            << QStringList{"--cuda-loading", "eager", "--cuda-context", "900MiB"} << "items.cuda_context"
            << qint64(900) * 1024 * 1024;
        QTest::newRow("architecture flags count the parameters: Llama-3-70B's shapes")
            << QStringList{"--hidden",   "8192", "--layers", "80",    "--heads", "64",
                           "--kv-heads", "8",    "--ffn",    "28672", "--vocab", "128256"}
            << "parameters.total" << qint64(70'553'706'496);
        // Llama-2-7B loaded in BF16 under autocast with LoRA: 2 B per frozen weight, not 4.
        QTest::newRow("a frozen BF16 base under autocast")
            << QStringList{"--model",    "llama-2-7b",  "--finetune", "lora",         "--precision",
                           "mixed-bf16", "--amp-style", "autocast",   "--base-dtype", "bf16"}
            << "items.weights" << qint64(6'738'415'616) * 2;
        // Llama-2-7B's shapes with one layer: its published total less 31 layers of 202,383,360.
        QTest::newRow("one layer trains fully (trainable-layers is freeze's)")
            << QStringList{"--layers", "1"} << "parameters.total" << qint64(6'738'415'616) - 31 * qint64(202'383'360);
        QTest::newRow("Hugging Face config")
            << QStringList{"--config", VL_TEST_DATA "/hf/gpt2.json"} << "parameters.total" << qint64(124'439'808);
        QTest::newRow("ZeRO-3 over 64 shards the master copy")
            << QStringList{"--params", "7.5e9", "--zero", "3", "--dp", "64"} << "items.master_weights"
            << qint64(468'750'000);
        QTest::newRow("full recomputation keeps s·b·h·L·2")
            << QStringList{"--recompute", "full"} << "items.layer_activations" << qint64(1'073'741'824);
        QTest::newRow("by default the total is what nvidia-smi shows: a CUDA context")
            << QStringList{} << "items.cuda_context" << qint64(400) * 1024 * 1024;
        QTest::newRow("the allocator's pool: no CUDA context")
            << QStringList{"--measure", "reserved"} << "items.cuda_context" << kNoSuchItem;
        // What max_memory_allocated counts beyond the tensors: the cuBLAS workspaces of forward's
        // and backward's threads and Transformer Engine's; the article's example runs on an A100
        // (compute capability 8): 8 MiB 128 KiB each and 4 MiB.
        const qint64 ampere = 2 * (qint64(8) * 1024 * 1024 + 128 * 1024) + qint64(4) * 1024 * 1024;
        const qint64 hopper = 2 * qint64(32) * 1024 * 1024 + qint64(32) * 1024 * 1024 + 1024;
        QTest::newRow("--overhead no (before --measure): the tensors and the GEMM workspaces alone")
            << QStringList{"--overhead", "no"} << "per_gpu.overhead" << ampere;
        QTest::newRow("GEMM workspaces from Hopper on: cuBLAS's 32 MiB, Transformer Engine's 32 MiB + 1 KiB")
            << QStringList{"--compute-capability", "9"} << "items.gemm_workspaces" << hopper;
        QTest::newRow("--gpu h100-sxm: the H100's compute capability, 9, sizes the workspaces")
            << QStringList{"--gpu", "h100-sxm"} << "items.gemm_workspaces" << hopper;
        QTest::newRow("--compute-capability given beats --gpu's")
            << QStringList{"--gpu", "h100-sxm", "--compute-capability", "8"} << "items.gemm_workspaces" << ampere;
        QTest::newRow("--gpu 80GB, a bare size, leaves the example's")
            << QStringList{"--gpu", "80GB"} << "items.gemm_workspaces" << ampere;
        // Transformer Engine's grouped GEMM keeps a workspace for each of its 4 compute streams
        // (module/base.py get_multi_stream_cublas_workspace).
        QTest::newRow("--moe-grouped-gemm yes: 4 more of Transformer Engine's workspaces")
            << QStringList{"--compute-capability", "9", "--experts",          "8",
                           "--experts-per-token",  "2", "--moe-grouped-gemm", "yes"}
            << "items.gemm_workspaces" << hopper + 4 * (qint64(32) * 1024 * 1024 + 1024);
        QTest::newRow("--moe-grouped-gemm yes on a dense model: nothing grouped")
            << QStringList{"--compute-capability", "9", "--moe-grouped-gemm", "yes"} << "items.gemm_workspaces"
            << hopper;
        QTest::newRow("GEMM workspaces outside Megatron: cuBLAS's alone")
            << QStringList{"--implementation", "huggingface", "--modeling", "llama"} << "items.gemm_workspaces"
            << 2 * (qint64(8) * 1024 * 1024 + 128 * 1024);
        QTest::newRow("GPU capacity is what nvidia-smi reports")
            << QStringList{"--gpu", "h100-sxm"} << "gpu.capacity_bytes" << qint64(81559) * 1024 * 1024;
        QTest::newRow("FSDP gathers the root and two layers in BF16")
            << QStringList{"--model", "llama-3.1-8b", "--precision", "mixed-bf16", "--zero",
                           "3",       "--dp",         "8",           "--sharding", "fsdp"}
            << "items.fsdp_unsharded_params" << (qint64(1'050'677'248) + 2 * qint64(218'112'000)) * 2;
        // FSDP1 gathers each unit into its flat parameter: beside it only the FP32 shard's cast,
        // the root's (embedding, final norm and head) ÷ 8, in BF16.
        QTest::newRow("FSDP1 gathers in place: only the root's shard cast")
            << QStringList{"--model", "llama-3.1-8b", "--precision", "mixed-bf16",     "--zero", "3", "--dp",
                           "8",       "--sharding",   "fsdp",        "--fsdp-version", "1"}
            << "items.fsdp_all_gather_buffers" << qint64(1'050'677'248) / 8 * 2;
        // FSDP2 without gradient sync keeps each trainable parameter's unsharded gradient in the
        // reduce dtype (FP32 under mixed precision) from the first micro-batch to the last.
        QTest::newRow("FSDP accumulating without sync: every gradient unsharded, FP32")
            << QStringList{"--model", "llama-3.1-8b", "--precision", "mixed-bf16",   "--zero", "3",         "--dp",
                           "8",       "--sharding",   "fsdp",        "--grad-accum", "4",      "--no-sync", "yes"}
            << "items.fsdp_accumulated_gradients" << qint64(8'030'261'248) * 4;
        QTest::newRow("one micro-batch: nothing to accumulate")
            << QStringList{"--model", "llama-3.1-8b", "--precision", "mixed-bf16",   "--zero", "3",         "--dp",
                           "8",       "--sharding",   "fsdp",        "--grad-accum", "1",      "--no-sync", "yes"}
            << "items.fsdp_accumulated_gradients" << kNoSuchItem;
        QTest::newRow("a pipeline without --grad-accum runs full: p micro-batches in flight")
            << QStringList{"--model", "llama-2-7b", "--pp", "4"} << "pipeline.micro_batches_in_flight" << qint64(4);
        QTest::newRow("--grad-accum still decides when given")
            << QStringList{"--model", "llama-2-7b", "--pp", "4", "--grad-accum", "2"}
            << "pipeline.micro_batches_in_flight" << qint64(2);
        // Megatron's interleaved warm-up on stage 0: 2(p − 1) + (v − 1)·p = 10 passes, then one more;
        // in groups of p: chunk 0 and 1 of micro-batches 0–3, then chunk 0 of 4–6.
        QTest::newRow("interleaved: 11 chunk passes in flight on stage 0")
            << QStringList{"--model", "llama-2-7b", "--pp", "4", "--vpp", "2", "--grad-accum", "8"}
            << "pipeline.chunk_passes_in_flight" << qint64(11);
        QTest::newRow("interleaved: they hold 7 micro-batches")
            << QStringList{"--model", "llama-2-7b", "--pp", "4", "--vpp", "2", "--grad-accum", "8"}
            << "pipeline.micro_batches_in_flight" << qint64(7);
        // DeepSpeed's ZeRO-1 offload in CPU memory per GPU: FP32 master, moments and gradients and
        // the 16-bit updated partition, (4 + 8 + 4 + 2) B per parameter ÷ 2, and the pinned buffer
        // of the largest parameter (the 32000 × 4096 embedding) in 16 bits.
        const qint64 zero1OffloadHost = qint64(1'000'000'000) / 2 * 18 + qint64(32000) * 4096 * 2;
        QTest::newRow("--offload alone brings the ZeRO stage it needs (the GUI's rule)")
            << QStringList{"--dp", "2", "--offload", "optimizer", "--params", "1e9"} << "host.total"
            << zero1OffloadHost;
        QTest::newRow("offload reports host memory")
            << QStringList{"--zero", "1", "--dp", "2", "--offload", "optimizer", "--params", "1e9"} << "host.total"
            << zero1OffloadHost;
        QTest::newRow("the offloaded master copy is in CPU memory, item by item")
            << QStringList{"--zero", "1", "--dp", "2", "--offload", "optimizer", "--params", "1e9"}
            << "host_items.master_weights" << qint64(1'000'000'000) / 2 * 4;
        QTest::newRow("a node of two GPUs holds both GPUs' offload")
            << QStringList{"--zero", "1", "--dp", "2", "--offload", "optimizer", "--params", "1e9"} << "host.per_node"
            << 2 * zero1OffloadHost;
        // Over 16 GPUs each holds (4 + 8 + 4 + 2) B per parameter ÷ 16 and the staging buffer.
        QTest::newRow("a node holds --gpus-per-node GPUs' offload")
            << QStringList{"--zero",          "1", "--dp", "16", "--offload", "optimizer", "--params", "1e9",
                           "--gpus-per-node", "4"}
            << "host.per_node" << 4 * (qint64(1'000'000'000) / 16 * 18 + qint64(32000) * 4096 * 2);
    }
    void options()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, path);
        QFETCH(qint64, expected);
        const QJsonObject o = json(args);
        const QStringList parts = path.split(QLatin1Char('.'));
        if (parts[0] == QStringLiteral("items") || parts[0] == QStringLiteral("host_items")) {
            const QString key = parts[0] == QStringLiteral("items") ? QStringLiteral("bytes")
                                                                    : QStringLiteral("host_bytes");
            qint64 found = kNoSuchItem;
            for (const QJsonValue &item : o[QStringLiteral("items")].toArray())
                if (item[QStringLiteral("id")].toString() == parts[1])
                    found = item[key].toInteger();
            QCOMPARE(found, expected);
        } else {
            QCOMPARE(o[parts[0]][parts[1]].toInteger(), expected);
        }
    }

    // The report carries the step's peak beside the sum; --fit-by chooses which one must fit, the
    // peak unless told.
    void fitByChoosesSumOrPeak_data() { fitByRows(); }
    void fitByChoosesSumOrPeak()
    {
        QFETCH(QString, given);
        QFETCH(QString, rule);
        // Full recomputation: the peak (end of backward) lies well below the sum.
        QStringList args{"--gpu", "a100-80gb", "--recompute", "full"};
        if (!given.isEmpty())
            args << "--fit-by" << given;
        const QJsonObject o = json(args);
        const QJsonObject perGpu = o[QStringLiteral("per_gpu")].toObject();
        const qint64 total = perGpu[QStringLiteral("total")].toInteger();
        const qint64 peak = perGpu[QStringLiteral("peak")].toInteger();
        QVERIFY(peak > 0 && peak < total);
        const QJsonObject gpu = o[QStringLiteral("gpu")].toObject();
        QCOMPARE(gpu[QStringLiteral("fit_by")].toString(), rule);
        const qint64 required = rule == QStringLiteral("sum") ? total : peak;
        QCOMPARE(gpu[QStringLiteral("headroom_bytes")].toInteger(),
                 gpu[QStringLiteral("capacity_bytes")].toInteger() - required);
    }

    // The report says what stays allocated between steps, the step timeline's point before the
    // step: Megatron-LM logs it as mem-allocated-bytes. On a Megatron run it is the model states,
    // the workspaces (its main gradients live in a buffer) and what the loop keeps from one step to
    // the next; in the default, PyTorch's own loop, the gradients are freed after the step.
    void betweenSteps_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("kept");
        const QStringList states{"weights", "master_weights", "optimizer_moments", "gemm_workspaces"};
        QTest::newRow("the article's example: weights, master copy, moments and the workspaces")
            << QStringList{} << states;
        QTest::newRow("Megatron-LM, 7B interleaved, last stage: kept pipeline inputs and micro-batches")
            << QStringList{QStringLiteral("--scenario"),
                           QStringLiteral(VL_SOURCE_DIR "/docs/scenarios/megatron-7b-interleaved-pp4.vramledger.yaml")}
            << states + QStringList{"gradients", "pipeline_inputs_kept", "batches_kept", "input_batch"};
        QTest::newRow("the same without the rerun state machine: the pipeline inputs")
            << QStringList{QStringLiteral("--scenario"),
                           QStringLiteral(VL_SOURCE_DIR "/docs/scenarios/megatron-7b-interleaved-pp4.vramledger.yaml"),
                           QStringLiteral("--rerun-keeps-batches"), QStringLiteral("no")}
            << states + QStringList{"gradients", "pipeline_inputs_kept"};
        // Hugging Face's Trainer holds its batch until the next one replaces it; DeepSpeed ZeRO-3
        // keeps the gradients' partitions in one buffer; transformers 4.39's Llama layers keep their
        // RoPE tables.
        QTest::newRow("QLoRA under ZeRO-3: the shards, not the whole model of its start-up")
            << QStringList{QStringLiteral("--scenario"),
                           QStringLiteral(VL_SOURCE_DIR "/docs/scenarios/llama-2-70b-qlora-zero3-peft.vramledger.yaml")}
            << QStringList{"weights",           "lora_adapters",   "zero3_persistent_params", "master_weights",
                           "optimizer_moments", "gemm_workspaces", "zero_reduce_bucket",      "input_batch",
                           "gradients",         "rotary_table"};
    }
    void betweenSteps()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, kept);
        const QJsonObject o = json(args + QStringList{QStringLiteral("--measure"), QStringLiteral("allocated")});
        qint64 sum = 0;
        for (const QJsonValue &item : o[QStringLiteral("items")].toArray())
            if (kept.contains(item[QStringLiteral("id")].toString()))
                sum += item[QStringLiteral("bytes")].toInteger();
        const QJsonObject perGpu = o[QStringLiteral("per_gpu")].toObject();
        QCOMPARE(perGpu[QStringLiteral("between_steps")].toInteger(), sum);
        QVERIFY(sum < perGpu[QStringLiteral("peak")].toInteger());
        const Run table = cli(args);
        QVERIFY2(table.out.contains("Between steps"), table.out.constData());
    }

    // The report says where the peak is: a point of the step, or the run's start-up where the
    // model is placed whole before it is sharded (the table then calls it so).
    void peakSaysWhereItIs_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("phase");
        QTest::newRow("the article's example at batch 8: at the loss")
            << QStringList{QStringLiteral("--batch"), QStringLiteral("8")} << "loss";
        QTest::newRow("every layer recomputed: in backward")
            << QStringList{QStringLiteral("--recompute"), QStringLiteral("full")} << "backward";
        QTest::newRow("PEFT's QLoRA under DeepSpeed ZeRO-3: at start-up")
            << QStringList{QStringLiteral("--scenario"),
                           QStringLiteral(VL_SOURCE_DIR "/docs/scenarios/llama-2-70b-qlora-zero3-peft.vramledger.yaml")}
            << "start_up";
    }
    void peakSaysWhereItIs()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, phase);
        const QJsonObject perGpu = json(args)[QStringLiteral("per_gpu")].toObject();
        QCOMPARE(perGpu[QStringLiteral("peak_phase")].toString(), phase);
        const Run table = cli(args);
        QCOMPARE(table.out.contains("Peak (at start-up)"), phase == QStringLiteral("start_up"));
        QCOMPARE(table.out.contains("Step peak"), phase != QStringLiteral("start_up"));
    }

    // Scenarios at the edge of the ranges: every item non-negative, the total their sum, the peak
    // no more than the total — or a clear refusal (exit 2), never a wrapped number.
    void hugeScenariosNeverWrap_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("interleaved pipeline of 10,000 stages")
            << QStringList{"--layers", "10000", "--pp", "10000", "--vpp", "1024", "--grad-accum", "1048576"};
        QTest::newRow("405B, 128k tokens, 126 interleaved stages") << QStringList{
            "--model", "llama-3.1-405b", "--seq", "131072", "--pp", "126", "--vpp", "64", "--grad-accum", "126"};
        QTest::newRow("head dimension at its limit")
            << QStringList{"--hidden", "1048576",    "--heads", "65536",    "--kv-heads",
                           "65536",    "--head-dim", "65536",   "--layers", "10000"};
    }
    void hugeScenariosNeverWrap()
    {
        QFETCH(QStringList, args);
        const Run run = cli(args + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        if (run.exitCode == 2)
            return; // refused with a message naming the field: what the issue asks for
        QCOMPARE(run.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(run.out).object();
        qint64 sum = 0;
        for (const QJsonValue &item : o[QStringLiteral("items")].toArray()) {
            QVERIFY2(item[QStringLiteral("bytes")].toInteger() >= 0, qPrintable(item[QStringLiteral("id")].toString()));
            sum += item[QStringLiteral("bytes")].toInteger();
        }
        const QJsonObject perGpu = o[QStringLiteral("per_gpu")].toObject();
        QCOMPARE(perGpu[QStringLiteral("total")].toInteger(), sum);
        QVERIFY(perGpu[QStringLiteral("peak")].toInteger() <= sum);
    }

    // A model YAML is read as YAML whatever the case of its suffix (M.YAML is no config.json).
    void configSuffixIgnoresCase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("MODEL.YAML"));
        QVERIFY(QFile::copy(QStringLiteral(VL_SOURCE_PRESETS "/models/gpt2.yaml"), path));
        QCOMPARE(json({"--config", path})[QStringLiteral("parameters")][QStringLiteral("total")].toInteger(),
                 124'439'808);
    }

    void fitsVerdict()
    {
        const QJsonObject gpu =
            json({QStringLiteral("--gpu"), QStringLiteral("a100-80gb")})[QStringLiteral("gpu")].toObject();
        QCOMPARE(gpu[QStringLiteral("fits")].toBool(), false); // the article's point: 84 GB alone is over
        QVERIFY(gpu[QStringLiteral("headroom_bytes")].toInteger() < 0);
        const QJsonObject sharded = json({"--gpu", "a100-80gb", "--zero", "3", "--dp", "8", "--recompute",
                                          "full"})[QStringLiteral("gpu")]
                                        .toObject();
        QCOMPARE(sharded[QStringLiteral("fits")].toBool(), true);
    }

    void solveIsConsistentWithEstimates()
    {
        const QStringList base{"--model", "llama-3.1-8b",      "--zero", "3",     "--dp",
                               "8",       "--flash-attention", "yes",    "--gpu", "h100-sxm"};
        const qint64 batch =
            json(base + QStringList{"--solve", "max-batch"})[QStringLiteral("solve")][QStringLiteral("value")]
                .toInteger();
        QVERIFY(batch > 0);
        QCOMPARE(
            json(base + QStringList{"--batch", QString::number(batch)})[QStringLiteral("gpu")][QStringLiteral("fits")]
                .toBool(),
            true);
        QCOMPARE(
            json(base
                 + QStringList{"--batch", QString::number(batch + 1)})[QStringLiteral("gpu")][QStringLiteral("fits")]
                .toBool(),
            false);
    }

    // min-gpus finds the data-parallel GPUs; the run takes them on every tensor-, pipeline- and
    // context-parallel GPU.
    void minGpusCountsEveryParallelism_data()
    {
        QTest::addColumn<QStringList>("parallelism");
        QTest::addColumn<int>("gpusPerDataParallelRank");
        QTest::newRow("data parallel alone") << QStringList{} << 1;
        QTest::newRow("TP 2") << QStringList{"--tp", "2"} << 2;
        QTest::newRow("CP 4") << QStringList{"--cp", "4"} << 4;
        QTest::newRow("TP 2 × PP 2 × CP 2") << QStringList{"--tp", "2", "--pp", "2", "--cp", "2"} << 8;
    }
    void minGpusCountsEveryParallelism()
    {
        QFETCH(QStringList, parallelism);
        QFETCH(int, gpusPerDataParallelRank);
        const QStringList args = QStringList{"--model",    "llama-3.1-70b", "--zero",      "3",
                                             "--sharding", "fsdp",          "--attention", "sdpa",
                                             "--seq",      "16384",         "--recompute", "full",
                                             "--gpu",      "h100-sxm",      "--solve",     "min-gpus"}
            + parallelism;
        const QJsonObject solve = json(args)[QStringLiteral("solve")].toObject();
        const qint64 ranks = solve[QStringLiteral("value")].toInteger();
        QVERIFY(ranks > 1);
        QCOMPARE(solve[QStringLiteral("gpus")].toInteger(), ranks * gpusPerDataParallelRank);
    }

    // Each point carries its sum and its peak; whether it fits follows --fit-by.
    void sweepCsv_data() { fitByRows(); }
    void sweepCsv()
    {
        QFETCH(QString, given);
        QFETCH(QString, rule);
        QStringList args{"--sweep", "seq=512:32768:512", "--format", "csv", "--gpu", "a100-80gb", "--zero", "3", "--dp",
                         "8",       "--recompute",       "full"};
        if (!given.isEmpty())
            args << "--fit-by" << given;
        const Run run = cli(args);
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 64);
        const QList<QByteArray> header = lines[0].split(',');
        QVERIFY(lines[0].startsWith("seq,parameters_bytes,"));
        QVERIFY(lines[1].startsWith("512,"));
        QVERIFY(lines.last().startsWith("32768,"));
        QCOMPARE(header.last(), ("fits a100-80gb by the " + rule).toUtf8());
        const qsizetype total = header.indexOf("total_bytes"), peak = header.indexOf("peak_bytes");
        QVERIFY(total > 0 && peak == total + 1);
        const qint64 capacity = qint64(81920) << 20; // presets/gpus/gpus.yaml: a100-80gb, capacity_mib
        bool differ = false;                         // somewhere the two rules give different answers
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> cells = lines[i].split(',');
            const qint64 sum = cells[total].toLongLong(), stepPeak = cells[peak].toLongLong();
            QVERIFY(stepPeak > 0 && stepPeak <= sum);
            const qint64 required = rule == QStringLiteral("sum") ? sum : stepPeak;
            QCOMPARE(cells.last(), QByteArray(required <= capacity ? "yes" : "no"));
            differ = differ || ((sum <= capacity) != (stepPeak <= capacity));
        }
        QVERIFY(differ);
    }

    // Where the run's start-up is the peak no lever lowers it: the ladder says so, and what would.
    void ladderSaysWhenTheStartUpIsThePeak_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QString qlora = QStringLiteral(VL_SOURCE_DIR
                                             "/docs/scenarios/llama-2-70b-qlora-zero3-peft.vramledger.yaml");
        const QString lora = QStringLiteral(VL_SOURCE_DIR
                                            "/docs/scenarios/llama-2-70b-lora-zero3-peft.vramledger.yaml");
        QTest::newRow("QLoRA under ZeRO-3 on a 24 GB GPU")
            << QStringList{"--scenario", qlora, "--gpu", "rtx-4090"} << "a 4-bit model always reaches DeepSpeed whole";
        QTest::newRow("LoRA built outside zero.Init")
            << QStringList{"--scenario", lora, "--zero-init", "no"} << "built under zero.Init (--zero-init yes)";
        QTest::newRow("the same built under it: the step's peak, no such line")
            << QStringList{"--scenario", lora, "--gpu", "rtx-4090"} << "";
    }
    void ladderSaysWhenTheStartUpIsThePeak()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const Run run = cli(args + QStringList{QStringLiteral("--ladder")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("does not fit"), run.out.constData());
        QCOMPARE(run.out.contains("Its peak is the run's start-up"), !expected.isEmpty());
        if (!expected.isEmpty())
            QVERIFY2(run.out.contains(expected.toUtf8()), run.out.constData());
    }

    // Where no lever is enough, the ladder says how many data-parallel GPUs hold the last step's
    // scenario: the number --solve min-gpus finds for it. Without sharding no count helps.
    void ladderSaysHowManyGpusWouldHoldIt_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("lastStep"); // the levers the ladder pulled, as flags
        QTest::newRow("70B under FSDP over 8 H100s")
            << QStringList{"--dp", "8", "--zero", "3", "--sharding", "fsdp", "--gpu", "h100-sxm"}
            << QStringList{"--dp", "8", "--zero", "3", "--sharding", "fsdp", "--recompute", "full", "--seq", "2048"};
        QTest::newRow("one GPU: the ZeRO lever shards over 8")
            << QStringList{"--gpu", "h100-sxm", "--ladder-order", "zero,recompute"}
            << QStringList{"--dp", "8", "--zero", "3", "--recompute", "full"};
        QTest::newRow("no sharding: no count helps")
            << QStringList{"--gpu", "rtx-4090", "--ladder-order", "recompute"} << QStringList{};
    }
    void ladderSaysHowManyGpusWouldHoldIt()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, lastStep);
        const QStringList model{"--model", "llama-3-70b"};
        const Run run = cli(model + args + QStringList{QStringLiteral("--ladder")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("Even with every lever pulled it does not fit"), run.out.constData());
        const QRegularExpression line(QStringLiteral("it fits over (\\d+) data-parallel GPUs"));
        const QRegularExpressionMatch said = line.match(QString::fromUtf8(run.out));
        QCOMPARE(said.hasMatch(), !lastStep.isEmpty());
        // The JSON carries the same count (0: no count helps).
        const QJsonObject ladder = json(model + args + QStringList{"--ladder"});
        if (lastStep.isEmpty()) {
            QCOMPARE(ladder[QStringLiteral("min_data_parallel")].toInteger(-1), 0);
            return;
        }
        const QJsonObject solve = json(model + lastStep
                                       + QStringList{"--gpu", args.at(args.indexOf("--gpu") + 1), "--solve",
                                                     "min-gpus"})[QStringLiteral("solve")]
                                      .toObject();
        QCOMPARE(said.captured(1).toLongLong(), solve[QStringLiteral("value")].toInteger());
        QCOMPARE(ladder[QStringLiteral("min_data_parallel")].toInteger(), solve[QStringLiteral("value")].toInteger());
        QCOMPARE(ladder[QStringLiteral("min_gpus")].toInteger(), solve[QStringLiteral("gpus")].toInteger());
    }

    // The ladder stops at the first step that fits by --fit-by, and reports what it requires by it.
    void ladder_data() { fitByRows(); }
    void ladder()
    {
        QFETCH(QString, given);
        QFETCH(QString, rule);
        QStringList args{"--precision", "fp32", "--batch", "8", "--gpu", "a100-80gb", "--ladder", "--format", "json"};
        if (!given.isEmpty())
            args << "--fit-by" << given;
        const Run run = cli(args);
        QCOMPARE(run.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(o[QStringLiteral("fit_by")].toString(), rule);
        const QJsonArray steps = o[QStringLiteral("steps")].toArray();
        QVERIFY(!steps.isEmpty());
        qint64 previous = o[QStringLiteral("start_bytes")].toInteger();
        for (const QJsonValue &step : steps) {
            const qint64 required = step[QStringLiteral("required_bytes")].toInteger();
            QVERIFY(required <= previous); // no step ever adds memory
            QCOMPARE(step[QStringLiteral("saving_bytes")].toInteger(), previous - required);
            QCOMPARE(step[QStringLiteral("fits")].toBool(),
                     required <= o[QStringLiteral("capacity_bytes")].toInteger());
            previous = required;
        }
        QCOMPARE(steps.last()[QStringLiteral("fits")].toBool(), true);
        QCOMPARE(steps.first()[QStringLiteral("lever")].toString(),
                 QStringLiteral("zero")); // the article's first lever
        // Reordered: recomputation first.
        const Run reordered = cli({"--precision", "fp32", "--gpu", "a100-80gb", "--ladder", "--ladder-order",
                                   "recompute,zero", "--format", "json"});
        QCOMPARE(QJsonDocument::fromJson(reordered.out)
                     .object()[QStringLiteral("steps")]
                     .toArray()
                     .first()[QStringLiteral("lever")]
                     .toString(),
                 QStringLiteral("recompute"));
    }

    void listings()
    {
        const Run models = cli({QStringLiteral("--list-models")});
        QCOMPARE(models.exitCode, 0);
        for (const char *id :
             {"gpt2",          "gpt2-xl",        "gpt3-175b",    "llama-2-7b",    "llama-2-13b",  "llama-2-70b",
              "llama-3-8b",    "llama-3-70b",    "llama-3.1-8b", "llama-3.1-70b", "llama-3.2-1b", "llama-3.2-3b",
              "llama-3.3-70b", "llama-3.1-405b", "mistral-7b",   "mixtral-8x7b",  "qwen2.5-7b",   "qwen2.5-14b",
              "qwen2.5-72b",   "gemma-2-9b",     "gemma-3-1b",   "phi-3-mini",    "pythia-1.4b",  "seed-7b"})
            QVERIFY2(models.out.contains(id), id);
        QVERIFY(models.out.contains("6.74e9"));
        const Run gpus = cli({QStringLiteral("--list-gpus")});
        QCOMPARE(gpus.exitCode, 0);
        QVERIFY(gpus.out.contains("h200"));
        const Run json = cli({QStringLiteral("--list-gpus"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        QHash<QString, QJsonValue> capability;
        for (const QJsonValue &g : QJsonDocument::fromJson(json.out).array())
            capability[g[QStringLiteral("id")].toString()] = g[QStringLiteral("compute_capability")];
        QCOMPARE(capability.value(QStringLiteral("a100-80gb")).toInt(), 8);
        QCOMPARE(capability.value(QStringLiteral("h100-sxm")).toInt(), 9);
        QVERIFY(capability.value(QStringLiteral("mi300x")).isNull()); // not NVIDIA's numbering
    }

    void readsTheUsersPresets()
    {
        // Where the GUI saves imports and custom GPUs: <XDG_DATA_HOME>/vram-ledger/vram-ledger/presets.
        const QString dir = m_home.path() + QStringLiteral("/vram-ledger/vram-ledger/presets/gpus");
        QVERIFY(QDir().mkpath(dir));
        QFile file(dir + QStringLiteral("/custom.yaml"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("schema: 1\ngpus:\n  - {id: custom-lab, name: Lab GPU, label: 40 GiB, capacity_mib: 40960, "
                   "verified: false, source: me}\n");
        file.close();
        const Run run = cli({QStringLiteral("--list-gpus")});
        file.remove();
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("custom-lab"), run.err.constData());
    }

    // Transformer Engine refuses FP8 before Ada and Hopper: the verdict says so for such a GPU.
    void fp8NeedsFp8TensorCores_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("runs");
        QTest::newRow("A100: no FP8") << "a100-80gb" << false;
        QTest::newRow("H100: FP8") << "h100-sxm" << true;
    }
    void fp8NeedsFp8TensorCores()
    {
        QFETCH(QString, gpu);
        QFETCH(bool, runs);
        const Run text = cli({QStringLiteral("--precision"), QStringLiteral("fp8"), QStringLiteral("--gpu"), gpu});
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out.contains("no FP8 tensor cores"), !runs);
        const Run json = cli({QStringLiteral("--precision"), QStringLiteral("fp8"), QStringLiteral("--gpu"), gpu,
                              QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(QJsonDocument::fromJson(json.out)[QStringLiteral("gpu")][QStringLiteral("runs_precision")].toBool(),
                 runs);
    }

    // The example scenarios the README points to open and fit their first GPU.
    void exampleScenariosOpen_data()
    {
        QTest::addColumn<QString>("file");
        const QDir examples(QStringLiteral(VL_SOURCE_DIR "/docs/scenarios"));
        const QStringList files = examples.entryList({QStringLiteral("*.vramledger.yaml")}, QDir::Files);
        QVERIFY(files.size() >= 3);
        for (const QString &name : files)
            QTest::newRow(qPrintable(name)) << examples.filePath(name);
    }
    void exampleScenariosOpen()
    {
        QFETCH(QString, file);
        const Run run = cli({QStringLiteral("--scenario"), file});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains(": fits,"), run.out.constData());
    }

    void version()
    {
        const Run run = cli({QStringLiteral("--version")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(VL_VERSION));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero batch") << QStringList{"--batch", "0"} << 2 << "--batch: 0 is out of range; allowed 1 to";
        QTest::newRow("a number beyond any range names the range")
            << QStringList{"--batch", "1e30"} << 2 << "--batch: '1e30' is not a whole number; allowed 1 to 1048576";
        QTest::newRow("NaN sequence") << QStringList{"--seq", "nan"} << 2 << "--seq: 'nan' is not a whole number";
        QTest::newRow("a bound set by another field names that field")
            << QStringList{"--pp", "100"} << 2
            << "--pp: 100 is out of range; allowed 1 to 32, the model's layers (--layers)";
        QTest::newRow("replica groups beyond the data-parallel GPUs")
            << QStringList{"--replicate", "2"} << 2
            << "--replicate: 2 is out of range; allowed 1 to 1, the data-parallel GPUs that replica groups divide "
               "(--dp)";
        QTest::newRow("unknown precision")
            << QStringList{"--precision", "fp4"} << 2
            << "--precision: 'fp4' is not allowed; use fp32|mixed-fp16|mixed-bf16|bf16|fp8";
        QTest::newRow("heads not dividing the hidden size given with them")
            << QStringList{"--heads", "30", "--hidden", "4096"} << 2 << "--heads: 30 does not divide";
        QTest::newRow("unknown model") << QStringList{"--model", "gpt5"} << 2 << "--model: 'gpt5' is not a preset";
        QTest::newRow("a model mistyped: the ones meant")
            << QStringList{"--model", "llama3-70b"} << 2
            << "--model: 'llama3-70b' is not a preset; did you mean llama-3-70b or llama-2-70b? (see --list-models)";
        QTest::newRow("unknown GPU") << QStringList{"--gpu", "tpu"} << 2
                                     << "--gpu: 'tpu' is neither a GPU preset nor a size like 80GB; see --list-gpus";
        QTest::newRow("a board the presets name by its chip")
            << QStringList{"--gpu", "h200-sxm"} << 2
            << "--gpu: 'h200-sxm' is neither a GPU preset nor a size like 80GB; did you mean h200? (see --list-gpus)";
        QTest::newRow("query/key norms in lit-gpt's blocks")
            << QStringList{"--model", "qwen3-8b", "--implementation", "litgpt"} << 2
            << "--qk-norm: lit-gpt's blocks (the code modelled, of 2023) have no query/key norms";
        QTest::newRow("Gemma-2's soft-capping through SDPA")
            << QStringList{"--model", "gemma-2-9b", "--implementation", "huggingface", "--attention", "sdpa",
                           "--seq",   "2048"}
            << 2 << "--attention: Hugging Face's SDPA path cannot soft-cap the scores";
        QTest::newRow("Gemma-3's 512-token windows through SDPA")
            << QStringList{"--model", "gemma-3-1b", "--implementation", "huggingface", "--attention", "sdpa",
                           "--seq",   "2048"}
            << 2 << "--attention: a sliding window of 512 tokens, no longer than the sequence, reaches SDPA as a mask";
        QTest::newRow("Gemma's norms in torchtitan's Llama")
            << QStringList{"--model", "gemma-3-1b", "--implementation", "torchtitan"} << 2
            << "--zero-centered-norm: Gemma's block is modelled as Hugging Face's Gemma code computes it";
        QTest::newRow("three norms a layer")
            << QStringList{"--implementation", "huggingface", "--norms-per-layer", "3"} << 2
            << "--norms-per-layer: huggingface is modelled for the Llama block's two norms a layer, or four";
        QTest::newRow("soft-capping neither yes nor no")
            << QStringList{"--soft-capping", "30"} << 2 << "--soft-capping: '30' is not allowed; use yes|no";
        QTest::newRow("unknown implementation")
            << QStringList{"--implementation", "nemo"} << 2
            << "--implementation: 'nemo' is not allowed; use megatron|huggingface|torchtitan|litgpt|torchtune";
        QTest::newRow("torchtune under autocast")
            << QStringList{"--implementation", "torchtune", "--precision", "mixed-bf16"} << 2
            << "--precision: torchtune trains in the model's dtype, without autocast; use --precision bf16 or fp32";
        QTest::newRow("torchtune with the flash-attn package")
            << QStringList{"--implementation", "torchtune", "--attention", "flash"} << 2
            << "--attention: torchtune runs attention through SDPA";
        QTest::newRow("torchtune with tensor parallelism")
            << QStringList{"--implementation", "torchtune", "--tp", "2"} << 2
            << "--implementation: torchtune is modelled without tensor, sequence or pipeline parallelism";
        QTest::newRow("torchtune for GPT-2") << QStringList{"--model", "gpt2", "--implementation", "torchtune"} << 2
                                             << "--implementation: torchtune is modelled for its Llama";
        QTest::newRow("zero.Init neither yes nor no") << QStringList{"--zero", "3", "--dp", "8", "--zero-init", "later"}
                                                      << 2 << "--zero-init: 'later' is not allowed; use yes|no";
        QTest::newRow("packed neither yes nor no") << QStringList{"--implementation", "torchtune", "--packed", "often"}
                                                   << 2 << "--packed: 'often' is not allowed; use yes|no";
        QTest::newRow("negative maximum positions") << QStringList{"--max-positions", "-1"} << 2
                                                    << "--max-positions: -1 is out of range; allowed 0 to 67108864";
        QTest::newRow("CUDA context that is no size")
            << QStringList{"--cuda-context", "lots"} << 2 << "--cuda-context: 'lots' is not allowed; use a size";
        QTest::newRow("CUDA context beyond 64 GiB")
            << QStringList{"--cuda-context", "80GiB"} << 2 << "--cuda-context: 81920 is out of range";
        QTest::newRow("interleaving with fewer micro-batches than stages")
            << QStringList{"--pp", "4", "--vpp", "2", "--grad-accum", "2"} << 2
            << "--grad-accum: an interleaved pipeline takes its micro-batches in groups of --pp (4)";
        QTest::newRow("interleaving with a last group shorter than the stages")
            << QStringList{"--pp", "4", "--vpp", "2", "--grad-accum", "6"} << 2 << "use a multiple of 4, or --vpp 1";
        QTest::newRow("unknown kernel loading")
            << QStringList{"--cuda-loading", "jit"} << 2 << "--cuda-loading: 'jit' is not allowed; use lazy|eager";
        QTest::newRow("unknown fit rule")
            << QStringList{"--fit-by", "mean"} << 2 << "--fit-by: 'mean' is not allowed; use sum or peak";
        QTest::newRow("a base dtype without autocast")
            << QStringList{"--finetune", "lora", "--base-dtype", "bf16"} << 2
            << "--base-dtype: a frozen base in its own dtype is modelled under autocast";
        QTest::newRow("a head dimension that would overflow the count")
            << QStringList{"--hidden", "1048576",    "--heads", "65536",    "--kv-heads",
                           "65536",    "--head-dim", "65536",   "--layers", "10000"}
            << 2 << "--hidden: the model is too large to count in bytes";
        QTest::newRow("activation offload with Megatron's kernels")
            << QStringList{"--activation-offload", "yes"} << 2
            << "--activation-offload: activation offload is modelled as torchtune's OffloadActivations";
        QTest::newRow("activation offload in lit-gpt's scripts")
            << QStringList{"--implementation", "litgpt", "--activation-offload", "yes"} << 2
            << "--activation-offload: lit-gpt's scripts do not offload activations";
        QTest::newRow("activation offload with a pipeline")
            << QStringList{"--implementation", "torchtitan", "--pp", "2", "--activation-offload", "yes"} << 2
            << "--activation-offload: activation offload is modelled for one micro-batch in flight";
        QTest::newRow("double quantization neither yes nor no")
            << QStringList{"--finetune", "qlora", "--double-quant", "maybe"} << 2
            << "--double-quant: 'maybe' is not allowed; use yes|no";
        QTest::newRow("torchtitan's tensor parallelism without sequence-parallel norms")
            << QStringList{"--implementation", "torchtitan", "--attention", "sdpa", "--tp", "2", "--sp", "no"} << 2
            << "--sp: torchtitan's tensor parallelism runs its norms sequence-parallel; use --sp yes";
        QTest::newRow("sequence parallelism over a sequence TP does not divide")
            << QStringList{"--tp", "8", "--sp", "yes", "--seq", "8191"} << 2
            << "--sp: sequence parallelism splits the sequence of 8191 over 8 tensor-parallel GPUs";
        QTest::newRow("torchtitan with a pipeline")
            << QStringList{"--implementation", "torchtitan", "--attention", "sdpa", "--pp", "2"} << 2
            << "--implementation: torchtitan is modelled without pipeline parallelism";
        QTest::newRow("Liger kernels under Megatron's code")
            << QStringList{"--liger", "yes"} << 2
            << "--liger: Liger Kernel is modelled as its patch of Hugging Face's Llama-family code";
        QTest::newRow("Liger kernels with torchtune's chunked loss")
            << QStringList{"--implementation", "huggingface", "--liger", "yes", "--loss", "chunked"} << 2
            << "--loss: Liger's fused linear cross-entropy is the loss";
        QTest::newRow("Liger kernels with an adapter on the head")
            << QStringList{"--implementation", "huggingface", "--liger",        "yes",
                           "--finetune",       "lora",        "--lora-targets", "q,v,head"}
            << 2 << "--lora-targets: Liger's fused loss reads the head's weight itself";
        QTest::newRow("a PyTorch release that is no version")
            << QStringList{"--implementation", "huggingface", "--pytorch", "2.x"} << 2
            << "--pytorch: '2.x' is not allowed; use a version such as 1.10, 2.1 or 2.5";
        QTest::newRow("an expert load that is no routing") << QStringList{"--expert-load", "uneven"} << 2
                                                           << "--expert-load: 'uneven' is not allowed; use "
                                                              "balanced|every-token";
        QTest::newRow("unknown AdamW implementation") << QStringList{"--optimizer-impl", "apex"} << 2
                                                      << "--optimizer-impl: 'apex' is not allowed; use "
                                                         "auto|for-loop|foreach|fused|transformers";
        QTest::newRow("optimizer in backward with gradient accumulation")
            << QStringList{"--implementation", "huggingface", "--optimizer-in-backward", "yes", "--grad-accum", "4"}
            << 2 << "--optimizer-in-backward: torchtune refuses gradient accumulation with the optimizer in backward";
        QTest::newRow("optimizer in backward under Megatron")
            << QStringList{"--optimizer-in-backward", "yes"} << 2
            << "--optimizer-in-backward: the optimizer in backward is torchtune's";
        QTest::newRow("paged optimizer neither yes nor no")
            << QStringList{"--paged-optimizer", "sometimes"} << 2
            << "--paged-optimizer: 'sometimes' is not allowed; use yes|no";
        QTest::newRow("paged SGD") << QStringList{"--optimizer", "sgd", "--paged-optimizer", "yes"} << 2
                                   << "--paged-optimizer: bitsandbytes pages the states of AdamW, 8-bit AdamW and Lion";
        QTest::newRow("paged optimizer under tensor parallelism")
            << QStringList{"--tp", "2", "--paged-optimizer", "yes"} << 2
            << "--paged-optimizer: a paged optimizer is modelled over whole tensors on one GPU";
        QTest::newRow("unknown amp style") << QStringList{"--amp-style", "apex"} << 2
                                           << "--amp-style: 'apex' is not allowed; use master-copy|autocast";
        QTest::newRow("torchtitan code for a mixture of experts")
            << QStringList{"--model", "mixtral-8x7b", "--implementation", "torchtitan"} << 2
            << "--implementation: torchtitan is modelled for dense layers; use --implementation megatron or "
               "huggingface (Mixtral)";
        QTest::newRow("expert parallelism in Hugging Face's Mixtral")
            << QStringList{"--model", "mixtral-8x7b", "--implementation", "huggingface", "--dp", "8", "--ep", "8"} << 2
            << "--ep: expert parallelism is modelled for Megatron";
        QTest::newRow("modeling that does not fit the shapes")
            << QStringList{"--model", "gpt2", "--implementation", "huggingface", "--modeling", "llama"} << 2
            << "--modeling: llama does not fit this architecture";
        QTest::newRow("FP8 in Hugging Face code")
            << QStringList{"--precision", "fp8", "--implementation", "huggingface"} << 2
            << "--precision: fp8 is modelled as Megatron-LM runs Transformer Engine's layers";
        QTest::newRow("FP8 with LoRA") << QStringList{"--precision", "fp8", "--finetune", "lora"} << 2
                                       << "--precision: fp8 is modelled for full training";
        QTest::newRow("FP8 with sharded parameters") << QStringList{"--precision", "fp8", "--zero", "3", "--dp", "8"}
                                                     << 2 << "--precision: fp8 is modelled without sharded parameters";
        QTest::newRow("FP8 for a mixture of experts") << QStringList{"--model", "mixtral-8x7b", "--precision", "fp8"}
                                                      << 2 << "--precision: fp8 is modelled for dense layers";
        QTest::newRow("GPT-NeoX blocks in Hugging Face code")
            << QStringList{"--model",          "gpt2",        "--positions", "0",
                           "--implementation", "huggingface", "--modeling",  "gpt-neox"}
            << 2 << "--modeling: gpt-neox blocks are modelled as lit-gpt computes them";
        QTest::newRow("a shared norm in sequence (lit-gpt refuses it)")
            << QStringList{"--model",           "pythia-1.4b", "--implementation",    "litgpt",
                           "--norms-per-layer", "1",           "--parallel-residual", "no"}
            << 2 << "--parallel-residual: one norm shared by attention and MLP needs the parallel residual";
        QTest::newRow("lit-gpt in mixed precision with a master copy (Lightning's is autocast)")
            << QStringList{"--implementation", "litgpt", "--precision", "mixed-bf16", "--amp-style", "master-copy"} << 2
            << "--amp-style: Lightning's mixed precision is torch.autocast";
        QTest::newRow("lit-gpt QLoRA in mixed precision (finetune/lora.py refuses it)")
            << QStringList{"--implementation", "litgpt",     "--precision", "mixed-bf16",     "--amp-style",
                           "autocast",         "--finetune", "qlora",       "--lora-targets", "q,v"}
            << 2 << "--finetune: lit-gpt refuses quantization with mixed precision";
        QTest::newRow("lit-gpt with a base in its own dtype")
            << QStringList{"--implementation", "litgpt", "--precision",    "mixed-bf16", "--amp-style",  "autocast",
                           "--finetune",       "lora",   "--lora-targets", "q,v",        "--base-dtype", "bf16"}
            << 2 << "--base-dtype: lit-gpt keeps the whole model in its precision's dtype";
        QTest::newRow("GPT-NeoX blocks with learned positions")
            << QStringList{"--model", "gpt2", "--implementation", "litgpt", "--modeling", "gpt-neox"} << 2
            << "--modeling: gpt-neox does not fit this architecture";
        QTest::newRow("selective recomputation in Hugging Face code")
            << QStringList{"--model", "llama-3.1-8b", "--implementation", "huggingface", "--recompute", "selective"}
            << 2 << "--recompute: selective recomputation is Megatron's";
        QTest::newRow("TP over more ranks than KV heads (Megatron splits whole query groups)")
            << QStringList{"--model", "llama-3.1-70b", "--tp", "16"} << 2
            << "--tp: 16 does not divide the 8 key/value heads";
        QTest::newRow("replica groups of unequal size")
            << QStringList{"--zero", "3", "--sharding", "fsdp", "--dp", "8", "--replicate", "3"} << 2
            << "--replicate: 3 does not divide the 8 data-parallel GPUs";
        QTest::newRow("replica groups without FSDP") << QStringList{"--zero", "3", "--dp", "8", "--replicate", "2"} << 2
                                                     << "--replicate: replica groups are FSDP's";
        QTest::newRow("context parallelism with eager attention")
            << QStringList{"--seq", "8192", "--cp", "4", "--attention", "eager"} << 2
            << "--cp: context parallelism runs attention as a ring";
        QTest::newRow("context parallelism that does not divide the sequence")
            << QStringList{"--seq", "1000", "--cp", "3", "--attention", "flash"} << 2
            << "--cp: 3 does not divide the sequence of 1000";
        QTest::newRow("expert parallelism that does not divide the experts")
            << QStringList{"--model", "mixtral-8x7b", "--dp", "6", "--ep", "3"} << 2
            << "--ep: 3 does not divide the 8 experts";
        QTest::newRow("expert parallelism beyond the data-parallel GPUs")
            << QStringList{"--model", "mixtral-8x7b", "--dp", "2", "--ep", "4"} << 2
            << "--ep: 4 does not divide the data-parallel";
        QTest::newRow("unknown sharding engine") << QStringList{"--sharding", "colossal"} << 2
                                                 << "--sharding: 'colossal' is not allowed; use zero|fsdp|megatron";
        QTest::newRow("per-layer RoPE tables neither yes nor no")
            << QStringList{"--per-layer-rope", "maybe"} << 2 << "--per-layer-rope: 'maybe' is not allowed; use yes|no";
        QTest::newRow("FP32 adapters neither yes nor no")
            << QStringList{"--adapters-fp32", "peft"} << 2 << "--adapters-fp32: 'peft' is not allowed; use yes|no";
        QTest::newRow("K and V repetition neither yes nor no")
            << QStringList{"--kv-repeat", "often"} << 2 << "--kv-repeat: 'often' is not allowed; use yes|no";
        QTest::newRow("a bitsandbytes version that is none")
            << QStringList{"--finetune", "qlora", "--bitsandbytes", "latest"} << 2
            << "--bitsandbytes: 'latest' is not allowed; use a version such as 0.41, 0.43.1 or 0.45";
        QTest::newRow("use_reentrant neither yes nor no")
            << QStringList{"--use-reentrant", "maybe"} << 2 << "--use-reentrant: 'maybe' is not allowed; use yes|no";
        QTest::newRow("unknown FSDP version")
            << QStringList{"--fsdp-version", "3"} << 2 << "--fsdp-version: '3' is not allowed; use 1|2";
        QTest::newRow("Megatron's distributed optimizer at ZeRO-3")
            << QStringList{"--sharding", "megatron", "--zero", "3", "--dp", "8"} << 2
            << "--sharding: Megatron-Core's distributed optimizer shards the optimizer states only";
        QTest::newRow("offload under Megatron")
            << QStringList{"--sharding", "megatron", "--zero", "1", "--dp", "8", "--offload", "optimizer"} << 2
            << "--offload: CPU offload is DeepSpeed's ZeRO-Offload";
        QTest::newRow("unknown option") << QStringList{"--colour"} << 2 << "Unknown option 'colour'";
        QTest::newRow("solve without GPU") << QStringList{"--solve", "max-batch"} << 2 << "--solve: needs a GPU";
        QTest::newRow("ladder without GPU") << QStringList{"--ladder"} << 2 << "--ladder: needs a GPU";
        QTest::newRow("unknown lever") << QStringList{"--gpu", "h100-sxm", "--ladder", "--ladder-order", "zero,magic"}
                                       << 2 << "--ladder-order: 'magic' is not a lever";
        QTest::newRow("bad sweep") << QStringList{"--sweep", "batch=9:1"} << 2 << "--sweep: the range";
        QTest::newRow("sweep with a fourth part") << QStringList{"--sweep", "batch=1:8:1:garbage"} << 2
                                                  << "--sweep: 'batch=1:8:1:garbage' has more than FROM:TO:STEP";
        QTest::newRow("two questions at once")
            << QStringList{"--gpu", "a100-80gb", "--sweep", "batch=1:8", "--solve", "max-batch"} << 2
            << "--sweep, --ladder and --solve each answer a different question";
        QTest::newRow("empty ladder order") << QStringList{"--gpu", "a100-80gb", "--ladder", "--ladder-order", ""} << 2
                                            << "--ladder-order: name at least one lever";
        QTest::newRow("a directory as a scenario")
            << QStringList{"--scenario", "/"} << 3 << "/: cannot be read: not a regular file";
        QTest::newRow("an endless device as a scenario")
            << QStringList{"--scenario", "/dev/zero"} << 3 << "/dev/zero: cannot be read: not a regular file";
        QTest::newRow("unreadable config")
            << QStringList{"--config", "/nonexistent/config.json"} << 3 << "/nonexistent/config.json: cannot be read";
        QTest::newRow("unreadable scenario")
            << QStringList{"--scenario", "/nonexistent/s.vramledger.yaml"} << 3 << "cannot be read";
        QTest::newRow("unknown-family config")
            << QStringList{"--config", VL_TEST_DATA "/hf/bert-base.json"} << 2 << "missing num_hidden_layers";
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run run = cli(args);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY(run.out.isEmpty());
        const QString err = QString::fromUtf8(run.err).trimmed();
        QVERIFY2(err.contains(message), qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 0); // one line
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
