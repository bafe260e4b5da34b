#!/bin/bash
# Triton's own tutorials, as published, on the H200 (issue 27): each run by real Triton and torch
# (python3, CUDA) and by Kernel Lab (`kernel-lab run FILE.py`, Dawn/Vulkan), in one lease, with
# the perf_report tables printed by both. The tutorials are not part of the repository: fetch them
# from triton-lang/triton python/tutorials/ into a folder and name it.
# Here:   ../shared/tools/gpu-carry.sh && node scripts/build.mjs && bash bench/carry-f16.sh <checkout>/.kl-py
#         && cp -r <tutorials> <checkout>/.kl-py/tutorials
# There:  . .gpu/enter.sh; cd .kl-py; bash bench/run-h200-python.sh tutorials [BENCH]   (BENCH: full|quick|off, default full)
# TRITON_TIMEOUT and KL_TIMEOUT (seconds, default 150) bound each tutorial's two runs.
# Under $OUT: run.log (everything printed), triton-NN.log and kl-NN.log / kl-NN.json per tutorial.
set -uo pipefail
dir=${1:?tutorials folder}
bench=${2:-full}
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  date -u
  for f in "$dir"/0*.py; do
    n=$(basename "$f" | cut -c1-2)
    echo "=== $(basename "$f"): real Triton"
    (cd "$dir" && PYTHONUNBUFFERED=1 timeout "${TRITON_TIMEOUT:-150}" python3 "$(basename "$f")") > "$out/triton-$n.log" 2>&1
    echo "exit $?"; grep -v '^\s*$' "$out/triton-$n.log" | tail -40
    echo "=== $(basename "$f"): Kernel Lab (--bench $bench)"
    timeout "${KL_TIMEOUT:-150}" node bin/kernel-lab.js run "$f" --bench "$bench" > "$out/kl-$n.log" 2>&1
    echo "exit $?"; grep -v '^\s*$' "$out/kl-$n.log" | tail -40
  done
  date -u
} 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/run.log"
