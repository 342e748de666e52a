// The verdict of a gallery figure: for each simulated series, one line
// saying whether the sweep agrees with what the paper publishes (within a
// stated tolerance) or by how much it differs. Pure: the sweep's values in,
// lines out (verdict.test.ts).

import type { Published } from './published';

/** A simulated series: its values by x (missing x: not run, or the run has no value). */
export type SimSeries = Map<number, number>;

/** One series' verdict. */
export interface Verdict {
  series: string;
  /** 'agrees', 'differs', 'none' (no published values), 'pending' (nothing comparable yet). */
  status: 'agrees' | 'differs' | 'none' | 'pending';
  /** The worst relative difference found (0 inside the tolerance band's core), when compared. */
  worst: number | null;
  /** The line shown: "agrees (within 3%): ...", "differs by 12% (tolerance 5%): ...", "no published values entered". */
  text: string;
}

const pct = (f: number) => {
  const p = f * 100;
  return `${p < 10 ? Number(p.toPrecision(2)) : Math.round(p)}%`;
};
/** A number to 4 significant digits. */
export const num = (x: number) => String(Number(x.toPrecision(4)));
const range = (lo: number, hi: number) => (hi === Infinity ? `above ${num(lo)}` : lo === 0 ? `at most ${num(hi)}` : `${num(lo)} to ${num(hi)}`);

/** How far `r` lies outside [lo, hi], relative to the bound it passes (0 inside). */
export function outside(r: number, lo: number, hi: number): number {
  if (r < lo) return (lo - r) / lo;
  if (r > hi) return (r - hi) / hi;
  return 0;
}

/** One comparison: the relative difference at an x, and words for it. */
interface Cmp {
  x: number;
  diff: number;
  tolerance: number;
  words: string;
  /** For a ratio claim: the ratio, and the claim (to quote the range of ratios when all agree). */
  ratio?: number;
  claim?: Published;
}

/**
 * The verdict for `series`: every published entry about it compared with
 * the sweep (`sim`: every series by name), the worst comparison deciding.
 * `xText` names an x ("load 0.5", "50 senders"), `yText` a value in the
 * figure's units.
 */
export function verdict(series: string, published: Published[], sim: Map<string, SimSeries>, xText: (x: number) => string, yText: (y: number) => string = num): Verdict {
  const mine = published.filter((p) => p.series === series);
  if (mine.length === 0) return { series, status: 'none', worst: null, text: 'no published values entered' };
  const own = sim.get(series) ?? new Map<number, number>();
  const cmps: Cmp[] = [];
  const missing: number[] = [];
  for (const p of mine) {
    if (p.kind === 'points') {
      for (const pt of p.points) {
        const v = own.get(pt.x);
        if (v === undefined) {
          missing.push(pt.x);
          continue;
        }
        cmps.push({ x: pt.x, diff: Math.abs(v - pt.y) / Math.abs(pt.y), tolerance: p.tolerance, words: `${yText(v)} against the paper's ${yText(pt.y)} at ${xText(pt.x)}` });
      }
    } else {
      const ref = sim.get(p.reference) ?? new Map<number, number>();
      for (const [x, v] of own) {
        if ((p.xMin !== undefined && x < p.xMin) || (p.xMax !== undefined && x > p.xMax)) continue;
        const r = ref.get(x);
        if (r === undefined || r === 0) continue;
        const ratio = v / r;
        cmps.push({ x, diff: outside(ratio, p.lo, p.hi), tolerance: p.tolerance, ratio, claim: p, words: `${series} / ${p.reference} ${num(ratio)} at ${xText(x)}, paper: ${range(p.lo, p.hi)} (${p.claim})` });
      }
    }
  }
  const gap = missing.length ? ` (no simulated point at ${missing.map(xText).join(', ')})` : '';
  if (cmps.length === 0) return { series, status: 'pending', worst: null, text: `not compared yet${gap}` };
  // The comparison furthest beyond its tolerance decides; among agreeing ones, the largest difference is quoted.
  const worst = cmps.reduce((a, b) => {
    const ea = a.diff - a.tolerance;
    const eb = b.diff - b.tolerance;
    return eb > ea || (eb === ea && b.diff > a.diff) ? b : a;
  });
  const agrees = cmps.every((c) => c.diff <= c.tolerance + 1e-12);
  const tol = Math.max(...cmps.map((c) => c.tolerance));
  const head = tol === 0 ? 'agrees' : `agrees (within ${pct(tol)})`;
  if (agrees && worst.claim?.kind === 'ratio') {
    // Every ratio of this claim is in range: quote them all, as a range.
    const c = worst.claim;
    const rs = cmps.filter((k) => k.claim === c).map((k) => k.ratio!);
    const lo = Math.min(...rs);
    const hi = Math.max(...rs);
    const at = rs.length === 1 ? ` at ${xText(worst.x)}` : ` over ${rs.length} points`;
    worst.words = `${series} / ${c.reference} ${lo === hi ? num(lo) : `${num(lo)} to ${num(hi)}`}${at}, paper: ${range(c.lo, c.hi)} (${c.claim})`;
  }
  if (agrees) return { series, status: 'agrees', worst: worst.diff, text: `${head}: ${worst.words}${worst.diff > 0 ? `, ${pct(worst.diff)} off` : ''}${gap}` };
  return { series, status: 'differs', worst: worst.diff, text: `differs by ${pct(worst.diff)} (tolerance ${pct(worst.tolerance)}): ${worst.words}${gap}` };
}

/** Every published entry has a source naming the paper, the place in it, and where the repository quotes it. */
export function unsourced(published: Record<string, Published[]>): string[] {
  const bad: string[] = [];
  for (const [fig, entries] of Object.entries(published)) {
    entries.forEach((p, i) => {
      const s = p.source;
      if (!s || !/\(.*\d{4}\)/.test(s.paper) || !/(figure|table|section|abstract)/i.test(s.where) || !s.quotedIn.trim()) bad.push(`${fig}[${i}] (${p.series})`);
    });
  }
  return bad;
}
