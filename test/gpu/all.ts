// Most test files of this folder in one process: what `npm run test:core` runs of test/gpu/
// (scripts/test-core.mjs), beside the files own-process.json names, which it runs one a process. They
// share the process's GPU (runtime acquireGpu, lavapipe in CI) as the tests within a file do. One
// process a file spent about 55 s of CPU on starting them (tsx, TypeScript's compiler, the compiler's
// modules, a GPU device each): test/gpu/ took 163 s of CPU alone against 108 s in one process
// (2-core machine, 2026-12-06). Run a file alone as usual: `npx tsx --test test/gpu/FILE.test.ts`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// Files that need a process of their own: what they test is the first GPU a process opens.
const ownProcess: string[] = JSON.parse(readFileSync(join(__dirname, "own-process.json"), "utf8"));

for (const file of readdirSync(__dirname).filter((f) => f.endsWith(".test.ts") && !ownProcess.includes(f)).sort()) require(join(__dirname, file));
