/// <reference types="mocha" />
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { extensionId } from "../kernel-lab";

describe("the extension under test", () => {
  it("is known to VS Code by the id in package.json", () => {
    assert.ok(vscode.extensions.getExtension(extensionId), `${extensionId} is not loaded`);
  });
});
