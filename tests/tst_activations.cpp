// Activations against Korthikanti et al. 2022 (Table 2) and the article's script.

#include "core/estimate.h"
#include "core/savedtensors.h"

#include <QTest>

using namespace vl;

namespace {

// Beyond Korthikanti et al.'s table, which leaves them out as small: Transformer Engine's norms
// keep each token's FP32 statistics for backward (layernorm_linear.py, _LayerNormLinear: mu and
// rsigma), mean and 1/σ for LayerNorm, 1/rms for RMSNorm, two norms a layer.
double normStatistics(const Scenario &s)
{
    const double perToken = 2.0 * (s.arch.norm == NormKind::LayerNorm ? 2 : 1) * 4;
    return perToken * double(s.sequence) * double(s.microBatch) / double(s.sequenceParallel ? s.tensorParallel : 1);
}

// GPT-3 175B as Korthikanti et al. evaluate it: s = 2048, b = 1, 16-bit, dropout on.
Scenario gpt3()
{
    Scenario s;
    s.arch.hidden = 12288;
    s.arch.layers = 96;
    s.arch.heads = 96;
    s.arch.kvHeads = 96;
    s.arch.ffn = 4 * 12288;
    s.arch.vocab = 50257;
    s.arch.mlp = MlpKind::Gelu;
    s.arch.norm = NormKind::LayerNorm;
    s.arch.linearBias = true;
    s.arch.tiedEmbeddings = true;
    s.arch.learnedPositions = 2048;
    s.sequence = 2048;
    s.microBatch = 1;
    s.dropout = true;
    s.precision = Precision::MixedBf16;
    return s;
}

// Megatron-Core's MoE layer on the article's 7B shapes with 8 experts: s = 2048, b = 1, BF16,
// tensor parallelism with sequence parallelism, EP taken from the data-parallel GPUs.
Scenario megatronMoe(MlpKind mlp, int topK, int tp, int ep)
{
    Scenario s;
    s.sequence = 2048;
    s.precision = Precision::MixedBf16;
    s.arch.mlp = mlp;
    s.arch.experts = 8;
    s.arch.expertsPerToken = topK;
    s.tensorParallel = tp;
    s.sequenceParallel = tp > 1;
    s.expertParallel = ep;
    s.dataParallel = ep;
    return s;
}

// Layers that keep only their input, and logits that make a pipeline's last stage the heaviest
// at its peak (the loss's tensors outweigh the vocabulary's share of the optimizer step).
void makeLastStageHeaviest(Scenario &s)
{
    s.recompute = Recompute::Full;
    s.arch.vocab = 4'000'000;
    s.microBatch = 16;
}

} // namespace

class TestActivations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Per layer: sbh(34 + 5as/h); TP: sbh(10 + 24/t + 5as/(ht)); TP+SP: sbh(34/t + 5as/(ht)).
    void korthikantiTable2_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("sequence");
        QTest::addColumn<double>("coefficient"); // of sbh
        // 5as/h = 5·96·2048/12288 = 80 for GPT-3 at s = 2048.
        QTest::newRow("no parallelism: 34 + 80") << 1 << false << 1 << 2048 << 114.0;
        QTest::newRow("batch 4 scales linearly") << 1 << false << 4 << 2048 << 114.0;
        QTest::newRow("s = 1024 halves the s² share: 34 + 40") << 1 << false << 1 << 1024 << 74.0;
        QTest::newRow("TP 8: 10 + 24/8 + 80/8") << 8 << false << 1 << 2048 << 23.0;
        QTest::newRow("TP 8 + SP: 34/8 + 80/8") << 8 << true << 1 << 2048 << 14.25;
    }
    void korthikantiTable2()
    {
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(int, batch);
        QFETCH(int, sequence);
        QFETCH(double, coefficient);
        Scenario s = gpt3();
        s.tensorParallel = tp;
        s.sequenceParallel = sp;
        s.microBatch = batch;
        s.sequence = sequence;
        const Breakdown b = estimate(s);
        const double sbh = double(sequence) * batch * double(s.arch.hidden);
        QCOMPARE(double(b.oneLayerActivations), sbh * coefficient + normStatistics(s));
        QCOMPARE(double(b.item(ItemId::LayerActivations)),
                 (sbh * coefficient + normStatistics(s)) * double(s.arch.layers));
    }

    void selectiveRecomputationDropsTheSquareTerms()
    {
        Scenario s = gpt3();
        s.recompute = Recompute::Selective;
        const double sbh = 2048.0 * double(s.arch.hidden);
        QCOMPARE(double(estimate(s).keptPerLayer), 34.0 * sbh + normStatistics(s));
    }

    // The article's script: b = 1, s = 4096, h = 4096, L = 32, × 2 bytes = 1.07 GB. That is
    // exactly what full recomputation keeps: each layer's 16-bit input.
    void articleScriptIsFullRecomputation()
    {
        Scenario s; // the article's 7B: b = 1, s = 4096, h = 4096, L = 32
        s.recompute = Recompute::Full;
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::LayerActivations), Bytes(1) * 4096 * 4096 * 32 * 2);
        QCOMPARE(QString::fromStdString(formatBytes(b.item(ItemId::LayerActivations), Units::GB)),
                 QStringLiteral("1.07 GB"));
        // Plus one layer's full working set while it is recomputed, as its own item.
        QCOMPARE(b.item(ItemId::RecomputeBuffer), b.oneLayerActivations);
    }

    void flashAttentionKeepsNoScores()
    {
        Scenario s = gpt3();
        s.attention = Attention::Flash;
        const Breakdown b = estimate(s);
        const double sbh = 2048.0 * double(s.arch.hidden);
        const double lse = 4.0 * double(s.arch.heads) * 2048; // fp32 log-sum-exp per head and token
        QCOMPARE(double(b.oneLayerActivations), 34.0 * sbh + lse + normStatistics(s));
    }

    void llamaStyleLayer()
    {
        // No dropout, SwiGLU (3 f-wide tensors), GQA: Q and output a·d wide, K and V g·d wide.
        Scenario s;
        s.arch.kvHeads = 8;
        s.arch.ffn = 14336;
        s.attention = Attention::Flash;
        s.sequence = 8192;
        const double sb = 8192.0;
        const double h = 4096, f = 14336, kv = 8 * 128;
        const double expected = 2 * sb * (4 * h + 2 * h + 2 * kv) + 4.0 * 32 * sb + 2 * sb * 3 * f;
        QCOMPARE(double(estimate(s).oneLayerActivations), expected + normStatistics(s));
    }

    // Megatron's --qk-layernorm: TENorm over each head's width saves its 16-bit input and, for
    // RMSNorm, an FP32 1/rms a row (a head of a token), for the queries and for the keys; under
    // tensor parallelism for this GPU's heads.
    void megatronQueryKeyNorms_data()
    {
        QTest::addColumn<int>("tp");
        QTest::newRow("one GPU") << 1;
        QTest::newRow("tensor parallel 4") << 4;
    }
    void megatronQueryKeyNorms()
    {
        QFETCH(int, tp);
        Scenario s;
        s.arch.kvHeads = 8;
        s.arch.ffn = 14336;
        s.attention = Attention::Flash;
        s.tensorParallel = tp;
        Scenario normed = s;
        normed.arch.qkNorm = true;
        const double rows = double(s.sequence * s.microBatch) * (32 + 8) / tp;
        QCOMPARE(double(estimate(normed).oneLayerActivations - estimate(s).oneLayerActivations),
                 rows * (2.0 * 128 + 4.0));
    }

    // Transformer Engine under FP8, tensor by tensor from what its modules save for backward
    // (transformer_engine/pytorch/module, TE 1.x): LayerNormLinear keeps the norm's 16-bit input
    // and its FP8 output; the flash kernel Q, K, V and its 16-bit output, which the out-projection
    // (Linear) saves again as FP8; LayerNormMLP keeps the norm's 16-bit input, its FP8 output,
    // FC1's 16-bit output(s) and the activation's FP8 output. In bytes per token.
    void fp8SavesGemmInputsInOneByte_data()
    {
        QTest::addColumn<bool>("gated");
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<bool>("flash");
        const double h = 4096, f = 14336, kv = 8 * 128, heads = 32;
        // h: LN1 input 2, ln_out 1; Q 2·h, K and V 2·kv each; flash output 2·h and its FP8 copy 1·h;
        // LSE 4 per head; LN2 input 2·h, ln_out 1·h; FC1 out 2·2f (gate, up), SwiGLU out 1·f.
        const double gatedPerToken = (2 + 1) * h + 2 * h + 4 * kv + (2 + 1) * h + 4 * heads + (2 + 1) * h + 5 * f;
        QTest::addColumn<double>("perToken");
        QTest::newRow("Llama-3-8B shapes, flash") << true << 1 << false << true << gatedPerToken;
        QTest::newRow("TP 2 with SP: everything ÷ 2") << true << 2 << true << true << gatedPerToken / 2;
        // Eager: the context from bmm(probs, V) is saved only by the out-projection, in FP8; the
        // softmax output stays 16-bit (2·a·s per token without dropout, s = 8192).
        const double eagerScores = 2.0 * heads * 8192;
        QTest::newRow("eager core attention")
            << true << 1 << false << false << gatedPerToken - 2 * h - 4 * heads + eagerScores;
        // GELU: FC1's output 2·f (the GELU's input) and the GELU's output in FP8, 1·f.
        QTest::newRow("GELU MLP") << false << 1 << false << true << gatedPerToken - 5 * f + 3 * f;
        // Selective recomputation runs the core attention again: its inputs Q, K, V stay, its 16-bit
        // output and log-sum-exp do not; the out-projection keeps its FP8 input.
        QTest::newRow("selective recomputation, flash")
            << true << 1 << false << true << gatedPerToken - 2 * h - 4 * heads;
    }
    void fp8SavesGemmInputsInOneByte()
    {
        QFETCH(bool, gated);
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(bool, flash);
        QFETCH(double, perToken);
        const bool selective = QByteArray(QTest::currentDataTag()).startsWith("selective");
        Scenario s;
        s.arch.kvHeads = 8;
        s.arch.ffn = 14336;
        s.arch.mlp = gated ? MlpKind::SwiGlu : MlpKind::Gelu;
        s.sequence = 8192;
        s.precision = Precision::Fp8;
        s.tensorParallel = tp;
        s.sequenceParallel = sp;
        s.attention = flash ? Attention::Flash : Attention::Eager;
        s.recompute = selective ? Recompute::Selective : Recompute::None;
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        QCOMPARE(double(estimate(s).keptPerLayer), perToken * 8192 + normStatistics(s));
    }

    // torchtune's chunked cross-entropy upcasts one chunk in eight at a time: the FP32 copy of the
    // logits shrinks eightfold, the 16-bit logits stay whole. The code-level implementations' loss
    // backward (nll_loss_backward's dense FP32 gradient, then _log_softmax_backward_data's FP32
    // gradient of the logits, both alive at once) holds 8 B per logit, more than the forward's 6 B.
    void chunkedLossUpcastsOneChunk_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("loss");
        QTest::addColumn<qint64>("bytesPerElementTimes8"); // logits bytes per element, × 8 to stay whole
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("release");
        QTest::newRow("standard: 2 B + 4 B FP32 copy") << int(Implementation::Megatron) << int(Loss::Standard)
                                                       << qint64(8 * 6) << 1 << int(PyTorchRelease::Since2_2);
        QTest::newRow("chunked: 2 B + 4 B / 8") << int(Implementation::Megatron) << int(Loss::Chunked)
                                                << qint64(8 * 2 + 4) << 1 << int(PyTorchRelease::Since2_2);
        QTest::newRow("Hugging Face, standard: two FP32 gradients in backward")
            << int(Implementation::HuggingFace) << int(Loss::Standard) << qint64(8 * 8) << 1
            << int(PyTorchRelease::Since2_2);
        QTest::newRow("torchtitan, standard: two FP32 gradients in backward")
            << int(Implementation::TorchTitan) << int(Loss::Standard) << qint64(8 * 8) << 1
            << int(PyTorchRelease::Since2_2);
        // loss_parallel (torch/distributed/tensor/parallel/loss.py): _nll_loss_and_log_softmax_backward
        // holds zeros_like, exp and their sum, then the product: 12 B a logit of the GPU's slice
        QTest::newRow("torchtitan under TP 2, loss_parallel: three FP32 tensors in backward")
            << int(Implementation::TorchTitan) << int(Loss::Standard) << qint64(8 * 12) << 2
            << int(PyTorchRelease::Since2_2);
        QTest::newRow("Hugging Face, chunked: 2 B + 4 B / 8")
            << int(Implementation::HuggingFace) << int(Loss::Chunked) << qint64(8 * 2 + 4) << 1
            << int(PyTorchRelease::Since2_2);
        // Before 1.11 log_softmax keeps its FP32 input: the saved tensors count every chunk's copy
        // (and the whole copy), so the logits item holds the 16-bit logits alone in forward.
        QTest::newRow("Hugging Face, chunked, PyTorch 1.10: 2 B, the FP32 copies kept by log_softmax")
            << int(Implementation::HuggingFace) << int(Loss::Chunked) << qint64(8 * 2) << 1
            << int(PyTorchRelease::Before1_11);
        QTest::newRow("Hugging Face, standard, PyTorch 1.10: two FP32 gradients in backward")
            << int(Implementation::HuggingFace) << int(Loss::Standard) << qint64(8 * 8) << 1
            << int(PyTorchRelease::Before1_11);
    }
    void chunkedLossUpcastsOneChunk()
    {
        QFETCH(int, implementation);
        QFETCH(int, loss);
        QFETCH(qint64, bytesPerElementTimes8);
        QFETCH(int, tp);
        QFETCH(int, release);
        Scenario s;
        s.pytorch = PyTorchRelease(release);
        s.tensorParallel = tp;
        s.sequenceParallel = tp > 1;
        s.arch.vocab = 128'256;
        s.sequence = 8192;
        s.precision = Precision::MixedBf16;
        s.implementation = Implementation(implementation);
        s.attention = Attention::Sdpa;
        s.loss = Loss(loss);
        QVERIFY(!scenarioError(s));
        const qint64 elements = 8192LL * 128'256 / tp;
        QCOMPARE(estimate(s).item(ItemId::Logits), elements * bytesPerElementTimes8 / 8);
    }

    // transformers' causal-LM loss by release, for Llama-2-7B's shapes in pure BF16, 4096 tokens of
    // a 32000 vocabulary. Today's (4.49 on) holds the 16-bit logits and their FP32 upcast in forward,
    // 6 B a logit, less than the backward's two FP32 gradients, 8 B. 4.46 to 4.48 shift an FP32
    // copy as well while the forward keeps the 16-bit logits: 10 B. Before 4.46 the FP32 logits
    // replace the 16-bit ones before the shifted copy: 8 B. Beside the forward's the model's output
    // holds the final norm's output, 4096 × 4096 × 2 B, unless the head trains and saves it anyway.
    void transformersLossByRelease_data()
    {
        QTest::addColumn<int>("release");
        QTest::addColumn<int>("fineTune");
        QTest::addColumn<bool>("headLora"); // LoRA on the head too, without dropout
        QTest::addColumn<bool>("autocast"); // mixed BF16 under autocast: an FP32 stream
        QTest::addColumn<qint64>("bytesPerLogit");
        QTest::addColumn<qint64>("normBytes"); // the final norm's output the model's output holds, per value
        QTest::newRow("4.49 and later, LoRA: the backward's 8 B")
            << int(TransformersRelease::Since4_49) << int(FineTune::LoRA) << false << false << qint64(8) << qint64(0);
        QTest::newRow("4.46 to 4.48, LoRA: 2 + 4 + 4 B in forward, and the final norm's output")
            << int(TransformersRelease::Before4_49) << int(FineTune::LoRA) << false << false << qint64(10) << qint64(2);
        QTest::newRow("4.45 and older, LoRA: 4 + 4 B in forward, and the final norm's output")
            << int(TransformersRelease::Before4_46) << int(FineTune::LoRA) << false << false << qint64(8) << qint64(2);
        QTest::newRow("4.45 and older, full training: the head saves the norm's output")
            << int(TransformersRelease::Before4_46) << int(FineTune::Full) << false << false << qint64(8) << qint64(0);
        QTest::newRow("4.45 and older, LoRA on the head: its adapter saves the norm's output")
            << int(TransformersRelease::Before4_46) << int(FineTune::LoRA) << true << false << qint64(8) << qint64(0);
        QTest::newRow("4.45 and older, LoRA on the head under autocast: its adapter saves a 16-bit cast")
            << int(TransformersRelease::Before4_46) << int(FineTune::LoRA) << true << true << qint64(8) << qint64(4);
    }
    void transformersLossByRelease()
    {
        QFETCH(int, release);
        QFETCH(int, fineTune);
        QFETCH(bool, headLora);
        QFETCH(bool, autocast);
        QFETCH(qint64, bytesPerLogit);
        QFETCH(qint64, normBytes);
        Scenario s; // Architecture{}: Llama-2-7B's shapes
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention::Sdpa;
        s.precision = autocast ? Precision::MixedBf16 : Precision::Bf16;
        s.ampStyle = AmpStyle::Autocast;
        s.fineTune = FineTune(fineTune);
        if (headLora)
            s.loraTargets |= LoraHead;
        s.sequence = 4096;
        s.transformers = TransformersRelease(release);
        QVERIFY(!scenarioError(s));
        const qint64 logits = 4096LL * 32000;
        QCOMPARE(estimate(s).item(ItemId::Logits), logits * bytesPerLogit + 4096LL * 4096 * normBytes);
    }

    // RoPE's cos and sin in Hugging Face's code from transformers 4.46 on: computed once a forward
    // by the model, for the one row of positions it makes, in the residual stream's dtype, and
    // saved by every layer's rotation (Llama-2-7B's shapes, 4096 tokens a sequence, head_dim 128).
    void ropeSharedByTheLayers_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("release");
        QTest::addColumn<int>("precision");
        QTest::addColumn<qint64>("bytes");
        const qint64 pair = 2LL * 4096 * 128;
        QTest::newRow("4.49 and later in BF16: one row of positions, whatever the batch")
            << int(Implementation::HuggingFace) << int(TransformersRelease::Since4_49) << int(Precision::Bf16)
            << 2 * pair;
        QTest::newRow("4.46 to 4.48 under autocast: the FP32 stream's dtype")
            << int(Implementation::HuggingFace) << int(TransformersRelease::Before4_49) << int(Precision::MixedBf16)
            << 4 * pair;
        QTest::newRow("before 4.46: up to 4.44 each layer's attention made its own (not counted)")
            << int(Implementation::HuggingFace) << int(TransformersRelease::Before4_46) << int(Precision::Bf16)
            << qint64(0);
        QTest::newRow("torchtitan: its rotary table instead")
            << int(Implementation::TorchTitan) << int(TransformersRelease::Since4_49) << int(Precision::Bf16)
            << qint64(0);
    }
    void ropeSharedByTheLayers()
    {
        QFETCH(int, implementation);
        QFETCH(int, release);
        QFETCH(int, precision);
        QFETCH(qint64, bytes);
        Scenario s;
        s.implementation = Implementation(implementation);
        s.transformers = TransformersRelease(release);
        s.precision = Precision(precision);
        s.ampStyle = AmpStyle::Autocast;
        s.attention = Attention::Sdpa;
        s.sequence = 4096;
        s.microBatch = 4;
        QVERIFY(!scenarioError(s));
        qint64 rope = 0;
        for (const SavedTensor &tensor : savedTensors(s, TensorScope::Outside))
            if (std::string_view(tensor.name).starts_with("RoPE's cos and sin"))
                rope += tensor.bytes;
        QCOMPARE(rope, bytes);
    }

    // lit-gpt's loss (finetune/lora.py and utils.py chunked_cross_entropy at 8641822): Fabric hands
    // back FP32 logits, 4 B each, and for more than one sequence the last chunk, sliced to drop its
    // final position, is no view, so reshape copies it: b × (its length − 1) × vocab × 4 B more.
    // The loop keeps the logits through backward, which takes the loss a chunk at a time: the FP32
    // gradients of one chunk's log-softmax and logits, 8 B per logit of b × 128 tokens (of the one
    // chunk, less its final position, when the sequence fits in one), on top.
    void litgptLossKeepsItsLogits_data()
    {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("sequence");
        QTest::addColumn<qint64>("copiedPositions"); // of each sequence
        QTest::addColumn<qint64>("chunkPositions");  // of each sequence, in the loss's backward
        QTest::newRow("one sequence: a view") << 1 << 1044 << qint64(0) << qint64(128);
        QTest::newRow("two sequences of 1044: 20 in the last chunk") << 2 << 1044 << qint64(19) << qint64(128);
        QTest::newRow("four sequences of 1304: 24 in the last chunk") << 4 << 1304 << qint64(23) << qint64(128);
        QTest::newRow("two sequences of 1024: a whole last chunk") << 2 << 1024 << qint64(127) << qint64(128);
        QTest::newRow("two sequences of 100: one chunk") << 2 << 100 << qint64(99) << qint64(99);
    }
    void litgptLossKeepsItsLogits()
    {
        QFETCH(int, batch);
        QFETCH(int, sequence);
        QFETCH(qint64, copiedPositions);
        QFETCH(qint64, chunkPositions);
        Scenario s;
        s.implementation = Implementation::LitGpt;
        s.precision = Precision::Bf16;
        s.attention = Attention::Flash;
        s.fineTune = FineTune::LoRA;
        s.loraTargets = LoraQ | LoraV;
        s.arch.vocab = 32'000;
        s.microBatch = batch;
        s.sequence = sequence;
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const qint64 logits = qint64(batch) * sequence * 32'000 * 4;
        // With more than one chunk, every position's loss has its FP32 gradient beside them.
        const qint64 positions = sequence > 128 ? 4 * batch * (sequence - 1) : 0;
        QCOMPARE(estimate(s).item(ItemId::Logits),
                 logits + batch * copiedPositions * 32'000 * 4 + batch * chunkPositions * 32'000 * 8 + positions);
        // ... and the explanation says so, not that the loss's backward replaces the logits
        for (const ExplainedItem &item : explain(s, Units::GiB))
            if (item.id == ItemId::Logits)
                QVERIFY2(item.formula.find("a chunk at a time") != std::string::npos
                             && item.formula.find("more than the forward's") == std::string::npos,
                         item.formula.c_str());
    }

    // Backward's working set (pinned tensor by tensor to autograd in tst_savedtensors) enters the
    // sum only by what it exceeds the loss's tensors freed before it by: all of it on a stage that
    // computes no loss, nothing where a large vocabulary's logits outweigh it.
    void backwardWorkingSetBeyondTheLoss_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("mlp");
        QTest::addColumn<int>("pipeline");
        QTest::addColumn<qint64>("workingSet");
        QTest::addColumn<qint64>("item");
        // s·b·h·2 B for the stream's gradient, then the MLP's: Megatron's fused GELU f-wide
        // gradient (its FC2 keeps its input), a trained SwiGLU's two factors' gradients.
        const qint64 tokens = 4096, h = 4096, f = 11008;
        QTest::newRow("megatron GELU, first of 4 stages: no loss there")
            << int(Implementation::Megatron) << int(MlpKind::Gelu) << 4 << (2 * tokens * h + 2 * tokens * f)
            << (2 * tokens * h + 2 * tokens * f);
        QTest::newRow("megatron SwiGLU, first of 4 stages")
            << int(Implementation::Megatron) << int(MlpKind::SwiGlu) << 4 << (2 * tokens * h + 4 * tokens * f)
            << (2 * tokens * h + 4 * tokens * f);
        QTest::newRow("torchtitan SwiGLU, one GPU: the loss's 8 B a logit outweigh it")
            << int(Implementation::TorchTitan) << int(MlpKind::SwiGlu) << 1 << (2 * tokens * h + 4 * tokens * f)
            << qint64(0);
    }
    void backwardWorkingSetBeyondTheLoss()
    {
        QFETCH(int, implementation);
        QFETCH(int, mlp);
        QFETCH(int, pipeline);
        QFETCH(qint64, workingSet);
        QFETCH(qint64, item);
        Scenario s;
        s.implementation = Implementation(implementation);
        s.arch.mlp = MlpKind(mlp);
        s.precision = Precision::Bf16;
        s.attention = s.implementation == Implementation::TorchTitan ? Attention::Sdpa : Attention::Flash;
        s.pipelineParallel = pipeline;
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const Breakdown b = estimate(s);
        QCOMPARE(b.backwardWorkingSet, workingSet);
        QCOMPARE(b.item(ItemId::BackwardWorkingSet), item);
    }

    // Under recomputation the layer being back-propagated has rebuilt its whole saved set, so its
    // working set is the one without recomputation (the eager softmax's moment frees from that set).
    void backwardWorkingSetUnderRecomputation_data()
    {
        QTest::addColumn<int>("attention");
        QTest::newRow("Hugging Face, eager attention (the softmax's moment)") << int(Attention::Eager);
        QTest::newRow("Hugging Face, SDPA (the MLP's moment)") << int(Attention::Sdpa);
    }
    void backwardWorkingSetUnderRecomputation()
    {
        QFETCH(int, attention);
        Scenario s;
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention(attention);
        s.sequence = 4096;
        QVERIFY(!scenarioError(s));
        const Bytes kept = estimate(s).backwardWorkingSet;
        s.recompute = Recompute::Full;
        QVERIFY(!scenarioError(s));
        QCOMPARE(estimate(s).backwardWorkingSet, kept);
    }

    // torch.utils.checkpoint's reentrant backward (CheckpointFunction.backward) keeps the
    // recomputed layer's output referenced while it runs the layer's backward; the non-reentrant
    // checkpoint drops it. One tensor of the residual stream, in the stream's dtype.
    void reentrantCheckpointHoldsTheOutput_data()
    {
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("ampStyle");
        QTest::addColumn<qint64>("streamBytes");
        QTest::newRow("pure BF16: a 16-bit stream") << int(Precision::Bf16) << int(AmpStyle::MasterCopy) << qint64(2);
        QTest::newRow("autocast over FP32 weights: an FP32 stream")
            << int(Precision::MixedBf16) << int(AmpStyle::Autocast) << qint64(4);
    }
    void reentrantCheckpointHoldsTheOutput()
    {
        QFETCH(int, precision);
        QFETCH(int, ampStyle);
        QFETCH(qint64, streamBytes);
        Scenario s;
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention::Sdpa;
        s.precision = Precision(precision);
        s.ampStyle = AmpStyle(ampStyle);
        s.microBatch = 2;
        s.sequence = 4096;
        s.recompute = Recompute::Full;
        QVERIFY(!scenarioError(s));
        const Bytes reentrant = estimate(s).item(ItemId::RecomputeBuffer);
        s.useReentrant = false;
        QCOMPARE(reentrant - estimate(s).item(ItemId::RecomputeBuffer), 2 * 4096 * s.arch.hidden * streamBytes);
    }

    // Before transformers 4.48 Mistral's flash attention (and SDPA) copies K and V to every head
    // before the kernel, which saves the copies: 2 × (heads − KV heads) × head dim × 2 B a token a
    // layer more in 16 bits, 12,288 B for Mistral-7B; nothing without GQA or for a single KV head,
    // whose copy stays a view.
    void kvRepeatWidensKeysAndValues_data()
    {
        QTest::addColumn<qint64>("kvHeads");
        QTest::addColumn<qint64>("bytesPerToken");
        QTest::newRow("Mistral-7B: 8 KV heads of 32") << qint64(8) << qint64(12'288);
        QTest::newRow("multi-head: nothing to repeat") << qint64(32) << qint64(0);
        QTest::newRow("one KV head: a view") << qint64(1) << qint64(0);
    }
    void kvRepeatWidensKeysAndValues()
    {
        QFETCH(qint64, kvHeads);
        QFETCH(qint64, bytesPerToken);
        Scenario s;
        s.arch.kvHeads = kvHeads;
        s.arch.ffn = 14336;
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention::Flash;
        s.precision = Precision::Bf16;
        s.microBatch = 2;
        s.sequence = 4096;
        QVERIFY(!scenarioError(s));
        const Breakdown gqa = estimate(s);
        s.kvRepeated = true;
        const Breakdown repeated = estimate(s);
        QCOMPARE(repeated.keptPerLayer - gqa.keptPerLayer, bytesPerToken * 2 * 4096);
        QCOMPARE(repeated.item(ItemId::LayerActivations) - gqa.item(ItemId::LayerActivations),
                 bytesPerToken * 2 * 4096 * s.arch.layers);
    }

    // A padded batch hands Hugging Face's SDPA path its mask: K and V copied to every head, and the
    // memory-efficient kernel keeps the mask made additive in the model's dtype, s·s a sequence a
    // layer. Measured on an H200 (h200-llama1b-bf16-sdpa-b4-s1024-padded): 32 MiB a layer more
    // than the same batch unpadded at Llama-3.2-1B's shape, 24 MiB of copies and 8 MiB of mask.
    void paddingMaskReachesSdpa_data()
    {
        QTest::addColumn<qint64>("kvHeads");
        QTest::addColumn<int>("attention");
        QTest::addColumn<qint64>("bytesPerLayer");
        constexpr qint64 tokens = 4 * 1024, mask = 2 * 1024 * tokens;
        QTest::newRow("Llama-3.2-1B's shape, SDPA: copies and mask")
            << qint64(8) << int(Attention::Sdpa) << 2 * 2 * (32 - 8) * 64 * tokens + mask;
        QTest::newRow("multi-head, SDPA: the mask alone") << qint64(32) << int(Attention::Sdpa) << mask;
        QTest::newRow("flash_attention_2: unpads instead, not counted")
            << qint64(8) << int(Attention::Flash) << qint64(0);
    }
    void paddingMaskReachesSdpa()
    {
        QFETCH(qint64, kvHeads);
        QFETCH(int, attention);
        QFETCH(qint64, bytesPerLayer);
        Scenario s;
        s.arch.hidden = 2048;
        s.arch.heads = 32;
        s.arch.kvHeads = kvHeads;
        s.arch.ffn = 8192;
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention(attention);
        s.precision = Precision::Bf16;
        s.microBatch = 4;
        s.sequence = 1024;
        QVERIFY(!scenarioError(s));
        const Breakdown packed = estimate(s);
        s.paddingMask = true;
        QCOMPARE(estimate(s).keptPerLayer - packed.keptPerLayer, bytesPerLayer);
    }

    // torchtitan's op-level selective checkpointing keeps, per layer, the block's input and the
    // outputs of the ops on its _save_list: wq, wv, w1 and w2 (the odd-numbered of the block's
    // seven mm calls), SDPA's output and its FP32 log-sum-exp; backward rebuilds one layer at a time.
    void titanOpLevelCheckpointing()
    {
        Scenario s;
        s.arch.kvHeads = 8;
        s.arch.ffn = 14336;
        s.implementation = Implementation::TorchTitan;
        s.attention = Attention::Sdpa;
        s.precision = Precision::Bf16;
        s.microBatch = 2;
        s.sequence = 8192;
        s.recompute = Recompute::Selective;
        QVERIFY(!scenarioError(s));
        const qint64 tokens = 2 * 8192, h = 4096, q = 4096, kv = 8 * 128, f = 14336;
        const qint64 kept = 2 * tokens * (h + q + kv + q + f + h) + 4 * tokens * 32;
        const Breakdown b = estimate(s);
        QCOMPARE(b.keptPerLayer, kept);
        QCOMPARE(b.item(ItemId::LayerActivations), kept * 32);
        Scenario none = s;
        none.recompute = Recompute::None;
        QCOMPARE(b.item(ItemId::RecomputeBuffer), estimate(none).keptPerLayer);
        QVERIFY(b.keptPerLayer < b.oneLayerActivations);
    }

    // torchtune's OffloadActivations: the layers' saved tensors go to CPU memory, whole; the GPU
    // keeps the last five tensors copied out until their copy is done (max_fwd_stash_size) and a
    // layer's tensors brought back for its backward: one layer's set, or with checkpointing (one
    // tensor per layer, its input) the last five layers' inputs, fewer when there are fewer layers.
    void activationOffload_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<qint64>("layers");
        QTest::addColumn<qint64>("onGpu"); // layers' worth of saved tensors left on the GPU
        QTest::newRow("torchtitan, no checkpointing: one layer's set")
            << int(Implementation::TorchTitan) << int(Recompute::None) << qint64(32) << qint64(1);
        QTest::newRow("torchtitan, checkpointing: five layers' inputs")
            << int(Implementation::TorchTitan) << int(Recompute::Full) << qint64(32) << qint64(5);
        QTest::newRow("hugging face, checkpointing, three layers: all three inputs")
            << int(Implementation::HuggingFace) << int(Recompute::Full) << qint64(3) << qint64(3);
    }
    void activationOffload()
    {
        QFETCH(int, implementation);
        QFETCH(int, recompute);
        QFETCH(qint64, layers);
        QFETCH(qint64, onGpu);
        Scenario kept;
        kept.implementation = Implementation(implementation);
        kept.attention = Attention::Sdpa;
        kept.precision = Precision::Bf16;
        kept.recompute = Recompute(recompute);
        kept.arch.layers = layers;
        Scenario offloaded = kept;
        offloaded.activationOffload = true;
        QVERIFY(!scenarioError(offloaded));
        const Breakdown before = estimate(kept), after = estimate(offloaded);
        QCOMPARE(after.item(ItemId::LayerActivations), 0);
        QCOMPARE(after.hostItem(ItemId::LayerActivations), before.item(ItemId::LayerActivations));
        QCOMPARE(after.host, before.item(ItemId::LayerActivations));
        QCOMPARE(after.item(ItemId::ActivationOffloadWindow), before.keptPerLayer * onGpu);
        // The head, the logits and the loss stay on the GPU (a NoOpManager, the loss outside).
        QCOMPARE(after.item(ItemId::HeadActivations), before.item(ItemId::HeadActivations));
        QCOMPARE(after.item(ItemId::Logits), before.item(ItemId::Logits));
        QCOMPARE(before.total - after.total,
                 before.item(ItemId::LayerActivations) - after.item(ItemId::ActivationOffloadWindow)
                     + before.item(ItemId::AllocatorReserve) - after.item(ItemId::AllocatorReserve));
    }

    // Context parallelism gives each GPU an equal slice of the sequence: every activation is the
    // one-GPU estimate of that slice, and the sharded states divide by data-parallel × cp GPUs.
    void contextParallelSlicesTheSequence_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("cp");
        QTest::newRow("megatron, cp 4") << int(Implementation::Megatron) << 4;
        QTest::newRow("torchtitan, cp 8") << int(Implementation::TorchTitan) << 8;
    }
    void contextParallelSlicesTheSequence()
    {
        QFETCH(int, implementation);
        QFETCH(int, cp);
        Scenario s;
        s.arch.kvHeads = 8;
        s.arch.ffn = 14336;
        s.arch.vocab = 128'256;
        s.implementation = Implementation(implementation);
        s.attention = Attention::Sdpa;
        s.precision = Precision::MixedBf16;
        s.zeroStage = 1;
        s.dataParallel = 2;
        Scenario slice = s;
        slice.sequence = 8192;
        s.sequence = 8192 * cp;
        s.contextParallel = cp;
        QVERIFY(!scenarioError(s));
        const Breakdown whole = estimate(s), one = estimate(slice);
        QCOMPARE(whole.component(Component::Activations), one.component(Component::Activations));
        QCOMPARE(whole.item(ItemId::Weights), one.item(ItemId::Weights));
        QCOMPARE(whole.item(ItemId::OptimizerMoments), one.item(ItemId::OptimizerMoments) / cp);
    }

    // 8192 tokens × 151,936 vocab in FP32 is 4.64 GiB (memory-model.md).
    void largeVocabularyLogits()
    {
        Scenario s;
        s.arch.vocab = 151'936;
        s.sequence = 8192;
        s.precision = Precision::Fp32; // logits already FP32: no extra copy
        const Bytes logits = estimate(s).item(ItemId::Logits);
        QCOMPARE(logits, Bytes(4) * 8192 * 151'936);
        QCOMPARE(QString::fromStdString(formatBytes(logits, Units::GiB)), QStringLiteral("4.64 GiB"));
        s.precision = Precision::MixedBf16; // BF16 logits plus the FP32 copy for the loss
        QCOMPARE(estimate(s).item(ItemId::Logits), Bytes(6) * 8192 * 151'936);
    }

    // 1F1B: the first stage holds p micro-batches of its L/p layers = L layers' worth; the
    // interleaved schedule multiplies that by 1 + (p−1)/(p·v).
    void pipelineInFlight_data()
    {
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("vpp");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<double>("layersWorth");
        QTest::newRow("p=4, full pipeline: L layers") << 4 << 1 << 8 << 96.0;
        QTest::newRow("p=4, two micro-batches only") << 4 << 1 << 2 << 48.0;
        QTest::newRow("p=4, micro-batches not given: the pipeline full, L layers") << 4 << 1 << 0 << 96.0;
        QTest::newRow("one stage, micro-batches not given: one in flight") << 1 << 1 << 0 << 96.0;
        QTest::newRow("p=4, v=2: × (1 + 3/8)") << 4 << 2 << 8 << 96.0 * 11.0 / 8.0;
        // Megatron's warm-up, 2(p−1) + (v−1)·p = 34 chunk passes, would exceed the step's 4 × 8:
        // every forward runs first (schedules.py: are_all_microbatches_in_warmup), 32 passes of 3 layers.
        QTest::newRow("p=4, v=8, 4 micro-batches: all forwards first") << 4 << 8 << 4 << 96.0;
    }

    // What Megatron keeps outside its layers, against Megatron's theoretical memory
    // (theoretical_memory_usage.py), each this GPU's share (the article's 7B: s = 2048, b = 1, h = 4096).
    // The last stage: the final norm's input and the output layer's input, 2 × s·b·h in the
    // activation dtype, this GPU's slice under sequence parallelism (its "4·s·b·h" in BF16), beside
    // the final RMSNorm's FP32 1/rms, 4 B a token; a stage without the head keeps none of it.
    // The first: the embeddings' inputs and the dropout's 1-byte mask, their output being the first
    // layer's input (its "input to embedding" 8·s·b and "dropout in embedding layer" s·b·h), p
    // micro-batches on the first stage of a full pipeline; under TP, VocabParallelEmbedding keeps
    // its shifted copy of the ids and the boolean mask of those outside its slice (1 B a token), and
    // learned positions' ids are kept too (8 B a token).
    void megatronOutsideTheLayers_data()
    {
        QTest::addColumn<int>("item");
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<bool>("learnedPositions");
        QTest::addColumn<qint64>("bytes");
        const qint64 sb = 2048, sbh = sb * 4096, statistics = 4 * sb;
        const int head = int(ItemId::HeadActivations), embedding = int(ItemId::EmbeddingActivations);
        QTest::newRow("head, one GPU: 2 × s·b·h × 2 B") << head << 1 << false << 1 << false << 4 * sbh + statistics;
        QTest::newRow("head, TP 4: every GPU holds them whole")
            << head << 4 << false << 1 << false << 4 * sbh + statistics;
        QTest::newRow("head, TP 4 with sequence parallelism: a quarter")
            << head << 4 << true << 1 << false << sbh + statistics / 4;
        QTest::newRow("head, pipeline: the first stage has none") << head << 1 << false << 4 << false << qint64(0);
        QTest::newRow("embedding, one GPU, rotary: 8·s·b + s·b·h")
            << embedding << 1 << false << 1 << false << 8 * sb + sbh;
        QTest::newRow("embedding, full pipeline of 4: × 4 micro-batches")
            << embedding << 1 << false << 4 << false << 4 * (8 * sb + sbh);
        QTest::newRow("embedding, TP 4: + the out-of-slice mask")
            << embedding << 4 << false << 1 << false << 9 * sb + sbh;
        QTest::newRow("embedding, TP 4 + SP: the dropout's mask a quarter")
            << embedding << 4 << true << 1 << false << 9 * sb + sbh / 4;
        QTest::newRow("embedding, learned positions: + their ids")
            << embedding << 1 << false << 1 << true << 16 * sb + sbh;
    }
    void megatronOutsideTheLayers()
    {
        QFETCH(int, item);
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(int, pp);
        QFETCH(bool, learnedPositions);
        QFETCH(qint64, bytes);
        Scenario s;
        s.sequence = 2048;
        s.dropout = true;
        s.precision = Precision::MixedBf16;
        s.tensorParallel = tp;
        s.sequenceParallel = sp;
        s.pipelineParallel = pp;
        s.arch.learnedPositions = learnedPositions ? 2048 : 0;
        s.arch.vocab = 8; // keep the last stage's logits small so the first stage is the heaviest
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.stage, 0);
        QCOMPARE(qint64(b.item(ItemId(item))), bytes);
    }

    // Megatron-LM's get_batch (pretrain_gpt.py, get_batch_on_this_tp_rank) hands every
    // tensor-parallel rank the micro-batch: token and position ids on the first stage, labels
    // (int64) and the FP32 loss mask on the last, and with --create-attention-mask-in-dataloader,
    // its default, the dataset's b×1×s×s boolean causal mask. Ids the embeddings keep (the tokens
    // without TP) are counted with them. Only Megatron-LM's loop (--sharding megatron) has it.
    void megatronInputBatch_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("mask");
        QTest::addColumn<QString>("sharding");
        QTest::addColumn<qint64>("bytes");
        const qint64 b = 2, s = 2048, tokens = b * s;
        QTest::newRow("one GPU: position ids, labels, loss mask and b·s² booleans")
            << 1 << true << "megatron" << 20 * tokens + b * s * s;
        QTest::newRow("TP 2: the tokens too, which the embedding copies")
            << 2 << true << "megatron" << 28 * tokens + b * s * s;
        QTest::newRow("--no-create-attention-mask-in-dataloader") << 1 << false << "megatron" << 20 * tokens;
        QTest::newRow("DeepSpeed's loop: not counted") << 1 << true << "zero" << qint64(0);
    }
    void megatronInputBatch()
    {
        QFETCH(int, tp);
        QFETCH(bool, mask);
        QFETCH(QString, sharding);
        QFETCH(qint64, bytes);
        Scenario s;
        s.sequence = 2048;
        s.microBatch = 2;
        s.precision = Precision::MixedBf16;
        s.tensorParallel = tp;
        s.sharding = *parseSharding(sharding.toStdString());
        s.dataloaderMask = mask;
        QVERIFY(!scenarioError(s));
        QCOMPARE(qint64(estimate(s).item(ItemId::InputBatch)), bytes);
    }

    // What Megatron-Core's schedule (schedules.py) holds beside a stage's activations, s·b·h each
    // (tst_pipeline replays the schedule for these counts):
    // - activation gradients, the most at once: from the second steady-state forward on, the
    //   previous backward's - without interleaving the one it sent back (not on the first stage)
    //   and the one it received (not on the last); with interleaving the one sent back and the next
    //   backward's, received ahead - and beside a backward the previous one sent back and the one
    //   it started from (none where the loss starts it), until it returns.
    // - interleaved, beside a steady-state backward: the last forward's output, not yet freed, and
    //   the next forward's input, received ahead.
    // - between steps, each model chunk's last pipeline input and its gradient (set_input_tensor,
    //   retain_grad): every chunk of the stage but the first stage's first.
    void pipelineSchedule_data()
    {
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("vpp");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("gradients");
        QTest::addColumn<int>("outputAndNextInput");
        QTest::addColumn<int>("chunksKeeping");
        QTest::addColumn<int>("heldAfterBackward");
        QTest::newRow("1F1B, first stage, 8 micro-batches: the gradient received")
            << 4 << 1 << 8 << 0 << 1 << 0 << 0 << 0;
        QTest::newRow("1F1B, first stage, 4 micro-batches: one steady forward, the gradient a backward started from")
            << 4 << 1 << 4 << 0 << 1 << 0 << 0 << 0;
        QTest::newRow("1F1B, last stage: the gradient sent back") << 4 << 1 << 8 << 3 << 1 << 0 << 1 << 0;
        QTest::newRow("interleaved, last stage, 8 micro-batches: sent back and received")
            << 4 << 2 << 8 << 3 << 2 << 2 << 2 << 4;
        QTest::newRow(
            "interleaved, last stage, 4 micro-batches: sent back, and the one chunk 0's backward started from")
            << 4 << 2 << 4 << 3 << 2 << 1 << 2 << 2;
        QTest::newRow("interleaved, first stage: its second chunk keeps its input")
            << 4 << 2 << 8 << 0 << 2 << 2 << 1 << 0;
        QTest::newRow("no pipeline: none") << 1 << 1 << 8 << 0 << 0 << 0 << 0 << 0;
    }
    void pipelineSchedule()
    {
        QFETCH(int, pp);
        QFETCH(int, vpp);
        QFETCH(int, microBatches);
        QFETCH(int, stage);
        QFETCH(int, gradients);
        QFETCH(int, outputAndNextInput);
        QFETCH(int, chunksKeeping);
        QFETCH(int, heldAfterBackward);
        Scenario s = gpt3();
        s.pipelineParallel = pp;
        s.virtualStages = vpp;
        s.gradAccum = microBatches;
        if (stage > 0)
            makeLastStageHeaviest(s);
        else
            s.arch.vocab = 8; // the first stage the heaviest
        QVERIFY(!scenarioError(s));
        const Breakdown b = estimate(s);
        QCOMPARE(b.stage, stage);
        const qint64 tensor = qint64(2048) * s.microBatch * 12288 * 2;
        QCOMPARE(qint64(b.item(ItemId::PipelineGradients)), gradients * tensor);
        QCOMPARE(qint64(b.item(ItemId::PipelineOutputAndNextInput)), outputAndNextInput * tensor);
        QCOMPARE(qint64(b.item(ItemId::PipelineInputsKept)), chunksKeeping * 2 * tensor);
        QCOMPARE(qint64(b.item(ItemId::PipelineInputsHeld)), heldAfterBackward * tensor);
        QCOMPARE(qint64(b.pipelineInputsHeld), qint64(heldAfterBackward));
    }

    // Megatron-Core's MoE layer with its default allgather dispatcher: each GPU keeps the s·b·k
    // rows routed to its local experts (balanced routing), permuted by index_select, whose int64
    // indices its backward keeps; its experts split f over the TP GPUs. A non-gated activation is
    // weighted by the routing probabilities and cast back (mlp.py, per_token_scale), keeping its
    // output beside its input and the cast; the fused weighted SwiGLU keeps only its input.
    void megatronMoeLayer_data()
    {
        QTest::addColumn<bool>("gated");
        QTest::addColumn<int>("topK");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("mlpTensors"); // of s·b·k·f/t, 2 B each
        QTest::newRow("GELU, top-1: fc1 output, GELU output, the weighted cast") << false << 1 << 1 << 1 << 3;
        QTest::newRow("GELU, top-2 over EP 4") << false << 2 << 1 << 4 << 3;
        QTest::newRow("GELU, TP 2 with SP: f split") << false << 1 << 2 << 2 << 3;
        QTest::newRow("SwiGLU, top-2: gate and up outputs, the weighted product") << true << 2 << 1 << 2 << 3;
    }
    void megatronMoeLayer()
    {
        QFETCH(bool, gated);
        QFETCH(int, topK);
        QFETCH(int, tp);
        QFETCH(int, ep);
        QFETCH(int, mlpTensors);
        const Scenario s = megatronMoe(gated ? MlpKind::SwiGlu : MlpKind::Gelu, topK, tp, ep);
        QVERIFY(!scenarioError(s));
        const TensorList layer = layerTensors(s);
        const auto part = [&](std::string_view name) {
            for (int i = 0; i < layer.count; ++i)
                if (layer.items[std::size_t(i)].name == name)
                    return layer.items[std::size_t(i)].bytes;
            return Bytes(0);
        };
        const qint64 rows = qint64(2048) * topK;
        QCOMPARE(qint64(part("MoE permuted rows and indices")), rows * (2 * 4096 + 8));
        QCOMPARE(qint64(part("MLP")), qint64(mlpTensors) * 2 * rows * s.arch.ffn / tp);
    }

    // SequentialMLP runs this GPU's experts one after another, so one expert's backward is the
    // MLP's moment: the stream's gradient (this GPU's slice under sequence parallelism) and, GELU's
    // fused kernel having its FC2 keep its input, the gradient of GELU's input, one expert's rows
    // wide. The dispatcher gathers the tokens of the TP × EP group: under balanced routing a local
    // expert takes s·b·k·EP/E rows, EP times its share of this GPU's own tokens. The grouped GEMM
    // computes every local expert's rows at once: s·b·k. h = 4096, f = 11008.
    void megatronExpertBackward_data()
    {
        QTest::addColumn<int>("topK");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<bool>("grouped");
        QTest::addColumn<qint64>("expertRows");
        QTest::newRow("top-1, one GPU: s·b/8 rows") << 1 << 1 << 1 << false << qint64(2048 / 8);
        QTest::newRow("top-1 over EP 4: s·b·4/8 rows") << 1 << 1 << 4 << false << qint64(2048 * 4 / 8);
        QTest::newRow("top-2 over EP 8: s·b·2 rows") << 2 << 1 << 8 << false << qint64(2048 * 2);
        QTest::newRow("top-1, TP 2 with SP over EP 2: s·b·2/8 rows, f split")
            << 1 << 2 << 2 << false << qint64(2048 * 2 / 8);
        QTest::newRow("grouped GEMM, top-2 over EP 4: all s·b·2 rows") << 2 << 1 << 4 << true << qint64(2048 * 2);
        QTest::newRow("grouped GEMM, top-1, TP 2 with SP over EP 2: all s·b rows")
            << 1 << 2 << 2 << true << qint64(2048);
    }
    void megatronExpertBackward()
    {
        QFETCH(int, topK);
        QFETCH(int, tp);
        QFETCH(int, ep);
        QFETCH(bool, grouped);
        QFETCH(qint64, expertRows);
        Scenario s = megatronMoe(MlpKind::Gelu, topK, tp, ep);
        s.groupedGemm = grouped;
        QVERIFY(!scenarioError(s));
        const qint64 stream = qint64(2) * 2048 / tp * 4096;
        QCOMPARE(qint64(backwardWorkingSet(s).total), stream + 2 * expertRows * s.arch.ffn / tp);
    }

    // Megatron-Core's all-gather buffer (GlobalMemoryBuffer "mpu"), kept at its largest use: the
    // output layer's input gathered over TP under sequence parallelism on the last stage, and the
    // MoE dispatcher's tokens gathered over TP × EP. s = 2048, b = 1, h = 4096, BF16.
    void megatronGatherBuffer_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("experts");
        QTest::addColumn<qint64>("tokens");
        QTest::newRow("TP 4 with SP: the output layer's input, s·b tokens") << 4 << true << 1 << 1 << qint64(2048);
        QTest::newRow("TP 4 without SP: none") << 4 << false << 1 << 1 << qint64(0);
        QTest::newRow("one GPU: none") << 1 << false << 1 << 1 << qint64(0);
        QTest::newRow("MoE over EP 4: s·b·4 tokens") << 1 << false << 4 << 8 << qint64(4 * 2048);
        QTest::newRow("MoE, TP 2 with SP over EP 2: s·b·2 tokens") << 2 << true << 2 << 8 << qint64(2 * 2048);
    }
    void megatronGatherBuffer()
    {
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(int, ep);
        QFETCH(int, experts);
        QFETCH(qint64, tokens);
        Scenario s;
        s.sequence = 2048;
        s.precision = Precision::MixedBf16;
        s.tensorParallel = tp;
        s.sequenceParallel = sp;
        s.arch.experts = experts;
        s.expertParallel = ep;
        s.dataParallel = ep;
        QVERIFY(!scenarioError(s));
        QCOMPARE(qint64(estimate(s).item(ItemId::GatherBuffer)), tokens * 4096 * 2);
    }

    // The last stage of an interleaved pipeline warms up (v−1)·p chunk passes, then runs one
    // forward before each backward: (v−1)·p + 1 passes of L/(p·v) layers (Megatron-Core,
    // pipeline_parallel/schedules.py get_pp_rank_microbatches); without interleaving, one micro-batch.
    void lastStageInFlight_data()
    {
        QTest::addColumn<int>("vpp");
        QTest::addColumn<double>("layersWorth");
        QTest::newRow("1F1B: one micro-batch of 24 layers") << 1 << 24.0;
        QTest::newRow("v=2: 5 passes of 12 layers") << 2 << 60.0;
        QTest::newRow("v=4: 13 passes of 6 layers") << 4 << 78.0;
    }
    void lastStageInFlight()
    {
        QFETCH(int, vpp);
        QFETCH(double, layersWorth);
        Scenario s = gpt3();
        s.pipelineParallel = 4;
        s.virtualStages = vpp;
        s.gradAccum = 8;
        makeLastStageHeaviest(s);
        const Breakdown b = estimate(s);
        QCOMPARE(b.stage, 3);
        QCOMPARE(double(b.item(ItemId::LayerActivations)), double(b.keptPerLayer) * layersWorth);
    }
    void pipelineInFlight()
    {
        QFETCH(int, pp);
        QFETCH(int, vpp);
        QFETCH(int, microBatches);
        QFETCH(double, layersWorth);
        Scenario s = gpt3();
        s.pipelineParallel = pp;
        s.virtualStages = vpp;
        s.gradAccum = microBatches;
        s.arch.vocab = 8; // keep the last stage's logits small so the first stage is the heaviest
        const Breakdown b = estimate(s);
        QCOMPARE(b.stage, 0);
        QCOMPARE(double(b.item(ItemId::LayerActivations)), double(b.oneLayerActivations) * layersWorth);
    }

    void withoutRecomputeIsTheEstimateWithout_data()
    {
        QTest::addColumn<QString>("recompute");
        QTest::addColumn<int>("batch");
        QTest::addColumn<bool>("offload"); // torchtitan's code with its activations offloaded
        QTest::newRow("full recomputation") << "full" << 1 << false;
        QTest::newRow("full recomputation, batch 8") << "full" << 8 << false;
        QTest::newRow("selective recomputation") << "selective" << 2 << false;
        QTest::newRow("none: unchanged") << "none" << 4 << false;
        QTest::newRow("offloaded, full recomputation: one layer on the GPU instead of five inputs")
            << "full" << 2 << true;
        QTest::newRow("offloaded, op-level selective") << "selective" << 2 << true;
    }
    void withoutRecomputeIsTheEstimateWithout()
    {
        // The diagram's dashed outline must be what the step would really hold without it.
        QFETCH(QString, recompute);
        QFETCH(int, batch);
        QFETCH(bool, offload);
        Scenario s; // the article's 7B
        s.microBatch = batch;
        if (offload) {
            s.implementation = Implementation::TorchTitan;
            s.attention = Attention::Sdpa;
            s.activationOffload = true;
        }
        s.recompute = recompute == QLatin1String("full") ? Recompute::Full
            : recompute == QLatin1String("selective")    ? Recompute::Selective
                                                         : Recompute::None;
        Scenario none = s;
        none.recompute = Recompute::None;
        QCOMPARE(activationsWithoutRecompute(estimate(s)), estimate(none).component(Component::Activations));
    }

    void frozenLayersSaveNothing()
    {
        Scenario s;
        s.fineTune = FineTune::Freeze;
        s.trainableLayers = 4;
        const Breakdown b = estimate(s);
        QCOMPARE(b.item(ItemId::LayerActivations), b.oneLayerActivations * 4);
    }
};

QTEST_APPLESS_MAIN(TestActivations)
#include "tst_activations.moc"
