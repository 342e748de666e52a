// A port's buffer as its discipline sees it (pure, no DOM): strict
// priority lanes, FIFO positions against the ECN threshold, drop reasons in
// words. The engine sends the packets in its own service order (and which
// one a full pFabric buffer drops first), so nothing here re-derives a
// discipline's order.

import type { BufferedPacket } from '../engine/frame';
import type { DropWhyName } from '../engine/api';
import { bytesText, DROP_WHY_WORDS, sig } from '../format/format';

/** Packets per strict-priority sub-queue (lane 0 is served first), keeping arrival order within a lane. */
export function priorityLanes(packets: readonly BufferedPacket[], lanes: number): BufferedPacket[][] {
  const maxCls = packets.reduce((m, p) => Math.max(m, p.cls), -1);
  const out: BufferedPacket[][] = Array.from({ length: Math.max(lanes, maxCls + 1, 1) }, () => []);
  for (const p of packets) out[Math.max(0, p.cls)].push(p);
  return out;
}

/** Bytes ahead of each packet of a FIFO (the queue an arrival at that position found). */
export function bytesAhead(packets: readonly BufferedPacket[]): number[] {
  const out: number[] = [];
  let sum = 0;
  for (const p of packets) {
    out.push(sum);
    sum += p.size;
  }
  return out;
}

/** Each drop reason and the rule behind it, as the inspector explains them (keyed by the engine's reasons). */
const DROP_EXPLANATIONS: Record<DropWhyName, string> = {
  BufferFull: 'dropped: buffer full — a FIFO drops the arriving packet when it does not fit (drop-tail)',
  LeastUrgent:
    'dropped: least urgent — the buffer was full and this packet had the highest remaining-size rank (pFabric §4.1: drop the lowest-priority packet, possibly the arrival)',
  LinkDown: 'dropped: link down — the link failed (a fault): its buffered packets, its packets on the wire and its arrivals are lost',
  Injected: 'dropped: injected fault — a drop_next fault dropped this one packet to show loss recovery',
};

/** The reason of a drop (in words, `dropWhyText`), and the rule behind it, as the inspector explains them. */
export function dropExplanation(reason: string | undefined): string {
  const name = (Object.keys(DROP_WHY_WORDS) as DropWhyName[]).find((k) => DROP_WHY_WORDS[k] === reason);
  return DROP_EXPLANATIONS[name ?? 'BufferFull'];
}

/**
 * A host link's wasted capacity in words (PASE section 4.2: line-rate
 * flows that collide at a downstream ToR-host link waste the senders'
 * host-ToR links): "bytes sent here that were dropped further on: 1.2 MB
 * (3.4% of the bytes this link sent)". `wasted` and `sent` are the
 * engine's `port_waste` (wire bytes).
 */
export function wasteText(wasted: number, sent: number): string {
  const pct = sent > 0 ? ` (${sig((100 * wasted) / sent, 3)}% of the bytes this link sent)` : '';
  return `bytes sent here that were dropped further on: ${bytesText(wasted)}${pct}`;
}
