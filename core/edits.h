#pragma once
// What follows an edit: rules that every front end applies the same way.

#include "core/scenario.h"

#include <span>
#include <string_view>

namespace vl {

struct GpuPreset;

// Once an implementation is chosen, the fields it requires: torchtitan runs attention through
// SDPA; lit-gpt runs flash attention in bf16-true (or bf16-mixed under autocast) without
// checkpointing; the code-level
// implementations but torchtitan checkpoint whole layers (no selective recomputation) and train Llama without
// dropout; GPT-2 and BERT are modelled with eager attention; Liger runs in Hugging Face's code alone. Fields named in
// `keep` (by their CLI names) were set explicitly and stay as they are; scenarioError() then says what
// does not fit.
Scenario withImplementationDefaults(Scenario s, std::span<const std::string_view> keep = {});

// ZeRO stage and CPU offload follow each other: offload is part of ZeRO (none at stage 0,
// the optimizer only below stage 3), and offloading needs a stage (stage 2 for the optimizer,
// stage 3 for the parameters). `given` names the fields the user set (CLI names): when one of
// "zero" and "offload" is among them without the other, the other follows it; both given are
// left as they are, for scenarioError() to judge.
Scenario withShardingDefaults(Scenario s, std::span<const std::string_view> given);

// The key/value heads once the attention heads change: a multi-head model stays multi-head; a
// grouped one keeps the largest grouping that divides the new count.
std::int64_t kvHeadsFollowing(const Architecture &before, std::int64_t heads);

// lit-gpt adapts only its fused query/key/value projection and its head: when that code and LoRA
// or QLoRA meet (either one among `given`) with targets it cannot take, and the targets were not
// given too, they become q and v (finetune/lora.py's defaults).
Scenario withLoraTargetDefaults(Scenario s, std::span<const std::string_view> given);

// Lightning's mixed precision is torch.autocast (Fabric's MixedPrecision plugin; lit-gpt's
// bf16-mixed): under lit-gpt, when the precision or the implementation is among `given` and
// --amp-style is not, a mixed precision runs under autocast rather than being refused for a
// master copy lit-gpt does not make.
Scenario withAmpStyleDefaults(Scenario s, std::span<const std::string_view> given);

// torchtitan pairs tensor parallelism with sequence-parallel norms: when torchtitan is chosen or
// its TP size changes (either among `given`) and --sp was not given too, --sp follows --tp > 1.
Scenario withTorchtitanSequenceParallel(Scenario s, std::span<const std::string_view> given);

// The FSDP the chosen code wraps by default: Hugging Face's Trainer through accelerate's
// FullyShardedDataParallelPlugin (fsdp_version 1 unless its config says 2) and lit-gpt through
// Lightning's FSDPStrategy run FSDP1, and accumulate a step's micro-batches inside its no_sync
// (accelerate's Accelerator.accumulate, Fabric's no_backward_sync); torchtitan and torchtune apply
// fully_shard, FSDP2, and reduce-scatter every micro-batch. When the implementation or the
// sharding engine is among `given`, the version and --no-sync follow the code unless given too
// (Megatron's are left as they are).
Scenario withFsdpDefaults(Scenario s, std::span<const std::string_view> given);

// Liger Kernel's fused linear cross-entropy is the loss and reads the head's weight itself: when
// --liger yes is among `given`, the loss becomes the standard one and the head leaves the LoRA
// targets (q and v if nothing else was adapted), unless those fields were given too. Choosing
// another implementation than Hugging Face turns Liger off (withImplementationDefaults()).
Scenario withLigerDefaults(Scenario s, std::span<const std::string_view> given);

// Hugging Face's SDPA path cannot soft-cap the scores (Gemma-2) and hands a sliding window no
// longer than the sequence (Scenario::slidingWindowMasked) to PyTorch as a mask, which is not
// modelled: such a model under that path runs eager attention instead, what transformers advises
// for training Gemma-2 and Gemma-3. Context parallelism runs flash kernels: with --cp above 1,
// eager attention becomes Megatron's flash attention or torchtitan's SDPA. Neither applies when
// the attention was among `given` (then scenarioError() says why it does not fit).
Scenario withAttentionDefaults(Scenario s, std::span<const std::string_view> given);

// The CUDA context follows the module loading chosen (cudaContextOf()) unless its size was given
// too (`given`: CLI names).
Scenario withOverheadDefaults(Scenario s, std::span<const std::string_view> given);

// The run is checked against `gpu`: a preset that knows its compute capability sets the
// scenario's (which sizes cuBLAS's workspaces), unless "compute-capability" is among `given`.
Scenario withGpu(Scenario s, const GpuPreset &gpu, std::span<const std::string_view> given);

// After fields were set by name (a control, a CLI flag, a sweep): a model whose shapes were given
// is counted from them unless `params` was given too; `heads` without `kv-heads` moves the
// key/value heads as kvHeadsFollowing() says, and without `hidden` moves the hidden size up to
// the next whole number of heads (headsDividingHidden()). `before` is the architecture the edit
// started from.
Scenario withArchitectureDefaults(Scenario s, const Architecture &before, std::span<const std::string_view> given);

// Another model chosen (a preset, a config.json): its architecture, with the parallel and
// fine-tuning settings that it cannot take brought back into range - tensor parallelism to 1
// where it does not divide the heads, pipeline stages and trainable layers to the model's layers,
// SDPA to eager attention where withAttentionDefaults() says.
Scenario withModel(Scenario s, const Architecture &arch);

// Every rule above that follows fields set by name, in order: the architecture's, sharding's,
// the overhead's, the implementation's when it is among them, then the mixed precision's. What
// each front end calls after an edit (a control changed, the CLI's flags), so that the same edits
// give the same scenario everywhere.
Scenario withEditRules(Scenario s, const Architecture &before, std::span<const std::string_view> given);

// Whether a field (by its CLI name) changes anything in this scenario: the master copy only in
// mixed precision with one, the frozen base's dtype only under autocast with a frozen base, the
// LoRA options only with LoRA. A front end greys out the rest; every other field is in effect.
bool fieldInEffect(const Scenario &s, std::string_view field);

// The LoRA targets (loraTargetNames' bits) a model has: a dense layer has no router. A front end
// greys out the others.
unsigned loraTargetsPresent(const Architecture &a);

// Where the PyTorch release changes the estimate (the field "pytorch"): what torch ops save for
// backward, and foreach AdamW's intermediates (out of place before 2.1).
bool pytorchShapesSavedTensors(const Scenario &s);
bool pytorchShapesOptimizerStep(const Scenario &s);

} // namespace vl
