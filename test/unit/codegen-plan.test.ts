// codegen/plan.ts: the plan knows, before anything is emitted, every workgroup array its kernel
// will declare (tl.dot's staging, and array-plan.ts the rest); generateWgsl relies on it to pick
// the plan that fits and emit once. Checked here on every example with tl.dot, for lavapipe, an
// H200 with subgroup matrices and lavapipe emulating them, each config its runs write, every plan
// of the ladder; and on every kernel of examples/ and test/ in 16 KiB of workgroup memory.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { compileKernel, NUM_WARPS, parseKernelFile, type KernelSource } from "../../src/compile";
import { DEFAULT_TARGET, type CodegenOptions, type Target } from "../../src/ir/target";
import { fallback, fittingPlan, planKernel, type CodegenPlan } from "../../src/codegen/plan";
import { emitPlan } from "../../src/codegen/wgsl";
import { lowerKernel } from "../../src/semantics/lower";

const root = join(__dirname, "..", "..");
const configs = (list: number[][]) => list.map(([M, N, K]) => ({ componentType: "f16", resultComponentType: "f32", M, N, K }));
const LAVAPIPE: Target = { shaderF16: true, subgroups: true, subgroupMinSize: 8, subgroupMaxSize: 8, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 32768 };
const H200: Target = {
  ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32,
  maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152, subgroupMatrixConfigs: configs([[16, 16, 16], [16, 8, 16], [16, 8, 8]]),
};
const TARGETS: [string, Target, CodegenOptions][] = [
  ["lavapipe", LAVAPIPE, {}],
  ["h200", H200, {}],
  ["emulated", { ...LAVAPIPE, subgroupMatrixConfigs: configs([[16, 16, 16], [16, 8, 16]]) }, { subgroupMatrixEmulation: true }],
];

/** The plan compileKernel starts from (num_warps as it reads it), for the kernel as lowered. */
function preferredPlan(kernel: KernelSource, constexprs: Record<string, number>, target: Target, options: CodegenOptions): CodegenPlan | undefined {
  const ir = lowerKernel(kernel, constexprs, target).ir;
  const warps = constexprs[NUM_WARPS];
  return ir && planKernel(ir, target, warps === undefined ? options : { ...options, workgroupSize: Math.min(32 * warps, target.maxWorkgroupSize) });
}

function ladder(plan: CodegenPlan): CodegenPlan[] {
  const plans = [plan];
  for (let next = fallback(plan); next; next = fallback(next)) plans.push(next);
  return plans;
}

const dotExamples = readdirSync(join(root, "examples")).filter((f) => f.endsWith(".kernel.ts")).sort()
  .map((f) => ({ file: f, text: readFileSync(join(root, "examples", f), "utf8") }))
  .filter(({ text }) => /tl\.dot\(/.test(text));

test("a plan's tl.dot staging is what its emitters ask for, and so are its other workgroup arrays, in every plan of its ladder", () => {
  let checked = 0;
  for (const { file, text } of dotExamples) {
    const parsed = parseKernelFile(file, text);
    for (const kernel of parsed.kernels.filter((k) => k.ok && !k.called)) {
      // Tiles up to 128 × 64: the 128 × 128 configs double the time for the same code at a larger
      // size (scripts/wgsl-fingerprints.ts compiles them, fallbacks and all).
      for (const constexprs of (parsed.literalConstexprs.get(kernel.name) ?? []).filter((c) => (c.BLOCK_M ?? 1) * (c.BLOCK_N ?? 1) <= 128 * 64)) {
        for (const [name, target, options] of TARGETS) {
          const what = `${file} ${kernel.name} ${JSON.stringify(constexprs)} on ${name}`;
          const first = preferredPlan(kernel, constexprs, target, options);
          assert.ok(first, what);
          for (const plan of ladder(first)) {
            const { workgroupArrays } = emitPlan(plan);
            for (const [array, planned] of plan.stagingArrays) assert.deepEqual(workgroupArrays.get(array), planned, `${what}: ${array} as planned (${JSON.stringify(plan.options)})`);
            assert.deepEqual(sizes(workgroupArrays), sizes(plan.workgroupArrays), `${what}: the workgroup arrays as planned (${JSON.stringify(plan.options)})`);
            checked++;
          }
        }
      }
    }
  }
  assert.ok(checked > 30, `only ${checked} plans checked`);
});

/** The arrays' element types, sizes and widths, sorted: a fresh array's name is the emitter's own. */
function sizes(arrays: ReadonlyMap<string, { dtype: string; size: number; vec4: boolean }>): string[] {
  return [...arrays.values()].map((a) => `${a.dtype}×${a.size}${a.vec4 ? " vec4" : ""}`).sort();
}

function example(file: string, name: string): KernelSource {
  return parseKernelFile(file, readFileSync(join(root, "examples", file), "utf8")).kernels.find((k) => k.name === name)!;
}

const H200_16K = { ...H200, maxWorkgroupStorageBytes: 16384 };

test("lane rows (mmaLaneRows): attention-f16's planned arrays are those emitted, no array for the rescale factor, in every plan of the ladder", () => {
  const text = readFileSync(join(root, "examples", "attention-f16.kernel.ts"), "utf8");
  const kernel = parseKernelFile("attention-f16.kernel.ts", text).kernels.find((k) => k.name === "attn_fwd_f16")!;
  const knobs: CodegenOptions[] = [{ mmaLaneRows: true }, { mmaLaneRows: true, mmaHoldInvariant: true, mmaLeanBarriers: true }];
  for (const [name, target, options] of TARGETS.slice(1)) {
    for (const constexprs of [{ BLOCK_M: 128, BLOCK_N: 32, HEAD_DIM: 64, IS_CAUSAL: 1, num_warps: 4 }, { BLOCK_M: 64, BLOCK_N: 32, HEAD_DIM: 64, IS_CAUSAL: 0, num_warps: 2 }]) {
      for (const knob of knobs) {
        const first = preferredPlan(kernel, constexprs, target, { ...options, ...knob });
        assert.ok(first);
        assert.equal(first.tiledLayouts, "laneRows", name);
        for (const plan of ladder(first)) {
          const { workgroupArrays } = emitPlan(plan);
          assert.deepEqual(sizes(workgroupArrays), sizes(plan.workgroupArrays), `${name} ${JSON.stringify(constexprs)}: the workgroup arrays as planned (${JSON.stringify(plan.options)})`);
          if (plan.mma.size > 0) assert.ok(![...workgroupArrays.keys()].some((a) => a.startsWith("x")), [...workgroupArrays.keys()].join());
        }
      }
    }
  }
});

test("a kernel over the workgroup memory gets the first fallback that fits", () => {
  // The f16 matmul at 64 × 64 × 32 on subgroup matrices in 16 KiB: the accumulator's transfer
  // array of 32 KiB does not fit, one of 8 KiB does, and the dot stays on the matrices.
  const kernel = example("matmul-f16.kernel.ts", "matmul_f16_kernel");
  const constexprs = { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 4 };
  const first = preferredPlan(kernel, constexprs, H200_16K, {})!;
  assert.ok(first.workgroupBytes > H200_16K.maxWorkgroupStorageBytes, "the preferred plan does not fit");
  assert.ok(!emitPlan(first).result.wgsl, "the preferred plan, emitted, is refused");
  const chosen = fittingPlan(first);
  assert.deepEqual({ ...chosen.options, workgroupSize: undefined }, { workgroupSize: undefined, mmaTransferBytes: 8192 });
  assert.equal(chosen.mma.size, 1);
  const compiled = compileKernel(kernel, constexprs, H200_16K);
  assert.deepEqual(compiled.diagnostics, []);
  assert.equal(compiled.kernel!.wgsl, emitPlan(chosen).result.wgsl);
  assert.match(compiled.kernel!.wgsl, /subgroupMatrixMultiplyAccumulate/);
});

test("the ladder's last rungs stage the generic dots' operands in chunks of K, down to what fits", () => {
  // Attention at 128 × 64 with a head of 128 in 16 KiB: the transfer array shrinks to 4 KiB, Q is
  // staged every trip, the generic dot's rows go unshifted, and it still needs 48 KiB; staged 16
  // of K's columns at a time (dot-chunks.ts) it needs 8.5 KiB.
  const kernel = example("attention-f16.kernel.ts", "attn_fwd_f16");
  const constexprs = { BLOCK_M: 128, BLOCK_N: 64, HEAD_DIM: 128, IS_CAUSAL: 0, num_warps: 8 };
  const steps = ladder(preferredPlan(kernel, constexprs, H200_16K, {})!).map((p) => JSON.stringify({ ...p.options, workgroupSize: undefined }));
  const generic = '"mmaTransferBytes":4096,"mmaStageInvariant":false,"subgroupMatrixDot":false,"padDotTiles":false';
  assert.deepEqual(steps, [
    "{}", '{"mmaTransferBytes":16384}', '{"mmaTransferBytes":8192}', '{"mmaTransferBytes":4096}',
    '{"mmaTransferBytes":4096,"mmaStageInvariant":false}', '{"mmaTransferBytes":4096,"mmaStageInvariant":false,"subgroupMatrixDot":false}',
    `{${generic}}`, ...[64, 32, 16, 8, 4].map((chunk) => `{${generic},"dotChunkK":${chunk}}`),
  ]);
  const compiled = compileKernel(kernel, constexprs, H200_16K);
  assert.deepEqual(compiled.diagnostics.map((d) => d.code), []);
  assert.equal(compiled.kernel?.abi.workgroupBytes, 8704);
});

test("where no plan fits, the last of the ladder is emitted and its arrays named in KL2016", () => {
  // A batched tl.dot stages both operands whole: 2 × 64 × 64 floats each, 64 KiB.
  const text = `import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32 } from "kernel-lab";\nexport const k = kernel(function k(x: Ptr<f32>) {\nconst a = tl.zeros([2, 64, 64], "f32");\ntl.store(x + tl.arange(0, 64), tl.sum(tl.sum(tl.dot(a, a), 0), 1));\n});\n`;
  const kernel = parseKernelFile("batched.kernel.ts", text).kernels[0];
  const compiled = compileKernel(kernel, {}, H200_16K);
  assert.equal(compiled.kernel, undefined);
  assert.deepEqual(compiled.diagnostics.map((d) => d.code), ["KL2016"]);
  assert.match(compiled.diagnostics[0].message, /needs \d+ bytes of workgroup memory \(a: 8192 × f32, b: 8192 × f32/);
});

function kernelFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? kernelFiles(path) : name.endsWith(".kernel.ts") ? [path] : [];
  });
}

/** The bytes of the `var<workgroup>` arrays a module declares, read from its text. */
function declaredWorkgroupBytes(wgsl: string): number {
  let total = 0;
  for (const [, element, count] of wgsl.matchAll(/^var<workgroup> \w+: array<(.+), (\d+)>;$/gm)) {
    const scalar = element.match(/^vec4<(\w+)>$/);
    total += Number(count) * (scalar ? 4 : 1) * ((scalar?.[1] ?? element) === "f16" ? 2 : 4);
  }
  return total;
}

test("every kernel of examples/ and test/ in 16 KiB (WebGPU's default, and an H200 held to it): the plan generateWgsl emits declares the workgroup bytes it planned", () => {
  const small: [string, Target][] = [["h200-16k", H200_16K], ["webgpu", { ...DEFAULT_TARGET, shaderF16: true }]];
  let checked = 0;
  let fallbacks = 0;
  for (const path of [...kernelFiles(join(root, "examples")), ...kernelFiles(join(root, "test"))]) {
    const file = relative(root, path);
    const parsed = parseKernelFile(file, readFileSync(path, "utf8"));
    for (const kernel of parsed.kernels.filter((k) => k.ok && (!k.called || parsed.launched.has(k.name)))) {
      const literal = parsed.literalConstexprs.get(kernel.name) ?? [];
      const sets = literal.length > 0 ? literal : [Object.fromEntries(kernel.params.filter((p) => p.kind === "constexpr").map((p) => [p.name, 16]))];
      for (const constexprs of sets) {
        for (const [name, target] of small) {
          const first = preferredPlan(kernel, constexprs, target, {});
          if (!first) continue;
          const plan = fittingPlan(first);
          if (plan !== first) fallbacks++;
          const { result } = emitPlan(plan);
          const what = `${file} ${kernel.name} ${JSON.stringify(constexprs)} on ${name}`;
          if (result.wgsl) {
            assert.equal(declaredWorkgroupBytes(result.wgsl), plan.workgroupBytes, `${what}: declared as planned`);
            assert.equal(result.abi!.workgroupBytes, plan.workgroupBytes, what);
          } else {
            const refused = result.diagnostics.find((d) => d.code === "KL2016");
            if (refused) assert.match(refused.message, new RegExp(`needs ${plan.workgroupBytes} bytes`), what);
          }
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 300 && fallbacks > 0, `${checked} kernels checked, ${fallbacks} on a fallback`);
});
