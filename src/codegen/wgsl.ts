// IR → WGSL. One program instance per workgroup; blocks live in registers as layout.ts lays them
// out. Each IR value becomes WGSL `let`s (one per register) named after its id (values.ts, by op;
// statements.ts, by statement kind). This file emits a plan (plan.ts: every choice made before
// any WGSL is written), binds the parameters, and puts the module and its KernelAbi together.
// Errors go into the generator's diagnostics log.

import type { Diagnostic } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { KernelIR, NumDtype } from "../ir/ir";
import { isPackedDtype } from "../ir/ir";
import type { CodegenOptions, Target } from "../ir/target";
import type { KernelAbi } from "./abi";
import { WgslGenerator } from "./generator";
import { RUNTIME_ZERO, wgslType } from "./literals";
import { INSTRUMENT_EPILOGUE, instrumentAbi, instrumentDeclarations, instrumentPrologue } from "./instrument";
import { fittingPlan, planKernel, type CodegenPlan } from "./plan";
import type { WorkgroupArray } from "./workgroup-arrays";
import { debugAbi, debugDeclarations } from "./print";
import { emitStatements, STATEMENT_WGSL } from "./statements";
import { BINARY_WGSL, MATH_WGSL, UNARY_WGSL } from "./elementwise";
import { implementedOps } from "../ir/ops";
import { REDUCE_WGSL } from "./reductions";
import { ATOMIC_WGSL } from "./atomics";
import { VALUE_WGSL } from "./values";
import { helperFunctions } from "./helpers";

export interface WgslResult {
  wgsl?: string;
  abi?: KernelAbi;
  diagnostics: Diagnostic[];
}

/** Every IR op the code generator's tables implement (test/unit/intrinsics-complete.test.ts). */
export const WGSL_OPS = implementedOps({
  values: VALUE_WGSL,
  statements: STATEMENT_WGSL,
  unary: UNARY_WGSL,
  binary: BINARY_WGSL,
  math: MATH_WGSL,
  reduce: REDUCE_WGSL,
  atomic: ATOMIC_WGSL,
});

/**
 * The kernel's WGSL for this target and these options: its plan (plan.ts) emitted, or where that
 * needs more workgroup memory than the adapter has, the first of its fallbacks that fits (every
 * plan knows its workgroup arrays before it is emitted, array-plan.ts). Emitted once.
 */
export function generateWgsl(written: KernelIR, target: Target, options: CodegenOptions = {}): WgslResult {
  return emitPlan(fittingPlan(planKernel(written, target, options))).result;
}

/** One plan emitted, and the workgroup arrays its emitters asked for (also where it needs more than the adapter has). */
export function emitPlan(plan: CodegenPlan): { result: WgslResult; workgroupArrays: ReadonlyMap<string, WorkgroupArray> } {
  const gen = new WgslGenerator(plan);
  try {
    return { result: generate(gen), workgroupArrays: gen.scratchArrays };
  } catch (error) {
    // A bug, still shown as a diagnostic at the kernel (docs/CONVENTIONS.md §4).
    gen.log.error(Codes.internal, plan.ir.span, `internal error generating WGSL for '${plan.ir.name}': ${(error as Error).message}. This is a bug in Kernel Lab; please report it with this kernel.`);
    return { result: { diagnostics: gen.log.diagnostics }, workgroupArrays: gen.scratchArrays };
  }
}

function generate(gen: WgslGenerator): WgslResult {
  const ir = gen.ir;
  let uniformWords = bindParams(gen);
  for (const name of gen.atomicBuffers) gen.buffers.get(name)!.atomic = true;
  if (gen.instrumentation) uniformWords = gen.instrumentation.bindLengths(gen);
  for (const name of gen.wideBuffers) gen.buffers.get(name)!.vectorWidth = 4;
  for (const name of gen.octetBuffers) gen.buffers.get(name)!.vectorWidth = 8;
  for (const name of gen.wordBuffers) gen.buffers.get(name)!.vectorWidth = 2;
  emitStatements(gen, ir.body);
  if (gen.log.hasErrors) return { diagnostics: gen.log.diagnostics };

  const header = declarations(gen, uniformWords);
  const debug = debugAbi(gen, gen.buffers.size + 1);
  if (debug) header.push(...debugDeclarations(debug));
  const workgroupBytes = workgroupArrays(gen, header);
  if (workgroupBytes > gen.target.maxWorkgroupStorageBytes) {
    const parts = [...gen.scratchArrays].map(([name, { dtype, size }]) => `${name.split("_")[1]}: ${size} × ${dtype}`).join(", ");
    gen.log.error(Codes.workgroupMemory, ir.span, `this kernel needs ${workgroupBytes} bytes of workgroup memory (${parts}) but the adapter allows ${gen.target.maxWorkgroupStorageBytes}; use smaller blocks (the blocks passed to tl.dot, reductions and broadcasts are staged there)`);
    return { diagnostics: gen.log.diagnostics };
  }
  header.push(...helperFunctions(gen.lines));
  const instrumented = gen.instrumentation && instrumentDeclarations(gen, gen.instrumentation, debug?.binding ?? 0);
  if (instrumented) header.push(...instrumented.header);
  header.push(...entryPoint(gen));
  if (instrumented) header.push(...instrumentPrologue(instrumented.bindings));
  const lanes = [...gen.laneVectors].sort((a, b) => a - b).map((v) => `  let lane${v} = i32(lid) * ${v};`);
  for (const [name, expr] of gen.tileBases) lanes.push(`  let ${name} = ${expr};`);
  for (const [name, [type, init]] of gen.functionVars) lanes.push(`  var ${name}: ${type} = ${init};`);
  const wgsl = [...header, ...lanes, ...gen.lines, ...(instrumented ? INSTRUMENT_EPILOGUE : []), "}", ""].join("\n");
  const abi: KernelAbi = {
    kernel: ir.name,
    entryPoint: "main",
    workgroupSize: gen.w,
    uniformWords,
    scalars: gen.scalars,
    buffers: [...gen.buffers.values(), ...(instrumented?.bindings ?? [])],
    workgroupBytes,
    features: [
      ...(gen.usesF16 ? (["shader-f16"] as const) : []),
      ...(gen.usesSubgroups ? (["subgroups"] as const) : []),
      ...(gen.usesSubgroupMatrix ? (["chromium-experimental-subgroup-matrix"] as const) : []),
    ],
    ...(debug ? { debug } : {}),
    ...(gen.instrumentation ? { instrument: instrumentAbi(gen.instrumentation) } : {}),
  };
  return { wgsl, abi, diagnostics: gen.log.diagnostics };
}

/** A storage binding per pointer parameter, a uniform word per scalar; returns the uniform block's size in words. */
function bindParams(gen: WgslGenerator): number {
  let binding = 1;
  let word = 4;
  for (const p of gen.ir.params) {
    if (p.kind === "pointer") {
      gen.buffers.set(p.name, {
        name: p.name,
        binding: binding++,
        dtype: p.dtype === "i64" ? "i32" : p.dtype,
        vectorWidth: 1,
        access: gen.ir.writtenParams.has(p.name) ? "read_write" : "read",
        // A byte (or bf16) is stored by clearing and setting it in its word with atomics (bytes.ts).
        ...(isPackedDtype(p.dtype) && gen.ir.writtenParams.has(p.name) ? { atomic: true as const } : {}),
      });
      if (p.dtype === "f16") gen.usesF16 = true;
    } else if (p.kind === "scalar") {
      // An i64 scalar travels as i32 (the harness checks it fits, KL2091); an f16 one as f32.
      const dtype = p.dtype as NumDtype;
      gen.scalars.push({ name: p.name, dtype: dtype === "f16" || dtype === "bf16" ? "f32" : dtype === "i64" ? "i32" : dtype, word: word++, ...(dtype === "f16" ? { half: true as const } : {}) });
    }
  }
  return Math.ceil(word / 4) * 4;
}

/** Extensions, the uniform struct and the storage bindings. */
function declarations(gen: WgslGenerator, uniformWords: number): string[] {
  const header: string[] = [];
  if (gen.usesF16) header.push("enable f16;");
  if (gen.usesSubgroups) header.push("enable subgroups;");
  if (gen.usesSubgroupMatrix) {
    // Its operands need only be uniform in each subgroup, which WGSL's analysis can't see.
    header.push("enable chromium_experimental_subgroup_matrix;", "diagnostic(off, chromium.subgroup_matrix_uniformity);");
  }
  // A lazy row maximum's shuffles run under a subgroup's vote (lazy-max.ts): uniform in each
  // subgroup, which WGSL's analysis can't see.
  if (gen.lines.some((l) => l.includes("subgroupAny("))) header.push("diagnostic(off, subgroup_uniformity);");
  if (gen.usesF16 || gen.usesSubgroups) header.push("");
  header.push(`// Kernel '${gen.ir.name}'${constexprComment(gen.ir.constexprs)}, generated by Kernel Lab.`);
  header.push(`// ${gen.w} invocations per program instance; see src/codegen/layout.ts for how blocks map to them.`);
  header.push("", "struct Params {", "  grid: vec3<u32>,", "  _pad: u32,");
  for (const s of gen.scalars) header.push(`  s_${s.name}: ${s.dtype},`);
  for (let i = 4 + gen.scalars.length; i < uniformWords; i++) header.push(`  _pad${i}: u32,`);
  header.push("}", "", "@group(0) @binding(0) var<uniform> params: Params;");
  if (gen.lines.some((l) => l.includes(RUNTIME_ZERO))) header.push(`var<private> ${RUNTIME_ZERO}: u32 = 0u;`);
  for (const b of gen.buffers.values()) {
    // An f16 buffer atomics go through is packed 2 to a u32 word, as bf16's always is (bytes.ts).
    const word = isPackedDtype(b.dtype) || (b.atomic && b.dtype === "f16") ? "u32" : wgslType(b.dtype);
    const atomic = b.atomic ? `atomic<${b.dtype === "f32" ? "u32" : word}>` : undefined;
    const element = atomic ?? (b.vectorWidth === 8 ? "vec4<u32>" : b.vectorWidth === 4 ? `vec4<${word}>` : b.vectorWidth === 2 ? "u32" : word);
    header.push(`@group(0) @binding(${b.binding}) var<storage, ${b.access}> b_${b.name}: array<${element}>;`);
  }
  return header;
}

/** Declares the workgroup arrays in `header`; returns their size in bytes. */
function workgroupArrays(gen: WgslGenerator, header: string[]): number {
  let workgroupBytes = 0;
  for (const [name, { dtype, size, vec4 }] of gen.scratchArrays) {
    header.push(`var<workgroup> ${name}: array<${vec4 ? `vec4<${wgslType(dtype)}>` : wgslType(dtype)}, ${vec4 ? Math.ceil(size / 4) : size}>;`);
    workgroupBytes += size * (dtype === "f16" ? 2 : 4);
  }
  return workgroupBytes;
}

/** `main`'s signature and the program id's recovery from a folded grid. */
function entryPoint(gen: WgslGenerator): string[] {
  const lines = [
    "",
    `@compute @workgroup_size(${gen.w})`,
    `fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32${gen.usesSubgroups ? ", @builtin(subgroup_invocation_id) sg_lane: u32, @builtin(subgroup_size) sg_size: u32" : ""}${gen.lines.some((l) => /\bsg_id\b/.test(l)) ? ", @builtin(subgroup_id) sg_id: u32" : ""}) {`,
    "  // Long grids are folded into 2-D/3-D dispatches (abi.ts); recover the program id.",
    "  let linear = wid.x + wid.y * nwg.x + wid.z * nwg.x * nwg.y;",
    "  if (linear >= params.grid.x * params.grid.y * params.grid.z) { return; }",
    "  let pid_x = i32(linear % params.grid.x);",
    "  let pid_y = i32((linear / params.grid.x) % params.grid.y);",
    "  let pid_z = i32(linear / (params.grid.x * params.grid.y));",
  ];
  // Every binding is used statically, so the pipeline's layout always has all of them.
  for (const b of gen.buffers.values()) lines.push(`  _ = arrayLength(&b_${b.name});`);
  return lines;
}

function constexprComment(constexprs: Readonly<Record<string, number>>): string {
  const entries = Object.entries(constexprs);
  return entries.length === 0 ? "" : ` (${entries.map(([k, v]) => `${k}=${v}`).join(", ")})`;
}
