# One H200 batch (issue 23 item 8), after block pointers' boundary checks became one unsigned
# compare: tutorial 06 as written and the block-pointer matmul beside the hand-written examples.
# Run from the checkout: . .gpu/enter.sh; bash .kl-h200/run.sh
set -uo pipefail
cd .kl-h200
export KERNEL_LAB_CACHE_DIR=/tmp/klc
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
timeout 400 node bench/dist/suite.js --f32-best --defaults-only --only attention-4x32x4096x64,as-written-attention,matmul-1024,as-written-matmul-1024,matmul-4096,as-written-matmul-4096 --out $OUT/both.json 2>&1 | tee $OUT/both.log
echo done
