#!/bin/bash
# Issue 28's record on the H200, in one lease (bench/RESULTS.md; bench/NOTES.md §25): the
# hand-written reference matmul (../shared/tools/mm-f16-reference.cjs, the 244 kernel), the
# hand-written probes' leading kernels (bench/mma-probe.ts, bench/flash-probe.ts), the generated f16
# matmul (1000×1001×1003, 1024³, 4096³) and attention (4×32×4096×64, causal and not) at the default
# code generation and with the autotuner's knobs (bench/suite.ts --tune-codegen), torch and Triton
# f16 beside them (bench/torch_bench.py --only-f16), and both f16 examples through the CLI's own
# autotuner with --tune-codegen (every knob setting checked against the reference on the H200).
#
# Here:   ../shared/tools/gpu-carry.sh && node scripts/build.mjs && node bench/build.mjs && bash bench/carry-f16.sh <checkout>/.kl-rec
# (carry .gpu and .kl-pack, where carry-f16.sh packs .kl-rec; unpack it once per machine: start each
# call with `. .gpu/enter.sh; [ -d .kl-rec ] || xz -dc .kl-pack/kl-rec.tar.xz | tar -xf -;`)
# There, four calls on one warm machine (one command may run 10 minutes; the parts keep their
# files in .kl-rec/.record/ between calls, and every call copies all of them to $OUT):
#   . .gpu/enter.sh; cd .kl-rec; PARTS="ref probe flash torch" bash bench/run-h200-record.sh
#   . .gpu/enter.sh; cd .kl-rec; PARTS="suite" bash bench/run-h200-record.sh
#   . .gpu/enter.sh; cd .kl-rec; PARTS="attn" bash bench/run-h200-record.sh
#   . .gpu/enter.sh; cd .kl-rec; PARTS="cli" bash bench/run-h200-record.sh
# ("attn" is the generated attention with its knobs: about 38 programs a case, causal and not —
# 64×64 over 8 subgroups in the trip and K and V a block ahead with the leader's knobs one at a time
# (NOTES §54), 128×32 over 4 and 128×32 a block ahead with Q held, the lean barriers and lane rows
# (NOTES §29, §31) — ~4–5 minutes expected, not measured; its own call so that the matmul's fit in theirs.)
# Then copy the last call's files to bench/results/<date>-h200-record/ and read summary.md
# (bench/record-summary.mjs, also runnable here on that folder).
#
# Checking it without an H200: DRY_RUN=1 prints each part's commands; QUICK=1 runs each part at
# tiny sizes with matrices emulated (lavapipe; the reference matmul and torch need the H200 and
# are skipped with a line saying so). Under $OUT (at most 8 files come back from the device):
# run.log (every call's output, appended), probe.json, flash.json, kl-f16.json,
# kl-f16-attention.json, torch.json, cli-knobs.json, summary.md.
set -uo pipefail
here=$(pwd)
out=${OUT:-$here/bench/results/$(date -u +%F)-h200-record}
keep=${KEEP:-$here/.record}
parts=${PARTS:-ref probe flash torch suite attn cli}
quick=${QUICK:-}
dry=${DRY_RUN:-}
mkdir -p "$out" "$keep"
unset KERNEL_LAB_DAWN_FLAGS
has() { [[ " $parts " == *" $1 "* ]]; }
# The generated kernels' code generation: every knob setting the tuner tries (--tune-codegen), or,
# for a short lease, the first CONFIGS configs at the default and at each setting of a JSON list
# (SUITE_TARGETS for the matmul, ATTN_TARGETS for the attention; suite.ts --targets).
suite_knobs=(--tune-codegen); [ -n "${SUITE_TARGETS:-}" ] && suite_knobs=(--configs "${CONFIGS:-3}" --targets "$SUITE_TARGETS")
attn_knobs=(--tune-codegen); [ -n "${ATTN_TARGETS:-}" ] && attn_knobs=(--configs "${CONFIGS:-2}" --targets "$ATTN_TARGETS")
# Each command with its time limit; DRY_RUN only prints it.
step() {
  local limit=$1; shift
  echo "+ $*"
  [ -n "$dry" ] && return 0
  timeout "$limit" "$@"
  local rc=$?
  [ $rc -ne 0 ] && echo "(exit $rc)"
  return 0
}
# The folder whose node_modules has webgpu (.gpu/enter.sh restores it in the checkout's root): the
# reference tool requires it from its working folder.
webgpu_root() {
  local d=$here
  while [ "$d" != / ] && [ ! -d "$d/node_modules/webgpu" ]; do d=$(dirname "$d"); done
  echo "$d"
}
ref_tool=$here/bench/mm-f16-reference.cjs
[ -f "$ref_tool" ] || ref_tool=$here/../shared/tools/mm-f16-reference.cjs
# The probes' leaders (NOTES §21, §25): at 4096³ the 244 configuration and its grouped / M-major /
# late-prefetch variants, 128×256 over 2×4 subgroups (f32 and f16 accumulators, grouped), the
# bimodal f16 256×256; at 1024³ the 64×64, 64×128 and 128×64 set; the 244 kernel fed as generated
# code is (8-byte loads, run-time sizes, tutorial 03's masks: NOTES §39, §41; §43's isolation variants
# are left to their own command, NOTES §43, to keep this step inside its 240 s). Flash: O in registers, 128×32 over
# 4 subgroups of 32 rows and 64×32 / 64×64 over 2, merged or not.
probe_match=${PROBE_MATCH:-'^(128×128×32 2×2 sg of 4×4 →f32 pad 8 (prefetch|late) (rows|grouped) sg-[nm] C-matrices|128×128×32 2×2 sg of 4×4 →f32 pad 8 prefetch rows sg-n C-matrices feed \((8|16)-byte loads, (constant|runtime) sizes(, (uniform )?masks)?\)|128×256×32 2×4 sg of 4×4 →f(16|32) pad 8 prefetch (rows|grouped) sg-n C-matrices|256×256×32 2×4 sg of 8×4 →f16 .*|64×64×.*|64×128×32 .*|128×64×32 .*)$'}
flash_match=${FLASH_MATCH:-'^flash (128×32 4|64×32 2|64×64 2) sg of 32 rows, O-regs( merged)?, S pad 4( causal)?$'}
# One log for all calls (appended, each call's parts in its first line): 8 files come back at most.
log="$keep/run.log"
{
  echo "=== PARTS=\"$parts\""
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  date -u
  if has ref; then
    if [ -n "$quick" ]; then
      echo "ref: skipped with QUICK=1 (the reference tool needs subgroup matrices: the H200)"
    else
      for size in 4096 1024; do
        step 150 bash -c "cd '$(webgpu_root)' && node '$ref_tool' $size '^staged-one TM4 TN4 sg2x2 \\(128x128x32, pad 8\\)\$'"
      done
    fi
    date -u
  fi
  if has probe; then
    if [ -n "$quick" ]; then step 300 node bench/dist/mma-probe.js --emulate --only matmul --out "$keep/probe.json"
    else step 240 node bench/dist/mma-probe.js --only regs,matmul --sizes 4096,1024 --match "$probe_match" --out "$keep/probe.json"; fi
    date -u
  fi
  if has flash; then
    if [ -n "$quick" ]; then step 300 node bench/dist/flash-probe.js --emulate --match 'O-regs merged' --out "$keep/flash.json"
    else step 200 node bench/dist/flash-probe.js --match "$flash_match" --out "$keep/flash.json"; fi
    date -u
  fi
  if has torch; then
    if python3 -c "import torch, triton; assert torch.cuda.is_available()" 2>/dev/null; then
      PYTHONUNBUFFERED=1 step 200 python3 bench/torch_bench.py --only-f16 ${quick:+--quick} --out "$keep/torch.json"
    else
      echo "torch: skipped (no torch with CUDA and Triton here)"
    fi
    date -u
  fi
  if has suite; then
    # The default code generation (each config's "knobs: default" row) and every knob setting in one
    # file; KNOBS lines give each case's best at the default knobs against its best with them. The
    # matmul's knobs (each alone, then each pair, past 32 settings) on its first three configs: mmaPackedPrefetch
    # at 4096³ also on 128×128 over 4 subgroups of 4×4, shiftedHalfRows at 1000×1001×1003 (NOTES §28).
    cases=${SUITE_CASES:-matmul-f16-1000x1001x1003,matmul-f16-1024x1024x1024,matmul-f16-4096x4096x4096}
    if [ -n "$quick" ]; then
      # lavapipe has no matrices: the matmul's settings of the matrix knobs run emulated and are
      # checked too (≈ 4 min).
      step 560 node bench/dist/suite.js --quick --emulate-matrices --only matmul-f16 --tune-codegen --out "$keep/kl-f16.json"
    else
      # One step a case, into one file: every pair of knobs is tried past 32 settings (NOTES §44),
      # so a case takes minutes; give each call one case (SUITE_CASES) where they don't fit 10.
      for c in ${cases//,/ }; do
        step 560 node bench/dist/suite.js --only "$c" "${suite_knobs[@]}" --out "$keep/kl-f16.json" --append
      done
    fi
    date -u
  fi
  if has attn; then
    # Attention causal and not, the case's knobs (f16-cases.ts tuneKnobs) on its first four configs
    # (64×64 over 8 subgroups, 128×32 over 4, the same at num_stages 2, 64×32 over 2: Q held, lean
    # barriers, lane rows; NOTES §29, §31). Emulated attention takes lavapipe
    # a minute per setting, so QUICK runs it without matrices (its load forms only).
    if [ -n "$quick" ]; then step 560 node bench/dist/suite.js --quick --only attention-f16 --tune-codegen --out "$keep/kl-f16-attention.json"
    else step 560 node bench/dist/suite.js --only attention-f16 "${attn_knobs[@]}" --out "$keep/kl-f16-attention.json"; fi
    date -u
  fi
  if has cli; then
    # The CLI's own autotuner with the knobs, afresh (--retune), in a cache of its own: each
    # candidate checked against the example's reference on this GPU, the table of knobs printed.
    export KERNEL_LAB_CACHE_DIR="$keep/cache"
    if [ -z "$dry" ]; then echo "[" > "$keep/cli-knobs.json"; fi
    sep=""
    # On the H200 each size tunes in seconds; --timeout 300 (per size, tuning included) for the
    # 1024 × 1026 × 1023 run, whose CPU reference alone takes a second or two.
    runs=("examples/matmul-f16.kernel.ts --sweep" "examples/attention-f16.kernel.ts --sweep" "examples/matmul-f16.kernel.ts --size 1024")
    # lavapipe tunes the matmul's 6 configs (256×128 among them) with their knobs for more than 300 s
    # even at its smallest size (2026-12-05): there, every config made one 32×32 tile over 2 warps, so
    # the load forms alone are tuned (26 s).
    [ -n "$quick" ] && runs=("examples/matmul-f16.kernel.ts --size 33 --constexpr BLOCK_M=32 --constexpr BLOCK_N=32 --constexpr num_warps=2" "examples/attention-f16.kernel.ts --sweep")
    for run in "${runs[@]}"; do
      step 330 node bin/kernel-lab.js run $run --reps 10 --tune-codegen --retune --timeout 300
      if [ -z "$dry" ]; then
        printf '%s' "$sep" >> "$keep/cli-knobs.json"
        timeout 330 node bin/kernel-lab.js run $run --reps 10 --tune-codegen --timeout 300 --json >> "$keep/cli-knobs.json" || echo "(exit $?)"
        sep=","
      fi
    done
    if [ -z "$dry" ]; then echo "]" >> "$keep/cli-knobs.json"; fi
    date -u
  fi
} 2>&1 | grep --line-buffered -v '^Warning: maxDynamic' | tee -a "$log"
# Everything kept so far comes back with this call; the summary reads whatever is there.
if [ -z "$dry" ]; then
  node bench/record-summary.mjs "$keep" > "$keep/summary.md" 2>&1 || echo "summary: exit $?"
  cp "$keep"/*.json "$keep"/*.log "$keep"/summary.md "$out"/ 2>/dev/null
  ls -la "$out"
fi
