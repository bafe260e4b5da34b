# Reached only as xmod_namespace.scales.twice: through the namespace package's attributes.
import triton


@triton.jit
def twice(x):
    return x * 2.0
