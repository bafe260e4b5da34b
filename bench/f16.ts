// Why no shader-f16 on the H200? (issue 13 item 2; bench/NOTES.md §12)
//
//   node bench/build.mjs && node bench/dist/f16.js [dawn flag …]
//   KERNEL_LAB_DAWN_FLAGS=… node bench/dist/f16.js --acquire     (the runtime's own device)
//
// Creates a Dawn instance with the given flags (e.g. enable-dawn-features=vulkan_enable_f16_on_nvidia),
// prints the adapter's description and features, and when `shader-f16` is offered, requests it
// and runs an f16 vector add (`enable f16;`, array<f16> storage), checked exactly, and prints any
// subgroup-matrix configurations the adapter reports. One process per set of flags (run it once
// per set): two instances in one process would share nothing but could confuse the reading.

import { acquireGpu } from "../src/runtime";
import { loadDawn } from "../src/runtime/dawn";

const flags = process.argv.slice(2);

/** IEEE half bits of a float that f16 represents exactly (the test uses such values only). */
function toHalf(x: number): number {
  if (x === 0) return 0;
  const sign = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  const m = Math.round((a / 2 ** e - 1) * 1024);
  return sign | ((e + 15) << 10) | m;
}

function fromHalf(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

const WGSL = `enable f16;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f16>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i < arrayLength(&c)) { c[i] = a[i] * b[i] + f16(0.5); }
}`;

async function main(): Promise<void> {
  if (flags[0] === "--acquire") {
    // What the runtime itself gets (KERNEL_LAB_DAWN_FLAGS applies).
    const gpu = await acquireGpu();
    console.log(`acquireGpu with KERNEL_LAB_DAWN_FLAGS=${JSON.stringify(process.env.KERNEL_LAB_DAWN_FLAGS ?? "")}: target ${JSON.stringify(gpu.target)}`);
    return;
  }
  const dawn = loadDawn();
  const instance = dawn.create(flags);
  (globalThis as Record<string, unknown>).keepInstance = instance;
  const adapter = await instance.requestAdapter({ powerPreference: "high-performance" });
  console.log(`flags: ${JSON.stringify(flags)}`);
  if (!adapter) return console.log("  no adapter");
  const info = adapter.info as GPUAdapterInfo & Record<string, unknown>;
  console.log(`  adapter: ${info.vendor} ${info.device} — ${info.description}`);
  const features = [...adapter.features].sort();
  console.log(`  features (${features.length}): ${features.join(" ")}`);
  const hasF16 = adapter.features.has("shader-f16");
  console.log(`  shader-f16: ${hasF16}`);
  // Dawn's config objects keep their fields as getters: read them by name.
  const configs = (info.subgroupMatrixConfigs ?? []) as Record<string, unknown>[];
  const fields = ["componentType", "resultComponentType", "M", "N", "K"];
  if (configs.length) console.log(`  subgroupMatrixConfigs: ${configs.map((c) => fields.map((f) => `${f}=${String(c[f])}`).join(" ")).join("; ")}`);
  if (!hasF16) {
    // What requesting it anyway says.
    try {
      const d = await adapter.requestDevice({ requiredFeatures: ["shader-f16"] });
      console.log("  requestDevice with shader-f16 succeeded although not listed");
      d.destroy();
    } catch (err) {
      console.log(`  requestDevice({ requiredFeatures: ['shader-f16'] }): ${(err as Error).message.trim().split("\n")[0]}`);
    }
    return;
  }
  const wanted = ["shader-f16", "chromium-experimental-subgroup-matrix", "subgroups"].filter((f) => adapter.features.has(f as GPUFeatureName)) as GPUFeatureName[];
  const device = await adapter.requestDevice({ requiredFeatures: wanted });
  const U = dawn.globals as Record<string, Record<string, number>>;
  const usage = U.GPUBufferUsage;
  const n = 1 << 20;
  const av = new Uint16Array(n);
  const bv = new Uint16Array(n);
  const want = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = ((i % 64) - 32) / 8; // exact in f16
    const y = (i % 17) / 4;
    av[i] = toHalf(x);
    bv[i] = toHalf(y);
    want[i] = x * y + 0.5; // exact in f16 (|x*y| ≤ 16, steps of 1/32)
  }
  const mk = (data: Uint16Array | null) => {
    const buf = device.createBuffer({ size: n * 2, usage: usage.STORAGE | usage.COPY_SRC | usage.COPY_DST, mappedAtCreation: data !== null });
    if (data) {
      new Uint16Array(buf.getMappedRange()).set(data);
      buf.unmap();
    }
    return buf;
  };
  const a = mk(av);
  const b = mk(bv);
  const c = mk(null);
  device.pushErrorScope("validation");
  const module = device.createShaderModule({ code: WGSL });
  const msgs = (await module.getCompilationInfo()).messages.map((m) => `${m.type}: ${m.message}`);
  if (msgs.length) console.log(`  compile: ${msgs.join("; ")}`);
  const pipeline = await device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: "main" } });
  const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [a, b, c].map((buffer, binding) => ({ binding, resource: { buffer } })) });
  const read = device.createBuffer({ size: n * 2, usage: usage.MAP_READ | usage.COPY_DST });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(n / 256);
  pass.end();
  enc.copyBufferToBuffer(c, 0, read, 0, n * 2);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(U.GPUMapMode.READ);
  const got = new Uint16Array(read.getMappedRange().slice(0));
  read.unmap();
  const err = await device.popErrorScope();
  if (err) console.log(`  validation: ${err.message}`);
  let bad = 0;
  for (let i = 0; i < n; i++) if (fromHalf(got[i]) !== want[i]) bad++;
  console.log(`  f16 a*b+0.5 over ${n} elements: ${bad === 0 ? "exact" : `${bad} wrong (e.g. [0] ${fromHalf(got[0])} vs ${want[0]})`}`);
  device.destroy();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
