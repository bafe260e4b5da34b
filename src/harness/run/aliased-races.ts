// Races through two pointers to one memory, on the GPU (a Python script passing one tensor as two
// pointer arguments: in-place-launch.ts). Each argument has its own device copy and its own
// `kl_prov_<param>` stamps (codegen/instrument.ts), so the variant only sees two programs storing
// one element through the same pointer; after it ran, the stamps of the pointers sharing memory
// (debug/aliases.ts) are laid over each other: an element stamped by one program through one and
// by another through the other is the same race, KL3104. The lower program is named first, the
// error placed at the other's tl.store: where the interpreter (--cpu), running programs in order,
// finds it. Nothing is read back where no two stored pointers share memory.

import type { KernelIR } from "../../ir/ir";
import { raceChecked } from "../../ir/race-checked";
import type { StorageArray } from "../../runtime";
import { aliasedStorage } from "../debug/aliases";
import type { StoreProvenance } from "../debug/provenance";
import { raceError, type Lines, type RaceSide } from "../debug/races";
import { siteOf, type InstrumentedProgram } from "./instrumented-launch";

/** Throws KL3104 where two programs stored one element through two pointers to the same memory. */
export async function checkAliasedStores(
  program: InstrumentedProgram & { name: string; ir: KernelIR },
  grid: [number, number, number],
  arrays: Iterable<readonly [string, StorageArray]>,
  provenance: () => Promise<StoreProvenance>,
  lines: Lines | undefined,
): Promise<void> {
  const stored = raceChecked(program.ir).stores;
  const slots = [...aliasedStorage(arrays)].filter(([param]) => stored.has(param));
  const storages = new Map<string, typeof slots>();
  for (const entry of slots) storages.set(entry[1].storage, [...(storages.get(entry[1].storage) ?? []), entry]);
  const shared = [...storages.values()].filter((members) => members.length > 1);
  if (shared.length === 0) return;
  const { words } = await provenance();
  for (const members of shared) {
    // Per element of the storage: the first stamp seen (program + 1, site word) and the pointer it came through.
    const length = members[0][1].length;
    const owner = new Uint32Array(length);
    const ownerSite = new Uint32Array(length);
    const ownerVia = new Array<{ param: string; index: number }>(length);
    for (const [param, { offset }] of members) {
      const stamps = words.get(param);
      if (!stamps) continue;
      for (let i = 0; 2 * i < stamps.length; i++) {
        const stamp = stamps[2 * i];
        const at = offset + i;
        if (stamp === 0 || stamp === owner[at]) continue;
        if (owner[at] === 0) {
          [owner[at], ownerSite[at], ownerVia[at]] = [stamp, stamps[2 * i + 1], { param, index: i }];
          continue;
        }
        const mine = { ...side(program, grid, stamp, stamps[2 * i + 1]), via: { param, index: i } };
        const theirs = { ...side(program, grid, owner[at], ownerSite[at]), via: ownerVia[at] };
        const [first, second] = owner[at] < stamp ? [theirs, mine] : [mine, theirs];
        const { via, ...storer } = second;
        throw raceError(program.name, { param: via.param, index: via.index, first, second: storer }, lines);
      }
    }
  }
}

function side(program: InstrumentedProgram, grid: [number, number, number], stamp: number, site: number): RaceSide {
  return siteOf(program, grid, stamp - 1, site).side;
}
