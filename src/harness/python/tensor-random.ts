// torch.rand / randn / randint's numbers: a seeded generator per script (torch.manual_seed), so a
// script prints the same values on every run. The values are Kernel Lab's own (torch's CUDA
// generator can't be reproduced here); the README says so.

// Unsigned 32-bit words held as such: in a plain array the XORs' results above 2^31 were boxed
// doubles, and drawing 100K numbers took ~0.1 s.
const state = Uint32Array.of(0x9e3779b9, 0x243f6a88, 0xb7e15162, 0x12345678);

export function seed(n: number): void {
  // splitmix32 spreads the seed over the four words.
  let s = n >>> 0;
  state.set([0, 0, 0, 0].map(() => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  }));
}

/** The generator's four words (torch.get_rng_state). */
export function getState(): number[] {
  return Array.from(state);
}

/** The four words get_rng_state gave (torch.set_rng_state). */
export function setState(words: ArrayLike<number>): void {
  if (words.length !== 4) throw new Error(`a random state is 4 words, not ${words.length}`);
  state.set(Array.from(words, (w) => w >>> 0));
}

/** xoshiro128** : 32 random bits. */
function next(): number {
  const result = Math.imul(rotl(Math.imul(state[1], 5) >>> 0, 7), 9) >>> 0;
  const t = (state[1] << 9) >>> 0;
  state[2] ^= state[0];
  state[3] ^= state[1];
  state[1] ^= state[2];
  state[0] ^= state[3];
  state[2] ^= t;
  state[3] = rotl(state[3], 11);
  return result;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** Uniform in [0, 1) with 24 bits, so it never rounds up to 1 in float32. */
function uniform(): number {
  return (next() >>> 8) / 16777216;
}

export function randomValues(kind: string, low: number, high: number): (i: number) => number {
  switch (kind) {
    case "rand":
      return () => uniform();
    case "randn":
      return () => {
        // Box–Muller; 1 - u keeps the logarithm finite.
        const u = 1 - uniform();
        const v = uniform();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
      };
    case "randint":
      return () => low + Math.floor(uniform() * (high - low));
    default:
      throw new Error(`unknown random kind ${kind}`);
  }
}
