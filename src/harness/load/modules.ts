// A kernel file and the files it imports by relative path (`./common`, `../shapes.js`), each read
// through the host (disk in Node, the editor in a browser) and turned into CommonJS by
// TypeScript's transpiler. Only what the transpiled code still requires is followed: type-only
// imports are gone by then. Bare imports other than "kernel-lab" are left to the host at run time
// (Node resolves them from the file; a browser cannot).

import * as path from "node:path";
import ts from "typescript";
import { LineMap, type LocatedDiagnostic } from "../../diagnostics/position";
import { host } from "../../runtime/host";
import { RunCodes } from "../codes";

export interface SourceModule {
  /** CommonJS code (empty for JSON). */
  code: string;
  /** Each relative specifier the code requires → the file it resolved to. */
  imports: Map<string, string>;
  /** A `.json` file's value. */
  json?: unknown;
}

const COMPILER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  isolatedModules: true,
  sourceMap: false,
};

/** The entry file and everything it imports by relative path, or why they can't be loaded (diagnostics with absolute paths). */
export async function collectModules(
  entry: string,
  entryText?: string,
): Promise<{ modules: Map<string, SourceModule> } | { diagnostics: LocatedDiagnostic[] }> {
  const modules = new Map<string, SourceModule>();
  const diagnostics: LocatedDiagnostic[] = [];
  const pending: { file: string; text?: string }[] = [{ file: entry, text: entryText }];
  while (pending.length > 0) {
    const { file, text: given } = pending.shift()!;
    if (modules.has(file)) continue;
    let text: string;
    try {
      text = given ?? (await host.readText(file));
    } catch (err) {
      diagnostics.push(at(file, "", 0, 0, `Cannot read the file: ${(err as Error).message}`));
      continue;
    }
    if (file.endsWith(".json")) {
      try {
        modules.set(file, { code: "", imports: new Map(), json: JSON.parse(text) });
      } catch (err) {
        diagnostics.push(at(file, text, 0, 0, `${(err as Error).message}. The file could not be loaded; fix this JSON.`));
      }
      continue;
    }
    const output = ts.transpileModule(text, { fileName: file, reportDiagnostics: true, compilerOptions: COMPILER_OPTIONS });
    const errors = (output.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0) {
      for (const d of errors) {
        const message = ts.flattenDiagnosticMessageText(d.messageText, " ").replace(/\.$/, "");
        diagnostics.push(at(file, text, d.start ?? 0, d.length ?? 1, `${message}. The file could not be loaded; fix this syntax error.`));
      }
      continue;
    }
    const imports = new Map<string, string>();
    const written = ts.preProcessFile(text, true, true).importedFiles;
    for (const required of ts.preProcessFile(output.outputText, true, true).importedFiles) {
      const specifier = required.fileName;
      if (!isRelative(specifier) || imports.has(specifier)) continue;
      const resolved = await resolveRelative(file, specifier);
      if (resolved === undefined) {
        const where = written.find((w) => w.fileName === specifier);
        diagnostics.push(
          at(file, text, where?.pos ?? 0, where ? where.end - where.pos : 1, `Could not resolve "${specifier}" (no such file next to ${path.basename(file)}). Fix the import's path; a kernel file may import "kernel-lab" and files by relative path.`),
        );
        continue;
      }
      imports.set(specifier, resolved.file);
      pending.push(resolved);
    }
    modules.set(file, { code: output.outputText, imports });
  }
  return diagnostics.length > 0 ? { diagnostics } : { modules };
}

function isRelative(specifier: string): boolean {
  return specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../");
}

/** The first of TypeScript's candidates for a relative import that can be read, with its text. */
async function resolveRelative(from: string, specifier: string): Promise<{ file: string; text: string } | undefined> {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(?:js|mjs|cjs)$/, "");
  const candidates = [
    // `./x.js` names `./x.ts` in TypeScript's ES module style.
    ...(stem !== base ? [`${stem}.ts`, `${stem}.tsx`] : []),
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.js`,
    path.join(base, "index.ts"),
    path.join(base, "index.js"),
  ];
  for (const file of candidates) {
    if (file.endsWith(".d.ts")) continue;
    try {
      return { file, text: await host.readText(file) };
    } catch {
      // the next candidate
    }
  }
  return undefined;
}

function at(file: string, text: string, start: number, length: number, message: string): LocatedDiagnostic {
  const map = new LineMap(text);
  const a = map.at(start);
  const b = map.at(start + Math.max(1, length));
  return { file, line: a.line, column: a.column, endLine: b.line, endColumn: b.column, severity: "error", code: RunCodes.bundleFailed, message };
}
