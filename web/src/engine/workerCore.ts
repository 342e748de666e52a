// The simulation worker's request handling, apart from the worker itself so
// it runs in Node too (tests/unit/worker-fuzz.test.ts): it owns one engine
// (the Rust core compiled to WebAssembly), checks each message from the page
// before acting on it, and posts exactly one reply per message (a
// WorkerResponse, api.ts: the answer, or an error). sim.worker.ts loads the
// WebAssembly, wires `self.onmessage` to `handle` and schedules exploration.

import type { Engine } from '../engine-glue/dcsim_wasm.js';
import type { AdvanceRequest, Frame, PortSnapshot, RunEnd, WorkerFailure, WorkerRequest, WorkerResponse } from './api';
import { NAV_EVENTS, TRACE_WIDTH } from './api';
import { collectFacts } from './facts';
import { findEvent } from './find';

/** Most trace records one frame carries; the rest are counted, not sent. */
const MAX_TRACE_RECORDS = 20_000;

/** Posts a message to the page; typed arrays in `transfer` are moved, not copied. */
export type Post = (msg: WorkerResponse, transfer?: Transferable[]) => void;

/** What a request's checks name when it has no valid type (not an object, an unknown type). */
type During = WorkerFailure['during'];

/** An error reply to request `id` (null: no valid id, or unasked, while exploring). */
export function failure(id: number | null, e: unknown, during: During): WorkerResponse {
  const message = e instanceof Error ? e.message : String(e);
  return id === null ? { type: 'error', message, during } : { type: 'error', message, during, id };
}

/** The message's id when it is a valid one (a safe integer), else null. */
export function envelopeId(data: unknown): number | null {
  if (data === null || typeof data !== 'object') return null;
  const id = (data as { id?: unknown }).id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

// ---------------------------------------------------------------------------
// Checking a message. Each field's check returns null when the value is
// acceptable, else the reason; the first failing field is reported as
// `invalid <type> request: <field> <reason>, got <value>`.

type Check = (v: unknown) => string | null;

const isNum = (v: unknown): v is number => typeof v === 'number';
const finiteAtLeast0: Check = (v) => (isNum(v) && Number.isFinite(v) && v >= 0 ? null : 'must be a finite number >= 0');
// NaN fails every comparison, so these refuse it too; Infinity means "no bound".
const atLeast0: Check = (v) => (isNum(v) && v >= 0 ? null : 'must be a number >= 0 (Infinity: no bound)');
const positive: Check = (v) => (isNum(v) && v > 0 ? null : 'must be a number > 0 (Infinity: no bound)');
const positiveFinite: Check = (v) => (isNum(v) && Number.isFinite(v) && v > 0 ? null : 'must be a finite number > 0');
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'must be true or false');
/** A port or flow number (the engine takes a u32). */
const index: Check = (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0xffff_ffff ? null : 'must be an integer from 0 to 4294967295');
const object: Check = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? null : 'must be an object (a scenario)');
const array: Check = (v) => (Array.isArray(v) ? null : 'must be an array (of scenarios)');
const optional = (c: Check): Check => (v) => (v === undefined ? null : c(v));
const orNull = (c: Check): Check => (v) => (v === null ? null : (c(v) && `${c(v)}, or null`));
const oneOf = (xs: readonly string[]): Check => (v) => (typeof v === 'string' && xs.includes(v) ? null : `must be one of ${xs.join(', ')}`);
/** Times in ps, finite, >= 0, nondecreasing, at most 1,000 of them. */
const times: Check = (v) =>
  Array.isArray(v) && v.length <= 1000 && v.every((t, i) => isNum(t) && Number.isFinite(t) && t >= 0 && (i === 0 || t >= (v[i - 1] as number)))
    ? null
    : 'must be a list of at most 1000 finite times >= 0 in nondecreasing order';

/** The fields of each request type and what each must hold (api.ts `WorkerRequest`). */
export const REQUEST_FIELDS: { readonly [T in WorkerRequest['type']]: Readonly<Record<string, Check>> } = {
  load: { scenario: object, trace: boolean, budgetBytes: optional(positiveFinite) },
  budget: { bytes: positiveFinite },
  seek: { tPs: finiteAtLeast0 },
  advance: { untilPs: atLeast0, maxEvents: positive, stopOnCompletion: boolean, maxWallMs: atLeast0 },
  inspect: { port: orNull(index) },
  trace: { on: boolean },
  explore: { on: boolean },
  flow: { flow: index },
  finish: {},
  check: { scenarios: array },
  facts: { scenario: object, atPs: times, maxWallMs: atLeast0 },
  find: { event: oneOf(NAV_EVENTS), direction: oneOf(['next', 'previous']), fromPs: finiteAtLeast0, maxWallMs: atLeast0 },
};

const TYPES = Object.keys(REQUEST_FIELDS) as WorkerRequest['type'][];

/** A value as an error message shows it (short). */
function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'bigint') return `${v}n (a bigint)`;
  if (v === null || typeof v === 'boolean' || v === undefined) return String(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  return `a value of type ${typeof v}`;
}

/** A checked message: the request to carry out, or the error to reply with. */
export type Checked = { ok: true; id: number; req: WorkerRequest } | { ok: false; id: number | null; during: During; message: string };

/**
 * Checks a message from the page: an object with a safe-integer `id`, a
 * known `type`, and that type's fields with the types and ranges the
 * engine needs (extra fields are ignored). The error names the first field
 * that is wrong and why.
 */
export function checkEnvelope(data: unknown): Checked {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, id: null, during: 'request', message: `invalid request: request must be an object with an id and a type, got ${show(data)}` };
  }
  const m = data as Record<string, unknown>;
  const type = TYPES.includes(m.type as WorkerRequest['type']) ? (m.type as WorkerRequest['type']) : null;
  const what = type ? `invalid ${type} request` : 'invalid request';
  const id = envelopeId(m);
  if (id === null) {
    const got = Object.hasOwn(m, 'id') ? `got ${show(m.id)}` : 'it is missing';
    return { ok: false, id: null, during: type ?? 'request', message: `${what}: id must be a safe integer, ${got}` };
  }
  if (!type) {
    const got = Object.hasOwn(m, 'type') ? `got ${show(m.type)}` : 'it is missing';
    return { ok: false, id, during: 'request', message: `${what}: type must be one of ${TYPES.join(', ')}; ${got}` };
  }
  for (const [field, check] of Object.entries(REQUEST_FIELDS[type])) {
    const v = Object.hasOwn(m, field) ? m[field] : undefined;
    const why = check(v);
    if (why !== null) {
      const got = Object.hasOwn(m, field) ? `got ${show(v)}` : 'it is missing';
      return { ok: false, id, during: type, message: `${what}: ${field} ${why}, ${got}` };
    }
  }
  const { id: _, ...req } = m;
  return { ok: true, id, req: req as WorkerRequest };
}

// ---------------------------------------------------------------------------

/** The inspected port's buffer and what its link carried for nothing. */
function inspectSnapshot(e: Engine, port: number): PortSnapshot {
  const [wastedBytes, sentBytes] = e.port_waste(port);
  return { port, subqueueBytes: new Float64Array(e.subqueue_bytes(port)), packets: new Float64Array(e.port_packets(port)), dropFirst: e.port_drop_first(port), wastedBytes, sentBytes };
}

/** The engine class (the WebAssembly module's `Engine`, initialized). */
export type EngineClass = typeof Engine;

/** The request handling of one worker. */
export interface WorkerCore {
  /**
   * Checks and carries out one message from the page and posts its one
   * reply (an error naming the field when the message is malformed, or
   * when the engine refuses it). Never throws.
   */
  handle(data: unknown): void;
  /** A run is loaded (there is something to explore). */
  readonly loaded: boolean;
  /** A run is loaded and the page lets the worker explore it (the `explore` request; on until told otherwise). */
  readonly mayExplore: boolean;
  /**
   * One exploration slice of at most `maxEvents` events (time travel's
   * checkpoints, while the page is idle); posts `explored`, or an error
   * without an id. True while there is more to explore.
   */
  explore(maxEvents: number): boolean;
}

/** The worker's request handling around the engine class `E`, replying through `post`. */
export function createWorkerCore(E: EngineClass, post: Post): WorkerCore {
  let engine: Engine | null = null;
  let inspectPort: number | null = null;
  let exploreOn = true;

  type Reply = [WorkerResponse, Transferable[]];

  function frame(wallMs: number, reset = false, replayed = 0): Frame {
    const e = engine!;
    let trace = new Float64Array(e.take_trace());
    let traceDropped = 0;
    if (trace.length > MAX_TRACE_RECORDS * TRACE_WIDTH) {
      traceDropped = trace.length / TRACE_WIDTH - MAX_TRACE_RECORDS;
      // Keep the latest records: they are what is on screen now.
      trace = trace.slice(trace.length - MAX_TRACE_RECORDS * TRACE_WIDTH);
    }
    const [done, total] = e.progress();
    const nextPs = e.next_event_ps();
    return {
      type: 'frame',
      reset,
      replayed,
      timeline: JSON.parse(e.timeline_json()),
      nowPs: e.now_ps(),
      nextPs,
      events: e.events(),
      done,
      total,
      running: !e.finished() && (nextPs >= 0 || done < total),
      end: null,
      queueBytes: new Float64Array(e.queue_bytes()),
      trace,
      traceDropped,
      completions: new Float64Array(e.take_completions()),
      inspect: inspectPort === null ? null : inspectSnapshot(e, inspectPort),
      wallMs,
    };
  }

  function frameReply(id: number, f: Frame): Reply {
    const t: Transferable[] = [f.queueBytes.buffer, f.trace.buffer, f.completions.buffer];
    if (f.inspect) t.push(f.inspect.subqueueBytes.buffer, f.inspect.packets.buffer);
    return [{ ...f, id }, t];
  }

  /** The run's summary and CSVs (the engine keeps them once computed). */
  function end(wallMs: number): RunEnd {
    const e = engine!;
    const t0 = performance.now();
    const summary = JSON.parse(e.finish());
    return { summary, flowsCsv: e.flows_csv(), summaryCsv: e.summary_csv(), wallMs: wallMs + performance.now() - t0 };
  }

  /** A frame of the run as it is; at the run's end it carries the summary. */
  function frameAt(wall: number, reset = false, replayed = 0): Frame {
    const f = frame(wall, reset, replayed);
    if (!f.running) f.end = end(wall);
    return f;
  }

  function advance(req: AdvanceRequest): Frame {
    const e = engine!;
    const t0 = performance.now();
    let alive = true;
    let left = req.maxEvents;
    // Slices of events, checking the wall clock between them.
    const slice = req.stopOnCompletion || Number.isFinite(req.untilPs) ? 2048 : 65536;
    for (;;) {
      const n = Math.min(left, slice);
      const before = e.events();
      alive = e.advance(n, req.untilPs, req.stopOnCompletion);
      const ran = e.events() - before;
      left -= ran;
      if (!alive || left <= 0 || ran < n) break;
      if (performance.now() - t0 >= req.maxWallMs) break;
    }
    const wall = performance.now() - t0;
    const f = frame(wall);
    f.running = alive;
    if (!alive) f.end = end(wall);
    return f;
  }

  function loaded(): Engine {
    if (!engine) throw new Error('no scenario loaded');
    return engine;
  }

  /** Carries out one checked request: its one reply (api.ts `Replies`). */
  function answer(id: number, req: WorkerRequest): Reply {
    switch (req.type) {
      case 'load': {
        const old = engine;
        engine = null;
        try {
          old?.free();
        } catch {
          // An engine the WebAssembly module can no longer free is dropped all the same.
        }
        const e = new E(JSON.stringify(req.scenario), req.trace);
        engine = e;
        if (req.budgetBytes !== undefined) e.set_checkpoint_budget(req.budgetBytes);
        return [{ type: 'loaded', topology: JSON.parse(e.topology_json()), scenario: JSON.parse(e.scenario_json()), id }, []];
      }
      case 'budget':
        engine?.set_checkpoint_budget(req.bytes);
        return [{ type: 'done', id }, []];
      case 'seek': {
        const e = loaded();
        const t0 = performance.now();
        const replayed = e.seek(req.tPs);
        return frameReply(id, frameAt(performance.now() - t0, true, replayed));
      }
      case 'advance':
        // A run already over answers with its end again (the engine keeps the summary).
        return frameReply(id, loaded().finished() ? frameAt(0) : advance(req));
      case 'inspect':
        inspectPort = req.port;
        if (engine && !engine.finished()) return frameReply(id, frame(0));
        return [{ type: 'done', id }, []];
      case 'flow':
        return [{ type: 'flow', flow: req.flow, info: JSON.parse(loaded().flow_json(req.flow)), id }, []];
      case 'trace':
        engine?.set_trace(req.on);
        return [{ type: 'done', id }, []];
      case 'explore':
        exploreOn = req.on;
        return [{ type: 'done', id }, []];
      case 'check': {
        // Preparing a run is the engine's whole validation (scenario fields, then the run's setup).
        let error: string | null = null;
        for (const sc of req.scenarios) {
          try {
            new E(JSON.stringify(sc), false).free();
          } catch (e) {
            error = e instanceof Error ? e.message : String(e);
            break;
          }
        }
        return [{ type: 'checked', error, id }, []];
      }
      case 'facts': {
        // A run of its own (trace on): the loaded run is untouched.
        const e = new E(JSON.stringify(req.scenario), true);
        try {
          const facts = collectFacts(e, JSON.parse(e.topology_json()), req.atPs, { maxWallMs: req.maxWallMs, lookAheadMs: req.maxWallMs });
          return [{ type: 'facts', facts, id }, []];
        } finally {
          e.free();
        }
      }
      case 'find': {
        const e = loaded();
        const r = findEvent(e, req.event, req.direction, req.fromPs, req.maxWallMs);
        return [{ type: 'found', ...r, nowPs: e.now_ps(), events: e.events(), finished: e.finished(), id }, []];
      }
      case 'finish': {
        const e = loaded();
        const t0 = performance.now();
        while (!e.finished() && e.advance(1 << 20, Infinity, false)) {
          /* run to the end */
        }
        const wall = performance.now() - t0;
        const f = frame(wall);
        f.running = false;
        f.end = end(wall);
        return frameReply(id, f);
      }
    }
  }

  return {
    get loaded() {
      return engine !== null;
    },
    get mayExplore() {
      return engine !== null && exploreOn;
    },

    handle(data: unknown) {
      let reply: Reply;
      let id: number | null = null;
      let during: During = 'request';
      try {
        const c = checkEnvelope(data);
        if (!c.ok) {
          reply = [failure(c.id, c.message, c.during), []];
        } else {
          ({ id } = c);
          during = c.req.type;
          reply = answer(c.id, c.req);
        }
      } catch (e) {
        reply = [failure(id ?? envelopeId(data), e, during), []];
      }
      try {
        post(...reply);
      } catch (e) {
        // The reply could not be sent (nothing was): say why instead.
        post(failure(id ?? envelopeId(data), e, during));
      }
    },

    explore(maxEvents: number): boolean {
      const e = engine;
      if (!e || !exploreOn) return false;
      try {
        const more = e.explore(maxEvents);
        post({ type: 'explored', timeline: JSON.parse(e.timeline_json()) });
        return more;
      } catch (err) {
        post(failure(null, err, 'seek'));
        return false;
      }
    },
  };
}
