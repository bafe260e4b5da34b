// `npm run test:core`: the unit, GPU and command-line tests, two files at a time.
//
// On a machine without a GPU (CI: 2 cores, lavapipe) most of this suite's time is lavapipe: LLVM
// compiling shaders (the same files take 347 s with a warm Mesa shader cache, 903 s cold) and
// running them. Two files at a time keep both cores busy while one of them compiles; each process
// opens its own device, and the caches the harness writes are replaced atomically, so files share
// nothing. On lavapipe, GALLIVM_PERF=nopt also skips LLVM's optimisation passes (the shaders'
// results are the same; they run slower, at the tests' small sizes): about 5% of the cold total.
// Together, on a 2-core machine with cold caches (2026-12-04): 903 s → 769 s. While a launch runs,
// dawn.node polls for its completion from a setImmediate loop, a core that lavapipe's own threads
// would use; on a software adapter the runtime now sleeps 0.2 ms between those polls (Gpu.idle,
// host.yieldWhile): the whole suite 816 s → 506 s on the same machine, cold; three of its files 249 → 181 s,
// their CPU time 465 → 322 s.
//
//   node scripts/test-core.mjs [--concurrency N] [FILE…]    (default: every test file, 2 at a time)
//
// It ends with the 10 slowest files and their wall times (scripts/slowest-files.mjs).

import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
let concurrency = 2;
const named = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--concurrency") concurrency = Number(argv[++i]);
  else named.push(argv[i]);
}

const testsIn = (dir) =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith(".test.ts"))
    .sort()
    .map((f) => relative(root, join(root, dir, f)));
// The GPU files and the unit files each in one process (test/gpu/all.ts and test/unit/all.ts say
// why), the longest of the files, first; then the command-line files and the GPU files that need a
// process of their own, so that the two lanes end together.
const ownProcess = JSON.parse(readFileSync(join(root, "test/gpu/own-process.json"), "utf8")).map((f) => `test/gpu/${f}`);
const files = named.length > 0 ? named : ["test/gpu/all.ts", "test/unit/all.ts", ...testsIn("test/cli"), ...ownProcess];

const tsx = createRequire(import.meta.url).resolve("tsx/cli");
// The usual reporter (spec on a terminal, TAP otherwise), then the 10 slowest files at the end.
const reporters = [
  `--test-reporter=${process.stdout.isTTY ? "spec" : "tap"}`,
  "--test-reporter-destination=stdout",
  `--test-reporter=${pathToFileURL(join(root, "scripts/slowest-files.mjs"))}`,
  "--test-reporter-destination=stdout",
];
const child = spawn(process.execPath, [tsx, "--test", `--test-concurrency=${concurrency}`, ...reporters, ...files], {
  cwd: root,
  stdio: "inherit",
  env: { GALLIVM_PERF: "nopt", ...process.env },
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
