# torch._inductor.utils: the names output code imports from it — instance_descriptor (torch ≤ 2.4's
# triton_meta), maybe_profile, and print_performance, which its benchmark_compiled_module() calls: each
# call of `fn` is timed on the clock with the GPU's queue drained (torch.cuda.synchronize), and the median of
# `repeat` runs of `times` calls, per call, printed in seconds as inductor prints it.

import contextlib
import time

from .runtime.hints import instance_descriptor  # noqa: F401


@contextlib.contextmanager
def maybe_profile(should_profile, *args, **kwargs):
    if should_profile:
        from .._not_implemented import not_implemented
        not_implemented("torch._inductor.utils.maybe_profile(True, …) (torch.profiler)")
    yield


def print_performance(model, example_inputs=(), times=10, repeat=10, baseline=1.0, device="cuda"):
    import torch
    timings = []
    for _ in range(repeat):
        torch.cuda.synchronize()
        started = time.perf_counter()
        for _ in range(times):
            result = model(*example_inputs)
        torch.cuda.synchronize()
        timings.append(time.perf_counter() - started)
    timings.sort()
    took = timings[len(timings) // 2] / times
    print(f"{took / baseline:.6f}")
    return took


from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._inductor.utils")
