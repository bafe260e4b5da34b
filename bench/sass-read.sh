#!/bin/bash
# Reads the machine code of the pipelines run-h200-isolate.sh's `sass` part left in NVIDIA's shader
# caches (one cache a kernel: DIR/NAME/cache), off the device (bench/README "Reading the machine code").
#   bash bench/sass-read.sh DIR
# Needs nvcachetools' nvcachedec (github.com/therontarigo/nvcachetools; `make` with libzstd-dev) and
# NVIDIA's nvdisasm (CUDA, or the one in Triton's wheel: triton/backends/nvidia/bin): NVCACHEDEC and
# NVDISASM name them where they are not on PATH. Writes DIR/NAME/kernel.sass (the largest object the
# cache holds: the kernel; Dawn compiles nothing else there) and prints bench/sass-summary.mjs's table.
set -euo pipefail
dir=$(cd "${1:?the folder with one NAME/cache a kernel}" && pwd)
dec=${NVCACHEDEC:-nvcachedec}
dis=${NVDISASM:-nvdisasm}
for k in "$dir"/*/; do
  k=${k%/}
  [ -d "$k/cache" ] || continue
  rm -rf "$k/objs" && mkdir -p "$k/objs"
  for toc in $(find "$k/cache" -name '*.toc'); do (cd "$k/objs" && "$dec" "$toc" . > /dev/null 2>&1 || true); done
  # The unpacked objects (NVuc microcode or ELF), not the packed copies nvcachedec also leaves.
  obj=$(ls -S "$k"/objs/object*.nvuc "$k"/objs/object*.elf 2>/dev/null | head -1 || true)
  if [ -z "$obj" ]; then echo "$(basename "$k"): no object in its cache ($(ls "$k/objs" | tr '\n' ' '))" >&2; continue; fi
  "$dis" -c "$obj" > "$k/kernel.sass" 2> "$k/nvdisasm.err" || "$dis" "$obj" > "$k/kernel.sass" 2>> "$k/nvdisasm.err" ||
    echo "$(basename "$k"): nvdisasm failed (see nvdisasm.err)" >&2
done
node "$(dirname "$0")/sass-summary.mjs" "$dir"
