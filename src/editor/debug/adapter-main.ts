// The debug adapter's own process on the desktop (dist/debug-adapter.js): VS Code speaks the Debug
// Adapter Protocol to it over stdin/stdout (the desktop extension starts it), and it records the
// program itself.
import { DebugSession } from "@vscode/debugadapter";
import { recordHere } from "./record-here";
import { KernelDebugSession } from "./session";

DebugSession.run(
  class extends KernelDebugSession {
    constructor() {
      super(recordHere);
    }
  },
);
