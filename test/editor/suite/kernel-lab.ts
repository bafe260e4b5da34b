// What the tests know about the extension under test.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** The repository root: out/test/editor/suite/ is four levels below it. */
export const repoRoot = resolve(__dirname, "../../../..");

const manifest = JSON.parse(readFileSync(resolve(repoRoot, "package.json"), "utf8")) as {
  publisher: string;
  name: string;
};
export const extensionId = `${manifest.publisher}.${manifest.name}`;
