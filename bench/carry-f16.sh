#!/bin/bash
# Copies what a device run needs into DEST (a git-ignored folder of the session's checkout, which is
# what the device tool sends): the bundles (dist, bench/dist; build them first), the CLI, the
# examples, the bench scripts and TypeScript's compiler (the harness transpiles kernel files).
#   node scripts/build.mjs && node bench/build.mjs && bash bench/carry-f16.sh /work/main/.kl-f16
set -euo pipefail
dest=${1:?destination folder}
rm -rf "$dest" && mkdir -p "$dest/bench" "$dest/node_modules/typescript/lib"
cp -r bin dist examples package.json "$dest/"
rm -f "$dest"/dist/*.map
cp -r bench/dist bench/*.py bench/*.sh bench/*.mjs "$dest/bench/"
# The team's hand-written reference matmul (outside the repository): run-h200-record.sh's `ref` part.
[ -f ../shared/tools/mm-f16-reference.cjs ] && cp ../shared/tools/mm-f16-reference.cjs "$dest/bench/"
cp node_modules/typescript/package.json "$dest/node_modules/typescript/"
cp node_modules/typescript/lib/typescript.js "$dest/node_modules/typescript/lib/"
du -sh "$dest"
