#!/bin/bash
# Half precision on the H200 (bench/NOTES.md §16): the f16 cases of the suite with Dawn's default
# (they skip: no shader-f16) and with the toggles, the example through the CLI, torch's f16 references.
# Here:   ../shared/tools/gpu-carry.sh && node bench/build.mjs && node scripts/build.mjs
# There:  . .gpu/enter.sh; bash bench/run-h200-f16.sh      (with .gpu, bench/dist, dist and esbuild/typescript carried)
set -uo pipefail
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
quiet() { grep -v '^Warning: maxDynamic'; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  echo "== Dawn's default flags"
  node bench/dist/suite.js --only add-f16 2>&1
  export KERNEL_LAB_DAWN_FLAGS="enable-dawn-features=vulkan_enable_f16_on_nvidia,allow_unsafe_apis"
  echo "== KERNEL_LAB_DAWN_FLAGS=$KERNEL_LAB_DAWN_FLAGS"
  node bench/dist/f16.js --acquire 2>&1
  node bin/kernel-lab.js run examples/matmul-f16.kernel.ts 2>&1
  node bin/kernel-lab.js run examples/vector-add-f16.kernel.ts 2>&1
} | quiet | tee "$out/kl-f16-setup.log"
KERNEL_LAB_DAWN_FLAGS="enable-dawn-features=vulkan_enable_f16_on_nvidia,allow_unsafe_apis" node bench/dist/suite.js --only add-f16 --out "$out/kl-add-f16.json" 2>&1 | quiet | tee "$out/kl-add-f16.log"
KERNEL_LAB_DAWN_FLAGS="enable-dawn-features=vulkan_enable_f16_on_nvidia,allow_unsafe_apis" node bench/dist/suite.js --only matmul-f16 --out "$out/kl-matmul-f16.json" 2>&1 | quiet | tee "$out/kl-matmul-f16.log"
python3 bench/torch_bench.py --only-f16 --out "$out/torch-f16.json" 2>&1 | tee "$out/torch-f16.log"
