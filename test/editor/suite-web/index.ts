// extensionTestsPath of the web stage (test/editor/web.test.mjs): mocha's browser build, run in
// VS Code's web worker extension host beside the extension under test. Bundled for the browser into
// out/test/editor/web-runner/index.js: the web host loads test code only from inside a development
// extension, which is either the working tree (Kernel Lab itself) or that folder (a web-only test
// extension beside the installed web package). A worker can't write to disk, so the counts, the log
// and the run reports go into web.json next to this file, through `vscode.workspace.fs`.
import "mocha/mocha.js";
import * as vscode from "vscode";
import { extensionId } from "./extension-id";
import { collected } from "./collected";

interface BrowserMocha {
  setup(options: { ui: string; reporter: unknown; timeout: number; color?: boolean }): void;
  run(done: (failures: number) => void): { on(event: string, listener: (...args: never[]) => void): void };
}

export async function run(): Promise<void> {
  const mocha = (globalThis as unknown as { mocha: BrowserMocha }).mocha;
  mocha.setup({ ui: "bdd", reporter: null, timeout: 120_000 });
  await import("./web.test");
  const counts = { suite: "web", passed: 0, failed: 0, pending: 0, failures: [] as { title: string; message: string }[] };
  const say = (line: string) => {
    collected.log.push(line);
    console.log(line);
  };
  await new Promise<void>((done) => {
    const runner = mocha.run(() => done());
    runner.on("pass", (test: { fullTitle(): string; duration?: number }) => {
      counts.passed++;
      say(`  ✔ ${test.fullTitle()} (${test.duration ?? 0} ms)`);
    });
    runner.on("pending", (test: { fullTitle(): string }) => {
      counts.pending++;
      say(`  - ${test.fullTitle()}`);
    });
    runner.on("fail", (test: { fullTitle(): string }, error: Error) => {
      counts.failed++;
      counts.failures.push({ title: test.fullTitle(), message: String(error?.stack ?? error?.message ?? error) });
      say(`  ✗ ${test.fullTitle()}: ${String(error?.message ?? error)}`);
    });
  });
  // This file's folder: the test extension's, else the working tree's out/test/editor/web-runner/.
  const runner = vscode.extensions.getExtension(`${extensionId}-web-tests`)?.extensionUri;
  const kernelLab = vscode.extensions.getExtension(extensionId)?.extensionUri;
  const folder = runner ?? (kernelLab && vscode.Uri.joinPath(kernelLab, "out/test/editor/web-runner"));
  if (folder) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, "web.json"), new TextEncoder().encode(JSON.stringify({ ...counts, ...collected }, null, 2)));
  if (counts.failed > 0) throw new Error(`${counts.failed} test(s) failed in the web suite`);
}
