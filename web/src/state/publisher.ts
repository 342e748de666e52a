// Publishing the conductor's state to the page (the `Conductor`'s base):
// the state the views read, the page's and the clock's listeners, how
// often a change made while playing reaches the page (CLOCK_STATE_MS), and
// the phase machine's glue (state/phase.ts): every control and answer is
// an event, and the phase it leads to is shown.

import type { TimelineStats } from '../engine/api';
import type { RunState } from './run';
import type { Settings } from './settings';
import { INITIAL_PHASE, isReplaying, modeOf, reduce, type Mode, type Phase, type PhaseEvent } from './phase';

/** Everything the page shows, replaced (never mutated) on each change. */
export interface ConductorState {
  settings: Settings;
  runs: RunState[];
  mode: Mode;
  /** The simulated time on screen, picoseconds. */
  displayPs: number;
  /** Simulated picoseconds per wall second while playing. */
  speed: number;
  /** Base RTT of the topology (the "step one RTT" unit), picoseconds. */
  rttPs: number;
  /** A line saying what the last control did. */
  status: string;
  /** Set when a worker died; the restart button clears it. */
  crashed: string | null;
  /** A restart is replaying the run (phase `loading` with a time to replay to, or `replaying`). */
  seeking: boolean;
  /** All runs are loaded (topology known). */
  loaded: boolean;
  /** Wall time (ms) of the last full-speed run, from start to the last summary. */
  fullSpeedWallMs: number | null;
  /** Port being inspected. */
  inspectPort: number | null;
  /** Flow being inspected. */
  selectedFlow: number | null;
  /** Time travel: what each worker's checkpoints hold (null until known). */
  timelines: (TimelineStats | null)[];
  /** Wall time of the last time-travel seek or step back, ms (page request to the last reply). */
  lastSeekMs: number | null;
  /** A branch's divergence time, marked on the scrubber (null: no branch). */
  divergencePs: number | null;
  /** What the page is doing (phase.ts); `mode`, `seeking` and `crashed` are read from it. */
  phase: Phase;
}

/**
 * While playing, the time on screen moves every animation frame and the
 * workers' frames land several times a second: the clock's listeners (the
 * networks' canvases, the clock, the scrubber) hear of every change and
 * read it live (`getClock`, `getLive`); the page's state, which re-renders
 * the whole page, takes them at most this often (the event logs, the
 * panels, the charts, the lesson). Every change made while not playing (a
 * pause, a step, a seek) is published at once.
 */
export const CLOCK_STATE_MS = 200;

/** Default speed: 2 microseconds of simulated time per wall second, slow enough to watch packets. */
export const DEFAULT_SPEED = 2_000_000;

/**
 * Hears that the page's state (`getState`) changed. `urgent` is false for
 * the publishes made while playing (the clock and the workers' frames,
 * every CLOCK_STATE_MS) and for time travel's background statistics: the
 * page may render those in pieces between animation frames (a React
 * transition) instead of in one task.
 */
export type PageListener = (urgent: boolean) => void;

/** The conductor's state, its listeners and its phase (the base of `Conductor`). */
export abstract class Publisher {
  /** The state as it is; `shown` is what the page last rendered from (see CLOCK_STATE_MS). */
  protected state: ConductorState;
  protected shown: ConductorState;
  protected shownAt = 0;
  protected listeners = new Set<PageListener>();
  protected clockListeners = new Set<() => void>();
  /** What the page is doing; its generation grows on every load so late answers of old workers are ignored. */
  protected phase: Phase = INITIAL_PHASE;

  constructor(settings: Settings) {
    this.state = {
      settings,
      runs: [],
      mode: 'paused',
      displayPs: 0,
      speed: DEFAULT_SPEED,
      rttPs: 0,
      status: '',
      crashed: null,
      seeking: false,
      loaded: false,
      fullSpeedWallMs: null,
      inspectPort: null,
      selectedFlow: null,
      timelines: [],
      lastSeekMs: null,
      divergencePs: null,
      phase: INITIAL_PHASE,
    };
    this.shown = this.state;
  }

  /** Subscribes the page to changes of `getState` (see {@link PageListener} and `useConductorState`). */
  subscribe = (fn: PageListener) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  /** The current state (while playing, its `displayPs` lags the clock by at most CLOCK_STATE_MS). */
  getState = () => this.shown;
  /** Subscribes to every move of the time on screen (the canvases, the clock): called once per animation frame while playing. */
  subscribeClock = (fn: () => void) => {
    this.clockListeners.add(fn);
    return () => this.clockListeners.delete(fn);
  };
  /** The simulated time on screen now, picoseconds. */
  getClock = () => this.state.displayPs;
  /** The state as it is now, ahead of `getState` while playing (for views that draw every animation frame). */
  getLive = () => this.state;
  /** The run of `protocol` as it is now (its network canvas draws it every animation frame). */
  getLiveRun = (protocol: string) => this.state.runs.find((r) => r.protocol === protocol);

  /** Changes the state and publishes it to the page (`urgent`: see {@link PageListener}). */
  protected set(patch: Partial<ConductorState>, urgent = true) {
    this.state = { ...this.state, ...patch };
    this.publish(urgent);
  }
  protected publish(urgent = true) {
    this.shown = this.state;
    this.shownAt = performance.now();
    for (const l of this.listeners) l(urgent);
    for (const l of this.clockListeners) l();
  }
  /**
   * A change while playing: the clock's listeners hear of it now; the page
   * takes it at most every CLOCK_STATE_MS, in a task of its own (not in the
   * animation frame that moved the clock, which then stays short).
   */
  protected setWhilePlaying(patch: Partial<ConductorState>, now = performance.now()) {
    this.state = { ...this.state, ...patch };
    for (const l of this.clockListeners) l();
    this.publishSoon(now);
  }
  /** Publishes the state in a task of its own when the page's copy is CLOCK_STATE_MS old. */
  protected publishSoon(now: number) {
    if (now - this.shownAt < CLOCK_STATE_MS || this.publishing) return;
    this.publishing = true;
    setTimeout(() => {
      this.publishing = false;
      if (this.shown !== this.state) this.publish(false);
    }, 0);
  }
  protected publishing = false;

  /**
   * Sends event `e` to the state machine and shows the new phase with
   * `patch` (shown even when the phase refused the event). True when the
   * phase changed.
   */
  protected dispatch(e: PhaseEvent, patch: Partial<ConductorState> = {}): boolean {
    const next = reduce(this.phase, e);
    const changed = next !== this.phase;
    this.phase = next;
    if (changed) this.set({ ...patch, ...this.shownPhase() });
    else if (Object.keys(patch).length > 0) this.set(patch);
    return changed;
  }

  /** The state's fields read from the phase. */
  protected shownPhase(): Partial<ConductorState> {
    const p = this.phase;
    return { phase: p, mode: modeOf(p), seeking: isReplaying(p), crashed: p.kind === 'crashed' ? p.message : null };
  }
  protected setRun(i: number, f: (r: RunState) => RunState) {
    const runs = this.state.runs.slice();
    runs[i] = f(runs[i]);
    this.setComputed({ runs });
  }
  /** A change of what the workers computed (runs, timelines): while playing, as the clock's moves; else published at once. */
  protected setComputed(patch: Partial<ConductorState>) {
    if (this.phase.kind === 'ready' && this.state.mode === 'playing') this.setWhilePlaying(patch);
    else this.set(patch);
  }

}
