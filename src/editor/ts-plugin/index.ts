// A TypeScript server plugin, loaded by tsserver (not by the extension host), that makes
// `import … from "kernel-lab"` resolve to the extension's own `types/kernel-lab.d.ts` wherever the
// workspace has no `kernel-lab` package of its own. Nothing is written into the user's workspace.
//
// The build bundles this file to `node_modules/kernel-lab-ts-plugin/index.js` inside the extension,
// because tsserver looks plugins up as packages under `<extension>/node_modules`
// (`contributes.typescriptServerPlugins` in package.json names it).

import type * as ts from "typescript";
import * as fs from "node:fs";
import * as path from "node:path";

const MODULE_NAME = "kernel-lab";

/** `<extension>/types/kernel-lab.d.ts`, seen from `<extension>/node_modules/kernel-lab-ts-plugin/`. */
const DEFAULT_TYPES_FILE = path.resolve(__dirname, "..", "..", "types", "kernel-lab.d.ts");

interface PluginConfig {
  /** Overrides where the declarations are (tests; `configurePlugin` from the extension). */
  typesFile?: string;
}

function init(modules: { typescript: typeof ts }): ts.server.PluginModule {
  const typescript = modules.typescript;
  let typesFile = DEFAULT_TYPES_FILE;

  // The file name with forward slashes, on Windows too, as TypeScript's own resolver gives them.
  const fallback = (): ts.ResolvedModuleFull | undefined =>
    fs.existsSync(typesFile)
      ? { resolvedFileName: typescript.server.toNormalizedPath(typesFile), extension: typescript.Extension.Dts, isExternalLibraryImport: true }
      : undefined;

  return {
    create(info) {
      const config = info.config as PluginConfig | undefined;
      if (config?.typesFile) typesFile = config.typesFile;
      const host = info.languageServiceHost;
      const log = (message: string) => info.project.projectService.logger.info(`[kernel-lab] ${message}`);
      log(`resolving "${MODULE_NAME}" to ${typesFile} where the workspace does not provide it`);

      // TypeScript >= 5.0 resolves through resolveModuleNameLiterals; older versions through resolveModuleNames.
      const resolveLiterals = host.resolveModuleNameLiterals?.bind(host);
      if (resolveLiterals) {
        host.resolveModuleNameLiterals = (literals, ...rest) => {
          const resolved = resolveLiterals(literals, ...rest);
          return resolved.map((r, i) => {
            if (literals[i].text !== MODULE_NAME || r.resolvedModule) return r;
            const resolvedModule = fallback();
            return resolvedModule ? { ...r, resolvedModule } : r;
          });
        };
      }
      const resolveNames = host.resolveModuleNames?.bind(host);
      if (resolveNames) {
        host.resolveModuleNames = (names, ...rest) => {
          const resolved = resolveNames(names, ...rest);
          return resolved.map((r, i) => (names[i] === MODULE_NAME && !r ? fallback() : r));
        };
      }
      return info.languageService;
    },
    onConfigurationChanged(config: PluginConfig) {
      if (config?.typesFile) typesFile = config.typesFile;
    },
  };
}

export = init;
