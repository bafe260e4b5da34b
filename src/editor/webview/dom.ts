// The slice of the browser the results webview uses, typed here because the project's tsconfig
// has no DOM library (everything else in src/ runs on Node). Keep it to what the page calls.

export interface PageElement {
  className: string;
  textContent: string | null;
  title: string;
  hidden: boolean;
  tabIndex: number;
  dataset: Record<string, string | undefined>;
  appendChild<T extends PageElement>(child: T): T;
  replaceChildren(...children: (PageElement | string)[]): void;
  setAttribute(name: string, value: string): void;
  addEventListener(type: "click" | "keydown", listener: (event: { key?: string; preventDefault(): void }) => void): void;
  classList: { toggle(name: string, force?: boolean): void };
}

export interface Webview {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export interface ChartInstance {
  destroy(): void;
}

/** Chart.js 4 as its UMD build defines it (media/chart.umd.js), configured loosely. */
export interface ChartConstructor {
  new (canvas: PageElement, config: unknown): ChartInstance;
  defaults: { color: string; borderColor: string; font: { family: string; size: number } };
}

interface Page {
  document: {
    body: PageElement;
    getElementById(id: string): PageElement | null;
    createElement(tag: string): PageElement;
  };
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  getComputedStyle(element: PageElement): { getPropertyValue(name: string): string };
  acquireVsCodeApi(): Webview;
  Chart?: ChartConstructor;
  MutationObserver: new (callback: () => void) => { observe(target: PageElement, options: { attributes: boolean; attributeFilter: string[] }): void };
}

export const page = globalThis as unknown as Page;
