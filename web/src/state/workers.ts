// The conductor's workers (one per run) in lockstep: loading them, asking
// them (answers of an older generation or a replaced slot are ignored),
// folding their frames into the runs, their crashes and errors, and the
// moment no worker is moving (`settle`). Each worker's checkpoint budget
// (time travel) is set here.

import type { Frame, Loaded, ReplyTo, RunEnd, TimelineStats, Topology, Unsolicited, WorkerFailure, WorkerRequest } from '../engine/api';
import { EngineError, SimClient } from '../engine/client';
import { applyFrame, emptyRun, type RunState } from './run';
import { baseRttPs } from './rtt';
import { divergencePs, runsOf, type Settings } from './settings';
import { bufferOf, reduce, withBufferRun } from './phase';
import { Publisher } from './publisher';
import { fmtTime } from '../format/format';

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

/** Most wall time a worker spends on one slice before it reports. */
export const SLICE_MS = 12;

export interface Slot {
  client: SimClient;
  /** Upper time bound of the outstanding or last advance. */
  untilPs: number;
  /** Time up to which this run has processed every event. */
  reachedPs: number;
  finished: boolean;
  topology: Topology | null;
}

/** The workers of the runs, in lockstep (the `Conductor`'s second layer). */
export abstract class Workers extends Publisher {
  protected slots: Slot[] = [];
  protected fullStart = 0;
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
  protected async loadAll(reqs: Extract<WorkerRequest, { type: 'load' }>[]) {
    const gen = this.phase.gen;
    const loaded = await Promise.all(reqs.map(async (req, i) => {
      const m = await this.ask(i, req);
      if (m) this.onLoaded(i, m);
      return m;
    }));
    if (this.current(gen) && loaded.every((m) => m)) await this.afterLoad();
  }

  /** A slot with a fresh worker; what an older generation's worker (or a replaced branch's) says is ignored. */
  protected newSlot(i: number, gen: number): Slot {
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
  protected async ask<R extends WorkerRequest>(i: number, req: R): Promise<ReplyTo<R> | null> {
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
  protected current(gen: number): boolean {
    return gen === this.phase.gen && this.phase.kind !== 'crashed';
  }

  /** The runs frames fold into: the phase's buffer while a seek or replay rebuilds them out of sight, else the runs on screen. */
  protected runsInUse(): RunState[] {
    return bufferOf(this.phase) ?? this.state.runs;
  }

  protected updateRun(i: number, f: (r: RunState) => RunState) {
    // A seek or replay in progress: shown once every run has landed (one render).
    if (bufferOf(this.phase)) this.phase = withBufferRun(this.phase, i, f);
    else this.setRun(i, f);
  }

  protected onLoaded(i: number, m: Loaded) {
    this.slots[i].topology = m.topology;
    this.updateRun(i, (r) => ({ ...r, topology: m.topology, scenario: m.scenario }));
  }

  /** Folds one frame (an answer to advance, seek, finish or inspect) into run `i`. */
  protected onFrame(i: number, m: Frame) {
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

  protected onFinished(i: number, m: RunEnd) {
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

  protected onUnsolicited(i: number, m: Unsolicited) {
    if (m.type === 'explored') this.noteTimeline(i, m.timeline);
    else this.onEngineError(i, m.message, m.during);
  }

  protected onEngineError(i: number, message: string, during: WorkerFailure['during']) {
    this.updateRun(i, (r) => ({ ...r, error: message }));
    if (during === 'load' || during === 'init') {
      this.dispatch({ type: 'load_failed', gen: this.phase.gen }, { status: `${runsOf(this.state.settings)[i]?.label}: ${message}` });
    }
  }

  protected async afterLoad() {
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

  protected onCrash(i: number, msg: string) {
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
  protected noteTimeline(i: number, t: TimelineStats) {
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
  protected timelineStats: TimelineStats[] = [];
  protected timelineShown = 0;

  /**
   * Once no worker is moving (the last answer of a step, a seek or a
   * full-speed run is in): a seek that waited for it, the selected flow's
   * refresh, the time on screen at full speed.
   */
  protected settle() {
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
  protected async lockstep(req: (s: Slot) => Extract<WorkerRequest, { type: 'advance' | 'seek' | 'finish' }> | null): Promise<boolean> {
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
  protected advanceAll(untilPs: number, maxEvents: number, maxWallMs: number, stopOnCompletion = false): Promise<boolean> {
    return this.lockstep((s) => {
      if (s.finished) return null;
      s.untilPs = untilPs;
      return { type: 'advance', untilPs, maxEvents, stopOnCompletion, maxWallMs };
    });
  }

  /** Sends a request whose answer says nothing new (budget, trace, explore). */
  protected tell(i: number, req: Extract<WorkerRequest, { type: 'budget' | 'trace' | 'explore' }>) {
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
  protected hidden = false;

  /** Ready (loaded, no replay, search or time travel under way) and no worker busy: a live class's page waits for this (live/room.ts). */
  isIdle(): boolean {
    return this.idle();
  }

  /** Ready (loaded, no replay, search or time travel under way) and no worker busy. */
  protected idle(): boolean {
    return this.state.loaded && this.phase.kind === 'ready' && !this.workersBusy();
  }
  protected workersBusy(): boolean {
    return this.slots.some((s) => s.client.busy);
  }
  protected minReached(): number {
    return Math.min(...this.slots.map((s) => s.reachedPs));
  }
  protected allFinished(): boolean {
    return this.slots.length > 0 && this.slots.every((s) => s.finished);
  }

  protected setTrace(on: boolean) {
    this.slots.forEach((_, i) => this.tell(i, { type: 'trace', on }));
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

  /** Asks every worker about `flow`; the answers show if it is still the selected one. */
  protected refreshFlow(flow: number) {
    this.slots.forEach((_, i) =>
      void this.ask(i, { type: 'flow', flow }).then((m) => {
        if (m && m.flow === this.state.selectedFlow) this.updateRun(i, (r) => ({ ...r, flowInfo: m.info }));
      }),
    );
  }


  /** Stops the clock that moves the time on screen while playing (live runs). */
  protected abstract stopClock(): void;
  /** Phase `traveling`: every worker goes to the travel's time (time travel). */
  protected abstract travel(): Promise<void>;
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
