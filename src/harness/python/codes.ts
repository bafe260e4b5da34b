// Stable codes of running a Python file (SPEC §4.1): KL3120–KL3139 for the script and its
// launches, KL4010–KL4019 for the embedded Python itself. Codes never change meaning.

export const PythonCodes = {
  /** The script raised: its traceback is the message (the line is the innermost frame in the file). */
  scriptRaised: "KL3120",
  /** A `kernel[grid](…)` names a function the file does not define with `@triton.jit`. */
  kernelNotInFile: "KL3121",
  /** A launch's argument is not something a kernel takes (a tensor, an int, a float, a bool, None). */
  launchArg: "KL3122",
  /** A launch's grid is not 1 to 3 positive integers. */
  launchGrid: "KL3123",
  /** Pyodide could not be started (its files missing or unreadable). */
  pythonStart: "KL4010",
} as const;
