# triton.language.core, where Triton defines the language's types: libraries name them through it
# (`tl.core.constexpr`, `tl.core.tensor`) and use its constants as parameter defaults (fla's
# nsa/utils.py: `descending: tl.constexpr = tl.core.CONSTEXPR_0`, as Triton's own standard.py).

from . import constexpr, dtype, tensor, pointer_type, block_type  # noqa: F401

CONSTEXPR_0 = constexpr(0)
