// The conductor's phases as an explicit state machine (pure, no DOM, no
// workers): what the page is doing (loading, replaying to a time after a
// restart, ready, looking for an event, time travelling, crashed), the
// clock's mode where it can vary, the seek waiting for the workers, and
// the run states being rebuilt out of sight. `reduce` says what can happen
// in each phase; the conductor sends it what the controls ask and what
// the workers answer, and does what the new phase says.
//
// Every phase carries the load's generation: an answer of an older load
// (an event with another `gen`) changes nothing.

import type { RunState } from './run';

/** What the clock is doing. */
export type Mode = 'paused' | 'playing' | 'full';

/** A time-travel request: where to, and what asked (a seek, a step back by one event or one RTT, a search's landing). */
export interface Travel {
  /** Target time, picoseconds. */
  tPs: number;
  /** What asked (the status line's wording, and which time is shown). */
  what: 'seek' | 'event' | 'rtt' | 'find';
  /** The status line's start (a search's result); '' for the default wording. */
  prefix: string;
}

/** What the page is doing. */
export type Phase =
  /** Fresh workers are loading; `replayTo`: a restart then replays to that time, `buffer` the runs it rebuilds (shown once there). */
  | { kind: 'loading'; gen: number; replayTo: number | null; buffer: RunState[] }
  /** Loaded; replaying (trace off) to `tPs` after a restart, into `buffer`. */
  | { kind: 'replaying'; gen: number; tPs: number; buffer: RunState[] }
  /** Loaded, the clock `mode`; workers may be answering a step or a slice; `queued`: a seek waiting for them. */
  | { kind: 'ready'; gen: number; mode: Mode; queued: Travel | null }
  /** The workers look for the next or previous event (nothing plays meanwhile); `queued`: a seek asked meanwhile. */
  | { kind: 'finding'; gen: number; queued: Travel | null }
  /** Time travel: every worker goes to `travel.tPs`; the runs land in `buffer`, shown at once when all are in. */
  | { kind: 'traveling'; gen: number; mode: Mode; travel: Travel; buffer: RunState[]; queued: Travel | null }
  /** A worker died: nothing moves until a restart (a load). */
  | { kind: 'crashed'; gen: number; message: string };

/** What can happen: controls the page asks for and answers of the workers. */
export type PhaseEvent =
  /** A new load (settings, restart): fresh workers, a new generation. */
  | { type: 'load'; replayTo: number | null; runs: RunState[] }
  /** Every worker has loaded. */
  | { type: 'loaded'; gen: number }
  /** A restart's replay reached its time. */
  | { type: 'replayed'; gen: number }
  /** The engine refused a load (the page shows why): no replay. */
  | { type: 'load_failed'; gen: number }
  /** A worker crashed. */
  | { type: 'crash'; gen: number; message: string }
  /** Play (refused once every run has `finished`). */
  | { type: 'play'; finished: boolean }
  /** Pause. */
  | { type: 'pause' }
  /** Full speed (refused once every run has `finished`). */
  | { type: 'full'; finished: boolean }
  /** Every run has finished: the clock stops. */
  | { type: 'finished'; gen: number }
  /** Look for an event; only when the workers are `idle`. */
  | { type: 'find'; idle: boolean }
  /** Go to a time; at once when the workers are `idle`, else queued (the latest request wins). */
  | { type: 'seek'; travel: Travel; idle: boolean; runs: RunState[] }
  /** A search is over: land on its result. */
  | { type: 'found'; gen: number; travel: Travel; runs: RunState[] }
  /** A search's answers no longer count (a newer load, a crash). */
  | { type: 'find_dropped'; gen: number }
  /** Every worker has landed (the runs in the buffer are shown). */
  | { type: 'landed'; gen: number }
  /** No worker is busy: a queued seek may start (with the runs on screen). */
  | { type: 'settled'; gen: number; runs: RunState[] };

/** The clock's mode in phase `p` (paused where it cannot move). */
export function modeOf(p: Phase): Mode {
  return p.kind === 'ready' || p.kind === 'traveling' ? p.mode : 'paused';
}

/** The run states a phase rebuilds out of sight (null: frames go to the runs on screen). */
export function bufferOf(p: Phase): RunState[] | null {
  if (p.kind === 'traveling' || p.kind === 'replaying') return p.buffer;
  if (p.kind === 'loading' && p.replayTo !== null) return p.buffer;
  return null;
}

/** Phase `p` with run `i` of its buffer replaced by `f` of it (unchanged when it has none). */
export function withBufferRun(p: Phase, i: number, f: (r: RunState) => RunState): Phase {
  const b = bufferOf(p);
  if (!b) return p;
  const buffer = b.slice();
  buffer[i] = f(buffer[i]);
  return { ...p, buffer } as Phase;
}

/** A restart is replaying the run (the page's "replaying to t = …"). */
export function isReplaying(p: Phase): boolean {
  return p.kind === 'replaying' || (p.kind === 'loading' && p.replayTo !== null);
}

/** The phase before the first load. */
export const INITIAL_PHASE: Phase = { kind: 'loading', gen: 0, replayTo: null, buffer: [] };

/** Whether event `e` belongs to another generation than phase `p` (an answer of a replaced load). */
function stale(p: Phase, e: PhaseEvent): boolean {
  return 'gen' in e && e.gen !== p.gen;
}

/**
 * The phase after event `e` in phase `p`. An event a phase does not allow
 * (a seek while loading, play while looking for an event, an answer of an
 * older generation) returns `p` itself, unchanged: `reduce(p, e) === p`
 * says it was refused.
 */
export function reduce(p: Phase, e: PhaseEvent): Phase {
  if (e.type === 'load') return { kind: 'loading', gen: p.gen + 1, replayTo: e.replayTo, buffer: e.runs };
  if (stale(p, e)) return p;
  switch (e.type) {
    case 'loaded':
      if (p.kind !== 'loading') return p;
      return p.replayTo === null ? { kind: 'ready', gen: p.gen, mode: 'paused', queued: null } : { kind: 'replaying', gen: p.gen, tPs: p.replayTo, buffer: p.buffer };
    case 'replayed':
      return p.kind === 'replaying' ? { kind: 'ready', gen: p.gen, mode: 'paused', queued: null } : p;
    case 'load_failed':
      if (p.kind === 'loading' && p.replayTo !== null) return { ...p, replayTo: null };
      return p.kind === 'replaying' ? { kind: 'ready', gen: p.gen, mode: 'paused', queued: null } : p;
    case 'crash':
      return p.kind === 'crashed' ? p : { kind: 'crashed', gen: p.gen, message: e.message };
    case 'play':
      // Not while a search looks or lands; again while playing is no change (the clock restarts).
      if (e.finished || p.kind === 'finding' || (p.kind === 'traveling' && p.travel.what === 'find')) return p;
      return (p.kind === 'ready' || p.kind === 'traveling') && p.mode !== 'playing' ? { ...p, mode: 'playing' } : p;
    case 'full':
      if (e.finished || (p.kind !== 'ready' && p.kind !== 'traveling') || p.mode === 'full') return p;
      return { ...p, mode: 'full' };
    case 'pause':
    case 'finished':
      return (p.kind === 'ready' || p.kind === 'traveling') && p.mode !== 'paused' ? { ...p, mode: 'paused' } : p;
    case 'find':
      return p.kind === 'ready' && e.idle && p.queued === null ? { kind: 'finding', gen: p.gen, queued: null } : p;
    case 'found':
      return p.kind === 'finding' ? { kind: 'traveling', gen: p.gen, mode: 'paused', travel: e.travel, buffer: e.runs, queued: p.queued } : p;
    case 'find_dropped':
      return p.kind === 'finding' ? { kind: 'ready', gen: p.gen, mode: 'paused', queued: p.queued } : p;
    case 'seek':
      if (p.kind === 'ready' && e.idle && p.queued === null) return { kind: 'traveling', gen: p.gen, mode: p.mode, travel: e.travel, buffer: e.runs, queued: null };
      if (p.kind === 'ready' || p.kind === 'finding' || p.kind === 'traveling') return { ...p, queued: e.travel };
      return p;
    case 'landed':
      return p.kind === 'traveling' ? { kind: 'ready', gen: p.gen, mode: p.mode, queued: p.queued } : p;
    case 'settled':
      if (p.kind !== 'ready' || p.queued === null) return p;
      return { kind: 'traveling', gen: p.gen, mode: p.mode, travel: p.queued, buffer: e.runs, queued: null };
  }
}
