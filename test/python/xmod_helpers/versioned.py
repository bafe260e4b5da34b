# Like mamba's softplus.py: a @triton.jit helper defined in each branch of a module-level `if` on
# Triton's version. The condition is false here, so Python binds the second branch's: only the
# run can say which one a kernel calls.
import triton
import triton.language as tl

FROM_THE_FUTURE = int(triton.__version__.split(".")[0]) >= 99

if FROM_THE_FUTURE:
    @triton.jit
    def shifted(x):
        return x + 100.0
else:
    @triton.jit
    def shifted(x):
        return x + 1.0
