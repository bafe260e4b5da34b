// Each intrinsic's `produces` list (semantics/intrinsics-*.ts) is what its lowering really emits:
// one sample call per tl.* function is lowered with the IR builder watched, and every op emitted
// by the intrinsic itself (not by its arguments) must be on its list. The kernel must then compile
// to WGSL without diagnostics. A new tl.* function needs a row here.

import { test } from "node:test";
import assert from "node:assert/strict";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET } from "../../src/ir/target";
import type { IrOpName } from "../../src/ir/ops";
import type { Stmt, ValueOp } from "../../src/ir/ir";
import { INTRINSICS } from "../../src/semantics/intrinsics";
import { LIBDEVICE_FUNCTIONS } from "../../src/semantics/libdevice";
import type { Intrinsic } from "../../src/semantics/intrinsic-args";

// [tl.* name, a statement that calls it]; x is f32[16], i is i32[16], m is f32[16, 16].
const SAMPLES: [string, string][] = [
  ["programId", "tl.store(y_ptr + tl.programId(0), 1.0);"],
  ["numPrograms", "tl.store(y_ptr + tl.numPrograms(1), 1.0);"],
  ["arange", "tl.store(y_ptr + tl.arange(0, 16), x);"],
  ["load", "tl.store(y_ptr + offs, tl.load(x_ptr + offs, offs < n, 0));"],
  ["store", "tl.store(y_ptr + offs, 2, offs < n);"],
  ["where", "tl.store(y_ptr + offs, tl.where(x > 0, x, 0) + tl.where(x, 1, 0));"],
  ["staticRange", "for (const j of tl.staticRange(0, 2)) { tl.store(y_ptr + offs + j, x); }"],
  ["exp", "tl.store(y_ptr + offs, tl.exp(i) + tl.exp(1));"],
  ["log", "tl.store(y_ptr + offs, tl.log(x));"],
  ["sqrt", "tl.store(y_ptr + offs, tl.sqrt(x));"],
  ["rsqrt", "tl.store(y_ptr + offs, tl.rsqrt(x));"],
  ["abs", "tl.store(y_ptr + offs, tl.abs(x) + tl.cast(tl.abs(i), \"f32\"));"],
  ["sin", "tl.store(y_ptr + offs, tl.sin(x));"],
  ["cos", "tl.store(y_ptr + offs, tl.cos(x));"],
  ["floor", "tl.store(y_ptr + offs, tl.floor(x));"],
  ["ceil", "tl.store(y_ptr + offs, tl.ceil(x));"],
  ["sigmoid", "tl.store(y_ptr + offs, tl.sigmoid(x));"],
  ["maximum", "tl.store(y_ptr + offs, tl.maximum(x, 0));"],
  ["minimum", "tl.store(y_ptr + offs, tl.minimum(x, i));"],
  ["fma", "tl.store(y_ptr + offs, tl.fma(x, 2, i));"],
  ["cast", "tl.store(y_ptr + offs, tl.cast(i, \"f32\") + tl.cast(tl.cast(x, \"u32\", { bitcast: true }) >> 1, \"f32\", { bitcast: true }));"],
  ["cdiv", "tl.store(y_ptr + tl.cdiv(n, 16), 1.0);"],
  ["zeros", "tl.store(y_ptr + offs, tl.zeros([16], \"f32\"));"],
  ["full", "tl.store(y_ptr + offs, tl.full([16], n, \"f32\"));"],
  ["expandDims", "tl.store(y_ptr + tl.expandDims(offs, 1) * 16 + tl.expandDims(offs, 0), m);"],
  ["broadcastTo", "tl.store(y_ptr + tl.expandDims(offs, 1) * 16 + tl.expandDims(offs, 0), tl.broadcastTo(x, [16, 16]));"],
  ["reshape", "tl.store(y_ptr + tl.arange(0, 256), tl.reshape(m, [256]));"],
  ["trans", "tl.store(y_ptr + tl.expandDims(offs, 1) * 16 + tl.expandDims(offs, 0), tl.trans(m));"],
  ["sum", "tl.store(y_ptr + offs, tl.sum(m, 1) + tl.sum(x));"],
  ["max", "tl.store(y_ptr + offs, tl.max(m, 0));"],
  ["min", "tl.store(y_ptr, tl.min(x));"],
  ["argmax", "tl.store(y_ptr, tl.cast(tl.argmax(x), \"f32\"));"],
  ["dot", "tl.store(y_ptr + tl.expandDims(offs, 1) * 16 + tl.expandDims(offs, 0), tl.dot(m, m, m));"],
  // h_ptr is a Ptr<i32>.
  ["atomicAdd", "tl.store(y_ptr + offs, tl.atomicAdd(y_ptr + offs, x, offs < n) + tl.cast(tl.atomicAdd(h_ptr, 1), \"f32\"));"],
  ["atomicMax", "tl.atomicMax(h_ptr + offs, i, offs < n);"],
  ["atomicMin", "tl.atomicMin(h_ptr + offs % 4, 2.0);"],
  ["atomicAnd", "tl.atomicAnd(h_ptr, i);"],
  ["atomicOr", "tl.atomicOr(h_ptr + offs, 1, offs < n);"],
  ["atomicXor", "tl.atomicXor(h_ptr + offs, i);"],
  ["atomicXchg", "tl.store(h_ptr + offs, tl.atomicXchg(h_ptr, offs));"],
  ["atomicCas", "if (tl.atomicCas(h_ptr, 0, 1) === 0) { tl.atomicCas(h_ptr + offs, i, 0, offs < n); }"],
  ["exp2", "tl.store(y_ptr + offs, tl.exp2(x) + tl.exp2(i));"],
  ["log2", "tl.store(y_ptr + offs, tl.log2(x));"],
  ["tanh", "tl.store(y_ptr + offs, tl.tanh(x));"],
  ["erf", "tl.store(y_ptr + offs, tl.erf(i));"],
  ["pow", "tl.store(y_ptr + offs, tl.pow(x, 2) + tl.pow(i, n));"],
  ["asin", "tl.store(y_ptr + offs, tl.asin(x) + tl.asin(i));"],
  ["acos", "tl.store(y_ptr + offs, tl.acos(x));"],
  ["atan", "tl.store(y_ptr + offs, tl.atan(x));"],
  ["log1p", "tl.store(y_ptr + offs, tl.log1p(x));"],
  ["expm1", "tl.store(y_ptr + offs, tl.expm1(x));"],
  ["fdiv", "tl.store(y_ptr + offs, tl.fdiv(i, 3) + tl.fdiv(x, n));"],
  ["umulhi", "tl.store(y_ptr + offs, tl.cast(tl.umulhi(i, 0x9e3779b9) + tl.cast(tl.umulhi(i, n), \"u32\"), \"f32\"));"],
  ["clamp", "tl.store(y_ptr + offs, tl.clamp(x, 0, 1) + tl.cast(tl.clamp(i, n, 40), \"f32\"));"],
  ["rand", "tl.store(y_ptr + offs, tl.rand(n, offs) + tl.rand(7, n));"],
  ["randn", "tl.store(y_ptr + offs, tl.randn(tl.cast(n, \"u32\"), i));"],
  ["randint", "tl.store(y_ptr + offs, tl.cast(tl.randint(n, offs), \"f32\"));"],
  ["randint4x", "tl.store(y_ptr + offs, tl.cast(tl.randint4x(n, offs, 3) >> 8, \"f32\"));"],
  ["philox", "const [r0, r1, r2, r3] = tl.philox(n, offs, 0, 0, 0); tl.store(y_ptr + offs, tl.uintToUniformFloat(r0 ^ r1 ^ r2 ^ r3));"],
  ["uintToUniformFloat", "tl.store(y_ptr + offs, tl.uintToUniformFloat(tl.randint(n, offs)));"],
  ["pairUniformToNormal", "const [g0, g1] = tl.pairUniformToNormal(tl.rand(n, offs), tl.rand(7, offs)); tl.store(y_ptr + offs, g0 + g1);"],
  ["argmin", "tl.store(y_ptr + offs, tl.cast(tl.argmin(m, 1), \"f32\"));"],
  ["xorSum", "tl.store(y_ptr, tl.cast(tl.xorSum(i), \"f32\"));"],
  ["cumsum", "tl.store(y_ptr + offs, tl.cumsum(x) + tl.cumsum(tl.cast(i, \"f32\"), 0, true));"],
  ["cumprod", "tl.store(y_ptr + tl.expandDims(offs, 1) * 16 + tl.expandDims(offs, 0), tl.cumprod(m, 0));"],
  ["associativeScan", "tl.store(y_ptr + offs, tl.associativeScan(x, 0, (a, b) => tl.maximum(a, b) * 2 + tl.where(a > b, 1, 0)));"],
  ["reduce", "tl.store(y_ptr + offs, tl.reduce(m, 1, (a, b) => -a + tl.exp(b)));"],
  ["devicePrint", "tl.devicePrint(\"x\", x, n, m);"],
  ["deviceAssert", "tl.deviceAssert(x >= 0, \"x is negative\");"],
  ["permute", "tl.store(y_ptr + tl.arange(0, 256), tl.reshape(tl.permute(tl.reshape(m, [4, 4, 16]), [2, 0, 1]), [256]));"],
  ["zerosLike", "tl.store(y_ptr + offs, x + tl.zerosLike(x));"],
  ["broadcast", "const [a, b] = tl.broadcast(x, m);\ntl.store(y_ptr + tl.arange(0, 256), tl.reshape(a + b, [256]));"],
  ["ravel", "tl.store(y_ptr + tl.arange(0, 256), tl.ravel(m));"],
  ["view", "tl.store(y_ptr + tl.arange(0, 256), tl.view(m, [256]));"],
  ["cat", "tl.store(y_ptr + tl.arange(0, 32), tl.cat(x, i));"],
  ["join", "tl.store(y_ptr + tl.arange(0, 32), tl.reshape(tl.join(x, x), [32]));"],
  ["interleave", "tl.store(y_ptr + tl.arange(0, 32), tl.interleave(x, i));"],
  ["split", "const [a, b] = tl.split(tl.reshape(m, [128, 2]));\ntl.store(y_ptr + tl.arange(0, 128), a - b);"],
  ["flip", "tl.store(y_ptr + offs, tl.flip(x));"],
  ["gather", "tl.store(y_ptr + offs, tl.gather(x, (offs * 3) % 16, 0));"],
  ["sort", "tl.store(y_ptr + offs, tl.sort(x, { descending: true }) + tl.sort(i));"],
  ["topk", "tl.store(y_ptr + tl.arange(0, 8), tl.topk(x, 8) + tl.topk(i, 8, 0, false));"],
  ["histogram", "tl.store(y_ptr + offs, tl.cast(tl.histogram(i % 16, 16, i > 2), \"f32\"));"],
  ["softmax", "tl.store(y_ptr + offs, tl.softmax(x) + tl.sum(tl.softmax(m, 1), 0));"],
  ["swizzle2d", "const [r, c] = tl.swizzle2d(offs, n, 16, n, 4);\ntl.store(y_ptr + r * 16 + c, x);"],
  ["divRn", "tl.store(y_ptr + offs, tl.divRn(x, 3));"],
  ["sqrtRn", "tl.store(y_ptr + offs, tl.sqrtRn(x));"],
  ["makeBlockPtr", "const bp = tl.makeBlockPtr(x_ptr, [tl.cast(n, \"u32\"), 16], [16, 1], [0, 0], [16, 16], [1, 0]);\ntl.store(y_ptr + tl.arange(0, 16), tl.sum(tl.load(bp, { boundaryCheck: [0], paddingOption: \"nan\" }), 1));"],
  ["advance", "let bp = tl.makeBlockPtr(x_ptr, [n], [1], [0], [16], [0]);\nfor (let k = 0; k < n; k += 16) { tl.store(tl.advance(bp, [16]), tl.load(bp, { boundaryCheck: [0] }), { boundaryCheck: [0] }); bp = tl.advance(bp, [16]); }"],
  ["makeTensorDescriptor", "const d = tl.makeTensorDescriptor(x_ptr, [tl.cast(n, \"u32\"), 16], [16, 1], [16, 16], { paddingOption: \"nan\" });\ntl.store(y_ptr + offs, tl.sum(d.load([0, 0]), 1));"],
  ["loadTensorDescriptor", "const d = tl.makeTensorDescriptor(x_ptr, [n], [1], [16]);\ntl.store(y_ptr + offs, tl.loadTensorDescriptor(d, [n - 16]));"],
  ["storeTensorDescriptor", "const d = tl.makeTensorDescriptor(y_ptr, [n], [1], [16]);\ntl.storeTensorDescriptor(d, [tl.programId(0) * 16], x);"],
  ["range", "for (const j of tl.range(0, n, 2, { numStages: 3 })) { tl.store(y_ptr + offs + j, x); }"],
  ["multipleOf", "tl.store(y_ptr + tl.multipleOf(offs, 16), x);"],
  ["maxContiguous", "tl.store(y_ptr + tl.maxContiguous(tl.multipleOf(offs, [16]), 16), x);"],
  ["maxConstancy", "tl.store(y_ptr + tl.maxConstancy(offs / 4, 4), x);"],
  ["assume", "tl.assume(n > 0);"],
  ["constexpr", "if (tl.constexpr(x.dtype === tl.float32)) { tl.store(y_ptr + offs, x); }"],
  ["debugBarrier", "tl.debugBarrier();"],
  ["staticAssert", "tl.staticAssert(16 % 4 === 0, \"a multiple of 4\");"],
  ["staticPrint", "tl.staticPrint(\"n is\", n, 16);"],
];

// libdevice's own functions (semantics/libdevice.ts), by their first name: [name, a statement that calls it].
const LIBDEVICE_SAMPLES: [string, string][] = [
  ["lgamma", "tl.store(y_ptr + offs, libdevice.lgamma(x) + libdevice.lgamma(i));"],
  ["erfc", "tl.store(y_ptr + offs, libdevice.erfc(x));"],
  ["erfcx", "tl.store(y_ptr + offs, libdevice.erfcx(x));"],
  ["popc", "tl.store(h_ptr + offs, libdevice.popc(i) + libdevice.popc(offs < n));"],
  ["clz", "tl.store(h_ptr + offs, libdevice.clz(tl.cast(i, \"u32\")));"],
  ["ffs", "tl.store(h_ptr + offs, libdevice.ffs(i));"],
  ["tan", "tl.store(y_ptr + offs, libdevice.tan(x));"],
  ["sinh", "tl.store(y_ptr + offs, libdevice.sinh(x));"],
  ["cosh", "tl.store(y_ptr + offs, libdevice.cosh(x));"],
  ["log10", "tl.store(y_ptr + offs, libdevice.log10(x));"],
  ["exp10", "tl.store(y_ptr + offs, libdevice.exp10(x) + libdevice.exp10(i));"],
  ["trunc", "tl.store(y_ptr + offs, libdevice.trunc(x));"],
  ["rcp_rn", "tl.store(y_ptr + offs, libdevice.rcp_rn(x));"],
  ["isnan", "tl.store(y_ptr + offs, x, libdevice.isnan(x));"],
  ["isinf", "tl.store(y_ptr + offs, x, libdevice.isinf(x));"],
  ["finitef", "tl.store(y_ptr + offs, x, libdevice.finitef(x));"],
  ["signbit", "tl.store(h_ptr + offs, libdevice.signbit(x));"],
  ["copysign", "tl.store(y_ptr + offs, libdevice.copysign(x, -1.0));"],
  ["nextafter", "tl.store(y_ptr + offs, libdevice.nextafter(x, 0.0));"],
  ["float_as_int", "tl.store(h_ptr + offs, libdevice.float_as_int(x));"],
  ["int_as_float", "tl.store(y_ptr + offs, libdevice.int_as_float(i));"],
];

/** Each lowering once (an alias, lgammaf, is lgamma's entry): the tl.* functions by name, libdevice's as `libdevice.name`. */
const ALL: [string, Intrinsic][] = [
  ...Object.entries(INTRINSICS),
  ...Object.entries(LIBDEVICE_FUNCTIONS).filter(([name, f], i, all) => all.findIndex(([, g]) => g === f) === i).map(([name, f]): [string, Intrinsic] => [`libdevice.${name}`, f]),
];

const PRELUDE = 'import { kernel, libdevice, tl } from "kernel-lab";\nimport type { Ptr, f32, i32, constexpr } from "kernel-lab";\n';

function source(statement: string): string {
  const body = [
    "const offs = tl.arange(0, 16);",
    "const x = tl.load(x_ptr + offs);",
    "const i = offs * 3;",
    "const m = tl.load(x_ptr + tl.expandDims(offs, 1) * 16 + tl.expandDims(offs, 0));",
    statement,
  ].join("\n");
  return `${PRELUDE}export const k = kernel(function k(x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, n: i32, BLOCK: constexpr, h_ptr: Ptr<i32>) {\n${body}\n});\n`;
}

function opName(op: ValueOp): IrOpName {
  switch (op.op) {
    case "unary":
      return `unary:${op.fn}`;
    case "binary":
      return `binary:${op.fn}`;
    case "math":
      return `math:${op.fn}`;
    case "reduce":
      return `reduce:${op.fn}`;
    default:
      return op.op;
  }
}

/** Runs `fn` with every intrinsic's lowering watched; returns, per tl.* name, the ops it emitted itself. */
function watchingIntrinsics(fn: () => void): Map<string, Set<IrOpName>> {
  const emitted = new Map<string, Set<IrOpName>>();
  const frames: { name: string; depth: number }[] = [];
  const originals = ALL.map(([, intrinsic]) => [intrinsic, intrinsic.lower] as const);
  for (const [name, intrinsic] of ALL) {
    const lower = intrinsic.lower;
    (intrinsic as { lower: typeof lower }).lower = (ctx, args, span, n, keywords) => {
      // Watch this context's builder and argument lowering (once per context).
      const watched = ctx as typeof ctx & { watched?: boolean };
      if (!watched.watched) {
        watched.watched = true;
        const b = ctx.b;
        const emit = b.emit.bind(b);
        const push = b.push.bind(b);
        const expression = ctx.expression.bind(ctx);
        const record = (op: IrOpName) => {
          const top = frames[frames.length - 1];
          if (top && top.depth === 0) emitted.get(top.name)!.add(op);
        };
        b.emit = (op, type, at) => (record(opName(op)), emit(op, type, at));
        b.push = (stmt: Stmt) => (stmt.kind !== "let" && record(`stmt:${stmt.kind}`), push(stmt));
        (ctx as { expression: typeof expression }).expression = (node) => {
          const top = frames[frames.length - 1];
          if (top) top.depth++;
          try {
            return expression(node);
          } finally {
            if (top) top.depth--;
          }
        };
        const lowered = ctx.lowered.bind(ctx);
        (ctx as { lowered: typeof lowered }).lowered = (node) => {
          const top = frames[frames.length - 1];
          if (top) top.depth++;
          try {
            return lowered(node);
          } finally {
            if (top) top.depth--;
          }
        };
      }
      if (!emitted.has(name)) emitted.set(name, new Set());
      frames.push({ name, depth: 0 });
      try {
        return lower(ctx, args, span, n, keywords);
      } finally {
        frames.pop();
      }
    };
  }
  try {
    fn();
  } finally {
    for (const [intrinsic, lower] of originals) (intrinsic as { lower: typeof lower }).lower = lower;
  }
  return emitted;
}

test("every tl.* function has a sample call", () => {
  const sampled = new Set(SAMPLES.map(([name]) => name));
  assert.deepEqual(Object.keys(INTRINSICS).filter((name) => !sampled.has(name)), []);
});

test("every libdevice function of its own has a sample call", () => {
  const sampled = new Set(LIBDEVICE_SAMPLES.map(([name]) => `libdevice.${name}`));
  assert.deepEqual(ALL.map(([name]) => name).filter((name) => name.startsWith("libdevice.") && !sampled.has(name)), []);
});

/**
 * Lowers `statement` with every lowering watched, asserts the kernel compiles without diagnostics, and that the
 * function `key` (a tl.* name, or `libdevice.name`) emitted ops, each on `intrinsic`'s produces list.
 */
function checkSample(key: string, written: string, statement: string, intrinsic: Intrinsic): void {
  let diagnostics: unknown[] = [];
  const emitted = watchingIntrinsics(() => {
    const parsed = parseKernelFile("k.kernel.ts", source(statement));
    assert.deepEqual(parsed.diagnostics, []);
    diagnostics = compileKernel(parsed.kernels[0], { BLOCK: 16 }, DEFAULT_TARGET).diagnostics;
  });
  assert.deepEqual((diagnostics as { severity: string }[]).filter((d) => d.severity !== "info"), []);
  // tl.range is lowered by its for…of statement (control-flow.ts), which emits the loop itself.
  if (key === "range") return;
  const ops = emitted.get(key);
  assert.ok(ops, `the sample never lowered ${written}`);
  assert.ok(ops.size > 0 || intrinsic.produces.length === 0, `${written} emitted nothing`);
  const declared = new Set(intrinsic.produces);
  assert.deepEqual([...ops].filter((op) => !declared.has(op)), [], `${written} emitted ops missing from its produces list`);
}

for (const [name, statement] of LIBDEVICE_SAMPLES) {
  test(`libdevice.${name} emits only the IR ops it declares, and compiles`, () => checkSample(`libdevice.${name}`, `libdevice.${name}`, statement, LIBDEVICE_FUNCTIONS[name]));
}

for (const [name, statement] of SAMPLES) {
  test(`tl.${name} emits only the IR ops it declares, and compiles`, () => checkSample(name, `tl.${name}`, statement, INTRINSICS[name]));
}
