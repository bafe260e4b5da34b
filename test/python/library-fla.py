"""flash-linear-attention's host idioms (bench/NOTES.md, fla's port), in code of our own: helpers
defined in module-level branches of another module, or bound there to another of its helpers (fla_kit/op.py), an autotuner subclassed from
triton.runtime.autotuner as fla's CachedAutotuner is, the device module found by triton's backend
name, packaging.version, torch.compile, and the torch ops fla's varlen index helpers use (diff,
repeat_interleave, div's rounding_mode, F.pad) and flip."""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl
from packaging import version
from triton.runtime.autotuner import Autotuner

from fla_kit.op import halved, larger, scaled


class NamedAutotuner(Autotuner):
    """fla's CachedAutotuner: Triton's constructor by position, run() overridden, then super().run()."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero, restore_value, **kwargs):
        super().__init__(fn, arg_names, configs, key, reset_to_zero, restore_value, **kwargs)
        self.kernel_name = fn.fn.__name__
        self.runs = 0

    def run(self, *args, **kwargs):
        self.runs += 1
        return super().run(*args, **kwargs)


def named_autotune(configs, key):
    return lambda fn: NamedAutotuner(fn, fn.arg_names, configs, key, None, None)


@named_autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})], key=["n"])
@triton.jit
def scaled_larger_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask)
    b = tl.load(y + offs, mask=mask)
    tl.store(out + offs, halved(scaled(larger(a, b))), mask=mask)


n = 300
x = torch.randn(n, device="cuda")
y = torch.randn(n, device="cuda")
out = torch.empty_like(x)
scaled_larger_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n)
torch.testing.assert_close(out, torch.maximum(x, y))
assert scaled_larger_kernel.runs == 1 and scaled_larger_kernel.kernel_name == "scaled_larger_kernel"
print("helpers bound in branches, an Autotuner subclass")



@triton.jit
def biased_rows_kernel(x, bias, out, n, HAS_BIAS: tl.constexpr, BLOCK: tl.constexpr):
    # fla's chunk_o.py: a constexpr conditional whose other side is None (Triton evaluates only the side picked).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.zeros([BLOCK], dtype=tl.float32) if HAS_BIAS else None
    if HAS_BIAS:
        acc += tl.load(bias + offs, mask=mask)
    value = tl.load(x + offs, mask=mask) * (2.0 if HAS_BIAS else 3.0)
    if HAS_BIAS:
        value += acc
    tl.store(out + offs, value, mask=mask)


@triton.jit
def first_or_second(a, b, FIRST: tl.constexpr = tl.core.CONSTEXPR_0):
    # fla's nsa/utils.py argsort: a constexpr parameter defaulting to tl.core.CONSTEXPR_0.
    return a if FIRST else b


@triton.jit
def second_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, first_or_second(tl.load(x + offs, mask=mask), tl.load(y + offs, mask=mask)), mask=mask)


second_kernel[(triton.cdiv(n, 128),)](x, y, out, n, BLOCK=128)
assert torch.equal(out, y)

for has_bias in (True, False):
    biased_rows_kernel[(triton.cdiv(n, 128),)](x, y, out, n, HAS_BIAS=has_bias, BLOCK=128)
    torch.testing.assert_close(out, x * 2.0 + y if has_bias else x * 3.0)
print("constexpr conditionals with a None side, tl.core.CONSTEXPR_0")

backend = triton.runtime.driver.active.get_current_target().backend
device_module = getattr(torch, backend)
assert device_module.device_count() == 1 and not hasattr(tl, "_experimental_make_tensor_descriptor")
assert version.parse(triton.__version__) >= version.parse("3.3.0") and version.parse("2.10") > version.parse("2.9.1")
print(f"torch.{backend}, packaging.version")


@torch.compile
def gelu_like(v):
    return v * torch.sigmoid(1.702 * v)


@torch.compile(mode="max-autotune")
def doubled(v):
    return v * 2


@torch._dynamo.disable
def tripled(v):
    return v * 3


assert torch.equal(gelu_like(x), x * torch.sigmoid(1.702 * x)) and torch.equal(doubled(x), x * 2) and torch.equal(tripled(x), x * 3)
print("torch.compile runs eagerly, torch._dynamo.disable")

cu = torch.tensor([0, 13, 50, 77], device="cuda", dtype=torch.int32)
lens = torch.diff(cu)
assert lens.tolist() == [13, 37, 27] and cu.diff(prepend=torch.tensor([0], device="cuda", dtype=torch.int32)).tolist() == [0, 13, 37, 27]
chunks = (lens + 15).div(16, rounding_mode="floor")
assert chunks.tolist() == [1, 3, 2] and chunks.dtype == torch.int32
assert torch.tensor([-7, 7, -8]).div(2, rounding_mode="trunc").tolist() == [-3, 3, -4]
assert torch.tensor([-7, 7, -8]).div(2, rounding_mode="floor").tolist() == [-4, 3, -4]
assert torch.tensor([-7.5, 7.5]).div(2, rounding_mode="trunc").tolist() == [-3.0, 3.0]
assert torch.tensor(range(3), dtype=torch.float32).tolist() == [0.0, 1.0, 2.0] and x.new_tensor(range(2)).tolist() == [0, 1]
assert torch.repeat_interleave(torch.arange(3, device="cuda"), chunks).tolist() == [0, 1, 1, 1, 2, 2]
assert torch.repeat_interleave(chunks).tolist() == [0, 1, 1, 1, 2, 2]
m = torch.arange(6).view(2, 3)
assert m.repeat_interleave(2, dim=0).tolist() == [[0, 1, 2], [0, 1, 2], [3, 4, 5], [3, 4, 5]]
assert m.flip(1).tolist() == [[2, 1, 0], [5, 4, 3]] and torch.flip(m, (0, 1)).tolist() == [[5, 4, 3], [2, 1, 0]]
assert F.pad(chunks.cumsum(0), (1, 0)).tolist() == [0, 1, 4, 6]
assert F.pad(m, (1, 2, 0, 1), value=-1).tolist() == [[-1, 0, 1, 2, -1, -1], [-1, 3, 4, 5, -1, -1], [-1, -1, -1, -1, -1, -1]]
assert F.pad(m, (-1, 0)).tolist() == [[1, 2], [4, 5]]
print("diff, div(rounding_mode=), repeat_interleave, flip, F.pad")

# fla's layernorm.py imports its tensor-parallel names at the top (NormParallel(ParallelStyle)).
from torch.distributed import DeviceMesh  # noqa: E402
from torch.distributed.tensor import Replicate, Shard, distribute_module  # noqa: E402
from torch.distributed.tensor.parallel import ParallelStyle  # noqa: E402


class SequenceParallel(ParallelStyle):
    def __init__(self, dim=1):
        super().__init__()
        self.sharding = (Shard(dim),)


assert SequenceParallel().sharding == (Shard(1),) and Replicate() != Shard(0)
assert "all_gather_into_tensor" in dir(torch.distributed)  # fla's fused_cross_entropy.py tests for it at import
for refused in (lambda: DeviceMesh("cuda", [0]), lambda: distribute_module(None), lambda: torch.distributed.all_gather_into_tensor(x, x)):
    try:
        refused()
        raise AssertionError("not refused")
    except NotImplementedError:
        pass
print("torch.distributed's tensor-parallel names")

# fla's conv: torch.empty_like(x, memory_format=torch.contiguous_format) of a strided view.
view = torch.arange(12.0).view(3, 4).t()
assert not torch.empty_like(view, memory_format=torch.contiguous_format).t().is_contiguous()
assert torch.empty_like(view, memory_format=torch.preserve_format).t().is_contiguous()
print("memory_format")
