import { describe, expect, it } from 'vitest';
import { PacketKindCode } from '../engine/api';
import { emptyRun, EVENT_LINGER_PS, type RunState } from '../state/run';
import type { Departure } from '../engine/frame';
import { layoutTopology } from './layout';
import { drawTopology, placePackets, PacketScratch } from './topologyDraw';
import { engineTopology } from './testTopologies';

const topo = engineTopology({ kind: 'leaf_spine' });

/** A canvas context that only counts calls (the draw is exercised without a browser). */
function countingContext() {
  const calls: Record<string, number> = {};
  const ctx = new Proxy(
    {},
    {
      get: (_t, name: string) => {
        return (..._args: unknown[]) => {
          calls[name] = (calls[name] ?? 0) + 1;
        };
      },
      set: () => true,
    },
  ) as unknown as CanvasRenderingContext2D;
  return { ctx, calls };
}

function busyRun(nPackets: number): RunState {
  const inFlight: Departure[] = [];
  for (let i = 0; i < nPackets; i++) {
    const port = i % topo.ports.length;
    inFlight.push({ port, flow: i % 997, packetKind: i % 5 === 0 ? PacketKindCode.Ack : PacketKindCode.Data, prio: (i % 4) * 30_000, startPs: 1000 - (i % 7) * 100, endPs: 2000 + (i % 3) * 100 });
  }
  // Some not yet on the wire, some gone.
  inFlight.push({ port: 0, flow: 1, packetKind: 0, prio: 0, startPs: 5000, endPs: 6000 });
  inFlight.push({ port: 0, flow: 1, packetKind: 0, prio: 0, startPs: 0, endPs: 1000 });
  const queueBytes = Float64Array.from(topo.ports, (_, p) => (p * 1500) % 36_000);
  return {
    ...emptyRun('pfabric'),
    topology: topo,
    queueBytes,
    inFlight,
    portEvents: [
      { tPs: 900, port: 3, flow: 2, kind: 'drop', reason: 'least urgent' },
      { tPs: 1000, port: 4, flow: 2, kind: 'mark' },
      { tPs: 1000 - EVENT_LINGER_PS - 1, port: 5, flow: 2, kind: 'drop', reason: 'buffer full' },
    ],
    linkRates: new Map([[400, 9e9]]),
  };
}

describe('placing packets in flight', () => {
  it('draws only the packets on the wire at the display time', () => {
    const run = busyRun(100);
    const L = layoutTopology(topo, 900, 380);
    const s = new PacketScratch();
    expect(placePackets(run, L, topo, 1000, 'flow', s)).toBe(100);
    expect(placePackets(run, L, topo, 5500, 'flow', s)).toBe(1);
    expect(s.flow[0]).toBe(1);
    expect(placePackets(run, L, topo, 999, 'kind', s)).toBe(100 - Math.ceil(100 / 7) + 1);
    for (let i = 0; i < s.count; i++) expect(s.color[i]).toBe(s.kind[i]);
    // By priority on pFabric ports: ranks 0, 30 KB, 60 KB, 90 KB fall in the
    // buckets below 10 KB (0) and below 100 KB (1).
    placePackets(run, L, topo, 1000, 'priority', s);
    const seen = new Set<number>();
    for (let i = 0; i < s.count; i++) seen.add(s.color[i]);
    expect([...seen].sort()).toEqual([0, 1]);
  });
});

describe('reduced motion', () => {
  it('packets jump: one place for a whole flight, where a gliding packet moves', () => {
    const run = { ...busyRun(0), inFlight: [{ port: 0, flow: 1, packetKind: PacketKindCode.Data, prio: 0, startPs: 1000, endPs: 2000 }] };
    const L = layoutTopology(topo, 900, 380);
    const at = (t: number, jump: boolean) => {
      const s = new PacketScratch();
      expect(placePackets(run, L, topo, t, 'flow', s, jump)).toBe(1);
      return [s.xy[0], s.xy[1]];
    };
    expect(at(1100, false)).not.toEqual(at(1900, false));
    expect(at(1100, true)).toEqual(at(1900, true));
  });
});

describe('drawing a frame', () => {
  it('batches by colour: the number of fills does not grow with the packets', () => {
    const L = layoutTopology(topo, 900, 380);
    const opts = { nowPs: 1000, colorBy: 'flow' as const, selectedPort: 7, bufferBytes: 36_000, ecnThresholdBytes: 20_000, k: 1, tx: 0, ty: 0, dpr: 2, width: 900, height: 380 };
    // By kind (two kinds here) the fills are the same for 50 and 5000 packets.
    const byKind = { ...opts, colorBy: 'kind' as const };
    const small = countingContext();
    drawTopology(small.ctx, L, topo, busyRun(50), byKind, new PacketScratch());
    const large = countingContext();
    drawTopology(large.ctx, L, topo, busyRun(5000), byKind, new PacketScratch());
    expect(large.calls.fill).toBe(small.calls.fill);
    // By flow: one fill per palette colour at most.
    const big = countingContext();
    const s = new PacketScratch();
    const t0 = performance.now();
    drawTopology(big.ctx, L, topo, busyRun(5000), opts, s);
    const ms = performance.now() - t0;
    expect(s.count).toBe(5000);
    expect(big.calls.fill).toBeLessThanOrEqual(small.calls.fill - 2 + 12);
    expect(big.calls.arc).toBeGreaterThan(4000);
    expect(ms).toBeLessThan(100); // the JS side only; typically a few ms
  });

  it('draws the static layer once per layout and zoom, then only copies it', () => {
    const L = layoutTopology(topo, 900, 380);
    const main = countingContext();
    const off = countingContext();
    const layer = { ctx: off.ctx, canvas: { width: 0, height: 0 } as unknown as OffscreenCanvas, key: '', layout: null };
    const opts = { nowPs: 1000, colorBy: 'flow' as const, selectedPort: null, bufferBytes: 36_000, k: 1, tx: 0, ty: 0, dpr: 1, width: 900, height: 380 };
    const s = new PacketScratch();
    drawTopology(main.ctx, L, topo, busyRun(100), opts, s, layer);
    const once = { ...off.calls };
    expect(once.fillText).toBeGreaterThanOrEqual(13); // 9 ToR and 4 spine names
    drawTopology(main.ctx, L, topo, busyRun(100), { ...opts, nowPs: 1500 }, s, layer);
    expect(off.calls).toEqual(once);
    expect(main.calls.drawImage).toBe(2);
    expect(main.calls.fillText ?? 0).toBe(0);
    // Zooming redraws it.
    drawTopology(main.ctx, L, topo, busyRun(100), { ...opts, k: 2 }, s, layer);
    expect(off.calls.fillText).toBeGreaterThan(once.fillText);
  });
});
