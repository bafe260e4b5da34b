// Kernel Lab's type declarations as a file a workspace can hold (`kernel-lab.d.ts`), for where
// TypeScript's own service can't reach the extension's TS server plugin: VS Code for the Web,
// whose TypeScript runs apart from our extension (docs/ARCHITECTURE.md, "Types in the web"). The
// package's module declarations (types/kernel-lab.d.ts) become one ambient module, which a
// TypeScript project that includes the file resolves `import … from "kernel-lab"` to.

export const TYPES_FILE = "kernel-lab.d.ts";

/** The first line of a file Kernel Lab wrote: such a file may be rewritten (a newer version); any other is the user's. */
export const WRITTEN_BY = "// Written by Kernel Lab (command: Kernel Lab: Add Kernel Lab's Types to This Folder).";

/** The workspace file's text: the package's declarations inside `declare module "kernel-lab" { … }`. */
export function ambientTypes(declarations: string, version: string): string {
  // Inside an ambient module every declaration is ambient already; `declare` there is an error.
  const body = declarations
    .replace(/\r\n/g, "\n")
    .replace(/^export declare /gm, "export ")
    .replace(/^declare /gm, "")
    .trimEnd()
    .split("\n")
    .map((line) => (line ? `  ${line}` : line))
    .join("\n");
  return `${WRITTEN_BY}
// The types of \`import … from "kernel-lab"\` (Kernel Lab ${version}), for TypeScript's service where
// the extension's TypeScript plugin can't supply them (VS Code for the Web). Delete this file to
// go back to the plugin; run the command again after updating Kernel Lab.
declare module "kernel-lab" {
${body}
}
`;
}

/** A tsconfig.json for a folder of kernel files that has none (TypeScript then sees this folder's files as one project). */
export const MINIMAL_TSCONFIG = `${JSON.stringify(
  { compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", strict: true, noEmit: true, skipLibCheck: true }, include: ["**/*.ts"] },
  null,
  2,
)}\n`;
