import { describe, expect, it } from 'vitest';
import type { BufferedPacket } from '../engine/frame';
import { DropWhy } from '../engine/api';
import { dropWhyText } from '../format/format';
import { bytesAhead, dropExplanation, priorityLanes, wasteText } from './buffer';

const p = (flow: number, seq: number, rank: number, cls = 0, size = 1500): BufferedPacket => ({ flow, seq, rank, packetKind: 0, size, cls });

describe('drop reasons in words', () => {
  it('explains the drop rule', () => {
    expect(dropExplanation('least urgent')).toMatch(/least urgent — the buffer was full and this packet had the highest remaining-size rank/);
    expect(dropExplanation('buffer full')).toMatch(/buffer full/);
    // Every reason the engine writes has its own explanation, through its words.
    for (const code of Object.values(DropWhy)) expect(dropExplanation(dropWhyText(code))).toContain(`dropped: ${dropWhyText(code)}`);
    expect(dropExplanation(dropWhyText(DropWhy.LinkDown))).toMatch(/link failed/);
  });
});

describe('other disciplines', () => {
  it('splits strict-priority packets into lanes, keeping arrival order', () => {
    const lanes = priorityLanes([p(1, 0, 0, 1), p(2, 0, 0, 0), p(3, 0, 0, 1)], 2);
    expect(lanes.map((l) => l.map((x) => x.flow))).toEqual([[2], [1, 3]]);
    expect(priorityLanes([p(1, 0, 0, 3)], 1)).toHaveLength(4);
  });

  it('counts the bytes ahead of each FIFO packet', () => {
    expect(bytesAhead([p(1, 0, 0, 0, 1500), p(1, 1, 0, 0, 40), p(2, 0, 0, 0, 1500)])).toEqual([0, 1500, 1540]);
  });
});

describe('wasted host-link capacity (PASE section 4.2)', () => {
  it('says the bytes dropped further on and their share of what the link sent', () => {
    expect(wasteText(1_234_000, 36_000_000)).toBe('bytes sent here that were dropped further on: 1.23 MB (3.43% of the bytes this link sent)');
    expect(wasteText(0, 1500)).toBe('bytes sent here that were dropped further on: 0 B (0% of the bytes this link sent)');
  });
  it('gives no share before the link has sent anything', () => {
    expect(wasteText(0, 0)).toBe('bytes sent here that were dropped further on: 0 B');
  });
});
