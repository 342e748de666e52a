// The page's protocol list and port defaults come from the engine
// (web/src/engine/names.generated.ts, `dcsim names`); these checks catch a
// protocol added to one side only.
import { describe, expect, it } from 'vitest';
import { ENGINE_PROTOCOLS, PORT_DEFAULTS } from '../engine/names.generated';
import { DEFAULT_BUFFER, DEFAULT_ECN_THRESHOLD, DISCIPLINE, FLOW_LEVEL, PROTOCOLS } from './settings';

describe('protocols and ports from the engine', () => {
  it('lists exactly the protocols the engine runs', () => {
    expect([...PROTOCOLS].sort()).toEqual([...ENGINE_PROTOCOLS].sort());
  });
  it('takes disciplines and buffers from the engine (pFabric Table 1)', () => {
    expect(DISCIPLINE.pfabric).toBe('pfabric');
    expect(DISCIPLINE.dctcp).toBe('ecn');
    expect(DEFAULT_BUFFER.pfabric).toBe(36_000);
    expect(DEFAULT_BUFFER.tcp).toBe(225_000);
    expect(DEFAULT_ECN_THRESHOLD).toBe(22_500);
  });
  it('calls flow-level exactly the protocols without ports', () => {
    for (const p of PROTOCOLS) expect(FLOW_LEVEL.has(p)).toBe(PORT_DEFAULTS[p].discipline === 'none');
  });
});
