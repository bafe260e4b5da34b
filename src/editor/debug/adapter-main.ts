// The debug adapter's own process (dist/debug-adapter.js): VS Code speaks the Debug Adapter
// Protocol to it over stdin/stdout (editor/debug/provider.ts starts it).
import { DebugSession } from "@vscode/debugadapter";
import { KernelDebugSession } from "./session";

DebugSession.run(KernelDebugSession);
