// Load sweeps in the browser: the grid `dcsim sweep` runs (every protocol
// at every load, protocol first), each point in its own worker with the
// animation trace off, a few at a time. The merged summary CSV has the
// rows in the order `dcsim sweep` writes them, so the two files are the
// same bytes for the same scenario (tests/e2e checks it).

import { SimClient, WorkerGone } from '../engine/client';
import type { Summary } from '../engine/api';
import { mergeSummaryCsvs } from '../export/csv';
import { scenarioFor, type Protocol, type ScenarioJson, type Settings } from '../state/settings';

/** Most loads one sweep takes (each costs a full run per protocol). */
export const MAX_SWEEP_LOADS = 12;

/** Workers a sweep runs at once: the cores but one (for the page), at most 4. */
export function parallelism(): number {
  const n = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(4, n - 1));
}

/** Reads a comma-separated list of loads, each in (0, 1]; an error names the bad entry. */
export function parseLoads(text: string): { loads: number[] } | { error: string } {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return { error: 'list at least one load, e.g. 0.2, 0.4, 0.6' };
  if (parts.length > MAX_SWEEP_LOADS) return { error: `at most ${MAX_SWEEP_LOADS} loads in one sweep, got ${parts.length}` };
  const loads: number[] = [];
  for (const p of parts) {
    const x = Number(p);
    if (!/^[0-9.eE+-]+$/.test(p) || !Number.isFinite(x)) return { error: `"${p}" is not a number` };
    if (x <= 0) return { error: `load ${p} must be above 0` };
    if (x > 1) return { error: `load ${p} must be at most 1 (a load above 1 never drains)` };
    if (loads.includes(x)) return { error: `load ${p} is listed twice` };
    loads.push(x);
  }
  return { loads };
}

/** One run of a sweep. */
export interface SweepPoint {
  protocol: Protocol;
  load: number;
  scenario: ScenarioJson;
  /** How messages name the point (default "PROTOCOL at load L"). */
  label?: string;
}

/** The grid of runs, in `dcsim sweep`'s order: each protocol at every load. */
export function sweepPoints(settings: Settings, loads: number[]): SweepPoint[] {
  return settings.protocols.flatMap((protocol) =>
    loads.map((load) => {
      const s = scenarioFor(settings, protocol);
      return { protocol, load, scenario: { ...s, workload: { ...s.workload, load } } };
    }),
  );
}

/** A finished point. */
export interface SweepResult {
  point: SweepPoint;
  summary: Summary;
  summaryCsv: string;
}

/** The sweep's CSV: the points' summary rows under one header, in grid order. */
export function sweepCsv(results: SweepResult[]): string {
  return mergeSummaryCsvs(results.map((r) => r.summaryCsv));
}

/** What a sweep reports as it goes. */
export interface SweepListener {
  /** Results so far, by grid index (undefined while a point runs or waits). */
  onProgress(results: (SweepResult | undefined)[]): void;
  /** Every point finished (in grid order). */
  onDone(results: SweepResult[]): void;
  /** A point failed (the engine refused it, or its worker died); the sweep stops. */
  onError(message: string): void;
}

/** Runs a grid of points, `parallel` at a time, each in a fresh worker. */
export class SweepRunner {
  private results: (SweepResult | undefined)[];
  private next = 0;
  private live = new Set<SimClient>();
  private stopped = false;

  constructor(
    private points: SweepPoint[],
    private parallel: number,
    private listener: SweepListener,
  ) {
    this.results = points.map(() => undefined);
  }

  /** Starts the first `parallel` points. */
  start() {
    for (let k = 0; k < Math.max(1, this.parallel); k++) this.launch();
  }

  /** Stops every running point; nothing more is reported. */
  cancel() {
    this.stopped = true;
    for (const c of this.live) c.dispose();
    this.live.clear();
  }

  private launch() {
    if (this.stopped || this.next >= this.points.length) return;
    const i = this.next++;
    const point = this.points[i];
    const label = point.label ?? `${point.protocol} at load ${point.load}`;
    const client = new SimClient();
    this.live.add(client);
    const run = async () => {
      await client.request({ type: 'load', scenario: point.scenario, trace: false });
      return (await client.request({ type: 'finish' })).end!;
    };
    run().then(
      (end) => {
        if (this.stopped) return;
        this.results[i] = { point, summary: end.summary, summaryCsv: end.summaryCsv };
        this.retire(client);
        this.listener.onProgress(this.results.slice());
        if (this.results.every((r) => r)) this.listener.onDone(this.results as SweepResult[]);
        else this.launch();
      },
      (e: Error) => {
        if (this.stopped) return;
        this.fail(e instanceof WorkerGone && e.crashed ? `${label}: the simulation worker crashed (${e.message})` : `${label}: ${e.message}`);
      },
    );
  }

  private retire(c: SimClient) {
    c.dispose();
    this.live.delete(c);
  }

  private fail(message: string) {
    this.cancel();
    this.listener.onError(message);
  }
}
