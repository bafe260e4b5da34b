// Errors of the GPU runtime. Device errors never crash the process: they are recorded and thrown
// from the next runtime operation as a `GpuError` with a stable code (KL4xxx, docs/ERRORS.md).

import { GPU_CODES } from "../diagnostics/codes";
import { host } from "./host";
import { noAdapterAdvice } from "./no-adapter";

/** What went wrong, in the user's words; each kind has one diagnostic code. */
export type GpuErrorKind =
  | "device-lost"
  | "validation"
  | "out-of-memory"
  | "internal"
  | "shader-compile"
  | "buffer-too-large"
  | "bad-launch";

export class GpuError extends Error {
  readonly code: `KL${number}`;
  constructor(
    readonly kind: GpuErrorKind,
    message: string,
    /** The kernel (or buffer label) the failing operation belonged to, when known. */
    readonly subject?: string,
  ) {
    super(message);
    this.name = "GpuError";
    this.code = GPU_CODES[kind].code;
  }
}

/** One message of WGSL compilation, 1-based line/column in the WGSL text. */
export interface WgslMessage {
  severity: "error" | "warning" | "info";
  line: number;
  column: number;
  message: string;
}

export class ShaderCompileError extends GpuError {
  constructor(
    kernel: string,
    readonly messages: WgslMessage[],
  ) {
    const lines = messages.map((m) => `  wgsl:${m.line}:${m.column} - ${m.severity}: ${m.message}`);
    super("shader-compile", `WGSL for kernel '${kernel}' did not compile:\n${lines.join("\n")}`, kernel);
    this.name = "ShaderCompileError";
  }
}

/** No WebGPU adapter: the CLI exits with code 3 and shows this message, with what to do on this OS (no-adapter.ts). */
export class NoAdapterError extends Error {
  readonly code = GPU_CODES["no-adapter"].code;
  constructor(detail?: string, platform = host.platform as NodeJS.Platform | "browser") {
    super(`No GPU adapter found${detail ? ` (${detail})` : ""}. ${noAdapterAdvice(platform)}`);
    this.name = "NoAdapterError";
  }
}
