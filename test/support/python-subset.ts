// README's "Triton in Python" subset table, generated from Kernel Lab's own torch and triton
// modules: test/python/subset.py lists what they define (run on the embedded Python), and this
// turns it into the table between the README's python-subset markers.
//   npx tsx test/support/python-subset.ts --write    (rewrites the README's table)

import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { runPythonFile } from "../../src/harness/python/session";
import { startPythonThread } from "../../src/harness/python/thread-node";

const ROOT = path.resolve(__dirname, "../..");
export const README = path.join(ROOT, "README.md");
const START = "<!-- python-subset:start (generated: npx tsx test/support/python-subset.ts --write) -->";
const END = "<!-- python-subset:end -->";

/** The table as the modules define it now. */
export async function generatedTable(): Promise<string> {
  const { report, outcome } = await runPythonFile(path.join(ROOT, "test/python/subset.py"), { cpu: true, bench: "off" }, startPythonThread);
  if (outcome !== "ok") throw new Error(`subset.py failed: ${report.traceback}`);
  const lists = JSON.parse(report.stdout) as Record<string, string[]>;
  const rows = Object.entries(lists).map(([where, names]) => `| \`${where}\` | ${names.map((n) => `\`${n}\``).join(", ")} |`);
  return [START, "", "| where | what runs |", "|---|---|", ...rows, "", END].join("\n");
}

/** The table in the README now (with its markers), or undefined if it has none. */
export function readmeTable(text = readFileSync(README, "utf8")): string | undefined {
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  return a < 0 || b < 0 ? undefined : text.slice(a, b + END.length);
}

if (process.argv.includes("--write")) {
  void generatedTable().then((table) => {
    const text = readFileSync(README, "utf8");
    const old = readmeTable(text);
    if (!old) throw new Error("README.md has no python-subset markers");
    writeFileSync(README, text.replace(old, table));
    process.exit(0);
  });
}
