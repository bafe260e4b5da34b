// Compiles one kernel into a compute pipeline on the real adapter, and nothing else: no launch, no
// other pipeline. On NVIDIA's driver the shader cache (__GL_SHADER_DISK_CACHE_PATH) then holds that
// kernel's machine code alone, which bench/sass.sh reads back (bench/README "Reading the machine code").
//   node bench/dist/sass.js gen matmul-f16 SIZE CONFIG_JSON KNOBS_JSON OUT.wgsl [EDIT,…]   (bench/wgsl-edits.ts; SIZE N or MxNxK)
//   node bench/dist/sass.js gen attention-f16 SEQ CONFIG_JSON KNOBS_JSON OUT.wgsl   (4×32×SEQ×64; CAUSAL=1)
//   node bench/dist/sass.js hand SIZE 'EXACT NAME' OUT.wgsl                          (bench/mma-kernels.ts; SIZE N or MxNxK)
//   node bench/dist/sass.js wgsl IN.wgsl                                             (any file, entry point main)
// EMULATE=1 compiles `gen` kernels with subgroup matrices emulated (any adapter, lavapipe too): what
// bench/tint-clamps.sh reads Tint's SPIR-V of.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "./case";
import { computePipeline } from "./hand-run";
import { compileKernel, parseKernelFile, specializationFor } from "../src/compile";
import { acquireGpu } from "../src/runtime";
import type { CodegenOptions } from "../src/ir/target";
import { attentionF16, matmulF16 } from "./f16-cases";
import { handName, handOddVariants, handVariants, handWgsl } from "./mma-kernels";
import { applyEdits } from "./wgsl-edits";

const [mode, ...rest] = process.argv.slice(2);
/** The f16 configurations the H100's and H200's Dawn offers, for EMULATE=1. */
const EMULATED_CONFIGS = [[16, 16, 16], [16, 8, 16], [16, 8, 8]].map(([M, N, K]) => ({ componentType: "f16" as const, resultComponentType: "f32" as const, M, N, K }));
const root = repositoryRoot(__dirname);

async function main(): Promise<void> {
  const gpu = await acquireGpu({ f16: true, f16Dot: true });
  let wgsl: string;
  let out: string | undefined;
  if (mode === "gen") {
    const [which, size, config, knobs, file, edits] = rest;
    const n = Number(size);
    // M×N×K (the odd size, 1000x1001x1003), or one number for a cube.
    const [m, nn, k] = size.includes("x") ? size.split("x").map(Number) : [n, n, n];
    const c = which === "matmul-f16" ? matmulF16(m, nn, k) : which === "attention-f16" ? attentionF16(4, 32, n, 64, process.env.CAUSAL === "1") : undefined;
    if (!c) throw new Error(`gen: no case ${which} (matmul-f16, attention-f16)`);
    const path = c.file ?? join("examples", `${c.example}.kernel.ts`);
    const kernel = parseKernelFile(path, readFileSync(join(root, path), "utf8")).kernels.find((k) => k.name === c.kernel)!;
    const emulate = process.env.EMULATE === "1";
    const target = emulate ? { ...gpu.target, subgroupMatrixConfigs: EMULATED_CONFIGS } : gpu.target;
    const options = { ...(JSON.parse(knobs) as CodegenOptions), ...(emulate ? { subgroupMatrixEmulation: true } : {}) };
    const compiled = compileKernel(kernel, JSON.parse(config) as Record<string, number>, target, specializationFor(kernel, c.args()), options);
    if (!compiled.kernel) throw new Error(compiled.diagnostics.map((d) => `${d.code} ${d.message}`).join("; "));
    wgsl = edits ? applyEdits(compiled.kernel.wgsl, edits.split(",")) : compiled.kernel.wgsl;
    out = file;
  } else if (mode === "hand") {
    const [size, name, file] = rest;
    // N (a cube) or MxNxK (sizes the tiles don't divide: the kernels that take edge tiles).
    const [m, n, k] = size.includes("x") ? size.split("x").map(Number) : [Number(size), Number(size), Number(size)];
    const variants = m === n && n === k ? handVariants(m, false) : handOddVariants(false);
    const v = variants.find((x) => handName(x) === name);
    if (!v) throw new Error(`hand: no kernel named ${JSON.stringify(name)}; the names:\n${variants.map(handName).join("\n")}`);
    wgsl = handWgsl(v, m, n, k, false);
    out = file;
  } else if (mode === "wgsl") {
    wgsl = readFileSync(rest[0], "utf8");
  } else {
    throw new Error("usage: sass.js gen|hand|wgsl … (see the file's first lines)");
  }
  if (out) writeFileSync(out, wgsl);
  await computePipeline(gpu, wgsl);
  console.log(`pipeline made: ${wgsl.split("\n").length} lines of WGSL${out ? ` (${out})` : ""}`);
  gpu.device.destroy();
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
