#include "core/scenario.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>
#include <utility>

namespace vl {

namespace {

template <class Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

constexpr NameTable<Precision, 5> kPrecisions{{{Precision::Fp32, "fp32"},
                                               {Precision::MixedFp16, "mixed-fp16"},
                                               {Precision::MixedBf16, "mixed-bf16"},
                                               {Precision::Bf16, "bf16"},
                                               {Precision::Fp8, "fp8"}}};
constexpr NameTable<GradDtype, 4> kGradDtypes{
    {{GradDtype::Auto, "auto"}, {GradDtype::Fp32, "fp32"}, {GradDtype::Bf16, "bf16"}, {GradDtype::Fp16, "fp16"}}};
constexpr NameTable<BaseDtype, 4> kBaseDtypes{
    {{BaseDtype::Auto, "auto"}, {BaseDtype::Fp32, "fp32"}, {BaseDtype::Bf16, "bf16"}, {BaseDtype::Fp16, "fp16"}}};
constexpr NameTable<Optimizer, 6> kOptimizers{{{Optimizer::AdamW, "adamw"},
                                               {Optimizer::AdamW8bit, "adamw-8bit"},
                                               {Optimizer::Sgd, "sgd"},
                                               {Optimizer::SgdMomentum, "sgd-momentum"},
                                               {Optimizer::Lion, "lion"},
                                               {Optimizer::Adafactor, "adafactor"}}};
constexpr NameTable<Offload, 3> kOffloads{
    {{Offload::None, "none"}, {Offload::Optimizer, "optimizer"}, {Offload::OptimizerAndParams, "optimizer-params"}}};
constexpr NameTable<Recompute, 3> kRecomputes{
    {{Recompute::None, "none"}, {Recompute::Selective, "selective"}, {Recompute::Full, "full"}}};
constexpr NameTable<FineTune, 4> kFineTunes{
    {{FineTune::Full, "full"}, {FineTune::Freeze, "freeze"}, {FineTune::LoRA, "lora"}, {FineTune::QLoRA, "qlora"}}};
constexpr NameTable<Implementation, 5> kImplementations{{{Implementation::Megatron, "megatron"},
                                                         {Implementation::HuggingFace, "huggingface"},
                                                         {Implementation::TorchTitan, "torchtitan"},
                                                         {Implementation::LitGpt, "litgpt"},
                                                         {Implementation::TorchTune, "torchtune"}}};
constexpr NameTable<Sharding, 3> kShardings{
    {{Sharding::Zero, "zero"}, {Sharding::Fsdp, "fsdp"}, {Sharding::Megatron, "megatron"}}};
constexpr NameTable<FsdpVersion, 2> kFsdpVersions{{{FsdpVersion::Fsdp1, "1"}, {FsdpVersion::Fsdp2, "2"}}};
constexpr NameTable<Loss, 2> kLosses{{{Loss::Standard, "standard"}, {Loss::Chunked, "chunked"}}};
constexpr NameTable<ExpertLoad, 2> kExpertLoads{
    {{ExpertLoad::Balanced, "balanced"}, {ExpertLoad::EveryToken, "every-token"}}};
constexpr NameTable<OptimizerImpl, 5> kOptimizerImpls{{{OptimizerImpl::Auto, "auto"},
                                                       {OptimizerImpl::ForLoop, "for-loop"},
                                                       {OptimizerImpl::Foreach, "foreach"},
                                                       {OptimizerImpl::Fused, "fused"},
                                                       {OptimizerImpl::TransformersLoop, "transformers"}}};
constexpr NameTable<PyTorchRelease, 4> kPyTorchReleases{{{PyTorchRelease::Since2_2, "2.2+"},
                                                         {PyTorchRelease::Before2_2, "2.1"},
                                                         {PyTorchRelease::Before2_1, "2.0"},
                                                         {PyTorchRelease::Before1_11, "1.10"}}};
constexpr NameTable<TransformersRelease, 3> kTransformersReleases{{{TransformersRelease::Since4_49, "4.49+"},
                                                                   {TransformersRelease::Before4_49, "4.48"},
                                                                   {TransformersRelease::Before4_46, "4.45"}}};
constexpr NameTable<BitsandbytesRelease, 2> kBitsandbytesReleases{
    {{BitsandbytesRelease::Since0_43_2, "0.43.2+"}, {BitsandbytesRelease::Before0_43_2, "0.43.1"}}};
constexpr NameTable<Attention, 3> kAttentions{
    {{Attention::Eager, "eager"}, {Attention::Sdpa, "sdpa"}, {Attention::Flash, "flash"}}};
constexpr NameTable<AmpStyle, 2> kAmpStyles{{{AmpStyle::MasterCopy, "master-copy"}, {AmpStyle::Autocast, "autocast"}}};
constexpr NameTable<Measure, 3> kMeasures{
    {{Measure::Allocated, "allocated"}, {Measure::Reserved, "reserved"}, {Measure::NvidiaSmi, "nvidia-smi"}}};
constexpr NameTable<ModuleLoading, 2> kModuleLoadings{{{ModuleLoading::Lazy, "lazy"}, {ModuleLoading::Eager, "eager"}}};
constexpr NameTable<NcclRelease, 3> kNcclReleases{
    {{NcclRelease::Since2_22, "2.22+"}, {NcclRelease::Before2_22, "2.21"}, {NcclRelease::Before2_21, "2.20"}}};
constexpr NameTable<unsigned, 9> kLoraTargets{{{LoraQ, "q"},
                                               {LoraK, "k"},
                                               {LoraV, "v"},
                                               {LoraO, "o"},
                                               {LoraGate, "gate"},
                                               {LoraUp, "up"},
                                               {LoraDown, "down"},
                                               {LoraRouter, "router"},
                                               {LoraHead, "head"}}};

template <class Enum, std::size_t N>
std::string_view nameOf(const NameTable<Enum, N> &table, Enum value)
{
    for (const auto &[entry, name] : table)
        if (entry == value)
            return name;
    return "?";
}

template <class Enum, std::size_t N>
std::optional<Enum> parseName(const NameTable<Enum, N> &table, std::string_view text)
{
    for (const auto &[entry, name] : table)
        if (name == text)
            return entry;
    return std::nullopt;
}

// A table's names joined by '|', built at compile time: what an error message lists as allowed,
// never out of step with what parseName accepts.
template <const auto &Table>
constexpr std::size_t joinedLength()
{
    std::size_t length = Table.size() - 1;
    for (const auto &entry : Table)
        length += entry.second.size();
    return length;
}
template <const auto &Table>
constexpr auto kJoinedNames = [] {
    std::array<char, joinedLength<Table>()> out{};
    std::size_t at = 0;
    for (const auto &entry : Table) {
        if (at > 0)
            out[at++] = '|';
        for (char c : entry.second)
            out[at++] = c;
    }
    return out;
}();
template <const auto &Table>
std::string_view joinedNames()
{
    return {kJoinedNames<Table>.data(), kJoinedNames<Table>.size()};
}

int bytesOf(GradDtype dtype, int weightBytes)
{
    switch (dtype) {
    case GradDtype::Fp32: return 4;
    case GradDtype::Bf16:
    case GradDtype::Fp16: return 2;
    case GradDtype::Auto: break;
    }
    return weightBytes;
}

struct Version {
    int major = 0;
    int minor = 0;
    int patch = 0;
    auto operator<=>(const Version &) const = default;
};

// MAJOR.MINOR[.PATCH], each a number.
std::optional<Version> parseVersion(std::string_view t)
{
    Version v;
    const char *end = t.data() + t.size();
    auto [afterMajor, e1] = std::from_chars(t.data(), end, v.major);
    if (e1 != std::errc{} || afterMajor == end || *afterMajor != '.')
        return std::nullopt;
    auto [afterMinor, e2] = std::from_chars(afterMajor + 1, end, v.minor);
    if (e2 != std::errc{} || v.major < 0 || v.minor < 0 || (afterMinor != end && *afterMinor != '.'))
        return std::nullopt;
    if (afterMinor != end) {
        auto [afterPatch, e3] = std::from_chars(afterMinor + 1, end, v.patch);
        if (e3 != std::errc{} || v.patch < 0 || afterPatch != end)
            return std::nullopt;
    }
    return v;
}

// A release as its table names it, or any version from `lowest` on: the release whose first
// version (`firsts`, newest first) it reaches, else `older`.
template <class Release, std::size_t N, std::size_t M>
std::optional<Release> parseRelease(const NameTable<Release, N> &names, std::string_view t,
                                    const std::array<std::pair<Version, Release>, M> &firsts, Release older,
                                    Version lowest)
{
    if (const auto named = parseName(names, t))
        return named;
    const auto v = parseVersion(t);
    if (!v || *v < lowest)
        return std::nullopt;
    for (const auto &[first, release] : firsts)
        if (*v >= first)
            return release;
    return older;
}

} // namespace

bool sdpaRunsMath(const Scenario &s)
{
    // integrations/sdpa_attention.py, use_gqa_in_sdpa: enable_gqa where no padding mask is given
    // and the head is at most 256 wide; otherwise K and V are repeated first (kvRepeated, a
    // stride-0 view for a single KV head), and the memory-efficient kernel takes them.
    const Architecture &a = s.arch;
    return s.implementation == Implementation::HuggingFace && a.modeling == Modeling::Llama
        && s.attention == Attention::Sdpa && a.kvHeads < a.heads && !s.kvRepeated && !s.paddingMask
        && a.effectiveHeadDim() <= 256 && dtypeBytes(s).activation == 4;
}

DtypeBytes dtypeBytes(const Scenario &s)
{
    const bool mixed16 = s.precision == Precision::MixedFp16 || s.precision == Precision::MixedBf16;
    const bool mixed = mixed16 || s.precision == Precision::Fp8; // an FP32 master copy
    const bool autocast = mixed16 && s.ampStyle == AmpStyle::Autocast && !s.fsdp()
        && !s.megatron(); // the FP32 weights are the master copy; FSDP and Megatron cast themselves
    // FSDP's MixedPrecisionPolicy(param_dtype=16-bit, reduce_dtype=FP32), torchtitan's default
    // (torch/distributed/_composable/fsdp/_fsdp_param.py, FSDPParam.all_gather_inputs casts the FP32
    // shard to param_dtype): the FP32 shards are what the optimizer updates, so no separate master
    // copy; every layer computes in 16 bits from its gathered copy; the reduced gradient shard is
    // cast back to the parameter's FP32 (_fsdp_collectives.py, foreach_reduce_scatter), whatever
    // the reduce dtype (--grad-dtype) the reduce-scatter buffer uses.
    const bool fsdpCast = mixed && s.fsdp();
    const int weight = autocast || fsdpCast || s.precision == Precision::Fp32 ? 4 : 2;
    const int base = s.baseDtype == BaseDtype::Auto ? weight : s.baseDtype == BaseDtype::Fp32 ? 4 : 2;
    const int stream = s.fineTune == FineTune::Full ? weight : base; // the embedding is frozen unless all trains
    // Megatron-Core accumulates and reduces gradients in its FP32 main_grad buffer by default
    // (megatron/training/arguments.py: main_grads_dtype fp32; for BF16 accumulate_allreduce_grads_in_fp32).
    const int gradient = bytesOf(s.gradDtype, s.megatron() ? 4 : weight);
    DtypeBytes d = autocast ? DtypeBytes{4, bytesOf(s.gradDtype, 4), 0, 2, true, base, stream}
        : fsdpCast          ? DtypeBytes{4, 4, 0, 2, false, base, 2}
                   : DtypeBytes{weight, gradient, mixed && s.masterWeights ? 4 : 0, weight, false, base, stream};
    // PEFT's FP32 adapters over a 16-bit model: what trains is FP32, the base and what it computes
    // stay 16-bit.
    if (s.adaptersUpcast()) {
        d.weight = 4;
        d.gradient = bytesOf(s.gradDtype, 4);
    }
    // lit-gpt: Fabric hands the model's output back in the default dtype, FP32
    // (_FabricModule.forward: precision.convert_output), so its loss reads FP32 logits.
    d.logits = s.implementation == Implementation::LitGpt ? 4 : d.activation;
    d.gemmInput = s.precision == Precision::Fp8 ? 1 : d.activation;
    d.fsdpCast = fsdpCast;
    // from_pretrained builds the model in its torch_dtype (torch.get_default_dtype() meanwhile): the
    // frozen base's, or a 4-bit model's 16-bit compute dtype (transformers' bitsandbytes quantizer
    // makes torch_dtype float16 when none is given). PEFT's prepare_model_for_kbit_training then
    // casts the parameters that are not 4-bit to FP32, not the buffers, nor what bitsandbytes
    // dequantizes into (dequantize_4bit: quant_state.dtype, the weight's when it was quantized).
    d.loaded = s.fineTune == FineTune::QLoRA ? d.activation : d.base;
    return d;
}

std::int64_t rotaryCachePositions(const Scenario &s)
{
    return s.arch.rotaryPositions > 0 ? s.arch.rotaryPositions : s.sequence;
}

OptimizerState optimizerState(const Scenario &s)
{
    // Pure BF16 keeps its moments in BF16 (torch.optim's zeros_like of the parameter), but for
    // PEFT's FP32 adapters; bitsandbytes' 32-bit optimizers, the paged ones among them, keep FP32
    // states whatever the parameters' dtype (optim/optimizer.py, Optimizer2State.init_state:
    // get_state_buffer(p, dtype=torch.float32)).
    const int moment = s.precision == Precision::Bf16 && !s.pagedOptimizer && !s.adaptersUpcast() ? 2 : 4;
    switch (s.optimizer) {
    case Optimizer::AdamW: return {2, moment, false, "Adam m and v"};
    case Optimizer::AdamW8bit: return {2, 1, false, "8-bit Adam m and v"};
    case Optimizer::Sgd: return {0, moment, false, "plain SGD keeps no state"};
    case Optimizer::SgdMomentum: return {1, moment, false, "momentum"};
    case Optimizer::Lion: return {1, moment, false, "Lion momentum"};
    case Optimizer::Adafactor: return {1, moment, true, "Adafactor row/column factors"};
    }
    return {2, moment, false, "Adam m and v"};
}

OptimizerImpl optimizerImplOf(const Scenario &s)
{
    if (s.optimizerImpl != OptimizerImpl::Auto)
        return s.optimizerImpl;
    // lit-gpt's fine-tuning scripts (finetune/lora.py at 8641822) build torch.optim.AdamW with
    // PyTorch's default, foreach on CUDA. Hugging Face's Trainer defaults to adamw_torch_fused from
    // PyTorch 2.8 on (training_args.py, default_optim), torchtitan to implementation "fused"
    // (components/optimizer/optimizer.py), torchtune's configs that name torch.optim.AdamW to fused:
    // True (recipes/configs), Megatron-Core and DeepSpeed to their FusedAdam.
    return s.implementation == Implementation::LitGpt ? OptimizerImpl::Foreach : OptimizerImpl::Fused;
}

std::string_view toString(Precision v)
{
    return nameOf(kPrecisions, v);
}
std::string_view toString(GradDtype v)
{
    return nameOf(kGradDtypes, v);
}
std::string_view toString(Optimizer v)
{
    return nameOf(kOptimizers, v);
}
std::string_view toString(BaseDtype v)
{
    return nameOf(kBaseDtypes, v);
}
std::optional<BaseDtype> parseBaseDtype(std::string_view t)
{
    return parseName(kBaseDtypes, t);
}
std::string_view toString(Offload v)
{
    return nameOf(kOffloads, v);
}
std::string_view toString(Recompute v)
{
    return nameOf(kRecomputes, v);
}
std::string_view toString(FineTune v)
{
    return nameOf(kFineTunes, v);
}
std::string_view toString(Implementation v)
{
    return nameOf(kImplementations, v);
}
std::string_view toString(AmpStyle v)
{
    return nameOf(kAmpStyles, v);
}
std::optional<Implementation> parseImplementation(std::string_view t)
{
    return parseName(kImplementations, t);
}
std::optional<AmpStyle> parseAmpStyle(std::string_view t)
{
    return parseName(kAmpStyles, t);
}
std::string_view toString(Measure v)
{
    return nameOf(kMeasures, v);
}
std::optional<Measure> parseMeasure(std::string_view t)
{
    return parseName(kMeasures, t);
}
std::string_view toString(ModuleLoading v)
{
    return nameOf(kModuleLoadings, v);
}
std::optional<ModuleLoading> parseModuleLoading(std::string_view t)
{
    return parseName(kModuleLoadings, t);
}
std::string_view toString(NcclRelease v)
{
    return nameOf(kNcclReleases, v);
}
std::optional<NcclRelease> parseNcclRelease(std::string_view t)
{
    return parseName(kNcclReleases, t);
}
std::optional<Measure> parseOverheadOn(std::string_view t)
{
    const auto on = parseYesNo(t);
    if (!on)
        return std::nullopt;
    return *on ? Measure::NvidiaSmi : Measure::Allocated;
}
std::string_view toString(Attention v)
{
    return nameOf(kAttentions, v);
}
std::optional<Attention> parseAttention(std::string_view t)
{
    return parseName(kAttentions, t);
}
std::string_view toString(Loss v)
{
    return nameOf(kLosses, v);
}
std::optional<Loss> parseLoss(std::string_view t)
{
    return parseName(kLosses, t);
}
std::string_view toString(ExpertLoad v)
{
    return nameOf(kExpertLoads, v);
}
std::optional<ExpertLoad> parseExpertLoad(std::string_view t)
{
    return parseName(kExpertLoads, t);
}
std::string_view toString(OptimizerImpl v)
{
    return nameOf(kOptimizerImpls, v);
}
std::optional<OptimizerImpl> parseOptimizerImpl(std::string_view t)
{
    return parseName(kOptimizerImpls, t);
}
std::string_view toString(PyTorchRelease v)
{
    return nameOf(kPyTorchReleases, v);
}
std::optional<PyTorchRelease> parsePyTorchRelease(std::string_view t)
{
    // Only where the version falls against 1.11, 2.1 and 2.2 matters.
    return parseRelease(kPyTorchReleases, t,
                        std::array<std::pair<Version, PyTorchRelease>, 3>{{{{2, 2}, PyTorchRelease::Since2_2},
                                                                           {{2, 1}, PyTorchRelease::Before2_2},
                                                                           {{1, 11}, PyTorchRelease::Before2_1}}},
                        PyTorchRelease::Before1_11, {1, 0});
}
std::string_view toString(TransformersRelease v)
{
    return nameOf(kTransformersReleases, v);
}
std::optional<TransformersRelease> parseTransformersRelease(std::string_view t)
{
    // Only where the version falls against 4.46 and 4.49 matters.
    return parseRelease(kTransformersReleases, t,
                        std::array<std::pair<Version, TransformersRelease>, 2>{
                            {{{4, 49}, TransformersRelease::Since4_49}, {{4, 46}, TransformersRelease::Before4_49}}},
                        TransformersRelease::Before4_46, {1, 0});
}
std::string_view toString(BitsandbytesRelease v)
{
    return nameOf(kBitsandbytesReleases, v);
}
std::optional<BitsandbytesRelease> parseBitsandbytesRelease(std::string_view t)
{
    // Only where the version falls against 0.43.2 matters; every release so far is 0.x.
    return parseRelease(
        kBitsandbytesReleases, t,
        std::array<std::pair<Version, BitsandbytesRelease>, 1>{{{{0, 43, 2}, BitsandbytesRelease::Since0_43_2}}},
        BitsandbytesRelease::Before0_43_2, {0, 1});
}
std::string_view toString(Sharding v)
{
    return nameOf(kShardings, v);
}
std::optional<Sharding> parseSharding(std::string_view t)
{
    return parseName(kShardings, t);
}
std::string_view toString(FsdpVersion v)
{
    return nameOf(kFsdpVersions, v);
}
std::optional<FsdpVersion> parseFsdpVersion(std::string_view t)
{
    return parseName(kFsdpVersions, t);
}

std::optional<Attention> parseFlashAttention(std::string_view t)
{
    const auto on = parseYesNo(t);
    if (!on)
        return std::nullopt;
    return *on ? Attention::Flash : Attention::Eager;
}
std::optional<Precision> parsePrecision(std::string_view t)
{
    return parseName(kPrecisions, t);
}
std::optional<GradDtype> parseGradDtype(std::string_view t)
{
    return parseName(kGradDtypes, t);
}
std::optional<Optimizer> parseOptimizer(std::string_view t)
{
    return parseName(kOptimizers, t);
}
std::optional<Offload> parseOffload(std::string_view t)
{
    return parseName(kOffloads, t);
}
std::optional<Recompute> parseRecompute(std::string_view t)
{
    return parseName(kRecomputes, t);
}
std::optional<FineTune> parseFineTune(std::string_view t)
{
    return parseName(kFineTunes, t);
}

std::optional<MlpKind> parseMlp(std::string_view t)
{
    if (t == "gelu")
        return MlpKind::Gelu;
    if (t == "swiglu" || t == "gated")
        return MlpKind::SwiGlu;
    if (t == "geglu")
        return MlpKind::GeGlu;
    return std::nullopt;
}

std::optional<NormKind> parseNorm(std::string_view t)
{
    if (t == "layernorm")
        return NormKind::LayerNorm;
    if (t == "rmsnorm")
        return NormKind::RmsNorm;
    return std::nullopt;
}

std::optional<Modeling> parseModeling(std::string_view t)
{
    for (Modeling m : {Modeling::Llama, Modeling::Gpt2, Modeling::Bert, Modeling::GptNeox})
        if (t == toString(m))
            return m;
    return std::nullopt;
}

std::optional<bool> parseYesNo(std::string_view t)
{
    // What YAML reads as a boolean (yaml-cpp: y, yes, true, on in any case), and 1 and 0.
    std::string word(t);
    std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (word == "yes" || word == "y" || word == "true" || word == "on" || word == "1")
        return true;
    if (word == "no" || word == "n" || word == "false" || word == "off" || word == "0")
        return false;
    return std::nullopt;
}

std::string loraTargetsToString(unsigned targets)
{
    // Every layer projection reads "all"; the head is named beside it.
    const bool all = (targets & LoraAll) == LoraAll;
    std::string out = all ? "all" : "";
    for (const auto &[bit, name] : kLoraTargets) {
        if ((targets & bit) && !(all && (LoraAll & bit))) {
            if (!out.empty())
                out += ',';
            out += name;
        }
    }
    return out;
}

std::span<const std::pair<unsigned, std::string_view>> loraTargetNames()
{
    return kLoraTargets;
}

std::optional<unsigned> parseLoraTargets(std::string_view text)
{
    unsigned targets = 0;
    while (!text.empty()) {
        const auto comma = text.find(',');
        const std::string_view word = text.substr(0, comma);
        if (word == "all")
            targets |= LoraAll;
        else if (word == "attention")
            targets |= LoraAttention;
        else if (const auto bit = parseName(kLoraTargets, word))
            targets |= *bit;
        else
            return std::nullopt;
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    }
    return targets ? std::optional<unsigned>(targets) : std::nullopt;
}

std::string_view allowedPrecisions()
{
    return joinedNames<kPrecisions>();
}
std::string_view allowedGradDtypes()
{
    return joinedNames<kGradDtypes>();
}
std::string_view allowedBaseDtypes()
{
    return joinedNames<kBaseDtypes>();
}
std::string_view allowedOptimizers()
{
    return joinedNames<kOptimizers>();
}
std::string_view allowedOffloads()
{
    return joinedNames<kOffloads>();
}
std::string_view allowedRecomputes()
{
    return joinedNames<kRecomputes>();
}
std::string_view allowedFineTunes()
{
    return joinedNames<kFineTunes>();
}
std::string_view allowedImplementations()
{
    return joinedNames<kImplementations>();
}
std::string_view allowedAttentions()
{
    return joinedNames<kAttentions>();
}
std::string_view allowedLosses()
{
    return joinedNames<kLosses>();
}
std::string_view allowedExpertLoads()
{
    return joinedNames<kExpertLoads>();
}
std::string_view allowedOptimizerImpls()
{
    return joinedNames<kOptimizerImpls>();
}
std::string_view allowedAmpStyles()
{
    return joinedNames<kAmpStyles>();
}
std::string_view allowedMeasures()
{
    return joinedNames<kMeasures>();
}
std::string_view allowedModuleLoadings()
{
    return joinedNames<kModuleLoadings>();
}
std::string_view allowedNcclReleases()
{
    return joinedNames<kNcclReleases>();
}
std::string_view allowedPyTorchReleases()
{
    return "a version such as 1.10, 2.1 or 2.5 (2.2+: 2.2 or newer; 2.0: 1.11 to 2.0; 1.10: 1.10 or older)";
}
std::string_view allowedTransformersReleases()
{
    return "a version such as 4.39, 4.47 or 4.57 (4.49+: 4.49 or newer; 4.48: 4.46 to 4.48; 4.45: 4.45 or older)";
}
std::string_view allowedBitsandbytesReleases()
{
    return "a version such as 0.41, 0.43.1 or 0.45 (0.43.2+: 0.43.2 or newer; 0.43.1: 0.43.1 or older)";
}
std::string_view allowedShardings()
{
    return joinedNames<kShardings>();
}
std::string_view allowedFsdpVersions()
{
    return joinedNames<kFsdpVersions>();
}

} // namespace vl
