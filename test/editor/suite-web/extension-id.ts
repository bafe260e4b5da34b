// The extension's id, from its package.json (bundled in: the web host has no file system to read it from).
import manifest from "../../../package.json";

export const extensionId = `${manifest.publisher}.${manifest.name}`;
