// The TypeScript server plugin the extension contributes: in a workspace with no kernel-lab
// package (and no tsconfig), a kernel file type-checks with no errors in tsserver, as VS Code
// runs it. Needs the build (node_modules/kernel-lab-ts-plugin).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.resolve(__dirname, "..", "..");
const tsserver = path.join(root, "node_modules", "typescript", "lib", "tsserver.js");

interface TsDiagnostic {
  code: number;
  text: string;
}

/** Opens files in a fresh tsserver and returns their syntactic + semantic diagnostics. */
async function diagnosticsOf(files: string[], withPlugin: boolean): Promise<TsDiagnostic[]> {
  const args = [tsserver, "--disableAutomaticTypingAcquisition"];
  if (withPlugin) args.push("--globalPlugins", "kernel-lab-ts-plugin", "--pluginProbeLocations", root);
  const server = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  let buffer = "";
  const responses = new Map<number, (body: TsDiagnostic[]) => void>();
  server.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    for (;;) {
      const header = /Content-Length: (\d+)\r\n\r\n/.exec(buffer);
      if (!header) break;
      const start = header.index + header[0].length;
      const length = Number(header[1]);
      if (Buffer.byteLength(buffer.slice(start)) < length) break;
      const body = Buffer.from(buffer.slice(start)).subarray(0, length).toString();
      buffer = Buffer.from(buffer.slice(start)).subarray(length).toString();
      const message = JSON.parse(body) as { type: string; request_seq?: number; body?: TsDiagnostic[] };
      if (message.type === "response" && message.request_seq !== undefined) responses.get(message.request_seq)?.(message.body ?? []);
    }
  });
  let seq = 0;
  const send = (command: string, args: object) => {
    seq += 1;
    server.stdin.write(JSON.stringify({ seq, type: "request", command, arguments: args }) + "\n");
    return seq;
  };
  const ask = (command: string, args: object) =>
    new Promise<TsDiagnostic[]>((resolve) => responses.set(send(command, args), resolve));
  try {
    // What VS Code 1.100 sends for files outside any tsconfig (js/ts.implicitProjectConfig defaults).
    send("compilerOptionsForInferredProjects", {
      options: { module: "ESNext", moduleResolution: "Node", target: "ES2020", jsx: "react", strictNullChecks: true, strictFunctionTypes: true, allowJs: true, allowSyntheticDefaultImports: true, allowNonTsExtensions: true, resolveJsonModule: true },
    });
    const found: TsDiagnostic[] = [];
    for (const file of files) {
      send("open", { file });
      const syntactic = await ask("syntacticDiagnosticsSync", { file });
      const semantic = await ask("semanticDiagnosticsSync", { file });
      found.push(...[...syntactic, ...semantic].map((d) => ({ ...d, text: `${path.basename(file)}: ${d.text}` })));
    }
    return found;
  } finally {
    server.kill();
  }
}

test("the examples type-check through the plugin in a workspace without kernel-lab", { timeout: 60000 }, async (t) => {
  if (!existsSync(path.join(root, "node_modules", "kernel-lab-ts-plugin", "index.js"))) {
    t.skip("run `node scripts/build.mjs` first");
    return;
  }
  const workspace = mkdtempSync(path.join(os.tmpdir(), "kernel-lab-ws-"));
  try {
    const examples = readdirSync(path.join(root, "examples")).filter((f) => f.endsWith(".kernel.ts"));
    const files = examples.map((name) => {
      copyFileSync(path.join(root, "examples", name), path.join(workspace, name));
      return path.join(workspace, name);
    });

    const without = await diagnosticsOf(files.slice(0, 1), false);
    assert.ok(
      without.some((d) => d.code === 2307 && d.text.includes("kernel-lab")),
      `without the plugin, "kernel-lab" should not resolve: ${JSON.stringify(without)}`,
    );
    const withPlugin = await diagnosticsOf(files, true);
    assert.deepEqual(withPlugin, []);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
