// Half-finished and broken versions of real kernel files: each example under examples/ with one to
// five edits — a token deleted or doubled, an operator swapped, a type annotation changed, a huge
// constant, deep nesting, a unicode identifier, random characters, the file cut off mid-way, or a
// generated statement spliced into a kernel body.

import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { expr } from "./kernel-grammar";

const examplesDir = path.resolve(__dirname, "../../examples");
export const EXAMPLES: { name: string; text: string }[] = readdirSync(examplesDir)
  .filter((f) => f.endsWith(".kernel.ts"))
  .sort()
  .map((f) => ({ name: f, text: readFileSync(path.join(examplesDir, f), "utf8") }));

const OPERATORS = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "===", "!==", "&&", "||", "&", "|", "^", "<<", ">>", "=", "+=", "**", "?", ":", "=>", ".", ",", ";"];
const TYPES = ["Ptr<f32>", "Ptr<i32>", "Ptr<u32>", "Ptr<f16>", "f32", "i32", "u32", "f16", "constexpr", "Ptr<f64>", "number", "Ptr<>", "Ptr<Ptr<f32>>", "any"];
const HUGE = ["1e308", "1e-320", "99999999999999999999999", "4294967296", "2147483648", "-2147483649", "0x1FFFFFFFFFFFF", "1.7976931348623157e309", "NaN", "-0", "0", "2**31"];
const UNICODE_NAMES = ["π", "变量", "𝑥", "ünïcödé", "a\u200db", "\u0301a", "😀", "x\u2028y", "ℵ0", "_\uFEFF"];
const JUNK = ["\0", "\uFFFF", "\uD800", "\uDC00", "\r", "\r\n", "\t", "\\", "`", "'", '"', "/*", "*/", "//", "{", "}", "(", ")", "[", "]", "<", ">", "@", "#", "\u00a0", "é", "💥"];

export type Mutation =
  | { kind: "delete-token"; at: number }
  | { kind: "duplicate-token"; at: number }
  | { kind: "swap-operator"; at: number; to: number }
  | { kind: "change-type"; at: number; to: number }
  | { kind: "huge-constant"; at: number; to: number }
  | { kind: "deep-nesting"; at: number; depth: number; style: number }
  | { kind: "unicode-identifier"; at: number; to: number }
  | { kind: "random-chars"; at: number; chars: string }
  | { kind: "junk"; at: number; to: number }
  | { kind: "truncate"; at: number }
  | { kind: "splice-statement"; at: number; statement: string };

const at = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const index = fc.nat({ max: 1000 });

const statementText: fc.Arbitrary<string> = fc.gen().map((g) => {
  const scope = { pointers: ["x_ptr", "output_ptr", "a_ptr"], scalars: ["n_elements", "M", "K"], constexprs: ["BLOCK_SIZE", "BLOCK_M"], locals: ["offsets", "mask", "x"], lets: ["acc"] };
  return `const z${g(fc.nat, 99)} = ${expr(g, scope, 0)};`;
});

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("delete-token" as const), at }),
  fc.record({ kind: fc.constant("duplicate-token" as const), at }),
  fc.record({ kind: fc.constant("swap-operator" as const), at, to: index }),
  fc.record({ kind: fc.constant("change-type" as const), at, to: index }),
  fc.record({ kind: fc.constant("huge-constant" as const), at, to: index }),
  fc.record({ kind: fc.constant("deep-nesting" as const), at, depth: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 50, max: 3000 })), style: fc.nat({ max: 5 }) }),
  fc.record({ kind: fc.constant("unicode-identifier" as const), at, to: index }),
  fc.record({ kind: fc.constant("random-chars" as const), at, chars: fc.string({ unit: "binary", maxLength: 8 }) }),
  fc.record({ kind: fc.constant("junk" as const), at, to: index }),
  fc.record({ kind: fc.constant("truncate" as const), at }),
  fc.record({ kind: fc.constant("splice-statement" as const), at, statement: statementText }),
);

interface Token {
  start: number;
  end: number;
  text: string;
  kind: "word" | "number" | "operator" | "other";
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  const re = /([A-Za-z_$][\w$]*)|(\d[\d_.]*(?:[eE][-+]?\d+)?)|(===|!==|<=|>=|&&|\|\||<<|>>|\+=|-=|=>|\*\*|[-+*/%<>=!&|^~?:.,;])|(\S)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push({ start: m.index, end: m.index + m[0].length, text: m[0], kind: m[1] ? "word" : m[2] ? "number" : m[3] ? "operator" : "other" });
  }
  return out;
}

function nth<T>(list: readonly T[], fraction: number): T | undefined {
  return list.length === 0 ? undefined : list[Math.min(list.length - 1, Math.floor(fraction * list.length))];
}

function replace(text: string, t: Token, by: string): string {
  return text.slice(0, t.start) + by + text.slice(t.end);
}

export function applyMutation(text: string, m: Mutation): string {
  const all = tokens(text);
  const offset = Math.floor(m.at * (text.length + 1));
  switch (m.kind) {
    case "delete-token": {
      const t = nth(all, m.at);
      return t ? replace(text, t, "") : text;
    }
    case "duplicate-token": {
      const t = nth(all, m.at);
      return t ? replace(text, t, `${t.text} ${t.text}`) : text;
    }
    case "swap-operator": {
      const t = nth(all.filter((x) => x.kind === "operator"), m.at);
      return t ? replace(text, t, OPERATORS[m.to % OPERATORS.length]) : text;
    }
    case "change-type": {
      const annotations = [...text.matchAll(/:\s*(Ptr<\w+>|f32|i32|u32|f16|constexpr)\b/g)];
      const a = nth(annotations, m.at);
      if (!a || a.index === undefined) return text;
      const start = a.index + a[0].indexOf(a[1]);
      return text.slice(0, start) + TYPES[m.to % TYPES.length] + text.slice(start + a[1].length);
    }
    case "huge-constant": {
      const t = nth(all.filter((x) => x.kind === "number"), m.at);
      return t ? replace(text, t, HUGE[m.to % HUGE.length]) : text;
    }
    case "deep-nesting": {
      const t = nth(all.filter((x) => x.kind === "word" || x.kind === "number"), m.at);
      if (!t) return text;
      const d = m.depth;
      const wrapped = [
        () => `${"(".repeat(d)}${t.text}${")".repeat(d)}`,
        () => `${"-".repeat(1)}${"(-".repeat(d)}${t.text}${")".repeat(d)}`,
        () => Array.from({ length: d + 1 }, () => t.text).join(" + "),
        () => `${"tl.abs(".repeat(d)}${t.text}${")".repeat(d)}`,
        () => `${"!".repeat(d)}${t.text}`,
        () => `${"(".repeat(d)}${t.text}`, // unbalanced
      ][m.style % 6]();
      return replace(text, t, wrapped);
    }
    case "unicode-identifier": {
      const words = all.filter((x) => x.kind === "word");
      const t = nth(words, m.at);
      if (!t) return text;
      const to = UNICODE_NAMES[m.to % UNICODE_NAMES.length];
      // Every occurrence, so the program can still be consistent.
      return text.replace(new RegExp(`\\b${t.text.replace(/\$/g, "\\$")}\\b`, "g"), to);
    }
    case "random-chars":
      return text.slice(0, offset) + m.chars + text.slice(offset);
    case "junk":
      return text.slice(0, offset) + JUNK[m.to % JUNK.length] + text.slice(offset);
    case "truncate":
      return text.slice(0, offset);
    case "splice-statement": {
      const bodies = [...text.matchAll(/\) \{\n|\) => \{\n/g)];
      const b = nth(bodies, m.at);
      if (!b || b.index === undefined) return text;
      const start = b.index + b[0].length;
      return `${text.slice(0, start)}  ${m.statement}\n${text.slice(start)}`;
    }
  }
}

/** An example file with one to five mutations: `{ example, mutations, text }`. */
export const mutatedExamples: fc.Arbitrary<{ example: string; mutations: Mutation[]; text: string }> = fc
  .record({ example: fc.nat({ max: EXAMPLES.length - 1 }), mutations: fc.array(mutation, { minLength: 1, maxLength: 5 }) })
  .map(({ example, mutations }) => {
    let text = EXAMPLES[example].text;
    for (const m of mutations) text = applyMutation(text, m);
    return { example: EXAMPLES[example].name, mutations, text };
  });
