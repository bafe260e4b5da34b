// The message for a tl.* name that doesn't exist (KL1005): Triton's snake_case spelling of one
// that does (tl.program_id → tl.programId), what to write for a Triton function Kernel Lab has no
// equivalent of, or the nearest existing name for a typo.

import { intrinsicNamed, INTRINSICS } from "./intrinsics";

const TMA_INSTEAD =
  "it is Triton's experimental TMA descriptor API (an NVIDIA descriptor's bytes, made on the host or in the kernel, read by the copy engine), " +
  "which WebGPU has no use for; Triton replaced it with tensor descriptors: tl.make_tensor_descriptor(base, shape, strides, block_shape) and desc.load / desc.store, which Kernel Lab runs";

/** Triton functions without an equivalent, keyed by their camelCase name: what to write instead. */
const INSTEAD: Readonly<Record<string, string>> = {
  print: "print with tl.devicePrint(prefix, ...values)",
  // Triton functions with no WGSL meaning (docs/LANGUAGE.md §2.1).
  inlineAsmElementwise: "it runs PTX or GCN assembly, which WGSL can't express; write the element-wise computation with operators and tl.* functions",
  dotScaled: "it multiplies microscaled fp4/fp8 formats (MX), which WGSL has no types for; dequantise to f16/f32 and use tl.dot",
  // CUDA's programmatic dependent launch (tl.extra.cuda.gdc_wait / gdc_launch_dependents; sglang's elementwise.py).
  gdcWait:
    "it is CUDA's programmatic dependent launch (wait for the grid launched before this one); a WebGPU queue already runs each " +
    "dispatch after the one before it has finished, so leave it out",
  gdcLaunchDependents:
    "it is CUDA's programmatic dependent launch (let the next grid start before this one ends); a WebGPU queue runs each " +
    "dispatch after the one before it has finished, so leave it out",
  // Triton 3.0–3.2's experimental TMA API (applied-ai's fp8 tma_gemm.py and MoE group GEMM): descriptors
  // whose bytes the host or the kernel fills for NVIDIA's copy engine. The Python front end spells
  // `tl._experimental_descriptor_load` as ExperimentalDescriptorLoad.
  ExperimentalDescriptorLoad: TMA_INSTEAD,
  ExperimentalDescriptorStore: TMA_INSTEAD,
  experimentalDescriptorLoad: TMA_INSTEAD,
  experimentalDescriptorStore: TMA_INSTEAD,
  experimentalDeviceTensormapCreate1d: TMA_INSTEAD,
  experimentalDeviceTensormapCreate2d: TMA_INSTEAD,
  experimentalTensormapFenceproxyAcquire: TMA_INSTEAD,
  // Tutorial 08's grouped GEMM loads each matrix's address from an int64 tensor of data_ptr()s.
  pointerType:
    "it makes a pointer of an integer address, and WGSL has no addresses: a kernel reaches memory only through the buffers bound " +
    "to its launch (WebGPU has no device addresses to load from a tensor); pass each tensor as an argument (a launch per matrix, " +
    "or the matrices concatenated into one tensor with their offsets in another)",
};

/**
 * The tl.* name meant by `name`, where there is one: Triton's snake_case spelling of an existing
 * name (certain), or the one name within two edits of it (a guess). The quick fix's replacement.
 */
export function suggestedIntrinsic(name: string): { name: string; certain: boolean } | undefined {
  const camel = name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  if (camel !== name && intrinsicNamed(camel)) return { name: camel, certain: true };
  if (Object.hasOwn(INSTEAD, camel)) return undefined;
  const near = nearestName(camel);
  return near ? { name: near, certain: false } : undefined;
}

export function unknownIntrinsicMessage(name: string): string {
  const camel = name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  if (camel !== name && intrinsicNamed(camel)) {
    return `tl.${name} doesn't exist; did you mean tl.${camel}? (Kernel Lab spells Triton's functions in camelCase)`;
  }
  if (Object.hasOwn(INSTEAD, camel)) return `tl.${name} doesn't exist in Kernel Lab; ${INSTEAD[camel]}`;
  const near = nearestName(camel);
  const fallback = "see the kernel language table in the docs for the tl.* functions";
  return `tl.${name} doesn't exist; ${near ? `did you mean tl.${near}?` : fallback}`;
}

/** The one tl.* name within two edits of `name` (none for short names or ties). */
function nearestName(name: string): string | undefined {
  if (name.length < 4) return undefined;
  let best: string | undefined;
  let bestDistance = 3;
  let tie = false;
  for (const candidate of Object.keys(INTRINSICS)) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance, tie] = [candidate, d, false];
    else if (d === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
