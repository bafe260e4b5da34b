// What the tests know about the extension under test.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** The repository root: the first folder above this (bundled) file with the extension's package.json. */
export const repoRoot = findRoot(__dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = resolve(dir, "..")) {
    try {
      if (JSON.parse(readFileSync(resolve(dir, "package.json"), "utf8")).name === "kernel-lab") return dir;
    } catch {
      // no package.json here
    }
    if (resolve(dir, "..") === dir) throw new Error(`no kernel-lab package.json above ${from}`);
  }
}

const manifest = JSON.parse(readFileSync(resolve(repoRoot, "package.json"), "utf8")) as {
  publisher: string;
  name: string;
};
export const extensionId = `${manifest.publisher}.${manifest.name}`;
