// Every test file of this folder in one process: what `npm run test:core` runs of test/unit/
// (scripts/test-core.mjs). These files compile kernels and check plans and WGSL on the CPU; none opens
// a GPU or starts a process of its own that another file would see. One process a file, as the test
// runner starts them, spent 95 s of CPU of a 2-core machine's 170 on starting (tsx, TypeScript's
// compiler, the compiler's modules): 87.7 s of wall time on two lanes, against 53.7 s in one process
// (2026-12-06). Run a file alone as usual: `npx tsx --test test/unit/FILE.test.ts`.
import { readdirSync } from "node:fs";
import { join } from "node:path";

for (const file of readdirSync(__dirname).filter((f) => f.endsWith(".test.ts")).sort()) require(join(__dirname, file));
