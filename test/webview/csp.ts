// The results panel's Content-Security-Policy, in headless Chromium: the page the extension builds
// loads nothing outside media/ (every request is intercepted and listed), and an inline script,
// a remote script, a remote image and a remote stylesheet slipped into the page are refused
// without any request leaving the machine. docs/RELIABILITY.md lists these rows.
//
//   node scripts/build.mjs && npx tsx --test test/webview/csp.ts

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { resultsHtml } from "../../src/editor/results-html";
import { singleRun } from "./sample-reports";

const root = path.resolve(__dirname, "..", "..");
const media = path.join(root, "media");
const out = path.join(root, "test-results", "webview");
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const mediaPrefix = pathToFileURL(media).toString() + "/";

/** Opens `html` (written next to media/) and returns every URL the page asked for, the CSP reports and console errors. */
async function load(html: string, name: string) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"] });
  try {
    const page = await browser.newPage();
    const requests: string[] = [];
    // Every request, whatever its scheme: the page may fetch from media/ only. Others are aborted
    // here too, so a failing test never reaches the network.
    await page.route("**/*", (route) => {
      const url = route.request().url();
      requests.push(url);
      return url.startsWith(mediaPrefix) || url.startsWith("file:") && url.endsWith(`/${name}`) ? route.continue() : route.abort();
    });
    const console: string[] = [];
    page.on("console", (m) => console.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => console.push(`pageerror: ${String(e)}`));
    await page.addInitScript(`
      window.__violations = [];
      document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
      window.acquireVsCodeApi = () => ({ postMessage: (m) => { window.__posted = (window.__posted || []).concat([m]); }, getState: () => undefined, setState: () => {} });
    `);
    mkdirSync(out, { recursive: true });
    const file = path.join(out, name);
    writeFileSync(file, html);
    await page.goto(pathToFileURL(file).toString());
    await page.waitForFunction(() => ((globalThis as { __posted?: { type: string }[] }).__posted ?? []).some((m) => m.type === "ready"), undefined, { timeout: 10_000 });
    // Draw a report, so the chart script and everything the page loads on demand are exercised.
    await page.evaluate((view) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage({ type: "results", view }, "*"), singleRun as never);
    await page.waitForFunction(() => ((globalThis as { __posted?: { type: string }[] }).__posted ?? []).some((m) => m.type === "rendered"), undefined, { timeout: 10_000 });
    await page.waitForTimeout(300);
    const violations = (await page.evaluate("window.__violations")) as string[];
    const injected = (await page.evaluate("window.__injected === true")) as boolean;
    return { requests, violations, console, injected };
  } finally {
    await browser.close();
  }
}

function page(extraHead = "", extraBody = ""): string {
  const html = resultsHtml({
    // What a webview's cspSource looks like for these local files.
    cspSource: "file:",
    nonce: "Y3NwLXRlc3Qtbm9uY2U=",
    mediaUri: (name) => mediaPrefix + name,
  });
  return html.replace("</head>", `${extraHead}\n</head>`).replace("</body>", `${extraBody}\n</body>`);
}

test("the panel requests nothing outside media/", async () => {
  const { requests, violations, console } = await load(page(), "csp-plain.html");
  const page0 = requests.filter((u) => u.endsWith("/csp-plain.html"));
  const others = requests.filter((u) => !u.endsWith("/csp-plain.html"));
  assert.equal(page0.length, 1);
  assert.ok(others.length >= 3, `expected the stylesheet and two scripts from media/, got ${JSON.stringify(requests)}`);
  assert.deepEqual(others.filter((u) => !u.startsWith(mediaPrefix)), []);
  assert.deepEqual(violations, []);
  assert.deepEqual(console.filter((l) => l.startsWith("error") || l.startsWith("pageerror")), []);
});

test("inline and remote scripts, remote images and stylesheets are refused, and nothing is fetched", async () => {
  const { requests, violations, injected } = await load(
    page(
      `<link rel="stylesheet" href="https://example.com/evil.css"><script>window.__injected = true;</script>`,
      `<script src="https://example.com/evil.js"></script><img src="https://example.com/pixel.png"><script nonce="wrong">window.__injected = true;</script>`,
    ),
    "csp-injected.html",
  );
  assert.equal(injected, false, "an injected script ran");
  assert.deepEqual(requests.filter((u) => !u.startsWith("file:")), [], "a request left the machine");
  for (const directive of ["script-src-elem", "style-src-elem", "img-src"]) {
    assert.ok(violations.some((v) => v.startsWith(directive)), `no ${directive} violation in ${JSON.stringify(violations)}`);
  }
  assert.ok(violations.some((v) => v === "script-src-elem inline"), `the inline script was not refused: ${JSON.stringify(violations)}`);
});
