// `--debug` (KERNEL_LAB_DEBUG): one stderr line per step of a run, with the milliseconds since the
// process started, to see where a run's time goes (`bench/overhead.ts` reads these lines).

import { host } from "../runtime/host";

export function trace(step: string): void {
  if (host.env("KERNEL_LAB_DEBUG")) host.warn(`kernel-lab: ${performance.now().toFixed(1)} ms: ${step}`);
}
