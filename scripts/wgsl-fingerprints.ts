// The code generator's output pinned wide: every kernel of examples/ and test/ (`*.kernel.ts`),
// for each constexpr set its `defineRun` calls write (the autotuner's configs included), on five
// targets (WebGPU's defaults, lavapipe, an H200 with subgroup matrices, the same with 16 KiB of
// workgroup memory so the fallbacks run, and lavapipe emulating subgroup matrices), plain and
// instrumented, unspecialised and with every integer scalar known a multiple of 16; the
// examples with tl.dot also under each code-generation switch the bench times, and with larger tiles. Each result is the
// SHA-256 of its WGSL (or the codes of its diagnostics) in test/snapshots/wgsl-fingerprints.json.
// A refactoring of the compiler must leave every line unchanged (issue 30, "Unchanged output").
//
//   npx tsx scripts/wgsl-fingerprints.ts            compare; exit 1 and list what changed
//   npx tsx scripts/wgsl-fingerprints.ts --write    store the current output as the reference
//   npx tsx scripts/wgsl-fingerprints.ts --dump DIR also write each WGSL into DIR (to diff two trees)
//   npx tsx scripts/wgsl-fingerprints.ts --only TEXT only the files whose path contains TEXT (with
//                                         --write, their entries replaced and the others kept)

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { compileKernel, parseKernelFile, type KernelSource, type Specialization } from "../src/compile";
import { DEFAULT_TARGET, type CodegenOptions, type Target } from "../src/ir/target";

const root = join(__dirname, "..");
const store = join(root, "test", "snapshots", "wgsl-fingerprints.json");
const args = process.argv.slice(2);
const write = args.includes("--write");
const dumpDir = args.includes("--dump") ? args[args.indexOf("--dump") + 1] : undefined;
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;

const configs = (list: number[][]) => list.map(([M, N, K]) => ({ componentType: "f16", resultComponentType: "f32", M, N, K }));
const H200: Target = {
  ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32,
  maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152, subgroupMatrixConfigs: configs([[16, 16, 16], [16, 8, 16], [16, 8, 8]]),
};
const LAVAPIPE: Target = { shaderF16: true, subgroups: true, subgroupMinSize: 8, subgroupMaxSize: 8, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 32768 };
const TARGETS: Record<string, [Target, CodegenOptions]> = {
  webgpu: [{ ...DEFAULT_TARGET, shaderF16: true }, {}],
  lavapipe: [LAVAPIPE, {}],
  h200: [H200, {}],
  "h200-16k": [{ ...H200, maxWorkgroupStorageBytes: 16384 }, {}],
  emulated: [{ ...LAVAPIPE, subgroupMatrixConfigs: configs([[16, 16, 16], [16, 8, 16]]) }, { subgroupMatrixEmulation: true }],
};
/** The switches bench/ times (bench/suite.ts, bench/NOTES.md), for the tensor-core examples. */
const SWITCHES: CodegenOptions[] = [
  { mmaDoubleBuffer: true }, { mmaDirectStore: false }, { mmaStageInvariant: false }, { mmaHoldInvariant: true },
  { mmaLeanBarriers: true }, { mmaHoldInvariant: true, mmaLeanBarriers: true, mmaSubgroupsM: 4 }, { mmaTransferBytes: 8192 },
  { mmaLaneRows: true }, { mmaHoldInvariant: true, mmaLeanBarriers: true, mmaSubgroupsM: 4, mmaLaneRows: true }, { mmaLaneRows: true, mmaTransferBytes: 8192 },
  { subgroupMatrixDot: false }, { numStages: 1 }, { numStages: 2 }, { wideHalfAccesses: false }, { halfLoadForm: "select" }, { halfLoadForm: "tile" }, { halfLoadForm: "tile", tileMasksInPlace: true },
  { divisibility: false }, { mmaPackedPrefetch: true }, { shiftedHalfRows: true }, { shiftedHalfRows: true, mmaPackedPrefetch: true }, { shiftedHalfRows: "words" }, { shiftedHalfRows: "words", halfLoadForm: "tile" }, { shiftedHalfRows: "chunks" }, { doubleBufferDot: true }, { privateDotTiles: true }, { padDotTiles: false }, { rowLayouts: false },
  { sinkInvariantDotLoads: false }, { unrollDot: false }, { tiledLayouts: false }, { preferredWorkgroupSize: 128 }, { runsOf8: false }, { unrollPairs: true },
  // Every switch that costs workgroup memory at once: the fallbacks turn them off one by one.
  { doubleBufferDot: true, mmaDoubleBuffer: true, privateDotTiles: true },
];
/** Larger tiles than the runs write, so that every fallback for workgroup memory is taken somewhere. */
const EXTRA_CONSTEXPRS: Record<string, Record<string, number>[]> = {
  attn_fwd: [{ BLOCK_M: 64, BLOCK_N: 64, BLOCK_D: 64, HEAD_DIM: 64, IS_CAUSAL: 1 }, { BLOCK_M: 128, BLOCK_N: 32, BLOCK_D: 64, HEAD_DIM: 64, IS_CAUSAL: 0, num_warps: 8 }],
  attn_fwd_f16: [
    { BLOCK_M: 64, BLOCK_N: 64, HEAD_DIM: 64, IS_CAUSAL: 1, num_warps: 4 }, { BLOCK_M: 128, BLOCK_N: 64, HEAD_DIM: 128, IS_CAUSAL: 0, num_warps: 8 },
    // The hand-written flash kernel's shape: 128 rows over 128 invocations, where mmaLaneRows applies.
    { BLOCK_M: 128, BLOCK_N: 32, HEAD_DIM: 64, IS_CAUSAL: 1, num_warps: 4 },
  ],
};

/**
 * The f16 examples' strides their runs pass as 1 (row-major tensors). Their "div16+unit" launches are
 * what a real launch at sizes that are multiples of 16 compiles: runs of 4 known contiguous and
 * aligned, so vec4 loads, the load forms and (the matmul) runs of 8 (codegen/plan.ts takesRunsOf8),
 * which "div16" alone, knowing no stride is 1, never reaches. Their "unit" launches are what one at
 * sizes not multiples of 16 compiles: runs contiguous, none known aligned (shiftedHalfRows' reads).
 */
const UNIT_STRIDES: Record<string, string[]> = {
  matmul_f16_kernel: ["stride_ak", "stride_bn", "stride_cn"],
  attn_fwd_f16: ["stride_k"],
};

function kernelFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...kernelFiles(path));
    else if (name.endsWith(".kernel.ts")) out.push(path);
  }
  return out;
}

function constexprSets(kernel: KernelSource, literal: Record<string, number>[] | undefined): Record<string, number>[] {
  if (literal && literal.length > 0) return literal;
  const values: Record<string, number> = {};
  for (const p of kernel.params) if (p.kind === "constexpr") values[p.name] = 16;
  return [values];
}

function fingerprint(kernel: KernelSource, constexprs: Record<string, number>, target: Target, options: CodegenOptions, specialization: Specialization, key: string): string {
  let result;
  try {
    result = compileKernel(kernel, constexprs, target, specialization, options);
  } catch (error) {
    return `threw ${(error as Error).message}`;
  }
  if (!result.kernel) return `diagnostics ${result.diagnostics.map((d) => d.code).join(",")}`;
  const texts = [result.kernel.wgsl, ...(result.kernel.quiet ? [result.kernel.quiet.wgsl] : [])];
  if (dumpDir) writeFileSync(join(dumpDir, `${key.replace(/[^\w.=-]+/g, "_")}.wgsl`), texts.join("\n// ---- quiet ----\n"));
  return createHash("sha256").update(texts.join("\0")).update(JSON.stringify(result.kernel.abi)).digest("hex").slice(0, 20);
}

const results: Record<string, string> = {};
if (dumpDir) mkdirSync(dumpDir, { recursive: true });
const started = Date.now();
for (const path of [...kernelFiles(join(root, "examples")), ...kernelFiles(join(root, "test"))]) {
  const file = relative(root, path).split("\\").join("/");
  if (only !== undefined && !file.includes(only)) continue;
  const parsed = parseKernelFile(file, readFileSync(path, "utf8"));
  for (const kernel of parsed.kernels) {
    if (!kernel.ok || (kernel.called && !parsed.launched.has(kernel.name))) continue;
    const integers = kernel.params.filter((p) => p.kind === "scalar" && (p.dtype === "i32" || p.dtype === "u32")).map((p) => p.name);
    const examples = file.startsWith("examples/");
    const unit = examples ? UNIT_STRIDES[kernel.name] ?? [] : [];
    const specializations: Record<string, Specialization> = {
      plain: {},
      ...(integers.length > 0 ? { div16: { divisible: integers } } : {}),
      ...(unit.length > 0 ? { "div16+unit": { divisible: integers.filter((n) => !unit.includes(n)), ones: unit } } : {}),
      // A launch at sizes not multiples of 16 (1000 × 1001 × 1003): unit strides known, no run aligned.
      ...(unit.length > 0 ? { unit: { ones: unit } } : {}),
    };
    for (const constexprs of [...constexprSets(kernel, parsed.literalConstexprs.get(kernel.name)), ...(examples ? EXTRA_CONSTEXPRS[kernel.name] ?? [] : [])]) {
      const c = Object.entries(constexprs).map(([k, v]) => `${k}=${v}`).join(",");
      const switches = examples && /tl\.dot\(/.test(parsed.text) ? [{}, ...SWITCHES] : [{}];
      for (const [targetName, [target, base]] of Object.entries(TARGETS)) {
        for (const [specName, specialization] of Object.entries(specializations)) {
          for (const switched of switches) {
            for (const instrument of [false, true]) {
              const options = { ...base, ...switched, ...(instrument ? { instrument } : {}) };
              const s = Object.entries(switched).map(([k, v]) => `${k}=${v}`).join(",");
              const key = `${file} ${kernel.name} [${c}] ${targetName} ${specName}${s ? ` {${s}}` : ""}${instrument ? " instrumented" : ""}`;
              results[key] = fingerprint(kernel, constexprs, target, options, specialization, key);
            }
          }
        }
      }
    }
  }
}
const count = Object.keys(results).length;
const inScope = (key: string) => only === undefined || key.split(" ")[0].includes(only);
if (write) {
  const kept = only === undefined ? {} : Object.fromEntries(Object.entries(JSON.parse(readFileSync(store, "utf8")) as Record<string, string>).filter(([k]) => !inScope(k)));
  writeFileSync(store, `${JSON.stringify({ ...kept, ...results }, null, 1)}\n`);
  console.log(`wrote ${count} fingerprints to ${relative(root, store)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} else {
  const stored = JSON.parse(readFileSync(store, "utf8")) as Record<string, string>;
  const changed = Object.keys({ ...stored, ...results }).filter((k) => inScope(k) && stored[k] !== results[k]);
  for (const k of changed) console.log(`${k}: ${stored[k] ?? "(new)"} → ${results[k] ?? "(gone)"}`);
  console.log(`${count} fingerprints, ${changed.length} changed, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = changed.length > 0 ? 1 : 0;
}
