// Where the network view draws everything: a tiered layout of any topology
// the engine builds (leaf-spine, single switch, trees with aggregation),
// computed once per topology and canvas size. Pure (no DOM) so it can be
// unit-tested and so the per-frame draw only reads typed arrays.
//
// Tiers come from hop distance to the nearest host: hosts are tier 0 (drawn
// at the bottom), ToRs tier 1, aggregation switches 2.., spines / the root
// on top. Hosts are grouped under their ToR (the peer of their NIC) and
// staggered over up to three rows when they are packed tightly, so the 144
// hosts of the default fabric stay separate small circles. Switches are
// boxes whose ports sit along the bottom edge (towards hosts) and the top
// edge (towards the core), ordered by where the far end of the link is, so
// links do not cross needlessly. Every port has a queue bar at its node end
// of the link.

import type { Topology } from '../engine/api';

/** The geometry of one topology at one canvas size (CSS pixels, before zoom). */
export interface TopoLayout {
  width: number;
  height: number;
  /** Hop distance to the nearest host, per node. */
  tier: Int32Array;
  maxTier: number;
  /** Node centre. */
  nodeX: Float64Array;
  nodeY: Float64Array;
  /** Switch box size (0 for hosts). */
  boxW: Float64Array;
  boxH: Float64Array;
  /** Host circle radius. */
  hostR: number;
  /** Horizontal distance between neighbouring hosts. */
  hostPitch: number;
  /** Rows hosts are staggered over. */
  hostRows: number;
  /** Where port p's link leaves its node. */
  portX: Float64Array;
  portY: Float64Array;
  /** The other direction of the same link (-1 if none). */
  reverse: Int32Array;
  /** Queue bar of port p: base centre, growth direction (+1 down, -1 up), width, full height. */
  barX: Float64Array;
  barY: Float64Array;
  barDir: Int8Array;
  barW: Float64Array;
  barMaxH: Float64Array;
  /** Horizontal room between port p's anchor and its neighbours (for labels). */
  portRoom: Float64Array;
  /** Unit normal to port p's direction of travel: packets of the two directions run side by side. */
  normX: Float64Array;
  normY: Float64Array;
  /** Radius of a packet dot, before zoom (the draw keeps it at least {@link PACKET_MIN_PX} wide on screen). */
  packetR: number;
  /** Offset of a packet from its link's centre line, so the two directions run side by side. */
  packetOffset: number;
  /** Font sizes of the switch and host names, CSS px before zoom. */
  switchFont: number;
  hostFont: number;
  /** Per port: distance to the nearest other port's pick point (anchor or queue bar), before zoom: how wide its click target is. */
  portGap: Float64Array;
  /** The smallest of `portGap` (Infinity with fewer than two ports). */
  minPortGap: number;
}

/** Queue bar height of a host NIC, CSS px. */
export const HOST_BAR_H = 10;
/** Widest spacing of hosts, CSS px (small networks do not stretch across the canvas). */
export const MAX_HOST_PITCH = 56;
/** Hosts are labelled when neighbours in a row are at least this far apart on screen, CSS px. */
export const HOST_LABEL_ROOM = 20;
/** Smallest offset of a packet from its link's centre line, CSS px (larger packets are set further apart). */
export const PACKET_OFFSET = 1.6;
/** Smallest packet on screen, CSS px across (readable from the back of a room). */
export const PACKET_MIN_PX = 8;
/** A click selects the nearest port within this many screen px. */
export const PICK_RADIUS_PX = 28;
/** Where ports are closer than this on screen, CSS px, a click zooms in before it selects (a 24 px target, WCAG 2.2's minimum). */
export const PORT_TARGET_PX = 24;
/** Room per port along a switch's edge, CSS px, where the slot allows. */
const PORT_PITCH = 40;

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/** Hop distance of every node from the nearest host (breadth-first over the links). */
export function tiersOf(topo: Topology): Int32Array {
  const n = topo.nodes.length;
  const tier = new Int32Array(n).fill(-1);
  const queue: number[] = [];
  topo.nodes.forEach((nd, i) => {
    if (nd.kind === 'host') {
      tier[i] = 0;
      queue.push(i);
    }
  });
  for (let h = 0; h < queue.length; h++) {
    const u = queue[h];
    for (const p of topo.nodes[u].ports) {
      const v = topo.ports[p].peer;
      if (tier[v] < 0) {
        tier[v] = tier[u] + 1;
        queue.push(v);
      }
    }
  }
  for (let i = 0; i < n; i++) if (tier[i] < 0) tier[i] = 1;
  return tier;
}

/** Lays out `topo` in a `width` x `height` canvas. */
export function layoutTopology(topo: Topology, width: number, height: number): TopoLayout {
  const n = topo.nodes.length;
  const np = topo.ports.length;
  const tier = tiersOf(topo);
  let maxTier = 1;
  for (let i = 0; i < n; i++) maxTier = Math.max(maxTier, tier[i]);

  // Hosts grouped by their parent switch, groups in order of first host.
  const hosts: number[] = [];
  for (let i = 0; i < n; i++) if (topo.nodes[i].kind === 'host') hosts.push(i);
  const parentOf = (h: number) => (topo.nodes[h].ports.length ? topo.ports[topo.nodes[h].ports[0]].peer : -1);
  const groups = new Map<number, number[]>();
  for (const h of hosts) {
    const p = parentOf(h);
    const g = groups.get(p);
    if (g) g.push(h);
    else groups.set(p, [h]);
  }
  const G = Math.max(1, groups.size);
  const mx = 10;
  const gap = G > 1 ? clamp(width * 0.015, 4, 14) : 0;
  const nh = Math.max(1, hosts.length);
  const pitch = clamp((width - 2 * mx - gap * (G - 1)) / nh, 1, MAX_HOST_PITCH);
  const rows = pitch >= 8 ? 1 : pitch >= 4 ? 2 : 3;
  // Hosts at most 10 px across and, in a short canvas, small enough to leave the tiers room.
  const hostR = clamp(pitch * rows * 0.4, 1.5, clamp(height * 0.035, 1.5, 10));
  // Packets and names grow with the room each host has, so a small network reads from the back of a room.
  const packetR = clamp(pitch * rows * 0.12, PACKET_MIN_PX / 2, 6);
  const hostFont = clamp(pitch * rows * 0.3, 9, 15);
  const rowGap = rows > 1 ? 2 * hostR + 2 : 0;
  const totalW = nh * pitch + gap * (G - 1);
  const left = (width - totalW) / 2;

  const nodeX = new Float64Array(n);
  const nodeY = new Float64Array(n);
  const boxW = new Float64Array(n);
  const boxH = new Float64Array(n);
  const slotL = new Float64Array(n).fill(NaN);
  const slotR = new Float64Array(n).fill(NaN);

  // Vertical bands: labels on top, switch tiers evenly spaced, hosts at the bottom.
  // Tall enough that a switch's upper and lower rows of ports are click targets of their own.
  const bh = clamp(height * 0.08, 14, 36);
  const switchFont = clamp(bh * 0.62, 11, 16);
  // Room for host names under the hosts when they are drawn unzoomed (see HOST_LABEL_ROOM).
  const hostBottom = height - 6 - hostR - (pitch * rows >= HOST_LABEL_ROOM ? hostFont + 3 : 0);
  const hostTop = hostBottom - (rows - 1) * rowGap;
  // Room for the top tier's names above its boxes.
  const yTop = switchFont + 8 + bh / 2;
  const yBottom = Math.max(yTop + 10, hostTop - hostR - HOST_BAR_H - 14);
  const tierY = (t: number) => yTop + ((maxTier - t) * (yBottom - yTop)) / maxTier;

  let k = 0;
  let gi = 0;
  for (const [parent, members] of groups) {
    members.forEach((h, j) => {
      nodeX[h] = left + (k + 0.5) * pitch + gi * gap;
      nodeY[h] = hostTop + (j % rows) * rowGap;
      k++;
    });
    if (parent >= 0) {
      slotL[parent] = nodeX[members[0]] - pitch / 2;
      slotR[parent] = nodeX[members[members.length - 1]] + pitch / 2;
    }
    gi++;
  }

  // Switch tiers bottom-up: under a tree a switch spans its children; where
  // lower switches have several parents (leaf-spine) the tier is spread evenly.
  const byTier: number[][] = Array.from({ length: maxTier + 1 }, () => []);
  for (let i = 0; i < n; i++) if (topo.nodes[i].kind !== 'host') byTier[tier[i]].push(i);
  const neighbours = (u: number) => topo.nodes[u].ports.map((p) => topo.ports[p].peer);
  for (let t = 1; t <= maxTier; t++) {
    const here = byTier[t];
    if (!here.length) continue;
    const below = t === 1 ? [] : byTier[t - 1];
    const isTree = t > 1 && below.every((c) => neighbours(c).filter((v) => tier[v] === t).length <= 1);
    let spread = false;
    for (const s of here) {
      if (!Number.isNaN(slotL[s])) continue; // a ToR with hosts
      const kids = neighbours(s).filter((v) => tier[v] === t - 1 && !Number.isNaN(slotL[v]));
      if (isTree && kids.length) {
        slotL[s] = Math.min(...kids.map((v) => slotL[v]));
        slotR[s] = Math.max(...kids.map((v) => slotR[v]));
      } else spread = true;
    }
    if (spread) {
      here.forEach((s, i) => {
        slotL[s] = left + (i * totalW) / here.length;
        slotR[s] = left + ((i + 1) * totalW) / here.length;
      });
    }
    for (const s of here) {
      const slotW = slotR[s] - slotL[s];
      let up = 0;
      let down = 0;
      for (const p of topo.nodes[s].ports) {
        if (tier[topo.ports[p].peer] > t) up++;
        else down++;
      }
      const avail = slotW - Math.max(2, Math.min(gap, slotW * 0.15));
      boxW[s] = Math.max(10, Math.min(avail, Math.max(36, Math.max(up, down) * PORT_PITCH)));
      boxH[s] = bh;
      nodeX[s] = (slotL[s] + slotR[s]) / 2;
      nodeY[s] = tierY(t);
    }
  }

  // Ports: anchors on the node outline, queue bars, spacing.
  const portX = new Float64Array(np);
  const portY = new Float64Array(np);
  const barX = new Float64Array(np);
  const barY = new Float64Array(np);
  const barDir = new Int8Array(np);
  const barW = new Float64Array(np);
  const barMaxH = new Float64Array(np);
  const portRoom = new Float64Array(np);
  for (let u = 0; u < n; u++) {
    const nd = topo.nodes[u];
    if (nd.kind === 'host') {
      for (const p of nd.ports) {
        const upward = tier[topo.ports[p].peer] >= tier[u];
        const dir = upward ? -1 : 1;
        portX[p] = nodeX[u];
        portY[p] = nodeY[u] + dir * hostR;
        barX[p] = portX[p];
        barY[p] = portY[p] + dir;
        barDir[p] = dir;
        barW[p] = clamp(pitch * 0.6, 1.5, 5);
        barMaxH[p] = HOST_BAR_H;
        portRoom[p] = pitch * rows;
      }
      continue;
    }
    const above: number[] = [];
    const belowP: number[] = [];
    for (const p of nd.ports) (tier[topo.ports[p].peer] > tier[u] ? above : belowP).push(p);
    const byPeerX = (a: number, b: number) => nodeX[topo.ports[a].peer] - nodeX[topo.ports[b].peer] || a - b;
    for (const [list, dir] of [
      [belowP.sort(byPeerX), -1],
      [above.sort(byPeerX), 1],
    ] as const) {
      const w = boxW[u];
      const step = w / Math.max(1, list.length);
      list.forEach((p, i) => {
        portX[p] = nodeX[u] - w / 2 + (i + 0.5) * step;
        // A port towards the hosts sits on the bottom edge and its bar grows up into the box.
        portY[p] = nodeY[u] - (dir * boxH[u]) / 2;
        barX[p] = portX[p];
        barY[p] = portY[p];
        barDir[p] = dir;
        barW[p] = clamp(step * 0.7, 1.5, 8);
        barMaxH[p] = boxH[u] / 2 - 1.5;
        portRoom[p] = step;
      });
    }
  }

  const reverse = new Int32Array(np).fill(-1);
  const byLink = new Map<number, number>();
  for (let p = 0; p < np; p++) {
    const l = topo.ports[p].link;
    const q = byLink.get(l);
    if (q === undefined) byLink.set(l, p);
    else {
      reverse[p] = q;
      reverse[q] = p;
    }
  }
  const normX = new Float64Array(np);
  const normY = new Float64Array(np);
  for (let p = 0; p < np; p++) {
    const q = reverse[p];
    const tx = q >= 0 ? portX[q] : nodeX[topo.ports[p].peer];
    const ty = q >= 0 ? portY[q] : nodeY[topo.ports[p].peer];
    const dx = tx - portX[p];
    const dy = ty - portY[p];
    const len = Math.hypot(dx, dy) || 1;
    normX[p] = -dy / len;
    normY[p] = dx / len;
  }

  const portGap = portGaps(portX, portY, barX, barY, barDir, barMaxH);
  let minPortGap = Infinity;
  for (let p = 0; p < np; p++) minPortGap = Math.min(minPortGap, portGap[p]);
  const packetOffset = Math.max(PACKET_OFFSET, packetR * 0.9);
  return { width, height, tier, maxTier, nodeX, nodeY, boxW, boxH, hostR, hostPitch: pitch, hostRows: rows, portX, portY, reverse, barX, barY, barDir, barW, barMaxH, portRoom, normX, normY, packetR, packetOffset, switchFont, hostFont, portGap, minPortGap };
}

/**
 * Per port, the distance to the nearest other port's pick point (the
 * points {@link pickPort} measures from: the anchor and the middle of the
 * queue bar). A click within half of it selects the port, so it is the
 * width of the port's click target. Ports sorted by x, each compared with
 * its neighbours until they are further apart in x than its best.
 */
function portGaps(portX: Float64Array, portY: Float64Array, barX: Float64Array, barY: Float64Array, barDir: Int8Array, barMaxH: Float64Array): Float64Array {
  const np = portX.length;
  const gap = new Float64Array(np).fill(Infinity);
  const midY = (p: number) => barY[p] + (barDir[p] * barMaxH[p]) / 2;
  const order = Array.from({ length: np }, (_, i) => i).sort((a, b) => portX[a] - portX[b]);
  const dist = (p: number, q: number) => {
    const pts = [
      [portX[p], portY[p], portX[q], portY[q]],
      [portX[p], portY[p], barX[q], midY(q)],
      [barX[p], midY(p), portX[q], portY[q]],
      [barX[p], midY(p), barX[q], midY(q)],
    ];
    let d = Infinity;
    for (const [x0, y0, x1, y1] of pts) d = Math.min(d, Math.hypot(x1 - x0, y1 - y0));
    return d;
  };
  for (let i = 0; i < np; i++) {
    const p = order[i];
    for (const dir of [-1, 1]) {
      for (let j = i + dir; j >= 0 && j < np; j += dir) {
        const q = order[j];
        // A bar stands on its port's anchor (same x), so the gap in x bounds the distance from below.
        if (Math.abs(portX[q] - portX[p]) > gap[p]) break;
        const d = dist(p, q);
        if (d < gap[p]) gap[p] = d;
      }
    }
  }
  return gap;
}

/** Where port p's link ends at the far node. */
export function portTarget(L: TopoLayout, topo: Topology, p: number): [number, number] {
  const q = L.reverse[p];
  if (q >= 0) return [L.portX[q], L.portY[q]];
  const peer = topo.ports[p].peer;
  return [L.nodeX[peer], L.nodeY[peer]];
}

/**
 * Position of a packet on port p's link, `frac` of the way from the node to
 * its peer, offset to the right of its direction of travel. Writes into
 * out[i], out[i+1] (no allocation: the draw loop calls this thousands of times).
 */
export function packetXY(L: TopoLayout, topo: Topology, p: number, frac: number, out: Float32Array | Float64Array | number[], i: number) {
  const q = L.reverse[p];
  const x0 = L.portX[p];
  const y0 = L.portY[p];
  const x1 = q >= 0 ? L.portX[q] : L.nodeX[topo.ports[p].peer];
  const y1 = q >= 0 ? L.portY[q] : L.nodeY[topo.ports[p].peer];
  const f = frac < 0 ? 0 : frac > 1 ? 1 : frac;
  out[i] = x0 + (x1 - x0) * f + L.normX[p] * L.packetOffset;
  out[i + 1] = y0 + (y1 - y0) * f + L.normY[p] * L.packetOffset;
}

/**
 * The port nearest to (x, y) (layout coordinates): distance to its anchor
 * or to the middle of its queue bar, whichever is closer. -1 if none is
 * within `maxDist`.
 */
export function pickPort(L: TopoLayout, x: number, y: number, maxDist: number): number {
  let best = -1;
  let bestD = maxDist * maxDist;
  const np = L.portX.length;
  for (let p = 0; p < np; p++) {
    const ax = L.portX[p] - x;
    const ay = L.portY[p] - y;
    const bx = L.barX[p] - x;
    const by = L.barY[p] + (L.barDir[p] * L.barMaxH[p]) / 2 - y;
    const d = Math.min(ax * ax + ay * ay, bx * bx + by * by);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best;
}

/** Index of the point of `xy` (x0, y0, x1, y1, ...; first `count` points) nearest to (x, y) within `maxDist`, or -1. */
export function pickPoint(xy: ArrayLike<number>, count: number, x: number, y: number, maxDist: number): number {
  let best = -1;
  let bestD = maxDist * maxDist;
  for (let i = 0; i < count; i++) {
    const dx = xy[2 * i] - x;
    const dy = xy[2 * i + 1] - y;
    const d = dx * dx + dy * dy;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** "tor3 → h50": a port as its node and peer names. */
export function portName(topo: Topology | null, p: number): string {
  const spec = topo?.ports[p];
  if (!topo || !spec) return `port ${p}`;
  return `${topo.nodes[spec.node]?.name ?? spec.node}→${topo.nodes[spec.peer]?.name ?? spec.peer}`;
}

/** Human name of a port role, in the words of the drops-by-hop statistics (pHost paper). */
export const ROLE_NAMES: Record<string, string> = {
  host_nic: 'host NIC',
  up: 'ToR uplink',
  down: 'core downlink',
  edge: 'ToR downlink (to host)',
};
