// The animated network of one run: switches and hosts in tiers, a queue bar
// at every port, packets moving along links, drops and ECN marks flashing
// where they happen. Drawn on a canvas by a requestAnimationFrame loop that
// reads the latest props and the conductor's clock through a ref, so React
// does not re-render per packet or per frame; the loop skips frames where
// nothing changed. The canvas carries what it drew in data attributes
// (packet size, smallest port target, name size, in screen px) for the
// end-to-end test to measure.

import type { ColorBy } from './palette';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { select, zoom as d3zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import type { Topology } from '../engine/api';
import type { RunState } from '../state/run';
import { layoutTopology, pickPoint, pickPort, portName, PICK_RADIUS_PX, PORT_TARGET_PX, ROLE_NAMES, type TopoLayout } from './layout';
import { drawTopology, PacketScratch, type StaticLayer } from './topologyDraw';
import { downPortsAt } from './faults';
import { bytesText, plural, rateText } from '../format/format';
import './views.css';

/** Props of {@link TopologyView}. */
export interface TopologyViewProps {
  run: RunState;
  /** Packet colours: by flow (hashed palette), by packet kind, or by the priority the sending port ranked the packet by. */
  colorBy: ColorBy;
  selectedPort: number | null;
  onSelectPort: (port: number | null) => void;
  onSelectFlow: (flow: number) => void;
  /** The simulated time on screen, picoseconds: packets are placed where they are at this time. */
  nowPs: number;
  /**
   * Reads the time on screen now (the conductor's clock): when given, the
   * canvas follows it every animation frame and `nowPs` is not read, so
   * the page need not re-render for the picture to move.
   */
  clock?: () => number;
  /** Reads the run as it is now (the conductor's live state), ahead of `run` while playing; `run` when it gives nothing. */
  liveRun?: () => RunState | undefined;
  /** Bytes at which a queue bar is full (default: the largest occupancy seen so far). */
  bufferBytes?: number;
  /** Queue bars above this are red, and a tick marks it (DCTCP's K). */
  ecnThresholdBytes?: number;
  /** CSS height of the view, px (default 380). */
  height?: number;
}

interface Live {
  props: TopologyViewProps;
  layout: TopoLayout | null;
  layoutKey: string;
  layoutTopo: Topology | null;
  width: number;
  height: number;
  dpr: number;
  transform: ZoomTransform;
  maxSeen: number;
  scratch: PacketScratch;
  /** What the last frame drew, to skip identical frames. */
  lastSig: unknown[];
  hover: { x: number; y: number } | null;
}

/** What the canvas shows, in words (its text alternative): the run, the network, the packets in flight and the queues. */
export function networkText(run: RunState): string {
  const t = run.topology;
  if (!t) return `network of the ${run.protocol} run, loading`;
  const switches = t.nodes.length - t.n_hosts;
  let busy = 0;
  for (let i = 0; i < run.queueBytes.length; i++) if (run.queueBytes[i] > 0) busy++;
  return `network of the ${run.protocol} run: ${plural(t.n_hosts, 'host')} and ${plural(switches, 'switch', 'switches')}; ${busy} of ${plural(t.ports.length, 'port')} ${busy === 1 ? 'holds' : 'hold'} packets; ${run.done} of ${plural(run.total, 'flow')} finished (details in the event log and the summary table)`;
}

/**
 * The network of one run, animated at the display time: tiers of switches
 * above their hosts, queue bars per port, packets in flight, drops and
 * ECN marks. Wheel zooms, drag pans, a click selects the nearest port (for
 * the port inspector) or a packet's flow.
 */
export function TopologyView(props: TopologyViewProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const zoomRef = useRef<ZoomBehavior<HTMLCanvasElement, unknown> | null>(null);
  const live = useRef<Live>({
    props,
    layout: null,
    layoutKey: '',
    layoutTopo: null,
    width: 0,
    height: 0,
    dpr: 1,
    transform: zoomIdentity,
    maxSeen: 0,
    scratch: new PacketScratch(),
    lastSig: [],
    hover: null,
  });
  useLayoutEffect(() => {
    live.current.props = props;
  });

  useEffect(() => {
    const canvas = canvasRef.current!;
    const wrap = wrapRef.current!;
    const L = live.current;
    const ctx = canvas.getContext('2d', { alpha: false });
    // The static part of the picture (links, switches, hosts, names) is drawn once per layout and zoom.
    const off = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
    const offCtx = off.getContext('2d') as StaticLayer['ctx'] | null;
    const layer: StaticLayer | null = offCtx ? { canvas: off, ctx: offCtx, key: '', layout: null } : null;
    let raf = 0;
    // The operating system's reduced-motion setting, followed live (packets jump instead of gliding).
    const motion = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;
    let reduced = motion?.matches ?? false;
    const onMotion = (e: MediaQueryListEvent) => {
      reduced = e.matches;
      canvas.dataset.reducedMotion = String(reduced);
      L.lastSig = [];
    };
    canvas.dataset.reducedMotion = String(reduced);
    motion?.addEventListener('change', onMotion);

    const resize = () => {
      const r = wrap.getBoundingClientRect();
      const w = Math.max(50, Math.floor(r.width));
      const h = Math.max(50, Math.floor(r.height));
      const dpr = window.devicePixelRatio || 1;
      if (w === L.width && h === L.height && dpr === L.dpr) return;
      L.width = w;
      L.height = h;
      L.dpr = dpr;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
      L.lastSig = [];
    };
    const ro = new ResizeObserver(resize);
    ro.observe(wrap);
    resize();

    const layoutFor = (topo: Topology): TopoLayout => {
      const key = `${L.width}x${L.height}`;
      if (!L.layout || L.layoutTopo !== topo || L.layoutKey !== key) {
        if (L.layoutTopo !== topo) L.maxSeen = 0;
        L.layout = layoutTopology(topo, L.width, L.height);
        L.layoutTopo = topo;
        L.layoutKey = key;
      }
      return L.layout;
    };

    /** The run to draw and pick from: the live one when the page gives it. */
    const runNow = () => L.props.liveRun?.() ?? L.props.run;

    const frame = () => {
      raf = requestAnimationFrame(frame);
      if (!ctx) return;
      if ((window.devicePixelRatio || 1) !== L.dpr) resize();
      const p = L.props;
      const run = runNow();
      const topo = run.topology;
      const t = L.transform;
      const nowPs = p.clock ? p.clock() : p.nowPs;
      const sig = [run, topo, nowPs, p.colorBy, p.selectedPort, p.bufferBytes, p.ecnThresholdBytes, t, L.width, L.height, L.dpr];
      if (sig.length === L.lastSig.length && sig.every((v, i) => v === L.lastSig[i])) return;
      L.lastSig = sig;
      if (!topo) {
        ctx.setTransform(L.dpr, 0, 0, L.dpr, 0, 0);
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, L.width, L.height);
        ctx.fillStyle = '#555';
        ctx.font = '14px system-ui, sans-serif';
        ctx.textAlign = 'center';
        ctx.fillText(run.error ? 'the engine reported an error' : 'loading the network…', L.width / 2, L.height / 2);
        return;
      }
      const layout = layoutFor(topo);
      const q = run.queueBytes;
      for (let i = 0; i < q.length; i++) if (q[i] > L.maxSeen) L.maxSeen = q[i];
      drawTopology(
        ctx,
        layout,
        topo,
        run,
        {
          nowPs,
          colorBy: p.colorBy,
          reducedMotion: reduced,
          selectedPort: p.selectedPort,
          downPorts: downPortsAt(run.scenario, topo, nowPs),
          bufferBytes: p.bufferBytes && p.bufferBytes > 0 ? p.bufferBytes : Math.max(L.maxSeen, 1500),
          ecnThresholdBytes: p.ecnThresholdBytes,
          k: t.k,
          tx: t.x,
          ty: t.y,
          dpr: L.dpr,
          width: L.width,
          height: L.height,
        },
        L.scratch,
        layer,
      );
      updateTip();
      // What was drawn, in screen px (read by the end-to-end test).
      const measured = `${layout.width}x${layout.height}@${t.k}`;
      if (canvas.dataset.measured !== measured) {
        const k = t.k;
        canvas.dataset.measured = measured;
        canvas.dataset.packetPx = (2 * L.scratch.packetR * k).toFixed(1);
        canvas.dataset.portTargetPx = Math.min(2 * PICK_RADIUS_PX, layout.minPortGap * k).toFixed(1);
        canvas.dataset.hostLabelPx = (layout.hostFont * k).toFixed(1);
        canvas.dataset.switchLabelPx = (layout.switchFont * k).toFixed(1);
      }
    };

    // Hover tooltip: the port (and its queue) under the pointer.
    const updateTip = () => {
      const tip = tipRef.current;
      const topo = runNow().topology;
      if (!tip) return;
      if (!L.hover || !topo || !L.layout) {
        tip.style.display = 'none';
        return;
      }
      const [wx, wy] = L.transform.invert([L.hover.x, L.hover.y]);
      const port = pickPort(L.layout, wx, wy, 10 / L.transform.k);
      if (port < 0) {
        tip.style.display = 'none';
        return;
      }
      const spec = topo.ports[port];
      const qb = runNow().queueBytes[port] ?? 0;
      const rate = runNow().linkRates.get(port);
      const crowded = L.layout.portGap[port] * L.transform.k < PORT_TARGET_PX;
      tip.textContent = `${portName(topo, port)} · ${ROLE_NAMES[spec.role] ?? spec.role} · ${rateText(spec.rate)}b/s · ${bytesText(qb)} queued${rate !== undefined ? ` · RCP rate ${rateText(rate)}b/s` : ''}${crowded ? ' · click to zoom in' : ''}`;
      tip.style.display = 'block';
      tip.style.left = `${Math.max(0, Math.min(L.hover.x + 12, L.width - tip.offsetWidth - 4))}px`;
      tip.style.top = `${L.hover.y + 14 + 24 > L.height ? L.hover.y - 28 : L.hover.y + 14}px`;
    };

    const z = d3zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.5, 16])
      .clickDistance(4)
      .on('zoom', (e: { transform: ZoomTransform }) => {
        L.transform = e.transform;
      });
    zoomRef.current = z;
    const sel = select(canvas);
    sel.call(z);

    const onClick = (e: MouseEvent) => {
      const topo = runNow().topology;
      if (!topo || !L.layout) return;
      const rect = canvas.getBoundingClientRect();
      const [wx, wy] = L.transform.invert([e.clientX - rect.left, e.clientY - rect.top]);
      const k = L.transform.k;
      const s = L.scratch;
      const hit = pickPoint(s.xy, s.count, wx, wy, 5 / k);
      if (hit >= 0) {
        L.props.onSelectFlow(s.flow[hit]);
        return;
      }
      const port = pickPort(L.layout, wx, wy, PICK_RADIUS_PX / k);
      // Ports packed closer than a finger's width: zoom in around the click first, so the next click picks one surely.
      if (port >= 0 && L.layout.portGap[port] * k < PORT_TARGET_PX && k < 16) {
        const k2 = Math.min(16, (1.25 * PORT_TARGET_PX) / Math.max(L.layout.portGap[port], 1e-3));
        z.scaleTo(sel, k2, [e.clientX - rect.left, e.clientY - rect.top]);
        return;
      }
      L.props.onSelectPort(port >= 0 ? port : null);
    };
    const onMove = (e: MouseEvent) => {
      const rect = canvas.getBoundingClientRect();
      L.hover = { x: e.clientX - rect.left, y: e.clientY - rect.top };
      updateTip();
    };
    const onLeave = () => {
      L.hover = null;
      updateTip();
    };
    canvas.addEventListener('click', onClick);
    canvas.addEventListener('mousemove', onMove);
    canvas.addEventListener('mouseleave', onLeave);
    raf = requestAnimationFrame(frame);
    return () => {
      cancelAnimationFrame(raf);
      motion?.removeEventListener('change', onMotion);
      ro.disconnect();
      sel.on('.zoom', null);
      canvas.removeEventListener('click', onClick);
      canvas.removeEventListener('mousemove', onMove);
      canvas.removeEventListener('mouseleave', onLeave);
    };
  }, []);

  const resetZoom = () => {
    const c = canvasRef.current;
    if (c && zoomRef.current) select(c).call(zoomRef.current.transform, zoomIdentity);
  };

  return (
    <div className="topology-wrap" ref={wrapRef} style={props.height ? { height: props.height } : undefined}>
      <canvas data-testid="topology" ref={canvasRef} className="topology-canvas" role="img" aria-label={networkText(props.run)} />
      <button type="button" className="topology-reset" onClick={resetZoom} title="reset zoom and pan (wheel zooms, drag pans)">
        ⤢
      </button>
      <div className="topology-tip" ref={tipRef} />
    </div>
  );
}
