"""What gpu-mode's lecture files stopped at in Kernel Lab, reduced: lecture 29's vector_add.py imports
triton.tools.disasm's get_sass and torch.profiler's profile at its top (ModuleNotFoundError before: both are
importable now, and refuse by name where used, saying what Kernel Lab has instead); lecture 1's triton_square.py
benchmark reads `x.nelement()` (NotInKernelLab before: torch's older name of numel); lecture 18's torch.compile output
code makes its example inputs with torch._dynamo.testing.rand_strided, whose integers torch makes zeros (they were
0..9: its embedding kernel's `0 <= index < 4` assert failed)."""

import torch
from torch._dynamo.testing import rand_strided
from torch.profiler import ProfilerActivity, profile
from triton.tools.disasm import get_sass

for name, call in [("get_sass", lambda: get_sass(b"")), ("torch.profiler.profile", lambda: profile(activities=[ProfilerActivity.CPU]))]:
    try:
        call()
        print(f"{name}: no error")
    except NotImplementedError as e:
        print(f"{name}: refused, naming {'kernel-lab wgsl' if 'kernel-lab wgsl' in str(e) else 'do_bench' if 'do_bench' in str(e) else str(e)}")

x = torch.empty((3, 7))
print("Tensor.nelement:", "match" if x.nelement() == 21 == x.numel() else "differ")

ids = rand_strided((4, 3), (3, 1), device="cpu", dtype=torch.int64)
print("rand_strided of int64:", "match" if ids.tolist() == [[0] * 3] * 4 and ids.dtype == torch.int64 else f"differ {ids.tolist()}")
