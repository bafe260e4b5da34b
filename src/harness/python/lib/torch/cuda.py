# torch.cuda as a script sees it on Kernel Lab's GPU: launches are already finished when they
# return (each is checked before the script goes on), so synchronize has nothing to wait for.


def is_available():
    return True


def is_bf16_supported(including_emulation=True):
    """Kernel Lab has bfloat16 tensors and kernels (apple/ml-cross-entropy asks before its bf16 autocast)."""
    return True


def synchronize(device=None):
    pass


def device_count():
    return 1


def current_device():
    return 0


def set_device(device):
    pass


class device:
    """`with torch.cuda.device(x.device):` (FlagGems' torch_device_fn.device): there is one GPU, already the current one."""

    def __init__(self, device=None):
        self.idx = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _DeviceGuard(device):
    """`with torch.cuda._DeviceGuard(0):` around torch.compile's output code's launches: the one GPU."""


class device_of(device):
    """`with torch.cuda.device(torch.cuda.device_of(q)):` (FlagAttention's flash, piecewise, paged): the device of a
    tensor, as a context; there is one GPU, already the current one."""

    def __init__(self, obj):
        super().__init__(getattr(obj, "device", None))


def get_device_name(device=None):
    return "Kernel Lab GPU (WebGPU)"


def get_device_capability(device=None):
    """A stand-in (README): 8.0, so a tutorial's `capability[0] >= 9` (TMA, Hopper's fp8 paths) and `== 10`
    (Blackwell) branches are not taken; Kernel Lab runs neither tensor descriptors nor fp8."""
    return (8, 0)


class _DeviceProperties:
    """What kernel libraries read off torch.cuda.get_device_properties (Liger's backward grids are
    `multi_processor_count` programs): the same stand-ins as triton's get_device_properties (README)."""

    def __init__(self, props):
        self.name = props["name"]
        self.major, self.minor = get_device_capability()
        self.multi_processor_count = props["multiprocessor_count"]
        self.warp_size = props["warpSize"]
        self.max_threads_per_multi_processor = props["max_threads_per_sm"]
        self.regs_per_multiprocessor = props["max_num_regs"]
        self.shared_memory_per_block = props["max_shared_mem"]

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"multi_processor_count={self.multi_processor_count})")


def get_device_properties(device=None):
    import triton
    return _DeviceProperties(triton.runtime.driver.active.utils.get_device_properties(0))


def manual_seed(seed):
    import torch
    torch.manual_seed(seed)


class _Generator:
    """torch.cuda.default_generators[0]: the GPU's Philox generator as kernel libraries read it to seed `tl.rand` in
    their own kernels (FlagAttention's philox_cuda_seed_offset: `c0, c1 = gen.get_state().view(torch.int64)`, seed and
    offset, then `c1 += increment; gen.set_state(state)` to reserve the offsets its launch draws). Its state is the
    seed last set (manual_seed) and an offset that set_state advances, reset to 0 when the generator is seeded (torch.manual_seed). get_state
    gives them as an int64 tensor of two elements, not CUDA's 16 bytes (`.view(torch.int64)` of it is a view, so the
    increment lands in it as in torch); the seed is below 2^31 (torch.seed's), as a kernel's int32 seed argument."""

    device = None

    def __init__(self):
        self._seed = None
        self._offset = 0

    def _current(self):
        from . import random
        seed = (random.initial_seed() & 0x7FFF_FFFF, random._generation[0])
        if seed != self._seed:
            self._seed, self._offset = seed, 0
        return seed[0]

    def get_state(self):
        import torch
        return torch.tensor([self._current(), self._offset], dtype=torch.int64)

    def set_state(self, new_state):
        import torch
        if not isinstance(new_state, torch.Tensor) or new_state.dtype is not torch.int64 or tuple(new_state.shape) != (2, ):
            raise RuntimeError("torch.cuda.default_generators[0].set_state takes what its get_state gave (two int64: seed, offset, in Kernel Lab's torch)")
        seed, offset = (int(v) for v in new_state.cpu().tolist())
        if seed != self._current():
            torch.manual_seed(seed)
            self._current()
        self._offset = offset

    def initial_seed(self):
        return self._current()

    def manual_seed(self, seed):
        manual_seed(seed)
        return self

    def seed(self):
        import torch
        torch.seed()
        return self._current()


default_generators = (_Generator(),)


manual_seed_all = manual_seed


def empty_cache():
    pass


class Event:
    refused = True

    def __init__(self, enable_timing=False, **kwargs):
        raise NotImplementedError("torch.cuda.Event is not in Kernel Lab's torch: time with triton.testing.do_bench (GPU timestamps)")


class Stream:
    """One queue: Kernel Lab's launches run in order, each finished before the script goes on."""

    cuda_stream = 0  # the raw handle torch gives the default stream

    def __init__(self, device=None, priority=0, **kwargs):
        pass

    def synchronize(self):
        pass

    def wait_stream(self, other):
        pass


_stream = Stream()


def set_stream(stream):
    pass


def current_stream(device=None):
    return _stream


def default_stream(device=None):
    return _stream


def stream(s):
    import contextlib
    return contextlib.nullcontext()


def is_current_stream_capturing():
    """False: WebGPU has no CUDA graphs, so no stream is ever capturing (lightllm's decode attention
    picks its config by `if torch.cuda.is_current_stream_capturing():`)."""
    return False
from . import amp  # noqa: E402,F401 (torch.cuda.amp.custom_fwd, the older spelling)

# `from torch.cuda.amp import custom_fwd` (xformers' triton/softmax.py) imports it as a module:
# torch.cuda is a module here, not a package, so the name is registered as torch's own is.
import sys as _sys  # noqa: E402

_sys.modules.setdefault("torch.cuda.amp", amp)


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.cuda")
