# torch._inductor.kernel: the grid functions of inductor's Triton templates, which the output code of torch ≤ 2.6
# names in its launches when max-autotune (or flex attention) picked a template:
# `triton_tem_fused_mm_0.run(a, b, buf0, grid=torch._inductor.kernel.mm_common.mm_grid(64, 96, meta0), stream=…)`.
# From torch 2.7 the grid is written into the kernel's inductor_meta instead (runtime/triton_heuristics.py
# 'FixedGrid', 'PrecomputedGrid'). Each function is PyTorch's (pytorch/pytorch torch/_inductor/kernel/, BSD-3-Clause,
# Copyright (c) Facebook, Inc. and its affiliates) without its sympy form; inductor's template lowerings aren't here.
