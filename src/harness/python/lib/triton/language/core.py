# triton.language.core, where Triton defines the language's types: libraries name them through it
# (`tl.core.constexpr`, `tl.core.tensor`) and use its constants as parameter defaults (fla's
# nsa/utils.py: `descending: tl.constexpr = tl.core.CONSTEXPR_0`, as Triton's own standard.py).

from . import constexpr, dtype, tensor, pointer_type, block_type  # noqa: F401

CONSTEXPR_0 = constexpr(0)


def get_int_dtype(bitwidth, signed):
    """The integer dtype of `bitwidth` bits (TransformerEngine's argsort calls it in a kernel, which
    Kernel Lab evaluates while compiling; here, on the host, as Triton's)."""
    from . import int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64
    bitwidth = constexpr(bitwidth).value
    signed = constexpr(signed).value
    table = {1: (int1, int1), 8: (int8, uint8), 16: (int16, uint16), 32: (int32, uint32), 64: (int64, uint64)}
    if bitwidth not in table:
        raise ValueError(f"Unsupported bitwidth {bitwidth} and signedness {signed}")
    return table[bitwidth][0 if signed else 1]
