"""A kernel made from generated source, as xformers' vararg_kernel.py makes its split-K attention kernel
(facebookresearch/xformers, xformers/triton/vararg_kernel.py `unroll_varargs`): the @triton.jit
function's `src` rewritten with `ast`, exec'd with the kernel's globals under a `<...>` file name whose
lines only a patched `linecache.getlines` knows, and jitted again. The kernel it makes calls a helper
of this file, reads a block pointer with `boundary_check=(0,) if CHECK else ()`, asserts with an f-string
message, and names `tl.float8e4b8` in a branch its constexpr never takes. Then the host probes of
xformers' fmha modules: `untyped_storage()`, `torch.library.custom_op`, `torch._dynamo.allow_in_graph`,
`torch._C._disabled_torch_function_impl`, `torch.autograd.function` (FunctionCtx, once_differentiable),
`ctx.mark_dirty`, `torch.library.register_autograd` by name, and triton.testing's hardware probes
(`nvsmi`, `get_dram_gbps`, `get_max_*_tflops`) that matmul_perf_model.py imports. Sizes off the block."""

import ast
import linecache

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def load_scaled(X, start, N, CHECK: tl.constexpr, FP8: tl.constexpr, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, shape=(N,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    x = tl.load(p, boundary_check=(0,) if CHECK else ())
    if FP8:
        x = x.to(tl.float8e4b8).to(tl.float32)
    return x * 2.0


@triton.jit
def sum_inputs(VAR_ARGS, Y, N, CHECK: tl.constexpr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK >= 16, f"BLOCK={BLOCK} is too small")
    start = tl.program_id(0) * BLOCK
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for X in VAR_ARGS:  # unrolled by the generator: its body once per input
        acc += load_scaled(X, start, N, CHECK, False, BLOCK)
    offs = start + tl.arange(0, BLOCK)
    tl.store(Y + offs, acc, mask=offs < N)


class _Rename(ast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        return ast.Name(id=self.new, ctx=node.ctx) if node.id == self.old else node


class _Unroll(ast.NodeTransformer):
    """VAR_ARGS → X0, X1, …: the parameter, and a loop over it written out once per input, as unroll_varargs does."""

    def __init__(self, n):
        self.n = n

    def visit_arguments(self, node):
        node.args[:1] = [ast.arg(arg=f"X{i}") for i in range(self.n)]
        return node

    def visit_For(self, node):
        if getattr(node.iter, "id", None) != "VAR_ARGS":
            return node
        body = []
        for i in range(self.n):
            body += [_Rename(node.target.id, f"X{i}").visit(ast.parse(ast.unparse(s)).body[0]) for s in node.body]
        return body


_sources = {}
_getlines = linecache.getlines
linecache.getlines = lambda file, module_globals=None: _sources[file] if file in _sources else _getlines(file, module_globals)


def unrolled(kernel, n):
    src = ast.unparse(ast.fix_missing_locations(_Unroll(n).visit(ast.parse(triton.JITFunction(kernel.fn).src))))
    file = f"<unrolled-{kernel.fn.__name__}-{n}>"
    _sources[file] = src.splitlines(keepends=True)
    found = {}
    exec(compile(src, file, "exec"), kernel.fn.__globals__, found)
    return triton.jit(next(iter(found.values())))


N, BLOCK = 300, 64
xs = [torch.randn(N, device=DEVICE) for _ in range(3)]
for n in (2, 3):
    for check in (True, False):
        size = N if check else 256  # unchecked: only whole blocks
        y = torch.empty(size, device=DEVICE)
        unrolled(sum_inputs, n)[(triton.cdiv(size, BLOCK),)](*xs[:n], y, size, CHECK=check, BLOCK=BLOCK)
        torch.testing.assert_close(y.cpu(), sum(x[:size].cpu() * 2.0 for x in xs[:n]), atol=1e-5, rtol=1e-5)

# The host side of xformers' fmha modules, as they import.
assert xs[0].untyped_storage().data_ptr() == xs[0][1:].untyped_storage().data_ptr() != xs[1].untyped_storage().data_ptr()
assert xs[0].untyped_storage().nbytes() == 4 * N
assert torch._dynamo.allow_in_graph(int) is int
# triton_splitk.py's `o_splitk[:, :, :, 0].view(Bqq, G, Hq, Mq, Kq)`: a view of a non-contiguous tensor
# that splits a dim contiguous within itself is a view in torch (ATen's computeStride), not an error.
o = torch.arange(3 * 5 * 2 * 4, dtype=torch.float32).reshape(3, 1, 5, 1, 2, 4).permute(0, 3, 4, 1, 2, 5)
part = o[:, :, :, 0]  # [3, 1, 2, 5, 4], heads and rows transposed: not contiguous
for shape, strides in [((3, 2, 5, 4), (40, 4, 8, 1)), ((3, 1, 2, 5, 2, 2), (40, 8, 4, 8, 2, 1))]:
    v = part.view(*shape)
    assert v.stride() == strides and v.data_ptr() == part.data_ptr(), v.stride()
    assert torch.equal(v, part.contiguous().view(*shape))
try:
    o.permute(0, 1, 2, 3, 5, 4).view(-1)
    raise AssertionError("a transposed tensor flattened as a view")
except RuntimeError as e:
    assert "view size is not compatible" in str(e)


class Scaled(torch.Tensor):
    __torch_function__ = torch._C._disabled_torch_function_impl


@torch.library.custom_op("kl_test::twice", mutates_args=())
def twice(x: torch.Tensor) -> torch.Tensor:
    return x * 2


@torch.library.register_fake("kl_test::twice")
def _(x):
    return torch.empty_like(x)


def backward(ctx: torch.autograd.function.FunctionCtx, grad):
    return grad * 2


twice.register_autograd(backward)
torch.library.register_autograd("kl_test::twice", backward)  # by name, as xformers' tiled_matmul.py
torch.testing.assert_close(twice(xs[1]).cpu(), xs[1].cpu() * 2)


class AddInPlace(torch.autograd.Function):
    """xformers' _ScaledIndexAdd: the input changed in place and given back (ctx.mark_dirty), a once_differentiable backward."""

    @staticmethod
    def forward(ctx, x, y):
        x.add_(y)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        return grad, grad


x, y = torch.zeros(5, device=DEVICE), torch.ones(5, device=DEVICE)
assert AddInPlace.apply(x, y).tolist() == [1.0] * 5 and x.tolist() == [1.0] * 5

# xformers' triton/softmax.py, layer_norm.py, dropout.py: the older spelling imported as a module.
from torch.cuda.amp import custom_bwd, custom_fwd  # noqa: E402

assert custom_fwd(cast_inputs=None)(len) is len and custom_bwd(len) is len

# Triton's hardware probes for its matmul cost model (xformers' matmul_perf_model.py), stand-ins here.
from triton.testing import get_dram_gbps, get_max_simd_tflops, get_max_tensorcore_tflops, nvsmi  # noqa: E402

clock = nvsmi(["clocks.max.sm"])[0] * 1e3
assert get_dram_gbps() > 0 and get_max_tensorcore_tflops(torch.float16, clock) == 2 * get_max_tensorcore_tflops(torch.float32, clock)
assert get_max_simd_tflops(torch.float32, clock) > 0
print("generated kernels and xformers' host probes: match")
