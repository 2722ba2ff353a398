#include "ui/controlpanel.h"

#include "core/architecture.h"
#include "core/edits.h"
#include "core/estimate.h"
#include "core/fields.h"
#include "ui/ledgermodel.h"
#include "ui/sliderspin.h"
#include "ui/theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <limits>

namespace vl {

namespace {

constexpr std::array kPrecisions{Precision::Fp32, Precision::MixedFp16, Precision::MixedBf16, Precision::Bf16,
                                 Precision::Fp8};

template <class Enum>
void setComboData(QComboBox *box, Enum value)
{
    const int index = box->findData(int(value));
    if (index == box->currentIndex())
        return;
    const QSignalBlocker block(box);
    box->setCurrentIndex(index);
}

} // namespace

ControlPanel::ControlPanel(LedgerModel &model, QWidget *parent) : QWidget(parent), m_model(model)
{
    build();
    retranslate();
    syncFromModel();
    connect(&m_model, &LedgerModel::changed, this, &ControlPanel::syncFromModel);
}

void ControlPanel::addText(std::function<void()> setText)
{
    setText();
    m_texts.push_back(std::move(setText));
}

void ControlPanel::build()
{
    auto *layout = new QVBoxLayout(this);

    // Model ---------------------------------------------------------------------------------
    auto *modelGroup = new QGroupBox(this);
    m_modelGroup = modelGroup;
    addText([=, this] { modelGroup->setTitle(tr("Model")); });
    auto *modelLayout = new QVBoxLayout(modelGroup);
    m_modelBox = new QComboBox(modelGroup);
    m_modelBox->setObjectName(QStringLiteral("modelBox"));
    m_modelBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_modelBox->setMinimumContentsLength(16);
    m_importButton = new QPushButton(modelGroup);
    auto *hubButton = new QPushButton(modelGroup);
    addText([=, this] {
        hubButton->setText(tr("From Hugging Face…"));
        hubButton->setToolTip(tr("Fetch a model's config.json from the Hugging Face Hub by its id, e.g. "
                                 "meta-llama/Llama-3.1-8B, and save it as your own preset."));
        m_importButton->setText(tr("Import config.json…"));
        m_importButton->setToolTip(
            tr("Read a Hugging Face config.json (or drop one on the window) and save it as your own preset."));
        m_modelBox->setToolTip(tr("Start from a model you know. Editing its shape below makes it a custom model."));
    });
    modelLayout->addWidget(m_modelBox);
    auto *importRow = new QHBoxLayout;
    importRow->addWidget(m_importButton);
    importRow->addWidget(hubButton);
    modelLayout->addLayout(importRow);
    connect(m_modelBox, &QComboBox::activated, this, [this](int index) {
        const QString id = m_modelBox->itemData(index).toString();
        if (!id.isEmpty())
            m_model.setModel(id);
    });
    connect(m_importButton, &QPushButton::clicked, this, &ControlPanel::importConfigRequested);
    connect(hubButton, &QPushButton::clicked, this, &ControlPanel::hubImportRequested);
    layout->addWidget(modelGroup);

    // The five sliders ------------------------------------------------------------------------
    auto *main = new QGroupBox(this);
    addText([=, this] { main->setTitle(tr("Training step")); });
    auto *form = new QFormLayout(main);
    // What dragging each slider covers, for teaching; the values allowed are core's (syncFromModel()).
    m_batch = new SliderSpin(SliderSpin::Scale::PowersOfTwo, 1, 4096, 1, QString(), main);
    m_sequence = new SliderSpin(SliderSpin::Scale::PowersOfTwo, 64, 1 << 20, 64, QString(), main);
    m_hidden = new SliderSpin(SliderSpin::Scale::Linear, 64, int(kLargestHidden), 64, QString(), main);
    m_layers = new SliderSpin(SliderSpin::Scale::Linear, 1, 256, 1, QString(), main);
    m_precision = new ChoiceSlider(main);
    // Every control is named after the field it edits (core/fields.cpp), as the CLI's options are.
    m_batch->setObjectName(QStringLiteral("batch"));
    m_sequence->setObjectName(QStringLiteral("seq"));
    m_hidden->setObjectName(QStringLiteral("hidden"));
    m_layers->setObjectName(QStringLiteral("layers"));
    m_precision->setObjectName(QStringLiteral("precision"));
    auto row = [&](QFormLayout *f, QWidget *field, std::function<QString()> label, std::function<QString()> tip) {
        m_labels.emplace_back(field, label);
        auto *l = new QLabel(f->parentWidget());
        l->setBuddy(field);
        f->addRow(l, field);
        addText([=, this] {
            l->setText(label());
            // As rich text, so that Qt wraps a long tooltip instead of showing one screen-wide line.
            const QString wrapped = QStringLiteral("<p>%1</p>").arg(tip().toHtmlEscaped());
            l->setToolTip(wrapped);
            field->setToolTip(wrapped);
        });
    };
    row(
        form, m_batch, [] { return tr("&Batch size"); },
        [] {
            return tr("Micro-batch per GPU. Activations grow in proportion to it; parameters, gradients and "
                      "optimizer states do not. Arrows double and halve; hold Shift for single steps.");
        });
    row(
        form, m_sequence, [] { return tr("&Sequence length"); },
        [] {
            return tr("Tokens per sample. Activations grow in proportion to it, and the attention scores with its "
                      "square unless FlashAttention is on. Hold Shift for fine steps.");
        });
    row(
        form, m_hidden, [] { return tr("&Hidden size"); },
        [] { return tr("Width h. Parameters grow with h², activations with h. Editing it makes the model custom."); });
    row(
        form, m_layers, [] { return tr("&Layers"); },
        [] { return tr("Transformer layers L. Parameters and activations both grow in proportion."); });
    row(
        form, m_precision, [] { return tr("&Precision"); },
        [] {
            return tr("FP32: 4 B per weight and gradient. Mixed FP16/BF16: 2 B each plus an FP32 master copy (4 B) "
                      "in the optimizer states. Pure BF16: no master copy, BF16 optimizer moments. FP8: Megatron-LM "
                      "with Transformer Engine, mixed BF16 plus an FP8 copy and transpose of every linear weight, "
                      "the linears' inputs kept in 1 B.");
        });
    for (SliderSpin *slider : {m_batch, m_sequence, m_hidden, m_layers})
        connect(slider, &SliderSpin::valueChanged, this,
                [this, field = slider->objectName().toStdString()](int v) { editInteger(field, v); });
    connect(m_precision, &ChoiceSlider::indexChanged, this,
            [this](int i) { edit("precision", [i](Scenario &s) { s.precision = kPrecisions[std::size_t(i)]; }); });
    layout->addWidget(main);

    // GPUs ----------------------------------------------------------------------------------------
    auto *gpuGroup = new QGroupBox(this);
    m_gpuGroup = gpuGroup;
    addText([=, this] { gpuGroup->setTitle(tr("Compare against GPUs")); });
    auto *gpuLayout = new QVBoxLayout(gpuGroup);
    m_gpus = new QListWidget(gpuGroup);
    m_gpus->setObjectName(QStringLiteral("gpus"));
    m_gpus->setMinimumHeight(120);
    m_customGpu = new QPushButton(gpuGroup);
    addText([=, this] {
        m_gpus->setToolTip(tr("Each checked GPU draws a capacity line at what nvidia-smi reports, "
                              "and gets its own verdict."));
        m_customGpu->setText(tr("Custom GPU…"));
        m_customGpu->setToolTip(tr("Add a GPU of any capacity; it is saved with your own presets."));
        m_gpus->clear(); // refilled, with tooltips in the new language, by syncGpuList()
    });
    connect(m_gpus, &QListWidget::itemChanged, this, &ControlPanel::emitGpus);
    connect(m_customGpu, &QPushButton::clicked, this, &ControlPanel::customGpuRequested);
    gpuLayout->addWidget(m_gpus);
    gpuLayout->addWidget(m_customGpu);
    layout->addWidget(gpuGroup);

    // Advanced ----------------------------------------------------------------------------------
    m_advanced = new QGroupBox(this);
    m_advanced->setCheckable(true);
    m_advanced->setObjectName(QStringLiteral("advanced"));
    addText([=, this] {
        m_advanced->setTitle(tr("Advanced"));
        m_advanced->setToolTip(tr("Uncheck to fold these away and teach with the five main sliders."));
    });
    auto *advancedLayout = new QVBoxLayout(m_advanced);
    m_advancedBody = new QWidget(m_advanced);
    advancedLayout->addWidget(m_advancedBody);
    auto *af = new QFormLayout(m_advancedBody);
    connect(m_advanced, &QGroupBox::toggled, this, [this](bool open) {
        m_advancedBody->setVisible(open);
        m_advanced->setFlat(!open); // folded: just the title, no empty frame
    });

    m_heads = fieldSpinBox("heads");
    m_kvHeads = fieldSpinBox("kv-heads");
    m_ffn = fieldSpinBox("ffn");
    m_vocab = fieldSpinBox("vocab");
    m_maxPositions = fieldSpinBox("max-positions");
    row(
        af, m_heads, [] { return tr("Attention heads"); },
        [] {
            return tr("Heads a. Without FlashAttention each keeps an s×s score matrix: activations grow with a·s².");
        });
    row(
        af, m_kvHeads, [] { return tr("Key/value heads"); },
        [] { return tr("GQA: fewer key/value heads shrink the K and V projections and their activations."); });
    row(
        af, m_ffn, [] { return tr("MLP size"); },
        [] {
            return tr(
                "Intermediate size f: two (GELU) or three (SwiGLU) h×f matrices per layer, and f-wide activations.");
        });
    row(
        af, m_vocab, [] { return tr("Vocabulary"); },
        [] {
            return tr("V: the embedding and LM head are V×h each, and the logits s·b·V — large vocabularies make a big "
                      "logits item.");
        });
    row(
        af, m_maxPositions, [] { return tr("Max positions"); },
        [] {
            return tr("The positions the model is built for (config.json's max_position_embeddings). torchtune keeps "
                      "a rotary table for every one of them in FP32, 64 MiB for Llama 3.1's 131072; 0: the "
                      "sequence length.");
        });

    auto combo = [&](const std::vector<std::pair<int, std::function<QString()>>> &entries) {
        auto *box = new QComboBox(m_advancedBody);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12); // long choices elide instead of widening the panel
        for (const auto &entry : entries)
            box->addItem(entry.second(), entry.first);
        std::vector<std::function<QString()>> names;
        for (const auto &entry : entries)
            names.push_back(entry.second);
        m_texts.push_back([box, names] {
            for (int i = 0; i < box->count(); ++i)
                box->setItemText(i, names[std::size_t(i)]());
        });
        return box;
    };
    m_optimizer = combo({{int(Optimizer::AdamW), [] { return tr("AdamW"); }},
                         {int(Optimizer::AdamW8bit), [] { return tr("8-bit AdamW"); }},
                         {int(Optimizer::Sgd), [] { return tr("SGD"); }},
                         {int(Optimizer::SgdMomentum), [] { return tr("SGD with momentum"); }},
                         {int(Optimizer::Lion), [] { return tr("Lion"); }},
                         {int(Optimizer::Adafactor), [] { return tr("Adafactor"); }}});
    m_optimizerImpl = combo({{int(OptimizerImpl::Auto), [] { return tr("As the code runs it"); }},
                             {int(OptimizerImpl::ForLoop), [] { return tr("For-loop"); }},
                             {int(OptimizerImpl::Foreach), [] { return tr("Foreach"); }},
                             {int(OptimizerImpl::Fused), [] { return tr("Fused"); }},
                             {int(OptimizerImpl::TransformersLoop), [] { return tr("transformers AdamW"); }}});
    m_pagedOptimizer = new QCheckBox(m_advancedBody);
    m_optimizerInBackward = new QCheckBox(m_advancedBody);
    m_gradientsKept = new QCheckBox(m_advancedBody);
    m_master = new QCheckBox(m_advancedBody);
    m_gradDtype = combo({{int(GradDtype::Auto), [] { return tr("Engine's default"); }},
                         {int(GradDtype::Fp32), [] { return tr("FP32 (18 B/param)"); }},
                         {int(GradDtype::Bf16), [] { return tr("BF16"); }},
                         {int(GradDtype::Fp16), [] { return tr("FP16"); }}});
    row(
        af, m_optimizer, [] { return tr("Optimizer"); },
        [] { return tr("Adam keeps two FP32 states per parameter (8 B) — often the largest part of the bill."); });
    row(
        af, m_optimizerImpl, [] { return tr("AdamW step"); },
        [] {
            return tr("How PyTorch's AdamW updates: foreach works on all tensors at once and briefly needs one "
                      "more copy of the second moment; for-loop one tensor at a time, briefly holding three "
                      "tensor-sized intermediates; a fused kernel needs nothing extra. transformers' own AdamW "
                      "(the Trainer's old adamw_hf) loops holding two. As the code runs it: foreach in lit-gpt's "
                      "scripts, fused in Hugging Face's Trainer (PyTorch 2.8 on), torchtitan, Megatron and "
                      "DeepSpeed.");
        });
    row(
        af, m_pagedOptimizer, [] { return tr("Paged optimizer"); },
        [] {
            return tr("bitsandbytes' paged optimizers (the QLoRA paper's recipe) keep the states of large tensors in "
                      "memory the driver moves to the CPU when the GPU runs short, so they cannot run it out of "
                      "memory. Small tensors' states stay on the GPU.");
        });
    row(
        af, m_optimizerInBackward, [] { return tr("Optimizer in backward"); },
        [] {
            return tr("torchtune's optimizer_in_bwd: each weight is updated as soon as its gradient is ready and the "
                      "gradient is freed, so only one weight's gradient exists at a time. Needs one micro-batch "
                      "per step.");
        });
    row(
        af, m_gradientsKept, [] { return tr("Gradients kept between steps"); },
        [] {
            return tr(
                "zero_grad(set_to_none=False), PyTorch 1's default, zeroes the gradients instead of freeing them: "
                "they stay on the GPU through the next forward, which raises the step's peak.");
        });
    row(
        af, m_master, [] { return tr("FP32 master copy"); },
        [] {
            return tr("Mixed precision keeps an FP32 copy of the weights for the update (4 B/param). "
                      "The article's 84 GB table leaves it out; uncheck to reproduce that table.");
        });
    row(
        af, m_gradDtype, [] { return tr("Gradient dtype"); },
        [] {
            return tr("FP32 gradient accumulation makes mixed precision 18 bytes per parameter instead of 16. The "
                      "engine's default: the weights' dtype, FP32 under Megatron-Core.");
        });

    m_zero = combo({{0, [] { return tr("0 — no sharding"); }},
                    {1, [] { return tr("1 — optimizer states"); }},
                    {2, [] { return tr("2 — + gradients"); }},
                    {3, [] { return tr("3 — + parameters"); }}});
    m_sharding = combo({{int(Sharding::Zero), [] { return tr("DeepSpeed ZeRO"); }},
                        {int(Sharding::Fsdp), [] { return tr("PyTorch FSDP"); }},
                        {int(Sharding::Megatron), [] { return tr("Megatron-Core"); }}});
    m_fsdpVersion = combo({{int(FsdpVersion::Fsdp2), [] { return tr("FSDP2 (fully_shard)"); }},
                           {int(FsdpVersion::Fsdp1), [] { return tr("FSDP1 (flat parameters)"); }}});
    m_replicas = fieldSpinBox("replicate");
    m_reshard = new QCheckBox(m_advancedBody);
    m_noSync = new QCheckBox(m_advancedBody);
    m_origParams = new QCheckBox(m_advancedBody);
    m_ddpBucketView = new QCheckBox(m_advancedBody);
    m_overlapComm = new QCheckBox(m_advancedBody);
    m_zeroInit = new QCheckBox(m_advancedBody);
    m_dp = fieldSpinBox("dp");
    m_tp = fieldSpinBox("tp");
    m_pp = fieldSpinBox("pp");
    m_cp = fieldSpinBox("cp");
    m_ep = fieldSpinBox("ep");
    m_groupedGemm = new QCheckBox(m_advancedBody);
    m_expertLoad = combo({{int(ExpertLoad::Balanced), [] { return tr("Even share"); }},
                          {int(ExpertLoad::EveryToken), [] { return tr("Every token (worst case)"); }}});
    m_vocabPadding = fieldSpinBox("vocab-divisible-by");
    m_gradAccum = fieldSpinBox("grad-accum"); // 0: one per pipeline stage (retranslate() names it)
    m_sp = new QCheckBox(m_advancedBody);
    m_offload = combo({{int(Offload::None), [] { return tr("None"); }},
                       {int(Offload::Optimizer), [] { return tr("Optimizer states"); }},
                       {int(Offload::OptimizerAndParams), [] { return tr("Optimizer + parameters"); }}});
    m_gpusPerNode = fieldSpinBox("gpus-per-node");
    row(
        af, m_zero, [] { return tr("ZeRO stage"); },
        [] {
            return tr("Shards model states over the data-parallel GPUs: stage 1 the optimizer states, "
                      "stage 2 also gradients, stage 3 also parameters. The article's first lever.");
        });
    row(
        af, m_sharding, [] { return tr("Sharding engine"); },
        [] {
            return tr(
                "Who shards. DeepSpeed ZeRO (stages 1–3) keeps gathered what it will use again soon and "
                "prefetches ahead. PyTorch FSDP (stage 3) keeps FP32 shards, gathers the embedding "
                "and head for the whole step and, in 16 bits, one layer at a time in forward and two in backward. "
                "Megatron-Core (stages 0–1) keeps FP32 gradients; at stage 1 its distributed optimizer shards the "
                "optimizer states.");
        });
    row(
        af, m_fsdpVersion, [] { return tr("FSDP version"); },
        [] {
            return tr("Which FSDP. FSDP2 (fully_shard: torchtitan, torchtune) gathers each layer into an "
                      "all-gather buffer and copies it out into the parameters. FSDP1 (FullyShardedDataParallel: "
                      "accelerate, the Hugging Face Trainer, Lightning) gathers each layer straight into one flat "
                      "parameter, so it needs no second copy. Choosing the layer code sets the one it wraps.");
        });
    row(
        af, m_origParams, [] { return tr("FSDP1 keeps the original parameters"); },
        [] {
            return tr("FSDP1's use_orig_params, on in accelerate, the Hugging Face Trainer and Lightning: the "
                      "optimizer sees the model's own parameters, whose gradients are slices of one flat gradient "
                      "per layer. zero_grad drops the slices, and FSDP frees the flat gradients only when the next "
                      "forward starts, so the gradients stay in memory between steps.");
        });
    row(
        af, m_replicas, [] { return tr("Replica groups (HSDP)"); },
        [] {
            return tr("FSDP's hybrid sharding: the data-parallel GPUs form this many groups; each group holds one "
                      "sharded copy of the model states, so they divide by the group's size, not by all GPUs.");
        });
    row(
        af, m_reshard, [] { return tr("Reshard after forward"); },
        [] {
            return tr(
                "FSDP frees each layer's gathered parameters after its forward and gathers them again in "
                "backward. Off (torchtitan's choice with pipelines), every layer stays gathered until its backward.");
        });
    row(
        af, m_noSync, [] { return tr("Accumulate without sync"); },
        [] {
            return tr("With several micro-batches a step, FSDP can skip the gradient reduce-scatter until the last "
                      "one (no_sync: accelerate's gradient accumulation, which the Hugging Face Trainer uses, and "
                      "Lightning Fabric's no_backward_sync do this). Each GPU then keeps the unsharded gradients of "
                      "everything it trains for the whole step. Off: every micro-batch reduce-scatters, as "
                      "torchtitan and torchtune do. Choosing the layer code sets what it does.");
        });
    row(
        af, m_ddpBucketView, [] { return tr("Gradients as bucket views"); },
        [] {
            return tr("Without sharding, PyTorch's DistributedDataParallel averages the gradients in flat buckets. "
                      "Off (PyTorch's default, and Hugging Face's and Lightning's): every gradient is copied into "
                      "them, so the buckets hold a second copy of all gradients from the start. On "
                      "(gradient_as_bucket_view=True): the gradients live in the buckets themselves, for the whole "
                      "step.");
        });
    row(
        af, m_overlapComm, [] { return tr("Overlap communication"); },
        [] {
            return tr("DeepSpeed's overlap_comm at ZeRO stage 1 or 2: backward fills one gradient bucket while the "
                      "other is being reduced, so it allocates two (reduce_bucket_size elements each, 1 GB in 16 "
                      "bits by default). Off is DeepSpeed's default below stage 3; Hugging Face's sample "
                      "configurations turn it on.");
        });
    row(
        af, m_zeroInit, [] { return tr("Built partitioned (zero.Init)"); },
        [] {
            return tr("DeepSpeed's zero.Init at ZeRO stage 3: Hugging Face's from_pretrained builds the model already "
                      "partitioned when the DeepSpeed configuration exists first (accelerate's zero3_init_flag). "
                      "Off: the model is built whole in CPU memory, and DeepSpeed moves it whole onto every GPU "
                      "before partitioning it, so the run's start-up needs the whole model on each GPU. A 4-bit "
                      "model is always loaded that way.");
        });
    row(
        af, m_dp, [] { return tr("Data-parallel GPUs"); },
        [] { return tr("N: ZeRO divides the sharded states by N (by N × c with context parallelism)."); });
    row(
        af, m_tp, [] { return tr("Tensor parallel"); },
        [] { return tr("Splits each layer's matrices and most activations over t GPUs."); });
    row(
        af, m_pp, [] { return tr("Pipeline stages"); },
        [] { return tr("Each stage holds L/p layers; the first stage keeps up to p micro-batches of activations."); });
    row(
        af, m_cp, [] { return tr("Context parallel"); },
        [] {
            return tr("Splits each sequence over c GPUs (attention runs as a ring): activations divide by c, and the "
                      "sharded states by data-parallel × c GPUs. Needs a flash attention kernel.");
        });
    row(
        af, m_ep, [] { return tr("Expert parallel"); },
        [] {
            return tr("Mixture of experts: each GPU holds 1/e of every layer's experts. The e GPUs come out of the "
                      "data-parallel ones, so an expert's optimizer states are sharded over e times fewer GPUs.");
        });
    row(
        af, m_groupedGemm, [] { return tr("Grouped GEMM (MoE)"); },
        [] {
            return tr("Megatron's --moe-grouped-gemm: Transformer Engine computes all of a GPU's experts in one "
                      "grouped matmul spread over its 4 cuBLAS streams, each with a workspace of its own (32 MiB on "
                      "Hopper).");
        });
    row(
        af, m_expertLoad, [] { return tr("Busiest expert (MoE)"); },
        [] {
            return tr("Hugging Face's MoE block runs its experts one after another, and the tokens of the one "
                      "computing at its widest moment set that moment's size. Even share: each expert gets k/e of the "
                      "tokens. Every token: the most routing can send one expert (each token picks k different "
                      "experts); real routing lies in between, so this is the safe choice for planning.");
        });
    row(
        af, m_vocabPadding, [] { return tr("Vocabulary padded to"); },
        [] {
            return tr("Megatron pads the vocabulary to a multiple of this × the tensor-parallel size (its default "
                      "128): the embedding, the head and the logits grow with it. 1 keeps the vocabulary as given.");
        });
    row(
        af, m_gradAccum, [] { return tr("Micro-batches per step"); },
        [] {
            return tr("Gradient accumulation; with pipelining it decides how many micro-batches are in flight. "
                      "Auto: one per pipeline stage, so the 1F1B schedule runs with its pipeline full.");
        });
    row(
        af, m_sp, [] { return tr("Sequence parallel"); },
        [] { return tr("With tensor parallelism, also splits the norm and dropout activations over t."); });
    row(
        af, m_offload, [] { return tr("CPU offload"); },
        [] {
            return tr("ZeRO-Offload moves the master copy and moments (and optionally parameters) to host memory.");
        });
    row(
        af, m_gpusPerNode, [] { return tr("GPUs per node"); },
        [] {
            return tr("GPUs in one machine. They share its CPU memory: each GPU's process keeps its own offloaded "
                      "states and buffers there, so the node needs them this many times. On an NVSwitch that does "
                      "NVLink SHARP, NCCL's NVLS buffers grow with how many of a process group's GPUs share it.");
        });

    m_implementation = combo({{int(Implementation::Megatron), [] { return tr("Megatron (fused)"); }},
                              {int(Implementation::HuggingFace), [] { return tr("Hugging Face"); }},
                              {int(Implementation::TorchTitan), [] { return tr("torchtitan"); }},
                              {int(Implementation::LitGpt), [] { return tr("lit-gpt"); }},
                              {int(Implementation::TorchTune), [] { return tr("torchtune"); }}});
    m_pytorch = combo({{int(PyTorchRelease::Since2_2), [] { return tr("2.2 or newer"); }},
                       {int(PyTorchRelease::Before2_2), [] { return tr("2.1"); }},
                       {int(PyTorchRelease::Before2_1), [] { return tr("1.11 to 2.0"); }},
                       {int(PyTorchRelease::Before1_11), [] { return tr("1.10 or older"); }}});
    m_transformers = combo({{int(TransformersRelease::Since4_49), [] { return tr("4.49 or newer"); }},
                            {int(TransformersRelease::Before4_49), [] { return tr("4.46 to 4.48"); }},
                            {int(TransformersRelease::Before4_46), [] { return tr("4.45 or older"); }}});
    m_ampStyle = combo({{int(AmpStyle::MasterCopy), [] { return tr("FP32 master copy"); }},
                        {int(AmpStyle::Autocast), [] { return tr("PyTorch autocast"); }}});
    row(
        af, m_implementation, [] { return tr("Layer code"); },
        [] {
            return tr("Which code computes each layer decides what it keeps for backward. Megatron's fused kernels "
                      "keep what the papers count; Hugging Face transformers' Llama code also keeps FP32 norm inputs, "
                      "the softmax in FP32 and separate MLP products; torchtitan its Llama block; lit-gpt its Llama "
                      "and GPT-NeoX blocks as its LoRA script trains them in BF16; torchtune its Llama block with "
                      "its RoPE cache (every tensor checked against PyTorch).");
        });
    m_liger = new QCheckBox(m_advancedBody);
    row(
        af, m_liger, [] { return tr("Liger kernels"); },
        [] {
            return tr("Liger Kernel's patch of Hugging Face's Llama-family code (TRL's use_liger_kernel): its norms "
                      "and MLP keep less for backward, and its fused loss computes the output layer's gradients "
                      "chunk by chunk without ever holding the whole logits.");
        });
    m_perLayerRope = new QCheckBox(m_advancedBody);
    row(
        af, m_perLayerRope, [] { return tr("RoPE tables in every layer"); },
        [] {
            return tr("Hugging Face's Mistral and Mixtral code before transformers 4.42, and its Llama code before "
                      "4.40, gives every attention layer its own rotary embedding, which keeps cos and sin tables "
                      "for all the model's positions (max positions) from the start. Tick it for a run on such a "
                      "release.");
        });
    m_kvRepeat = new QCheckBox(m_advancedBody);
    row(
        af, m_kvRepeat, [] { return tr("K and V copied to every head"); },
        [] {
            return tr("Hugging Face's Mistral, Mixtral and Qwen2 code before transformers 4.48 copies each layer's "
                      "keys and values to every attention head before flash attention, and so does SDPA in those "
                      "releases; the kernel keeps the copies for backward. Tick it for a run on such a release.");
        });
    m_paddingMask = new QCheckBox(m_advancedBody);
    row(
        af, m_paddingMask, [] { return tr("Batches padded, not packed"); },
        [] {
            return tr("When the batch's rows are padded to one length (not packed), Hugging Face hands SDPA the "
                      "padding mask: keys and values are copied to every head, and SDPA's memory-efficient kernel "
                      "keeps the mask, s×s per sequence, for every layer's backward.");
        });
    row(
        af, m_pytorch, [] { return tr("PyTorch"); },
        [] {
            return tr("The PyTorch release the run uses. Before 2.2, torch.mean kept its input for backward, so each "
                      "RMSNorm that Hugging Face, lit-gpt or torchtitan write with mean keeps one more copy of the "
                      "layer's width per token. Before 1.11, softmax and log_softmax kept their input too: eager "
                      "attention keeps its scores beside the probabilities, and the loss its FP32 logits.");
        });
    row(
        af, m_transformers, [] { return tr("transformers"); },
        [] {
            return tr("The transformers release whose loss a Llama-family model computes. Before 4.49 the loss makes "
                      "a shifted FP32 copy of the logits; from 4.46 it upcasts them while the model still holds its "
                      "16-bit logits, before 4.46 the FP32 logits replace them. With a large vocabulary this decides "
                      "the peak at the loss.");
        });
    row(
        af, m_ampStyle, [] { return tr("Mixed precision"); },
        [] {
            return tr("FP32 master copy: 16-bit weights and gradients plus an FP32 copy (Megatron, DeepSpeed). "
                      "PyTorch autocast (Hugging Face Trainer, Lightning): FP32 weights and gradients, and a 16-bit "
                      "copy of each weight kept from forward until its backward.");
        });

    m_recompute = combo({{int(Recompute::None), [] { return tr("None"); }},
                         {int(Recompute::Selective), [] { return tr("Selective"); }},
                         {int(Recompute::Full), [] { return tr("Full"); }}});
    m_attention = combo({{int(Attention::Eager), [] { return tr("Eager"); }},
                         {int(Attention::Sdpa), [] { return tr("PyTorch SDPA"); }},
                         {int(Attention::Flash), [] { return tr("FlashAttention"); }}});
    m_dropout = new QCheckBox(m_advancedBody);
    m_packed = new QCheckBox(m_advancedBody);
    m_dataloaderMask = new QCheckBox(m_advancedBody);
    m_rerunKeepsBatches = new QCheckBox(m_advancedBody);
    m_loss = combo({{int(Loss::Standard), [] { return tr("Whole logits"); }},
                    {int(Loss::Chunked), [] { return tr("In %1 chunks").arg(kLossChunks); }}});
    row(
        af, m_recompute, [] { return tr("Recomputation"); },
        [] {
            return tr("Selective: recompute only the attention scores (with torchtitan: its op-level policy, which "
                      "keeps every other matmul's output). Full (gradient checkpointing): keep only each layer's input "
                      "and recompute the rest in backward (≈ 33 % more compute). The article's second lever.");
        });
    m_useReentrant = new QCheckBox(m_advancedBody);
    row(
        af, m_useReentrant, [] { return tr("Reentrant checkpoint"); },
        [] {
            return tr("How Hugging Face's gradient checkpointing calls torch.utils.checkpoint (use_reentrant; on by "
                      "default in transformers). On: while a layer's backward runs, the checkpoint also holds the "
                      "layer's recomputed output. Off: it is dropped, but with bitsandbytes 0.43.1 or older every "
                      "layer's 4-bit inputs stay until the step ends.");
        });
    m_activationOffload = new QCheckBox(m_advancedBody);
    row(
        af, m_activationOffload, [] { return tr("Offload activations"); },
        [] {
            return tr("Copy what each layer keeps for backward to CPU memory during forward and back during backward "
                      "(torchtune's activation offloading). The GPU then holds about one layer's worth at a time, "
                      "five layers' inputs with checkpointing; the step gets slower if the copies cannot overlap.");
        });
    row(
        af, m_attention, [] { return tr("Attention"); },
        [] {
            return tr("Eager attention keeps the s×s scores for backward: activations grow with s². PyTorch's "
                      "SDPA (its flash kernel) and FlashAttention never store them, but for an FP32 model with "
                      "fewer KV heads than heads SDPA runs its math kernel, which does.");
        });
    row(
        af, m_loss, [] { return tr("Loss"); },
        [] {
            return tr("The loss upcasts the logits to FP32: all of them at once, or one chunk in %1 at a time "
                      "(torchtune's chunked cross-entropy), which saves most of that copy with a large vocabulary.")
                .arg(kLossChunks);
        });
    row(
        af, m_packed, [] { return tr("Packed samples"); },
        [] {
            return tr("torchtune's packed dataset: several samples share each row and positions restart with each "
                      "sample. Its RoPE then gathers its cache's rows for every layer's query and key and keeps "
                      "them for backward.");
        });
    row(
        af, m_dataloaderMask, [] { return tr("Mask from the data loader"); },
        [] {
            return tr("Megatron-LM's data loader builds each sample's causal attention mask, s × s booleans, and "
                      "keeps it on the GPU while the micro-batch runs forward: 1 GiB a sample at s = 32768. Its "
                      "default; --no-create-attention-mask-in-dataloader turns it off. Only Megatron-LM's training "
                      "loop (sharding engine: Megatron-Core) has it.");
        });
    row(
        af, m_rerunKeepsBatches, [] { return tr("Rerun check keeps the batches"); },
        [] {
            return tr("Megatron-LM's rerun state machine keeps every micro-batch of a step so that it can replay the "
                      "step if a result looks wrong; since May 2026 these are the GPU copies, masks included, kept "
                      "until the next step begins on the GPU that reads the data loader. Its default "
                      "(--rerun-mode validate_results); --rerun-mode disabled, or an older Megatron-LM, frees each "
                      "micro-batch after its forward. Only Megatron-LM's training loop (sharding engine: "
                      "Megatron-Core) has it.");
        });
    row(
        af, m_dropout, [] { return tr("Dropout"); },
        [] { return tr("Dropout keeps 1-byte masks for backward; Llama-style training usually has none."); });

    m_fineTune = combo({{int(FineTune::Full), [] { return tr("Full training"); }},
                        {int(FineTune::Freeze), [] { return tr("Freeze lower layers"); }},
                        {int(FineTune::LoRA), [] { return tr("LoRA"); }},
                        {int(FineTune::QLoRA), [] { return tr("QLoRA (4-bit base)"); }}});
    m_loraRank = fieldSpinBox("lora-rank");
    m_loraDropout = new QCheckBox(m_advancedBody);
    m_adaptersFp32 = new QCheckBox(m_advancedBody);
    m_doubleQuant = new QCheckBox(m_advancedBody);
    m_bitsandbytes = combo({{int(BitsandbytesRelease::Since0_43_2), [] { return tr("0.43.2 or newer"); }},
                            {int(BitsandbytesRelease::Before0_43_2), [] { return tr("0.43.1 or older"); }}});
    m_baseDtype = combo({{int(BaseDtype::Auto), [] { return tr("As the weights"); }},
                         {int(BaseDtype::Fp32), [] { return tr("FP32"); }},
                         {int(BaseDtype::Bf16), [] { return tr("BF16"); }},
                         {int(BaseDtype::Fp16), [] { return tr("FP16"); }}});
    row(
        af, m_fineTune, [] { return tr("Fine-tuning"); },
        [] {
            return tr("Frozen weights need no gradients or optimizer states. Freeze: only the top layers train, and "
                      "the frozen ones below keep no activations. LoRA trains small adapters only; QLoRA also stores "
                      "the base in 4 bits.");
        });
    row(
        af, m_loraRank, [] { return tr("LoRA rank"); },
        [] { return tr("Adapters add r·(in + out) trainable parameters per adapted matrix."); });
    // One box per projection LoRA can adapt, named as the model's modules are.
    auto *targets = new QWidget(m_advancedBody);
    auto *targetGrid = new QGridLayout(targets);
    targetGrid->setContentsMargins(0, 0, 0, 0);
    for (const auto &[bit, name] : loraTargetNames()) {
        auto *box = new QCheckBox(QString::fromLatin1(name.data(), qsizetype(name.size())), targets);
        // Three a row: four do not fit beside the labels of a narrow panel.
        targetGrid->addWidget(box, int(m_loraTargets.size()) / 3, int(m_loraTargets.size()) % 3);
        m_loraTargets << box;
    }
    row(
        af, targets, [] { return tr("LoRA targets"); },
        [] {
            return tr("Which projections get adapters: query, key, value and output of attention, the MLP's gate, up "
                      "and down (in a mixture of experts, every expert's w1, w3 and w2), the router of a mixture of "
                      "experts, and the LM head. Each adds its adapters and what they keep for backward.");
        });
    row(
        af, m_baseDtype, [] { return tr("Frozen base"); },
        [] {
            return tr("The dtype of the weights that do not train. Under PyTorch autocast a model loaded in BF16 keeps "
                      "them in BF16 (2 bytes each, never cast); loaded in FP32 they take 4 bytes and a 16-bit copy.");
        });
    row(
        af, m_loraDropout, [] { return tr("LoRA dropout"); },
        [] { return tr("Each adapter keeps its own dropped copy of its input and a 1-byte mask for backward."); });
    row(
        af, m_adaptersFp32, [] { return tr("FP32 adapters"); },
        [] {
            return tr("PEFT 0.12 and later turn the adapters of a model trained in 16 bits into FP32 by default: "
                      "their weights, gradients and optimizer states take 4 bytes each, and every adapter copies its "
                      "input to FP32 and keeps it for backward. Untick it for an older release. QLoRA's adapters are "
                      "FP32 in every release unless FSDP or ZeRO-3 shards its 4-bit weights.");
        });
    row(
        af, m_doubleQuant, [] { return tr("Double quantization"); },
        [] {
            return tr("QLoRA stores each block of 64 weights with a scale. Double quantization stores the scales in 8 "
                      "bits too: 4.127 bits per weight instead of 4.5 (the QLoRA paper's recipe; transformers' "
                      "BitsAndBytesConfig leaves it off unless asked).");
        });
    row(
        af, m_bitsandbytes, [] { return tr("bitsandbytes"); },
        [] {
            return tr("The bitsandbytes release that runs QLoRA's 4-bit layers (Hugging Face's and lit-gpt's code). "
                      "Before 0.43.2 every 4-bit layer kept its input for backward, which only the weight's gradient "
                      "would need: one more copy of each layer's inputs.");
        });

    m_measure = combo({{int(Measure::Allocated), [] { return tr("Tensors (allocated)"); }},
                       {int(Measure::Reserved), [] { return tr("Reserved pool"); }},
                       {int(Measure::NvidiaSmi), [] { return tr("nvidia-smi"); }}});
    m_allocator = fieldSpinBox("allocator-percent");
    m_allocator->setSuffix(QStringLiteral(" %"));
    row(
        af, m_measure, [] { return tr("Compare with"); },
        [] {
            return tr("Which reading of a real run the total predicts. Tensors: what "
                      "torch.cuda.max_memory_allocated reports, the article's four parts. Reserved pool: "
                      "max_memory_reserved, with the caching allocator's reserve. nvidia-smi: the whole process, "
                      "also the CUDA context and NCCL buffers; GPU capacities are nvidia-smi readings, so "
                      "this is the safe choice for a plan.");
        });
    row(
        af, m_allocator, [] { return tr("Allocator reserve"); },
        [] {
            return tr("Fragmentation and cached blocks, as a share of what is allocated at the step's peak (commonly "
                      "5–30 %).");
        });
    m_cudaLoading = combo({{int(ModuleLoading::Lazy), [] { return tr("Lazy (CUDA 11.7+)"); }},
                           {int(ModuleLoading::Eager), [] { return tr("Eager (older CUDA)"); }}});
    row(
        af, m_cudaLoading, [] { return tr("CUDA kernels"); },
        [] {
            return tr("How CUDA loads kernels into the context nvidia-smi counts. Lazy: each kernel on its first "
                      "use, about 400 MiB (CUDA 11.7 or later with PyTorch 1.13 or later, CUDA 12.2 or later "
                      "anywhere). Eager: every kernel of every library at start, 1343 MiB measured on a V100 "
                      "with CUDA 11.2 (older CUDA, or CUDA_MODULE_LOADING=EAGER).");
        });
    // Every major number core allows, named by the GPUs that have it.
    std::vector<std::pair<int, std::function<QString()>>> capabilities;
    for (int major : computeCapabilities())
        capabilities.emplace_back(major, [major] { return computeCapabilityName(major); });
    m_computeCapability = combo(capabilities);
    row(
        af, m_computeCapability, [] { return tr("Compute capability"); },
        [] {
            return tr("The major number of the GPU's compute capability; the first GPU checked sets it. PyTorch "
                      "gives cuBLAS a workspace for forward's thread and one for backward's: 32 MiB each from 9 "
                      "on, 8 MiB before.");
        });
    m_nvls = new QCheckBox(m_advancedBody);
    row(
        af, m_nvls, [] { return tr("NVLink SHARP"); },
        [] {
            return tr("The node's GPUs hang off an NVSwitch that reduces in the switch (HGX and DGX H100, H200, "
                      "B200); the GPU chosen sets it. NCCL then maps NVLS buffers, outside PyTorch's allocator, for "
                      "each process group with more than two of the node's GPUs.");
        });
    m_nccl = combo({{int(NcclRelease::Since2_22), [] { return tr("2.22 or later"); }},
                    {int(NcclRelease::Before2_22), [] { return tr("2.21"); }},
                    {int(NcclRelease::Before2_21), [] { return tr("2.17–2.20"); }}});
    row(
        af, m_nccl, [] { return tr("NCCL release"); },
        [] {
            return tr("The NCCL library the run links; PyTorch's wheels pin one (torch 2.2.0: NCCL 2.19.3). For "
                      "a process group, each GPU maps NVLS buffers of 192 MiB per GPU of the node in the group up "
                      "to 2.20 (1.5 GiB with 8) and 96 MiB in 2.21, for every group; from 2.22 32 MiB, and only "
                      "for the groups whose collectives run NVLS.");
        });

    // Each choice edits its field by name, so that the rules that follow an edit are core's.
    auto comboEdit = [this](QComboBox *box, const char *field, void (*change)(Scenario &, int)) {
        box->setObjectName(QLatin1String(field));
        m_fieldControls.emplace_back(box, field);
        connect(box, &QComboBox::activated, this, [this, box, field, change](int i) {
            const int value = box->itemData(i).toInt();
            edit(field, [change, value](Scenario &s) { change(s, value); });
        });
    };
    auto checkEdit = [this](QCheckBox *box, const char *field, void (*change)(Scenario &, int)) {
        box->setObjectName(QLatin1String(field));
        m_fieldControls.emplace_back(box, field);
        connect(box, &QCheckBox::toggled, this,
                [this, field, change](bool on) { edit(field, [change, on](Scenario &s) { change(s, on); }); });
    };
    comboEdit(m_optimizer, "optimizer", [](Scenario &s, int v) { s.optimizer = Optimizer(v); });
    checkEdit(m_master, "master-weights", [](Scenario &s, int v) { s.masterWeights = v; });
    comboEdit(m_gradDtype, "grad-dtype", [](Scenario &s, int v) { s.gradDtype = GradDtype(v); });
    comboEdit(m_zero, "zero", [](Scenario &s, int v) { s.zeroStage = v; });
    comboEdit(m_sharding, "sharding", [](Scenario &s, int v) { s.sharding = Sharding(v); });
    comboEdit(m_fsdpVersion, "fsdp-version", [](Scenario &s, int v) { s.fsdpVersion = FsdpVersion(v); });
    checkEdit(m_reshard, "reshard-after-forward", [](Scenario &s, int v) { s.reshardAfterForward = v; });
    checkEdit(m_noSync, "no-sync", [](Scenario &s, int v) { s.fsdpNoSync = v; });
    checkEdit(m_origParams, "fsdp-orig-params", [](Scenario &s, int v) { s.fsdpOrigParams = v; });
    checkEdit(m_ddpBucketView, "ddp-bucket-view", [](Scenario &s, int v) { s.ddpBucketView = v; });
    checkEdit(m_overlapComm, "overlap-comm", [](Scenario &s, int v) { s.overlapComm = v; });
    checkEdit(m_zeroInit, "zero-init", [](Scenario &s, int v) { s.zeroInit = v; });
    checkEdit(m_sp, "sp", [](Scenario &s, int v) { s.sequenceParallel = v; });
    comboEdit(m_offload, "offload", [](Scenario &s, int v) { s.offload = Offload(v); });
    comboEdit(m_implementation, "implementation", [](Scenario &s, int v) { s.implementation = Implementation(v); });
    checkEdit(m_liger, "liger", [](Scenario &s, int v) { s.liger = v; });
    checkEdit(m_perLayerRope, "per-layer-rope", [](Scenario &s, int v) { s.perLayerRope = v; });
    checkEdit(m_kvRepeat, "kv-repeat", [](Scenario &s, int v) { s.kvRepeated = v; });
    checkEdit(m_paddingMask, "padding-mask", [](Scenario &s, int v) { s.paddingMask = v; });
    comboEdit(m_pytorch, "pytorch", [](Scenario &s, int v) { s.pytorch = PyTorchRelease(v); });
    comboEdit(m_transformers, "transformers", [](Scenario &s, int v) { s.transformers = TransformersRelease(v); });
    comboEdit(m_ampStyle, "amp-style", [](Scenario &s, int v) { s.ampStyle = AmpStyle(v); });
    comboEdit(m_recompute, "recompute", [](Scenario &s, int v) { s.recompute = Recompute(v); });
    checkEdit(m_useReentrant, "use-reentrant", [](Scenario &s, int v) { s.useReentrant = v; });
    checkEdit(m_activationOffload, "activation-offload", [](Scenario &s, int v) { s.activationOffload = v; });
    comboEdit(m_attention, "attention", [](Scenario &s, int v) { s.attention = Attention(v); });
    comboEdit(m_loss, "loss", [](Scenario &s, int v) { s.loss = Loss(v); });
    checkEdit(m_packed, "packed", [](Scenario &s, int v) { s.packed = v; });
    checkEdit(m_dataloaderMask, "dataloader-mask", [](Scenario &s, int v) { s.dataloaderMask = v; });
    checkEdit(m_rerunKeepsBatches, "rerun-keeps-batches", [](Scenario &s, int v) { s.rerunKeepsBatches = v; });
    checkEdit(m_groupedGemm, "moe-grouped-gemm", [](Scenario &s, int v) { s.groupedGemm = v; });
    comboEdit(m_expertLoad, "expert-load", [](Scenario &s, int v) { s.expertLoad = ExpertLoad(v); });
    checkEdit(m_dropout, "dropout", [](Scenario &s, int v) { s.dropout = v; });
    comboEdit(m_fineTune, "finetune", [](Scenario &s, int v) { s.fineTune = FineTune(v); });
    checkEdit(m_loraDropout, "lora-dropout", [](Scenario &s, int v) { s.loraDropout = v; });
    checkEdit(m_adaptersFp32, "adapters-fp32", [](Scenario &s, int v) { s.adaptersFp32 = v; });
    for (int i = 0; i < m_loraTargets.size(); ++i) {
        const auto &[bit, name] = loraTargetNames()[std::size_t(i)];
        m_loraTargets[i]->setObjectName(QStringLiteral("lora-target-") + QLatin1String(name.data(), name.size()));
        m_fieldControls.emplace_back(m_loraTargets[i], "lora-targets");
        connect(m_loraTargets[i], &QCheckBox::toggled, this, [this, bit](bool on) {
            edit("lora-targets",
                 [bit, on](Scenario &s) { s.loraTargets = on ? s.loraTargets | bit : s.loraTargets & ~bit; });
        });
    }
    checkEdit(m_doubleQuant, "double-quant", [](Scenario &s, int v) { s.doubleQuant = v; });
    comboEdit(m_bitsandbytes, "bitsandbytes", [](Scenario &s, int v) { s.bitsandbytes = BitsandbytesRelease(v); });
    comboEdit(m_optimizerImpl, "optimizer-impl", [](Scenario &s, int v) { s.optimizerImpl = OptimizerImpl(v); });
    checkEdit(m_pagedOptimizer, "paged-optimizer", [](Scenario &s, int v) { s.pagedOptimizer = v; });
    checkEdit(m_optimizerInBackward, "optimizer-in-backward", [](Scenario &s, int v) { s.optimizerInBackward = v; });
    checkEdit(m_gradientsKept, "gradients-kept", [](Scenario &s, int v) { s.gradientsKept = v; });
    comboEdit(m_baseDtype, "base-dtype", [](Scenario &s, int v) { s.baseDtype = BaseDtype(v); });
    comboEdit(m_measure, "measure", [](Scenario &s, int v) { s.overhead.measure = Measure(v); });
    comboEdit(m_cudaLoading, "cuda-loading", [](Scenario &s, int v) { s.overhead.moduleLoading = ModuleLoading(v); });
    comboEdit(m_computeCapability, "compute-capability", [](Scenario &s, int v) { s.overhead.computeCapability = v; });
    comboEdit(m_nccl, "nccl", [](Scenario &s, int v) { s.overhead.nccl = NcclRelease(v); });
    checkEdit(m_nvls, "nvls", [](Scenario &s, int v) { s.overhead.nvls = v; });

    layout->addWidget(m_advanced);
    layout->addStretch(1);
}

void ControlPanel::retranslate()
{
    m_gradAccum->setSpecialValueText(tr("Auto (one per stage)"));
    for (const auto &setText : m_texts)
        setText();
    m_precision->setChoices({tr("FP32"), tr("Mixed FP16"), tr("Mixed BF16"), tr("Pure BF16"), tr("FP8")});
    m_modelBox->clear(); // refilled, in the new language, by syncModelBox()
}

void ControlPanel::syncGpuList()
{
    const QSignalBlocker block(m_gpus);
    const auto &gpus = m_model.catalog().gpus;
    const bool rebuild = m_gpus->count() != int(gpus.size()) || m_shownRevision != m_model.catalogRevision();
    if (rebuild) { // the catalog grew (a custom GPU) or the language changed
        m_gpus->clear();
        for (const GpuPreset &gpu : gpus) {
            auto *item = new QListWidgetItem(
                QStringLiteral("%1  ·  %2").arg(QString::fromStdString(gpu.name), QString::fromStdString(gpu.label)),
                m_gpus);
            item->setData(Qt::UserRole, QString::fromStdString(gpu.id));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked); // without a state Qt draws no box at all
            item->setToolTip(tr("%1: %2 reported (label %3)%4")
                                 .arg(QString::fromStdString(gpu.name), bytesText(gpu.capacity, Units::GiB),
                                      QString::fromStdString(gpu.label),
                                      gpu.verified ? QString() : tr(", capacity not verified")));
        }
    }
    const QStringList chosen = m_model.gpuIds();
    QListWidgetItem *firstChosen = nullptr;
    for (int i = 0; i < m_gpus->count(); ++i) {
        QListWidgetItem *item = m_gpus->item(i);
        const Qt::CheckState state = chosen.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked;
        if (item->checkState() != state)
            item->setCheckState(state);
        if (state == Qt::Checked && !firstChosen)
            firstChosen = item;
    }
    if (rebuild && firstChosen)
        m_gpus->scrollToItem(firstChosen, QAbstractItemView::PositionAtCenter); // show what is chosen
}

void ControlPanel::syncModelBox()
{
    const QSignalBlocker block(m_modelBox);
    const auto &models = m_model.catalog().models;
    const bool hasCustom = m_modelBox->count() > 0 && m_modelBox->itemData(0).toString().isEmpty();
    // Refill only when the catalog changed or the language did: this runs on every slider tick.
    if (m_modelBox->count() - (hasCustom ? 1 : 0) != int(models.size())
        || m_shownRevision != m_model.catalogRevision()) {
        m_modelBox->clear();
        for (const ModelPreset &m : models) {
            const QString name = QString::fromStdString(m.name);
            m_modelBox->addItem(m.shadowsBuiltin ? tr("%1 (yours, replaces the built-in)").arg(name)
                                    : m.user     ? tr("%1 (yours)").arg(name)
                                                 : name,
                                QString::fromStdString(m.id));
            m_modelBox->setItemData(m_modelBox->count() - 1, QString::fromStdString(m.source), Qt::ToolTipRole);
        }
    } else if (hasCustom) {
        m_modelBox->removeItem(0);
    }
    if (const ModelPreset *preset = m_model.modelPreset()) {
        m_modelBox->setCurrentIndex(m_modelBox->findData(QString::fromStdString(preset->id)));
        return;
    }
    m_modelBox->insertItem(
        0,
        tr("Custom (%1 parameters)").arg(QString::fromStdString(formatCount(totalParameters(m_model.scenario().arch)))),
        QString());
    m_modelBox->setCurrentIndex(0);
}

void ControlPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        syncFromModel(); // the model list's "custom" entry and precision names
    }
    QWidget::changeEvent(event);
}

void ControlPanel::setAdvancedVisible(bool visible)
{
    m_advanced->setChecked(visible);
}

void ControlPanel::setPresenting(bool presenting)
{
    // The room sees the five sliders; the model, the GPUs and the advanced settings stay as set.
    m_modelGroup->setVisible(!presenting);
    m_gpuGroup->setVisible(!presenting);
    m_advanced->setVisible(!presenting);
}

QString ControlPanel::fieldLabel(std::string_view field) const
{
    const QString name = QString::fromUtf8(field.data(), qsizetype(field.size()));
    for (const auto &[control, label] : m_labels)
        if (control->objectName() == name) {
            // Without its mnemonic: "&Batch size", or "批大小(&B)" as Chinese labels write it.
            static const QRegularExpression mnemonic(QStringLiteral("\\(&[^)]\\)|&(?=[^&])"));
            return label().remove(mnemonic);
        }
    return {};
}

bool ControlPanel::advancedVisible() const
{
    return m_advanced->isChecked();
}

QSpinBox *ControlPanel::fieldSpinBox(std::string_view field)
{
    auto *box = new QSpinBox(m_advancedBody);
    box->setObjectName(QString::fromUtf8(field.data(), qsizetype(field.size())));
    box->setKeyboardTracking(false);
    box->setAccelerated(true);
    m_fieldSpins.emplace_back(box, findField(field)); // its range is core's, set in syncFromModel()
    m_fieldControls.emplace_back(box, field);
    connect(box, &QSpinBox::valueChanged, this, [this, field](int v) { editInteger(field, v); });
    return box;
}

void ControlPanel::edit(std::string_view field, const std::function<void(Scenario &)> &change)
{
    if (m_syncing)
        return;
    const Scenario before = m_model.scenario();
    Scenario s = before;
    change(s);
    s = withEditRules(s, before.arch, std::span(&field, 1));
    m_model.setScenario(s);
    if (const auto error = scenarioError(s)) {
        syncFromModel(); // the value was refused (it would make the scenario invalid): show what holds
        Q_EMIT editRefused(QString::fromStdString(error->message));
    }
}

void ControlPanel::editInteger(std::string_view field, int value)
{
    edit(field, [spec = findField(field), value](Scenario &s) { spec->integer(s) = value; });
}

void ControlPanel::emitGpus()
{
    if (m_syncing)
        return;
    QStringList ids;
    for (int i = 0; i < m_gpus->count(); ++i)
        if (m_gpus->item(i)->checkState() == Qt::Checked)
            ids << m_gpus->item(i)->data(Qt::UserRole).toString();
    m_model.setGpuIds(ids);
}

void ControlPanel::syncFromModel()
{
    m_syncing = true;
    const Scenario &s = m_model.scenario();

    syncModelBox();
    // Every number's range is core's (allowedRange(), some following other fields); the hidden
    // size moves in whole heads.
    const auto range = [&s](std::string_view field) {
        const auto [lo, hi] = *allowedRange(s, field);
        constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
        return std::pair{int(std::min(lo, kIntMax)), int(std::min(hi, kIntMax))};
    };
    for (SliderSpin *slider : {m_batch, m_sequence, m_layers}) {
        const auto [lo, hi] = range(slider->objectName().toStdString());
        slider->setRange(lo, hi);
    }
    const int step = int(hiddenStep(s.arch.heads, 64));
    m_hidden->setRange(step, range("hidden").second / step * step);
    if (m_hidden->spinBox()->singleStep() != step)
        m_hidden->spinBox()->setSingleStep(step);
    m_batch->setValue(int(s.microBatch));
    m_sequence->setValue(int(s.sequence));
    m_hidden->setValue(int(s.arch.hidden));
    m_layers->setValue(int(s.arch.layers));
    m_precision->setIndex(int(std::find(kPrecisions.begin(), kPrecisions.end(), s.precision) - kPrecisions.begin()));

    for (const auto &[box, field] : m_fieldSpins) {
        const auto [lo, hi] = range(field->name);
        const int value = int(field->value(s));
        if (box->minimum() == lo && box->maximum() == hi && box->value() == value)
            continue;
        const QSignalBlocker block(box);
        box->setRange(lo, hi);
        box->setValue(value);
    }
    const auto setCheck = [](QCheckBox *box, bool v) {
        if (box->isChecked() == v)
            return;
        const QSignalBlocker block(box);
        box->setChecked(v);
    };
    setComboData(m_optimizer, s.optimizer);
    setCheck(m_master, s.masterWeights);
    setComboData(m_implementation, s.implementation);
    setCheck(m_liger, s.liger);
    setCheck(m_perLayerRope, s.perLayerRope);
    setCheck(m_kvRepeat, s.kvRepeated);
    setCheck(m_paddingMask, s.paddingMask);
    setComboData(m_pytorch, s.pytorch);
    setComboData(m_transformers, s.transformers);
    setComboData(m_ampStyle, s.ampStyle);
    setComboData(m_gradDtype, s.gradDtype);
    setComboData(m_zero, int(s.zeroStage));
    setComboData(m_sharding, s.sharding);
    setComboData(m_fsdpVersion, s.fsdpVersion);
    setCheck(m_reshard, s.reshardAfterForward);
    setCheck(m_noSync, s.fsdpNoSync);
    setCheck(m_origParams, s.fsdpOrigParams);
    setCheck(m_ddpBucketView, s.ddpBucketView);
    setCheck(m_overlapComm, s.overlapComm);
    setCheck(m_zeroInit, s.zeroInit);
    setCheck(m_groupedGemm, s.groupedGemm);
    setComboData(m_expertLoad, s.expertLoad);
    setCheck(m_sp, s.sequenceParallel);
    setComboData(m_offload, s.offload);
    setComboData(m_recompute, s.recompute);
    setCheck(m_useReentrant, s.useReentrant);
    setCheck(m_activationOffload, s.activationOffload);
    setComboData(m_attention, s.attention);
    setComboData(m_loss, s.loss);
    setCheck(m_packed, s.packed);
    setCheck(m_dataloaderMask, s.dataloaderMask);
    setCheck(m_rerunKeepsBatches, s.rerunKeepsBatches);
    setCheck(m_dropout, s.dropout);
    setComboData(m_fineTune, s.fineTune);
    setCheck(m_loraDropout, s.loraDropout);
    setCheck(m_adaptersFp32, s.adaptersFp32Effective());
    for (int i = 0; i < m_loraTargets.size(); ++i)
        setCheck(m_loraTargets[i], (s.loraTargets & loraTargetNames()[std::size_t(i)].first) != 0);
    setCheck(m_doubleQuant, s.doubleQuant);
    setComboData(m_bitsandbytes, s.bitsandbytes);
    setComboData(m_optimizerImpl, s.optimizerImpl);
    setCheck(m_pagedOptimizer, s.pagedOptimizer);
    setCheck(m_optimizerInBackward, s.optimizerInBackward);
    setCheck(m_gradientsKept, s.gradientsKept);
    setComboData(m_baseDtype, s.baseDtype);
    setComboData(m_measure, s.overhead.measure);
    setComboData(m_cudaLoading, s.overhead.moduleLoading);
    setComboData(m_computeCapability, int(s.overhead.computeCapability));
    setComboData(m_nccl, s.overhead.nccl);
    setCheck(m_nvls, s.overhead.nvls);
    for (const auto &[control, field] : m_fieldControls)
        control->setEnabled(fieldInEffect(s, field));
    const unsigned present = loraTargetsPresent(s.arch);
    for (int i = 0; i < m_loraTargets.size(); ++i)
        if (!(present & loraTargetNames()[std::size_t(i)].first))
            m_loraTargets[i]->setEnabled(false);

    syncGpuList();
    m_shownRevision = m_model.catalogRevision();
    m_syncing = false;
}

} // namespace vl
