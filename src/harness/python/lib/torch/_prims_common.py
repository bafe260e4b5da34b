"""torch._prims_common's dtype tests that kernel libraries import (FlagGems' cumsum: is_boolean_dtype,
is_integer_dtype), over Kernel Lab's dtypes."""


def is_boolean_dtype(dtype):
    return dtype.kind == "bool"


def is_integer_dtype(dtype):
    return dtype.kind == "int"


def is_float_dtype(dtype):
    return dtype.kind == "float"
