// The conductor's lockstep over fake workers: a step shows its time only
// once every worker has answered (in whatever order), answers of an older
// load are ignored, and a crash mid-step stops the step. And its phases
// (phase.ts): what each allows, what it refuses, what it keeps for later.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Frame, Topology, WorkerEnvelope } from '../engine/api';
import { Conductor } from './conductor';
import { CLOCK_STATE_MS, DEFAULT_SPEED } from './publisher';
import { CHECKPOINT_BUDGET_MAX, budgetFor, checkpointBudgetBytes } from './workers';
import { INITIAL_PHASE, reduce, type Phase, type PhaseEvent, type Travel } from './phase';
import { baseRttPs } from './rtt';
import { fmtTime } from '../format/format';
import type { Settings } from './settings';

class FakeWorker {
  static all: FakeWorker[] = [];
  sent: WorkerEnvelope[] = [];
  terminated = false;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: { message: string; preventDefault(): void }) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  constructor() {
    FakeWorker.all.push(this);
  }
  postMessage(m: WorkerEnvelope) {
    this.sent.push(m);
  }
  terminate() {
    this.terminated = true;
  }
  /** The last request of type `type`. */
  last(type: string): WorkerEnvelope {
    const m = [...this.sent].reverse().find((r) => r.type === type);
    if (!m) throw new Error(`no ${type} request`);
    return m;
  }
  /** Answers the last request of `type` with `reply`. */
  answer(type: string, reply: object) {
    this.onmessage?.({ data: { ...reply, id: this.last(type).id } });
  }
}

/** Two hosts on one 10 Gb/s cable (1 us each way). */
const host = (i: number) => ({ kind: 'host' as const, ports: [i], group: 0, name: `h${i}` });
const wire = (i: number) => ({ node: i, peer: 1 - i, link: 0, rate: 1e10, delay: 1e6, role: 'host_nic' as const });
const topology: Topology = { nodes: [host(0), host(1)], ports: [wire(0), wire(1)], n_hosts: 2, host_rate: 1e10 };
const RTT = baseRttPs(topology);

function frame(nowPs: number, nextPs = nowPs + 1): Omit<Frame, 'type'> & { type: 'frame' } {
  return {
    type: 'frame', reset: false, replayed: 0,
    timeline: { coarse: 1, fine: 0, bytes: 0, budget_bytes: 1, interval_events: 1, explored_ps: 0, explored_all: false },
    nowPs, nextPs, events: 1, done: 0, total: 10, running: true, end: null,
    queueBytes: new Float64Array(4), trace: new Float64Array(0), traceDropped: 0, completions: new Float64Array(0), inspect: null, wallMs: 1,
  };
}

const settings: Settings = { scenario: { name: 'fake', workload: { flows: 10 } }, protocols: ['pfabric', 'dctcp'] };
const tick = () => new Promise((r) => setTimeout(r, 0));

/** A conductor whose two workers are loaded and have answered the first frame. */
async function loaded() {
  const c = new Conductor(settings);
  c.load(settings);
  const [a, b] = FakeWorker.all.slice(-2);
  // Load answers in the other order: the first frame is asked of both only once both are in.
  b.answer('load', { type: 'loaded', topology, scenario: {} });
  await tick();
  expect(a.sent.some((m) => m.type === 'advance')).toBe(false);
  a.answer('load', { type: 'loaded', topology, scenario: {} });
  await tick();
  a.answer('advance', frame(0));
  b.answer('advance', frame(0));
  await tick();
  expect(c.getState().status).toMatch(/^ready/);
  expect(RTT).toBeGreaterThan(0);
  expect(c.getState().rttPs).toBe(RTT);
  return { c, a, b };
}

beforeEach(() => {
  FakeWorker.all = [];
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('requestAnimationFrame', () => 0);
  vi.stubGlobal('cancelAnimationFrame', () => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('Conductor clock while playing', () => {
  it('tells the clock every animation frame, re-renders the page at most every CLOCK_STATE_MS, and shows the exact time once paused', async () => {
    const { c, a, b } = await loaded();
    // Animation frames by hand, 16 ms apart, and the wall clock with them.
    let wall = 1000;
    let next: ((t: number) => void) | null = null;
    vi.stubGlobal('requestAnimationFrame', (f: (t: number) => void) => ((next = f), 1));
    vi.spyOn(performance, 'now').mockImplementation(() => wall);
    let pageRenders = 0;
    let clockTicks = 0;
    const urgency: boolean[] = [];
    c.subscribe((urgent) => {
      pageRenders++;
      urgency.push(urgent);
    });
    c.subscribeClock(() => clockTicks++);
    c.play();
    await tick();
    pageRenders = 0;
    clockTicks = 0;
    urgency.length = 0;
    // Every advance the clock asks for is answered at once, as far as it asked.
    const answered = new Set<string>();
    const frames = 60;
    for (let i = 0; i < frames; i++) {
      wall += 16;
      next!(wall);
      for (const [k, w] of [a, b].entries()) {
        const adv = w.last('advance') as { id: number; untilPs: number };
        if (answered.has(`${k}:${adv.id}`)) continue;
        answered.add(`${k}:${adv.id}`);
        w.answer('advance', frame(adv.untilPs, adv.untilPs + 1));
      }
      await tick();
    }
    expect(answered.size).toBeGreaterThan(4);
    expect(clockTicks).toBeGreaterThanOrEqual(frames);
    // 60 frames of 16 ms: 960 ms, so about 960 / CLOCK_STATE_MS page renders, never one per frame.
    expect(pageRenders).toBeGreaterThanOrEqual(Math.floor((frames * 16) / CLOCK_STATE_MS) - 1);
    expect(pageRenders).toBeLessThanOrEqual(Math.ceil((frames * 16) / CLOCK_STATE_MS) + 1);
    // The clock moved by the speed times the wall time (the first frame waits for the first answers).
    const moved = c.getClock();
    expect(moved).toBeGreaterThan((DEFAULT_SPEED * (frames - 2) * 16) / 1000);
    expect(moved).toBeLessThanOrEqual((DEFAULT_SPEED * frames * 16) / 1000);
    expect(c.getState().displayPs).toBeLessThanOrEqual(moved);
    expect(c.getLive().displayPs).toBe(moved);
    // While playing the page may render in slices (a transition): none of these publishes is urgent.
    expect(urgency.length).toBe(pageRenders);
    expect(urgency.every((u) => !u)).toBe(true);
    c.pause();
    expect(c.getState().displayPs).toBe(moved);
    expect(c.getState().mode).toBe('paused');
    // A pause is shown at once.
    expect(urgency[urgency.length - 1]).toBe(true);
  });
});

describe('Conductor lockstep', () => {
  it('shows a step only once every worker has answered, whatever the order', async () => {
    const { c, a, b } = await loaded();
    c.stepRtt();
    expect(a.last('advance')).toMatchObject({ untilPs: RTT });
    expect(b.last('advance')).toMatchObject({ untilPs: RTT });
    b.answer('advance', frame(RTT - 5, RTT + 7));
    await tick();
    expect(c.getState().displayPs).toBe(0);
    // Not idle: another step is refused until the first is done.
    const sent = a.sent.length;
    c.stepRtt();
    expect(a.sent.length).toBe(sent);
    a.answer('advance', frame(RTT - 3, RTT + 2));
    await tick();
    expect(c.getState().displayPs).toBe(RTT);
    expect(c.getState().status).toMatch(/stepped one RTT/);
    expect(c.getState().runs.map((r) => r.nowPs)).toEqual([RTT - 3, RTT - 5]);
  });

  it('ignores the answers of workers a newer load replaced', async () => {
    const { c, a, b } = await loaded();
    c.stepRtt();
    c.load(settings);
    expect([a.terminated, b.terminated]).toEqual([true, true]);
    a.answer('advance', frame(RTT));
    b.answer('advance', frame(RTT));
    await tick();
    expect(c.getState().status).toBe('loading…');
    expect(c.getState().runs.map((r) => r.nowPs)).toEqual([0, 0]);
  });

  it('a crash mid-step stops the step and keeps the runs; restart loads fresh workers', async () => {
    const { c, a, b } = await loaded();
    c.stepRtt();
    b.answer('advance', frame(RTT));
    a.onerror?.({ message: 'RuntimeError: unreachable', preventDefault() {} });
    await tick();
    expect(c.getState().crashed).toMatch(/pfabric: the simulation worker crashed \(RuntimeError: unreachable\)/);
    expect(c.getState().displayPs).toBe(0);
    expect(c.getState().status).not.toMatch(/stepped/);
    c.restart();
    expect(FakeWorker.all).toHaveLength(4);
    expect(c.getState().crashed).toBeNull();
  });

  it('goes to the nearest next event of any run: every run lands exactly on its time', async () => {
    const { c, a, b } = await loaded();
    const found = (tPs: number | null) => ({ type: 'found', tPs, searchedPs: tPs ?? 1e9, nowPs: 1e9, events: 9, finished: false });
    c.goToEvent('drop', 'next');
    expect(a.last('find')).toMatchObject({ event: 'drop', direction: 'next', fromPs: 0 });
    // Nothing plays while the workers look.
    c.play();
    expect(c.getState().mode).toBe('paused');
    a.answer('find', found(9 * RTT));
    b.answer('find', found(7 * RTT + 3));
    await tick();
    expect([a.last('seek'), b.last('seek')]).toMatchObject([{ tPs: 7 * RTT + 3 }, { tPs: 7 * RTT + 3 }]);
    a.answer('seek', { ...frame(7 * RTT + 3), reset: true });
    b.answer('seek', { ...frame(7 * RTT + 3), reset: true });
    await tick();
    await tick();
    expect(c.getState().displayPs).toBe(7 * RTT + 3);
    expect(c.getState().status).toMatch(/^next drop \(dctcp\): at t = /);
    // Previous, none in any run: every run lands back where it was (the searches moved them).
    c.goToEvent('token', 'previous');
    expect(b.last('find')).toMatchObject({ event: 'token', direction: 'previous', fromPs: 7 * RTT + 3 });
    a.answer('find', found(null));
    b.answer('find', found(null));
    await tick();
    expect(a.last('seek')).toMatchObject({ tPs: 7 * RTT + 3 });
    a.answer('seek', { ...frame(7 * RTT + 3), reset: true });
    b.answer('seek', { ...frame(7 * RTT + 3), reset: true });
    await tick();
    await tick();
    expect(c.getState().displayPs).toBe(7 * RTT + 3);
    expect(c.getState().status).toMatch(/^no token before t = .* in any run; back at t = /);
  });

  it('a seek lands every run before it shows the time (one render)', async () => {
    const { c, a, b } = await loaded();
    const T = 5 * RTT;
    c.seek(T);
    const seen: number[] = [];
    c.subscribe(() => seen.push(c.getState().runs[0].nowPs));
    a.answer('seek', { ...frame(T), reset: true });
    await tick();
    expect(c.getState().runs[0].nowPs).toBe(0);
    b.answer('seek', { ...frame(T - 1), reset: true });
    // Shown in a task after the last answer's (its fold and the render are
    // not one long task); nothing starts in between.
    const sent = a.sent.length;
    c.stepRtt();
    expect(a.sent.length).toBe(sent);
    await tick();
    await tick();
    expect(c.getState().displayPs).toBe(T);
    expect(c.getState().runs.map((r) => r.nowPs)).toEqual([T, T - 1]);
    expect(seen.filter((t) => t === T)).toHaveLength(1);
  });
});

describe('the checkpoint budget', () => {
  const MB = 2 ** 20;
  it('is a sixteenth of the device memory, 256 MB on a 4 GB laptop, at most 768 MB', () => {
    expect(checkpointBudgetBytes(4)).toBe(256 * MB);
    expect(checkpointBudgetBytes(8)).toBe(512 * MB);
    expect(checkpointBudgetBytes(2)).toBe(128 * MB);
    expect(checkpointBudgetBytes(64)).toBe(768 * MB);
    // A browser that does not say is taken as a 4 GB machine.
    expect(checkpointBudgetBytes(undefined)).toBe(256 * MB);
    expect(checkpointBudgetBytes(0)).toBe(256 * MB);
  });
  it('is shared by the runs side by side, one run at most CHECKPOINT_BUDGET_MAX', () => {
    expect(budgetFor(1, 256 * MB)).toBe(256 * MB);
    expect(budgetFor(2, 256 * MB)).toBe(128 * MB);
    expect(budgetFor(1, 768 * MB)).toBe(CHECKPOINT_BUDGET_MAX);
    expect(budgetFor(3, 768 * MB)).toBe(256 * MB);
  });
});

describe('the phases', () => {
  const to = (tPs: number, what: Travel['what'] = 'seek'): Travel => ({ tPs, what, prefix: '' });
  /** The phase after `events` from the first load's. */
  const after = (...events: PhaseEvent[]) => events.reduce(reduce, reduce(INITIAL_PHASE, { type: 'load', replayTo: null, runs: [] }));
  const ready = () => after({ type: 'loaded', gen: 1 });
  /** Each event refused in `p`: the very same phase comes back. */
  const refuses = (p: Phase, ...events: PhaseEvent[]) => {
    for (const e of events) expect(reduce(p, e), `${p.kind} refuses ${e.type}`).toBe(p);
  };

  it('loads, then is ready and paused; each load is a new generation', () => {
    expect(ready()).toEqual({ kind: 'ready', gen: 1, mode: 'paused', queued: null });
    expect(reduce(ready(), { type: 'load', replayTo: null, runs: [] })).toMatchObject({ kind: 'loading', gen: 2 });
  });

  it('ignores answers of an older generation', () => {
    const p = after({ type: 'load', replayTo: null, runs: [] });
    expect(p).toMatchObject({ kind: 'loading', gen: 2 });
    refuses(p, { type: 'loaded', gen: 1 }, { type: 'crash', gen: 1, message: 'old' }, { type: 'landed', gen: 1 }, { type: 'finished', gen: 1 });
    const t = reduce(ready(), { type: 'seek', travel: to(5), idle: true, runs: [] });
    refuses(t, { type: 'landed', gen: 0 }, { type: 'settled', gen: 2, runs: [] });
  });

  it('keeps a seek asked while travelling, the latest of several, and starts it once the workers settle', () => {
    let p = reduce(ready(), { type: 'seek', travel: to(5), idle: true, runs: [] });
    expect(p).toMatchObject({ kind: 'traveling', travel: to(5), queued: null });
    p = reduce(p, { type: 'seek', travel: to(7), idle: false, runs: [] });
    p = reduce(p, { type: 'seek', travel: to(9, 'rtt'), idle: false, runs: [] });
    expect(p).toMatchObject({ kind: 'traveling', travel: to(5), queued: to(9, 'rtt') });
    p = reduce(p, { type: 'landed', gen: 1 });
    expect(p).toEqual({ kind: 'ready', gen: 1, mode: 'paused', queued: to(9, 'rtt') });
    // Busy ready: another step may not start; the queued seek goes first.
    refuses(p, { type: 'find', idle: true });
    p = reduce(p, { type: 'settled', gen: 1, runs: [] });
    expect(p).toMatchObject({ kind: 'traveling', travel: to(9, 'rtt'), queued: null });
    refuses(reduce(p, { type: 'landed', gen: 1 }), { type: 'settled', gen: 1, runs: [] });
  });

  it('queues a seek asked while the workers are busy or looking for an event', () => {
    expect(reduce(ready(), { type: 'seek', travel: to(3), idle: false, runs: [] })).toMatchObject({ kind: 'ready', queued: to(3) });
    let p = reduce(ready(), { type: 'find', idle: true });
    expect(p.kind).toBe('finding');
    p = reduce(p, { type: 'seek', travel: to(3), idle: false, runs: [] });
    p = reduce(p, { type: 'found', gen: 1, travel: to(8, 'find'), runs: [] });
    expect(p).toMatchObject({ kind: 'traveling', travel: to(8, 'find'), queued: to(3) });
  });

  it('refuses what a phase does not allow', () => {
    const loading = after({ type: 'load', replayTo: 4, runs: [] });
    refuses(loading, { type: 'seek', travel: to(1), idle: true, runs: [] }, { type: 'play', finished: false }, { type: 'full', finished: false }, { type: 'find', idle: true }, { type: 'landed', gen: 2 }, { type: 'replayed', gen: 2 });
    const replaying = reduce(loading, { type: 'loaded', gen: 2 });
    expect(replaying).toMatchObject({ kind: 'replaying', tPs: 4 });
    refuses(replaying, { type: 'seek', travel: to(1), idle: true, runs: [] }, { type: 'play', finished: false }, { type: 'loaded', gen: 2 });
    expect(reduce(replaying, { type: 'replayed', gen: 2 })).toEqual({ kind: 'ready', gen: 2, mode: 'paused', queued: null });
    const finding = reduce(ready(), { type: 'find', idle: true });
    refuses(finding, { type: 'play', finished: false }, { type: 'full', finished: false }, { type: 'find', idle: true }, { type: 'landed', gen: 1 });
    refuses(reduce(finding, { type: 'found', gen: 1, travel: to(2, 'find'), runs: [] }), { type: 'play', finished: false });
    refuses(ready(), { type: 'find', idle: false }, { type: 'play', finished: true }, { type: 'full', finished: true }, { type: 'landed', gen: 1 }, { type: 'loaded', gen: 1 });
    const crashed = reduce(ready(), { type: 'crash', gen: 1, message: 'gone' });
    refuses(crashed, { type: 'seek', travel: to(1), idle: true, runs: [] }, { type: 'play', finished: false }, { type: 'find', idle: true }, { type: 'settled', gen: 1, runs: [] });
    expect(reduce(crashed, { type: 'load', replayTo: 3, runs: [] })).toMatchObject({ kind: 'loading', gen: 2, replayTo: 3 });
  });

  it('plays and runs at full speed only when ready (or travelling), and stops at the end', () => {
    const playing = reduce(ready(), { type: 'play', finished: false });
    expect(playing).toMatchObject({ kind: 'ready', mode: 'playing' });
    expect(reduce(playing, { type: 'finished', gen: 1 })).toMatchObject({ mode: 'paused' });
    const full = reduce(playing, { type: 'full', finished: false });
    expect(full).toMatchObject({ mode: 'full' });
    refuses(full, { type: 'full', finished: false });
    expect(reduce(full, { type: 'pause' })).toMatchObject({ kind: 'ready', mode: 'paused' });
  });
});

describe('Conductor phases', () => {
  it('a seek asked while a seek is landing is made after it, not lost', async () => {
    const { c, a, b } = await loaded();
    c.seek(5 * RTT);
    expect(c.getState().phase.kind).toBe('traveling');
    c.seek(2 * RTT);
    expect(a.sent.filter((m) => m.type === 'seek')).toHaveLength(1);
    for (const w of [a, b]) w.answer('seek', { ...frame(5 * RTT), reset: true });
    await tick();
    await tick();
    expect(c.getState().displayPs).toBe(5 * RTT);
    // Then the one that waited.
    expect([a.last('seek'), b.last('seek')]).toMatchObject([{ tPs: 2 * RTT }, { tPs: 2 * RTT }]);
    for (const w of [a, b]) w.answer('seek', { ...frame(2 * RTT), reset: true });
    await tick();
    await tick();
    expect(c.getState().displayPs).toBe(2 * RTT);
    expect(c.getState().phase).toMatchObject({ kind: 'ready', queued: null });
  });

  it('a restart replays to the time on screen, refusing seeks meanwhile, and shows the replayed runs at once', async () => {
    const { c, a, b } = await loaded();
    c.stepRtt();
    a.answer('advance', frame(RTT));
    b.answer('advance', frame(RTT));
    await tick();
    expect(c.getState().displayPs).toBe(RTT);
    c.restart();
    expect(c.getState().phase).toMatchObject({ kind: 'loading', replayTo: RTT });
    expect(c.getState().seeking).toBe(true);
    const [a2, b2] = FakeWorker.all.slice(-2);
    for (const w of [a2, b2]) w.answer('load', { type: 'loaded', topology, scenario: {} });
    await tick();
    expect(c.getState().phase.kind).toBe('replaying');
    c.seek(3 * RTT);
    expect(a2.sent.some((m) => m.type === 'seek')).toBe(false);
    expect(a2.last('advance')).toMatchObject({ untilPs: RTT });
    a2.answer('advance', frame(RTT));
    await tick();
    // The runs from before the restart stay on screen until the replay is there.
    expect(c.getState().runs.map((r) => r.nowPs)).toEqual([RTT, RTT]);
    b2.answer('advance', frame(RTT - 1));
    await tick();
    expect(c.getState().phase).toMatchObject({ kind: 'ready', queued: null });
    expect(c.getState().seeking).toBe(false);
    expect(c.getState().status).toBe(`at t = ${fmtTime(RTT)}`);
    expect(c.getState().runs.map((r) => r.nowPs)).toEqual([RTT, RTT - 1]);
  });
});

describe('Conductor in a hidden page', () => {
  it('tells every worker to stop exploring while the page is hidden, and new workers from their start', async () => {
    const { c, a, b } = await loaded();
    const explore = (w: FakeWorker) => w.sent.filter((m) => m.type === 'explore').map((m) => (m as { on: boolean }).on);
    expect(explore(a)).toEqual([]);
    c.setPageHidden(true);
    c.setPageHidden(true);
    expect(explore(a)).toEqual([false]);
    expect(explore(b)).toEqual([false]);
    // A load while hidden: the fresh workers hear it before anything else.
    c.load(settings);
    const [a2, b2] = FakeWorker.all.slice(-2);
    expect(a2).not.toBe(a);
    expect(a2.sent[0]).toMatchObject({ type: 'explore', on: false });
    expect(b2.sent[0]).toMatchObject({ type: 'explore', on: false });
    c.setPageHidden(false);
    expect(explore(a2)).toEqual([false, true]);
    expect(explore(b2)).toEqual([false, true]);
  });
});

describe('Conductor speed', () => {
  it('tells the clock listeners (the slider) of a new speed at once, and the page as a background change', async () => {
    const { c } = await loaded();
    const heard: number[] = [];
    const urgency: boolean[] = [];
    c.subscribeClock(() => heard.push(c.getLive().speed));
    c.subscribe((urgent) => urgency.push(urgent));
    c.setSpeed(DEFAULT_SPEED * 4);
    expect(heard).toEqual([DEFAULT_SPEED * 4]);
    expect(urgency).toEqual([false]);
    expect(c.getState().speed).toBe(DEFAULT_SPEED * 4);
  });
});
