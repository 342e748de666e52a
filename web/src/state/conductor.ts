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
//
// By concern, bottom-up: publisher.ts (the state, its listeners, the phase
// machine's glue), workers.ts (the workers in lockstep: loads, frames,
// crashes), travel.ts (time travel and finding events), and here the live
// runs: the clock, play, pause, steps, full speed and the what-if branch.

import type { RunState } from './run';
import { emptyRun } from './run';
import { divergencePs, runsOf, type BranchSettings, type Settings } from './settings';
import { reduce } from './phase';
import { TimeTravel } from './travel';
import { budgetFor, SLICE_MS } from './workers';
import { fmtSpeed, fmtTime } from '../format/format';

export type { ConductorState, PageListener } from './publisher';

/** Workers may run this much wall time ahead of the screen while playing. */
const LEAD_WALL_S = 0.12;
const FULL_SLICE_MS = 100;

/** Runs and controls the side-by-side runs. */
export class Conductor extends TimeTravel {
  private raf = 0;
  private lastTick = 0;
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

  /** Selects the flow the flow inspector shows (null: none); it is refreshed with every frame. */
  selectFlow(flow: number | null) {
    this.set({ selectedFlow: flow });
    if (flow === null) this.state.runs.forEach((_, i) => this.updateRun(i, (r) => ({ ...r, flowInfo: null })));
    else this.refreshFlow(flow);
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

  protected stopClock() {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  /** Stops every worker. */
  dispose() {
    this.stopClock();
    for (const s of this.slots) s.client.dispose();
  }
}

/** Next event time of a run, as its last frame reported it. */
function nextOf(r: RunState): number {
  return r.nextPs >= 0 ? r.nextPs : Infinity;
}
