#!/bin/bash
# Triton's own tutorials, as published, on the H200 (issue 27): each run by real Triton and torch
# (python3, CUDA) and by Kernel Lab (`kernel-lab run FILE.py`, Dawn/Vulkan), in one lease, with
# the perf_report tables printed by both. The tutorials are not part of the repository: fetch them
# from triton-lang/triton python/tutorials/ into a folder and name it.
# Here:   ../shared/tools/gpu-carry.sh && node scripts/build.mjs && node bench/build.mjs
#         && TUTORIALS=<tutorials> bash bench/carry-f16.sh <checkout>/.kl-py     (carry .gpu and .kl-pack)
# There:  . .gpu/enter.sh; [ -d .kl-py ] || xz -dc .kl-pack/kl-py.tar.xz | tar -xf -; cd .kl-py;
#         bash bench/run-h200-python.sh tutorials [BENCH] [NN ...]
#         BENCH: full|quick|off (default full); NN: which tutorials (default 01 02 03 05, issue 27's set).
#         One command has 10 minutes: with --bench full give each call one or two tutorials, e.g.
#         `… tutorials full 01 02`, then `… tutorials full 03`, then `… tutorials full 05` (05's
#         perf_report is 30 sizes of a 4096-row layer norm's backward: Kernel Lab's torch computes its
#         reference values on the CPU, so give it KL_TIMEOUT=540 and nothing else in that call).
# TRITON_TIMEOUT and KL_TIMEOUT (seconds, default 150; KL_TIMEOUT_NN for one tutorial) bound each run.
# Kernel Lab's Pyodide snapshot goes to the checkout's own cache folder (KERNEL_LAB_CACHE_DIR), so
# the first tutorial starts Python cold and the others from the snapshot.
# Under $OUT: run.log (everything printed), triton-NN.log and kl-NN.log per tutorial.
set -uo pipefail
dir=${1:?tutorials folder}
bench=${2:-full}
shift $(( $# < 2 ? $# : 2 ))
which=${*:-01 02 03 05}
export KERNEL_LAB_CACHE_DIR=${KERNEL_LAB_CACHE_DIR:-$PWD/.kernel-lab-cache}
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  date -u
  for n in $which; do
    f=$(ls "$dir"/"$n"-*.py 2>/dev/null | head -1)
    if [ -z "$f" ]; then echo "=== $n: no $dir/$n-*.py"; continue; fi
    echo "=== $(basename "$f"): real Triton"
    (cd "$dir" && PYTHONUNBUFFERED=1 timeout "${TRITON_TIMEOUT:-150}" python3 "$(basename "$f")") > "$out/triton-$n.log" 2>&1
    echo "exit $?"; grep -v '^\s*$' "$out/triton-$n.log" | tail -40
    echo "=== $(basename "$f"): Kernel Lab (--bench $bench)"
    limit=KL_TIMEOUT_$n
    timeout "${!limit:-${KL_TIMEOUT:-150}}" node bin/kernel-lab.js run "$f" --bench "$bench" > "$out/kl-$n.log" 2>&1
    echo "exit $?"; grep -v '^\s*$' "$out/kl-$n.log" | tail -40
  done
  date -u
} 2>&1 | grep -v '^Warning: maxDynamic' | tee "$out/run.log"
