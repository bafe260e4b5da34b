// The waits on a software adapter (runtime/gpu.ts, Gpu.idle): which adapters count as software,
// and host.yieldWhile settling exactly as the promise it wraps, its naps ending with it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isSoftwareAdapter } from "../../src/runtime/gpu";
import { host } from "../../src/runtime/host";
import { napState } from "../../src/runtime/host-node";

const adapter = (vendor: string, device: string, architecture: string, description: string) => ({ vendor, device, architecture, backend: "vulkan", description });

test("lavapipe, SwiftShader and WARP are software adapters; an NVIDIA or Apple GPU is not", () => {
  assert.equal(isSoftwareAdapter(adapter("mesa", "llvmpipe-llvm-15-0-6-256-bits-", "", "llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)")), true);
  assert.equal(isSoftwareAdapter(adapter("google", "swiftshader", "swiftshader", "")), true);
  assert.equal(isSoftwareAdapter(adapter("microsoft", "Microsoft Basic Render Driver", "", "D3D12 WARP")), true);
  assert.equal(isSoftwareAdapter(adapter("nvidia", "nvidia-h200", "", "NVIDIA: 580.159.04")), false);
  assert.equal(isSoftwareAdapter(adapter("apple", "apple-m3", "metal-3", "Metal driver on macOS")), false);
});

test("yieldWhile resolves and rejects as its promise does, its naps ending with it", async () => {
  assert.equal(await host.yieldWhile(new Promise((resolve) => setTimeout(() => resolve(7), 20))), 7);
  await assert.rejects(host.yieldWhile(new Promise((_, reject) => setTimeout(() => reject(new Error("lost")), 5))), /lost/);
  // Two at once: each settles by itself.
  const [a, b] = await Promise.all([host.yieldWhile(Promise.resolve("a")), host.yieldWhile(new Promise((r) => setTimeout(() => r("b"), 10)))]);
  assert.deepEqual([a, b], ["a", "b"]);
  // The naps end with the last wait: were they to go on, their setImmediate loop would keep this
  // file's process alive and the test runner would report it as never finishing.
});

test("waits that start as others end share one chain of naps, which stops with the last", async () => {
  // Each wait starts after the previous settled, before the chain's next turn sees none pending:
  // without the one-chain rule every such wait added a chain, and each turn slept once per chain.
  for (let i = 0; i < 50; i++) await host.yieldWhile(Promise.resolve(i));
  // A wait still pending keeps whatever chains there are going: count the naps over 10 turns.
  let release!: () => void;
  const pending = host.yieldWhile(new Promise<void>((r) => (release = r)));
  const before = napState().naps;
  try {
    for (let turn = 0; turn < 10; turn++) await new Promise((r) => setImmediate(r));
    assert.ok(napState().naps - before <= 11, `${napState().naps - before} naps in 10 turns: more than one chain`);
  } finally {
    release(); // a wait left pending would keep the naps, and this file's process, going
    await pending;
  }
  await Promise.all([1, 2, 3].map((i) => host.yieldWhile(new Promise((r) => setTimeout(r, i)))));
  assert.equal(napState().waiting, 0);
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  const { waiting, napping } = napState();
  assert.deepEqual({ waiting, napping }, { waiting: 0, napping: false });
});
