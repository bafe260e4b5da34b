// The parts of the harness that need no compiler and no GPU: loading a file, checking a run
// definition, comparing outputs, parsing the command line, the host-side language module.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { loadKernelFile } from "../../src/harness/load/load";
import { checkRunDefinition, computeReference, evaluateGrid, makeArgs, type KernelSignature } from "../../src/harness/run/args";
import { RunDefinitionError } from "../../src/harness/codes";
import { compareOutputs, FLOAT32_TOLERANCE, EXACT } from "../../src/harness/run/compare";
import { parseArgs, UsageError } from "../../src/cli/args";
import * as language from "../../src/language";
import type { Param } from "../../src/ir/ir";

const root = path.resolve(__dirname, "../..");
const span = { start: 0, end: 0 };
const p = (name: string, kind: Param["kind"], dtype: Param["dtype"]): Param => ({ name, kind, dtype, span });
const addKernel: KernelSignature = {
  name: "add_kernel",
  params: [p("x_ptr", "pointer", "f32"), p("y_ptr", "pointer", "f32"), p("output_ptr", "pointer", "f32"), p("n_elements", "scalar", "i32"), p("BLOCK_SIZE", "constexpr", "i32")],
};

test("loads the vector-add example and finds its run and kernel", async () => {
  const loaded = await loadKernelFile(path.join(root, "examples/vector-add.kernel.ts"));
  assert.deepEqual(loaded.diagnostics, []);
  assert.deepEqual(loaded.runs.map((r) => [r.name, r.exportName]), [["vectorAdd", "vectorAdd"]]);
  assert.deepEqual(loaded.kernels.map((k) => k.name), ["add_kernel"]);
  assert.equal(loaded.runs[0].definition.kernel, loaded.kernels[0]);
  assert.equal(loaded.runs[0].definition.baseline, language.builtins.add);
});

test("an anonymous arrow kernel takes its export's name", async () => {
  const loaded = await loadKernelFile(path.join(root, "test/fixtures/arrow-kernel.kernel.ts"));
  assert.deepEqual(loaded.diagnostics, []);
  assert.deepEqual(loaded.kernels.map((k) => k.name), ["scale_kernel"]);
});

test("a file that does not bundle gives KL3001 at the import, not a stack trace", async () => {
  const loaded = await loadKernelFile(path.join(root, "test/fixtures/bad-import.kernel.ts"));
  assert.equal(loaded.runs.length, 0);
  assert.equal(loaded.diagnostics.length, 1);
  const [d] = loaded.diagnostics;
  assert.equal(d.code, "KL3001");
  assert.equal(d.line, 3);
  assert.match(d.message, /does-not-exist/);
});

test("files imported by relative path are read and run with the kernel file; type-only imports are not", async () => {
  const loaded = await loadKernelFile(path.join(root, "test/fixtures/imports/scaled.kernel.ts"));
  assert.deepEqual(loaded.diagnostics, []);
  const [run] = loaded.runs;
  assert.deepEqual(run.definition.sizes, [1000, 77]);
  assert.deepEqual(run.definition.constexprs, { BLOCK: 64 });
  const x = new Float32Array([1, 2]);
  const reference = run.definition.reference as (args: { x_ptr: Float32Array }, n: number) => { out_ptr: Float32Array };
  assert.deepEqual([...reference({ x_ptr: x }, 2).out_ptr], [3, 6]);
});

test("a syntax error in an imported file is KL3001 at its line in that file", async () => {
  const loaded = await loadKernelFile(path.join(root, "test/fixtures/imports/syntax-error.kernel.ts"));
  assert.equal(loaded.runs.length, 0);
  assert.deepEqual(loaded.diagnostics.map((d) => [path.basename(d.file), d.line, d.code]), [["broken.js", 3, "KL3001"]]);
  assert.match(loaded.diagnostics[0].message, /'\)' expected\. The file could not be loaded; fix this syntax error\.$/);
});

test("tl functions throw on the host", () => {
  assert.throws(() => language.tl.programId(0), /tl\.programId can only be called inside a kernel; run the file with kernel-lab/);
});

test("helpers make typed arrays of the right type, empty is poison", () => {
  assert.ok(language.rand(5) instanceof Float32Array);
  assert.ok(language.rand(5, "i32") instanceof Int32Array);
  assert.ok(language.randn(5, "u32") instanceof Uint32Array);
  assert.ok(Number.isNaN(language.empty(3)[2]));
  assert.equal(language.empty(3, "i32")[1], 0x7fbadbad);
  assert.deepEqual([...language.arange(4, "i32")], [0, 1, 2, 3]);
  assert.deepEqual([...language.full(2, 7, "u32")], [7, 7]);
  assert.equal(language.cdiv(98432, 1024), 97);
  for (const v of language.rand(1000)) assert.ok(v >= 0 && v < 1);
});

function runOf(definition: Record<string, unknown>) {
  const base = {
    kernel: language.kernel(function add_kernel() {}),
    sizes: [100],
    constexprs: { BLOCK_SIZE: 32 },
    grid: (n: number, c: { BLOCK_SIZE: number }) => [language.cdiv(n, c.BLOCK_SIZE)],
    args: (n: number) => ({ x_ptr: language.rand(n), y_ptr: language.rand(n), output_ptr: language.empty(n), n_elements: n }),
    outputs: ["output_ptr"],
    reference: ({ x_ptr, y_ptr }: { x_ptr: Float32Array; y_ptr: Float32Array }) => ({ output_ptr: x_ptr.map((v, i) => v + y_ptr[i]) }),
  };
  return { name: "r", exportName: "r", definition: { ...base, ...definition } as never };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof RunDefinitionError, String(err));
    assert.match(err.message, /^Run 'r', /);
    return err.code;
  }
  assert.fail("expected a RunDefinitionError");
}

test("a good run definition evaluates", () => {
  const run = checkRunDefinition(runOf({}), addKernel);
  assert.deepEqual(evaluateGrid(run, 100), [4, 1, 1]);
  const args = makeArgs(run, addKernel, 100);
  const expected = computeReference(run, args, 100);
  assert.equal(expected.output_ptr.length, 100);
});

test("each kind of bad run definition has its code", () => {
  const table: [Record<string, unknown>, string, "check" | "grid" | "args" | "reference"][] = [
    [{ sizes: [] }, "KL3012", "check"],
    [{ sizes: [1.5] }, "KL3012", "check"],
    [{ constexprs: {} }, "KL3013", "check"],
    [{ constexprs: { BLOCK_SIZE: 32, OTHER: 1 } }, "KL3013", "check"],
    [{ grid: 4 }, "KL3014", "check"],
    [{ outputs: ["n_elements"] }, "KL3021", "check"],
    [{ outputs: ["nope"] }, "KL3021", "check"],
    [{ tolerance: { atol: -1 } }, "KL3024", "check"],
    [{ baseline: "builtins.add" }, "KL3026", "check"],
    [{ refrence: () => ({}) }, "KL3027", "check"],
    [{ grid: () => [0] }, "KL3015", "grid"],
    [{ grid: () => [1, 2, 3, 4] }, "KL3015", "grid"],
    [{ grid: () => [2.5] }, "KL3015", "grid"],
    [{ grid: () => { throw new Error("boom"); } }, "KL3015", "grid"],
    [{ args: (n: number) => ({ x_ptr: language.rand(n), y_ptr: language.rand(n), output_ptr: language.empty(n) }) }, "KL3017", "args"],
    [{ args: (n: number) => ({ x_ptr: language.rand(n), y_ptr: language.rand(n), output_ptr: language.empty(n), n_elements: n, extra: 1 }) }, "KL3018", "args"],
    [{ args: (n: number) => ({ x_ptr: language.rand(n, "i32"), y_ptr: language.rand(n), output_ptr: language.empty(n), n_elements: n }) }, "KL3019", "args"],
    [{ args: (n: number) => ({ x_ptr: language.rand(n), y_ptr: language.rand(n), output_ptr: language.empty(n), n_elements: NaN }) }, "KL3020", "args"],
    [{ args: (n: number) => ({ x_ptr: language.rand(n), y_ptr: language.rand(n), output_ptr: language.empty(n), n_elements: n + 0.5 }) }, "KL3020", "args"],
    [{ reference: () => { throw new Error("oops"); } }, "KL3022", "reference"],
    [{ reference: () => ({}) }, "KL3023", "reference"],
    [{ reference: () => ({ output_ptr: new Float32Array(3) }) }, "KL3023", "reference"],
  ];
  for (const [change, code, stage] of table) {
    const got = codeOf(() => {
      const run = checkRunDefinition(runOf(change), addKernel, new Set(["builtins.add"]));
      if (stage === "grid") evaluateGrid(run, 100);
      if (stage === "args") makeArgs(run, addKernel, 100);
      if (stage === "reference") computeReference(run, makeArgs(run, addKernel, 100), 100);
    });
    assert.equal(got, code, JSON.stringify(Object.keys(change)));
  }
});

test("compare: tolerance, NaN, first mismatch", () => {
  const f = (got: number[], expected: number[], tolerance = FLOAT32_TOLERANCE) => compareOutputs([{ name: "out", got, expected, tolerance }]);
  assert.equal(f([1, 2, 3], [1, 2, 3]).correct, true);
  assert.equal(f([1 + 1e-6], [1]).correct, true);
  assert.equal(f([1 + 1e-4], [1]).correct, false);
  assert.equal(f([NaN], [NaN]).correct, true);
  assert.equal(f([NaN], [1]).correct, false);
  assert.equal(f([1], [NaN]).correct, false);
  assert.equal(f([Infinity], [Infinity]).correct, true);
  assert.equal(f([5], [6], EXACT).correct, false);
  const r = f([1, 2, 7, NaN], [1, 2, 3, 4]);
  assert.equal(r.mismatches, 2);
  assert.deepEqual(r.firstMismatch, { output: "out", index: 2, got: 7, expected: 3 });
  assert.equal(r.maxAbsDiff, Infinity);
  const s = f([1, 2.5], [1, 2]);
  assert.equal(s.maxAbsDiff, 0.5);
  assert.equal(s.maxRelDiff, 0.25);
});

test("command-line parsing", () => {
  assert.deepEqual(parseArgs(["run", "a.kernel.ts", "--size", "1000", "--json", "--cpu"]), {
    kind: "run", file: "a.kernel.ts", run: undefined, size: 1000, sweep: false, json: true, cpu: true, bench: undefined, reps: undefined, timeoutMs: undefined, maxSteps: undefined, constexprs: {}, retune: false, tuneCodegen: false, history: undefined, debug: false,
  });
  assert.equal((parseArgs(["run", "a.kernel.ts", "--cpu", "--max-steps", "5000"]) as { maxSteps?: number }).maxSteps, 5000);
  assert.throws(() => parseArgs(["run", "a.ts", "--max-steps", "-3"]), UsageError);
  assert.deepEqual((parseArgs(["run", "a.kernel.ts", "--constexpr", "BLOCK_M=16", "--constexpr", "num_warps=2"]) as { constexprs: object }).constexprs, { BLOCK_M: 16, num_warps: 2 });
  assert.equal((parseArgs(["run", "a.kernel.ts", "--retune"]) as { retune: boolean }).retune, true);
  assert.equal((parseArgs(["run", "a.kernel.ts", "--history", "h.jsonl"]) as { history?: string }).history, "h.jsonl");
  assert.deepEqual(parseArgs(["compare", "old.json", "new.json", "--json"]), { kind: "compare", before: "old.json", after: "new.json", json: true, debug: false });
  assert.throws(() => parseArgs(["compare", "old.json"]), UsageError);
  assert.deepEqual(parseArgs(["wgsl", "a.ts", "--constexpr", "BLOCK=64", "--constexpr=N=2", "--kernel", "k"]), {
    kind: "wgsl", file: "a.ts", kernel: "k", constexprs: { BLOCK: 64, N: 2 }, gpu: false, debug: false,
  });
  assert.deepEqual(parseArgs(["check", "a.ts", "b.ts"]), { kind: "check", files: ["a.ts", "b.ts"], json: false, pretty: false, debug: false });
  assert.deepEqual(parseArgs(["--help"]), { kind: "help" });
  assert.deepEqual(parseArgs(["--version"]), { kind: "version" });
  assert.throws(() => parseArgs(["run", "a.ts", "--size", "0"]), UsageError);
  assert.throws(() => parseArgs(["run", "a.ts", "--bogus"]), UsageError);
  assert.throws(() => parseArgs(["frobnicate"]), UsageError);
  assert.throws(() => parseArgs(["wgsl", "a.ts", "--constexpr", "BLOCK"]), UsageError);
  // Float constexprs (Liger's JSD: beta = 0.5) take a float; anything that is not a number is refused.
  assert.deepEqual((parseArgs(["run", "a.ts", "--constexpr", "beta=0.5", "--constexpr", "eps=1e-6", "--constexpr", "k=-.25"]) as { constexprs: object }).constexprs, { beta: 0.5, eps: 1e-6, k: -0.25 });
  for (const bad of ["beta=abc", "beta=", "beta=0.5.1", "beta=Infinity", "beta=1e999"]) {
    assert.throws(() => parseArgs(["run", "a.ts", "--constexpr", bad]), /NAME=NUMBER/, bad);
  }
});
