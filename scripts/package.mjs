// `npm run package`: one .vsix per VS Code target (scripts/package-targets.mjs says what each
// holds), written to the repository root as vsce names them: kernel-lab-<target>-<version>.vsix.
// `node scripts/package.mjs linux-x64 web` builds only those (dist/ must be built first).
//
// The files come from our own lists, not vsce's collection: vsce asks `npm list` for the packages
// to ship (slow, and it fails on a node_modules it did not install, such as a worktree's link), and
// without npm it leaves node_modules/ out altogether. The rest is vsce 2.32's own packaging: its
// processors check the manifest and write extension.vsixmanifest (with the TargetPlatform),
// [Content_Types].xml and the README and LICENSE entries; yazl (vsce's own zip writer) writes the
// archive. The packages are written side by side, so their compression shares the machine's cores.

import { createRequire } from "node:module";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TARGETS, manifestFor, rulesFor, targetsOf, vsixName } from "./package-targets.mjs";
import yazl from "yazl";

const require = createRequire(import.meta.url);
// Not vsce's public API (api.js packs through its own file collection): pinned with vsce itself.
const vsce = require("@vscode/vsce/out/package.js");

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Repository-relative paths (with `/`) of every file under `dir`, in a stable order; no dotfiles (media/.gitignore). */
function filesUnder(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith("."))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
    });
}

/** The files a target's rules name; a missing one is an error (a build step did not run). */
function filesFor(target) {
  return rulesFor(target).flatMap((rule) => {
    const full = join(root, rule.path);
    if (!existsSync(full)) {
      if (rule.optional) return [];
      throw new Error(`${target}: ${rule.path} does not exist (run \`node scripts/build.mjs\` first?)`);
    }
    switch (rule.kind) {
      case "file":
        return [rule.path];
      case "folder":
        return filesUnder(rule.path);
      case "matching":
        return readdirSync(full).filter((name) => rule.pattern.test(name)).sort().map((name) => `${rule.path}/${name}`);
      default:
        throw new Error(`unknown rule kind ${rule.kind}`);
    }
  });
}

/** Packages one target; returns the .vsix's path. */
async function packageTarget(manifest, target) {
  const targetManifest = vsce.validateManifest(structuredClone(manifestFor(manifest, target)));
  const files = [
    { path: "extension/package.json", contents: Buffer.from(`${JSON.stringify(targetManifest, null, 2)}\n`) },
    ...filesFor(target).map((path) => ({ path: `extension/${path}`, localPath: join(root, path) })),
  ];
  const options = { cwd: root, target, allowMissingRepository: true, skipLicense: true };
  const entries = await vsce.processFiles(vsce.createDefaultProcessors(targetManifest, options), files);
  const path = join(root, vsixName(manifest, target));
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.contents === undefined) zip.addFile(entry.localPath, entry.path, { mode: entry.mode ?? (await stat(entry.localPath)).mode });
    else zip.addBuffer(typeof entry.contents === "string" ? Buffer.from(entry.contents, "utf8") : entry.contents, entry.path, { mode: entry.mode ?? 0o100644 });
  }
  zip.end();
  await new Promise((resolve, reject) => zip.outputStream.pipe(createWriteStream(path)).on("finish", resolve).on("error", reject));
  return { path, files: entries.length, bytes: (await stat(path)).size };
}

const asked = process.argv.slice(2);
const unknown = asked.filter((t) => !TARGETS.includes(t));
if (unknown.length) {
  console.error(`unknown target(s) ${unknown.join(", ")}; known: ${TARGETS.join(", ")}`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const buildable = targetsOf(manifest);
for (const target of TARGETS.filter((t) => !buildable.includes(t))) {
  console.log(`${target.padEnd(13)} not built: package.json has no \`browser\` entry (the web extension is not in this tree)`);
}
const targets = asked.length ? asked : buildable;
const started = performance.now();
const results = await Promise.allSettled(targets.map((target) => packageTarget(manifest, target)));
let failed = 0;
results.forEach((result, i) => {
  if (result.status === "fulfilled") {
    const mib = (result.value.bytes / 2 ** 20).toFixed(1);
    console.log(`${targets[i].padEnd(13)} ${vsixName(manifest, targets[i])}: ${result.value.files} files, ${mib} MiB`);
  } else {
    failed++;
    console.error(`${targets[i].padEnd(13)} failed: ${result.reason?.message ?? result.reason}`);
  }
});
console.log(`${targets.length - failed} of ${targets.length} packages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
