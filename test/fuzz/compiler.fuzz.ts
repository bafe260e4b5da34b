// `npm run fuzz`: the compiler never throws. Feeds checkFile and compileKernel FUZZ_RUNS inputs
// (default 10,000: a third random kernels of the grammar, a third well-typed kernels, a third mutated examples) from seed FUZZ_SEED (default:
// random, printed), checks compiler-properties.ts on every one, and prints the counts that
// docs/RELIABILITY.md records. Internal errors (KL9000) are counted and printed with their input,
// not stopped at; any violation makes the command exit 1 after shrinking the first one found.
//
//   npm run fuzz
//   FUZZ_RUNS=50000 FUZZ_SEED=1234 npm run fuzz

import fc from "fast-check";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { compileEveryWay, compilesCleanly, type InputOutcome } from "./compiler-properties";
import { kernelFiles, typedKernelFiles } from "./kernel-grammar";
import { mutatedExamples } from "./mutations";

const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
console.log(`compiler fuzz: ${runs} inputs, seed ${seed} (repeat with FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run fuzz)`);

interface Tally {
  inputs: number;
  withDiagnostics: number;
  clean: number;
  compiledKernels: number;
  compileCalls: number;
  diagnostics: number;
  internalErrors: number;
  escaped: number;
  violations: number;
  maxMs: number;
  totalMs: number;
  codes: Record<string, number>;
}

const empty = (): Tally => ({ inputs: 0, withDiagnostics: 0, clean: 0, compiledKernels: 0, compileCalls: 0, diagnostics: 0, internalErrors: 0, escaped: 0, violations: 0, maxMs: 0, totalMs: 0, codes: {} });
const tallies = { generated: empty(), typed: empty(), mutated: empty() };
const failures: { source: string; kind: string; message: string; text: string }[] = [];

function record(source: keyof typeof tallies, text: string): void {
  const t = tallies[source];
  t.inputs++;
  let outcome: InputOutcome;
  try {
    outcome = compileEveryWay(text);
  } catch (error) {
    const violation = (error as Error)?.name === "PropertyViolation";
    if (violation) t.violations++;
    else t.escaped++;
    failures.push({ source, kind: violation ? "violation" : "exception", message: String((error as Error)?.stack ?? error), text });
    return;
  }
  t.diagnostics += outcome.diagnostics;
  if (outcome.diagnostics > 0) t.withDiagnostics++;
  else t.clean++;
  t.compiledKernels += outcome.compiledKernels;
  t.compileCalls += outcome.compileCalls;
  t.maxMs = Math.max(t.maxMs, outcome.ms);
  t.totalMs += outcome.ms;
  for (const code of new Set(outcome.codes)) t.codes[code] = (t.codes[code] ?? 0) + 1;
  if (outcome.internalErrors.length > 0) {
    t.internalErrors++;
    failures.push({ source, kind: "KL9000", message: outcome.internalErrors.map((d) => d.message).join(" | "), text });
  }
}

const started = Date.now();
const sources = {
  generated: { arbitrary: kernelFiles, seed, runs: Math.ceil(runs / 3) },
  typed: { arbitrary: typedKernelFiles, seed: seed + 1, runs: Math.ceil(runs / 3) },
  mutated: { arbitrary: mutatedExamples.map((m) => m.text), seed: seed + 2, runs: runs - 2 * Math.ceil(runs / 3) },
} as const;
// fc.check drives generation (and shrinking, should the strict property below fail); the
// property here only records, so every input is counted.
for (const [source, { arbitrary, seed: s, runs: n }] of Object.entries(sources)) {
  fc.check(fc.property(arbitrary as fc.Arbitrary<string>, (text) => { record(source as keyof typeof tallies, text); }), { seed: s, numRuns: n });
}
const seconds = (Date.now() - started) / 1000;

const total = (key: keyof Omit<Tally, "codes">) => tallies.generated[key] + tallies.typed[key] + tallies.mutated[key];
const summary = {
  seed,
  runs,
  seconds,
  inputs: total("inputs"),
  exceptionsEscaped: total("escaped"),
  propertyViolations: total("violations"),
  internalErrors: total("internalErrors"),
  inputsWithDiagnostics: total("withDiagnostics"),
  inputsWithoutDiagnostics: total("clean"),
  compileKernelCalls: total("compileCalls"),
  kernelsCompiledToWgsl: total("compiledKernels"),
  diagnostics: total("diagnostics"),
  maxMsPerInput: Math.round(Math.max(tallies.generated.maxMs, tallies.typed.maxMs, tallies.mutated.maxMs)),
  meanMsPerInput: Number((total("totalMs") / Math.max(1, total("inputs"))).toFixed(2)),
  bySource: tallies,
};
console.log(JSON.stringify(summary, null, 2));

const outDir = path.resolve(__dirname, "../../test-results");
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, "fuzz-summary.json"), JSON.stringify({ ...summary, failures: failures.slice(0, 50) }, null, 2));

if (failures.length > 0) {
  console.log(`\n${failures.length} failing input(s); the first ones:`);
  for (const f of failures.slice(0, 5)) console.log(`--- ${f.source} ${f.kind}: ${f.message.split("\n").slice(0, 3).join(" / ")}\n${f.text.slice(0, 2000)}\n`);
  // Shrink the first failure of each source to a minimal input with the strict property.
  for (const [source, { arbitrary, seed: s, runs: n }] of Object.entries(sources)) {
    if (!failures.some((f) => f.source === source)) continue;
    const result = fc.check(fc.property(arbitrary as fc.Arbitrary<string>, (text) => { compilesCleanly(text); }), { seed: s, numRuns: n });
    if (result.failed) console.log(`\nminimal ${source} input (${result.numShrinks} shrinks):\n${String(result.counterexample?.[0])}\n${String(result.errorInstance).split("\n")[0]}`);
  }
  console.log(`\nFAILED: ${failures.length} input(s) broke a property (summary in test-results/fuzz-summary.json)`);
  process.exit(1);
}
console.log(`\nOK: ${summary.inputs} inputs, no exception escaped, every range inside its file, no internal error, slowest ${summary.maxMsPerInput} ms`);
