// The TypeScript front end's messages in Triton's Python spelling. A Python kernel is lowered to
// the TypeScript kernel language (lower.ts) and checked there, so a message that quotes the
// language (`tl.makeBlockPtr`, `tl.sum's keepDims`, `true`, `e.g. [BLOCK_M, BLOCK_N]`,
// `{ boundaryCheck: [0, 1] }`, `for (const i of …) { … }`, `===`, `tl.cast(x, "i32")`) is said as the Python file
// writes it (`tl.make_block_ptr`, `keep_dims`, `True`, `(BLOCK_M, BLOCK_N)`, `boundary_check=(0, 1)`,
// `for i in …:`, `==`, `x.to(tl.int32)`). Names the user wrote are left as they are: only the language's own words
// change. Types keep Kernel Lab's notation (`f32[BLOCK]`), as the inlay hints show them.

import { snakeCase, TRITON_DTYPES } from "./names";

/** `tl.programId` → `tl.program_id`: every `tl.` name, the only camelCase names a message quotes of the language. */
const TL_NAME = /\btl\.([a-z][A-Za-z0-9]*)/g;
/** `tl.sum's keepDims`, `the cast's bitcast`: an option of a call, by its keyword. */
const OPTION_OF = /\b((?:tl\.\w+|the cast|the call)'s )([a-z][A-Za-z0-9]*)/g;
/** `{ boundaryCheck: [0, 1] }` → `boundary_check=[0, 1]` (the list is a tuple below); `{ nRounds }` → `n_rounds=…`. */
const OPTIONS = /\{ ?([a-z][A-Za-z0-9]*): ([^{}]+?) ?\}/g;
const SHORTHAND = /\{ ?([a-z][A-Za-z0-9]*) ?\}/g;
/** `for (const i of tl.range(0, n)) { … }` → `for i in tl.range(0, n):`. */
const FOR_OF = /for \((?:const|let) (\w+) of (.+)\) \{ … \}/g;
/** A list written as an example or a keyword's value: a tuple in Python (a type's `f32[16, 16]` is not one). */
const LIST_EXAMPLE = /(e\.g\. |=)\[([^[\]]*)\]/g;

/** `tl.cast(x, "i32")` → `x.to(tl.int32)`. */
const CAST = /\btl\.cast\((\w+), "(\w+)"\)/g;

export function inPythonSpelling(message: string): string {
  return message
    .replace(CAST, (whole, value: string, dtype: string) => (TRITON_DTYPES[dtype] ? `${value}.to(tl.${TRITON_DTYPES[dtype]})` : whole))
    .replace(OPTIONS, (_, key: string, value: string) => `${snakeCase(key)}=${value}`)
    .replace(SHORTHAND, (_, key: string) => `${snakeCase(key)}=…`)
    .replace(FOR_OF, (_, name: string, range: string) => `for ${name} in ${range}:`)
    .replace(TL_NAME, (_, name: string) => `tl.${snakeCase(name)}`)
    .replace(OPTION_OF, (_, owner: string, option: string) => `${owner}${snakeCase(option)}`)
    .replace(LIST_EXAMPLE, (_, before: string, items: string) => `${before}(${items}${items.includes(",") ? "" : ","})`)
    .replace(/\ban array literal of\b|\ban array of\b/g, "a tuple of")
    .replace(/\bthe literal true or false\b/g, "the literal True or False")
    .replace(/=(true|false)\b/g, (_, v: string) => `=${v === "true" ? "True" : "False"}`)
    .replace(/ === /g, " == ")
    .replace(/ !== /g, " != ");
}
