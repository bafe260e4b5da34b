# torch._inductor.select_algorithm: extern_kernels, the library calls output code makes where inductor
# generates no kernel (`extern_kernels.mm(a, b, out=buf)`, `.addmm`, `.bmm`, `.baddbmm`): Kernel Lab's
# torch computes them (its matmul) and copies into `out`, which may be a strided buffer. The others
# (convolution, _mm_plus_mm, scaled_mm…) are NotImplementedError naming them.

from .._not_implemented import not_implemented


def _into(out, result):
    if out is None:
        return result
    out.copy_(result)
    return out


class _ExternKernels:
    @staticmethod
    def mm(a, b, out=None):
        import torch
        return _into(out, torch.matmul(a, b))

    @staticmethod
    def bmm(a, b, out=None):
        import torch
        return _into(out, torch.matmul(a, b))

    @staticmethod
    def addmm(bias, a, b, alpha=1, beta=1, out=None):
        import torch
        return _into(out, torch.matmul(a, b) * alpha + bias * beta)

    @staticmethod
    def baddbmm(bias, a, b, alpha=1, beta=1, out=None):
        import torch
        return _into(out, torch.matmul(a, b) * alpha + bias * beta)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        not_implemented(f"torch._inductor.select_algorithm.extern_kernels.{name}")


extern_kernels = _ExternKernels()

from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._inductor.select_algorithm")
