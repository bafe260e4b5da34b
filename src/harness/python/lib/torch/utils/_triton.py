# torch.utils._triton: torch's probe of Triton, which libraries ask before defining Triton kernels
# (bitsandbytes' `is_triton_available()`: `has_triton_package() and has_triton()`, else its functions
# return None). Kernel Lab's triton is importable and has a device to run on, so both are True, as
# torch says on a CUDA machine with Triton installed.


def has_triton_package():
    return True


def has_triton():
    return True
