// A seeded random generator for the fuzz tests (no dependency): the same
// cases on every run for a given seed.

/** xorshift32 from `seed`: `next()` in [0, 1), `int(n)` in [0, n), `pick(xs)`. */
export function rng(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T,>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick };
}

/** A generator made by [`rng`]. */
export type Rng = ReturnType<typeof rng>;
