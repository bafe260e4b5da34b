# One H200 batch: speed of light of the examples (issue 21) and Triton as written beside the
# hand-written examples (issue 23 item 8). Run from the checkout: . .gpu/enter.sh; bash .kl-h200/run.sh
set -uo pipefail
cd .kl-h200
export KERNEL_LAB_CACHE_DIR=/tmp/klc
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
kl() { local name=$1; shift; timeout 150 node bin/kernel-lab.js run "$@" --json > $OUT/$name.json 2> $OUT/$name.err; echo "$name exit $?"; }
kl sol-add-98432 examples/vector-add.kernel.ts
kl sol-add-2e26 examples/vector-add.kernel.ts --size 67108864
kl sol-softmax-4096 examples/softmax.kernel.ts --size 4096
kl sol-matmul-1024 examples/matmul.kernel.ts --size 1024
cp /tmp/klc/peaks.json $OUT/peaks.json
node bin/kernel-lab.js run examples/vector-add.kernel.ts --size 67108864 > $OUT/sol-human.txt 2>&1
timeout 330 node bench/dist/suite.js --f32-best --defaults-only --only matmul-1024,matmul-4096,attention-4x32x4096x64,as-written --out $OUT/as-written.json 2>&1 | tee $OUT/as-written.log
echo done
