// extensionTestsPath of the untrusted run: test/editor/workspace-untrusted/ opened in restricted mode.
import { join } from "node:path";
import { runMochaFolder } from "./mocha-runner";

export function run(): Promise<void> {
  return runMochaFolder("untrusted", join(__dirname, "untrusted"));
}
