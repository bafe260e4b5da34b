import { COURSE } from "./src/exercises/course";
import { pythonExerciseFile, exerciseRunText, pythonExerciseFileName } from "./src/exercises/python-exercise";
import { parseKernelFile, compileKernel } from "./src/compile";
import { solutionFile } from "./src/exercises/course";
const show = process.argv[2];
for (const e of COURSE) {
  const py = pythonExerciseFile(e, true);
  if (show === e.id) { console.log(pythonExerciseFile(e, false)); }
  const r = exerciseRunText(e, "/tmp/x/" + pythonExerciseFileName(e), py);
  if ("diagnostics" in r) { console.log(e.id, "ERR", r.diagnostics.map(d => d.message)); continue; }
  const wg = (text: string) => { const p = parseKernelFile("a.kernel.ts", text); const errs = p.diagnostics.filter(d=>d.severity==="error"); if (errs.length) return "PARSE " + errs.map(d=>d.message).join(";"); return p.kernels.map(k => { const c = p.literalConstexprs.get(k.name)?.[0] ?? {}; const r = compileKernel(k, c); return r.kernel?.wgsl ?? "ERR " + r.diagnostics.map(d=>d.message).join(";"); }).join("\n"); };
  const a = wg(r.text), b = wg(solutionFile(e));
  console.log(e.id, a === b ? "same WGSL" : a.startsWith("PARSE") || a.startsWith("ERR") ? a.slice(0, 300) : `differs (${a.length} vs ${b.length})`);
}
