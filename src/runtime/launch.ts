// Launching compiled kernels: the uniform words of codegen/abi.ts, the bind group, a dispatch of
// the folded grid. `launch()` is one launch (one submit, by default a wait for the GPU to finish);
// `recordLaunches()` prepares a sequence once and `run()`s it as one compute pass in one command
// buffer and one submit, the way a CUDA graph replays (bench/NOTES.md §11 has what each costs).
// Device errors come back as GpuError.

import { foldGrid, type KernelAbi } from "../codegen/abi";
import { debugBufferFor } from "./debug-buffer";
import { GpuError } from "./errors";
import { BufferUsage, type Gpu } from "./gpu";
import { getPipeline, type GpuPipeline, type KernelProgram } from "./pipelines";
import { assertNever } from "../ir/never";
import { roundF16 } from "../ir/f16";

export type Grid = [number, number, number];

export interface LaunchArgs {
  /** One storage buffer per pointer parameter, by parameter name. */
  buffers: Record<string, GPUBuffer>;
  /** One number per scalar parameter, by name; encoded as the ABI's f32/i32/u32 word. */
  scalars: Record<string, number>;
  /** The tl.devicePrint/tl.deviceAssert record buffer, for a kernel whose ABI has `debug` (else a scratch one is bound). */
  debug?: GPUBuffer;
}

/** Program ids are i32 in kernels, so a grid holds fewer than 2^31 programs. */
const MAX_PROGRAMS = 2 ** 31 - 1;

/**
 * Checks a grid of 1 to 3 axes (missing axes are 1) and returns it as [x, y, z].
 * Each axis must be an integer >= 1, and the programs must fit a folded dispatch.
 */
export function checkGrid(kernel: string, grid: readonly number[], maxPerDim: number): Grid {
  if (grid.length < 1 || grid.length > 3) {
    throw new GpuError("bad-launch", `The grid of '${kernel}' has ${grid.length} axes; give 1 to 3 numbers.`, kernel);
  }
  const full: Grid = [grid[0], grid[1] ?? 1, grid[2] ?? 1];
  full.forEach((n, axis) => {
    if (!Number.isInteger(n) || n < 1) {
      throw new GpuError(
        "bad-launch",
        `The grid of '${kernel}' is [${grid.join(", ")}]: axis ${axis} is ${n}, but every axis must be a whole number >= 1 ` +
          `(a grid of 0 programs launches nothing; check the grid function for the size).`,
        kernel,
      );
    }
  });
  const total = full[0] * full[1] * full[2];
  if (total > MAX_PROGRAMS || total > maxPerDim ** 3) {
    throw new GpuError(
      "bad-launch",
      `The grid of '${kernel}' is [${full.join(", ")}] = ${total} programs, more than a launch can hold ` +
        `(${Math.min(MAX_PROGRAMS, maxPerDim ** 3)}). Give each program more work.`,
      kernel,
    );
  }
  return full;
}

/** The uniform buffer's words: logical grid in 0..2, each scalar at its word. */
export function encodeUniforms(abi: KernelAbi, grid: Grid, scalars: Record<string, number>): Uint32Array {
  const words = new Uint32Array(Math.max(4, abi.uniformWords));
  const asF32 = new Float32Array(words.buffer);
  const asI32 = new Int32Array(words.buffer);
  words.set(grid, 0);
  for (const s of abi.scalars) {
    const v = scalars[s.name];
    const bad = (why: string) =>
      new GpuError("bad-launch", `Scalar '${s.name}' of kernel '${abi.kernel}' is ${v}: ${why}.`, abi.kernel);
    if (typeof v !== "number") throw bad(`give a number (${s.dtype})`);
    switch (s.dtype) {
      case "f32":
        asF32[s.word] = s.half ? roundF16(v) : v;
        break;
      case "i32":
        if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw bad("an i32 must be a whole number in [-2^31, 2^31)");
        asI32[s.word] = v;
        break;
      case "u32":
        if (!Number.isInteger(v) || v < 0 || v >= 2 ** 32) throw bad("a u32 must be a whole number in [0, 2^32)");
        words[s.word] = v;
        break;
      default:
        assertNever(s.dtype);
    }
  }
  return words;
}


/** Everything one dispatch needs, reusable across repetitions (timing.ts). */
export interface PreparedLaunch {
  kernel: GpuPipeline;
  bindGroup: GPUBindGroup;
  uniforms: GPUBuffer;
  /** Workgroups dispatched: the grid folded to the adapter's per-dimension limit. */
  dispatch: Grid;
}

export function prepareLaunch(gpu: Gpu, kernel: GpuPipeline, grid: Grid, args: LaunchArgs): PreparedLaunch {
  const { abi } = kernel;
  const missing = abi.buffers.filter((b) => !args.buffers[b.name]).map((b) => b.name);
  if (missing.length > 0) {
    throw new GpuError("bad-launch", `Kernel '${abi.kernel}' needs a buffer for ${missing.map((m) => `'${m}'`).join(", ")}.`, abi.kernel);
  }
  // WebGPU forbids one buffer in two bindings when either is written (Triton allows aliasing).
  for (const [i, x] of abi.buffers.entries()) {
    for (const y of abi.buffers.slice(i + 1)) {
      if (args.buffers[x.name] === args.buffers[y.name] && (x.access === "read_write" || y.access === "read_write")) {
        throw new GpuError(
          "bad-launch",
          `Kernel '${abi.kernel}': '${x.name}' and '${y.name}' are the same buffer, and one is written; ` +
            `WebGPU does not allow a written buffer to be bound twice. Give each its own array.`,
          abi.kernel,
        );
      }
    }
  }
  const words = encodeUniforms(abi, grid, args.scalars);
  const uniforms = gpu.device.createBuffer({
    label: `${abi.kernel} uniforms`,
    size: words.byteLength,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    mappedAtCreation: true,
  });
  new Uint32Array(uniforms.getMappedRange()).set(words);
  uniforms.unmap();
  const bindGroup = gpu.device.createBindGroup({
    label: abi.kernel,
    layout: kernel.bindGroupLayout,
    entries: [
      { binding: 0, resource: { buffer: uniforms } },
      ...abi.buffers.map((b) => ({ binding: b.binding, resource: { buffer: args.buffers[b.name] } })),
      ...(abi.debug ? [{ binding: abi.debug.binding, resource: { buffer: debugBufferFor(gpu, abi.kernel, abi.debug, args.debug) } }] : []),
    ],
  });
  return { kernel, bindGroup, uniforms, dispatch: foldGrid(grid, gpu.limits.maxComputeWorkgroupsPerDimension) };
}

/** Records one dispatch into an open compute pass. */
export function encodeDispatch(pass: GPUComputePassEncoder, prepared: PreparedLaunch): void {
  pass.setPipeline(prepared.kernel.pipeline);
  pass.setBindGroup(0, prepared.bindGroup);
  pass.dispatchWorkgroups(...prepared.dispatch);
}

export interface LaunchOptions {
  /**
   * Wait until the GPU has finished the work (default true). With false the call returns once
   * the work is submitted and Dawn has validated it: the queue runs in order, so a later launch or
   * `readBuffer` still sees its results, and no CPU–GPU round trip is spent per launch. A fault
   * while it runs (device loss) is then reported by a later call.
   */
  wait?: boolean;
}

/** Compiles (or finds in the cache) `program`, launches it on `grid` and waits until it has finished. */
export async function launch(gpu: Gpu, program: KernelProgram, grid: readonly number[], args: LaunchArgs, opts: LaunchOptions = {}): Promise<void> {
  const full = checkGrid(program.abi.kernel, grid, gpu.limits.maxComputeWorkgroupsPerDimension);
  const kernel = await getPipeline(gpu, program);
  // The wait starts inside the scopes and is awaited after them: the scopes' pops and the wait
  // resolve together, one round of Dawn's event processing instead of two.
  const done = await gpu.scoped(program.abi.kernel, () => {
    const prepared = reusedLaunch(gpu, kernel, full, args);
    const encoder = gpu.device.createCommandEncoder({ label: program.abi.kernel });
    const pass = encoder.beginComputePass({ label: program.abi.kernel });
    encodeDispatch(pass, prepared);
    pass.end();
    gpu.device.queue.submit([encoder.finish()]);
    return { wait: opts.wait ?? true ? gpu.device.queue.onSubmittedWorkDone() : undefined };
  });
  await settle(gpu, done.wait);
}

/** Awaits the GPU's `wait` (when there is one); a lost device or uncaptured error is thrown as GpuError. */
async function settle(gpu: Gpu, wait: Promise<void> | undefined): Promise<void> {
  if (!wait) return;
  try {
    await gpu.idle(wait);
  } catch (err) {
    gpu.throwIfFailed();
    throw err;
  }
  gpu.throwIfFailed();
}

/** One launch of a sequence. */
export interface LaunchStep {
  program: KernelProgram;
  grid: readonly number[];
  args: LaunchArgs;
}

/**
 * Launches recorded once, run as often as needed: every step's pipeline, bind group and uniform
 * buffer are made by `recordLaunches`, and each `run()` only encodes the dispatches — all of them
 * in one compute pass (WebGPU orders dispatches in a pass and makes each one's writes visible to
 * the next), one command buffer, one submit, one set of error scopes. Like a CUDA graph, a
 * sequence keeps the buffers and scalars it was recorded with: to run it on new data, write the
 * data into those buffers. Steps with the same pipeline, buffers and scalars share one bind group.
 */
export class LaunchSequence {
  private destroyed = false;

  constructor(
    private readonly gpu: Gpu,
    private readonly steps: PreparedLaunch[],
    private readonly owned: GPUBuffer[],
    readonly label: string,
  ) {}

  get length(): number {
    return this.steps.length;
  }

  /** Submits every step in order; by default waits until the GPU has finished them. */
  async run(opts: LaunchOptions = {}): Promise<void> {
    if (this.destroyed) throw new GpuError("bad-launch", `The launch sequence '${this.label}' was destroyed.`, this.label);
    const done = await this.gpu.scoped(this.label, () => {
      const device = this.gpu.device;
      const encoder = device.createCommandEncoder({ label: this.label });
      const pass = encoder.beginComputePass({ label: this.label });
      let pipeline: GPUComputePipeline | undefined;
      let bindGroup: GPUBindGroup | undefined;
      for (const step of this.steps) {
        if (step.kernel.pipeline !== pipeline) pass.setPipeline((pipeline = step.kernel.pipeline));
        if (step.bindGroup !== bindGroup) pass.setBindGroup(0, (bindGroup = step.bindGroup));
        pass.dispatchWorkgroups(...step.dispatch);
      }
      pass.end();
      device.queue.submit([encoder.finish()]);
      return { wait: opts.wait ?? true ? device.queue.onSubmittedWorkDone() : undefined };
    });
    await settle(this.gpu, done.wait);
  }

  /** Frees the uniform buffers (the kernels' buffers stay the caller's). */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.owned) b.destroy();
  }
}

/** Compiles (or finds) every step's pipeline and prepares the steps for `LaunchSequence.run`. */
export async function recordLaunches(gpu: Gpu, steps: readonly LaunchStep[], label = "launches"): Promise<LaunchSequence> {
  const kernels = await Promise.all(steps.map((s) => getPipeline(gpu, s.program)));
  const grids = steps.map((s) => checkGrid(s.program.abi.kernel, s.grid, gpu.limits.maxComputeWorkgroupsPerDimension));
  const shared = new Map<string, PreparedLaunch>();
  const prepared: PreparedLaunch[] = [];
  const made = () => [...shared.values()].map((p) => p.uniforms);
  await gpu.scoped(label, () => {
    steps.forEach((step, i) => {
      const kernel = kernels[i];
      const words = encodeUniforms(kernel.abi, grids[i], step.args.scalars);
      const key = `${kernel.key}|${kernel.abi.buffers.map((b) => bufferId(step.args.buffers[b.name])).join(",")}|${words.join(",")}`;
      let p = shared.get(key);
      if (!p) shared.set(key, (p = prepareLaunch(gpu, kernel, grids[i], step.args)));
      prepared.push(p);
    });
  }).catch((err: unknown) => {
    for (const b of made()) b.destroy();
    throw err;
  });
  return new LaunchSequence(gpu, prepared, made(), label);
}

/** Launches `steps` in order in one submit (record, run, destroy); by default waits for them. */
export async function launchSequence(gpu: Gpu, steps: readonly LaunchStep[], opts: LaunchOptions = {}): Promise<void> {
  const sequence = await recordLaunches(gpu, steps);
  try {
    await sequence.run(opts);
  } finally {
    // Safe before the GPU finished: WebGPU defers the free until submitted work is done.
    sequence.destroy();
  }
}

const bufferIds = new WeakMap<GPUBuffer, number>();
let nextBufferId = 1;

function bufferId(buffer: GPUBuffer | undefined): number {
  if (!buffer) return 0;
  let id = bufferIds.get(buffer);
  if (id === undefined) bufferIds.set(buffer, (id = nextBufferId++));
  return id;
}

/**
 * The last launch of each pipeline, kept for the next one: launched again on the same buffers
 * (by identity), a kernel reuses its bind group and uniform buffer, whose words are rewritten
 * when the grid or a scalar changed. Other buffers make a new bind group. A destroyed buffer is
 * never bound by mistake: a new buffer is a new object, and passing the destroyed one again fails
 * as it would with a fresh bind group. Holds at most one set of buffers per pipeline.
 */
const lastLaunches = new WeakMap<GpuPipeline, { buffers: GPUBuffer[]; words: Uint32Array; prepared: PreparedLaunch }>();

function reusedLaunch(gpu: Gpu, kernel: GpuPipeline, grid: Grid, args: LaunchArgs): PreparedLaunch {
  const buffers = [...kernel.abi.buffers.map((b) => args.buffers[b.name]), ...(args.debug ? [args.debug] : [])];
  const words = encodeUniforms(kernel.abi, grid, args.scalars);
  const last = lastLaunches.get(kernel);
  if (last && sameItems(last.buffers, buffers)) {
    if (!sameItems(last.words, words)) {
      gpu.device.queue.writeBuffer(last.prepared.uniforms, 0, words);
      last.words = words;
      last.prepared.dispatch = foldGrid(grid, gpu.limits.maxComputeWorkgroupsPerDimension);
    }
    return last.prepared;
  }
  const prepared = prepareLaunch(gpu, kernel, grid, args);
  last?.prepared.uniforms.destroy();
  lastLaunches.set(kernel, { buffers, words, prepared });
  return prepared;
}

function sameItems<T>(a: ArrayLike<T>, b: ArrayLike<T>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
