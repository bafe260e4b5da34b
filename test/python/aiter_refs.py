"""What test/python/aiter-idioms.py and aiter-long-compiles.py share: a line per result, a tolerance, and the RMSNorm
and per-row quantization references written from their definitions in Kernel Lab's torch."""

import torch

EPS = 1e-6


def report(name, ok, detail=""):
    print(name + ":", "match" if ok else f"differ {detail}")


def close(got, want, atol=1e-5, rtol=1e-5):
    return bool(torch.allclose(got.float(), want.float(), atol=atol, rtol=rtol))


def rms_ref(x, w):
    return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + EPS) * w


def quant_ref(y, dtype, qmax):
    """Per-row scale max|y| / qmax; y times the scale's reciprocal (as aiter's kernels multiply), cast (int8 truncates)."""
    scale = y.abs().amax(-1, keepdim=True) / qmax
    return (y * (1.0 / scale)).to(dtype), scale[:, 0]
