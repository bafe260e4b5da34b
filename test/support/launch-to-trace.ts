// Test support: one launch of an example's kernel, compiled for WebGPU's defaults, in the form the
// access tracer takes (harness/debug/analyse-launch.ts), for tests that draw or check access maps.

import { readFileSync } from "node:fs";
import * as path from "node:path";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { LineMap } from "../../src/diagnostics/position";
import type { LaunchToTrace } from "../../src/harness/debug/analyse-launch";
import type { PointeeDtype } from "../../src/ir/ir";
import { DEFAULT_TARGET } from "../../src/ir/target";

const root = path.resolve(__dirname, "../..");

/** `kernel` of `file` (relative to the repository) at `constexprs`, launched on `grid` with `args`. */
export function launchOf(file: string, kernel: string, constexprs: Record<string, number>, grid: [number, number, number], args: LaunchToTrace["args"], shapes?: Map<string, [number, number]>): LaunchToTrace {
  const text = readFileSync(path.join(root, file), "utf8");
  const source = parseKernelFile(file, text).kernels.find((k) => k.name === kernel)!;
  const compiled = compileKernel(source, constexprs, DEFAULT_TARGET).kernel!;
  const dtypes = new Map<string, PointeeDtype>(compiled.params.filter((p) => p.kind === "pointer").map((p) => [p.name, p.dtype]));
  return { ir: compiled.ir, grid, args, dtypes, lines: new LineMap(text), ...(shapes ? { shapes } : {}) };
}
