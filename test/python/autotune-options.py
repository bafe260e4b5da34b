"""@triton.autotune's other arguments, as Triton takes them: `do_bench` (a user's timing function of
kernel_call and quantiles) times the configs; `warmup=` / `rep=` (deprecated in Triton, still
accepted) time them with triton.testing.do_bench at those times; `use_cuda_graph=True` is accepted
and changes nothing; `cache_results=True` remembers each key's pick on disk, so a second autotuner
over the same kernel and configs launches it untimed. The autotuner's `best_config`, `configs`,
`cache` and `configs_timings` are Triton's. (Run it with a fresh KERNEL_LAB_CACHE_DIR: the
remembered pick outlives the run.)"""

import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * scale, mask=mask)


CONFIGS = [triton.Config({'BLOCK': 64}), triton.Config({'BLOCK': 128}), triton.Config({'BLOCK': 256})]
n = 1000
x = torch.rand(n, device=DEVICE)
grid = lambda meta: (triton.cdiv(n, meta['BLOCK']), )  # noqa: E731


def in_order(times, calls):
    """A user's do_bench: runs the call once and says the configs took `times` ms, in the order timed."""
    def do_bench(kernel_call, quantiles):
        kernel_call()
        calls.append(len(calls))
        return times[len(calls) - 1]
    return do_bench


def launch(kernel):
    out = torch.empty(n, device=DEVICE)
    kernel[grid](x, out, n, 3.0)
    torch.testing.assert_close(out, x * 3.0)


# do_bench: its times decide (the 128 config "fastest"); a list (quantiles) or one float each.
calls = []
timed = triton.autotune(CONFIGS, key=['n'], do_bench=in_order([[3.0, 2.9, 3.1], 1.0, [2.0]], calls))(scale_kernel)
launch(timed)
assert calls == [0, 1, 2], calls
assert timed.best_config is CONFIGS[1] and timed.best_config.kwargs == {'BLOCK': 128}, timed.best_config
assert timed.configs == CONFIGS
assert list(timed.cache.values()) == [CONFIGS[1]] and len(timed.cache) == 1, timed.cache
assert [timed.configs_timings[c] for c in CONFIGS] == [[3.0, 2.9, 3.1], 1.0, [2.0]], timed.configs_timings
assert timed.bench_time >= 0
print("do_bench picked", timed.best_config)

# warmup= and rep=: triton.testing.do_bench at those times, looked up when the configs are timed.
seen = []
original = triton.testing.do_bench


def recording(fn, warmup=25, rep=100, **kwargs):
    seen.append((warmup, rep))
    return original(fn, warmup=warmup, rep=rep, **kwargs)


triton.testing.do_bench = recording
launch(triton.autotune(CONFIGS, key=['n'], warmup=5, rep=20)(scale_kernel))
triton.testing.do_bench = original
assert seen == [(5, 20)] * 3, seen
print("warmup and rep", seen[0])

# use_cuda_graph: accepted; the configs are timed as without it.
graphs = triton.autotune(CONFIGS, key=['n'], use_cuda_graph=True)(scale_kernel)
launch(graphs)
assert graphs.best_config in CONFIGS and all(c in graphs.configs_timings for c in CONFIGS)
print("use_cuda_graph accepted")

# cache_results: the first autotuner times and remembers; a second one over the same kernel and key
# launches the remembered pick without timing anything, with the remembered medians.
first_calls, second_calls = [], []
remembering = triton.autotune(CONFIGS, key=['n'], do_bench=in_order([2.0, 3.0, 0.5], first_calls), cache_results=True)(scale_kernel)
launch(remembering)
assert first_calls == [0, 1, 2] and remembering.best_config is CONFIGS[2], (first_calls, remembering.best_config)
remembered = triton.autotune(CONFIGS, key=['n'], do_bench=in_order([1.0, 1.0, 1.0], second_calls), cache_results=True)(scale_kernel)
launch(remembered)
assert second_calls == [], second_calls
assert remembered.best_config is CONFIGS[2] and remembered.bench_time == 0.0, remembered.best_config
assert [remembered.configs_timings[c] for c in CONFIGS] == [2.0, 3.0, 0.5], remembered.configs_timings
print("cache_results: remembered", remembered.best_config)
