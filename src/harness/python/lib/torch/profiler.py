# torch.profiler: torch's host and CUDA trace (gpu-mode's lecture 29 vector_add.py imports `profile` at its
# top and profiles under `__main__`; lecture 18's profiling script too). Kernel Lab has no trace to give:
# the import succeeds, so the module's kernels run, and each name is refused where it is used, saying what
# times a kernel here instead. ProfilerActivity's members are only names.

import enum

from ._not_implemented import NotInKernelLab, _message, missing_in


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1
    XPU = 2
    MTIA = 3


def _refused(name):
    def refused(*args, **kwargs):
        raise NotInKernelLab(_message(f"torch.profiler.{name}") + " (a kernel is timed with triton.testing.do_bench, "
                             "or `kernel-lab run FILE.py --bench`)")
    refused.__name__ = name
    return refused


profile = _refused("profile")
schedule = _refused("schedule")
tensorboard_trace_handler = _refused("tensorboard_trace_handler")
record_function = _refused("record_function")

__getattr__ = missing_in("torch.profiler")
