// Pure statistics for the charts and the live summary: incrementally sorted
// samples, downsampled CDFs, flow-size buckets. No DOM, so Vitest tests them.

import type { CompletedFlow } from '../engine/frame';
import { sizeOf } from '../engine/facts';

/**
 * Values kept sorted as a run grows: new values are sorted on their own and
 * merged in (O(n) per update instead of re-sorting 100k values each time).
 * `update` recomputes from scratch when the source is not the same list
 * grown at the end (a new run, a seek back).
 */
export class SortedSamples {
  sorted: Float64Array = new Float64Array(0);
  private seen = 0;
  private first: unknown = undefined;

  /** Brings the samples up to date with `items` (read with `get`); returns the sorted values. */
  update<T>(items: readonly T[], get: (t: T) => number): Float64Array {
    const grown = items.length >= this.seen && this.seen > 0 && items[0] === this.first;
    if (!grown) {
      this.sorted = new Float64Array(0);
      this.seen = 0;
    }
    if (items.length === this.seen) return this.sorted;
    const fresh = new Float64Array(items.length - this.seen);
    for (let i = this.seen; i < items.length; i++) fresh[i - this.seen] = get(items[i]);
    fresh.sort();
    this.sorted = mergeSorted(this.sorted, fresh);
    this.seen = items.length;
    this.first = items[0];
    return this.sorted;
  }
}

/** Merges two ascending arrays into a new ascending array. */
export function mergeSorted(a: Float64Array, b: Float64Array): Float64Array {
  if (!a.length) return b;
  if (!b.length) return a;
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

/** A CDF as points: x ascending, y = fraction of samples <= x. */
export interface CdfPoints {
  x: Float64Array;
  y: Float64Array;
}

/**
 * The empirical CDF of ascending `sorted`, with at most about `maxPoints`
 * points: evenly spaced ranks for the body plus log-spaced ranks towards
 * the top so the tail (the 99th percentile and beyond, what the papers
 * argue about) keeps its shape. The first and the last sample are always
 * present. Small inputs are returned in full.
 */
export function cdfPoints(sorted: Float64Array, maxPoints = 500): CdfPoints {
  const n = sorted.length;
  if (n === 0) return { x: new Float64Array(0), y: new Float64Array(0) };
  let ranks: number[];
  if (n <= maxPoints) {
    ranks = Array.from({ length: n }, (_, i) => i);
  } else {
    const body = Math.max(2, Math.floor(maxPoints * 0.8));
    const tail = maxPoints - body;
    const set = new Set<number>();
    for (let k = 0; k < body; k++) set.add(Math.round((k * (n - 1)) / (body - 1)));
    // Ranks at y = 1 - 10^-e for e from 2 (p99) to log10(n) (the last sample).
    const top = Math.log10(n);
    for (let k = 0; k < tail; k++) {
      const e = 2 + ((top - 2) * k) / Math.max(1, tail - 1);
      set.add(Math.min(n - 1, Math.max(0, Math.ceil(n * (1 - 10 ** -e)) - 1)));
    }
    set.add(0);
    set.add(n - 1);
    ranks = [...set].sort((a, b) => a - b);
  }
  const x = new Float64Array(ranks.length);
  const y = new Float64Array(ranks.length);
  ranks.forEach((r, i) => {
    x[i] = sorted[r];
    y[i] = (r + 1) / n;
  });
  return { x, y };
}

/** Flow-size buckets of the bucket chart: (0,10KB], (10KB,100KB], (100KB,1MB], (1MB,10MB], >10MB. */
export const SIZE_BUCKETS = [
  { label: '≤10KB', max: 10_000 },
  { label: '10KB–100KB', max: 100_000 },
  { label: '100KB–1MB', max: 1_000_000 },
  { label: '1MB–10MB', max: 10_000_000 },
  { label: '>10MB', max: Infinity },
] as const;

/** Index into SIZE_BUCKETS of a flow of `bytes` (upper bounds inclusive). */
export function sizeBucket(bytes: number): number {
  for (let i = 0; i < SIZE_BUCKETS.length; i++) if (bytes <= SIZE_BUCKETS[i].max) return i;
  return SIZE_BUCKETS.length - 1;
}

/** Mean slowdown and flow count per SIZE_BUCKETS bucket (mean NaN when empty). */
export function bucketMeans(flows: readonly CompletedFlow[]): { mean: number[]; count: number[] } {
  const sum = SIZE_BUCKETS.map(() => 0);
  const count = SIZE_BUCKETS.map(() => 0);
  for (const f of flows) {
    const b = sizeBucket(f.sizeBytes);
    sum[b] += f.slowdown;
    count[b]++;
  }
  return { mean: sum.map((s, i) => (count[i] ? s / count[i] : NaN)), count };
}

/**
 * The k-th smallest value (0-based) of `a`, by quickselect; `a` is
 * reordered. O(n) expected, for a live 99th percentile without sorting.
 */
export function selectKth(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

/** Nearest-rank percentile (as the engine's BucketStats): the ceil(q n)-th smallest. */
export function percentile(values: Float64Array, q: number): number {
  const n = values.length;
  if (!n) return NaN;
  const rank = Math.min(n, Math.max(1, Math.ceil(q * n))) - 1;
  return selectKth(values.slice(), rank);
}

/** Live statistics of one set of flows (the engine's BucketStats, from the flows completed so far). */
export interface LiveBucket {
  flows: number;
  meanSlowdown: number;
  p99Slowdown: number;
  afctUs: number;
}


/** Live summary of completed flows: all, short (<100KB), medium, long (>10MB), like the engine's Summary. */
export function liveSummary(flows: readonly CompletedFlow[]): { all: LiveBucket; short: LiveBucket; medium: LiveBucket; long: LiveBucket } {
  const parts = { all: [] as CompletedFlow[], short: [] as CompletedFlow[], medium: [] as CompletedFlow[], long: [] as CompletedFlow[] };
  for (const f of flows) {
    parts.all.push(f);
    parts[sizeOf(f.sizeBytes)].push(f);
  }
  const of = (fs: CompletedFlow[]): LiveBucket => {
    const n = fs.length;
    if (!n) return { flows: 0, meanSlowdown: NaN, p99Slowdown: NaN, afctUs: NaN };
    const sl = new Float64Array(n);
    let s = 0;
    let fct = 0;
    fs.forEach((f, i) => {
      sl[i] = f.slowdown;
      s += f.slowdown;
      fct += f.fctPs / 1e6;
    });
    return { flows: n, meanSlowdown: s / n, p99Slowdown: percentile(sl, 0.99), afctUs: fct / n };
  };
  return { all: of(parts.all), short: of(parts.short), medium: of(parts.medium), long: of(parts.long) };
}

/** Log-scale axis domain covering positive `lo`..`hi`, at least one decade wide, floored at `floor`. */
export function logDomain(lo: number, hi: number, floor = 0): [number, number] {
  let a = Math.max(lo, floor, 1e-12);
  let b = Math.max(hi, a);
  a = 10 ** Math.floor(Math.log10(a));
  if (floor > 0) a = Math.max(a, floor);
  b = 10 ** Math.ceil(Math.log10(b) + 1e-9);
  if (b <= a) b = a * 10;
  return [a, b];
}

/**
 * A time series cut where it was not sampled (points marked `gap`) and
 * binned piece by piece (`binSeries`, the bins shared out by each piece's
 * length, at least two each): one list of [t, v] pairs per piece that has
 * two points or more, and the lone points, which a chart draws as dots.
 * A point whose value is not finite (unknown) is left out and cuts too.
 */
export function segmentSeries(t: ArrayLike<number>, v: ArrayLike<number>, gap: ArrayLike<boolean>, bins: number, mode: 'mean' | 'max'): { lines: [number, number][][]; dots: [number, number][] } {
  const n = t.length;
  const lines: [number, number][][] = [];
  const dots: [number, number][] = [];
  if (n === 0) return { lines, dots };
  const span = t[n - 1] - t[0] || 1;
  const piece = (a: number, b: number) => {
    if (b - a === 1) dots.push([t[a], v[a]]);
    else if (b - a > 1) {
      const share = Math.max(2, Math.round((bins * (t[b - 1] - t[a])) / span));
      lines.push(binSeries(Array.prototype.slice.call(t, a, b), Array.prototype.slice.call(v, a, b), share, mode));
    }
  };
  // A point without a value (not finite) is left out, and cuts the line too.
  let start = 0;
  for (let i = 0; i <= n; i++) {
    if (i === n || !Number.isFinite(v[i])) {
      piece(start, i);
      start = i + 1;
    } else if (i > start && gap[i]) {
      piece(start, i);
      start = i;
    }
  }
  return { lines, dots };
}

/**
 * Reduces a time series to at most `bins` points by time bins: 'mean'
 * weights each point by the time since the previous one (right for rates
 * such as goodput, and for levels sampled at uneven frames), 'max' keeps
 * the peak of each bin (right for the largest queue). Returns [t, v] pairs,
 * t the time of the bin's last point. Short series are returned as is.
 */
export function binSeries(t: ArrayLike<number>, v: ArrayLike<number>, bins: number, mode: 'mean' | 'max'): [number, number][] {
  const n = t.length;
  if (n <= bins) return Array.from({ length: n }, (_, i) => [t[i], v[i]] as [number, number]);
  const t0 = t[0];
  const span = t[n - 1] - t0 || 1;
  const out: [number, number][] = [];
  let cur = -1;
  let acc = 0;
  let w = 0;
  let lastV = 0;
  let last = 0;
  let prevT = t0;
  const flush = () => {
    if (cur >= 0) out.push([last, mode === 'max' ? acc : w > 0 ? acc / w : lastV]);
  };
  for (let i = 0; i < n; i++) {
    const b = Math.min(bins - 1, Math.floor(((t[i] - t0) / span) * bins));
    if (b !== cur) {
      flush();
      cur = b;
      acc = mode === 'max' ? -Infinity : 0;
      w = 0;
    }
    const dt = Math.max(t[i] - prevT, 0);
    if (mode === 'max') acc = Math.max(acc, v[i]);
    else if (dt > 0) {
      acc += v[i] * dt;
      w += dt;
    }
    lastV = v[i];
    prevT = t[i];
    last = t[i];
  }
  flush();
  return out;
}
