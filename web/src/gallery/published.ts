// What the seed papers publish for the gallery's figures, each entry with
// its source (paper, figure or section, and where this repository already
// quotes it). Two kinds: `points`, numbers the paper prints (drawn as
// "paper" points), and `ratio`, a claim the paper makes about one scheme
// against another ("pFabric within 0.7% to 17.8% of Ideal"), checked as a
// ratio of the simulated series at every x, never turned into points.
// Nothing here is read off a plot by eye: a figure whose numbers are only
// in a plot has claims, not points (and a series with neither says "no
// published values entered").

import type { Protocol } from '../state/settings';

/** Where a published number or claim comes from. */
export interface Source {
  /** The paper: authors, venue and year. */
  paper: string;
  /** Figure, table or section of that paper. */
  where: string;
  /** Where this repository already quotes it (a test, a scenario file, the docs), so it can be checked. */
  quotedIn: string;
}

/** Numbers the paper prints for one series: y at x. */
export interface PublishedPoints {
  kind: 'points';
  series: Protocol;
  points: { x: number; y: number }[];
  /** Largest relative difference that still agrees (0.03: within 3%). */
  tolerance: number;
  source: Source;
}

/**
 * A relative claim: `series / reference` lies in [lo, hi] at every x (in
 * [xMin, xMax] when given). `hi` may be Infinity ("above"), `lo` 0 ("below").
 */
export interface PublishedRatio {
  kind: 'ratio';
  series: Protocol;
  reference: Protocol;
  lo: number;
  hi: number;
  xMin?: number;
  xMax?: number;
  /** The claim in the paper's words, shortened. */
  claim: string;
  /** Slack beyond the claimed range that still agrees, relative to the bound (0.05: 5%). */
  tolerance: number;
  source: Source;
}

export type Published = PublishedPoints | PublishedRatio;

const PFABRIC = 'pFabric (Alizadeh et al., SIGCOMM 2013)';
const PHOST = 'pHost (Gao et al., CoNEXT 2015)';
const PDQ = 'PDQ (Hong, Caesar, Godfrey, SIGCOMM 2012)';
const PASE = 'PASE (Munir et al., SIGCOMM 2014)';

/** Published values by figure id (figures.ts). A figure absent here shows no overlay. */
export const PUBLISHED: Record<string, Published[]> = {
  'pfabric-websearch': [
    /** pFabric section 5, Figure 8 (web search, loads 0.2 to 0.8): pFabric's mean normalized FCT within 0.7% to 17.8% of Ideal's. */
    {
      kind: 'ratio',
      series: 'pfabric',
      reference: 'ideal',
      lo: 1.007,
      hi: 1.178,
      claim: 'pFabric within 0.7% to 17.8% of Ideal',
      tolerance: 0.05,
      source: { paper: PFABRIC, where: 'section 5, Figure 8 and its discussion', quotedIn: 'engine/core/tests/paper_pfabric.rs (websearch_mean_slowdown_orders_ideal_pfabric_dctcp_tcp)' },
    },
    /** pFabric Figure 8: DCTCP above pFabric at every load. */
    {
      kind: 'ratio',
      series: 'dctcp',
      reference: 'pfabric',
      lo: 1,
      hi: Infinity,
      claim: 'DCTCP above pFabric at every load',
      tolerance: 0,
      source: { paper: PFABRIC, where: 'section 5, Figure 8', quotedIn: 'engine/core/tests/paper_pfabric.rs; README "What the tests check"' },
    },
    /** pFabric Figure 8: TCP (DropTail) above DCTCP at every load. */
    {
      kind: 'ratio',
      series: 'tcp',
      reference: 'dctcp',
      lo: 1,
      hi: Infinity,
      claim: 'TCP-DropTail above DCTCP at every load',
      tolerance: 0,
      source: { paper: PFABRIC, where: 'section 5, Figure 8', quotedIn: 'engine/core/tests/paper_pfabric.rs; README "What the tests check"' },
    },
  ],
  'pfabric-incast': [
    /** pFabric Figure 6 (incast): a 100 MB request over 50 senders completes in 81.1 ms under pFabric (the ideal is 80 ms). */
    {
      kind: 'points',
      series: 'pfabric',
      points: [{ x: 50, y: 81_100 }],
      tolerance: 0.03,
      source: { paper: PFABRIC, where: 'section 5, Figure 6 (incast)', quotedIn: 'scenarios/incast.json; engine/core/tests/paper_pfabric.rs (incast_requests_finish_near_the_ideal_80_ms)' },
    },
  ],
  'phost-workloads': [
    /** pHost section 4.2, Figure 3, and the abstract: pHost "within 4% [of pFabric] for typical conditions". */
    {
      kind: 'ratio',
      series: 'phost',
      reference: 'pfabric',
      lo: 0,
      hi: 1.04,
      claim: 'pHost within 4% of pFabric',
      tolerance: 0.05,
      source: { paper: PHOST, where: 'section 4.2, Figure 3; abstract', quotedIn: 'engine/core/tests/paper_phost.rs; scenarios/imc10-leaf-spine.json' },
    },
    /** pHost section 4.2: Fastpass's mean slowdown 1.3 to 4 times pHost's (the abstract: "by a factor of 3.8x"). */
    {
      kind: 'ratio',
      series: 'fastpass',
      reference: 'phost',
      lo: 1.3,
      hi: 4,
      claim: 'Fastpass 1.3 to 4 times worse than pHost',
      tolerance: 0.05,
      source: { paper: PHOST, where: 'section 4.2, Figure 3; abstract (3.8x)', quotedIn: 'engine/core/tests/paper_phost.rs; engine/ARCHITECTURE.md "Fastpass\'s parts"' },
    },
  ],
  'pdq-deadlines': (['d3', 'rcp', 'tcp'] as const).map(
    /** PDQ section 5.2, Figure 3(a): D3, RCP and TCP meet fewer deadlines than PDQ from 5 flows per query on. */
    (p): Published => ({
      kind: 'ratio',
      series: p,
      reference: 'pdq',
      lo: 0,
      hi: 1,
      xMin: 5,
      claim: `${p === 'tcp' ? 'TCP' : p === 'rcp' ? 'RCP' : 'D3'} meets fewer deadlines than PDQ from 5 flows per query`,
      tolerance: 0,
      source: { paper: PDQ, where: 'section 5.2, Figure 3(a)', quotedIn: 'engine/core/tests/pdq.rs (d3_rcp_and_tcp_fall_below_pdq_as_flows_increase); engine/ARCHITECTURE.md "PDQ and D3"' },
    }),
  ),
  'pase-afct': [
    /** PASE section 5 (testbed): PASE's AFCT about 50% to 60% below DCTCP's (issue 18's reading of the testbed claim). */
    {
      kind: 'ratio',
      series: 'pase',
      reference: 'dctcp',
      lo: 0.4,
      hi: 0.5,
      claim: "PASE's AFCT about 50% to 60% below DCTCP's",
      tolerance: 0.05,
      source: { paper: PASE, where: 'section 5 (testbed)', quotedIn: 'issue 18; README "Status"; engine/core/tests/pase.rs (testbed_pase_afct_is_50_to_60_percent_below_dctcp)' },
    },
  ],
};
