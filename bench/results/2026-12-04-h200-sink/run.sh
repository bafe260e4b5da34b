# One H200 batch (issue 23 item 8): tutorial 06 as written with q loaded inside its key loops
# (codegen/sink.ts) and as written (sinkInvariantDotLoads=false), beside the hand-written example;
# the block-pointer matmul at 1024³ again. Run from the checkout: . .gpu/enter.sh; bash .kl-h200/run.sh
set -uo pipefail
cd .kl-h200
export KERNEL_LAB_CACHE_DIR=/tmp/klc
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
timeout 150 node bench/dist/suite.js --f32-best --defaults-only --only attention-4x32x4096x64,matmul-1024,as-written-matmul-1024 --out $OUT/hand.json 2>&1 | tee $OUT/hand.log
timeout 300 node bench/dist/suite.js --f32-best --only as-written-attention --out $OUT/as-written.json 2>&1 | tee $OUT/as-written.log
echo done
