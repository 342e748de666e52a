// The messages of a live class, as `dcsim serve` defines them
// (engine/cli/src/serve/protocol.rs: the server validates every one), and
// what a student's page makes of the room's action log: the state the
// instructor's page is in (`fold`), which the student's page brings its own
// engine to (follow.ts), and the fingerprint both compare.

import type { RunState } from '../state/run';

/** The kinds of step (as the server spells them). */
export type StepWhat = 'event' | 'rtt' | 'back_event' | 'back_rtt';

/** What an instructor's action does. */
export type Op =
  | { kind: 'load'; settings: Record<string, unknown> }
  | { kind: 'lesson'; name: string }
  | { kind: 'lesson_step'; step: number }
  | { kind: 'play' }
  | { kind: 'pause' }
  | { kind: 'speed'; speed: number }
  | { kind: 'step'; what: StepWhat }
  | { kind: 'seek'; t_ps: number }
  | { kind: 'run_to'; t_ps: number }
  | { kind: 'finish' }
  | { kind: 'reveal'; step: number }
  | { kind: 'branch'; branch: Record<string, unknown> }
  | { kind: 'close_branch' }
  | { kind: 'pacing'; mode: Pacing }
  | { kind: 'bring_back' };

/** "Follow me" or "explore". */
export type Pacing = 'follow' | 'explore';

/** One action, stamped with the instructor's simulated time (integer picoseconds). */
export interface Action {
  at_ps: number;
  op: Op;
}

/** The instructor's run fingerprint at a time. */
export interface StateReport {
  t_ps: number;
  fingerprint: string;
}

/** A message from the server. */
export type ServerMsg =
  | { type: 'created'; code: string; secret: string }
  | { type: 'joined'; role: 'instructor' | 'student'; code: string; log: Action[]; instructor: boolean; students: number; state: StateReport | null }
  | { type: 'action'; seq: number; action: Action }
  | { type: 'ack'; seq: number }
  | { type: 'tick'; t_ps: number }
  | { type: 'state'; t_ps: number; fingerprint: string }
  | { type: 'presence'; instructor: boolean; students: number }
  | { type: 'tally'; step: number; counts: Record<string, number>; names: [string, string][] | null }
  | { type: 'whatif'; from: string; branch: Record<string, unknown>; note: string | null }
  | { type: 'error'; code: string; message: string }
  | { type: 'pong' };

/** A message to the server. */
export type ClientMsg =
  | { type: 'create'; restore?: { code: string; secret: string; log: Action[] } }
  | { type: 'join'; code: string; name?: string }
  | { type: 'claim'; code: string; secret: string }
  | { type: 'action'; action: Action }
  | { type: 'tick'; t_ps: number }
  | { type: 'state'; t_ps: number; fingerprint: string }
  | { type: 'show_names'; on: boolean }
  | { type: 'vote'; step: number; choice: string }
  | { type: 'whatif'; branch: Record<string, unknown>; note?: string }
  | { type: 'ping' };

/** What the instructor's page shows, as the log says (the student's page is brought to it). */
export interface Desired {
  /** The last settings loaded (null: nothing yet). */
  settings: Record<string, unknown> | null;
  /** The lesson on screen (null: none). */
  lesson: string | null;
  lessonStep: number;
  /** Predict steps whose answer was revealed. */
  revealed: number[];
  /** The what-if branch beside the runs (null: none). */
  branch: Record<string, unknown> | null;
  playing: boolean;
  speed: number | null;
  /** The runs were run to their end. */
  finished: boolean;
  pacing: Pacing;
  /** The instructor's time as the log knows it (a state report or a tick may be later). */
  atPs: number;
}

/** The state an action log leads to (a pure fold: late joiners, reloads and returns start from it). */
export function fold(log: readonly Action[]): Desired {
  const d: Desired = { settings: null, lesson: null, lessonStep: 0, revealed: [], branch: null, playing: false, speed: null, finished: false, pacing: 'follow', atPs: 0 };
  for (const a of log) {
    const op = a.op;
    d.atPs = a.at_ps;
    switch (op.kind) {
      case 'load':
        // A load starts a run over: branch, end and play state go with the old run.
        Object.assign(d, { settings: op.settings, branch: null, finished: false, playing: false, atPs: 0 });
        break;
      case 'lesson':
        Object.assign(d, { lesson: op.name, lessonStep: 0, revealed: [] });
        break;
      case 'lesson_step':
        d.lessonStep = op.step;
        break;
      case 'play':
        d.playing = true;
        break;
      case 'pause':
        d.playing = false;
        break;
      case 'speed':
        d.speed = op.speed;
        break;
      case 'step':
      case 'seek':
      case 'run_to':
        d.playing = false;
        if (op.kind !== 'step') d.atPs = op.t_ps;
        break;
      case 'finish':
        d.finished = true;
        d.playing = false;
        break;
      case 'reveal':
        if (!d.revealed.includes(op.step)) d.revealed = [...d.revealed, op.step];
        break;
      case 'branch':
        d.branch = op.branch;
        d.playing = false;
        break;
      case 'close_branch':
        d.branch = null;
        break;
      case 'pacing':
        d.pacing = op.mode;
        break;
      case 'bring_back':
        d.pacing = 'follow';
        break;
    }
  }
  return d;
}

/** FNV-1a, 64 bits, over a string's UTF-16 code units (two 32-bit halves; JavaScript has no 64-bit integer arithmetic on numbers). */
export function fnv1a64(s: string): string {
  let h1 = 0x84222325, h0 = 0xcbf29ce4; // offset basis cbf29ce484222325, low and high halves
  for (let i = 0; i < s.length; i++) {
    h1 = (h1 ^ s.charCodeAt(i)) >>> 0;
    // Multiply by the prime 0x100000001b3 = 2^40 + 0x1b3, modulo 2^64.
    const lo = h1 * 0x1b3;
    const hi = h0 * 0x1b3 + ((h1 << 8) >>> 0) + Math.floor(lo / 0x100000000);
    h1 = lo >>> 0;
    h0 = hi >>> 0;
  }
  return h0.toString(16).padStart(8, '0') + h1.toString(16).padStart(8, '0');
}

/**
 * A fingerprint of the runs' state at the time on screen: for every run,
 * its label, the time of its last event and of its next, events processed,
 * flows completed (each with its completion time, in flow order) and every port's
 * buffered bytes, hashed (FNV-1a, 64 bits). Two pages whose engines reached
 * the same state by any path (stepping, seeking, catching up from the log)
 * show the same fingerprint; one event more or less changes it.
 */
export function fingerprint(runs: readonly RunState[]): string {
  const parts = runs.map((r) => [r.protocol, r.nowPs, r.nextPs, r.events, r.done, r.flows.map((f) => `${f.flow}:${f.fctPs}`).sort().join(','), Array.from(r.queueBytes).join(',')].join('|'));
  return fnv1a64(parts.join('\n'));
}
