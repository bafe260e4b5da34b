// extensionTestsPath of the trusted run: the workspace is test/editor/workspace/, trusted.
import { join } from "node:path";
import { runMochaFolder } from "./mocha-runner";

export function run(): Promise<void> {
  return runMochaFolder("trusted", join(__dirname, "trusted"));
}
