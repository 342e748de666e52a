// Going to the next or previous event (the worker's `find`, web/src/engine/find.ts)
// against a brute-force answer: one run with its whole trace recorded gives
// every drop, ECN mark, token, decision and flow completion time; from
// random times and from the events' own times, findEvent on a second engine
// (reused from search to search, as a worker's is) must land on exactly the
// nearest one after or before, and say when there is none.

import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync, Engine } from '../../web/src/engine-glue/dcsim_wasm.js';
import { NAV_EVENTS, type NavEvent } from '../../web/src/engine/api';
import { findEvent, isNavEvent } from '../../web/src/engine/find';
import { rng } from './rng';

const root = join(__dirname, '..', '..');
beforeAll(() => initSync({ module: readFileSync(join(root, 'web/src/engine-glue/dcsim_wasm_bg.wasm')) }));

/** The shipped lessons' small leaf-spine (8 hosts) with `flows` web search flows. */
function scenario(protocol: string, flows = 40): string {
  const s = JSON.parse(readFileSync(join(root, 'scenarios/lessons/pfabric-vs-dctcp.json'), 'utf8')).scenario;
  return JSON.stringify({ ...s, protocol, workload: { ...s.workload, flows } });
}

/** Every event time of each kind in the whole run, sorted. */
function allEvents(json: string): Record<NavEvent, number[]> {
  const e = new Engine(json, true);
  const out = Object.fromEntries(NAV_EVENTS.map((k) => [k, [] as number[]])) as Record<NavEvent, number[]>;
  for (;;) {
    const alive = e.advance(1 << 16, Infinity, false);
    const a = e.take_trace();
    for (let o = 0; o < a.length; o += 9) for (const k of NAV_EVENTS) if (isNavEvent(a, o, k)) out[k].push(a[o]);
    const c = e.take_completions();
    for (let o = 0; o < c.length; o += 7) if (c[o + 3] >= 0) out.flow_completed.push(c[o + 2] + c[o + 3]);
    if (!alive) break;
  }
  e.free();
  for (const k of NAV_EVENTS) out[k].sort((x, y) => x - y);
  return out;
}

describe('find the next or previous event', () => {
  const cases: [string, NavEvent[]][] = [
    ['pfabric', ['drop', 'flow_completed']],
    ['dctcp', ['ecn_mark']],
    ['phost', ['token']],
    ['pdq', ['decision']],
    ['ideal', ['flow_completed']],
  ];
  for (const [protocol, kinds] of cases) {
    it(`${protocol}: ${kinds.join(', ')} land exactly on the nearest event, and none past the last`, () => {
      const json = scenario(protocol);
      const all = allEvents(json);
      const e = new Engine(json, true);
      const r = rng(protocol.length * 7919);
      try {
        for (const k of kinds) {
          const ts = all[k];
          expect(ts.length, `${protocol} has ${k} events`).toBeGreaterThan(2);
          const end = ts[ts.length - 1];
          const froms = [0, ts[0], ts[1], ts[Math.floor(ts.length / 2)], end, end + 1, ...Array.from({ length: 6 }, () => Math.floor(r.next() * end))];
          for (const from of froms) {
            const next = ts.find((t) => t > from) ?? null;
            const prev = [...ts].reverse().find((t) => t < from) ?? null;
            expect(findEvent(e, k, 'next', from, Infinity).tPs, `${protocol} next ${k} after ${from}`).toBe(next);
            expect(findEvent(e, k, 'previous', from, Infinity).tPs, `${protocol} previous ${k} before ${from}`).toBe(prev);
          }
        }
        // A kind the protocol never has: none either way, over the whole run.
        if (protocol === 'ideal') {
          expect(findEvent(e, 'drop', 'next', 0, Infinity)).toMatchObject({ tPs: null });
          expect(findEvent(e, 'drop', 'previous', 1e12, Infinity)).toMatchObject({ tPs: null, searchedPs: 0 });
        }
      } finally {
        e.free();
      }
    }, 120_000);
  }

  it('the trace is switched back off when it was off, and a search out of wall time finds nothing rather than a wrong event', () => {
    const json = scenario('pfabric');
    const all = allEvents(json);
    const e = new Engine(json, false);
    try {
      const from = all.drop[all.drop.length - 1];
      expect(findEvent(e, 'drop', 'previous', from, Infinity).tPs).toBe(all.drop[all.drop.length - 2]);
      expect(e.tracing()).toBe(false);
      // A clock that is always late: the first window is not looked at to its end.
      let t = 0;
      expect(findEvent(e, 'drop', 'previous', from, 5, () => (t += 10)).tPs).toBeNull();
    } finally {
      e.free();
    }
  }, 120_000);
});
