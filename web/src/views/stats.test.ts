import { describe, expect, it } from 'vitest';
import type { CompletedFlow } from '../engine/frame';
import { SortedSamples, binSeries, bucketMeans, cdfPoints, liveSummary, logDomain, mergeSorted, percentile, selectKth, sizeBucket } from './stats';
import { plural, sig } from '../format/format';

/** A deterministic pseudo-random generator (xorshift). */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}
const flow = (i: number, sizeBytes: number, slowdown: number, fctPs = 1e6): CompletedFlow => ({ flow: i, sizeBytes, startPs: 0, fctPs, slowdown, src: 0, dst: 1 });

describe('sorted samples', () => {
  it('merges growing lists into the same result as a full sort', () => {
    const r = rng(7);
    const items: number[] = [];
    const s = new SortedSamples();
    for (let round = 0; round < 20; round++) {
      const grown = items.concat(Array.from({ length: 1 + Math.floor(r() * 50) }, () => Math.floor(r() * 1000)));
      items.length = 0;
      items.push(...grown);
      const got = s.update(grown, (x) => x);
      expect(Array.from(got)).toEqual([...grown].sort((a, b) => a - b));
    }
  });

  it('starts over on a different list (a new run)', () => {
    const s = new SortedSamples();
    const a = [{ v: 3 }, { v: 1 }];
    expect(Array.from(s.update(a, (x) => x.v))).toEqual([1, 3]);
    const b = [{ v: 5 }, { v: 4 }, { v: 9 }];
    expect(Array.from(s.update(b, (x) => x.v))).toEqual([4, 5, 9]);
    expect(Array.from(s.update([], (x: { v: number }) => x.v))).toEqual([]);
  });

  it('merges sorted arrays', () => {
    expect(Array.from(mergeSorted(new Float64Array([1, 4, 9]), new Float64Array([2, 4, 10])))).toEqual([1, 2, 4, 4, 9, 10]);
  });

  it('keeps up with a 100k-flow run in small steps (reads only the new flows, merges)', () => {
    const r = rng(3);
    const vals = Array.from({ length: 100_000 }, () => r() * 1e4);
    const s = new SortedSamples();
    s.update(vals.slice(0, 99_000), (x) => x);
    // Work, not wall time: the second update must read the 1,000 new
    // flows only (a re-sort would read all 100,000), and still give the
    // fully sorted samples.
    let reads = 0;
    const sorted = s.update(vals, (x) => {
      reads++;
      return x;
    });
    expect(reads).toBe(1_000);
    expect(Array.from(sorted)).toEqual(Array.from(Float64Array.from(vals).sort()));
    expect(cdfPoints(sorted, 500).x.length).toBeLessThanOrEqual(520);
  });
});

describe('CDF downsampling', () => {
  it('keeps small inputs whole', () => {
    const { x, y } = cdfPoints(new Float64Array([1, 2, 2, 5]), 500);
    expect(Array.from(x)).toEqual([1, 2, 2, 5]);
    expect(Array.from(y)).toEqual([0.25, 0.5, 0.75, 1]);
  });

  it('cuts 100k samples to about 500 points and keeps the ends and the tail exact', () => {
    const r = rng(11);
    const n = 100_000;
    const sorted = Float64Array.from({ length: n }, () => 1 + -Math.log(r()) * 3).sort();
    const { x, y } = cdfPoints(sorted, 500);
    expect(x.length).toBeLessThanOrEqual(502);
    expect(x.length).toBeGreaterThan(400);
    expect(x[0]).toBe(sorted[0]);
    expect(y[0]).toBe(1 / n);
    expect(x[x.length - 1]).toBe(sorted[n - 1]);
    expect(y[y.length - 1]).toBe(1);
    for (let i = 1; i < x.length; i++) {
      expect(x[i]).toBeGreaterThanOrEqual(x[i - 1]);
      expect(y[i]).toBeGreaterThan(y[i - 1]);
    }
    // Every point is a true point of the empirical CDF.
    for (let i = 0; i < x.length; i++) expect(sorted[Math.round(y[i] * n) - 1]).toBe(x[i]);
    // The tail is sampled densely: the p99 and p99.9 points are present.
    const ys = Array.from(y);
    expect(ys).toContain(Math.ceil(0.99 * n) / n);
    expect(ys.some((v) => Math.abs(v - 0.999) < 1e-4)).toBe(true);
    expect(ys.filter((v) => v >= 0.99).length).toBeGreaterThan(50);
  });

  it('gives an empty CDF for no samples', () => {
    expect(cdfPoints(new Float64Array(0)).x.length).toBe(0);
  });
});

describe('flow-size buckets', () => {
  it('puts sizes in (0,10KB], (10KB,100KB], (100KB,1MB], (1MB,10MB], >10MB', () => {
    expect([1, 10_000, 10_001, 100_000, 100_001, 1_000_000, 1_000_001, 10_000_000, 10_000_001, 1e9].map(sizeBucket)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it('averages slowdowns per bucket', () => {
    const b = bucketMeans([flow(0, 5000, 2), flow(1, 8000, 4), flow(2, 2e7, 10)]);
    expect(b.count).toEqual([2, 0, 0, 0, 1]);
    expect(b.mean[0]).toBe(3);
    expect(b.mean[1]).toBeNaN();
    expect(b.mean[4]).toBe(10);
  });
});

describe('percentiles and the live summary', () => {
  it('selects the k-th smallest like a sort does', () => {
    const r = rng(5);
    for (let t = 0; t < 30; t++) {
      const n = 1 + Math.floor(r() * 300);
      const a = Float64Array.from({ length: n }, () => Math.floor(r() * 20)); // many ties
      const s = a.slice().sort();
      const k = Math.floor(r() * n);
      expect(selectKth(a.slice(), k)).toBe(s[k]);
    }
  });

  it('uses the nearest rank, as the engine (ceil(0.99 n)-th smallest)', () => {
    const v = Float64Array.from({ length: 200 }, (_, i) => i + 1);
    expect(percentile(v, 0.99)).toBe(198);
    expect(percentile(new Float64Array([7]), 0.99)).toBe(7);
    expect(percentile(new Float64Array(0), 0.99)).toBeNaN();
  });

  it('splits short (<100KB), medium (100KB..10MB inclusive) and long (>10MB) as the engine does', () => {
    const s = liveSummary([flow(0, 99_999, 1), flow(1, 100_000, 2), flow(2, 10_000_000, 3), flow(3, 10_000_001, 5, 4e6)]);
    expect(s.short.flows).toBe(1);
    expect(s.medium.flows).toBe(2);
    expect(s.medium.meanSlowdown).toBe(2.5);
    expect(s.long.flows).toBe(1);
    expect(s.all.meanSlowdown).toBe(2.75);
    expect(s.all.afctUs).toBe(1.75);
    expect(s.all.p99Slowdown).toBe(5);
  });
});

describe('time series binning', () => {
  it('returns short series unchanged', () => {
    expect(binSeries([1, 2], [5, 6], 10, 'mean')).toEqual([
      [1, 5],
      [2, 6],
    ]);
  });

  it('takes time-weighted means and peaks per bin, at most `bins` points', () => {
    // 1000 points, uneven spacing; value 10 for t < 500, then 20.
    const t: number[] = [];
    const v: number[] = [];
    let now = 0;
    for (let i = 0; i < 1000; i++) {
      now += i % 2 ? 0.2 : 1.8;
      t.push(now);
      v.push(now < 500 ? 10 : 20);
    }
    v[700] = 99;
    const mean = binSeries(t, v, 50, 'mean');
    expect(mean.length).toBeLessThanOrEqual(50);
    expect(mean[0][1]).toBeCloseTo(10, 9);
    expect(mean[mean.length - 1][1]).toBeCloseTo(20, 9);
    expect(mean[mean.length - 1][0]).toBe(t[t.length - 1]);
    const peak = binSeries(t, v, 50, 'max');
    expect(Math.max(...peak.map((p) => p[1]))).toBe(99);
    // The spike weighs 0.2 or 1.8 time units of a ~20-unit bin: the mean bin stays well below it.
    expect(Math.max(...mean.map((p) => p[1]))).toBeLessThan(40);
  });
});

describe('axis domains and number formats', () => {
  it('makes log domains of whole decades, from 1 for slowdowns', () => {
    expect(logDomain(3.2, 470)).toEqual([1, 1000]);
    expect(logDomain(0.5, 2, 1)).toEqual([1, 10]);
    expect(logDomain(1, 1, 1)).toEqual([1, 10]);
    expect(logDomain(12, 80)).toEqual([10, 100]);
  });

  it('formats to three significant digits', () => {
    expect(sig(3.14159)).toBe('3.14');
    expect(sig(1234.5)).toBe('1,235');
    expect(sig(0.000123456)).toBe('0.000123');
    expect(sig(0)).toBe('0');
    expect(sig(NaN)).toBe('–');
  });
});

describe('counts in words', () => {
  it('say "1 event", "1 packet" in the singular and use the plural otherwise', () => {
    expect([plural(1, 'event'), plural(0, 'event'), plural(2048, 'packet'), plural(1, 'switch', 'switches'), plural(3, 'switch', 'switches')]).toEqual(['1 event', '0 events', '2,048 packets', '1 switch', '3 switches']);
  });
});
