#pragma once
// Megatron-Core's pipeline schedules, as counts: what a stage holds at once.

#include "core/scenario.h"

#include <cstdint>

namespace vl {

// What a pipeline stage holds at once, as Megatron-Core schedules it
// (megatron/core/pipeline_parallel/schedules.py, get_pp_rank_microbatches): stage r runs its
// warm-up forwards, then one forward before each backward, so it holds warm-up + 1 forward
// passes' activations — every one of them when the warm-up covers them all. A pass is one
// micro-batch through one of the stage's v model chunks (v = 1 without interleaving). Warm-up:
// p − r − 1 without interleaving; 2(p − r − 1) + (v − 1)·g with it, g =
// microbatch_group_size_per_vp_stage (default p), of m·v passes in all.
//
// From the second steady-state forward on, that forward runs beside the previous backward's
// activation gradients, which the schedule's locals still hold: without interleaving
// (forward_backward_pipelining_without_interleaving) input_tensor_grad, the gradient of the
// stage's input that backward sent back (none on the first stage), and output_tensor_grad, the
// one it received (none on the last); with interleaving input_tensor_grad, returned by
// forward_backward_helper_wrapper, and the next backward's gradient, received ahead into
// output_tensor_grads (overlap_p2p_comm, Megatron's default there) - on the last stage only once
// its last chunk's p micro-batches, whose gradient the loss makes, are through.
//
// Between steps, forward_step has handed each model chunk its pipeline input (set_input_tensor,
// transformer_block.py: self.input_tensor) and backward_step retained that input's gradient
// (retain_grad): every chunk that receives one keeps its last micro-batch's input and gradient
// until its next forward - the whole stage but the first stage's first chunk. Interleaved, such
// inputs are held during the step too (inputsHeldAfterBackward in pipeline.cpp).
struct PipelineInFlight {
    std::int64_t passes;        // chunk forward passes whose activations are held
    std::int64_t microBatches;  // distinct micro-batches among them
    std::int64_t gradients;     // activation gradients of the previous backward held beside them
    std::int64_t chunksKeeping; // model chunks keeping an input and its gradient between steps
    std::int64_t inputsHeld;    // inputs and gradients of passes already backwarded, held beside them
};
PipelineInFlight pipelineInFlight(const Scenario &s, int stage);

} // namespace vl
