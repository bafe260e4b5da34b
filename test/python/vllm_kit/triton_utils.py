# As vllm/triton_utils: the script takes `tl` and `triton` from here, not from triton itself.
import triton
import triton.language as tl

__all__ = ["tl", "triton"]
