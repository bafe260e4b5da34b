// The functions of Triton's `triton.language`, as its documentation lists them (docs/python-api/
// triton.language.rst, Triton 3.x), by section. Each is Kernel Lab's `tl.` + its name in camelCase
// (docs/LANGUAGE.md §2.1). test/unit/triton-coverage.test.ts holds this list against the intrinsics table and
// the typings; test/support/language-table.ts builds docs/LANGUAGE.md's table of every function from it.

export interface TritonSection {
  section: string;
  functions: readonly string[];
}

export const TRITON_LANGUAGE: readonly TritonSection[] = [
  { section: "Programming model", functions: ["program_id", "num_programs"] },
  { section: "Creation", functions: ["arange", "cat", "full", "zeros", "zeros_like", "cast"] },
  { section: "Shape manipulation", functions: ["broadcast", "broadcast_to", "expand_dims", "interleave", "join", "permute", "ravel", "reshape", "split", "trans", "view"] },
  { section: "Linear algebra", functions: ["dot"] },
  { section: "Memory and pointers", functions: ["load", "store", "make_block_ptr", "advance", "make_tensor_descriptor", "load_tensor_descriptor", "store_tensor_descriptor"] },
  { section: "Indexing", functions: ["flip", "where", "swizzle2d"] },
  {
    section: "Math",
    functions: ["abs", "cdiv", "ceil", "clamp", "cos", "div_rn", "erf", "exp", "exp2", "fdiv", "floor", "fma", "log", "log2", "maximum", "minimum", "rsqrt", "sigmoid", "sin", "softmax", "sqrt", "sqrt_rn", "umulhi"],
  },
  { section: "Reductions", functions: ["argmax", "argmin", "max", "min", "reduce", "sum", "xor_sum"] },
  { section: "Scans and sorting", functions: ["associative_scan", "cumprod", "cumsum", "histogram", "sort", "gather"] },
  { section: "Atomics", functions: ["atomic_add", "atomic_and", "atomic_cas", "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor"] },
  { section: "Random numbers", functions: ["randint4x", "randint", "rand", "randn"] },
  { section: "Iterators", functions: ["range", "static_range"] },
  { section: "Compiler hints", functions: ["assume", "debug_barrier", "max_constancy", "max_contiguous", "multiple_of"] },
  { section: "Debugging", functions: ["static_print", "static_assert", "device_print", "device_assert"] },
];

/**
 * Functions `triton.language` exports that its documentation doesn't list, which library code calls
 * (FlagGems' dropout: `tl.philox`, `uint_to_uniform_float`; its randn: `pair_uniform_to_normal`; Triton 3.3's
 * `tl.topk`, test_standard.py's test_sort), by the section they belong to.
 */
export const TRITON_UNDOCUMENTED: readonly TritonSection[] = [
  { section: "Scans and sorting", functions: ["topk"] },
  { section: "Random numbers", functions: ["philox", "uint_to_uniform_float", "pair_uniform_to_normal"] },
];

/**
 * Documented functions with no WGSL meaning (docs/LANGUAGE.md §2.1): PTX/GCN assembly and
 * microscaled-format products. Each is a KL1005 that says so (unknown-intrinsic.ts). (Tensor
 * descriptors have one: a block pointer's load and store, every axis checked; tensor-descriptors.ts.)
 */
export const WITHOUT_WGSL_MEANING: readonly string[] = ["inline_asm_elementwise", "dot_scaled"];

/** Triton's snake_case name → Kernel Lab's camelCase one (`make_block_ptr` → `makeBlockPtr`). */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
