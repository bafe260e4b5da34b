#!/bin/bash
# Tensor cores (issue 28; bench/NOTES.md §21, §25) on the H200, in one command: the hand-written
# reference set (bench/mma-kernels.ts through bench/mma-probe.ts), the hand-written flash attention
# (bench/flash-kernels.ts through bench/flash-probe.ts), the generated f16 matmul and attention
# (examples/matmul-f16 and attention-f16 through the suite), torch and Triton f16 beside them
# (bench/torch_bench.py --only-f16: torch.matmul, Triton tutorial 03 in f16, SDPA, tutorial 06 in
# f16), and both f16 examples through the CLI with the SM clock sampled meanwhile (clocks.csv).
# Here:   ../shared/tools/gpu-carry.sh && node scripts/build.mjs && node bench/build.mjs && bash bench/carry-f16.sh <checkout>/.kl-tc
# There:  . .gpu/enter.sh; cd .kl-tc; PARTS="flash probe suite torch cli" bash bench/run-h200-tc.sh [-- probe args]
# Under $OUT: run.log (everything printed), flash.json, probe.json, kl-f16.json, torch.json, clocks.csv.
# (§21's runs had no flash part and the suite's matmul-f16 alone: PARTS="probe suite torch cli" SUITE_CASES=matmul-f16.)
set -uo pipefail
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
unset KERNEL_LAB_DAWN_FLAGS
parts=${PARTS:-flash probe suite torch cli}
has() { [[ " $parts " == *" $1 "* ]]; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  date -u
  if has flash; then timeout ${FLASH_TIMEOUT:-240} node bench/dist/flash-probe.js --out "$out/flash.json" ${FLASH_ARGS:-} 2>&1; date -u; fi
  if has probe; then timeout ${PROBE_TIMEOUT:-240} node bench/dist/mma-probe.js --only regs,matmul --out "$out/probe.json" "$@" 2>&1; date -u; fi
  if has suite; then timeout ${SUITE_TIMEOUT:-300} node bench/dist/suite.js --only ${SUITE_CASES:-matmul-f16,attention-f16} --out "$out/kl-f16.json" 2>&1; date -u; fi
  if has torch; then PYTHONUNBUFFERED=1 timeout 200 python3 bench/torch_bench.py --only-f16 --out "$out/torch.json" 2>&1; date -u; fi
  if has cli; then
    nvidia-smi --query-gpu=timestamp,clocks.sm,pstate --format=csv -lms 50 > "$out/clocks.csv" 2>&1 & S=$!
    for ex in matmul-f16 attention-f16; do
      date -u +%T.%N
      timeout 60 node bin/kernel-lab.js run examples/$ex.kernel.ts --reps 10; echo "exit $?"
      date -u +%T.%N
    done
    kill $S
  fi
  date -u
} 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/run.log"
