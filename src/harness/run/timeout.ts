// The time limit of one size of one run (`timeoutMs`, default 120 s): a hung kernel or an endless
// host function ends as KL3900 at the run instead of holding the file's report forever.

import { RunCodes, RunDefinitionError } from "../codes";

export const DEFAULT_TIMEOUT_MS = 120_000;

export function withTimeout<T>(work: Promise<T>, ms: number, run: string, size: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RunDefinitionError(RunCodes.timeout, `Run '${run}' (size ${size}) did not finish within ${ms / 1000} s. Use a smaller size, or check the kernel's loops; kernel-lab run --timeout SECONDS (kernelLab.timeoutSeconds in the editor) raises the limit.`, run)),
      ms,
    );
    // In Node the limit alone must not keep the process alive; a browser's timers are plain numbers.
    (timer as { unref?: () => void }).unref?.();
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
