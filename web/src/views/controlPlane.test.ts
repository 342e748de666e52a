import { describe, expect, it } from 'vitest';
import { CONTROL_NAMES, PacketKindCode, TraceCode, type Topology } from '../engine/api';
import type { TraceRecord } from '../engine/frame';
import { foldDecisions, type FlowControl } from '../state/run';
import { controlRows } from './controlPlane';
import { describeRecord } from './eventText';

const idx = (name: string) => CONTROL_NAMES.indexOf(name as (typeof CONTROL_NAMES)[number]);
// A decision record as the worker decodes it: seq = queue, prio = rate, port = link.
const decision = (tPs: number, flow: number, queue: number, rate: number, port = -1): TraceRecord => ({
  tPs,
  code: TraceCode.Decision,
  port,
  flow,
  seq: queue,
  packetKind: PacketKindCode.Control,
  aux: idx('pase_decision'),
  prio: rate,
  endPs: 0,
});
const finish = (tPs: number, flow: number): TraceRecord => ({ tPs, code: TraceCode.FlowFinish, port: -1, flow, seq: 0, packetKind: PacketKindCode.Data, aux: 0, prio: 0, endPs: 0 });

describe('control-plane state', () => {
  it('keeps each flow’s decisions and shows the latest one not after the time on screen', () => {
    let m: ReadonlyMap<number, FlowControl> = new Map();
    m = foldDecisions(m, [decision(10, 1, 0, 5e9), decision(20, 2, 3, 1e9), decision(30, 1, 2, 2e9)], 30);
    // At t = 25 flow 1 is still in queue 0 (its move to queue 2 comes at 30).
    expect(controlRows(m, 25).map((r) => [r.flow, r.decision.queue, r.count])).toEqual([
      [1, 0, 1],
      [2, 3, 1],
    ]);
    // At t = 30 flow 2 (queue 3) is behind flow 1 (queue 2).
    expect(controlRows(m, 30).map((r) => [r.flow, r.decision.queue, r.decision.rateBps, r.count])).toEqual([
      [1, 2, 2e9, 2],
      [2, 3, 1e9, 1],
    ]);
    // Nothing decided yet before the first decision.
    expect(controlRows(m, 5)).toEqual([]);
  });

  it('orders paused flows after sending ones in the same queue, finished ones last, and forgets them later', () => {
    let m: ReadonlyMap<number, FlowControl> = new Map();
    m = foldDecisions(m, [decision(1, 7, -1, 0, 4), decision(2, 8, -1, 3e9, 4), decision(3, 9, -1, 1e9, 4), finish(4, 8)], 4);
    const rows = controlRows(m, 5);
    expect(rows.map((r) => [r.flow, r.finished])).toEqual([
      [9, false],
      [7, false],
      [8, true],
    ]);
    expect(rows[1].decision.queue).toBeNull();
    // Unchanged input gives the same map (no re-render).
    expect(foldDecisions(m, [], 6)).toBe(m);
    // 50 us after it finished, flow 8 is gone.
    const later = foldDecisions(m, [], 4 + 50_000_001);
    expect([...later.keys()].sort()).toEqual([7, 9]);
  });

  it('words a decision with its queue, rate or pause, and its link', () => {
    expect(describeRecord(decision(1_000_000, 3, 1, 2.5e9), null).text).toBe('flow 3: PASE decision reached the source: queue 1, 2.5Gb/s');
    const topo: Topology = {
      nodes: [
        { kind: 'host', ports: [0], group: 0, name: 'h0' },
        { kind: 'tor', ports: [1], group: 0, name: 'tor0' },
      ],
      ports: [
        { node: 0, peer: 1, link: 0, rate: 10e9, delay: 0, role: 'host_nic' },
        { node: 1, peer: 0, link: 0, rate: 10e9, delay: 0, role: 'edge' },
      ],
      n_hosts: 1,
      host_rate: 10e9,
    };
    expect(describeRecord(decision(1_000_000, 3, -1, 0, 1), topo).text).toBe('port tor0→h0: flow 3: PASE decision reached the source: paused (rate 0)');
  });
});
