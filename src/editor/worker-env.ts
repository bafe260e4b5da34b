// The environment of the run worker (dist/worker.js), which the editor forks with VS Code's own
// executable: Electron on the desktop (Code.exe on Windows, "Code Helper (Plugin)" on a Mac), so
// ELECTRON_RUN_AS_NODE makes it a plain Node. Pure, so each OS's answer is tested anywhere.

/** The extension host's environment with what the worker needs on `platform`. */
export function workerEnv(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, tmpdir: string): NodeJS.ProcessEnv {
  return {
    ...env,
    ELECTRON_RUN_AS_NODE: "1",
    // Mesa (Linux's Vulkan drivers, lavapipe among them) prints an error line at every start
    // without it; Metal and Direct3D don't read it.
    ...(platform === "linux" && env.XDG_RUNTIME_DIR === undefined ? { XDG_RUNTIME_DIR: tmpdir } : {}),
  };
}
