// Constructs a kernel can't contain, by syntax kind, and what to write instead (KL1003). The
// statement and expression tables (statements.ts, expressions.ts) fall back to these.

import ts from "typescript";

export const UNSUPPORTED_EXPRESSIONS: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.ArrowFunction]: "closures aren't supported in kernels; write the computation inline",
  [ts.SyntaxKind.FunctionExpression]: "closures aren't supported in kernels; write the computation inline",
  [ts.SyntaxKind.ObjectLiteralExpression]: "objects aren't supported in kernels; use separate values",
  [ts.SyntaxKind.StringLiteral]: "strings aren't supported in kernels",
  [ts.SyntaxKind.NoSubstitutionTemplateLiteral]: "strings aren't supported in kernels",
  [ts.SyntaxKind.TemplateExpression]: "strings aren't supported in kernels",
  [ts.SyntaxKind.TaggedTemplateExpression]: "strings aren't supported in kernels",
  [ts.SyntaxKind.NewExpression]: "'new' isn't supported in kernels",
  [ts.SyntaxKind.ThisKeyword]: "'this' isn't supported in kernels",
  [ts.SyntaxKind.AwaitExpression]: "'await' isn't supported in kernels",
  [ts.SyntaxKind.YieldExpression]: "'yield' isn't supported in kernels",
  [ts.SyntaxKind.TypeOfExpression]: "'typeof' isn't supported in kernels",
  [ts.SyntaxKind.DeleteExpression]: "'delete' isn't supported in kernels",
  [ts.SyntaxKind.VoidExpression]: "'void' isn't supported in kernels",
  [ts.SyntaxKind.SpreadElement]: "spread isn't supported in kernels",
  [ts.SyntaxKind.RegularExpressionLiteral]: "regular expressions aren't supported in kernels",
  [ts.SyntaxKind.NullKeyword]: "'null' isn't supported in kernels",
  [ts.SyntaxKind.ClassExpression]: "classes aren't supported in kernels",
  [ts.SyntaxKind.BigIntLiteral]: "BigInt literals aren't supported in kernels; the integer dtypes are i32 and u32",
};

export const UNSUPPORTED_STATEMENTS: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.DoStatement]: "do…while loops aren't supported in kernels; use while (cond) { … } or a counted loop: for (let i = a; i < b; i += s) { … }",
  [ts.SyntaxKind.ForInStatement]: "for…in isn't supported in kernels; use for (let i = a; i < b; i += s) { … }",
  [ts.SyntaxKind.SwitchStatement]: "switch isn't supported in kernels; use if/else or tl.where",
  [ts.SyntaxKind.TryStatement]: "try/catch isn't supported in kernels",
  [ts.SyntaxKind.ThrowStatement]: "throw isn't supported in kernels",
  [ts.SyntaxKind.FunctionDeclaration]: "functions can't be declared inside kernels; make a device function at the top of the file: const f = kernel(function f(…) { … }), and call it",
  [ts.SyntaxKind.ClassDeclaration]: "classes can't be declared inside kernels",
  [ts.SyntaxKind.LabeledStatement]: "labels aren't supported in kernels",
  [ts.SyntaxKind.WithStatement]: "'with' isn't supported in kernels",
  [ts.SyntaxKind.DebuggerStatement]: "'debugger' isn't supported in kernels",
};
