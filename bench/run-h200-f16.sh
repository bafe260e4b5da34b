#!/bin/bash
# Half precision on the H200 (issue 20; bench/NOTES.md §19), with no flags set by the user (Kernel
# Lab asks Dawn for the f16 toggles itself): the subgroup-matrix ceiling and hand-written WGSL
# matmuls (bench/mma-probe.ts), the two f16 examples through the CLI, the suite's f16 matmul and
# attention cases, and torch's and Triton's f16 figures. Logs under $OUT (at most 8 files).
# Here:   ../shared/tools/gpu-carry.sh && node scripts/build.mjs && node bench/build.mjs && bash bench/carry-f16.sh <checkout>/.kl-f16
# There:  . .gpu/enter.sh; cd .kl-f16; bash bench/run-h200-f16.sh [probe|cli|suite|torch …]
set -uo pipefail
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
unset KERNEL_LAB_DAWN_FLAGS
parts=${*:-probe cli suite torch}
quiet() { grep -v '^Warning: maxDynamic'; }
has() { [[ " $parts " == *" $1 "* ]]; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
if has probe; then timeout 150 node bench/dist/mma-probe.js --out "$out/probe.json" 2>&1 | quiet | tee "$out/probe.log"; fi
if has cli; then
  { timeout 90 node bin/kernel-lab.js run examples/matmul-f16.kernel.ts --reps 20; echo "exit $?";
    timeout 90 node bin/kernel-lab.js run examples/attention-f16.kernel.ts --reps 5; echo "exit $?"; } 2>&1 | quiet | tee "$out/cli.log"
fi
if has suite; then timeout 240 node bench/dist/suite.js --only matmul-f16,attention-f16 --out "$out/kl-f16.json" 2>&1 | quiet | tee "$out/kl-f16.log"; fi
if has torch; then PYTHONUNBUFFERED=1 timeout 120 python3 bench/torch_bench.py --only-f16 --out "$out/torch-f16.json" 2>&1 | tee "$out/torch-f16.log"; fi
