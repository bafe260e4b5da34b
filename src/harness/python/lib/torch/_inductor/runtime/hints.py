# torch._inductor.runtime.hints: the names TorchInductor's generated kernels import for their decorators'
# arguments (`ReductionHint.INNER`, `TileHint.SQUARE`, `AutotuneHint`, `DeviceProperties(type='cuda', …)`)
# and the block limits triton_heuristics.py picks configs under, as in pytorch/pytorch
# torch/_inductor/runtime/hints.py at ffdd74d6 (BSD-3-Clause). DeviceProperties describes the GPU the file
# was generated for; Kernel Lab keeps it and picks configs as inductor does from size_hints alone.

import collections
import typing
from enum import Enum, auto

TRITON_MAX_BLOCK = {
    "X": 4096,
    "Y": 1024,
    "Z": 1024,
    "R0_": 4096 * 16,
    "R1_": 2048 * 16,
}
TRITON_MAX_RSPLIT = 64

_NUM_THREADS_PER_WARP = 32


class ReductionHint(Enum):
    INNER = 0
    OUTER = 1
    OUTER_TINY = 2
    DEFAULT = 3


class TileHint(Enum):
    SQUARE = 0
    DEFAULT = 1


class HeuristicType(Enum):
    PERSISTENT_REDUCTION = auto()
    POINTWISE = auto()
    REDUCTION = auto()
    SPLIT_SCAN = auto()
    TEMPLATE = auto()
    USER_AUTOTUNE = auto()
    FIXED = auto()


class AutotuneHint(Enum):
    ONE_ELEMENT_PER_THREAD = 0
    # torch 2.2's name for it, in files generated then.
    ELEMENTS_PER_WARP_32 = 0

    __repr__ = Enum.__str__


class DeviceProperties(typing.NamedTuple):
    """The GPU a file was generated for (its fields as torch ≥ 2.5 writes them, by keyword)."""

    type: str
    index: int
    multi_processor_count: typing.Optional[int] = None
    cc: typing.Optional[int] = None
    major: typing.Optional[int] = None
    regs_per_multiprocessor: typing.Optional[int] = None
    max_threads_per_multi_processor: typing.Optional[int] = None
    max_threads_per_block: typing.Optional[int] = None  # torch ≥ 2.8
    warp_size: typing.Optional[int] = None

    @classmethod
    def create(cls, device):
        return cls(type="cuda", index=0, warp_size=32)


# triton_meta's 'configs' of torch 2.2–2.4 (`instance_descriptor(divisible_by_16=…)`): alignment facts
# Triton specialises on; Kernel Lab's compiler reads none of them.
AttrsDescriptorWrapper = collections.namedtuple("AttrsDescriptor", ["divisible_by_16", "equal_to_1"], defaults=[(), ()])
instance_descriptor = collections.namedtuple("instance_descriptor", ["divisible_by_16", "equal_to_1", "ids_of_folded_args", "divisible_by_8"],
                                             defaults=[(), (), (), ()])
