"""torch.nn.functional.conv2d as torch computes it: small cases worked out by hand (valid, padding with
stride, padding="same" with its extra row and column at the bottom and right, dilation with a bias,
groups, an unbatched input through torch.conv2d), then fresh random inputs with every option at once
against a float64 loop written here, on GPU tensors (a Kernel Lab kernel) and on CPU tensors (the
exact op), float32 and float16, and torch's errors for arguments that don't fit."""

import torch
import torch.nn.functional as F

DEVICE = "cuda"


def both(x, w, b=None, **kwargs):
    """conv2d on CPU tensors and on GPU tensors: the same numbers (the CPU's, a list)."""
    cpu = F.conv2d(x, w, b, **kwargs)
    gpu = F.conv2d(x.to(DEVICE), w.to(DEVICE), None if b is None else b.to(DEVICE), **kwargs)
    assert gpu.device.type == "cuda" and gpu.shape == cpu.shape, (gpu.shape, cpu.shape)
    torch.testing.assert_close(gpu.cpu(), cpu)
    return cpu.tolist()


x = torch.arange(1, 10, dtype=torch.float32).reshape(1, 1, 3, 3)  # 1 2 3 / 4 5 6 / 7 8 9
ones = torch.ones(1, 1, 2, 2)
assert both(x, ones) == [[[[12.0, 16.0], [24.0, 28.0]]]]
# Padded to 5 x 5, windows at rows/columns -1 and 1: 1, 2+3, 4+7, 5+6+8+9.
assert both(x, ones, padding=1, stride=2) == [[[[1.0, 5.0], [11.0, 28.0]]]]
# "same": 1 row and column of padding in all, at the bottom and right.
assert both(x, ones, padding="same") == [[[[12.0, 16.0, 9.0], [24.0, 28.0, 15.0], [15.0, 17.0, 9.0]]]]
# Dilation 2 with padding 1: the corners of a 3 x 3 window, plus the bias 10.
assert both(x, ones, torch.tensor([10.0]), dilation=2, padding=1) == [[[[15.0, 20.0, 15.0], [20.0, 30.0, 20.0], [15.0, 20.0, 15.0]]]]
# Two groups of one channel: channel 0 doubled (+0.5), channel 1 negated (+1).
two = torch.arange(1, 9, dtype=torch.float32).reshape(1, 2, 2, 2)
assert both(two, torch.tensor([2.0, -1.0]).reshape(2, 1, 1, 1), torch.tensor([0.5, 1.0]), groups=2) == [[[[2.5, 4.5], [6.5, 8.5]], [[-4.0, -5.0], [-6.0, -7.0]]]]
# Unbatched (C, H, W) in, (O, OH, OW) out; torch.conv2d is the same function.
assert torch.conv2d(x[0], ones, stride=(1, 2)).tolist() == [[[12.0], [24.0]]]
print("conv2d by hand: match")


def reference(x, w, b, stride, padding, dilation, groups):
    """conv2d in float64 Python loops (x, w, b as nested lists)."""
    n_, c_, h_, w_ = len(x), len(x[0]), len(x[0][0]), len(x[0][0][0])
    o_, cg, kh_, kw_ = len(w), len(w[0]), len(w[0][0]), len(w[0][0][0])
    oh_ = (h_ + 2 * padding[0] - dilation[0] * (kh_ - 1) - 1) // stride[0] + 1
    ow_ = (w_ + 2 * padding[1] - dilation[1] * (kw_ - 1) - 1) // stride[1] + 1
    og = o_ // groups
    out = [[[[0.0] * ow_ for _ in range(oh_)] for _ in range(o_)] for _ in range(n_)]
    for n in range(n_):
        for o in range(o_):
            for oh in range(oh_):
                for ow in range(ow_):
                    s = b[o] if b is not None else 0.0
                    for c in range(cg):
                        for kh in range(kh_):
                            ih = oh * stride[0] - padding[0] + kh * dilation[0]
                            for kw in range(kw_):
                                iw = ow * stride[1] - padding[1] + kw * dilation[1]
                                if 0 <= ih < h_ and 0 <= iw < w_:
                                    s += x[n][(o // og) * cg + c][ih][iw] * w[o][c][kh][kw]
                    out[n][o][oh][ow] = s
    return out


torch.manual_seed(0)
options = dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)
x = torch.randn(2, 4, 9, 7)
w = torch.randn(6, 2, 3, 2)
b = torch.randn(6)


def flat(nested):
    return [v for item in nested for v in flat(item)] if isinstance(nested, list) else [nested]


def largest_error(got, want):
    """The largest |got - want| / (1 + |want|) over the elements (Python floats: float64)."""
    return max(abs(g - v) / (1 + abs(v)) for g, v in zip(flat(got.tolist()), flat(want), strict=True))


want = reference(x.tolist(), w.tolist(), b.tolist(), **options)
cpu = F.conv2d(x, w, b, **options)
assert cpu.shape == (2, 6, 5, 9), cpu.shape
assert largest_error(cpu, want) < 1e-6, largest_error(cpu, want)  # the float64 sum, rounded once to float32
gpu = F.conv2d(x.to(DEVICE), w.to(DEVICE), b.to(DEVICE), **options)
resident = not gpu._data.host  # made by a kernel on the GPU, nothing read back yet
assert largest_error(gpu, want) < 1e-5, largest_error(gpu, want)
torch.testing.assert_close(gpu, cpu.to(DEVICE))
# A strided input (a transposed view) and float16, on the GPU: summed in float32, rounded once.
xt = torch.randn(2, 4, 7, 9).transpose(2, 3)
torch.testing.assert_close(F.conv2d(xt.to(DEVICE), w.to(DEVICE), **options).cpu(), F.conv2d(xt.contiguous(), w, **options), rtol=1e-5, atol=1e-5)
half = F.conv2d(x.half().to(DEVICE), w.half().to(DEVICE), b.half().to(DEVICE), **options)
assert half.dtype == torch.float16
torch.testing.assert_close(half.cpu(), F.conv2d(x.half(), w.half(), b.half(), **options), rtol=1e-3, atol=1e-3)
print(f"conv2d with stride, padding, dilation and groups against float64: match; made on the GPU: {resident}")

x4 = torch.randn(1, 4, 5, 5)
for call, message in [
    (lambda: F.conv2d(torch.randn(4, 5), w), "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [4, 5]"),
    (lambda: F.conv2d(x4, torch.randn(6, 3, 3, 3)), "Given groups=1, weight of size [6, 3, 3, 3], expected input[1, 4, 5, 5] to have 3 channels, but got 4 channels instead"),
    (lambda: F.conv2d(x4, torch.randn(3, 2, 3, 3), groups=2), "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [3, 2, 3, 3] instead"),
    (lambda: F.conv2d(x4, torch.randn(2, 4, 3, 3), torch.randn(3)), "Given weight of size [2, 4, 3, 3], expected bias to be 1-dimensional with 2 elements, but got bias of size [3] instead"),
    (lambda: F.conv2d(x4, torch.randn(2, 4, 7, 7)), "Calculated padded input size per channel: (5 x 5). Kernel size: (7 x 7). Kernel size can't be greater than actual input size"),
]:
    try:
        call()
    except RuntimeError as e:
        assert str(e) == message, str(e)
    else:
        raise AssertionError(f"no error: {message}")
try:
    F.conv2d(x4, torch.randn(2, 4, 3, 3), stride=2, padding="same")
except ValueError as e:
    assert str(e) == "padding='same' is not supported for strided convolutions", str(e)
else:
    raise AssertionError("padding='same' with a stride")
print("conv2d's errors: torch's")
