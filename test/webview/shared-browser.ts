// One headless Chromium per test file: starting one was most of each webview test's time (~2 s on
// a 2-core machine). Each test opens its page in a fresh context of it (its own storage, cache
// and permissions, as a new browser has), and closes that context; the browser closes after the
// file's last test.

import { after } from "node:test";
import { chromium, type Browser, type BrowserContext } from "playwright-core";

const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
let browser: Promise<Browser> | undefined;

after(async () => {
  await (await browser)?.close();
});

/** A fresh context of the file's Chromium (started on first use), to open the test's page in. */
export async function freshContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
  browser ??= chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"] });
  return (await browser).newContext({ viewport });
}
