// The conductor: one worker per protocol, all on one shared timeline. It
// turns the controls (play, pause, step one event, step one RTT, go to the
// next or previous drop, mark, token, decision or completion, speed, seek,
// restart, full speed) into requests to the workers and folds the frames
// into run states the views read.
//
// Lockstep: while playing or stepping, every worker is asked to advance to
// the same simulated time, and the time on screen never passes the slowest
// worker: each request is a promise of its reply, so a step is
// `await Promise.all(...)` over the workers, then what the step shows.
// Answers that arrive after a newer load (another generation) or a crash
// are ignored. At full speed each worker runs flat out on its own (with the
// trace off), and the screen shows the earliest of their times.
//
// What the page is doing is a phase of the state machine in phase.ts
// (loading, replaying, ready, finding, traveling, crashed): the conductor
// sends it every control and every answer (`dispatch`) and does what the
// new phase says; the words on the status line come from format/format.ts.

import type { Frame, Loaded, NavEvent, ReplyTo, RunEnd, TimelineStats, Topology, Unsolicited, WorkerFailure, WorkerRequest } from '../engine/api';
import { EngineError, SimClient } from '../engine/client';
import { applyFrame, emptyRun, type RunState } from './run';
import { baseRttPs } from './rtt';
import { divergencePs, runsOf, type BranchSettings, type Settings } from './settings';
import { bufferOf, INITIAL_PHASE, isReplaying, modeOf, reduce, withBufferRun, type Mode, type Phase, type PhaseEvent, type Travel } from './phase';
import { foundText, fmtSpeed, fmtTime, landedText, NAV_TEXT } from '../format/format';

/** The clock's mode and the page's phase (state/phase.ts), for the views. */
export type { Mode, Phase } from './phase';

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
 * Memory all workers' checkpoints may hold together, bytes: a sixteenth of
 * the device's memory (`navigator.deviceMemory`, which Chromium reports in
 * GB rounded to a power of two and capped at 8; 4 where the browser does not
 * say), at most 768 MB. A school laptop with 4 GB gets 256 MB; 8 GB or more,
 * 512 MB. Each of n side by side runs gets 1/n of it, at most
 * CHECKPOINT_BUDGET_MAX. Seeks on the 10,000-flow default stay within the
 * e2e's limits at 256 MB (a median of about 120 ms against 95 ms at 512 MB,
 * measured in one sitting). Docs: guide/instructors.md, "Time travel".
 */
export function checkpointBudgetBytes(deviceGb: number | undefined = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory): number {
  const gb = typeof deviceGb === 'number' && deviceGb > 0 ? deviceGb : 4;
  return Math.min(768 * 2 ** 20, Math.floor((gb * 2 ** 30) / 16));
}
/** Most one worker's checkpoints may hold, bytes. */
export const CHECKPOINT_BUDGET_MAX = 512 * 2 ** 20;

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

/** Most wall time a worker looks for the next or previous event, ms. */
export const FIND_WALL_MS = 3000;

/** Default speed: 2 microseconds of simulated time per wall second, slow enough to watch packets. */
export const DEFAULT_SPEED = 2_000_000;
/** Workers may run this much wall time ahead of the screen while playing. */
const LEAD_WALL_S = 0.12;
/** Most wall time a worker spends on one slice before it reports. */
const SLICE_MS = 12;
const FULL_SLICE_MS = 100;

interface Slot {
  client: SimClient;
  /** Upper time bound of the outstanding or last advance. */
  untilPs: number;
  /** Time up to which this run has processed every event. */
  reachedPs: number;
  finished: boolean;
  topology: Topology | null;
}

/**
 * Hears that the page's state (`getState`) changed. `urgent` is false for
 * the publishes made while playing (the clock and the workers' frames,
 * every CLOCK_STATE_MS) and for time travel's background statistics: the
 * page may render those in pieces between animation frames (a React
 * transition) instead of in one task.
 */
export type PageListener = (urgent: boolean) => void;

/** Runs and controls the side-by-side runs. */
export class Conductor {
  /** The state as it is; `shown` is what the page last rendered from (see CLOCK_STATE_MS). */
  private state: ConductorState;
  private shown: ConductorState;
  private shownAt = 0;
  private listeners = new Set<PageListener>();
  private clockListeners = new Set<() => void>();
  private slots: Slot[] = [];
  private raf = 0;
  private lastTick = 0;
  private fullStart = 0;
  /** What the page is doing; its generation grows on every load so late answers of old workers are ignored. */
  private phase: Phase = INITIAL_PHASE;

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
  private set(patch: Partial<ConductorState>, urgent = true) {
    this.state = { ...this.state, ...patch };
    this.publish(urgent);
  }
  private publish(urgent = true) {
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
  private setWhilePlaying(patch: Partial<ConductorState>, now = performance.now()) {
    this.state = { ...this.state, ...patch };
    for (const l of this.clockListeners) l();
    this.publishSoon(now);
  }
  /** Publishes the state in a task of its own when the page's copy is CLOCK_STATE_MS old. */
  private publishSoon(now: number) {
    if (now - this.shownAt < CLOCK_STATE_MS || this.publishing) return;
    this.publishing = true;
    setTimeout(() => {
      this.publishing = false;
      if (this.shown !== this.state) this.publish(false);
    }, 0);
  }
  private publishing = false;

  /**
   * Sends event `e` to the state machine and shows the new phase with
   * `patch` (shown even when the phase refused the event). True when the
   * phase changed.
   */
  private dispatch(e: PhaseEvent, patch: Partial<ConductorState> = {}): boolean {
    const next = reduce(this.phase, e);
    const changed = next !== this.phase;
    this.phase = next;
    if (changed) this.set({ ...patch, ...this.shownPhase() });
    else if (Object.keys(patch).length > 0) this.set(patch);
    return changed;
  }

  /** The state's fields read from the phase. */
  private shownPhase(): Partial<ConductorState> {
    const p = this.phase;
    return { phase: p, mode: modeOf(p), seeking: isReplaying(p), crashed: p.kind === 'crashed' ? p.message : null };
  }
  private setRun(i: number, f: (r: RunState) => RunState) {
    const runs = this.state.runs.slice();
    runs[i] = f(runs[i]);
    this.setComputed({ runs });
  }
  /** A change of what the workers computed (runs, timelines): while playing, as the clock's moves; else published at once. */
  private setComputed(patch: Partial<ConductorState>) {
    if (this.phase.kind === 'ready' && this.state.mode === 'playing') this.setWhilePlaying(patch);
    else this.set(patch);
  }

  /** Loads settings: one fresh worker per protocol, all at time zero. */
  load(settings: Settings, keepRuns = false, seekTo: number | null = null) {
    // A branch of a protocol no longer shown goes with it.
    if (settings.branch && !settings.protocols.includes(settings.branch.of)) {
      settings = { ...settings };
      delete settings.branch;
    }
    this.stopClock();
    for (const s of this.slots) s.client.dispose();
    const specs = runsOf(settings);
    const fresh = specs.map((r) => emptyRun(r.label, r.protocol));
    this.phase = reduce(this.phase, { type: 'load', replayTo: seekTo, runs: fresh });
    const gen = this.phase.gen;
    this.slots = specs.map((_, i) => this.newSlot(i, gen));
    this.set({
      ...this.shownPhase(),
      timelines: specs.map(() => null),
      divergencePs: settings.branch ? divergencePs(settings.branch) : null,
      lastSeekMs: null,
      settings,
      runs: keepRuns ? this.state.runs : fresh,
      displayPs: keepRuns ? this.state.displayPs : 0,
      loaded: false,
      fullSpeedWallMs: null,
      status: seekTo !== null ? `replaying to t = ${fmtTime(seekTo)}…` : 'loading…',
    });
    const tracing = seekTo === null;
    const budgetBytes = budgetFor(specs.length);
    void this.loadAll(specs.map((r) => ({ type: 'load', scenario: r.scenario, trace: tracing, budgetBytes })));
  }

  /** Loads every slot; once all are loaded, the first frame (or the replay to the seek target). */
  private async loadAll(reqs: Extract<WorkerRequest, { type: 'load' }>[]) {
    const gen = this.phase.gen;
    const loaded = await Promise.all(reqs.map(async (req, i) => {
      const m = await this.ask(i, req);
      if (m) this.onLoaded(i, m);
      return m;
    }));
    if (this.current(gen) && loaded.every((m) => m)) await this.afterLoad();
  }

  /** A slot with a fresh worker; what an older generation's worker (or a replaced branch's) says is ignored. */
  private newSlot(i: number, gen: number): Slot {
    const slot: Slot = { client: null!, untilPs: 0, reachedPs: 0, finished: false, topology: null };
    const mine = () => gen === this.phase.gen && this.slots[i] === slot;
    slot.client = new SimClient({
      onMessage: (m) => mine() && this.onUnsolicited(i, m),
      onCrash: (msg) => mine() && this.onCrash(i, msg),
    });
    if (this.hidden) slot.client.request({ type: 'explore', on: false }).catch(() => {});
    return slot;
  }

  /**
   * Asks slot `i`'s worker. Resolves with the reply, or with null when the
   * answer no longer counts (a newer load, the slot replaced, the worker
   * gone: a crash is reported by onCrash) or the engine refused the
   * request (shown on the run). Never rejects.
   */
  private async ask<R extends WorkerRequest>(i: number, req: R): Promise<ReplyTo<R> | null> {
    const slot = this.slots[i];
    const gen = this.phase.gen;
    const mine = () => gen === this.phase.gen && this.slots[i] === slot;
    try {
      const reply = await slot.client.request(req);
      return mine() ? reply : null;
    } catch (e) {
      if (e instanceof EngineError && mine()) this.onEngineError(i, e.message, e.during);
      return null;
    }
  }

  /** True while answers asked for in generation `gen` still count (no newer load, no crash). */
  private current(gen: number): boolean {
    return gen === this.phase.gen && this.phase.kind !== 'crashed';
  }

  /** The runs frames fold into: the phase's buffer while a seek or replay rebuilds them out of sight, else the runs on screen. */
  private runsInUse(): RunState[] {
    return bufferOf(this.phase) ?? this.state.runs;
  }

  private updateRun(i: number, f: (r: RunState) => RunState) {
    // A seek or replay in progress: shown once every run has landed (one render).
    if (bufferOf(this.phase)) this.phase = withBufferRun(this.phase, i, f);
    else this.setRun(i, f);
  }

  private onLoaded(i: number, m: Loaded) {
    this.slots[i].topology = m.topology;
    this.updateRun(i, (r) => ({ ...r, topology: m.topology, scenario: m.scenario }));
  }

  /** Folds one frame (an answer to advance, seek, finish or inspect) into run `i`. */
  private onFrame(i: number, m: Frame) {
    const slot = this.slots[i];
    const U = slot.untilPs;
    slot.reachedPs = !m.running ? Infinity : m.nextPs < 0 || m.nextPs > U ? U : m.nowPs;
    this.noteTimeline(i, m.timeline);
    if (m.reset) {
      // Time travel: the worker went to another time; rebuild this run from the frame.
      slot.finished = !m.running;
      this.updateRun(i, (r) => applyFrame(rewound(r, m.nowPs), m, m.nowPs));
    } else {
      const display = this.state.mode === 'full' ? m.nowPs : Math.min(this.state.displayPs, m.nowPs);
      this.updateRun(i, (r) => applyFrame(r, m, display));
    }
    if (m.end) this.onFinished(i, m.end);
  }

  private onFinished(i: number, m: RunEnd) {
    const slot = this.slots[i];
    slot.finished = true;
    slot.reachedPs = Infinity;
    this.updateRun(i, (r) => ({ ...r, running: false, summary: m.summary, flowsCsv: m.flowsCsv, summaryCsv: m.summaryCsv }));
    if (this.slots.every((s) => s.finished)) {
      const wall = this.state.mode === 'full' ? performance.now() - this.fullStart : this.state.fullSpeedWallMs;
      // Full speed ran with the trace off; scrubbing back afterwards must
      // show packets and events again.
      if (this.state.mode === 'full') this.setTrace(true);
      this.stopClock();
      const patch = { fullSpeedWallMs: wall, status: 'all runs finished: summaries and CSVs are ready', displayPs: Math.max(...this.state.runs.map((r) => r.nowPs)) };
      this.dispatch({ type: 'finished', gen: this.phase.gen }, patch);
    }
  }

  private onUnsolicited(i: number, m: Unsolicited) {
    if (m.type === 'explored') this.noteTimeline(i, m.timeline);
    else this.onEngineError(i, m.message, m.during);
  }

  private onEngineError(i: number, message: string, during: WorkerFailure['during']) {
    this.updateRun(i, (r) => ({ ...r, error: message }));
    if (during === 'load' || during === 'init') {
      this.dispatch({ type: 'load_failed', gen: this.phase.gen }, { status: `${runsOf(this.state.settings)[i]?.label}: ${message}` });
    }
  }

  private async afterLoad() {
    const topo = this.slots[0].topology!;
    const gen = this.phase.gen;
    this.dispatch({ type: 'loaded', gen }, { loaded: true, rttPs: baseRttPs(topo) });
    if (this.state.inspectPort !== null) this.inspect(this.state.inspectPort);
    if (this.phase.kind === 'replaying') {
      const T = this.phase.tPs;
      if (!(await this.advanceAll(T, Infinity, 1e9))) return;
      this.setTrace(true);
      this.dispatch({ type: 'replayed', gen }, { runs: this.runsInUse(), displayPs: T, status: `at t = ${fmtTime(T)}` });
    } else {
      // A first frame at time zero (the flows that arrive at once, the empty buffers).
      if (!(await this.advanceAll(0, Infinity, SLICE_MS))) return;
      this.set({ status: 'ready: press play (space) or step (→)' });
    }
    this.settle();
  }

  private onCrash(i: number, msg: string) {
    this.stopClock();
    // Runs a seek was rebuilding are shown as far as they got.
    const runs = this.phase.kind === 'traveling' ? { runs: this.phase.buffer } : {};
    const message = `${runsOf(this.state.settings)[i]?.label}: the simulation worker crashed (${msg}). Your settings and results so far are kept.`;
    this.dispatch({ type: 'crash', gen: this.phase.gen, message }, runs);
  }

  /** Restarts crashed workers and replays deterministically to the time on screen. */
  restart() {
    const T = Number.isFinite(this.state.displayPs) ? this.state.displayPs : 0;
    this.load(this.state.settings, true, T > 0 ? T : null);
  }

  /** Last time-travel stats per worker; the state is updated at most every 250 ms (or when exploring ends). */
  private noteTimeline(i: number, t: TimelineStats) {
    this.timelineStats[i] = t;
    const now = performance.now();
    const prev = this.state.timelines[i];
    if (now - this.timelineShown > 250 || !prev || prev.explored_all !== t.explored_all) {
      this.timelineShown = now;
      // Background news (how far time travel has explored): never urgent.
      const patch = { timelines: this.slots.map((_, k) => this.timelineStats[k] ?? null) };
      if (this.phase.kind === 'ready' && this.state.mode === 'playing') this.setWhilePlaying(patch, now);
      else this.set(patch, false);
    }
  }
  private timelineStats: TimelineStats[] = [];
  private timelineShown = 0;

  /**
   * Once no worker is moving (the last answer of a step, a seek or a
   * full-speed run is in): a seek that waited for it, the selected flow's
   * refresh, the time on screen at full speed.
   */
  private settle() {
    if (this.phase.kind === 'crashed' || this.slots.some((s) => s.client.busy)) return;
    if (this.dispatch({ type: 'settled', gen: this.phase.gen, runs: this.state.runs.slice() })) {
      // A seek that waited for the workers starts.
      void this.travel();
      return;
    }
    if (this.state.selectedFlow !== null && this.state.mode !== 'full') this.refreshFlow(this.state.selectedFlow);
    if (this.state.mode === 'full') {
      this.set({ displayPs: Math.min(...this.slots.map((s, i) => (s.finished ? Infinity : this.runsInUse()[i].nowPs))) });
    }
  }

  /**
   * Lockstep: sends each slot the request `req` gives it (none for null),
   * folds each frame in as it lands, and resolves once every worker has
   * answered: false when the answers no longer count (a newer load, a crash).
   */
  private async lockstep(req: (s: Slot) => Extract<WorkerRequest, { type: 'advance' | 'seek' | 'finish' }> | null): Promise<boolean> {
    const gen = this.phase.gen;
    await Promise.all(
      this.slots.map(async (s, i) => {
        const r = req(s);
        if (!r) return;
        const f = await this.ask(i, r);
        if (f) this.onFrame(i, f);
      }),
    );
    return this.current(gen);
  }

  /** Asks every unfinished worker to advance to `untilPs`, and waits for all (lockstep). */
  private advanceAll(untilPs: number, maxEvents: number, maxWallMs: number, stopOnCompletion = false): Promise<boolean> {
    return this.lockstep((s) => {
      if (s.finished) return null;
      s.untilPs = untilPs;
      return { type: 'advance', untilPs, maxEvents, stopOnCompletion, maxWallMs };
    });
  }

  /** Sends a request whose answer says nothing new (budget, trace, explore). */
  private tell(i: number, req: Extract<WorkerRequest, { type: 'budget' | 'trace' | 'explore' }>) {
    void this.ask(i, req);
  }

  /**
   * The page went to the background (hidden: another tab, a minimized
   * window) or came back. A hidden page's workers stop exploring the run
   * ahead (time travel's checkpoints), so a tab left open in the background
   * costs no CPU; they go on where they were when it is shown again.
   */
  setPageHidden(hidden: boolean) {
    if (hidden === this.hidden) return;
    this.hidden = hidden;
    this.slots.forEach((_, i) => this.tell(i, { type: 'explore', on: !hidden }));
  }
  private hidden = false;

  /** Ready (loaded, no replay, search or time travel under way) and no worker busy: a live class's page waits for this (live/room.ts). */
  isIdle(): boolean {
    return this.idle();
  }

  /** Ready (loaded, no replay, search or time travel under way) and no worker busy. */
  private idle(): boolean {
    return this.state.loaded && this.phase.kind === 'ready' && !this.workersBusy();
  }
  private workersBusy(): boolean {
    return this.slots.some((s) => s.client.busy);
  }
  private minReached(): number {
    return Math.min(...this.slots.map((s) => s.reachedPs));
  }
  private allFinished(): boolean {
    return this.slots.length > 0 && this.slots.every((s) => s.finished);
  }

  /** Plays at the current speed, in lockstep. */
  play() {
    if (!this.state.loaded) return;
    const wasFull = this.state.mode === 'full';
    const next = reduce(this.phase, { type: 'play', finished: this.allFinished() });
    if (next === this.phase) return;
    this.phase = next;
    if (this.shownPhase().mode !== 'playing') {
      this.set(this.shownPhase());
      return;
    }
    if (wasFull) this.setTrace(true);
    // The canvases and the clock move from the next animation frame; the
    // rest of the page (the play button turning into pause, the status)
    // follows as a background change, so the click itself stays short.
    this.set({ ...this.shownPhase(), status: `playing at ${fmtSpeed(this.state.speed)}` }, false);
    this.startClock();
  }

  /** Pauses (outstanding slices still land). */
  pause() {
    if (this.state.mode === 'full') this.setTrace(true);
    this.stopClock();
    this.dispatch({ type: 'pause' }, { status: `paused at t = ${fmtTime(this.state.displayPs)}` });
  }

  /** Runs every protocol to the end as fast as the engine goes (trace off). */
  fullSpeed() {
    if (!this.state.loaded || !this.dispatch({ type: 'full', finished: this.allFinished() })) return;
    this.stopClock();
    this.setTrace(false);
    this.fullStart = performance.now();
    this.set({ status: 'running at full speed (animation off)…' });
    this.slots.forEach((_, i) => void this.pumpFull(i));
  }

  /** Full speed: worker `i` runs slice after slice until it finishes or the mode changes. */
  private async pumpFull(i: number) {
    const s = this.slots[i];
    const gen = this.phase.gen;
    while (this.state.mode === 'full' && !s.finished && this.slots[i] === s) {
      s.untilPs = Infinity;
      const f = await this.ask(i, { type: 'advance', untilPs: Infinity, maxEvents: Infinity, stopOnCompletion: false, maxWallMs: FULL_SLICE_MS });
      if (!this.current(gen)) return;
      if (!f) break;
      this.onFrame(i, f);
    }
    this.settle();
  }

  private setTrace(on: boolean) {
    this.slots.forEach((_, i) => this.tell(i, { type: 'trace', on }));
  }

  /** Steps to the next event of any run (all runs process their events up to that time). */
  stepEvent() {
    this.pause();
    if (!this.idle() || this.allFinished()) return;
    const next = Math.min(...this.runsInUse().map((r, i) => (this.slots[i].finished ? Infinity : nextOf(r))));
    if (!Number.isFinite(next)) return this.finishAll();
    void this.step(next, () => this.set({ displayPs: next, status: `stepped to the next event, t = ${fmtTime(next)}` }));
  }

  /** Steps one base RTT. */
  stepRtt() {
    this.pause();
    if (!this.idle() || this.allFinished()) return;
    const T = this.state.displayPs + this.state.rttPs;
    void this.step(T, () => this.set({ displayPs: Math.min(T, this.minReached()), status: `stepped one RTT (${fmtTime(this.state.rttPs)}) to t = ${fmtTime(T)}` }));
  }

  /** Advances every run to `untilPs` in lockstep, then shows what `then` sets. */
  private async step(untilPs: number, then: () => void, maxWallMs = 1e9) {
    if (!(await this.advanceAll(untilPs, Infinity, maxWallMs))) return;
    then();
    this.settle();
  }

  /**
   * Goes to the next (or previous) event of a kind in any run: each worker
   * looks for its own (the `find` request), then every run lands exactly
   * on the nearest one's time (time travel), or stays where it is when no
   * run has one.
   */
  goToEvent(event: NavEvent, direction: 'next' | 'previous') {
    this.pause();
    if (!this.state.loaded || !this.dispatch({ type: 'find', idle: !this.workersBusy() })) return;
    void this.findThenTravel(event, direction);
  }

  /** Phase `finding`: asks every worker, then lands every run on the nearest event found (or back where it was). */
  private async findThenTravel(event: NavEvent, direction: 'next' | 'previous') {
    const gen = this.phase.gen;
    const from = this.state.displayPs;
    this.set({ status: `looking for the ${direction} ${NAV_TEXT[event].one}…` });
    const found = await Promise.all(this.slots.map((_, i) => this.ask(i, { type: 'find', event, direction, fromPs: from, maxWallMs: FIND_WALL_MS })));
    if (!this.current(gen)) {
      this.dispatch({ type: 'find_dropped', gen });
      return;
    }
    const times = found.map((f) => f?.tPs ?? null).filter((t): t is number => t !== null);
    const target = times.length === 0 ? null : direction === 'next' ? Math.min(...times) : Math.max(...times);
    const labels = runsOf(this.state.settings).map((r) => r.label);
    const where = found.flatMap((f, i) => (f && f.tPs === target ? [labels[i]] : []));
    const looked = found.filter((f) => f !== null).map((f) => f!.searchedPs);
    const prefix = foundText(event, direction, from, target, where, looked);
    // The workers were left where their searches ended: every run lands again (on the event, or where it was).
    this.dispatch({ type: 'found', gen, travel: { tPs: target ?? from, what: 'find', prefix }, runs: this.state.runs.slice() });
    await this.travel();
  }

  /**
   * Goes to simulated time `tPs`, earlier or later (time travel): each
   * worker restores its nearest checkpoint and replays at most one
   * checkpoint interval (deterministic: the same state the run had).
   */
  seek(tPs: number) {
    this.requestTravel(Math.max(0, tPs), 'seek');
  }

  /** Steps back one event: to the state just before the events at the time on screen. */
  stepBack() {
    if (this.state.displayPs <= 0) return;
    this.requestTravel(this.state.displayPs - 1, 'event');
  }

  /** Steps back one base RTT. */
  stepBackRtt() {
    this.requestTravel(Math.max(0, this.state.displayPs - this.state.rttPs), 'rtt');
  }

  /**
   * Time travel now when the workers are idle; else the phase keeps it
   * (only the latest: dragging the scrubber) until they are (`settle`).
   * Refused while loading or replaying.
   */
  private requestTravel(tPs: number, what: Travel['what']) {
    this.pause();
    if (!this.state.loaded) return;
    const queued = this.phase.kind !== 'ready';
    this.dispatch({ type: 'seek', travel: { tPs, what, prefix: '' }, idle: !this.workersBusy(), runs: this.state.runs.slice() });
    if (!queued && (this.phase as Phase).kind === 'traveling') void this.travel();
  }

  /** Phase `traveling`: every worker goes to the travel's time; the runs are shown once all have landed. */
  private async travel() {
    const p = this.phase;
    if (p.kind !== 'traveling') return;
    const { tPs, what, prefix } = p.travel;
    const t0 = performance.now();
    const gen = p.gen;
    const ok = await this.lockstep((s) => {
      s.untilPs = tPs;
      return { type: 'seek', tPs };
    });
    if (!ok) return;
    const ms = performance.now() - t0;
    // Show the landed runs in a task of their own: the last frame was
    // folded in the worker message's task (the lead-in's trace, up to
    // 20,000 records), and rendering in that same task made it the page's
    // longest (tests/e2e: no task over 50 ms while playing). Nothing else
    // starts meanwhile: idle() is false while the phase is `traveling`.
    await new Promise((r) => setTimeout(r, 0));
    const q = this.phase;
    if (!this.current(gen) || q.kind !== 'traveling') return;
    const runs = q.buffer;
    // Stepping back one event shows the time of the last event kept.
    const times = runs.map((r) => r.nowPs);
    const shown = this.allFinished() ? Math.min(tPs, Math.max(...times)) : what === 'event' ? Math.max(0, ...times.filter((x) => x <= tPs)) : tPs;
    this.dispatch({ type: 'landed', gen }, { runs, displayPs: shown, lastSeekMs: ms, status: landedText(what, prefix, this.state.rttPs, shown, ms) });
    this.settle();
  }

  /**
   * Goes to simulated time `tPs` and pauses there (a lesson's step):
   * forward in lockstep, or by replaying from the start when `tPs` is
   * earlier than the time on screen.
   */
  runTo(tPs: number) {
    this.pause();
    if (!this.state.loaded) return;
    if (tPs < this.state.displayPs) return this.seek(tPs);
    if (!this.idle()) return;
    void this.step(tPs, () => this.set({ displayPs: Math.max(this.state.displayPs, Math.min(tPs, this.minReached())), status: `went to t = ${fmtTime(tPs)}` }));
  }

  /**
   * What if: branches run `b.of` at the time on screen (`b.at_us`) and
   * shows the branch beside the runs, in lockstep from there (a branch
   * already shown is replaced). The runs already shown keep their workers
   * and state; the branch's worker computes the base up to `at_us` once
   * (a protocol change runs from zero), then joins the shared clock.
   */
  branch(b: BranchSettings) {
    this.pause();
    if (!this.state.loaded) return;
    const settings: Settings = { ...this.state.settings, branch: b };
    const specs = runsOf(settings);
    const spec = specs[specs.length - 1];
    const n = this.state.settings.protocols.length;
    // Drop a previous branch's worker and run.
    for (const s of this.slots.slice(n)) s.client.dispose();
    this.slots = this.slots.slice(0, n);
    const slot = this.newSlot(n, this.phase.gen);
    this.slots.push(slot);
    const runs = this.state.runs.slice(0, n).concat([emptyRun(spec.label, spec.protocol)]);
    this.set({ settings, runs, timelines: this.state.timelines.slice(0, n).concat([null]), divergencePs: divergencePs(b), status: `what if ${b.name}: computing the branch up to t = ${fmtTime(b.at_us * 1e6)}…` });
    const budgetBytes = budgetFor(specs.length);
    for (let i = 0; i < n; i++) this.tell(i, { type: 'budget', bytes: budgetBytes });
    void this.joinBranch(n, spec.scenario, budgetBytes);
  }

  /** Loads the branch, then lands it on the time on screen (the branch's own start when that is later), where it joins the others. */
  private async joinBranch(i: number, scenario: unknown, budgetBytes: number) {
    const loaded = await this.ask(i, { type: 'load', scenario, trace: true, budgetBytes });
    if (!loaded) return;
    this.onLoaded(i, loaded);
    const slot = this.slots[i];
    slot.untilPs = this.state.displayPs;
    const f = await this.ask(i, { type: 'seek', tPs: this.state.displayPs });
    if (!f) return;
    this.onFrame(i, f);
    this.set({ status: `what if ${this.state.settings.branch?.name}: the branch runs beside the original from t = ${fmtTime(this.state.divergencePs ?? 0)}` });
    this.settle();
  }

  /** Closes the what-if branch. */
  closeBranch() {
    const n = this.state.settings.protocols.length;
    if (this.slots.length <= n) return;
    this.pause();
    for (const s of this.slots.slice(n)) s.client.dispose();
    this.slots = this.slots.slice(0, n);
    const settings = { ...this.state.settings };
    delete settings.branch;
    this.set({ settings, runs: this.state.runs.slice(0, n), timelines: this.state.timelines.slice(0, n), divergencePs: null, status: 'branch closed' });
  }

  /** Starts over from time zero with the same settings. */
  restartRun() {
    this.load(this.state.settings);
  }

  /** Runs every protocol to its end and collects summaries. */
  finishAll() {
    this.stopClock();
    void this.lockstep((s) => (s.finished ? null : { type: 'finish' })).then((ok) => ok && this.settle());
  }

  /**
   * Sets the playing speed (simulated ps per wall second). The speed
   * control hears it at once (a clock listener, `getLive().speed`); the
   * rest of the page (the status line) renders it as a background change,
   * so dragging the slider re-renders the control, not the page.
   */
  setSpeed(speed: number) {
    this.set({ speed, status: this.state.mode === 'playing' ? `playing at ${fmtSpeed(speed)}` : this.state.status }, false);
  }

  /** Selects the port the inspector shows (null: none). */
  inspect(port: number | null) {
    this.set({ inspectPort: port });
    this.slots.forEach((_, i) =>
      void this.ask(i, { type: 'inspect', port }).then((m) => {
        if (m?.type === 'frame') this.onFrame(i, m);
      }),
    );
  }

  /** Selects the flow the flow inspector shows (null: none); it is refreshed with every frame. */
  selectFlow(flow: number | null) {
    this.set({ selectedFlow: flow });
    if (flow === null) this.state.runs.forEach((_, i) => this.updateRun(i, (r) => ({ ...r, flowInfo: null })));
    else this.refreshFlow(flow);
  }

  /** Asks every worker about `flow`; the answers show if it is still the selected one. */
  private refreshFlow(flow: number) {
    this.slots.forEach((_, i) =>
      void this.ask(i, { type: 'flow', flow }).then((m) => {
        if (m && m.flow === this.state.selectedFlow) this.updateRun(i, (r) => ({ ...r, flowInfo: m.info }));
      }),
    );
  }

  private startClock() {
    cancelAnimationFrame(this.raf);
    this.lastTick = performance.now();
    const tick = (now: number) => {
      if (this.state.mode !== 'playing') return;
      const dt = Math.min(now - this.lastTick, 100) / 1000;
      this.lastTick = now;
      const reached = this.minReached();
      const display = Math.min(this.state.displayPs + dt * this.state.speed, reached);
      if (display !== this.state.displayPs) this.setWhilePlaying({ displayPs: display }, now);
      else if (this.shown !== this.state) this.publishSoon(now);
      if (this.allFinished()) return;
      if (this.idle() && reached < display + LEAD_WALL_S * this.state.speed) {
        void this.advanceAll(display + LEAD_WALL_S * this.state.speed, Infinity, SLICE_MS).then((ok) => ok && this.settle());
      }
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  }

  private stopClock() {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  /** Stops every worker. */
  dispose() {
    this.stopClock();
    for (const s of this.slots) s.client.dispose();
  }
}

/**
 * A run's state before a reset frame (time travel) is folded in: what the
 * frame rebuilds is cleared; the topology, the finished summary and CSVs
 * (deterministic, still valid), the inspectors, and the chart points up
 * to the new time are kept.
 */
export function rewound(r: RunState, tPs: number): RunState {
  return {
    ...emptyRun(r.protocol, r.engineProtocol),
    topology: r.topology,
    scenario: r.scenario,
    summary: r.summary,
    flowsCsv: r.flowsCsv,
    summaryCsv: r.summaryCsv,
    inspect: r.inspect,
    flowInfo: r.flowInfo,
    series: r.series.filter((p) => p.tPs < tPs),
  };
}

/** One worker's checkpoint budget when `n` run side by side on a device with `total` bytes for all checkpoints. */
export function budgetFor(n: number, total: number = checkpointBudgetBytes()): number {
  return Math.min(CHECKPOINT_BUDGET_MAX, Math.floor(total / Math.max(1, n)));
}

/** Next event time of a run, as its last frame reported it. */
function nextOf(r: RunState): number {
  return r.nextPs >= 0 ? r.nextPs : Infinity;
}
