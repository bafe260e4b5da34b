#!/bin/bash
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
unset KERNEL_LAB_DAWN_FLAGS
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  date -u
  timeout 400 node bench/dist/suite.js --only attention-f16 --defaults-only --out "$out/kl-f16-attention.json" 2>&1
  date -u
} 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/run.log"
