// The per-frame drawing of the network view on a 2D canvas. Everything of
// one colour goes into one path (links, hosts, switch boxes, queue bars,
// packets bucketed by colour), and packets are written into reused typed
// arrays, so a frame of the 144-host fabric with thousands of packets in
// flight stays within a few milliseconds.

import { PacketKindCode, type Topology } from '../engine/api';
import type { RunState } from '../state/run';
import { EVENT_LINGER_PS } from '../state/run';
import { COLORS, FLOW_PALETTE, KIND_COLORS, PRIORITY_PALETTE, flowColorIndex, priorityColorIndex, type ColorBy } from './palette';
import { HOST_LABEL_ROOM, PACKET_MIN_PX, packetXY, portTarget, type TopoLayout } from './layout';
import { rateText } from '../format/format';

/** What one frame shows besides the run itself. */
export interface DrawOptions {
  nowPs: number;
  colorBy: ColorBy;
  selectedPort: number | null;
  /** Queue bars are full at this many bytes. */
  bufferBytes: number;
  /** Bars above this are red (ECN marking threshold K); a tick marks it on every bar. */
  ecnThresholdBytes?: number;
  /** Reduced motion (`prefers-reduced-motion`): packets jump to the middle of their link instead of gliding, drops do not flash. */
  reducedMotion?: boolean;
  /** Ports whose link is down (faults), drawn red and dashed. */
  downPorts?: ReadonlySet<number>;
  /** Zoom transform (d3-zoom): screen = world * k + (x, y). */
  k: number;
  tx: number;
  ty: number;
  dpr: number;
  /** CSS size of the canvas. */
  width: number;
  height: number;
}

/** Scratch arrays reused across frames: packet positions for drawing and for click picking. */
export class PacketScratch {
  xy = new Float32Array(0);
  flow = new Int32Array(0);
  kind = new Uint8Array(0);
  color = new Uint8Array(0);
  order = new Int32Array(0);
  count = 0;
  /** Radius the last frame drew packets with, layout units (times the zoom: screen px). */
  packetR = 0;
  ensure(n: number) {
    if (this.flow.length >= n) return;
    const cap = Math.max(n, this.flow.length * 2, 256);
    this.xy = new Float32Array(cap * 2);
    this.flow = new Int32Array(cap);
    this.kind = new Uint8Array(cap);
    this.color = new Uint8Array(cap);
    this.order = new Int32Array(cap);
  }
}

const KIND_ORDER = [PacketKindCode.Data, PacketKindCode.Ack, PacketKindCode.Probe, PacketKindCode.Control];

/**
 * Computes where every packet in flight is at `nowPs` (a departure is on
 * its link from startPs to endPs, at the linear fraction of that span).
 * Fills `s` and returns the number of packets.
 */
export function placePackets(run: RunState, L: TopoLayout, topo: Topology, nowPs: number, colorBy: ColorBy, s: PacketScratch, jump = false): number {
  const deps = run.inFlight;
  s.ensure(deps.length);
  let c = 0;
  const np = topo.ports.length;
  for (let i = 0; i < deps.length; i++) {
    const d = deps[i];
    if (d.startPs > nowPs || nowPs >= d.endPs || d.port < 0 || d.port >= np) continue;
    packetXY(L, topo, d.port, jump ? 0.5 : (nowPs - d.startPs) / (d.endPs - d.startPs), s.xy, 2 * c);
    s.flow[c] = d.flow;
    s.kind[c] = d.packetKind;
    s.color[c] =
      colorBy === 'flow'
        ? flowColorIndex(d.flow)
        : colorBy === 'priority'
          ? priorityColorIndex(run.engineProtocol, d.prio)
          : d.packetKind >= 0 && d.packetKind <= 3
            ? d.packetKind
            : 3;
    c++;
  }
  s.count = c;
  return c;
}

/** Something a static layer can be drawn into and blitted from (an offscreen canvas). */
export interface StaticLayer {
  ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
  canvas: HTMLCanvasElement | OffscreenCanvas;
  /** The layout and view the layer holds (set by drawTopology). */
  key: string;
  layout: TopoLayout | null;
}

type Ctx = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/**
 * Draws one frame. The parts that only change with the layout and the zoom
 * (links, switches, hosts, empty queue bars, names) are drawn once into
 * `layer` when given and then copied, which saves most of the rasterizing
 * (antialiased lines and text) on every animation frame.
 */
export function drawTopology(ctx: CanvasRenderingContext2D, L: TopoLayout, topo: Topology, run: RunState, o: DrawOptions, s: PacketScratch, layer?: StaticLayer | null) {
  if (layer) {
    const key = `${o.k},${o.tx},${o.ty},${o.dpr},${o.width},${o.height}`;
    if (layer.key !== key || layer.layout !== L) {
      if (layer.canvas.width !== ctx.canvas.width || layer.canvas.height !== ctx.canvas.height) {
        layer.canvas.width = ctx.canvas.width;
        layer.canvas.height = ctx.canvas.height;
      }
      drawStatic(layer.ctx, L, topo, o);
      layer.key = key;
      layer.layout = L;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(layer.canvas, 0, 0);
  } else {
    drawStatic(ctx, L, topo, o);
  }
  drawDynamic(ctx, L, topo, run, o, s);
}

/** The layer that changes only with layout and zoom. */
export function drawStatic(ctx: Ctx, L: TopoLayout, topo: Topology, o: DrawOptions) {
  const { k, dpr } = o;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, o.width, o.height);
  ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * o.tx, dpr * o.ty);
  const px = 1 / k; // one screen pixel in layout units
  const np = topo.ports.length;
  const nn = topo.nodes.length;

  // Links, each once.
  ctx.beginPath();
  for (let p = 0; p < np; p++) {
    const q = L.reverse[p];
    if (q >= 0 && q < p) continue;
    const [x1, y1] = portTarget(L, topo, p);
    ctx.moveTo(L.portX[p], L.portY[p]);
    ctx.lineTo(x1, y1);
  }
  ctx.strokeStyle = COLORS.link;
  ctx.lineWidth = px;
  ctx.stroke();
  // Switch boxes and hosts.
  ctx.beginPath();
  for (let u = 0; u < nn; u++) {
    if (L.boxW[u] > 0) ctx.rect(L.nodeX[u] - L.boxW[u] / 2, L.nodeY[u] - L.boxH[u] / 2, L.boxW[u], L.boxH[u]);
  }
  ctx.fillStyle = COLORS.switchFill;
  ctx.fill();
  ctx.strokeStyle = COLORS.switchStroke;
  ctx.lineWidth = px;
  ctx.stroke();
  ctx.beginPath();
  const r = L.hostR;
  for (let u = 0; u < nn; u++) {
    if (L.boxW[u] > 0) continue;
    ctx.moveTo(L.nodeX[u] + r, L.nodeY[u]);
    ctx.arc(L.nodeX[u], L.nodeY[u], r, 0, 2 * Math.PI);
  }
  ctx.fillStyle = COLORS.host;
  ctx.fill();

  // Empty queue bars: the buffer's capacity.
  ctx.beginPath();
  for (let p = 0; p < np; p++) barRect(ctx, L, p, 1);
  ctx.fillStyle = COLORS.queueBack;
  ctx.fill();
  // Labels: switch names, host names when zoomed in.
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  ctx.lineJoin = 'round';
  ctx.font = `${L.switchFont * px}px system-ui, sans-serif`;
  ctx.fillStyle = COLORS.label;
  ctx.strokeStyle = 'rgba(255,255,255,0.9)';
  ctx.lineWidth = 3 * px;
  for (let u = 0; u < nn; u++) {
    if (L.boxW[u] <= 0 || L.boxW[u] * k < 2 * L.switchFont) continue;
    const name = topo.nodes[u].name;
    const x = L.nodeX[u];
    const y = L.nodeY[u] - L.boxH[u] / 2 - 3 * px;
    ctx.strokeText(name, x, y);
    ctx.fillText(name, x, y);
  }
  if (L.hostPitch * L.hostRows * k >= HOST_LABEL_ROOM) {
    ctx.textBaseline = 'top';
    ctx.font = `${L.hostFont * px}px system-ui, sans-serif`;
    for (let u = 0; u < nn; u++) {
      if (L.boxW[u] > 0) continue;
      ctx.fillText(topo.nodes[u].name, L.nodeX[u], L.nodeY[u] + L.hostR + px);
    }
  }
}

/** Queue levels, the selection, packets, drops and marks, RCP rates: redrawn every frame. */
function drawDynamic(ctx: CanvasRenderingContext2D, L: TopoLayout, topo: Topology, run: RunState, o: DrawOptions, s: PacketScratch) {
  const { k, dpr } = o;
  ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * o.tx, dpr * o.ty);
  const px = 1 / k;
  const np = topo.ports.length;
  const sel = o.selectedPort !== null && o.selectedPort >= 0 && o.selectedPort < np ? o.selectedPort : -1;
  if (sel >= 0) {
    const [x1, y1] = portTarget(L, topo, sel);
    ctx.beginPath();
    ctx.moveTo(L.portX[sel], L.portY[sel]);
    ctx.lineTo(x1, y1);
    ctx.strokeStyle = COLORS.linkSelected;
    ctx.lineWidth = 2.5 * px;
    ctx.stroke();
  }

  // Failed links (faults): red and dashed over the static drawing.
  if (o.downPorts && o.downPorts.size) {
    ctx.save();
    ctx.setLineDash([6 * px, 4 * px]);
    ctx.strokeStyle = COLORS.drop;
    ctx.lineWidth = 3 * px;
    ctx.beginPath();
    for (const p of o.downPorts) {
      if (p < 0 || p >= np) continue;
      const [x1, y1] = portTarget(L, topo, p);
      ctx.moveTo(L.portX[p], L.portY[p]);
      ctx.lineTo(x1, y1);
    }
    ctx.stroke();
    ctx.restore();
  }

  // Queue bars: the occupancy in blue, red above K (the grey capacity is in the static layer).
  const q = run.queueBytes;
  const buf = o.bufferBytes > 0 ? o.bufferBytes : 1;
  const K = o.ecnThresholdBytes;
  for (const over of [false, true]) {
    ctx.beginPath();
    let any = false;
    for (let p = 0; p < np && p < q.length; p++) {
      const b = q[p];
      if (b <= 0) continue;
      if ((K !== undefined && b > K) !== over) continue;
      // At least one screen pixel so that a single packet shows.
      barRect(ctx, L, p, Math.max(Math.min(1, b / buf), px / Math.max(L.barMaxH[p], 1e-9)));
      any = true;
    }
    if (any) {
      ctx.fillStyle = over ? COLORS.queueOverK : COLORS.queue;
      ctx.fill();
    }
  }
  if (K !== undefined && K > 0 && K < buf) {
    // The marking threshold K on every bar (DCTCP paper section 3.1: mark when the queue exceeds K).
    ctx.beginPath();
    for (let p = 0; p < np; p++) {
      const y = L.barY[p] + L.barDir[p] * L.barMaxH[p] * (K / buf);
      ctx.moveTo(L.barX[p] - L.barW[p] / 2 - px, y);
      ctx.lineTo(L.barX[p] + L.barW[p] / 2 + px, y);
    }
    ctx.strokeStyle = '#868e96';
    ctx.lineWidth = px;
    ctx.stroke();
  }
  if (sel >= 0) {
    ctx.strokeStyle = COLORS.linkSelected;
    ctx.lineWidth = 2 * px;
    ctx.beginPath();
    barRect(ctx, L, sel, 1, 2 * px);
    ctx.stroke();
  }

  // Packets in flight, bucketed by colour: data as dots, the rest as small squares.
  const n = placePackets(run, L, topo, o.nowPs, o.colorBy, s, o.reducedMotion);
  s.packetR = packetRadius(L, k);
  if (n) {
    const colors = o.colorBy === 'flow' ? FLOW_PALETTE : o.colorBy === 'priority' ? PRIORITY_PALETTE : KIND_ORDER.map((kd) => KIND_COLORS[kd]);
    const start = new Int32Array(colors.length + 1);
    for (let i = 0; i < n; i++) start[s.color[i] + 1]++;
    for (let c = 0; c < colors.length; c++) start[c + 1] += start[c];
    const fill = start.slice();
    for (let i = 0; i < n; i++) s.order[fill[s.color[i]]++] = i;
    const rd = s.packetR;
    const sq = rd * 1.3;
    const round = rd * k >= 2;
    for (let c = 0; c < colors.length; c++) {
      if (start[c] === start[c + 1]) continue;
      ctx.beginPath();
      for (let j = start[c]; j < start[c + 1]; j++) {
        const i = s.order[j];
        const x = s.xy[2 * i];
        const y = s.xy[2 * i + 1];
        if (s.kind[i] === PacketKindCode.Data) {
          if (round) {
            ctx.moveTo(x + rd, y);
            ctx.arc(x, y, rd, 0, 2 * Math.PI);
          } else ctx.rect(x - rd, y - rd, 2 * rd, 2 * rd);
        } else ctx.rect(x - sq / 2, y - sq / 2, sq, sq);
      }
      ctx.fillStyle = colors[c];
      ctx.fill();
    }
  }

  // Drops (a flashing red X) and ECN marks (a yellow tick) at their port, for EVENT_LINGER_PS.
  const ev = run.portEvents;
  if (ev.length) {
    const m = 5 * px;
    ctx.lineCap = 'round';
    for (const kind of ['mark', 'drop'] as const) {
      for (const e of ev) {
        if (e.kind !== kind || e.port < 0 || e.port >= np) continue;
        const age = o.nowPs - e.tPs;
        if (age < 0 || age >= EVENT_LINGER_PS) continue;
        const f = age / EVENT_LINGER_PS;
        const alpha = (1 - f) * (kind === 'drop' && !o.reducedMotion ? 0.65 + 0.35 * Math.cos(f * 8 * Math.PI) : 1);
        // Just outside the node, on the link.
        const [tx, ty] = portTarget(L, topo, e.port);
        const dx = tx - L.portX[e.port];
        const dy = ty - L.portY[e.port];
        const len = Math.hypot(dx, dy) || 1;
        const x = L.portX[e.port] + (dx / len) * 7 * px;
        const y = L.portY[e.port] + (dy / len) * 7 * px;
        ctx.globalAlpha = Math.max(0, alpha);
        ctx.beginPath();
        if (kind === 'drop') {
          ctx.moveTo(x - m, y - m);
          ctx.lineTo(x + m, y + m);
          ctx.moveTo(x + m, y - m);
          ctx.lineTo(x - m, y + m);
          ctx.strokeStyle = COLORS.drop;
          ctx.lineWidth = 2.2 * px;
        } else {
          ctx.moveTo(x - m * 0.8, y);
          ctx.lineTo(x - m * 0.2, y + m * 0.6);
          ctx.lineTo(x + m * 0.9, y - m * 0.8);
          ctx.strokeStyle = '#5c4300';
          ctx.lineWidth = 3.4 * px;
          ctx.stroke();
          ctx.strokeStyle = COLORS.mark;
          ctx.lineWidth = 2 * px;
        }
        ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
    ctx.lineCap = 'butt';
  }

  // RCP's fair-share rate per port, where there is room for the text.
  if (run.linkRates.size) {
    ctx.textAlign = 'center';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = 'rgba(255,255,255,0.9)';
    ctx.lineWidth = 3 * px;
    ctx.textBaseline = 'middle';
    ctx.font = `${9 * px}px system-ui, sans-serif`;
    ctx.fillStyle = COLORS.rate;
    for (const [p, bps] of run.linkRates) {
      if (p < 0 || p >= np) continue;
      // Where ports are packed, only the rates below the line rate (the bottlenecks) are labelled,
      // staggered along their links so neighbours do not overlap.
      const roomy = L.portRoom[p] * k >= 22;
      if (!roomy && bps >= 0.95 * topo.ports[p].rate) continue;
      const at = roomy ? 0.3 : 0.2 + 0.15 * (p % 4);
      const [tx, ty] = portTarget(L, topo, p);
      const x = L.portX[p] + (tx - L.portX[p]) * at + L.normX[p] * 7 * px;
      const y = L.portY[p] + (ty - L.portY[p]) * at + L.normY[p] * 7 * px;
      const t = rateText(bps);
      ctx.strokeText(t, x, y);
      ctx.fillText(t, x, y);
    }
  }
}

/**
 * The radius packets are drawn with at zoom k, layout units: the layout's,
 * at least {@link PACKET_MIN_PX} across on screen, at most twice that.
 */
export function packetRadius(L: TopoLayout, k: number): number {
  return Math.min(Math.max(L.packetR, PACKET_MIN_PX / 2 / k), PACKET_MIN_PX / k);
}

/** Adds port p's queue bar, filled to `frac`, to the current path (grown by `pad` on every side). */
function barRect(ctx: Ctx, L: TopoLayout, p: number, frac: number, pad = 0) {
  const h = L.barMaxH[p] * frac;
  const w = L.barW[p];
  const y0 = L.barDir[p] > 0 ? L.barY[p] : L.barY[p] - h;
  ctx.rect(L.barX[p] - w / 2 - pad, y0 - pad, w + 2 * pad, h + 2 * pad);
}
