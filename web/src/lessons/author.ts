// Writing lessons in the page: the run settings on screen as a lesson
// file's fields (a bundled scenario and overrides when that says it
// exactly, the whole scenario otherwise), and the self-check results of a
// student as a CSV file.

import type { ScenarioJson, Settings } from '../state/settings';
import { writeCsv } from '../export/csv';
import { answer, lessonSettings, metricText, type Lesson, type Question } from './lesson';
import type { Summary } from '../engine/api';

/** JSON text with object keys sorted, so that equal values give equal text. */
export function canonicalJson(x: unknown): string {
  return JSON.stringify(x, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/** The lesson fields that say which runs a lesson shows. */
export type LessonRuns = Pick<Lesson, 'scenario' | 'protocols' | 'seed' | 'workload' | 'params' | 'branch'>;

/**
 * The lesson fields that reproduce `settings` exactly: the bundled
 * scenario of the same name with seed, workload and params overrides when
 * those give back the very same scenario, else the whole scenario inline.
 */
export function runsOfSettings(settings: Settings, scenarios: ScenarioJson[]): LessonRuns {
  const sc = settings.scenario;
  const common = { protocols: [...settings.protocols], ...(settings.branch ? { branch: structuredClone(settings.branch) } : {}) };
  const base = scenarios.find((s) => s.name === sc.name);
  if (base) {
    const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
    const runs: LessonRuns = { scenario: String(sc.name), ...common };
    if (!same(sc.seed, base.seed) && sc.seed !== undefined) runs.seed = sc.seed;
    const workload = Object.fromEntries(Object.entries(sc.workload ?? {}).filter(([k, v]) => !same(v, base.workload?.[k])));
    if (Object.keys(workload).length) runs.workload = workload;
    const params: Record<string, Record<string, unknown>> = {};
    for (const [p, o] of Object.entries((sc.params ?? {}) as Record<string, Record<string, unknown>>)) {
      const changed = Object.fromEntries(Object.entries(o ?? {}).filter(([k, v]) => !same(v, base.params?.[p]?.[k])));
      if (Object.keys(changed).length) params[p] = changed;
    }
    if (Object.keys(params).length) runs.params = params;
    // An empty params object says what no params says.
    const norm = (x: ScenarioJson) => (x.params && Object.keys(x.params).length === 0 ? { ...x, params: undefined } : x);
    const back = lessonSettings({ name: 'x', title: 'x', steps: [], ...runs }, scenarios);
    if (same(norm(back.scenario), norm(sc))) return runs;
  }
  return { scenario: structuredClone(sc), ...common };
}

/** A self-check question as the student answered it. */
export interface SelfCheckRow {
  step: number;
  title: string;
  question: Question;
  /** The student's answer (null: not answered). */
  chosen: string | null;
}

/** The questions of a lesson, with the answers chosen so far (by step index). */
export function selfCheckRows(lesson: Lesson, chosen: Record<number, string>): SelfCheckRow[] {
  return lesson.steps.flatMap((s, i) => (s.question ? [{ step: i, title: s.title, question: s.question, chosen: chosen[i] ?? null }] : []));
}

/** Right answers among the answered questions, against the runs' summaries; `of` is the number of questions. */
export function selfCheckScore(rows: SelfCheckRow[], summaries: Summary[]): { right: number; answered: number; of: number } {
  let right = 0;
  let answered = 0;
  for (const r of rows) {
    if (r.chosen === null) continue;
    answered++;
    if (answer(r.question, summaries).winner === r.chosen) right++;
  }
  return { right, answered, of: rows.length };
}

/**
 * A cell a spreadsheet will not run: text starting with = + - @ (or a tab
 * or carriage return, which some spreadsheets skip before them) gets a
 * leading single quote (OWASP, "CSV injection").
 */
export function spreadsheetSafe(x: unknown): string {
  const s = x === null || x === undefined ? '' : String(x);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** The self-check results as CSV: one row per question, then the score. */
export function selfCheckCsv(lesson: Lesson, rows: SelfCheckRow[], summaries: Summary[]): string {
  const table: unknown[][] = [['lesson', 'step', 'step_title', 'question', 'judged_by', 'your_answer', 'correct_answer', 'result']];
  for (const r of rows) {
    const winner = summaries.length ? answer(r.question, summaries).winner : null;
    const result = r.chosen === null ? 'not answered' : winner === null ? 'no single winner' : r.chosen === winner ? 'right' : 'wrong';
    table.push([lesson.title, r.step + 1, r.title, r.question.prompt, `${r.question.pick} ${metricText(r.question)}`, r.chosen ?? '', winner ?? '', result]);
  }
  const score = selfCheckScore(rows, summaries);
  table.push([lesson.title, '', 'score', `${score.right} right of ${score.answered} answered (${score.of} questions)`, '', '', '', '']);
  return writeCsv(table.map((row) => row.map(spreadsheetSafe)));
}

/** The lesson file's text as it goes into scenarios/lessons/NAME.json. */
export function lessonFileText(lesson: Lesson): string {
  return JSON.stringify(lesson, null, 2) + '\n';
}
