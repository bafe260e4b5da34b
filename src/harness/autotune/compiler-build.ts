// Which Kernel Lab compiler made a cached choice: the package's version and a hash of the
// compiler's sources (what decides the generated WGSL, so its speed), both written into every
// bundle by scripts/build.mjs (esbuild's `define`). A choice tuned by another build may no longer
// be the fastest, so the autotuner's cache keeps it per build (autotune-cache.ts). A plain
// constant: the same in Node and in the browser's worker, and nothing to read or hash at run time.
// Run from the sources (tsx, the tests), there is no bundle: the build is named so.

declare const KERNEL_LAB_COMPILER_BUILD: string | undefined;

/** `0.1.0+3f2a9c1b7e04` (version + the compiler's source hash); `source` when run unbundled. */
export const COMPILER_BUILD: string = typeof KERNEL_LAB_COMPILER_BUILD === "string" ? KERNEL_LAB_COMPILER_BUILD : "source";
