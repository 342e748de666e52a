// Finding the next or previous event of a kind in a run (the worker's
// `find` request): the page's "next drop", "previous token" and the rest
// land the clock exactly on the event's time. Forward, the run is moved to
// the time on screen and advanced (trace on) until the first such record;
// backward, it is moved to a window before that time and replayed across
// it, the window growing fourfold until an event is in it or it reaches
// time zero. Time travel makes both exact (engine `seek`). Pure, no DOM:
// it runs in the worker and in Node.

import { CONTROL_NAMES, FLOW_WIDTH, TRACE_WIDTH, TraceCode, type NavEvent } from './api';

/** The engine calls `findEvent` needs (the WebAssembly `Engine`). */
export interface FindEngine {
  seek(tPs: number): number;
  advance(maxEvents: number, untilPs: number, stopOnCompletion: boolean): boolean;
  take_trace(): ArrayLike<number>;
  take_completions(): ArrayLike<number>;
  next_event_ps(): number;
  now_ps(): number;
  tracing(): boolean;
  set_trace(on: boolean): void;
}

const TOKEN = CONTROL_NAMES.indexOf('token');

/** Whether trace record `o` of the flat trace `a` is an event of kind `ev` (flow completions are read from completions instead). */
export function isNavEvent(a: ArrayLike<number>, o: number, ev: NavEvent): boolean {
  const code = a[o + 1];
  switch (ev) {
    case 'drop':
      return code === TraceCode.Drop;
    case 'ecn_mark':
      return code === TraceCode.EcnMark;
    case 'token':
      return code === TraceCode.Control && a[o + 6] === TOKEN;
    case 'decision':
      return code === TraceCode.Decision;
    case 'flow_completed':
      return false;
  }
}

/** Completion times (start + FCT) of flat completed-flow records. */
function ends(c: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let o = 0; o + FLOW_WIDTH <= c.length; o += FLOW_WIDTH) if (c[o + 3] >= 0) out.push(c[o + 2] + c[o + 3]);
  return out;
}

/** The earliest (`first`) or latest event of kind `ev` in a trace chunk and its completions with lo <= t < hi (lo < t when `strict`). */
function scan(a: ArrayLike<number>, c: ArrayLike<number>, ev: NavEvent, lo: number, hi: number, strict: boolean, first: boolean): number | null {
  let best: number | null = null;
  const take = (t: number) => {
    if ((strict ? t <= lo : t < lo) || t >= hi) return;
    if (best === null || (first ? t < best : t > best)) best = t;
  };
  if (ev === 'flow_completed') for (const t of ends(c)) take(t);
  else for (let o = 0; o + TRACE_WIDTH <= a.length; o += TRACE_WIDTH) if (isNavEvent(a, o, ev)) take(a[o]);
  return best;
}

/** Events per engine call while searching. */
const CHUNK = 4096;
/** The first backward window, ps (100 us); it grows fourfold. */
const FIRST_WINDOW_PS = 100e6;

/**
 * The time of the next event of kind `ev` after `fromPs` (strictly), or the
 * previous one before it, searching for at most `maxWallMs` (`now`: a wall
 * clock in ms). `searchedPs` says how far it looked when it found nothing.
 * The run is left where the search ended (its trace switched back as it
 * was): the caller seeks afterwards.
 */
export function findEvent(e: FindEngine, ev: NavEvent, direction: 'next' | 'previous', fromPs: number, maxWallMs: number, now: () => number = () => performance.now()): { tPs: number | null; searchedPs: number } {
  const t0 = now();
  const traced = e.tracing();
  if (!traced) e.set_trace(true);
  try {
    return direction === 'next' ? forward(e, ev, fromPs, () => now() - t0 > maxWallMs) : backward(e, ev, fromPs, () => now() - t0 > maxWallMs);
  } finally {
    if (!traced) e.set_trace(false);
  }
}

function forward(e: FindEngine, ev: NavEvent, fromPs: number, late: () => boolean): { tPs: number | null; searchedPs: number } {
  e.seek(fromPs);
  e.take_trace();
  // A flow-level run reports every completion at once, those after fromPs too.
  let found = scan([], e.take_completions(), ev, fromPs, Infinity, true, true);
  while (found === null && e.next_event_ps() >= 0 && !late()) {
    const alive = e.advance(CHUNK, Infinity, false);
    found = scan(e.take_trace(), e.take_completions(), ev, fromPs, Infinity, true, true);
    if (!alive) break;
  }
  return { tPs: found, searchedPs: found ?? Math.max(fromPs, e.now_ps()) };
}

function backward(e: FindEngine, ev: NavEvent, fromPs: number, late: () => boolean): { tPs: number | null; searchedPs: number } {
  if (fromPs <= 0) return { tPs: null, searchedPs: 0 };
  if (ev === 'flow_completed') {
    // Every completion so far comes with the seek.
    e.seek(fromPs - 1);
    e.take_trace();
    return { tPs: scan([], e.take_completions(), ev, 0, fromPs, false, false), searchedPs: 0 };
  }
  for (let w = FIRST_WINDOW_PS; ; w *= 4) {
    const lo = Math.max(0, fromPs - w);
    // The state just before lo: the window's events are replayed (at 0, the lead-in holds those at 0).
    e.seek(lo > 0 ? lo - 1 : 0);
    let found = scan(e.take_trace(), [], ev, lo, fromPs, false, false);
    e.take_completions();
    for (;;) {
      const next = e.next_event_ps();
      if (next < 0 || next >= fromPs) break;
      // A window not looked at to its end says nothing about the latest event in it.
      if (late()) return { tPs: null, searchedPs: fromPs };
      const alive = e.advance(CHUNK, fromPs - 1, false);
      const t = scan(e.take_trace(), [], ev, lo, fromPs, false, false);
      if (t !== null && (found === null || t > found)) found = t;
      e.take_completions();
      if (!alive) break;
    }
    if (found !== null) return { tPs: found, searchedPs: found };
    if (lo === 0 || late()) return { tPs: null, searchedPs: lo };
  }
}
