# torch.random: the default generator's seed and state. Kernel Lab's torch has one generator per
# script (no torch.Generator objects): the CPU's stream (tensor-random.ts, torch.rand on the CPU)
# and the GPU's draws (_on_gpu.seed, torch.rand on the GPU device), both seeded by manual_seed.
# torch.manual_seed, torch.seed, torch.initial_seed, torch.get_rng_state and torch.set_rng_state
# are these functions.

import os

import _kernel_lab_ops as _js
from pyodide.ffi import to_js as _to_js

from . import _on_gpu
from ._not_implemented import missing_in as _missing_in

# The seed last set (manual_seed or seed); a new run of a script starts at 0 (torch._kernel_lab_reset).
_initial = [0]
# How many times the generator was seeded: torch.cuda.default_generators' offset starts again at 0 at each.
_generation = [0]
_MASK64 = 0xFFFF_FFFF_FFFF_FFFF


def manual_seed(seed):
    """Seeds the generator. As torch's, any int from -2^63 to 2^64 - 1; initial_seed() gives it back
    as an unsigned 64-bit number. The streams use its low 32 bits."""
    seed = int(seed)
    if not -0x8000_0000_0000_0000 <= seed <= _MASK64:
        raise RuntimeError(f"Overflow when unpacking long: manual_seed({seed}) is outside [-2^63, 2^64)")
    _initial[0] = seed & _MASK64
    _generation[0] += 1
    _js.seed(seed & 0xFFFF_FFFF)
    _on_gpu.seed(seed & 0xFFFF_FFFF)


def seed():
    """A fresh non-deterministic seed (from the OS's random source), set as the generator's and
    returned. torch's is a 64-bit number; this one is non-negative and below 2^31, because libraries
    pass it straight to a kernel as its seed argument (trident's dropout and attention:
    `kernel[grid](…, torch.random.seed(), …)`), and Triton types an int argument by its value: one in
    [-2^31, 2^31) is an int32 and tl.rand(seed, offsets) takes it as one; a larger one would be an
    int64 argument, which a WGSL kernel has no 64-bit scalar for. 31 bits is as random as any seed
    a kernel can take, and it is still a seed torch could have returned."""
    value = int.from_bytes(os.urandom(4), "little") & 0x7FFF_FFFF
    manual_seed(value)
    return value


def initial_seed():
    """The seed last set by manual_seed or seed (0 when a script has set none)."""
    return _initial[0]


def get_rng_state():
    """The generator's state as a uint8 tensor (24 bytes: the CPU stream's four 32-bit words, then the
    GPU's seed and count of draws), for set_rng_state. Its layout is Kernel Lab's, not torch's."""
    import torch
    words = [int(w) for w in _js.randomState()] + [w & 0xFFFF_FFFF for w in _on_gpu._draws]
    return torch.tensor([(w >> (8 * i)) & 0xFF for w in words for i in range(4)], dtype=torch.uint8)


def set_rng_state(new_state):
    """Restores a state get_rng_state gave: the numbers drawn after it are drawn again."""
    import torch
    if not isinstance(new_state, torch.Tensor) or new_state.dtype is not torch.uint8 or tuple(new_state.shape) != (24, ):
        raise RuntimeError("set_rng_state takes what get_rng_state gave (a uint8 tensor of 24 bytes in Kernel Lab's torch)")
    data = [int(b) for b in new_state.cpu().tolist()]
    words = [sum(data[4 * k + i] << (8 * i) for i in range(4)) for k in range(6)]
    _js.setRandomState(_to_js(words[:4]))
    _on_gpu._draws[:] = words[4:]
    _initial[0] = words[4]


def _reset():
    _initial[0] = 0
    _generation[0] += 1


__getattr__ = _missing_in("torch.random")
