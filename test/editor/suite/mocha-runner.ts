// Runs one folder of mocha tests inside the extension host (the `run()` that VS Code calls for
// `extensionTestsPath`) and leaves their counts in out/test/editor/results/LABEL.json, where
// test/editor/run.mjs reads them: the log lines travel through the browser, the counts don't.
import Mocha from "mocha";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface SuiteCounts {
  suite: string;
  passed: number;
  failed: number;
  pending: number;
  failures: { title: string; message: string }[];
}

export function runMochaFolder(label: string, folder: string): Promise<void> {
  // KERNEL_LAB_EDITOR_GREP=<title part> runs only the matching tests (code-server passes its environment on).
  const grep = process.env.KERNEL_LAB_EDITOR_GREP;
  const mocha = new Mocha({ ui: "bdd", color: false, reporter: "spec", timeout: 60_000, ...(grep ? { grep } : {}) });
  for (const file of readdirSync(folder).sort()) {
    if (file.endsWith(".test.js")) mocha.addFile(join(folder, file));
  }
  const counts: SuiteCounts = { suite: label, passed: 0, failed: 0, pending: 0, failures: [] };
  const resultsDir = resolve(__dirname, "../results");
  const write = () => {
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, `${label}.json`), JSON.stringify(counts, null, 2));
  };
  return new Promise((done, reject) => {
    try {
      const runner = mocha.run((failures) => {
        write();
        console.log(`[${label}] ${counts.passed} passing, ${counts.failed} failing, ${counts.pending} pending`);
        if (failures > 0) reject(new Error(`${failures} test(s) failed in the ${label} suite`));
        else done();
      });
      runner.on("pass", () => counts.passed++);
      runner.on("pending", () => counts.pending++);
      runner.on("fail", (test, error: Error) => {
        counts.failed++;
        counts.failures.push({ title: test.fullTitle(), message: String(error?.message ?? error) });
      });
    } catch (error) {
      counts.failed++;
      counts.failures.push({ title: "loading the suite", message: String(error) });
      write();
      reject(error);
    }
  });
}
