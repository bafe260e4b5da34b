// The results panel as a page of the file's headless Chromium (shared-browser.ts), outside VS Code:
// the HTML the extension builds (same CSP, media/ files), a stand-in for the webview API, a
// theme's variables, and the messages the page posts back. Used by render-results.ts and
// access-map.ts.

import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { freshContext } from "./shared-browser";
import { resultsHtml } from "../../src/editor/results-html";
import type { ToWebview } from "../../src/editor/webview-protocol";

const root = path.resolve(__dirname, "..", "..");
const media = path.join(root, "media");
export const out = path.join(root, "test-results", "webview");

/** A few of the variables VS Code's Dark Modern theme gives a webview. */
export const DARK_THEME: Record<string, string> = {
  "--vscode-font-family": "system-ui, 'Segoe UI', Ubuntu, sans-serif",
  "--vscode-font-size": "13px",
  "--vscode-editor-font-family": "'DejaVu Sans Mono', monospace",
  "--vscode-editor-font-size": "12px",
  "--vscode-editor-foreground": "#cccccc",
  "--vscode-editor-background": "#1f1f1f",
  "--vscode-descriptionForeground": "#9d9d9d",
  "--vscode-panel-border": "#2b2b2b",
  "--vscode-editorWidget-border": "#454545",
  "--vscode-textCodeBlock-background": "#2b2b2b",
  "--vscode-testing-iconPassed": "#73c991",
  "--vscode-testing-iconFailed": "#f14c4c",
  "--vscode-charts-blue": "#3794ff",
  "--vscode-charts-orange": "#d18616",
  "--vscode-badge-background": "#616161",
  "--vscode-badge-foreground": "#f8f8f8",
};

/** The same variables from VS Code's Light Modern theme. */
export const LIGHT_THEME: Record<string, string> = {
  ...DARK_THEME,
  "--vscode-editor-foreground": "#3b3b3b",
  "--vscode-editor-background": "#ffffff",
  "--vscode-descriptionForeground": "#3b3b3b",
  "--vscode-panel-border": "#e5e5e5",
  "--vscode-editorWidget-border": "#c8c8c8",
  "--vscode-textCodeBlock-background": "#f8f8f8",
  "--vscode-testing-iconPassed": "#388a34",
  "--vscode-testing-iconFailed": "#e51400",
  "--vscode-charts-blue": "#1a85ff",
  "--vscode-charts-orange": "#d18616",
  "--vscode-badge-background": "#cccccc",
  "--vscode-badge-foreground": "#3b3b3b",
};

export interface PanelOptions {
  /** The page's file under test-results/webview/ (each test file its own). */
  pageName: string;
  height: number;
  theme?: { variables: Record<string, string>; bodyClass: string };
  /** Console lines that are Chromium's remarks, not the page's errors. */
  ignore?: (text: string) => boolean;
}

export interface Panel {
  page: Page;
  received: unknown[];
  /** Console errors and warnings, uncaught exceptions and CSP violations of the page. */
  errors: string[];
  close: () => Promise<void>;
}

interface PageWindow {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** The panel's page, loaded and ready (it has posted "ready"). */
export async function openPanel(options: PanelOptions): Promise<Panel> {
  const theme = options.theme ?? { variables: DARK_THEME, bodyClass: "vscode-dark" };
  const context = await freshContext({ width: 1000, height: options.height });
  const page = await context.newPage();
  const received: unknown[] = [];
  const errors: string[] = [];
  page.on("console", (m) => {
    if ((m.type() === "error" || m.type() === "warning") && !options.ignore?.(m.text())) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.exposeFunction("__toExtension", (m: unknown) => received.push(m));
  // A string, not a function: tsx's transform would add helpers the page does not have.
  await page.addInitScript(`
    let state;
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.__toExtension(m),
      getState: () => state,
      setState: (s) => { state = s; },
    });
    document.addEventListener("securitypolicyviolation", (e) => console.error("CSP " + e.violatedDirective + " " + e.blockedURI));
    document.addEventListener("DOMContentLoaded", () => {
      for (const [k, v] of Object.entries(${JSON.stringify(theme.variables)})) document.documentElement.style.setProperty(k, v);
      document.body.classList.add(${JSON.stringify(theme.bodyClass)});
    });
  `);
  const html = resultsHtml({
    cspSource: "file:",
    nonce: "dGVzdC1ub25jZQ==",
    mediaUri: (name) => pathToFileURL(path.join(media, name)).toString(),
  });
  // Written next to media/ so relative file: URLs and the CSP behave as in a webview.
  const pagePath = path.join(out, options.pageName);
  mkdirSync(out, { recursive: true });
  writeFileSync(pagePath, html);
  try {
    await page.goto(pathToFileURL(pagePath).toString());
    await waitFor(() => received.some((m) => (m as { type?: string }).type === "ready"));
  } catch (error) {
    await context.close();
    throw new Error(`the page did not load: ${String(error)}; console: ${errors.join(" | ")}`);
  }
  return { page, received, errors, close: () => context.close() };
}

/** Posts a message to the page as the extension would; resolves with the page's "rendered" answer. */
export async function send(page: Page, received: unknown[], message: ToWebview): Promise<Record<string, unknown>> {
  const before = received.length;
  await postRaw(page, message);
  await waitFor(() => received.slice(before).some((m) => (m as { type?: string }).type === "rendered"));
  return received.slice(before).find((m) => (m as { type?: string }).type === "rendered") as Record<string, unknown>;
}

/** Posts anything, a malformed message included, as the extension's side of the webview would. */
export async function postRaw(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => (globalThis as unknown as PageWindow).postMessage(m, "*"), message);
}

export async function waitFor(condition: () => boolean, timeoutMs = 10000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("timed out waiting for the webview");
    await new Promise((r) => setTimeout(r, 20));
  }
}
