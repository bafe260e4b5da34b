#!/bin/bash
# Issue 28's isolating kernels, built on 2026-12-05 and not yet timed on a device, in one lease
# (bench/NOTES.md §41–§43). Each part is one device call (at most 10 minutes), on one warm machine:
#   tile    the generated f16 matmul at its leaders with halfLoadForm "tile", its masks moved and
#           in place, each with mmaSubgroupsM=2 (§41's unsettled choice), next to the default
#   feed    the rest of the generated feed on the 244 kernel, one property at a time (§43), and
#           the pairs and the per-element masks (§43's second command)
#   attn    attention without its softmax, generated and by hand (§42)
#   slices  the edge tiles through slices (§44): the same lease's ceilings, the generated matmul's leaders and odd sizes
#   recheck 1024³ with and without slices, twice; the odd size's knobs (§44)
#   softmax the generated attention's softmax piece by piece by WGSL edit (§44's next isolation; not yet run),
#           and with its rows held by 8 and 4 invocations (mmaRowThreads, §45) instead of 16
#   tests   the 244 kernel with a tile test per operand, as generated, against one a trip (§44; not yet run)
#   odd     1000×1001×1003 with halfLoadForm "tile" now reading element by element under one test a
#           tile (§45), beside 1024³ in the same process
#   masks   the attention leader without its sequence-length masks or its row shuffles (WGSL edits),
#           with lazyRowMax; OLD=<folder> also times the same rows from an earlier build (§54)
#   stages  every attention config with the leader's knobs, with and without lazyRowMax (§54)
#   ahead   the leader's knobs at 64×64 reading K and V in the trip and a block ahead (§54's next)
#   sweep   the attention leader peeled (wholeTrips) with each of its other knobs taken out or one
#           more added, in the trip and a block ahead, beside the hand-written kernel (§56)
#   confirm the attention at the default knobs (the key loop peeled by default) and the leader's, in
#           the trip and a block ahead, causal and not, beside the hand-written kernel (§56)
#   sass    the machine code the driver made of the hand-written and generated f16 matmuls (bench/sass.ts:
#           one pipeline a process, each into its own shader cache under $OUT/sass/NAME; read here
#           with bench/sass-read.sh): registers, spills, the loop's instructions
#   subgroup the subgroup's index from lid / 32 (the default since §57) against the subgroup_id builtin:
#           the f16 matmul at 4096³, 1024³ and the odd size, attention at its leader and defaults
#   leaders the reference 244 kernel, then every config of the f16 matmul at 4096³, 1024³ and the odd
#           size with the subgroup's index from lid (§57), at the default and with halfLoadForm "tile"
#   sass8   the machine code of the generated 8-subgroup matmuls (128×256, 128×128, 256×128) and the
#           hand-written 128×256 leader, for the 8-subgroup kernels' gap (§57)
#   sasstime the same kernels timed (the generated ones with the subgroup_id builtin as before §57, with and
#           without the edits sg-from-lid and dead), in one process each
#   whole   the key loop's whole trips unmasked (wholeTrips, §56) at the attention leader, causal and
#           not, and the f16 matmul's first two configs with and without it, beside the same lease's
#           hand-written flash kernel, the probe's 128×128 leader and the team's 244 kernel
#   octets  runs of 8 read 16 bytes at a time (runsOf8, §60) and the K loop peeled (wholeTrips) at the
#           f16 matmul's first three 4096³ configs with halfLoadForm "tile", beside the reference 244 kernel,
#           and the leader's machine code with runs of 8
#   octets1k the same four settings at 1024³ and the odd size (first three configs each), and the probe's leaders;
#           the attention leader's knobs with and without runs of 8, beside the hand-written flash kernel
#   peeled  the f16 matmul's K loop peeled (wholeTrips) with and without halfLoadForm "tile" at 4096³ (first three
#           configs), 1024³ and the odd size (first three and 64×64×64 over 4), the reference kernel and the
#           probe's leaders, all twice in separate processes
#   tuned   every knob setting --tune-codegen tries at 4096³'s and 1024³'s leading configs, beside the reference
#           kernel and the probe's leaders; the machine code of 1024³'s generated kernels and the probe's leader
#   wide1k  1024³ over every config of its case and four more shapes, four code-generation settings each
#   robust  the f16 matmul's leaders and the probe's with and without Dawn's disable_robustness toggle (Tint's clamps)
#   staging the staging stores' first index from lid (the default since §60) against the flat index (mmaStagingFlatIndex)
#   packed8 runs of 8 held one vec4<u32> each (runsOf8 with mmaPackedPrefetch, §60's next step), and its machine code
#   p8sweep the same over 9 configs at 4096³, 7 at 1024³ and the odd size, and the attention, with the ceilings
#   p8rec   the default runs of 8 over the suite's configs of 4096³, 1024³ and the odd size, and more BK 64 shapes at 1024³
#   rec28   issue 28's record in one call: every ceiling, the generated f16 matmul and attention, torch and Triton
#   rec28s  its matmul half for a short lease: the ceilings, the leaders, two trips a pass, the hand-written feed's loads,
#           the odd size read in words
#   words   the odd size read in words (§67) beside 1024³, and the hand-written feed's loads (~3 min)
#   wordsiso what the words cost the odd size, by WGSL edit (§69)
#   words2  the words kept by select (§69), tile and block, beside a half a load and 1024³
#   sassodd the odd size's machine code: a half a load, words in block and tile, words without masks; timed too (§69)
#   rec29   issue 28's record, lean: the ceilings, the f16 matmul's leaders, the odd size's load forms, attention, torch, Triton (§71)
#   rec30   rec29 at the default, and the odd size with unmaskedDotEdges (alone, peeled, words) beside 1024³ (~7 min)
#   rec31   the machine code of 1024³'s generated leader (default, unmaskedDotEdges), the hand-written feed and the probe,
#           and of the odd size's leader with a half a load shifted; then the record (rec29's) with shiftedHalfRows true
#           timed beside the default, and the hand-written feed's loads with 16-byte chunks shifted (§75; ~9 min)
#   chunks  the odd size read in shifted 16-byte chunks (shiftedHalfRows "chunks") beside the default and 1024³, the
#           hand-written feed's bound, the machine code (~4 min; NOTES §78)
#   rec32   issue 28's record with the chunks: ceilings, f16 matmul, attention, flash, torch and Triton (~10 min);
#           rec32mm (the ceilings and the matmul) and rec32at (the rest) are its two halves, a call each
#   rec31s  rec31's isolations alone, for a short lease: the machine code, the probe's 1024³ leader, 1024³ and the odd size
#           (two configs each) with a half a load shifted beside the default, the hand-written feeds (~4 min)
#   unmask  the dot operands' loads without their M and N masks (unmaskedDotEdges, §71's next), words and the K loop
#           peeled, at the odd size, 1024³ and 4096³'s two first configs; twice (~7 min)
#   oddhand the hand-written feed at 1000×1001×1003 itself, edge programs and all (a half a load; 16-byte chunks shifted and
#           carried, each half's mask carried), beside the same kernels at 1024³ and the generated odd size and 1024³ in one
#           process; the machine code of the hand-written and generated chunks at the odd size (~4 min; NOTES §84)
#   oddk64  the generated odd size at 64×64×64 over 4 and 8 (the hand-written leader's shape) and its machine code (NOTES §84)
#   unsigned the odd size, 1024³ and 4096³ with unsignedIndices (the masks' rows and columns unsigned) and split indices
#   sassk64 the machine code of the generated 64×64×64 and 64×64×32 over 4 in chunks, and the hand-written 64×64×32
#   oddorder the hand-written odd size with the generated kernel's grouped order, C buffer, a test per operand; the
#           generated odd size in row order (isolate-matmul-f16-rows)
#   oddsmem the hand-written odd size with 1–4 KiB of C buffer; the generated one without its C store (no-c-staging)
#   cstore  what the odd size's C store through the slices costs, by WGSL edit (c-direct-unaligned, c-slices-no-copy, …)
#   oddknobs the odd size's knobs on top of unsignedIndices (chunks, split, the K loop peeled, no tile test)
#   slicecopy the slices' copy written out (mma.ts storeEdgeMatrices), the odd size and 1024³ at the default and knobs
#   oddlead the odd size's leader (chunks, split indices, the K loop peeled) and each of those knobs left out, twice
#   rec33mm issue 28's matmul record after §84: ceilings, the hand-written odd size, the suite twice (~3 min)
#   rec33at its attention half without torch and Triton: the attention and the hand-written flash kernel (~2.5 min)
#   samerun 1024³ and 4096³ beside the hand-written ceilings in one process (suite.js --hand), 1024³'s program ids (§85)
#   samerun2 the same kernels in both harnesses (the suite's, and mma-probe's: --one-pass), twice (~2.5 min)
#   rec34mm issue 28's matmul record with the ceilings timed in the suite's process too (--hand), twice (~4 min)
#   rec34at its attention half with torch and Triton (~5 min)
#   rest    issue 28 item 4: the other cases of RESULTS.md (f32, softmax, layer norm, add, dropout) with torch and Triton
# Next lease, issue 28's record on an H200 (NOTES §90 ran it on an H100: 133 s, 243 s, 73 s and 303 s of wall time):
#   PARTS="rec34mm", then "rec34at", "samerun2" and "rest", one call each, back to back on the warm machine.
#
# Here:   ../shared/tools/gpu-carry.sh && node scripts/build.mjs && node bench/build.mjs && bash bench/carry-f16.sh <checkout>/.kl-py
# There (carry .gpu and .kl-pack), one call a part:
#   . .gpu/enter.sh; [ -d .kl-py ] || xz -dc .kl-pack/kl-py.tar.xz | tar -xf -; cd .kl-py; PARTS="tile" bash bench/run-h200-isolate.sh
# Every file goes to $OUT (the device's folder that comes back); DRY_RUN=1 prints the commands only.
set -uo pipefail
out=${OUT:-$(pwd)/bench/results/$(date -u +%F)-isolate}
parts=${PARTS:-tile feed attn}
dry=${DRY_RUN:-}
[ -z "$dry" ] && mkdir -p "$out"
has() { [[ " $parts " == *" $1 "* ]]; }
# Each command with its time limit and the file its output goes to.
step() {
  local limit=$1 log=$2; shift 2
  echo "+ $*"
  [ -n "$dry" ] && return 0
  timeout "$limit" "$@" 2>&1 | grep --line-buffered -v '^Warning: maxDynamic' > "$out/$log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -ne 0 ] && echo "(exit $rc)"
  grep -v 'not timed again' "$out/$log" | cut -c1-200
  return 0
}
# One pipeline a process (bench/sass.ts), into a shader cache of its own under $out/sass/NAME (parts
# sass, sass8; the NVIDIA driver writes only into a folder that exists).
sass() {
  local name=$1; shift
  mkdir -p "$out/sass/$name/cache"
  __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 __GL_SHADER_DISK_CACHE_PATH="$out/sass/$name/cache" \
    step 60 "sass/$name/make.log" node bench/dist/sass.js "$@"
}
# The team's reference 244 kernel (mm-f16-reference.cjs) at SIZE³, into LOG: run from the folder whose
# node_modules has webgpu, as the tool requires it from its working folder.
reference() {
  local log=$1 size=$2 ref=bench/mm-f16-reference.cjs root=$PWD
  [ -f "$ref" ] || ref=../shared/tools/mm-f16-reference.cjs
  while [ "$root" != / ] && [ ! -d "$root/node_modules/webgpu" ]; do root=$(dirname "$root"); done
  step 150 "$log" bash -c "cd '$root' && node '$PWD/$ref' $size '^staged-one TM4 TN4 sg2x2 \\(128x128x32, pad 8\\)\$'"
}
[ -z "$dry" ] && command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
date -u
base='128×128×32 2×2 sg of 4×4 →f32 pad 8 prefetch rows sg-n C-matrices'
if has tile; then
  # The same lease's ceiling first (the 244 kernel, the 128×256 leader), then the generated leaders.
  step 90 tile-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
    --match "^($base|128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/tile-probe.json"
  step 400 tile-suite.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1008 --configs 2 \
    --targets '[{"halfLoadForm":"tile"},{"halfLoadForm":"tile","tileMasksInPlace":true},{"mmaSubgroupsM":2},{"halfLoadForm":"tile","mmaSubgroupsM":2},{"halfLoadForm":"tile","tileMasksInPlace":true,"mmaSubgroupsM":2}]' \
    --out "$out/tile-suite.json"
  date -u
fi
if has feed; then
  step 420 feed-one.log node bench/dist/mma-probe.js --only matmul --sizes 4096 \
    --match "^$base( feed \\(8-byte loads, runtime sizes, uniform masks(, [a-zA-Z]+( [a-z]+)?|, halves, carried addresses, tiled runs(, runtime trips(, acc array, C buffer)?)?)?\\))?\$" --out "$out/feed-one.json"
  step 260 feed-pairs.log node bench/dist/mma-probe.js --only matmul --sizes 4096 \
    --match "^$base feed \\(8-byte loads, runtime sizes, (uniform masks(, [a-z ]+, [a-z ]+)?|masks.*)\\)\$" --out "$out/feed-pairs.json"
  date -u
fi
if has slices; then
  # NOTES §44: the edge tiles through slices (no transfer array) — the same lease's ceilings (the
  # reference tool's 244 kernel, the probe's 128×256 leader and 1024³ leader), then the generated
  # matmul at its leaders, default and tile forms, and the odd sizes whose edge tiles take slices.
  root=$(pwd); while [ "$root" != / ] && [ ! -d "$root/node_modules/webgpu" ]; do root=$(dirname "$root"); done
  step 90 slices-ref.log bash -c "cd '$root' && node '$(pwd)/bench/mm-f16-reference.cjs' 4096 '^staged-one TM4 TN4 sg2x2 \\(128x128x32, pad 8\\)\$'"
  step 90 slices-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
    --match "^($base|128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/slices-probe.json"
  step 220 slices-4096.log node bench/dist/suite.js --only matmul-f16-4096 --configs 5 \
    --targets '[{"halfLoadForm":"tile"},{"halfLoadForm":"tile","tileMasksInPlace":true},{"halfLoadForm":"tile","mmaSubgroupsM":2}]' --out "$out/slices-4096.json"
  step 150 slices-odd.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1008,matmul-f16-1000 --configs 3 \
    --targets '[{"halfLoadForm":"tile"},{"mmaEdgeSlices":false}]' --out "$out/slices-odd.json"
  date -u
fi
if has recheck; then
  # §44's open questions: the same 1024³ WGSL timed 76.8 and 60.1 in two calls (is it the order, or
  # the transfer array?), twice each way; then the odd size's knobs with the slices.
  for i in 1 2; do
    step 100 recheck-1024-$i.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024 --configs 3 \
      --targets '[{"mmaEdgeSlices":false}]' --out "$out/recheck-1024-$i.json"
  done
  step 150 recheck-odd.log node bench/dist/suite.js --only matmul-f16-1000 \
    --targets '[{"shiftedHalfRows":true},{"shiftedHalfRows":true,"mmaPackedPrefetch":true},{"mmaPackedPrefetch":true},{"halfLoadForm":"tile"},{"halfLoadForm":"select"}]' --out "$out/recheck-odd.json"
  date -u
fi
if has softmax; then
  # §44's next isolation: the generated attention's online softmax piece by piece, by WGSL edit
  # (bench/wgsl-edits.ts; BAD by design, timing only), at the leader with its knobs, beside the
  # same lease's hand-written kernel (with and without its softmax).
  step 420 softmax-suite.log node bench/dist/suite.js --only attention-f16-4x32x4096x64 --configs 1 \
    --targets '[{"mmaHoldInvariant":true,"mmaLeanBarriers":true,"halfLoadForm":"select"},{"mmaHoldInvariant":true,"mmaLeanBarriers":true,"halfLoadForm":"select","mmaRowThreads":8},{"mmaHoldInvariant":true,"mmaLeanBarriers":true,"halfLoadForm":"select","mmaRowThreads":4}]' \
    --edits '[[],["no-exp2"],["no-row-shuffles"]]' --out "$out/softmax-suite.json"
  step 100 softmax-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( ISOLATE no-softmax)?$' --out "$out/softmax-flash.json"
  date -u
fi
if has tests; then
  # §44's open difference at 4096³: the 244 kernel's uniform test once a trip against a test per
  # operand, as generated code has; beside the base, in one process.
  step 90 tests-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096 \
    --match "^$base( feed \\(8-byte loads, runtime sizes, uniform masks(, two tests)?\\))?\$" --out "$out/tests-probe.json"
  date -u
fi
if has odd; then
  # §45: the odd size's loads (no run known aligned) tested once a tile; 1024³ first, the same process.
  step 300 odd-suite.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 3 \
    --targets '[{"halfLoadForm":"tile"},{"halfLoadForm":"tile","mmaSubgroupsM":2}]' --out "$out/odd-suite.json"
  date -u
fi
if has attn; then
  step 300 attn-suite.log node bench/dist/suite.js --only isolate-attention-f16 --out "$out/attn-suite.json"
  step 150 attn-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( ISOLATE no-(lane|softmax))?$' --out "$out/attn-flash.json"
  date -u
fi
if has masks; then
  # NOTES §54: what the sequence-length masks cost the attention leader (WGSL edit `no-n-ctx-masks`,
  # valid at 4096: same result) and what its row shuffles cost now, with the running maximum moved
  # only when a score passes it (lazyRowMax) and without; the same lease's hand-written kernel.
  # With OLD=<folder of an earlier build> the same rows (and the matmul's first configs) from that
  # build first, in this call.
  S='{"halfLoadForm":"select","deferRowSums":true'
  T="[$S},$S,\"lazyRowMax\":true}]"
  cases=attention-f16-4x32x4096x64,attention-f16-4x32x4096x64-causal,matmul-f16-4096,matmul-f16-1024x1024x1024
  [ -n "${OLD:-}" ] && (cd "$OLD" && step 200 masks-old-suite.log node bench/dist/suite.js --only $cases --configs 1 --targets "[$S}]" --out "$out/masks-old-suite.json")
  step 330 masks-suite.log node bench/dist/suite.js --only $cases --configs 1 \
    --targets "$T" --edits '[[],["no-n-ctx-masks"],["no-row-shuffles"]]' --out "$out/masks-suite.json"
  step 100 masks-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/masks-flash.json"
  date -u
fi
if has stages; then
  # NOTES §54: every config of the attention case (the sixth reads K and V a block ahead at 64×64)
  # with the leader's knobs, with and without lazyRowMax.
  S='{"halfLoadForm":"select","deferRowSums":true'
  step 300 stages-suite.log node bench/dist/suite.js --only attention-f16-4x32x4096x64 --configs 6 --targets "[$S},$S,\"lazyRowMax\":true}]" --out "$out/stages-suite.json"
  date -u
fi
if has whole; then
  L='"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true'
  step 240 whole-attn.log node bench/dist/suite.js --only attention-f16-4x32x4096x64,attention-f16-4x32x4096x64-causal --configs 1 \
    --targets "[{$L},{$L,\"wholeTrips\":true},{\"wholeTrips\":true}]" --out "$out/whole-attn.json"
  step 100 whole-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/whole-flash.json"
  step 300 whole-mm.log node bench/dist/suite.js --only matmul-f16-4096x4096x4096,matmul-f16-1024x1024x1024,matmul-f16-1000x1001x1003 --configs 2 \
    --targets '[{"wholeTrips":true},{"halfLoadForm":"tile"},{"halfLoadForm":"tile","wholeTrips":true}]' --out "$out/whole-mm.json"
  step 90 whole-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 --match "^$base\$" --out "$out/whole-probe.json"
  for size in 4096 1024; do reference whole-ref-$size.log $size; done
  date -u
fi
if has sweep; then
  W='"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true,"wholeTrips":true'
  T="[{$W},{$W,\"mmaRowThreads\":8},{$W,\"splitTileIndices\":false},{$W,\"lazyRowMax\":false},{$W,\"deferRowSums\":false},{$W,\"mmaTransferPad\":8},{$W,\"halfLoadForm\":\"block\"}]"
  step 400 sweep-attn.log node bench/dist/suite.js --only attention-f16-4x32x4096x64 --configs 2 --targets "$T" --out "$out/sweep-attn.json"
  step 100 sweep-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/sweep-flash.json"
  date -u
fi
if has confirm; then
  L='"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true'
  step 240 confirm-attn.log node bench/dist/suite.js --only attention-f16-4x32x4096x64 --configs 2 --targets "[{$L}]" --out "$out/confirm-attn.json"
  step 100 confirm-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/confirm-flash.json"
  date -u
fi
if has ahead; then
  # NOTES §54's next call: the leader's knobs (lazyRowMax, splitTileIndices) at 64×64 reading K and V
  # in the trip and a block ahead (the case's first two configs), beside the hand-written kernel.
  S='{"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true}'
  step 240 ahead-suite.log node bench/dist/suite.js --only attention-f16-4x32x4096x64,attention-f16-4x32x4096x64-causal --configs 2 --targets "[$S]" --out "$out/ahead-suite.json"
  step 100 ahead-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/ahead-flash.json"
  date -u
fi
if has sass; then
  # One pipeline a process, each into its own shader cache (the NVIDIA driver's; bench/sass-read.sh
  # decodes and disassembles them off the device). Hand-written first, then generated, at 4096³.
  H="128×128×32 2×2 sg of 4×4 →f32 pad 8 prefetch rows sg-n C-matrices"
  F="8-byte loads, runtime sizes, uniform masks"
  sass hand-base hand 4096 "$H" "$out/sass/hand-base/kernel.wgsl"
  sass hand-feed hand 4096 "$H feed ($F)" "$out/sass/hand-feed/kernel.wgsl"
  sass hand-feed-ad hand 4096 "$H feed ($F, halves, carried addresses, tiled runs, runtime trips)" "$out/sass/hand-feed-ad/kernel.wgsl"
  sass hand-cbuf hand 4096 "$H feed ($F, C buffer)" "$out/sass/hand-cbuf/kernel.wgsl"
  sass hand-128x256 hand 4096 "128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices" "$out/sass/hand-128x256/kernel.wgsl"
  sass hand-128x256-4x8-spills hand 4096 "128×256×32 2×2 sg of 4×8 →f32 pad 8 prefetch rows sg-n C-matrices" "$out/sass/hand-128x256-4x8-spills/kernel.wgsl"
  # Generated: the subgroup's index from lid / 32 (the default since §57) and from the builtin.
  C16='{"BLOCK_M":256,"BLOCK_N":128,"BLOCK_K":32,"num_warps":16}'
  C4='{"BLOCK_M":128,"BLOCK_N":128,"BLOCK_K":32,"num_warps":4}'
  sass gen-256x128x16 gen matmul-f16 4096 "$C16" '{}' "$out/sass/gen-256x128x16/kernel.wgsl"
  sass gen-256x128x16-builtin gen matmul-f16 4096 "$C16" '{"mmaSubgroupBuiltin":true}' "$out/sass/gen-256x128x16-builtin/kernel.wgsl"
  sass gen-128x128x4-tile-packed gen matmul-f16 4096 "$C4" '{"halfLoadForm":"tile","mmaPackedPrefetch":true}' "$out/sass/gen-128x128x4-tile-packed/kernel.wgsl"
  sass gen-128x128x4-tile-packed-builtin gen matmul-f16 4096 "$C4" '{"halfLoadForm":"tile","mmaPackedPrefetch":true,"mmaSubgroupBuiltin":true}' "$out/sass/gen-128x128x4-tile-packed-builtin/kernel.wgsl"
  ref=bench/mm-f16-reference.cjs; [ -f "$ref" ] || ref=../shared/tools/mm-f16-reference.cjs
  root=$PWD; while [ "$root" != / ] && [ ! -d "$root/node_modules/webgpu" ]; do root=$(dirname "$root"); done
  mkdir -p "$out/sass/ref-244/cache"
  __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 __GL_SHADER_DISK_CACHE_PATH="$out/sass/ref-244/cache" \
    step 150 sass/ref-244/make.log bash -c "cd '$root' && node '$PWD/$ref' 4096 '^staged-one TM4 TN4 sg2x2 \\(128x128x32, pad 8\\)\$'"
  find "$out/sass" -type f | grep -c cache/ || true
  ls -la ~/.nv ~/.cache/nvidia ~/.cache 2>&1 | head -20  # where else the driver may keep its cache
  (cd "$out" && tar -cJf sass.tar.xz sass && rm -rf sass)
  ls -la "$out/sass.tar.xz"
  date -u
fi
if has sasstime; then
  step 420 sasstime-suite.log node bench/dist/suite.js --only matmul-f16-4096 --configs 3 \
    --targets '[{"mmaSubgroupBuiltin":true},{"halfLoadForm":"tile","mmaPackedPrefetch":true,"mmaSubgroupBuiltin":true},{"halfLoadForm":"tile","mmaSubgroupsM":2,"mmaSubgroupBuiltin":true}]' \
    --edits '[[],["sg-from-lid"],["dead"]]' --out "$out/sasstime-suite.json"
  H="128×128×32 2×2 sg of 4×4 →f32 pad 8 prefetch rows sg-n C-matrices"
  step 120 sasstime-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096 \
    --match "^($H|$H feed \\(8-byte loads, runtime sizes, uniform masks(, halves, carried addresses, tiled runs, runtime trips)?\\)|128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices)\$" --out "$out/sasstime-probe.json"
  date -u
fi
if has subgroup; then
  B='{"mmaSubgroupBuiltin":true}'
  step 200 subgroup-4096.log node bench/dist/suite.js --only matmul-f16-4096 --configs 3 \
    --targets "[$B,{\"halfLoadForm\":\"tile\"},{\"halfLoadForm\":\"tile\",\"mmaPackedPrefetch\":true}]" --out "$out/subgroup-4096.json"
  step 200 subgroup-1024.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 3 \
    --targets "[$B,{\"halfLoadForm\":\"tile\"}]" --out "$out/subgroup-1024.json"
  L='"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true'
  step 240 subgroup-attn.log node bench/dist/suite.js --only attention-f16-4x32x4096x64 --configs 2 \
    --targets "[{$L},{$L,\"mmaSubgroupBuiltin\":true},$B]" --out "$out/subgroup-attn.json"
  step 100 subgroup-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/subgroup-flash.json"
  step 90 subgroup-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
    --match "^(128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/subgroup-probe.json"
  date -u
fi
if has leaders; then
  reference leaders-ref.log 4096
  step 240 leaders-4096.log node bench/dist/suite.js --only matmul-f16-4096 --configs 8 --targets '[{"halfLoadForm":"tile"}]' --out "$out/leaders-4096.json"
  step 300 leaders-1024.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 6 --targets '[{"halfLoadForm":"tile"}]' --out "$out/leaders-1024.json"
  step 90 leaders-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
    --match "^(128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/leaders-probe.json"
  date -u
fi
T='{"halfLoadForm":"tile"}'
T8='{"halfLoadForm":"tile","runsOf8":true}'
T8W='{"halfLoadForm":"tile","runsOf8":true,"wholeTrips":true}'
TW='{"halfLoadForm":"tile","wholeTrips":true}'
if has octets; then
  reference octets-ref.log 4096
  step 330 octets-4096.log node bench/dist/suite.js --only matmul-f16-4096 --configs 3 --targets "[$T,$T8,$T8W,$TW]" --out "$out/octets-4096.json"
  sass gen-256x128x16-tile-o8 gen matmul-f16 4096 '{"BLOCK_M":256,"BLOCK_N":128,"BLOCK_K":32,"num_warps":16}' "$T8" "$out/sass/gen-256x128x16-tile-o8/kernel.wgsl"
  sass gen-128x128x8-tile-o8 gen matmul-f16 4096 '{"BLOCK_M":128,"BLOCK_N":128,"BLOCK_K":32,"num_warps":8}' "$T8" "$out/sass/gen-128x128x8-tile-o8/kernel.wgsl"
  (cd "$out" && tar -cJf sass-o8.tar.xz sass && rm -rf sass)
  date -u
fi
if has octets1k; then
  step 400 octets-1024.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 3 --targets "[$T,$T8,$T8W,$TW]" --out "$out/octets-1024.json"
  step 90 octets-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
    --match "^(128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/octets-probe.json"
  L='"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true'
  step 240 octets-attn.log node bench/dist/suite.js --only attention-f16-4x32x4096x64 --configs 2 --targets "[{$L},{$L,\"runsOf8\":true}]" --out "$out/octets-attn.json"
  step 100 octets-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/octets-flash.json"
  date -u
fi
if has peeled; then
  # Twice each, in separate processes: 1024³ moves between processes (§44, §57).
  K64='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]'
  for run in 1 2; do
    reference peeled-ref-$run.log 4096
    step 200 peeled-4096-$run.log node bench/dist/suite.js --only matmul-f16-4096 --configs 3 --targets "[$T,$TW]" --out "$out/peeled-4096-$run.json"
    step 300 peeled-1024-$run.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 3 --more-configs "$K64" \
      --targets "[$T,$TW,{\"wholeTrips\":true}]" --out "$out/peeled-1024-$run.json"
    step 90 peeled-probe-$run.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
      --match "^(128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/peeled-probe-$run.json"
    date -u
  done
fi
if has tuned; then
  # What `kernel-lab run --tune-codegen` tries (every knob setting the kernel uses, knob-variants.ts) at
  # 4096³'s and 1024³'s leading configs, beside the reference kernel and the probe's leaders; then the
  # machine code of 1024³'s generated kernels and the probe's leader (§60).
  reference tuned-ref.log 4096
  step 330 tuned-4096.log node bench/dist/suite.js --only matmul-f16-4096 --configs 0 --tune-codegen \
    --more-configs '[{"BLOCK_M":256,"BLOCK_N":128,"BLOCK_K":32,"num_warps":16}]' --out "$out/tuned-4096.json"
  step 200 tuned-1024.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024 --configs 0 --tune-codegen \
    --more-configs '[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":8}]' --out "$out/tuned-1024.json"
  step 90 tuned-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
    --match "^(128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/tuned-probe.json"
  sass gen-1k-64x64x32x8-tile gen matmul-f16 1024 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":8}' "$T" "$out/sass/gen-1k-64x64x32x8-tile/kernel.wgsl"
  sass gen-1k-64x64x64x4-tile gen matmul-f16 1024 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}' "$T" "$out/sass/gen-1k-64x64x64x4-tile/kernel.wgsl"
  sass hand-1k-64x64x64 hand 1024 "64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices" "$out/sass/hand-1k-64x64x64/kernel.wgsl"
  (cd "$out" && tar -cJf sass-1k.tar.xz sass && rm -rf sass)
  date -u
fi
if has wide1k; then
  # 1024³ over its six configs and four more shapes (BK 64 over 8, 32 × 64, 64 × 32, 64 × 64 over 2), each
  # at the default, "tile", "tile" with the K loop peeled and the K loop peeled alone; the probe's leader after.
  MORE='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":8},{"BLOCK_M":32,"BLOCK_N":64,"BLOCK_K":32,"num_warps":4},{"BLOCK_M":64,"BLOCK_N":32,"BLOCK_K":32,"num_warps":4},{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":2}]'
  step 420 wide1k-1024.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024 --configs 6 --more-configs "$MORE" \
    --targets "[$T,$TW,{\"wholeTrips\":true}]" --out "$out/wide1k-1024.json"
  step 90 wide1k-probe.log node bench/dist/mma-probe.js --only matmul --sizes 1024 \
    --match "^64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices\$" --out "$out/wide1k-probe.json"
  date -u
fi
if has robust; then
  # Tint's bounds clamps on workgroup-array stores (VIADDMNMX, single STS.U16 in the machine code, §57, §60):
  # the same kernels with Dawn's disable_robustness toggle (no clamps at all), against the default.
  K1='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]'
  for flags in "" "enable-dawn-features=disable_robustness"; do
    tag=${flags:+norobust}; tag=${tag:-robust}
    KERNEL_LAB_DAWN_FLAGS="$flags" step 200 robust-1024-$tag.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024 --configs 3 --more-configs "$K1" \
      --targets "[$T]" --out "$out/robust-1024-$tag.json"
    KERNEL_LAB_DAWN_FLAGS="$flags" step 200 robust-4096-$tag.log node bench/dist/suite.js --only matmul-f16-4096 --configs 3 --targets "[$T,$TW]" --out "$out/robust-4096-$tag.json"
    KERNEL_LAB_DAWN_FLAGS="$flags" step 90 robust-probe-$tag.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
      --match "^(128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/robust-probe-$tag.json"
  done
  date -u
fi
if has staging; then
  # The staging stores' first index from lid (the default since §60, which Tint leaves unclamped) against
  # the flat index by / and % (mmaStagingFlatIndex, as before): 4096³'s first three configs and 1024³'s
  # leader and 64×64×64 over 4, with "tile" (4096³ also with wholeTrips), beside the reference kernel.
  F='"mmaStagingFlatIndex":true'
  reference staging-ref.log 4096
  step 300 staging-4096.log node bench/dist/suite.js --only matmul-f16-4096 --configs 3 \
    --targets "[$T,{\"halfLoadForm\":\"tile\",$F},$TW,{\"halfLoadForm\":\"tile\",\"wholeTrips\":true,$F}]" --out "$out/staging-4096.json"
  step 200 staging-1024.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024 --configs 0 \
    --more-configs '[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":8},{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]' \
    --targets "[$T,{\"halfLoadForm\":\"tile\",$F}]" --out "$out/staging-1024.json"
  # The machine code of 1024³'s BK 64 kernel with the staging from lid: are the single STS.U16 gone?
  sass gen-1k-64x64x64x4-lid gen matmul-f16 1024 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}' "$T" "$out/sass/gen-1k-64x64x64x4-lid/kernel.wgsl"
  (cd "$out" && tar -cJf sass-staging.tar.xz sass && rm -rf sass)
  date -u
fi
if has packed8; then
  # Runs of 8 held one vec4<u32> each through the loop (runsOf8 with mmaPackedPrefetch, §60's next step):
  # does the 16-byte load land in place and win? 4096³'s first three configs and 1024³'s leader, beside
  # "tile" alone and packed alone, and the machine code of the 16-subgroup leader so held.
  P8='"halfLoadForm":"tile","runsOf8":true,"mmaPackedPrefetch":true'
  step 300 packed8-4096.log node bench/dist/suite.js --only matmul-f16-4096 --configs 3 \
    --targets "[$T,{$P8},{$P8,\"wholeTrips\":true},{\"halfLoadForm\":\"tile\",\"mmaPackedPrefetch\":true}]" --out "$out/packed8-4096.json"
  step 200 packed8-1024.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024 --configs 0 \
    --more-configs '[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":8}]' --targets "[$T,{$P8}]" --out "$out/packed8-1024.json"
  sass gen-256x128x16-p8 gen matmul-f16 4096 '{"BLOCK_M":256,"BLOCK_N":128,"BLOCK_K":32,"num_warps":16}' "{$P8}" "$out/sass/gen-256x128x16-p8/kernel.wgsl"
  (cd "$out" && tar -cJf sass-p8.tar.xz sass && rm -rf sass)
  date -u
fi
if has p8sweep; then
  # Runs of 8 held one vec4<u32> each (runsOf8 + mmaPackedPrefetch) took 128×128 over 4 from 147 to 238
  # at 4096³ on the H100 (part packed8). Over every config and the shapes 1024³ and the odd size need,
  # beside the same lease's ceilings: the reference kernel at 4096³, the probe's 64×64×64 at 1024³.
  P8='"halfLoadForm":"tile","runsOf8":true,"mmaPackedPrefetch":true'
  reference p8-ref.log 4096
  step 90 p8-probe.log node bench/dist/mma-probe.js --only matmul --sizes 1024 \
    --match "^(64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/p8-probe.json"
  step 300 p8-4096.log node bench/dist/suite.js --only matmul-f16-4096 --configs 6 \
    --more-configs '[{"BLOCK_M":128,"BLOCK_N":256,"BLOCK_K":32,"num_warps":8},{"BLOCK_M":128,"BLOCK_N":128,"BLOCK_K":64,"num_warps":4},{"BLOCK_M":256,"BLOCK_N":128,"BLOCK_K":32,"num_warps":8}]' \
    --targets "[{$P8},{$P8,\"wholeTrips\":true}]" --out "$out/p8-4096.json"
  K='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":4},{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4},{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":8},{"BLOCK_M":128,"BLOCK_N":64,"BLOCK_K":32,"num_warps":4},{"BLOCK_M":64,"BLOCK_N":128,"BLOCK_K":32,"num_warps":4},{"BLOCK_M":128,"BLOCK_N":128,"BLOCK_K":32,"num_warps":4},{"BLOCK_M":32,"BLOCK_N":64,"BLOCK_K":64,"num_warps":2}]'
  step 300 p8-1024.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 0 --more-configs "$K" \
    --targets "[{\"halfLoadForm\":\"tile\"},{$P8},{$P8,\"wholeTrips\":true}]" --out "$out/p8-1024.json"
  L='"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true'
  step 240 p8-attn.log node bench/dist/suite.js --only attention-f16-4x32x4096x64,attention-f16-4x32x4096x64-causal --configs 1 \
    --targets "[{$L},{$L,\"runsOf8\":true,\"mmaPackedPrefetch\":true},{$P8}]" --out "$out/p8-attn.json"
  step 100 p8-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/p8-flash.json"
  sass gen-1k-64x64x64x4-p8 gen matmul-f16 1024 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}' "{$P8}" "$out/sass/gen-1k-64x64x64x4-p8/kernel.wgsl"
  sass gen-128x128x4-p8 gen matmul-f16 4096 '{"BLOCK_M":128,"BLOCK_N":128,"BLOCK_K":32,"num_warps":4}' "{$P8}" "$out/sass/gen-128x128x4-p8/kernel.wgsl"
  (cd "$out" && tar -cJf sass-p8sweep.tar.xz sass && rm -rf sass)
  date -u
fi
if has p8rec; then
  # The default runs of 8 (NOTES §63) as the suite's cases now list them: every config of 4096³, 1024³
  # and the odd size, the case's targets (runs of 4 among them) on the first three, beside the same
  # lease's ceilings; then more BK 64 shapes at 1024³.
  reference p8rec-ref.log 4096
  step 90 p8rec-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
    --match "^(128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/p8rec-probe.json"
  step 400 p8rec-suite.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 8 --out "$out/p8rec-suite.json"
  step 200 p8rec-1k.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024 --configs 1 \
    --more-configs '[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":8},{"BLOCK_M":128,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4},{"BLOCK_M":64,"BLOCK_N":32,"BLOCK_K":64,"num_warps":2},{"BLOCK_M":32,"BLOCK_N":64,"BLOCK_K":64,"num_warps":2},{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":128,"num_warps":4},{"BLOCK_M":128,"BLOCK_N":128,"BLOCK_K":64,"num_warps":4},{"BLOCK_M":64,"BLOCK_N":128,"BLOCK_K":64,"num_warps":8}]' \
    --targets '[{"wholeTrips":true}]' --out "$out/p8rec-1k.json"
  reference p8rec-ref2.log 4096
  date -u
fi
# The record's ceilings (parts rec28, rec29): the reference kernel, the probe's matmul leaders at 4096³ and 1024³.
record_ceilings() {
  reference rec-ref.log 4096
  step 120 rec-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
    --match "^(128×128×32 2×2 sg of 4×4 →f32 pad 8 prefetch rows sg-n C-matrices|128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/rec-probe.json"
}
# The record's attention at the default and the leader's knobs, causal and not, the hand-written flash kernel, torch and Triton.
record_attention_and_anchors() {
  local L='"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true'
  step 240 rec-attn.log node bench/dist/suite.js --only attention-f16-4x32x4096x64,attention-f16-4x32x4096x64-causal --configs 2 \
    --targets "[{$L}]" --out "$out/rec-attn.json"
  step 120 rec-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/rec-flash.json"
  step 150 rec-torch.log python3 bench/torch_bench.py --cases matmul,attention,f16 --out "$out/rec-torch.json"
}
# The machine code of 1024³'s generated leader (default, unmaskedDotEdges), the hand-written feed and the probe, and the
# odd size's leader with and without a half a load shifted (parts rec31, rec31s; NOTES §75), into sass-1k.tar.xz.
sass_1k() {
  local N64='64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices'
  local C4='{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}' C8='{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":8}'
  sass gen-1k gen matmul-f16 1024x1024x1024 "$C4" '{}' "$out/sass/gen-1k/kernel.wgsl"
  sass gen-1k-unmask gen matmul-f16 1024x1024x1024 "$C4" '{"unmaskedDotEdges":true}' "$out/sass/gen-1k-unmask/kernel.wgsl"
  sass hand-1k-feed hand 1024 "$N64 feed (16-byte loads, runtime sizes, uniform masks)" "$out/sass/hand-1k-feed/kernel.wgsl"
  sass hand-1k-probe hand 1024 "$N64" "$out/sass/hand-1k-probe/kernel.wgsl"
  sass odd-default gen matmul-f16 1000x1001x1003 "$C8" '{}' "$out/sass/odd-default/kernel.wgsl"
  sass odd-shifted gen matmul-f16 1000x1001x1003 "$C8" '{"shiftedHalfRows":true}' "$out/sass/odd-shifted/kernel.wgsl"
  [ -z "$dry" ] && (cd "$out" && tar -cJf sass-1k.tar.xz sass && rm -rf sass)
}
if has rec28; then
  # Issue 28's record in one call (NOTES §63): the reference kernel, the probe's matmul leaders, the
  # hand-written flash kernel causal and not; the suite's f16 matmul at 4096³, 1024³ and the odd size
  # over their first four configs (the leaders) at the default (runs of 8 where aligned) and in runs of 4 with and without
  # "tile" on the first three; the attention's two first configs at the default and the leader's
  # knobs, causal and not; torch and Triton.
  record_ceilings
  # The odd size read in words (shiftedHalfRows "words", NOTES §67), beside 1024³'s leader, the same process.
  step 150 rec-words.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 3 --targets '[{"shiftedHalfRows":"words"},{"shiftedHalfRows":"words","halfLoadForm":"tile"}]' --out "$out/rec-words.json"
  step 360 rec-mm.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 4 \
    --targets '[{"runsOf8":false},{"runsOf8":false,"halfLoadForm":"tile"}]' --out "$out/rec-mm.json"
  record_attention_and_anchors
  # What element-by-element loads cost, isolated in the hand-written kernel at 1024³ (NOTES §63): its
  # feed with run-time sizes and the tile test, read 16 bytes, 2 bytes (as the odd size's rows are
  # read) and 4 bytes shifted, at 64×64×64 over 4 and 64×128×32 over 4.
  step 120 rec-oddiso.log node bench/dist/mma-probe.js --only matmul --sizes 1024 --match 'feed \((16|2|4)-byte loads' --out "$out/rec-oddiso.json"
  # Two trips a pass (unrollPairs), as the probe's driver unrolls its loop, at each size's leader.
  step 150 rec-pairs.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 1 --targets '[{"unrollPairs":true}]' --out "$out/rec-pairs.json"
  # The odd size's leaders with the staging's flat index as before §60: did the base from lid cost it?
  step 120 rec-odd.log node bench/dist/suite.js --only matmul-f16-1000 --configs 2 --targets '[{"mmaStagingFlatIndex":true}]' --out "$out/rec-odd.json"
  date -u
fi
if has rec29; then
  # Issue 28's record, lean (NOTES §71): the reference kernel, the probe's matmul leaders, the hand-written
  # flash kernel causal and not; the suite's f16 matmul at 4096³, 1024³ and the odd size over their first four
  # configs at the default, and at the odd size a half a load neither read in words nor peeled, spelled out
  # (§71 ran this from a trial build whose odd-size default was words with the loop peeled); the attention's
  # two first configs at the default and the leader's knobs, causal and not; torch and Triton.
  record_ceilings
  step 300 rec-mm.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 4 \
    --targets '[{"shiftedHalfRows":false,"wholeTrips":false}]' --out "$out/rec-mm.json"
  record_attention_and_anchors
  # The odd size's steps apart (§71), beside 1024³: a half a load peeled, words not peeled, words under the tile test.
  step 150 rec-odd.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 \
    --targets '[{"shiftedHalfRows":false,"wholeTrips":true},{"shiftedHalfRows":"words","wholeTrips":false},{"shiftedHalfRows":"words","halfLoadForm":"tile"}]' --out "$out/rec-odd.json"
  date -u
fi
if has rec30; then
  # Issue 28's record with §71's next step in it (NOTES §73), that step first (a short lease keeps it): the odd
  # size beside 1024³, the same process, with the dot operands' loads unmasked on M and N (unmaskedDotEdges) alone,
  # with the K loop peeled, and with words peeled or not; then the ceilings; the suite's f16 matmul at 4096³,
  # 1024³ and the odd size over their first four configs at the default; the attention, the flash kernel, torch and Triton.
  step 200 rec-unmask.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 \
    --targets '[{"unmaskedDotEdges":true},{"unmaskedDotEdges":true,"wholeTrips":true},{"unmaskedDotEdges":true,"shiftedHalfRows":"words","wholeTrips":true},{"unmaskedDotEdges":true,"shiftedHalfRows":"words"}]' \
    --out "$out/rec-unmask.json"
  record_ceilings
  step 300 rec-mm.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 4 --out "$out/rec-mm.json"
  record_attention_and_anchors
  date -u
fi
if has rec31; then
  # NOTES §75: why unmasking the dot operands costs 1024³ 8% where no program has an edge (§73's next step), and
  # what the generated leader's loop has that the hand-written feed's (run-time sizes, 112 against the probe's 115)
  # has not: one pipeline a process, into its own shader cache (read off the device with bench/sass-read.sh).
  sass_1k
  record_ceilings
  # The record's f16 matmul at the default, and a half a load shifted (the odd size's knob, 66.1 against 63.5 in §73's
  # call) beside it in the same process; then the hand-written feed at 1024³ (run-time sizes, the uniform test) in
  # 16-byte loads, 2-byte, 4-byte (the words), and 16-byte chunks shifted at run time (what reading the odd size's
  # rows 16 bytes at a time would cost: NOTES §75).
  step 360 rec-mm.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 4 \
    --targets '[{"shiftedHalfRows":true}]' --out "$out/rec-mm.json"
  step 120 rec-feed.log node bench/dist/mma-probe.js --only matmul --sizes 1024 --match 'feed \((16|2|4)-byte loads' --out "$out/rec-feed.json"
  # torch and Triton only on an H200 (the H100's anchors from the same code are rec29's, 2026-12-06): a short lease keeps the rest.
  if [ -n "$dry" ] || nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | grep -q H200; then record_attention_and_anchors
  else
    L='"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true'
    step 240 rec-attn.log node bench/dist/suite.js --only attention-f16-4x32x4096x64,attention-f16-4x32x4096x64-causal --configs 2 --targets "[{$L}]" --out "$out/rec-attn.json"
    step 120 rec-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/rec-flash.json"
  fi
  date -u
fi
if has chunks; then
  # NOTES §78: the odd size's rows read 16 bytes at a time in the generated code (shiftedHalfRows "chunks": runs of 8,
  # each read as the two aligned 16-byte chunks that cover it, shifted at run time), beside the default (a half a
  # load) and 1024³ in the same process, on the odd size's first three configs, with the tile test (the default of
  # runs of 8), without it ("block": every half by select) and the K loop peeled; the hand-written feed at 1024³ in
  # 16-byte loads and in shifted chunks (its bound, NOTES §75) and the probe's leader; the machine code of both.
  N64='64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices'
  step 300 chunks-mm.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 3 --targets '[{"shiftedHalfRows":"chunks"},{"shiftedHalfRows":"chunks","halfLoadForm":"block"},{"shiftedHalfRows":"chunks","wholeTrips":true}]' --out "$out/chunks-mm.json"
  step 120 chunks-feed.log node bench/dist/mma-probe.js --only matmul --sizes 1024 --match "^$N64( feed \\(16-byte loads, runtime sizes, uniform masks(, shifted( carried)?)?\\))?\$" --out "$out/chunks-feed.json"
  C4='{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":4}' C8='{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":8}'
  for c in 4 8; do
    cfg=C$c
    sass odd-default-$c gen matmul-f16 1000x1001x1003 "${!cfg}" '{}' "$out/sass/odd-default-$c/kernel.wgsl"
    sass odd-chunks-$c gen matmul-f16 1000x1001x1003 "${!cfg}" '{"shiftedHalfRows":"chunks"}' "$out/sass/odd-chunks-$c/kernel.wgsl"
  done
  [ -z "$dry" ] && (cd "$out" && tar -cJf sass-chunks.tar.xz sass && rm -rf sass)
  date -u
fi
if has oddhand; then
  # NOTES §83's next isolation: the hand-written shifted-and-carried feed timed at the odd size itself, where its runs start
  # at every residue mod 8 and the last row and column of programs take the masked way on every trip, beside a half a
  # load by hand and both at 1024³ (64×64×64 over 4, 64×64×32 over 4 and over 8); then the generated odd size and 1024³.
  F='^64×64×(32|64) (2×2 sg of 2×2|2×4 sg of 2×1) →f32 pad 8 prefetch rows sg-n C-matrices( feed \((2|16)-byte loads, runtime sizes, uniform masks(, halves|, shifted carried)?\))?$'
  step 200 oddhand-feed.log node bench/dist/mma-probe.js --only matmul --sizes 1024,1000x1001x1003 --match "$F" --out "$out/oddhand-feed.json"
  step 300 oddhand-mm.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 3 --targets '[{"shiftedHalfRows":"chunks"}]' --out "$out/oddhand-mm.json"
  H8='64×64×32 2×4 sg of 2×1 →f32 pad 8 prefetch rows sg-n C-matrices feed (16-byte loads, runtime sizes, uniform masks, shifted carried)'
  sass odd-hand-chunks-8 hand 1000x1001x1003 "$H8" "$out/sass/odd-hand-chunks-8/kernel.wgsl"
  sass odd-chunks-8 gen matmul-f16 1000x1001x1003 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":8}' '{"shiftedHalfRows":"chunks"}' "$out/sass/odd-chunks-8/kernel.wgsl"
  [ -z "$dry" ] && (cd "$out" && tar -cJf sass-oddhand.tar.xz sass && rm -rf sass)
  date -u
fi
if has oddk64; then
  # oddhand's lead (NOTES §84): by hand the odd size ran best at 64×64×64 over 4 in carried chunks (72.1, against 64.6 at
  # the generated leader's 64×64×32 over 8), a config the odd size's case did not try. Generated there and at 64×64×64
  # over 8, at the default, in chunks (tile test, "block", the K loop peeled), beside 1024³ in the same process.
  K64='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4},{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":8}]'
  step 400 oddk64-mm.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 --more-configs "$K64" \
    --targets '[{"shiftedHalfRows":"chunks"},{"shiftedHalfRows":"chunks","halfLoadForm":"block"},{"shiftedHalfRows":"chunks","wholeTrips":true}]' --out "$out/oddk64-mm.json"
  H4='64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices feed (16-byte loads, runtime sizes, uniform masks, shifted carried)'
  sass odd-hand-chunks-k64 hand 1000x1001x1003 "$H4" "$out/sass/odd-hand-chunks-k64/kernel.wgsl"
  sass odd-chunks-k64 gen matmul-f16 1000x1001x1003 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}' '{"shiftedHalfRows":"chunks"}' "$out/sass/odd-chunks-k64/kernel.wgsl"
  sass odd-default-k64 gen matmul-f16 1000x1001x1003 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}' '{}' "$out/sass/odd-default-k64/kernel.wgsl"
  [ -z "$dry" ] && (cd "$out" && tar -cJf sass-oddk64.tar.xz sass && rm -rf sass)
  date -u
fi
if has unsigned; then
  # oddk64's machine code (NOTES §84): the generated masked way computes each half's row and column of its tile index as
  # signed quotients and remainders (4 and 5 instructions a half, where the hand-written kernel's are unsigned shifts).
  # unsignedIndices takes them unsigned; with splitTileIndices the halves of a run share one row. The odd size at its
  # two first configs and 64×64×64 over 4, at the default and in chunks; 1024³ and 4096³'s two first at the default
  # and unsigned; one process each size.
  K64='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]'
  step 400 unsigned-odd.log node bench/dist/suite.js --only matmul-f16-1000 --configs 2 --more-configs "$K64" \
    --targets '[{"unsignedIndices":true},{"unsignedIndices":true,"splitTileIndices":true},{"shiftedHalfRows":"chunks"},{"shiftedHalfRows":"chunks","unsignedIndices":true},{"shiftedHalfRows":"chunks","unsignedIndices":true,"splitTileIndices":true}]' --out "$out/unsigned-odd.json"
  step 300 unsigned-mm.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-4096 --configs 2 --targets '[{"unsignedIndices":true}]' --out "$out/unsigned-mm.json"
  date -u
fi
if has sassk64; then
  # The machine code behind unsigned's chunks (NOTES §84): generated 64×64×64 over 4 (79% of the hand-written kernel) and
  # 64×64×32 over 4 (95%), both unsigned and split, and the hand-written 64×64×32 over 4 carried, at the odd size.
  U='{"shiftedHalfRows":"chunks","unsignedIndices":true,"splitTileIndices":true}'
  sass odd-chunks-us-k64 gen matmul-f16 1000x1001x1003 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}' "$U" "$out/sass/odd-chunks-us-k64/kernel.wgsl"
  sass odd-chunks-us-4 gen matmul-f16 1000x1001x1003 '{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":4}' "$U" "$out/sass/odd-chunks-us-4/kernel.wgsl"
  H4='64×64×32 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices feed (16-byte loads, runtime sizes, uniform masks, shifted carried)'
  sass odd-hand-chunks-4 hand 1000x1001x1003 "$H4" "$out/sass/odd-hand-chunks-4/kernel.wgsl"
  [ -z "$dry" ] && (cd "$out" && tar -cJf sass-k64.tar.xz sass && rm -rf sass)
  date -u
fi
if has oddorder; then
  # Why the generated 64×64×64 over 4 runs at 79% of the hand-written carried chunks at the odd size with as many
  # instructions a trip (NOTES §84): the hand-written kernel with the generated one's grouped order, C's staging buffer,
  # a tile test per operand, and all three; the generated kernel with its programs in row order (GROUP_M = 1).
  F='^64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch (rows|grouped) sg-n C-matrices feed \(16-byte loads, runtime sizes, uniform masks, shifted carried(, C buffer)?(, two tests)?\)$'
  step 150 oddorder-hand.log node bench/dist/mma-probe.js --only matmul --sizes 1024,1000x1001x1003 --match "$F" --out "$out/oddorder-hand.json"
  K64='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]'
  step 400 oddorder-mm.log node bench/dist/suite.js --only matmul-f16-1000,isolate-matmul-f16-rows-1000 --configs 2 --more-configs "$K64" \
    --targets '[{"unsignedIndices":true},{"shiftedHalfRows":"chunks","unsignedIndices":true,"splitTileIndices":true}]' --out "$out/oddorder-mm.json"
  date -u
fi
if has oddsmem; then
  # oddorder's lead (NOTES §84): C's 8.5 KiB staging buffer declared costs the hand-written odd size 24% (72.6 → 55.3). The
  # generated one declares 4 KiB of edge slices: the hand-written kernel with 1, 2 and 4 KiB of it, and the generated
  # odd size without the slices (no-c-staging: BAD at this size, timing only) at its configs, unsigned and in chunks.
  F='^64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices feed \(16-byte loads, runtime sizes, uniform masks, shifted carried(, C buffer [0-9]+ rows)?\)$'
  step 150 oddsmem-hand.log node bench/dist/mma-probe.js --only matmul --sizes 1000x1001x1003 --match "$F" --out "$out/oddsmem-hand.json"
  K64='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]'
  step 400 oddsmem-mm.log node bench/dist/suite.js --only matmul-f16-1000 --configs 2 --more-configs "$K64" --edits '[[],["no-c-staging"]]' \
    --targets '[{"unsignedIndices":true},{"shiftedHalfRows":"chunks","unsignedIndices":true,"splitTileIndices":true}]' --out "$out/oddsmem-mm.json"
  date -u
fi
if has cstore; then
  # oddsmem's lead (NOTES §84): without its C store's slices (no-c-staging) the generated odd size ran 7–16% faster. At
  # 1000×1001×1003 C's rows are not 16-byte aligned, so every tile stores through the slices. Which part costs: the
  # matrices stored straight into C at this stride anyway (outside Vulkan's rules; whether this driver gets it right),
  # the slices without their copies, without their barriers, and the whole store gone.
  K64='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]'
  step 500 cstore-mm.log node bench/dist/suite.js --only matmul-f16-1000 --configs 2 --more-configs "$K64" \
    --edits '[[],["c-direct-unaligned"],["c-slices-no-copy"],["c-slices-no-barriers"],["no-c-staging"]]' \
    --targets '[{"shiftedHalfRows":"chunks","unsignedIndices":true,"splitTileIndices":true}]' --out "$out/cstore-mm.json"
  date -u
fi
if has oddknobs; then
  # The odd size's knobs on top of unsignedIndices (NOTES §84): chunks, split indices, the K loop peeled, no tile test,
  # at its two first configs and 64×64×64 over 4, beside 1024³'s leader in the same process.
  K64='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]'
  U='"unsignedIndices":true' C='"shiftedHalfRows":"chunks","unsignedIndices":true,"splitTileIndices":true'
  step 500 oddknobs-mm.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 --more-configs "$K64" \
    --targets "[{$C},{$C,\"wholeTrips\":true},{$C,\"halfLoadForm\":\"block\"},{$U,\"wholeTrips\":true},{$U,\"splitTileIndices\":true,\"wholeTrips\":true}]" --out "$out/oddknobs-mm.json"
  date -u
fi
if has slicecopy; then
  # The slices' copies written out at constant offsets (the subgroup size known; NOTES §84), where the loop over sg_size
  # was: the odd size (every tile through the slices: C's rows are not aligned) at the default and its knobs, 1024³
  # and 4096³ (only edge tiles take that way, none at these sizes) at their two first configs, one process.
  K64='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]'
  U='"unsignedIndices":true' C='"shiftedHalfRows":"chunks","unsignedIndices":true,"splitTileIndices":true'
  step 500 slicecopy-mm.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 --more-configs "$K64" \
    --targets "[{$U},{$C},{$C,\"wholeTrips\":true}]" --out "$out/slicecopy-mm.json"
  date -u
fi
if has oddlead; then
  # slicecopy's lead, twice in separate processes (NOTES §84): the odd size in chunks, unsigned, split and peeled at its
  # first two configs and 64×64×64 over 4 and 8, without unsigned indices, without split ones, beside 1024³'s leaders; the hand-written
  # carried chunks at the odd size (its ceiling) and the probe at 1024³ in the same call.
  K64='[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4},{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":8}]'
  C='"shiftedHalfRows":"chunks","unsignedIndices":true,"splitTileIndices":true,"wholeTrips":true'
  T="[{$C},{\"shiftedHalfRows\":\"chunks\",\"unsignedIndices\":true,\"wholeTrips\":true},{\"shiftedHalfRows\":\"chunks\",\"splitTileIndices\":true,\"wholeTrips\":true}]"
  for run in 1 2; do
    step 400 oddlead-mm-$run.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 --more-configs "$K64" --targets "$T" --out "$out/oddlead-mm-$run.json"
  done
  F='^64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices( feed \(16-byte loads, runtime sizes, uniform masks, shifted carried\))?$'
  step 150 oddlead-hand.log node bench/dist/mma-probe.js --only matmul --sizes 1024,1000x1001x1003 --match "$F" --out "$out/oddlead-hand.json"
  date -u
fi
# The hand-written ceilings the record compares against, as suite.js --hand names them (NOTES §85): 1024³'s probe leader
# and its feed with run-time sizes, 4096³'s two leaders.
HAND_CEILINGS='^(64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices( feed \(16-byte loads, runtime sizes, uniform masks\))?|128×128×32 2×2 sg of 4×4 →f32 pad 8 prefetch rows sg-n C-matrices|128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices)$'
if has rec33mm || has rec34mm; then
  # Issue 28's matmul record after NOTES §84 (the slices' copies written out; split indices offered where rows are not
  # aligned): the ceilings, the hand-written odd size in carried chunks, the suite's f16 matmul at 4096³, 1024³ and the
  # odd size over their first four configs at the default and at the odd size's leading knobs, twice. rec34mm: the
  # hand-written ceilings also timed in the suite's processes (suite.js --hand, NOTES §85).
  hand=(); has rec34mm && hand=(--hand "$HAND_CEILINGS")
  record_ceilings
  F='^64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices feed \(16-byte loads, runtime sizes, uniform masks, shifted carried\)$'
  step 150 rec-oddhand.log node bench/dist/mma-probe.js --only matmul --sizes 1024,1000x1001x1003 --match "$F" --out "$out/rec-oddhand.json"
  for run in 1 2; do
    step 360 rec-mm-$run.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 4 \
      --targets '[{"shiftedHalfRows":"chunks","splitTileIndices":true,"wholeTrips":true}]' "${hand[@]}" --out "$out/rec-mm-$run.json"
  done
  date -u
fi
if has samerun; then
  # 1024³ and 4096³ beside the hand-written ceilings in one process and one harness (suite.js --hand: before the
  # generated variants and after them), with 1024³'s program ids one property at a time (row order, plain row-order
  # ids, no division) and two edits (pid_x without its modulo; no C staging); two processes (NOTES §85).
  for run in 1 2; do
    step 300 same-$run.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-4096,isolate-matmul-f16-rows-1024,isolate-matmul-f16-pid-1024,isolate-matmul-f16-pidconst-1024 \
      --configs 2 --targets '[]' --edits '[[],["pid-linear"],["no-c-staging"]]' --hand "$HAND_CEILINGS" --out "$out/same-$run.json"
  done
  date -u
fi
if has samerun2; then
  # samerun's finding checked the other way (NOTES §85): 1024³ and 4096³'s two leaders and the hand-written ceilings,
  # each timed in the suite's harness and again in mma-probe's (--one-pass), in one process; twice.
  for run in 1 2; do
    step 240 same2-$run.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-4096 --configs 2 --targets '[]' \
      --hand "$HAND_CEILINGS" --one-pass --out "$out/same2-$run.json"
  done
  date -u
fi
if has rec34at; then
  # rec34mm's other half: the attention (default and the leader's knobs, causal and not), the flash kernel, torch and Triton.
  record_attention_and_anchors
  date -u
fi
if has rec33at; then
  # rec33mm's lease, the attention half without torch and Triton (device time): the generated attention at the default
  # and the leader's knobs, causal and not, and the hand-written flash kernel.
  L='"halfLoadForm":"select","deferRowSums":true,"lazyRowMax":true,"splitTileIndices":true'
  step 200 rec-attn.log node bench/dist/suite.js --only attention-f16-4x32x4096x64,attention-f16-4x32x4096x64-causal --configs 1 \
    --targets "[{$L}]" --out "$out/rec-attn.json"
  step 60 rec-flash.log node bench/dist/flash-probe.js --match '^flash 128.32 4 sg of 32 rows, O-regs merged, S pad 4( causal)?$' --out "$out/rec-flash.json"
  date -u
fi
if has rec32 || has rec32mm; then
  # Issue 28's record with the chunks (NOTES §78), in two calls where one is 10 minutes (rec32mm, then rec32at): the
  # ceilings, the suite's f16 matmul at 4096³, 1024³ and the odd size over their first four configs at the default
  # and in chunks; then the attention, the flash kernel, torch and Triton.
  record_ceilings
  step 360 rec-mm.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 4 \
    --targets '[{"shiftedHalfRows":"chunks"}]' --out "$out/rec-mm.json"
  date -u
fi
if has rec32 || has rec32at; then
  record_attention_and_anchors
  date -u
fi
if has rec31s; then
  N64='64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices'
  step 120 rec-feed.log node bench/dist/mma-probe.js --only matmul --sizes 1024 --match "^$N64( feed \\((16|2|4)-byte loads.*)?\$" --out "$out/rec-feed.json"
  step 200 rec-mm.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 --targets '[{"shiftedHalfRows":true}]' --out "$out/rec-mm.json"
  sass_1k
  date -u
fi
if has rec28s; then
  # rec28 for a short lease: the ceilings, the hand-written feed in 16-, 2- and 4-byte loads at 1024³,
  # the generated matmul's leader a size at the default and two trips a pass.
  reference rec-ref.log 4096
  step 90 rec-probe.log node bench/dist/mma-probe.js --only matmul --sizes 4096,1024 \
    --match "^(128×128×32 2×2 sg of 4×4 →f32 pad 8 prefetch rows sg-n C-matrices|64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices)\$" --out "$out/rec-probe.json"
  step 90 rec-oddiso.log node bench/dist/mma-probe.js --only matmul --sizes 1024 --match 'feed \((16|2|4)-byte loads' --out "$out/rec-oddiso.json"
  step 150 rec-mm.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-4096,matmul-f16-1000 --configs 1 \
    --targets '[{"unrollPairs":true}]' --out "$out/rec-mm.json"
  step 150 rec-words.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 3 --targets '[{"shiftedHalfRows":"words"},{"shiftedHalfRows":"words","halfLoadForm":"tile"}]' --out "$out/rec-words.json"
  date -u
fi
if has words; then
  # The odd size read in words (shiftedHalfRows "words", NOTES §67), with and without the tile test, on
  # its first three configs, beside 1024³'s (the ratio issue 28 asks is against it), the same process;
  # then the hand-written feed in 16-, 2- and 4-byte loads at 1024³, the bound it isolates.
  step 150 words-suite.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 3 --targets '[{"shiftedHalfRows":"words"},{"shiftedHalfRows":"words","halfLoadForm":"tile"}]' --out "$out/words-suite.json"
  step 90 words-oddiso.log node bench/dist/mma-probe.js --only matmul --sizes 1024 --match 'feed \((16|2|4)-byte loads' --out "$out/words-oddiso.json"
  date -u
fi
if has wordsiso; then
  # What the words cost the odd size (2.5× slower than a half a load, 2026-12-06 H100; NOTES §69), by WGSL edit
  # (bench/wgsl-edits.ts): the masked way's halves picked by select, no branch (words everywhere, masks by select),
  # the masked way removed, words read everywhere, the shift dropped; beside the default (a half a load) and 1024³'s leader, the same process.
  step 300 wordsiso-suite.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 --targets '[{"shiftedHalfRows":"words"}]' \
    --edits '[[],["words-select"],["words-branchless"],["words-no-edge"],["words-always"],["words-no-shift"],["words-always","words-no-shift"]]' --out "$out/wordsiso-suite.json"
  date -u
fi
if has words2; then
  # The words read on every lane and kept by select (no branch; the masked way's halves by select, not a
  # vector indexed at run time: §69), with the tile test and without ("block"), beside the default (a half a
  # load) on the odd size's first four configs, and 1024³'s in the same process. (The 2026-12-06 call ran a
  # build that made words with the tile test the default there, so its targets were the other two: §69.)
  step 240 words2-suite.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 4 --targets '[{"shiftedHalfRows":"words","halfLoadForm":"tile"},{"shiftedHalfRows":"words"}]' --out "$out/words2-suite.json"
  date -u
fi
if has sassodd; then
  # The machine code of the odd size's leader (64×64×32 over 8): a half a load (the default), words kept by select
  # ("block"), words under the tile test, and words with their masks removed (the edit words-no-masks) — why the
  # tile form is slower than both others (§69); then the same four timed in one process, beside 1024³.
  C8='{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"num_warps":8}'
  sass odd-default gen matmul-f16 1000x1001x1003 "$C8" '{}' "$out/sass/odd-default/kernel.wgsl"
  sass odd-words gen matmul-f16 1000x1001x1003 "$C8" '{"shiftedHalfRows":"words"}' "$out/sass/odd-words/kernel.wgsl"
  sass odd-words-tile gen matmul-f16 1000x1001x1003 "$C8" '{"shiftedHalfRows":"words","halfLoadForm":"tile"}' "$out/sass/odd-words-tile/kernel.wgsl"
  sass odd-words-nomasks gen matmul-f16 1000x1001x1003 "$C8" '{"shiftedHalfRows":"words"}' "$out/sass/odd-words-nomasks/kernel.wgsl" words-no-masks
  (cd "$out" && tar -cJf sass-odd.tar.xz sass && rm -rf sass)
  step 200 sassodd-suite.log node bench/dist/suite.js --only matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 --targets '[{"shiftedHalfRows":"words"},{"shiftedHalfRows":"words","halfLoadForm":"tile"}]' \
    --edits '[[],["words-no-masks"]]' --out "$out/sassodd-suite.json"
  date -u
fi
if has unmask; then
  # NOTES §71's next step: the dot operands' loads without their M and N terms (unmaskedDotEdges, codegen/dot-edges.ts),
  # alone, with the K loop peeled, and with words (peeled or not), beside today's default and 1024³ (and 4096³'s leader);
  # twice, in two processes (§69: only same-process comparisons are read).
  for run in a b; do
    step 240 unmask-$run.log node bench/dist/suite.js --only matmul-f16-4096,matmul-f16-1024x1024x1024,matmul-f16-1000 --configs 2 \
      --targets '[{"unmaskedDotEdges":true},{"unmaskedDotEdges":true,"wholeTrips":true},{"unmaskedDotEdges":true,"shiftedHalfRows":"words","wholeTrips":true},{"unmaskedDotEdges":true,"shiftedHalfRows":"words"}]' \
      --out "$out/unmask-$run.json"
  done
  date -u
fi
if has rest; then
  # Issue 28 item 4: every other ratio of RESULTS.md (f32 matmul and attention, softmax, layer norm and
  # its backward, add, dropout) at each case's configs with the default compiler target, torch and
  # Triton in the same call, and the side-by-side table (bench/report.mjs).
  step 420 rest-suite.log node bench/dist/suite.js --only add-2,softmax-,layernorm-,matmul-1,matmul-4,attention-4,dropout- --defaults-only --out "$out/rest-kl.json"
  step 240 rest-torch.log python3 bench/torch_bench.py --cases add,softmax,layernorm,matmul,attention,dropout,lnbwd --out "$out/rest-torch.json"
  [ -z "$dry" ] && node bench/report.mjs "$out/rest-kl.json" "$out/rest-torch.json" > "$out/rest-table.md" 2>&1
  date -u
fi
if has sass8; then
  sass gen-128x256x8 gen matmul-f16 4096 '{"BLOCK_M":128,"BLOCK_N":256,"BLOCK_K":32,"num_warps":8}' '{}' "$out/sass/gen-128x256x8/kernel.wgsl"
  sass gen-128x128x8 gen matmul-f16 4096 '{"BLOCK_M":128,"BLOCK_N":128,"BLOCK_K":32,"num_warps":8}' '{}' "$out/sass/gen-128x128x8/kernel.wgsl"
  sass gen-256x128x8 gen matmul-f16 4096 '{"BLOCK_M":256,"BLOCK_N":128,"BLOCK_K":32,"num_warps":8}' '{}' "$out/sass/gen-256x128x8/kernel.wgsl"
  sass gen-256x128x16-tile gen matmul-f16 4096 '{"BLOCK_M":256,"BLOCK_N":128,"BLOCK_K":32,"num_warps":16}' '{"halfLoadForm":"tile"}' "$out/sass/gen-256x128x16-tile/kernel.wgsl"
  sass hand-128x256-rows hand 4096 "128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch rows sg-n C-matrices" "$out/sass/hand-128x256-rows/kernel.wgsl"
  (cd "$out" && tar -cJf sass8.tar.xz sass && rm -rf sass)
  ls -la "$out/sass8.tar.xz"
  date -u
fi
