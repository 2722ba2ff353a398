"""What PyTorch's CUDA caching allocator holds beyond the tensors while a causal LM's loss runs.

The loss's forward and backward run on the CPU under PyTorch's profiler, whose allocation events
give the real order of every allocation and free; that stream is replayed through the caching
allocator's rules for large blocks (c10/cuda/CUDACachingAllocator.cpp), with and without
expandable segments. What the pool holds at its peak beyond the tensors' peak is the block the
estimate names `freed_logits_block`.
"""

import torch

import saved_tensors

MiB = 1 << 20
# Requests up to 1 MiB come from the small pool, whose blocks never serve large requests
# (kSmallSize). Large requests are rounded to 512 B (kMinBlockSize); a new segment is 20 MiB
# (kLargeBuffer) below 10 MiB (kMinLargeAlloc), else the request rounded to 2 MiB (kRoundLarge);
# an expandable segment maps 20 MiB granules (kLargeBuffer).
SMALL = MiB
ROUND = 512


def segment_size(size, expandable):
    if expandable:
        return -(-size // (20 * MiB)) * 20 * MiB
    return 20 * MiB if size < 10 * MiB else -(-size // (2 * MiB)) * 2 * MiB


class CachingAllocator:
    """One stream's large pool. get_free_block: the smallest free block that holds the request,
    split when more than 1 MiB would remain (should_split), the remainder staying free. A block
    freed merges with free neighbours of its segment. Without expandable segments a request
    nothing holds gets a segment of its own (cudaMalloc); with them one segment grows at its end
    (try_allocate_expandable_block), taking the free block before the end with it."""

    def __init__(self, expandable):
        self.expandable = expandable
        self.blocks = []  # [segment, size, free], in address order
        self.live = {}
        self.segments = 0
        self.allocated = self.reserved = self.peak_allocated = self.peak_reserved = 0

    def malloc(self, key, size):
        size = -(-size // ROUND) * ROUND
        free = [b for b in self.blocks if b[2] and b[1] >= size]
        if free:
            block = min(free, key=lambda b: b[1])
        elif self.expandable and self.blocks and self.blocks[-1][2]:
            block = self.blocks[-1]
            grow = segment_size(size - block[1], True)
            block[1] += grow
            self.reserved += grow
        else:
            grow = segment_size(size, self.expandable)
            self.segments += 0 if self.expandable else 1
            block = [self.segments, grow, True]
            self.blocks.append(block)
            self.reserved += grow
        if block[1] - size > SMALL:
            self.blocks.insert(self._index(block) + 1, [block[0], block[1] - size, True])
            block[1] = size
        block[2] = False
        self.live[key] = block
        self.allocated += block[1]
        self.peak_allocated = max(self.peak_allocated, self.allocated)
        self.peak_reserved = max(self.peak_reserved, self.reserved)

    def free(self, key):
        block = self.live.pop(key)
        block[2] = True
        self.allocated -= block[1]
        at = self._index(block)
        for neighbour in (at + 1, at - 1):  # the later first, so that `at - 1` still names the earlier
            if 0 <= neighbour < len(self.blocks):
                other = self.blocks[neighbour]
                if other[2] and other[0] == block[0]:
                    block[1] += other[1]
                    del self.blocks[neighbour]

    def _index(self, block):
        """Where `block` is, by identity: two blocks may hold equal values."""
        return next(i for i, b in enumerate(self.blocks) if b is block)


def allocation_stream(step):
    """(address, bytes) for every allocation of `step()` on the CPU, bytes < 0 for a free. The
    event tree, unlike held_beyond()'s event list, carries the addresses that pair each free with
    its allocation."""
    with saved_tensors.memory_profile() as prof:
        step()
    events = []

    def walk(node):
        if type(node.extra_fields).__name__ == "_ExtraFields_Allocation":
            events.append((node.start_time_ns, node.extra_fields.ptr, node.extra_fields.alloc_size))
        for child in node.children:
            walk(child)

    for node in prof.profiler.kineto_results.experimental_event_tree():
        walk(node)
    return [(ptr, size) for _, ptr, size in sorted(events)]


def held_beyond_tensors(stream, expandable):
    """What the pool holds at its peak beyond the tensors at theirs, large requests only."""
    allocator = CachingAllocator(expandable)
    sizes = {}
    for ptr, size in stream:
        if size > 0 and size > SMALL:
            sizes[ptr] = size
            allocator.malloc(ptr, size)
        elif size < 0 and ptr in sizes:
            del sizes[ptr]
            allocator.free(ptr)
    return allocator.peak_reserved - allocator.peak_allocated


class VocabParallelLoss(torch.autograd.Function):
    """loss_parallel's loss on one GPU's slice of the vocabulary, allocating as
    torch/distributed/tensor/parallel/loss.py does (the all-reduces change no size): _log_softmax
    keeps x − max while it takes exp, and _nll_loss_and_log_softmax_backward builds zeros for the
    targets, exp of the log-softmax, their sum, then its product with the loss's gradient."""

    @staticmethod
    def forward(ctx, x, target):
        shifted = x - torch.amax(x, 1, keepdim=True)
        logsumexp = torch.log(torch.sum(torch.exp(shifted), 1, keepdim=True))
        result = shifted - logsumexp
        del shifted
        ctx.save_for_backward(result, target)
        return -torch.gather(result, 1, target.unsqueeze(1)).mean()

    @staticmethod
    def backward(ctx, grad):
        result, target = ctx.saved_tensors
        grad_input = torch.zeros_like(result)
        grad_input[torch.arange(target.shape[0]), target] = -1.0
        return (grad_input + torch.exp(result)) * (grad / target.shape[0]), None


def loss_step(loss, tokens, vocab, pytorch, logits):
    """A step's loss as torchtitan (train.py) runs it: the logits from the head, the loss on
    their FP32 copy (FP32 logits are their own), `del pred`, backward; or as torchtune does: the
    model returns output(h).float(), which frees the 16-bit logits at once (modules/
    transformer.py), and the recipe's _loss_step deletes the FP32 ones before backward."""
    hidden = 64
    dtype = {"bf16": torch.bfloat16, "fp32": torch.float32}[logits]
    x = saved_tensors.parameter((tokens, hidden), dtype, True)
    head = saved_tensors.parameter((vocab, hidden), dtype, True)
    labels = torch.randint(0, vocab, (tokens,))

    def step():
        if loss == "torchtune":
            pred = (x @ head.t()).float()
            value = saved_tensors.cross_entropy(pred, labels, pytorch)
            del pred
            value.backward()
            return
        pred = x @ head.t()
        if loss == "vocab-parallel":
            value = VocabParallelLoss.apply(pred.float(), labels)
        else:
            value = saved_tensors.cross_entropy(pred.float(), labels, pytorch)
        del pred
        value.backward()

    return step


# tokens × vocabulary: 16-bit logits of whole 20 MiB granules, so that rounding adds nothing
SHAPES = [dict(tokens=2560, vocab=4096), dict(tokens=1280, vocab=16384)]
LOSSES = [dict(loss="standard", pytorch="2.2", logits="bf16"), dict(loss="standard", pytorch="1.10", logits="bf16"),
          dict(loss="vocab-parallel", pytorch="2.2", logits="bf16"), dict(loss="standard", pytorch="2.2", logits="fp32"),
          dict(loss="torchtune", pytorch="2.2", logits="bf16")]


def rows():
    torch.manual_seed(0)
    for shape in SHAPES:
        for loss in LOSSES:
            stream = allocation_stream(loss_step(**loss, **shape))
            for expandable in (False, True):
                yield dict(**loss, **shape, expandable_segments=expandable,
                           held=held_beyond_tensors(stream, expandable))
