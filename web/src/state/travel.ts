// Time travel: going to another simulated time, earlier or later (each
// worker restores its nearest checkpoint and replays), stepping back, and
// going to the next or previous event of a kind (each worker looks for its
// own, then every run lands on the nearest one's time).

import type { NavEvent } from '../engine/api';
import { runsOf } from './settings';
import type { Phase, Travel } from './phase';
import { Workers } from './workers';
import { foundText, landedText, NAV_TEXT } from '../format/format';

/** Most wall time a worker looks for the next or previous event, ms. */
export const FIND_WALL_MS = 3000;

/** Time travel over the workers (the `Conductor`'s third layer). */
export abstract class TimeTravel extends Workers {
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
  protected async findThenTravel(event: NavEvent, direction: 'next' | 'previous') {
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
  protected requestTravel(tPs: number, what: Travel['what']) {
    this.pause();
    if (!this.state.loaded) return;
    const queued = this.phase.kind !== 'ready';
    this.dispatch({ type: 'seek', travel: { tPs, what, prefix: '' }, idle: !this.workersBusy(), runs: this.state.runs.slice() });
    if (!queued && (this.phase as Phase).kind === 'traveling') void this.travel();
  }

  /** Phase `traveling`: every worker goes to the travel's time; the runs are shown once all have landed. */
  protected async travel() {
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


  /** Pauses (live runs): every travel starts paused. */
  abstract pause(): void;
}
