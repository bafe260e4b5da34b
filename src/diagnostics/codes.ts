// Every diagnostic kind the compiler reports, with its stable code. Codes never change meaning;
// retired codes are not reused. KL1xxx syntax and unsupported constructs, KL2xxx types and shapes.

export const Codes = {
  // KL1xxx — syntax, kernel discovery, unsupported constructs
  typescriptSyntax: "KL1000",
  kernelArgument: "KL1001",
  kernelName: "KL1002",
  unsupportedSyntax: "KL1003",
  unsupportedCall: "KL1004",
  unknownIntrinsic: "KL1005",
  unknownName: "KL1006",
  paramAnnotation: "KL1010",
  paramForm: "KL1011",
  declarationForm: "KL1020",
  constReassigned: "KL1021",
  /** A `let` declared without a value, read where some path to it didn't assign it (or a tuple first assigned in a run-time branch or loop). */
  unassignedLet: "KL1022",
  forLoopForm: "KL1030",
  counterAssigned: "KL1031",
  intrinsicArgs: "KL1040",
  constantRequired: "KL1041",
  /** A keyword argument (the trailing object literal) a function doesn't take, or a parameter given twice. */
  keywordArgument: "KL1042",
  /** A tuple or a block pointer where one value is needed. */
  aggregateValue: "KL1043",
  /** A destructuring pattern that doesn't fit its tuple (count, nesting, rest, defaults, objects). */
  destructuring: "KL1044",
  duplicateKernel: "KL1050",
  /** Syntax nested deeper than the compiler's passes can recurse (thousands of levels). */
  tooDeep: "KL1060",
  /** A call of a device function (a kernel(...) called from a kernel): argument count or a constexpr argument. */
  helperCall: "KL1070",
  /** `return` where a device function can't have it (not its last statement, or in a launched kernel). */
  helperReturn: "KL1071",
  /** break/continue outside a loop, or leaving a tl.staticRange loop. */
  loopExit: "KL1072",
  /** tl.staticRange's bounds, step, trip count or form. */
  staticRange: "KL1073",
  /** A tl.associativeScan / tl.reduce combine function that isn't `(a, b) => expression of a and b`. */
  combineFunction: "KL1074",

  // KL2xxx — dtypes and block shapes
  shapeMismatch: "KL2001",
  notPowerOfTwo: "KL2002",
  operandDtype: "KL2003",
  pointerArithmetic: "KL2004",
  notAPointer: "KL2005",
  blockCondition: "KL2006",
  assignType: "KL2007",
  divisionByZero: "KL2008",
  literalRange: "KL2009",
  dtypeUnavailable: "KL2010",
  constexprMissing: "KL2011",
  badAxis: "KL2012",
  blockTooLarge: "KL2013",
  storeShape: "KL2014",
  dotShape: "KL2015",
  workgroupMemory: "KL2016",
  reshapeSize: "KL2017",
  /** A device function's argument doesn't have the dtype or kind its parameter's annotation names. */
  helperArgType: "KL2070",
  /** A loop with a barrier (reduction, tl.dot) left or steered by a value WGSL can't prove uniform. */
  divergentBarrier: "KL2071",

  // tl.devicePrint / tl.deviceAssert (semantics/intrinsics-debug.ts)
  debugText: "KL1075",
  printTooManyValues: "KL1076",
  printBlockTooLarge: "KL2072",
  assertCondition: "KL2073",

  // Compile-time checks and messages (semantics/intrinsics-hints.ts)
  /** tl.staticAssert whose condition is false, or not known at compile time. */
  staticAssert: "KL2074",
  /** tl.staticPrint's message (severity info): the values as the compiler sees them. */
  staticPrint: "KL1077",
  // Lints: a warning where a kernel is valid but likely wrong (semantics/unmasked-access.ts)
  /** A tl.load/tl.store without a mask whose 1-D offsets come from tl.programId and tl.arange (the last block can run past the end). */
  unmaskedAccess: "KL2075",
  /** A `let` declared without a value, assigned another dtype or block shape in one branch of a run-time if than in another. */
  branchTypes: "KL2076",
  // Issue 31: 64-bit integers, computed in 32 bits (README "64-bit integers")
  /** An i64 constant outside 32 bits where its value (not only its low word) matters. */
  int64Constant: "KL2090",
  /** At run time, in the interpreter (--cpu): an i64 value outside 32 bits. KL2092 (harness/codes.ts): such an i64 argument. */
  int64Overflow: "KL2091",
  /** tl.philox with 64-bit counters (Triton's Philox 4×64). */
  philoxWideCounter: "KL2093",

  // KL9xxx — a bug in Kernel Lab, still reported at the node being compiled
  internal: "KL9000",
} as const;

export type CodeName = keyof typeof Codes;
