#!/bin/bash
# The vector-add benchmark (issue 2): the seed's compiled kernel at 2^20, 2^24 and 2^26 elements
# next to builtins.add, through bench/suite.ts. Here: `node bench/build.mjs && bash bench/vector-add.sh`;
# on the H200: `. .gpu/enter.sh; bash bench/vector-add.sh` (carry .gpu and bench/dist; see RESULTS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f bench/dist/suite.js ] || node bench/build.mjs
node bench/dist/suite.js --only add "$@"
