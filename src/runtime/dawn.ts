/// <reference types="@webgpu/types" />
// Loads Dawn's node bindings. The `webgpu` package's index.js is an ES module, which a CommonJS
// bundle on Node 20 cannot require, so dawn.node is required directly from the package folder
// (the package stays external to the bundle). KERNEL_LAB_DAWN_NODE overrides the path.

import * as path from "node:path";

export interface DawnModule {
  create(flags: string[]): GPU;
  /** GPUBufferUsage, GPUMapMode, … — not globals in Node. */
  globals: Record<string, unknown>;
}

export function dawnNodePath(): string {
  const override = process.env.KERNEL_LAB_DAWN_NODE;
  if (override) return override;
  const packageDir = path.dirname(require.resolve("webgpu/package.json"));
  const arch = process.platform === "darwin" ? "universal" : process.arch;
  return path.join(packageDir, "dist", `${process.platform}-${arch}`, "dawn.node");
}

export function loadDawn(): DawnModule {
  const file = dawnNodePath();
  try {
    return require(file) as DawnModule;
  } catch (err) {
    throw new Error(`Could not load Dawn's node bindings from ${file}: ${(err as Error).message}`);
  }
}
