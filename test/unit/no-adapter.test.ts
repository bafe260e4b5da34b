// What "no GPU adapter" tells the user on each OS (src/runtime/no-adapter.ts): each platform's
// advice names its own graphics API and way out, and none of another platform's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { NoAdapterError } from "../../src/runtime/errors";
import { noAdapterAdvice } from "../../src/runtime/no-adapter";

type Platform = Parameters<typeof noAdapterAdvice>[0];

/** platform → what its advice says, and what belongs to other platforms and must not appear. */
const ADVICE: [Platform, RegExp[], RegExp[]][] = [
  ["linux", [/Vulkan driver/, /lavapipe/, /Mesa 25/, /scripts\/setup\.sh/, /`--cpu`/, /`kernelLab\.backend` setting `cpu`/], [/Metal/, /Direct3D/, /navigator\.gpu/]],
  ["freebsd", [/Vulkan driver/, /`--cpu`/], [/Metal/, /Direct3D/]],
  ["darwin", [/Metal/, /every Mac since 2012/, /virtual machine/, /Update macOS/, /`--cpu`/, /`kernelLab\.backend` setting `cpu`/], [/Vulkan/, /lavapipe/, /Direct3D/, /apt-get/]],
  ["win32", [/Direct3D 12/, /Windows 10 or newer/, /current driver from your GPU's vendor/, /virtual machine without a GPU/, /`--cpu`/, /`kernelLab\.backend` setting `cpu`/], [/Vulkan/, /lavapipe/, /Metal/, /apt-get/]],
  ["browser", [/no WebGPU/, /`navigator\.gpu`/, /Chrome or Edge 113/, /secure context \(https, or localhost\)/, /Firefox or Safari/, /interpreter/], [/Vulkan/, /Metal/, /Direct3D/, /Dawn/, /--cpu/]],
];

for (const [platform, says, never] of ADVICE) {
  test(`no adapter on ${platform}: the advice`, () => {
    const advice = noAdapterAdvice(platform);
    for (const pattern of says) assert.match(advice, pattern);
    for (const pattern of never) assert.doesNotMatch(advice, pattern);
    assert.doesNotMatch(advice, /\n/, "one line, as the CLI prints it");
  });
}

test("NoAdapterError: KL4001, the detail, then the platform's advice", () => {
  const plain = new NoAdapterError(undefined, "win32");
  assert.equal(plain.code, "KL4001");
  assert.equal(plain.name, "NoAdapterError");
  assert.equal(plain.message, `No GPU adapter found. ${noAdapterAdvice("win32")}`);
  const detailed = new NoAdapterError("Dawn listed none", "darwin");
  assert.equal(detailed.message, `No GPU adapter found (Dawn listed none). ${noAdapterAdvice("darwin")}`);
});

test("NoAdapterError speaks for the platform it runs on", () => {
  assert.equal(new NoAdapterError().message, `No GPU adapter found. ${noAdapterAdvice(process.platform)}`);
});
