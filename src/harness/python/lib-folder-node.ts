// Where Kernel Lab's Python modules (lib/) are on the Node side: src/harness/python/lib/ when run from the source,
// dist/python-lib/ beside the bundles (scripts/build.mjs copies it there).

import * as path from "node:path";

export function pythonLibFolder(): string {
  return __filename.endsWith(".ts") ? path.join(__dirname, "lib") : path.join(__dirname, "python-lib");
}
