// The fidelity report (`dcsim reproduce --json docs/fidelity.json`) as the
// gallery reads it: the JSON's shape, a reader that checks it (so a report
// the page does not understand fails loudly in a test, not silently on a
// projector), and the pure parts of the page: verdicts and fits in words
// and marks (never colour alone), a check's interval against its bound in
// one sentence, the tallies, the grouping by paper, the filters, and the
// geometry of the charts (Report.tsx draws them).

/** The report's verdict on a claim. */
export type VerdictWord = 'agrees' | 'differs' | 'inconclusive' | 'not reproduced';

/** The four verdicts, in the order the page lists them. */
export const VERDICTS: VerdictWord[] = ['agrees', 'differs', 'inconclusive', 'not reproduced'];

/** How a check's 95% interval lies against its bound: inside, outside, or across an edge. */
export type Fit = 'holds' | 'fails' | 'straddles';

/** A 95% confidence interval over the samples (seeds, or requests where the check says so). */
export interface Interval {
  mean: number;
  lo: number;
  hi: number;
  /** How many samples. */
  n: number;
}

/** A bound as the rules read the paper's words: lo and/or hi (null: no bound on that side), open or closed. */
export interface Bound {
  lo: number | null;
  hi: number | null;
  lo_open: boolean;
  hi_open: boolean;
  /** The bound in words: "in [14.4, 17.6]", "above 1", "below 0.055", "at least 0". */
  text: string;
}

/** One check: a number measured over samples, its interval, its bound, and how they fit. */
export interface Check {
  /** What was measured, in words (names the point: load, workload, senders). */
  what: string;
  /** The key of the claim's reading this check applies. */
  reading: string;
  /** 'value' or 'order'. */
  kind: string;
  samples: number[];
  /** Null when nothing was measured. */
  interval: Interval | null;
  bound: Bound;
  /** 'holds', 'fails' or 'straddles' (anything else is shown as it is, with a "?"). */
  fit: string;
  /** The fit in the report's words: "yes", "no", "cannot tell". */
  fit_text: string;
}

/** A claim judged: its verdict, the checks behind it, and notes. */
export interface Judged {
  /** dcsim's value in one line. */
  value: string;
  verdict: VerdictWord;
  verdict_text: string;
  checks: Check[];
  notes: string[];
}

/** How a phrase of the paper is read: the words, the quantity, the bound, and the rule. */
export interface Reading {
  key: string;
  /** The paper's words. */
  says: string;
  /** The quantity the words are about. */
  of: string;
  /** The bound in words. */
  bound: string;
  kind: string;
  /** The rule (an entry of the report's rules). */
  rule: string;
}

/** A scenario setting: where, what, and why. */
export interface Setting {
  path: string;
  value: string;
  why: string;
}

/** The claim judged under another reading of an open choice. */
export interface Variant {
  name: string;
  why: string;
  settings: Setting[];
  judged: Judged;
}

/** One claim of the report. */
export interface Claim {
  id: string;
  /** The paper's short name ("pFabric"). */
  paper: string;
  /** The paper in full: authors, venue and year. */
  cite: string;
  /** True for the claims of the project's papers, false for the "other papers" section. */
  source_paper: boolean;
  section: string;
  /** May be empty (a claim from the text only). */
  figure: string;
  /** The paper's sentence. */
  quote: string;
  /** Whether the sentence is in the excerpts the project keeps; otherwise cited from the paper. */
  in_excerpt: boolean;
  /** What is tested, in the project's words. */
  statement: string;
  readings: Reading[];
  scenarios: string[];
  /** The size of this report's runs. */
  size: string;
  /** The paper's size. */
  paper_size: string;
  deviations: string[];
  applied: Setting[];
  judged: Judged;
  variants: Variant[];
  /** Where the claim is not reproduced or differs: what was checked and what the data suggest (may be empty). */
  discussion: string;
  /** Why the claim does not agree (null: it agrees, or no cause is established). */
  cause: Cause | null;
  /** The pHost authors' simulator's value on the claim's setting, in the words of dcsim's value (null: not run on this claim). */
  authors_simulator: string | null;
}

/** The kinds of cause the report gives a claim that does not agree. */
export const CAUSE_KINDS = ['dcsim_error_fixed', 'authors_simulator_agrees', 'open_setting', 'unexplained'] as const;

/** Why a claim does not agree: the kind, in the report's words, and the evidence. */
export interface Cause {
  /** One of CAUSE_KINDS (anything else is shown by its name). */
  kind: string;
  /** The kind in the report's words: "an open setting decides it". */
  name: string;
  /** The evidence: the mechanism and commit, the sensitivity row and the paper's sentence, or what was checked. */
  why: string;
}

/** How one kind of the papers' words is read, once for every claim. */
export interface Rule {
  rule: string;
  name: string;
  words: string;
  reading: string;
  reason: string;
}

/** The whole report. */
export interface Report {
  generated_by: string;
  /** 'quick' or 'full'. */
  mode: string;
  engine: string;
  date: string;
  runs: number;
  threads: number;
  wall_s: number;
  /** The report's tallies in words: the project's papers, and other papers. */
  tally: { source: string; other: string };
  rules: Rule[];
  claims: Claim[];
}

// ---------------------------------------------------------------- reading the JSON

type Obj = Record<string, unknown>;

/** A claim's cause: null or absent (a report written before causes) reads as none. */
function readCause(v: unknown, at: string): Cause | null {
  if (v === null || v === undefined) return null;
  const o = obj(v, at);
  return { kind: str(o, 'kind', at), name: str(o, 'name', at), why: str(o, 'why', at) };
}

/** Thrown when the report's JSON is not the shape the page reads; the message names the field. */
export class ReportShapeError extends Error {}

function obj(v: unknown, at: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ReportShapeError(`${at}: expected an object`);
  return v as Obj;
}
function str(o: Obj, k: string, at: string, fallback?: string): string {
  const v = o[k];
  if (typeof v === 'string') return v;
  if ((v === undefined || v === null) && fallback !== undefined) return fallback;
  throw new ReportShapeError(`${at}.${k}: expected text`);
}
function numOrNull(o: Obj, k: string, at: string): number | null {
  const v = o[k];
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  throw new ReportShapeError(`${at}.${k}: expected a number or null`);
}
function num(o: Obj, k: string, at: string, fallback?: number): number {
  const v = o[k];
  if (typeof v === 'number') return v;
  if (v === undefined && fallback !== undefined) return fallback;
  throw new ReportShapeError(`${at}.${k}: expected a number`);
}
function bool(o: Obj, k: string, at: string, fallback?: boolean): boolean {
  const v = o[k];
  if (typeof v === 'boolean') return v;
  if (v === undefined && fallback !== undefined) return fallback;
  throw new ReportShapeError(`${at}.${k}: expected true or false`);
}
function list<T>(o: Obj, k: string, at: string, each: (v: unknown, at: string) => T, optional = false): T[] {
  const v = o[k];
  if ((v === undefined || v === null) && optional) return [];
  if (!Array.isArray(v)) throw new ReportShapeError(`${at}.${k}: expected a list`);
  return v.map((x, i) => each(x, `${at}.${k}[${i}]`));
}
const text = (v: unknown, at: string) => {
  if (typeof v !== 'string') throw new ReportShapeError(`${at}: expected text`);
  return v;
};

function readSetting(v: unknown, at: string): Setting {
  const o = obj(v, at);
  return { path: str(o, 'path', at), value: typeof o.value === 'string' ? o.value : JSON.stringify(o.value), why: str(o, 'why', at, '') };
}

/** An interval; lo and hi may be null where one sample gives no interval (then they are the mean), n may be left to the samples. */
function readInterval(iv: Obj, check: Obj, at: string): Interval {
  const mean = num(iv, 'mean', at);
  const n = typeof iv.n === 'number' ? iv.n : Array.isArray(check.samples) ? check.samples.length : num(iv, 'n', at);
  return { mean, lo: numOrNull(iv, 'lo', at) ?? mean, hi: numOrNull(iv, 'hi', at) ?? mean, n };
}

function readJudged(v: unknown, at: string): Judged {
  const o = obj(v, at);
  const verdict = str(o, 'verdict', at);
  if (!(VERDICTS as string[]).includes(verdict)) throw new ReportShapeError(`${at}.verdict: "${verdict}" is not one of ${VERDICTS.join(', ')}`);
  return {
    value: str(o, 'value', at, ''),
    verdict: verdict as VerdictWord,
    verdict_text: str(o, 'verdict_text', at, verdict),
    notes: list(o, 'notes', at, text, true),
    checks: list(o, 'checks', at, (c, at) => {
      const k = obj(c, at);
      const b = obj(k.bound, `${at}.bound`);
      const iv = k.interval === null || k.interval === undefined ? null : obj(k.interval, `${at}.interval`);
      return {
        what: str(k, 'what', at),
        reading: str(k, 'reading', at, ''),
        kind: str(k, 'kind', at, 'value'),
        samples: list(k, 'samples', at, (s, at) => {
          if (typeof s !== 'number') throw new ReportShapeError(`${at}: expected a number`);
          return s;
        }, true),
        interval: iv && readInterval(iv, k, `${at}.interval`),
        bound: {
          lo: numOrNull(b, 'lo', `${at}.bound`),
          hi: numOrNull(b, 'hi', `${at}.bound`),
          lo_open: bool(b, 'lo_open', `${at}.bound`, false),
          hi_open: bool(b, 'hi_open', `${at}.bound`, false),
          text: str(b, 'text', `${at}.bound`),
        },
        fit: str(k, 'fit', at),
        fit_text: str(k, 'fit_text', at, ''),
      };
    }),
  };
}

/**
 * Reads the report's JSON (as `dcsim reproduce --json` writes it) into a
 * {@link Report}, checking every field the page uses; throws a
 * {@link ReportShapeError} naming the first field it cannot read. Lists the
 * page can do without (notes, deviations, applied settings, variants) may
 * be missing.
 */
export function parseReport(json: unknown): Report {
  const o = obj(json, 'report');
  const t = obj(o.tally, 'report.tally');
  return {
    generated_by: str(o, 'generated_by', 'report', ''),
    mode: str(o, 'mode', 'report', ''),
    engine: str(o, 'engine', 'report', ''),
    date: str(o, 'date', 'report', ''),
    runs: num(o, 'runs', 'report', 0),
    threads: num(o, 'threads', 'report', 0),
    wall_s: num(o, 'wall_s', 'report', 0),
    tally: { source: str(t, 'source', 'report.tally'), other: str(t, 'other', 'report.tally', '') },
    rules: list(o, 'rules', 'report', (r, at) => {
      const k = obj(r, at);
      return { rule: str(k, 'rule', at), name: str(k, 'name', at), words: str(k, 'words', at, ''), reading: str(k, 'reading', at), reason: str(k, 'reason', at, '') };
    }),
    claims: list(o, 'claims', 'report', (c, at) => {
      const k = obj(c, at);
      const id = str(k, 'id', at);
      at = `claims[${id}]`;
      return {
        id,
        paper: str(k, 'paper', at),
        cite: str(k, 'cite', at, ''),
        source_paper: bool(k, 'source_paper', at, true),
        section: str(k, 'section', at, ''),
        figure: str(k, 'figure', at, ''),
        quote: str(k, 'quote', at),
        in_excerpt: bool(k, 'in_excerpt', at),
        statement: str(k, 'statement', at, ''),
        readings: list(k, 'readings', at, (r, at) => {
          const q = obj(r, at);
          return { key: str(q, 'key', at), says: str(q, 'says', at, ''), of: str(q, 'of', at, ''), bound: str(q, 'bound', at, ''), kind: str(q, 'kind', at, ''), rule: str(q, 'rule', at, '') };
        }, true),
        scenarios: list(k, 'scenarios', at, text, true),
        size: str(k, 'size', at, ''),
        paper_size: str(k, 'paper_size', at, ''),
        deviations: list(k, 'deviations', at, text, true),
        applied: list(k, 'applied', at, readSetting, true),
        discussion: str(k, 'discussion', at, ''),
        cause: readCause(k.cause, `${at}.cause`),
        authors_simulator: k.authors_simulator === null || k.authors_simulator === undefined ? null : str(k, 'authors_simulator', at),
        judged: readJudged(k.judged, `${at}.judged`),
        variants: list(k, 'variants', at, (v, at) => {
          const q = obj(v, at);
          return { name: str(q, 'name', at), why: str(q, 'why', at, ''), settings: list(q, 'settings', at, readSetting, true), judged: readJudged(q.judged, `${at}.judged`) };
        }, true),
      };
    }),
  };
}

// ---------------------------------------------------------------- verdicts and fits in words

/** The mark shown beside each verdict, so that it never rests on colour alone. */
export const VERDICT_MARK: Record<VerdictWord, string> = { agrees: '✓', differs: '✗', inconclusive: '?', 'not reproduced': '–' };

/** What each verdict means, in a sentence a class can read. */
export const VERDICT_MEANING: Record<VerdictWord, string> = {
  agrees: "every check's 95% interval lies inside the paper's bound",
  differs: "a check's 95% interval lies outside the paper's bound",
  inconclusive: "no check is clearly outside, but an interval straddles a bound: more seeds could tell",
  'not reproduced': 'the report could not test the claim as the paper states it (its notes say why)',
};

/** A fit as the page says it: a mark and a word ("✓ inside", "✗ outside", "? cannot tell"). */
export function fitWords(fit: string): { mark: string; word: string } {
  if (fit === 'holds') return { mark: '✓', word: 'inside' };
  if (fit === 'fails') return { mark: '✗', word: 'outside' };
  if (fit === 'straddles') return { mark: '?', word: 'cannot tell' };
  return { mark: '?', word: fit || 'not judged' };
}

const round = (v: number, p: number) => Number(v.toPrecision(p));

/**
 * The fewest significant digits (from `min`, at most `max`) at which each
 * of `values` still reads differently from each of `against` it differs
 * from: so an interval just past a bound never prints as touching it.
 */
export function digitsFor(values: number[], against: number[], min = 3, max = 7): number {
  for (let p = min; p < max; p++) {
    if (values.every((v) => against.every((b) => v === b || round(v, p) !== round(b, p)))) return p;
  }
  return max;
}

/** A number to `p` significant digits, plainly ("0.0126", "81.36", "1.2e-7" only when tiny). */
export function fmt(v: number, p = 3): string {
  if (!Number.isFinite(v)) return v > 0 ? '∞' : v < 0 ? '−∞' : '–';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a < 1e-5 || a >= 1e9) return v.toExponential(p - 1);
  return String(round(v, p));
}

/**
 * How many seeds a claim's runs used, read from its size ("…; seeds 1, 2, 3"),
 * or null when the size does not say.
 */
export function seedCount(size: string): number | null {
  const m = /\bseeds?\s+([\d,\s]+(?:(?:and|to)\s+\d+)?)/i.exec(size);
  if (!m) return null;
  const to = /(\d+)\s+to\s+(\d+)/.exec(m[1]);
  if (to) return Number(to[2]) - Number(to[1]) + 1;
  return (m[1].match(/\d+/g) ?? []).length || null;
}

/** "3 seeds" when the samples are the claim's seeds, "10 samples" otherwise (e.g. one per request). */
export function samplesText(n: number, seeds: number | null): string {
  if (seeds !== null && n === seeds) return n === 1 ? '1 seed' : `${n} seeds`;
  return n === 1 ? '1 sample' : `${n} samples`;
}

/** The check's interval in numbers: "0.0126 [0.0098, 0.0154]", or one number when there is no spread. */
export function intervalText(c: Check): string {
  const iv = c.interval;
  if (!iv) return 'no value';
  const edges = [c.bound.lo, c.bound.hi].filter((b): b is number => b !== null);
  const p = digitsFor([iv.mean, iv.lo, iv.hi], edges);
  if (iv.lo === iv.hi) return fmt(iv.mean, p);
  return `${fmt(iv.mean, p)} [${fmt(iv.lo, p)}, ${fmt(iv.hi, p)}]`;
}

/**
 * A bound of one value ("zero drops", "in [0, 0]"): the report holds it only
 * when every sample is that value and fails it on any other, whatever the
 * interval.
 */
export function isPointBound(b: Check['bound']): boolean {
  return b.lo !== null && b.lo === b.hi && !b.lo_open && !b.hi_open;
}

/**
 * One check in a sentence: the mean and 95% interval, the samples, and
 * where the interval lies against the bound, with the paper's words the
 * bound is read from, e.g. `0.0126 [0.0098, 0.0154], 3 seeds: ✗ outside
 * "in [0.0063, 0.0077]", read from the paper's "within ∼0.7"`.
 */
export function describeCheck(c: Check, opts: { seeds?: number | null; reading?: Reading; ruleName?: string } = {}): string {
  const f = fitWords(c.fit);
  const iv = c.interval;
  let head: string;
  if (!iv || iv.n === 0) head = 'no value was measured';
  else if (iv.n === 1) head = `${intervalText(c)}, 1 sample (no interval)`;
  else if (iv.lo === iv.hi) head = `${intervalText(c)} in all ${samplesText(iv.n, opts.seeds ?? null)} (no spread)`;
  else head = `${intervalText(c)}, ${samplesText(iv.n, opts.seeds ?? null)}`;
  // A failing bound of one value names the samples that are not that value,
  // since its interval may well cover the value.
  const point = isPointBound(c.bound);
  const off = point ? c.samples.filter((x) => x !== c.bound.lo).length : 0;
  const where =
    c.fit === 'holds'
      ? `inside "${c.bound.text}"`
      : c.fit === 'fails' && point && off > 0
        ? `not every sample is ${c.bound.lo} ("${c.bound.text}"): ${off} of ${c.samples.length} ${c.samples.length === 1 ? 'is' : 'are'} not`
      : c.fit === 'fails'
        ? `outside "${c.bound.text}"`
        : c.fit === 'straddles'
          ? `straddles "${c.bound.text}": cannot tell`
          : `${f.word} against "${c.bound.text}"`;
  const words = opts.reading?.says ? `, read from the paper's "${opts.reading.says}"${opts.ruleName ? ` (${opts.ruleName})` : ''}` : '';
  return `${head}: ${f.mark} ${where}${words}`;
}

// ---------------------------------------------------------------- tallies, groups, filters

/** Claims counted by verdict. */
export interface Tally {
  claims: number;
  agrees: number;
  differs: number;
  inconclusive: number;
  'not reproduced': number;
}

/** Counts claims by verdict. */
export function tally(claims: Claim[]): Tally {
  const t: Tally = { claims: claims.length, agrees: 0, differs: 0, inconclusive: 0, 'not reproduced': 0 };
  for (const c of claims) t[c.judged.verdict]++;
  return t;
}

/** A tally in the report's words: "10 claims: 3 agree, 6 differ, 1 inconclusive, 0 not reproduced". */
export function tallyText(t: Tally): string {
  return `${t.claims} ${t.claims === 1 ? 'claim' : 'claims'}: ${t.agrees} ${t.agrees === 1 ? 'agrees' : 'agree'}, ${t.differs} ${t.differs === 1 ? 'differs' : 'differ'}, ${t.inconclusive} inconclusive, ${t['not reproduced']} not reproduced`;
}

/** Reads a tally the report wrote in words (null when it does not say how many claims). */
export function parseTally(s: string): Tally | null {
  const n = (re: RegExp) => Number(re.exec(s)?.[1] ?? 0);
  const claims = /(\d+)\s+claims?\b/.exec(s);
  if (!claims) return null;
  return { claims: Number(claims[1]), agrees: n(/(\d+)\s+agrees?\b/), differs: n(/(\d+)\s+differs?\b/), inconclusive: n(/(\d+)\s+inconclusive/), 'not reproduced': n(/(\d+)\s+not reproduced/) };
}

/** One paper's claims, in the report's order. */
export interface PaperGroup {
  paper: string;
  /** The paper in full (the first claim's citation). */
  cite: string;
  claims: Claim[];
}

/** Groups claims by paper, in the order papers first appear: the project's papers, then the other papers. */
export function groupByPaper(claims: Claim[]): { source: PaperGroup[]; other: PaperGroup[] } {
  const build = (cs: Claim[]) => {
    const groups: PaperGroup[] = [];
    for (const c of cs) {
      let g = groups.find((x) => x.paper === c.paper);
      if (!g) groups.push((g = { paper: c.paper, cite: c.cite, claims: [] }));
      g.claims.push(c);
    }
    return groups;
  };
  return { source: build(claims.filter((c) => c.source_paper)), other: build(claims.filter((c) => !c.source_paper)) };
}

/** The page's filters: a verdict and a paper, or 'all'. */
export interface ClaimFilter {
  verdict: VerdictWord | 'all';
  paper: string | 'all';
}

/** The claims a filter keeps. */
export function filterClaims(claims: Claim[], f: ClaimFilter): Claim[] {
  return claims.filter((c) => (f.verdict === 'all' || c.judged.verdict === f.verdict) && (f.paper === 'all' || c.paper === f.paper));
}

/** Where a claim is: "pFabric section 5.4.1, Figure 7(a)" (the figure left out when the claim has none). */
export function claimPlace(c: Claim): string {
  return [c.section ? `${c.paper} section ${c.section}` : c.paper, c.figure].filter(Boolean).join(', ');
}

/** The claim's anchor in the page's address: `#claim=<id>` (the docs and share links point here). */
export function claimHref(id: string): string {
  return `#claim=${encodeURIComponent(id)}`;
}

/** The element id of a claim's card (for in-page focus). */
export function claimElementId(id: string): string {
  return `claim-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

// ---------------------------------------------------------------- check groups and charts

/** A claim's checks under one reading: one chart each. */
export interface CheckGroup {
  key: string;
  /** The reading, when the claim lists it. */
  reading?: Reading;
  checks: Check[];
}

/** Groups a judgement's checks by reading, in the order of the claim's readings (then any others, as they come). */
export function checkGroups(readings: Reading[], judged: Judged): CheckGroup[] {
  const groups: CheckGroup[] = [];
  for (const c of judged.checks) {
    let g = groups.find((x) => x.key === c.reading);
    if (!g) groups.push((g = { key: c.reading, reading: readings.find((r) => r.key === c.reading), checks: [] }));
    g.checks.push(c);
  }
  const order = (g: CheckGroup) => {
    const i = readings.findIndex((r) => r.key === g.key);
    return i < 0 ? readings.length : i;
  };
  return groups.map((g, i) => ({ g, i })).sort((a, b) => order(a.g) - order(b.g) || a.i - b.i).map((x) => x.g);
}

/**
 * Short row labels for a chart: the words the checks' descriptions do not
 * share (whole words only), or the whole description when that leaves
 * nothing. "web search, load 0.1: pdq / pFabric mean normalized FCT" and
 * "…, load 0.8: pdq / …" become "web search, load 0.1: pdq" and "…0.8: pdq".
 */
export function shortLabels(whats: string[]): string[] {
  if (whats.length < 2) return whats.slice();
  const words = whats.map((w) => w.split(' '));
  let pre = 0;
  while (words.every((w) => pre < w.length - 1 && w[pre] === words[0][pre])) pre++;
  let suf = 0;
  while (words.every((w) => suf < w.length - 1 - pre && w[w.length - 1 - suf] === words[0][words[0].length - 1 - suf])) suf++;
  // Keep a leading phrase ("web search, load 0.1:") whole: only cut a prefix that ends a clause.
  while (pre > 0 && !/[:,;]$/.test(words[0][pre - 1])) pre--;
  const out = words.map((w) => w.slice(pre, w.length - suf).join(' ').replace(/[:,;]$/, ''));
  return out.every((s) => s.length > 0) && new Set(out).size === out.length ? out : whats.slice();
}

/** Beyond this many samples a check's chart draws no sample circles (and its x range ignores them): the interval says enough. */
export const MAX_SAMPLES_DRAWN = 60;

/** One row of a check chart. */
export interface ChartRow {
  label: string;
  /** The check's whole description. */
  full: string;
  check: Check;
}

/** A check chart's numbers: its rows, its scale, and its x domain. */
export interface ChartModel {
  rows: ChartRow[];
  scale: 'linear' | 'log';
  domain: [number, number];
}

/**
 * The chart of one check group: one row per check, an x domain that shows
 * every interval, sample and finite bound edge with room around them (so a
 * one-sided bound's band visibly runs on past its edge), and a log scale
 * when the positive values span a factor of 10 or more.
 */
export function chartModel(checks: Check[]): ChartModel {
  const labels = shortLabels(checks.map((c) => c.what));
  const rows = checks.map((c, i) => ({ label: labels[i], full: c.what, check: c }));
  const vals: number[] = [];
  for (const c of checks) {
    if (c.interval) vals.push(c.interval.lo, c.interval.hi, c.interval.mean);
    if (c.samples.length <= MAX_SAMPLES_DRAWN) vals.push(...c.samples);
    if (c.bound.lo !== null) vals.push(c.bound.lo);
    if (c.bound.hi !== null) vals.push(c.bound.hi);
  }
  const finite = vals.filter(Number.isFinite);
  if (finite.length === 0) return { rows, scale: 'linear', domain: [0, 1] };
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  const log = lo > 0 && hi / lo >= 10;
  if (log) return { rows, scale: 'log', domain: [lo / 1.6, hi * 1.6] };
  if (hi === lo) {
    const d = Math.abs(lo) * 0.1 || 1;
    return { rows, scale: 'linear', domain: [lo - d, hi + d] };
  }
  const pad = (hi - lo) * 0.12;
  lo -= pad;
  hi += pad;
  return { rows, scale: 'linear', domain: [lo, hi] };
}

/** A chart's text alternative: what is measured, and how many checks fall inside, outside, or cannot tell. */
export function chartSummary(group: CheckGroup): string {
  const n = (fit: string) => group.checks.filter((c) => c.fit === fit).length;
  const parts = [
    n('holds') && `${n('holds')} inside`,
    n('fails') && `${n('fails')} outside`,
    n('straddles') && `${n('straddles')} cannot tell`,
  ].filter(Boolean);
  const other = group.checks.length - n('holds') - n('fails') - n('straddles');
  if (other) parts.push(`${other} not judged`);
  const what = group.reading?.of || group.checks[0]?.what || 'checks';
  return `${what}: ${group.checks.length} ${group.checks.length === 1 ? 'check' : 'checks'} against the paper's bound, ${parts.join(', ')}`;
}

/**
 * The report's claims a live figure's entry mirrors: the claim named by id
 * when the report has it, otherwise the paper's claims about the figure
 * ("Figure 3" finds "Figure 3(a)", not "Figure 13"); none when the report
 * has neither.
 */
export function claimsFor(report: Report | null, ref: { paper: string; claim?: string; figure?: string }): Claim[] {
  if (!report) return [];
  const byId = ref.claim ? report.claims.find((c) => c.id === ref.claim) : undefined;
  if (byId) return [byId];
  if (!ref.figure) return [];
  const fig = ref.figure;
  return report.claims.filter((c) => c.paper.toLowerCase() === ref.paper.toLowerCase() && c.figure.startsWith(fig) && !/^\d/.test(c.figure.slice(fig.length)));
}
