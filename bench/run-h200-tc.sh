#!/bin/bash
# Tensor cores, round 2 (issue 28; bench/NOTES.md §21) on the H200, in one command: the hand-written
# reference set (bench/mma-kernels.ts through bench/mma-probe.ts), the generated f16 matmul
# (examples/matmul-f16.kernel.ts through the suite), torch.matmul f16 beside them, and the CLI.
# Here:   ../shared/tools/gpu-carry.sh && node scripts/build.mjs && node bench/build.mjs && bash bench/carry-f16.sh <checkout>/.kl-h200-tc
# There:  . .gpu/enter.sh; cd .kl-h200-tc; bash bench/run-h200-tc.sh [probe suite torch cli] [-- probe args]
# Under $OUT: run.log (everything printed), probe.json, kl-f16.json, torch.json.
set -uo pipefail
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
unset KERNEL_LAB_DAWN_FLAGS
parts=${PARTS:-probe suite torch cli}
has() { [[ " $parts " == *" $1 "* ]]; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  date -u
  if has probe; then timeout ${PROBE_TIMEOUT:-240} node bench/dist/mma-probe.js --only regs,matmul --out "$out/probe.json" "$@" 2>&1; fi
  if has suite; then timeout ${SUITE_TIMEOUT:-240} node bench/dist/suite.js --only ${SUITE_CASES:-matmul-f16} --out "$out/kl-f16.json" 2>&1; fi
  if has torch; then PYTHONUNBUFFERED=1 timeout 150 python3 bench/torch_bench.py --only-f16 --out "$out/torch.json" 2>&1; fi
  if has cli; then timeout 40 node bin/kernel-lab.js run examples/matmul-f16.kernel.ts --reps 10; echo "exit $?"; fi
  date -u
} 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/run.log"
