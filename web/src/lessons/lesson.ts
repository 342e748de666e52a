// Lessons: guided walks through a scenario for a class. A lesson file
// (scenarios/lessons/*.json, format in scenarios/lessons/README.md) names a
// bundled scenario (or holds a scenario whole), the protocols to show side
// by side and a few overrides,
// and lists steps: at a simulated time, a title and a narration, and
// optionally a question for the class to predict. A question's answer is
// never written into the file: it is computed from the runs' own summaries
// by `answer` (the lesson only states which protocol it expects, and a test
// runs the engine to check that expectation still holds).

import { PROTOCOLS, validateSettings, type BranchSettings, type FieldError, type Protocol, type ScenarioJson, type Settings } from '../state/settings';
import type { Summary } from '../engine/api';
import { validateShows, type Shows } from './shows';
import { pct, plural, sig } from '../format/format';

/** Which summary number a question compares across the protocols. */
export const METRICS = ['mean_slowdown', 'p99_slowdown', 'afct_us', 'drop_rate', 'first_hop_drops', 'deadlines_met', 'throughput_gbps', 'control_overhead'] as const;
export type Metric = (typeof METRICS)[number];

/** Which flows a slowdown or FCT metric covers (the summary's size buckets). */
export const SCOPES = ['all', 'short', 'medium', 'long'] as const;
export type Scope = (typeof SCOPES)[number];

/** What makes a protocol the answer: the lowest or the highest value. */
export type Best = 'lowest' | 'highest';

/** A prediction question: which of the lesson's protocols ends up best by a metric. */
export interface Question {
  /** The question as the class reads it. */
  prompt: string;
  metric: Metric;
  /** Flow size bucket for slowdown and FCT metrics (default all flows). */
  scope?: Scope;
  pick: Best;
  /** The protocols the question compares (default: all the lesson's). */
  among?: Protocol[];
  /** The protocol the lesson's text expects to win (checked by tests/unit/lessons.test.ts). */
  expect: Protocol;
  /** Why, shown once the answer is revealed. */
  explain: string;
}

/** One stop of a lesson. */
export interface LessonStep {
  /** Simulated time the step shows, microseconds from the start. */
  at_us: number;
  title: string;
  /** The narration read at this step. */
  text: string;
  /**
   * What the step says is on screen, each checked against the runs at
   * `at_us` (shows.ts; tests/unit/lessons.test.ts checks every shipped lesson).
   */
  shows?: Shows[];
  question?: Question;
}

/** A lesson file. */
export interface Lesson {
  /** Identifier (the file name without `.json`), used in shared links (`#lesson=name`). */
  name: string;
  title: string;
  /**
   * A bundled scenario's name, or a whole scenario (as a scenario file
   * holds it) for a lesson written on a scenario of one's own.
   */
  scenario: string | ScenarioJson;
  /** Protocols side by side, as the lesson's questions compare them. */
  protocols: Protocol[];
  /** Overrides merged into the scenario (seed, workload fields, params). */
  seed?: number;
  workload?: Record<string, unknown>;
  params?: Record<string, Record<string, unknown>>;
  /**
   * A what-if branch shown beside the protocols (time travel): questions
   * name it "branch" in `among` and `expect`.
   */
  branch?: BranchSettings;
  steps: LessonStep[];
}

/** How questions name a lesson's what-if branch. */
export const BRANCH_RUN = 'branch';

const METRIC_TEXT: Record<Metric, string> = {
  mean_slowdown: 'mean slowdown',
  p99_slowdown: '99th-percentile slowdown',
  afct_us: 'average flow completion time (µs)',
  drop_rate: 'percentage of data packets dropped',
  first_hop_drops: 'packets dropped at the first hop (host NIC)',
  deadlines_met: 'percentage of deadlines met',
  throughput_gbps: 'throughput (Gbps)',
  control_overhead: 'control bytes per data byte sent (%)',
};

const SCOPE_TEXT: Record<Scope, string> = {
  all: 'all flows',
  short: 'short flows (under 100 KB)',
  medium: 'medium flows (100 KB to 10 MB)',
  long: 'long flows (over 10 MB)',
};

/** A metric's name for a person, e.g. "average flow completion time (µs)" for `afct_us` (menus show it, files keep the key). */
export function metricLabel(m: Metric): string {
  return METRIC_TEXT[m];
}

/** A size scope's name for a person, with its bounds: "short flows (under 100 KB)". */
export function scopeLabel(s: Scope): string {
  return SCOPE_TEXT[s];
}

/** Whether a metric is measured per flow size scope (slowdowns and FCT). */
export function isBucketed(m: Metric): boolean {
  return m === 'mean_slowdown' || m === 'p99_slowdown' || m === 'afct_us';
}

/** Words for a question's metric and scope, e.g. "mean slowdown of short flows (under 100 KB)". */
export function metricText(q: Pick<Question, 'metric' | 'scope'>): string {
  return METRIC_TEXT[q.metric] + (isBucketed(q.metric) && q.scope && q.scope !== 'all' ? ` of ${SCOPE_TEXT[q.scope]}` : '');
}

/** A metric's value as a person reads it, in the metric's unit: "1.23 %", "412 µs", "1 packet"; "n/a" for none. */
export function metricValueText(m: Metric, v: number | null): string {
  if (v === null) return 'n/a';
  switch (m) {
    case 'drop_rate':
    case 'deadlines_met':
    case 'control_overhead':
      return pct(v);
    case 'afct_us':
      return `${sig(v, 4)} µs`;
    case 'throughput_gbps':
      return `${sig(v, 4)} Gbps`;
    case 'first_hop_drops':
      return plural(v, 'packet');
    default:
      return sig(v, 4);
  }
}

/** The value of a question's metric in one run's summary (null: the run has none, e.g. no deadlines). */
export function metricValue(q: Pick<Question, 'metric' | 'scope'>, s: Summary): number | null {
  const b = s[q.scope ?? 'all'];
  switch (q.metric) {
    case 'mean_slowdown':
      return b.flows > 0 ? b.mean_slowdown : null;
    case 'p99_slowdown':
      return b.flows > 0 ? b.p99_slowdown : null;
    case 'afct_us':
      return b.flows > 0 ? b.afct_us : null;
    case 'drop_rate':
      return s.drop_rate;
    case 'first_hop_drops':
      return s.drops_by_hop[0];
    case 'deadlines_met':
      return s.deadlines_met;
    case 'throughput_gbps':
      return s.throughput_gbps;
    case 'control_overhead':
      return s.control_overhead;
  }
}

/** The computed answer to a question: each protocol's value and the winner. */
export interface Answer {
  values: { protocol: string; value: number | null }[];
  /** The protocol with the lowest (or highest) value; null on a tie for first or when no run has a value. */
  winner: string | null;
}

/**
 * The runs a lesson's questions are judged among, by name: its protocols,
 * and "branch" when the lesson has a branch of its own. A what-if branch
 * opened beside a lesson is shown and compared, never judged.
 */
export function judgedRuns(lesson: Pick<Lesson, 'protocols' | 'branch'>): string[] {
  return lesson.branch ? [...lesson.protocols, BRANCH_RUN] : [...lesson.protocols];
}

/** JSON text with object keys sorted (equal values, equal text). */
function sortedJson(x: unknown): string {
  return JSON.stringify(x, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/**
 * The summaries the lesson's questions are judged on, from the runs on
 * screen (`summaries`, in run order: the protocols, then a branch; null
 * while a run is unfinished): the lesson's protocols' runs, and the branch
 * (answering to "branch") only when it is the lesson's own. `done`: every
 * judged run has finished (a branch opened beside the lesson is not waited
 * for); `outsideBranch`: a branch that is not the lesson's is on screen.
 */
export function judgedSummaries(lesson: Lesson, settings: Settings, summaries: readonly (Summary | null)[]): { summaries: Summary[]; done: boolean; outsideBranch: boolean } {
  const n = settings.protocols.length;
  const ownBranch = lesson.branch !== undefined && settings.branch !== undefined && sortedJson(lesson.branch) === sortedJson(settings.branch);
  const judged: (Summary | null)[] = summaries.flatMap((x, i) => (i < n ? [x] : ownBranch ? [x && { ...x, protocol: BRANCH_RUN }] : []));
  const known = judged.filter((x): x is Summary => x !== null);
  return { summaries: known, done: judged.length > 0 && known.length === judged.length, outsideBranch: settings.branch !== undefined && !ownBranch };
}

/**
 * Whether the runs on screen are no longer the lesson's: other settings,
 * or another branch than the lesson's own. A branch opened beside a lesson
 * that has none leaves its runs as they were.
 */
export function lessonRunsChanged(lesson: Lesson, settings: Settings, scenarios: ScenarioJson[]): boolean {
  const own = lessonSettings(lesson, scenarios);
  const shown = !lesson.branch && settings.branch ? { ...settings, branch: undefined } : settings;
  return sortedJson({ ...own, branch: own.branch ?? null }) !== sortedJson({ ...shown, branch: shown.branch ?? null });
}

/** Answers `q` from the finished runs' summaries (one per protocol). */
export function answer(q: Question, summaries: Summary[]): Answer {
  const values = summaries.filter((s) => !q.among || (q.among as string[]).includes(s.protocol)).map((s) => ({ protocol: s.protocol, value: metricValue(q, s) }));
  const known = values.filter((v): v is { protocol: string; value: number } => v.value !== null && Number.isFinite(v.value));
  if (known.length === 0) return { values, winner: null };
  const better = (a: number, b: number) => (q.pick === 'lowest' ? a < b : a > b);
  let best = known[0];
  for (const v of known.slice(1)) if (better(v.value, best.value)) best = v;
  const tied = known.filter((v) => v.value === best.value).length > 1;
  return { values, winner: tied ? null : best.protocol };
}

/** The settings a lesson runs: its scenario with the lesson's overrides, and its protocols. */
export function lessonSettings(l: Lesson, scenarios: ScenarioJson[]): Settings {
  const base = typeof l.scenario === 'string' ? scenarios.find((s) => s.name === l.scenario) : l.scenario;
  if (!base) throw new Error(`lesson ${l.name}: no bundled scenario named "${l.scenario}"`);
  const sc: ScenarioJson = structuredClone(base);
  if (l.seed !== undefined) sc.seed = l.seed;
  if (l.workload) sc.workload = { ...sc.workload, ...l.workload };
  if (l.params) {
    sc.params = { ...(sc.params ?? {}) };
    for (const [p, v] of Object.entries(l.params)) sc.params[p] = { ...(sc.params[p] ?? {}), ...v };
  }
  return { scenario: sc, protocols: [...l.protocols], ...(l.branch ? { branch: structuredClone(l.branch) } : {}) };
}

const isObj = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isText = (x: unknown) => typeof x === 'string' && x.trim().length > 0;

/** Checks a parsed lesson file; every problem names its field (empty when valid). */
export function validateLesson(l: unknown, scenarioNames: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const e = (field: string, message: string) => errs.push({ field, message });
  if (!isObj(l)) return [{ field: '(file)', message: 'a lesson is a JSON object' }];
  if (!isText(l.name) || !/^[a-z0-9-]+$/.test(l.name)) e('name', 'must be lower-case letters, digits and dashes (it goes into shared links)');
  if (!isText(l.title)) e('title', 'must not be empty');
  if (isObj(l.scenario)) {
    // A scenario of one's own: the engine checks the rest when the lesson loads.
    if (!isText(l.scenario.name)) e('scenario.name', 'must not be empty');
  } else if (!isText(l.scenario)) e('scenario', 'must name a bundled scenario or hold a whole scenario');
  else if (!scenarioNames.includes(l.scenario)) e('scenario', `no bundled scenario named "${l.scenario}" (known: ${scenarioNames.join(', ')})`);
  const protos: unknown[] = Array.isArray(l.protocols) ? l.protocols : [];
  if (!Array.isArray(l.protocols) || protos.length === 0 || protos.length > 4) e('protocols', 'must list 1 to 4 protocols');
  for (const p of protos) if (!(PROTOCOLS as readonly unknown[]).includes(p)) e('protocols', `unknown protocol "${String(p)}"`);
  if (new Set(protos).size !== protos.length) e('protocols', 'each protocol at most once');
  // The branch, checked as the page checks settings (field names prefixed "branch.").
  if (l.branch !== undefined && (l.branch === null || typeof l.branch !== 'object' || Array.isArray(l.branch))) {
    e('branch', 'must be an object {of, name, at_us, change}');
  } else if (l.branch !== undefined) {
    const settingsErrs = validateSettings({ scenario: { name: 'lesson' }, protocols: protos as Protocol[], branch: l.branch as BranchSettings });
    for (const x of settingsErrs) if (x.field.startsWith('branch')) e(x.field, x.message);
    const of = (l.branch as BranchSettings).of;
    if (!protos.includes(of)) e('branch.of', `branches a run that is not shown ("${String(of)}")`);
  }
  const runs: unknown[] = l.branch !== undefined ? [...protos, BRANCH_RUN] : protos;
  if (l.seed !== undefined && !(Number.isInteger(l.seed) && l.seed >= 0)) e('seed', 'must be a whole number of at least 0');
  if (l.workload !== undefined && !isObj(l.workload)) e('workload', 'must be an object of workload fields');
  if (l.params !== undefined && !(isObj(l.params) && Object.values(l.params).every(isObj))) e('params', 'must map protocol names to objects of parameters');
  if (!Array.isArray(l.steps) || l.steps.length === 0) {
    e('steps', 'must list at least one step');
    return errs;
  }
  let prev = -1;
  l.steps.forEach((s: unknown, i: number) => {
    const f = `steps[${i}]`;
    if (!isObj(s)) return e(f, 'must be an object');
    if (typeof s.at_us !== 'number' || !Number.isFinite(s.at_us) || s.at_us < 0) e(`${f}.at_us`, 'must be a time in microseconds, at least 0');
    else if (s.at_us < prev) e(`${f}.at_us`, `must not be before the previous step (${prev} us)`);
    else prev = s.at_us;
    if (!isText(s.title)) e(`${f}.title`, 'must not be empty');
    if (!isText(s.text)) e(`${f}.text`, 'must not be empty');
    if (s.shows !== undefined) errs.push(...validateShows(s.shows, `${f}.shows`, runs as string[]));
    if (s.question === undefined) return;
    const q = s.question;
    const qf = `${f}.question`;
    if (!isObj(q)) return e(qf, 'must be an object');
    if (!isText(q.prompt)) e(`${qf}.prompt`, 'must not be empty');
    if (!(METRICS as readonly unknown[]).includes(q.metric)) e(`${qf}.metric`, `must be one of ${METRICS.join(', ')}`);
    if (q.scope !== undefined && !(SCOPES as readonly unknown[]).includes(q.scope)) e(`${qf}.scope`, `must be one of ${SCOPES.join(', ')}`);
    if (q.pick !== 'lowest' && q.pick !== 'highest') e(`${qf}.pick`, 'must be "lowest" or "highest"');
    const among: unknown[] = q.among === undefined ? runs : Array.isArray(q.among) ? q.among : [];
    if (q.among !== undefined && (among.length < 2 || !among.every((p) => runs.includes(p)))) e(`${qf}.among`, 'must list at least two of the lesson\'s protocols (or "branch")');
    if (!among.includes(q.expect)) e(`${qf}.expect`, 'must be one of the protocols the question compares');
    if (!isText(q.explain)) e(`${qf}.explain`, 'must not be empty');
  });
  return errs;
}

const files = import.meta.glob('../../../scenarios/lessons/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

/** Every bundled lesson, by title. Files that fail validation are left out (the unit tests fail on them). */
export function bundledLessons(scenarioNames: string[]): Lesson[] {
  return Object.values(files)
    .filter((l) => validateLesson(l, scenarioNames).length === 0)
    .map((l) => l as Lesson)
    .sort((a, b) => a.title.localeCompare(b.title));
}

/** The raw lesson files by path (for the tests). */
export const LESSON_FILES: Record<string, unknown> = files;

/** The lesson a URL hash names (`#lesson=name`), if any. */
export function lessonFromHash(hash: string): string | null {
  const m = /(?:^#|&)lesson=([a-z0-9-]+)/.exec(hash);
  return m ? m[1] : null;
}
