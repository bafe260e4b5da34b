#!/bin/bash
# The size sweep of issue 13 item 5 on the H200 machine (with .gpu, bench/dist and dist carried):
#   . .gpu/enter.sh; bash bench/run-h200-sweep.sh
# then here: node bench/plot.mjs $OUT/kl-sweep.json $OUT/torch-sweep.json sweep.png
set -uo pipefail
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
node bench/dist/suite.js --sweep --out "$out/kl-sweep.json" 2>&1 | grep -v '^Warning: maxDynamic' > "$out/kl-sweep.log"
python3 bench/torch_bench.py --sweep --out "$out/torch-sweep.json" > "$out/torch-sweep.log" 2>&1
