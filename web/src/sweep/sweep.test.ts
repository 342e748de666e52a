// The browser sweep's grid, its load list and its CSV (pure parts; the
// e2e test compares a whole sweep's CSV with `dcsim sweep`).

import { describe, expect, it } from 'vitest';
import { parseLoads, sweepCsv, sweepPoints, MAX_SWEEP_LOADS, type SweepResult } from './sweep';
import type { Settings } from '../state/settings';

describe('load list', () => {
  it('reads loads in (0, 1]', () => {
    expect(parseLoads('0.2, 0.4,0.6 ,1')).toEqual({ loads: [0.2, 0.4, 0.6, 1] });
  });
  it('names what is wrong', () => {
    const err = (t: string) => {
      const r = parseLoads(t);
      return 'error' in r ? r.error : '';
    };
    expect(err('')).toMatch(/at least one load/);
    expect(err('0.2, x')).toMatch(/"x" is not a number/);
    expect(err('0.2, 0')).toMatch(/load 0 must be above 0/);
    expect(err('-0.5')).toMatch(/must be above 0/);
    expect(err('1.5')).toMatch(/at most 1/);
    expect(err('0.3, 0.3')).toMatch(/twice/);
    expect(err(Array.from({ length: MAX_SWEEP_LOADS + 1 }, (_, i) => (i + 1) / 20).join(','))).toMatch(/at most 12 loads/);
  });
});

describe('grid', () => {
  const settings: Settings = { scenario: { name: 's', seed: 3, workload: { load: 0.6, flows: 50 } }, protocols: ['pfabric', 'dctcp'] };
  it('is protocol first, then load, as dcsim sweep', () => {
    const pts = sweepPoints(settings, [0.2, 0.8]);
    expect(pts.map((p) => `${p.protocol}@${p.load}`)).toEqual(['pfabric@0.2', 'pfabric@0.8', 'dctcp@0.2', 'dctcp@0.8']);
    expect(pts.map((p) => [p.scenario.protocol, p.scenario.workload.load, p.scenario.workload.flows, p.scenario.seed])).toEqual([
      ['pfabric', 0.2, 50, 3],
      ['pfabric', 0.8, 50, 3],
      ['dctcp', 0.2, 50, 3],
      ['dctcp', 0.8, 50, 3],
    ]);
    // The settings themselves are untouched.
    expect(settings.scenario.workload.load).toBe(0.6);
  });
  it('merges the rows under one header, in grid order', () => {
    const r = (row: string) => ({ summaryCsv: `a,b\n${row}\n` }) as unknown as SweepResult;
    expect(sweepCsv([r('1,2'), r('3,4')])).toBe('a,b\n1,2\n3,4\n');
  });
});
