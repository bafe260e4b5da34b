// What the web suite hands back to test/editor/web.test.mjs besides its counts: its log lines and
// the reports of its runs, which that script compares with the Node runtime's.
import type { FileReport } from "../../../src/harness/report";

export interface WebRun {
  file: string;
  run: string;
  size?: number;
  report: FileReport;
}

export const collected: { log: string[]; runs: WebRun[]; notes: string[] } = { log: [], runs: [], notes: [] };
