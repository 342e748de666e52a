// SimClient against a fake Worker: replies are matched to requests by id
// (in whatever order they come), an engine error rejects only its request,
// a crash, a restart or dispose rejects every waiting request, and
// messages without an id reach the listener.

import { describe, expect, it } from 'vitest';
import type { Unsolicited, WorkerEnvelope } from './api';
import { EngineError, SimClient, WorkerGone } from './client';

/** A stand-in for the module worker: records what it is sent, replies when told. */
class FakeWorker {
  sent: WorkerEnvelope[] = [];
  terminated = false;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: { message: string; preventDefault(): void }) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  postMessage(m: WorkerEnvelope) {
    this.sent.push(m);
  }
  terminate() {
    this.terminated = true;
  }
  /** The worker posts `m`. */
  say(m: object) {
    this.onmessage?.({ data: m });
  }
  /** The worker dies with an uncaught error. */
  die(message: string) {
    this.onerror?.({ message, preventDefault() {} });
  }
}

function setup() {
  const workers: FakeWorker[] = [];
  const unsolicited: Unsolicited[] = [];
  const crashes: string[] = [];
  const client = new SimClient(
    { onMessage: (m) => unsolicited.push(m), onCrash: (m) => crashes.push(m) },
    () => {
      const w = new FakeWorker();
      workers.push(w);
      return w as unknown as Worker;
    },
  );
  return { client, workers, worker: () => workers[workers.length - 1], unsolicited, crashes };
}

type Standing = { resolved: unknown } | { rejected: unknown } | 'pending';

/** Follows a promise from the moment it is made (so a rejection is never unhandled). */
function track(p: Promise<unknown>): { now: Standing } {
  const t: { now: Standing } = { now: 'pending' };
  p.then(
    (v) => (t.now = { resolved: v }),
    (e) => (t.now = { rejected: e }),
  );
  return t;
}

/** Lets every settled promise's callbacks run. */
const tick = () => new Promise((r) => setTimeout(r, 0));

const frame = (nowPs: number) => ({ type: 'frame', nowPs });

const gone = (t: { now: Standing }, crashed: boolean) => {
  expect(t.now).toMatchObject({ rejected: expect.any(WorkerGone) });
  expect((t.now as { rejected: WorkerGone }).rejected.crashed).toBe(crashed);
};

describe('SimClient', () => {
  it('sends each request with a fresh id and resolves it with the reply carrying that id', async () => {
    const { client, worker } = setup();
    const p = track(client.request({ type: 'seek', tPs: 5 }));
    const q = track(client.request({ type: 'flow', flow: 7 }));
    const [a, b] = worker().sent;
    expect(a).toMatchObject({ type: 'seek', tPs: 5 });
    expect(b).toMatchObject({ type: 'flow', flow: 7 });
    expect(a.id).not.toBe(b.id);
    worker().say({ type: 'flow', flow: 7, info: null, id: b.id });
    await tick();
    expect(p.now).toBe('pending');
    expect(q.now).toEqual({ resolved: { type: 'flow', flow: 7, info: null, id: b.id } });
    worker().say({ ...frame(5), id: a.id });
    await tick();
    expect(p.now).toEqual({ resolved: { ...frame(5), id: a.id } });
  });

  it('matches replies that come out of order, and ignores ids it never sent or already answered', async () => {
    const { client, worker } = setup();
    const ps = [10, 20, 30].map((t) => client.request({ type: 'seek', tPs: t }));
    const ids = worker().sent.map((m) => m.id);
    worker().say({ ...frame(999), id: Math.max(...ids) + 1 });
    worker().say({ ...frame(30), id: ids[2] });
    worker().say({ ...frame(10), id: ids[0] });
    worker().say({ ...frame(-1), id: ids[2] }); // a second reply to an answered request
    worker().say({ ...frame(20), id: ids[1] });
    const got = await Promise.all(ps);
    expect(got.map((f) => f.nowPs)).toEqual([10, 20, 30]);
    expect(client.waiting).toBe(0);
  });

  it("rejects only the refused request, with the engine's message", async () => {
    const { client, worker } = setup();
    const p = track(client.request({ type: 'load', scenario: {}, trace: true }));
    const q = track(client.request({ type: 'trace', on: false }));
    const [a, b] = worker().sent;
    worker().say({ type: 'error', message: 'workload.flows: must be positive', during: 'load', id: a.id });
    await tick();
    expect(p.now).toMatchObject({ rejected: expect.any(EngineError) });
    const e = (p.now as { rejected: EngineError }).rejected;
    expect([e.message, e.during]).toEqual(['workload.flows: must be positive', 'load']);
    expect(q.now).toBe('pending');
    worker().say({ type: 'done', id: b.id });
    await tick();
    expect(q.now).toEqual({ resolved: { type: 'done', id: b.id } });
  });

  it('a crash rejects every waiting request, tells the listener once, and refuses later requests', async () => {
    const { client, worker, crashes } = setup();
    const ps = [
      track(client.request({ type: 'advance', untilPs: 1, maxEvents: Infinity, stopOnCompletion: false, maxWallMs: 12 })),
      track(client.request({ type: 'flow', flow: 1 })),
      track(client.request({ type: 'finish' })),
    ];
    worker().die('RuntimeError: unreachable');
    const later = track(client.request({ type: 'seek', tPs: 0 }));
    await tick();
    for (const t of [...ps, later]) gone(t, true);
    expect(crashes).toEqual(['RuntimeError: unreachable']);
    expect(worker().terminated).toBe(true);
    expect(client.waiting).toBe(0);
    expect(worker().sent).toHaveLength(3);
  });

  it('an unreadable message counts as a crash', async () => {
    const { client, worker, crashes } = setup();
    const p = track(client.request({ type: 'seek', tPs: 0 }));
    worker().onmessageerror?.();
    await tick();
    gone(p, true);
    expect(crashes).toHaveLength(1);
  });

  it('dispose rejects every waiting request and every later one', async () => {
    const { client, worker, crashes } = setup();
    const p = track(client.request({ type: 'load', scenario: {}, trace: false }));
    const q = track(client.request({ type: 'finish' }));
    client.dispose();
    expect(worker().terminated).toBe(true);
    const later = track(client.request({ type: 'finish' }));
    await tick();
    for (const t of [p, q, later]) gone(t, false);
    expect(worker().sent).toHaveLength(2);
    expect(crashes).toEqual([]);
  });

  it('restart rejects what waited on the old worker, ignores it from then on, and answers on the new one', async () => {
    const { client, workers, worker, crashes } = setup();
    const p = track(client.request({ type: 'seek', tPs: 1 }));
    const old = worker();
    client.restart();
    expect(old.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    const q = track(client.request({ type: 'seek', tPs: 2 }));
    const id = worker().sent[0].id;
    old.say({ ...frame(1), id }); // a late message of the old worker, even with a live id
    old.die('late');
    await tick();
    gone(p, false);
    expect(q.now).toBe('pending');
    expect(crashes).toEqual([]);
    worker().say({ ...frame(2), id });
    await tick();
    expect(q.now).toEqual({ resolved: { ...frame(2), id } });
  });

  it('messages without an id go to the listener and answer nothing', async () => {
    const { client, worker, unsolicited } = setup();
    const p = track(client.request({ type: 'seek', tPs: 0 }));
    const explored = { type: 'explored', timeline: { coarse: 2, fine: 0, bytes: 10, budget_bytes: 100, interval_events: 1e6, explored_ps: 5e9, explored_all: false } };
    const failed = { type: 'error', message: 'explore failed', during: 'seek' };
    worker().say(explored);
    worker().say(failed);
    await tick();
    expect(unsolicited).toEqual([explored, failed]);
    expect(p.now).toBe('pending');
  });

  it('is busy while a request that runs the engine waits, not for queries', async () => {
    const { client, worker } = setup();
    expect(client.busy).toBe(false);
    const q = client.request({ type: 'flow', flow: 3 });
    expect(client.busy).toBe(false);
    const p = client.request({ type: 'advance', untilPs: 1, maxEvents: 1, stopOnCompletion: false, maxWallMs: 1 });
    expect(client.busy).toBe(true);
    const [a, b] = worker().sent;
    worker().say({ ...frame(1), id: b.id });
    await p;
    expect(client.busy).toBe(false);
    expect(client.waiting).toBe(1);
    worker().say({ type: 'flow', flow: 3, info: null, id: a.id });
    await q;
    expect(client.waiting).toBe(0);
  });
});
