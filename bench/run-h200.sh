#!/bin/bash
# The whole benchmark on the H200 machine (no Node there: .gpu/ brings it; see ../shared/tools/gpu-carry.sh).
# Here:   ../shared/tools/gpu-carry.sh && node bench/build.mjs
# There:  . .gpu/enter.sh; bash bench/run-h200.sh      (with .gpu and bench/dist carried)
set -uo pipefail
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
node bench/dist/suite.js --out "$out/kl.json" "$@" 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/kl.log"
python3 bench/torch_bench.py --out "$out/torch.json" 2>&1 | tee "$out/torch.log"
node bench/report.mjs "$out/kl.json" "$out/torch.json" | tee "$out/table.md"
