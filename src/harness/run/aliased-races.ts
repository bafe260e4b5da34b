// Races through two pointers to one memory, on the GPU (a Python script passing one tensor as two
// pointer arguments: in-place-launch.ts, shared-views.ts). The pointers are views of one binding
// with one `kl_prov_<storage>` stamp per element (codegen/instrument.ts), so the instrumented
// variant finds two programs storing one element through the two pointers as through one; its
// kl_debug words give the storage's index. Here that race is told in the pointers' words, as the
// interpreter (--cpu) tells it: the element of the pointer the later store went through, the
// other pointer and its element named for the first store, the lower program named first and the
// error placed at the other's tl.store (programs run in order there).

import type { LoadHazard, Race, RaceSide } from "../debug/races";

/** A side of a race as the GPU noted it: the pointer parameter its access went through (a view's name). */
interface NotedSide {
  param: string;
  side: RaceSide;
}

/** Each view's first element in its storage (InstrumentAbi.views, with the launch's offsets), by pointer parameter. */
export type ViewOffsets = Readonly<Record<string, number>>;

/** The race two stores of one storage index make, in the views' indices (the race's `param`, the first side's `via`). */
export function raceInViews(index: number, a: NotedSide, b: NotedSide, views: ViewOffsets | undefined): Race {
  const at = (param: string) => index - (views?.[param] ?? 0);
  if (!views || a.param === b.param) return { param: a.param, index: at(a.param), first: a.side, second: b.side };
  const [first, second] = before(b.side, a.side) ? [b, a] : [a, b];
  return { param: second.param, index: at(second.param), first: { ...first.side, via: { param: first.param, index: at(first.param) } }, second: second.side };
}

/** A load of another program's store, at the storage index, in the views' indices: the element as the store's pointer names it. */
export function hazardInViews(index: number, store: NotedSide, load: RaceSide, views: ViewOffsets | undefined): LoadHazard {
  return { param: store.param, index: index - (views?.[store.param] ?? 0), store: store.side, load };
}

/** Whether the interpreter runs `a`'s program before `b`'s (x fastest, then y, then z). */
function before(a: RaceSide, b: RaceSide): boolean {
  const [ax, ay, az] = a.program;
  const [bx, by, bz] = b.program;
  return az !== bz ? az < bz : ay !== by ? ay < by : ax < bx;
}
