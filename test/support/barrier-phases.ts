// Test support: a static check that a kernel's workgroup arrays are never both written and read
// between two barriers. The generated code's arrays are written by some invocations and read by
// others (staging, a product leaving the matrices), so a write and a read of one array with no
// `workgroupBarrier()` between them, in either order, is a race. The main function's lines are
// walked in order, every `if` as if taken (a superset of the accesses), and every loop that holds a
// barrier twice over, so that the end of one trip meets the start of the next (and what comes
// before the loop meets its first trip). Two writes in one phase are allowed: the generator writes
// disjoint places (each invocation its registers, each subgroup its matrices).

/** One array both written and read in one phase: the array and the two lines. */
export interface PhaseRace {
  array: string;
  write: string;
  read: string;
}

type Event = { kind: "barrier" } | { kind: "access"; array: string; write: boolean; line: string };

/** The races of `wgsl`'s entry point (empty when every phase only reads or only writes each array). */
export function phaseRaces(wgsl: string): PhaseRace[] {
  const lines = wgsl.split("\n");
  const start = lines.findIndex((l) => l.startsWith("fn main("));
  if (start < 0) throw new Error("no fn main in the WGSL");
  const body = lines.slice(start + 1, closing(lines, start));
  const races: PhaseRace[] = [];
  const seen = new Set<string>();
  let phase = new Map<string, { write?: string; read?: string }>();
  for (const e of events(body)) {
    if (e.kind === "barrier") {
      phase = new Map();
      continue;
    }
    const slot = phase.get(e.array) ?? {};
    if (e.write) slot.write ??= e.line;
    else slot.read ??= e.line;
    phase.set(e.array, slot);
    if (slot.write && slot.read) {
      const key = `${e.array}\0${slot.write}\0${slot.read}`;
      if (!seen.has(key)) races.push({ array: e.array, write: slot.write.trim(), read: slot.read.trim() });
      seen.add(key);
    }
  }
  return races;
}

/**
 * The barriers one trip of the entry point's first loop that holds any executes (a key loop's
 * barriers per key block): a loop inside it with constant bounds (`for (var c = 0u; c < 128u; c
 * += 64u)`, a product leaving the matrices in chunks) counts once per trip of its own.
 */
export function loopBarriers(wgsl: string): number {
  const lines = wgsl.split("\n");
  for (let i = lines.findIndex((l) => l.startsWith("fn main(")); i < lines.length; i++) {
    if (!LOOP.test(lines[i]) || balanced(lines[i])) continue;
    const count = executed(lines.slice(i + 1, closing(lines, i)));
    if (count > 0) return count;
  }
  return 0;
}

function executed(lines: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    if (LOOP.test(lines[i]) && !balanced(lines[i])) {
      const end = closing(lines, i);
      const inner = executed(lines.slice(i + 1, end));
      if (inner > 0) {
        const bounds = /for \(var (\w+) = 0u; \1 < (\d+)u; \1 \+= (\d+)u\)/.exec(lines[i]);
        if (!bounds) throw new Error(`a loop with barriers and no constant trip count: ${lines[i].trim()}`);
        count += inner * Math.ceil(Number(bounds[2]) / Number(bounds[3]));
      }
      i = end;
    } else if (lines[i].includes("workgroupBarrier()")) count++;
  }
  return count;
}

/** Index of the line that closes the block opened on lines[at]. */
function closing(lines: readonly string[], at: number): number {
  let depth = 0;
  for (let i = at; i < lines.length; i++) {
    for (const ch of lines[i]) {
      if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) return i;
    }
  }
  throw new Error(`unclosed block at line ${at + 1}`);
}

const LOOP = /^\s*(for \(|loop \{)/;

function events(lines: readonly string[]): Event[] {
  const out: Event[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // A loop whose body (more than its opening line) holds a barrier: its body twice.
    if (LOOP.test(line) && !balanced(line)) {
      const end = closing(lines, i);
      const inner = lines.slice(i + 1, end);
      if (inner.some((l) => l.includes("workgroupBarrier()"))) {
        const trip = events(inner);
        out.push(...accesses(line), ...trip, ...trip);
        i = end;
        continue;
      }
    }
    if (line.includes("workgroupBarrier()")) out.push({ kind: "barrier" });
    else out.push(...accesses(line));
  }
  return out;
}

function balanced(line: string): boolean {
  return (line.match(/\{/g) ?? []).length === (line.match(/\}/g) ?? []).length;
}

/** The workgroup-array accesses of one line: `sm_X[…] = ` and subgroupMatrixStore write (`op=` also reads), every other mention reads. */
function accesses(line: string): Event[] {
  const out: Event[] = [];
  for (const m of line.matchAll(/(&?)(sm_\w+)/g)) {
    const array = m[2];
    const before = line.slice(0, m.index);
    const after = line.slice(m.index! + m[0].length);
    const store = m[1] === "&" && /subgroupMatrixStore<[^>]*>\($/.test(before);
    const assigned = after.startsWith("[") ? /^\s*([-+*/]?)=(?!=)/.exec(after.slice(indexClose(after) + 1)) : null;
    // `x[i] op= v` reads x[i] as well.
    if (!store && (!assigned || assigned[1])) out.push({ kind: "access", array, write: false, line });
    if (store || assigned) out.push({ kind: "access", array, write: true, line });
  }
  return out;
}

/** Index of the `]` that closes the `[` at text[0]. */
function indexClose(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) return i;
  }
  return text.length;
}
