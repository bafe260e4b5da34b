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
import type { Target } from "../../ir/target";
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

/** What a cache file holds (after its first line, the checksum of the rest). */
interface CacheFile {
  format: number;
  build: string;
  target: string;
  modules: Record<string, { text: string; kernels: Record<string, LaunchableKernel> }>;
}

export class OwnKernelCache {
  /** Per target (its stable JSON), then per module file. */
  private readonly targets = new Map<string, Map<string, ModuleKernels>>();
  /** Kernels this cache compiled, found neither in memory nor in its file (a warm start's stay at 0). */
  compiled = 0;

  /** `folder`: where the files go, undefined for memory only; `build`: the compiler build they are keyed by. */
  constructor(
    private readonly folder: string | undefined,
    private readonly build: string = COMPILER_BUILD,
  ) {}

  /** The kernel `name` of `module` for these argument types, constexprs and target: launchable, or why it does not compile. */
  kernel(module: OwnModule, name: string, types: Record<string, KernelArgType>, constexprs: Record<string, ConstexprValue>, target: Target): LaunchableKernel | string {
    const targetKey = stableJson(target);
    const known = this.moduleKernels(module, targetKey);
    const key = `${name}:${JSON.stringify(types)}:${JSON.stringify(constexprs)}`;
    const cached = known.kernels.get(key);
    if (cached !== undefined) return cached;
    known.compiler ??= compilerFor(module.file, module.text);
    const result = known.compiler.compile(name, types, constexprs, target);
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
    for (const [targetKey, modules] of this.targets) {
      const fresh = [...modules].filter(([, m]) => m.fresh);
      if (fresh.length === 0) continue;
      const file = this.fileFor(targetKey);
      // Another process may have written since: its other modules are kept, ours replace theirs.
      const stored = this.read(file, targetKey) ?? {};
      for (const [name, m] of fresh) {
        const kernels = Object.fromEntries([...m.kernels].filter((e): e is [string, LaunchableKernel] => typeof e[1] !== "string" && isPlainJson(e[1])));
        stored[name] = { text: m.text, kernels: stored[name]?.text === m.text ? { ...stored[name].kernels, ...kernels } : kernels };
        m.fresh = false;
      }
      const body = JSON.stringify({ format: FORMAT, build: this.build, target: targetKey, modules: stored } satisfies CacheFile);
      try {
        host.writeCacheText(file, `${hash64(body)}\n${body}`);
      } catch {
        // A cache folder that can't be written costs the next start its speed, nothing else.
      }
    }
  }

  private moduleKernels(module: OwnModule, targetKey: string): ModuleKernels {
    let modules = this.targets.get(targetKey);
    if (!modules) {
      modules = new Map();
      this.targets.set(targetKey, modules);
      const stored = this.folder ? this.read(this.fileFor(targetKey), targetKey) : undefined;
      for (const [file, m] of Object.entries(stored ?? {})) modules.set(file, { text: m.text, kernels: new Map(Object.entries(m.kernels)), fresh: false });
    }
    let known = modules.get(module.file);
    if (known?.text !== module.text) {
      known = { text: module.text, kernels: new Map(), fresh: false };
      modules.set(module.file, known);
    }
    return known;
  }

  private fileFor(targetKey: string): string {
    return path.join(this.folder ?? "", "python", `torch-kernels-${hash64(targetKey)}.json`);
  }

  /** A file's modules when it is whole and of this build and target; undefined for none, a damaged one or another's. */
  private read(file: string, targetKey: string): CacheFile["modules"] | undefined {
    try {
      const text = host.readCacheText(file);
      const newline = text?.indexOf("\n") ?? -1;
      if (!text || newline < 0) return undefined;
      const body = text.slice(newline + 1);
      if (text.slice(0, newline) !== hash64(body)) return undefined;
      const parsed = JSON.parse(body) as Partial<CacheFile>;
      if (parsed.format !== FORMAT || parsed.build !== this.build || parsed.target !== targetKey || !isModules(parsed.modules)) return undefined;
      return parsed.modules;
    } catch {
      return undefined;
    }
  }
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

/** The shape a launch relies on; an entry without it makes the whole file another's. */
function isModules(value: unknown): value is CacheFile["modules"] {
  if (!isObject(value)) return false;
  return Object.values(value).every((m) => isObject(m) && typeof m.text === "string" && isObject(m.kernels) && Object.values(m.kernels).every(isLaunchable));
}

function isLaunchable(value: unknown): value is LaunchableKernel {
  if (!isObject(value) || typeof value.name !== "string" || typeof value.wgsl !== "string" || !Array.isArray(value.params) || !isObject(value.abi)) return false;
  const abi = value.abi;
  return Array.isArray(abi.buffers) && Array.isArray(abi.scalars) && typeof abi.workgroupSize === "number" && (value.quiet === undefined || (isObject(value.quiet) && typeof value.quiet.wgsl === "string"));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
