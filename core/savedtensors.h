#pragma once
// What autograd saves for backward, tensor by tensor, as the scenario's implementation computes
// it: Megatron's fused kernels as Korthikanti et al. (2022, Table 2) count them, or the code of
// Hugging Face transformers and torchtitan, each list pinned storage for storage to what
// PyTorch's autograd saves (tests/oracle, tst_savedtensors).

#include "core/scenario.h"
#include "core/units.h"

#include <array>
#include <string_view>
#include <vector>

namespace vl {

// A saved tensor's name, a view of a string literal. Unlike std::string_view it is left unset
// when default-made, so the unused slots of a TensorList cost nothing to make (estimate() makes
// several lists a call).
struct TensorName {
    const char *text;
    std::size_t length;
    TensorName() = default;
    constexpr TensorName(std::string_view name) : text(name.data()), length(name.size()) {}
    constexpr TensorName(const char *name) : TensorName(std::string_view(name)) {}
    constexpr operator std::string_view() const { return {text, length}; }
    constexpr const char *data() const { return text; }
    constexpr std::size_t size() const { return length; }
};

// One tensor that the training code saves for backward, by what it is.
struct SavedTensor {
    TensorName name;       // "RMSNorm input in FP32"
    Bytes bytes;           // all its storages together
    std::int64_t storages; // equal storages, one per chunk when the code works in chunks
};

enum class TensorScope {
    Layer,  // one transformer layer, one micro-batch, on one GPU
    Outside // outside the layers: token ids, final norm, LM-head input, the loss's saved tensors
};

std::vector<SavedTensor> savedTensors(const Scenario &s, TensorScope scope);

// The same lists for estimate(), filled without allocating; the first `count` items are set
// (the rest are left unwritten: estimate() builds several lists per call). A MoE layer whose
// experts take three different numbers of rows, every projection and expert adapted, with
// dropout, lists up to 77; should a list outgrow the array, its total still counts every byte and
// `unlisted` the items left out (tst_properties requires none).
struct TensorList {
    std::array<SavedTensor, 96> items;
    int count = 0;
    int unlisted = 0;
    Bytes total = 0;
    void add(std::string_view name, Bytes bytes, std::int64_t storages = 1)
    {
        if (bytes <= 0)
            return;
        if (count < int(items.size()))
            items[count++] = {name, bytes, storages};
        else
            ++unlisted;
        total += bytes;
    }
};
TensorList layerTensors(const Scenario &s);
TensorList outsideTensors(const Scenario &s); // empty for Megatron, which counts the embedding and logits itself
// Of those, what the embeddings save: kept until backward's very end, where the head's and the
// loss's tensors are freed before the layers' backward.
TensorList embeddingTensors(const Scenario &s);
// What one layer saves without recomputation, whatever the scenario's recompute setting.
TensorList layerTensorsWithoutRecompute(const Scenario &s);
// Of those, under full recomputation, what is the layer's input itself: torch.utils.checkpoint
// hands the recomputed layer the input it kept (detach_variable shares the storage), so an op that
// saves the input as it comes saves nothing new. Megatron's count is the papers' (0 there).
Bytes recomputationReusesInput(const Scenario &s);
// Under full recomputation in Hugging Face's code with the reentrant checkpoint, the recomputed
// layer's output, which torch.utils.checkpoint's backward holds while the layer's backward runs
// (torch/utils/checkpoint.py, CheckpointFunction.backward: `outputs` stays referenced through
// torch.autograd.backward); 0 otherwise: the non-reentrant checkpoint keeps only what is saved.
Bytes reentrantCheckpointOutput(const Scenario &s);
// The rows Hugging Face's MoE block routes to its last expert, the one computing at the block's
// widest moments, as Scenario::expertLoad takes routing; 0 where experts do not run one by one.
std::int64_t lastExpertRows(const Scenario &s);
// The rows Megatron's MoE layer computes at once in backward: a local expert's share of the tokens
// gathered over TP × EP, SequentialMLP running them one after another, or every local expert's in
// the grouped GEMM; 0 outside Megatron's MoE layer.
std::int64_t megatronExpertRows(const Scenario &s);
// What bitsandbytes' 4-bit linears before 0.43.2 keep of one layer as attributes of their autograd
// context, which autograd frees with the graph, not when the linear's backward has run; 0 for any
// other linear.
Bytes fourBitInputsKeptPerLayer(const Scenario &s);
// Of a layer's list, the inputs nothing but a 4-bit linear's context keeps (its projections', and
// Mixtral's router's and experts'): under the non-reentrant checkpoint the layer's recomputation
// makes them again only for the graph it builds, gone once the recomputed forward returns (the
// originals, which its forward kept, serve its backward).
Bytes keptOnlyInFourBitContext(const TensorList &layer);
// What K and V copied to every head before the attention kernel add to one layer's saved tensors
// beyond K and V at the KV heads (Scenario::keysAndValuesRepeated); 0 otherwise.
Bytes repeatedKeysAndValues(const Scenario &s);
// What one layer's backward holds at once beyond every layer's saved tensors, at its widest
// moment (the MLP's): the gradients autograd has allocated and not yet freed there.
TensorList backwardWorkingSet(const Scenario &s);
// The same moment with the layer's own parameter gradients weighed in (`wholeLayer` is
// layerTensorsWithoutRecompute(s), for a caller that has it already): an eager attention's
// moment, its softmax's backward, comes before the layer's backward has made the gradients of
// what its forward ran before the attention (the first norm, the query, key and value
// projections: `gradientsAfterAttention` bytes, 0 where gradients are not made as backward goes),
// so it holds them not; the MLP's moments are weighed with every one of them, which holds at
// least as much as they do.
struct BackwardMoment {
    TensorList tensors;
    Bytes gradientsYetToMake = 0; // of the layer's gradients, those made after this moment
};
BackwardMoment widestBackwardMoment(const Scenario &s, const TensorList &wholeLayer, Bytes gradientsAfterAttention);

// The base weights train (full fine-tuning, or the trainable top layers under freeze).
bool baseTrains(const Scenario &s);

// Whether a Llama-family head saves the final norm's output itself (codeHead): outside autocast a
// head that trains keeps its input, and LoRA on the head without dropout reads it.
bool headSavesNormOutput(const Scenario &s);

// What one of Megatron's norms keeps for backward beside its input, per token: Transformer
// Engine's FP32 mean and 1/σ for LayerNorm, its 1/rms for RMSNorm (layernorm_linear.py,
// _LayerNormLinear.forward: ctx.save_for_backward(..., mu, rsigma)).
Bytes megatronNormStatisticsPerToken(const Architecture &a);

// torchtune builds Qwen2 and Qwen3 with Qwen2's RoPE (models/qwen2/_positional_embeddings.py;
// models/qwen3/_component_builders.py), which the architecture tells by Qwen2's QKV biases and
// Qwen3's query/key norms; Llama's and Mistral's with Llama's.
bool torchtuneQwenRope(const Architecture &a);

// lit-gpt's finetune/lora.py runs the LM head on slices of the sequence
// (GPT.forward(lm_head_chunk_size=128), x.split(128, dim=1)): how many.
std::int64_t litgptHeadChunks(const Scenario &s);
// ... and how many positions of each sequence its last slice holds.
std::int64_t litgptLastChunkLength(const Scenario &s);
// Its loss's backward runs a chunk at a time (tests/oracle's loss_working_set measures it): the
// tokens of the largest chunk, whose FP32 gradients of the log-softmax and of the logits are
// alive together, and, with more than one chunk, the FP32 gradient of every position's loss,
// which cat's backward hands to the chunks as views.
std::int64_t litgptLossChunkTokens(const Scenario &s);
Bytes litgptLossPositionsGradient(const Scenario &s);

} // namespace vl
