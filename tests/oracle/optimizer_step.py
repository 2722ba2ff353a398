"""What torch.optim.AdamW's step holds beyond the parameters, gradients and moments.

The step runs on the CPU under the profiler, whose allocation events give the most it holds at
once; the first step, which creates the moments, runs before it, and the few-byte scalars the
step makes are left out. The parameters are a Hugging Face Llama's in FP32 (embedding, per layer
q, k, v, o, gate, up, down and two norms, the final norm, an untied head), so that the estimate of
the same model steps the same tensors. The PyTorch here adds eps out of place
(torch/optim/adamw.py, _multi_tensor_adamw: torch._foreach_add), as every release before 2.1
did (pytorch/pytorch#104898 made it in place): √v and √v + eps of every parameter at once.

Each version steps the same tensors twice: in one param group, as torchtitan and torchtune build
the optimizer, and in the Hugging Face Trainer's two (get_decay_parameter_names: the weights, then
the norms without weight decay). The for-loop version is foreach=False (_single_tensor_adamw).
"""

import torch

import saved_tensors


def llama_parameters(hidden, heads, kv_heads, ffn, vocab, layers):
    head_dim = hidden // heads
    shapes = [(vocab, hidden)]
    for _ in range(layers):
        shapes += [(hidden, hidden), (kv_heads * head_dim, hidden), (kv_heads * head_dim, hidden),
                   (hidden, hidden), (ffn, hidden), (ffn, hidden), (hidden, ffn), (hidden,), (hidden,)]
    shapes += [(hidden,), (vocab, hidden)]
    return [torch.nn.Parameter(torch.rand(shape)) for shape in shapes]


def held_while_stepping(foreach, decay_groups, **shape):
    params = llama_parameters(**shape)
    groups = [dict(params=params)]
    if decay_groups:
        groups = [dict(params=[p for p in params if p.dim() > 1]),
                  dict(params=[p for p in params if p.dim() == 1], weight_decay=0.0)]
    optimizer = torch.optim.AdamW(groups, foreach=foreach)
    for p in params:
        p.grad = torch.rand_like(p)
    optimizer.step()  # creates the moments
    with saved_tensors.memory_profile() as prof:
        optimizer.step()
    held = peak = 0
    for event in prof.profiler.kineto_results.events():
        if event.name() == "[memory]" and abs(event.nbytes()) >= 16:
            held += event.nbytes()
            peak = max(peak, held)
    return peak


SHAPES = [
    dict(hidden=64, heads=4, kv_heads=4, ffn=176, vocab=96, layers=2),
    dict(hidden=96, heads=6, kv_heads=2, ffn=256, vocab=300, layers=1),
]


def rows():
    torch.manual_seed(0)
    for shape in SHAPES:
        yield dict(**shape, foreach_held=held_while_stepping(True, False, **shape),
                   foreach_trainer_groups_held=held_while_stepping(True, True, **shape),
                   for_loop_held=held_while_stepping(False, False, **shape),
                   for_loop_trainer_groups_held=held_while_stepping(False, True, **shape))
