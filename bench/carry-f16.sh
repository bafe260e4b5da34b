#!/bin/bash
# Copies what a device run needs into DEST (a git-ignored folder of the session's checkout, which is
# what the device tool sends): the bundles (dist, bench/dist; build them first), the CLI, the
# examples, the bench scripts and TypeScript's compiler (the harness transpiles kernel files).
#   node scripts/build.mjs && node bench/build.mjs && bash bench/carry-f16.sh /work/main/.kl-f16
# The device tool carries at most 64 MiB (the repository's tracked files, .gpu's ~28 MB and what
# `carry` names), and DEST alone is ~25 MB: so DEST is also packed into <checkout>/.kl-pack/<name>.tar.xz
# (~6 MB). Carry [".gpu", ".kl-pack"] and unpack it there first, once per machine (the parts' files
# under DEST stay between calls on a warm machine):
#   . .gpu/enter.sh; [ -d .kl-f16 ] || xz -dc .kl-pack/kl-f16.tar.xz | tar -xf -; cd .kl-f16; …
# TUTORIALS=FOLDER copies Triton's tutorials (fetched into a scratch folder) to DEST/tutorials.
set -euo pipefail
dest=${1:?destination folder}
rm -rf "$dest" && mkdir -p "$dest/bench" "$dest/node_modules/typescript/lib"
cp -r bin dist examples package.json "$dest/"
rm -f "$dest"/dist/*.map
cp -r bench/dist bench/kernels bench/*.py bench/*.sh bench/*.mjs "$dest/bench/"
# The team's hand-written reference matmul (outside the repository): run-h200-record.sh's `ref` part.
[ -f ../shared/tools/mm-f16-reference.cjs ] && cp ../shared/tools/mm-f16-reference.cjs "$dest/bench/"
cp node_modules/typescript/package.json "$dest/node_modules/typescript/"
cp node_modules/typescript/lib/typescript.js "$dest/node_modules/typescript/lib/"
# Triton's tutorials for run-h200-python.sh, from a scratch folder (never the repository's).
[ -n "${TUTORIALS:-}" ] && cp -r "$TUTORIALS" "$dest/tutorials"
# The command line needs neither the editor's bundles nor the browser's.
rm -rf "$dest/dist/web" "$dest/dist/extension.js" "$dest/dist/debug-adapter.js"
du -sh "$dest"
root=$(git rev-parse --show-toplevel)
name=$(basename "$dest")
mkdir -p "$root/.kl-pack"
tar -C "$(dirname "$dest")" -cf - "$name" | xz -T2 -6 > "$root/.kl-pack/${name#.}.tar.xz"
du -sh "$root/.kl-pack/${name#.}.tar.xz"
