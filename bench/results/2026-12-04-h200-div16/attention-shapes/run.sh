#!/bin/bash
# Issue 20, 2026-12-04 12:34 UTC (bench/NOTES.md §20): attention f16 at 4 × 32 × 4096 × 64, causal and
# not, over more shapes (64×64 over 8 subgroups led), default code generation, each checked first.
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
