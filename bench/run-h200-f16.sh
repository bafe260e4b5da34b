#!/bin/bash
# Half precision on the H200 (issue 20; bench/NOTES.md §19), with no flags set by the user (Kernel
# Lab asks Dawn for the f16 toggles itself), in one run: the suite's f16 cases (vector add, matmul
# 1000·1024·4096, attention 4×32×4096×64), torch and Triton beside them (f16, and the f32 matmul and
# attention), the f32 matmul and attention rows (the session-5 leaders), the subgroup-matrix ceiling
# and hand-written WGSL matmuls (bench/mma-probe.ts), the two f16 examples through the CLI.
# Here:   ../shared/tools/gpu-carry.sh && node scripts/build.mjs && node bench/build.mjs && bash bench/carry-f16.sh <checkout>/.kl-f16
# There:  . .gpu/enter.sh; cd .kl-f16; bash bench/run-h200-f16.sh [f16 torch f32 probe cli]
# Under $OUT: run.log (everything printed), kl-f16.json, kl-f32.json, torch.json, probe.json.
set -uo pipefail
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
unset KERNEL_LAB_DAWN_FLAGS
parts=${*:-f16 torch f32 probe cli}
has() { [[ " $parts " == *" $1 "* ]]; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  date -u
  if has f16; then timeout 420 node bench/dist/suite.js --only add-f16,matmul-f16,attention-f16 --out "$out/kl-f16.json" 2>&1; fi
  if has torch; then PYTHONUNBUFFERED=1 timeout 110 python3 bench/torch_bench.py --cases matmul,attention,f16 --out "$out/torch.json" 2>&1; fi
  if has f32; then timeout 70 node bench/dist/suite.js --only matmul-1024,matmul-4096,attention-4x32 --defaults-only --f32-best --out "$out/kl-f32.json" 2>&1; fi
  if has probe; then timeout 60 node bench/dist/mma-probe.js --out "$out/probe.json" 2>&1; fi
  if has cli; then
    timeout 40 node bin/kernel-lab.js run examples/matmul-f16.kernel.ts --reps 10; echo "exit $?"
    timeout 40 node bin/kernel-lab.js run examples/attention-f16.kernel.ts --reps 3; echo "exit $?"
  fi
  date -u
} 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/run.log"
