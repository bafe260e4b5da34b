// Hand-written element-wise ops on f32, shaped the way docs/ENVIRONMENT.md §3 measured fastest:
// vec4<f32> elements, one vec4 per invocation, workgroups of 256, a 1-D grid of programs folded
// into 2-D by the runtime (codegen/abi.ts). Buffers bind in order a, b, out (1..3); the element
// count `n` is the uniform word 4. The last vec4 may be partial: only its first n % 4 lanes are
// written, so nothing past element n-1 changes.

import type { KernelAbi, StorageBinding } from "../codegen/abi";

export const WORKGROUP_SIZE = 256;
/** Elements each program covers. */
export const ELEMENTS_PER_PROGRAM = WORKGROUP_SIZE * 4;

export interface ElementwiseOp {
  name: string;
  description: string;
  /** Input buffers before `out`. */
  arity: 1 | 2;
  /** The per-vec4 expression of `a` (and `b`). */
  expression: string;
}

const PRELUDE = `// The uniform words: 0..2 the logical grid, 4 the element count n.
@group(0) @binding(0) var<uniform> u: array<vec4<u32>, 2>;
`;

export function elementwiseWgsl(op: ElementwiseOp): string {
  const inputs = op.arity === 2 ? ["a", "b"] : ["a"];
  const bindings = inputs
    .map((name, i) => `@group(0) @binding(${i + 1}) var<storage, read> ${name}: array<vec4<f32>>;`)
    .concat(`@group(0) @binding(${inputs.length + 1}) var<storage, read_write> out: array<vec4<f32>>;`)
    .join("\n");
  return `${PRELUDE}${bindings}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let grid = u[0].xyz;
  let program = wid.x + wid.y * nwg.x + wid.z * nwg.x * nwg.y;
  if (program >= grid.x * grid.y * grid.z) { return; }
  let n = u[1].x;
  let i = program * ${WORKGROUP_SIZE}u + lid;
  let first = i * 4u;
  if (first >= n) { return; }
  let v = ${op.expression};
  if (first + 4u <= n) {
    out[i] = v;
  } else {
    for (var k = 0u; k < n - first; k++) { out[i][k] = v[k]; }
  }
}
`;
}

export function elementwiseAbi(op: ElementwiseOp): KernelAbi {
  const names = op.arity === 2 ? ["a", "b"] : ["a"];
  const buffers: StorageBinding[] = names.map((name, i) => ({ name, binding: i + 1, dtype: "f32", vectorWidth: 4, access: "read" }));
  buffers.push({ name: "out", binding: names.length + 1, dtype: "f32", vectorWidth: 4, access: "read_write" });
  return {
    kernel: op.name,
    entryPoint: "main",
    workgroupSize: WORKGROUP_SIZE,
    uniformWords: 8,
    scalars: [{ name: "n", dtype: "u32", word: 4 }],
    buffers,
    workgroupBytes: 0,
    features: [],
  };
}
