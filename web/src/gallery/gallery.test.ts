// The gallery's live figures: where a run lies against the paper's bounds
// (inside or outside, no slack), the published entries (sources, no slack,
// the same bounds as the fidelity report where it has the claim), and the
// figures' grids, CSVs and addresses (pure parts; tests/e2e runs a figure
// in the browser).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED, type PaperBound, type Published } from './published';
import { boundText, inBound, relative, relativeBack, slackers, unsourced, verdict, widen, type SimSeries } from './verdict';
import { FIGURES, figureById, figureCsv, figurePoints, galleryFromHash } from './figures';
import { claimsFor, parseReport } from './report';
import type { SweepResult } from '../sweep/sweep';

const src = { paper: 'A paper (Someone et al., SIGCOMM 2013)', where: 'section 5, Figure 6', quotedIn: 'a test' };
const sim = (o: Record<string, [number, number][]>) => new Map<string, SimSeries>(Object.entries(o).map(([k, v]) => [k, new Map(v)]));
const xText = (x: number) => `x = ${x}`;
const b = (lo: number | null, hi: number | null, loOpen = false, hiOpen = false): PaperBound => ({ lo, hi, loOpen, hiOpen });
const common = { says: 'the words', rule: 'approx', slack: 0, report: { paper: 'pFabric', claim: 'some-claim' }, source: src };
const report = parseReport(JSON.parse(readFileSync(join(__dirname, '../../../docs/fidelity.json'), 'utf8')));

describe('a live run against a value the paper prints', () => {
  const value: Published = {
    kind: 'value',
    series: 'pfabric',
    points: [{ x: 50, y: 81_100 }],
    at: [50],
    quantity: { text: 'completion minus 80 ms (ms)', of: (y) => y / 1000 - 80, back: (q) => (q + 80) * 1000 },
    bound: b(0.99, 1.21),
    ...common,
  };
  it('inside the bound: says so, with the value, the bound and the paper words', () => {
    const v = verdict('pfabric', [value], sim({ pfabric: [[50, 81_150]] }), xText);
    expect(v.status).toBe('inside');
    expect(v.text).toBe('completion minus 80 ms (ms): 1.15 at x = 50: ✓ inside "in [0.99, 1.21]", the paper\'s "the words"');
  });
  it('outside by any amount: no slack, the edge itself still inside', () => {
    expect(verdict('pfabric', [value], sim({ pfabric: [[50, 81_210]] }), xText).status).toBe('inside');
    const v = verdict('pfabric', [value], sim({ pfabric: [[50, 81_211]] }), xText);
    expect(v.status).toBe('outside');
    expect(v.text).toBe('completion minus 80 ms (ms): ✗ 1.211 at x = 50: ✗ outside "in [0.99, 1.21]", the paper\'s "the words"');
  });
  it('names points the sweep did not run, and waits when none ran', () => {
    const two = { ...value, at: [10, 50] } as Published;
    expect(verdict('pfabric', [two], sim({ pfabric: [[50, 81_100]] }), xText).text).toMatch(/\(no simulated point at x = 10\)$/);
    const none = verdict('pfabric', [two], sim({ pfabric: [[20, 81_100]] }), xText);
    expect(none.status).toBe('pending');
    expect(none.text).toBe('completion minus 80 ms (ms): not compared yet (no simulated point at x = 10, x = 50)');
  });
  it('a series with nothing published says so', () => {
    expect(verdict('dctcp', [value], sim({ dctcp: [[50, 1]] }), xText)).toEqual({ series: 'dctcp', status: 'none', checks: [], text: 'nothing published about this series' });
  });
});

describe('a live run against a relative claim', () => {
  const claim: Published = { kind: 'relative', series: 'pase', reference: 'dctcp', quantity: '1-ratio', bound: b(0.45, 0.66), ...common };
  it('inside when every point is inside, listing them', () => {
    const v = verdict('pase', [claim], sim({ pase: [[0.1, 5], [0.5, 4]], dctcp: [[0.1, 10], [0.5, 10]] }), xText);
    expect(v.status).toBe('inside');
    expect(v.text).toBe('1 − pase / dctcp: 0.5 at x = 0.1, 0.6 at x = 0.5: ✓ all 2 inside "in [0.45, 0.66]", the paper\'s "the words"');
  });
  it('outside when one point is, marking it', () => {
    const v = verdict('pase', [claim], sim({ pase: [[0.1, 5], [0.5, 2.5]], dctcp: [[0.1, 10], [0.5, 10]] }), xText);
    expect(v.status).toBe('outside');
    expect(v.text).toMatch(/^1 − pase \/ dctcp: 0\.5 at x = 0\.1, ✗ 0\.75 at x = 0\.5: ✗ 1 of 2 outside/);
  });
  it('judges the smallest and largest over the axis only when the run covers both ends', () => {
    const ends: Published = { ...claim, ends: { axis: [0.1, 0.9], smallest: b(0.45, 0.55), largest: b(0.54, 0.66) } } as Published;
    const part = verdict('pase', [ends], sim({ pase: [[0.1, 5], [0.5, 4]], dctcp: [[0.1, 10], [0.5, 10]] }), xText);
    expect(part.checks.map((c) => c.status)).toEqual(['inside', 'pending']);
    expect(part.checks[1].text).toMatch(/smallest and largest over x = 0\.1 to x = 0\.9: not compared \(this run does not cover both ends\)/);
    const full = verdict('pase', [ends], sim({ pase: [[0.1, 5], [0.5, 4], [0.9, 4.8]], dctcp: [[0.1, 10], [0.5, 10], [0.9, 10]] }), xText);
    // 0.5, 0.6, 0.52: every point inside [0.45, 0.66]; the smallest 0.5 in [0.45, 0.55]; the largest 0.6 in [0.54, 0.66].
    expect(full.checks.map((c) => c.status)).toEqual(['inside', 'inside', 'inside']);
    const flat = verdict('pase', [ends], sim({ pase: [[0.1, 5], [0.5, 5], [0.9, 5]], dctcp: [[0.1, 10], [0.5, 10], [0.9, 10]] }), xText);
    // Flat at 0.5: every point in range, but the largest is not the paper's 60%: the shape is wrong.
    expect(flat.checks.map((c) => c.status)).toEqual(['inside', 'inside', 'outside']);
    expect(flat.status).toBe('outside');
  });
  it('compares only where both series ran, and only from xMin; an ordering is strict', () => {
    const ordering: Published = { kind: 'relative', series: 'dctcp', reference: 'pfabric', quantity: 'ratio', bound: b(1, null, true), xMin: 5, ...common };
    const v = verdict('dctcp', [ordering], sim({ dctcp: [[2, 1], [6, 1.2], [10, 0.7]], pfabric: [[2, 2], [6, 1]] }), xText);
    expect(v.status).toBe('inside');
    expect(v.text).toBe('dctcp / pfabric: 1.2 at x = 6: ✓ inside "above 1", the paper\'s "the words"');
    expect(verdict('dctcp', [ordering], sim({ dctcp: [[6, 1]], pfabric: [[6, 1]] }), xText).status).toBe('outside');
    expect(verdict('dctcp', [ordering], sim({ dctcp: [[6, 1]], pfabric: [] }), xText).status).toBe('pending');
  });
  it('a trend compares the first x run with the last', () => {
    const trend: Published = { kind: 'trend', series: 'tcp', bound: b(0.02, null, true), ...common };
    const v = verdict('tcp', [trend], sim({ tcp: [[2, 0.9], [6, 0.8], [10, 0.5]] }), xText);
    expect(v.status).toBe('inside');
    expect(v.text).toBe('tcp at x = 2 minus at x = 10: 0.4: ✓ inside "above 0.02", the paper\'s "the words"');
    expect(verdict('tcp', [trend], sim({ tcp: [[2, 0.9], [10, 0.89]] }), xText).status).toBe('outside');
  });
  it('bounds: open edges excluded, closed included, words as the report writes them', () => {
    expect(inBound(1, b(1, null, true))).toBe(false);
    expect(inBound(1, b(1, null))).toBe(true);
    expect(inBound(0.055, b(null, 0.055, false, true))).toBe(false);
    expect([b(0.96, 1.04), b(1, null, true), b(0, null), b(null, 0.055, false, true), b(null, 2)].map(boundText)).toEqual(['in [0.96, 1.04]', 'above 1', 'at least 0', 'below 0.055', 'at most 2']);
    expect(widen(b(1, 2), 0)).toEqual(b(1, 2));
  });
  it('relative quantities and their inverses agree', () => {
    for (const q of ['ratio', 'ratio-1', '1-ratio', 'diff'] as const) expect(relative(q, relativeBack(q, 0.3, 7), 7)).toBeCloseTo(0.3);
  });
});

describe('published entries', () => {
  it('every one has a source: paper with year, figure or section, where the repository quotes it, and the paper words', () => {
    expect(unsourced(PUBLISHED)).toEqual([]);
    const bad = { x: [{ ...PUBLISHED['pfabric-incast'][0], source: { paper: 'pFabric', where: 'somewhere', quotedIn: '' } }] } as Record<string, Published[]>;
    expect(unsourced(bad)).toEqual(['x[0] (pfabric)']);
  });
  it('no entry has slack: the bounds are the rules’ reading of the paper, not widened', () => {
    expect(slackers(PUBLISHED)).toEqual([]);
    // The check itself catches slack.
    const loose = { x: [{ ...PUBLISHED['pfabric-incast'][0], slack: 0.05 }] } as Record<string, Published[]>;
    expect(slackers(loose)).toEqual(['x[0] (pfabric): slack 0.05']);
  });
  it('every rule named is one of the report’s rules', () => {
    const rules = new Set(report.rules.map((r) => r.rule));
    for (const [id, entries] of Object.entries(PUBLISHED)) for (const p of entries) expect(rules.has(p.rule), `${id} ${p.series}: rule ${p.rule}`).toBe(true);
  });
  it('where the report has the claim, the bounds are exactly the report’s', () => {
    let compared = 0;
    for (const [id, entries] of Object.entries(PUBLISHED)) {
      for (const p of entries) {
        const claim = p.report.claim ? report.claims.find((c) => c.id === p.report.claim) : undefined;
        if (!claim || !p.report.readings) continue;
        const same = (mine: PaperBound, key: string | undefined) => {
          if (!key) return;
          const check = claim.judged.checks.find((k) => k.reading === key);
          expect(check, `${id} ${p.series}: the report's ${claim.id} has no check of reading ${key}`).toBeDefined();
          const theirs = check!.bound;
          // Equal up to the last bits of a double (the report computes 0.7% - 10% as 0.0063 in floating point too).
          const near = (a: number | null, c: number | null) => (a === null || c === null ? a === c : Math.abs(a - c) <= 1e-12 * Math.max(1, Math.abs(c)));
          expect(near(mine.lo, theirs.lo) && near(mine.hi, theirs.hi), `${id} ${p.series} against ${claim.id}/${key}: [${mine.lo}, ${mine.hi}] vs [${theirs.lo}, ${theirs.hi}]`).toBe(true);
          expect([mine.loOpen, mine.hiOpen], `${id} ${p.series} against ${claim.id}/${key}`).toEqual([theirs.lo_open, theirs.hi_open]);
          compared++;
        };
        same(p.bound, p.report.readings.every);
        if (p.kind === 'relative' && p.ends) {
          same(p.ends.smallest, p.report.readings.smallest);
          same(p.ends.largest, p.report.readings.largest);
        }
      }
    }
    // The sample report has pFabric's claims: the web search, ordering and incast entries are all compared.
    expect(compared).toBeGreaterThanOrEqual(9);
  });
  it('link to a report claim wherever the report has claims of that paper', () => {
    for (const [id, entries] of Object.entries(PUBLISHED)) {
      for (const p of entries) {
        const any = report.claims.some((c) => c.paper.toLowerCase() === p.report.paper.toLowerCase());
        if (any) expect(claimsFor(report, p.report).length, `${id} ${p.series}: no claim of the report found for ${JSON.stringify(p.report)}`).toBeGreaterThan(0);
      }
    }
  });
  it('belong to a figure, about series the figure runs, at x values its sizes run', () => {
    for (const [id, entries] of Object.entries(PUBLISHED)) {
      const f = figureById(id);
      expect(f, id).toBeDefined();
      for (const p of entries) {
        expect(f!.protocols).toContain(p.series);
        if (p.kind === 'relative') expect(f!.protocols).toContain(p.reference);
        if (p.kind === 'value') for (const q of [...p.points.map((d) => d.x), ...(p.at ?? [])]) expect(f!.paper.xs, `${id} paper size`).toContain(q);
        if (p.kind === 'relative' && p.ends) for (const x of p.ends.axis) expect(f!.paper.xs, `${id} ${p.series}: the paper size covers the axis`).toContain(x);
      }
    }
  });
  it('the figures the issue asks for are all there, with captions naming their source', () => {
    for (const id of ['pfabric-websearch', 'phost-workloads', 'pdq-deadlines', 'pase-afct']) {
      const f = figureById(id)!;
      expect(f.cites).toMatch(/(SIGCOMM|CoNEXT) 20\d\d/);
      expect(f.caption.length).toBeGreaterThan(200);
      expect(f.small.xs.length).toBeLessThanOrEqual(f.paper.xs.length);
      expect(f.caption, id).not.toMatch(/tolerance|slack/i);
    }
  });
});

describe('figure sweeps', () => {
  it('builds the grid protocol first, each point the figure scenario at x', () => {
    const f = figureById('pfabric-incast')!;
    const pts = figurePoints(f, f.small);
    expect(pts.map((p) => `${p.protocol}@${p.x}`)).toEqual(['pfabric@10', 'pfabric@50', 'dctcp@10', 'dctcp@50']);
    expect(pts.map((p) => [p.scenario.protocol, p.scenario.workload.matrix.senders, p.scenario.workload.matrix.request_packets])).toEqual([
      ['pfabric', 10, 66667],
      ['pfabric', 50, 66667],
      ['dctcp', 10, 66667],
      ['dctcp', 50, 66667],
    ]);
    const w = figureById('pfabric-websearch')!;
    expect(figurePoints(w, w.small).map((p) => [p.scenario.workload.load, p.scenario.workload.flows, p.load])[0]).toEqual([0.2, 300, 0.2]);
    const h = figureById('phost-workloads')!;
    expect(figurePoints(h, h.small).slice(0, 3).map((p) => p.scenario.name)).toEqual(['websearch-leaf-spine', 'datamining-leaf-spine', 'imc10-leaf-spine']);
    const d = figureById('pdq-deadlines')!;
    expect(figurePoints(d, d.small).length).toBe(15);
  });
  it('writes x as a first column where x is not the load, as dcsim sweep --vary does', () => {
    const r = (row: string) => ({ summaryCsv: `scenario,mean_request_us\n${row}\n` }) as unknown as SweepResult;
    const f = figureById('pfabric-incast')!;
    expect(figureCsv(f, [r('incast,1'), r('incast,2')], [10, 50])).toBe('workload.matrix.senders,scenario,mean_request_us\n10,incast,1\n50,incast,2\n');
    expect(figureCsv(figureById('pase-afct')!, [r('p,1')], [0.1])).toBe('scenario,mean_request_us\np,1\n');
  });
  it('every figure id is a valid address word; #claim= opens the gallery at a claim', () => {
    for (const f of FIGURES) expect(galleryFromHash(`#gallery=${f.id}`)).toEqual({ id: f.id, claim: null });
    expect(galleryFromHash('#gallery')).toEqual({ id: null, claim: null });
    expect(galleryFromHash('#lesson=x&gallery=pase-afct')).toEqual({ id: 'pase-afct', claim: null });
    expect(galleryFromHash('#lesson=gallery')).toBeNull();
    expect(galleryFromHash('')).toBeNull();
    expect(galleryFromHash('#claim=pfabric-incast-81ms')).toEqual({ id: null, claim: 'pfabric-incast-81ms' });
    expect(galleryFromHash('#gallery&claim=phost-fastpass-1.3-4x')).toEqual({ id: null, claim: 'phost-fastpass-1.3-4x' });
    expect(galleryFromHash('#claim=a%20b')).toEqual({ id: null, claim: 'a b' });
    expect(galleryFromHash('#run=abc&claimx=1')).toBeNull();
  });
});
