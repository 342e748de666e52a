import { describe, expect, it } from 'vitest';
import type { Topology } from '../engine/api';
import { layoutTopology, packetXY, pickPort, pickPoint, portName, tiersOf, MAX_HOST_PITCH, PACKET_MIN_PX, PACKET_OFFSET, PORT_TARGET_PX } from './layout';
import { engineTopology } from './testTopologies';

const leafSpine = engineTopology({ kind: 'leaf_spine' });
const tree = engineTopology({ kind: 'tree', branching: [2, 2, 3], link_gbps: [1, 1, 1] });
const bottleneck = engineTopology({ kind: 'single_bottleneck', senders: 5 });

const ids = (t: Topology, kind: string) => t.nodes.flatMap((n, i) => (n.kind === kind ? [i] : []));

/** Every drawn thing of the layout lies inside the canvas. */
function expectInside(t: Topology, w: number, h: number) {
  const L = layoutTopology(t, w, h);
  t.nodes.forEach((_, u) => {
    const hw = L.boxW[u] ? L.boxW[u] / 2 : L.hostR;
    const hh = L.boxH[u] ? L.boxH[u] / 2 : L.hostR;
    expect(L.nodeX[u] - hw).toBeGreaterThanOrEqual(0);
    expect(L.nodeX[u] + hw).toBeLessThanOrEqual(w);
    expect(L.nodeY[u] - hh).toBeGreaterThanOrEqual(0);
    expect(L.nodeY[u] + hh).toBeLessThanOrEqual(h);
  });
  t.ports.forEach((_, p) => {
    const end = L.barY[p] + L.barDir[p] * L.barMaxH[p];
    expect(Math.min(end, L.barY[p])).toBeGreaterThanOrEqual(0);
    expect(Math.max(end, L.barY[p])).toBeLessThanOrEqual(h);
  });
  return L;
}

describe('tiered layout', () => {
  it('puts the default fabric in tiers: spines over ToRs over their 16 hosts', () => {
    expect(leafSpine.n_hosts).toBe(144);
    const tier = tiersOf(leafSpine);
    for (const h of ids(leafSpine, 'host')) expect(tier[h]).toBe(0);
    for (const s of ids(leafSpine, 'tor')) expect(tier[s]).toBe(1);
    for (const s of ids(leafSpine, 'core')) expect(tier[s]).toBe(2);
    for (const w of [1100, 540]) {
      const L = expectInside(leafSpine, w, 380);
      const tors = ids(leafSpine, 'tor');
      const spines = ids(leafSpine, 'core');
      expect(Math.max(...spines.map((s) => L.nodeY[s]))).toBeLessThan(Math.min(...tors.map((s) => L.nodeY[s])));
      // Racks left to right, each host under its own ToR's box, racks apart.
      tors.forEach((tor, r) => {
        const hosts = Array.from({ length: 16 }, (_, i) => r * 16 + i);
        for (const h of hosts) {
          expect(L.nodeY[h]).toBeGreaterThan(L.nodeY[tor]);
          expect(Math.abs(L.nodeX[h] - L.nodeX[tor])).toBeLessThanOrEqual(L.boxW[tor] / 2 + L.hostPitch);
        }
        if (r > 0) expect(L.nodeX[hosts[0]]).toBeGreaterThan(L.nodeX[(r - 1) * 16 + 15] + L.hostPitch);
      });
      // Spines spread across the width, not stacked in the middle.
      const sx = spines.map((s) => L.nodeX[s]);
      expect(Math.max(...sx) - Math.min(...sx)).toBeGreaterThan(w / 2);
    }
  });

  it('keeps all 144 hosts apart even in a half-width panel (staggered rows)', () => {
    const L = layoutTopology(leafSpine, 540, 380);
    expect(L.hostRows).toBeGreaterThan(1);
    expect(L.hostR).toBeGreaterThanOrEqual(1.5);
    const hosts = ids(leafSpine, 'host');
    let minD = Infinity;
    for (let i = 0; i < hosts.length; i++)
      for (let j = i + 1; j < hosts.length; j++) minD = Math.min(minD, Math.hypot(L.nodeX[hosts[i]] - L.nodeX[hosts[j]], L.nodeY[hosts[i]] - L.nodeY[hosts[j]]));
    expect(minD).toBeGreaterThanOrEqual(2 * L.hostR);
  });

  it('anchors ports on the right edge, ordered like their peers (no needless crossings)', () => {
    const L = layoutTopology(leafSpine, 900, 380);
    for (const u of ids(leafSpine, 'tor').concat(ids(leafSpine, 'core'))) {
      const ps = leafSpine.nodes[u].ports;
      for (const p of ps) {
        const peerUp = L.tier[leafSpine.ports[p].peer] > L.tier[u];
        expect(L.portY[p]).toBeCloseTo(L.nodeY[u] + (peerUp ? -1 : 1) * (L.boxH[u] / 2));
        expect(Math.abs(L.portX[p] - L.nodeX[u])).toBeLessThanOrEqual(L.boxW[u] / 2);
      }
      for (const edge of [ps.filter((p) => L.tier[leafSpine.ports[p].peer] > L.tier[u]), ps.filter((p) => L.tier[leafSpine.ports[p].peer] < L.tier[u])]) {
        const byAnchor = [...edge].sort((a, b) => L.portX[a] - L.portX[b]);
        const peersX = byAnchor.map((p) => L.nodeX[leafSpine.ports[p].peer]);
        expect(peersX).toEqual([...peersX].sort((a, b) => a - b));
      }
    }
  });

  it('pairs the two directions of every link', () => {
    const L = layoutTopology(leafSpine, 900, 380);
    leafSpine.ports.forEach((spec, p) => {
      const q = L.reverse[p];
      expect(q).toBeGreaterThanOrEqual(0);
      expect(L.reverse[q]).toBe(p);
      expect(leafSpine.ports[q].node).toBe(spec.peer);
      expect(leafSpine.ports[q].link).toBe(spec.link);
    });
  });

  it('centres each switch of a tree over its subtree, the root on top', () => {
    const tier = tiersOf(tree);
    const root = tree.nodes.findIndex((n) => n.name === 'root');
    expect(tier[root]).toBe(3);
    const aggs = ids(tree, 'aggregation');
    expect(aggs).toHaveLength(2);
    for (const a of aggs) expect(tier[a]).toBe(2);
    const L = expectInside(tree, 800, 360);
    const tors = ids(tree, 'tor');
    expect(tors).toHaveLength(4);
    for (const a of aggs) {
      const kids = tree.nodes[a].ports.map((p) => tree.ports[p].peer).filter((v) => tier[v] === 1);
      expect(kids).toHaveLength(2);
      expect(L.nodeX[a]).toBeCloseTo((L.nodeX[kids[0]] + L.nodeX[kids[1]]) / 2, 6);
      expect(L.nodeY[a]).toBeLessThan(L.nodeY[kids[0]]);
      expect(L.nodeY[a]).toBeGreaterThan(L.nodeY[root]);
    }
    expect(L.nodeX[root]).toBeCloseTo((L.nodeX[aggs[0]] + L.nodeX[aggs[1]]) / 2, 6);
    // Sibling subtrees do not overlap.
    const [a0, a1] = [...aggs].sort((x, y) => L.nodeX[x] - L.nodeX[y]);
    expect(L.nodeX[a0] + L.boxW[a0] / 2).toBeLessThan(L.nodeX[a1] - L.boxW[a1] / 2);
  });

  it('does not stretch a small network across a wide canvas', () => {
    const L = expectInside(bottleneck, 1200, 300);
    const hosts = ids(bottleneck, 'host');
    expect(hosts).toHaveLength(6);
    expect(L.hostPitch).toBe(MAX_HOST_PITCH);
    const xs = hosts.map((h) => L.nodeX[h]);
    expect((Math.min(...xs) + Math.max(...xs)) / 2).toBeCloseTo(600, 6);
    expect(L.hostRows).toBe(1);
    // The switch is a single tier above its hosts.
    expect(L.maxTier).toBe(1);
  });
});

describe('picking and packet positions', () => {
  it('picks every port at its own queue bar, and nothing far away', () => {
    for (const [t, w, h] of [
      [leafSpine, 1100, 380],
      [leafSpine, 540, 380],
      [tree, 800, 360],
      [bottleneck, 600, 300],
    ] as const) {
      const L = layoutTopology(t, w, h);
      t.ports.forEach((_, p) => {
        const y = L.barY[p] + (L.barDir[p] * L.barMaxH[p]) / 2;
        expect(pickPort(L, L.barX[p], y, 30)).toBe(p);
      });
      expect(pickPort(L, -500, -500, 30)).toBe(-1);
    }
  });

  it('finds a port from any point of a ToR row (what a click near a ToR does)', () => {
    const L = layoutTopology(leafSpine, 540, 380);
    const tor = ids(leafSpine, 'tor')[4];
    const p = pickPort(L, L.nodeX[tor] + 3, L.nodeY[tor] + 2, 28);
    expect(p).toBeGreaterThanOrEqual(0);
    expect(leafSpine.ports[p].node).toBe(tor);
    expect(portName(leafSpine, p)).toMatch(/^tor4→(h\d+|spine\d)$/);
  });

  it('moves a packet from its port to the far end, the two directions side by side', () => {
    const L = layoutTopology(leafSpine, 900, 380);
    const p = leafSpine.nodes[0].ports[0]; // h0's NIC
    const q = L.reverse[p];
    const a = new Float64Array(2);
    const b = new Float64Array(2);
    packetXY(L, leafSpine, p, 0, a, 0);
    expect(L.packetOffset).toBeGreaterThanOrEqual(PACKET_OFFSET);
    expect(Math.hypot(a[0] - L.portX[p], a[1] - L.portY[p])).toBeCloseTo(L.packetOffset, 6);
    packetXY(L, leafSpine, p, 1, a, 0);
    expect(Math.hypot(a[0] - L.portX[q], a[1] - L.portY[q])).toBeCloseTo(L.packetOffset, 6);
    // Half way, the two directions are 2 * packetOffset apart.
    packetXY(L, leafSpine, p, 0.5, a, 0);
    packetXY(L, leafSpine, q, 0.5, b, 0);
    expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeCloseTo(2 * L.packetOffset, 6);
    // Going up: y decreases with frac.
    const c = new Float64Array(4);
    packetXY(L, leafSpine, p, 0.2, c, 0);
    packetXY(L, leafSpine, p, 0.8, c, 2);
    expect(c[3]).toBeLessThan(c[1]);
  });

  it('picks the nearest point within the radius', () => {
    const xy = new Float32Array([0, 0, 10, 10, 10.5, 10]);
    expect(pickPoint(xy, 3, 10.4, 10, 2)).toBe(2);
    expect(pickPoint(xy, 2, 10.4, 10, 2)).toBe(1);
    expect(pickPoint(xy, 3, 50, 50, 2)).toBe(-1);
  });
});

describe('sizes that read from the back of a room', () => {
  const small = engineTopology({ kind: 'leaf_spine', racks: 2, hosts_per_rack: 4, spines: 2, host_link_gbps: 10, fabric_link_gbps: 40, propagation_ns: 200 });
  it('gives the lessons\' small fabric 24 px port targets and 8 px packets in a half-width panel at 1280x720', () => {
    // Two panels beside a lesson panel at 1280 px: about 430 px each.
    const L = layoutTopology(small, 430, 430);
    expect(L.minPortGap).toBeGreaterThanOrEqual(PORT_TARGET_PX);
    expect(2 * L.packetR).toBeGreaterThanOrEqual(PACKET_MIN_PX);
    expect(L.hostFont).toBeGreaterThanOrEqual(12);
  });

  it('measures each port\'s gap to its nearest neighbour, the same as a brute-force search', () => {
    for (const [t, w] of [
      [leafSpine, 1200],
      [small, 430],
      [tree, 800],
    ] as const) {
      const L = layoutTopology(t, w, 400);
      const mid = (p: number) => L.barY[p] + (L.barDir[p] * L.barMaxH[p]) / 2;
      t.ports.forEach((_, p) => {
        let best = Infinity;
        t.ports.forEach((__, q) => {
          if (q === p) return;
          for (const [x0, y0] of [[L.portX[p], L.portY[p]], [L.barX[p], mid(p)]])
            for (const [x1, y1] of [[L.portX[q], L.portY[q]], [L.barX[q], mid(q)]]) best = Math.min(best, Math.hypot(x1 - x0, y1 - y0));
        });
        expect(L.portGap[p]).toBeCloseTo(best, 9);
      });
    }
  });

  it('keeps packets at least 8 px even where the 144-host fabric packs its hosts', () => {
    const L = layoutTopology(leafSpine, 1240, 430);
    expect(2 * L.packetR).toBeGreaterThanOrEqual(PACKET_MIN_PX);
    // Ports there are closer than a 24 px target: a click zooms in first (TopologyView).
    expect(L.minPortGap).toBeLessThan(PORT_TARGET_PX);
  });
});
