# Stand-in for fbgemm_gpu/experimental/gemm/triton_gemm/matmul_perf_model.py (https://github.com/pytorch/FBGEMM at
# 71d6f8b2; itself taken from triton-lang/kernels, which has no license file, so not copied): the two names fp8_gemm.py
# imports, for its autotune's prune_configs_by. The original prunes configs by an H100's shared memory and ranks them by
# a roofline model of NVIDIA GPUs (nvsmi clocks); here every config is kept and ranked equal — Kernel Lab's autotune
# drops what doesn't fit the adapter itself (and with --bench off launches the first that fits).


def early_config_prune(configs, named_args, **kwargs):
    return configs


def estimate_matmul_time(**kwargs):
    return 0.0
