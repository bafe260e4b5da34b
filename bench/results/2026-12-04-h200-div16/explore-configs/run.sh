#!/bin/bash
# Issue 20, 2026-12-04 12:18 UTC (bench/NOTES.md §20): the f16 matmul at 1024³ and 4096³ over more shapes
# (8 and 16 subgroups among them) with divisibility on, the default code generation only. Run from
# the carried folder: `. .gpu/enter.sh; bash .kl-h200/run.sh` (the suite as of commit e457246 + configs).
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
unset KERNEL_LAB_DAWN_FLAGS
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  date -u
  timeout 300 node bench/dist/suite.js --only matmul-f16-1024,matmul-f16-4096 --defaults-only --out "$out/kl-f16.json" 2>&1
  date -u
} 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/run.log"
