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
// A backward runs beside the previous backward's input_tensor_grad, which the local keeps until
// this backward returns (none before the first backward, none after the first stage's first
// chunk), and the gradient it started from (output_tensor_grad, received; none where the loss
// starts it), which backward_step's caller holds until it returns: at the stage's last layer
// that is the gradient of the layer's output the working set counts, past it one more tensor.
// Interleaved (overlap_p2p_comm), a steady-state backward also runs beside the output of the
// forward before it, sent but not deallocated until the next forward's pp_pre_forward (none
// from the last stage's last chunk, whose output is the loss), and the next forward's input,
// received ahead in pp_post_forward (none in the last iteration and none for the first stage's
// first chunk, which the embedding feeds). Without interleaving the output is deallocated and the
// next input received around backward, not beside it.
//
// Between steps, forward_step has handed each model chunk its pipeline input (set_input_tensor,
// transformer_block.py: self.input_tensor) and backward_step retained that input's gradient
// (retain_grad): every chunk that receives one keeps its last micro-batch's input and gradient
// until its next forward - the whole stage but the first stage's first chunk. Interleaved, such
// inputs are held during the step too (inputsHeldAfterBackward in pipeline.cpp).
//
// Each count is of the s × b × h tensors the stages exchange, the most at once.
struct PipelineInFlight {
    std::int64_t passes;        // chunk forward passes whose activations are held
    std::int64_t microBatches;  // distinct micro-batches among them
    std::int64_t gradients;     // activation gradients held beside a forward or a backward
    std::int64_t outputsAhead;  // interleaved: a forward's output and the next forward's input beside a backward
    std::int64_t chunksKeeping; // model chunks keeping an input and its gradient between steps
    std::int64_t inputsHeld;    // inputs and gradients of passes already backwarded, held beside them
    // What the timeline places: beside a steady-state forward (gradients only), beside a backward
    // at the stage's last layer, and past it, with the gradient that backward started from.
    std::int64_t besideForward;
    std::int64_t besideBackward;
    std::int64_t besideLaterBackward;
};
PipelineInFlight pipelineInFlight(const Scenario &s, int stage);

} // namespace vl
