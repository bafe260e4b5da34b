// Values the front end can read without running Python: literals, module-level constants, and
// the small arithmetic that constexpr values and autotune configs are written with.

import { DTYPES, TRITON_DTYPES } from "./names";
import type { SyntaxNode } from "./tree";
import { children, dottedName, parts, stringValue, textOf, trailingDotFloat } from "./tree";

/**
 * A value known while compiling: what a `tl.constexpr` can hold here. `{ dtype }` is a Triton dtype
 * object passed as a constexpr (Liger passes `tl.float32` for `X_dtype: tl.constexpr`), by Kernel
 * Lab's dtype name ("f32").
 */
/** A value known while compiling; a tuple of them is a tuple constexpr argument (`out_format: tl.constexpr` given `(4, 8)`). */
export type PyConst = number | boolean | string | null | DtypeConst | readonly PyConst[];

export interface DtypeConst {
  dtype: string;
}

export function isDtypeConst(value: PyConst | undefined): value is DtypeConst {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface ConstScope {
  /** Module-level (or host-function) names bound to a known value. */
  lookup(name: string): PyConst | undefined;
  /** `args['K']` in a heuristic's lambda: the value of key `key` of the object named `object`. */
  item?(object: string, key: string): PyConst | undefined;
  /** Whether a name is Python's own `math` module (`import math`): `math.sqrt(2.0)`, `math.pi`. */
  stdlibMath?(name: string): boolean;
  /** A name a host function binds once to `a if cond else b` of two literals, the condition not known: both values. */
  alternatives?(name: string): PyConst[] | undefined;
}

/**
 * The values `node` may take where it isn't one literal: `3 if is_causal else 1` (or a name bound to it, SpargeAttn's
 * `stage = 3 if is_causal else 1` launched as STAGE=stage), its two branches' literals; undefined otherwise.
 */
export function alternativeValues(text: string, node: SyntaxNode, scope: ConstScope): PyConst[] | undefined {
  if (node.name === "VariableName") return scope.alternatives?.(text.slice(node.from, node.to));
  if (node.name !== "ConditionalExpression") return undefined;
  const kids: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) kids.push(c);
  const at = (word: string) => kids.findIndex((k) => text.slice(k.from, k.to) === word);
  const [ifAt, elseAt] = [at("if"), at("else")];
  if (ifAt !== 1 || elseAt !== kids.length - 2) return undefined;
  const a = literalValue(text, kids[0], scope);
  const b = literalValue(text, kids[kids.length - 1], scope);
  return a === undefined || b === undefined ? undefined : [a, b];
}

/** Python's `math` constants and the one-argument functions of it a module-level constant is computed with (kernl's `sqrt2 = math.sqrt(2.0)`). */
export const MATH_CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI, inf: Infinity };
const MATH_FUNCTIONS: Record<string, (x: number) => number> = {
  sqrt: Math.sqrt, exp: Math.exp, log2: Math.log2, log10: Math.log10, fabs: Math.abs,
  sin: Math.sin, cos: Math.cos, tan: Math.tan, atan: Math.atan, tanh: Math.tanh,
};

export const EMPTY_SCOPE: ConstScope = { lookup: () => undefined };

/** The value of a literal expression, or undefined when it needs running code. */
export function literalValue(text: string, node: SyntaxNode, scope: ConstScope = EMPTY_SCOPE): PyConst | undefined {
  switch (node.name) {
    case "Number": {
      const raw = textOf(text, node).replace(/_/g, "");
      if (/[jJ]$/.test(raw)) return undefined;
      const value = /^0[oO]/.test(raw) ? parseInt(raw.slice(2), 8) : /^0[bB]/.test(raw) ? parseInt(raw.slice(2), 2) : Number(raw);
      return Number.isFinite(value) ? value : undefined;
    }
    case "String":
      return stringValue(text, node);
    case "Boolean":
      return textOf(text, node) === "True";
    case "None":
      return null;
    case "VariableName":
      return scope.lookup(textOf(text, node));
    case "ParenthesizedExpression": {
      const inner = parts(node)[0];
      return inner ? literalValue(text, inner, scope) : undefined;
    }
    case "UnaryExpression": {
      const [op, operand] = children(node);
      const v = operand ? literalValue(text, operand, scope) : undefined;
      if (typeof v !== "number" && typeof v !== "boolean") return op && textOf(text, op) === "not" && v !== undefined ? !v : undefined;
      const n = Number(v);
      switch (textOf(text, op)) {
        case "-":
          return -n;
        case "+":
          return n;
        case "~":
          return ~n;
        case "not":
          return !v;
        default:
          return undefined;
      }
    }
    case "BinaryExpression":
      return binaryValue(text, node, scope);
    case "MemberExpression": {
      const float = trailingDotFloat(text, node);
      if (float !== undefined) return Number(float.replace(/_/g, ""));
      // `tl.float32` passed to a constexpr (`X_dtype=tl.float32`) or held in a module-level constexpr.
      const dotted = dottedName(text, node);
      const head = dotted?.slice(0, -1).join(".");
      if (dotted?.length === 2 && scope.stdlibMath?.(dotted[0]) && Object.hasOwn(MATH_CONSTANTS, dotted[1])) return MATH_CONSTANTS[dotted[1]];
      if (dotted && (head === "tl" || head === "triton.language") && Object.hasOwn(DTYPES, dotted[dotted.length - 1])) return { dtype: DTYPES[dotted[dotted.length - 1]] };
      // `tl.PropagateNan.ALL` / `.NONE` as a parameter's default (`propagate_nan: tl.constexpr = tl.PropagateNan.ALL`):
      // the strings the host's tl.PropagateNan holds and tl.maximum's propagate_nan takes.
      if (dotted && (head === "tl.PropagateNan" || head === "triton.language.PropagateNan") && /^(ALL|NONE)$/.test(dotted[dotted.length - 1])) return dotted[dotted.length - 1].toLowerCase();
      // Triton's constexpr 0, a parameter's default in its standard library and in fla's nsa/utils.py argsort.
      if (dotted && (head === "tl.core" || head === "triton.language.core") && dotted[dotted.length - 1] === "CONSTEXPR_0") return 0;
      const kids = children(node);
      if (!scope.item || kids.length !== 4 || kids[0].name !== "VariableName" || kids[1].name !== "[") return undefined;
      const key = stringValue(text, kids[2]);
      return key === undefined ? undefined : scope.item(textOf(text, kids[0]), key);
    }
    case "CallExpression": {
      // tl.constexpr(4), triton.next_power_of_2(1000), triton.cdiv(a, b), int(x), min/max
      const [callee, argList] = children(node);
      const name = dottedName(text, callee)?.join(".");
      const args = parts(argList).map((a) => literalValue(text, a, scope));
      if (args.some((a) => a === undefined)) return undefined;
      const last = name?.split(".").pop();
      if (last === "constexpr" && args.length === 1) return args[0];
      const nums = args.map(Number);
      if (last === "next_power_of_2" && nums.length === 1) return nums[0] <= 1 ? 1 : 2 ** Math.ceil(Math.log2(nums[0]));
      if (last === "cdiv" && nums.length === 2) return Math.ceil(nums[0] / nums[1]);
      if (name === "int" && nums.length === 1) return Math.trunc(nums[0]);
      if (name === "float" && args.length === 1) return typeof args[0] === "string" ? Number(args[0].trim().replace(/^([+-]?)inf(inity)?$/i, "$1Infinity").replace(/^[+-]?nan$/i, "NaN")) : nums[0];
      if (name === "min" && nums.length >= 1) return Math.min(...nums);
      if (name === "max" && nums.length >= 1) return Math.max(...nums);
      const mathFn = dottedName(text, callee);
      if (mathFn?.length === 2 && scope.stdlibMath?.(mathFn[0]) && args.every((a) => typeof a === "number")) {
        if (mathFn[1] === "log" && (nums.length === 1 || nums.length === 2)) return nums.length === 1 ? Math.log(nums[0]) : Math.log(nums[0]) / Math.log(nums[1]);
        if (Object.hasOwn(MATH_FUNCTIONS, mathFn[1]) && nums.length === 1) return MATH_FUNCTIONS[mathFn[1]](nums[0]);
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

function binaryValue(text: string, node: SyntaxNode, scope: ConstScope): PyConst | undefined {
  const kids = children(node);
  const a = literalValue(text, kids[0], scope);
  const b = literalValue(text, kids[kids.length - 1], scope);
  if (a === undefined || b === undefined) return undefined;
  const op = kids.slice(1, -1).map((k) => textOf(text, k)).join(" ");
  switch (op) {
    case "and":
      return a ? b : a;
    case "or":
      return a ? a : b;
    case "==":
    case "is":
      return a === b;
    case "!=":
    case "is not":
      return a !== b;
  }
  if (typeof a === "string" || typeof b === "string" || a === null || b === null) return undefined;
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case "+": return x + y;
    case "-": return x - y;
    case "*": return x * y;
    case "/": return x / y;
    case "//": return Math.floor(x / y);
    case "%": return x - Math.floor(x / y) * y;
    case "**": return x ** y;
    case "<<": return x << y;
    case ">>": return x >> y;
    case "&": return x & y;
    case "|": return x | y;
    case "^": return x ^ y;
    case "<": return x < y;
    case "<=": return x <= y;
    case ">": return x > y;
    case ">=": return x >= y;
    default: return undefined;
  }
}

/** How a value is written in Python (for messages and the Python a kernel converts to). */
export function pythonText(value: PyConst): string {
  if (value === null) return "None";
  if (isDtypeConst(value)) return `tl.${TRITON_DTYPES[value.dtype] ?? value.dtype}`;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `(${value.map(pythonText).join(", ")}${value.length === 1 ? "," : ""})`;
  return String(value);
}
