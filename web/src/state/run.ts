// What the page knows about one run (one protocol panel): accumulated from
// the worker's frames, read by the views. Pure data and pure updates, no DOM.

import type { FlowInfo, Frame, PortSnapshot, Summary, Topology } from '../engine/api';
import { CONTROL_NAMES, TRACE_WIDTH, TraceCode } from '../engine/api';
import { dropWhyText } from '../format/format';
import { decodeCompletions, departures, traceLength, traceRecord, type CompletedFlow, type Departure, type TraceRecord } from '../engine/frame';

/** A drop or an ECN mark to flash on the topology where it happened. */
export interface PortEvent {
  tPs: number;
  port: number;
  flow: number;
  kind: 'drop' | 'mark';
  /** For drops: why, in words ('buffer full', 'least urgent' (pFabric), ...: `dropWhyText`). */
  reason?: string;
}

/** One point of the time series charts. */
export interface SeriesPoint {
  tPs: number;
  /** Bytes buffered in the whole network. */
  queuedBytes: number;
  /** Largest buffer occupancy of any port, bytes. */
  maxPortBytes: number;
  /** Flow bytes completed per second since the previous point, Gbps (NaN after a seek: unknown). */
  goodputGbps: number;
  /**
   * Nothing was sampled between the previous point and this one (a seek, or
   * a frame more than SERIES_MAX_SPAN_PS after it: full speed, a lesson's
   * jump, fast play): the charts draw a gap there, not a line.
   */
  gap: boolean;
}

/** Points of a time series further apart than this (simulated) are not joined by a line, ps (50 us: about ten base RTTs of the bundled fabrics). */
export const SERIES_MAX_SPAN_PS = 50_000_000;

/** A scheduling decision about a flow (PASE's arbitrators, PDQ's switches). */
export interface FlowDecision {
  tPs: number;
  /** The decision's name (CONTROL_NAMES). */
  what: string;
  /** Priority queue decided (0 is served first), when one is. */
  queue: number | null;
  /** Rate decided, bits per second (0: paused). */
  rateBps: number;
  /** The link it is about, when one is. */
  port: number | null;
}

/** Per flow, its latest scheduling decisions and when it finished. */
export interface FlowControl {
  /** At most DECISIONS_KEEP, oldest first. */
  decisions: FlowDecision[];
  /** How many decisions the flow has had in all. */
  count: number;
  finishedPs: number | null;
}

/** Decisions kept per flow (the view shows the latest one not after the time on screen). */
export const DECISIONS_KEEP = 8;

/** How long (simulated) drops and marks stay visible, picoseconds. */
export const EVENT_LINGER_PS = 20_000_000; // 20 us
/** Most recent trace records kept for the event log. */
export const LOG_KEEP = 200;

/** The state of one run as the views see it. */
export interface RunState {
  /** The run's label: its protocol, or a branch's "pfabric · what if ..." (unique among the runs). */
  protocol: string;
  /** The protocol the engine runs (for a branch, not its label). */
  engineProtocol: string;
  topology: Topology | null;
  scenario: Record<string, unknown> | null;
  nowPs: number;
  /** Time of the next pending event (-1 when none). */
  nextPs: number;
  events: number;
  done: number;
  total: number;
  running: boolean;
  /** Wall time spent simulating, ms (sum over frames). */
  wallMs: number;
  queueBytes: Float64Array;
  /** Every completed flow, in completion order. */
  flows: CompletedFlow[];
  /** Packets that left a port and have not yet fully arrived. */
  inFlight: Departure[];
  /** Recent drops and ECN marks. */
  portEvents: PortEvent[];
  /** The last LOG_KEEP trace records, oldest first. */
  log: TraceRecord[];
  /** The last LOG_KEEP notable records (everything but enqueues and dequeues: drops, marks, starts, finishes, timeouts, control), oldest first, taken from every frame in full. */
  notable: TraceRecord[];
  /** Per-port rate set by RCP switches (bits per second), when any. */
  linkRates: Map<number, number>;
  /** Scheduling decisions by flow (from Decision records), for the control-plane panel. */
  control: ReadonlyMap<number, FlowControl>;
  series: SeriesPoint[];
  inspect: PortSnapshot | null;
  /** The flow the user clicked, as the engine last reported it. */
  flowInfo: FlowInfo | null;
  summary: Summary | null;
  flowsCsv: string;
  summaryCsv: string;
  error: string | null;
}

/** A fresh run state. */
export function emptyRun(protocol: string, engineProtocol: string = protocol): RunState {
  return {
    protocol,
    engineProtocol,
    topology: null,
    scenario: null,
    nowPs: 0,
    nextPs: 0,
    events: 0,
    done: 0,
    total: 0,
    running: false,
    wallMs: 0,
    queueBytes: new Float64Array(0),
    flows: [],
    inFlight: [],
    portEvents: [],
    log: [],
    notable: [],
    linkRates: new Map(),
    control: new Map(),
    series: [],
    inspect: null,
    flowInfo: null,
    summary: null,
    flowsCsv: '',
    summaryCsv: '',
    error: null,
  };
}

/**
 * Folds one frame into the run state (returns a new object; arrays that
 * grow are shared). Packets and drops are kept while they still matter at
 * `displayPs`, the time on screen, which may trail the worker's time.
 */
export function applyFrame(s: RunState, f: Frame, displayPs: number = f.nowPs): RunState {
  // The trace is read where it lies (flat numbers): a frame after a seek
  // carries the whole lead-in, up to 20,000 records, and decoding each
  // into an object took most of the page's longest task. Only what is
  // kept is decoded: packets still on a wire, drops and marks, decisions,
  // the log's tail.
  const a = f.trace;
  const n = traceLength(a);
  const fresh = decodeCompletions(f.completions);
  const flows = fresh.length ? s.flows.concat(fresh) : s.flows;
  const inFlight: Departure[] = s.topology ? s.inFlight.filter((d) => d.endPs > displayPs).concat(departures(a, displayPs)) : [];
  const portEvents = s.portEvents.filter((e) => displayPs - e.tPs < EVENT_LINGER_PS);
  let linkRates = s.linkRates;
  const control: TraceRecord[] = [];
  // Records other than enqueues and dequeues (the notable events).
  const notableAt: number[] = [];
  for (let i = 0, o = 0; i < n; i++, o += TRACE_WIDTH) {
    const code = a[o + 1];
    if (code === TraceCode.Enqueue || code === TraceCode.Dequeue) continue;
    notableAt.push(i);
    if (code === TraceCode.Drop) {
      portEvents.push({ tPs: a[o], port: a[o + 2], flow: a[o + 3], kind: 'drop', reason: dropWhyText(a[o + 6]) });
    } else if (code === TraceCode.EcnMark) portEvents.push({ tPs: a[o], port: a[o + 2], flow: a[o + 3], kind: 'mark' });
    else if (code === TraceCode.LinkRate) {
      if (linkRates === s.linkRates) linkRates = new Map(linkRates);
      linkRates.set(a[o + 2], a[o + 6]);
    } else if (code === TraceCode.Decision || code === TraceCode.FlowFinish) control.push(traceRecord(a, i));
  }
  const controlState = foldDecisions(s.control, control, displayPs);
  const tail: TraceRecord[] = [];
  for (let i = Math.max(0, n - LOG_KEEP); i < n; i++) tail.push(traceRecord(a, i));
  const log = n ? s.log.concat(tail).slice(-LOG_KEEP) : s.log;
  const freshNotable = notableAt.slice(-LOG_KEEP).map((i) => traceRecord(a, i));
  const notable = freshNotable.length ? s.notable.concat(freshNotable).slice(-LOG_KEEP) : s.notable;
  let queued = 0;
  let maxPort = 0;
  for (const b of f.queueBytes) {
    queued += b;
    if (b > maxPort) maxPort = b;
  }
  const last = s.series[s.series.length - 1];
  const dt = last ? f.nowPs - last.tPs : f.nowPs;
  let bytes = 0;
  for (const c of fresh) bytes += c.sizeBytes;
  // After a seek the frame carries every completion so far: no rate can be read from it.
  const goodputGbps = f.reset && last !== undefined ? NaN : dt > 0 ? (bytes * 8) / (dt * 1e-12) / 1e9 : 0;
  const gap = last !== undefined && (f.reset || f.nowPs - last.tPs > SERIES_MAX_SPAN_PS);
  const series = f.nowPs > (last?.tPs ?? -1) ? s.series.concat([{ tPs: f.nowPs, queuedBytes: queued, maxPortBytes: maxPort, goodputGbps, gap }]) : s.series;
  return {
    ...s,
    nowPs: f.nowPs,
    nextPs: f.nextPs,
    events: f.events,
    done: f.done,
    total: f.total,
    running: f.running,
    wallMs: s.wallMs + f.wallMs,
    queueBytes: f.queueBytes,
    flows,
    inFlight,
    portEvents,
    log,
    notable,
    linkRates,
    control: controlState,
    series: series.length > 4000 ? thin(series) : series,
    inspect: f.inspect ?? s.inspect,
    error: null,
  };
}

/** How long (simulated) a finished flow stays in the control-plane panel, picoseconds. */
const CONTROL_LINGER_PS = 50_000_000; // 50 us

/**
 * Adds the frame's Decision and FlowFinish records to the per-flow control
 * state (a new map only when something changed), and forgets flows that
 * finished more than CONTROL_LINGER_PS before `displayPs`.
 */
export function foldDecisions(prev: ReadonlyMap<number, FlowControl>, recs: readonly TraceRecord[], displayPs: number): ReadonlyMap<number, FlowControl> {
  let m: Map<number, FlowControl> | null = null;
  const own = () => (m ??= new Map(prev));
  for (const r of recs) {
    if (r.code === TraceCode.Decision) {
      const map = own();
      const c = map.get(r.flow);
      const d: FlowDecision = { tPs: r.tPs, what: CONTROL_NAMES[r.aux] ?? 'other', queue: r.seq >= 0 ? r.seq : null, rateBps: r.prio, port: r.port >= 0 ? r.port : null };
      const decisions = c ? c.decisions.concat([d]).slice(-DECISIONS_KEEP) : [d];
      map.set(r.flow, { decisions, count: (c?.count ?? 0) + 1, finishedPs: c?.finishedPs ?? null });
    } else if (r.code === TraceCode.FlowFinish) {
      const c = (m ?? prev).get(r.flow);
      if (c) own().set(r.flow, { ...c, finishedPs: r.tPs });
    }
  }
  for (const [flow, c] of m ?? prev) {
    if (c.finishedPs !== null && displayPs - c.finishedPs > CONTROL_LINGER_PS) own().delete(flow);
  }
  return m ?? prev;
}

/** Halves a long series by keeping every other point (the newest kept); a gap before a dropped point moves to the next point kept. */
export function thin(xs: SeriesPoint[]): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  for (let i = xs.length - 1; i >= 0; i -= 2) out.push(i > 0 && xs[i - 1].gap && !xs[i].gap ? { ...xs[i], gap: true } : xs[i]);
  return out.reverse();
}

/**
 * A flow-level run (Ideal) finishes at once; while packet-level runs are
 * still going, show only the flows it completed by the time on screen, so
 * side-by-side CDFs compare like with like. Completions come in end-time
 * order, so the visible ones are a prefix.
 */
export function revealedCount(r: RunState, displayPs: number): number {
  let lo = 0;
  let hi = r.flows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const f = r.flows[mid];
    if (f.startPs + f.fctPs <= displayPs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
