// Every formula core writes is made of core's terms (core/formulaterms.cpp), numbers, units
// and symbols, and nothing else: a word added or changed in estimate.cpp or savedtensors.cpp
// without its term would reach the GUI untranslated, and this fails instead. Checked over
// scenarios that between them bring out every item and every way an item is worded; a row that
// names backward's widest moment is held to it, so that the wording it claims to bring out shows.

#include "core/estimate.h"
#include "core/formulaterms.h"
#include "peftscenario.h"

#include <QRegularExpression>
#include <QTest>

#include <functional>

using namespace vl;

namespace {

Scenario gpt2Like()
{
    Scenario s;
    s.arch.modeling = Modeling::Gpt2;
    s.arch.mlp = MlpKind::Gelu;
    s.arch.norm = NormKind::LayerNorm;
    s.arch.learnedPositions = 1024;
    s.arch.linearBias = true;
    s.dropout = true;
    return s;
}

// BERT in Hugging Face's code, GPT-2's settings otherwise.
Scenario huggingFaceBert()
{
    Scenario s = gpt2Like();
    s.arch.modeling = Modeling::Bert;
    s.implementation = Implementation::HuggingFace;
    return s;
}

// lit-gpt's GPT-NeoX-style block as finetune/lora.py trains it: bf16-true, flash attention.
void litgptNeox(Scenario &s)
{
    s.implementation = Implementation::LitGpt;
    s.arch.modeling = Modeling::GptNeox;
    s.arch.mlp = MlpKind::Gelu;
    s.arch.norm = NormKind::LayerNorm;
    s.precision = Precision::Bf16;
    s.attention = Attention::Flash;
}

// Hugging Face's GPT-2 block (NewGELU in Python ops), 1024 learned positions.
void gpt2(Scenario &s)
{
    s.implementation = Implementation::HuggingFace;
    s.arch.modeling = Modeling::Gpt2;
    s.arch.mlp = MlpKind::Gelu;
    s.arch.norm = NormKind::LayerNorm;
    s.arch.learnedPositions = 1024;
    s.sequence = 1024;
}

// torchtune's Llama block as its recipes run it: BF16, SDPA.
void torchtune(Scenario &s)
{
    s.implementation = Implementation::TorchTune;
    s.precision = Precision::Bf16;
    s.attention = Attention::Sdpa;
}

// PEFT's LoRA on every projection of Hugging Face's Llama under autocast: FP32 adapters.
void peftUnderAutocast(Scenario &s)
{
    s.implementation = Implementation::HuggingFace;
    s.attention = Attention::Sdpa;
    s.precision = Precision::MixedBf16;
    s.ampStyle = AmpStyle::Autocast;
    s.fineTune = FineTune::LoRA;
    s.loraTargets = LoraAll;
}

// Hugging Face's sparse MoE block (Mixtral's code), two experts a token.
void huggingFaceMoe(Scenario &s, std::int64_t experts = 8)
{
    s.implementation = Implementation::HuggingFace;
    s.arch.experts = experts;
    s.arch.expertsPerToken = 2;
}

// PEFT's LoRA on every projection of Mixtral's code (its experts' and router's too) over BF16 with
// FlashAttention, its adapters FP32 (PEFT's default).
void mixtralAllLinear(Scenario &s)
{
    huggingFaceMoe(s);
    s.precision = Precision::Bf16;
    s.attention = Attention::Flash;
    s.fineTune = FineTune::LoRA;
    s.loraTargets = LoraAll;
    s.adaptersFp32 = true;
}

// lit-gpt's Llama block in Lightning's bf16-mixed: autocast over FP32 weights, flash attention.
void litgptLlamaMixed(Scenario &s)
{
    s.implementation = Implementation::LitGpt;
    s.precision = Precision::MixedBf16;
    s.ampStyle = AmpStyle::Autocast;
    s.attention = Attention::Flash;
}

// What is left of a formula when every term is taken out, longest first as the GUI does.
std::string withoutTerms(std::string text)
{
    for (const std::string_view term : formulaTerms())
        for (std::size_t at = text.find(term); at != std::string::npos; at = text.find(term, at))
            text.replace(at, term.size(), " ");
    return text;
}

} // namespace

class TestFormulaTerms : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyFormulaIsMadeOfTerms_data()
    {
        using Edit = std::function<void(Scenario &)>;
        QTest::addColumn<Edit>("edit");
        // A row that names backward's widest moment says which words show it.
        QTest::addColumn<QString>("widest");
        const auto row = [](const char *name, Edit edit, const char *widest = "") {
            QTest::newRow(name) << edit << QString::fromUtf8(widest);
        };
        row("the article's 7B, mixed FP16, Adam", [](Scenario &) {});
        row("FP32, no master copy", [](Scenario &s) { s.precision = Precision::Fp32; });
        row("pure BF16, 8-bit Adam", [](Scenario &s) {
            s.precision = Precision::Bf16;
            s.optimizer = Optimizer::AdamW8bit;
        });
        row("SGD", [](Scenario &s) { s.optimizer = Optimizer::Sgd; });
        row("SGD with momentum", [](Scenario &s) { s.optimizer = Optimizer::SgdMomentum; });
        row("Lion", [](Scenario &s) { s.optimizer = Optimizer::Lion; });
        row("Adafactor", [](Scenario &s) { s.optimizer = Optimizer::Adafactor; });
        row("selective recomputation", [](Scenario &s) { s.recompute = Recompute::Selective; });
        row("full recomputation, FlashAttention", [](Scenario &s) {
            s.recompute = Recompute::Full;
            s.attention = Attention::Flash;
        });
        row("runtime overhead over 8 GPUs", [](Scenario &s) {
            s.overhead.measure = Measure::NvidiaSmi;
            s.dataParallel = 8;
        });
        row("DeepSpeed ZeRO-3 on an NVSwitch node, NCCL 2.20", [](Scenario &s) {
            s.zeroStage = 3;
            s.dataParallel = 8;
            s.overhead.nvls = true;
            s.overhead.nccl = NcclRelease::Before2_21;
        });
        row("DeepSpeed ZeRO-2 on an NVSwitch node, NCCL 2.20", [](Scenario &s) {
            s.zeroStage = 2;
            s.dataParallel = 8;
            s.overhead.nvls = true;
            s.overhead.nccl = NcclRelease::Before2_21;
        });
        row("Megatron without the distributed optimizer, TP and PP on NVSwitch nodes, NCCL 2.20", [](Scenario &s) {
            s.sharding = Sharding::Megatron;
            s.dataParallel = 2;
            s.tensorParallel = 4;
            s.pipelineParallel = 4;
            s.overhead.nvls = true;
            s.overhead.nccl = NcclRelease::Before2_21;
        });
        row("DeepSpeed ZeRO-3, LoRA under autocast over a BF16 base", [](Scenario &s) {
            s.zeroStage = 3;
            s.dataParallel = 8;
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
            s.fineTune = FineTune::LoRA;
            s.baseDtype = BaseDtype::Bf16;
        });
        row("DDP on an NVSwitch node", [](Scenario &s) {
            s.dataParallel = 8;
            s.overhead.nvls = true;
        });
        row("FSDP with TP and CP on NVSwitch nodes, HSDP", [](Scenario &s) {
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.dataParallel = 8;
            s.replicas = 4;
            s.tensorParallel = 4;
            s.contextParallel = 4;
            s.attention = Attention::Flash;
            s.gpusPerNode = 128; // every group within a node, so that each has NVLS buffers
            s.overhead.nvls = true;
        });
        row("Megatron with TP and CP on an NVSwitch node", [](Scenario &s) {
            s.sharding = Sharding::Megatron;
            s.zeroStage = 1;
            s.dataParallel = 4;
            s.tensorParallel = 4;
            s.contextParallel = 4;
            s.attention = Attention::Flash;
            s.gpusPerNode = 64;
            s.overhead.nvls = true;
            s.overhead.nccl = NcclRelease::Before2_21;
        });
        row("ZeRO-1 with an offloaded optimizer", [](Scenario &s) {
            s.zeroStage = 1;
            s.dataParallel = 8;
            s.offload = Offload::Optimizer;
        });
        row("ZeRO-2 with DeepSpeed's bucket", [](Scenario &s) {
            s.zeroStage = 2;
            s.dataParallel = 8;
        });
        row("ZeRO-2 with overlap_comm's two buckets", [](Scenario &s) {
            s.zeroStage = 2;
            s.dataParallel = 8;
            s.overlapComm = true;
        });
        row("PyTorch DDP over 8 GPUs", [](Scenario &s) { s.dataParallel = 8; });
        row("ZeRO-2 offloading the optimizer, 4 micro-batches a step", [](Scenario &s) {
            s.zeroStage = 2;
            s.dataParallel = 8;
            s.gradAccum = 4;
            s.offload = Offload::Optimizer;
        });
        row("ZeRO-3, parameters offloaded", [](Scenario &s) {
            s.zeroStage = 3;
            s.dataParallel = 8;
            s.offload = Offload::OptimizerAndParams;
        });
        row("FSDP, HSDP over 2 groups, not resharded", [](Scenario &s) {
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.dataParallel = 8;
            s.replicas = 2;
            s.reshardAfterForward = false;
        });
        row("FSDP in mixed precision, read as reserved memory", [](Scenario &s) {
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.dataParallel = 8;
            s.precision = Precision::MixedBf16;
            s.overhead.measure = Measure::Reserved;
        });
        row("tensor, pipeline and context parallel", [](Scenario &s) {
            s.tensorParallel = 2;
            s.pipelineParallel = 4;
            s.contextParallel = 2;
            s.attention = Attention::Flash;
        });
        row("FSDP accumulating 4 micro-batches without sync", [](Scenario &s) {
            s.zeroStage = 3;
            s.dataParallel = 8;
            s.sharding = Sharding::Fsdp;
            s.precision = Precision::MixedBf16;
            s.gradAccum = 4;
            s.fsdpNoSync = true;
        });
        row("interleaved pipeline with 8 micro-batches", [](Scenario &s) {
            s.pipelineParallel = 4;
            s.virtualStages = 2;
            s.gradAccum = 8;
        });
        row("MoE with expert parallelism", [](Scenario &s) {
            s.arch.experts = 8;
            s.arch.expertsPerToken = 2;
            s.dataParallel = 8;
            s.expertParallel = 4;
        });
        row("freeze all but 4 layers", [](Scenario &s) {
            s.fineTune = FineTune::Freeze;
            s.trainableLayers = 4;
        });
        row("LoRA with dropout, Hugging Face, autocast, chunked loss", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
            s.fineTune = FineTune::LoRA;
            s.loraDropout = true;
            s.loss = Loss::Chunked;
        });
        row("QLoRA, lit-gpt", [](Scenario &s) {
            s.implementation = Implementation::LitGpt;
            s.precision = Precision::Bf16;
            s.attention = Attention::Flash;
            s.fineTune = FineTune::QLoRA;
            s.loraTargets = LoraQ | LoraV;
        });
        // Hugging Face's QLoRA: bitsandbytes' 4-bit MLP, each of its backward's moments the widest once
        const auto hfQlora = [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.attention = Attention::Flash;
            s.fineTune = FineTune::QLoRA;
            s.loraTargets = LoraQ | LoraV | LoraDown;
            s.loraDropout = true;
        };
        // ... over an FP32 base under autocast (prepare_model_for_kbit_training's FP32 stream)
        const auto overFp32 = [hfQlora](Scenario &s) {
            hfQlora(s);
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
            s.baseDtype = BaseDtype::Fp32;
        };
        row(
            "QLoRA over an FP32 base under autocast, bitsandbytes 0.43.1: SwiGLU's product the widest",
            [overFp32](Scenario &s) {
                overFp32(s);
                s.bitsandbytes = BitsandbytesRelease::Before0_43_2;
            },
            "gradients of SiLU's output, of up_proj's output and of their product");
        // down_proj's 4-bit backward outgrows SwiGLU's product only where the MLP is narrower than
        // the stream (the stream gradient's 16-bit copy beside it).
        row(
            "QLoRA over an FP32 base under autocast, an MLP narrower than the model: down_proj's 4-bit backward the "
            "widest",
            [overFp32](Scenario &s) {
                overFp32(s);
                s.bitsandbytes = BitsandbytesRelease::Before0_43_2;
                s.arch.ffn = s.arch.hidden / 2;
            },
            "down_proj's 4-bit backward");
        row("QLoRA over an FP32 base, bitsandbytes 0.43.1, the non-reentrant checkpoint: the 4-bit inputs outlive it",
            [overFp32](Scenario &s) {
                overFp32(s);
                s.bitsandbytes = BitsandbytesRelease::Before0_43_2;
                s.recompute = Recompute::Full;
                s.useReentrant = false;
            });
        row("Hugging Face under autocast, every layer recomputed: the cast cache's copies gone before backward",
            [](Scenario &s) {
                s.implementation = Implementation::HuggingFace;
                s.precision = Precision::MixedBf16;
                s.ampStyle = AmpStyle::Autocast;
                s.attention = Attention::Flash;
                s.recompute = Recompute::Full;
            });
        row("Hugging Face in FP32, every layer recomputed: the first norm saves the checkpoint's input",
            [](Scenario &s) {
                s.implementation = Implementation::HuggingFace;
                s.precision = Precision::Fp32;
                s.recompute = Recompute::Full;
            });
        row(
            "QLoRA over an FP32 base under autocast, eager attention over 4096 tokens: the value's FP32 gradient",
            [overFp32](Scenario &s) {
                overFp32(s);
                s.attention = Attention::Eager;
            },
            "FP32 gradient of the value");
        // ... in BF16 with BF16 adapters (PEFT before 0.12 over FSDP's or ZeRO-3's float storage)
        const auto bf16Adapters = [hfQlora](Scenario &s) {
            hfQlora(s);
            s.precision = Precision::Bf16;
            s.adaptersFp32 = false;
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.dataParallel = 2;
        };
        row("QLoRA in BF16, BF16 adapters, bitsandbytes 0.43.1: the 4-bit linears keep their inputs",
            [bf16Adapters](Scenario &s) {
                bf16Adapters(s);
                s.bitsandbytes = BitsandbytesRelease::Before0_43_2;
            });
        row("QLoRA in BF16, BF16 adapters, bitsandbytes 0.43.2 on: SwiGLU's product the widest", bf16Adapters,
            "gradients of SiLU's output, of up_proj's output and of their product");
        // The BF16 adapter's backward outgrows SwiGLU's product only where its rank is wider than the
        // MLP, the rank-r output freed beside it.
        row(
            "QLoRA in BF16, BF16 adapters wider than the MLP: the adapter's backward the widest",
            [bf16Adapters](Scenario &s) {
                bf16Adapters(s);
                s.loraDropout = false;
                s.arch.ffn = 512;
                s.loraRank = 1024;
            },
            "the LoRA adapter's gradients of down_proj's input");
        row(
            "QLoRA in BF16, PEFT's FP32 adapters: the adapter's FP32 gradient the widest",
            [hfQlora](Scenario &s) {
                hfQlora(s);
                s.precision = Precision::Bf16;
            },
            "the FP32 LoRA adapter's gradient of down_proj's input");
        row(
            "PEFT's LoRA on every projection, with dropout, FP32 adapters over BF16, checkpointed (the recomputed "
            "MLP adapters' forward the widest)",
            [](Scenario &s) {
                s.implementation = Implementation::HuggingFace;
                s.attention = Attention::Flash;
                s.precision = Precision::Bf16;
                s.recompute = Recompute::Full;
                s.fineTune = FineTune::LoRA;
                s.loraTargets = LoraAll;
                s.loraDropout = true;
                s.adaptersFp32 = true;
            },
            "the recomputed forward in the MLP's LoRA");
        row("QLoRA under DeepSpeed ZeRO-3, PEFT", peftQloraUnderZero3);
        row("QLoRA under DeepSpeed ZeRO-3 as nvidia-smi reads it: the start-up is the peak", [](Scenario &s) {
            peftQloraUnderZero3(s);
            s.dataParallel = 8;
            s.overhead.measure = Measure::NvidiaSmi;
        });
        row("QLoRA under FSDP, PEFT: 4-bit layers gathered as packed codes, the root the largest unit",
            [](Scenario &s) {
                peftQloraUnderZero3(s);
                s.sharding = Sharding::Fsdp;
            });
        row("QLoRA under ZeRO-3 with the parameters offloaded: the constants stay", [](Scenario &s) {
            peftQloraUnderZero3(s);
            s.offload = Offload::OptimizerAndParams;
        });
        row("Hugging Face before transformers 4.42: per-layer RoPE tables", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.perLayerRope = true;
            s.arch.rotaryPositions = 32'768;
        });
        row("LoRA under FSDP1 with the reentrant checkpoint: checkpoints kept through backward, FP32 adapters, K and V "
            "repeated",
            [](Scenario &s) {
                peftLoraUnderFsdp1(s);
                s.arch.kvHeads = 8;
                s.kvRepeated = true;
                s.loraTargets = LoraAll;
                s.adaptersFp32 = true;
            });
        row("Hugging Face before transformers 4.42, no maximum stated", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.perLayerRope = true;
        });
        row("FSDP1 over FP32 shards: the largest unit's shard cast", [](Scenario &s) {
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.fsdpVersion = FsdpVersion::Fsdp1;
            s.dataParallel = 8;
            s.overhead.measure = Measure::Reserved;
        });
        row("FSDP1 in Hugging Face's code, every layer recomputed: nothing prefetched in backward", [](Scenario &s) {
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.fsdpVersion = FsdpVersion::Fsdp1;
            s.dataParallel = 8;
            s.implementation = Implementation::HuggingFace;
            s.recompute = Recompute::Full;
        });
        row("FSDP1 in pure BF16: no buffer beside the flat parameters", [](Scenario &s) {
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.fsdpVersion = FsdpVersion::Fsdp1;
            s.precision = Precision::Bf16;
            s.dataParallel = 8;
        });
        // transformers' causal-LM loss of each release the estimate tells apart, for LoRA in BF16.
        for (const auto &[name, release] :
             {std::pair{"Hugging Face LoRA, transformers 4.39's loss: FP32 logits and their shifted copy",
                        TransformersRelease::Before4_46},
              std::pair{"Hugging Face LoRA, transformers 4.47's loss: the 16-bit logits kept too",
                        TransformersRelease::Before4_49},
              std::pair{"Hugging Face LoRA, today's loss beside the final norm's output",
                        TransformersRelease::Since4_49}})
            row(name, [release](Scenario &s) {
                s.implementation = Implementation::HuggingFace;
                s.precision = Precision::Bf16;
                s.fineTune = FineTune::LoRA;
                s.transformers = release;
            });
        row("FSDP1 read as allocated, accumulating without sync: flat gradients kept until the next forward",
            [](Scenario &s) {
                s.zeroStage = 3;
                s.sharding = Sharding::Fsdp;
                s.fsdpVersion = FsdpVersion::Fsdp1;
                s.dataParallel = 8;
                s.gradAccum = 4;
                s.fsdpNoSync = true;
                s.overhead.measure = Measure::Allocated;
            });
        row("QLoRA under FSDP, torchtune: torchao's NF4 gathered, a layer the largest unit", [](Scenario &s) {
            torchtune(s);
            s.fineTune = FineTune::QLoRA;
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.dataParallel = 8;
            s.arch.vocab = 1000; // a small root, so that a layer is the largest unit
        });
        row("ZeRO-3, a recomputed layer holds the most gathered", [](Scenario &s) {
            s.zeroStage = 3;
            s.dataParallel = 8;
            s.recompute = Recompute::Full;
            s.maxReuseDistance = 300'000'000;
        });
        row("torchtitan, activations offloaded, with checkpointing", [](Scenario &s) {
            s.implementation = Implementation::TorchTitan;
            s.attention = Attention::Sdpa;
            s.recompute = Recompute::Full;
            s.activationOffload = true;
        });
        row("torchtune, packed samples, the model's max positions", [](Scenario &s) {
            torchtune(s);
            s.arch.rotaryPositions = 131'072;
            s.packed = true;
        });
        row("torchtune's Qwen2 in BF16, no maximum stated", [](Scenario &s) {
            torchtune(s);
            s.arch.qkvBias = true;
        });
        row("torchtune's Qwen2 in FP32, packed samples", [](Scenario &s) {
            torchtune(s);
            s.arch.qkvBias = true;
            s.precision = Precision::Fp32;
            s.packed = true;
        });
        row("torchtune's QLoRA (torchao's NF4)", [](Scenario &s) {
            torchtune(s);
            s.fineTune = FineTune::QLoRA;
            s.loraTargets = LoraQ | LoraV;
        });
        row("Hugging Face on PyTorch 2.1 (mean keeps x²)", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.pytorch = PyTorchRelease::Before2_2;
        });
        row("Hugging Face's Qwen3 (query/key norms) on PyTorch 2.1", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.arch.qkNorm = true;
            s.pytorch = PyTorchRelease::Before2_2;
        });
        row("Hugging Face's Gemma-3 (1 + weight, four norms) on PyTorch 2.1", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.arch.qkNorm = true;
            s.arch.zeroCenteredNorm = true;
            s.arch.normsPerLayer = 4;
            s.arch.mlp = MlpKind::GeGlu;
            s.pytorch = PyTorchRelease::Before2_2;
        });
        row(
            "Hugging Face's Gemma-2 (soft-capping), short sequences, a narrow MLP",
            [](Scenario &s) {
                s.implementation = Implementation::HuggingFace;
                s.arch.zeroCenteredNorm = true;
                s.arch.normsPerLayer = 4;
                s.arch.softCapping = true;
                s.arch.ffn = 1024; // narrow enough for the post-MLP norm's backward to be the widest moment
                s.sequence = 256;
            },
            "the post-MLP norm's backward");
        row("Hugging Face's Qwen3 with Liger kernels", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.arch.qkNorm = true;
            s.attention = Attention::Sdpa;
            s.liger = true;
        });
        row("lit-gpt on PyTorch 2.1, two sequences (the loss copies the last chunk)", [](Scenario &s) {
            s.implementation = Implementation::LitGpt;
            s.precision = Precision::Bf16;
            s.attention = Attention::Flash;
            s.fineTune = FineTune::LoRA;
            s.loraTargets = LoraQ | LoraV;
            s.pytorch = PyTorchRelease::Before2_2;
            s.microBatch = 2;
        });
        row("Hugging Face with Liger kernels under autocast", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.attention = Attention::Sdpa;
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
            s.liger = true;
        });
        row("GPT-2 under autocast (NewGELU's FP32 gradients in backward)", [](Scenario &s) {
            gpt2(s);
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
        });
        row("GPT-2 with dropout (the MLP's mask freed first in backward)", [](Scenario &s) {
            gpt2(s);
            s.dropout = true;
        });
        row("GPT-2 in FP32", [](Scenario &s) {
            gpt2(s);
            s.precision = Precision::Fp32;
        });
        row(
            "Hugging Face, eager attention over 4096 tokens (the softmax's backward is the widest)",
            [](Scenario &s) {
                s.implementation = Implementation::HuggingFace;
                s.attention = Attention::Eager;
                s.sequence = 4096;
            },
            "FP32 gradients of the attention probabilities and scores and the softmax backward's grad × output");
        row(
            "Hugging Face in FP32 with fewer KV heads under SDPA (its math kernel)",
            [](Scenario &s) {
                s.implementation = Implementation::HuggingFace;
                s.attention = Attention::Sdpa;
                s.arch.kvHeads = 8;
                s.precision = Precision::Fp32;
            },
            "FP32 gradients of the attention probabilities and scores and the softmax backward's grad × output");
        row("Hugging Face under SDPA, padded batches, every layer recomputed", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.attention = Attention::Sdpa;
            s.arch.kvHeads = 8;
            s.precision = Precision::Bf16;
            s.paddingMask = true;
            s.recompute = Recompute::Full;
        });
        row("GPT-2 in BF16, eager attention over 1024 tokens, two sequences", [](Scenario &s) {
            gpt2(s);
            s.precision = Precision::Bf16;
            s.microBatch = 2;
            s.arch.hidden = 256;
        });
        row("PEFT LoRA on every projection under autocast (FP32 adapters)", peftUnderAutocast);
        row("PEFT LoRA with LoRA dropout under autocast", [](Scenario &s) {
            peftUnderAutocast(s);
            s.loraDropout = true;
        });
        row("Liger with LoRA on down_proj", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.attention = Attention::Sdpa;
            s.liger = true;
            s.fineTune = FineTune::LoRA;
            s.loraTargets = LoraQ | LoraV | LoraDown;
        });
        row("lit-gpt's GPT-NeoX block, full fine-tuning under autocast, two sequences", [](Scenario &s) {
            litgptNeox(s);
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
            s.microBatch = 2;
        });
        row("lit-gpt's GPT-NeoX block, LoRA, two sequences in BF16", [](Scenario &s) {
            litgptNeox(s);
            s.fineTune = FineTune::LoRA;
            s.loraTargets = LoraQ | LoraV;
            s.microBatch = 2;
        });
        row("lit-gpt full fine-tuning in BF16, two sequences (the head copies each chunk)", [](Scenario &s) {
            s.implementation = Implementation::LitGpt;
            s.attention = Attention::Flash;
            s.precision = Precision::Bf16;
            s.microBatch = 2;
        });
        row("Hugging Face, activations offloaded", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.activationOffload = true;
        });
        row("QLoRA without double quantization", [](Scenario &s) {
            s.fineTune = FineTune::QLoRA;
            s.doubleQuant = false;
        });
        row("Hugging Face, foreach AdamW (PyTorch before 2.8)", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.optimizerImpl = OptimizerImpl::Foreach;
        });
        row("Hugging Face, for-loop AdamW", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.optimizerImpl = OptimizerImpl::ForLoop;
        });
        row("DeepSpeed ZeRO-3, foreach AdamW over its sub-groups", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.optimizerImpl = OptimizerImpl::Foreach;
            s.zeroStage = 3;
            s.dataParallel = 2;
        });
        row("DeepSpeed ZeRO-2: FP32 gradients made for the step", [](Scenario &s) {
            s.zeroStage = 2;
            s.dataParallel = 8;
        });
        row("DeepSpeed ZeRO-2, Adafactor on the FP32 partition", [](Scenario &s) {
            s.zeroStage = 2;
            s.dataParallel = 8;
            s.implementation = Implementation::HuggingFace;
            s.optimizer = Optimizer::Adafactor;
        });
        row("Hugging Face, transformers' own AdamW", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.optimizerImpl = OptimizerImpl::TransformersLoop;
        });
        row("optimizer in backward, for-loop AdamW", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.optimizerImpl = OptimizerImpl::ForLoop;
            s.optimizerInBackward = true;
        });
        row("optimizer in backward, foreach AdamW", [](Scenario &s) {
            s.implementation = Implementation::HuggingFace;
            s.optimizerImpl = OptimizerImpl::Foreach;
            s.optimizerInBackward = true;
        });
        row("paged 8-bit AdamW, some states paged", [](Scenario &s) {
            s.optimizer = Optimizer::AdamW8bit;
            s.pagedOptimizer = true;
        });
        row("QLoRA r = 64, every state paged", [](Scenario &s) {
            s.fineTune = FineTune::QLoRA;
            s.loraRank = 64;
            s.pagedOptimizer = true;
        });
        row("FP8 with Transformer Engine, TP 2", [](Scenario &s) {
            s.precision = Precision::Fp8;
            s.tensorParallel = 2;
            s.attention = Attention::Flash;
        });
        row("QLoRA, lit-gpt's phi-1.5 block (one shared norm)", [](Scenario &s) {
            litgptNeox(s);
            s.arch.normsPerLayer = 1;
            s.fineTune = FineTune::QLoRA;
            s.loraTargets = LoraQ | LoraV;
        });
        row("full fine-tuning, lit-gpt's StableLM-alpha block", litgptNeox);
        row("full fine-tuning, lit-gpt's phi-1.5 block in bf16-mixed", [](Scenario &s) {
            litgptNeox(s);
            s.arch.normsPerLayer = 1;
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
        });
        row("full fine-tuning, lit-gpt's Llama in bf16-mixed", litgptLlamaMixed);
        row("LoRA on lit-gpt's head with dropout, bf16-mixed", [](Scenario &s) {
            litgptLlamaMixed(s);
            s.fineTune = FineTune::LoRA;
            s.loraTargets = LoraQ | LoraV | LoraHead;
            s.loraDropout = true;
        });
        row("LoRA without dropout, lit-gpt's Llama in bf16-mixed", [](Scenario &s) {
            litgptLlamaMixed(s);
            s.fineTune = FineTune::LoRA;
            s.loraTargets = LoraQ | LoraV;
        });
        row("LoRA with dropout, lit-gpt's StableLM-alpha block in bf16-mixed", [](Scenario &s) {
            litgptNeox(s);
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
            s.fineTune = FineTune::LoRA;
            s.loraTargets = LoraQ | LoraV;
            s.loraDropout = true;
        });
        row("torchtitan, FSDP, op-level selective checkpointing", [](Scenario &s) {
            s.implementation = Implementation::TorchTitan;
            s.precision = Precision::MixedBf16;
            s.attention = Attention::Sdpa;
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.dataParallel = 8;
            s.recompute = Recompute::Selective;
        });
        row("torchtitan, TP 8 with sequence parallelism: loss_parallel", [](Scenario &s) {
            s.implementation = Implementation::TorchTitan;
            s.precision = Precision::MixedBf16;
            s.attention = Attention::Sdpa;
            s.tensorParallel = 8;
            s.sequenceParallel = true;
        });
        row("torchtitan, FSDP 4 × CP 2: the rotary table and context_parallel()'s copies", [](Scenario &s) {
            s.implementation = Implementation::TorchTitan;
            s.precision = Precision::MixedBf16;
            s.attention = Attention::Sdpa;
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.dataParallel = 4;
            s.contextParallel = 2;
        });
        row("Megatron-LM's loop, TP 2, learned positions: the embeddings' ids and the micro-batch", [](Scenario &s) {
            s = gpt2Like();
            s.precision = Precision::MixedBf16;
            s.sharding = Sharding::Megatron;
            s.tensorParallel = 2;
            s.dropout = true;
        });
        row("Megatron MoE, TP 2 with SP over EP 2: the routed rows and the all-gather buffer", [](Scenario &s) {
            s.precision = Precision::MixedBf16;
            s.arch.experts = 8;
            s.arch.expertsPerToken = 2;
            s.tensorParallel = 2;
            s.sequenceParallel = true;
            s.expertParallel = 2;
            s.dataParallel = 2;
        });
        row("Megatron MoE through the grouped GEMM: every local expert's rows at once", [](Scenario &s) {
            s.precision = Precision::MixedBf16;
            s.arch.experts = 8;
            s.expertParallel = 2;
            s.dataParallel = 2;
            s.groupedGemm = true;
        });
        row("Megatron, TP 4 with SP: the output layer's gathered input", [](Scenario &s) {
            s.precision = Precision::MixedBf16;
            s.tensorParallel = 4;
            s.sequenceParallel = true;
        });
        row("Megatron-LM's loop without the rerun state machine: the micro-batch in forward only", [](Scenario &s) {
            s.precision = Precision::MixedBf16;
            s.sharding = Sharding::Megatron;
            s.gradAccum = 4;
            s.rerunKeepsBatches = false;
        });
        row("Megatron-LM's loop, last of 2 stages", [](Scenario &s) {
            s.precision = Precision::MixedBf16;
            s.sharding = Sharding::Megatron;
            s.pipelineParallel = 2;
            s.recompute = Recompute::Full;
            s.arch.vocab = 4'000'000; // the head's stage the heaviest
        });
        row("GPT-2, Hugging Face, autocast", [](Scenario &s) {
            s = gpt2Like();
            s.implementation = Implementation::HuggingFace;
            s.precision = Precision::MixedBf16;
            s.ampStyle = AmpStyle::Autocast;
        });
        row("GPT-2, Hugging Face, BF16 with a master copy", [](Scenario &s) {
            s = gpt2Like();
            s.implementation = Implementation::HuggingFace;
            s.precision = Precision::MixedBf16;
        });
        row("BERT, Hugging Face", [](Scenario &s) { s = huggingFaceBert(); });
        row(
            "BERT, Hugging Face, without dropout (the output dense's backward widest)",
            [](Scenario &s) {
                s = huggingFaceBert();
                s.dropout = false;
                s.sequence = 128;
            },
            "gradient of the output dense's input");
        row("BERT, Hugging Face, under autocast without dropout (a 16-bit copy of the output's gradient)",
            [](Scenario &s) {
                s = huggingFaceBert();
                s.dropout = false;
                s.sequence = 128;
                s.precision = Precision::MixedBf16;
                s.ampStyle = AmpStyle::Autocast;
            });
        row("BERT, Hugging Face, checkpointed, short sequences (the output gradient held)", [](Scenario &s) {
            s = huggingFaceBert();
            s.recompute = Recompute::Full;
            s.sequence = 128;
        });
        row("BERT, Hugging Face, checkpointed, long sequences", [](Scenario &s) {
            s = huggingFaceBert();
            s.recompute = Recompute::Full;
            s.sequence = 1024;
        });
        row(
            "BERT-large's widths, Hugging Face, checkpointed, long sequences, no dropout (the attention's softmax "
            "widest)",
            [](Scenario &s) {
                s = huggingFaceBert();
                s.recompute = Recompute::Full;
                s.sequence = 1024;
                s.arch.hidden = 1024; // BERT-large's widths: the scores outgrow the MLP
                s.arch.heads = 16;
                s.arch.kvHeads = 16;
                s.arch.ffn = 4096;
                s.dropout = false; // the probabilities' dropped copy and mask, freed there, would outweigh them
            },
            "gradients of the attention probabilities and scores and the softmax backward's grad × output");
        row("BERT, Hugging Face, PyTorch 1.10 (softmax and log-softmax keep their input)", [](Scenario &s) {
            s = huggingFaceBert();
            s.pytorch = PyTorchRelease::Before1_11;
        });
        row("Mixtral, Hugging Face, eager, PyTorch 1.10", [](Scenario &s) {
            huggingFaceMoe(s);
            s.pytorch = PyTorchRelease::Before1_11;
        });
        row("Mixtral, Hugging Face's QLoRA over an FP32 base, bitsandbytes 0.43.1", [](Scenario &s) {
            huggingFaceMoe(s);
            s.precision = Precision::MixedFp16;
            s.ampStyle = AmpStyle::Autocast;
            s.fineTune = FineTune::QLoRA;
            s.loraTargets = LoraQ | LoraV;
            s.bitsandbytes = BitsandbytesRelease::Before0_43_2;
        });
        row("Mixtral's LoRA under the reentrant checkpoint", [](Scenario &s) {
            huggingFaceMoe(s);
            s.precision = Precision::Bf16;
            s.attention = Attention::Flash;
            s.recompute = Recompute::Full;
            s.fineTune = FineTune::LoRA;
            s.loraTargets = LoraQ | LoraK | LoraV | LoraO;
        });
        row(
            "128 experts' LoRA under the reentrant checkpoint, tokens spread evenly (the recomputed forward's last "
            "expert widest)",
            [](Scenario &s) {
                // Many experts, eight a token, over a narrow stream: the expert mask (int64, every
                // token × k × expert) outgrows the gradients of the stream.
                huggingFaceMoe(s, 128);
                s.arch.expertsPerToken = 8;
                s.arch.hidden = 1024;
                s.expertLoad = ExpertLoad::Balanced;
                s.precision = Precision::Bf16;
                s.attention = Attention::Flash;
                s.recompute = Recompute::Full;
                s.fineTune = FineTune::LoRA;
                s.loraTargets = LoraQ | LoraK | LoraV | LoraO;
            },
            "the recomputed forward at the last expert");
        row(
            "Mixtral's QLoRA under the non-reentrant checkpoint, bitsandbytes 0.43.1 (the recomputed forward's last "
            "op widest)",
            [](Scenario &s) {
                huggingFaceMoe(s);
                s.precision = Precision::Bf16;
                s.attention = Attention::Flash;
                s.recompute = Recompute::Full;
                s.useReentrant = false;
                s.fineTune = FineTune::QLoRA;
                s.loraTargets = LoraAttention;
                s.bitsandbytes = BitsandbytesRelease::Before0_43_2;
            },
            "the recomputed forward's last op");
        row(
            "Mixtral trained whole under autocast (the first expert's routing product widest)",
            [](Scenario &s) {
                huggingFaceMoe(s);
                s.attention = Attention::Sdpa;
                s.arch.ffn = 3 * s.arch.hidden;
                s.precision = Precision::MixedBf16;
                s.ampStyle = AmpStyle::Autocast;
            },
            "the first expert's routing product");
        row(
            "a mixture of many narrow experts, tokens spread evenly (the input's gradient widest)",
            [](Scenario &s) {
                huggingFaceMoe(s, 64);
                s.attention = Attention::Sdpa;
                s.arch.ffn = s.arch.hidden / 4;
                s.expertLoad = ExpertLoad::Balanced; // each expert's rows few
            },
            "gradient of the MoE block's input");
        row(
            "Mixtral's LoRA on every expert too, FP32 adapters over BF16 (the first expert's w2 adapter widest)",
            [](Scenario &s) { mixtralAllLinear(s); }, "the first expert's FP32 LoRA adapter on w2");
        row(
            "Mixtral's LoRA on every expert too, with dropout, under the reentrant checkpoint (the recomputed "
            "forward's last expert widest)",
            [](Scenario &s) {
                mixtralAllLinear(s);
                s.recompute = Recompute::Full;
                s.loraDropout = true;
            },
            "the recomputed forward at the last expert");
        row("Mixtral with its tokens spread evenly over the experts", [](Scenario &s) {
            huggingFaceMoe(s);
            s.attention = Attention::Sdpa;
            s.expertLoad = ExpertLoad::Balanced;
        });
    }
    void everyFormulaIsMadeOfTerms()
    {
        QFETCH(std::function<void(Scenario &)>, edit);
        QFETCH(QString, widest);
        Scenario s;
        edit(s);
        const auto error = scenarioError(s);
        QVERIFY2(!error, error ? error->message.c_str() : "");
        // Left over may be numbers, operators, the one-letter symbols of the formulas (b·s·h·L,
        // a, r, B) and names that read the same in every language: units, acronyms, the code a
        // layer follows, DeepSpeed's configuration key. Any other word is a term missing from
        // the table.
        const QRegularExpression word(QStringLiteral("(?<![A-Za-z_])[A-Za-z][A-Za-z_]+"));
        const QStringList names = QStringLiteral(
                                      "KiB MiB GiB TiB MLP NF RMSNorm rms huggingface litgpt torchtitan torchtune "
                                      "megatron reduce_bucket_size")
                                      .split(QLatin1Char(' '));
        QStringList missing;
        for (const ExplainedItem &item : explain(s, Units::GiB)) {
            if (item.id == ItemId::BackwardWorkingSet && !widest.isEmpty()) {
                QVERIFY2(QString::fromStdString(item.formula).contains(widest), item.formula.c_str());
                widest.clear();
            }
            const QString rest = QString::fromStdString(withoutTerms(item.formula));
            for (auto it = word.globalMatch(rest); it.hasNext();) {
                const QString found = it.next().captured();
                if (!names.contains(found))
                    missing << QStringLiteral("%1: '%2' in \"%3\"")
                                   .arg(QString::fromUtf8(idString(item.id).data()), found,
                                        QString::fromStdString(item.formula));
            }
        }
        QVERIFY2(widest.isEmpty(), "the row names a widest moment, and the estimate has no backward working set");
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not terms:\n") + missing.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestFormulaTerms)
#include "tst_formulaterms.moc"
