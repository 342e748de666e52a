// The simulation worker: owns one engine (the Rust core compiled to
// WebAssembly) and advances it in slices on the page's request, so the page
// never blocks. Every request carries an id and gets exactly one reply
// with that id (a WorkerResponse, api.ts: the answer, or an error); only
// exploration's messages come unasked, without one. Typed arrays are
// transferred, not copied.

import init, { Engine } from '../engine-glue/dcsim_wasm.js';
import wasmUrl from '../engine-glue/dcsim_wasm_bg.wasm?url';
import type { AdvanceRequest, Frame, RunEnd, WorkerEnvelope, WorkerRequest, WorkerResponse } from './api';
import { TRACE_WIDTH } from './api';

/** Most trace records one frame carries; the rest are counted, not sent. */
const MAX_TRACE_RECORDS = 20_000;

let engine: Engine | null = null;
let inspectPort: number | null = null;
let ready: Promise<unknown> | null = null;

function post(msg: WorkerResponse, transfer: Transferable[] = []) {
  (self as unknown as Worker).postMessage(msg, transfer);
}

/** The engine's error as a reply to request `id` (null: unasked, while exploring). */
function fail(id: number | null, e: unknown, during: WorkerRequest['type'] | 'init') {
  const message = e instanceof Error ? e.message : String(e);
  post(id === null ? { type: 'error', message, during } : { type: 'error', message, during, id });
}

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
    inspect:
      inspectPort === null
        ? null
        : { port: inspectPort, subqueueBytes: new Float64Array(e.subqueue_bytes(inspectPort)), packets: new Float64Array(e.port_packets(inspectPort)) },
    wallMs,
  };
}

function sendFrame(id: number, f: Frame) {
  const t: Transferable[] = [f.queueBytes.buffer, f.trace.buffer, f.completions.buffer];
  if (f.inspect) t.push(f.inspect.subqueueBytes.buffer, f.inspect.packets.buffer);
  post({ ...f, id }, t);
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

/** Events per exploration slice (about 10-20 ms of work). */
const EXPLORE_EVENTS = 150_000;
/** Explore only after the page has asked nothing for this long, ms. */
const EXPLORE_QUIET_MS = 30;
let lastRequest = 0;
let exploring = false;

/**
 * Time travel: while the page is idle the worker explores the run ahead in
 * small slices (a copy of the run, trace off), leaving checkpoints, so a
 * later seek anywhere replays at most one checkpoint interval. Any request
 * from the page comes first: slices run from timers, between messages.
 */
function scheduleExplore() {
  if (exploring || !engine) return;
  exploring = true;
  setTimeout(exploreSlice, EXPLORE_QUIET_MS);
}

function exploreSlice() {
  exploring = false;
  const e = engine;
  if (!e) return;
  if (performance.now() - lastRequest < EXPLORE_QUIET_MS) return scheduleExplore();
  let more = false;
  try {
    more = e.explore(EXPLORE_EVENTS);
  } catch (err) {
    fail(null, err, 'seek');
    return;
  }
  post({ type: 'explored', timeline: JSON.parse(e.timeline_json()) });
  if (more) scheduleExplore();
}

self.onmessage = async (ev: MessageEvent<WorkerEnvelope>) => {
  const { id, ...req } = ev.data as WorkerEnvelope;
  lastRequest = performance.now();
  try {
    ready ??= init({ module_or_path: wasmUrl });
    await ready;
  } catch (e) {
    fail(id, e, 'init');
    return;
  }
  try {
    answer(id, req as WorkerRequest);
  } catch (e) {
    fail(id, e, req.type);
  }
  // Quiet time counts from the end of the work (a full-speed slice is long).
  lastRequest = performance.now();
  scheduleExplore();
};

/** Carries out one request and posts its one reply (api.ts `Replies`). */
function answer(id: number, req: WorkerRequest) {
  switch (req.type) {
    case 'load': {
      engine?.free();
      engine = null;
      engine = new Engine(JSON.stringify(req.scenario), req.trace);
      if (req.budgetBytes !== undefined) engine.set_checkpoint_budget(req.budgetBytes);
      post({ type: 'loaded', topology: JSON.parse(engine.topology_json()), scenario: JSON.parse(engine.scenario_json()), id });
      return;
    }
    case 'budget':
      engine?.set_checkpoint_budget(req.bytes);
      return post({ type: 'done', id });
    case 'seek': {
      if (!engine) throw new Error('no scenario loaded');
      const t0 = performance.now();
      const replayed = engine.seek(req.tPs);
      return sendFrame(id, frameAt(performance.now() - t0, true, replayed));
    }
    case 'advance':
      if (!engine) throw new Error('no scenario loaded');
      // A run already over answers with its end again (the engine keeps the summary).
      return sendFrame(id, engine.finished() ? frameAt(0) : advance(req));
    case 'inspect':
      inspectPort = req.port;
      if (engine && !engine.finished()) return sendFrame(id, frame(0));
      return post({ type: 'done', id });
    case 'flow':
      if (!engine) throw new Error('no scenario loaded');
      return post({ type: 'flow', flow: req.flow, info: JSON.parse(engine.flow_json(req.flow)), id });
    case 'trace':
      engine?.set_trace(req.on);
      return post({ type: 'done', id });
    case 'check': {
      // Preparing a run is the engine's whole validation (scenario fields, then the run's setup).
      let error: string | null = null;
      for (const sc of req.scenarios) {
        try {
          new Engine(JSON.stringify(sc), false).free();
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
          break;
        }
      }
      return post({ type: 'checked', error, id });
    }
    case 'finish': {
      if (!engine) throw new Error('no scenario loaded');
      const t0 = performance.now();
      while (!engine.finished() && engine.advance(1 << 20, Infinity, false)) {
        /* run to the end */
      }
      const wall = performance.now() - t0;
      const f = frame(wall);
      f.running = false;
      f.end = end(wall);
      return sendFrame(id, f);
    }
  }
}
