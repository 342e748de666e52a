// What a lesson step says is on screen, and whether its run shows it.
//
// A step may list statements (`shows`, scenarios/lessons/README.md): "a
// packet has been dropped at a first hop in pfabric", "a token has been
// sent in phost", "a flow is paused now in pdq". Each is checked against
// the run itself: the engine's trace is folded into `Facts` (how many of
// each kind of event happened by a time, what is paused and buffered at
// that time), and a statement holds when the facts at its step's time say
// so. The lesson test (tests/unit/lessons.test.ts) checks every shipped
// lesson this way; the lesson editor checks a draft before it is saved.
// Pure code, no DOM: it runs in the page, in a worker and in Node.

import { CONTROL_EVENTS, CONTROL_NAMES, TRACE_WIDTH, TraceCode, type Topology, type TopoPort } from '../engine/api';
import { LONG_FLOW_MIN, SHORT_FLOW_MAX } from '../views/stats';
import { bytesText, fmtTime } from '../views/format';
import { DEFAULT_PROTOCOL, type FieldError } from '../state/settings';

/**
 * Where on a path a port is: the engine's port roles in path order
 * (engine/core/src/net/mod.rs `PortRole`, the summary's `drops_by_hop`).
 */
export const HOPS = ['first_hop', 'uplink', 'downlink', 'last_hop'] as const;
/** One of HOPS. */
export type Hop = (typeof HOPS)[number];

/** Each hop in words (a single rack has only first and last hops). */
export const HOP_TEXT: Record<Hop, string> = {
  first_hop: "a first hop (a host's own link up to its switch)",
  uplink: "an uplink (a ToR's link up to a spine or core switch)",
  downlink: "a downlink (a spine or core switch's link down to a ToR)",
  last_hop: "a last hop (a ToR's link down to a host)",
};

const ROLE_HOP: Record<TopoPort['role'], Hop> = { host_nic: 'first_hop', up: 'uplink', down: 'downlink', edge: 'last_hop' };

/** Flow sizes as the summary buckets them: short below 100 KB, long above 10 MB. */
export const SIZES = ['short', 'medium', 'long'] as const;
/** One of SIZES. */
export type Size = (typeof SIZES)[number];

/** The size bucket of a flow of `bytes` (the engine's, metrics.rs). */
export function sizeOf(bytes: number): Size {
  return bytes < SHORT_FLOW_MAX ? 'short' : bytes <= LONG_FLOW_MIN ? 'medium' : 'long';
}

/**
 * What a statement can say, each read from the engine's trace (the kinds
 * of trace record, engine/core/src/trace.rs) or its state at the step's
 * time. `now`: true of the moment (else: has happened by then); `filters`:
 * the optional fields that narrow it.
 */
export const SHOWN = {
  drop: { now: false, filters: ['where'], text: 'a packet has been dropped' },
  ecn_mark: { now: false, filters: ['where'], text: 'a packet has been ECN-marked' },
  timeout: { now: false, filters: [], text: "a sender's retransmission timer has fired" },
  flow_started: { now: false, filters: [], text: 'a flow has started' },
  flow_completed: { now: false, filters: ['size'], text: 'a flow has completed' },
  control_message: { now: false, filters: ['message'], text: 'a control message has been sent' },
  decision: { now: false, filters: ['message'], text: 'a scheduling decision has been made (PASE arbitration, PDQ accept, rate or pause)' },
  link_down: { now: false, filters: [], text: 'a link has gone down' },
  flow_paused: { now: true, filters: [], text: 'a flow is paused (its latest decision is a pause)' },
  queue_occupied: { now: true, filters: ['where', 'bytes_at_least'], text: "a port's buffer holds packets" },
} as const satisfies Record<string, { now: boolean; filters: readonly string[]; text: string }>;

/** The kinds of statement (`what`). */
export type ShownKind = keyof typeof SHOWN;
/** Every kind, in the order the editor lists them. */
export const SHOWN_KINDS = Object.keys(SHOWN) as ShownKind[];

/** A control message or decision's name, as the engine names it (`CONTROL_NAMES`). */
export type ControlName = (typeof CONTROL_NAMES)[number];

/** One statement of a step: "by this step's time (or: at it), in this run, at least one such event". */
export interface Shows {
  what: ShownKind;
  /** The run that shows it: one of the lesson's protocols, or "branch". Omitted: any of the lesson's runs. */
  protocol?: string;
  /** drop, ecn_mark, queue_occupied: only at ports of this hop. */
  where?: Hop;
  /** control_message, decision: only this message (e.g. "token", "pdq_pause"). */
  message?: ControlName;
  /** flow_completed: only flows of this size bucket. */
  size?: Size;
  /** Events: at least this many by the step's time; flow_paused: at least this many flows paused (default 1). */
  at_least?: number;
  /** queue_occupied: a buffer holds at least this many bytes (default 1 byte: anything). */
  bytes_at_least?: number;
}

const FIELDS = ['what', 'protocol', 'where', 'message', 'size', 'at_least', 'bytes_at_least'];

/** Checks a step's `shows` list; `field` names it in messages (e.g. "steps[2].shows"), `runs` are the lesson's run names. */
export function validateShows(x: unknown, field: string, runs: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const e = (f: string, message: string) => errs.push({ field: f, message });
  if (!Array.isArray(x)) return [{ field, message: `must be a list of statements, e.g. [{"what": "drop", "protocol": "${DEFAULT_PROTOCOL}"}]` }];
  x.forEach((s: unknown, i: number) => {
    const f = `${field}[${i}]`;
    if (typeof s !== 'object' || s === null || Array.isArray(s)) return e(f, 'must be an object such as {"what": "drop"}');
    const o = s as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!FIELDS.includes(k)) e(`${f}.${k}`, `is not a field of a statement (fields: ${FIELDS.join(', ')})`);
    if (!(SHOWN_KINDS as unknown[]).includes(o.what)) return e(`${f}.what`, `must be one of ${SHOWN_KINDS.join(', ')}, got ${JSON.stringify(o.what)}`);
    const kind = SHOWN[o.what as ShownKind];
    const allowed: readonly string[] = kind.filters;
    const only = (k: string) => {
      if (o[k] === undefined) return false;
      if (allowed.includes(k)) return true;
      e(`${f}.${k}`, `does not apply to "${String(o.what)}"${allowed.length ? ` (it takes ${allowed.join(', ')})` : ''}`);
      return false;
    };
    if (o.protocol !== undefined && !runs.includes(o.protocol as string)) e(`${f}.protocol`, `must be one of the lesson's runs (${runs.join(', ')}), got ${JSON.stringify(o.protocol)}`);
    if (only('where') && !(HOPS as readonly unknown[]).includes(o.where)) e(`${f}.where`, `must be one of ${HOPS.join(', ')}, got ${JSON.stringify(o.where)}`);
    if (only('message') && !(CONTROL_NAMES as readonly unknown[]).includes(o.message)) e(`${f}.message`, `must be a message the engine names (${CONTROL_NAMES.join(', ')}), got ${JSON.stringify(o.message)}`);
    if (only('size') && !(SIZES as readonly unknown[]).includes(o.size)) e(`${f}.size`, `must be one of ${SIZES.join(', ')}, got ${JSON.stringify(o.size)}`);
    if (o.at_least !== undefined) {
      if (o.what === 'queue_occupied') e(`${f}.at_least`, 'does not apply to "queue_occupied" (use bytes_at_least)');
      else if (!(Number.isInteger(o.at_least) && (o.at_least as number) >= 1)) e(`${f}.at_least`, `must be a whole number of at least 1, got ${JSON.stringify(o.at_least)}`);
    }
    if (only('bytes_at_least') && !(typeof o.bytes_at_least === 'number' && Number.isFinite(o.bytes_at_least) && o.bytes_at_least >= 1)) e(`${f}.bytes_at_least`, `must be a number of bytes, at least 1, got ${JSON.stringify(o.bytes_at_least)}`);
  });
  return errs;
}

/** A statement in words, e.g. "a packet has been dropped at a first hop (...) in pfabric". */
export function showsText(s: Shows): string {
  const k = SHOWN[s.what];
  let t: string = k.text;
  if (s.what === 'control_message' && s.message) t = `a ${s.message} message has been sent`;
  if (s.what === 'decision' && s.message) t = `a ${s.message} decision has been made`;
  if (s.what === 'flow_completed' && s.size) t = `a ${s.size} flow has completed`;
  if (s.what === 'queue_occupied' && s.bytes_at_least && s.bytes_at_least > 1) t = `a port's buffer holds at least ${bytesText(s.bytes_at_least)}`;
  const n = s.at_least ?? 1;
  if (n > 1) t += s.what === 'flow_paused' ? ` (at least ${n} flows)` : ` (at least ${n} times)`;
  if (s.where) t += ` at ${HOP_TEXT[s.where]}`;
  if (k.now) t += ' now';
  return t + (s.protocol ? ` in ${s.protocol}` : ' in some run');
}

// ---------------------------------------------------------------------------
// Facts: what a run's trace says by a time.

/** What one run shows at one time, folded from its trace. */
export interface Facts {
  tPs: number;
  /** Events at or before tPs by key (`factKey`): "drop", "drop.first_hop", "control_message.token", "flow_completed.long". */
  counts: Record<string, number>;
  /** Flows paused at tPs: their latest decision is a pause and they have neither finished nor been given up. */
  pausedFlows: number;
  /** The fullest buffer at tPs among the ports of each hop (HOPS order), bytes. */
  queueBytesByHop: number[];
}

/** The key a statement's events are counted under in `Facts.counts` (null for statements about the moment). */
export function factKey(s: Pick<Shows, 'what' | 'where' | 'message' | 'size'>): string | null {
  if (SHOWN[s.what].now) return null;
  const q = s.what === 'drop' || s.what === 'ecn_mark' ? s.where : s.what === 'control_message' || s.what === 'decision' ? s.message : s.what === 'flow_completed' ? s.size : undefined;
  return q ? `${s.what}.${q}` : s.what;
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

/** What a run shows at each of some times. */
export interface RunFacts {
  /** One per time asked for, in that order (fewer when the wall-time bound cut the run short). */
  at: Facts[];
  /** First time of each event key over the whole part of the run looked at, ps. */
  firstPs: Record<string, number>;
  /** Every time asked for was reached (false: the wall-time bound cut it). */
  complete: boolean;
  /** Times of the drops in the part of the run looked at (the first DROP_TIMES_KEEP), ps. */
  dropPs: number[];
  /** How far the run was looked at, ps; `ended`: to its end (then this is its end). */
  reachedPs: number;
  ended: boolean;
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

// ---------------------------------------------------------------------------
// Judging statements.

/** Whether one run's facts bear out a statement (its protocol aside), and what they say instead. */
export function judge(s: Shows, f: Facts): { holds: boolean; saw: string } {
  if (s.what === 'flow_paused') {
    const n = s.at_least ?? 1;
    return { holds: f.pausedFlows >= n, saw: f.pausedFlows === 0 ? 'no flow is paused then' : `${f.pausedFlows} ${f.pausedFlows === 1 ? 'flow is' : 'flows are'} paused then` };
  }
  if (s.what === 'queue_occupied') {
    const b = s.where ? f.queueBytesByHop[HOPS.indexOf(s.where)] : Math.max(0, ...f.queueBytesByHop);
    const need = s.bytes_at_least ?? 1;
    return { holds: b >= need, saw: b === 0 ? 'every such buffer is empty then' : `the fullest such buffer holds ${bytesText(b)} then` };
  }
  const n = f.counts[factKey(s)!] ?? 0;
  const need = s.at_least ?? 1;
  return { holds: n >= need, saw: n === 0 ? 'none by then' : `${n} by then` };
}

/** A statement a run does not bear out at its step's time. */
export interface ShowsFailure {
  step: number;
  index: number;
  statement: Shows;
  /** Why, alone: "is false at t = 1.000 ms: none by then (the first is at t = 5.422 ms)". */
  why: string;
  /** The whole message: "steps[2].shows[0] (step 3, "Drops"): "a packet has been dropped ... in pfabric" " and `why`. */
  message: string;
}

/**
 * Judges every statement of every step, given each run's facts (by run
 * name: a protocol, or "branch"; `at` one per step). A statement without
 * a protocol holds when any run bears it out. Steps a run did not reach
 * (a wall-time bound) are not judged.
 */
export function checkShows(steps: readonly { at_us: number; title?: string; shows?: Shows[] }[], facts: Readonly<Record<string, RunFacts>>): ShowsFailure[] {
  const out: ShowsFailure[] = [];
  steps.forEach((st, i) => {
    (st.shows ?? []).forEach((s, k) => {
      const names = s.protocol !== undefined ? [s.protocol] : Object.keys(facts);
      const where = `steps[${i}].shows[${k}] (step ${i + 1}${st.title ? `, "${st.title}"` : ''})`;
      const missing = names.find((n) => !facts[n]);
      if (missing !== undefined) {
        const why = `names no run of the lesson ("${missing}"; runs: ${Object.keys(facts).join(', ')})`;
        return out.push({ step: i, index: k, statement: s, why, message: `${where}: ${why}` });
      }
      const seen = names.map((n) => ({ n, f: facts[n].at[i], first: facts[n].firstPs }));
      // A step the run did not reach (a wall-time bound) is not judged.
      if (seen.some((x) => !x.f)) return;
      const verdicts = seen.map((x) => ({ ...x, ...judge(s, x.f!) }));
      if (verdicts.some((v) => v.holds)) return;
      const key = factKey(s);
      const firsts = key ? verdicts.map((v) => v.first?.[key]).filter((x): x is number => x !== undefined) : [];
      const later = firsts.length ? ` (the first is at t = ${fmtTime(Math.min(...firsts))})` : key ? ' (and none later in the part of the run looked at)' : '';
      const saw = verdicts.length === 1 ? verdicts[0].saw : verdicts.map((v) => `${v.n}: ${v.saw}`).join('; ');
      const why = `is false at t = ${fmtTime(st.at_us * 1e6)}: ${saw}${later}`;
      out.push({ step: i, index: k, statement: s, why, message: `${where}: "${showsText(s)}" ${why}` });
    });
  });
  return out;
}
