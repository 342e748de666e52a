// Where a live figure's run lies against what the paper states: for each
// simulated series, one line per published entry (published.ts) saying
// which points lie inside or outside the paper's bound as the report's
// rules read it, with no slack. A live run is one seed per point, so this
// is never called a verdict: the page links each series to the report's
// verdict (judged over seeds with 95% intervals). Pure: the sweep's values
// in, lines out (gallery.test.ts).

import { digitsFor, fmt } from './report';
import type { PaperBound, Published, PublishedRelative, RelativeQuantity } from './published';

/** A simulated series: its values by x (missing x: not run, or the run has no value). */
export type SimSeries = Map<number, number>;

/** One entry compared with the run. */
export interface LiveCheck {
  /** 'inside' every compared point, 'outside' at one at least, 'pending' when nothing could be compared. */
  status: 'inside' | 'outside' | 'pending';
  /** The line shown: the quantity, its values, and where they lie against the bound quoted from the paper. */
  text: string;
  entry: Published;
}

/** One series' comparison with what the paper states about it. */
export interface Verdict {
  series: string;
  /** 'inside' (every compared point inside), 'outside' (one at least outside), 'none' (nothing published), 'pending' (nothing comparable yet). */
  status: 'inside' | 'outside' | 'none' | 'pending';
  checks: LiveCheck[];
  /** Every check in one line (the chart's text alternative carries it). */
  text: string;
}

/** A number to 4 significant digits. */
export const num = (x: number) => String(Number(x.toPrecision(4)));

/** The bound with `slack` added beyond each finite edge, relative to the edge (slack 0 leaves it as it is). */
export function widen(b: PaperBound, slack: number): PaperBound {
  if (slack === 0) return b;
  return { ...b, lo: b.lo === null ? null : b.lo - Math.abs(b.lo) * slack, hi: b.hi === null ? null : b.hi + Math.abs(b.hi) * slack };
}

/** Whether q lies in the bound (open edges excluded). */
export function inBound(q: number, b: PaperBound): boolean {
  if (b.lo !== null && (b.loOpen ? q <= b.lo : q < b.lo)) return false;
  if (b.hi !== null && (b.hiOpen ? q >= b.hi : q > b.hi)) return false;
  return true;
}

/** A bound in the report's words: "in [0.96, 1.04]", "above 1", "below 0.055", "at least 0", "at most 2". */
export function boundText(b: PaperBound): string {
  if (b.lo !== null && b.hi !== null) return `in ${b.loOpen ? '(' : '['}${num(b.lo)}, ${num(b.hi)}${b.hiOpen ? ')' : ']'}`;
  if (b.lo !== null) return `${b.loOpen ? 'above' : 'at least'} ${num(b.lo)}`;
  if (b.hi !== null) return `${b.hiOpen ? 'below' : 'at most'} ${num(b.hi)}`;
  return 'any value';
}

/** The relative quantity from the series' value v and the reference's r. */
export function relative(q: RelativeQuantity, v: number, r: number): number {
  if (q === 'ratio') return v / r;
  if (q === 'ratio-1') return v / r - 1;
  if (q === '1-ratio') return 1 - v / r;
  return v - r;
}

/** The series' value at which the relative quantity equals q, given the reference's r (to draw a bound around the reference). */
export function relativeBack(q: RelativeQuantity, bound: number, r: number): number {
  if (q === 'ratio') return r * bound;
  if (q === 'ratio-1') return r * (1 + bound);
  if (q === '1-ratio') return r * (1 - bound);
  return r + bound;
}

/** The relative quantity in words: "pfabric / ideal − 1". */
export function relativeText(p: PublishedRelative): string {
  const s = `${p.series} / ${p.reference}`;
  if (p.quantity === 'ratio') return s;
  if (p.quantity === 'ratio-1') return `${s} − 1`;
  if (p.quantity === '1-ratio') return `1 − ${s}`;
  return `${p.series} − ${p.reference}`;
}

const edges = (b: PaperBound) => [b.lo, b.hi].filter((v): v is number => v !== null);

/** Points and their quantities in words, each outside one marked: "0.0123 at load 0.2, ✗ 0.231 at load 0.8". */
function pointsText(pts: { x: number; q: number; inside: boolean }[], b: PaperBound, xText: ((x: number) => string) | null): string {
  const p = digitsFor(
    pts.map((d) => d.q),
    edges(b),
  );
  const one = (d: { x: number; q: number; inside: boolean }) => `${d.inside ? '' : '✗ '}${fmt(d.q, p)}${xText ? ` at ${xText(d.x)}` : ''}`;
  if (pts.length <= 5 || !xText) return pts.map(one).join(', ');
  const sorted = [...pts].sort((a, c) => a.q - c.q);
  const out = pts.filter((d) => !d.inside);
  return `${fmt(sorted[0].q, p)} (${xText(sorted[0].x)}) to ${fmt(sorted[sorted.length - 1].q, p)} (${xText(sorted[sorted.length - 1].x)}) over ${pts.length} points${out.length ? `; outside: ${out.map(one).join(', ')}` : ''}`;
}

/** Judges a set of points against a bound, in one line. */
function judgePoints(label: string, pts: { x: number; q: number }[], b: PaperBound, says: string, entry: Published, xText: ((x: number) => string) | null): LiveCheck {
  const marked = pts.map((d) => ({ ...d, inside: inBound(d.q, b) }));
  const out = marked.filter((d) => !d.inside).length;
  const where =
    out === 0 ? `✓ ${marked.length === 1 ? 'inside' : `all ${marked.length} inside`}` : `✗ ${out === marked.length ? (out === 1 ? 'outside' : `all ${out} outside`) : `${out} of ${marked.length} outside`}`;
  return { status: out ? 'outside' : 'inside', entry, text: `${label}: ${pointsText(marked, b, xText)}: ${where} "${boundText(b)}", the paper's "${says}"` };
}

/**
 * Compares `series` with every published entry about it: the sweep's
 * values (`sim`: every series by name, values by x) against the bounds, no
 * slack beyond what the entry states (0 everywhere; a test checks).
 * `xText` names an x ("load 0.5", "50 senders").
 */
export function verdict(series: string, published: Published[], sim: Map<string, SimSeries>, xText: (x: number) => string): Verdict {
  const mine = published.filter((p) => p.series === series);
  if (mine.length === 0) return { series, status: 'none', checks: [], text: 'nothing published about this series' };
  const own = sim.get(series) ?? new Map<number, number>();
  const xs = [...own.keys()].sort((a, b) => a - b);
  const checks: LiveCheck[] = [];
  for (const e of mine) {
    const b = widen(e.bound, e.slack);
    if (e.kind === 'relative') {
      const ref = sim.get(e.reference) ?? new Map<number, number>();
      const pts = xs
        .filter((x) => (e.xMin === undefined || x >= e.xMin) && (e.xMax === undefined || x <= e.xMax))
        .filter((x) => ref.get(x) !== undefined && ref.get(x) !== 0)
        .map((x) => ({ x, q: relative(e.quantity, own.get(x)!, ref.get(x)!) }));
      const label = relativeText(e);
      if (pts.length === 0) {
        checks.push({ status: 'pending', entry: e, text: `${label}: not compared yet ("${boundText(b)}", the paper's "${e.says}")` });
        continue;
      }
      checks.push(judgePoints(label, pts, b, e.says, e, xText));
      if (e.ends) {
        const [a, z] = e.ends.axis;
        const onAxis = pts.filter((d) => d.x >= a && d.x <= z);
        const covers = onAxis.some((d) => d.x === a) && onAxis.some((d) => d.x === z);
        if (!covers) {
          checks.push({ status: 'pending', entry: e, text: `${label}, smallest and largest over ${xText(a)} to ${xText(z)}: not compared (this run does not cover both ends)` });
        } else {
          const lo = onAxis.reduce((m, d) => (d.q < m.q ? d : m));
          const hi = onAxis.reduce((m, d) => (d.q > m.q ? d : m));
          checks.push(judgePoints(`${label}, smallest over ${xText(a)} to ${xText(z)}`, [lo], widen(e.ends.smallest, e.slack), e.says, e, xText));
          checks.push(judgePoints(`${label}, largest over ${xText(a)} to ${xText(z)}`, [hi], widen(e.ends.largest, e.slack), e.says, e, xText));
        }
      }
    } else if (e.kind === 'value') {
      const want = e.at ?? xs;
      const missing = want.filter((x) => own.get(x) === undefined);
      const pts = want.filter((x) => own.get(x) !== undefined).map((x) => ({ x, q: e.quantity.of(own.get(x)!) }));
      const gap = missing.length ? ` (no simulated point at ${missing.map(xText).join(', ')})` : '';
      if (pts.length === 0) {
        checks.push({ status: 'pending', entry: e, text: `${e.quantity.text}: not compared yet${gap}` });
        continue;
      }
      const c = judgePoints(e.quantity.text, pts, b, e.says, e, xText);
      checks.push({ ...c, text: c.text + gap });
    } else {
      if (xs.length < 2) {
        checks.push({ status: 'pending', entry: e, text: `${series} at the first x minus at the last: not compared yet (needs two points)` });
        continue;
      }
      const first = xs[0];
      const last = xs[xs.length - 1];
      const q = own.get(first)! - own.get(last)!;
      checks.push(judgePoints(`${series} at ${xText(first)} minus at ${xText(last)}`, [{ x: last, q }], b, e.says, e, null));
    }
  }
  const judged = checks.filter((c) => c.status !== 'pending');
  const status = judged.length === 0 ? 'pending' : judged.some((c) => c.status === 'outside') ? 'outside' : 'inside';
  return { series, status, checks, text: checks.map((c) => c.text).join('; ') };
}

/** Every published entry has a source naming the paper (with its year), the place in it, and where the repository quotes it. */
export function unsourced(published: Record<string, Published[]>): string[] {
  const bad: string[] = [];
  for (const [fig, entries] of Object.entries(published)) {
    entries.forEach((p, i) => {
      const s = p.source;
      if (!s || !/\(.*\d{4}\)/.test(s.paper) || !/(figure|table|section|abstract)/i.test(s.where) || !s.quotedIn.trim() || !p.says.trim()) bad.push(`${fig}[${i}] (${p.series})`);
    });
  }
  return bad;
}

/** The entries with slack beyond the rules' reading (must be none). */
export function slackers(published: Record<string, Published[]>): string[] {
  return Object.entries(published).flatMap(([fig, entries]) => entries.flatMap((p, i) => (p.slack !== 0 || !Number.isFinite(p.slack) ? [`${fig}[${i}] (${p.series}): slack ${p.slack}`] : [])));
}
