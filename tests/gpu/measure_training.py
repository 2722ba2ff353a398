#!/usr/bin/env python3
"""Measure real training steps of Hugging Face transformers' Llama and Qwen3 code on a CUDA GPU.

The project's own measured runs (tests/data/measured-runs.yaml, `source: this repository`): each
configuration runs in a process of its own, three steps of random tokens, and reports
torch.cuda.max_memory_allocated for the step, forward, backward and the optimizer step apart, what
stays allocated between steps, the caching allocator's pool and what the GPU holds outside it
(NVML's used memory less the pool: the CUDA context and the libraries' kernels). The second step is
traced (torch.cuda.memory._record_memory_history), and the tensors alive at its peak are listed by
the code that allocated them, so that a gap names its tensors. Nothing here enters the estimate.

  python3 tests/gpu/measure_training.py OUT_DIR [CONFIG ...]

Writes OUT_DIR/runs.jsonl (one line a configuration, written as each finishes) and
OUT_DIR/context.jsonl (the bare CUDA context, lazily and eagerly loaded).
"""
import json
import os
import subprocess
import sys
import time

LLAMA_3_2_1B = dict(family="llama", hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                    num_attention_heads=32, num_key_value_heads=8, vocab_size=128256,
                    max_position_embeddings=131072, tie_word_embeddings=True)
QWEN3_0_6B = dict(family="qwen3", hidden_size=1024, intermediate_size=3072, num_hidden_layers=28,
                  num_attention_heads=16, num_key_value_heads=8, head_dim=128, vocab_size=151936,
                  max_position_embeddings=40960, tie_word_embeddings=True)

# name -> the run: model shape, dtype (bf16: the weights in BF16, no autocast; amp-bf16: FP32 weights
# under torch.autocast), attention, batch, sequence, checkpointing (None, or use_reentrant), LoRA.
CONFIGS = {
    "llama1b-bf16-sdpa-b4-s1024": dict(model=LLAMA_3_2_1B, dtype="bf16", attn="sdpa", batch=4, seq=1024,
                                       checkpoint=None, lora=False),
    "llama1b-bf16-sdpa-b4-s2048-ckpt-reentrant": dict(model=LLAMA_3_2_1B, dtype="bf16", attn="sdpa", batch=4,
                                                      seq=2048, checkpoint=True, lora=False),
    "llama1b-bf16-sdpa-b4-s2048-ckpt": dict(model=LLAMA_3_2_1B, dtype="bf16", attn="sdpa", batch=4, seq=2048,
                                            checkpoint=False, lora=False),
    "llama1b-ampbf16-sdpa-b4-s2048-ckpt": dict(model=LLAMA_3_2_1B, dtype="amp-bf16", attn="sdpa", batch=4,
                                               seq=2048, checkpoint=False, lora=False),
    "llama1b-bf16-eager-b2-s1024": dict(model=LLAMA_3_2_1B, dtype="bf16", attn="eager", batch=2, seq=1024,
                                        checkpoint=None, lora=False),
    "llama1b-bf16-sdpa-b4-s2048-ckpt-lora": dict(model=LLAMA_3_2_1B, dtype="bf16", attn="sdpa", batch=4,
                                                 seq=2048, checkpoint=False, lora=True),
    "llama1b-fp32-sdpa-b2-s1024": dict(model=LLAMA_3_2_1B, dtype="fp32", attn="sdpa", batch=2, seq=1024,
                                       checkpoint=None, lora=False),
    "qwen3-0.6b-bf16-sdpa-b4-s2048-ckpt": dict(model=QWEN3_0_6B, dtype="bf16", attn="sdpa", batch=4, seq=2048,
                                               checkpoint=False, lora=False),
    "qwen3-0.6b-fp32-sdpa-b2-s1024": dict(model=QWEN3_0_6B, dtype="fp32", attn="sdpa", batch=2, seq=1024,
                                          checkpoint=None, lora=False),
    "llama1b-fp32-sdpa-b1-s4096": dict(model=LLAMA_3_2_1B, dtype="fp32", attn="sdpa", batch=1, seq=4096,
                                       checkpoint=None, lora=False),
    "llama1b-fp32-sdpa-b2-s2048-ckpt": dict(model=LLAMA_3_2_1B, dtype="fp32", attn="sdpa", batch=2, seq=2048,
                                            checkpoint=False, lora=False),
    "llama1b-mha-fp32-sdpa-b2-s1000": dict(model=dict(LLAMA_3_2_1B, num_attention_heads=16, num_key_value_heads=16),
                                           dtype="fp32", attn="sdpa", batch=2, seq=1000, checkpoint=None, lora=False),
    "llama1b-ampbf16-sdpa-b4-s2048-ckpt-reentrant": dict(model=LLAMA_3_2_1B, dtype="amp-bf16", attn="sdpa", batch=4,
                                                         seq=2048, checkpoint=True, lora=False),
    "llama1b-ampbf16-sdpa-b2-s1024": dict(model=LLAMA_3_2_1B, dtype="amp-bf16", attn="sdpa", batch=2, seq=1024,
                                          checkpoint=None, lora=False),
    "llama1b-bf16-sdpa-b4-s1024-padded": dict(model=LLAMA_3_2_1B, dtype="bf16", attn="sdpa", batch=4, seq=1024,
                                              checkpoint=None, lora=False, padding=100),
    "qwen3-0.6b-bf16-sdpa-b4-s2048-ckpt-padded": dict(model=QWEN3_0_6B, dtype="bf16", attn="sdpa", batch=4,
                                                      seq=2048, checkpoint=False, lora=False, padding=300),
    "llama1b-fp32-sdpa-b2-s1024-padded": dict(model=LLAMA_3_2_1B, dtype="fp32", attn="sdpa", batch=2, seq=1024,
                                              checkpoint=None, lora=False, padding=100),
    "llama1b-bf16-sdpa-b4-s2048-ckpt-lora-padded": dict(model=LLAMA_3_2_1B, dtype="bf16", attn="sdpa", batch=4,
                                                        seq=2048, checkpoint=False, lora=True, padding=200),
}

STEPS = 3
TRACED_STEP = 1  # zero-based: the second step, the optimizer's states already there


def nvml_used():
    import pynvml
    pynvml.nvmlInit()
    return pynvml.nvmlDeviceGetMemoryInfo(pynvml.nvmlDeviceGetHandleByIndex(0)).used


def short_frame(frame):
    name = frame.get("filename", "?")
    for marker in ("site-packages/", "dist-packages/", "tests/gpu/"):
        if marker in name:
            name = name.split(marker, 1)[1]
            break
    return f"{name}:{frame.get('line', 0)}:{frame.get('name', '?')}"


def trace_peak(trace):
    """Replays the allocator's trace: the most bytes allocated above its start, and the index of
    the event that reached it."""
    current = peak = 0
    peak_index = -1
    sizes = {}
    for index, event in enumerate(trace):
        if event["action"] == "alloc":
            sizes[event["addr"]] = event["size"]
            current += event["size"]
            if current > peak:
                peak, peak_index = current, index
        elif event["action"] == "free_completed":
            current -= sizes.pop(event["addr"], event["size"])
    return peak, peak_index


def live_at_peak(snapshot):
    """The trace's peak, the blocks alive then that the trace saw allocated, grouped by the code
    that allocated them, and those still alive at the trace's end."""
    trace = snapshot["device_traces"][0]
    peak, peak_index = trace_peak(trace)
    return {"peak_above_start": peak, "events": len(trace), "peak_event": peak_index,
            "live": grouped(alive_after(trace[:peak_index + 1])), "survivors": grouped(alive_after(trace))}


def alive_after(events):
    """The blocks the events allocate and do not free."""
    live = {}
    for event in events:
        if event["action"] == "alloc":
            live[event["addr"]] = event
        elif event["action"] == "free_completed":
            live.pop(event["addr"], None)
    return live.values()


def grouped(events):
    """Blocks grouped by the code that allocated them, with the sizes (requested) among them."""
    groups = {}
    for event in events:
        frames = [f for f in event.get("frames", []) if "torch/utils/_contextlib" not in f.get("filename", "")]
        if frames and "measure_training" in frames[0].get("filename", ""):
            frames.reverse()  # innermost first
        site = " < ".join(short_frame(f) for f in frames[:8])
        group = groups.setdefault(site, {"bytes": 0, "count": 0, "sizes": {}, "site": site})
        group["bytes"] += event["size"]
        group["count"] += 1
        group["sizes"][event["size"]] = group["sizes"].get(event["size"], 0) + 1
    return sorted(groups.values(), key=lambda g: -g["bytes"])


def block_rounding(snapshot):
    """What the allocated blocks hold beyond the bytes requested: max_memory_allocated counts blocks
    (rounded to 512 B; a cached block's remainder of 1 MiB or less is not split off), the trace
    the requests."""
    return sum(block["size"] - block["requested_size"] for segment in snapshot["segments"]
               for block in segment["blocks"] if block["state"] == "active_allocated")


def build_model(run):
    import torch
    import transformers
    shape = dict(run["model"])
    family = shape.pop("family")
    config_class = transformers.LlamaConfig if family == "llama" else transformers.Qwen3Config
    config = config_class(**shape)
    config._attn_implementation = run["attn"]
    dtype = torch.bfloat16 if run["dtype"] == "bf16" else torch.float32
    with torch.device("cuda"):
        try:
            model = transformers.AutoModelForCausalLM.from_config(config, attn_implementation=run["attn"])
        except TypeError:
            model = transformers.AutoModelForCausalLM.from_config(config)
    model.to(dtype)
    if run["checkpoint"] is not None:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": run["checkpoint"]})
    if run["lora"]:
        import peft
        model = peft.get_peft_model(model, peft.LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05,
                                                           target_modules="all-linear", task_type="CAUSAL_LM"))
    model.train()
    return model


def measure(name):
    import torch
    run = CONFIGS[name]
    used_before = int(os.environ["VL_NVML_USED_BEFORE"])
    torch.manual_seed(0)
    model = build_model(run)
    trainable = [p for p in model.parameters() if p.requires_grad]
    # The Trainer's default optimizer from PyTorch 2.8 on: adamw_torch_fused.
    optimizer = torch.optim.AdamW(trainable, lr=1e-5, fused=True)
    batch = {"input_ids": torch.randint(0, run["model"]["vocab_size"], (run["batch"], run["seq"]), device="cuda")}
    batch["attention_mask"] = torch.ones_like(batch["input_ids"])
    if run.get("padding"):  # the collator's right padding: the last tokens of every row masked out
        batch["attention_mask"][:, -run["padding"]:] = 0
    batch["labels"] = batch["input_ids"].clone()
    autocast = run["dtype"] == "amp-bf16"
    steps = []
    trace = None
    for step in range(STEPS):
        torch.cuda.synchronize()
        if step == TRACED_STEP:
            torch.cuda.memory._record_memory_history(max_entries=1_000_000, stacks="python")
        start = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
            loss = model(**batch).loss
        forward_peak = torch.cuda.max_memory_allocated()
        after_forward = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        loss.backward()
        backward_peak = torch.cuda.max_memory_allocated()
        after_backward = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        del loss
        step_peak = torch.cuda.max_memory_allocated()
        torch.cuda.synchronize()
        if step == TRACED_STEP:
            snapshot = torch.cuda.memory._snapshot()
            trace = live_at_peak(snapshot)
            trace["start"] = start
            trace["block_rounding_at_end"] = block_rounding(snapshot)
            torch.cuda.memory._record_memory_history(enabled=None)
        steps.append({"start": start, "forward_peak": forward_peak, "after_forward": after_forward,
                      "backward_peak": backward_peak, "after_backward": after_backward,
                      "optimizer_peak": step_peak, "end": torch.cuda.memory_allocated()})
    import transformers
    versions = {"torch": torch.__version__, "cuda": torch.version.cuda, "transformers": transformers.__version__,
                "gpu": torch.cuda.get_device_name(0), "capability": list(torch.cuda.get_device_capability(0))}
    try:
        import peft
        versions["peft"] = peft.__version__
    except ImportError:
        pass
    return {"name": name, "run": run, "versions": versions, "steps": steps,
            "max_allocated": max(max(s["forward_peak"], s["backward_peak"], s["optimizer_peak"]) for s in steps[1:]),
            "reserved_peak": torch.cuda.max_memory_reserved(), "reserved_now": torch.cuda.memory_reserved(),
            "outside_allocator": nvml_used() - used_before - torch.cuda.memory_reserved(),
            "attn_implementation": getattr(getattr(model, "config", None), "_attn_implementation", None),
            "parameters": sum(p.numel() for p in model.parameters()),
            "trainable": sum(p.numel() for p in trainable), "trace": trace}


def bare_context():
    """What a process holds outside PyTorch's pool: after CUDA's start, then after one BF16 matrix product."""
    import torch
    used_before = int(os.environ["VL_NVML_USED_BEFORE"])
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    started = nvml_used() - used_before - torch.cuda.memory_reserved()
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    (a @ a).sum().item()
    after_gemm = nvml_used() - used_before - torch.cuda.memory_reserved()
    return {"loading": os.environ.get("CUDA_MODULE_LOADING", "(unset)"), "started": started,
            "after_bf16_gemm": after_gemm, "torch": torch.__version__, "cuda": torch.version.cuda}


def child(kind, name, out_file, extra_env=None):
    env = dict(os.environ, VL_NVML_USED_BEFORE=str(nvml_used()), **(extra_env or {}))
    began = time.time()
    result = subprocess.run([sys.executable, __file__, "--child", kind, name], env=env, capture_output=True,
                            text=True, timeout=240)
    line = {"name": name, "seconds": round(time.time() - began, 1)}
    if result.returncode == 0:
        line.update(json.loads(result.stdout.strip().splitlines()[-1]))
    else:
        line["error"] = result.stderr[-4000:]
    with open(out_file, "a") as f:
        f.write(json.dumps(line) + "\n")
    print(name, "ok" if result.returncode == 0 else "FAILED", line["seconds"], "s", flush=True)
    if result.returncode != 0:
        print(result.stderr[-2000:], flush=True)


def main():
    if sys.argv[1] == "--child":
        kind, name = sys.argv[2], sys.argv[3]
        print(json.dumps(measure(name) if kind == "run" else bare_context()))
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for loading in ("LAZY", "EAGER"):
        child("context", loading, os.path.join(out, "context.jsonl"), {"CUDA_MODULE_LOADING": loading})
    for name in sys.argv[2:] or CONFIGS:
        child("run", name, os.path.join(out, "runs.jsonl"))


if __name__ == "__main__":
    main()
