// The gallery's verdicts (agrees or differs, with the tolerance, and
// missing points), the sources of the published values, and the figures'
// grids and CSVs (pure parts; tests/e2e runs a figure in the browser).

import { describe, expect, it } from 'vitest';
import { PUBLISHED, type Published } from './published';
import { outside, unsourced, verdict, type SimSeries } from './verdict';
import { FIGURES, figureById, figureCsv, figurePoints, galleryFromHash } from './figures';
import type { SweepResult } from '../sweep/sweep';

const src = { paper: 'A paper (Someone et al., SIGCOMM 2013)', where: 'section 5, Figure 6', quotedIn: 'a test' };
const sim = (o: Record<string, [number, number][]>) => new Map<string, SimSeries>(Object.entries(o).map(([k, v]) => [k, new Map(v)]));
const xText = (x: number) => `x = ${x}`;
const points: Published = { kind: 'points', series: 'pfabric', points: [{ x: 50, y: 100 }], tolerance: 0.03, source: src };

describe('verdict against published points', () => {
  it('agrees within the tolerance, saying how far off', () => {
    const v = verdict('pfabric', [points], sim({ pfabric: [[50, 102]] }), xText);
    expect(v.status).toBe('agrees');
    expect(v.text).toBe("agrees (within 3%): 102 against the paper's 100 at x = 50, 2% off");
    const ms = verdict('pfabric', [points], sim({ pfabric: [[50, 102]] }), xText, (y) => `${y / 1000} ms`);
    expect(ms.text).toBe("agrees (within 3%): 0.102 ms against the paper's 0.1 ms at x = 50, 2% off");
  });
  it('differs beyond the tolerance, by how much and with the tolerance stated', () => {
    const v = verdict('pfabric', [points], sim({ pfabric: [[50, 90]] }), xText);
    expect(v.status).toBe('differs');
    expect(v.worst).toBeCloseTo(0.1);
    expect(v.text).toMatch(/^differs by 10% \(tolerance 3%\): 90 against the paper's 100 at x = 50$/);
  });
  it('exactly at the tolerance still agrees; just past it differs', () => {
    expect(verdict('pfabric', [points], sim({ pfabric: [[50, 103]] }), xText).status).toBe('agrees');
    expect(verdict('pfabric', [points], sim({ pfabric: [[50, 103.01]] }), xText).status).toBe('differs');
  });
  it('names published points the sweep did not run', () => {
    const two: Published = { ...points, points: [{ x: 10, y: 100 }, { x: 50, y: 100 }] } as Published;
    const v = verdict('pfabric', [two], sim({ pfabric: [[50, 101]] }), xText);
    expect(v.status).toBe('agrees');
    expect(v.text).toMatch(/\(no simulated point at x = 10\)$/);
    const none = verdict('pfabric', [two], sim({ pfabric: [[20, 100]] }), xText);
    expect(none.status).toBe('pending');
    expect(none.text).toBe('not compared yet (no simulated point at x = 10, x = 50)');
  });
  it('a series with nothing published says so', () => {
    const v = verdict('dctcp', [points], sim({ dctcp: [[50, 1]] }), xText);
    expect(v).toEqual({ series: 'dctcp', status: 'none', worst: null, text: 'no published values entered' });
  });
});

describe('verdict against a relative claim', () => {
  const claim: Published = { kind: 'ratio', series: 'pase', reference: 'dctcp', lo: 0.3, hi: 0.6, claim: 'PASE 40% to 70% below DCTCP', tolerance: 0.05, source: src };
  it('agrees when every ratio is in the range', () => {
    const v = verdict('pase', [claim], sim({ pase: [[0.1, 5], [0.5, 4]], dctcp: [[0.1, 10], [0.5, 10]] }), xText);
    expect(v.status).toBe('agrees');
    expect(v.text).toBe("agrees (within 5%): pase / dctcp 0.4 to 0.5 over 2 points, paper: 0.3 to 0.6 (PASE 40% to 70% below DCTCP)");
  });
  it('differs by the distance past the nearest bound, at the worst x', () => {
    const v = verdict('pase', [claim], sim({ pase: [[0.1, 5], [0.5, 7.8]], dctcp: [[0.1, 10], [0.5, 10]] }), xText);
    expect(v.status).toBe('differs');
    expect(v.worst).toBeCloseTo(0.3);
    expect(v.text).toMatch(/^differs by 30% \(tolerance 5%\): pase \/ dctcp 0\.78 at x = 0\.5/);
  });
  it('within the slack past a bound still agrees', () => {
    expect(verdict('pase', [claim], sim({ pase: [[0.5, 6.2]], dctcp: [[0.5, 10]] }), xText).status).toBe('agrees');
  });
  it('compares only where both series ran, and only from xMin', () => {
    const ordering: Published = { kind: 'ratio', series: 'd3', reference: 'pdq', lo: 0, hi: 1, xMin: 5, claim: 'D3 below PDQ', tolerance: 0, source: src };
    const v = verdict('d3', [ordering], sim({ d3: [[2, 1], [6, 0.8], [10, 0.7]], pdq: [[2, 0.9], [6, 0.9]] }), xText);
    expect(v.status).toBe('agrees');
    expect(v.text).toMatch(/^agrees: d3 \/ pdq 0\.8889 at x = 6, paper: at most 1 \(D3 below PDQ\)$/);
    expect(verdict('d3', [ordering], sim({ d3: [[6, 1]], pdq: [] }), xText).status).toBe('pending');
  });
  it('measures how far outside a range a ratio lies', () => {
    expect(outside(0.5, 0.3, 0.6)).toBe(0);
    expect(outside(0.15, 0.3, 0.6)).toBeCloseTo(0.5);
    expect(outside(0.9, 0.3, 0.6)).toBeCloseTo(0.5);
    expect(outside(7, 1, Infinity)).toBe(0);
  });
});

describe('published values', () => {
  it('every one has a source: paper with year, figure or section, and where the repository quotes it', () => {
    expect(unsourced(PUBLISHED)).toEqual([]);
    const bad = { x: [{ ...points, source: { paper: 'pFabric', where: 'somewhere', quotedIn: '' } }] } as Record<string, Published[]>;
    expect(unsourced(bad)).toEqual(['x[0] (pfabric)']);
  });
  it('belong to a figure, about series the figure runs, at x values its sizes run', () => {
    for (const [id, entries] of Object.entries(PUBLISHED)) {
      const f = figureById(id);
      expect(f, id).toBeDefined();
      for (const p of entries) {
        expect(f!.protocols).toContain(p.series);
        if (p.kind === 'ratio') expect(f!.protocols).toContain(p.reference);
        else for (const q of p.points) expect(f!.paper.xs, `${id} paper size`).toContain(q.x);
      }
    }
  });
  it('the figures the issue asks for are all there, with captions naming their source', () => {
    for (const id of ['pfabric-websearch', 'phost-workloads', 'pdq-deadlines', 'pase-afct']) {
      const f = figureById(id)!;
      expect(f.cites).toMatch(/(SIGCOMM|CoNEXT) 20\d\d/);
      expect(f.caption.length).toBeGreaterThan(200);
      expect(f.small.xs.length).toBeLessThanOrEqual(f.paper.xs.length);
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
  });
  it('writes x as a first column where x is not the load, as dcsim sweep --vary does', () => {
    const r = (row: string) => ({ summaryCsv: `scenario,mean_request_us\n${row}\n` }) as unknown as SweepResult;
    const f = figureById('pfabric-incast')!;
    expect(figureCsv(f, [r('incast,1'), r('incast,2')], [10, 50])).toBe('workload.matrix.senders,scenario,mean_request_us\n10,incast,1\n50,incast,2\n');
    expect(figureCsv(figureById('pase-afct')!, [r('p,1')], [0.1])).toBe('scenario,mean_request_us\np,1\n');
  });
  it('every figure id is a valid address word', () => {
    for (const f of FIGURES) expect(galleryFromHash(`#gallery=${f.id}`)).toEqual({ id: f.id });
    expect(galleryFromHash('#gallery')).toEqual({ id: null });
    expect(galleryFromHash('#lesson=x&gallery=pase-afct')).toEqual({ id: 'pase-afct' });
    expect(galleryFromHash('#lesson=gallery')).toBeNull();
    expect(galleryFromHash('')).toBeNull();
  });
});
