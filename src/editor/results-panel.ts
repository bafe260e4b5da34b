// The results webview: one panel, reused by every run, kept alive while hidden. Strict CSP with a
// nonce; it loads only from the extension's media/ folder (its script and Chart.js).

import * as vscode from "vscode";
import { resultsHtml } from "./results-html";
import { parseFromWebview, type FromWebview, type ToWebview } from "./webview-protocol";
import { assertNever } from "../ir/never";

export interface PanelState {
  visible: boolean;
  /** The last message sent (or queued) to the webview. */
  lastMessage?: ToWebview;
  /** What the webview reported drawing last. */
  lastRendered?: Extract<FromWebview, { type: "rendered" }>;
}

export class ResultsPanel implements vscode.Disposable {
  static readonly viewType = "kernelLab.results";
  private static current: ResultsPanel | undefined;

  private ready = false;
  private lastMessage: ToWebview | undefined;
  private lastRendered: Extract<FromWebview, { type: "rendered" }> | undefined;
  private readonly renderedListeners = new Set<(m: Extract<FromWebview, { type: "rendered" }>) => void>();
  private readonly disposables: vscode.Disposable[] = [];

  /** Reveals the panel (creating it if needed) beside the editor, without taking focus. */
  static show(extensionUri: vscode.Uri, log: vscode.LogOutputChannel, onReveal: (line: number, column: number) => void): ResultsPanel {
    if (ResultsPanel.current) {
      ResultsPanel.current.panel.reveal(undefined, true);
      return ResultsPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      ResultsPanel.viewType,
      "Kernel Lab Results",
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, "media")],
      },
    );
    ResultsPanel.current = new ResultsPanel(panel, extensionUri, log, onReveal);
    return ResultsPanel.current;
  }

  static state(): PanelState {
    const current = ResultsPanel.current;
    return current
      ? { visible: current.panel.visible, lastMessage: current.lastMessage, lastRendered: current.lastRendered }
      : { visible: false };
  }

  static disposeCurrent(): void {
    ResultsPanel.current?.dispose();
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly onReveal: (line: number, column: number) => void,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, "media", "results-icon.svg");
    panel.webview.html = html(panel.webview, extensionUri);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
    );
  }

  /** Sends a message now, or when the page has loaded; the latest one is re-sent if the page reloads. */
  post(message: ToWebview): void {
    this.lastMessage = message;
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  /** Resolves with the webview's next `rendered` acknowledgement (tests, logs). */
  nextRendered(timeoutMs = 10000): Promise<Extract<FromWebview, { type: "rendered" }> | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.renderedListeners.delete(listener);
        resolve(undefined);
      }, timeoutMs);
      const listener = (m: Extract<FromWebview, { type: "rendered" }>) => {
        clearTimeout(timer);
        this.renderedListeners.delete(listener);
        resolve(m);
      };
      this.renderedListeners.add(listener);
    });
  }

  private receive(raw: unknown): void {
    const message = parseFromWebview(raw);
    if (!message) {
      this.log.warn(`results panel: ignored a malformed message: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    switch (message.type) {
      case "ready":
        this.ready = true;
        if (this.lastMessage) void this.panel.webview.postMessage(this.lastMessage);
        return;
      case "rendered":
        this.lastRendered = message;
        this.log.debug(`results panel drew ${message.messageType}: ${message.runs} run(s) [${message.verdicts.join(", ")}]${message.chart ? " with a chart" : ""}`);
        for (const listener of [...this.renderedListeners]) listener(message);
        return;
      case "reveal":
        this.onReveal(message.line, message.column);
        return;
      default:
        assertNever(message, "message");
    }
  }

  dispose(): void {
    if (ResultsPanel.current === this) ResultsPanel.current = undefined;
    for (const listener of [...this.renderedListeners]) listener({ type: "rendered", messageType: "failed", runs: 0, verdicts: [], chart: false });
    this.renderedListeners.clear();
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
    this.panel.dispose();
  }
}

function html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return resultsHtml({
    cspSource: webview.cspSource,
    nonce: nonce(),
    mediaUri: (name) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "media", name)).toString(),
  });
}


/** 18 random bytes in base64, for the webview's Content-Security-Policy (Node 20 and browsers have `crypto`). */
function nonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes));
}
