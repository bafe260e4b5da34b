// The results page's HTML: no vscode import, so it can also be rendered in a plain browser
// (test/editor-smoke) with a sample report.

export interface PageResources {
  /** `webview.cspSource`. */
  cspSource: string;
  /** A fresh random value per page. */
  nonce: string;
  /** The URI of a file in the extension's media/ folder, as the webview may load it. */
  mediaUri: (name: string) => string;
}

export function resultsHtml({ cspSource, nonce, mediaUri }: PageResources): string {
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${mediaUri("results.css")}">
  <title>Kernel Lab Results</title>
</head>
<body>
  <main id="app"><p class="placeholder">Run a kernel (Kernel Lab: Run Kernel) to see whether it is right and how fast it is.</p></main>
  <script nonce="${nonce}" src="${mediaUri("chart.umd.js")}"></script>
  <script nonce="${nonce}" src="${mediaUri("results.js")}"></script>
</body>
</html>`;
}
