// The access map in the results panel (the report's `accessMaps`, harness/debug/analyse-launch.ts): for
// the chosen program, each buffer's elements its tl.load / tl.store / tl.atomic* touched, drawn on
// the buffer's shape — reads and writes in their own colours, addresses of masked-off lanes
// hollow — with one legend entry per access line (a checkbox shows or hides it). The program is
// chosen with a slider or by clicking the grid of programs. Everything is drawn on canvases by
// this script: the webview's CSP allows no inline style or script.

import type { AccessMapLayer, AccessMapReport, AccessMapsReport } from "../../harness/debug/access-map";
import { page, type PageElement } from "./dom";
import { h, text } from "./elements";
import { bufferCells, cellKinds, inside, layerKey, type BufferCells } from "./access-cells";

interface Context2D {
  fillStyle: string;
  strokeStyle: string;
  lineWidth: number;
  globalAlpha: number;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
}

interface Canvas extends PageElement {
  width: number;
  height: number;
  getContext(kind: "2d"): Context2D | null;
}

interface Interactive {
  addEventListener(type: "input" | "change" | "click", listener: (event: { offsetX: number; offsetY: number }) => void): void;
}

type Reveal = (line: number, column: number) => void;

/** Largest side of a buffer's drawing, in CSS pixels. */
const MAX_PX = 360;
/** 1-D buffers up to this long are drawn as one row. */
const SHORT_VECTOR = 128;
/** Grids of more programs than this get the slider only. */
const MAX_GRID_CELLS = 4096;

/** How many runs' maps a results page draws: its runs shown one by one (a sweep's sizes get a chart instead) with maps. */
export function accessMapsDrawn(view: { mode: string; runs: readonly { name: string; accessMaps?: AccessMapsReport }[] }): number {
  if (view.mode === "sweep") return 0;
  return view.runs.filter((r) => (r.accessMaps?.maps.length ?? 0) > 0 && view.runs.filter((o) => o.name === r.name).length === 1).length;
}

/** One buffer's drawing across programs: the union of what any mapped program touches. */
interface BufferView {
  param: string;
  length: number;
  shape: [number, number];
  matrix: boolean;
}

/** The section for one run's maps, or null when it has none. `title` and `testId` let an exercise draw two side by side. */
export function accessMapSection(
  maps: AccessMapsReport | undefined,
  grid: readonly number[],
  reveal: Reveal,
  options: { title?: string; testId?: string; note?: string; start?: number; /** Lines are another file's (the solution's): not links. */ foreignLines?: boolean } = {},
): PageElement | null {
  if (!maps || maps.maps.length === 0) return null;
  const all = maps.maps;
  const buffers = unionBuffers(all);
  const hidden = new Set<string>();
  let chosen = Math.min(Math.max(0, options.start ?? 0), all.length - 1);

  const slider = h("input", { class: "am-slider", "aria-label": "program", "data-testid": "access-map-slider" });
  slider.setAttribute("type", "range");
  slider.setAttribute("min", "0");
  slider.setAttribute("max", String(all.length - 1));
  slider.setAttribute("step", "1");
  const programLabel = text("output", "", { class: "am-program", "data-testid": "access-map-program" });
  const gridCanvas = gridCells(grid) ? (h("canvas", { class: "am-grid", role: "img", "aria-label": "the grid of programs: click one to map it", "data-testid": "access-map-grid" }) as Canvas) : undefined;
  const legend = h("ul", { class: "am-legend", "data-testid": "access-map-legend" });
  const canvases = buffers.map((b) => ({ buffer: b, canvas: h("canvas", { class: "am-buffer", role: "img", "aria-label": `elements of ${b.param} the program touches`, "data-param": b.param, "data-testid": "access-map-buffer" }) as Canvas, caption: text("figcaption", "", { class: "muted" }) }));
  const complete = maps.maps.length === maps.programs;
  const section = h(
    "div",
    { class: "access-map", "data-testid": options.testId ?? "access-map" },
    text("h3", options.title ?? "Access map"),
    text(
      "p",
      options.note ??
        (complete
          ? `What each program's loads and stores touch: pick a program with the slider or on the grid.`
          : `Maps of ${all.length} of the grid's ${maps.programs} programs (evenly spaced, the first and last included); kernel-lab run FILE --program P maps any other.`),
      { class: "muted" },
    ),
    all.length > 1 ? h("div", { class: "am-controls" }, text("label", "Program"), slider, programLabel) : text("p", `Program (${all[0].program.join(", ")})`, { class: "am-program" }),
    h(
      "p",
      { class: "am-key muted" },
      h("span", { class: "am-swatch am-load", "aria-hidden": "true" }), " read ",
      h("span", { class: "am-swatch am-store", "aria-hidden": "true" }), " written ",
      h("span", { class: "am-swatch am-atomic", "aria-hidden": "true" }), " atomic ",
      h("span", { class: "am-swatch am-hollow", "aria-hidden": "true" }), " only a masked-off lane's address (hollow)",
    ),
    gridCanvas ?? null,
    legend,
    h("div", { class: "am-buffers" }, ...canvases.map((c) => h("figure", {}, c.canvas, c.caption))),
  );

  const draw = () => {
    const map = all[chosen];
    (slider as unknown as { value: string }).value = String(chosen);
    programLabel.textContent = `(${map.program.join(", ")}) · ${chosen + 1} of ${all.length}`;
    section.setAttribute("data-program", map.program.join(","));
    drawLegend(legend, map, hidden, options.foreignLines ? undefined : reveal, draw);
    const shown = map.layers.filter((l) => !hidden.has(layerKey(l)));
    for (const { buffer, canvas, caption } of canvases) {
      const cells = bufferCells(buffer, shown);
      paintBuffer(canvas, cells);
      canvas.setAttribute("data-touched", String(cells.touched));
      canvas.setAttribute("data-masked", String(cells.masked));
      const [r, c] = buffer.shape;
      const per = cells.cell[0] * cells.cell[1] > 1 ? `, a square per ${cells.cell[0]} × ${cells.cell[1]} elements` : "";
      caption.textContent = `${buffer.param} [${buffer.matrix ? `${r} × ${c}` : r === 1 ? `${buffer.length}` : `${buffer.length}, in rows of ${c}`}${per}]: ${cells.touched} touched${cells.masked > 0 ? `, ${cells.masked} masked-off addresses` : ""}`;
    }
    if (gridCanvas) paintGrid(gridCanvas, grid, all, chosen);
  };
  (slider as unknown as Interactive).addEventListener("input", () => {
    chosen = Number((slider as unknown as { value: string }).value);
    draw();
  });
  if (gridCanvas) {
    (gridCanvas as unknown as Interactive).addEventListener("click", (event) => {
      const layout = gridCells(grid)!;
      const px = gridPx(layout);
      const linear = programAt(layout, Math.floor(event.offsetY / px), Math.floor(event.offsetX / px), grid);
      if (linear === undefined) return;
      chosen = nearest(all, grid, linear);
      draw();
    });
  }
  draw();
  return section;
}

function unionBuffers(maps: readonly AccessMapReport[]): BufferView[] {
  const out = new Map<string, BufferView>();
  for (const m of maps) for (const b of m.buffers) if (!out.has(b.param)) out.set(b.param, b);
  // A short vector reads best as one row (the command line's rows of 64 suit a terminal).
  return [...out.values()].map((b) => (!b.matrix && b.length <= SHORT_VECTOR ? { ...b, shape: [1, Math.max(1, b.length)] } : b));
}

function drawLegend(legend: PageElement, map: AccessMapReport, hidden: Set<string>, reveal: Reveal | undefined, redraw: () => void): void {
  legend.replaceChildren(
    ...map.layers.map((layer) => {
      const key = layerKey(layer);
      const box = h("input", { "aria-label": `show ${layer.kind} ${layer.param} at line ${layer.line}` });
      box.setAttribute("type", "checkbox");
      if (!hidden.has(key)) box.setAttribute("checked", "");
      (box as unknown as Interactive).addEventListener("change", () => {
        if (hidden.has(key)) hidden.delete(key);
        else hidden.add(key);
        redraw();
      });
      const line = reveal ? text("a", `line ${layer.line}`, { role: "button", title: "Show the line in the editor" }) : text("span", `line ${layer.line}`);
      if (reveal) {
        line.tabIndex = 0;
        line.addEventListener("click", () => reveal(layer.line, layer.column));
      }
      return h(
        "li",
        { "data-layer": key },
        h("label", {}, box, h("span", { class: `am-swatch am-${layer.kind}`, "aria-hidden": "true" }), text("span", ` ${layer.kind} ${layer.param} · `)),
        line,
        text("span", ` · ${laneText(layer)}`, { class: "muted" }),
      );
    }),
  );
}

function laneText(layer: AccessMapLayer): string {
  const off = layer.lanes - layer.active;
  return `${layer.active} of ${layer.lanes} lanes active${off > 0 ? ` (${off} masked off)` : ""}`;
}

function colours(): Record<"load" | "store" | "atomic" | "empty" | "chosen" | "program", string> {
  const style = page.getComputedStyle(page.document.body);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    load: read("--kl-map-load", "#3794ff"),
    store: read("--kl-map-store", "#d18616"),
    atomic: read("--kl-map-atomic", "#b180d7"),
    empty: read("--kl-map-empty", "rgba(128, 128, 128, 0.2)"),
    program: read("--kl-map-program", "rgba(128, 128, 128, 0.55)"),
    chosen: read("--kl-map-chosen", "#cccccc"),
  };
}

function paintBuffer(canvas: Canvas, cells: BufferCells): void {
  // A single row (a short vector) may be wider than a matrix, so its cells aren't slivers.
  const px = cells.rows === 1 ? Math.max(2, Math.min(12, Math.floor((2 * MAX_PX) / cells.cols))) : Math.max(2, Math.min(12, Math.floor(MAX_PX / cells.cols), Math.floor(MAX_PX / cells.rows)));
  canvas.width = cells.cols * px;
  canvas.height = cells.rows * px;
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  const colour = colours();
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const gap = px >= 4 ? 1 : 0;
  for (let r = 0; r < cells.rows; r++) {
    for (let c = 0; c < cells.cols; c++) {
      const x = c * px, y = r * px, w = px - gap;
      const flag = cells.flags[r * cells.cols + c];
      const { filled, hollow } = cellKinds(flag);
      if (filled.length > 0) {
        // Reads and writes of one cell share it, in stripes.
        const stripe = w / filled.length;
        filled.forEach((kind, i) => {
          ctx.fillStyle = colour[kind];
          ctx.fillRect(x + i * stripe, y, stripe, w);
        });
        continue;
      }
      if (inside(cells, r, c)) {
        ctx.fillStyle = colour.empty;
        ctx.fillRect(x, y, w, w);
      }
      if (hollow.length > 0) {
        ctx.strokeStyle = colour[hollow[0]];
        if (px >= 4) {
          ctx.lineWidth = 1;
          ctx.strokeRect(x + 0.5, y + 0.5, w - 1, w - 1);
        } else {
          ctx.globalAlpha = 0.4;
          ctx.fillStyle = colour[hollow[0]];
          ctx.fillRect(x, y, w, w);
          ctx.globalAlpha = 1;
        }
      }
    }
  }
}

/** The grid of programs drawn as rows of cells: x across (a 1-D grid wrapped at 32), y and z down. */
interface GridLayout {
  rows: number;
  cols: number;
  wrapped: boolean;
}

function gridCells(grid: readonly number[]): GridLayout | undefined {
  const [gx = 1, gy = 1, gz = 1] = grid;
  const oneD = gy * gz === 1;
  const cols = oneD ? Math.min(gx, 32) : gx;
  const rows = oneD ? Math.ceil(gx / 32) : gy * gz;
  if (gx * gy * gz <= 1 || rows * cols > MAX_GRID_CELLS) return undefined;
  return { rows, cols, wrapped: oneD };
}

const gridPx = (layout: GridLayout) => Math.max(4, Math.min(16, Math.floor(MAX_PX / layout.cols)));

function programAt(layout: GridLayout, row: number, col: number, grid: readonly number[]): number | undefined {
  if (row < 0 || col < 0 || row >= layout.rows || col >= layout.cols) return undefined;
  const linear = layout.wrapped ? row * layout.cols + col : row * (grid[0] ?? 1) + col;
  return linear < (grid[0] ?? 1) * (grid[1] ?? 1) * (grid[2] ?? 1) ? linear : undefined;
}

const linearOf = (p: readonly number[], grid: readonly number[]) => p[0] + p[1] * (grid[0] ?? 1) + p[2] * (grid[0] ?? 1) * (grid[1] ?? 1);

/** The mapped program nearest to `linear` (itself when it is mapped). */
function nearest(maps: readonly AccessMapReport[], grid: readonly number[], linear: number): number {
  let best = 0;
  for (let i = 0; i < maps.length; i++) {
    if (Math.abs(linearOf(maps[i].program, grid) - linear) < Math.abs(linearOf(maps[best].program, grid) - linear)) best = i;
  }
  return best;
}

function paintGrid(canvas: Canvas, grid: readonly number[], maps: readonly AccessMapReport[], chosen: number): void {
  const layout = gridCells(grid)!;
  const px = gridPx(layout);
  canvas.width = layout.cols * px;
  canvas.height = layout.rows * px;
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  const colour = colours();
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const mapped = new Set(maps.map((m) => linearOf(m.program, grid)));
  const chosenLinear = linearOf(maps[chosen].program, grid);
  const total = (grid[0] ?? 1) * (grid[1] ?? 1) * (grid[2] ?? 1);
  for (let r = 0; r < layout.rows; r++) {
    for (let c = 0; c < layout.cols; c++) {
      const linear = programAt(layout, r, c, grid);
      if (linear === undefined || linear >= total) continue;
      const x = c * px, y = r * px, w = px - 1;
      if (linear === chosenLinear) {
        ctx.fillStyle = colour.chosen;
        ctx.fillRect(x, y, w, w);
      } else if (mapped.has(linear)) {
        ctx.fillStyle = colour.program;
        ctx.fillRect(x, y, w, w);
      } else {
        ctx.strokeStyle = colour.empty;
        ctx.lineWidth = 1;
        ctx.strokeRect(x + 0.5, y + 0.5, w - 1, w - 1);
      }
    }
  }
}
