// Structure-aware fuzzing of the worker's message boundary (issue 19): the
// worker's request handling (web/src/engine/workerCore.ts, the code
// sim.worker.ts runs) with the real WebAssembly engine, fed seeded
// sequences of requests: valid ones (a small scenario loaded, then advance,
// seek backwards, forwards and past the end, inspect, flow, trace, budget,
// check, finish, facts, find), mutated ones (fields dropped, wrong types, NaN, Infinity,
// negative and huge numbers, unknown types, bad ids), random JSON values,
// and requests before any load, with exploration slices in between as the
// idle worker runs them. Every message goes through structuredClone both
// ways (the reply with its transfer list), as postMessage would.
//
// Properties: each message gets exactly one reply, carrying its id when the
// id is valid; nothing throws out of the core; each call returns within a
// bound; a malformed request gets an error naming a field it broke; a valid
// one never gets an `invalid` error (nor any error once a run is loaded);
// frames are consistent (the clock only moves forward on advance, a seek
// lands at or before its time); a found event is on the side of its time
// it was asked for, and facts come one per time asked for; and after an error the engine still answers
// correctly: a seek lands on the state a fresh run advanced to that time has.
//
// A tiny seeded generator (xorshift32), no new dependency.
// WORKER_FUZZ_CASES sets the number of requests (default 5000; the
// longer run in docs/testing.md runs 200,000), WORKER_FUZZ_SEED the seed.

import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync, Engine } from '../../web/src/engine-glue/dcsim_wasm.js';
import { createWorkerCore, type WorkerCore } from '../../web/src/engine/workerCore';
import { EngineError, SimClient } from '../../web/src/engine/client';
import { NAV_EVENTS, type Frame, type WorkerResponse } from '../../web/src/engine/api';
import { rng, type Rng } from './rng';

const root = join(__dirname, '..', '..');
const CASES = Number(process.env.WORKER_FUZZ_CASES ?? 5000);
const SEED = Number(process.env.WORKER_FUZZ_SEED ?? 0x19f22);
/** No single call may take longer than this, ms (a full run of these scenarios takes ~100 ms). */
const CALL_BOUND_MS = Number(process.env.WORKER_FUZZ_BOUND_MS ?? 5000);

beforeAll(() => initSync({ module: readFileSync(join(root, 'web/src/engine-glue/dcsim_wasm_bg.wasm')) }));


// ---------------------------------------------------------------------------
// Scenarios: bundled ones cut to a few flows (each runs to its end in ~5-100 ms).

interface Config {
  name: string;
  scenario: Record<string, unknown>;
  json: string;
  flows: number;
  /** Simulated end of the run, ps. */
  endPs: number;
  ports: number;
}

const CONFIGS: [string, number, string?][] = [
  ['websearch-leaf-spine', 20],
  ['websearch-leaf-spine', 20, 'pdq'],
  ['imc10-leaf-spine', 50],
  ['pase-all-to-all', 20],
  ['d2tcp-deadlines', 30],
  ['datamining-leaf-spine', 50],
  ['phost-bimodal', 20],
];

let configs: Config[] = [];

function makeConfig(file: string, flows: number, protocol?: string): Config {
  const s = JSON.parse(readFileSync(join(root, `scenarios/${file}.json`), 'utf8'));
  const scenario = { ...s, ...(protocol ? { protocol } : {}), workload: { ...s.workload, flows } };
  const json = JSON.stringify(scenario);
  const e = new Engine(json, false);
  const ports = JSON.parse(e.topology_json()).ports.length;
  e.finish();
  const endPs = e.now_ps();
  e.free();
  return { name: `${file}${protocol ? `/${protocol}` : ''}/${flows}`, scenario, json, flows, endPs, ports };
}

/** A fresh run of the scenario advanced to a time: what a seek there must land on. */
class Reference {
  private e: Engine | null = null;
  private json = '';
  private t = -1;
  at(json: string, t: number) {
    if (!this.e || json !== this.json || t < this.t) {
      this.e?.free();
      this.e = new Engine(json, false);
      this.json = json;
    }
    this.e.advance(Infinity, t, false);
    this.t = t;
    const e = this.e;
    return { nowPs: e.now_ps(), events: e.events(), done: e.progress()[0], queueBytes: Array.from(e.queue_bytes()) };
  }
  free() {
    this.e?.free();
    this.e = null;
  }
}

// ---------------------------------------------------------------------------
// Requests. The test's own statement of what each field must hold (the
// worker's is workerCore.ts REQUEST_FIELDS): values that must be refused.

const TYPES = ['load', 'budget', 'seek', 'advance', 'inspect', 'flow', 'trace', 'explore', 'check', 'finish', 'facts', 'find'] as const;
type Type = (typeof TYPES)[number];

const NOT_NUMBERS = ['5', null, true, {}, [], [1]];
const BAD: Record<string, unknown[]> = {
  id: [1.5, NaN, Infinity, -Infinity, '7', null, true, {}, [3], 2 ** 53, -(2 ** 60), 1e300],
  type: ['', 'Seek', 'Explore', 'explored', 'frame', 'loaded', 'error', null, 5, {}, ['seek'], 'constructor', '__proto__', 'toString'],
  tPs: [NaN, Infinity, -Infinity, -1, -1e-9, ...NOT_NUMBERS],
  untilPs: [NaN, -Infinity, -1, ...NOT_NUMBERS],
  maxEvents: [NaN, 0, -0, -1, -Infinity, ...NOT_NUMBERS],
  maxWallMs: [NaN, -1, -Infinity, ...NOT_NUMBERS],
  stopOnCompletion: [0, 1, 'true', 'false', null, {}],
  bytes: [0, -5, NaN, Infinity, '1e6', null, true],
  budgetBytes: [0, -5, NaN, Infinity, '1e6', null, true],
  port: [-1, 1.5, NaN, Infinity, 2 ** 32, 1e300, '3', true, {}],
  flow: [-1, 1.5, NaN, Infinity, -Infinity, 2 ** 32, 1e300, '3', null, true, []],
  on: [0, 1, 'yes', null, {}],
  trace: [0, 1, 'yes', null, []],
  scenario: [null, 5, 'websearch-leaf-spine', [], true],
  scenarios: [null, {}, 'x', 5, true],
  atPs: [null, 5, 'x', {}, [NaN], [-1], [Infinity], [5, 1], ['3'], Array(1001).fill(0)],
  event: ['', 'drops', 'Drop', null, 5, {}, ['drop']],
  direction: ['', 'forward', 'Next', null, 1, true],
  fromPs: [NaN, Infinity, -Infinity, -1, -1e-9, ...NOT_NUMBERS],
};
/** Fields each type must have (`budgetBytes` is optional). */
const REQUIRED: Record<Type, string[]> = {
  load: ['scenario', 'trace'],
  budget: ['bytes'],
  seek: ['tPs'],
  advance: ['untilPs', 'maxEvents', 'stopOnCompletion', 'maxWallMs'],
  inspect: ['port'],
  trace: ['on'],
  explore: ['on'],
  flow: ['flow'],
  check: ['scenarios'],
  finish: [],
  facts: ['scenario', 'atPs', 'maxWallMs'],
  find: ['event', 'direction', 'fromPs', 'maxWallMs'],
};
const FIELDS: Record<Type, string[]> = { ...REQUIRED, load: ['scenario', 'trace', 'budgetBytes'] };

const WORDS = ['', 'id', 'type', 'seek', 'flow', 'tPs', 'port', 'scenario', 'x', '\u0000', '__proto__', 'constructor', 'y'.repeat(200)];

/** Any JSON-like value, small (plus what structured clone carries and JSON does not: NaN, Infinity, -0, undefined). */
function anyValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 5 : 7)) {
    case 0:
      return r.pick([null, undefined]);
    case 1:
      return r.next() < 0.5;
    case 2:
      return r.pick([0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53, 2 ** 32, NaN, Infinity, -Infinity, Number.MIN_VALUE]);
    case 3:
      return r.pick([...WORDS, ...TYPES]);
    case 4:
      return r.int(100000);
    case 5:
      return Array.from({ length: r.int(4) }, () => anyValue(r, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: r.int(4) }, () => [r.pick(WORDS), anyValue(r, depth + 1)]));
  }
}

/** A scenario with a few fields deleted or given a value of another kind (numbers only small ones, so a run stays short). */
function mutateScenario(r: Rng, v: unknown, depth = 0): unknown {
  if (Array.isArray(v)) return v.map((x) => (r.next() < 0.3 ? mutateScenario(r, x, depth + 1) : x));
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    for (const k of Object.keys(o)) {
      const p = r.next();
      if (p < 0.05) delete o[k];
      else if (p < 0.1) o[k] = r.pick([null, 'x', true, [], {}, 0, -1, 0.5, NaN, -0]);
      else if (p < 0.4) o[k] = mutateScenario(r, o[k], depth + 1);
    }
    if (r.next() < 0.1) o[r.pick(WORDS)] = anyValue(r);
    return o;
  }
  return v;
}

/** What the page knows about the worker's run (from the replies). */
interface Model {
  cfg: Config | null;
  nowPs: number;
  events: number;
  finished: boolean;
  /** What the last `explore` request said (on until one says otherwise). */
  exploreOn: boolean;
}

interface Case {
  data: unknown;
  /** The request type it was built as (null: a random value). */
  type: Type | null;
  /** Fields set to a value that must be refused (or dropped while required). */
  broken: Set<string>;
  /** Fields set to a random value (refusing them or not is both fine). */
  random: Set<string>;
  /** A load of a config's scenario as it is. */
  loads?: Config;
  /** A scenario mutated inside: the engine may refuse it (its own validation). */
  mutatedScenario?: boolean;
  what: string;
}

function validRequest(r: Rng, m: Model, type: Type): Record<string, unknown> {
  const cfg = m.cfg ?? r.pick(configs);
  const end = cfg.endPs;
  const time = () =>
    r.pick([0, m.nowPs, Math.floor(r.next() * end), Math.floor(r.next() * m.nowPs), m.nowPs + Math.floor(r.next() * end * 0.02), end, end + 1 + r.int(1e9), r.next() * end, 1e300, Number.MAX_VALUE]);
  switch (type) {
    case 'load':
      return { type, scenario: cfg.scenario, trace: r.next() < 0.5, ...(r.next() < 0.5 ? { budgetBytes: r.pick([1, 4096, 1e6, 64 * 2 ** 20, 1e15]) } : {}) };
    case 'budget':
      return { type, bytes: r.pick([1, 4096, 1e6, 64 * 2 ** 20, 1e15, 0.5]) };
    case 'seek':
      return { type, tPs: time() };
    case 'advance': {
      const untilPs = r.next() < 0.3 ? Infinity : time();
      const maxEvents = r.pick([Infinity, 1, 1 + r.int(50), 1 + r.int(3000), 0.5, 1e300]);
      // An unbounded slice is bounded by the wall clock (a few ms) or the run's end.
      return { type, untilPs, maxEvents, stopOnCompletion: r.next() < 0.3, maxWallMs: r.pick([0, 1, 5, 1e-9]) };
    }
    case 'inspect':
      return { type, port: r.next() < 0.3 ? null : r.int(cfg.ports + 4) };
    case 'flow':
      return { type, flow: r.pick([0, r.int(cfg.flows + 5), 2 ** 32 - 1]) };
    case 'trace':
      return { type, on: r.next() < 0.5 };
    case 'explore':
      return { type, on: r.next() < 0.6 };
    case 'check':
      return { type, scenarios: Array.from({ length: r.int(3) }, () => (r.next() < 0.5 ? cfg.scenario : mutateScenario(r, structuredClone(cfg.scenario)))) };
    case 'finish':
      return { type };
    case 'facts': {
      const atPs = Array.from({ length: r.int(5) }, () => Math.floor(r.next() * end * 1.2)).sort((a, b) => a - b);
      return { type, scenario: cfg.scenario, atPs, maxWallMs: r.pick([0, 1, 5, 50]) };
    }
    case 'find':
      return { type, event: r.pick(NAV_EVENTS), direction: r.pick(['next', 'previous']), fromPs: time(), maxWallMs: r.pick([0, 1, 5, 50]) };
  }
}

const WEIGHTS: [Type, number][] = [
  ['advance', 30],
  ['seek', 20],
  ['inspect', 8],
  ['flow', 8],
  ['trace', 5],
  ['explore', 4],
  ['budget', 4],
  ['check', 2],
  ['load', 3],
  ['finish', 2],
  ['facts', 2],
  ['find', 6],
];
function pickType(r: Rng): Type {
  let x = r.next() * WEIGHTS.reduce((s, [, w]) => s + w, 0);
  for (const [t, w] of WEIGHTS) if ((x -= w) < 0) return t;
  return 'finish';
}

let nextId = 1;

function validCase(r: Rng, m: Model, type = pickType(r)): Case {
  const req = validRequest(r, m, type);
  const loads = type === 'load' ? configs.find((c) => c.scenario === req.scenario) : undefined;
  return { data: { ...req, id: nextId++ }, type, broken: new Set(), random: new Set(), loads, what: 'valid' };
}

/** A valid request with one to three fields dropped, broken or replaced by random values. */
function mutatedCase(r: Rng, m: Model): Case {
  const c = validCase(r, m);
  const type = c.type!;
  const o = c.data as Record<string, unknown>;
  const muts: string[] = [];
  for (let k = 1 + r.int(3); k > 0; k--) {
    const field = r.next() < 0.15 ? r.pick(['id', 'type']) : FIELDS[type].length && r.next() < 0.9 ? r.pick(FIELDS[type]) : r.pick(WORDS);
    const how = r.pick(['drop', 'bad', 'bad', 'bad', 'random']);
    muts.push(`${how} ${field}`);
    if (field === 'scenario' || field === 'scenarios') c.loads = undefined;
    if (how === 'drop') {
      delete o[field];
      c.random.delete(field);
      if (field === 'id' || field === 'type' || REQUIRED[type].includes(field)) c.broken.add(field);
      else c.broken.delete(field);
    } else if (how === 'bad' && BAD[field] && (field === 'id' || field === 'type' || FIELDS[type].includes(field))) {
      o[field] = r.pick(BAD[field]);
      c.random.delete(field);
      c.broken.add(field);
    } else {
      o[field] = anyValue(r);
      c.broken.delete(field);
      c.random.add(field);
    }
  }
  // A load of a scenario mutated inside (the engine's own validation answers).
  if (type === 'load' && r.next() < 0.5 && !c.broken.has('scenario') && !c.random.has('scenario')) {
    o.scenario = mutateScenario(r, structuredClone(o.scenario));
    c.loads = undefined;
    c.mutatedScenario = true;
    muts.push('mutate scenario');
  }
  // A random value that is another request type: which fields it needs is up to chance.
  if (o.type !== type && TYPES.includes(o.type as Type)) {
    c.broken.clear();
    c.random.add('*');
  }
  c.what = `mutated (${muts.join(', ')})`;
  return c;
}

function randomCase(r: Rng): Case {
  let data = anyValue(r);
  // Sometimes an object with an id, so the reply must carry it.
  if (r.next() < 0.5 && data !== null && typeof data === 'object' && !Array.isArray(data)) data = { ...data, id: nextId++ };
  return { data, type: null, broken: new Set(), random: new Set(['*']), what: 'random value' };
}

// ---------------------------------------------------------------------------
// The harness: the core with a post that clones like postMessage.

interface Posted {
  msg: WorkerResponse;
}

function harness() {
  const posted: Posted[] = [];
  const core = createWorkerCore(Engine, (msg, transfer = []) => {
    posted.push({ msg: structuredClone(msg, { transfer }) });
  });
  return { core, posted };
}

const INVALID = /^invalid (?:(\w+) )?request: (\w+) /;

const isFrame = (m: WorkerResponse): m is Frame & { id: number } => m.type === 'frame';

/** Runs the fuzzer for `cases` requests from `seed`; returns what it saw. */
function fuzz(seed: number, cases: number) {
  const r = rng(seed);
  const ref = new Reference();
  let { core, posted } = harness();
  const m: Model = { cfg: null, nowPs: 0, events: 0, finished: false, exploreOn: true };
  const stats = { requests: 0, errors: 0, invalid: 0, refused: 0, seeksChecked: 0, explores: 0, loads: 0, foreignLoads: 0, maxCallMs: 0, sequences: 0 };
  let seqLeft = 0;
  const fail = (i: number, c: Case, msg: string, reply?: unknown): never => {
    const show = (v: unknown) => {
      try {
        return JSON.stringify(v, (_, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x instanceof Float64Array ? `[${x.length} numbers]` : x)).slice(0, 600);
      } catch {
        return String(v);
      }
    };
    throw new Error(`seed ${seed}, request ${i} (${c.what}): ${msg}\n  sent: ${show(c.data)}\n  reply: ${show(reply)}\n  model: ${m.cfg?.name ?? 'nothing loaded'} at ${m.nowPs} ps`);
  };

  /** Sends one message; checks the properties every reply has; returns the reply. */
  const send = (i: number, c: Case): WorkerResponse => {
    posted.length = 0;
    const input = structuredClone(c.data);
    const t0 = performance.now();
    try {
      core.handle(input);
    } catch (e) {
      fail(i, c, `an exception escaped the core: ${String(e)}`);
    }
    const ms = performance.now() - t0;
    stats.requests++;
    stats.maxCallMs = Math.max(stats.maxCallMs, ms);
    if (ms > CALL_BOUND_MS) fail(i, c, `took ${ms.toFixed(0)} ms (bound ${CALL_BOUND_MS} ms)`);
    if (posted.length !== 1) fail(i, c, `${posted.length} replies`, posted);
    const reply = posted[0].msg;
    const o = c.data as Record<string, unknown> | null;
    const hasId = o !== null && typeof o === 'object' && Object.hasOwn(o, 'id') && Number.isSafeInteger(o.id);
    if (hasId ? !('id' in reply) || reply.id !== o!.id : 'id' in reply) fail(i, c, `reply id ${'id' in reply ? reply.id : 'none'}`, reply);
    if (reply.type === 'error') {
      stats.errors++;
      if (typeof reply.message !== 'string' || !reply.message) fail(i, c, 'an error without a message', reply);
      const v = INVALID.exec(reply.message);
      if (v) {
        stats.invalid++;
        // The field it names is one of the request's (or id, type).
        const type = v[1] as Type | undefined;
        // `request`: the message itself (not an object).
        const known = ['id', 'type', ...(type ? FIELDS[type] : ['request'])];
        if (!known.includes(v[2])) fail(i, c, `the error names no field of the request`, reply);
        if (type && c.type && type !== c.type && !c.broken.has('type') && !c.random.has('type')) fail(i, c, `error for another type`, reply);
        if (c.random.size === 0 && !c.broken.has(v[2])) fail(i, c, `the error names ${v[2]}, not a field the case broke (${[...c.broken]})`, reply);
        if (reply.during !== (type ?? 'request')) fail(i, c, `during ${reply.during}`, reply);
      } else {
        stats.refused++;
        if (c.broken.size) fail(i, c, `a malformed request (${[...c.broken]}) was not refused as invalid`, reply);
      }
    } else {
      if (c.broken.size) fail(i, c, `a malformed request (${[...c.broken]}) was answered`, reply);
      const type = (c.data as { type: Type }).type;
      const expected: Record<Type, string[]> = { load: ['loaded'], advance: ['frame'], seek: ['frame'], finish: ['frame'], inspect: ['frame', 'done'], flow: ['flow'], check: ['checked'], budget: ['done'], trace: ['done'], explore: ['done'], facts: ['facts'], find: ['found'] };
      if (!expected[type]?.includes(reply.type)) fail(i, c, `a ${type} request answered with ${reply.type}`, reply);
      if (type === 'explore') m.exploreOn = (c.data as { on: boolean }).on;
      if (isFrame(reply)) {
        const f = reply;
        if (f.trace.length % 9 || f.completions.length % 7) fail(i, c, 'ragged trace or completions', f);
        if (f.done > f.total || f.events < 0 || f.nowPs < 0) fail(i, c, 'impossible progress', f);
        if (!f.running && !f.end && type !== 'inspect') fail(i, c, 'an ended run without its summary', f);
        if (m.cfg && f.queueBytes.length !== m.cfg.ports) fail(i, c, `${f.queueBytes.length} ports' buffers, not ${m.cfg.ports}`, f);
      }
    }
    return reply;
  };

  /** Follows a reply in the model and checks what the model predicts. */
  const follow = (i: number, c: Case, reply: WorkerResponse) => {
    const valid = c.broken.size === 0 && c.random.size === 0;
    const req = c.data as Record<string, unknown>;
    const type = c.type;
    if (reply.type === 'error') {
      const invalid = INVALID.test(reply.message);
      if (valid && invalid) fail(i, c, 'a valid request was refused as invalid', reply);
      if (!invalid && (req?.type === 'load')) m.cfg = null; // the engine refused the scenario: nothing is loaded
      if (valid && !invalid) {
        const needsRun = type === 'advance' || type === 'seek' || type === 'flow' || type === 'finish' || type === 'find';
        const unloaded = needsRun && !m.cfg && reply.message === 'no scenario loaded';
        if (!unloaded && !c.mutatedScenario) fail(i, c, 'a valid request was refused', reply);
      }
      return;
    }
    if (reply.type === 'loaded') {
      stats.loads++;
      m.cfg = c.loads ?? null;
      m.nowPs = m.events = 0;
      m.finished = false;
      return;
    }
    if (isFrame(reply)) {
      const f = reply;
      if (valid && m.cfg) {
        if (type === 'advance') {
          if (f.nowPs < m.nowPs || f.events < m.events) fail(i, c, `the clock went back (${m.nowPs} -> ${f.nowPs})`, f);
          const until = req.untilPs as number;
          if (Number.isFinite(until) && m.nowPs <= until && f.nowPs > until) fail(i, c, `advanced past untilPs`, f);
          if (f.reset) fail(i, c, 'an advance frame marked reset', f);
        }
        if (type === 'seek') {
          if (!f.reset) fail(i, c, 'a seek frame not marked reset', f);
          if (f.nowPs > (req.tPs as number)) fail(i, c, 'a seek landed after its time', f);
          if (f.completions.length / 7 !== f.done) fail(i, c, 'a seek frame without every completion so far', f);
        }
        if (type === 'inspect' && m.finished) fail(i, c, 'a frame for inspect after the end', f);
        if (type === 'inspect' && (f.inspect?.port ?? null) !== req.port) fail(i, c, 'the inspected port is not the one asked for', f);
      }
      if (type !== 'inspect') {
        m.nowPs = f.nowPs;
        m.events = f.events;
        m.finished = !f.running;
      }
      return;
    }
    if (reply.type === 'found') {
      // The search leaves the run where it ended (the page seeks afterwards).
      if (valid) {
        const from = req.fromPs as number;
        if (reply.tPs !== null && (req.direction === 'next' ? !(reply.tPs > from) : !(reply.tPs < from))) fail(i, c, `found an event at ${reply.tPs}, on the wrong side of ${from}`, reply);
      }
      m.nowPs = reply.nowPs;
      m.events = reply.events;
      m.finished = reply.finished;
      return;
    }
    if (reply.type === 'facts' && valid) {
      const want = req.atPs as number[];
      const got = reply.facts.at.map((f) => f.tPs);
      if (reply.facts.complete ? JSON.stringify(got) !== JSON.stringify(want) : got.length > want.length) fail(i, c, `facts at ${JSON.stringify(got)}, asked for ${JSON.stringify(want)}`, reply);
    }
    if (valid && m.cfg && type === 'inspect' && reply.type === 'done' && !m.finished) fail(i, c, 'no frame for inspect while the run goes on', reply);
    if (reply.type === 'flow' && valid && m.cfg) {
      const info = reply.info;
      if (info !== null && info.record.id !== req.flow) fail(i, c, 'the record of another flow', reply);
      if (reply.flow !== req.flow) fail(i, c, 'the reply names another flow', reply);
    }
  };

  /** A valid seek to a random time, compared with a fresh run advanced there. */
  const checkSeek = (i: number, why: string) => {
    if (!m.cfg) return;
    const cfg = m.cfg;
    const t = r.pick([Math.floor(r.next() * cfg.endPs), 0, cfg.endPs + 1, Math.floor(r.next() * m.nowPs)]);
    const c: Case = { data: { type: 'seek', tPs: t, id: nextId++ }, type: 'seek', broken: new Set(), random: new Set(), what: `seek check after ${why}` };
    const reply = send(i, c);
    follow(i, c, reply);
    if (!isFrame(reply)) return fail(i, c, 'a seek answered without a frame', reply);
    const want = ref.at(cfg.json, t);
    const got = { nowPs: reply.nowPs, events: reply.events, done: reply.done, queueBytes: Array.from(reply.queueBytes) };
    if (JSON.stringify(got) !== JSON.stringify(want)) fail(i, c, `seek to ${t} landed on ${JSON.stringify({ ...got, queueBytes: undefined })}, a fresh run on ${JSON.stringify({ ...want, queueBytes: undefined })}`, reply);
    stats.seeksChecked++;
  };

  for (let i = 0; stats.requests < cases; i++) {
    if (seqLeft <= 0) {
      // A new sequence: sometimes a fresh worker (requests before any load), else a load.
      checkSeek(i, 'the sequence');
      stats.sequences++;
      seqLeft = 20 + r.int(80);
      if (r.next() < 0.2) {
        ({ core, posted } = harness());
        Object.assign(m, { cfg: null, nowPs: 0, events: 0, finished: false, exploreOn: true });
        for (let k = r.int(6); k > 0; k--) {
          const c = r.next() < 0.5 ? validCase(r, m, r.pick(TYPES.filter((t) => t !== 'load'))) : mutatedCase(r, m);
          follow(i, c, send(i, c));
        }
      }
      const c = validCase(r, m, 'load');
      follow(i, c, send(i, c));
      if (!m.cfg) fail(i, c, 'a bundled scenario did not load');
    }
    seqLeft--;
    const p = r.next();
    const c = p < 0.6 ? validCase(r, m) : p < 0.93 ? mutatedCase(r, m) : randomCase(r);
    const reply = send(i, c);
    follow(i, c, reply);
    // A scenario not among the configs loaded (a mutated one the engine accepted): load a known one again.
    if (reply.type === 'loaded' && !m.cfg) {
      stats.foreignLoads++;
      const l = validCase(r, m, 'load');
      follow(i, l, send(i, l));
    }
    if (reply.type === 'error' && r.next() < 0.25) checkSeek(i, `the error "${reply.message}"`);
    // The idle worker explores between requests.
    if (r.next() < 0.08) {
      posted.length = 0;
      const more = core.explore(r.pick([1000, 10_000, 50_000]));
      stats.explores++;
      expect(typeof more).toBe('boolean');
      // A worker told to stop exploring (its page hidden) does nothing.
      expect(posted.length).toBe(m.cfg && m.exploreOn ? 1 : 0);
      if (!m.exploreOn) expect(more).toBe(false);
      if (posted.length && posted[0].msg.type !== 'explored') fail(i, c, 'exploring failed', posted[0].msg);
      if (posted.length && 'id' in posted[0].msg) fail(i, c, 'an exploration message with an id', posted[0].msg);
    }
  }
  checkSeek(cases, 'the last request');
  ref.free();
  return stats;
}

describe('the worker message boundary', () => {
  beforeAll(() => {
    configs = CONFIGS.map(([f, n, p]) => makeConfig(f, n, p));
  });

  // Found by this fuzzing (each hung or answered nothing before the worker checked its messages).
  it('answers malformed requests with an error naming the field, once, and keeps going', () => {
    const { core, posted } = harness();
    const ask = (data: unknown) => {
      posted.length = 0;
      core.handle(data);
      expect(posted).toHaveLength(1);
      return posted[0].msg;
    };
    const cfg = configs[0];
    expect(ask({ type: 'load', scenario: cfg.scenario, trace: true, id: 1 })).toMatchObject({ type: 'loaded', id: 1 });
    // An advance without maxEvents and maxWallMs looped forever (NaN compares false).
    expect(ask({ type: 'advance', untilPs: Infinity, stopOnCompletion: false, id: 2 })).toMatchObject({ type: 'error', id: 2, during: 'advance', message: 'invalid advance request: maxEvents must be a number > 0 (Infinity: no bound), it is missing' });
    expect(ask({ type: 'advance', untilPs: 1e9, maxEvents: NaN, stopOnCompletion: false, maxWallMs: NaN, id: 3 })).toMatchObject({ type: 'error', id: 3, message: expect.stringMatching(/^invalid advance request: maxEvents .* got NaN$/) });
    // An unknown type, or none, got no reply at all (the page's promise waited forever).
    expect(ask({ type: 'rewind', id: 4 })).toMatchObject({ type: 'error', id: 4, during: 'request', message: expect.stringMatching(/^invalid request: type must be one of load, .*; got "rewind"$/) });
    expect(ask({ id: 5 })).toMatchObject({ type: 'error', id: 5, message: expect.stringContaining('type must be one of') });
    // Not an object: the handler threw before replying.
    for (const bad of [null, undefined, 7, 'seek', [1, 2]]) expect(ask(bad)).toEqual({ type: 'error', during: 'request', message: expect.stringMatching(/^invalid request: request must be an object/) });
    // A bad id: an error without one (the page's listener shows it).
    expect(ask({ type: 'seek', tPs: 5, id: 1.5 })).toEqual({ type: 'error', during: 'seek', message: 'invalid seek request: id must be a safe integer, got 1.5' });
    expect(ask({ type: 'seek', tPs: 5 })).toEqual({ type: 'error', during: 'seek', message: 'invalid seek request: id must be a safe integer, it is missing' });
    // Numbers the engine would have coerced silently (a wrapped u32, a NaN clamped to 0).
    expect(ask({ type: 'flow', flow: -1, id: 6 })).toMatchObject({ type: 'error', message: 'invalid flow request: flow must be an integer from 0 to 4294967295, got -1' });
    expect(ask({ type: 'inspect', port: 2 ** 32 + 1, id: 7 })).toMatchObject({ type: 'error', message: expect.stringContaining('port must be an integer from 0 to 4294967295, or null') });
    expect(ask({ type: 'seek', tPs: NaN, id: 8 })).toMatchObject({ type: 'error', message: 'invalid seek request: tPs must be a finite number >= 0, got NaN' });
    expect(ask({ type: 'budget', bytes: 0, id: 9 })).toMatchObject({ type: 'error', message: 'invalid budget request: bytes must be a finite number > 0, got 0' });
    expect(ask({ type: 'load', scenario: 'websearch', trace: true, id: 10 })).toMatchObject({ type: 'error', message: 'invalid load request: scenario must be an object (a scenario), got "websearch"' });
    // A malformed load leaves the run loaded; the engine still answers.
    expect(ask({ type: 'advance', untilPs: 1e9, maxEvents: Infinity, stopOnCompletion: false, maxWallMs: 100, id: 11 })).toMatchObject({ type: 'frame', id: 11, nowPs: expect.any(Number) });
  });

  it('a reply that cannot be posted becomes an error reply', () => {
    const got: WorkerResponse[] = [];
    let first = true;
    const core = createWorkerCore(Engine, (msg) => {
      if (first) {
        first = false;
        throw new Error('DataCloneError: could not be cloned');
      }
      got.push(msg);
    });
    core.handle({ type: 'trace', on: true, id: 3 });
    expect(got).toEqual([{ type: 'error', message: 'DataCloneError: could not be cloned', during: 'trace', id: 3 }]);
  });

  it("the page's client rejects a malformed request with the worker's message", async () => {
    // SimClient wired to the core through a stand-in Worker that clones like postMessage.
    let onmessage: ((ev: { data: unknown }) => void) | null = null;
    const core = createWorkerCore(Engine, (msg, transfer = []) => onmessage?.({ data: structuredClone(msg, { transfer }) }));
    const fake = {
      set onmessage(f: (ev: { data: unknown }) => void) {
        onmessage = f;
      },
      onerror: null,
      onmessageerror: null,
      postMessage: (m: unknown) => queueMicrotask(() => core.handle(structuredClone(m))),
      terminate() {},
    };
    const client = new SimClient({}, () => fake as unknown as Worker);
    await expect(client.request({ type: 'seek', tPs: -3 })).rejects.toMatchObject({ name: 'EngineError', during: 'seek', message: 'invalid seek request: tPs must be a finite number >= 0, got -3' });
    await expect(client.request({ type: 'seek', tPs: 0 })).rejects.toEqual(new EngineError('no scenario loaded', 'seek'));
    expect((await client.request({ type: 'load', scenario: configs[0].scenario, trace: false })).type).toBe('loaded');
    expect((await client.request({ type: 'seek', tPs: configs[0].endPs / 2 })).reset).toBe(true);
    client.dispose();
  });

  it(`exactly one reply per request, errors that name a field, a working engine after each (${CASES} requests)`, () => {
    const t0 = performance.now();
    const stats = fuzz(SEED, CASES);
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`worker fuzz: ${stats.requests} requests in ${s} s (${stats.sequences} sequences, ${stats.loads} loads (${stats.foreignLoads} of a mutated scenario), ${stats.errors} errors: ${stats.invalid} invalid, ${stats.refused} refused by the engine; ${stats.seeksChecked} seeks checked against a fresh run, ${stats.explores} exploration slices, slowest call ${stats.maxCallMs.toFixed(0)} ms)`);
    expect(stats.requests).toBeGreaterThanOrEqual(CASES);
    // Every kind of outcome happened.
    expect(stats.invalid).toBeGreaterThan(0);
    expect(stats.refused).toBeGreaterThan(0);
    expect(stats.seeksChecked).toBeGreaterThan(0);
  }, Math.max(60_000, CASES * 20));
});
