// What the seed papers state about the gallery's live figures, each entry
// read into a bound by the fidelity report's rules (docs/fidelity.json's
// `rules`: "within x%" is [1 - x, 1 + x], "∼x-y" over an axis is x ± 10% at
// the smallest point, y ± 10% at the largest and every point between,
// "significantly" is a ratio above 1.15 or a difference above 2 points,
// "near-optimal" deadlines met within 2 points, orderings strict), with no
// slack: `slack` is 0 in every entry and a test fails otherwise. Each entry
// quotes the paper's words, names the rule, the report's claim it mirrors
// (so the page links to the report's verdict, judged over seeds with 95%
// intervals; a live run is one seed per point and is never called a
// verdict), and its source.
//
// Three kinds: `relative` (a quantity of a series against a reference at
// each x: a ratio, a ratio minus 1, 1 minus a ratio, or a difference),
// `value` (a quantity of the series' own value, at given x or every x; the
// paper's printed numbers are drawn as "paper" points), and `trend` (the
// series at its first x against its last). Nothing is read off a plot by
// eye.

import type { Protocol } from '../state/settings';

/** Where a published number or claim comes from. */
export interface Source {
  /** The paper: authors, venue and year. */
  paper: string;
  /** Figure, table or section of that paper. */
  where: string;
  /** Where this repository quotes it (the papers' excerpts, the report, a test), so it can be checked. */
  quotedIn: string;
}

/** A bound in the quantity's terms, as the report writes it: null is no bound on that side; open excludes the edge. */
export interface PaperBound {
  lo: number | null;
  hi: number | null;
  loOpen: boolean;
  hiOpen: boolean;
}

/** The report's claim an entry mirrors: by id where known, else by paper and figure (the page links to what it finds). */
export interface ReportRef {
  /** The paper as the report names it ("pFabric"). */
  paper: string;
  /** The report's claim id, when known. */
  claim?: string;
  /** The claim's reading keys this entry's bounds are (a test compares the bounds where the report has the claim). */
  readings?: { every?: string; smallest?: string; largest?: string };
  /** The figure as the report cites it, to find the claim when the id is not given ("Figure 3"). */
  figure?: string;
}

interface Common {
  series: Protocol;
  /** The paper's words, quoted. */
  says: string;
  /** The report's rule that reads them (a `rule` key of docs/fidelity.json). */
  rule: string;
  /** Widening of the bound beyond the rule's reading, relative to its edges. Always 0: the report's rules, no slack (a test checks). */
  slack: number;
  report: ReportRef;
  source: Source;
}

/** How a relative quantity is computed from the series' value v and the reference's r. */
export type RelativeQuantity = 'ratio' | 'ratio-1' | '1-ratio' | 'diff';

/**
 * A claim about `series` against `reference`: the quantity at every x (in
 * [xMin, xMax] when given) lies in `bound`; with `ends`, the approximate
 * range's reading too: over the paper's axis, the smallest quantity in
 * `smallest` and the largest in `largest` (judged only when the run covers
 * both ends of the axis).
 */
export interface PublishedRelative extends Common {
  kind: 'relative';
  reference: Protocol;
  quantity: RelativeQuantity;
  bound: PaperBound;
  ends?: { axis: [number, number]; smallest: PaperBound; largest: PaperBound };
  xMin?: number;
  xMax?: number;
}

/** A claim about the series' own value: the quantity `of(y)` lies in `bound` at `at` (every x the run has when null). */
export interface PublishedValue extends Common {
  kind: 'value';
  /** The numbers the paper prints, in the figure's y units, drawn as "paper" points. */
  points: { x: number; y: number }[];
  at: number[] | null;
  /** The quantity in words ("request completion minus 80 ms, ms"), from y, and back (to draw the bound). */
  quantity: { text: string; of: (y: number) => number; back: (q: number) => number };
  bound: PaperBound;
}

/** A claim about how the series changes along x: its value at the first x run minus at the last lies in `bound`. */
export interface PublishedTrend extends Common {
  kind: 'trend';
  bound: PaperBound;
}

/** One published claim about a live figure. */
export type Published = PublishedRelative | PublishedValue | PublishedTrend;

const PFABRIC = 'pFabric (Alizadeh et al., SIGCOMM 2013)';
const PHOST = 'pHost (Gao et al., CoNEXT 2015)';
const PDQ = 'PDQ (Hong, Caesar, Godfrey, SIGCOMM 2012)';
const PASE = 'PASE (Munir et al., SIGCOMM 2014)';

const closed = (lo: number | null, hi: number | null): PaperBound => ({ lo, hi, loOpen: false, hiOpen: false });
const above = (lo: number): PaperBound => ({ lo, hi: null, loOpen: true, hiOpen: false });
const below = (hi: number): PaperBound => ({ lo: null, hi, loOpen: false, hiOpen: true });
/** The "approximate value" rule: v ± 10% of itself. */
const approx = (v: number): PaperBound => closed(Number((v * 0.9).toPrecision(12)), Number((v * 1.1).toPrecision(12)));
/** The "approximate value" rule on a range "x-y": every point between x - 10% and y + 10%. */
const approxRange = (x: number, y: number): PaperBound => closed(approx(x).lo, approx(y).hi);

const pfabricBetter = (p: 'dctcp' | 'tcp'): Published[] => [
  {
    kind: 'relative',
    series: p,
    reference: 'pfabric',
    quantity: 'ratio',
    bound: above(1),
    says: 'significantly better than for the other schemes',
    rule: 'ordering',
    slack: 0,
    report: { paper: 'pFabric', claim: 'pfabric-better-than-others', readings: { every: 'better' } },
    source: { paper: PFABRIC, where: 'section 5.4.1, Figure 7(a)', quotedIn: '../shared/papers/003 (pFabric excerpt); docs/fidelity.json (pfabric-better-than-others)' },
  },
  {
    kind: 'relative',
    series: p,
    reference: 'pfabric',
    quantity: 'ratio',
    bound: above(1.15),
    says: 'significantly better than for the other schemes',
    rule: 'significant',
    slack: 0,
    report: { paper: 'pFabric', claim: 'pfabric-better-than-others', readings: { every: 'significantly' } },
    source: { paper: PFABRIC, where: 'section 5.4.1, Figure 7(a)', quotedIn: '../shared/papers/003 (pFabric excerpt); docs/fidelity.json (pfabric-better-than-others)' },
  },
];

/** Published claims by figure id (figures.ts). A figure absent here shows no overlay. */
export const PUBLISHED: Record<string, Published[]> = {
  'pfabric-websearch': [
    /** pFabric 5.4.1, Figure 7(a): "within ∼0.7-17.8% of the Ideal scheme for the web search workload" over loads 0.1 to 0.8. */
    {
      kind: 'relative',
      series: 'pfabric',
      reference: 'ideal',
      quantity: 'ratio-1',
      bound: approxRange(0.007, 0.178),
      ends: { axis: [0.1, 0.8], smallest: approx(0.007), largest: approx(0.178) },
      says: "pFabric's performance is within ∼0.7-17.8% of the Ideal scheme for the web search workload",
      rule: 'approx',
      slack: 0,
      report: { paper: 'pFabric', claim: 'pfabric-websearch-near-ideal', readings: { every: 'every', smallest: 'smallest', largest: 'largest' } },
      source: { paper: PFABRIC, where: 'section 5.4.1, Figure 7(a)', quotedIn: '../shared/papers/003 (pFabric excerpt); docs/fidelity.json (pfabric-websearch-near-ideal)' },
    },
    ...pfabricBetter('dctcp'),
    ...pfabricBetter('tcp'),
  ],
  'pfabric-incast': [
    /** pFabric 5.3, Figure 6(a): a 100 MB request over 50 senders completes in 81.1 ms under pFabric (80 ms is the ideal; the report reads the 1.1 ms over it). */
    {
      kind: 'value',
      series: 'pfabric',
      points: [{ x: 50, y: 81_100 }],
      at: [50],
      quantity: { text: 'request completion minus the 80 ms ideal (ms)', of: (y) => y / 1000 - 80, back: (q) => (q + 80) * 1000 },
      bound: approx(1.1),
      says: 'a total request completion time of 81.1ms at 50 senders',
      rule: 'approx',
      slack: 0,
      report: { paper: 'pFabric', claim: 'pfabric-incast-81ms', readings: { every: '81.1ms' } },
      source: { paper: PFABRIC, where: 'section 5.3, Figure 6(a)', quotedIn: '../shared/papers/003 (pFabric excerpt); docs/fidelity.json (pfabric-incast-81ms)' },
    },
    /** pFabric 5.3, Figure 6(a): DCTCP's request completion about 80 ms at every number of senders. */
    {
      kind: 'value',
      series: 'dctcp',
      points: [],
      at: null,
      quantity: { text: 'request completion (ms)', of: (y) => y / 1000, back: (q) => q * 1000 },
      bound: approx(80),
      says: 'DCTCP does the best and achieves a near-ideal request complete time of 80ms across all number of senders',
      rule: 'approx',
      slack: 0,
      report: { paper: 'pFabric', claim: 'pfabric-incast-dctcp-and-serial', readings: { every: 'dctcp-80ms' } },
      source: { paper: PFABRIC, where: 'section 5.3, Figure 6(a)', quotedIn: '../shared/papers/003 (pFabric excerpt); docs/fidelity.json (pfabric-incast-dctcp-and-serial)' },
    },
  ],
  'phost-workloads': [
    /** pHost abstract: pHost's mean slowdown "within 4%" of pFabric's "for typical conditions" (Figure 3's default configuration). */
    {
      kind: 'relative',
      series: 'phost',
      reference: 'pfabric',
      quantity: 'ratio',
      bound: closed(0.96, 1.04),
      says: 'within 4% for typical conditions',
      rule: 'literal',
      slack: 0,
      report: { paper: 'pHost', figure: 'Figure 3' },
      source: { paper: PHOST, where: 'abstract; section 4.2, Figure 3', quotedIn: '../shared/papers/001 (pHost, whole paper); issue 28 (phost-near-pfabric)' },
    },
    /** pHost Figure 3's caption: pHost "1.3–4× better than Fastpass" across the three workloads. */
    {
      kind: 'relative',
      series: 'fastpass',
      reference: 'phost',
      quantity: 'ratio',
      bound: approxRange(1.3, 4),
      ends: { axis: [0, 2], smallest: approx(1.3), largest: approx(4) },
      says: 'pHost performs comparable to pFabric, and 1.3–4× better than Fastpass',
      rule: 'approx',
      slack: 0,
      report: { paper: 'pHost', figure: 'Figure 3' },
      source: { paper: PHOST, where: 'section 4.2, Figure 3 (caption)', quotedIn: '../shared/papers/001 (pHost, whole paper)' },
    },
  ],
  'pdq-deadlines': [
    /** PDQ 5.2, Figure 3(a): "PDQ has near-optimal application throughput across a wide range of loads". */
    {
      kind: 'relative',
      series: 'pdq',
      reference: 'optimal_deadline',
      quantity: 'diff',
      bound: closed(-0.02, 0.02),
      says: 'We observe that PDQ has near-optimal application throughput across a wide range of loads (Figure 3a)',
      rule: 'similar_deadlines',
      slack: 0,
      report: { paper: 'PDQ', figure: 'Figure 3' },
      source: { paper: PDQ, where: 'section 5.2, Figure 3(a)', quotedIn: '../shared/papers/004 (PDQ excerpt)' },
    },
    ...(['d3', 'rcp', 'tcp'] as const).map(
      /** PDQ 5.2, Figure 3(a): "as the number of concurrent flows increases, the application throughput of D3, RCP and TCP decreases significantly". */
      (p): Published => ({
        kind: 'trend',
        series: p,
        bound: above(0.02),
        says: 'as the number of concurrent flows increases, the application throughput of D3, RCP and TCP decreases significantly',
        rule: 'significant',
        slack: 0,
        report: { paper: 'PDQ', figure: 'Figure 3' },
        source: { paper: PDQ, where: 'section 5.2, Figure 3(a)', quotedIn: '../shared/papers/004 (PDQ excerpt)' },
      }),
    ),
  ],
  'pase-afct': [
    /** PASE 4.4, Figure 13(b) (testbed, loads 10% to 90%): PASE "achieves ≈50%-60% smaller AFCTs compared to DCTCP". */
    {
      kind: 'relative',
      series: 'pase',
      reference: 'dctcp',
      quantity: '1-ratio',
      bound: approxRange(0.5, 0.6),
      ends: { axis: [0.1, 0.9], smallest: approx(0.5), largest: approx(0.6) },
      says: 'it achieves ≈50%-60% smaller AFCTs compared to DCTCP',
      rule: 'approx',
      slack: 0,
      report: { paper: 'PASE', figure: 'Figure 13' },
      source: { paper: PASE, where: 'section 4.4, Figure 13(b)', quotedIn: '../shared/papers/000 (PASE excerpt, 4.4 testbed)' },
    },
  ],
};
