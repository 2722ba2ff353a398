"""The saved-tensor oracle: what PyTorch's autograd really keeps for backward.

Reference layers are written op for op as the named implementation computes them, and run on
the CPU under torch.autograd.graph.saved_tensors_hooks, which sees every tensor autograd saves.
Counted: the bytes of the *unique storages* saved (views share a storage and count once).
Not counted, because they are not activations of the layer:
  - parameters and module buffers (the model states account for them),
  - tensors shared by every layer that the model computes once (rotary cos/sin: counted outside
    the layers, where Hugging Face's model computes them),
  - 16-bit copies of parameters made by autocast's cast cache (counted as their own item),
  - 0-dim scalar constants (a few bytes, never modelled).

What the CPU cannot show: CUDA-only kernels (SDPA's flash and memory-efficient paths,
flash-attn, fused norms), allocator rounding and library workspaces. Those stay pinned to
papers and to published measurements; the stand-ins below save what those kernels save and, in
backward, allocate what they allocate.

Backward's working set (backward_working_set): the most memory one layer's backward holds at
once beyond what was alive when it began (every layer's saved tensors). Measured with the
profiler's allocation events on the CPU, oneDNN's GEMM off (its scratch is the CPU's alone).

Autocast is emulated op by op after CUDA's lists (aten/src/ATen/autocast_mode.cpp, PyTorch
1.13-2.x): linear and matmul cast their inputs to 16 bits, and autograd saves the casts;
casts of FP32 leaf parameters that require grad are cached for the whole region (one copy
per weight); pow, rsqrt and softmax(dtype=float32) run in FP32. CPU autocast has other lists,
which is why this emulation is explicit rather than torch.autocast('cpu').

Dropout is torch.native_dropout, the fused kernel CUDA runs (a 1-byte mask is saved); the
CPU's unfused dropout would save a full-width scale tensor instead. Its backward is a stand-in
too: CUDA's masked_scale makes one tensor, where the CPU's casts the mask and multiplies twice.
"""

import contextlib
import math

import torch
import torch.utils.checkpoint
import torch.nn.functional as F

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


def mean_last(x, pytorch):
    """x.mean(-1, keepdim=True) as the named PyTorch release's autograd saves it. Before 2.2 mean's
    backward kept its input (derivatives.yaml read self's element count from the tensor; fixed by
    pytorch/pytorch#109935, first released in 2.2): this oracle's PyTorch 1.13 still does, so "2.1"
    and "1.10" rows call mean itself. From 2.2 mean saves only sizes, which sum / n reproduces."""
    if pytorch in ("2.1", "1.10"):
        return x.mean(-1, keepdim=True)
    return x.sum(-1, keepdim=True) / x.shape[-1]


class KeptInputSoftmax(torch.autograd.Function):
    """softmax or log_softmax as PyTorch 1.10 and earlier saved them: derivatives.yaml's backward
    formula named the input (_softmax_backward_data(grad, result, dim, self)), so autograd kept
    it beside the result (pytorch/pytorch#65242 passes its dtype instead from 1.11). Backward
    allocates the input's gradient, as _softmax_backward_data does."""

    @staticmethod
    def forward(ctx, x, dim, log):
        out = torch.log_softmax(x, dim) if log else torch.softmax(x, dim)
        ctx.save_for_backward(x, out)
        ctx.dim, ctx.log = dim, log
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if ctx.log:
            return torch._log_softmax_backward_data(grad, out, ctx.dim, x.dtype), None, None
        return cuda_softmax_backward(grad, out, ctx.dim), None, None


class CudaSoftmax(torch.autograd.Function):
    """softmax, which saves its output, with the backward CUDA runs (cuda_softmax_backward)."""

    @staticmethod
    def forward(ctx, x, dim):
        out = torch.softmax(x, dim)
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad):
        return cuda_softmax_backward(grad, ctx.saved_tensors[0], ctx.dim), None


def cuda_softmax_backward(grad, out, dim):
    """aten/src/ATen/native/cuda/SoftMax.cu, softmax_backward_cuda_out: tmp = grad * output, as large
    as the input, then the input's gradient, tmp - output · sum(tmp), written beside it (seen on an
    H200 under PyTorch 2.11: tests/gpu/attention_backward.py). The CPU's kernel makes no tmp. CUDA's
    kernel sums each row as it writes, which takes no memory: here the sums go into the spent
    gradient's first column before the result is made."""
    tmp = grad * out
    sums = grad.narrow(dim, 0, 1)
    sums.copy_(tmp.sum(dim, keepdim=True))
    return torch.addcmul(tmp, out, sums, value=-1)


def softmax(x, dim, pytorch, dtype=None, log=False):
    """F.softmax (or F.log_softmax) under the named PyTorch release, as CUDA runs it. With
    dtype=float32, at::softmax converts a BF16 or FP32 input with toType and runs on that; before
    1.11 autograd keeps it."""
    x = x if dtype is None else x.to(dtype)
    if pytorch == "1.10":
        return KeptInputSoftmax.apply(x, dim, log)
    return F.log_softmax(x, dim=dim) if log else CudaSoftmax.apply(x, dim)


def cross_entropy(x, target, pytorch, **kwargs):
    """F.cross_entropy: log_softmax, then nll_loss, which saves the target."""
    return F.nll_loss(softmax(x, 1, pytorch, log=True), target, **kwargs)


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
        scalar = tensor.dim() == 0 and storage.size() == 1
        if key not in self.excluded and not scalar:
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

    def __init__(self, low, params):
        self.low = low
        self.params = {p.storage().data_ptr() for p in params}
        self.cache = {}  # autocast's cast cache: FP32 leaf parameters that require grad
        self.weight_casts = []  # every 16-bit copy of a parameter, cached or not

    def cast(self, tensor):
        if tensor is None or tensor.dtype == self.low:
            return tensor
        key = tensor.storage().data_ptr()
        if key in self.params and tensor.requires_grad and tensor.is_leaf:
            if key not in self.cache:
                self.cache[key] = tensor.to(self.low)
                self.weight_casts.append(self.cache[key])
            return self.cache[key]
        cast = tensor.to(self.low)
        if key in self.params:
            self.weight_casts.append(cast)  # a frozen weight: autograd saves the cast, if anything
        return cast

    @staticmethod
    def fp32(tensor):
        """Ops on autocast's FP32 list (pow, softmax, layer_norm, ...) run on an FP32 input."""
        return tensor.float()

    def linear(self, x, weight, bias=None):
        return F.linear(self.cast(x), self.cast(weight), self.cast(bias))

    def addmm(self, bias, x, weight):
        return torch.addmm(self.cast(bias), self.cast(x), self.cast(weight))

    def matmul(self, a, b):
        return torch.matmul(self.cast(a), self.cast(b))

    def conv1d(self, x, weight, groups):
        return F.conv1d(self.cast(x), self.cast(weight), groups=groups)

    def sdpa(self, q, k, v):
        # scaled_dot_product_attention is on autocast's lower-precision list
        return FlashAttention.apply(self.cast(q), self.cast(k), self.cast(v))


class NoAutocast:
    """Plain execution: every op in the dtype of its inputs."""

    weight_casts = []

    @staticmethod
    def fp32(tensor):
        return tensor

    @staticmethod
    def linear(x, weight, bias=None):
        return F.linear(x, weight, bias)

    @staticmethod
    def addmm(bias, x, weight):
        return torch.addmm(bias, x, weight)

    @staticmethod
    def matmul(a, b):
        return torch.matmul(a, b)

    @staticmethod
    def conv1d(x, weight, groups):
        return F.conv1d(x, weight, groups=groups)

    @staticmethod
    def sdpa(q, k, v):
        # PyTorch's SDPA on a CUDA GPU (aten/src/ATen/native/transformers/cuda/sdp_utils.cpp):
        # the flash and cuDNN kernels take 16-bit inputs alone and the memory-efficient one no
        # enable_gqa, so FP32 inputs with fewer KV heads run the math composite.
        if q.dtype == torch.float32 and k.shape[1] != q.shape[1]:
            return sdpa_math(q, k, v)
        return FlashAttention.apply(q, k, v)


def sdpa_math(q, k, v):
    """_scaled_dot_product_attention_math (aten/src/ATen/native/transformers/attention.cpp) with
    is_causal and enable_gqa, op for op: q and k each scaled by the square root of the softmax
    scale, the causal mask made additive, K and V repeated to every head (repeat_interleave,
    pre_process_group_query_attention_input), matmul, the mask added in place, softmax
    (_safe_softmax, which saves its output as softmax does), matmul with V. The repetition is
    written as an expanded copy: PyTorch 2.11's repeat_interleave by a number saves no index on the
    GPU (seen on the H200), where this oracle's 1.13 builds one for index_select."""
    s, d = q.shape[2], q.shape[3]
    scaling = math.sqrt(d**-0.5)
    q = q * scaling
    mask = torch.zeros(s, s, dtype=q.dtype).masked_fill(~torch.ones(s, s, dtype=torch.bool).tril(), float("-inf"))
    rep = q.shape[1] // k.shape[1]
    k, v = LlamaLayer.repeat_kv(k, rep), LlamaLayer.repeat_kv(v, rep)
    attn = torch.matmul(q, k.transpose(-2, -1) * scaling)
    attn.add_(mask)
    return torch.matmul(CudaSoftmax.apply(attn, -1), v)


class FlashAttention(torch.autograd.Function):
    """F.scaled_dot_product_attention(q, k, v, is_causal=True) as a recent GPU runs it: the flash
    kernel, which PyTorch 1.13's CPU does not have. This stand-in computes causal attention and
    saves what tools/autograd/derivatives.yaml lists for _scaled_dot_product_flash_attention:
    query, key, value, the output (in the kernel's (b, s, heads, d) layout) and the FP32
    log-sum-exp per head and token. K and V may have fewer heads (enable_gqa)."""

    @staticmethod
    def forward(ctx, q, k, v):
        b, a, s, d = q.shape
        out = torch.empty(b, s, a, d, dtype=q.dtype).transpose(1, 2)
        lse = causal_attention(q, k, v, out)
        ctx.save_for_backward(q, k, v, out, lse)
        return out

    @staticmethod
    def backward(ctx, grad):
        q, k, v = ctx.saved_tensors[:3]
        return flash_backward_allocations(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), (q, k, v))


def flash_backward_allocations(q, k, v, like):
    """What FlashAttention-2's backward allocates (csrc/flash_attn/flash_api.cpp, mha_bwd; PyTorch's
    _flash_attention_backward runs the same code): dq, dk, dv like q, k, v, an FP32 dq_accum of
    (b, s rounded up to 128, heads, d rounded up to 32) and an FP32 softmax_d of (b, heads, s
    rounded), freed when the kernel returns, and with fewer KV heads dk and dv for every head
    before they are summed. q, k, v in (b, s, heads, d); `like`: the tensors the gradients match."""
    b, s, a, d = q.shape
    rounded_s, rounded_d = -(-s // 128) * 128, -(-d // 32) * 32
    scratch = [torch.empty(b, rounded_s, a, rounded_d, dtype=torch.float32),
               torch.empty(b, a, rounded_s, dtype=torch.float32)]
    if k.shape[2] != a:
        scratch += [torch.empty(b, s, a, d, dtype=q.dtype) for _ in range(2)]
    del scratch
    return tuple(torch.zeros_like(t) for t in like)


def causal_attention(q, k, v, out):
    """Causal attention of q, k, v in (b, heads, s, d), written into out; returns the FP32
    log-sum-exp per head and token."""
    s, d = q.shape[2], q.shape[3]
    rep = q.shape[1] // k.shape[1]
    kk, vv = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
    scores = (q.float() @ kk.float().transpose(-1, -2)) * d**-0.5
    scores = scores + torch.triu(torch.full((s, s), float("-inf")), 1)
    out.copy_(torch.softmax(scores, dim=-1) @ vv.float())
    return torch.logsumexp(scores, dim=-1)


class FlashAttnFunc(torch.autograd.Function):
    """flash-attn 2.x flash_attn_func on (b, s, heads, d) inputs: mha_fwd (csrc/flash_attn/
    flash_api.cpp) allocates the output with torch::empty_like(q), so it keeps q's memory layout,
    and FlashAttnFunc.forward saves q, k, v, the output and the FP32 log-sum-exp."""

    @staticmethod
    def forward(ctx, q, k, v):
        out = torch.empty_like(q)
        lse = causal_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out.transpose(1, 2))
        ctx.save_for_backward(q, k, v, out, lse)
        return out

    @staticmethod
    def backward(ctx, grad):
        q, k, v = ctx.saved_tensors[:3]
        return flash_backward_allocations(q, k, v, (q, k, v))


class LigerRMSNorm(torch.autograd.Function):
    """Liger Kernel's LigerRMSNormFunction (liger_kernel/ops/rms_norm.py at ead96b6, casting mode
    "llama"), a Triton kernel: Y in the input's dtype, and save_for_backward(X, W, RSTD) with an
    FP32 1/rms per row."""

    @staticmethod
    def forward(ctx, x, weight, eps=1e-6):
        rstd = torch.rsqrt(x.float().pow(2).mean(-1) + eps)
        ctx.save_for_backward(x, weight, rstd)
        return (x.float() * rstd[..., None]).to(x.dtype) * weight

    @staticmethod
    def backward(ctx, grad):
        # rms_norm_backward with in_place=True (LigerRMSNorm's default): dX is written into dY
        weight = ctx.saved_tensors[1]
        return grad, (torch.zeros_like(weight) if weight.requires_grad else None), None


class LigerSiLUMul(torch.autograd.Function):
    """LigerSiLUMulFunction (liger_kernel/ops/swiglu.py): silu(a) * b in one kernel, saving a and b;
    backward recomputes SiLU."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return F.silu(a) * b

    @staticmethod
    def backward(ctx, grad):
        # swiglu_backward's kernel writes da and db over a and b
        a, b = ctx.saved_tensors
        return a.detach(), b.detach()


class LigerFusedLinearCrossEntropy(torch.autograd.Function):
    """LigerFusedLinearCrossEntropyFunction (liger_kernel/ops/fused_linear_cross_entropy.py):
    forward computes the loss and both gradients chunk by chunk, never the whole logits, and saves
    the gradients (grad_input like the input, grad_weight like the weight when it trains);
    backward only scales them. Weight casts under autocast happen inside, unrecorded."""

    @staticmethod
    def forward(ctx, x, weight, target):
        grad_input = torch.zeros_like(x)
        grad_weight = torch.zeros_like(weight) if weight.requires_grad else None
        ctx.save_for_backward(grad_input, grad_weight)
        return x.new_zeros(())

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the oracle counts what forward saves")


class CudaLayerNorm(torch.autograd.Function):
    """F.layer_norm as CUDA runs it: native_layer_norm saves the input, weight, bias and the mean
    and 1/std in FP32 (aten/src/ATen/native/cuda/layer_norm_kernel.cu, layer_norm_cuda: dtype
    acc_type). The CPU kernel of PyTorch 1.13 keeps them in the input's dtype, hence this
    stand-in. Its forward allocates what CUDA's one kernel does, the output and the statistics,
    and works a block of rows at a time, whose temporaries do not grow with the batch. Backward
    allocates the input's gradient; the weight's and bias's, which CUDA's backward makes only when
    autograd asks for them (native_layer_norm_backward's output_mask) and which the gradients item
    counts, are left out: a custom Function cannot tell, and backward_working_set asks for the
    input's gradient alone."""

    BLOCK = 64  # rows

    @staticmethod
    def forward(ctx, x, weight, bias, eps):
        h = x.shape[-1]
        rows, out = x.reshape(-1, h), torch.empty_like(x)
        mean = torch.empty(rows.shape[0], 1, dtype=torch.float32)
        rstd = torch.empty_like(mean)
        for first in range(0, rows.shape[0], CudaLayerNorm.BLOCK):
            block = slice(first, first + CudaLayerNorm.BLOCK)
            r = rows[block].float()
            mean[block] = r.mean(-1, keepdim=True)
            rstd[block] = torch.rsqrt(r.var(-1, unbiased=False, keepdim=True) + eps)
            out.view(-1, h)[block] = (r - mean[block]) * rstd[block] * weight.float() + bias.float()
        ctx.save_for_backward(x, mean, rstd, weight, bias)
        return out

    @staticmethod
    def backward(ctx, grad):
        x = ctx.saved_tensors[0]
        return torch.zeros_like(x), None, None, None


def layer_norm(ops, x, weight, bias, eps=1e-5):
    """F.layer_norm (on autocast's FP32 list)."""
    return CudaLayerNorm.apply(ops.fp32(x), weight, bias, eps)


class CudaDropout(torch.autograd.Function):
    """torch.native_dropout as CUDA runs it: one kernel that makes the output and the 1-byte mask and
    nothing else (aten/src/ATen/native/cuda/Dropout.cu, dropout_cuda), forward saving the mask (as
    native_dropout's derivative does); backward is one kernel with one output (dropout_backward_cuda:
    masked_scale). The CPU's native_dropout would also convert the mask to the input's dtype for its
    product, a copy CUDA never makes, so the mask is drawn and applied here without one."""

    @staticmethod
    def forward(ctx, x, p):
        ctx.scale = 1.0 / (1.0 - p)
        mask = torch.empty_like(x, dtype=torch.bool).bernoulli_(1.0 - p)
        ctx.save_for_backward(mask)
        return torch.where(mask, x, x.new_zeros(())).mul_(ctx.scale)

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return torch.where(mask, grad, grad.new_zeros(())).mul_(ctx.scale), None


def dropout(x, p):
    """nn.Dropout in training: nothing when p = 0 (at::dropout returns its input), else CUDA's
    fused kernel, which saves a 1-byte mask."""
    return CudaDropout.apply(x, p) if p > 0 else x


def parameter(shape, dtype, trainable):
    return (torch.randn(*shape, dtype=torch.float32) * 0.02).to(dtype).requires_grad_(trainable)


class MixedAdd(torch.autograd.Function):
    """A 16-bit tensor plus an FP32 one, as CUDA adds them: TensorIterator casts mixed inputs inside
    its kernels on the GPU and makes a temporary of the promoted input only on the CPU
    (aten/src/ATen/TensorIterator.cpp, compute_types), so the sum is the one tensor allocated. Saves
    nothing, as AddBackward0 does not; the gradient goes back to each input's dtype."""

    @staticmethod
    def forward(ctx, low, high):
        ctx.low = low.dtype
        return low.to(high.dtype).add_(high)

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.low), grad


def add(a, b):
    """a + b, with CUDA's allocations where one is 16-bit and the other FP32 (MixedAdd)."""
    if a.element_size() < b.element_size():
        return MixedAdd.apply(a, b)
    if b.element_size() < a.element_size():
        return MixedAdd.apply(b, a)
    return a + b


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
        # PEFT casts x to lora_A's dtype first (`x = self._cast_input_dtype(x, lora_A.weight.dtype)`),
        # then applies the adapter's dropout.
        return self.adapter(ops, self.cast(x))

    def cast(self, x):
        return x.to(self.a.dtype) if x.dtype != self.a.dtype else x

    def adapter(self, ops, x):
        """lora_B(lora_A(dropout(x))) * scaling, on x as it comes; dropout's output lives as PEFT's
        temporary does, until lora_A has run."""
        return ops.linear(ops.linear(CudaDropout.apply(x, 0.05) if self.dropout else x, self.a), self.b) * 2.0


class LinearNF4(torch.autograd.Function):
    """torchao's LinearNF4 (dtypes/nf4tensor.py), torchtune's 4-bit base linear: it saves only its
    weight, dequantized for the product in forward and again in backward. The stand-in keeps the
    weight in 16 bits; the NF4 weight it stands for is a parameter, and what dequantizing it
    holds is an item of its own (torchao_nf4.py)."""

    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(weight)
        return F.linear(x, weight)

    @staticmethod
    def backward(ctx, grad):
        return grad @ ctx.saved_tensors[0], None


class MatMul4Bit(torch.autograd.Function):
    """bitsandbytes' MatMul4Bit (autograd/_functions.py): multiplies by the 4-bit weight dequantized
    to the input's dtype (F.linear, which autocast runs in 16 bits) and, before 0.43.2, keeps its
    input for backward (`ctx.tensors = (A, B)`; bitsandbytes#1270 made it `(None, B)`: backward
    needs only the weight). An attribute of ctx, not save_for_backward: autograd does not free it
    once the node has run, only with the graph. The stand-in saves it too, for the hooks to count
    (`hooks_see_kept_input`), and keeps the weight in 16 bits, a parameter; what dequantizing the
    packed weight holds is an item of its own (QLoRA's dequantized module)."""

    # whole_model.py measures memory with it off, as bitsandbytes runs: without a checkpoint and
    # under the reentrant one the context holds the input as long as a saved tensor would, but the
    # non-reentrant checkpoint drops saved tensors and makes them again, and never the context's.
    hooks_see_kept_input = True

    @staticmethod
    def forward(ctx, a, weight, bias, ops, saves_input):
        # only when a gradient is wanted (`if any(ctx.needs_input_grad[:2])`): the weight never trains
        keeps = saves_input and ctx.needs_input_grad[0]
        ctx.save_for_backward(*((a, weight) if keeps and MatMul4Bit.hooks_see_kept_input else (weight,)))
        ctx.tensors = (a if keeps else None, weight)
        return ops.linear(a, weight.to(a.dtype), bias)

    @staticmethod
    def backward(ctx, grad):
        # grad_A = grad_output @ dequantize(B), in the gradient's dtype
        weight = ctx.saved_tensors[-1]
        return grad @ weight.to(grad.dtype), None, None, None, None


def linear4bit(ops, x, weight, saves_input):
    """bitsandbytes' Linear4bit.forward (nn/modules.py, 0.43 to now): on its first call the layer
    computes in its input's dtype when that is FP32 or BF16 (set_compute_type), else in
    bnb_4bit_compute_dtype (the stand-in weight's); it casts x to that dtype and casts the product
    back to the input's dtype (`.to(inp_dtype)`)."""
    compute = x.dtype if x.dtype in (torch.float32, torch.bfloat16) else weight.dtype
    return MatMul4Bit.apply(x.to(compute), weight, None, ops, saves_input).to(x.dtype)


class Projection:
    """nn.Linear, optionally wrapped by LoRA; with `nf4`, torchtune's NF4 base (FrozenNF4Linear, or
    LoRALinear with quantize_base); with `bnb4` (True: bitsandbytes before 0.43.2, False: since),
    bitsandbytes' Linear4bit, Hugging Face's QLoRA base, under PEFT's own LoRA layer for it."""

    def __init__(self, in_features, out_features, dtype, trainable, bias=False, lora=None, nf4=False, bnb4=None):
        self.weight = parameter((out_features, in_features), dtype, trainable)
        self.bias = parameter((out_features,), dtype, trainable) if bias else None
        self.lora = lora
        self.nf4 = nf4
        self.bnb4 = bnb4

    def params(self):
        own = [self.weight] + ([self.bias] if self.bias is not None else [])
        return own + (self.lora.params() if self.lora else [])

    def __call__(self, ops, x):
        if self.bnb4 is not None:
            return self.bnb_lora(ops, x)
        if self.nf4:
            out = LinearNF4.apply(x, self.weight)
            out = out + self.bias if self.bias is not None else out
        else:
            out = ops.linear(x, self.weight, self.bias)
        if not self.lora:
            return out
        # PEFT's Linear.forward (peft/tuners/lora/layer.py, 0.12 to now), its tensors living as long
        # as its locals do: x cast to lora_A's dtype and held until it returns, `result = result +
        # lora_B(lora_A(dropout(x))) * scaling`, then result.to(torch_result_dtype), an FP32
        # adapter's sum back to the base's dtype.
        dtype = out.dtype
        x = self.lora.cast(x)
        out = add(out, self.lora.adapter(ops, x))
        return out.to(dtype)

    def bnb_lora(self, ops, x):
        """PEFT's LoRA around a 4-bit base (peft/tuners/lora/bnb.py, Linear4bit.forward, 0.11 to
        now), its tensors living as long as its locals do: the base's output cloned ("defensively")
        in its place, then under autocast the adapter reads x as it comes; without autocast x is cast
        to the adapter's dtype (held until it returns) and the adapter's output back, `output`, beside
        the sum."""
        result = linear4bit(ops, x, self.weight, self.bnb4)
        if not self.lora:
            return result
        result = result.clone()
        if isinstance(ops, Autocast):
            output = self.lora.adapter(ops, x)
        else:
            expected = result.dtype
            x = self.lora.cast(x)
            output = self.lora.adapter(ops, x).to(expected)
        return add(result, output)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaLayer:
    """transformers/models/llama/modeling_llama.py (v4.48-4.5x): LlamaDecoderLayer.forward with
    LlamaRMSNorm, LlamaAttention + eager_attention_forward (repeat_kv, softmax in FP32) and LlamaMLP
    (down_proj(act_fn(gate_proj(x)) * up_proj(x)), SiLU). Mistral and Qwen2 share this code
    (Qwen2 adds a QKV bias, which saves nothing more); Qwen3 (models/qwen3/modeling_qwen3.py,
    c["qk_norm"]) adds q_norm and k_norm, Qwen3RMSNorm (LlamaRMSNorm's code) over each head's
    width, on the projections' outputs before the transpose and rotary. Gemma's blocks
    (models/gemma3/modeling_gemma3.py Gemma3DecoderLayer; Gemma's and Gemma-2's alike) are this
    block with Gemma3RMSNorm (c["zero_centered_norm"]), with c["norms"] == 4 a norm after attention
    and after the MLP too (Gemma-2, Gemma-3), and with c["soft_capping"] Gemma-2's tanh soft-capping
    of eager attention's scores."""

    def __init__(self, c):
        self.c = c
        weight = DTYPES[c["weights"]]
        trainable = c["finetune"] == "full"
        targets = c.get("lora_targets", [])
        h, a, g, d, f = c["hidden"], c["heads"], c["kv_heads"], c["hidden"] // c["heads"], c["ffn"]

        # torchtune's QLoRA builders quantize every projection of the layer (the torchtune family);
        # Hugging Face's, bitsandbytes' Linear4bit in 16 bits (bnb_4bit_compute_dtype) whatever the
        # dtype prepare_model_for_kbit_training gives the rest of the model
        qlora = c["finetune"] == "qlora"
        nf4 = qlora and c["family"] == "torchtune"
        bnb4 = bnb_saves_input(c) if qlora and c["family"] in ("llama", "mixtral") else None

        def proj(name, i, o, bias=False):
            lora = None
            if name in targets:
                lora = Lora(i, o, c["lora_rank"], DTYPES[c["adapter_dtype"]], c["lora_dropout"])
            return Projection(i, o, torch.bfloat16 if bnb4 is not None else weight, trainable, bias, lora, nf4, bnb4)

        self.projection = proj  # the rule MixtralLayer's router and experts follow too

        self.norm1 = parameter((h,), weight, trainable)
        self.norm2 = parameter((h,), weight, trainable)
        self.q = proj("q", h, a * d, c.get("qkv_bias", False))
        self.k = proj("k", h, g * d, c.get("qkv_bias", False))
        self.v = proj("v", h, g * d, c.get("qkv_bias", False))
        self.o = proj("o", a * d, h)
        self.gate = proj("gate", h, f)
        self.up = proj("up", h, f)
        self.down = proj("down", f, h)
        self.qk_norms = [parameter((d,), weight, trainable), parameter((d,), weight, trainable)] if c.get(
            "qk_norm") else []
        # post_attention_layernorm, post_feedforward_layernorm
        self.post_norms = [parameter((h,), weight, trainable), parameter((h,), weight, trainable)] if c.get(
            "norms", 2) == 4 else []

    def params(self):
        projections = [self.q, self.k, self.v, self.o, self.gate, self.up, self.down]
        return ([self.norm1, self.norm2] + self.qk_norms + self.post_norms
                + [p for proj in projections for p in proj.params()])

    def norm(self, weight, x):
        c = self.c
        return self.rms_norm(weight, x, c.get("pytorch"), liger=c.get("liger", False),
                             gemma=c.get("zero_centered_norm", False))

    @staticmethod
    def rms_norm(weight, x, pytorch, eps=1e-6, liger=False, gemma=False):
        if liger:
            return LigerRMSNorm.apply(x, weight, eps)
        if gemma:
            # Gemma3RMSNorm.forward: x.float(), x * rsqrt(pow(2).mean + eps), times 1 + weight in
            # FP32, type_as(x)
            up = x.float()
            out = up * torch.rsqrt(mean_last(up.pow(2), pytorch) + eps)
            return (out * (1.0 + weight.float())).type_as(x)
        # LlamaRMSNorm.forward
        input_dtype = x.dtype
        x = x.to(torch.float32)
        variance = mean_last(x.pow(2), pytorch)
        x = x * torch.rsqrt(variance + eps)
        return weight * x.to(input_dtype)

    def __call__(self, ops, x, cos, sin):
        residual = x
        attended = self.attention(ops, self.norm(self.norm1, x), cos, sin)
        if self.post_norms:
            attended = self.norm(self.post_norms[0], attended)
        x = add(residual, attended)
        del attended  # MixtralDecoderLayer/LlamaDecoderLayer reassign hidden_states: nothing holds it through the MLP

        residual = x
        mlp = self.mlp(ops, self.norm(self.norm2, x))
        if self.post_norms:
            mlp = self.norm(self.post_norms[1], mlp)
        return add(residual, mlp)

    def attention(self, ops, x, cos, sin):
        """LlamaAttention.forward (Qwen3Attention.forward with q_norm and k_norm) on the norm's output,
        with the output projection: its locals (the rotated query and key among them, FP32 under
        autocast and saved by nothing) are gone once it returns."""
        c = self.c
        b, s, _ = x.shape
        a, g = c["heads"], c["kv_heads"]
        d = c["hidden"] // a
        q = self.q(ops, x).view(b, s, a, d)
        k = self.k(ops, x).view(b, s, g, d)
        if self.qk_norms:
            q = self.norm(self.qk_norms[0], q)
            k = self.norm(self.qk_norms[1], k)
        q, k = q.transpose(1, 2), k.transpose(1, 2)
        v = self.v(ops, x).view(b, s, g, d).transpose(1, 2)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # apply_rotary_pos_emb
        q = (q * cos) + (rotate_half(q) * sin)
        k = (k * cos) + (rotate_half(k) * sin)
        if c.get("attention") == "sdpa":
            if c.get("kv_repeat"):
                # before transformers 4.48, Mistral's, Mixtral's and Qwen2's flash_attention_2 and every
                # SDPA class repeat K and V to every head before the kernel (repeat_kv)
                k, v = self.repeat_kv(k, a // g), self.repeat_kv(v, a // g)
            # sdpa_attention_forward (integrations/sdpa_attention.py): PyTorch >= 2.5 and no padding
            # mask: enable_gqa, K and V stay at the KV heads; then transpose(1, 2).contiguous()
            out = ops.sdpa(q, k, v).transpose(1, 2).contiguous().reshape(b, s, a * d)
        else:
            # eager_attention_forward
            k = self.repeat_kv(k, a // g)
            v = self.repeat_kv(v, a // g)
            scores = ops.matmul(q, k.transpose(2, 3)) * d**-0.5
            if c.get("soft_capping"):  # Gemma-2's attn_logit_softcapping
                scores = torch.tanh(scores / 50.0) * 50.0
            scores = scores + torch.triu(torch.full((s, s), float("-inf")), 1).to(scores.dtype)
            probs = softmax(scores, -1, c.get("pytorch"), dtype=torch.float32).to(q.dtype)
            out = ops.matmul(probs, v).transpose(1, 2).contiguous().reshape(b, s, a * d)
        return self.o(ops, out)

    def mlp(self, ops, x):
        if self.c.get("liger"):
            # LigerSwiGLUMLP.forward (liger_kernel/transformers/swiglu.py)
            return self.down(ops, LigerSiLUMul.apply(self.gate(ops, x), self.up(ops, x)))
        # Gemma3MLP: gelu_pytorch_tanh in SiLU's place
        act = (lambda t: F.gelu(t, approximate="tanh")) if self.c.get("zero_centered_norm") else F.silu
        return self.down(ops, act(self.gate(ops, x)) * self.up(ops, x))

    @staticmethod
    def repeat_kv(x, n_rep):
        if n_rep == 1:
            return x
        b, g, s, d = x.shape
        return x[:, :, None, :, :].expand(b, g, n_rep, s, d).reshape(b, g * n_rep, s, d)


class MixtralLayer(LlamaLayer):
    """transformers/models/mixtral/modeling_mixtral.py (v4.4x): MixtralDecoderLayer, Llama's
    attention and norms with MixtralSparseMoeBlock in place of the MLP: the router (gate, a
    linear to the experts), softmax in FP32, topk, the top-k weights renormalised in place and
    cast to the stream's dtype; then for each expert the rows routed to it, gathered by index
    (torch.where on the one-hot mask), its MixtralBlockSparseTop2MLP w2(silu(w1(x)) * w3(x)),
    times the routing weight, index_add_ into the output. A constant added to the router's logits
    (an add saves nothing) routes as c["expert_load"] says: balanced picks experts i mod E,
    i + 1 mod E, ... for token i; every-token picks the last expert for every token, then i mod
    (E - 1), ... among the others. Under Hugging Face's QLoRA the router and every expert's w1, w2, w3
    are bitsandbytes' Linear4bit too: transformers replaces every nn.Linear but the head
    (integrations/bitsandbytes.py, replace_with_bnb_linear, get_keys_to_not_convert). PEFT's LoRA
    wraps the router and each expert's w1, w3 and w2 as any nn.Linear (target_modules
    "all-linear"), each expert's adapters on the rows routed to it."""

    def __init__(self, c):
        super().__init__(c)
        h, f, e = c["hidden"], c["ffn"], c["experts"]
        proj = self.projection
        # LoRA targets as core names them: PEFT's "gate" (the router) is "router" here, and each
        # expert's w1, w3 and w2 are Llama's gate, up and down
        self.router = proj("router", h, e)
        self.experts = [(proj("gate", h, f), proj("up", h, f), proj("down", f, h)) for _ in range(e)]

    def params(self):
        attention = [self.q, self.k, self.v, self.o]
        experts = [p for expert in self.experts for proj in expert for p in proj.params()]
        return ([self.norm1, self.norm2] + self.qk_norms + [p for proj in attention + [self.router] for p in proj.params()]
                + experts)

    def mlp(self, ops, x):
        c = self.c
        b, s, h = x.shape
        e, k = c["experts"], c["top_k"]
        x = x.view(-1, h)
        tokens = x.shape[0]
        routing = torch.zeros(tokens, e)
        every_token = c.get("expert_load") == "every-token"
        for i in range(tokens):
            for j in range(k):
                expert = (e - 1 if j == 0 else (i + j - 1) % (e - 1)) if every_token else (i + j) % e
                routing[i, expert] = 100.0 - j
        logits = self.router(ops, x) + routing.to(x.dtype)
        del routing  # the stand-in's, not Hugging Face's: nothing of it stays through the experts
        weights = softmax(logits, 1, self.c.get("pytorch"), dtype=torch.float)
        weights, selected = torch.topk(weights, k, dim=-1)
        weights /= weights.sum(dim=-1, keepdim=True)
        weights = weights.to(x.dtype)
        out = torch.zeros((tokens, h), dtype=x.dtype)
        mask = F.one_hot(selected, num_classes=e).permute(2, 1, 0)
        for index, (w1, w3, w2) in enumerate(self.experts):
            idx, top_x = torch.where(mask[index])
            state = x[None, top_x].reshape(-1, h)
            expert = w2(ops, F.silu(w1(ops, state)) * w3(ops, state)) * weights[top_x, idx, None]
            out.index_add_(0, top_x, expert.to(x.dtype))
        return out.reshape(b, s, h)


def torch_rms_norm(x, weight, pytorch, eps=1e-6):
    """nn.RMSNorm / F.rms_norm as PyTorch 2.6 composes it (aten/src/ATen/native/layer_norm.cpp,
    rms_norm_symint), and torchtitan's unfused RMSNorm (models/norms.py) likewise: upcast to the
    op-math type, pow(2).mean, rsqrt, multiply, type_as(input), then x weight."""
    up = x.to(torch.float32)
    rstd = torch.rsqrt(mean_last(up.pow(2), pytorch) + eps)
    return up.mul(rstd).type_as(x) * weight


def all_gather(x, tp):
    """One tensor-parallel GPU's view of DTensor's all-gather along the sequence (Shard(1) to
    Replicate(), as PrepareModuleInput and ColwiseParallel(input_layouts=Shard(1)) redistribute):
    a new tensor of the whole sequence, the other GPUs' slices among it. Its backward (a
    reduce-scatter) saves nothing."""
    if tp == 1:
        return x
    return torch.cat([x] + [torch.zeros_like(x) for _ in range(tp - 1)], dim=1)


def reduce_scatter(partial, tp):
    """RowwiseParallel(output_layouts=Shard(1)): the local mm's partial sums over the whole
    sequence, reduce-scattered into this GPU's slice, a new tensor."""
    if tp == 1:
        return partial
    return partial.narrow(1, 0, partial.shape[1] // tp).clone()


class TorchtitanLayer:
    """torchtitan/models/llama3/model/model.py (2025): TransformerBlock.forward with nn.RMSNorm,
    Attention (wq, wk, wv; apply_rotary_emb through complex numbers, .type_as(xq); repeat_kv;
    scaled_dot_product_attention, flash kernel; output.transpose(1, 2).contiguous(); wo) and
    FeedForward w2(F.silu(w1(x)) * w3(x)). With tensor parallelism (c["tp"]; parallelisms/
    parallelize_llama.py apply_tp at 9dec370) one GPU of the group: its norms and residual sums on
    its slice of the sequence (SequenceParallel), the attention's and the MLP's input all-gathered,
    heads/tp and ffn/tp of each column-wise projection, row-wise wo and w2 reduce-scattered. Qwen3
    (c["qk_norm"]; models/common/attention.py, Attention.forward) normalises each head's queries
    and keys with nn.RMSNorm before rotary."""

    def __init__(self, c):
        self.c = c
        w = DTYPES[c["weights"]]
        tr = c["finetune"] == "full"
        tp = c.get("tp", 1)
        h, a, g, f = c["hidden"], c["heads"] // tp, c["kv_heads"] // tp, c["ffn"] // tp
        d = h // c["heads"]
        self.attention_norm, self.ffn_norm = parameter((h,), w, tr), parameter((h,), w, tr)
        self.wq, self.wk, self.wv = parameter((a * d, h), w, tr), parameter((g * d, h), w, tr), parameter((g * d, h), w, tr)
        self.wo = parameter((h, a * d), w, tr)
        bias = c.get("qkv_bias", False)  # model_args.use_qkv_bias
        self.bq, self.bk, self.bv = ((parameter((a * d,), w, tr), parameter((g * d,), w, tr),
                                      parameter((g * d,), w, tr)) if bias else (None, None, None))
        self.w1, self.w2, self.w3 = parameter((f, h), w, tr), parameter((h, f), w, tr), parameter((f, h), w, tr)
        self.qk_norms = [parameter((d,), w, tr), parameter((d,), w, tr)] if c.get("qk_norm") else []

    def params(self):
        biases = [t for t in (self.bq, self.bk, self.bv) if t is not None]
        return ([self.attention_norm, self.ffn_norm, self.wq, self.wk, self.wv, self.wo, self.w1, self.w2, self.w3]
                + biases + self.qk_norms)

    @staticmethod
    def rotary(x, freqs_cis):
        # apply_rotary_emb for one of xq, xk
        x_ = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(x_ * freqs_cis).flatten(3).type_as(x)

    @staticmethod
    def repeat_kv(x, n_rep):
        bs, slen, n_kv_heads, head_dim = x.shape
        if n_rep == 1:
            return x
        return torch.unsqueeze(x, dim=3).expand(bs, slen, n_kv_heads, n_rep, head_dim).reshape(
            bs, slen, n_kv_heads * n_rep, head_dim)

    def __call__(self, ops, x, freqs_cis):
        c = self.c
        tp = c.get("tp", 1)
        b, _, h = x.shape
        s = c["seq"]
        a, g = c["heads"] // tp, c["kv_heads"] // tp
        d = h // c["heads"]
        y = all_gather(torch_rms_norm(x, self.attention_norm, c.get("pytorch")), tp)
        xq = ops.linear(y, self.wq, self.bq).view(b, s, a, d)
        xk = ops.linear(y, self.wk, self.bk).view(b, s, g, d)
        xv = ops.linear(y, self.wv, self.bv).view(b, s, g, d)
        if self.qk_norms:
            xq = torch_rms_norm(xq, self.qk_norms[0], c.get("pytorch"))
            xk = torch_rms_norm(xk, self.qk_norms[1], c.get("pytorch"))
        xq, xk = self.rotary(xq, freqs_cis), self.rotary(xk, freqs_cis)
        keys, values = self.repeat_kv(xk, a // g), self.repeat_kv(xv, a // g)
        out = ops.sdpa(xq.transpose(1, 2), keys.transpose(1, 2), values.transpose(1, 2))
        h1 = x + reduce_scatter(ops.linear(out.transpose(1, 2).contiguous().view(b, s, -1), self.wo), tp)
        y = all_gather(torch_rms_norm(h1, self.ffn_norm, c.get("pytorch")), tp)
        return h1 + reduce_scatter(ops.linear(F.silu(ops.linear(y, self.w1)) * ops.linear(y, self.w3), self.w2), tp)


def freqs_cis(c):
    """precompute_freqs_cis: complex64 (s, d/2), computed once per model; reshape_for_broadcast."""
    d = c["hidden"] // c["heads"]
    freqs = 1.0 / (10000 ** (torch.arange(0, d, 2)[: d // 2].float() / d))
    freqs = torch.outer(torch.arange(c["seq"]), freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs).view(1, c["seq"], 1, d // 2)


class TorchtuneLayer(LlamaLayer):
    """torchtune's Llama block at 1814feb17 (models/llama3_2/_component_builders.py llama3_2; Qwen2's,
    models/qwen2/_component_builders.py, adds q, k and v biases and its own RoPE):
    modules/transformer.py TransformerSelfAttentionLayer (h = attn(sa_norm(x)) + x; h +
    mlp(mlp_norm(h))), modules/rms_norm.py RMSNorm (x.float(), pow(2).mean, rsqrt, multiply,
    type_as(x), times scale), modules/attention.py MultiHeadAttention (q_proj, view, RoPE, transpose;
    k_proj and v_proj likewise, RoPE on k; K and V expanded to every head after the transpose,
    unsqueeze(2).expand(...).flatten(1, 2); SDPA, here its flash stand-in; output.transpose(1,
    2).contiguous().view(b, s, -1); output_proj), modules/feed_forward.py FeedForward w2(silu(w1(x))
    * w3(x)). LoRA as modules/peft/lora.py LoRALinear: out + (alpha / rank) * lora_b(lora_a(
    dropout(x))), which saves what PEFT's does (Lora above). Qwen3 (c["qk_norm"]; models/qwen3/
    _component_builders.py, _attention.py Qwen3Attention) normalises each head's queries and keys
    with its RMSNorm on the transposed heads before rotary, and rotates them with Qwen2's RoPE."""

    def rope(self, x, cache, input_pos):
        seq_len = x.size(1)
        rope_cache = cache[:seq_len] if input_pos is None else cache[input_pos]
        if qwen_rope(self.c):
            # Qwen2 (its q, k and v biases): models/qwen2/_positional_embeddings.py
            # Qwen2RotaryPositionalEmbeddings.forward, cos and sin each head_dim wide, cast to x's dtype
            head_dim = x.size(-1)
            rope_cache = rope_cache.view(-1, seq_len, 1, head_dim * 2)
            cos = rope_cache[..., :head_dim].to(x.dtype)
            sin = rope_cache[..., head_dim:].to(x.dtype)
            x1, x2 = x[..., : head_dim // 2], x[..., head_dim // 2:]
            rotated = torch.cat((-x2, x1), dim=-1)
            return ((x * cos) + (rotated * sin)).type_as(x)
        # models/llama3_1/_position_embeddings.py Llama3ScaledRoPE.forward (RotaryPositionalEmbeddings
        # in modules/position_embeddings.py is the same): the cache sliced, or gathered at input_pos
        xshaped = x.float().reshape(*x.shape[:-1], -1, 2)
        rope_cache = rope_cache.view(-1, xshaped.size(1), 1, xshaped.size(3), 2)
        x_out = torch.stack([xshaped[..., 0] * rope_cache[..., 0] - xshaped[..., 1] * rope_cache[..., 1],
                             xshaped[..., 1] * rope_cache[..., 0] + xshaped[..., 0] * rope_cache[..., 1]], -1)
        return x_out.flatten(3).type_as(x)

    def __call__(self, ops, x, cache, input_pos):
        c = self.c
        b, s, _ = x.shape
        a, g = c["heads"], c["kv_heads"]
        d = c["hidden"] // a
        y = torch_rms_norm(x, self.norm1, c.get("pytorch"))
        q, k = self.q(ops, y).view(b, s, a, d), self.k(ops, y).view(b, s, g, d)
        if self.qk_norms:
            q = torch_rms_norm(q.transpose(1, 2), self.qk_norms[0], c.get("pytorch")).transpose(1, 2)
            k = torch_rms_norm(k.transpose(1, 2), self.qk_norms[1], c.get("pytorch")).transpose(1, 2)
        q = self.rope(q, cache, input_pos).transpose(1, 2)
        k = self.rope(k, cache, input_pos).transpose(1, 2)
        v = self.v(ops, y).view(b, s, g, d).transpose(1, 2)
        if a != g:
            k = k.unsqueeze(2).expand(b, g, a // g, s, d).flatten(1, 2)
            v = v.unsqueeze(2).expand(b, g, a // g, s, d).flatten(1, 2)
        out = ops.sdpa(q, k, v).transpose(1, 2).contiguous().view(b, s, -1)
        h = self.o(ops, out) + x
        return h + self.mlp(ops, torch_rms_norm(h, self.norm2, c.get("pytorch")))


def qwen_rope(c):
    """torchtune builds Qwen2 (its QKV biases) and Qwen3 (its query/key norms) with Qwen2's RoPE."""
    return c.get("qkv_bias") or c.get("qk_norm")


def torchtune_rope(c):
    """build_rope_cache: torch.stack of cos and sin, FP32 (max_seq_len, d/2, 2), or for Qwen2
    torch.cat of cos and sin of the doubled angles, FP32 (max_seq_len, 2d); once per model, here
    for twice the sequence; with packed samples (c["packed"]) the positions restart with each of
    two samples a row (datasets/_packed.py), else none are passed."""
    d = c["hidden"] // c["heads"]
    theta = 1.0 / (10000 ** (torch.arange(0, d, 2)[: d // 2].float() / d))
    idx_theta = torch.einsum("i, j -> ij", torch.arange(2 * c["seq"]).float(), theta).float()
    if qwen_rope(c):
        freqs = torch.cat([idx_theta, idx_theta], dim=-1)
        cache = torch.cat([freqs.cos(), freqs.sin()], dim=-1)
    else:
        cache = torch.stack([torch.cos(idx_theta), torch.sin(idx_theta)], dim=-1)
    if not c.get("packed"):
        return cache, None
    first = c["seq"] // 2
    row = torch.cat([torch.arange(first), torch.arange(c["seq"] - first)])
    return cache, row.expand(c["batch"], -1).contiguous()


def bnb_saves_input(c):
    """bitsandbytes' MatMul4Bit keeps its input before 0.43.2 (c["bitsandbytes"], default: since)."""
    return c.get("bitsandbytes", "0.43.2+") != "0.43.2+"


class LitgptLlamaLayer:
    """lit-gpt at commit 8641822 (Oct 2023): lit_gpt/model.py Block.forward (non-parallel residual),
    CausalSelfAttention (fused qkv, view/permute/split, expand/reshape, apply_rope, cat, flash
    attention, proj), LLaMAMLP (fc_1, fc_2, silu, proj) and lit_gpt/rmsnorm.py RMSNorm (no FP32
    upcast); lit_gpt/lora.py LoRAQKVLinear (lora_A on dropout(x), conv1d for lora_B, zero_pad).
    bf16-true: everything in BF16. bf16-mixed: Lightning's MixedPrecision runs the forward under
    torch.autocast with FP32 weights, so the residual stream and the norms stay FP32 (RMSNorm's
    ops are not on autocast's lists, LayerNorm is on its FP32 list) while linears and conv1d cast.
    QLoRA: every frozen nn.Linear becomes bitsandbytes' 4-bit linear."""

    def __init__(self, c):
        self.c = c
        w = DTYPES[c["weights"]]
        tr = c["finetune"] == "full"
        h, a, g, f = c["hidden"], c["heads"], c["kv_heads"], c["ffn"]
        d = h // a
        self.quantized = c["finetune"] == "qlora"
        self.norm_1, self.norm_2 = parameter((h,), w, tr), parameter((h,), w, tr)
        self.attn = parameter(((a + 2 * g) * d, h), w, tr)
        self.proj = parameter((h, h), w, tr)
        self.fc_1, self.fc_2, self.mlp_proj = parameter((f, h), w, tr), parameter((f, h), w, tr), parameter((h, f), w, tr)
        targets = [t for t in ("q", "k", "v") if t in c.get("lora_targets", [])]
        r = c.get("lora_rank", 0)
        self.lora_a = parameter((r * len(targets), h), w, True) if targets else None
        widths = {"q": a * d, "k": g * d, "v": g * d}
        self.widths = [widths[t] for t in targets]
        self.lora_b = parameter((sum(self.widths), r), w, True) if targets else None
        self.groups = len(targets)
        # lora_ind: the enabled parts' columns of the fused output, in q, k, v order
        starts = {"q": 0, "k": a * d, "v": (a + g) * d}
        self.lora_ind = [i for t in targets for i in range(starts[t], starts[t] + widths[t])]

    def params(self):
        own = [self.norm_1, self.norm_2, self.attn, self.proj, self.fc_1, self.fc_2, self.mlp_proj]
        return own + ([self.lora_a, self.lora_b] if self.lora_a is not None else [])

    def linear(self, ops, x, weight, bias=None):
        if self.quantized:
            return MatMul4Bit.apply(x, weight, bias, ops, bnb_saves_input(self.c))
        return ops.linear(x, weight, bias)

    @staticmethod
    def rms_norm(weight, x, pytorch, eps=1e-5):
        norm_x = mean_last(x * x, pytorch)
        return weight * (x * torch.rsqrt(norm_x + eps))

    @staticmethod
    def apply_rope(x, cos, sin):
        half = x.size(-1) // 2
        rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
        return ((x * cos) + (rotated * sin)).type_as(x)

    def zero_pad(self, x, out_features):
        """LoRAQKVLinear.zero_pad: the adapted columns are scattered into zeros with index_copy,
        which saves its index and its source (a reshape of the transposed LoRA-B output: a copy)."""
        if self.groups == 3:
            return x
        x = x.transpose(0, 1)
        result = x.new_zeros((*x.shape[:-1], out_features)).view(-1, out_features)
        result = result.index_copy(1, torch.tensor(self.lora_ind), x.reshape(-1, sum(self.widths)))
        return result.view((*x.shape[:-1], out_features)).transpose(0, 1)

    def __call__(self, ops, x, cos, sin):
        x = x + self.attention(ops, self.rms_norm(self.norm_1, x, self.c.get("pytorch")), cos, sin)
        n_2 = self.rms_norm(self.norm_2, x, self.c.get("pytorch"))
        gate = F.silu(self.linear(ops, n_2, self.fc_1)) * self.linear(ops, n_2, self.fc_2)
        return x + self.linear(ops, gate, self.mlp_proj)

    def attention(self, ops, n_1, cos, sin, biases=(None, None)):
        """CausalSelfAttention.forward on the norm's output, with the output projection."""
        c = self.c
        B, T, C = n_1.shape
        a, g = c["heads"], c["kv_heads"]
        hs = C // a
        rope = int(c.get("rotary_percentage", 1.0) * hs)  # Config.rope_n_elem
        qkv = self.linear(ops, n_1, self.attn, biases[0])
        if self.lora_a is not None:
            dropped = CudaDropout.apply(n_1, 0.05) if c["lora_dropout"] else n_1
            after_a = ops.linear(dropped, self.lora_a)
            # LoRAQKVLinear.conv1d: one grouped conv1d for MHA, else one per enabled projection
            inputs, weight = after_a.transpose(-2, -1), self.lora_b.unsqueeze(-1)
            if a == g:
                after_b = ops.conv1d(inputs, weight, self.groups)
            else:
                after_b = torch.cat([ops.conv1d(i, w, 1) for i, w in zip(inputs.chunk(self.groups, dim=1),
                                                                         weight.split(self.widths, dim=0))], dim=1)
            after_b = after_b.transpose(-2, -1)
            qkv = qkv + self.zero_pad(after_b, qkv.shape[-1]) * 2.0
        q_per_kv = a // g
        qkv = qkv.view(B, T, g, q_per_kv + 2, hs).permute(0, 2, 3, 1, 4)
        q, k, v = qkv.split((q_per_kv, 1, 1), dim=2)
        if g != 1:
            k = k.expand(B, g, q_per_kv, T, hs)
            v = v.expand(B, g, q_per_kv, T, hs)
        q, k, v = q.reshape(B, -1, T, hs), k.reshape(B, -1, T, hs), v.reshape(B, -1, T, hs)
        q = torch.cat((self.apply_rope(q[..., :rope], cos, sin), q[..., rope:]), dim=-1)
        k = torch.cat((self.apply_rope(k[..., :rope], cos, sin), k[..., rope:]), dim=-1)
        # flash_attn_func on (B, T, nh, hs) views; its output keeps q's (B, nh, T, hs) memory, so
        # reshape(B, T, C) copies it
        y = FlashAttnFunc.apply(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)).reshape(B, T, C)
        return self.linear(ops, y, self.proj, biases[1])


class LitgptNeoxLayer(LitgptLlamaLayer):
    """lit-gpt at commit 8641822, the GPT-NeoX-style blocks of phi-1.5 and StableLM-alpha (Config:
    parallel_residual, bias, norm_class LayerNorm, GptNeoxMLP, rotary_percentage below 1):
    Block.forward computes x + attn(norm_1(x)) + mlp(n_2), n_2 = norm_1's output under
    shared_attention_norm (phi-1.5), else norm_2(x) of the same input; without parallel_residual
    (RedPajama-INCITE) x = x + attn(norm_1(x)), then x + mlp(norm_2(x)). GptNeoxMLP is fc, GELU,
    proj. Every linear has a bias."""

    def __init__(self, c):
        super().__init__(c)
        w = DTYPES[c["weights"]]
        tr = c["finetune"] == "full"
        h, a, g, f = c["hidden"], c["heads"], c["kv_heads"], c["ffn"]
        d = h // a
        self.norm_1 = (parameter((h,), w, tr), parameter((h,), w, tr))
        self.norm_2 = None if c["shared_attention_norm"] else (parameter((h,), w, tr), parameter((h,), w, tr))
        self.biases = (parameter(((a + 2 * g) * d,), w, tr), parameter((h,), w, tr))
        self.fc, self.mlp_proj = (parameter((f, h), w, tr), parameter((f,), w, tr)), (parameter((h, f), w, tr), parameter((h,), w, tr))

    def params(self):
        own = [*self.norm_1, *(self.norm_2 or ()), self.attn, self.proj, *self.biases, *self.fc, *self.mlp_proj]
        return own + ([self.lora_a, self.lora_b] if self.lora_a is not None else [])

    def mlp(self, ops, n_2):
        return self.linear(ops, F.gelu(self.linear(ops, n_2, *self.fc), approximate="tanh"), *self.mlp_proj)

    def __call__(self, ops, x, cos, sin):
        n_1 = layer_norm(ops, x, *self.norm_1)
        if not self.c["parallel_residual"]:
            x = x + self.attention(ops, n_1, cos, sin, self.biases)
            return x + self.mlp(ops, layer_norm(ops, x, *self.norm_2))
        n_2 = n_1 if self.norm_2 is None else layer_norm(ops, x, *self.norm_2)
        return x + self.attention(ops, n_1, cos, sin, self.biases) + self.mlp(ops, n_2)


class Gpt2Layer:
    """transformers/models/gpt2/modeling_gpt2.py (v4.3x-4.4x, eager): GPT2Block.forward with
    GPT2Attention (Conv1D c_attn split into q, k, v; _attn: matmul, / sqrt(d) as a 0-dim tensor,
    torch.where with the causal-mask buffer, softmax, .type(value.dtype), attn_dropout), Conv1D
    c_proj and resid_dropout, and GPT2MLP (c_fc, NewGELUActivation, c_proj, dropout)."""

    def __init__(self, c):
        self.c = c
        w = DTYPES[c["weights"]]
        tr = c["finetune"] == "full"
        h, f = c["hidden"], c["ffn"]
        self.ln1 = (parameter((h,), w, tr), parameter((h,), w, tr))
        self.ln2 = (parameter((h,), w, tr), parameter((h,), w, tr))
        self.attn = (parameter((h, 3 * h), w, tr), parameter((3 * h,), w, tr))  # Conv1D: (nx, nf)
        self.proj = (parameter((h, h), w, tr), parameter((h,), w, tr))
        self.fc = (parameter((h, f), w, tr), parameter((f,), w, tr))
        self.proj2 = (parameter((f, h), w, tr), parameter((h,), w, tr))
        self.causal = torch.tril(torch.ones(c["seq"], c["seq"], dtype=torch.bool)).view(1, 1, c["seq"], c["seq"])

    def params(self):
        return [t for pair in (self.ln1, self.ln2, self.attn, self.proj, self.fc, self.proj2) for t in pair]

    def buffers(self):
        return [self.causal]

    @staticmethod
    def conv1d(ops, x, weight, bias):
        # Conv1D.forward (pytorch_utils.py): addmm(bias, x.view(-1, nx), weight).view(...)
        out = ops.addmm(bias, x.view(-1, x.size(-1)), weight)
        return out.view(x.shape[:-1] + (weight.shape[1],))

    @staticmethod
    def new_gelu(ops, x):
        # activations.py NewGELUActivation: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)));
        # pow is on autocast's FP32 list, so under autocast it reads an FP32 cast of x.
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(ops.fp32(x), 3.0))))

    def __call__(self, ops, x):
        c = self.c
        b, s, h = x.shape
        a, p = c["heads"], c["dropout"]
        d = h // a
        residual = x
        x = layer_norm(ops, x, *self.ln1)
        q, k, v = self.conv1d(ops, x, *self.attn).split(h, dim=2)
        q, k, v = (t.view(b, s, a, d).permute(0, 2, 1, 3) for t in (q, k, v))
        w = ops.matmul(q, k.transpose(-1, -2))
        w = w / torch.full([], v.size(-1) ** 0.5, dtype=w.dtype)
        w = torch.where(self.causal[:, :, :s, :s], w, torch.full([], torch.finfo(w.dtype).min, dtype=w.dtype))
        w = softmax(ops.fp32(w), -1, c.get("pytorch")).type(v.dtype)
        out = ops.matmul(dropout(w, p), v)
        out = out.permute(0, 2, 1, 3).contiguous().view(b, s, h)
        x = dropout(self.conv1d(ops, out, *self.proj), p) + residual
        residual = x
        x = layer_norm(ops, x, *self.ln2)
        x = self.conv1d(ops, self.new_gelu(ops, self.conv1d(ops, x, *self.fc)), *self.proj2)
        return residual + dropout(x, p)


class BertLayer:
    """transformers/models/bert/modeling_bert.py (v4.2x-4.4x, eager): BertLayer.forward with
    BertSelfAttention (query/key/value nn.Linear, transpose_for_scores, / sqrt(d), + the extended
    attention mask, softmax, dropout), BertSelfOutput (dense, dropout, LayerNorm(x + input)),
    BertIntermediate (dense, GELU: F.gelu) and BertOutput (dense, dropout, LayerNorm). Post-norm:
    the layer's output is the second LayerNorm's."""

    def __init__(self, c):
        self.c = c
        w = DTYPES[c["weights"]]
        tr = c["finetune"] == "full"
        h, f = c["hidden"], c["ffn"]

        def linear(i, o):
            return parameter((o, i), w, tr), parameter((o,), w, tr)

        self.q, self.k, self.v, self.o = linear(h, h), linear(h, h), linear(h, h), linear(h, h)
        self.inter, self.out = linear(h, f), linear(f, h)
        self.ln1 = (parameter((h,), w, tr), parameter((h,), w, tr))
        self.ln2 = (parameter((h,), w, tr), parameter((h,), w, tr))
        # BertModel.get_extended_attention_mask: (b, 1, 1, s) in the model's dtype, computed once.
        mask_dtype = torch.float32 if c.get("autocast") else w
        self.mask = torch.zeros(c["batch"], 1, 1, c["seq"], dtype=mask_dtype)

    def params(self):
        pairs = (self.q, self.k, self.v, self.o, self.inter, self.out, self.ln1, self.ln2)
        return [t for pair in pairs for t in pair]

    def buffers(self):
        return [self.mask]

    def __call__(self, ops, x):
        c = self.c
        b, s, h = x.shape
        a, p = c["heads"], c["dropout"]
        d = h // a
        q, k, v = (ops.linear(x, *w).view(b, s, a, d).permute(0, 2, 1, 3) for w in (self.q, self.k, self.v))
        scores = ops.matmul(q, k.transpose(-1, -2)) / math.sqrt(d) + self.mask
        probs = dropout(softmax(ops.fp32(scores), -1, c.get("pytorch")), p)
        ctx = ops.matmul(probs, v).permute(0, 2, 1, 3).contiguous().view(b, s, h)
        del q, k, v, scores, probs  # BertSelfAttention.forward's locals, gone when it returns
        x = layer_norm(ops, dropout(ops.linear(ctx, *self.o), p) + x, *self.ln1)
        y = F.gelu(ops.linear(x, *self.inter))
        return layer_norm(ops, dropout(ops.linear(y, *self.out), p) + x, *self.ln2)


def rotary(c, dtype, fraction=1.0):
    """LlamaRotaryEmbedding.forward: computed once per model in FP32, then cast to the dtype of
    the hidden states (FP32 under autocast with FP32 weights). lit-gpt rotates the first
    fraction of each head."""
    d = int(fraction * (c["hidden"] // c["heads"]))
    inv_freq = 1.0 / (10000 ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
    freqs = torch.outer(torch.arange(c["seq"], dtype=torch.float32), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)[None].expand(c["batch"], -1, -1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def split_weight_casts(saved, ops):
    """Moves the 16-bit parameter copies that autograd saves out of the saved storages and
    returns their bytes. A cast the cache holds but nothing saves (a bias's: its gradient needs
    no input) is freed when the autocast region exits (torch.clear_autocast_cache), before
    backward."""
    total = 0
    for cast in ops.weight_casts:
        if saved.storages.pop(cast.storage().data_ptr(), None) is not None:
            total += cast.storage().nbytes()
    return total


def setup(c, params):
    ops = Autocast(DTYPES[c["autocast"]], params) if c.get("autocast") else NoAutocast()
    # The residual stream starts as the embedding's output: the weights' dtype (FP32 under autocast
    # with an FP32 model, 16 bits for a model loaded in 16 bits).
    stream = DTYPES[c["weights"]]
    return ops, stream


LAYERS = {"llama": LlamaLayer, "mixtral": MixtralLayer, "gpt2": Gpt2Layer, "bert": BertLayer, "torchtitan": TorchtitanLayer,
          "litgpt": LitgptLlamaLayer, "litgpt-neox": LitgptNeoxLayer, "torchtune": TorchtuneLayer}


def layer_run(c):
    """One layer of the configuration, ready to run: (layer, ops, its input's leaf, run, the
    tensors computed once per model that it reads). The input stands for the previous layer's
    output; under torchtitan's tensor parallelism it is this GPU's slice of the sequence."""
    torch.manual_seed(0)
    layer = LAYERS[c["family"]](c)
    ops, stream = setup(c, layer.params())
    leaf = torch.randn(c["batch"], c["seq"] // c.get("tp", 1), c["hidden"], dtype=stream).requires_grad_(True)
    if c["family"] in ("llama", "mixtral"):
        cos, sin = rotary(c, stream)  # computed once per model
        constants, run = [cos, sin], lambda t: layer(ops, t, cos, sin)
    elif c["family"] == "torchtitan":
        freqs = freqs_cis(c)
        constants, run = [freqs], lambda t: layer(ops, t, freqs)
    elif c["family"] == "torchtune":
        cache, input_pos = torchtune_rope(c)  # the RoPE module's buffer; input_pos the batch's
        constants, run = [cache], lambda t: layer(ops, t, cache, input_pos)
    elif c["family"] in ("litgpt", "litgpt-neox"):
        # GPT.rope_cache in the default dtype: FP32, since finetune/lora.py sets max_seq_length
        # (which rebuilds the cache) outside Fabric's BF16 init context; one per model
        cos, sin = rotary(c, torch.float32, c.get("rotary_percentage", 1.0))
        cos, sin = cos[:, None], sin[:, None]
        constants, run = [cos, sin], lambda t: layer(ops, t, cos, sin)
    else:
        constants, run = layer.buffers(), lambda t: layer(ops, t)
    return layer, ops, leaf, run, constants


def count_layer(c):
    """One layer, one micro-batch: the saved storages' bytes (largest first) and the bytes of
    16-bit weight copies that stay alive until backward."""
    layer, ops, leaf, run, constants = layer_run(c)
    x = leaf.clone()  # the previous layer's output requires grad and is no leaf
    with SavedStorages(exclude=layer.params() + constants) as saved:
        if c["recompute"] == "full":
            # torch.utils.checkpoint around each layer (HF gradient_checkpointing_enable)
            torch.utils.checkpoint.checkpoint(run, x, use_reentrant=True)
        else:
            run(x)
    casts = split_weight_casts(saved, ops)
    return saved.sizes(), casts


def count_recomputed(c):
    """Under full recomputation: the storages the layer saves again while torch.utils.checkpoint
    recomputes it in backward, beyond its input, which the checkpoint kept and hands back as it is
    (detach_variable shares the storage), largest first. Under autocast the recomputation runs in
    an autocast region of its own (checkpoint's backward re-enters it), whose cast cache starts
    empty: its 16-bit weight copies are left out here, as they are from the layer's list."""
    layer, ops, leaf, run, constants = layer_run(c)
    x = leaf.clone()
    out = torch.utils.checkpoint.checkpoint(run, x, use_reentrant=True)
    if isinstance(ops, Autocast):
        ops.cache.clear()
        ops.weight_casts.clear()
    with SavedStorages(exclude=layer.params() + constants + [x]) as saved:
        out.sum().backward()
    split_weight_casts(saved, ops)
    return saved.sizes()


def backward_working_set(c):
    """One layer's backward, one micro-batch, as the last layer's runs: the largest number of bytes
    it holds at once beyond what was alive when it began. The layer's output feeds a product with
    1, whose backward hands the layer a fresh gradient as the layer above would; autograd.grad
    asks for the input's gradient alone, so no weight's gradient is allocated (the gradients item
    counts those). None under full recomputation (torch.utils.checkpoint's reentrant backward
    cannot run under autograd.grad; the recomputed layer's backward is the same backward)."""
    if c["recompute"] != "none":
        return None
    _, _, leaf, run, _ = layer_run(c)
    # Forward runs under the profiler too, so that it sees the saved tensors freed in backward.
    with memory_profile() as prof:
        out = run(leaf.clone()) * 1
        seed = torch.ones_like(out)
        with torch.profiler.record_function("backward"):
            torch.autograd.grad(out, leaf, seed)
    return held_beyond(prof)


@contextlib.contextmanager
def memory_profile():
    """The profiler's allocation events, with oneDNN's GEMM off: on a CPU with AVX-512 its 16-bit
    GEMM takes scratch from PyTorch's allocator inside each call, which a CUDA run does not (cuBLAS
    works in a workspace it already holds) and which would make the measure depend on the machine."""
    with torch.backends.mkldnn.flags(enabled=False), torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU], profile_memory=True) as prof:
        yield prof


def held_beyond(prof):
    """From a memory_profile() whose backward ran under record_function("backward"): the most held
    at once after backward began, beyond what was held when it began. The events are read in the
    order the profiler recorded them, not by their microsecond timestamps, which tie."""
    events = list(prof.profiler.kineto_results.events())
    begin = next(i for i, e in enumerate(events) if e.name() == "backward")
    before = sum(e.nbytes() for e in events[:begin] if e.name() == "[memory]")
    held = peak = before
    for e in events[begin:]:
        if e.name() == "[memory]":
            held += e.nbytes()
            peak = max(peak, held)
    return peak - before


def causal_lm_loss(logits, labels, vocab, pytorch):
    """loss/loss_utils.py ForCausalLMLoss (transformers v4.46+): logits.float(), labels padded
    with -100 and shifted, cross_entropy with reduction='sum', divided by the token count."""
    labels = F.pad(labels, (0, 1), value=-100)[..., 1:].contiguous()
    loss = cross_entropy(logits.float().view(-1, vocab), labels.view(-1), pytorch, ignore_index=-100, reduction="sum")
    return loss / labels.numel()


def count_outside(c, loss_backward=False):
    """Outside the layers: the embeddings, the final norm and the head with its loss. Llama and
    GPT-2: LlamaForCausalLM / GPT2LMHeadModel (GPT-2's LM head tied to wte). BERT:
    BertForSequenceClassification (embeddings with LayerNorm and dropout, pooler on the first
    token, dropout, a 2-label classifier, CrossEntropyLoss)."""
    torch.manual_seed(0)
    family = c["family"]
    w = DTYPES[c["weights"]]
    tr = c["finetune"] == "full"
    b, s, h, vocab, p = c["batch"], c["seq"], c["hidden"], c["vocab"], c.get("dropout", 0.0)
    embed = parameter((vocab, h), w, tr)
    ids = torch.randint(vocab, (b, s))
    labels = torch.randint(vocab, (b, s))
    class_labels = torch.randint(2, (b,))
    params = [embed]
    head_lora = None
    if family in ("llama", "mixtral", "torchtitan", "litgpt", "torchtune"):
        # torchtitan's ColwiseParallel output: this GPU's slice of the vocabulary
        head_rows = -(-vocab // c.get("tp", 1)) if family == "torchtitan" else vocab
        norm, head = parameter((h,), w, tr), parameter((head_rows, h), w, tr)
        params += [norm, head]
        # PEFT's target "lm_head", torchtune's apply_lora_to_output
        if family in ("llama", "mixtral", "torchtune") and "head" in c.get("lora_targets", []):
            head_lora = Lora(h, vocab, c["lora_rank"], DTYPES[c["adapter_dtype"]], c["lora_dropout"])
            params += head_lora.params()
    elif family == "litgpt-neox":  # ln_f a LayerNorm; phi-1.5's lm_head has a bias
        norm, head, head_bias = (parameter((h,), w, tr), parameter((h,), w, tr)), parameter((vocab, h), w, tr), None
        if c["lm_head_bias"]:
            head_bias = parameter((vocab,), w, tr)
        params += [*norm, head] + ([head_bias] if c["lm_head_bias"] else [])
    elif family == "gpt2":
        positions = parameter((s, h), w, tr)
        norm = (parameter((h,), w, tr), parameter((h,), w, tr))
        params += [positions, *norm]
    else:
        types, positions = parameter((2, h), w, tr), parameter((s, h), w, tr)
        norm = (parameter((h,), w, tr), parameter((h,), w, tr))
        pooler = (parameter((h, h), w, tr), parameter((h,), w, tr))
        classifier = (parameter((2, h), w, tr), parameter((2,), w, tr))
        params += [types, positions, *norm, *pooler, *classifier]
        position_ids = torch.arange(s).unsqueeze(0)  # BertEmbeddings' registered buffer
        token_types = torch.zeros(b, s, dtype=torch.long)
    # lit-gpt's LoRALinear around the head (lit_gpt/lora.py, to_head): lora_A (r, h), lora_B (vocab, r)
    litgpt_head_lora = None
    if family in ("litgpt", "litgpt-neox") and "head" in c.get("lora_targets", []):
        litgpt_head_lora = (parameter((c["lora_rank"], h), w, True), parameter((vocab, c["lora_rank"]), w, True))
        params += list(litgpt_head_lora)
    ops, stream = setup(c, params)
    # What the layers do to the stream; it requires grad whenever anything below trains.
    layers = torch.zeros(b, s, h, dtype=stream).requires_grad_(True)
    # With loss_backward (lit-gpt): the most the backward of all this holds beyond what forward
    # left, the FP32 chunks the training loop keeps among it.
    profiler = memory_profile() if loss_backward else contextlib.nullcontext()
    with profiler as prof, SavedStorages(exclude=params + ([position_ids] if family == "bert" else [])) as saved:
        if family in ("litgpt", "litgpt-neox"):
            # GPT.forward with lm_head_chunk_size=128 and utils.py chunked_cross_entropy (finetune/lora.py):
            # logits in chunks of 128 tokens, returned by Fabric in FP32, the last one without its
            # final position, and a cross-entropy per chunk.
            x = F.embedding(ids, embed) + layers
            if family == "litgpt":
                x, bias = LitgptLlamaLayer.rms_norm(norm, x, c.get("pytorch")), None
            else:
                x, bias = layer_norm(ops, x, *norm), head_bias
            quantized = c["finetune"] == "qlora"

            def lm_head(x_i):
                # Under autocast a frozen head's weight is cast anew for every chunk (the cast cache
                # keeps only weights that require grad), and each chunk's mm saves its cast.
                out = MatMul4Bit.apply(x_i, head, bias, ops, bnb_saves_input(c)) if quantized else ops.linear(x_i, head, bias)
                if litgpt_head_lora is None:
                    return out
                # LoRALinear.forward: (lora_dropout(x) @ lora_A.T @ lora_B.T) * scaling
                a, b = litgpt_head_lora
                dropped = CudaDropout.apply(x_i, 0.05) if c["lora_dropout"] else x_i
                return out + ops.matmul(ops.matmul(dropped, a.transpose(0, 1)), b.transpose(0, 1)) * 2.0

            chunks = [lm_head(x_i) for x_i in x.split(128, dim=1)]
            # Fabric's _FabricModule.forward: precision.convert_output casts the output to the
            # default dtype, FP32 outside the forward context (HalfPrecision, BitsandbytesPrecision)
            chunks = [chunk.to(torch.float32) for chunk in chunks]
            chunks[-1] = chunks[-1][..., :-1, :]
            targets = labels[..., 1:]
            target_chunks = [t.reshape(-1) for t in targets.split(chunks[0].size(1), dim=1)]
            losses = [F.cross_entropy(l.reshape(-1, l.size(-1)), t, ignore_index=-1, reduction="none")
                      for l, t in zip(chunks, target_chunks)]
            loss = torch.cat(losses).mean()
        elif family == "torchtitan":
            # Transformer.forward: tok_embeddings, norm, output; components/loss.py cross_entropy_loss.
            # Under TP (apply_tp) the norm runs on this GPU's slice of the sequence, the output's
            # input is all-gathered, and with loss_parallel the logits and their log-softmax keep
            # this GPU's slice of the vocabulary (head is that slice already).
            tp = c.get("tp", 1)
            x = reduce_scatter(F.embedding(ids, embed), tp) + layers[:, : s // tp]
            pred = ops.linear(all_gather(torch_rms_norm(x, norm, c.get("pytorch")), tp), head)
            cross_entropy(pred.flatten(0, 1).float(), labels.flatten(0, 1) % pred.shape[-1], c.get("pytorch"))
        elif family == "torchtune":
            # TransformerDecoder.forward: tok_embeddings, norm, output(h).float();
            # full_finetune_single_device.py _loss_step: the labels shifted by torch.hstack with
            # the ignore index, the loss over the flattened logits
            x = F.embedding(ids, embed) + layers
            normed = torch_rms_norm(x, norm, c.get("pytorch"))
            logits = ops.linear(normed, head)
            if head_lora:
                logits = logits + head_lora(ops, normed)
            shifted = torch.hstack((labels[..., 1:], torch.full((b, 1), -100)))
            cross_entropy(logits.float().reshape(-1, vocab), shifted.reshape(-1), c.get("pytorch"), ignore_index=-100)
        elif family in ("llama", "mixtral"):
            x = F.embedding(ids, embed)
            # LlamaModel.forward (transformers 4.46 on): RoPE's cos and sin, computed once for the
            # position ids it makes of one row (cache_position.unsqueeze(0)), in the stream's dtype;
            # every layer's apply_rotary_pos_emb saves them, as this rotation of a query does.
            cos, sin = rotary(dict(c, batch=1), x.dtype)
            query = torch.zeros(b, c["heads"], s, cos.shape[-1], dtype=x.dtype, requires_grad=True)
            query * cos.unsqueeze(1) + rotate_half(query) * sin.unsqueeze(1)
            if c.get("zero_centered_norm"):  # Gemma3TextScaledWordEmbedding: times sqrt(hidden), a 0-dim tensor
                x = x * torch.tensor(h**0.5).to(embed.dtype)
            x = x + layers
            normed = LlamaLayer.rms_norm(norm, x, c.get("pytorch"), liger=c.get("liger", False),
                                         gemma=c.get("zero_centered_norm", False))
            if c.get("liger"):
                # Liger's lce_forward: LigerForCausalLMLoss over the flattened hidden states and
                # self.lm_head.weight (the labels padded and shifted as Hugging Face does)
                LigerFusedLinearCrossEntropy.apply(normed.view(-1, normed.shape[-1]), head, labels.view(-1))
            else:
                logits = ops.linear(normed, head)
                if head_lora:
                    logits = logits + head_lora(ops, normed)
                if c.get("soft_capping"):  # Gemma2ForCausalLM: final_logit_softcapping
                    logits = torch.tanh(logits / 30.0) * 30.0
                causal_lm_loss(logits, labels, vocab, c.get("pytorch"))
        elif family == "gpt2":
            # GPT2Model.forward: position_ids from cache_position (an arange made in forward)
            x = dropout(F.embedding(ids, embed) + F.embedding(torch.arange(s).unsqueeze(0), positions), p)
            x = layer_norm(ops, x + layers, *norm)
            causal_lm_loss(ops.linear(x, embed), labels, vocab, c.get("pytorch"))
        else:
            x = F.embedding(ids, embed) + F.embedding(token_types, types) + F.embedding(position_ids, positions)
            x = dropout(layer_norm(ops, x, *norm), p) + layers
            pooled = dropout(torch.tanh(ops.linear(x[:, 0], *pooler)), p)
            logits = ops.linear(pooled, *classifier)
            cross_entropy(ops.fp32(logits).view(-1, 2), class_labels.view(-1), c.get("pytorch"))
        if loss_backward:
            with torch.profiler.record_function("backward"):
                loss.backward()
    if loss_backward:
        return held_beyond(prof)
    casts = split_weight_casts(saved, ops)
    return saved.sizes(), casts
