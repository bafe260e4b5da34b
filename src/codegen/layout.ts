// How a block's elements are spread over a workgroup's invocations.
//
// A kernel runs one program instance per workgroup of `W` invocations. A block of N elements
// (flattened row-major) is held in registers: with N >= W each invocation holds EPT = N / W
// elements, in runs of V contiguous elements (V = min(4, EPT)) —
//   register j of invocation t holds element  (j / V) * (W * V) + t * V + (j % V)
// so consecutive invocations touch consecutive runs (coalesced), and each run of V can become one
// wide load. With N < W the block is replicated: invocation t holds element t % N in register 0.
// The layout depends only on N, so element-wise operations and reshapes never move data.

import type { KernelIR, Shape, Stmt, Value } from "../ir/ir";
import { assertNever, numel } from "../ir/ir";

export interface BlockLayout {
  numel: number;
  /** Registers per invocation. */
  ept: number;
  /** Contiguous elements per run. */
  vec: number;
  /** True when N < W: every invocation holds one element, several invocations the same one. */
  replicated: boolean;
}

export function layoutOf(shape: Shape, workgroupSize: number): BlockLayout {
  const n = numel(shape);
  if (n < workgroupSize) return { numel: n, ept: 1, vec: 1, replicated: true };
  const ept = n / workgroupSize;
  return { numel: n, ept, vec: Math.min(4, ept), replicated: false };
}

/** Constant part of register j's element index (add `t * vec` for invocation t). */
export function registerOffset(layout: BlockLayout, workgroupSize: number, j: number): number {
  const v = layout.vec;
  return Math.floor(j / v) * workgroupSize * v + (j % v);
}

/**
 * The workgroup size: about a quarter of the largest block (so each invocation gets a run of
 * 4 elements), at least a subgroup's worth of invocations when the block allows it, at most
 * the adapter's limit (and 256, WebGPU's default).
 */
export function chooseWorkgroupSize(ir: KernelIR, maxWorkgroupSize: number, preferred = 256): number {
  const largest = largestBlock(ir.body);
  if (largest <= 1) return 1;
  const cap = Math.min(maxWorkgroupSize, preferred);
  const w = Math.max(Math.min(largest, 32), Math.floor(largest / 4));
  return Math.min(w, cap);
}

function largestBlock(body: readonly Stmt[]): number {
  let largest = 1;
  const see = (v: Value) => (largest = Math.max(largest, numel(v.type.shape)));
  for (const s of body) {
    switch (s.kind) {
      case "let":
        see(s.value);
        break;
      case "store":
        see(s.ptr);
        break;
      case "declare":
        see(s.init);
        break;
      case "assign":
        see(s.value);
        break;
      case "for":
        largest = Math.max(largest, largestBlock(s.body));
        break;
      case "if":
        largest = Math.max(largest, largestBlock(s.then), largestBlock(s.else));
        break;
      default:
        assertNever(s, "statement");
    }
  }
  return largest;
}
