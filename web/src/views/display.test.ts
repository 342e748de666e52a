import { afterEach, describe, expect, it } from 'vitest';
import { displayFromHash, displayHashPart, loadDisplay, saveDisplay, DISPLAY_KEY } from './display';
import { applyPalette, COLORS, FLOW_PALETTE, flowColor, KIND_COLORS, OKABE_ITO, PRIORITY_PALETTE, runColor } from './palette';
import { PacketKindCode } from '../engine/api';

/** A Storage stand-in. */
function store(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('display preferences', () => {
  it('reads the palette from the address, then the browser, then the default', () => {
    expect(displayFromHash('#run=abc&palette=okabe-ito')).toEqual({ palette: 'okabe-ito' });
    expect(displayFromHash('#palette=rainbow')).toEqual({});
    expect(loadDisplay('', null)).toEqual({ palette: 'default' });
    const s = store();
    saveDisplay({ palette: 'okabe-ito' }, s);
    expect(JSON.parse(s.m.get(DISPLAY_KEY)!)).toEqual({ palette: 'okabe-ito' });
    expect(loadDisplay('#lesson=x', s)).toEqual({ palette: 'okabe-ito' });
    expect(loadDisplay('#lesson=x&palette=default', s)).toEqual({ palette: 'default' });
    expect(loadDisplay('', store({ [DISPLAY_KEY]: '{not json' }))).toEqual({ palette: 'default' });
  });
  it('puts a non-default palette in the share link, and round-trips it', () => {
    expect(displayHashPart({ palette: 'default' })).toBe('');
    const part = displayHashPart({ palette: 'okabe-ito' });
    expect(displayFromHash('#run=abc' + part)).toEqual({ palette: 'okabe-ito' });
  });
});

describe('the colour-blind-safe palette', () => {
  afterEach(() => applyPalette('default'));
  it('switches every table to Okabe-Ito colours and back', () => {
    const before = { flows: [...FLOW_PALETTE], prio: [...PRIORITY_PALETTE], data: KIND_COLORS[PacketKindCode.Data], drop: COLORS.drop, run: runColor('pfabric', 0) };
    applyPalette('okabe-ito');
    const oi = new Set<string>(Object.values(OKABE_ITO));
    for (const c of [...FLOW_PALETTE, ...PRIORITY_PALETTE, ...Object.values(KIND_COLORS), COLORS.drop, COLORS.mark, COLORS.queue, COLORS.queueOverK]) expect(oi.has(c), c).toBe(true);
    expect(oi.has(flowColor(12345))).toBe(true);
    // Runs side by side (at most 4 and a branch) get distinct colours.
    expect(new Set([0, 1, 2, 3, 4].map((i) => runColor('tcp', i))).size).toBe(5);
    applyPalette('default');
    expect({ flows: [...FLOW_PALETTE], prio: [...PRIORITY_PALETTE], data: KIND_COLORS[PacketKindCode.Data], drop: COLORS.drop, run: runColor('pfabric', 0) }).toEqual(before);
  });
});
