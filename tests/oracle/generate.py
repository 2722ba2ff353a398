#!/usr/bin/python3
"""Writes what autograd saves for each configuration to tests/data/saved-tensors.yaml, what a whole
model holds at its layers' backward to tests/data/whole-model.yaml, what the
loss's allocations leave in the caching allocator's pool to tests/data/allocator-replay.yaml,
what torchao's NF4 dequantization holds to tests/data/nf4-dequantize.yaml and what foreach
AdamW's step holds to tests/data/optimizer-step.yaml, or, with --check, fails
when a checked-in file differs from what PyTorch says now.

Run with Debian's PyTorch: /usr/bin/python3 tests/oracle/generate.py [--check]
"""

import difflib
import itertools
import json
import pathlib
import sys

import allocator_replay
import optimizer_step
import saved_tensors
import torchao_nf4
import whole_model

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "saved-tensors.yaml"
ALLOCATOR_DATA = DATA.with_name("allocator-replay.yaml")
NF4_DATA = DATA.with_name("nf4-dequantize.yaml")
OPTIMIZER_DATA = DATA.with_name("optimizer-step.yaml")
WHOLE_MODEL_DATA = DATA.with_name("whole-model.yaml")

# Shapes varied enough that a formula right by accident is caught: MHA and GQA, odd head
# counts, FFN not a multiple of hidden, several sequences, batches and vocabularies.
LLAMA_SHAPES = [
    dict(hidden=64, heads=4, kv_heads=4, ffn=176, seq=16, batch=2, vocab=96),
    dict(hidden=96, heads=6, kv_heads=2, ffn=256, seq=24, batch=1, vocab=130),
    dict(hidden=128, heads=8, kv_heads=1, ffn=344, seq=12, batch=3, vocab=72, qkv_bias=True),
]
MOE_SHAPES = [
    dict(hidden=64, heads=4, kv_heads=2, ffn=48, seq=16, batch=2, vocab=96, experts=4, top_k=2),
    dict(hidden=96, heads=6, kv_heads=6, ffn=40, seq=12, batch=2, vocab=130, experts=8, top_k=2),
]
# A mixture of experts in real proportions (the MLP 3.5 times as wide as the stream, a quarter of the
# tokens to each expert) where the flash kernels round nothing: there backward's widest moment is
# inside the first expert's MLP, as at the sizes people train
MOE_ALIGNED_SHAPE = dict(hidden=128, heads=4, kv_heads=2, ffn=448, seq=128, batch=1, vocab=72, experts=8, top_k=2)
MHA_SHAPES = [
    dict(hidden=64, heads=4, kv_heads=4, ffn=256, seq=16, batch=2, vocab=96),
    dict(hidden=96, heads=6, kv_heads=6, ffn=200, seq=24, batch=1, vocab=130),
]
PRECISIONS = [
    dict(weights="bf16"),
    dict(weights="fp32"),
    dict(weights="fp32", autocast="bf16"),
]
LLAMA_TRAINING = [
    dict(finetune="full"),
    dict(finetune="lora", lora_targets=["q", "v"], lora_rank=8, lora_dropout=False),
    dict(finetune="lora", lora_targets=["q", "k", "v", "o", "gate", "up", "down"], lora_rank=4, lora_dropout=True),
    dict(finetune="lora", lora_targets=["o", "down"], lora_rank=4, lora_dropout=False),
    dict(finetune="lora", lora_targets=["q", "v", "head"], lora_rank=8, lora_dropout=True),
    dict(finetune="lora", lora_targets=["head"], lora_rank=4, lora_dropout=False),
]
TORCHTUNE_QLORA = [
    dict(finetune="qlora", lora_targets=["q", "v"], lora_rank=8, lora_dropout=False),
    dict(finetune="qlora", lora_targets=["q", "k", "v", "o", "gate", "up", "down", "head"], lora_rank=4,
         lora_dropout=True),
]
# lit-gpt's GPT-NeoX-style blocks: phi-1.5 (one shared norm, a biased head), StableLM-alpha and,
# without the parallel residual, RedPajama-INCITE
NEOX_SHAPES = [
    dict(hidden=64, heads=4, kv_heads=4, ffn=256, seq=16, batch=2, vocab=96, rotary_percentage=0.5,
         shared_attention_norm=True, lm_head_bias=True, parallel_residual=True),
    dict(hidden=96, heads=6, kv_heads=6, ffn=384, seq=24, batch=1, vocab=130, rotary_percentage=0.25,
         shared_attention_norm=False, lm_head_bias=False, parallel_residual=True),
    dict(hidden=80, heads=5, kv_heads=5, ffn=320, seq=12, batch=3, vocab=72, rotary_percentage=1.0,
         shared_attention_norm=False, lm_head_bias=False, parallel_residual=False),
]
LONG_SHAPE = dict(hidden=64, heads=4, kv_heads=4, ffn=176, seq=260, batch=1, vocab=96)
# lit-gpt's loss over a vocabulary large enough for its backward's chunk to be the widest moment
LITGPT_LOSS_SHAPES = [
    dict(hidden=64, heads=4, kv_heads=4, ffn=176, seq=260, batch=2, vocab=4096),
    dict(hidden=64, heads=4, kv_heads=4, ffn=256, seq=100, batch=3, vocab=2048, rotary_percentage=0.5,
         shared_attention_norm=True, lm_head_bias=True, parallel_residual=True),
]
EAGER_LONG_SHAPE = dict(hidden=64, heads=4, kv_heads=2, ffn=176, seq=256, batch=1, vocab=96)
# Shapes the flash kernels do not round (sequence a multiple of 128, head dimension of 32): there
# backward's working set is the MLP's, as it is at the sizes people train.
FLASH_ALIGNED_SHAPES = [
    dict(hidden=128, heads=4, kv_heads=2, ffn=344, seq=128, batch=1, vocab=72),
    dict(hidden=96, heads=3, kv_heads=3, ffn=384, seq=256, batch=2, vocab=130, rotary_percentage=0.5,
         shared_attention_norm=True, lm_head_bias=True, parallel_residual=True),
]
RECOMPUTE = ["none", "full"]
LITGPT_TRAINING = [
    dict(finetune="full"),
    dict(finetune="lora", lora_targets=["q", "v"], lora_rank=8, lora_dropout=True),
    dict(finetune="lora", lora_targets=["q", "k", "v"], lora_rank=4, lora_dropout=False),
    # lit-gpt of October 2023 ran bitsandbytes 0.41, whose 4-bit linear keeps its input
    dict(finetune="qlora", lora_targets=["q", "v"], lora_rank=8, lora_dropout=True, bitsandbytes="0.43.1"),
]
# Hugging Face's QLoRA, bitsandbytes' 4-bit projections under PEFT: pure BF16, with the adapters
# in BF16 (FSDP's and ZeRO-3's float quant_storage before PEFT 0.12) and in FP32 (bitsandbytes'
# uint8 storage, which PEFT never casts them to, or PEFT 0.12 and later); under autocast after
# prepare_model_for_kbit_training, which casts the norms and the embedding to FP32 (the residual
# stream FP32); under autocast with the norms left in BF16 (fms-acceleration's loader); the
# adapters FP32 under autocast
HF_QLORA_PRECISIONS = [
    dict(weights="bf16"),
    dict(weights="fp32", autocast="bf16", adapter_dtype="fp32"),
    dict(weights="bf16", autocast="bf16", adapter_dtype="fp32"),
    dict(weights="bf16", adapter_dtype="fp32"),
]
HF_QLORA_TRAINING = [dict(training, finetune="qlora") for training in LLAMA_TRAINING[1:4]]
BITSANDBYTES = ["0.43.1", "0.43.2+"]
# LoRA on lit-gpt's head too (finetune/lora.py's lora_head)
LITGPT_HEAD = [
    dict(finetune="lora", lora_targets=["q", "v", "head"], lora_rank=8, lora_dropout=True),
    dict(finetune="lora", lora_targets=["head"], lora_rank=4, lora_dropout=False),
]


def configs():
    for shape, precision, training, recompute in itertools.product(
            LLAMA_SHAPES, PRECISIONS, LLAMA_TRAINING, RECOMPUTE):
        yield dict(family="llama", **shape, **precision, **training, recompute=recompute, dropout=0.0)
    # A model loaded in BF16 under autocast with PEFT's FP32 adapters (autocast_adapter_dtype)
    for shape, training, recompute in itertools.product(LLAMA_SHAPES, LLAMA_TRAINING[1:], RECOMPUTE):
        yield dict(family="llama", **shape, weights="bf16", autocast="bf16", adapter_dtype="fp32", **training,
                   recompute=recompute, dropout=0.0)
    for shape, precision, training in itertools.product(LLAMA_SHAPES, PRECISIONS, LLAMA_TRAINING[:2]):
        yield dict(family="llama", **shape, **precision, **training, recompute="none", dropout=0.0, attention="sdpa")
    for shape, precision, recompute in itertools.product(LLAMA_SHAPES, PRECISIONS, RECOMPUTE):
        yield dict(family="torchtitan", **shape, **precision, finetune="full", recompute=recompute, dropout=0.0,
                   attention="sdpa")
    # ... and one GPU of torchtitan's tensor-parallel pair (the shapes whose KV heads split in two)
    for shape, precision, recompute in itertools.product(LLAMA_SHAPES[:2], PRECISIONS[:2], RECOMPUTE):
        yield dict(family="torchtitan", **shape, **precision, finetune="full", recompute=recompute, dropout=0.0,
                   attention="sdpa", tp=2)
    # torchtune's Llama block (with QKV biases, its Qwen2 and Qwen2's RoPE), trained whole or with
    # its LoRA (three target sets, the head among them), its RoPE cache sliced or, with packed
    # samples, gathered at the positions
    for shape, precision, training, packed in itertools.product(
            LLAMA_SHAPES, PRECISIONS[:2], LLAMA_TRAINING[:3] + LLAMA_TRAINING[4:5], [False, True]):
        for recompute in RECOMPUTE if training["finetune"] == "full" else RECOMPUTE[:1]:
            yield dict(family="torchtune", **shape, **precision, **training, recompute=recompute, dropout=0.0,
                       attention="sdpa", packed=packed)
    # Hugging Face's QLoRA with bitsandbytes before 0.43.2, whose 4-bit linear keeps its input, and since
    for shape, precision, training, bitsandbytes in itertools.product(
            LLAMA_SHAPES[:2], HF_QLORA_PRECISIONS, HF_QLORA_TRAINING, BITSANDBYTES):
        yield dict(family="llama", **shape, **precision, **training, bitsandbytes=bitsandbytes, recompute="none",
                   dropout=0.0)
    # ... at a sequence long enough for eager attention's softmax backward to be the widest moment
    for precision, bitsandbytes in itertools.product(HF_QLORA_PRECISIONS, BITSANDBYTES):
        yield dict(family="llama", **EAGER_LONG_SHAPE, **precision, **HF_QLORA_TRAINING[0], bitsandbytes=bitsandbytes,
                   recompute="none", dropout=0.0)
    # ... and where backward's widest moment is the MLP's under the flash kernel's stand-in
    for precision, training, bitsandbytes in itertools.product(HF_QLORA_PRECISIONS, HF_QLORA_TRAINING, BITSANDBYTES):
        yield dict(family="llama", **FLASH_ALIGNED_SHAPES[0], **precision, **training, bitsandbytes=bitsandbytes,
                   recompute="none", dropout=0.0, attention="sdpa")
    # ... and its QLoRA (torchao's NF4 base: every projection; the head stays BF16)
    for shape, training, packed in itertools.product(LLAMA_SHAPES, TORCHTUNE_QLORA, [False, True]):
        yield dict(family="torchtune", **shape, weights="bf16", **training, recompute="none", dropout=0.0,
                   attention="sdpa", packed=packed)
    # Hugging Face's Mixtral: the sparse MoE block in place of the MLP, routing balanced; full
    # training, and LoRA on attention
    for shape, precision, training, attention in itertools.product(
            MOE_SHAPES, PRECISIONS, LLAMA_TRAINING[:2], ["eager", "sdpa"]):
        yield dict(family="mixtral", **shape, **precision, **training, recompute="none", dropout=0.0,
                   attention=attention)
    # ... and its QLoRA: the router and the experts are bitsandbytes' 4-bit linears as well
    for shape, precision, bitsandbytes, recompute in itertools.product(
            MOE_SHAPES + [MOE_ALIGNED_SHAPE], HF_QLORA_PRECISIONS, BITSANDBYTES, RECOMPUTE):
        yield dict(family="mixtral", **shape, **precision, **HF_QLORA_TRAINING[0], bitsandbytes=bitsandbytes,
                   recompute=recompute, dropout=0.0, attention="sdpa")
    for precision, training in itertools.product(PRECISIONS, LLAMA_TRAINING[:2]):
        yield dict(family="mixtral", **MOE_ALIGNED_SHAPE, **precision, **training, recompute="none", dropout=0.0,
                   attention="sdpa")
    # ... every token routed to the last expert, the one whose moments are the block's widest
    for precision, training in itertools.product(PRECISIONS, LLAMA_TRAINING[:2]):
        yield dict(family="mixtral", **MOE_ALIGNED_SHAPE, **precision, **training, recompute="none", dropout=0.0,
                   attention="sdpa", expert_load="every-token")
    for precision, bitsandbytes in itertools.product(HF_QLORA_PRECISIONS, BITSANDBYTES):
        yield dict(family="mixtral", **MOE_ALIGNED_SHAPE, **precision, **HF_QLORA_TRAINING[0],
                   bitsandbytes=bitsandbytes, recompute="full", dropout=0.0, attention="sdpa",
                   expert_load="every-token")
    # ... with LoRA on every expert's w1, w3 and w2 too, with and without dropout, in each precision,
    # with FP32 adapters over BF16, with the head, and as QLoRA; and on the router too (PEFT's
    # "all-linear")
    for shape, precision, dropout in itertools.product([MOE_SHAPES[0], MOE_ALIGNED_SHAPE], PRECISIONS, [False, True]):
        yield dict(family="mixtral", **shape, **precision, **dict(LLAMA_TRAINING[2], lora_dropout=dropout),
                   recompute="none", dropout=0.0, attention="sdpa")
    yield dict(family="mixtral", **MOE_ALIGNED_SHAPE, weights="bf16", adapter_dtype="fp32", **LLAMA_TRAINING[2],
               recompute="none", dropout=0.0, attention="sdpa")
    yield dict(family="mixtral", **MOE_SHAPES[0], weights="bf16",
               **dict(LLAMA_TRAINING[2], lora_targets=LLAMA_TRAINING[2]["lora_targets"] + ["head"]),
               recompute="none", dropout=0.0, attention="sdpa")
    for precision, bitsandbytes in itertools.product(HF_QLORA_PRECISIONS, BITSANDBYTES):
        yield dict(family="mixtral", **MOE_ALIGNED_SHAPE, **precision, **dict(LLAMA_TRAINING[2], finetune="qlora"),
                   bitsandbytes=bitsandbytes, recompute="none", dropout=0.0, attention="sdpa")
    all_linear = dict(LLAMA_TRAINING[2], lora_targets=LLAMA_TRAINING[2]["lora_targets"] + ["router"])
    for precision in PRECISIONS:
        yield dict(family="mixtral", **MOE_ALIGNED_SHAPE, **precision, **all_linear, recompute="none", dropout=0.0,
                   attention="sdpa")
    for precision, bitsandbytes in itertools.product(HF_QLORA_PRECISIONS[:2], BITSANDBYTES):
        yield dict(family="mixtral", **MOE_ALIGNED_SHAPE, **precision, **dict(all_linear, finetune="qlora"),
                   bitsandbytes=bitsandbytes, recompute="none", dropout=0.0, attention="sdpa")
    # lit-gpt's LoRA and QLoRA fine-tuning (bf16-true, flash attention, no checkpointing)
    for shape, training in itertools.product(LLAMA_SHAPES, LITGPT_TRAINING):
        yield dict(family="litgpt", **shape, weights="bf16", **training, recompute="none", dropout=0.0)
    for shape, training in itertools.product(NEOX_SHAPES, LITGPT_TRAINING):
        yield dict(family="litgpt-neox", **shape, weights="bf16", **training, recompute="none", dropout=0.0)
    # ... its QLoRA with bitsandbytes 0.43.2 or newer, whose 4-bit linear keeps no input
    for family, shape in (("litgpt", LLAMA_SHAPES[1]), ("litgpt-neox", NEOX_SHAPES[0])):
        yield dict(family=family, **shape, weights="bf16", **dict(LITGPT_TRAINING[3], bitsandbytes="0.43.2+"),
                   recompute="none", dropout=0.0)
    for family, shape, training in itertools.chain(
            itertools.product(["litgpt"], LLAMA_SHAPES + [LONG_SHAPE, dict(LONG_SHAPE, batch=2)], LITGPT_HEAD + [
                dict(finetune="qlora", lora_targets=["v", "head"], lora_rank=8, lora_dropout=False,
                     bitsandbytes="0.43.1")]),
            itertools.product(["litgpt-neox"], NEOX_SHAPES[:2], LITGPT_HEAD)):
        yield dict(family=family, **shape, weights="bf16", **training, recompute="none", dropout=0.0)
    # ... and in bf16-mixed (autocast over FP32 weights; lit-gpt refuses QLoRA with it), one
    # sequence long enough for the LM head to run three chunks of 128 tokens
    for family, shape, training in itertools.chain(
            itertools.product(["litgpt"], LLAMA_SHAPES + [LONG_SHAPE], LITGPT_TRAINING[:3] + LITGPT_HEAD),
            itertools.product(["litgpt-neox"], NEOX_SHAPES + [dict(NEOX_SHAPES[1], **LONG_SHAPE)],
                              LITGPT_TRAINING[:3])):
        yield dict(family=family, **shape, weights="fp32", autocast="bf16", **training, recompute="none",
                   dropout=0.0)
    # PyTorch before 2.2: torch.mean keeps its input, so each RMSNorm written with mean saves x²
    # (lit-gpt's LoRA in bf16-true, Hugging Face's Llama in FP32 and under autocast, torchtitan)
    for shape, training in itertools.product(LLAMA_SHAPES[:2], [LITGPT_TRAINING[1], LITGPT_TRAINING[3]]):
        yield dict(family="litgpt", **shape, weights="bf16", **training, recompute="none", dropout=0.0,
                   pytorch="2.1")
    for shape, precision, training in itertools.product(LLAMA_SHAPES[:2], PRECISIONS, LLAMA_TRAINING[:2]):
        yield dict(family="llama", **shape, **precision, **training, recompute="none", dropout=0.0,
                   attention="sdpa", pytorch="2.1")
    for shape, recompute in itertools.product(LLAMA_SHAPES[:1], RECOMPUTE):
        yield dict(family="torchtitan", **shape, **PRECISIONS[0], finetune="full", recompute=recompute,
                   dropout=0.0, attention="sdpa", pytorch="2.1")
    yield dict(family="torchtune", **LLAMA_SHAPES[1], **PRECISIONS[0], finetune="full", recompute="none",
               dropout=0.0, attention="sdpa", packed=True, pytorch="2.1")
    # PyTorch before 1.11: softmax and log_softmax keep their input as well (eager attention's
    # scores, the router's logits, the loss's FP32 logits), and mean still does
    for family, precision, p in itertools.product(["gpt2", "bert"], PRECISIONS, [0.0, 0.1]):
        yield dict(family=family, **MHA_SHAPES[0], **precision, finetune="full", recompute="none", dropout=p,
                   pytorch="1.10")
    for shape, precision, training in itertools.product(LLAMA_SHAPES[:2], PRECISIONS, LLAMA_TRAINING[:2]):
        yield dict(family="llama", **shape, **precision, **training, recompute="none", dropout=0.0, pytorch="1.10")
    for precision in PRECISIONS:
        yield dict(family="mixtral", **MOE_SHAPES[0], **precision, finetune="full", recompute="none", dropout=0.0,
                   attention="eager", pytorch="1.10")
    # Liger Kernel's patch of Hugging Face's Llama code: its RMSNorm, SwiGLU and fused linear
    # cross-entropy (the in-place RoPE keeps the same bytes as Hugging Face's)
    for shape, precision, training, recompute in itertools.product(
            LLAMA_SHAPES[:2], PRECISIONS, LLAMA_TRAINING[:3], RECOMPUTE):
        yield dict(family="llama", **shape, **precision, **training, recompute=recompute, dropout=0.0,
                   attention="sdpa", liger=True)
    # lit-gpt's loss backward (loss_working_set), the head frozen
    for (family, shape), training in itertools.product(zip(["litgpt", "litgpt-neox"], LITGPT_LOSS_SHAPES),
                                                       LITGPT_TRAINING[1:2] + LITGPT_TRAINING[3:]):
        yield dict(family=family, **shape, weights="bf16", **training, recompute="none", dropout=0.0)
    # Eager attention at a sequence long enough for the softmax's backward to be the widest moment
    for precision, training in itertools.product(PRECISIONS, LLAMA_TRAINING[:4]):
        yield dict(family="llama", **EAGER_LONG_SHAPE, **precision, **training, recompute="none", dropout=0.0)
    for family, precision in itertools.product(["gpt2", "bert"], PRECISIONS):
        yield dict(family=family, **dict(EAGER_LONG_SHAPE, kv_heads=EAGER_LONG_SHAPE["heads"]), **precision,
                   finetune="full", recompute="none", dropout=0.0)
    # Backward's working set where the flash kernels round nothing: Hugging Face's Llama (and with
    # Liger's kernels), torchtitan, lit-gpt's Llama and GPT-NeoX blocks (QLoRA in bf16-true only)
    llama_aligned, neox_aligned = FLASH_ALIGNED_SHAPES
    for precision, training, liger in itertools.product(PRECISIONS, LLAMA_TRAINING[:4], [{}, dict(liger=True)]):
        yield dict(family="llama", **llama_aligned, **precision, **training, recompute="none", dropout=0.0,
                   attention="sdpa", **liger)
    for precision in PRECISIONS:
        yield dict(family="torchtitan", **llama_aligned, **precision, finetune="full", recompute="none", dropout=0.0,
                   attention="sdpa")
    for precision, packed in itertools.product(PRECISIONS[:2], [False, True]):
        yield dict(family="torchtune", **llama_aligned, **precision, finetune="full", recompute="none", dropout=0.0,
                   attention="sdpa", packed=packed)
    for training in TORCHTUNE_QLORA:
        yield dict(family="torchtune", **llama_aligned, weights="bf16", **training, recompute="none", dropout=0.0,
                   attention="sdpa")
    for family, shape in (("litgpt", llama_aligned), ("litgpt-neox", neox_aligned)):
        for precision, training in itertools.product([PRECISIONS[0], PRECISIONS[2]], LITGPT_TRAINING):
            if training["finetune"] != "qlora" or precision == PRECISIONS[0]:
                yield dict(family=family, **shape, **precision, **training, recompute="none", dropout=0.0)
    for family, shape, precision, p, recompute in itertools.product(
            ["gpt2", "bert"], MHA_SHAPES, PRECISIONS, [0.0, 0.1], RECOMPUTE):
        yield dict(family=family, **shape, **precision, finetune="full", recompute=recompute, dropout=p)
    # Qwen3's q_norm and k_norm over each head: Hugging Face's dense block (eager and SDPA, with
    # Liger's RMSNorm, before PyTorch 2.2) and its MoE block, torchtitan's (with TP) and torchtune's
    # (with Qwen2's RoPE, which its Qwen3 uses, packed or not)
    qk = dict(recompute="none", dropout=0.0, qk_norm=True)
    for shape, precision, training, attention in itertools.product(
            LLAMA_SHAPES[:2], PRECISIONS, LLAMA_TRAINING[:2], [{}, dict(attention="sdpa")]):
        yield dict(family="llama", **shape, **precision, **training, **attention, **qk)
    for precision, extra in itertools.product(PRECISIONS, [dict(liger=True), dict(pytorch="2.1")]):
        yield dict(family="llama", **LLAMA_SHAPES[0], **precision, **LLAMA_TRAINING[0], attention="sdpa", **extra, **qk)
    for precision in PRECISIONS:
        yield dict(family="mixtral", **MOE_SHAPES[0], **precision, finetune="full", attention="sdpa", **qk)
    for shape, precision in itertools.product(LLAMA_SHAPES[:2], PRECISIONS):
        yield dict(family="torchtitan", **shape, **precision, finetune="full", attention="sdpa", **qk)
    yield dict(family="torchtitan", **LLAMA_SHAPES[1], **PRECISIONS[0], finetune="full", attention="sdpa", tp=2, **qk)
    for shape, precision, training, packed in itertools.product(
            LLAMA_SHAPES[:2], PRECISIONS[:2], LLAMA_TRAINING[:2], [False, True]):
        yield dict(family="torchtune", **shape, **precision, **training, attention="sdpa", packed=packed, **qk)
    # Gemma's blocks in Hugging Face's code: Gemma (its RMSNorm's 1 + weight in FP32), Gemma-3
    # (four norms a layer, query/key norms) and Gemma-2 (four norms, soft-capped scores and logits,
    # eager attention as transformers advises for it); sliding windows change nothing saved here
    gemma = dict(recompute="none", dropout=0.0, zero_centered_norm=True)
    for shape, precision, training, attention in itertools.product(
            LLAMA_SHAPES[:2], PRECISIONS, LLAMA_TRAINING[:2] + LLAMA_TRAINING[4:5], [{}, dict(attention="sdpa")]):
        yield dict(family="llama", **shape, **precision, **training, **attention, **gemma)
    for shape, precision, training, attention in itertools.product(
            LLAMA_SHAPES[:2], PRECISIONS, LLAMA_TRAINING[:3], [{}, dict(attention="sdpa")]):
        yield dict(family="llama", **shape, **precision, **training, **attention, **gemma, norms=4, qk_norm=True)
    for shape, precision, training in itertools.product(LLAMA_SHAPES[:2], PRECISIONS, LLAMA_TRAINING[:2]):
        yield dict(family="llama", **shape, **precision, **training, **gemma, norms=4, soft_capping=True)
    for precision, pytorch in itertools.product(PRECISIONS, ["2.1", "1.10"]):
        yield dict(family="llama", **LLAMA_SHAPES[0], **precision, **LLAMA_TRAINING[0], **gemma, norms=4,
                   soft_capping=True, pytorch=pytorch)
    for precision in PRECISIONS:
        yield dict(family="llama", **llama_aligned, **precision, **LLAMA_TRAINING[0], attention="sdpa",
                   **gemma, norms=4, qk_norm=True)
        yield dict(family="llama", **LLAMA_SHAPES[1], **precision, **LLAMA_TRAINING[0], attention="sdpa",
                   **dict(gemma, recompute="full"), norms=4, qk_norm=True)
    # PEFT 0.12 and later over a model trained in 16 bits without autocast: FP32 adapters
    # (autocast_adapter_dtype), each casting its input up, their sums cast back; recomputed or not,
    # and where the flash kernels round nothing (the working set pinned)
    for shape, training, recompute in itertools.product(LLAMA_SHAPES[:2], LLAMA_TRAINING[1:], RECOMPUTE):
        yield dict(family="llama", **shape, weights="bf16", adapter_dtype="fp32", **training, recompute=recompute,
                   dropout=0.0)
    for training in LLAMA_TRAINING[1:4]:
        yield dict(family="llama", **FLASH_ALIGNED_SHAPES[0], weights="bf16", adapter_dtype="fp32", **training,
                   recompute="none", dropout=0.0, attention="sdpa")
    for training in LLAMA_TRAINING[1:2]:
        yield dict(family="mixtral", **MOE_ALIGNED_SHAPE, weights="bf16", adapter_dtype="fp32", **training,
                   recompute="none", dropout=0.0, attention="sdpa")
    # Hugging Face's attention before transformers 4.48 where it repeats K and V to every head before
    # the kernel (Mistral's, Mixtral's and Qwen2's flash_attention_2, every SDPA class): GQA, and a
    # single KV head, whose repetition stays a view (but under autocast, where the kernel's cast of
    # an FP32 key copies it to every head or not as the release's RoPE tables' dtype decides), trained
    # whole or with LoRA, recomputed or not; and where the flash kernels round nothing, Mixtral and
    # QLoRA among them
    for shape, precision, training, recompute in itertools.product(
            LLAMA_SHAPES[1:], PRECISIONS, LLAMA_TRAINING[:2], RECOMPUTE):
        if shape["kv_heads"] > 1 or "autocast" not in precision:
            yield dict(family="llama", **shape, **precision, **training, recompute=recompute, dropout=0.0,
                       attention="sdpa", kv_repeat=True)
    for precision, training in itertools.product(PRECISIONS, LLAMA_TRAINING[:2]):
        for family, shape in (("llama", FLASH_ALIGNED_SHAPES[0]), ("mixtral", MOE_ALIGNED_SHAPE)):
            yield dict(family=family, **shape, **precision, **training, recompute="none", dropout=0.0,
                       attention="sdpa", kv_repeat=True)
    for precision, bitsandbytes in itertools.product(HF_QLORA_PRECISIONS, BITSANDBYTES):
        yield dict(family="llama", **FLASH_ALIGNED_SHAPES[0], **precision, **HF_QLORA_TRAINING[0],
                   bitsandbytes=bitsandbytes, recompute="full", dropout=0.0, attention="sdpa", kv_repeat=True)


def rows():
    for c in configs():
        c.setdefault("adapter_dtype", c["weights"])  # litgpt and older PEFT: the base layer's dtype
        layer, layer_casts = saved_tensors.count_layer(c)
        outside, outside_casts = saved_tensors.count_outside(c)
        recomputed = {"recomputed": saved_tensors.count_recomputed(c)} if c["recompute"] == "full" else {}
        yield dict(config=c, layer=layer, **recomputed, outside=outside, weight_casts=layer_casts + outside_casts,
                   working_set=saved_tensors.backward_working_set(c),
                   loss_working_set=saved_tensors.count_outside(c, loss_backward=True) if measures_loss(c) else None)


def measures_loss(c):
    """A lit-gpt configuration of LITGPT_LOSS_SHAPES: its loss's backward is measured."""
    return c["family"].startswith("litgpt") and any(
        all(c.get(key) == value for key, value in shape.items()) for shape in LITGPT_LOSS_SHAPES)


SAVED_TENSORS_HEADER = [
    "# What PyTorch's autograd saves for backward, counted by tests/oracle/generate.py (do not edit:",
    "# regenerate it). Unique storages in bytes, largest first, for one layer of Hugging Face",
    "# transformers' Llama, Mixtral, GPT-2 and BERT code, torchtitan's and torchtune's Llama and lit-gpt's",
    "# blocks, and for what lies outside the layers (embeddings, final norm, head, loss);",
    "# weight_casts: 16-bit copies of FP32 weights that autocast keeps until backward;",
    "# recomputed (under full recomputation): what the layer saves again while it is recomputed in backward, beyond its input;",
    "# working_set: the most one layer's backward holds at once beyond what was alive when it began (null: not measured);",
    "# loss_working_set: the same for lit-gpt's head and loss, whose loop keeps the FP32 logits (null: not measured).",
]
WHOLE_MODEL_HEADER = [
    "# What a whole model holds at its layers' backward, measured by tests/oracle/generate.py (do not edit:",
    "# regenerate it): Hugging Face's Llama, Mixtral and GPT-2 causal LMs and BERT classifier of `layers` layers,",
    "# forward, loss and backward under the profiler (tests/oracle/whole_model.py). last_layer_backward: for",
    "# each of `batches`, the most held at once in the last layer's backward beyond what was held when forward",
    "# began, in bytes; first_layer_backward: the same in the first layer's, to the end of backward.",
]
ALLOCATOR_HEADER = [
    "# What PyTorch's caching allocator holds beyond the tensors while a causal LM's loss runs, found by",
    "# tests/oracle/generate.py (do not edit: regenerate it): the loss's allocation stream on the CPU,",
    "# replayed through the allocator's rules for large blocks (tests/oracle/allocator_replay.py), with and",
    "# without expandable segments. held: the pool's peak less the tensors' peak, in bytes.",
]

NF4_HEADER = [
    "# What torchao holds while it dequantizes one NF4 weight for its linear (torchtune's QLoRA), found by",
    "# tests/oracle/generate.py (do not edit: regenerate it): NF4Tensor.get_original_weight op for op",
    "# (tests/oracle/torchao_nf4.py) under the profiler. held: the most it holds at once beyond the NF4",
    "# tensors, in bytes, for a weight of out × inp.",
]

OPTIMIZER_HEADER = [
    "# What torch.optim.AdamW's step holds for a Llama's FP32 parameters, found by tests/oracle/generate.py",
    "# (do not edit: regenerate it): the second step under the profiler (tests/oracle/optimizer_step.py).",
    "# foreach_held: the most the foreach step holds at once beyond the parameters, gradients and moments, in",
    "# bytes, in one param group; for_loop_held: the same for the for-loop step; *_trainer_groups_held: in the",
    "# Hugging Face Trainer's two groups.",
]


def render(header, rows):
    """A data file: its header, the PyTorch that ran, one JSON row a line."""
    lines = header + ["# PyTorch " + saved_tensors.torch.__version__.split("a")[0] + " on the CPU."]
    lines += ["- " + json.dumps(row) for row in rows]
    return "\n".join(lines) + "\n"


def main():
    files = [(DATA, render(SAVED_TENSORS_HEADER, rows()), "what PyTorch's autograd saves"),
             (WHOLE_MODEL_DATA, render(WHOLE_MODEL_HEADER, whole_model.rows()),
              "what a whole model holds at its layers' backward"),
             (ALLOCATOR_DATA, render(ALLOCATOR_HEADER, allocator_replay.rows()),
              "what the loss's allocations leave in the allocator's pool"),
             (NF4_DATA, render(NF4_HEADER, torchao_nf4.rows()), "what torchao's dequantization holds"),
             (OPTIMIZER_DATA, render(OPTIMIZER_HEADER, optimizer_step.rows()), "what AdamW's step holds")]
    for path, text, what in files:
        if "--check" in sys.argv:
            checked_in = path.read_text()
            if checked_in != text:
                sys.stdout.writelines(difflib.unified_diff(checked_in.splitlines(keepends=True),
                                                           text.splitlines(keepends=True),
                                                           f"{path.name} (checked in)", f"{path.name} (now)"))
                sys.exit(f"{path} differs from {what} now: run tests/oracle/generate.py")
            print(f"{path.name}: matches {what}")
        else:
            path.write_text(text)
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
