# A kernel library in miniature laid out as kakaobrain/trident lays out its own (ours, for
# test/python/trident-idioms.py): `language` a package of classes of @triton.jit helpers, a `math`
# subpackage, combine functions and tl.constexpr constants taken in by `from .x import *`.
