// The fixes the compiler attaches to its diagnostics (Diagnostic.fixes), which the editor offers as
// quick fixes: each row is a kernel with a learner's mistake, the diagnostic it must give, and the
// file after its fix is applied — which must then check clean (no error, no KL2075 warning).

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFile } from "../../src/compile";
import type { Diagnostic, DiagnosticFix } from "../../src/diagnostics/diagnostic";

const PRELUDE = 'import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";\nimport type { Ptr, f32, i32, constexpr } from "kernel-lab";\n';

function file(params: string, body: string, run = ""): string {
  return `${PRELUDE}export const k = kernel(function k(${params}) {\n${body}\n});\n${run}`;
}

function apply(text: string, fix: DiagnosticFix): string {
  // Edits never overlap; applied from the end so earlier offsets stay valid.
  return [...fix.edits].sort((a, b) => b.span.start - a.span.start).reduce((t, e) => t.slice(0, e.span.start) + e.text + t.slice(e.span.end), text);
}

function only(diagnostics: Diagnostic[], code: string): Diagnostic[] {
  return diagnostics.filter((d) => d.code === code);
}

const VECTOR = "x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, n: i32, BLOCK: constexpr";
const ONE_RUN = 'export const r = defineRun({ kernel: k, sizes: [1000], constexprs: { BLOCK: 1000 }, grid: (n, c) => [cdiv(n, c.BLOCK)], args: (n) => ({ x_ptr: rand(n), y_ptr: empty(n), n }), outputs: ["y_ptr"], reference: ({ x_ptr }) => ({ y_ptr: x_ptr }) });\n';

/** [what, kernel file, code, the fix's title, the body after it (or the whole file when it starts with "import")]. */
const ROWS: [string, string, string, string, string][] = [
  ["Math.max → tl.maximum", file(VECTOR, "const o = tl.arange(0, BLOCK);\ntl.store(y_ptr + o, Math.max(tl.load(x_ptr + o), 0.0));"), "KL1004", "Change to tl.maximum",
    "const o = tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.maximum(tl.load(x_ptr + o), 0.0));"],
  ["Math.exp → tl.exp", file(VECTOR, "const o = tl.arange(0, BLOCK);\ntl.store(y_ptr + o, Math.exp(tl.load(x_ptr + o)));"), "KL1004", "Change to tl.exp",
    "const o = tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.exp(tl.load(x_ptr + o)));"],
  ["tl.program_id → tl.programId", file(VECTOR, "const o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.load(x_ptr + o, o < n), o < n);"), "KL1005", "Change to tl.programId",
    "const o = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.load(x_ptr + o, o < n), o < n);"],
  ["tl.expand_dims → tl.expandDims", file(VECTOR, "const o = tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.sum(tl.expand_dims(tl.load(x_ptr + o), 0), 0));"), "KL1005", "Change to tl.expandDims",
    "const o = tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.sum(tl.expandDims(tl.load(x_ptr + o), 0), 0));"],
  ["a typo of tl.arange", file(VECTOR, "const o = tl.arrange(0, BLOCK);\ntl.store(y_ptr + o, tl.load(x_ptr + o));"), "KL1005", "Change to tl.arange",
    "const o = tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.load(x_ptr + o));"],
  ["a load without a mask", file(VECTOR, "const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst x = tl.load(x_ptr + offsets);\ntl.store(y_ptr + offsets, x, offsets < n);"), "KL2075", "Add the mask offsets < n",
    "const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst x = tl.load(x_ptr + offsets, offsets < n);\ntl.store(y_ptr + offsets, x, offsets < n);"],
  ["a store without a mask, its offsets written out", file(VECTOR, "const x = tl.load(x_ptr);\ntl.store(y_ptr + (tl.programId(0) * BLOCK + tl.arange(0, BLOCK)), x);"), "KL2075", "Add the mask (tl.programId(0) * BLOCK + tl.arange(0, BLOCK)) < n",
    "const x = tl.load(x_ptr);\ntl.store(y_ptr + (tl.programId(0) * BLOCK + tl.arange(0, BLOCK)), x, (tl.programId(0) * BLOCK + tl.arange(0, BLOCK)) < n);"],
  ["a non-power-of-two arange bound to a const: widened, and a mask for its extra lanes", file(VECTOR, "  const offsets = tl.programId(0) * 1000 + tl.arange(0, 1000);\n  const x = tl.load(x_ptr + offsets, offsets < n);\n  tl.store(y_ptr + offsets, x + 1.0);"), "KL2002", "Use tl.arange(0, 1024) and mask the 24 extra lanes",
    "  const offsets = tl.programId(0) * 1000 + tl.arange(0, 1024);\n  const offsets_mask = tl.arange(0, 1024) < 1000;\n  const x = tl.load(x_ptr + offsets, offsets < n && offsets_mask);\n  tl.store(y_ptr + offsets, x + 1.0, offsets_mask);"],
  ["a non-power-of-two arange, itself the offsets", file(VECTOR, "const r = tl.arange(0, 200);\ntl.store(y_ptr + r, tl.load(x_ptr + r) * 2.0);"), "KL2002", "Use tl.arange(0, 256) and mask the 56 extra lanes",
    "const r = tl.arange(0, 256);\nconst r_mask = r < 200;\ntl.store(y_ptr + r, tl.load(x_ptr + r, r_mask) * 2.0, r_mask);"],
  ["a non-power-of-two arange inside a load's pointer", file(VECTOR, "tl.store(y_ptr, tl.sum(tl.load(x_ptr + tl.arange(0, 100)), 0));"), "KL2002", "Use tl.arange(0, 128) and mask the 28 extra lanes",
    "tl.store(y_ptr, tl.sum(tl.load(x_ptr + tl.arange(0, 128), tl.arange(0, 128) < 100), 0));"],
  ["a constexpr block of 1000: defineRun's value rounded up", file(VECTOR, "const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\ntl.store(y_ptr + offsets, tl.load(x_ptr + offsets, offsets < n), offsets < n);", ONE_RUN), "KL2002", "Set BLOCK to 1024 (a power of two) in defineRun",
    file(VECTOR, "const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\ntl.store(y_ptr + offsets, tl.load(x_ptr + offsets, offsets < n), offsets < n);", ONE_RUN.replace("BLOCK: 1000", "BLOCK: 1024"))],
];

for (const [what, text, code, title, after] of ROWS) {
  test(`${what}: ${code} offers "${title}", and the file then checks clean`, () => {
    const found = only(checkFile("k.kernel.ts", text), code);
    assert.equal(found.length, code === "KL2075" ? found.length : 1, JSON.stringify(found));
    const fix = found[0]?.fixes?.find((f) => f.title === title);
    assert.ok(fix, `fixes offered: ${JSON.stringify(found.map((d) => d.fixes?.map((f) => f.title)))}`);
    const fixed = apply(text, fix);
    assert.equal(fixed, after.startsWith("import") ? after : file(VECTOR, after));
    const left = checkFile("k.kernel.ts", fixed).filter((d) => d.severity === "error" || d.code === "KL2075");
    assert.deepEqual(left.map((d) => `${d.code} ${d.message}`), []);
  });
}

test("the certain fixes are preferred (auto-fixable); a guessed name is not", () => {
  const fixOf = (text: string, code: string) => only(checkFile("k.kernel.ts", text), code)[0]?.fixes?.[0];
  assert.equal(fixOf(ROWS[2][1], "KL1005")?.preferred, true);
  assert.equal(fixOf(ROWS[4][1], "KL1005")?.preferred, false);
  assert.equal(fixOf(ROWS[0][1], "KL1004")?.preferred, true);
});

test("no fix where it would not compile or fit: Math.max of three, an arange used through tl.expandDims", () => {
  const three = only(checkFile("k.kernel.ts", file(VECTOR, "const o = tl.arange(0, BLOCK);\ntl.store(y_ptr + o, Math.max(tl.load(x_ptr + o), 0.0, 1.0));")), "KL1004");
  assert.deepEqual(three.map((d) => [d.message, d.fixes]), [["Math.max runs on the CPU; in a kernel use tl.maximum", undefined]]);
  const twoD = only(checkFile("k.kernel.ts", file(VECTOR, "const r = tl.arange(0, 100);\ntl.store(y_ptr + tl.expandDims(r, 1) * 128 + tl.expandDims(tl.arange(0, 128), 0), 1.0);")), "KL2002");
  assert.deepEqual(twoD.map((d) => d.fixes), [undefined]);
});

test("KL2075 stays quiet where a mask isn't needed or can't be bounded: one program (no programId), no integer parameter, a loop's offsets, offsets wrapped by % n (and computed from such), a row picked by the program times a run-time stride", () => {
  const quiet = [
    file(VECTOR, "const o = tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.load(x_ptr + o));"),
    file("x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, BLOCK: constexpr", "const o = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.load(x_ptr + o));"),
    file(VECTOR, "for (let i = tl.programId(0); i < n; i += 1) {\n  tl.store(y_ptr + i, tl.load(x_ptr + i));\n}"),
    // unsloth's fp8 matmul: `offs_am = (pid_m * BLOCK + tl.arange(0, BLOCK)) % M`, its scales read at `offs_am * stride`.
    file(VECTOR, "const o = (tl.programId(0) * BLOCK + tl.arange(0, BLOCK)) % n;\ntl.store(y_ptr + o, tl.load(x_ptr + o * 2 + 1), o < n);"),
    // ColossalAI's decoding kernels: a row picked by the program times its stride, the block its whole head dimension.
    file(VECTOR, "const o = tl.programId(0) * n + tl.arange(0, BLOCK);\ntl.store(y_ptr + o, tl.load(x_ptr + o));"),
  ];
  for (const text of quiet) assert.deepEqual(only(checkFile("k.kernel.ts", text), "KL2075"), []);
});
