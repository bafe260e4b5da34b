# triton.runtime.driver.active: Kernel Lab's GPU. What WebGPU tells (the adapter's workgroup
# memory) is real; what it doesn't (SM count, registers) are stand-ins the README lists, chosen so
# the tutorials' occupancy arithmetic gives sensible grids.

from .. import _bridge


class GPUTarget:
    def __init__(self, backend, arch, warp_size):
        self.backend = backend
        self.arch = arch
        self.warp_size = warp_size

    def __repr__(self):
        return f"GPUTarget(backend='{self.backend}', arch='{self.arch}', warp_size={self.warp_size})"


# Triton's CUDA driver utilities that write a TMA descriptor into memory at a raw address (the host-side descriptors
# of Triton ≤ 3.2's experimental TMA, FBGEMM's TmaAutoTuneHelper): Kernel Lab has no raw addresses.
_TMA_FILLS = ("fill_1d_tma_descriptor", "fill_2d_tma_descriptor")


class _Utils:
    def get_device_properties(self, device=0):
        return dict(_bridge.call({"kind": "device-properties"}))

    def __getattr__(self, name):
        if name in _TMA_FILLS:
            from torch._not_implemented import NotInKernelLab
            raise NotInKernelLab(f"triton.runtime.driver.active.utils.{name} (a CUDA TMA descriptor written at a raw "
                                 "device address) isn't in Kernel Lab, whose kernels see no addresses: pass a "
                                 "triton.tools.tensor_descriptor.TensorDescriptor, or make the descriptor in the "
                                 "kernel with tl.make_tensor_descriptor")
        raise AttributeError(f"'_Utils' object has no attribute '{name}'")


class _Driver:
    def __init__(self):
        self.utils = _Utils()

    def get_active_torch_device(self):
        import torch
        return torch.device("cuda", 0)

    def get_current_target(self):
        return GPUTarget("webgpu", "kernel-lab", 32)

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def get_device_interface(self):
        import torch
        return torch.cuda

    def get_benchmarker(self):
        from ..testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        import torch
        return torch.empty(1, dtype=torch.int32, device="cuda")

    def clear_cache(self, cache):
        pass


active = _Driver()
# Triton 2.x's interface: `triton.runtime.driver` was the active driver itself, so libraries written
# for it (DeepSpeed's matmul prune: `triton.runtime.driver.utils.get_device_properties(device)`) read
# `utils` here.
utils = active.utils
