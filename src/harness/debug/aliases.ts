// Pointer arguments of one launch that name the same memory (a Python script passing one tensor
// as two pointers, as Liger's kernels pass one tensor as input and output; a sequence binding two
// parameters to one run arg). The race check (races.ts, run/aliased-races.ts) keeps its state per
// storage, not per parameter: element i of a parameter is element `offset + i` of its storage,
// so two programs storing one element through two pointers are a race as through one.
// Views of different element sizes are not matched (a tensor viewed as another dtype): each is
// checked on its own.

/** A pointer argument's place in the memory it shares: its storage's first parameter, and its first element there. */
export interface StorageSlot {
  storage: string;
  offset: number;
  /** The shared storage's elements (from the lowest view's first element to the highest view's last). */
  length: number;
}

type View = ArrayBufferView & { length: number; BYTES_PER_ELEMENT: number };

const isView = (v: unknown): v is View => ArrayBuffer.isView(v) && "length" in v && "BYTES_PER_ELEMENT" in v;

/** The pointer arguments sharing memory with another, each with its slot; those alone are absent. */
export function aliasedStorage(args: Iterable<readonly [string, unknown]>): Map<string, StorageSlot> {
  const views = [...args].filter((e): e is [string, View] => isView(e[1]));
  const group = views.map((_, i) => i);
  const root = (i: number): number => (group[i] === i ? i : (group[i] = root(group[i])));
  for (let i = 0; i < views.length; i++) {
    for (let j = i + 1; j < views.length; j++) if (overlap(views[i][1], views[j][1])) group[root(j)] = root(i);
  }
  const slots = new Map<string, StorageSlot>();
  for (let i = 0; i < views.length; i++) {
    const members = views.filter((_, j) => root(j) === root(i));
    if (members.length < 2) continue;
    const size = views[i][1].BYTES_PER_ELEMENT;
    const start = Math.min(...members.map(([, v]) => v.byteOffset));
    const end = Math.max(...members.map(([, v]) => v.byteOffset + v.byteLength));
    slots.set(views[i][0], { storage: members[0][0], offset: (views[i][1].byteOffset - start) / size, length: (end - start) / size });
  }
  return slots;
}

/** Same memory, same element size, elements aligned with each other, bytes in common. */
function overlap(a: View, b: View): boolean {
  if (a.buffer !== b.buffer || a.BYTES_PER_ELEMENT !== b.BYTES_PER_ELEMENT) return false;
  if ((a.byteOffset - b.byteOffset) % a.BYTES_PER_ELEMENT !== 0) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}
