# print(tensor) as torch prints it (torch/_tensor_str.py's rules, default print options): four
# decimals, or whole numbers with a dot, or scientific notation when the values span more than
# 1e3 (or leave 1e-4..1e8); more than 1000 elements shown as their first and last three per
# dimension; 80 columns; the device, and a dtype that isn't the default, after the values.
# One departure, so printing never passes off memory nothing wrote as a value: a bool element whose
# byte is neither 0 nor 1 (torch.empty's poison, 0xad) prints as that byte in hex, where torch would
# print whatever the byte happens to read as; an unwritten float already prints as nan.

import math

import _kernel_lab_ops as _js
from pyodide.ffi import to_js

from . import _dtypes as D

THRESHOLD = 1000
EDGE = 3
LINE_WIDTH = 80


def _shown_positions(shape, summarize):
    """Row-major positions of the elements printed, per dimension the edges when summarised."""
    def axis_indices(extent):
        if summarize and extent > 2 * EDGE:
            return list(range(EDGE)) + list(range(extent - EDGE, extent))
        return list(range(extent))

    positions = [0]
    step = 1
    strides = []
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    strides.reverse()
    for extent, stride in zip(shape, strides):
        positions = [p + i * stride for p in positions for i in axis_indices(extent)]
    return positions


class _Formatter:
    def __init__(self, dtype, values):
        self.floating = dtype.kind == "float"
        self.bool = dtype is D.bool_
        self.mode = "int"
        finite = [v for v in values if math.isfinite(v)] if self.floating else []
        if self.floating:
            nonzero = [abs(v) for v in finite if v != 0]
            if all(v == math.floor(v) for v in finite):
                self.mode = "int" if not nonzero or max(nonzero) < 1e8 else "sci"
            elif nonzero and (max(nonzero) / min(nonzero) > 1000 or max(nonzero) > 1e8 or min(nonzero) < 1e-4):
                self.mode = "sci"
            else:
                self.mode = "fixed"
        self.width = max((len(self.text(v)) for v in values), default=1)

    def text(self, v):
        if self.bool:
            return "False" if v == 0 else "True" if v == 1 else f"0x{int(v):02x}"
        if not self.floating:
            return str(int(v))
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if self.mode == "int":
            return f"{v:.0f}."
        if self.mode == "sci":
            return f"{v:.4e}"
        return f"{v:.4f}"

    def cell(self, v):
        return self.text(v).rjust(self.width)


def format_tensor(t):
    prefix = "tensor("
    indent = len(prefix)
    summarize = t.numel() > THRESHOLD
    positions = _shown_positions(t.shape, summarize) if t.numel() else []
    contiguous = t.contiguous()
    values = list(_js.elements(contiguous._view(), to_js(positions))) if positions else []
    by_position = dict(zip(positions, values))
    formatter = _Formatter(t.dtype, values)
    if t.numel() == 0:
        body = "[]"
    elif t.dim() == 0:
        body = formatter.text(values[0])
    else:
        body = _block(list(t.shape), 0, 0, formatter, by_position, indent, summarize)
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    default = t.dtype in (D.float32, D.int64, D.bool_)
    if not default or t.numel() == 0 and t.dtype is not D.float32:
        suffixes.append(f"dtype={t.dtype!r}")
    if t.numel() == 0 and t.dim() > 1:
        suffixes.insert(0, f"size={tuple(t.shape)}")
    if t.requires_grad:
        suffixes.append("requires_grad=True")
    elif t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name()}>")
    tail = "".join(", " + s for s in suffixes)
    return f"{prefix}{body}{tail})"


def _strides(shape):
    out, step = [], 1
    for extent in reversed(shape):
        out.append(step)
        step *= extent
    return list(reversed(out))


def _block(shape, axis, base, formatter, values, indent, summarize):
    strides = _strides(shape)
    extent = shape[axis]
    if summarize and extent > 2 * EDGE:
        indices = list(range(EDGE)) + [None] + list(range(extent - EDGE, extent))
    else:
        indices = list(range(extent))
    if axis == len(shape) - 1:
        cells = [" ..." if i is None else formatter.cell(values[base + i]) for i in indices]
        per_line = max(1, (LINE_WIDTH - indent) // (formatter.width + 2))
        lines = [", ".join(cells[i:i + per_line]) for i in range(0, len(cells), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = []
    for i in indices:
        if i is None:
            rows.append("...")
        else:
            rows.append(_block(shape, axis + 1, base + i * strides[axis], formatter, values, indent + 1, summarize))
    gap = "," + "\n" * (len(shape) - axis - 1) + " " * (indent + 1)
    return "[" + gap.join(rows) + "]"
