#!/bin/bash
# Issue 20: f16 loads with sizes and strides known to be multiples of 16 (Triton's divisibility
# specialisation; codegen/contiguity.ts, memory.ts). The suite's f16 cases, each checked against
# float64 of its f16-rounded inputs first; the leaders again with halfLoadForm "select", with
# divisibility off (run 2's code) and with scalar f16 loads; then both f16 examples through the CLI
# with no flags set.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
unset KERNEL_LAB_DAWN_FLAGS
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  date -u
  timeout 380 node bench/dist/suite.js --only add-f16,matmul-f16,attention-f16 --out "$out/kl-f16.json" 2>&1
  date -u
  timeout 60 node bin/kernel-lab.js run examples/matmul-f16.kernel.ts --reps 10; echo "exit $?"
  timeout 60 node bin/kernel-lab.js run examples/attention-f16.kernel.ts --reps 3; echo "exit $?"
  date -u
} 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/run.log"
