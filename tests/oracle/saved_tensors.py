"""The saved-tensor oracle: what PyTorch's autograd really keeps for backward.

Reference layers are written op for op as the named implementation computes them, and run on
the CPU under torch.autograd.graph.saved_tensors_hooks, which sees every tensor autograd saves.
Counted: the bytes of the *unique storages* saved (views share a storage and count once).
Not counted, because they are not activations of the layer:
  - parameters and module buffers (the model states account for them),
  - tensors shared by every layer that the model computes once (rotary cos/sin),
  - 16-bit copies of parameters made by autocast's cast cache (counted as their own item),
  - storages of at most one element (scalar constants: a few bytes, never modelled).

What the CPU cannot show: CUDA-only kernels (SDPA's flash and memory-efficient paths,
flash-attn, fused norms), allocator rounding and library workspaces. Those stay pinned to
papers and to published measurements.

Autocast is emulated op by op after CUDA's lists (aten/src/ATen/autocast_mode.cpp, PyTorch
1.13-2.x): linear and matmul cast their inputs to 16 bits, and autograd saves the casts;
casts of FP32 leaf parameters that require grad are cached for the whole region (one copy
per weight); pow, rsqrt and softmax(dtype=float32) run in FP32. CPU autocast has other lists,
which is why this emulation is explicit rather than torch.autocast('cpu').

Dropout is torch.native_dropout, the fused kernel CUDA runs (a 1-byte mask is saved); the
CPU's unfused dropout would save a full-width scale tensor instead.
"""

import torch
import torch.utils.checkpoint
import torch.nn.functional as F

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


class SavedStorages:
    """Collects the unique storages autograd saves inside a `with` block."""

    def __init__(self, exclude=()):
        self.excluded = {self._key(t) for t in exclude}
        self.storages = {}

    @staticmethod
    def _key(tensor):
        return tensor.storage().data_ptr()

    def _pack(self, tensor):
        key = self._key(tensor)
        storage = tensor.storage()
        if key not in self.excluded and storage.size() > 1:
            self.storages[key] = (storage.nbytes(), str(storage.dtype).replace("torch.", ""))
        return tensor

    def __enter__(self):
        self._hooks = torch.autograd.graph.saved_tensors_hooks(self._pack, lambda t: t)
        self._hooks.__enter__()
        return self

    def __exit__(self, *exc):
        self._hooks.__exit__(*exc)

    def sizes(self):
        """Bytes of each unique storage, largest first."""
        return sorted((nbytes for nbytes, _ in self.storages.values()), reverse=True)


class Autocast:
    """CUDA autocast to a 16-bit dtype, emulated op by op (see the module docstring)."""

    def __init__(self, low):
        self.low = low
        self.cache = {}  # autocast's cast cache: FP32 leaf parameters that require grad
        self.weight_casts = []  # every 16-bit copy of a parameter, cached or not

    def cast(self, tensor):
        if tensor is None or tensor.dtype == self.low:
            return tensor
        if tensor.is_leaf and tensor.requires_grad:
            key = tensor.storage().data_ptr()
            if key not in self.cache:
                self.cache[key] = tensor.to(self.low)
                self.weight_casts.append(self.cache[key])
            return self.cache[key]
        cast = tensor.to(self.low)
        if isinstance(tensor, torch.nn.Parameter) or tensor.is_leaf:
            self.weight_casts.append(cast)  # a frozen weight: autograd saves the cast, if anything
        return cast

    def linear(self, x, weight, bias=None):
        return F.linear(self.cast(x), self.cast(weight), self.cast(bias))

    def matmul(self, a, b):
        return torch.matmul(self.cast(a), self.cast(b))


class NoAutocast:
    """Plain execution: every op in the dtype of its inputs."""

    weight_casts = []

    @staticmethod
    def linear(x, weight, bias=None):
        return F.linear(x, weight, bias)

    @staticmethod
    def matmul(a, b):
        return torch.matmul(a, b)


def parameter(shape, dtype, trainable):
    return (torch.randn(*shape, dtype=torch.float32) * 0.02).to(dtype).requires_grad_(trainable)


class Lora:
    """PEFT's LoRA on one nn.Linear (peft/tuners/lora/layer.py, Linear.forward):
    result = base_layer(x) + lora_B(lora_A(dropout(x))) * scaling, adapters in the adapter dtype."""

    def __init__(self, in_features, out_features, rank, dtype, dropout):
        self.a = parameter((rank, in_features), dtype, True)
        self.b = parameter((out_features, rank), dtype, True)
        self.dropout = dropout

    def params(self):
        return [self.a, self.b]

    def __call__(self, ops, x):
        if self.dropout:
            x = torch.native_dropout(x, 0.05, True)[0]
        # PEFT casts x to lora_A's dtype (`x = self._cast_input_dtype(x, lora_A.weight.dtype)`).
        if not isinstance(ops, Autocast) and x.dtype != self.a.dtype:
            x = x.to(self.a.dtype)
        return ops.linear(ops.linear(x, self.a), self.b) * 2.0


class Projection:
    """nn.Linear, optionally wrapped by LoRA."""

    def __init__(self, in_features, out_features, dtype, trainable, bias=False, lora=None):
        self.weight = parameter((out_features, in_features), dtype, trainable)
        self.bias = parameter((out_features,), dtype, trainable) if bias else None
        self.lora = lora

    def params(self):
        own = [self.weight] + ([self.bias] if self.bias is not None else [])
        return own + (self.lora.params() if self.lora else [])

    def __call__(self, ops, x):
        out = ops.linear(x, self.weight, self.bias)
        return out + self.lora(ops, x) if self.lora else out


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaLayer:
    """transformers/models/llama/modeling_llama.py (v4.48-4.5x): LlamaDecoderLayer.forward with
    LlamaRMSNorm, LlamaAttention + eager_attention_forward (repeat_kv, softmax in FP32) and LlamaMLP
    (down_proj(act_fn(gate_proj(x)) * up_proj(x)), SiLU). Mistral and Qwen2 share this code
    (Qwen2 adds a QKV bias, which saves nothing more)."""

    def __init__(self, c):
        self.c = c
        weight = DTYPES[c["weights"]]
        trainable = c["finetune"] == "full"
        targets = c.get("lora_targets", [])
        h, a, g, d, f = c["hidden"], c["heads"], c["kv_heads"], c["hidden"] // c["heads"], c["ffn"]

        def proj(name, i, o, bias=False):
            lora = None
            if name in targets:
                lora = Lora(i, o, c["lora_rank"], DTYPES[c["adapter_dtype"]], c["lora_dropout"])
            return Projection(i, o, weight, trainable, bias, lora)

        self.norm1 = parameter((h,), weight, trainable)
        self.norm2 = parameter((h,), weight, trainable)
        self.q = proj("q", h, a * d, c.get("qkv_bias", False))
        self.k = proj("k", h, g * d, c.get("qkv_bias", False))
        self.v = proj("v", h, g * d, c.get("qkv_bias", False))
        self.o = proj("o", a * d, h)
        self.gate = proj("gate", h, f)
        self.up = proj("up", h, f)
        self.down = proj("down", f, h)

    def params(self):
        projections = [self.q, self.k, self.v, self.o, self.gate, self.up, self.down]
        return [self.norm1, self.norm2] + [p for proj in projections for p in proj.params()]

    @staticmethod
    def rms_norm(weight, x, eps=1e-6):
        # LlamaRMSNorm.forward
        input_dtype = x.dtype
        x = x.to(torch.float32)
        # .mean(-1) in the source. PyTorch 1.13's mean saves its input (its derivative read
        # self.numel()); from 2.0 it saves only sizes. sum / n saves what 2.x's mean saves.
        variance = x.pow(2).sum(-1, keepdim=True) / x.shape[-1]
        x = x * torch.rsqrt(variance + eps)
        return weight * x.to(input_dtype)

    def __call__(self, ops, x, cos, sin):
        c = self.c
        b, s, _ = x.shape
        a, g = c["heads"], c["kv_heads"]
        d = c["hidden"] // a

        residual = x
        x = self.rms_norm(self.norm1, x)
        # LlamaAttention.forward
        q = self.q(ops, x).view(b, s, a, d).transpose(1, 2)
        k = self.k(ops, x).view(b, s, g, d).transpose(1, 2)
        v = self.v(ops, x).view(b, s, g, d).transpose(1, 2)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # apply_rotary_pos_emb
        q = (q * cos) + (rotate_half(q) * sin)
        k = (k * cos) + (rotate_half(k) * sin)
        # eager_attention_forward
        k = self.repeat_kv(k, a // g)
        v = self.repeat_kv(v, a // g)
        scores = ops.matmul(q, k.transpose(2, 3)) * d**-0.5
        scores = scores + torch.triu(torch.full((s, s), float("-inf")), 1).to(scores.dtype)
        probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        out = ops.matmul(probs, v).transpose(1, 2).contiguous().reshape(b, s, a * d)
        x = residual + self.o(ops, out)

        residual = x
        x = self.rms_norm(self.norm2, x)
        x = self.down(ops, F.silu(self.gate(ops, x)) * self.up(ops, x))
        return residual + x

    @staticmethod
    def repeat_kv(x, n_rep):
        if n_rep == 1:
            return x
        b, g, s, d = x.shape
        return x[:, :, None, :, :].expand(b, g, n_rep, s, d).reshape(b, g * n_rep, s, d)


def rotary(c, dtype):
    """LlamaRotaryEmbedding.forward: computed once per model in FP32, then cast to the dtype of
    the hidden states (FP32 under autocast with FP32 weights)."""
    d = c["hidden"] // c["heads"]
    inv_freq = 1.0 / (10000 ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
    freqs = torch.outer(torch.arange(c["seq"], dtype=torch.float32), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)[None].expand(c["batch"], -1, -1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def split_weight_casts(saved, ops):
    """Moves the 16-bit parameter copies out of the saved storages: held in the cast cache, or
    saved by autograd. Returns their bytes."""
    total = 0
    for cast in ops.weight_casts:
        key = cast.storage().data_ptr()
        cached = any(key == c.storage().data_ptr() for c in getattr(ops, "cache", {}).values())
        if saved.storages.pop(key, None) is not None or cached:
            total += cast.storage().nbytes()
    return total


def setup(c):
    torch.manual_seed(0)
    ops = Autocast(DTYPES[c["autocast"]]) if c.get("autocast") else NoAutocast()
    # The residual stream: FP32 under autocast with FP32 weights, else the weights' dtype.
    stream = torch.float32 if c.get("autocast") else DTYPES[c["weights"]]
    return ops, stream


def count_layer(c):
    """One decoder layer, one micro-batch: the saved storages' bytes (largest first) and the
    bytes of 16-bit weight copies that stay alive until backward."""
    ops, stream = setup(c)
    layer = LlamaLayer(c)
    # The layer's input is the previous layer's output: it requires grad.
    x = torch.randn(c["batch"], c["seq"], c["hidden"], dtype=stream).requires_grad_(True)
    cos, sin = rotary(c, stream)
    with SavedStorages(exclude=layer.params() + [cos, sin]) as saved:
        if c["recompute"] == "full":
            # torch.utils.checkpoint around each decoder layer (HF gradient_checkpointing_enable)
            torch.utils.checkpoint.checkpoint(lambda t: layer(ops, t, cos, sin), x, use_reentrant=True)
        else:
            layer(ops, x, cos, sin)
    casts = split_weight_casts(saved, ops)
    return saved.sizes(), casts


def count_outside(c):
    """Outside the layers: the embedding, the final norm, the (untied) LM head and the causal-LM
    loss as transformers computes it from v4.46 (loss/loss_utils.py ForCausalLMLoss:
    logits.float(), labels padded with -100 and shifted, cross_entropy with reduction='sum')."""
    ops, stream = setup(c)
    weight = DTYPES[c["weights"]]
    trainable = c["finetune"] == "full"
    b, s, h, vocab = c["batch"], c["seq"], c["hidden"], c["vocab"]
    embed = parameter((vocab, h), weight, trainable)
    norm = parameter((h,), weight, trainable)
    head = parameter((vocab, h), weight, trainable)
    ids = torch.randint(vocab, (b, s))
    labels = torch.randint(vocab, (b, s))
    # What the layers add to the stream; it requires grad whenever anything below trains.
    layers_out = torch.zeros(b, s, h, dtype=stream).requires_grad_(True)
    with SavedStorages(exclude=[embed, norm, head]) as saved:
        x = F.embedding(ids, embed).to(stream) + layers_out
        x = LlamaLayer.rms_norm(norm, x)
        logits = ops.linear(x, head).float()
        labels = F.pad(labels, (0, 1), value=-100)[..., 1:].contiguous()
        loss = F.cross_entropy(logits.view(-1, vocab), labels.view(-1), ignore_index=-100, reduction="sum")
        loss = loss / labels.numel()
    casts = split_weight_casts(saved, ops)
    return saved.sizes(), casts
