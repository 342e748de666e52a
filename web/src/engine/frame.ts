// Pure decoders for the flat records the engine streams (see api.ts for
// the layouts). Kept free of DOM and worker code so Vitest can test them.

import { FLOW_WIDTH, PACKET_WIDTH, TRACE_WIDTH, TraceCode, PacketKindCode } from './api';

/** One trace record. */
export interface TraceRecord {
  tPs: number;
  code: TraceCode;
  /** Port id, or -1 for flow-level events. */
  port: number;
  flow: number;
  seq: number;
  packetKind: PacketKindCode;
  aux: number;
  /** Dequeue: what the port ranks the packet by (pFabric: remaining flow bytes; other ports: sub-queue). */
  prio: number;
  /** Dequeue: when the packet's last bit reaches the peer, as the engine computed it (0 on other records). */
  endPs: number;
}

/** One completed flow. */
export interface CompletedFlow {
  flow: number;
  sizeBytes: number;
  startPs: number;
  fctPs: number;
  slowdown: number;
  src: number;
  dst: number;
}

/** One packet in a port's buffer. */
export interface BufferedPacket {
  flow: number;
  seq: number;
  packetKind: PacketKindCode;
  /** pFabric priority: remaining flow bytes (lower is more urgent). */
  rank: number;
  size: number;
  /** strict_priority sub-queue (0 is served first). */
  cls: number;
}

function checkWidth(a: Float64Array, w: number, what: string): number {
  if (a.length % w !== 0) throw new Error(`${what}: ${a.length} numbers is not a multiple of the record width ${w}`);
  return a.length / w;
}

/** How many trace records the flat array `a` holds (throws when it is not whole records). */
export function traceLength(a: Float64Array): number {
  return checkWidth(a, TRACE_WIDTH, 'trace');
}

/**
 * Decodes trace record `i` of the flat array `a`. The page decodes only
 * the records it keeps (state/run.ts applyFrame): a frame after a seek
 * holds up to 20,000 (the lead-in).
 */
export function traceRecord(a: Float64Array, i: number): TraceRecord {
  const o = i * TRACE_WIDTH;
  return { tPs: a[o], code: a[o + 1] as TraceCode, port: a[o + 2], flow: a[o + 3], seq: a[o + 4], packetKind: a[o + 5] as PacketKindCode, aux: a[o + 6], prio: a[o + 7], endPs: a[o + 8] };
}

/** Decodes completed-flow records. */
export function decodeCompletions(a: Float64Array): CompletedFlow[] {
  const n = checkWidth(a, FLOW_WIDTH, 'completions');
  const out: CompletedFlow[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * FLOW_WIDTH;
    out[i] = { flow: a[o], sizeBytes: a[o + 1], startPs: a[o + 2], fctPs: a[o + 3], slowdown: a[o + 4], src: a[o + 5], dst: a[o + 6] };
  }
  return out;
}

/** Decodes a port's buffered packets. */
export function decodePackets(a: Float64Array): BufferedPacket[] {
  const n = checkWidth(a, PACKET_WIDTH, 'packets');
  const out: BufferedPacket[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * PACKET_WIDTH;
    out[i] = { flow: a[o], seq: a[o + 1], packetKind: a[o + 2] as PacketKindCode, rank: a[o + 3], size: a[o + 4], cls: a[o + 5] };
  }
  return out;
}

/** A packet on a wire, for drawing: from `node` to `peer`, `frac` of the way. */
export interface WirePacket {
  port: number;
  flow: number;
  packetKind: PacketKindCode;
  /** 0 when the first bit leaves, 1 when the last bit arrives. */
  frac: number;
}

/** A packet that started transmission, with the time it fully arrives. */
export interface Departure {
  port: number;
  flow: number;
  packetKind: PacketKindCode;
  /** Priority as the sending port ranked it (see TraceRecord.prio). */
  prio: number;
  startPs: number;
  endPs: number;
}

/**
 * Turns the Dequeue records of the flat trace `a` into departures, keeping
 * those still on a wire after `afterPs`: a packet leaving port p at t is on
 * the wire until its last bit reaches the peer, the time the engine reports
 * on the record (serialization, then the link's delay: docs/model.md#links-and-ports).
 */
export function departures(a: Float64Array, afterPs = -Infinity): Departure[] {
  const n = traceLength(a);
  const out: Departure[] = [];
  for (let i = 0, o = 0; i < n; i++, o += TRACE_WIDTH) {
    if (a[o + 1] !== TraceCode.Dequeue || a[o + 2] < 0 || !(a[o + 8] > afterPs)) continue;
    out.push({ port: a[o + 2], flow: a[o + 3], packetKind: a[o + 5] as PacketKindCode, prio: a[o + 7], startPs: a[o], endPs: a[o + 8] });
  }
  return out;
}

/** Packets on the wire at `nowPs`. */
export function onWire(deps: Departure[], nowPs: number): WirePacket[] {
  const out: WirePacket[] = [];
  for (const d of deps) {
    if (d.startPs <= nowPs && nowPs < d.endPs) {
      out.push({ port: d.port, flow: d.flow, packetKind: d.packetKind, frac: (nowPs - d.startPs) / (d.endPs - d.startPs) });
    }
  }
  return out;
}
