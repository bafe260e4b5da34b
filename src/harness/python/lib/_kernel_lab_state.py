# What one run of a script shares between Kernel Lab's torch and triton modules: the file's name
# (launch sites are reported at its lines), how much benchmarking runs, --cpu.

import sys

file_name = "<script>"
bench = "full"
cpu = False
# Inside do_bench's timed call: launches are recorded for timing, not run checked.
recording = False
user_modules = set()
# Counts the runs: a tensor's GPU buffer belongs to one (torch/_resident.py).
run_id = 0
# Posts a notice to the main thread without waiting (set by the runner: the bridge's notify).
notify = None


def reset(name, bench_mode, on_cpu):
    global file_name, bench, cpu, recording, run_id
    file_name = name
    run_id += 1
    recording = False
    bench = bench_mode
    cpu = on_cpu
    for module in ("torch", "triton"):
        reset_hook = getattr(sys.modules.get(module), "_kernel_lab_reset", None)
        if reset_hook:
            reset_hook()


def caller_line():
    """The line of the script that called into Kernel Lab (the innermost frame in the script's file)."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == file_name:
            return frame.f_lineno
        frame = frame.f_back
    return None
