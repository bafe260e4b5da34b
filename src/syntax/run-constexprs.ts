// The constexpr values a `defineRun` call states literally (its `constexprs`, each of its
// `configs` merged over them, and each launch of `launches`), read from the text without running
// the file: what `kernel-lab check` and the editor compile each kernel with. A value may be a
// number, arithmetic on numbers, or the name of a module-level `const` holding one. A value only
// running the file gives (`n_cols: n` in a run made by a function, `constexprs: (n) => ({ BLOCK_N:
// nextPowerOf2(n) })`, a spread or a variable) is named in `runTime` instead, so the check doesn't
// call it missing (compile.ts checks it with stand-in values, or with the values a run gives).
import ts from "typescript";

/** Constexprs whose values only running the file gives. */
export interface RunTimeConstexprs {
  /** Named, with a value that isn't a literal. */
  names: Set<string>;
  /** Some are not even named (`constexprs: c`, a spread, a function returning a variable): any constexpr without a literal value may be one. */
  unlisted: boolean;
}

export interface RunConstexprs {
  kernel: string;
  variants: Record<string, number>[];
  runTime: RunTimeConstexprs;
}

/** Module-level `const NAME = <number>` declarations, in order (a later one may use an earlier). */
export type Constants = ReadonlyMap<string, number>;

export function moduleConstants(sourceFile: ts.SourceFile): Constants {
  const constants = new Map<string, number>();
  for (const statement of sourceFile.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || !decl.initializer) continue;
      const value = literalNumber(decl.initializer, constants);
      if (value !== undefined) constants.set(decl.name.text, value);
    }
  }
  return constants;
}

/** Module-level `const NAME = { … }` objects, which a run may spread (`defineRun({ ...common, sizes })`). */
export type ModuleObjects = ReadonlyMap<string, ts.ObjectLiteralExpression>;

export function moduleObjects(sourceFile: ts.SourceFile): ModuleObjects {
  const objects = new Map<string, ts.ObjectLiteralExpression>();
  for (const statement of sourceFile.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (ts.isIdentifier(decl.name) && decl.initializer && ts.isObjectLiteralExpression(decl.initializer)) objects.set(decl.name.text, decl.initializer);
    }
  }
  return objects;
}

export function readLiteralConstexprs(
  call: ts.CallExpression,
  kernelByVariable: ReadonlyMap<string, string>,
  constants: Constants,
  objects: ModuleObjects = new Map(),
): RunConstexprs[] {
  const def = call.arguments[0];
  if (!def || !ts.isObjectLiteralExpression(def)) return [];
  const found = readRunObject(def, kernelByVariable, constants, objects);
  // A run with several launches: each `{ kernel, constexprs }` of `launches: [...]` (harness/run/launches.ts).
  const launches = def.properties.find((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === "launches");
  const elements = launches && ts.isPropertyAssignment(launches) && ts.isArrayLiteralExpression(launches.initializer) ? launches.initializer.elements : [];
  const fromLaunches = elements.flatMap((e) => (ts.isObjectLiteralExpression(e) ? [readRunObject(e, kernelByVariable, constants, objects)] : []));
  return [found, ...fromLaunches].filter((f): f is RunConstexprs => f !== undefined);
}

/** The properties of a run object, those of a spread module-level object first (a later one overrides). */
function runProperties(def: ts.ObjectLiteralExpression, objects: ModuleObjects, depth = 0): ts.ObjectLiteralElementLike[] {
  return def.properties.flatMap((prop) => {
    if (!ts.isSpreadAssignment(prop)) return [prop];
    const spread = ts.isIdentifier(prop.expression) ? objects.get(prop.expression.text) : undefined;
    return spread && depth < 8 ? runProperties(spread, objects, depth + 1) : [prop];
  });
}

function readRunObject(def: ts.ObjectLiteralExpression, kernelByVariable: ReadonlyMap<string, string>, constants: Constants, objects: ModuleObjects): RunConstexprs | undefined {
  let kernel: string | undefined;
  let base: Record<string, number> | undefined;
  const configs: Record<string, number>[] = [];
  const runTime: RunTimeConstexprs = { names: new Set(), unlisted: false };
  let baseRunTime: RunTimeConstexprs = { names: new Set(), unlisted: false };
  for (const prop of runProperties(def, objects)) {
    if (!ts.isPropertyAssignment(prop) && !ts.isShorthandPropertyAssignment(prop)) continue;
    const key = prop.name && (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name)) ? prop.name.text : undefined;
    if (key === "kernel") {
      const value = ts.isPropertyAssignment(prop) ? prop.initializer : prop.name;
      if (ts.isIdentifier(value)) kernel = kernelByVariable.get(value.text) ?? value.text;
    } else if (key === "constexprs") {
      // `constexprs: (n) => ({ … })`: the object it returns, its values run-time unless literal.
      const value = ts.isPropertyAssignment(prop) ? returnedObject(prop.initializer) : prop.name;
      // A later `constexprs` (after a spread that had one) replaces the earlier.
      baseRunTime = { names: new Set(), unlisted: false };
      base = literalNumbers(value, constants, baseRunTime);
    } else if (key === "configs" && ts.isPropertyAssignment(prop) && ts.isArrayLiteralExpression(prop.initializer)) {
      for (const element of prop.initializer.elements) {
        const values = literalNumbers(element, constants, runTime);
        if (values) configs.push(values);
      }
    }
  }
  // Each autotuning config is merged over the run's constexprs, as the harness runs it.
  const variants = configs.length > 0 ? configs.map((c) => ({ ...base, ...c })) : base ? [base] : [];
  for (const name of baseRunTime.names) runTime.names.add(name);
  runTime.unlisted ||= baseRunTime.unlisted;
  return kernel ? { kernel, variants, runTime } : undefined;
}

/** The object literal a function of the size returns (`(n) => ({ … })`, or a body ending in `return { … }`); else the expression. */
function returnedObject(node: ts.Expression): ts.Expression {
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return node;
  if (!ts.isBlock(node.body)) return unparenthesized(node.body);
  const last = node.body.statements.at(-1);
  return last && ts.isReturnStatement(last) && last.expression ? unparenthesized(last.expression) : node;
}

function unparenthesized(node: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(node) ? unparenthesized(node.expression) : node;
}

/** The literal values of an object of constexprs; the others go into `runTime`. */
function literalNumbers(node: ts.Expression, constants: Constants, runTime: RunTimeConstexprs): Record<string, number> | undefined {
  if (!ts.isObjectLiteralExpression(node)) {
    runTime.unlisted = true;
    return {};
  }
  const values: Record<string, number> = {};
  for (const prop of node.properties) {
    const name = prop.name && (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name)) ? prop.name.text : undefined;
    // `{ BLOCK_K }` names a module-level `const BLOCK_K = 16`.
    const v = ts.isShorthandPropertyAssignment(prop)
      ? constants.get(prop.name.text)
      : ts.isPropertyAssignment(prop) && name !== undefined
        ? literalNumber(prop.initializer, constants)
        : undefined;
    if (v !== undefined && name !== undefined) values[name] = v;
    else if (name !== undefined) runTime.names.add(name);
    else runTime.unlisted = true;
  }
  return values;
}

function literalNumber(node: ts.Expression, constants: Constants): number | undefined {
  if (ts.isIdentifier(node)) return constants.get(node.text);
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) {
    return -Number(node.operand.text);
  }
  if (ts.isBinaryExpression(node)) {
    const a = literalNumber(node.left, constants);
    const b = literalNumber(node.right, constants);
    if (a === undefined || b === undefined) return undefined;
    switch (node.operatorToken.kind) {
      case ts.SyntaxKind.AsteriskToken: return a * b;
      case ts.SyntaxKind.PlusToken: return a + b;
      case ts.SyntaxKind.MinusToken: return a - b;
      case ts.SyntaxKind.LessThanLessThanToken: return a << b;
      case ts.SyntaxKind.AsteriskAsteriskToken: return a ** b;
      default: return undefined;
    }
  }
  if (ts.isParenthesizedExpression(node)) return literalNumber(node.expression, constants);
  return undefined;
}
