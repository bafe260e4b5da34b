// A tiny element builder: h("td", { class: "num" }, "1.5 ms").

import { page, type PageElement } from "./dom";

export type Child = PageElement | string | null | undefined | false;

export interface Props {
  class?: string;
  title?: string;
  role?: string;
  [attribute: `data-${string}` | `aria-${string}`]: string | undefined;
}

export function h(tag: string, props: Props = {}, ...children: Child[]): PageElement {
  const element = page.document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined) continue;
    if (name === "class") element.className = value;
    else if (name === "title") element.title = value;
    else element.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (typeof child === "string") {
      const text = page.document.createElement("span");
      text.textContent = child;
      element.appendChild(text);
    } else {
      element.appendChild(child);
    }
  }
  return element;
}

/** An element whose only content is text (no wrapper spans). */
export function text(tag: string, content: string, props: Props = {}): PageElement {
  const element = h(tag, props);
  element.textContent = content;
  return element;
}
