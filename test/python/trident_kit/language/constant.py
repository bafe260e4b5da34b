import triton.language as tl

eps = tl.constexpr(1e-6)
