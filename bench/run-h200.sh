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
# Launch overhead (issue 13 item 3): Kernel Lab's ways of launching, then torch eager and CUDA graphs.
node bench/dist/launches.js --out "$out/launches.json" 2>&1 | tee "$out/launches.log"
python3 bench/torch_launches.py --out "$out/torch-launches.json" 2>&1 | tee "$out/torch-launches.log"
