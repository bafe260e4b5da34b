# triton.testing: do_bench times a function's GPU launches with GPU timestamps (the launches one
# call makes are recorded once and replayed; bench.ts), perf_report / Benchmark / Mark.run print
# the table as Triton does and hand the plot to Kernel Lab's results panel. `--bench` decides how
# much runs: off (skipped, said once), quick (the first two points of each benchmark, fewer
# repetitions), full.

import math

import _kernel_lab_bridge as _js_bridge
import _kernel_lab_state as _state
from pyodide.ffi import to_js

from . import _bridge

_said = set()


def _say_once(key, text):
    if key not in _said:
        _said.add(key)
        print(text)


def _time_launches(fn, reps=None, warmup_ms=None):
    """Per call of fn: the median GPU time of the launches it makes, or None when it launches nothing."""
    _state.recording = True
    _bridge.call({"kind": "bench-start"})
    try:
        fn()
    finally:
        _state.recording = False
    quick = _state.bench == "quick"
    result = _bridge.call({"kind": "bench-stop", "reps": reps or (10 if quick else 100), "warmupMs": warmup_ms if warmup_ms is not None else (20 if quick else 200), "quantiles": None})
    return None if result is None else result["medianMs"]


def _wall_clock(fn, rep_ms, quantiles):
    times = []
    start = _bridge.now_ms()
    while len(times) < 3 or (_bridge.now_ms() - start < rep_ms and len(times) < 1000):
        t = _bridge.now_ms()
        fn()
        times.append(_bridge.now_ms() - t)
    return times


def _summary(times, quantiles, return_mode):
    times = sorted(times)
    if quantiles is not None:
        out = [_quantile(times, q) for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "all":
        return times
    if return_mode == "min":
        return times[0]
    if return_mode == "max":
        return times[-1]
    if return_mode == "median":
        return _quantile(times, 0.5)
    return sum(times) / len(times)


def _quantile(sorted_times, q):
    at = q * (len(sorted_times) - 1)
    lo = int(math.floor(at))
    hi = min(len(sorted_times) - 1, lo + 1)
    return sorted_times[lo] + (sorted_times[hi] - sorted_times[lo]) * (at - lo)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean", percentiles=None, **kwargs):
    if percentiles is not None and quantiles is None:
        # Triton 2.0's spelling (GPTQ-for-LLaMa's custom_autotune: `do_bench(kernel_call, percentiles=(0.5, 0.2, 0.8))`),
        # which gave a tuple: its autotuner compares it with the (inf, inf, inf) it gives a config out of resources.
        result = do_bench(fn, warmup, rep, grad_to_none, tuple(percentiles), return_mode, **kwargs)
        return tuple(result) if isinstance(result, (list, tuple)) else result
    if _state.bench == "off":
        _say_once("off", "[kernel-lab] --bench off: triton.testing.do_bench is skipped (it returns nan)")
        return [math.nan] * len(quantiles) if quantiles and len(quantiles) > 1 else math.nan
    _to_none(grad_to_none)
    fn()  # the first call runs checked, as any launch
    quick = _state.bench == "quick"
    _to_none(grad_to_none)
    _state.recording = True
    _bridge.call({"kind": "bench-start"})
    try:
        fn()
    finally:
        _state.recording = False
    reps = 10 if quick else max(10, min(1000, int(rep * 10)))
    result = _bridge.call({"kind": "bench-stop", "reps": reps, "warmupMs": 20 if quick else warmup, "quantiles": None if quantiles is None else list(quantiles)})
    if result is None:
        # Nothing for the GPU: no kernel launch, and no torch op on GPU tensors with a GPU kernel of Kernel Lab's (torch/_on_gpu.py).
        _say_once("cpu", "[kernel-lab] do_bench: a function that launches no GPU work (no kernel, no torch op with a GPU kernel here) is timed by the wall clock")
        return _summary(_wall_clock(fn, 20 if quick else rep, quantiles), quantiles, return_mode)
    return _bench_result(result, quantiles, return_mode)


def _to_none(tensors):
    """As Triton's do_bench: these tensors' .grad is cleared before each call (no accumulation is timed)."""
    for t in tensors or ():
        t.grad = None


def _bench_result(result, quantiles, return_mode):
    if quantiles is not None:
        qs = result["quantilesMs"]
        return qs[0] if len(qs) == 1 else qs
    return {"min": result["minMs"], "max": result["maxMs"], "median": result["medianMs"]}.get(return_mode, result["meanMs"])


do_bench_cudagraph = do_bench


class Benchmark:
    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args, xlabel="", ylabel="", x_log=False, y_log=False, styles=None, color=None):
        self.x_names = list(x_names)
        self.x_vals = list(x_vals)
        self.line_arg = line_arg
        self.line_vals = list(line_vals)
        self.line_names = list(line_names)
        self.plot_name = plot_name
        self.args = dict(args)
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.x_log = x_log
        self.y_log = y_log
        self.styles = styles


class Mark:
    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        benchmarks = self.benchmarks if isinstance(self.benchmarks, list) else [self.benchmarks]
        tables = [self._run(b, show_plots, print_data, **kwargs) for b in benchmarks]
        if return_df:
            return tables[0] if len(tables) == 1 else tables

    def _run(self, bench, show_plots, print_data, **kwargs):
        mode = _state.bench
        if mode == "off":
            _say_once(f"perf:{bench.plot_name}", f"[kernel-lab] --bench off: perf_report '{bench.plot_name}' is skipped")
            return None
        xs = bench.x_vals[:2] if mode == "quick" else bench.x_vals
        if mode == "quick" and len(bench.x_vals) > 2:
            print(f"[kernel-lab] --bench quick: {bench.plot_name} runs the first {len(xs)} of its {len(bench.x_vals)} points")
        columns = [bench.x_names[0]] + list(bench.line_names)
        # Printed as Triton prints it: every x name, and each line named with the y label ("Triton (GB/s)").
        printed = list(bench.x_names) + [f"{n} ({bench.ylabel})" if bench.ylabel else n for n in bench.line_names]
        rows = []
        printed_rows = []
        for x in xs:
            x_args = {name: x for name in bench.x_names} if not isinstance(x, (list, tuple)) else dict(zip(bench.x_names, x))
            row = [x]
            for value in bench.line_vals:
                result = self.fn(**x_args, **{bench.line_arg: value}, **bench.args, **kwargs)
                y = result[0] if isinstance(result, (tuple, list)) else result
                row.append(float(y))
            rows.append(row)
            printed_rows.append([x_args[name] for name in bench.x_names] + row[1:])
        table = Table(printed, printed_rows, len(bench.x_names))
        if print_data:
            print(bench.plot_name + ":")
            print(table.to_string())
        if show_plots:
            _js_bridge.notify(to_js({"kind": "plot", "title": bench.plot_name, "data": {"columns": columns, "rows": rows, "xlabel": bench.xlabel or bench.x_names[0], "ylabel": bench.ylabel, "xLog": bench.x_log, "yLog": bench.y_log}}, dict_converter=_object))
        return table


def _object(entries):
    from js import Object
    return Object.fromEntries(entries)


class Table:
    """What perf_report prints: pandas' DataFrame.to_string() of the rows (the row number first, numbers right-aligned)."""

    def __init__(self, columns, rows, x_count=1):
        self.columns = columns
        self.rows = rows
        self.x_count = x_count

    def to_string(self):
        def cell(v, column):
            if not isinstance(v, (int, float)):
                return str(v)
            return f"{float(v):.1f}" if column < self.x_count else f"{float(v):.6f}"

        body = [[str(i)] + [cell(v, c) for c, v in enumerate(row)] for i, row in enumerate(self.rows)]
        head = [""] + list(self.columns)
        widths = [max(len(r[c]) for r in [head] + body) for c in range(len(head))]
        lines = ["  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(head, widths)))]
        lines += ["  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))) for row in body]
        return "\n".join(lines)

    def __str__(self):
        return self.to_string()


def perf_report(benchmarks):
    return lambda fn: Mark(fn, benchmarks)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    import torch
    torch.testing.assert_close(x, y, atol=atol if atol is not None else 1e-2, rtol=rtol if rtol is not None else 0.0, check_dtype=False, msg=err_msg or None)


def set_gpu_clock(*args, **kwargs):
    import contextlib
    return contextlib.nullcontext()


# Triton's hardware probes for its matmul cost model (xformers' matmul_perf_model.py imports them):
# nvidia-smi's clocks and the DRAM bandwidth can't be read through WebGPU, so they are stand-ins of
# the A100 that get_device_capability's (8, 0) names (README: stand-ins), and the peak rates follow
# Triton's own formulas from them and the stand-in multiprocessor_count. They order and prune configs;
# they time nothing.
_NVSMI_STAND_INS = {"clocks.max.sm": 1410, "clocks.max.mem": 1215}


def nvsmi(attrs):
    missing = [a for a in attrs if a not in _NVSMI_STAND_INS]
    if missing:
        raise NotImplementedError(f"triton.testing.nvsmi({missing!r}): Kernel Lab has stand-ins only for {sorted(_NVSMI_STAND_INS)}")
    return [_NVSMI_STAND_INS[a] for a in attrs]


def get_dram_gbps(device=None):
    return 1555.0


def _subcores(device):
    from .runtime import driver
    return driver.active.utils.get_device_properties(device or 0)["multiprocessor_count"] * 4


def get_max_tensorcore_tflops(dtype, clock_rate, device=None):
    import torch
    if dtype in (torch.float32, torch.int32):
        ops_per_sub_core = 256
    elif dtype in (torch.float16, torch.bfloat16, torch.int16):
        ops_per_sub_core = 512
    elif dtype in (torch.int8, torch.float8_e4m3fn, torch.float8_e5m2):
        ops_per_sub_core = 1024
    else:
        raise RuntimeError("dtype not supported")
    return _subcores(device) * clock_rate * ops_per_sub_core * 1e-9


def get_max_simd_tflops(dtype, clock_rate, device=None):
    import torch
    if dtype == torch.float32:
        ops_per_sub_core = 32
    elif dtype in (torch.float16, torch.bfloat16):
        ops_per_sub_core = 64
    else:
        raise RuntimeError("dtype not supported")
    return _subcores(device) * clock_rate * ops_per_sub_core * 1e-9
