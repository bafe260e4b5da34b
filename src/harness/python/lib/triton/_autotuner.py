# @triton.autotune and triton.Config, as Triton's runtime/autotuner.py: the first time a key's values
# are seen, each config (after prune_configs_by) is timed on the script's own tensors, then the
# fastest is launched. Because the timed runs write the script's tensors, `reset_to_zero` names the
# arguments zeroed before each timed run (and once more after tuning, before the real launch) and
# `restore_value` the ones saved before each run and put back after it; `pre_hook` / `post_hook`
# replace those hooks and `Config(pre_hook=…)` runs before each of its config's launches. With
# `kernel-lab run --tune-codegen` the main thread tunes configs and code-generation knobs together
# on copies of the tensors (python/autotune.ts), told which ones to zero. The timing is `do_bench`'s
# (a user's function of (kernel_call, quantiles)), else triton.testing.do_bench with `warmup` / `rep`
# where given (Triton's deprecated interface, still accepted), else the GPU time of each call's
# launches. `cache_results=True` keeps each key's pick in Kernel Lab's autotune cache on disk
# (python/autotune-results.ts), so a later run launches it untimed. `use_cuda_graph` is accepted and
# changes nothing: WebGPU has no CUDA graphs, and the launches are timed by GPU timestamps anyway.

import math
import time
import warnings

import _kernel_lab_state as _state

from . import _bridge
from ._bridge import OutOfResources
from ._jit import JITFunction

_said = set()


class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, **ignored):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        return {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages}

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()] + [f"num_warps: {self.num_warps}", f"num_stages: {self.num_stages}"]
        return ", ".join(parts)

    __repr__ = __str__


def _time_call(kernel_call, quantiles):
    """The default do_bench: the GPU launches one call makes (the hooks' torch ops included, as in
    Triton, where they are timed with the kernel) recorded and replayed; [median, …] in ms."""
    from .testing import _time_launches
    ms = _time_launches(kernel_call)
    return [float("inf") if ms is None else ms] * len(quantiles)


def _prune_kwargs(prune, kwargs):
    """The launch's other keyword arguments that `early_config_prune` takes. Triton 3 passes them all
    (`prune(configs, named_args, **kwargs)`); Triton 2.x passed only (configs, named_args), and
    libraries written for it (DeepSpeed's `_fp16_matmul_prune_config(configs, named_args,
    skip_autotune=False)`) take no others: they get the ones they name."""
    import inspect
    try:
        params = inspect.signature(prune).parameters.values()
    except (TypeError, ValueError):
        return kwargs
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return kwargs
    named = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return {k: v for k, v in kwargs.items() if k in named}


def _median(timing):
    """A do_bench result's first number (Triton's do_bench gives a list for quantiles, a user's may give one float)."""
    if isinstance(timing, (list, tuple)):
        timing = timing[0] if timing else math.inf
    return math.inf if timing is None or math.isnan(timing) else float(timing)


class Autotuner:
    """Times every config the first time a key's values are seen, then launches the fastest. As in
    Triton, `cache` maps each key to its Config, `best_config` is the last launch's, and
    `configs_timings` / `bench_time` are the last tuning's timings per config and its seconds."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None, restore_value=None, pre_hook=None, post_hook=None,
                 prune_configs_by=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False, **ignored):
        self.fn = fn
        self.configs = configs or [Config({})]
        self.keys = list(key)
        self.cache = {}
        self._codegen = {}
        self.best_config = None
        self.configs_timings = None
        self.bench_time = None
        self.nargs = None
        self.__name__ = getattr(fn, "__name__", "kernel")
        # `Cls.kernel` for one defined in a class body (_jit.py JITFunction): what the requests name.
        self._kernel_lab_name = getattr(fn, "_kernel_lab_name", self.__name__)
        self.arg_names = list(arg_names) if arg_names is not None else self._jit().arg_names
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.restore_copies = {}
        self.user_defined_pre_hook = pre_hook is not None
        self.user_defined_post_hook = post_hook is not None
        self.pre_hook = pre_hook or self._reset_and_save
        self.post_hook = post_hook or self._restore
        prune_configs_by = prune_configs_by or {}
        self.perf_model = prune_configs_by.get("perf_model")
        self.configs_top_k = prune_configs_by.get("top_k", 1.0)
        self.early_config_prune = prune_configs_by.get("early_config_prune")
        self.cache_results = bool(cache_results)
        self.use_cuda_graph = use_cuda_graph
        self.num_warmups = warmup
        self.num_reps = rep
        self.do_bench = do_bench or _time_call
        if warmup is not None or rep is not None or use_cuda_graph:
            warnings.warn("warmup, rep, and use_cuda_graph parameters are deprecated. See "
                          "https://github.com/triton-lang/triton/pull/4496 for details.", DeprecationWarning, stacklevel=1)
        if warmup is not None or rep is not None:
            # Triton's older interface (it wins over do_bench there too): triton.testing.do_bench with these times in ms.
            def timed(kernel_call, quantiles):
                from . import testing
                return testing.do_bench(kernel_call, warmup=25 if warmup is None else warmup, rep=100 if rep is None else rep, quantiles=quantiles)
            self.do_bench = timed

    def _reset_and_save(self, nargs, reset_only=False):
        for name in self.reset_to_zero:
            if nargs.get(name) is not None:
                nargs[name].zero_()
        if not reset_only:
            self.restore_copies = {name: nargs[name].clone() for name in self.restore_value if nargs.get(name) is not None}

    def _restore(self, nargs, exception=None):
        for name, value in self.restore_copies.items():
            nargs[name].copy_(value)
        self.restore_copies = {}

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def _jit(self):
        fn = self.fn
        while not isinstance(fn, JITFunction):
            fn = fn.fn
        return fn

    def run(self, *args, grid, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        values = {**self.nargs, **kwargs}
        shown = tuple(str(values[k].dtype) if hasattr(values.get(k), "dtype") else values.get(k) for k in self.keys)
        # As Triton: every tensor argument's dtype is part of the key too (a new dtype is tuned afresh).
        key = shown + tuple(str(v.dtype) for n, v in values.items() if n in self.arg_names and hasattr(v, "dtype"))
        if key not in self.cache:
            self.cache[key], self._codegen[key] = self._tune(args, kwargs, grid, shown, key)
        config, codegen = self.cache[key], self._codegen.get(key)
        self.best_config = config
        if config.pre_hook is not None:
            config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
        if codegen:
            kwargs = dict(kwargs, kernel_lab_codegen=codegen)
        try:
            return self.fn.run(*args, grid=grid, **kwargs, **config.all_kwargs())
        finally:
            self.nargs = None

    def launch_request(self, args, kwargs, grid, warmup=False):
        return self.fn.launch_request(args, kwargs, grid, warmup)

    def prune_configs(self, kwargs):
        configs = self.configs
        if self.early_config_prune:
            # A generator too, as Triton only iterates it (gemlite's kernel_config_pruner yields its configs).
            configs = list(self.early_config_prune(self.configs, self.nargs, **_prune_kwargs(self.early_config_prune, kwargs)))
            if not configs:
                raise RuntimeError("No valid autotuner configs after pruning. `early_config_prune` should return at least one config.")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = max(1, int(len(configs) * top_k))
            elif not isinstance(top_k, int):
                raise TypeError("Error while pruning configs, top_k must be either 1) a float <= 1.0 or 2) an int")
            if len(configs) > top_k:
                estimate = {c: self.perf_model(**self.nargs, **kwargs, **c.all_kwargs()) for c in configs}
                configs = sorted(estimate, key=lambda c: estimate[c])[:top_k]
        return configs

    def _tune(self, args, kwargs, grid, shown, key):
        """The config to launch for this key, and the code generator's knobs (None: the defaults)."""
        # As Triton: a single config is launched as it is, never pruned (DeepSpeed's skip_autotune keeps
        # only its 128×256 config, which its own early_config_prune would drop on a small adapter).
        configs = self.prune_configs(kwargs) if len(self.configs) > 1 else self.configs
        picked = None
        timing = _state.bench != "off" and not _state.cpu
        if timing:
            picked = self._tune_on_main_thread(configs, args, kwargs, grid, shown)
        if picked is None and len(configs) > 1 and self.cache_results and not _state.cpu:
            # As Triton's check_disk_cache: a pick remembered for this key (in any --bench mode) is launched untimed.
            picked = self._remembered(configs, key)
        if picked is None and timing and len(configs) > 1:
            started = time.time()
            timings = self._time_configs(configs, args, kwargs, grid)
            self.bench_time = time.time() - started
            self.configs_timings = timings
            best = min(range(len(configs)), key=lambda i: (_median(timings[configs[i]]), i))
            picked = configs[best], None
            if self.cache_results:
                self._results("store", configs, key, picked=best, timings=[_median(timings[c]) for c in configs])
        picked = picked or (self._first_that_fits(configs, args, kwargs, grid), None)
        if len(configs) > 1:
            # As Triton after timing (and with --bench off or --cpu, where nothing is timed, the same,
            # so the script's results do not depend on the mode): the reset_to_zero tensors zeroed.
            self.pre_hook({**self.nargs, **kwargs, **picked[0].all_kwargs()}, reset_only=True)
        return picked

    def _first_that_fits(self, configs, args, kwargs, grid):
        """Untimed (--bench off, --cpu): the first config whose blocks fit the workgroup memory, as
        Triton's timing drops those that raise OutOfResources (mamba's SSD kernels list 128×256 first);
        the first config if none does (its launch raises)."""
        if len(configs) == 1:
            return configs[0]
        for config in configs:
            if config.pre_hook is not None:
                # As Triton, which runs a config's pre_hook before each of its runs: Liger's mlp.py sets its
                # TensorDescriptors' block shapes there, so the probe must compile what the launch will.
                config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
            try:
                self.fn.run(*args, grid=grid, warmup=True, kernel_lab_probe=True, **kwargs, **config.all_kwargs())
                return config
            except OutOfResources:
                continue
        return configs[0]

    def _time_configs(self, configs, args, kwargs, grid):
        """{config: what do_bench gave}, as Triton's configs_timings."""
        return {config: self._bench(args, kwargs, grid, config) for config in configs}

    def _results(self, op, configs, key, **fields):
        """cache_results: the main thread's autotune cache (python/autotune-results.ts); None where a config is not all integers."""
        columns = []
        for c in configs:
            column = {**c.kwargs, "num_warps": c.num_warps, "num_stages": c.num_stages}
            if not all(isinstance(v, int) for v in column.values()):
                return None
            columns.append({k: int(v) for k, v in column.items()})
        module = self._jit()._module_text()
        return _bridge.call({"kind": "autotune-results", "op": op, "kernel": self._kernel_lab_name, "key": ", ".join(str(k) for k in key),
                             "configs": columns, "moduleText": None if module is None else module["text"], **fields})

    def _remembered(self, configs, key):
        found = self._results("lookup", configs, key)
        if found is None:
            return None
        self.bench_time = 0.0
        self.configs_timings = {c: ms for c, ms in zip(configs, found["timings"])}
        return configs[int(found["index"])], None

    def _bench(self, args, kwargs, grid, config):
        conflicts = kwargs.keys() & config.kwargs.keys()
        if conflicts:
            raise ValueError(f"Conflicting meta-parameters: {', '.join(conflicts)}. Make sure that you don't re-define auto-tuned symbols.")
        current = dict(kwargs, **config.all_kwargs())
        full_nargs = {**self.nargs, **current}

        def kernel_call():
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                self.fn.run(*args, grid=grid, kernel_lab_probe=True, **current)
            except Exception as e:
                try:
                    self.post_hook(full_nargs, exception=e)
                finally:
                    raise
            self.post_hook(full_nargs, exception=None)

        try:
            return self.do_bench(kernel_call, quantiles=(0.5, 0.2, 0.8))
        except OutOfResources:
            # As Triton: a config whose blocks don't fit is never the fastest.
            return [float("inf")] * 3

    def _tune_on_main_thread(self, configs, args, kwargs, grid, key):
        """With --tune-codegen the main thread tunes configs and knobs together (python/autotune.ts), on copies of the tensors; None without the flag."""
        hooks = self.user_defined_pre_hook or self.user_defined_post_hook or any(c.pre_hook for c in configs)
        requests = [] if hooks else [self.fn.launch_request(args, dict(kwargs, **c.all_kwargs()), grid)[0] for c in configs]
        picked = _bridge.call({"kind": "autotune", "kernel": self._kernel_lab_name, "callLine": _state.caller_line() or 0, "key": ", ".join(str(k) for k in key),
                               "configs": requests, "resetToZero": self.reset_to_zero, "hooks": hooks})
        if picked == "hooks":
            # Hooks are Python code, and the main thread's candidates run on copies it makes: Python tunes.
            if self._kernel_lab_name not in _said:
                _said.add(self._kernel_lab_name)
                print(f"[kernel-lab] --tune-codegen: {self._kernel_lab_name} has autotune hooks (Python code), so its configs are timed by Python with the default code-generation knobs")
            return None
        if picked is None:
            return None
        return configs[int(picked["index"])], dict(picked["codegen"])


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None, post_hook=None,
             warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
    return lambda fn: Autotuner(fn, None, configs, key, reset_to_zero, restore_value, pre_hook=pre_hook, post_hook=post_hook,
                                prune_configs_by=prune_configs_by, warmup=warmup, rep=rep, use_cuda_graph=use_cuda_graph,
                                do_bench=do_bench, cache_results=cache_results)
