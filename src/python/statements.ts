// Python statements in a kernel → TypeScript statements: assignments (declared where
// declarations.ts says), `for … in range(…)` / `tl.range` / `tl.static_range`, `while`,
// `if`/`elif`/`else`, `return` (tuples as arrays), `assert` (tl.deviceAssert), `pass`; `raise` only
// in a branch a constexpr rules out.

import type { LowerContext } from "./context";
import { declared, nodeText, unsupported } from "./context";
import { assignmentTargets } from "./declarations";
import { noneInBranch, pickedSide, staticBool, staticTruth } from "./none-names";
import { lowerExpr, lowerList } from "./expressions";
import { camelCase, tsName } from "./names";
import { keywordArgs } from "./signature";
import { literalValue, type PyConst } from "./literals";
import { bodyStatements, children, dottedName, parts, spanOf, stringValue, walk, type SyntaxNode } from "./tree";

/** The start of the static assertion a `raise` is written as (compile-python.ts reports it as KL1101). */
export const RAISED = "raise isn't part of the kernel language where it is compiled: ";

const UNSUPPORTED: Readonly<Record<string, [string, string]>> = {
  WithStatement: ["a `with` statement", ""],
  TryStatement: ["try/except", "kernels can't raise or catch; check with tl.device_assert"],
  ClassDefinition: ["a class", "define @triton.jit functions at module level"],
  FunctionDefinition: ["a function defined inside a kernel", "define it at module level with @triton.jit and call it"],
  DecoratedStatement: ["a function defined inside a kernel", "define it at module level with @triton.jit and call it"],
  RaiseStatement: ["raise", "check with tl.device_assert(cond, msg)"],
  ImportStatement: ["an import inside a kernel", "import at module level"],
  ScopeStatement: ["global/nonlocal", "read module-level tl.constexpr values directly; kernels write only through pointers"],
  DeleteStatement: ["del", ""],
  MatchStatement: ["match", "use if/elif/else"],
  YieldStatement: ["yield", ""],
  PrintStatement: ["Python 2's print statement", "use tl.device_print"],
  TypeDefinition: ["a type alias", ""],
};

export function lowerBlock(ctx: LowerContext, body: SyntaxNode, indent: string, declare: string[] = []): void {
  ctx.scopes.push(new Set(declare));
  const statements = bodyStatements(body);
  statements.forEach((s, i) => {
    for (const name of ctx.plan.hoisted.get(s.from) ?? []) {
      ctx.w.write(`${indent}let `);
      ctx.w.token(tsName(name), spanOf(s));
      ctx.w.write(";\n");
      ctx.scopes[ctx.scopes.length - 1].add(name);
    }
    // A docstring is documentation, not code.
    if (i === 0 && s.name === "ExpressionStatement" && children(s)[0]?.name === "String") return;
    lowerStatement(ctx, s, indent);
  });
  ctx.scopes.pop();
}

function line(ctx: LowerContext, s: SyntaxNode, indent: string, emit: () => void): void {
  ctx.w.write(indent);
  ctx.w.node(spanOf(s), emit);
  ctx.w.write("\n");
}

function lowerStatement(ctx: LowerContext, s: SyntaxNode, indent: string): void {
  const { w } = ctx;
  switch (s.name) {
    case "AssignStatement":
      return lowerAssign(ctx, s, indent);
    case "UpdateStatement":
      return lowerUpdate(ctx, s, indent);
    case "ExpressionStatement": {
      const e = children(s)[0];
      if (!e || e.name === "String" || e.name === "...") return;
      return line(ctx, s, indent, () => {
        lowerExpr(ctx, e);
        w.write(";");
      });
    }
    case "ReturnStatement": {
      const values = children(s).filter((c) => c.name !== "return" && c.name !== ",");
      return line(ctx, s, indent, () => {
        w.write("return");
        if (values.length === 1) {
          w.write(" ");
          lowerExpr(ctx, values[0]);
        } else if (values.length > 1) {
          w.write(" ");
          w.node({ start: values[0].from, end: values[values.length - 1].to }, () => lowerList(ctx, values));
        }
        w.write(";");
      });
    }
    case "PassStatement":
      return;
    case "BreakStatement":
      return line(ctx, s, indent, () => w.write("break;"));
    case "ContinueStatement":
      return line(ctx, s, indent, () => w.write("continue;"));
    case "IfStatement":
      return lowerIf(ctx, s, indent);
    case "WhileStatement": {
      const kids = children(s);
      if (kids.some((k) => k.name === "else")) return unsupported(ctx, s, "a while loop's else clause", "");
      const cond = kids[1];
      const body = kids.find((k) => k.name === "Body")!;
      w.write(indent);
      w.node(spanOf(kids[0]), () => w.write("while"));
      w.write(" (");
      lowerExpr(ctx, cond);
      w.write(") {\n");
      lowerBlock(ctx, body, indent + "  ");
      w.write(`${indent}}\n`);
      return;
    }
    case "ForStatement":
      return lowerFor(ctx, s, indent);
    case "AssertStatement": {
      const args = parts(s).filter((c) => c.name !== "assert");
      return line(ctx, s, indent, () => {
        w.write("tl.deviceAssert(");
        args.forEach((a, i) => {
          if (i > 0) w.write(", ");
          lowerExpr(ctx, a);
        });
        // `assert cond` without a message: the failure names the condition, as Python's AssertionError traceback
        // shows its line (FBGEMM's `assert BLOCK_N < scale_block_n`), not only "assertion failed".
        if (args.length === 1) w.write(`, ${JSON.stringify(`assert ${nodeText(ctx, args[0]!).replace(/\s+/g, " ")}`)}`);
        w.write(");");
      });
    }
    case "RaiseStatement":
      // In a branch a constexpr rules out, Triton never compiles it (sglang's elementwise.py:
      // `if quant_max is not None: raise NotImplementedError()` with quant_max None).
      if (ctx.deadBranches > 0) return;
      // Else a static assertion that fails where it is compiled: a branch the compiler decides on what only typing
      // tells (FlagGems' topk.py: `elif core.constexpr(x.dtype.primitive_bitwidth) == 64: … else: raise ValueError(…)`)
      // drops it as Triton does; one it compiles is the error, as Triton's.
      return line(ctx, s, indent, () => {
        const raised = nodeText(ctx, s).replace(/\s+/g, " ");
        w.write(`tl.staticAssert(false, ${JSON.stringify(`${RAISED}\`${raised}\`; Triton compiles a raise only in a branch a constexpr rules out; check a run-time condition with tl.device_assert(cond, msg)`)});`);
      });
    default: {
      const known = UNSUPPORTED[s.name];
      if (known) return unsupported(ctx, s, known[0], known[1]);
      return unsupported(ctx, s, `this statement (${s.name})`, "");
    }
  }
}

function lowerAssign(ctx: LowerContext, s: SyntaxNode, indent: string): void {
  const kids = children(s);
  const ops = kids.filter((k) => k.name === "AssignOp");
  if (ops.length > 1) return unsupported(ctx, s, "a chained assignment (a = b = …)", "assign each name in a statement of its own");
  if (ops.length === 0) return; // a bare annotation `x: int` declares nothing
  const targets = assignmentTargets(s);
  // `x = a if CONSTEXPR else None`: the side the condition picks (none-names.ts pickedSide).
  const values = kids.slice(kids.indexOf(ops[0]) + 1).filter((k) => k.name !== ",").map((v) => pickedSide(ctx, v));
  const bad = targets.find((t) => !isNameTarget(t));
  if (bad) return unsupported(ctx, bad, "assigning to an element or attribute", "kernels write memory with tl.store; bind a new name instead");
  const names = targets.flatMap((t) => targetNameList(ctx, t));
  const entry = ctx.plan.inline.get(s.from);
  const scope = ctx.scopes[ctx.scopes.length - 1];
  // The plan declares a name afresh in an inner block where Python's name is dead before it (a
  // loop that assigns it first: declarations.ts), shadowing a declaration outside: so only this
  // block's own declarations stop this one (lightning-attention's _bwd_diag_kernel, `do`).
  const declaredHere = (n: string) => scope.has(n) || ctx.params.has(n);
  for (const n of names) ctx.noneNames.delete(n);
  // Bound again (in code that runs): a constexpr tuple local (below) is no longer that tuple.
  for (const n of names) if (ctx.deadBranches === 0 && !ctx.params.has(n) && Array.isArray(ctx.known.get(n))) ctx.known.delete(n);
  // `mask = None`, or each name of a tuple None (tritonbench's sum kernels: `idxs, mask = None, None` before a constexpr
  // `if dim == 0:` binds both): a constexpr None (none-names.ts); the name is declared, given no value.
  const allNone = targets.length === values.length && targets.every((t) => t.name === "VariableName") && values.every((v) => v.name === "None");
  if (allNone) {
    for (const n of names) {
      if (entry?.names.has(n) && !declaredHere(n)) ctx.w.write(`${indent}let ${tsName(n)};\n`);
      // Read only as a mask: True (no mask) too, for a branch the compiler decides later (none-masks.ts).
      if (ctx.noneMasks.maskOnly.has(n)) ctx.w.write(`${indent}${tsName(n)} = true;\n`);
      scope.add(n);
      ctx.noneNames.add(n);
    }
    return;
  }
  let keyword = "";
  if (entry && names.every((n) => entry.names.has(n) && !declaredHere(n))) {
    keyword = `${entry.keyword} `;
  } else if (entry) {
    for (const n of names) {
      if (!entry.names.has(n) || declaredHere(n)) continue;
      ctx.w.write(`${indent}let ${tsName(n)};\n`);
      scope.add(n);
    }
  }
  // `FLOAT32_PRECISION : tl.constexpr = 'ieee'` (inductor's templates): the name is the string while lowering,
  // as a string constexpr parameter is (expressions.ts lowerName); the TypeScript line keeps only its truth.
  const text = constexprString(ctx, kids, names, values);
  if (text !== undefined) ctx.known.set(names[0], text);
  line(ctx, s, indent, () => {
    ctx.w.write(keyword);
    // One target may itself be a tuple: `(a, b) = f(x)`, one name a line (vllm's attention kernels).
    if (targets.length === 1) lowerTarget(ctx, targets[0]);
    else ctx.w.node({ start: targets[0].from, end: targets[targets.length - 1].to }, () => writeTargets(ctx, targets));
    ctx.w.write(" = ");
    if (text !== undefined) ctx.w.token(text ? "true" : "false", spanOf(values[0]));
    else if (values.length === 1) lowerExpr(ctx, values[0]);
    else ctx.w.node({ start: values[0].from, end: values[values.length - 1].to }, () => lowerList(ctx, values));
    ctx.w.write(";");
  });
  for (const n of names) scope.add(n);
  // `NAME: tl.constexpr = …` decided while lowering: later ifs on it are decided too, so a name bound
  // to None only in the branch not taken isn't None after it (none-names.ts).
  const annotation = kids.find((k) => k.name === "TypeDef");
  if (text === undefined && annotation && names.length === 1 && values.length === 1 && /constexpr\s*$/.test(nodeText(ctx, annotation))) {
    // A tuple of literals (`k_bound1: tl.constexpr = (0, 1)`) is that tuple where it is read, as a tuple constexpr
    // parameter is (expressions.ts lowerName), where the branch binding it is decided while lowering.
    const items = values[0].name === "TupleExpression" ? parts(values[0]).map((item) => literalValue(ctx.text, item)) : undefined;
    const tuple = items?.every((item) => item !== undefined) ? (items as PyConst[]) : undefined;
    const truth = tuple === undefined ? staticBool(ctx, values[0]) : undefined;
    if (Array.isArray(tuple) && ctx.deadBranches === 0 && ctx.runTimeBranches === 0) ctx.known.set(names[0], tuple);
    else if (truth !== undefined) ctx.known.set(names[0], truth);
  }
}

/** The string a `NAME: tl.constexpr = "…"` binds, else undefined. */
function constexprString(ctx: LowerContext, kids: readonly SyntaxNode[], names: readonly string[], values: readonly SyntaxNode[]): string | undefined {
  const annotation = kids.find((k) => k.name === "TypeDef");
  if (!annotation || names.length !== 1 || values.length !== 1 || !/constexpr\s*$/.test(nodeText(ctx, annotation))) return undefined;
  return stringValue(ctx.text, values[0]);
}

function isNameTarget(t: SyntaxNode): boolean {
  if (t.name === "VariableName") return true;
  if (t.name === "TupleExpression" || t.name === "ParenthesizedExpression" || t.name === "ArrayExpression") return parts(t).every(isNameTarget);
  return false;
}

function targetNameList(ctx: LowerContext, t: SyntaxNode): string[] {
  return t.name === "VariableName" ? [nodeText(ctx, t)] : parts(t).flatMap((p) => targetNameList(ctx, p));
}

function lowerTarget(ctx: LowerContext, t: SyntaxNode): void {
  if (t.name === "VariableName") {
    const name = nodeText(ctx, t);
    return ctx.w.token(tsName(name), spanOf(t), tsName(name) === name);
  }
  if (t.name === "ParenthesizedExpression") return lowerTarget(ctx, parts(t)[0]);
  ctx.w.node(spanOf(t), () => writeTargets(ctx, parts(t)));
}

function writeTargets(ctx: LowerContext, targets: readonly SyntaxNode[]): void {
  ctx.w.write("[");
  targets.forEach((t, i) => {
    if (i > 0) ctx.w.write(", ");
    lowerTarget(ctx, t);
  });
  ctx.w.write("]");
}

const UPDATE: Readonly<Record<string, string>> = { "+=": "+=", "-=": "-=", "*=": "*=", "%=": "%=", "//=": "/=", "&=": "&=", "|=": "|=", "^=": "^=", "<<=": "<<=", ">>=": ">>=" };

function lowerUpdate(ctx: LowerContext, s: SyntaxNode, indent: string): void {
  const kids = children(s);
  const target = kids[0];
  const op = nodeText(ctx, kids[1]);
  const value = kids[2];
  if (kids.length !== 3 || target.name !== "VariableName") return unsupported(ctx, target, "updating an element, attribute or tuple in place", "kernels write memory with tl.store");
  line(ctx, s, indent, () => {
    lowerTarget(ctx, target);
    if (op === "/=") {
      // True division, as for `/` (expressions.ts).
      ctx.w.write(" = tl.fdiv(");
      lowerTarget(ctx, target);
      ctx.w.write(", ");
      lowerExpr(ctx, value);
      ctx.w.write(");");
      return;
    }
    const ts = UPDATE[op];
    if (!ts) return unsupported(ctx, kids[1], `the update ${op}`, "");
    ctx.w.write(` ${ts} `);
    lowerExpr(ctx, value);
    ctx.w.write(";");
  });
}

function lowerIf(ctx: LowerContext, s: SyntaxNode, indent: string): void {
  const { w } = ctx;
  const kids = children(s);
  // Whether an earlier branch is taken (none-names.ts): true once one is decided taken, false while every one so far is decided not, else undefined.
  let prior: boolean | undefined = false;
  // Numbers compared decide a branch too (staticBool) where one binds None to a name read as a value (gemlite's
  // `if(W_group_mode >= 2): scales = tl.load(…) else: scales = None`, then `dequantize(b, scales, …)`): no None is
  // left behind from the branch not taken. Names read only as masks keep the compiler's later decision (none-masks.ts:
  // their None is written as True, so FlagGems' `if DIVISIBLE and BLOCK > 1: mask_y = None` stays a masked store).
  const decide = bindsNoneToValue(ctx, s) ? staticBool : staticTruth;
  w.write(indent);
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (k.name === "if" || k.name === "elif") {
      w.node(spanOf(k), () => w.write(k.name === "if" ? "if" : " else if"));
      w.write(" (");
      lowerExpr(ctx, kids[i + 1]);
      w.write(") {\n");
      const truth = decide(ctx, kids[i + 1]);
      const taken = prior === true ? false : prior === false ? truth : truth === false ? false : undefined;
      noneInBranch(ctx, taken, () => lowerBlock(ctx, kids[i + 2], indent + "  "));
      if (prior === false) prior = truth;
      w.write(`${indent}}`);
      i += 2;
    } else if (k.name === "else") {
      w.write(" else {\n");
      noneInBranch(ctx, prior === undefined ? undefined : !prior, () => lowerBlock(ctx, kids[i + 1], indent + "  "));
      w.write(`${indent}}`);
      i += 1;
    }
  }
  w.write("\n");
}

function lowerFor(ctx: LowerContext, s: SyntaxNode, indent: string): void {
  const { w } = ctx;
  const kids = children(s);
  if (kids.some((k) => k.name === "else")) return unsupported(ctx, s, "a for loop's else clause", "");
  const inAt = kids.findIndex((k) => k.name === "in");
  const targets = kids.slice(1, inAt).filter((k) => k.name !== ",");
  const iter = kids[inAt + 1];
  const body = kids.find((k) => k.name === "Body")!;
  if (targets.length !== 1 || targets[0].name !== "VariableName") return unsupported(ctx, kids[1], "a for loop over several names", "loop over one counter");
  const counter = nodeText(ctx, targets[0]);
  // Python may rebind the counter in the body (tutorial 06's `start_n = tl.multiple_of(start_n, BLOCK_N)`)
  // without changing the iteration: the loop then steps a counter of its own and the body starts
  // with `let start_n = <it>`.
  const rebound = assigns(ctx, body, counter);
  const stepped = rebound ? `__${tsName(counter)}` : tsName(counter);
  const writeCounter = () => (rebound ? w.token(stepped, spanOf(targets[0])) : lowerTarget(ctx, targets[0]));
  const callee = iter.name === "CallExpression" ? children(iter)[0] : undefined;
  const calleeName = callee ? dottedName(ctx.text, callee) : undefined;
  const last = calleeName?.[calleeName.length - 1];
  if (calleeName?.length === 1 && last === "range" && !ctx.params.has("range")) {
    // Triton evaluates keyword arguments of the builtin range and drops them (its code generator reads
    // num_stages, flatten … from tl.range only): unsloth's grouped GEMM writes `range(NUM_EXPERTS, flatten = FLATTEN)`.
    const args = keywordArgs(ctx.text, children(iter)[1]).positional;
    if (args.length < 1 || args.length > 3) return unsupported(ctx, iter, "range() with these arguments", "range(end), range(start, end) or range(start, end, step)");
    const [start, end, step] = args.length === 1 ? [undefined, args[0], undefined] : args;
    const descending = step?.name === "UnaryExpression" && nodeText(ctx, children(step)[0]) === "-";
    w.write(indent);
    w.node(spanOf(kids[0]), () => w.write("for"));
    w.write(" (let ");
    writeCounter();
    w.write(" = ");
    if (start) lowerExpr(ctx, start);
    else w.write("0");
    // A step whose sign the text doesn't show (`-BLOCK_K * SPLIT_K`, DeepSpeed's matmul; a name bound
    // to `-B`) leaves the direction to its value: `(step) < 0 ? i > end : i < end`, which the compiler decides for a
    // constexpr step (semantics/statements.ts loopCondition).
    const signUnseen = step !== undefined && !descending && step.name !== "Number";
    if (signUnseen) {
      w.write(`; (`);
      lowerExpr(ctx, step);
      w.write(`) < 0 ? ${stepped} > `);
      lowerExpr(ctx, end);
      w.write(` : ${stepped} < `);
      lowerExpr(ctx, end);
    } else {
      w.write(`; ${stepped} ${descending ? ">" : "<"} `);
      lowerExpr(ctx, end);
    }
    w.write(`; `);
    if (step) {
      w.write(`${stepped} += `);
      lowerExpr(ctx, step);
    } else w.write(`${stepped}++`);
    w.write(") {\n");
  } else if (last === "range" || last === "static_range") {
    w.write(indent);
    w.node(spanOf(kids[0]), () => w.write("for"));
    w.write(" (const ");
    writeCounter();
    w.write(" of ");
    lowerExpr(ctx, iter);
    w.write(") {\n");
  } else {
    return unsupported(ctx, iter, `a for loop over ${callee ? `${nodeText(ctx, callee)}(…)` : "this"}`, "loop with range(…), tl.range(…) or tl.static_range(…)");
  }
  if (rebound) {
    w.write(`${indent}  let `);
    lowerTarget(ctx, targets[0]);
    w.write(` = ${stepped};\n`);
  }
  lowerBlock(ctx, body, indent + "  ", [counter]);
  w.write(`${indent}}\n`);
}

/** Whether a statement of `body` (nested blocks too) assigns `name`. */
function assigns(ctx: LowerContext, body: SyntaxNode, name: string): boolean {
  let found = false;
  walk(body, (n) => {
    if (found || n.name === "FunctionDefinition" || n.name === "LambdaExpression") return false;
    if ((n.name === "AssignStatement" || n.name === "UpdateStatement") && assignmentTargets(n).some((t) => t.name === "VariableName" && nodeText(ctx, t) === name)) found = true;
    return undefined;
  });
  return found;
}

export { camelCase };

/**
 * Whether a branch of `ifStatement` (at any depth) binds None to a name read other than as a mask (none-masks.ts
 * maskOnly), or rebinds such a name that holds None before the if (FBGEMM's mx4 quantizer: `group_rand_bits = None`,
 * then `if (ROUNDING_MODE) == 3 or STOCHASTIC_CASTING: group_rand_bits = tl.load(…)`, then a helper given it), or binds
 * a `NAME: tl.constexpr` local to None or a tuple (lmdeploy's flashattention.py:
 * `if BLOCK_DK + BLOCK_DK1 == head_dim_k: k_bound0: tl.constexpr = None … else: k_bound0: tl.constexpr = (1, )`).
 */
function bindsNoneToValue(ctx: LowerContext, ifStatement: SyntaxNode): boolean {
  let found = false;
  walk(ifStatement, (n) => {
    if (found) return false;
    if (n.name !== "AssignStatement") return undefined;
    const kids = children(n);
    const value = kids.length === 3 && kids[0].name === "VariableName" && kids[1].name === "AssignOp" && !ctx.noneMasks.maskOnly.has(nodeText(ctx, kids[0]));
    if (value && (kids[2].name === "None" || ctx.noneNames.has(nodeText(ctx, kids[0])))) found = true;
    const constexprLocal = kids.length === 4 && kids[0].name === "VariableName" && kids[1].name === "TypeDef" && /constexpr\s*$/.test(nodeText(ctx, kids[1]));
    if (constexprLocal && (kids[3].name === "None" || kids[3].name === "TupleExpression")) found = true;
    return undefined;
  });
  return found;
}
