// Bundles the benchmark suite into bench/dist/suite.js (and probe.js, overhead.js, launches.js, f16.js): everything
// inside but Dawn's native module, so it runs on a GPU machine that has Node (from .gpu/) and nothing else.
import { build } from "esbuild";

await build({
  entryPoints: ["bench/suite.ts", "bench/probe.ts", "bench/overhead.ts", "bench/launches.ts", "bench/f16.ts", "bench/mma-probe.ts", "bench/flash-probe.ts", "bench/sass.ts"],
  outdir: "bench/dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  external: ["webgpu", "typescript"],
  logLevel: "warning",
});
