// What a run's trace says by a time: the engine's trace and completions
// folded into counts per kind of event, what is paused and how full the
// buffers are at the times asked for. Lesson statements are judged on these
// facts (lessons/shows.ts); the worker collects them (the `facts` request).
// Pure code, no DOM: it runs in the page, in a worker and in Node.

import { CONTROL_EVENTS, CONTROL_NAMES, TRACE_WIDTH, TraceCode, type Facts, type RunFacts, type Topology, type TopoPort } from './api';
import { FLOW_SIZE_BOUNDS } from './names.generated';

/**
 * Where on a path a port is: the engine's port roles in path order
 * (engine/core/src/net/mod.rs `PortRole`, the summary's `drops_by_hop`).
 */
export const HOPS = ['first_hop', 'uplink', 'downlink', 'last_hop'] as const;
/** One of HOPS. */
export type Hop = (typeof HOPS)[number];

const ROLE_HOP: Record<TopoPort['role'], Hop> = { host_nic: 'first_hop', up: 'uplink', down: 'downlink', edge: 'last_hop' };

/** Flow sizes as the engine's summary buckets them (`FLOW_SIZE_BOUNDS`: short below 100 KB, long above 10 MB). */
export const SIZES = ['short', 'medium', 'long'] as const;
/** One of SIZES. */
export type Size = (typeof SIZES)[number];

/** The size bucket of a flow of `bytes` (the engine's summary's, engine/core/src/metrics.rs). */
export function sizeOf(bytes: number): Size {
  return bytes < FLOW_SIZE_BOUNDS.short_flow_max ? 'short' : bytes <= FLOW_SIZE_BOUNDS.long_flow_min ? 'medium' : 'long';
}

/** Drop times a `FactsFolder` keeps (the scrubber draws them as ticks). */
export const DROP_TIMES_KEEP = 20_000;

/** Control messages after which a flow is given up (it is then not paused): the ones the engine flags `gives_up`. */
const GIVE_UP = new Set<string>(Object.values(CONTROL_EVENTS).filter((e) => e.gives_up).map((e) => e.name));

/**
 * Folds a run's trace and completions, in time order, into counts; takes
 * `Facts` at the times asked for. Events of a what-if branch count from
 * its divergence (the engine traces a branch from there).
 */
export class FactsFolder {
  private counts: Record<string, number> = {};
  /** First time of each key, ps. */
  readonly firstPs: Record<string, number> = {};
  private paused = new Set<number>();
  private over = new Set<number>();
  private ends: number[] = [];
  private sizes: Size[] = [];
  /** Drop times, the first DROP_TIMES_KEEP of them (the scrubber's ticks). */
  readonly dropPs: number[] = [];
  private hopOf: (Hop | null)[];

  constructor(topology: Topology) {
    this.hopOf = topology.ports.map((p) => ROLE_HOP[p.role] ?? null);
  }

  private add(key: string, tPs: number) {
    this.counts[key] = (this.counts[key] ?? 0) + 1;
    if (!(key in this.firstPs) || tPs < this.firstPs[key]) this.firstPs[key] = tPs;
  }

  /** Folds flat trace records (TRACE_WIDTH numbers each, api.ts). */
  foldTrace(a: ArrayLike<number>) {
    for (let o = 0; o + TRACE_WIDTH <= a.length; o += TRACE_WIDTH) {
      const t = a[o];
      const code = a[o + 1];
      const flow = a[o + 3];
      switch (code) {
        case TraceCode.Drop:
        case TraceCode.EcnMark: {
          const what = code === TraceCode.Drop ? 'drop' : 'ecn_mark';
          if (code === TraceCode.Drop && this.dropPs.length < DROP_TIMES_KEEP) this.dropPs.push(t);
          this.add(what, t);
          const hop = this.hopOf[a[o + 2]];
          if (hop) this.add(`${what}.${hop}`, t);
          break;
        }
        case TraceCode.Timeout:
          this.add('timeout', t);
          break;
        case TraceCode.FlowStart:
          this.add('flow_started', t);
          break;
        case TraceCode.FlowFinish:
          this.over.add(flow);
          this.paused.delete(flow);
          break;
        case TraceCode.Fault:
          if (a[o + 6] === 0) this.add('link_down', t);
          break;
        case TraceCode.Control:
        case TraceCode.Decision: {
          const name = CONTROL_NAMES[a[o + 6]];
          const what = code === TraceCode.Control ? 'control_message' : 'decision';
          this.add(what, t);
          if (name) this.add(`${what}.${name}`, t);
          if (name && GIVE_UP.has(name)) {
            this.over.add(flow);
            this.paused.delete(flow);
          }
          // A decision's rate is its priority column: 0 pauses the flow.
          if (code === TraceCode.Decision && !this.over.has(flow)) {
            if (a[o + 7] === 0) this.paused.add(flow);
            else this.paused.delete(flow);
          }
          break;
        }
      }
    }
  }

  /** Folds completed-flow records (FLOW_WIDTH numbers each: flow, size, start, fct, ...). */
  foldCompletions(a: ArrayLike<number>) {
    for (let o = 0; o + 7 <= a.length; o += 7) {
      if (!(a[o + 3] >= 0)) continue;
      const end = a[o + 2] + a[o + 3];
      const size = sizeOf(a[o + 1]);
      this.ends.push(end);
      this.sizes.push(size);
      for (const k of ['flow_completed', `flow_completed.${size}`]) if (!(k in this.firstPs) || end < this.firstPs[k]) this.firstPs[k] = end;
    }
  }

  /**
   * The facts at `tPs`, given the buffers then (bytes per port). Call it
   * once everything up to `tPs` and nothing later is folded (a flow-level
   * run reports all its completions at once: those after tPs are left out).
   */
  snapshot(tPs: number, queueBytes: ArrayLike<number>): Facts {
    const counts = { ...this.counts };
    for (let i = 0; i < this.ends.length; i++) {
      if (this.ends[i] > tPs) continue;
      counts.flow_completed = (counts.flow_completed ?? 0) + 1;
      const k = `flow_completed.${this.sizes[i]}`;
      counts[k] = (counts[k] ?? 0) + 1;
    }
    const queueBytesByHop = HOPS.map(() => 0);
    for (let p = 0; p < queueBytes.length; p++) {
      const h = this.hopOf[p];
      if (h) queueBytesByHop[HOPS.indexOf(h)] = Math.max(queueBytesByHop[HOPS.indexOf(h)], queueBytes[p]);
    }
    return { tPs, counts, pausedFlows: this.paused.size, queueBytesByHop };
  }
}

/** The engine calls `collectFacts` needs (the WebAssembly `Engine`, or a test's). */
export interface FactsEngine {
  advance(maxEvents: number, untilPs: number, stopOnCompletion: boolean): boolean;
  take_trace(): ArrayLike<number>;
  take_completions(): ArrayLike<number>;
  queue_bytes(): ArrayLike<number>;
  next_event_ps(): number;
  now_ps(): number;
}

/** Events per engine call while collecting (the trace of one call stays a few MB). */
const CHUNK_EVENTS = 20_000;

/**
 * Runs a fresh engine (trace on) through the times `atPs` (nondecreasing)
 * and takes the facts at each; then, while `lookAheadMs` of wall time
 * lasts, on to the run's end, so that `firstPs` also says when events the
 * last times did not have first happen (for messages such as "the first
 * drop is at 5.4 ms"). `now` is a wall clock in ms.
 */
export function collectFacts(e: FactsEngine, topology: Topology, atPs: readonly number[], opts: { maxWallMs?: number; lookAheadMs?: number; now?: () => number } = {}): RunFacts {
  const now = opts.now ?? (() => performance.now());
  const t0 = now();
  const maxWall = opts.maxWallMs ?? Infinity;
  const folder = new FactsFolder(topology);
  const at: Facts[] = [];
  let alive = true;
  const step = (untilPs: number) => {
    alive = e.advance(CHUNK_EVENTS, untilPs, false);
    folder.foldTrace(e.take_trace());
    folder.foldCompletions(e.take_completions());
  };
  for (const t of atPs) {
    for (;;) {
      const next = e.next_event_ps();
      if (!alive || next < 0 || next > t) break;
      if (now() - t0 > maxWall) return { at, firstPs: folder.firstPs, complete: false, dropPs: folder.dropPs, reachedPs: e.now_ps(), ended: false };
      step(t);
    }
    // A flow-level run has every completion from the start: the snapshot counts those up to t.
    folder.foldCompletions(e.take_completions());
    at.push(folder.snapshot(t, e.queue_bytes()));
  }
  const t1 = now();
  while (alive && e.next_event_ps() >= 0 && now() - t1 < (opts.lookAheadMs ?? 0) && now() - t0 <= maxWall) step(Infinity);
  return { at, firstPs: folder.firstPs, complete: true, dropPs: folder.dropPs, reachedPs: e.now_ps(), ended: !alive || e.next_event_ps() < 0 };
}
