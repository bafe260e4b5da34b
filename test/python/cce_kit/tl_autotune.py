# Parts of https://github.com/apple/ml-cross-entropy at d42911f (Apple Sample Code License; Copyright (C) 2024 Apple
# Inc.) for Kernel Lab's test/python/cce-idioms.py: tl_autotune.py's NoneSupportRestorer and _cce_autotune and
# utils.py's is_package_greater_or_equal and TensorInfo, unchanged. Ours: the config lists (blocks that fit --cpu's
# 16 KiB of workgroup memory; the library's own are 64 to 256 wide) and vp_reduce_e_grad, which only a process group
# (vocab parallelism) reaches.
import functools
import importlib.metadata
from dataclasses import dataclass, field
from typing import Any, Callable

import packaging.version
import torch
import triton
from triton import Config
from triton.runtime import autotuner


@functools.cache
def is_package_greater_or_equal(package: str, version: str) -> bool:
    return packaging.version.parse(importlib.metadata.version(package)) >= packaging.version.parse(
        version
    )


def is_triton_greater_or_equal_3_2_0() -> bool:
    return is_package_greater_or_equal("triton", "3.2.0")


@dataclass
class NoneSupportRestorer:
    reset_idx_or_name: list[int | str]
    restore_idx_or_name: list[int | str]
    _restore_copies: dict[str | int, torch.Tensor | None] = field(default_factory=dict, init=False)

    def pre_hook(
        self,
        args: list[torch.Tensor | None | Any] | dict[str, torch.Tensor | None | Any],
        reset_only: bool = False,
    ) -> None:
        for i in self.reset_idx_or_name:
            if isinstance(i, str):
                assert isinstance(args, dict)
                v = args[i]
            else:
                assert isinstance(args, list)
                v = args[i]

            if v is not None:
                assert isinstance(v, torch.Tensor)
                v.zero_()

        if not reset_only:
            for i in self.restore_idx_or_name:
                if isinstance(i, str):
                    assert isinstance(args, dict)
                    v = args[i]
                else:
                    assert isinstance(args, list)
                    v = args[i]

                if v is not None:
                    assert isinstance(v, torch.Tensor)
                    self._restore_copies[i] = v.clone()
                else:
                    self._restore_copies[i] = None

    def post_hook(
        self,
        args: list[torch.Tensor | None | Any] | dict[str, torch.Tensor | None | Any],
        exception=None,
    ) -> None:
        for i, old_v in self._restore_copies.items():
            if isinstance(i, str):
                assert isinstance(args, dict)
                v = args[i]
            else:
                assert isinstance(args, list)
                v = args[i]

            if v is not None:
                assert isinstance(v, torch.Tensor)
                assert old_v is not None

                v.copy_(old_v)

        self._restore_copies = {}


@functools.wraps(triton.autotune)
def _cce_autotune(*args, **kwargs) -> Callable[..., autotuner.Autotuner]:
    def decorator(fn):
        reset_idx_or_name = []
        restore_idx_or_name = []
        arg_names = fn.arg_names
        reset_idx_or_name = kwargs.pop("reset_to_zero", [])
        if not is_triton_greater_or_equal_3_2_0():
            reset_idx_or_name = [arg_names.index(k) for k in restore_idx_or_name]

        restore_idx_or_name = kwargs.pop("restore_value", [])
        if not is_triton_greater_or_equal_3_2_0():
            restore_idx_or_name = [arg_names.index(k) for k in restore_idx_or_name]

        restorer = NoneSupportRestorer(reset_idx_or_name, restore_idx_or_name)
        if len(reset_idx_or_name) > 0:
            kwargs["pre_hook"] = restorer.pre_hook

        if len(restore_idx_or_name) > 0:
            kwargs["post_hook"] = restorer.post_hook

        return triton.autotune(*args, **kwargs)(fn)

    return decorator


@dataclass
class TensorInfo:
    dtype: torch.dtype
    requires_grad: bool


def vp_reduce_e_grad(*args, **kwargs):
    raise NotImplementedError("vocab parallelism: not part of this test")


def _small_configs():
    return [Config(dict(BLOCK_B=32, BLOCK_V=32, BLOCK_D=32), num_warps=4), Config(dict(BLOCK_B=16, BLOCK_V=32, BLOCK_D=16), num_warps=4)]


def cce_forward_autotune():
    return _cce_autotune(configs=_small_configs(), key=["V", "D", "B_BIN"], restore_value=["LSE"], reset_to_zero=["LA"])


def cce_backward_autotune():
    return _cce_autotune(configs=_small_configs(), key=["V", "D", "B_BIN"], reset_to_zero=["dE", "dC", "dEC", "dCC", "dBias"])
