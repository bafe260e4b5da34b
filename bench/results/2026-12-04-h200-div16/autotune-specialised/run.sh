#!/bin/bash
# After the autotuner change (candidates specialised as the run launches them) and the two new
# as-written ports: the f16 matmul example autotuned through the CLI, and the ports' sweeps, on the H200.
set -uo pipefail
cd "$(dirname "$0")"
unset KERNEL_LAB_DAWN_FLAGS
export KERNEL_LAB_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
timeout 120 node bin/kernel-lab.js run examples/matmul-f16.kernel.ts --reps 20; echo "exit $?"
for f in prod-dim cumsum-dim; do timeout 60 node bin/kernel-lab.js run test/learner/as-written/$f.kernel.ts --sweep --reps 5; echo "exit $?"; done
date -u
