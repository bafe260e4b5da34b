// Edits of a generated kernel's WGSL, for isolating what its speed loses to (bench/NOTES.md §44):
// the suite's `--edits` times each variant once per list of edits, and checks each edited kernel
// against the reference as it checks the generated one. An edit that would change what the kernel
// computes at the timed size shows up as BAD, not as a speed. Not a code generator's option: a
// bench's scalpel, so that "the generated code with only X changed" can be measured before X is
// built into the code generator.

/** One edit: what it changes, and the change (throws where the WGSL does not have what it edits). */
interface WgslEdit {
  what: string;
  apply(wgsl: string): string;
}

export const WGSL_EDITS: Record<string, WgslEdit> = {
  dead: {
    what: "every `let` nothing reads removed, until none is left (what a driver's dead-code pass should do)",
    apply: (wgsl) => dropUnreadLets(wgsl),
  },
  "no-c-staging": {
    what: "the accumulator's store on the edge tiles' way emptied and its workgroup array (the transfer array, or the slices) removed; valid only where every tile is whole",
    apply: (wgsl) => dropStagedStore(wgsl),
  },
  // The subgroup's index from the invocation's (NVIDIA's subgroups are 32 consecutive invocations),
  // as the hand-written kernels take it, instead of the subgroup_id builtin.
  "sg-from-lid": {
    what: "every use of the subgroup_id builtin replaced by (lid / 32u), as the hand-written kernels compute it; valid where subgroups are 32 consecutive invocations",
    apply: (wgsl) => replaceAll(wgsl, /\bsg_id\b(?!:)/g, "(lid / 32u)", "sg-from-lid: no sg_id"),
  },
  // Attention's online softmax, piece by piece (NOTES §44: it costs the generated attention 23%).
  // These change what the kernel computes: the check says BAD, and the time is what is measured.
  "no-exp2": {
    what: "every exp2(x) replaced by (x): the softmax's exponentials gone, everything else as generated (BAD: timing only)",
    apply: (wgsl) => replaceAll(wgsl, /\bexp2\(/g, "(", "no-exp2: no exp2"),
  },
  "no-row-shuffles": {
    what: "the row reductions' subgroupShuffleXor steps (max and sum across a row's lanes) removed (BAD: timing only)",
    apply: (wgsl) => replaceAll(wgsl, /^\s*(\w+) = (?:max\(\1, subgroupShuffleXor\(\1, \d+u\)\)|\(\1 \+ subgroupShuffleXor\(\1, \d+u\)\));\n/gm, "", "no-row-shuffles: no shuffle steps"),
  },
  // What the sequence-length masks cost attention (the loads' and the scores' `… < N_CTX`): the
  // hand-written kernel has none. Same result wherever N_CTX is a multiple of both blocks.
  "no-n-ctx-masks": {
    what: "every `let x = (… < N_CTX);` made `true` (the masks on the sequence length: key and query rows, the scores' columns); valid where N_CTX is a multiple of both blocks",
    apply: (wgsl) => {
      const n = /^\s*let (\w+) = params\.s_N_CTX;$/m.exec(wgsl)?.[1];
      if (!n) throw new Error("no-n-ctx-masks: no N_CTX parameter");
      return replaceAll(wgsl, new RegExp(`^(\\s*let \\w+ = )\\(.* < ${n}\\);$`, "gm"), "$1true;", "no-n-ctx-masks: no comparison with N_CTX");
    },
  },
  // The odd size read in words (shiftedHalfRows "words", NOTES §67, §69): what its 2.5× loss on the H100 is made of.
  // The first five edit the words as §67 built them (730a122, a branch on every lane's mask); since 1c72b1d the
  // runs are read on every lane and kept by select, which `words-no-masks` edits.
  "words-no-masks": {
    what: "each half's `select(other, half, mask)` after a run read in words removed: the masks dead, as `words-always` made them in §67's form (correct only where the reads past a row or the buffer meet zeros: timing)",
    apply: (wgsl) => replaceAll(wgsl, /^\s*(\w+) = select\([^,]+, \1, \w+\);\n/gm, "", "words-no-masks: no half kept by select"),
  },
  "words-select": {
    what: "each masked half's `bitcast<vec2<f16>>(w)[i & 1]` (a vector indexed at run time) written `select(v.x, v.y, (i & 1) != 0)`; same result",
    apply: (wgsl) => replaceAll(wgsl, /bitcast<vec2<f16>>\((b_\w+\[[^\]]+\])\)\[(\([^)]*\)) & 1\]/g,
      "select(bitcast<vec2<f16>>($1).x, bitcast<vec2<f16>>($1).y, ($2 & 1) != 0)", "words-select: no half picked from a word at run time"),
  },
  "words-no-edge": {
    what: "the masked way's per-half loads removed (its halves stay 0): the edge tiles' cost taken out (BAD: timing only)",
    apply: (wgsl) => replaceAll(wgsl, /^\s*if \(\w+\) \{ \w+ = bitcast<vec2<f16>>\(b_\w+\[[^\n]*\n/gm, "", "words-no-edge: no masked half read from a word"),
  },
  "words-always": {
    what: "every run's whole-run test (the lanes' masks and-ed) made `true`: words read everywhere, the edges too (BAD at the edges: timing only)",
    apply: (wgsl) => replaceAll(wgsl, /^(\s*)if \(\w+(?: & \w+)+\) \{$/gm, "$1if (true) {", "words-always: no whole-run test"),
  },
  "words-branchless": {
    what: "each run read in words on every lane, the edges too (reads past a row stay inside the buffer, or WebGPU's robust access bounds them), then each half kept by select on its own mask: no branch; same result",
    apply: (wgsl) => wordsBranchless(wgsl),
  },
  "words-no-shift": {
    what: "the odd start's shift dropped: each run taken as its first two words (BAD where a run starts odd: timing only)",
    apply: (wgsl) => replaceAll(wgsl, /select\(vec2\((\w+), (\w+)\), vec2\([^;]*\), \(\w+ & 1u\) == 1u\)/g, "vec2($1, $2)", "words-no-shift: no shifted run"),
  },
  // The odd size's C store (NOTES §84): C's rows are 1001 floats, not 16-byte aligned, so every tile, interior ones
  // too, stores its matrices one at a time through its subgroup's slice, two barriers a matrix, then element by element.
  "c-direct-unaligned": {
    what: "the direct store's 16-byte alignment tests dropped: whole tiles store their matrices straight into C at any row stride (out of Vulkan's rules for cooperative matrix stores; timing, and whether this driver gets it right)",
    apply: (wgsl) => replaceAll(wgsl, / && \(\w+ & 3i\) == 0i && \(\w+ & 3i\) == 0i/g, "", "c-direct-unaligned: no alignment test"),
  },
  // 1024³'s prologue (NOTES §85): the program id recovered from the folded dispatch (abi.ts) without its modulo.
  "pid-linear": {
    what: "pid_x taken as the linear id itself, not `linear % params.grid.x`: the same wherever the grid is 1-D (grid.y = grid.z = 1)",
    apply: (wgsl) => replaceAll(wgsl, /let pid_x = i32\(linear % params\.grid\.x\);/, "let pid_x = i32(linear);", "pid-linear: no pid_x from linear"),
  },
  "c-slices-no-copy": {
    what: "the slices' element stores into C removed (BAD: timing only): the matrix stores into the slices and the barriers kept",
    apply: (wgsl) => replaceAll(wgsl, /^\s*if \([^\n]*\) \{ b_\w+\[u32\([^\n]*\] = sm_mmae_f32\[[^\n]*\]; \}\n/gm, "", "c-slices-no-copy: no slice copy"),
  },
  "c-slices-no-barriers": {
    what: "the barriers between the slices' matrix stores and their copies removed (racy: timing only)",
    apply: (wgsl) => {
      const at = wgsl.indexOf("let mma_slice");
      if (at < 0) throw new Error("c-slices-no-barriers: no slices");
      return wgsl.slice(0, at) + replaceAll(wgsl.slice(at), /^\s*workgroupBarrier\(\);\n/gm, "", "c-slices-no-barriers: no barrier");
    },
  },
};

/**
 * words-branchless: `if (m0 & … & mN) { runs } else { x = other; if (m) { x = half; } … }` becomes the runs
 * alone followed by `x = select(other, x, m);` for each half.
 */
function wordsBranchless(wgsl: string): string {
  const lines = wgsl.split("\n");
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const head = /^(\s*)if \(\w+(?: & \w+)+\) \{$/.exec(lines[i]);
    const elseAt = head ? lines.indexOf(`${head[1]}} else {`, i) : -1;
    const endAt = elseAt > 0 ? lines.indexOf(`${head![1]}}`, elseAt) : -1;
    const body = endAt > 0 ? lines.slice(elseAt + 1, endAt) : [];
    if (!head || endAt < 0 || !body.some((l) => /bitcast<vec2<f16>>\(b_\w+\[/.test(l))) {
      out.push(lines[i]);
      continue;
    }
    out.push(`${head[1]}{`, ...lines.slice(i + 1, elseAt), `${head[1]}}`);
    for (let k = 0; k + 1 < body.length; k += 2) {
      const other = /^\s*(\w+) = (.+);$/.exec(body[k]);
      const masked = /^\s*if \((\w+)\) \{ (\w+) = /.exec(body[k + 1]);
      if (!other || !masked || masked[2] !== other[1]) throw new Error(`words-branchless: unexpected masked way at line ${elseAt + 2 + k}`);
      out.push(`${head[1]}${other[1]} = select(${other[2]}, ${other[1]}, ${masked[1]});`);
    }
    i = endAt;
    changed = true;
  }
  if (!changed) throw new Error("words-branchless: no run read in words under a whole-run test");
  return out.join("\n");
}

/** `text` with every match of `pattern` replaced; throws `none` where nothing matched. */
function replaceAll(text: string, pattern: RegExp, by: string, none: string): string {
  const out = text.replace(pattern, by);
  if (out === text) throw new Error(none);
  return out;
}

/** The WGSL with `names`' edits applied in order. */
export function applyEdits(wgsl: string, names: string[]): string {
  return names.reduce((text, name) => {
    const edit = WGSL_EDITS[name];
    if (!edit) throw new Error(`unknown WGSL edit "${name}" (known: ${Object.keys(WGSL_EDITS).join(", ")})`);
    return edit.apply(text);
  }, wgsl);
}

function dropUnreadLets(wgsl: string): string {
  const lines = wgsl.split("\n");
  for (let changed = true; changed;) {
    changed = false;
    const counts = new Map<string, number>();
    for (const line of lines) for (const n of line.match(/\b[A-Za-z_]\w*\b/g) ?? []) counts.set(n, (counts.get(n) ?? 0) + 1);
    lines.forEach((line, i) => {
      const m = /^\s*let (\w+)\s*=[^;]*;\s*$/.exec(line);
      if (m && counts.get(m[1]) === 1 && !/atomic/.test(line)) [lines[i], changed] = ["", true];
    });
  }
  return lines.filter((l) => l !== "").join("\n");
}

/**
 * The store's `if (cwholeN) { … } else { … }` (codegen/mma-store.ts): the else way's body removed,
 * then the transfer array's declaration, which nothing else may use.
 */
function dropStagedStore(wgsl: string): string {
  const lines = wgsl.split("\n");
  const start = lines.findIndex((l) => /^\s*if \(cwhole\d+\) \{\s*$/.test(l));
  if (start < 0) throw new Error("no-c-staging: no whole-tile test on the store (`if (cwholeN)`)");
  const indent = /^\s*/.exec(lines[start])![0];
  const otherwise = lines.findIndex((l, i) => i > start && l === `${indent}} else {`);
  const end = lines.findIndex((l, i) => i > otherwise && l === `${indent}}`);
  if (otherwise < 0 || end < 0) throw new Error("no-c-staging: the store's other way not found");
  lines.splice(otherwise, end - otherwise, `${indent}} else {`);
  // The array that way went through: the transfer array, or the edge tiles' slices (§44).
  const array = /var<workgroup> (sm_mma[ce]_f32)\b/.exec(wgsl)?.[1];
  if (!array) throw new Error("no-c-staging: no transfer array (sm_mmac_f32) or slices (sm_mmae_f32)");
  const kept = lines.filter((l) => !l.startsWith(`var<workgroup> ${array}:`));
  if (kept.some((l) => new RegExp(`\\b${array}\\b`).test(l))) throw new Error(`no-c-staging: ${array} is used elsewhere too`);
  return kept.join("\n");
}
