// One line a kernel from the disassembly bench/sass-read.sh wrote (DIR/NAME/kernel.sass): registers
// (the highest general register named, plus one: what the kernel needs of the 255 a thread may have),
// spills (local-memory loads and stores), and the instructions of its hottest loop (the backward
// branch whose body holds the most matrix multiplies; of equals, the innermost) by kind.
//   node bench/sass-summary.mjs DIR [--json]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const KINDS = {
  HMMA: /^HMMA/, LDSM: /^LDSM/, LDS: /^LDS(\.|$)/, STS: /^STS/, LDG: /^LDG/, STG: /^STG/, BAR: /^BAR/,
  LDL: /^LDL/, STL: /^STL/, SHFL: /^SHFL/, BRA: /^BRA/, ISETP: /^ISETP/, IMAD: /^IMAD/, IADD: /^IADD/, LEA: /^LEA/,
  PRMT: /^PRMT/, MOV: /^MOV/, SEL: /^SEL/, LOP: /^LOP/, F2F: /^F2F/,
};

/** Each instruction: its address, opcode and text; each label: the address it names. */
function parse(text) {
  const insts = [];
  const labels = new Map();
  let pendingLabels = [];
  for (const line of text.split("\n")) {
    const label = /^\s*(\.L_[\w]+):/.exec(line);
    if (label) { pendingLabels.push(label[1]); continue; }
    const m = /\/\*([0-9a-f]{4,})\*\/\s+(?:\{\s*)?(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);/.exec(line);
    if (!m) continue;
    const inst = { at: parseInt(m[1], 16), op: m[3], args: m[4], index: insts.length };
    for (const l of pendingLabels) labels.set(l, inst.index);
    pendingLabels = [];
    insts.push(inst);
  }
  return { insts, labels };
}

function count(insts) {
  const by = Object.fromEntries(Object.keys(KINDS).map((k) => [k, 0]));
  for (const i of insts) for (const [k, re] of Object.entries(KINDS)) if (re.test(i.op)) { by[k]++; break; }
  return by;
}

export function summary(name, text) {
  const { insts, labels } = parse(text);
  let regs = 0;
  for (const i of insts) for (const r of i.args.matchAll(/\bR(\d+)\b/g)) regs = Math.max(regs, Number(r[1]) + 1);
  // Loops: a branch back to a label at or before it.
  let hot;
  for (const i of insts) {
    if (!/^BRA/.test(i.op)) continue;
    // The target: a label (ELF objects) or an address (the driver's NVuc objects).
    const label = /(\.L_[\w]+)/.exec(i.args)?.[1];
    const address = /\b0x([0-9a-f]+)\b/.exec(i.args)?.[1];
    const start = label !== undefined ? labels.get(label) : address !== undefined ? insts.findIndex((x) => x.at === parseInt(address, 16)) : undefined;
    if (start === undefined || start < 0 || start > i.index) continue;
    const body = insts.slice(start, i.index + 1);
    const mma = body.filter((b) => /^HMMA/.test(b.op)).length;
    if (body.length < 2) continue; // the branch to itself after EXIT
    // Of loops with as many multiplies, the innermost.
    if (!hot || mma > hot.mma || (mma === hot.mma && body.length < hot.body.length)) hot = { mma, body };
  }
  return { name, instructions: insts.length, regs, all: count(insts), loop: hot ? { length: hot.body.length, ...count(hot.body) } : undefined };
}

// Run as a command (not when a test imports summary).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  const rows = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "kernel.sass")))
    .map((d) => summary(d.name, readFileSync(join(dir, d.name, "kernel.sass"), "utf8")));
  if (process.argv.includes("--json")) console.log(JSON.stringify(rows, null, 1));
  else {
    const cols = ["HMMA", "LDSM", "LDS", "STS", "LDG", "BAR", "ISETP", "IMAD", "IADD", "LEA", "PRMT", "MOV", "SEL", "BRA"];
    console.log(["kernel", "regs", "insts", "LDL/STL", "loop", ...cols].join("\t"));
    for (const r of rows) {
      console.log([r.name, r.regs, r.instructions, `${r.all.LDL}/${r.all.STL}`, r.loop?.length ?? "-", ...cols.map((c) => r.loop?.[c] ?? "-")].join("\t"));
    }
  }
}
