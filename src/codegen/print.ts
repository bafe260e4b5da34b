// tl.devicePrint and tl.deviceAssert in WGSL: each element an invocation owns becomes a record in
// the `kl_print` storage buffer (ir/debug.ts's DEBUG_BUFFER: an atomic cursor, then fixed-size
// records; a record past the end is counted, not written). The buffer is declared, and listed in
// the KernelAbi, only when the kernel prints or asserts; the harness reads it back after the
// launch and times a variant compiled without it.

import type { AssertStmt, Dtype, PrintStmt, Value } from "../ir/ir";
import { DEBUG_BUFFER, DTYPE_TAGS, debugSites, siteIds } from "../ir/debug";
import type { DebugAbi } from "./abi";
import type { WgslGenerator } from "./generator";

export const DEBUG_BUFFER_NAME = "kl_print";

/** The debug part of the ABI for a kernel that prints or asserts (`binding` after the pointer buffers). */
export function debugAbi(gen: WgslGenerator, binding: number): DebugAbi | undefined {
  const sites = debugSites(gen.ir.body);
  return sites.length === 0 ? undefined : { binding, words: DEBUG_BUFFER.words, sites };
}

/** The binding and the two helpers the print and assert statements call. */
export function debugDeclarations(debug: DebugAbi): string[] {
  const { headerWords, recordWords, records } = DEBUG_BUFFER;
  return [
    "",
    `// tl.devicePrint / tl.deviceAssert records (src/codegen/print.ts): word 0 the cursor, word 1 failed assertions.`,
    `@group(0) @binding(${debug.binding}) var<storage, read_write> ${DEBUG_BUFFER_NAME}: array<atomic<u32>>;`,
    `fn kl_record(site: u32, pid: vec3<i32>, index: i32, operand: u32, bits: u32, tag: u32) {`,
    `  let r = atomicAdd(&${DEBUG_BUFFER_NAME}[0], 1u);`,
    `  if (r >= ${records}u) { return; }`,
    `  let o = ${headerWords}u + r * ${recordWords}u;`,
    ...["site", "u32(pid.x)", "u32(pid.y)", "u32(pid.z)", "u32(index)", "operand", "bits", "tag"].map(
      (w, k) => `  atomicStore(&${DEBUG_BUFFER_NAME}[o${k === 0 ? "" : ` + ${k}u`}], ${w});`,
    ),
    "}",
    `fn kl_assert_failed(site: u32, pid: vec3<i32>, index: i32) {`,
    `  _ = atomicAdd(&${DEBUG_BUFFER_NAME}[1], 1u);`,
    `  kl_record(site, pid, index, 0u, 0u, ${DTYPE_TAGS.assert}u);`,
    "}",
  ];
}

export function emitPrint(gen: WgslGenerator, s: PrintStmt): void {
  const site = siteOf(gen, s);
  s.values.forEach((v, operand) => {
    const tag = DTYPE_TAGS[gen.dtype(v.type)];
    owned(gen, v, (j) => `kl_record(${site}u, vec3(pid_x, pid_y, pid_z), ${gen.elementIndex(v.type, j)}, ${operand}u, ${bits(gen.reg(v, j), gen.dtype(v.type))}, ${tag}u);`);
  });
}

export function emitAssert(gen: WgslGenerator, s: AssertStmt): void {
  const site = siteOf(gen, s);
  owned(gen, s.cond, (j) => `if (!(${gen.reg(s.cond, j)})) { kl_assert_failed(${site}u, vec3(pid_x, pid_y, pid_z), ${gen.elementIndex(s.cond.type, j)}); }`);
}

/** Emits `line(j)` for each register of `v`, by the one invocation that owns each element (as a store does). */
function owned(gen: WgslGenerator, v: Value, line: (j: number) => string): void {
  const owner = gen.ownerCondition(v.type);
  const lines = () => gen.registers(v.type, (j) => gen.emit(line(j)));
  if (!owner) return lines();
  gen.emit(`if (${owner}) {`);
  gen.nested(lines);
  gen.emit("}");
}

function siteOf(gen: WgslGenerator, s: PrintStmt | AssertStmt): number {
  return siteIds(debugSites(gen.ir.body)).get(s.span.start) ?? 0;
}

function bits(expr: string, dtype: Dtype): string {
  switch (dtype) {
    case "u32":
      return expr;
    case "bool":
      return `select(0u, 1u, ${expr})`;
    case "f16":
      return `bitcast<u32>(f32(${expr}))`;
    default:
      return `bitcast<u32>(${expr})`;
  }
}
