// Random kernel files from a small grammar of the kernel language: typed parameters (and some
// wrong annotations), const/let bindings, assignments, for/if/while, tl.staticRange loops, tl.devicePrint/deviceAssert,
// break/continue (inside loops, and now and then outside), ternaries, tl.* calls with random arguments,
// every operator, odd literals, and a defineRun whose literal constexprs specialise the kernel.
// Names are drawn from what is in scope most of the time, so most inputs reach semantics and
// codegen instead of stopping at "not defined".

import fc from "fast-check";

type Gen = fc.GeneratorValue;

const PARAM_TYPES = ["Ptr<f32>", "Ptr<i32>", "Ptr<u32>", "Ptr<f16>", "f32", "i32", "u32", "constexpr", "constexpr", "constexpr"];
const BAD_PARAM_TYPES = ["Ptr<f64>", "number", "Ptr<Ptr<f32>>", "f16", "", "Ptr", "constexpr<4>", "bool"];

const BINARY = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "===", "!==", "==", "!=", "&&", "||", "&", "|", "^", "<<", ">>"];
const ODD_BINARY = ["**", ">>>", "??", "in", "instanceof", ","];
const UNARY = ["-", "!", "~", "+"];
const MATH = ["exp", "log", "sqrt", "rsqrt", "abs", "sin", "cos", "floor", "ceil", "sigmoid", "exp2", "log2", "tanh", "erf"];
const REDUCE = ["sum", "max", "min", "argmax", "argmin", "xorSum", "cumsum", "cumprod"];
const ALL_TL = [...MATH, ...REDUCE, "programId", "numPrograms", "arange", "load", "store", "where", "maximum", "minimum", "fma", "cast",
  "cdiv", "zeros", "full", "expandDims", "broadcastTo", "reshape", "trans", "dot", "nope", "atomicAdd",
  "pow", "fdiv", "umulhi", "clamp", "rand", "randn", "randint", "randint4x", "program_id", "device_print"];
const ATOMICS = ["atomicAdd", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor", "atomicXchg", "atomicCas"];
const DTYPES = ['"f32"', '"i32"', '"u32"', '"f16"', '"f64"', '"bool"', "f32", "1"];
const LITERALS = ["0", "1", "2", "3", "-1", "7", "16", "1024", "0.5", "1.0", "-2.5", "1e-3", "1e40", "3.4028235e38", "2147483647",
  "2147483648", "4294967295", "4294967296", "99999999999999999999", "0x7fffffff", "0b101", "0o17", "1_000", "NaN", "Infinity",
  "-Infinity", "true", "false", "undefined", "5e-324", "0.0", "-0"];
const CONSTEXPR_VALUES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 1024, 4096, 0, -1, 3, 100, 65536, 2 ** 20, 2 ** 31 - 1, 2 ** 31, 1.5];

interface Scope {
  pointers: string[];
  scalars: string[];
  constexprs: string[];
  locals: string[];
  lets: string[];
  /** Inside a for or while loop (break/continue allowed). */
  inLoop?: boolean;
}

const pick = <T>(g: Gen, list: readonly T[]): T => list[g(fc.integer, { min: 0, max: list.length - 1 })];
const chance = (g: Gen, percent: number): boolean => g(fc.integer, { min: 0, max: 99 }) < percent;

function name(g: Gen, scope: Scope): string {
  const all = [...scope.pointers, ...scope.scalars, ...scope.constexprs, ...scope.locals];
  if (all.length === 0 || chance(g, 1)) return pick(g, ["undefinedName", "tl", "Math", "π", "x_ptr", "globalThis"]);
  return pick(g, all);
}

function shapeList(g: Gen, scope: Scope): string {
  const n = g(fc.integer, { min: 0, max: 3 });
  const dims: string[] = [];
  for (let i = 0; i < n; i++) dims.push(scope.constexprs.length > 0 && chance(g, 60) ? pick(g, scope.constexprs) : pick(g, ["1", "2", "4", "16", "3", "0", "-4"]));
  return `[${dims.join(", ")}]`;
}

function constant(g: Gen, scope: Scope): string {
  return scope.constexprs.length > 0 && chance(g, 70) ? pick(g, scope.constexprs) : pick(g, ["0", "1", "4", "16", "3", "-1", "1024"]);
}

/** An offset block: the usual programId * BLOCK + arange pattern, or something near it. */
function offsets(g: Gen, scope: Scope, depth: number): string {
  if (chance(g, 60)) {
    const c = constant(g, scope);
    return `tl.programId(${pick(g, ["0", "1", "2"])}) * ${c} + tl.arange(0, ${c})`;
  }
  return expr(g, scope, depth + 1);
}

function pointerExpr(g: Gen, scope: Scope, depth: number): string {
  const base = scope.pointers.length > 0 && chance(g, 90) ? pick(g, scope.pointers) : name(g, scope);
  return chance(g, 85) ? `${base} + ${offsets(g, scope, depth)}` : base;
}

function tlCall(g: Gen, scope: Scope, depth: number): string {
  const e = () => expr(g, scope, depth + 1);
  switch (g(fc.integer, { min: 0, max: 18 })) {
    case 0: return `tl.programId(${pick(g, ["0", "1", "2", "3", "-1", "n"])})`;
    case 1: return `tl.numPrograms(${pick(g, ["0", "1", "2", "5"])})`;
    case 2: return `tl.arange(${constant(g, scope)}, ${constant(g, scope)})`;
    case 3: {
      const args = [pointerExpr(g, scope, depth)];
      if (chance(g, 60)) args.push(e());
      if (args.length === 2 && chance(g, 40)) args.push(pick(g, ["0", "-Infinity", "0.0", "1", e()]));
      return `tl.load(${args.join(", ")})`;
    }
    case 4: return `tl.where(${e()}, ${e()}, ${e()})`;
    case 5: return `tl.${pick(g, MATH)}(${e()})`;
    case 6: return `tl.${pick(g, ["maximum", "minimum"])}(${e()}, ${e()})`;
    case 7: return `tl.fma(${e()}, ${e()}, ${e()})`;
    case 8: return `tl.cast(${e()}, ${pick(g, DTYPES)})`;
    case 9: return `tl.cdiv(${e()}, ${e()})`;
    case 10: return `tl.zeros(${shapeList(g, scope)}, ${pick(g, DTYPES)})`;
    case 11: return `tl.full(${shapeList(g, scope)}, ${e()}, ${pick(g, DTYPES)})`;
    case 12: return `tl.expandDims(${e()}, ${pick(g, ["0", "1", "2", "-1"])})`;
    case 13: return `tl.${pick(g, ["broadcastTo", "reshape"])}(${e()}, ${shapeList(g, scope)})`;
    case 14: return `tl.trans(${e()})`;
    case 15: return `tl.${pick(g, REDUCE)}(${e()}${chance(g, 85) ? `, ${pick(g, ["0", "1", "2", "-1", "n"])}` : ""})`;
    case 16: return `tl.dot(${e()}, ${e()}${chance(g, 40) ? `, ${e()}` : ""})`;
    case 17: {
      const fn = pick(g, ATOMICS);
      const args = [pointerExpr(g, scope, depth), ...(fn === "atomicCas" ? [e()] : []), e()];
      if (chance(g, 50)) args.push(e());
      return `tl.${fn}(${args.join(", ")})`;
    }
    default: {
      // Any tl function with any number of arguments.
      const count = g(fc.integer, { min: 0, max: 4 });
      return `tl.${pick(g, ALL_TL)}(${Array.from({ length: count }, e).join(", ")})`;
    }
  }
}

export function expr(g: Gen, scope: Scope, depth: number): string {
  if (depth > 4 || chance(g, 25)) return chance(g, 65) ? name(g, scope) : pick(g, LITERALS);
  switch (g(fc.integer, { min: 0, max: 19 })) {
    case 0:
    case 1:
    case 2:
    case 10:
    case 11:
    case 12:
      return `${expr(g, scope, depth + 1)} ${pick(g, BINARY)} ${expr(g, scope, depth + 1)}`;
    case 3:
      return `${pick(g, UNARY)}${expr(g, scope, depth + 1)}`;
    case 4:
      return `(${expr(g, scope, depth + 1)})`;
    case 5:
    case 6:
    case 7:
    case 13:
    case 14:
    case 15:
    case 16:
    case 17:
    case 18:
      return tlCall(g, scope, depth);
    case 8:
      return chance(g, 50) ? `${expr(g, scope, depth + 1)} ${pick(g, ODD_BINARY)} ${expr(g, scope, depth + 1)}` : `${expr(g, scope, depth + 1)} ? ${expr(g, scope, depth + 1)} : ${expr(g, scope, depth + 1)}`;
    default:
      return pick(g, ["[1, 2]", "{ a: 1 }", '"s"', "x_ptr[0]", "(() => 1)()", "Math.exp(1)", "null", "this", "new Float32Array(4)", "`t`", "tl.arange", "void 0", "typeof n"]);
  }
}

function statement(g: Gen, scope: Scope, depth: number, indent: string): string {
  const e = () => expr(g, scope, 0);
  const fresh = () => `v${scope.locals.length}`;
  // Mostly constructs the language has; one statement in 25 is one it refuses.
  const roll = g(fc.integer, { min: 0, max: 24 });
  const kind = roll === 24 ? 9 : roll === 23 ? 13 : depth > 2 ? roll % 5 : [0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 10, 11, 12][roll % 16];
  switch (kind) {
    case 0: {
      const v = fresh();
      const text = `${indent}const ${v} = ${e()};`;
      scope.locals.push(v);
      return text;
    }
    case 1: {
      const v = fresh();
      const text = `${indent}let ${v} = ${e()};`;
      scope.locals.push(v);
      scope.lets.push(v);
      return text;
    }
    case 2: {
      if (scope.lets.length === 0 && chance(g, 90)) return statement(g, scope, 3, indent);
      const target = scope.lets.length > 0 && chance(g, 95) ? pick(g, scope.lets) : name(g, scope);
      return `${indent}${target} ${pick(g, ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "**="])} ${e()};`;
    }
    case 3: {
      if (scope.lets.length === 0 && chance(g, 90)) return statement(g, scope, 3, indent);
      const target = scope.lets.length > 0 ? pick(g, scope.lets) : name(g, scope);
      return `${indent}${pick(g, [`${target}++`, `${target}--`, `++${target}`, `--${target}`])};`;
    }
    case 4: {
      const args = [pointerExpr(g, scope, 0), e()];
      if (chance(g, 60)) args.push(e());
      return `${indent}tl.store(${args.join(", ")});`;
    }
    case 5:
    case 6: {
      const counter = `i${depth}`;
      const inner: Scope = { ...scope, locals: [...scope.locals, counter], lets: [...scope.lets] };
      const cmp = chance(g, 90) ? pick(g, ["<", "<=", ">", ">=", "!=="]) : "===";
      const step = chance(g, 90)
        ? pick(g, [`${counter}++`, `${counter}--`, `${counter} += ${constant(g, scope)}`, `${counter} -= 1`, `${counter} = ${counter} + 2`])
        : pick(g, [`${counter} += 0`, `${counter} *= 2`, ""]);
      const init = chance(g, 97) ? `let ${counter} = ${e()}` : pick(g, [`var ${counter} = 0`, `const ${counter} = 0`, `let ${counter} = 0, j = 1`, ""]);
      const body = block(g, { ...inner, inLoop: true }, depth + 1, `${indent}  `);
      return `${indent}for (${init}; ${counter} ${cmp} ${e()}; ${step}) {\n${body}\n${indent}}`;
    }
    case 10: {
      // while with a scalar condition and a bounded counter (sometimes a condition of anything).
      const counter = `w${depth}`;
      const inner: Scope = { ...scope, locals: [...scope.locals, counter], lets: [...scope.lets], inLoop: true };
      const cond = chance(g, 85) ? `${counter} < ${pick(g, ["n", "4", constant(g, scope), e()])}` : e();
      const bump = chance(g, 90) ? `${indent}  ${counter} += ${pick(g, ["1", "2", constant(g, scope)])};\n` : "";
      const body = block(g, inner, depth + 1, `${indent}  `);
      return `${indent}let ${counter} = ${pick(g, ["0", "n", e()])};\n${indent}while (${cond}) {\n${bump}${body}\n${indent}}`;
    }
    case 11: {
      const counter = `s${depth}`;
      const inner: Scope = { ...scope, locals: [...scope.locals, counter], lets: [...scope.lets], inLoop: false };
      const bounds = [constant(g, scope), constant(g, scope)];
      if (chance(g, 40)) bounds.push(pick(g, ["1", "2", "-1", "0", constant(g, scope)]));
      if (chance(g, 5)) bounds[0] = e();
      const head = chance(g, 95) ? `const ${counter} of tl.staticRange(${bounds.join(", ")})` : pick(g, [`let ${counter} of tl.staticRange(0, 4)`, `const ${counter} of [1, 2]`, `const ${counter} in tl.staticRange(0, 2)`]);
      return `${indent}for (${head}) {\n${block(g, inner, depth + 1, `${indent}  `)}\n${indent}}`;
    }
    case 13: {
      // tl.devicePrint / tl.deviceAssert, sometimes with a prefix or message that is not a literal.
      const text = chance(g, 85) ? pick(g, ['"x"', '"pid: "', "'v'"]) : e();
      const values = Array.from({ length: g(fc.integer, { min: 0, max: 9 }) }, () => e());
      return chance(g, 50)
        ? `${indent}tl.devicePrint(${[text, ...values].join(", ")});`
        : `${indent}tl.deviceAssert(${[e(), ...(chance(g, 80) ? [text] : [])].join(", ")});`;
    }
    case 12: {
      if (!scope.inLoop && chance(g, 90)) return statement(g, scope, 3, indent);
      const exit = pick(g, ["break", "continue"]);
      return chance(g, 60) ? `${indent}if (${e()}) {\n${indent}  ${exit};\n${indent}}` : `${indent}${exit};`;
    }
    case 7:
    case 8: {
      const then = block(g, { ...scope, locals: [...scope.locals], lets: [...scope.lets] }, depth + 1, `${indent}  `);
      const otherwise = chance(g, 40) ? ` else {\n${block(g, { ...scope, locals: [...scope.locals], lets: [...scope.lets] }, depth + 1, `${indent}  `)}\n${indent}}` : "";
      return `${indent}if (${e()}) {\n${then}\n${indent}}${otherwise}`;
    }
    default:
      return `${indent}${pick(g, ["return;", "break;", "while (n) { }", "debugger;", "var w = 1;", "let q;", "const { a } = n;", "switch (n) { }", "e();", ";", "throw 1;"])}`;
  }
}

function block(g: Gen, scope: Scope, depth: number, indent: string): string {
  const count = g(fc.integer, { min: 0, max: depth === 0 ? 8 : 3 });
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(statement(g, scope, depth, indent));
  return lines.join("\n");
}

/** One whole kernel file: imports, a kernel, a module constant, and a defineRun with literal constexprs. */
export function kernelFile(g: Gen): string {
  const scope: Scope = { pointers: [], scalars: [], constexprs: [], locals: [], lets: [] };
  const paramCount = g(fc.integer, { min: 0, max: 6 });
  const params: string[] = [];
  for (let i = 0; i < paramCount; i++) {
    const type = chance(g, 2) ? pick(g, BAD_PARAM_TYPES) : pick(g, PARAM_TYPES);
    const pname = type.startsWith("Ptr") ? `p${i}_ptr` : type === "constexpr" ? `C${i}` : `s${i}`;
    params.push(type === "" ? pname : `${pname}: ${type}`);
    if (type.startsWith("Ptr")) scope.pointers.push(pname);
    else if (type === "constexpr") scope.constexprs.push(pname);
    else scope.scalars.push(pname);
  }
  if (chance(g, 2)) params.push(pick(g, ["...rest: f32[]", "d: i32 = 1", "o?: f32", "{ a }: f32", "s0: f32"]));
  scope.scalars.push("n");
  params.push("n: i32");
  const body = block(g, scope, 0, "  ");
  const arrow = chance(g, 15);
  const header = arrow ? "export const fuzz_kernel = kernel((" : "export const fuzz_kernel = kernel(function fuzz_kernel(";
  const constexprs = scope.constexprs.map((c) => `${c}: ${pick(g, CONSTEXPR_VALUES)}`);
  const configs = chance(g, 20) ? `\n  configs: [{ ${scope.constexprs.map((c) => `${c}: ${pick(g, CONSTEXPR_VALUES)}`).join(", ")} }],` : "";
  return [
    'import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";',
    'import type { Ptr, f32, i32, u32, f16, constexpr } from "kernel-lab";',
    "const SCALE = 4;",
    "",
    `${header}${params.join(", ")})${arrow ? " =>" : ""} {`,
    body,
    "});",
    "",
    "export const fuzzRun = defineRun({",
    "  kernel: fuzz_kernel,",
    "  sizes: [1000],",
    `  constexprs: { ${constexprs.join(", ")} },${configs}`,
    "  grid: (n) => [cdiv(n, 16)],",
    "  args: (n) => ({ n }),",
    "  outputs: [],",
    "  reference: () => ({}),",
    "});",
    "",
  ].join("\n");
}

export const kernelFiles: fc.Arbitrary<string> = fc.gen().map(kernelFile);

// ── well-typed kernels ────────────────────────────────────────────────────────────────────────
// The grammar above mostly ends in a type or shape error; these are built by type, so most of
// them compile and exercise codegen (layouts, reductions, broadcasts, loops, dot).

type Kind = "fblock" | "fscalar" | "iblock" | "iscalar" | "mask";

interface Typed {
  g: Gen;
  locals: Record<Kind, string[]>;
  B: string;
}

function typed(t: Typed, kind: Kind, depth: number): string {
  const { g } = t;
  const sub = (k: Kind) => typed(t, k, depth + 1);
  const leafOnly = depth > 3 || chance(g, 30);
  if (leafOnly && t.locals[kind].length > 0) return pick(g, t.locals[kind]);
  switch (kind) {
    case "fblock":
      if (leafOnly) return pick(g, [`tl.full([${t.B}], 1.5, "f32")`, `tl.zeros([${t.B}], "f32")`, `tl.load(x_ptr + offsets, mask, 0.0)`]);
      return pick(g, [
        () => `${sub("fblock")} ${pick(g, ["+", "-", "*", "/"])} ${sub("fblock")}`,
        () => `${sub("fblock")} ${pick(g, ["+", "-", "*", "/"])} ${sub("fscalar")}`,
        () => `tl.${pick(g, MATH)}(${sub("fblock")})`,
        () => `tl.where(${sub("mask")}, ${sub("fblock")}, ${sub(pick(g, ["fblock", "fscalar"] as const))})`,
        () => `tl.${pick(g, ["maximum", "minimum"])}(${sub("fblock")}, ${sub(pick(g, ["fblock", "fscalar"] as const))})`,
        () => `tl.fma(${sub("fblock")}, ${sub("fblock")}, ${sub("fscalar")})`,
        () => `tl.${pick(g, ["pow", "fdiv"])}(${sub("fblock")}, ${sub(pick(g, ["fblock", "fscalar"] as const))})`,
        () => `tl.clamp(${sub("fblock")}, ${sub("fscalar")}, ${sub(pick(g, ["fblock", "fscalar"] as const))})`,
        () => `tl.${pick(g, ["rand", "randn"])}(${sub("iscalar")}, ${sub(pick(g, ["iblock", "iscalar"] as const))})`,
        () => `tl.cast(${sub("iblock")}, "f32")`,
        () => `tl.load(x_ptr + ${sub("iblock")}, ${sub("mask")}, ${pick(g, ["0.0", "-Infinity", "1"])})`,
        () => `-${sub("fblock")}`,
        () => `${sub("fblock")} - tl.${pick(g, ["max", "min", "sum"])}(${sub("fblock")}, 0)`,
        () => `tl.cumsum(${sub("fblock")}, 0${pick(g, ["", ", true"])})`,
        () => `tl.associativeScan(${sub("fblock")}, 0, (a, b) => tl.${pick(g, ["maximum", "minimum"])}(a, b)${pick(g, ["", ", true"])})`,
        () => `axpb(${sub("fblock")}, ${sub("fscalar")}, ${sub(pick(g, ["fblock", "fscalar"] as const))})`,
        () => `sq(${sub(pick(g, ["fblock", "fscalar"] as const))})`,
      ])();
    case "fscalar":
      if (leafOnly) return pick(g, ["alpha", "0.5", "2.0", "-1.25", "1e-5", "Infinity"]);
      return pick(g, [
        () => `tl.${pick(g, ["sum", "max", "min"])}(${sub("fblock")}, 0)`,
        () => `tl.cast(${sub("iscalar")}, "f32")`,
        () => `${sub("fscalar")} ${pick(g, ["+", "-", "*", "/"])} ${sub("fscalar")}`,
        () => `tl.${pick(g, MATH)}(${sub("fscalar")})`,
        () => `(${sub("iscalar")} ${pick(g, ["<", "===", ">="])} ${sub("iscalar")} ? ${sub("fscalar")} : ${sub("fscalar")})`,
      ])();
    case "iblock":
      if (leafOnly) return pick(g, ["offsets", `tl.arange(0, ${t.B})`]);
      return pick(g, [
        () => `${sub("iblock")} ${pick(g, ["+", "-", "*", "&", "|", "^", "%", "/"])} ${sub(pick(g, ["iblock", "iscalar"] as const))}`,
        () => `tl.load(k_ptr + ${sub("iblock")}, ${sub("mask")})`,
        () => `tl.cast(${sub("fblock")}, "i32")`,
        () => `tl.where(${sub("mask")}, ${sub("iblock")}, ${sub("iscalar")})`,
        () => `${sub("iblock")} >> ${pick(g, ["1", "3", "31"])}`,
        () => `tl.${pick(g, ATOMICS.filter((a) => a !== "atomicCas"))}(k_ptr + ${sub("iblock")}, ${sub(pick(g, ["iblock", "iscalar"] as const))}, ${sub("mask")})`,
        () => `tl.atomicCas(k_ptr + ${sub(pick(g, ["iblock", "iscalar"] as const))}, ${sub("iscalar")}, ${sub("iblock")})`,
        () => `tl.cast(tl.randint4x(${sub("iscalar")}, ${sub("iblock")}, ${pick(g, ["0", "3", "4", "n"])}) >> 1, "i32")`,
        () => `tl.${pick(g, ["umulhi", "cdiv"])}(${sub("iblock")}, ${sub(pick(g, ["iblock", "iscalar"] as const))})`,
        () => `tl.clamp(${sub("iblock")}, ${sub("iscalar")}, ${sub("iscalar")})`,
        () => `tl.cumsum(${sub("iblock")}, 0)`,
      ])();
    case "iscalar":
      if (leafOnly) return pick(g, ["n", "pid", "1", "0", "7", "-3", t.B]);
      return pick(g, [
        () => `${sub("iscalar")} ${pick(g, ["+", "-", "*", "/", "%", "&", "<<"])} ${sub("iscalar")}`,
        () => `tl.cdiv(${sub("iscalar")}, ${t.B})`,
        () => `tl.numPrograms(0)`,
        () => `tl.${pick(g, ["argmax", "argmin"])}(${sub("fblock")}, 0)`,
        () => `tl.xorSum(${sub("iblock")}, 0)`,
        () => `tl.reduce(${sub("iblock")}, 0, (a, b) => ${pick(g, ["a + b", "tl.maximum(a, b)", "a ^ b", "a"])})`,
        () => `tl.${pick(g, ["sum", "max", "min"])}(${sub("iblock")}, 0)`,
        () => `(${sub("iscalar")} ${pick(g, ["<", "!==", ">"])} ${sub("iscalar")} ? ${sub("iscalar")} : ${sub("iscalar")})`,
      ])();
    case "mask":
      if (leafOnly) return "mask";
      return pick(g, [
        () => `${sub("iblock")} ${pick(g, ["<", "<=", ">", ">=", "===", "!=="])} ${sub("iscalar")}`,
        () => `${sub("fblock")} ${pick(g, ["<", ">"])} ${sub("fscalar")}`,
        () => `${sub("mask")} ${pick(g, ["&&", "||"])} ${sub("mask")}`,
        () => `!${sub("mask")}`,
      ])();
  }
}

function typedStatements(t: Typed, depth: number, indent: string, count: number): string[] {
  const { g } = t;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = g(fc.integer, { min: 0, max: 12 });
    if (roll <= 4) {
      const kind = pick(g, ["fblock", "fblock", "fscalar", "iblock", "iscalar", "mask"] as const);
      const v = `t${depth}_${i}_${kind}`;
      lines.push(`${indent}const ${v} = ${typed(t, kind, 0)};`);
      t.locals[kind].push(v);
    } else if (roll <= 6) {
      lines.push(`${indent}tl.store(${pick(g, ["y_ptr", "x_ptr"])} + ${pick(g, ["offsets", typed(t, "iblock", 2)])}, ${typed(t, "fblock", 0)}, ${typed(t, "mask", 2)});`);
    } else if (roll === 7 && depth < 2) {
      const inner = { ...t, locals: { ...t.locals, fblock: [...t.locals.fblock], iscalar: [...t.locals.iscalar, `j${depth}`] } };
      lines.push(`${indent}let acc${depth}_${i} = tl.zeros([${t.B}], "f32");`);
      lines.push(`${indent}for (let j${depth} = ${pick(g, ["0", "pid", "n - 1"])}; j${depth} ${pick(g, ["<", ">=", "!=="])} ${pick(g, ["n", "4", "0", "K"])}; j${depth} ${pick(g, ["+= 1", "+= 2", "-= 1", "++"])}) {`);
      lines.push(...typedStatements(inner, depth + 1, `${indent}  `, g(fc.integer, { min: 0, max: 3 })));
      lines.push(...loopExit(t, `j${depth}`, `${indent}  `));
      lines.push(`${indent}  acc${depth}_${i} += ${typed(inner, "fblock", 1)};`);
      lines.push(`${indent}}`);
      t.locals.fblock.push(`acc${depth}_${i}`);
    } else if (roll === 10 && depth < 2) {
      // while with a scalar condition and a counter bounded by a constant.
      const w = `w${depth}_${i}`;
      const inner = { ...t, locals: { ...t.locals, fblock: [...t.locals.fblock], iscalar: [...t.locals.iscalar, w] } };
      lines.push(`${indent}let acc${depth}_${i} = ${typed(t, "fblock", 2)};`);
      lines.push(`${indent}let ${w} = ${pick(g, ["0", "pid", "n"])};`);
      lines.push(`${indent}while (${w} ${pick(g, ["<", "<="])} ${pick(g, ["8", "n", "K", "pid + 3"])} && ${w} < 64) {`);
      lines.push(`${indent}  ${w} += ${pick(g, ["1", "2", "1 + pid % 2"])};`);
      lines.push(...loopExit(t, w, `${indent}  `));
      lines.push(...typedStatements(inner, depth + 1, `${indent}  `, g(fc.integer, { min: 0, max: 2 })));
      lines.push(`${indent}  acc${depth}_${i} = acc${depth}_${i} * 0.5 + ${typed(inner, "fblock", 1)};`);
      lines.push(`${indent}}`);
      t.locals.fblock.push(`acc${depth}_${i}`);
    } else if (roll === 11 && depth < 2) {
      const s = `s${depth}_${i}`;
      const inner = { ...t, locals: { ...t.locals, fblock: [...t.locals.fblock], iscalar: [...t.locals.iscalar, s] } };
      lines.push(`${indent}let acc${depth}_${i} = tl.zeros([${t.B}], "f32");`);
      lines.push(`${indent}for (const ${s} of tl.staticRange(${pick(g, ["0", "1", "3"])}, ${pick(g, ["4", "5", "8", "BM"])}${chance(g, 40) ? `, ${pick(g, ["1", "2", "3"])}` : ""})) {`);
      lines.push(...typedStatements(inner, depth + 1, `${indent}  `, g(fc.integer, { min: 0, max: 2 })));
      lines.push(`${indent}  acc${depth}_${i} += ${typed(inner, "fblock", 1)} * ${s};`);
      lines.push(`${indent}}`);
      t.locals.fblock.push(`acc${depth}_${i}`);
    } else if (depth < 2) {
      const inner = { ...t, locals: { fblock: [...t.locals.fblock], fscalar: [...t.locals.fscalar], iblock: [...t.locals.iblock], iscalar: [...t.locals.iscalar], mask: [...t.locals.mask] } };
      lines.push(`${indent}if (${typed(t, "iscalar", 2)} ${pick(g, ["<", "===", ">"])} ${typed(t, "iscalar", 2)}) {`);
      lines.push(...typedStatements(inner, depth + 1, `${indent}  `, g(fc.integer, { min: 1, max: 3 })));
      lines.push(`${indent}}`);
    }
  }
  return lines;
}

/** Now and then a break or continue steered by the loop counter and the arguments (uniform). */
function loopExit(t: Typed, counter: string, indent: string): string[] {
  const { g } = t;
  if (!chance(g, 50)) return [];
  const cond = `${counter} ${pick(g, ["===", ">", ">="])} ${pick(g, ["2", "n", "K", "pid"])}${chance(g, 30) ? ` || ${counter} % 3 === 1` : ""}`;
  return [`${indent}if (${cond}) {`, `${indent}  ${pick(g, ["break", "continue"])};`, `${indent}}`];
}

/** A 2-D tile kernel: expandDims/broadcast addressing, trans, per-axis reductions and tl.dot. */
function tileKernel(g: Gen): string[] {
  const M = pick(g, ["BM", "16", "32"]);
  const N = pick(g, ["BN", "16", "8"]);
  const lines = [
    `  const rm = tl.programId(0) * ${M} + tl.arange(0, ${M});`,
    `  const rn = tl.arange(0, ${N});`,
    `  const tile_mask = tl.expandDims(rm < n, 1) && tl.expandDims(rn < K, 0);`,
    `  const a = tl.load(x_ptr + tl.expandDims(rm, 1) * K + tl.expandDims(rn, 0), tile_mask, 0.0);`,
  ];
  const ops = [
    `  const r = tl.${pick(g, ["sum", "max", "min"])}(a, ${pick(g, ["0", "1"])});`,
    `  const t = tl.trans(a);`,
    `  const d = tl.dot(a, tl.trans(a)${chance(g, 50) ? `, tl.zeros([${M}, ${M}], "f32")` : ""});`,
    `  const b = a * tl.expandDims(tl.${pick(g, ["sum", "max"])}(a, 1), 1) + tl.broadcastTo(tl.expandDims(rn, 0), [${M}, ${N}]);`,
    `  const e = tl.exp(a - tl.expandDims(tl.max(a, 1), 1));`,
    `  const f = tl.reshape(a, [${pick(g, [`${M} * ${N}`, "256", M])}]);`,
  ];
  for (const op of ops) if (chance(g, 50)) lines.push(op);
  lines.push(`  tl.store(y_ptr + tl.expandDims(rm, 1) * K + tl.expandDims(rn, 0), ${pick(g, ["a", "a * 2.0", "tl.sigmoid(a)"])}, tile_mask);`);
  return lines;
}

export function typedKernelFile(g: Gen): string {
  const B = "BLOCK";
  const t: Typed = { g, B, locals: { fblock: ["x"], fscalar: ["alpha"], iblock: ["offsets"], iscalar: ["n", "pid"], mask: ["mask"] } };
  const tile = chance(g, 25);
  const body = tile
    ? tileKernel(g)
    : [
        "  const pid = tl.programId(0);",
        `  const offsets = pid * ${B} + tl.arange(0, ${B});`,
        "  const mask = offsets < n;",
        "  const x = tl.load(x_ptr + offsets, mask, 0.0);",
        ...typedStatements(t, 0, "  ", g(fc.integer, { min: 1, max: 8 })),
        `  tl.store(y_ptr + offsets, ${typed(t, "fblock", 0)}, mask);`,
      ];
  const value = (choices: number[]) => pick(g, choices);
  // Device functions, declared when the body calls them: one annotated, one generic.
  const text = body.join("\n");
  const helpers = [
    ...(text.includes("axpb(") ? ["const axpb = kernel(function axpb(v: f32, a: f32, b) { return v * a + b; });"] : []),
    ...(text.includes("sq(") ? ["const sq = kernel((v: any) => v * v);"] : []),
  ];
  return [
    'import { kernel, tl, defineRun } from "kernel-lab";',
    'import type { Ptr, f32, i32, constexpr } from "kernel-lab";',
    "",
    "export const typed_kernel = kernel(function typed_kernel(x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, k_ptr: Ptr<i32>, n: i32, K: i32, alpha: f32, BLOCK: constexpr, BM: constexpr, BN: constexpr) {",
    ...body,
    "});",
    ...helpers,
    "",
    "export const typedRun = defineRun({",
    "  kernel: typed_kernel,",
    "  sizes: [1000],",
    `  constexprs: { BLOCK: ${value([1, 2, 16, 64, 128, 256, 512, 1024, 2048, 4096])}, BM: ${value([1, 4, 16, 32, 64])}, BN: ${value([1, 8, 16, 32, 64])} },`,
    "  grid: (n) => [n],",
    "  args: (n) => ({}),",
    "  outputs: [],",
    "  reference: () => ({}),",
    "});",
    "",
  ].join("\n");
}

export const typedKernelFiles: fc.Arbitrary<string> = fc.gen().map(typedKernelFile);
