// TypeScript's operator tokens → the IR's binary functions.

import ts from "typescript";
import type { BinaryFn } from "../ir/ir";

/** `x op= y` statements. */
export const ASSIGN_OPS: Partial<Record<ts.SyntaxKind, BinaryFn>> = {
  [ts.SyntaxKind.PlusEqualsToken]: "add",
  [ts.SyntaxKind.MinusEqualsToken]: "sub",
  [ts.SyntaxKind.AsteriskEqualsToken]: "mul",
  [ts.SyntaxKind.SlashEqualsToken]: "div",
  [ts.SyntaxKind.PercentEqualsToken]: "mod",
  [ts.SyntaxKind.AmpersandEqualsToken]: "and",
  [ts.SyntaxKind.BarEqualsToken]: "or",
  [ts.SyntaxKind.CaretEqualsToken]: "xor",
  [ts.SyntaxKind.LessThanLessThanEqualsToken]: "shl",
  [ts.SyntaxKind.GreaterThanGreaterThanEqualsToken]: "shr",
};

export const BINARY_OPS: Partial<Record<ts.SyntaxKind, BinaryFn>> = {
  [ts.SyntaxKind.PlusToken]: "add",
  [ts.SyntaxKind.MinusToken]: "sub",
  [ts.SyntaxKind.AsteriskToken]: "mul",
  [ts.SyntaxKind.SlashToken]: "div",
  [ts.SyntaxKind.PercentToken]: "mod",
  [ts.SyntaxKind.AmpersandToken]: "and",
  [ts.SyntaxKind.BarToken]: "or",
  [ts.SyntaxKind.CaretToken]: "xor",
  [ts.SyntaxKind.LessThanLessThanToken]: "shl",
  [ts.SyntaxKind.GreaterThanGreaterThanToken]: "shr",
  [ts.SyntaxKind.LessThanToken]: "lt",
  [ts.SyntaxKind.LessThanEqualsToken]: "le",
  [ts.SyntaxKind.GreaterThanToken]: "gt",
  [ts.SyntaxKind.GreaterThanEqualsToken]: "ge",
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: "eq",
  [ts.SyntaxKind.EqualsEqualsToken]: "eq",
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: "ne",
  [ts.SyntaxKind.ExclamationEqualsToken]: "ne",
  [ts.SyntaxKind.AmpersandAmpersandToken]: "land",
  [ts.SyntaxKind.BarBarToken]: "lor",
};

/** A `for` condition's comparison of the counter with its bound. */
export const LOOP_COMPARISONS: Partial<Record<ts.SyntaxKind, "lt" | "le" | "gt" | "ge" | "ne">> = {
  [ts.SyntaxKind.LessThanToken]: "lt",
  [ts.SyntaxKind.LessThanEqualsToken]: "le",
  [ts.SyntaxKind.GreaterThanToken]: "gt",
  [ts.SyntaxKind.GreaterThanEqualsToken]: "ge",
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: "ne",
  [ts.SyntaxKind.ExclamationEqualsToken]: "ne",
};

export function skipParens(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  return e;
}
