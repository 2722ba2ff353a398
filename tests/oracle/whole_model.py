"""A whole model of a few layers, forward, loss and backward under the profiler: what the step holds
at its layers' backward, where core's timeline places each layer's widest moment.

saved_tensors.py checks each piece alone (a layer's saved tensors, what it saves again when
recomputed, its backward's working set); this checks how they add up in a step. The model is
LlamaForCausalLM's, or GPT2LMHeadModel's (learned positions, dropout, the final LayerNorm, the head tied
to the embedding), or BertForSequenceClassification's (token-type and learned position embeddings,
LayerNorm and dropout; post-norm layers; the pooler on the first token, dropout, a 2-label
classifier): the embedding (under the reentrant checkpoint its output made to require grad
when nothing below it trains, as PEFT's enable_input_require_grads does), the layers, each under
torch.utils.checkpoint when recomputed (use_reentrant=True, as transformers defaults, unless the row
says use_reentrant false), the final norm, the head and the loss,
with the Trainer's batch held throughout (BERT's: the input ids and the token types, int64, as BERT's
tokenizer gives them for one sentence a row, and a label a sequence; no attention mask, which BertModel
then makes of ones in forward and frees with it). BERT's extended mask, one value a token that BertModel
builds each step and the reentrant checkpoint keeps as an input of every layer, is built with the layers
here and counted by neither.
A hook on each layer's output marks, in the profiler's event stream, where that layer's backward
begins; the last layer's backward runs from its mark to the next one.

Rows are measured at two batch sizes: what the step holds beyond its start grows by the same bytes a
sequence at every moment, while the weights, their gradients and casts, and what the CPU's kernels
round do not; the difference is what the test compares.
"""

import itertools

import torch
import torch.nn.functional as F

import saved_tensors as st

LAYERS = 3
BATCHES = (2, 3)
# Shapes where the MLP's backward is each layer's widest moment: the flash kernel's stand-in
# materializes the scores, which at a narrower MLP would be wider in the recomputed forward than
# anything the real kernel allocates.
LLAMA = dict(family="llama", hidden=128, heads=4, kv_heads=2, ffn=688, seq=128, vocab=72, attention="sdpa")
TRAINING = [
    dict(finetune="full"),
    dict(finetune="lora", lora_targets=["q", "k", "v", "o"], lora_rank=4, lora_dropout=False),
]
PRECISIONS = [
    dict(weights="bf16"),
    dict(weights="fp32"),
    dict(weights="fp32", autocast="bf16"),
]
# Mixtral's sparse MoE block in real proportions (the MLP 3.5 times the stream, a quarter of the
# tokens to each expert): recomputed, its last expert's forward is wider than its backward. With LoRA
# only: trained whole, the experts' weight gradients, made during the layer's backward, outweigh its
# tokens' tensors at this size, so that the widest moment moves with the batch.
MIXTRAL = dict(family="mixtral", hidden=128, heads=4, kv_heads=2, ffn=448, seq=128, vocab=72, experts=8, top_k=2,
               attention="sdpa")
ALL_LINEAR = ["q", "k", "v", "o", "gate", "up", "down"]
MIXTRAL_QLORA = dict(weights="bf16", adapter_dtype="fp32", finetune="qlora", lora_targets=["q", "k", "v", "o"],
                     lora_rank=4, lora_dropout=True)
# GPT-2's block (eager attention, GELU MLP, LayerNorm) trained whole, with dropout.
GPT2 = dict(family="gpt2", hidden=128, heads=4, kv_heads=4, ffn=512, seq=128, vocab=72)
# BERT's block (eager attention, GELU MLP, post-norm LayerNorm) trained whole, with dropout, at more
# sequences: under autocast the output dense's backward is the MLP's widest moment a token, but below
# about 4 sequences here GELU's backward is, beside the FP32 gradient of a weight cast up from its
# 16-bit one, which does not grow with the batch.
BERT = dict(GPT2, family="bert")
BERT_BATCHES = (5, 6)
# The non-reentrant checkpoint over an FP32 stream under autocast: below four sequences another moment
# of the layer's backward, with a part that does not grow with the batch, is wider than the MLP's
# (what the peak adds for one more sequence differs there); from four on the MLP's backward is the
# widest, as in every other row.
NON_REENTRANT_AUTOCAST_BATCHES = (4, 5)
BITSANDBYTES = ("0.43.1", "0.43.2+")
# Hugging Face's QLoRA over an FP32 base (prepare_model_for_kbit_training) under autocast, with
# bitsandbytes before 0.43.2 (its 4-bit linear keeps its input) and K and V repeated to every head:
# fms-acceleration's Mistral-7B runs.
QLORA_FP32_BASE = dict(weights="fp32", autocast="bf16", adapter_dtype="fp32", finetune="qlora",
                       lora_targets=["q", "k", "v", "o"], lora_rank=4, lora_dropout=True, bitsandbytes="0.43.1",
                       kv_repeat=True)


def configs():
    for precision in PRECISIONS:
        for training in TRAINING:
            for recompute in ("none", "full"):
                yield dict(LLAMA, **precision, adapter_dtype=precision["weights"], **training, recompute=recompute,
                           dropout=0.0)
    for recompute in ("none", "full"):
        yield dict(LLAMA, **QLORA_FP32_BASE, recompute=recompute, dropout=0.0)
    # The non-reentrant checkpoint (gradient_checkpointing_kwargs={"use_reentrant": False}, as TRL's
    # recipes set it): forward runs with autograd on, each layer's graph kept with its saved tensors
    # dropped, and recomputed in backward as they are unpacked. With bitsandbytes before 0.43.2 the
    # 4-bit linears' inputs outlive the checkpoint, an attribute of the kept graph's context.
    for precision in PRECISIONS:
        for training in TRAINING:
            yield dict(LLAMA, **precision, adapter_dtype=precision["weights"], **training, recompute="full",
                       use_reentrant=False, dropout=0.0)
    for bitsandbytes in BITSANDBYTES:
        yield dict(LLAMA, **dict(QLORA_FP32_BASE, bitsandbytes=bitsandbytes), recompute="full", use_reentrant=False,
                   dropout=0.0)
    for recompute, expert_load in itertools.product(("none", "full"), ("balanced", "every-token")):
        yield dict(MIXTRAL, weights="bf16", adapter_dtype="bf16", **TRAINING[1], recompute=recompute, dropout=0.0,
                   expert_load=expert_load)
    # Under the non-reentrant checkpoint too the recomputation runs inside the layer's backward (once
    # it first unpacks a saved tensor), beside the gradient it started from, and its last expert is a
    # moment of its own.
    for expert_load in ("balanced", "every-token"):
        yield dict(MIXTRAL, weights="bf16", adapter_dtype="bf16", **TRAINING[1], recompute="full",
                   use_reentrant=False, dropout=0.0, expert_load=expert_load)
    # Hugging Face's QLoRA of Mixtral: a BF16 model whose router and experts are bitsandbytes' 4-bit
    # linears too, PEFT's FP32 adapters with dropout on attention; both bitsandbytes releases, without
    # and with either checkpoint. Recomputed, the last expert's forward is the layer's widest moment;
    # with 0.43.1 under the non-reentrant checkpoint the recomputed forward's last op is, at any load:
    # the graph it built holds every 4-bit input again until the recomputation returns.
    for recompute, bitsandbytes, expert_load, reentrant in (
            ("none", "0.43.2+", "balanced", True), ("none", "0.43.1", "balanced", True),
            ("full", "0.43.2+", "balanced", True), ("full", "0.43.2+", "every-token", True),
            ("full", "0.43.1", "balanced", True), ("full", "0.43.2+", "balanced", False),
            ("full", "0.43.1", "balanced", False), ("full", "0.43.1", "every-token", False)):
        yield dict(MIXTRAL, **MIXTRAL_QLORA, bitsandbytes=bitsandbytes, recompute=recompute,
                   **({} if reentrant else dict(use_reentrant=False)), dropout=0.0, expert_load=expert_load)
    # LoRA on every expert's w1, w3 and w2 too: recomputed, the last expert's forward walks its
    # adapters' transient tensors (each base and adapter output, PEFT's casts, the sums), with and
    # without dropout, at either load, under either checkpoint; FP32 adapters over BF16; and as QLoRA
    # with both bitsandbytes releases. Then on the router too (PEFT's "all-linear").
    moe_lora = dict(MIXTRAL, finetune="lora", lora_targets=ALL_LINEAR, lora_rank=4, dropout=0.0)
    for lora_dropout, recompute, reentrant, expert_load in (
            (False, "full", True, "balanced"), (False, "full", False, "every-token"), (True, "none", True, "balanced"),
            (True, "full", True, "every-token"), (True, "full", False, "balanced")):
        yield dict(moe_lora, weights="bf16", adapter_dtype="bf16", lora_dropout=lora_dropout, recompute=recompute,
                   **({} if reentrant else dict(use_reentrant=False)), expert_load=expert_load)
    for reentrant in (True, False):
        checkpoint = {} if reentrant else dict(use_reentrant=False)
        yield dict(moe_lora, weights="bf16", adapter_dtype="fp32", lora_dropout=True, recompute="full", **checkpoint,
                   expert_load="balanced")
        for bitsandbytes in BITSANDBYTES:
            yield dict(MIXTRAL, **dict(MIXTRAL_QLORA, lora_targets=ALL_LINEAR), bitsandbytes=bitsandbytes,
                       recompute="full", **checkpoint, dropout=0.0, expert_load="balanced")
    moe_all_linear = ALL_LINEAR + ["router"]
    for recompute, adapter_dtype, reentrant, expert_load in (
            ("none", "bf16", True, "balanced"), ("full", "bf16", True, "balanced"),
            ("full", "fp32", False, "every-token")):
        yield dict(moe_lora, lora_targets=moe_all_linear, weights="bf16", adapter_dtype=adapter_dtype,
                   lora_dropout=True, recompute=recompute, **({} if reentrant else dict(use_reentrant=False)),
                   expert_load=expert_load)
    for bitsandbytes, reentrant in (("0.43.1", False), ("0.43.2+", True)):
        yield dict(MIXTRAL, **dict(MIXTRAL_QLORA, lora_targets=moe_all_linear), bitsandbytes=bitsandbytes,
                   recompute="full", **({} if reentrant else dict(use_reentrant=False)), dropout=0.0,
                   expert_load="balanced")
    for model, precision in itertools.product((GPT2, BERT), PRECISIONS):
        for recompute in ("none", "full"):
            yield dict(model, **precision, adapter_dtype=precision["weights"], finetune="full", recompute=recompute,
                       dropout=0.1)
    # GPT-2's and BERT's dropout under the non-reentrant checkpoint, whose recomputation replays the
    # RNG state of forward: the masks are made again like every other saved tensor.
    for precision in PRECISIONS:
        yield dict(GPT2, **precision, adapter_dtype=precision["weights"], finetune="full", recompute="full",
                   use_reentrant=False, dropout=0.1)
    yield dict(BERT, weights="bf16", adapter_dtype="bf16", finetune="full", recompute="full", use_reentrant=False,
               dropout=0.1)
    # PEFT's LoRA on every projection with dropout, the recipe's "all-linear": recomputed, the MLP's
    # adapters' forward (each base and adapter output, their sum, PEFT's cast of the input) can hold
    # more than the backward after it. In BF16, with FP32 adapters over a BF16 model (PEFT's default:
    # on every projection, on the MLP's gate and up alone, on down alone) and as QLoRA, under either
    # checkpoint.
    lora_dropout = dict(finetune="lora", lora_rank=4, lora_dropout=True, recompute="full", dropout=0.0)
    for reentrant in (True, False):
        checkpoint = {} if reentrant else dict(use_reentrant=False)
        yield dict(LLAMA, weights="bf16", adapter_dtype="bf16", **lora_dropout, lora_targets=ALL_LINEAR, **checkpoint)
        for targets in (ALL_LINEAR, ["gate", "up"], ["down"]):
            yield dict(LLAMA, weights="bf16", adapter_dtype="fp32", **lora_dropout, lora_targets=targets, **checkpoint)
        for bitsandbytes in BITSANDBYTES:
            yield dict(LLAMA, weights="bf16", adapter_dtype="fp32", **dict(lora_dropout, finetune="qlora"),
                       lora_targets=ALL_LINEAR, bitsandbytes=bitsandbytes, **checkpoint)
        # An FP32 model, its stream the second norm's saved FP32 input itself; under autocast (each
        # adapter's input cast to 16 bits op by op) on every projection, on gate and up, on down;
        # and as QLoRA over an FP32 base under autocast, where bitsandbytes' projections of the FP32
        # stream compute in FP32 and PEFT leaves the adapters' input and output as they come.
        yield dict(LLAMA, weights="fp32", adapter_dtype="fp32", **lora_dropout, lora_targets=ALL_LINEAR, **checkpoint)
        for targets in (ALL_LINEAR, ["gate", "up"], ["down"]):
            yield dict(LLAMA, weights="fp32", autocast="bf16", adapter_dtype="fp32", **lora_dropout,
                       lora_targets=targets, **checkpoint)
        for bitsandbytes in BITSANDBYTES:
            yield dict(LLAMA, **dict(QLORA_FP32_BASE, bitsandbytes=bitsandbytes, lora_targets=ALL_LINEAR),
                       recompute="full", dropout=0.0, **checkpoint)
    # Eager attention (softmax in FP32) and PyTorch before 2.2 (mean keeping its input), recomputed.
    yield dict(LLAMA, attention="eager", weights="bf16", adapter_dtype="bf16", finetune="full", recompute="full",
               dropout=0.0)
    yield dict(LLAMA, weights="bf16", adapter_dtype="bf16", finetune="full", recompute="full", dropout=0.0,
               pytorch="2.1")
    # Qwen3's layer: Llama's with an RMSNorm over each head's queries and keys before rotary.
    for recompute in ("none", "full"):
        yield dict(LLAMA, weights="bf16", adapter_dtype="bf16", finetune="full", recompute=recompute, dropout=0.0,
                   qk_norm=True)


def mark(name):
    with torch.profiler.record_function(name):
        pass


def layers_backward(c, batch):
    """For each layer, first to last, the most held at once during its backward beyond what was
    held when forward began, in bytes (the first layer's runs to the end of backward)."""
    st.MatMul4Bit.hooks_see_kept_input = False  # bitsandbytes keeps its input in the context alone
    try:
        return layers_backward_of(dict(c, batch=batch))
    finally:
        st.MatMul4Bit.hooks_see_kept_input = True


def layers_backward_of(c):
    """layers_backward() for a configuration that holds its batch."""
    torch.manual_seed(0)
    w = st.DTYPES[c["weights"]]
    trains = c["finetune"] == "full"
    b, s, h, vocab = c["batch"], c["seq"], c["hidden"], c["vocab"]
    layers = [st.LAYERS[c["family"]](c) for _ in range(LAYERS)]
    embed = st.parameter((vocab, h), w, trains)
    gpt2, bert = c["family"] == "gpt2", c["family"] == "bert"
    if gpt2:  # GPT2Model's wpe and ln_f; GPT2LMHeadModel's lm_head is wte
        positions = st.parameter((s, h), w, trains)
        norm = (st.parameter((h,), w, trains), st.parameter((h,), w, trains))
        head = embed
        extra = [positions, *norm]
    elif bert:  # BertEmbeddings' token-type and position tables and LayerNorm, BertPooler, the classifier
        types, positions = st.parameter((2, h), w, trains), st.parameter((s, h), w, trains)
        norm = (st.parameter((h,), w, trains), st.parameter((h,), w, trains))
        pooler = (st.parameter((h, h), w, trains), st.parameter((h,), w, trains))
        classifier = (st.parameter((2, h), w, trains), st.parameter((2,), w, trains))
        extra = [types, positions, *norm, *pooler, *classifier]
        position_ids = torch.arange(s).unsqueeze(0)  # BertEmbeddings' registered buffer
    else:
        norm, head = st.parameter((h,), w, trains), st.parameter((vocab, h), w, trains)
        extra = [norm, head]
    ops, stream = st.setup(c, [embed] + extra + [p for layer in layers for p in layer.params()])
    if gpt2 or bert:
        forward_of = lambda layer: lambda t: layer(ops, t)  # noqa: E731
    else:
        cos, sin = st.rotary(c, stream)  # computed once per model
        forward_of = lambda layer: lambda t: layer(ops, t, cos, sin)  # noqa: E731
    with st.memory_profile() as prof:
        mark("forward")
        # The Trainer's batch, moved to the GPU as the step begins and held through it: for a causal
        # LM the collator's input_ids, attention_mask and labels (the model here needs no mask).
        if bert:
            inputs = dict(input_ids=torch.randint(vocab, (b, s)), token_type_ids=torch.zeros(b, s, dtype=torch.long),
                          labels=torch.randint(2, (b,)))
        else:
            inputs = dict(input_ids=torch.randint(vocab, (b, s)), labels=torch.randint(vocab, (b, s)))
            inputs["attention_mask"] = torch.ones_like(inputs["input_ids"])
        x = F.embedding(inputs["input_ids"], embed)
        if bert:  # BertEmbeddings.forward: the sum, `embeddings += position_embeddings` in place
            x = x + F.embedding(inputs["token_type_ids"], types)
            x += F.embedding(position_ids, positions)
            x = st.dropout(st.layer_norm(ops, x, *norm), c["dropout"])
        if gpt2:
            x = st.dropout(x + F.embedding(torch.arange(s).unsqueeze(0), positions), c["dropout"])
        if not trains and c["recompute"] == "full":  # enable_input_require_grads, for the reentrant checkpoint
            x.requires_grad_(True)
        for i, layer in enumerate(layers):
            run = forward_of(layer)
            x = (torch.utils.checkpoint.checkpoint(run, x, use_reentrant=c.get("use_reentrant", True))
                 if c["recompute"] == "full" else run(x))
            x.register_hook((lambda i: lambda grad: mark(f"layer {i} backward"))(i))
        if bert:  # BertPooler on the first token, dropout, the classifier, CrossEntropyLoss
            pooled = st.dropout(torch.tanh(ops.linear(x[:, 0], *pooler)), c["dropout"])
            logits = ops.linear(pooled, *classifier)
            loss = st.cross_entropy(ops.fp32(logits).view(-1, 2), inputs["labels"].view(-1), c.get("pytorch"))
            del pooled
        else:
            if gpt2:
                logits = ops.linear(st.layer_norm(ops, x, *norm), head)
            else:
                logits = ops.linear(st.LlamaLayer.rms_norm(norm, x, c.get("pytorch")), head)
            loss = st.causal_lm_loss(logits, inputs["labels"], vocab, c.get("pytorch"))
        del x, logits
        if isinstance(ops, st.Autocast):  # the autocast region exits before backward
            ops.cache.clear()
            ops.weight_casts.clear()
        loss.backward()
    held, start, segment, peaks = 0, None, None, [None] * LAYERS
    for e in prof.profiler.kineto_results.events():
        if e.name() == "[memory]":
            held += e.nbytes()
            if segment is not None:
                peaks[segment] = max(peaks[segment], held - start)
        elif e.name() == "forward":
            start = held
        elif e.name().startswith("layer "):
            segment = int(e.name().split()[1])
            peaks[segment] = held - start
    return peaks


def rows():
    for c in configs():
        batches = (BERT_BATCHES if c["family"] == "bert"
                   else NON_REENTRANT_AUTOCAST_BATCHES if c.get("use_reentrant") is False and "autocast" in c
                   else BATCHES)
        peaks = [layers_backward(c, b) for b in batches]
        yield dict(config=c, layers=LAYERS, batches=list(batches),
                   last_layer_backward=[p[-1] for p in peaks], first_layer_backward=[p[0] for p in peaks])
