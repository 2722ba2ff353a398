#!/usr/bin/env python3
"""What one attention's backward allocates on a CUDA GPU, by kernel: the most bytes its backward
holds above what the forward left (the saved tensors and the output's gradient), and the blocks
alive at that moment with the C++ and Python frames that allocated them.

  python3 tests/gpu/attention_backward.py OUT_DIR

Writes OUT_DIR/attention.jsonl. Companion of measure_training.py: where a whole step's peak lies
in an attention's backward, this names the tensors.
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

from measure_training import alive_after, trace_peak

B, HEADS, KV_HEADS, SEQ, DIM = 2, 32, 8, 2048, 64


def eager(q, k, v):
    """transformers' eager_attention_forward (integrations or modeling_llama.py), causal."""
    k = k.repeat_interleave(HEADS // KV_HEADS, dim=1)
    v = v.repeat_interleave(HEADS // KV_HEADS, dim=1)
    scores = torch.matmul(q, k.transpose(2, 3)) * DIM**-0.5
    mask = torch.full((SEQ, SEQ), torch.finfo(q.dtype).min, device=q.device, dtype=q.dtype).triu(1)
    probs = torch.softmax(scores + mask, dim=-1, dtype=torch.float32).to(q.dtype)
    return torch.matmul(probs, v)


def sdpa(q, k, v):
    """transformers' sdpa_attention_forward without a padding mask: enable_gqa, is_causal."""
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)


def frame_text(frame):
    name = frame.get("name", "?")
    return name if len(name) < 120 else name[:117] + "..."


def measure(kernel, dtype):
    q = torch.randn(B, SEQ, HEADS, DIM, device="cuda", dtype=dtype).transpose(1, 2).requires_grad_()
    k = torch.randn(B, KV_HEADS, SEQ, DIM, device="cuda", dtype=dtype, requires_grad=True)
    v = torch.randn(B, KV_HEADS, SEQ, DIM, device="cuda", dtype=dtype, requires_grad=True)
    out = kernel(q, k, v).transpose(1, 2).contiguous()
    grad = torch.randn_like(out)
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    torch.cuda.memory._record_memory_history(max_entries=100_000, stacks="all")
    out.backward(grad)
    torch.cuda.synchronize()
    snapshot = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    trace = snapshot["device_traces"][0]
    peak, peak_index = trace_peak(trace)
    blocks = [{"bytes": e["size"], "frames": [frame_text(f) for f in e.get("frames", [])
                                              if "torch::autograd" in f.get("name", "") or "at::" in f.get("name", "")
                                              or ".py" in f.get("filename", "")][:14]}
              for e in sorted(alive_after(trace[:peak_index + 1]), key=lambda e: -e["size"])]
    return {"kernel": kernel.__name__, "dtype": str(dtype), "shape": [B, HEADS, KV_HEADS, SEQ, DIM],
            "scores_elements": B * HEADS * SEQ * SEQ,
            "held_after_forward": before, "backward_peak_above": torch.cuda.max_memory_allocated() - before,
            "trace_peak_above": peak, "live_at_peak": blocks}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "attention.jsonl"), "w") as f:
        for kernel, dtype in ((sdpa, torch.float32), (eager, torch.float32), (eager, torch.bfloat16),
                              (sdpa, torch.bfloat16)):
            f.write(json.dumps(measure(kernel, dtype)) + "\n")
            f.flush()
            torch.cuda.empty_cache()
            print(kernel.__name__, dtype, "ok", flush=True)


if __name__ == "__main__":
    main()
