// Kernel Lab's own kernels (torch's ops on GPU tensors: lib/torch/_gpu_kernels.py, _gpu_nn.py) as
// a GPU launch needs them, compiled once per compiler build rather than once per process. Reading
// the module with the Python front end and compiling the four kernels tutorial 01 uses took ~0.2 s
// of CPU at every start (bench/NOTES.md §27). They launch as compiled (no bounds-checked variant,
// never interpreted on the GPU path), so only what a launch reads is kept — name, parameters, WGSL,
// ABI, the quiet variant — not the IR or the facts, which serve the interpreter and the checks.
//
// Kept in memory for the process, and (Node, a bundled build) in one cache file per target: a
// file's kernels are used only when its compiler build, target, module file name and the module's
// exact text all match and its checksum holds; anything else (another build, an edited module, a
// damaged or foreign file) is ignored and the file replaced at the next write. Run from the sources
// (no build to key by), in a browser (no disk; the worker keeps Python and this memory), or with
// KERNEL_LAB_PYODIDE_SNAPSHOT=off (every start from scratch), nothing is read or written.

import * as path from "node:path";
import type { CompiledKernel, LaunchableKernel } from "../../compile";
import { formatDiagnostic, locate } from "../../diagnostics/position";
import type { CodegenOptions, Target } from "../../ir/target";
import { hash64 } from "../../runtime/hash";
import { host } from "../../runtime/host";
import { COMPILER_BUILD } from "../autotune/compiler-build";
import { cacheDir } from "../cache-location";
import { compilerFor, type ConstexprValue, type KernelArgType, type PythonKernelCompiler } from "./kernel-compiler";

/** Bumped when the file's layout or what an entry holds changes. */
const FORMAT = 1;

export interface OwnModule {
  file: string;
  text: string;
  /** Its dotted name (what its relative imports resolve against). */
  name?: string;
}

/** A module's kernels as compiled for one target: the launchable part, or the formatted errors. */
interface ModuleKernels {
  text: string;
  kernels: Map<string, LaunchableKernel | string>;
  /** Made on the first kernel the cache lacks: parsing the module is what a warm start skips. */
  compiler?: PythonKernelCompiler;
  /** Compiled here since the file was read, not yet written. */
  fresh: boolean;
}

/**
 * A cache file as read: its header checked (format, build, target, each module's text), its kernels'
 * lines indexed by module and key but each checked and parsed only when asked for, so a start that
 * launches four of the file's fifty kernels reads four. A line: `checksum \t [file, key] \t kernel`,
 * the checksum over the rest of the line; the header's likewise over its JSON.
 */
interface StoredKernels {
  texts: Record<string, string>;
  lines: Map<string, string>;
}

interface Header {
  format: number;
  build: string;
  target: string;
  /** Module file → its exact text. */
  modules: Record<string, string>;
}

/** Per target: the file's kernels (read on first use) and the process's. */
interface TargetKernels {
  stored: StoredKernels | undefined;
  modules: Map<string, ModuleKernels>;
}

export class OwnKernelCache {
  /** Per target, by its stable JSON. */
  private readonly targets = new Map<string, TargetKernels>();
  /** Kernels this cache compiled, found neither in memory nor in its file (a warm start's stay at 0). */
  compiled = 0;

  /** `folder`: where the files go, undefined for memory only; `build`: the compiler build they are keyed by. */
  constructor(
    private readonly folder: string | undefined,
    private readonly build: string = COMPILER_BUILD,
  ) {}

  /** The kernel `name` of `module` for these argument types, constexprs, target and code generator's options: launchable, or why it does not compile. */
  kernel(module: OwnModule, name: string, types: Record<string, KernelArgType>, constexprs: Record<string, ConstexprValue>, target: Target, options: CodegenOptions = {}): LaunchableKernel | string {
    const targetKey = stableJson(target);
    const { stored, known } = this.moduleKernels(module, targetKey);
    const key = `${name}:${JSON.stringify(types)}:${JSON.stringify(constexprs)}${Object.keys(options).length > 0 ? `:${stableJson(options)}` : ""}`;
    const cached = known.kernels.get(key) ?? (stored?.texts[module.file] === module.text ? storedKernel(stored, module.file, key) : undefined);
    if (cached !== undefined) {
      known.kernels.set(key, cached);
      return cached;
    }
    known.compiler ??= compilerFor(module.file, module.text, module.name);
    const result = known.compiler.compile(name, types, constexprs, target, {}, options);
    this.compiled++;
    const errors = locate(module.file, module.text, result.diagnostics).filter((d) => d.severity === "error");
    const kernel = result.kernel && errors.length === 0 ? launchable(result.kernel) : errors.map((d) => formatDiagnostic(d, module.text)).join("\n") || `${name} did not compile`;
    known.kernels.set(key, kernel);
    if (typeof kernel !== "string") known.fresh = true;
    return kernel;
  }

  /** Writes each target's file where kernels were compiled since it was read (a run's end). */
  save(): void {
    if (!this.folder) return;
    for (const [targetKey, { modules }] of this.targets) {
      const fresh = [...modules].filter(([, m]) => m.fresh);
      if (fresh.length === 0) continue;
      const file = this.fileFor(targetKey);
      // Another process may have written since: its kernels are kept where its module's text is ours too.
      const stored = this.read(file, targetKey);
      const texts = { ...stored?.texts };
      for (const [name, m] of fresh) texts[name] = m.text;
      const lines = new Map<string, string>();
      for (const [id, line] of stored?.lines ?? []) {
        const [name] = JSON.parse(id) as [string, string];
        if (texts[name] === stored?.texts[name] && checked(line) !== undefined) lines.set(id, line);
      }
      for (const [name, m] of fresh) {
        for (const [key, kernel] of m.kernels) if (typeof kernel !== "string" && isPlainJson(kernel)) lines.set(JSON.stringify([name, key]), withChecksum(`${JSON.stringify([name, key])}\t${JSON.stringify(kernel)}`));
        m.fresh = false;
      }
      const header = JSON.stringify({ format: FORMAT, build: this.build, target: targetKey, modules: texts } satisfies Header);
      try {
        host.writeCacheText(file, [withChecksum(header), ...lines.values()].join("\n") + "\n");
      } catch {
        // A cache folder that can't be written costs the next start its speed, nothing else.
      }
    }
  }

  private moduleKernels(module: OwnModule, targetKey: string): { stored: StoredKernels | undefined; known: ModuleKernels } {
    let target = this.targets.get(targetKey);
    if (!target) {
      target = { stored: this.folder ? this.read(this.fileFor(targetKey), targetKey) : undefined, modules: new Map() };
      this.targets.set(targetKey, target);
    }
    let known = target.modules.get(module.file);
    if (known?.text !== module.text) {
      known = { text: module.text, kernels: new Map(), fresh: false };
      target.modules.set(module.file, known);
    }
    return { stored: target.stored, known };
  }

  private fileFor(targetKey: string): string {
    return path.join(this.folder ?? "", "python", `torch-kernels-${hash64(targetKey)}.txt`);
  }

  /** A file's module texts and kernel lines when its header is whole and of this build and target; undefined for none, a damaged one or another's. */
  private read(file: string, targetKey: string): StoredKernels | undefined {
    try {
      const lines = (host.readCacheText(file) ?? "").split("\n");
      const header = checked(lines[0]);
      if (header === undefined) return undefined;
      const parsed = JSON.parse(header) as Partial<Header>;
      if (parsed.format !== FORMAT || parsed.build !== this.build || parsed.target !== targetKey || !isObject(parsed.modules)) return undefined;
      const texts: Record<string, string> = {};
      for (const [name, text] of Object.entries(parsed.modules)) if (typeof text === "string") texts[name] = text;
      const index = new Map<string, string>();
      for (const line of lines.slice(1)) {
        const first = line.indexOf("\t");
        const second = line.indexOf("\t", first + 1);
        if (first > 0 && second > first) index.set(line.slice(first + 1, second), line);
      }
      return { texts, lines: index };
    } catch {
      return undefined;
    }
  }
}

/** A kernel of the file, when its line is whole and holds one. */
function storedKernel(stored: StoredKernels, file: string, key: string): LaunchableKernel | undefined {
  const line = stored.lines.get(JSON.stringify([file, key]));
  const rest = line === undefined ? undefined : checked(line);
  if (rest === undefined) return undefined;
  try {
    const kernel = JSON.parse(rest.slice(rest.indexOf("\t") + 1)) as unknown;
    return isLaunchable(kernel) ? kernel : undefined;
  } catch {
    return undefined;
  }
}

function withChecksum(text: string): string {
  return `${hash64(text)}\t${text}`;
}

/** What follows a line's checksum, when the checksum holds. */
function checked(line: string | undefined): string | undefined {
  const tab = line?.indexOf("\t") ?? -1;
  if (line === undefined || tab < 0) return undefined;
  const rest = line.slice(tab + 1);
  return line.slice(0, tab) === hash64(rest) ? rest : undefined;
}

let processCache: OwnKernelCache | undefined;

/** The process's cache (made on first use, when the host is set up): on disk where a bundled build runs on Node with the start-up caches on, else in memory. */
export function ownKernels(): OwnKernelCache {
  const onDisk = host.platform !== "browser" && COMPILER_BUILD !== "source" && host.env("KERNEL_LAB_PYODIDE_SNAPSHOT") !== "off";
  return (processCache ??= new OwnKernelCache(onDisk ? cacheDir() : undefined));
}

/** What a launch of Kernel Lab's own kernel reads: plain data, kept as is. */
function launchable(kernel: CompiledKernel): LaunchableKernel {
  return { name: kernel.name, params: kernel.params, wgsl: kernel.wgsl, abi: kernel.abi, ...(kernel.quiet ? { quiet: kernel.quiet } : {}) };
}

/** JSON with objects' keys sorted: the same text for the same target however it was built. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

/** Whether JSON keeps `value` as it is (no NaN or infinity, which it would write as null). */
function isPlainJson(value: unknown): boolean {
  try {
    JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === "number" && !Number.isFinite(v)) throw new Error("not JSON");
      return v;
    });
    return true;
  } catch {
    return false;
  }
}

/** The shape a launch relies on. */
function isLaunchable(value: unknown): value is LaunchableKernel {
  if (!isObject(value) || typeof value.name !== "string" || typeof value.wgsl !== "string" || !Array.isArray(value.params) || !isObject(value.abi)) return false;
  const abi = value.abi;
  return Array.isArray(abi.buffers) && Array.isArray(abi.scalars) && typeof abi.workgroupSize === "number" && (value.quiet === undefined || (isObject(value.quiet) && typeof value.quiet.wgsl === "string"));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
