// The steps a run reports as it goes (a progress bar, a status line, `--debug`'s trace): a leaf
// module, so the files that report progress need nothing else of the run.

/** One step of a run, for a progress bar or status line. */
export interface Progress {
  phase: "load" | "adapter" | "compile" | "tune" | "launch" | "compare" | "time" | "baseline";
  run?: string;
  size?: number;
  message: string;
}
