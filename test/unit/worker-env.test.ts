// The run worker's environment on each OS (src/editor/worker-env.ts): always a plain Node inside
// VS Code's Electron; XDG_RUNTIME_DIR (for Mesa) only on Linux, and never over the user's own.

import { test } from "node:test";
import assert from "node:assert/strict";
import { workerEnv } from "../../src/editor/worker-env";

const TMP = { linux: "/tmp", darwin: "/var/folders/x/T", win32: "C:\\Users\\Ada Lovelace\\AppData\\Local\\Temp" } as const;

/** [platform, the extension host's environment, what the worker gets besides it] */
const CASES: [keyof typeof TMP, NodeJS.ProcessEnv, NodeJS.ProcessEnv][] = [
  ["linux", { PATH: "/usr/bin" }, { ELECTRON_RUN_AS_NODE: "1", XDG_RUNTIME_DIR: "/tmp" }],
  ["linux", { XDG_RUNTIME_DIR: "/run/user/1000" }, { ELECTRON_RUN_AS_NODE: "1" }],
  ["linux", { XDG_RUNTIME_DIR: "" }, { ELECTRON_RUN_AS_NODE: "1" }],
  ["darwin", { PATH: "/usr/bin" }, { ELECTRON_RUN_AS_NODE: "1" }],
  ["win32", { Path: "C:\\Windows\\system32", LOCALAPPDATA: "C:\\Users\\Ada Lovelace\\AppData\\Local" }, { ELECTRON_RUN_AS_NODE: "1" }],
];

for (const [platform, env, added] of CASES) {
  test(`worker environment on ${platform} from ${JSON.stringify(env)}`, () => {
    assert.deepEqual(workerEnv(platform, env, TMP[platform]), { ...env, ...added });
  });
}

test("the extension host's environment is left as it was", () => {
  const env = { PATH: "/usr/bin" };
  workerEnv("linux", env, "/tmp");
  assert.deepEqual(env, { PATH: "/usr/bin" });
});
