// What the generated f16 matmul's K loop keeps live through its multiplies, besides the matrices,
// against the hand-written 242 TFLOP/s kernel (bench/mma-kernels.ts BEST_244), read off the WGSL:
// at the loop's first subgroupMatrixMultiplyAccumulate, every value declared in the shader whose
// next mention (on through the loop and round to the top of the next trip) reads it, counted in
// 32-bit registers — an f16, i32, u32, bool or f32 one each, a vec2<u32> two, a vec4<u32> four —
// after dropping `let`s nothing reads (the driver does). An estimate of what the driver must hold,
// not its register allocation (which Vulkan does not show); bench/NOTES.md §28.
//
//   npx tsx bench/loop-registers.ts     the table: H200 target, the launch's specialisation at 4096³ (and 1000×1001×1003)

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile, specializationFor } from "../src/compile";
import { DEFAULT_TARGET, type CodegenOptions, type Target } from "../src/ir/target";
import { BEST_244, handWgsl } from "./mma-kernels";

const configs = [[16, 16, 16], [16, 8, 16], [16, 8, 8]].map(([M, N, K]) => ({ componentType: "f16", resultComponentType: "f32", M, N, K }));
const H200: Target = { ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152, subgroupMatrixConfigs: configs };

/** Registers-worth live at the loop's first multiply, in total and by name (`x4_*` for x4_0 … x4_31). */
export function liveAtMultiply(wgsl: string): { total: number; groups: Record<string, number> } {
  const text = wgsl.split("\n");
  for (let changed = true; changed;) {
    changed = false;
    const counts = new Map<string, number>();
    for (const n of text.join("\n").match(/\b[A-Za-z_]\w*\b/g) ?? []) counts.set(n, (counts.get(n) ?? 0) + 1);
    text.forEach((line, i) => {
      const m = /^\s*let (\w+)\s*=/.exec(line);
      if (m && counts.get(m[1]) === 1) [text[i], changed] = ["", true];
    });
  }
  const start = text.findIndex((l) => /^\s*for \(var (x\d+: i32|k = 0u)/.test(l));
  let depth = 0;
  let end = start;
  for (let i = start; i < text.length; i++) {
    depth += (text[i].match(/{/g) ?? []).length - (text[i].match(/}/g) ?? []).length;
    if (depth === 0) [end, i] = [i, text.length];
  }
  const body = text.slice(start + 1, end);
  const at = body.findIndex((l) => /subgroupMatrixMultiplyAccumulate/.test(l));
  const weight = new Map<string, number>();
  for (const line of text) {
    const typed = /^\s*var (\w+)\s*:\s*([^=;]+)[=;]/.exec(line);
    const vec = typed && /^vec(\d)<(\w+)>/.exec(typed[2].trim());
    if (typed) weight.set(typed[1], /matrix/.test(typed[2]) ? 0 : vec ? (vec[2] === "f16" ? Number(vec[1]) / 2 : Number(vec[1])) : 1);
    const bound = /^\s*(?:let|var) (\w+)\s*=\s*(.*);/.exec(line);
    // A copy weighs what it copies; a vec2<u32> (packed halves) two; anything else one.
    if (bound) weight.set(bound[1], /subgroupMatrix|subgroup_matrix/.test(bound[2]) ? 0 : weight.get(bound[2]) ?? (/^(select\(.*, )?bitcast<vec2<u32>>/.test(bound[2]) ? 2 : 1));
  }
  const groups: Record<string, number> = {};
  const seen = new Set<string>();
  let total = 0;
  for (const line of [...body.slice(at), ...body.slice(0, at)]) {
    for (const name of line.replace(/\/\/.*/, "").match(/\b[A-Za-z_]\w*\b/g) ?? []) {
      if (seen.has(name) || !weight.has(name)) continue;
      seen.add(name);
      if (new RegExp(`^\\s*(?:(?:let|var) ${name}\\b|${name}\\s*=[^=])`).test(line) || weight.get(name) === 0) continue;
      const group = name.replace(/_\d+$/, "_*");
      groups[group] = (groups[group] ?? 0) + weight.get(name)!;
      total += weight.get(name)!;
    }
  }
  return { total, groups };
}

function generated(constexprs: Record<string, number>, options: CodegenOptions, [M, N, K]: number[]): string {
  const file = join(__dirname, "..", "examples", "matmul-f16.kernel.ts");
  const kernel = parseKernelFile(file, readFileSync(file, "utf8")).kernels.find((k) => k.name === "matmul_f16_kernel")!;
  const scalars = { M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1 };
  const result = compileKernel(kernel, constexprs, H200, specializationFor(kernel, scalars), options);
  if (!result.kernel) throw new Error(result.diagnostics.map((d) => d.message).join("; "));
  return result.kernel.wgsl;
}

if (require.main === module) {
  const line = (label: string, wgsl: string) => {
    const { total, groups } = liveAtMultiply(wgsl);
    const shown = Object.entries(groups).filter(([, w]) => w > 1).map(([g, w]) => `${g} ${w}`).join(", ");
    console.log(`| ${label} | ${total} | ${shown} |`);
  };
  console.log("| kernel | registers live at the first multiply | of which (more than one register) |\n|---|---:|---|");
  line("hand-written 128×128×32, 4 subgroups of 4×4 (BEST_244)", handWgsl(BEST_244, 4096, 4096, 4096, false));
  const cube = [4096, 4096, 4096];
  for (const [m, n, w] of [[128, 128, 4], [128, 128, 8], [256, 128, 16], [128, 256, 8]]) {
    const c = { BLOCK_M: m, BLOCK_N: n, BLOCK_K: 32, num_warps: w };
    line(`generated ${m}×${n}×32, ${w} subgroups, 4096³`, generated(c, {}, cube));
    line(`… mmaPackedPrefetch`, generated(c, { mmaPackedPrefetch: true }, cube));
  }
  const odd = [1000, 1001, 1003];
  const c = { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 4 };
  line("generated 64×64×32, 4 subgroups, 1000×1001×1003", generated(c, {}, odd));
  line("… shiftedHalfRows", generated(c, { shiftedHalfRows: true }, odd));
  line("… shiftedHalfRows, mmaPackedPrefetch", generated(c, { shiftedHalfRows: true, mmaPackedPrefetch: true }, odd));
}
