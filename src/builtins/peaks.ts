// The hand-written programs that measure what a GPU can reach (harness/timing/peaks.ts): memory
// bandwidth is `builtins.copy` over a large buffer (docs/ENVIRONMENT.md §3: vec4 elements, one per
// invocation, is how WGSL reaches the card's bandwidth); the f32 arithmetic rate is this FMA
// chain; the cost of one launch is a copy so small it does nothing else.

import type { KernelAbi } from "../codegen/abi";
import type { BuiltinProgram } from "./index";

export const FMA_WORKGROUP_SIZE = 256;
/** Independent accumulators per invocation: enough to hide an FMA's latency on any GPU. */
const CHAINS = 8;
/** Trips of the loop; each does one FMA per chain. */
export const FMA_TRIPS = 512;
/** Floating-point operations of one invocation (an FMA is two). */
export const FLOPS_PER_INVOCATION = 2 * CHAINS * FMA_TRIPS;

/**
 * Each invocation runs CHAINS independent chains of `x = fma(x, m, c)` and stores their sum, so
 * nothing can be folded away: m and c are uniforms, the starting values come from the invocation's
 * id. The sum of the rounded chains does not matter; that it is stored does.
 */
export const FMA_PROBE: BuiltinProgram = {
  wgsl: `// The uniform words: 0..2 the logical grid, 4 the multiplier, 5 the addend.
@group(0) @binding(0) var<uniform> u: array<vec4<u32>, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(${FMA_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let grid = u[0].xyz;
  let program = wid.x + wid.y * nwg.x + wid.z * nwg.x * nwg.y;
  if (program >= grid.x * grid.y * grid.z) { return; }
  let m = bitcast<f32>(u[1].x);
  let c = bitcast<f32>(u[1].y);
  let i = program * ${FMA_WORKGROUP_SIZE}u + lid;
  let s = f32(i & 1023u) * 1e-3;
${Array.from({ length: CHAINS }, (_, k) => `  var x${k} = s + ${k}.0;`).join("\n")}
  for (var t = 0u; t < ${FMA_TRIPS}u; t++) {
${Array.from({ length: CHAINS }, (_, k) => `    x${k} = fma(x${k}, m, c);`).join("\n")}
  }
  out[i] = ${Array.from({ length: CHAINS }, (_, k) => `x${k}`).join(" + ")};
}
`,
  abi: {
    kernel: "peak.fma",
    entryPoint: "main",
    workgroupSize: FMA_WORKGROUP_SIZE,
    uniformWords: 8,
    scalars: [
      { name: "m", dtype: "f32", word: 4 },
      { name: "c", dtype: "f32", word: 5 },
    ],
    buffers: [{ name: "out", binding: 1, dtype: "f32", vectorWidth: 1, access: "read_write" }],
    workgroupBytes: 0,
    features: [],
  } satisfies KernelAbi,
};
