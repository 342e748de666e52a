import { describe, expect, it } from 'vitest';
import { FLOW_PALETTE, flowColor, flowColorIndex, priorityColorIndex, runColor } from './palette';

describe('flow colours', () => {
  it('hashes every flow id into the palette, evenly, and neighbours differ', () => {
    const counts = new Array(FLOW_PALETTE.length).fill(0);
    let same = 0;
    let bad = 0;
    for (let f = 0; f < 120_000; f++) {
      const c = flowColorIndex(f);
      if (!(Number.isInteger(c) && c >= 0 && c < FLOW_PALETTE.length)) bad++;
      counts[c]++;
      if (f > 0 && c === flowColorIndex(f - 1)) same++;
    }
    expect(bad).toBe(0);
    for (const n of counts) expect(n).toBeGreaterThan(120_000 / FLOW_PALETTE.length / 2);
    expect(same).toBeLessThan(120_000 / 6);
    expect(flowColor(17)).toBe(flowColor(17));
  });

  it('gives a protocol the same colour in every chart', () => {
    expect(runColor('pfabric', 0)).toBe(runColor('pfabric', 3));
    expect(runColor('dctcp', 0)).not.toBe(runColor('pfabric', 0));
  });
});

describe('priority colours', () => {
  it('buckets pFabric ranks by remaining bytes and uses the sub-queue elsewhere', () => {
    expect([0, 9_999, 10_000, 99_999, 100_000, 5e6, 2e7].map((r) => priorityColorIndex('pfabric', r))).toEqual([0, 0, 1, 1, 2, 3, 4]);
    expect([0, 1, 2, 7, 40].map((c) => priorityColorIndex('phost', c))).toEqual([0, 1, 2, 7, 7]);
    expect(priorityColorIndex('dctcp', 0)).toBe(0);
  });
});
