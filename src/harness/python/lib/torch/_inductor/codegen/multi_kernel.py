# torch._inductor.codegen.multi_kernel: MultiKernelCall (`triton.multi_kernel`: two kernels for one
# reduction, the faster picked at run time). Imported by every output code file; calling one is refused.

from ..._not_implemented import not_implemented


class MultiKernelCall:
    def __init__(self, *args, **kwargs):
        not_implemented("torch._inductor.codegen.multi_kernel.MultiKernelCall (config.triton.multi_kernel)")
