"""flashinfer's triton/kernels/ssd_chunk_state.py idiom, in a kernel of ours: a @triton.jit helper defined in both
branches of a module-level `if` on the Triton version, and the kernel that calls it launched from this module (not
the script). Python binds the first branch's `softplus`; the other is the one a reader of the text alone finds last.
flashinfer's calls tl.math.log1p, which Kernel Lab has since gained; this one computes it in inline PTX, which Kernel
Lab refuses (WGSL has no PTX), so a compile of the wrong branch still stops the run."""

import triton
import triton.language as tl

NEW_TRITON = int(triton.__version__.split(".")[0]) >= 3

if NEW_TRITON:

    @triton.jit
    def softplus(x):
        return tl.where(x <= 20.0, tl.math.log(tl.math.exp(x) + 1), x)

else:

    @triton.jit
    def softplus(x):
        log1p = tl.inline_asm_elementwise("lg2.approx.f32 $0, $1;", "=r,r", [tl.exp(x) + 1], dtype=tl.float32, is_pure=True, pack=1)
        return tl.where(x <= 20.0, log1p * 0.6931471805599453, x)


@triton.jit
def softplus_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(Y + offs, softplus(tl.load(X + offs, mask=mask, other=0.0)), mask=mask)


def softplus_op(x):
    out = x.new_empty(x.shape)
    softplus_kernel[(triton.cdiv(x.numel(), 128),)](x, out, x.numel(), BLOCK=128)
    return out
