#!/bin/bash
# f16 attention, causal (issue 20 item 4: run 2 of 2026-12-04 timed only the non-causal case), and
# the non-causal best shapes again beside it, in one run; the suite checks each variant against
# float64 of its f16-rounded inputs first.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
unset KERNEL_LAB_DAWN_FLAGS
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  date -u
  timeout 200 node bench/dist/suite.js --only attention-f16-4x32x4096x64-causal --out "$out/kl-f16-causal.json" 2>&1
  date -u
} 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/run.log"
