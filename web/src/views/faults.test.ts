import { describe, expect, it } from 'vitest';
import { FaultKinds, type Topology } from '../engine/api';
import { downPortsAt, isFaultKind } from './faults';

// h0 - tor0 - spine0: ports 0 (h0→tor0), 1 (tor0→h0), 2 (tor0→spine0), 3 (spine0→tor0).
const topo: Topology = {
  nodes: [
    { kind: 'host', ports: [0], group: 0, name: 'h0' },
    { kind: 'tor', ports: [1, 2], group: 0, name: 'tor0' },
    { kind: 'core', ports: [3], group: 0, name: 'spine0' },
  ],
  ports: [
    { node: 0, peer: 1, link: 0, rate: 10e9, delay: 1, role: 'host_nic' },
    { node: 1, peer: 0, link: 0, rate: 10e9, delay: 1, role: 'edge' },
    { node: 1, peer: 2, link: 1, rate: 10e9, delay: 1, role: 'up' },
    { node: 2, peer: 1, link: 1, rate: 10e9, delay: 1, role: 'down' },
  ],
  n_hosts: 1,
  host_rate: 10e9,
};

describe('faults on the drawing', () => {
  it('knows the engine’s fault kinds and not the settings', () => {
    for (const k of FaultKinds) expect(isFaultKind(k)).toBe(true);
    expect(isFaultKind('buffer_bytes')).toBe(false);
    expect(isFaultKind(undefined)).toBe(false);
  });

  it('takes a link down and back, a switch down, and leaves drop_next alone', () => {
    const sc = {
      faults: [
        { at_us: 1, kind: 'link_down', link: ['h0', 'tor0'] },
        { at_us: 2, kind: 'link_up', link: ['tor0', 'h0'] },
        { at_us: 3, kind: 'drop_next', flow: 0, port: ['tor0', 'spine0'] },
      ],
      branch: { at_us: 4, change: { kind: 'switch_down', node: 'spine0' } },
    };
    expect([...downPortsAt(sc, topo, 1.5e6)].sort()).toEqual([0, 1]);
    expect(downPortsAt(sc, topo, 3.5e6).size).toBe(0);
    expect([...downPortsAt(sc, topo, 5e6)].sort()).toEqual([2, 3]);
    expect(downPortsAt({ ...sc, branch: { at_us: 4, change: { kind: 'buffer_bytes', bytes: 9000 } } }, topo, 5e6).size).toBe(0);
  });
});
