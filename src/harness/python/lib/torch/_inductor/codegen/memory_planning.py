# torch._inductor.codegen.memory_planning: _align, which output code imports as `align` (buffer offsets
# in a planned pool rounded up to 64 bytes).

ALIGN_BYTES = 64


def _align(nbytes):
    return (nbytes + ALIGN_BYTES - 1) & -ALIGN_BYTES
