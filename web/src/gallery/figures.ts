// The gallery's figures: each a headline figure of a seed paper, as a sweep
// the page runs with web/src/sweep (one worker per point, trace off, the
// summary rows of `dcsim sweep`). A figure says which bundled scenario it
// starts from, the protocols, what varies along x (the load, or a scenario
// field as `dcsim sweep --vary` does), the summary number on y, and two
// sizes: small (seconds in the browser) and the paper's.

import type { Summary } from '../engine/api';
import { scenarioNamed } from '../scenarios';
import type { Protocol, ScenarioJson } from '../state/settings';
import { parseCsv, writeCsv } from '../export/csv';
import { sweepCsv, type SweepPoint, type SweepResult } from '../sweep/sweep';

/** How big a figure's sweep is: the x values and the run length. */
export interface FigureSize {
  xs: number[];
  /** Flows per run (open-loop workloads). */
  flows?: number;
  /** Queries per run (query aggregation). */
  queries?: number;
  /** What this size is, for the page. */
  note: string;
}

/** A live figure: what it runs (scenario, protocols, x and y) and how big, with its caption and source. */
export interface Figure {
  /** In the address: `#gallery=<id>`. */
  id: string;
  title: string;
  /** Paper, figure, section. */
  cites: string;
  /** One paragraph: what the paper shows and what this sweep runs. */
  caption: string;
  protocols: Protocol[];
  x: {
    label: string;
    /** The CSV's first column (as `dcsim sweep --vary` names it), or null when x is the load (the CSV is then `dcsim sweep`'s). */
    column: string | null;
    /** x as the CSV writes it and the chart's points carry it. */
    csv: (x: number) => string;
    /** x in words ("load 0.5", "50 senders"). */
    text: (x: number) => string;
    /** Categories instead of numbers: tick labels at 0, 1, 2, ... */
    categories?: string[];
  };
  y: {
    label: string;
    /** The summary CSV's column holding the value. */
    column: string;
    value: (s: Summary) => number | null;
    /** Drawn as value x scale (e.g. µs to ms). */
    scale?: number;
    /** The unit after a scaled value in words (" ms"). */
    unit?: string;
    /** The axis starts at 0 (default) or near the smallest value drawn. */
    fromZero?: boolean;
  };
  small: FigureSize;
  paper: FigureSize;
  /** The scenario at x (protocol set later). */
  scenario: (x: number, size: FigureSize) => ScenarioJson;
}

function bundled(name: string): ScenarioJson {
  const s = scenarioNamed(name);
  if (!s) throw new Error(`no bundled scenario ${name}`);
  return s;
}

const withWorkload = (s: ScenarioJson, w: Record<string, unknown>): ScenarioJson => ({ ...s, workload: { ...s.workload, ...w } });
const matrix = (s: ScenarioJson, m: Record<string, unknown>) => withWorkload(s, { matrix: { ...(s.workload?.matrix as object), ...m } });
const loadX = { label: 'load', column: null, csv: (x: number) => String(x), text: (x: number) => `load ${x}` };
const WORKLOADS = ['websearch', 'datamining', 'imc10'];

/** The gallery's live figures, in the order the page shows them. */
export const FIGURES: Figure[] = [
  {
    id: 'pfabric-websearch',
    title: 'pFabric: web search, mean slowdown against load',
    cites: 'pFabric (Alizadeh et al., SIGCOMM 2013), section 5.4.1, Figure 7(a)',
    caption:
      "The pFabric paper's headline result: on a 144-host leaf-spine with the web search workload, pFabric's mean normalized flow completion time is \"within ∼0.7-17.8% of the Ideal scheme\" (an SRPT oracle) over loads 0.1 to 0.8, and \"significantly better\" than the other schemes'. The paper gives this as a plot and a sentence, not as a table, so the overlay is the sentence as the fidelity report reads it: pFabric over Ideal, minus 1, between 0.63% and 19.58% at every load (drawn as a band around the simulated Ideal), 0.7% ± 10% of itself at the closest load and 17.8% ± 10% at the farthest; DCTCP and TCP above pFabric, and by more than 15% (\"significantly\"). Mean slowdown here is the paper's normalized FCT (FCT over the flow's FCT alone in the empty network).",
    protocols: ['ideal', 'pfabric', 'dctcp', 'tcp'],
    x: loadX,
    y: { label: 'mean slowdown', column: 'mean_slowdown', value: (s) => (s.all.flows > 0 ? s.all.mean_slowdown : null) },
    small: { xs: [0.2, 0.5, 0.8], flows: 300, note: '3 loads, 300 flows per run (12 runs)' },
    paper: { xs: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], flows: 10_000, note: "the figure's 8 loads, 10,000 flows per run (32 runs; minutes)" },
    scenario: (x, size) => withWorkload(bundled('websearch-leaf-spine'), { load: x, flows: size.flows }),
  },
  {
    id: 'phost-workloads',
    title: 'pHost: pHost, pFabric and Fastpass by workload at load 0.6',
    cites: 'pHost (Gao et al., CoNEXT 2015), section 4.2, Figure 3; abstract',
    caption:
      "The pHost paper's main comparison: on the same 144-host leaf-spine (10/40 Gbps, 36 KB ports) at load 0.6, pHost's mean slowdown is \"within 4%\" of pFabric's \"for typical conditions\" (the abstract) with commodity switches, while Fastpass, with its central arbiter, is worse: pHost is \"1.3–4× better than Fastpass\" (Figure 3), mostly on short flows. The overlay is these two sentences as the fidelity report's rules read them, per workload: pHost over pFabric in [0.96, 1.04]; Fastpass over pHost between 1.17 and 4.4, with the smallest of the three 1.3 ± 10% and the largest 4 ± 10%. Fastpass here sends at the start of its granted timeslot, as the Fastpass paper does; engine/ARCHITECTURE.md (Fastpass's parts) shows the paper's 1.3 to 4 times lying between this reading (up to 5.4 times on data mining) and sending as the grant arrives.",
    protocols: ['pfabric', 'phost', 'fastpass'],
    x: { label: 'workload', column: 'workload', csv: (x) => WORKLOADS[x], text: (x) => ['web search', 'data mining', 'IMC10'][x], categories: ['web search', 'data mining', 'IMC10'] },
    y: { label: 'mean slowdown', column: 'mean_slowdown', value: (s) => (s.all.flows > 0 ? s.all.mean_slowdown : null) },
    small: { xs: [0, 1, 2], flows: 300, note: '3 workloads, 300 flows per run (9 runs)' },
    paper: { xs: [0, 1, 2], flows: 10_000, note: "3 workloads, 10,000 flows per run (the bundled scenarios' default; minutes)" },
    scenario: (x, size) => withWorkload(bundled(`${WORKLOADS[x]}-leaf-spine`), { load: 0.6, flows: size.flows }),
  },
  {
    id: 'pdq-deadlines',
    title: 'PDQ: deadlines met against flows per query',
    cites: 'PDQ (Hong, Caesar, Godfrey, SIGCOMM 2012), section 5.2, Figure 3(a)',
    caption:
      "The PDQ paper's deadline experiment: queries on a two-level tree of 12 servers at 1 Gbps, each query starting a number of flows (sizes uniform in 2 to 198 KB, deadlines exponential with mean 20 ms, at least 3 ms) towards one aggregator. PDQ pauses the less critical flows and lets the most critical finish: \"PDQ has near-optimal application throughput\" (the fraction of deadlines met), while \"as the number of concurrent flows increases, the application throughput of D3, RCP and TCP decreases significantly\". The paper's curves are a plot only, so the overlay is those two sentences as the fidelity report's rules read them: PDQ within 2 points of the optimal deadline scheduler at every point, and D3, RCP and TCP more than 2 points lower at the most flows than at the fewest.",
    protocols: ['optimal_deadline', 'pdq', 'd3', 'rcp', 'tcp'],
    x: { label: 'flows per query', column: 'workload.matrix.fanout', csv: (x) => String(x), text: (x) => `${x} flows per query` },
    y: { label: 'fraction of deadlines met', column: 'deadlines_met_pct', value: (s) => s.deadlines_met },
    small: { xs: [2, 6, 10], queries: 10, note: '3 fan-outs, 10 queries per run (15 runs)' },
    paper: { xs: [2, 5, 8, 11], queries: 20, note: "fan-outs 2 to 11 (the paper's 12-server tree), 20 queries per run (20 runs)" },
    scenario: (x, size) => matrix(bundled('pdq-query-aggregation'), { fanout: x, queries: size.queries }),
  },
  {
    id: 'pase-afct',
    title: 'PASE: average flow completion time against load, PASE and DCTCP',
    cites: 'PASE (Munir et al., SIGCOMM 2014), section 4.4 (testbed), Figure 13(b)',
    caption:
      "The PASE paper's testbed: one rack of 10 hosts at 1 Gbps with a 250 µs round trip, nine clients sending flows uniform in 100 to 500 KB to one server (load on the server's link, 10% to 90%) beside one long-lived flow from a client to the server. PASE (arbitration, in-network priority queues and DCTCP-like end hosts together) \"achieves ≈50%-60% smaller AFCTs compared to DCTCP\". The overlay is that sentence as the fidelity report's rules read it: 1 minus PASE's AFCT over DCTCP's between 0.45 and 0.66 at every load (a band around the simulated DCTCP), 0.5 ± 10% at the smallest and 0.6 ± 10% at the largest; this simulator finds PASE 68% to 76% below DCTCP (engine/ARCHITECTURE.md: each new DCTCP flow halves its window at the long-lived flow's first marks and grows back slowly, while PASE puts the long-lived flow in its lowest queue). The paper averages ten runs; a live run here is one.",
    protocols: ['pase', 'dctcp'],
    x: loadX,
    y: { label: 'AFCT (ms)', column: 'afct_us', value: (s) => (s.all.flows > 0 ? s.all.afct_us : null), scale: 1e-3, unit: ' ms' },
    small: { xs: [0.1, 0.5, 0.9], flows: 300, note: '3 loads, 300 flows per run (6 runs)' },
    paper: { xs: [0.1, 0.3, 0.5, 0.7, 0.9], flows: 3000, note: "the testbed's loads 0.1 to 0.9, 3,000 flows per run (10 runs)" },
    scenario: (x, size) => withWorkload(bundled('pase-testbed'), { load: x, flows: size.flows }),
  },
  {
    id: 'pfabric-incast',
    title: 'pFabric: incast, request completion time against senders',
    cites: 'pFabric (Alizadeh et al., SIGCOMM 2013), section 5.3, Figure 6(a)',
    caption:
      "The pFabric paper's incast experiment: a 100 MB request striped over N senders to one receiver of the 144-host leaf-spine. The receiver's 10 Gbps link needs 80 ms for it, so no scheme finishes sooner; pFabric achieves \"a total request completion time of 81.1ms at 50 senders\" (the paper's number, drawn as the paper point), keeping the bottleneck busy despite its small buffers and dropping packets freely, and DCTCP \"a near-ideal request complete time of 80ms across all number of senders\". The fidelity report reads 81.1 ms as 1.1 ms ± 10% over the 80 ms (80.99 to 81.21 ms: a band too narrow to see at this scale) and DCTCP's 80 ms as 72 to 88 ms. The paper averages 10,000 requests; a live run here is one request per point.",
    protocols: ['pfabric', 'dctcp'],
    x: { label: 'senders', column: 'workload.matrix.senders', csv: (x) => String(x), text: (x) => `${x} senders` },
    y: { label: 'request completion time (ms)', column: 'mean_request_us', value: (s) => s.mean_request_us, scale: 1e-3, unit: ' ms', fromZero: false },
    small: { xs: [10, 50], note: '2 sender counts (4 runs)' },
    paper: { xs: [5, 10, 20, 30, 40, 50], note: '5 to 50 senders (12 runs)' },
    scenario: (x) => matrix(bundled('incast-one-request'), { senders: x }),
  },
];

/** The figure named `id`. */
export function figureById(id: string | null | undefined): Figure | undefined {
  return FIGURES.find((f) => f.id === id);
}

/** A sweep point of a figure, with its x. */
export interface FigurePoint extends SweepPoint {
  x: number;
}

/** The figure's grid in `dcsim sweep`'s order: each protocol at every x. */
export function figurePoints(f: Figure, size: FigureSize): FigurePoint[] {
  return f.protocols.flatMap((protocol) =>
    size.xs.map((x) => {
      const scenario: ScenarioJson = { ...f.scenario(x, size), protocol };
      return { protocol, x, load: Number(scenario.workload?.load ?? 0.6), scenario, label: `${protocol} at ${f.x.text(x)}` };
    }),
  );
}

/**
 * The figure's CSV: the sweep's summary rows (`dcsim sweep`'s bytes when x
 * is the load), with x as a first column otherwise, as `dcsim sweep --vary`
 * writes it.
 */
export function figureCsv(f: Figure, results: SweepResult[], xs: number[]): string {
  const csv = sweepCsv(results);
  if (!f.x.column || !csv) return csv;
  const rows = parseCsv(csv);
  return writeCsv([[f.x.column, ...rows[0]], ...rows.slice(1).map((r, i) => [f.x.csv(xs[i]), ...r])]);
}

/**
 * Reads the gallery's place in an address: null when the hash does not
 * open the gallery; `id` the live figure `#gallery=<id>` names (null for
 * `#gallery`), `claim` the report's claim `#claim=<id>` names (which opens
 * the gallery on its own too: the docs and share links point there).
 */
export function galleryFromHash(hash: string): { id: string | null; claim: string | null } | null {
  const m = /(?:^#|&)gallery(?:=([a-z0-9-]+))?(?=&|$)/.exec(hash);
  const c = /(?:^#|&)claim=([A-Za-z0-9._~%-]+)(?=&|$)/.exec(hash);
  if (!m && !c) return null;
  let claim: string | null = null;
  if (c) {
    try {
      claim = decodeURIComponent(c[1]);
    } catch {
      claim = c[1];
    }
  }
  return { id: m?.[1] ?? null, claim };
}
