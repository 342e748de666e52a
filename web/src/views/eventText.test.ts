import { describe, expect, it } from 'vitest';
import { CONTROL_NAMES, DropWhy, PacketKindCode, TraceCode, type Topology } from '../engine/api';
import type { TraceRecord } from '../engine/frame';
import { PROTOCOL_DESCRIPTORS } from '../engine/names.generated';
import { controlText, describeRecord, recentLines } from './eventText';

const topo: Topology = {
  nodes: [
    { kind: 'host', ports: [0], group: 0, name: 'h0' },
    { kind: 'host', ports: [1], group: 0, name: 'h1' },
    { kind: 'tor', ports: [2, 3], group: 0, name: 'tor0' },
  ],
  ports: [
    { node: 0, peer: 2, link: 0, rate: 10e9, delay: 200_000, role: 'host_nic' },
    { node: 1, peer: 2, link: 1, rate: 10e9, delay: 200_000, role: 'host_nic' },
    { node: 2, peer: 0, link: 0, rate: 10e9, delay: 200_000, role: 'edge' },
    { node: 2, peer: 1, link: 1, rate: 10e9, delay: 200_000, role: 'edge' },
  ],
  n_hosts: 2,
  host_rate: 10e9,
};
const rec = (tPs: number, code: TraceCode, port = -1, flow = 17, seq = 4, aux = 0, packetKind: PacketKindCode = PacketKindCode.Data): TraceRecord => ({ tPs, code, port, flow, seq, packetKind, aux, prio: 0, endPs: 0 });

describe('event sentences', () => {
  it('names the port, the packet and the reason of a drop', () => {
    const l = describeRecord(rec(12_345_000, TraceCode.Drop, 3, 17, 4, DropWhy.LeastUrgent), topo);
    expect(`${l.time}  ${l.text}`).toBe('t=12.345 µs  port tor0→h1: flow 17 seq 4 dropped (least urgent)');
    expect(l.tone).toBe('drop');
    expect(describeRecord(rec(0, TraceCode.Drop, 2, 1, 1, DropWhy.BufferFull, PacketKindCode.Ack), topo).text).toBe('port tor0→h0: flow 1 ACK seq 1 dropped (buffer full)');
  });

  it('words flow events, timeouts, control messages and RCP rates', () => {
    expect(describeRecord(rec(1, TraceCode.FlowFinish), topo).text).toBe('flow 17 finished');
    expect(describeRecord(rec(1, TraceCode.Timeout, -1, 9, 0, 1), topo).text).toBe('flow 9 timed out (probe mode)');
    expect(describeRecord(rec(1, TraceCode.Control, -1, 9, 0, CONTROL_NAMES.indexOf('rts')), topo).text).toBe('flow 9: RTS sent (asks its receiver for tokens)');
    expect(describeRecord(rec(1, TraceCode.LinkRate, 0, -1, 0, 2.5e9), topo).text).toBe("port h0→tor0: link rate set to 2.5Gb/s (RCP's fair share, D3's capacity, PDQ's C')");
    expect(describeRecord(rec(1, TraceCode.EcnMark, 2), topo).tone).toBe('mark');
  });

  it('lists newest first, optionally without routine queue records', () => {
    const log = [rec(1, TraceCode.FlowStart), rec(2, TraceCode.Enqueue, 0), rec(3, TraceCode.FlowFinish)];
    expect(recentLines(log, topo, 10).map((l) => l.tone)).toEqual(['finish', 'queue', 'start']);
    expect(recentLines(log, topo, 10, true).map((l) => l.tone)).toEqual(['finish', 'start']);
    expect(recentLines(log, topo, 1)).toHaveLength(1);
  });

  it('names every drop reason the engine exports, each differently', () => {
    const words = Object.values(DropWhy).map((code) => describeRecord(rec(0, TraceCode.Drop, 2, 1, 1, code), topo).text);
    expect(new Set(words).size).toBe(Object.keys(DropWhy).length);
    expect(words.join(' ')).toContain('(injected fault)');
  });

  it('words every control event as the protocol that traces it declares, none left bare', () => {
    let listed = 0;
    for (const d of Object.values(PROTOCOL_DESCRIPTORS)) {
      for (const e of d.controls as readonly { name: string; text: string }[]) {
        expect(controlText(e.name)).toBe(e.text);
        listed++;
      }
    }
    expect(listed).toBeGreaterThan(0);
    for (const name of CONTROL_NAMES) {
      const words = controlText(name);
      expect(words, name).not.toBe(name.replace(/_/g, ' '));
      expect(words.length, name).toBeGreaterThan(0);
    }
  });
});
