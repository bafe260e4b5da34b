// A kernel's calls to @triton.jit functions of another module (`tle.program_id(0)` with FlagGems'
// `from flag_gems.utils import triton_lang_extension as tle`, `from mod import helper`): the
// module's text comes with the run (PythonFile.modules), and each function called is lowered into
// the kernel's TypeScript file under a name of its module's (`xmod_helpers_lang__program_id`), with
// the helpers it calls in turn. Its pieces are mapped past the end of the kernel's file (each
// module at a base offset of its own), so a diagnostic inside it is told apart and reported at the
// kernel file's call with the helper's file, line and column in front of the message.

import type { Diagnostic, Span } from "../diagnostics/diagnostic";
import { LineMap } from "../diagnostics/position";
import { absoluteModule, helpersOf, type PythonFile, type PythonKernel } from "./module";

export interface ExternalFile {
  file: PythonFile;
  /** Where its offsets start in the combined range the source map gives. */
  base: number;
  /** The names of its @triton.jit functions in the TypeScript file start with this. */
  prefix: string;
  /** Its dotted name, as the kernel's file imports it. */
  module: string;
  /** The call in the kernel's own file that led to it. */
  site: Span;
  lines: LineMap;
}

export interface ExternalFunction {
  external: ExternalFile;
  kernel: PythonKernel;
}

export class Externals {
  readonly files: ExternalFile[] = [];
  /** Functions to lower still; each is queued once. */
  readonly queue: ExternalFunction[] = [];
  private readonly queued = new Set<string>();
  private next: number;

  constructor(
    readonly main: PythonFile,
    /** The modules the run sent, by dotted name (the kernel file's, which holds them for all). */
    readonly modules: ReadonlyMap<string, PythonFile>,
  ) {
    this.next = main.text.length + 1;
  }

  /**
   * The @triton.jit function `name` of module `module` as `from` imports it (a relative name,
   * `..utils`, against `from`'s package), if the run sent that module and it has one, or imports one
   * under that name (a package's __init__.py that does `from .lang import program_id`).
   */
  find(module: string, name: string, from: PythonFile = this.main): { file: PythonFile; kernel: PythonKernel } | undefined {
    let absolute = absoluteModule(from, module);
    for (let hops = 0; absolute !== undefined && hops < 8; hops++) {
      const file = this.modules.get(absolute);
      if (!file) return undefined;
      const kernel = file.kernels.find((k) => k.name === name);
      if (kernel) return { file, kernel };
      const imported = file.imports.imported.get(name);
      if (!imported) return undefined;
      absolute = absoluteModule(file, imported.module);
      name = imported.name;
    }
    return undefined;
  }

  /** Queues `kernel` of `file` (and the helpers of its file it calls); its name in the TypeScript file. */
  use(file: PythonFile, kernel: PythonKernel, site: Span): string {
    const external = this.fileOf(file, site);
    for (const k of [kernel, ...helpersOf(file, kernel)]) {
      const key = `${file.fileName}\0${k.name}`;
      if (this.queued.has(key)) continue;
      this.queued.add(key);
      this.queue.push({ external, kernel: k });
    }
    return `${external.prefix}${kernel.name}`;
  }

  private fileOf(file: PythonFile, site: Span): ExternalFile {
    let external = this.files.find((f) => f.file === file);
    if (!external) {
      const name = [...this.modules].find(([, f]) => f === file)?.[0] ?? `module${this.files.length}`;
      external = { file, module: name, base: this.next, prefix: `${name.replace(/\W/g, "_")}__`, site, lines: new LineMap(file.text) };
      this.next += file.text.length + 1;
      this.files.push(external);
    }
    return external;
  }

  /** The external file a combined offset falls in (undefined: the kernel's own file). */
  at(offset: number): ExternalFile | undefined {
    return this.files.find((f) => offset >= f.base && offset <= f.base + f.file.text.length);
  }

  /** A span of the combined range on the kernel's own file: a helper's own becomes the call that led to it. */
  toMain(span: Span): Span {
    return this.at(span.start)?.site ?? span;
  }

  /** A diagnostic at a combined span → at the kernel file's call, the helper's file:line:col in front. */
  relocate(diagnostic: Diagnostic): Diagnostic {
    // The TypeScript names of other modules' functions, in a message, as Python writes them (`pkg.mod.helper`).
    const d = this.files.reduce((m, f) => (m.message.includes(f.prefix) ? { ...m, message: m.message.split(f.prefix).join(`${f.module}.`) } : m), diagnostic);
    const external = this.at(d.span.start);
    if (external) return this.inFile(external, d, d.span.start - external.base);
    return d.related ? { ...d, related: d.related.map((r) => ({ ...r, span: this.toMain(r.span) })) } : d;
  }

  /** A diagnostic found while lowering `external` (its span in that file's own text). */
  inFile(external: ExternalFile, d: Diagnostic, offset = d.span.start): Diagnostic {
    const at = external.lines.at(offset);
    const { related: _related, ...rest } = d;
    return { ...rest, message: `${external.file.fileName}:${at.line}:${at.column}: ${d.message}`, span: external.site };
  }
}
