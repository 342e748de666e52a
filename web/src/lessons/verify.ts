// Checking a lesson's `shows` statements in the page (the lesson editor,
// before a lesson is saved or shared): each of the lesson's runs goes
// through the engine in a worker of its own (the runs on screen are left
// alone), which reports what it shows at every step's time; the statements
// are then judged as the lesson test judges the shipped lessons.

import { SimClient } from '../engine/client';
import type { ScenarioJson } from '../state/settings';
import { runsOf } from '../state/settings';
import { BRANCH_RUN, lessonSettings, type Lesson } from './lesson';
import type { RunFacts } from '../engine/api';
import { checkShows, type ShowsFailure } from './shows';

/** What checking a lesson's statements found. */
export interface ShowsCheck {
  /** Statements the runs do not bear out at their steps' times. */
  failures: ShowsFailure[];
  /** Statements of steps a run did not reach within the wall-time bound (not judged). */
  unchecked: number;
  /** Statements in the lesson. */
  statements: number;
}

/** Wall time one run may take to reach the last step and look past it, ms. */
export const VERIFY_WALL_MS = 20_000;

/**
 * Runs each of the lesson's runs to its steps' times in workers of their
 * own (`spawn` makes one: tests pass a fake) and judges every statement.
 */
export async function verifyShows(lesson: Lesson, scenarios: ScenarioJson[], spawn: () => SimClient = () => new SimClient()): Promise<ShowsCheck> {
  const settings = lessonSettings(lesson, scenarios);
  const atPs = lesson.steps.map((s) => Math.round(s.at_us * 1e6));
  const runs = runsOf(settings);
  const facts: Record<string, RunFacts> = {};
  await Promise.all(
    runs.map(async (r, i) => {
      const client = spawn();
      try {
        const reply = await client.request({ type: 'facts', scenario: r.scenario, atPs, maxWallMs: VERIFY_WALL_MS });
        facts[i >= settings.protocols.length ? BRANCH_RUN : r.label] = reply.facts;
      } finally {
        client.dispose();
      }
    }),
  );
  const statements = lesson.steps.reduce((n, s) => n + (s.shows?.length ?? 0), 0);
  let unchecked = 0;
  lesson.steps.forEach((s, i) => {
    for (const st of s.shows ?? []) {
      const names = st.protocol !== undefined ? [st.protocol] : Object.keys(facts);
      if (names.some((n) => facts[n] && !facts[n].at[i])) unchecked++;
    }
  });
  return { failures: checkShows(lesson.steps, facts), unchecked, statements };
}
