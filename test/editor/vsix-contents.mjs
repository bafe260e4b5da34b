// Every .vsix `npm run package` wrote, unpacked and checked file by file: each holds exactly its
// own platform's native files and nothing of another's, names its target in its manifest, and
// (desktop) carries the Node bundles or (web) none of them. vsix.test.mjs runs these checks right
// after packaging; `node test/editor/vsix-contents.mjs` runs them on the packages already there.
// Prints one line per check and `N passed, N failed`.

import { createRequire } from "node:module";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { hostTarget } from "../../scripts/package-targets.mjs";

const require = createRequire(import.meta.url);
const yauzl = require("yauzl");

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));

const DAWN = "extension/node_modules/webgpu/dist";
const WINDOWS_DLLS = ["d3dcompiler_47.dll", "dawn.node", "dxcompiler.dll"];

/** Each target's native files, exactly (paths in the .vsix). */
const NATIVE_FILES = {
  "linux-x64": [`${DAWN}/linux-x64/dawn.node`],
  "linux-arm64": [`${DAWN}/linux-arm64/dawn.node`],
  "darwin-x64": [`${DAWN}/darwin-universal/dawn.node`],
  "darwin-arm64": [`${DAWN}/darwin-universal/dawn.node`],
  "win32-x64": WINDOWS_DLLS.map((name) => `${DAWN}/win32-x64/${name}`),
  "win32-arm64": WINDOWS_DLLS.map((name) => `${DAWN}/win32-arm64/${name}`),
  web: [],
};

/** Files that are native code, or a native tool that must stay at build time. */
const isNative = (path) => /\.(node|dll|dylib|so|exe)$/i.test(path) || /(^|\/)node_modules\/(@esbuild|esbuild)\//.test(path);

/** What a desktop package needs besides its natives; Windows also its compilers' license texts. */
function desktopMustHave(target) {
  const licenses = target.startsWith("win32-") ? ["dxcompiler-LICENSE.TXT", "dxcompiler-ThirdPartyNotices.txt"].map((name) => `${DAWN}/${target}/${name}`) : [];
  return ["dist/extension.js", "dist/worker.js", "dist/debug-adapter.js", "dist/cli.js", "node_modules/typescript/lib/typescript.js"]
    .map((path) => `extension/${path}`)
    .concat(licenses);
}

/** Where a package's files may lie: the web package, the browser bundles, the editor's static parts, the TS plugin; a desktop package also Node's bundles, Dawn and TypeScript. */
const ALLOWED = {
  web: /^extension\/(dist\/web\/|dist\/pyodide\/|dist\/python-lib\/|media\/|syntaxes\/|types\/|node_modules\/kernel-lab-ts-plugin\/|package\.json$|README\.md$|LICENSE(\.txt|\.md)?$)/,
  desktop: /^extension\/(dist\/|media\/|syntaxes\/|types\/|node_modules\/(kernel-lab-ts-plugin|webgpu|typescript)\/|package\.json$|README\.md$|LICENSE(\.txt|\.md)?$)/,
};
/** The Node-only files the web package must leave out, named so a failure says which. */
const NODE_ONLY = ["dist/worker.js", "dist/debug-adapter.js", "dist/extension.js", "dist/cli.js", "node_modules/webgpu/", "node_modules/typescript/"].map((p) => `extension/${p}`);

/** The host's package: linux-x64 here; a Mac or Windows machine picks its own. */
const HOST_TARGETS = [
  ["linux", "x64", "linux-x64"],
  ["linux", "arm64", "linux-arm64"],
  ["darwin", "x64", "darwin-x64"],
  ["darwin", "arm64", "darwin-arm64"],
  ["win32", "x64", "win32-x64"],
  ["win32", "arm64", "win32-arm64"],
  ["linux", "arm", undefined],
  ["freebsd", "x64", undefined],
];

/** The targets packaged: the six desktop ones, and web once the manifest has its `browser` entry. */
export function expectedTargets() {
  return Object.keys(NATIVE_FILES).filter((target) => target !== "web" || typeof manifest.browser === "string");
}

export const vsixPathOf = (target) => join(repoRoot, `${manifest.name}-${target}-${manifest.version}.vsix`);

/** Every entry of a .vsix, inflated, its size and CRC-32 checked (yauzl checks the size, not the CRC). */
export function readVsix(path) {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map();
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks = [];
          stream.on("data", (chunk) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            const bytes = Buffer.concat(chunks);
            if (zlib.crc32 && zlib.crc32(bytes) >>> 0 !== entry.crc32) return reject(new Error(`${entry.fileName}: CRC-32 mismatch`));
            entries.set(entry.fileName, { bytes });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

const sorted = (list) => [...list].sort();
function sameList(what, actual, expected) {
  const extra = actual.filter((x) => !expected.includes(x));
  const missing = expected.filter((x) => !actual.includes(x));
  if (extra.length || missing.length) {
    throw new Error(`${what}: ${extra.length ? `unexpected ${extra.join(", ")}` : ""}${extra.length && missing.length ? "; " : ""}${missing.length ? `missing ${missing.join(", ")}` : ""}`);
  }
}

/** dist/web/** as built, which every package ships. */
function builtWebFiles() {
  const walk = (dir) =>
    readdirSync(join(repoRoot, dir)).flatMap((name) => (statSync(join(repoRoot, dir, name)).isDirectory() ? walk(`${dir}/${name}`) : [`extension/${dir}/${name}`]));
  return existsSync(join(repoRoot, "dist/web")) ? walk("dist/web") : [];
}

function checkPackage(target, entries) {
  const names = [...entries.keys()];
  const text = (name) => {
    const entry = entries.get(name);
    if (!entry) throw new Error(`no ${name}`);
    return entry.bytes.toString("utf8");
  };
  const identity = /<Identity [^>]*\/>/.exec(text("extension.vsixmanifest"))?.[0] ?? "";
  if (!identity.includes(`TargetPlatform="${target}"`)) throw new Error(`extension.vsixmanifest's identity does not name ${target}: ${identity}`);
  sameList("native files", sorted(names.filter(isNative)), sorted(NATIVE_FILES[target]));
  const packaged = JSON.parse(text("extension/package.json"));
  const missingWeb = builtWebFiles().filter((name) => !entries.has(name));
  if (missingWeb.length) throw new Error(`dist/web/ files missing: ${missingWeb.join(", ")}`);
  if (target === "web") {
    if ("main" in packaged) throw new Error(`package.json has main: ${packaged.main}`);
    if (!entries.has(`extension/${packaged.browser.replace(/^\.\//, "")}`)) throw new Error(`the browser entry ${packaged.browser} is not in the package`);
    const nodeOnly = names.filter((name) => NODE_ONLY.some((p) => name === p || (p.endsWith("/") && name.startsWith(p))));
    if (nodeOnly.length) throw new Error(`Node-only files: ${nodeOnly.join(", ")}`);
  } else {
    if (packaged.main !== manifest.main) throw new Error(`package.json's main is ${packaged.main}, not ${manifest.main}`);
    const missing = desktopMustHave(target).filter((name) => !entries.has(name));
    if (missing.length) throw new Error(`missing ${missing.join(", ")}`);
  }
  const allowed = target === "web" ? ALLOWED.web : ALLOWED.desktop;
  const elsewhere = names.filter((name) => name.startsWith("extension/") && !allowed.test(name));
  if (elsewhere.length) throw new Error(`files outside the package's folders: ${elsewhere.join(", ")}`);
  const natives = NATIVE_FILES[target].length;
  return `${names.length} files, ${natives} native`;
}

/** What a package may weigh (issue 27: Pyodide in every package, each still under 40 MB). */
const MAX_PACKAGE_BYTES = 40e6;

/** Runs the checks through `check(title, body)` (vsix.test.mjs's: it counts and prints). */
export async function checkVsixContents(check) {
  check("each machine installs its own package (platform, arch → target)", () => {
    const wrong = HOST_TARGETS.filter(([platform, arch, target]) => hostTarget(platform, arch) !== target);
    if (wrong.length) throw new Error(wrong.map(([p, a, t]) => `${p} ${a}: ${hostTarget(p, a)}, expected ${t}`).join("; "));
  });
  for (const target of expectedTargets()) {
    const path = vsixPathOf(target);
    let entries;
    try {
      entries = await readVsix(path);
    } catch (error) {
      entries = error;
    }
    check(`${target}: its own native files only, its manifest names it, nothing outside its folders, under 40 MB`, () => {
      if (entries instanceof Error) throw new Error(`${path}: ${entries.message}`);
      const bytes = statSync(path).size;
      console.log(`    ${checkPackage(target, entries)}, ${(bytes / 1e6).toFixed(1)} MB`);
      if (bytes > MAX_PACKAGE_BYTES) throw new Error(`${path} is ${(bytes / 1e6).toFixed(1)} MB: every package stays under ${MAX_PACKAGE_BYTES / 1e6} MB (README, the packages' table)`);
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let passed = 0;
  let failed = 0;
  await checkVsixContents((title, body) => {
    try {
      body();
      passed++;
      console.log(`  ✔ ${title}`);
    } catch (error) {
      failed++;
      console.log(`  ✗ ${title}: ${error.message}`);
    }
  });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
