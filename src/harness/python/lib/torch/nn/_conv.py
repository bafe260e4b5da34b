# torch.nn.functional.conv2d (and torch.conv2d): stride, padding (numbers, or "valid" / "same"),
# dilation and groups, checked with torch's messages. On GPU tensors a Kernel Lab kernel
# (_gpu_nn.py's _conv2d, float32 sums); otherwise the exact op in JS (tensor-conv.ts: double-precision
# sums, rounded once to the result's dtype).

import _kernel_lab_ops as _js
from js import Object
from pyodide.ffi import to_js

from .. import _on_gpu
from .._autograd import refuse_grad
from .._math import _device_of, _on_cpu
from .._tensor import Tensor


def _pair(value, name):
    pair = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    if len(pair) == 1:
        pair = pair * 2
    if len(pair) != 2 or not all(isinstance(v, int) for v in pair):
        raise RuntimeError(f"conv2d: expected {name} to be a single integer value or a list of 2 values to match the convolution dimensions, but got {name}={list(pair)}")
    return pair


def _padding(padding, kernel, dilation, stride):
    """(top, left, total height, total width) of zero padding: numbers as given, "valid" none, "same"
    what keeps the size (an odd total's extra element at the bottom and right, as torch pads it)."""
    if isinstance(padding, str):
        if padding == "valid":
            return 0, 0, 0, 0
        if padding != "same":
            raise ValueError(f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}")
        if stride != (1, 1):
            raise ValueError("padding='same' is not supported for strided convolutions")
        total = [d * (k - 1) for d, k in zip(dilation, kernel)]
        return total[0] // 2, total[1] // 2, total[0], total[1]
    top, left = _pair(padding, "padding")
    if top < 0 or left < 0:
        raise RuntimeError("negative padding is not supported")
    return top, left, 2 * top, 2 * left


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    refuse_grad("torch.nn.functional.conv2d", *[t for t in (input, weight, bias) if t is not None])
    if input.dim() not in (3, 4):
        raise RuntimeError(f"Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: {list(input.shape)}")
    if weight.dim() != 4:
        raise RuntimeError(f"Expected 4-dimensional weight for 4-dimensional input {list(input.shape)}, but got {weight.dim()}-dimensional weight of size {list(weight.shape)} instead")
    for t in (weight, bias):
        if t is not None and t.dtype is not input.dtype:
            raise RuntimeError(f"Input type ({input.dtype.name}) and {'weight' if t is weight else 'bias'} type ({t.dtype.name}) should be the same")
    if input.dtype.kind != "float":
        raise RuntimeError(f"\"conv2d\" not implemented for '{input.dtype.name}' (Kernel Lab's conv2d takes float tensors, as torch's on a GPU)")
    device = _device_of(input, weight, *([bias] if bias is not None else []))
    unbatched = input.dim() == 3
    x = input.unsqueeze(0) if unbatched else input
    stride, dilation = _pair(stride, "stride"), _pair(dilation, "dilation")
    if min(stride) <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if min(dilation) <= 0:
        raise RuntimeError("dilation should be greater than zero")
    if not isinstance(groups, int) or groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    batch, channels, height, width = x.shape
    out_channels, per_group, kh, kw = weight.shape
    if out_channels % groups != 0:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of size {list(weight.shape)} instead")
    if channels != per_group * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected input{list(x.shape)} to have {per_group * groups} channels, but got {channels} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with {out_channels} elements, but got bias of size {list(bias.shape)} instead")
    top, left, pad_h, pad_w = _padding(padding, (kh, kw), dilation, stride)
    span_h, span_w = dilation[0] * (kh - 1) + 1, dilation[1] * (kw - 1) + 1
    if height + pad_h < span_h or width + pad_w < span_w:
        raise RuntimeError(f"Calculated padded input size per channel: ({height + pad_h} x {width + pad_w}). Kernel size: ({span_h} x {span_w}). Kernel size can't be greater than actual input size")
    shape = {
        "batch": batch, "channels": channels, "height": height, "width": width,
        "outChannels": out_channels, "kernelHeight": kh, "kernelWidth": kw,
        "outHeight": (height + pad_h - span_h) // stride[0] + 1, "outWidth": (width + pad_w - span_w) // stride[1] + 1,
        "strideH": stride[0], "strideW": stride[1], "padTop": top, "padLeft": left,
        "dilationH": dilation[0], "dilationW": dilation[1], "groups": groups,
    }
    out = _on_gpu.conv2d(x, weight, bias, shape) if device.type == "cuda" else None
    if out is None:
        _on_cpu("torch.nn.functional.conv2d", x, weight, bias)
        views = [t.contiguous()._view() if t is not None else None for t in (x, weight, bias)]
        data = _js.conv2d(*views, to_js(shape, dict_converter=Object.fromEntries), input.dtype.name)
        out = Tensor._make(data, input.dtype, (batch, out_channels, shape["outHeight"], shape["outWidth"]), device=device)
    return out.squeeze(0) if unbatched else out
