// The drops of every run over its whole length, for the scrubber's ticks:
// each run of the settings goes through the engine once in a worker of its
// own (trace on, the `facts` request), one run after another, in the
// background. Only for runs small enough to scan in a few seconds (a
// lesson's): a 10,000-flow run would take a core for a long time.

import { SimClient } from '../engine/client';
import { runsOf, type Settings } from './settings';

/** Runs of at most this many flows are scanned. */
export const DROP_SCAN_MAX_FLOWS = 2000;
/** Most wall time the scan of one run may take, ms. */
export const DROP_SCAN_WALL_MS = 10_000;

/** One run's drops as scanned. */
export interface ScannedRun {
  label: string;
  /** Drop times, ps (the first 20,000). */
  dropPs: number[];
  /** Scanned up to this time; `ended`: to the run's end (then this is its end). */
  reachedPs: number;
  ended: boolean;
}

/**
 * Scans the runs of `settings` one after another, calling `onRun` with
 * each run's drops as it is done; returns a function that stops the scan
 * (its worker too). `spawn` makes the worker (tests pass a fake one).
 */
export function scanDrops(settings: Settings, onRun: (runs: ScannedRun[]) => void, spawn: () => SimClient = () => new SimClient()): () => void {
  const client = spawn();
  let stopped = false;
  const done: ScannedRun[] = [];
  void (async () => {
    for (const r of runsOf(settings)) {
      try {
        const { facts } = await client.request({ type: 'facts', scenario: r.scenario, atPs: [], maxWallMs: DROP_SCAN_WALL_MS });
        if (stopped) return;
        done.push({ label: r.label, dropPs: facts.dropPs, reachedPs: facts.reachedPs, ended: facts.ended });
        onRun(done.slice());
      } catch {
        // Stopped, or the engine refused the run (the page says why elsewhere): no ticks for it.
        if (stopped) return;
      }
    }
    client.dispose();
  })();
  return () => {
    stopped = true;
    client.dispose();
  };
}

/**
 * Ticks for drop times on a scrubber of `width` positions covering
 * 0..endPs: the positions (0..width-1) where at least one drop falls, each
 * once, in order.
 */
export function tickPositions(times: readonly number[], endPs: number, width: number): number[] {
  const seen = new Set<number>();
  for (const t of times) {
    if (t < 0 || t > endPs) continue;
    seen.add(Math.min(width - 1, Math.floor((t / endPs) * width)));
  }
  return [...seen].sort((a, b) => a - b);
}
