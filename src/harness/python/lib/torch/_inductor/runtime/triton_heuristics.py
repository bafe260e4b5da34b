# torch._inductor.runtime.triton_heuristics: the decorators TorchInductor puts on its generated kernels
# (`@triton_heuristics.pointwise(size_hints=…, …)`, `.reduction`, `.persistent_reduction`, `.template`,
# `.foreach`, `.user_autotune`, `.fixed_config`) and the launch they give the kernel,
# `kernel.run(*args, grid=grid(xnumel), stream=stream0)` (torch ≤ 2.6) or `kernel.run(*args, stream=stream0)`
# (torch ≥ 2.7: the grid from inductor_meta's 'grid_type' and the numels among the arguments).
#
# The configs are chosen from size_hints as inductor chooses them (triton_config, triton_config_reduction,
# _reduction_configs, _persistent_reduction_configs, the pointwise list: pytorch/pytorch
# torch/_inductor/runtime/triton_heuristics.py, BSD-3-Clause, the version with GridExpr and 'r0_' size
# hints), leaving out what needs the CUDA device (register counts, coordinate descent, the on-disk cache).
# More than one config is tuned by Kernel Lab's @triton.autotune (triton/_autotuner.py): timed on the GPU,
# the first that fits with --bench off or --cpu; `mutated_arg_names` are restored after each timed run as
# inductor's clones do. Split scans and cooperative reductions wait on other programs, which WebGPU doesn't
# promise: they refuse by name when launched.

import functools
import math
import operator

import triton
from triton import Config
from triton._autotuner import Autotuner
from triton._jit import KernelInterface

from ..._not_implemented import not_implemented
from .hints import (  # noqa: F401  (re-exported: torch 2.2's files import AutotuneHint from here)
    TRITON_MAX_BLOCK,
    TRITON_MAX_RSPLIT,
    _NUM_THREADS_PER_WARP,
    AutotuneHint,
    DeviceProperties,
    HeuristicType,
    ReductionHint,
    TileHint,
)
from . import triton_helpers  # noqa: F401


def conditional_product(*args):
    return functools.reduce(operator.mul, [x for x in args if x])


def ceildiv(numel, block):
    return -(numel // -block)


def next_power_of_2(n):
    return triton.next_power_of_2(n)


def get_max_y_grid():
    return 65535


def prefix_is_reduction(prefix):
    return prefix[0] == "r"


def get_total_reduction_numel(numels):
    return conditional_product(*[numel for prefix, numel in numels.items() if prefix_is_reduction(prefix)])


def _size_hints(size_hints, reduction):
    """size_hints as torch ≥ 2.7 writes them ({'x': 512, 'r0_': 64}); torch ≤ 2.5 wrote a list ([y, x] for
    tiles, [x, r] for reductions) and 2.6 the key 'r'."""
    if size_hints is None:
        return None
    if isinstance(size_hints, dict):
        return {("r0_" if k == "r" else k): v for k, v in size_hints.items()}
    names = {1: ["x"], 2: ["x", "r0_"] if reduction else ["y", "x"], 3: ["x", "r0_", "r1_"] if reduction else ["z", "y", "x"]}.get(len(size_hints))
    if names is None:
        raise NotImplementedError(f"size_hints {size_hints!r}: Kernel Lab's triton_heuristics reads 1 to 3 of them")
    return dict(zip(names, size_hints))


def _num_warps(num_warps, max_num_warps=8, min_num_warps=2, register_intensive=False):
    if register_intensive:
        max_num_warps = max_num_warps // 2
    return next_power_of_2(min(max(num_warps, min_num_warps), max_num_warps))


def _check_max_grid_x(size_hints, x, num_warps):
    max_grid_x = 2147483647
    num_blocks = (size_hints["x"] + x - 1) // x
    while (num_blocks * num_warps * _NUM_THREADS_PER_WARP) > max_grid_x and x < size_hints["x"]:
        x *= 2
        num_blocks = num_blocks // 2
    return x, num_blocks


def _max_block(prefix):
    return TRITON_MAX_BLOCK[prefix.upper()]


def triton_config(size_hints, x, y=None, z=None, num_stages=1, num_elements_per_warp=256, min_elem_per_thread=0):
    """A pointwise config: the blocks grown towards size_hints' product, shrunk to them; warps by elements."""
    maxGridSize = [2147483647, 65535, 65535]
    target = conditional_product(x, y, z)
    if conditional_product(*size_hints.values()) < target:
        target //= 8
    x = min(x, size_hints["x"])
    if y:
        y = min(y, size_hints["y"])
    if z:
        z = min(z, size_hints["z"])
    while x < min(size_hints["x"], TRITON_MAX_BLOCK["X"]) and (x * maxGridSize[0] < size_hints["x"] or conditional_product(x, y, z) < target):
        x *= 2
    while y and y < min(size_hints["y"], TRITON_MAX_BLOCK["Y"]) and (y * maxGridSize[1] < size_hints["y"] or conditional_product(x, y, z) < target):
        y *= 2
    while z and z < min(size_hints["z"], TRITON_MAX_BLOCK["Z"]) and (z * maxGridSize[2] < size_hints["z"] or conditional_product(x, y, z) < target):
        z *= 2
    num_warps = _num_warps(conditional_product(x, y, z) // num_elements_per_warp, min_num_warps=1)
    if conditional_product(x, y, z) >= 128:
        num_warps = max(num_warps, 4)
    block_size = max(conditional_product(x, y, z), min_elem_per_thread * _NUM_THREADS_PER_WARP * num_warps)
    x *= math.ceil(block_size / conditional_product(x, y, z))
    x, _ = _check_max_grid_x(size_hints, x, num_warps)
    x = min(x, size_hints["x"])
    cfg = {"XBLOCK": x}
    if y:
        cfg["YBLOCK"] = y
    if z:
        cfg["ZBLOCK"] = z
    return Config(cfg, num_warps=num_warps, num_stages=num_stages)


def _get_nd_reduction_numels(r, size_hints):
    r = min(r, get_total_reduction_numel(size_hints))
    prefixes = [p for p in size_hints if prefix_is_reduction(p)]
    remaining = r
    rnumels = {}
    for idx in range(len(prefixes) - 1, -1, -1):
        prefix = f"r{idx}_"
        dim = min(min(size_hints[prefix], _max_block(prefix)), remaining)
        rnumels[prefix] = dim
        remaining //= dim
    return rnumels


def triton_config_reduction(size_hints, x, r, num_stages=1, num_warps=None, register_intensive=False):
    """A reduction config: XBLOCK × R0_BLOCK grown towards the target and shrunk to size_hints."""
    rnumels = _get_nd_reduction_numels(r, size_hints)
    x = min(x, size_hints["x"])

    def total_numel():
        return conditional_product(x, *rnumels.values())

    target = total_numel()
    if conditional_product(*size_hints.values()) < target:
        target //= 8
    while x < size_hints["x"] and total_numel() < target:
        x *= 2
    for prefix in sorted(rnumels):
        while rnumels[prefix] < size_hints[prefix] and total_numel() < target:
            rnumels[prefix] *= 2
    if num_warps is None:
        num_warps = total_numel() // 128
    num_warps = _num_warps(num_warps, max_num_warps=16, register_intensive=register_intensive)
    x, _ = _check_max_grid_x(size_hints, x, num_warps)
    for prefix in sorted(rnumels):
        while total_numel() > target:
            if rnumels[prefix] == 1:
                break
            rnumels[prefix] //= 2
    cfg = {"XBLOCK": x, **{prefix.upper() + "BLOCK": n for prefix, n in rnumels.items()}}
    return Config(cfg, num_warps=num_warps, num_stages=num_stages)


def _reduction_configs(*, size_hints, inductor_meta):
    reduction_hint = inductor_meta.get("reduction_hint", None)
    rnumel = get_total_reduction_numel(size_hints)
    register_intensive = False
    MAX_R0_BLOCK = 2048
    if size_hints["x"] >= 1024 and inductor_meta.get("num_load", 0) + inductor_meta.get("num_reduction", 0) >= 10:
        MAX_R0_BLOCK = 1024
        register_intensive = True
    contiguous_config = triton_config_reduction(size_hints, 1, rnumel if 256 <= rnumel < MAX_R0_BLOCK else MAX_R0_BLOCK,
                                                register_intensive=register_intensive)
    outer_config = triton_config_reduction(size_hints, 64, 8, register_intensive=register_intensive)
    tiny_config = triton_config_reduction(size_hints, 2 * (256 // rnumel) if rnumel <= 256 else 1, min(rnumel, MAX_R0_BLOCK),
                                          register_intensive=register_intensive)
    if inductor_meta.get("max_autotune") or inductor_meta.get("max_autotune_pointwise"):
        pass
    elif reduction_hint == ReductionHint.INNER:
        return [contiguous_config]
    elif reduction_hint == ReductionHint.OUTER:
        return [outer_config]
    elif reduction_hint == ReductionHint.OUTER_TINY:
        return [tiny_config]
    if disable_pointwise_autotuning(inductor_meta):
        return [triton_config_reduction(size_hints, 32, 128)]
    return [
        contiguous_config,
        outer_config,
        tiny_config,
        triton_config_reduction(size_hints, 64, 64),
        triton_config_reduction(size_hints, 8, 512),
        triton_config_reduction(size_hints, 64, 4, num_warps=8),
    ]


def _persistent_reduction_configs(size_hints, reduction_hint=False, inductor_meta=None):
    xnumel = size_hints["x"]
    rnumel = get_total_reduction_numel(size_hints)
    configs = [triton_config_reduction(size_hints, xblock, rnumel, register_intensive=True)
               for xblock in (1, 8, 32, 128) if xblock == 1 or (rnumel * xblock <= 4096 and xblock <= xnumel)]
    if reduction_hint == ReductionHint.INNER and rnumel >= 256:
        configs = configs[:1]
    elif reduction_hint == ReductionHint.OUTER:
        configs = configs[-1:]
    elif reduction_hint == ReductionHint.OUTER_TINY:
        configs = [triton_config_reduction(size_hints, 2 * (256 // rnumel) if rnumel <= 256 else 1, rnumel)]
    for c in configs:
        # A persistent reduction's kernel sets its R0_BLOCK itself.
        for prefix in size_hints:
            if prefix_is_reduction(prefix):
                c.kwargs.pop(f"{prefix.upper()}BLOCK")
    if disable_pointwise_autotuning(inductor_meta or {}):
        configs = configs[:1]
    return configs


def disable_pointwise_autotuning(inductor_meta):
    if inductor_meta.get("are_deterministic_algorithms_enabled"):
        return True
    return not inductor_meta.get("autotune_pointwise", True)


def _numel_names(arg_names):
    return [n for n in arg_names if n.endswith("numel") or n in ("ks0", "ks1", "ks2")]


class CachingAutotuner(KernelInterface):
    """
    What a decorated kernel becomes: `.run(*args, grid=…, stream=…)` launches it with the config picked
    for it. `fn` is the @triton.jit kernel; `configs` the candidates (their block names as the kernel's
    parameters: R0_BLOCK, or RBLOCK in files of torch ≤ 2.6; a name the kernel doesn't take, as a
    persistent reduction's XBLOCK when it has no x dimension, is left out, as inductor's launcher leaves it).
    """

    def __init__(self, fn, triton_meta, configs, heuristic_type, size_hints=None, inductor_meta=None, filename=None,
                 mutated_arg_names=(), reset_to_zero_arg_names=(), refused=None, **ignored):
        self.fn = fn
        self.triton_meta = triton_meta or {}
        self.inductor_meta = inductor_meta or {}
        self.heuristic_type = heuristic_type
        self.size_hints = size_hints
        self.filename = filename
        self.mutated_arg_names = list(mutated_arg_names or self.inductor_meta.get("mutated_arg_names", ()))
        self._refused = refused
        self.__name__ = getattr(fn, "__name__", "kernel")
        params = set(fn.arg_names)
        self.configs = [self._for_kernel(c, params) for c in configs]
        self._tuner = None
        if len(self.configs) > 1:
            self._tuner = Autotuner(fn, fn.arg_names, self.configs, key=_numel_names(fn.arg_names), restore_value=self.mutated_arg_names,
                                    reset_to_zero=list(reset_to_zero_arg_names or ()))

    @staticmethod
    def _for_kernel(config, params):
        kwargs = {}
        for name, value in config.kwargs.items():
            if name == "R0_BLOCK" and name not in params and "RBLOCK" in params:
                name = "RBLOCK"
            if name in params:
                kwargs[name] = value
        return Config(kwargs, num_warps=config.num_warps, num_stages=config.num_stages)

    @property
    def launchers(self):
        return [self._tuner.best_config if self._tuner and self._tuner.best_config else self.configs[0]]

    def _grid(self, extra):
        """The grid inductor's launcher computes when the call passes none (torch ≥ 2.7): by 'grid_type'."""
        kind = self.inductor_meta.get("grid_type")
        if kind is None:
            kind = {1: "Grid1D", 2: "Grid2D", 3: "Grid3D"}.get(len([n for n in self.fn.arg_names if n in ("xnumel", "ynumel", "znumel")]), "Grid1D")
        if kind == "FixedGrid":
            return tuple(extra) if extra else tuple(self.inductor_meta["fixed_grid"])
        if kind in ("CooperativeReductionGrid", "SplitScanGrid", "ComboKernelGrid"):
            not_implemented(f"torch._inductor's {kind} launches ({self.__name__}): "
                            + ("a combo kernel's grid" if kind == "ComboKernelGrid" else "programs that wait on each other, which WebGPU doesn't promise"))
        if kind == "PrecomputedGrid":
            def precomputed(meta):
                for candidate in self.inductor_meta["precomputed_grids"]:
                    if all(meta.get(k) == v for k, v in candidate["config"].items()):
                        return tuple(eval(str(e), {}, dict(meta)) for e in candidate["python"])
                raise AssertionError(f"Precomputed grid not found for {meta}")
            return precomputed
        if kind not in ("Grid1D", "Grid2D", "Grid3D", "Grid2DWithYZOverflow"):
            not_implemented(f"torch._inductor's grid_type {kind!r}")
        dims = {"Grid1D": "x", "Grid2D": "xy", "Grid2DWithYZOverflow": "xy", "Grid3D": "xyz"}[kind]

        def grid_fn(meta):
            g = [ceildiv(meta[f"{d}numel"], meta.get(f"{d.upper()}BLOCK", 1)) for d in dims]
            if kind == "Grid2DWithYZOverflow":
                div = ceildiv(g[1], get_max_y_grid())
                g = [g[0], ceildiv(g[1], div), div]
            return tuple(g)
        return grid_fn

    def run(self, *args, grid=None, stream=None, benchmark_run=False, **kwargs):
        if self._refused:
            not_implemented(self._refused)
        extra = ()
        extra_names = self.inductor_meta.get("extra_launcher_args")
        if extra_names:
            args, extra = args[:-len(extra_names)], args[-len(extra_names):]
        if grid is None:
            grid = self._grid(extra)
        if self._tuner is not None:
            return self._tuner.run(*args, grid=grid, **kwargs)
        return self.fn.run(*args, grid=grid, **kwargs, **self.configs[0].all_kwargs())

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)


def cached_autotune(size_hints, configs, triton_meta, heuristic_type, filename=None, inductor_meta=None, custom_kernel=False, refused=None):
    inductor_meta = {} if inductor_meta is None else inductor_meta
    mutated = inductor_meta.get("mutated_arg_names", ())

    def decorator(fn):
        if refused is None and not configs:
            raise RuntimeError("No triton configs are available")
        return CachingAutotuner(fn, triton_meta=triton_meta, configs=configs or [Config({})], heuristic_type=heuristic_type, size_hints=size_hints,
                                inductor_meta=inductor_meta, filename=filename, mutated_arg_names=mutated, refused=refused)
    return decorator


def pointwise(size_hints, triton_meta, tile_hint=None, filename=None, min_elem_per_thread=0, inductor_meta=None):
    inductor_meta = {} if inductor_meta is None else inductor_meta
    size_hints = _size_hints(size_hints, reduction=False)
    numel = functools.reduce(operator.mul, size_hints.values())
    bs = max(256, min(numel // 128, 1024))
    config = functools.partial(triton_config, min_elem_per_thread=min_elem_per_thread)
    hinted = []
    for hint in inductor_meta.get("autotune_hints", ()):
        if hint == AutotuneHint.ONE_ELEMENT_PER_THREAD:
            options = {1: [(bs // 4, None, None)], 2: [(bs // 4, 1, None), (1, bs // 4, None)],
                       3: [(bs // 4, 1, 1), (1, bs // 4, 1), (1, 1, bs // 4)]}[len(size_hints)]
            hinted += [triton_config(size_hints, *xyz, num_elements_per_warp=32) for xyz in options]
    autotune = not (disable_pointwise_autotuning(inductor_meta)) or inductor_meta.get("max_autotune") or inductor_meta.get("max_autotune_pointwise")
    if len(size_hints) == 1:
        configs = [config(size_hints, bs, num_elements_per_warp=256), config(size_hints, bs // 2, num_elements_per_warp=64), *hinted] if autotune \
            else [config(size_hints, bs)]
    elif len(size_hints) == 2:
        if (not autotune or tile_hint == TileHint.SQUARE) and not (inductor_meta.get("max_autotune") or inductor_meta.get("max_autotune_pointwise")):
            configs = [config(size_hints, 32, 32)]
        else:
            configs = [config(size_hints, 32, 32), config(size_hints, 64, 64), config(size_hints, 256, 16), config(size_hints, 16, 256),
                       config(size_hints, bs, 1), config(size_hints, 1, bs), *hinted]
    else:
        configs = [config(size_hints, 16, 16, 16)] if not autotune else [
            config(size_hints, 16, 16, 16), config(size_hints, 64, 8, 8), config(size_hints, 8, 64, 8), config(size_hints, 8, 8, 64),
            config(size_hints, bs, 1, 1), config(size_hints, 1, bs, 1), config(size_hints, 1, 1, bs), *hinted]
    return cached_autotune(size_hints, configs, triton_meta=triton_meta, inductor_meta=inductor_meta, heuristic_type=HeuristicType.POINTWISE,
                           filename=filename)


def _reduction_hints(size_hints, reduction_hint, inductor_meta):
    """A reduction's size hints and meta, as both reduction decorators read them (no_x_dim: one row a program)."""
    inductor_meta = {} if inductor_meta is None else inductor_meta
    inductor_meta["reduction_hint"] = reduction_hint
    size_hints = _size_hints(size_hints, reduction=True)
    if inductor_meta.get("no_x_dim"):
        size_hints["x"] = 1
    return size_hints, inductor_meta


def reduction(size_hints, reduction_hint=False, triton_meta=None, filename=None, inductor_meta=None):
    size_hints, inductor_meta = _reduction_hints(size_hints, reduction_hint, inductor_meta)
    configs = _reduction_configs(size_hints=size_hints, inductor_meta=inductor_meta)
    return cached_autotune(size_hints, configs, triton_meta=triton_meta, inductor_meta=inductor_meta, heuristic_type=HeuristicType.REDUCTION,
                           filename=filename)


def persistent_reduction(size_hints, reduction_hint=False, triton_meta=None, filename=None, inductor_meta=None):
    size_hints, inductor_meta = _reduction_hints(size_hints, reduction_hint, inductor_meta)
    configs = _persistent_reduction_configs(size_hints, reduction_hint, inductor_meta)
    return cached_autotune(size_hints, configs, triton_meta=triton_meta, inductor_meta=inductor_meta,
                           heuristic_type=HeuristicType.PERSISTENT_REDUCTION, filename=filename)


def split_scan(size_hints, reduction_hint=False, triton_meta=None, filename=None, inductor_meta=None):
    return cached_autotune(size_hints, [], triton_meta=triton_meta, inductor_meta=inductor_meta, heuristic_type=HeuristicType.SPLIT_SCAN,
                           filename=filename, refused="torch._inductor's split scans (triton_heuristics.split_scan: programs wait on earlier "
                                                     "ones' sums, which WebGPU doesn't promise)")


def cooperative_reduction(size_hints, reduction_hint, triton_meta, filename, inductor_meta):
    return cached_autotune(size_hints, [], triton_meta=triton_meta, inductor_meta=inductor_meta, heuristic_type=HeuristicType.REDUCTION,
                           filename=filename, refused="torch._inductor's cooperative reductions (triton_heuristics.cooperative_reduction: "
                                                     "programs wait at a grid-wide barrier, which WebGPU doesn't promise)")


def template(num_stages, num_warps, triton_meta, filename=None, inductor_meta=None, **ignored):
    return cached_autotune(None, [Config({}, num_stages=num_stages, num_warps=num_warps)], triton_meta=triton_meta, inductor_meta=inductor_meta,
                           heuristic_type=HeuristicType.TEMPLATE, filename=filename)


def foreach(triton_meta, num_warps, filename=None, inductor_meta=None):
    return cached_autotune(None, [Config({}, num_stages=1, num_warps=num_warps)], triton_meta=triton_meta, inductor_meta=inductor_meta,
                           heuristic_type=HeuristicType.TEMPLATE, filename=filename)


def _config_from_dict(config):
    config = dict(config)
    if "kwargs" in config:  # torch ≤ 2.5: {'kwargs': {…}, 'num_warps': …}
        return Config(config["kwargs"], num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    options = {k: config.pop(k) for k in ("num_warps", "num_stages") if k in config}
    for k in ("num_ctas", "maxnreg"):
        config.pop(k, None)
    return Config(config, **options)


def user_autotune(configs, triton_meta, filename=None, inductor_meta=None, custom_kernel=False):
    configs = [_config_from_dict(c) for c in configs] or [Config({})]
    return cached_autotune(None, configs, triton_meta=triton_meta, inductor_meta=inductor_meta, heuristic_type=HeuristicType.USER_AUTOTUNE,
                           filename=filename)


def fixed_config(config, filename, triton_meta, inductor_meta):
    return cached_autotune(None, [_config_from_dict(config)], triton_meta=triton_meta, inductor_meta=inductor_meta,
                           heuristic_type=HeuristicType.FIXED, filename=filename)


def grid(*numels):
    """torch ≤ 2.6's grid helper: `grid(xnumel)`, `grid(ynumel, xnumel)`, `grid(znumel, ynumel, xnumel)`."""
    if len(numels) == 1:
        xnumel, ynumel, znumel = numels[0], None, None
    elif len(numels) == 2:
        xnumel, ynumel, znumel = numels[1], numels[0], None
    elif len(numels) == 3:
        xnumel, ynumel, znumel = numels[2], numels[1], numels[0]
    else:
        raise AssertionError(f"invalid size for numels {len(numels)}")

    def get_grid_dim(numel, block):
        if numel is None:
            return 1
        if block is None:
            return numel
        return ceildiv(numel, block)

    def grid_fn(meta):
        x_grid = get_grid_dim(xnumel, meta.get("XBLOCK", 1))
        y_grid = get_grid_dim(ynumel, meta.get("YBLOCK", None))
        max_y_grid = get_max_y_grid()
        if znumel is None:
            div = ceildiv(y_grid, max_y_grid)
            y_grid = ceildiv(y_grid, div)
            z_grid = div
        else:
            z_grid = get_grid_dim(znumel, meta.get("ZBLOCK", None))
        return (x_grid, y_grid, z_grid)

    grid_fn.grid_fn_str = f"grid{numels}"
    return grid_fn


def _refused(name, why):
    def refuse(*args, **kwargs):
        not_implemented(f"torch._inductor.runtime.triton_heuristics.{name} ({why})")
    refuse.__name__ = name
    return refuse


split_scan_grid = _refused("split_scan_grid", "split scans wait on earlier programs, which WebGPU doesn't promise")
cooperative_reduction_grid = _refused("cooperative_reduction_grid", "cooperative reductions wait at a grid-wide barrier, which WebGPU doesn't promise")
grid_combo_kernels = _refused("grid_combo_kernels", "combo kernels' grids")


def start_graph():
    """torch ≤ 2.6's output code brackets its launches with these for its profiler; nothing to do here."""


def end_graph(output_file=None):
    """See start_graph."""
