"""What torchao allocates to dequantize one NF4 weight for its linear (torchtune's QLoRA).

torchao/dtypes/nf4tensor.py at v0.6.1 (torchtune 1814feb17's torchao; the code is the same from
v0.5 to v0.8): LinearNF4 computes F.linear(input, weight.to(input.dtype)) in forward and
grad_output @ weight.to(grad_output.dtype) in backward, and .to() calls
NF4Tensor.get_original_weight, written out below op for op over the tensors an NF4Tensor holds
(to_nf4's defaults: blocks of 64 weights, 256 scalers a scaler block, the BF16 weight's dtype).
It runs on the CPU under the profiler, whose allocation events give the most the call holds at
once beyond the quantized tensors, which the estimate names `qlora_dequantized_weight`.
"""

import torch

import saved_tensors

BLOCK, SCALER_BLOCK = 64, 256
# NF4Tensor.from_tensor's table of the 16 NF4 values
NF4 = [-1.0000, -0.6962, -0.5251, -0.3949, -0.2844, -0.1848, -0.0911, 0.0000,
       0.0796, 0.1609, 0.2461, 0.3379, 0.4407, 0.5626, 0.7230, 1.0000]


class Nf4Weight:
    """The tensors of an NF4Tensor of `out` × `inp` BF16 weights: two 4-bit codes a byte, an
    int8 scaler a block, a BF16 factor a scaler block, the scalers' BF16 mean, the table."""

    def __init__(self, out, inp):
        n = out * inp
        self.shape = (out, inp)
        self.quantized_data = torch.randint(0, 256, (n // 2,), dtype=torch.uint8)
        self.quantized_scalers = torch.randint(-128, 128, (n // BLOCK,), dtype=torch.int8)
        self.quantization_factor = torch.rand(n // BLOCK // SCALER_BLOCK, dtype=torch.bfloat16) + 1
        self.scaler_mean = torch.tensor(0.5, dtype=torch.bfloat16)
        self.nf4 = torch.tensor(NF4, dtype=torch.bfloat16)

    def dequantize_scalers(self):
        n_scaler_blocks = self.quantized_scalers.numel() // SCALER_BLOCK
        blocks = self.quantized_scalers.view(n_scaler_blocks, SCALER_BLOCK)
        return (blocks / self.quantization_factor.unsqueeze(-1)).flatten().to(torch.bfloat16) + self.scaler_mean

    def get_original_weight(self):
        first_elements = (self.quantized_data >> 4).to(torch.long)
        second_elements = (self.quantized_data & 0b1111).to(torch.long)
        dequantized_first = self.nf4[first_elements]
        dequantized_second = self.nf4[second_elements]
        scalers = self.dequantize_scalers()
        repeated = scalers.unsqueeze(-1).expand(scalers.size(0), BLOCK // 2)
        scaled_first = dequantized_first * repeated.flatten()
        scaled_second = dequantized_second * repeated.flatten()
        scaled_first = scaled_first.unsqueeze(-1).transpose(0, 1)
        scaled_second = scaled_second.unsqueeze(-1).transpose(0, 1)
        return torch.stack([scaled_first, scaled_second], dim=-1).reshape(self.shape)


def held_while_dequantizing(out, inp):
    """The most get_original_weight holds at once, in bytes, beyond the NF4 tensors."""
    weight = Nf4Weight(out, inp)
    with saved_tensors.memory_profile() as prof:
        dequantized = weight.get_original_weight()
    assert dequantized.shape == (out, inp) and dequantized.dtype == torch.bfloat16
    held = peak = 0
    for event in prof.profiler.kineto_results.events():
        if event.name() == "[memory]":
            held += event.nbytes()
            peak = max(peak, held)
    return peak


# Weight shapes whose sizes are whole scaler blocks (64 × 256 weights), as to_nf4 requires
SHAPES = [(256, 64), (512, 384), (1376, 512)]


def rows():
    torch.manual_seed(0)
    for out, inp in SHAPES:
        yield dict(out=out, inp=inp, held=held_while_dequantizing(out, inp))
