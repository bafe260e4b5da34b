#!/bin/bash
# Counts the bounds clamps Tint's robustness puts on the tl.dot staging stores of a generated f16
# matmul (bench/NOTES.md §60): the kernel compiled with subgroup matrices emulated (bench/sass.ts,
# EMULATE=1) into a pipeline on this machine's adapter (lavapipe will do), with Dawn's dump_shaders,
# then the SPIR-V's UMin against each staging array's last index. On NVIDIA each such clamp is a
# single STS.U16 store in the machine code.
#   bash bench/tint-clamps.sh SIZE CONFIG_JSON [KNOBS_JSON]
#   bash bench/tint-clamps.sh 1024 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}' '{"halfLoadForm":"tile"}'
# Needs `node bench/build.mjs` first. Prints one line: the clamped staging stores by array length, then
# every clamp in the module (the emulated matrices' private arrays too, which real matrices do not have).
set -euo pipefail
size=${1:?SIZE}; config=${2:?CONFIG_JSON}; knobs=${3:-{\}}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
EMULATE=1 KERNEL_LAB_DAWN_FLAGS="enable-dawn-features=dump_shaders,disable_symbol_renaming" \
  node "$here/dist/sass.js" gen matmul-f16 "$size" "$config" "$knobs" "$tmp/kernel.wgsl" > "$tmp/dump.txt" 2>&1 || { tail -5 "$tmp/dump.txt"; exit 1; }
grep -q "OpExtInst" "$tmp/dump.txt" || { echo "no SPIR-V in Dawn's output (dump_shaders)"; exit 1; }
# Arrays of the same length share their last index: each length is counted once.
sizes=$(grep -o "var<workgroup> sm_mma[ab]_f16: array<f16, [0-9]*>" "$tmp/kernel.wgsl" | sed 's/.*array<f16, //; s/>//' | sort -un || true)
if [ -z "$sizes" ]; then
  echo "no staging arrays: the dot was not planned on matrices here (this adapter's workgroup memory is smaller than the plan's; lavapipe's is 32 KiB)"
  exit 1
fi
staged=0
for n in $sizes; do
  k=$(grep -c "UMin %[0-9A-Za-z_]* %uint_$((n - 1))\$" "$tmp/dump.txt" || true)
  staged=$((staged + k)); printf 'staging arrays of %s halves: %s clamped; ' "$n" "$k"
done
echo "staging stores clamped: $staged; clamps in all: $(grep -c 'UMin\|SMin' "$tmp/dump.txt" || true)"
