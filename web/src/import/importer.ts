// Bringing a scenario or a lesson into the page (a file, a drop, `#src=URL`
// or a lesson link): the text is parsed, told apart (a lesson has steps),
// checked as the page checks settings and as lessons are checked, then by
// the engine's own validation in a throwaway worker. Only a file that
// passes every check replaces what is on screen; a refused one leaves the
// runs and the lesson as they were.

import { PROTOCOLS, runsOf, validateSettings, type FieldError, type Protocol, type ScenarioJson, type Settings } from '../state/settings';
import { lessonSettings, validateLesson, type Lesson } from '../lessons/lesson';
import { EngineError, SimClient } from '../engine/client';

/** What an accepted file holds: a scenario's settings, or a lesson and the settings it runs. */
export type Imported = { kind: 'scenario'; settings: Settings } | { kind: 'lesson'; lesson: Lesson; settings: Settings };

const isObj = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Reads a parsed file as a lesson (it has `steps`) or a scenario. A
 * scenario runs under its own `protocol` if it names one, else under the
 * protocols on screen; a scenario file's `branch` becomes the page's
 * what-if branch of that protocol. Problems name their fields.
 */
export function readImport(data: unknown, current: Settings, scenarios: ScenarioJson[]): { ok: Imported } | { errors: FieldError[] } {
  if (!isObj(data)) return { errors: [{ field: '(file)', message: 'holds no JSON object (a scenario or a lesson file is one)' }] };
  if ('steps' in data) {
    const errors = validateLesson(data, scenarios.map((s) => String(s.name)));
    if (errors.length) return { errors };
    const lesson = data as unknown as Lesson;
    const settings = lessonSettings(lesson, scenarios);
    const more = validateSettings(settings);
    return more.length ? { errors: more } : { ok: { kind: 'lesson', lesson, settings } };
  }
  const { branch, ...scenario } = data;
  const own = (PROTOCOLS as readonly unknown[]).includes(scenario.protocol) ? (scenario.protocol as Protocol) : null;
  const protocols = own ? [own] : [...current.protocols];
  const settings: Settings = { scenario, protocols, ...(isObj(branch) ? { branch: { of: protocols[0], ...branch } as Settings['branch'] } : {}) };
  if (branch !== undefined && !isObj(branch)) return { errors: [{ field: 'branch', message: 'must be an object: { name, at_us, change }' }] };
  const errors = validateSettings(settings);
  return errors.length ? { errors } : { ok: { kind: 'scenario', settings } };
}

/** Parses file text; a JSON syntax error is named as the file's. */
export function parseJson(text: string): { data: unknown } | { errors: FieldError[] } {
  try {
    return { data: JSON.parse(text) };
  } catch (e) {
    return { errors: [{ field: '(file)', message: `is not JSON: ${e instanceof Error ? e.message : String(e)}` }] };
  }
}

/**
 * The engine's own check of every run the settings start (each protocol's
 * scenario and the branch's), in a worker of its own that is then
 * stopped: the engine's message for the first it refuses, or null.
 */
export async function engineCheck(settings: Settings): Promise<string | null> {
  const client = new SimClient();
  try {
    return (await client.request({ type: 'check', scenarios: runsOf(settings).map((r) => r.scenario) })).error;
  } catch (e) {
    if (e instanceof EngineError) return e.message;
    return `the engine could not check the file (${e instanceof Error ? e.message : String(e)})`;
  } finally {
    client.dispose();
  }
}

/** Where `#src=` points (an http(s) address, or a path on this site), or null when the hash has none. */
export function srcFromHash(hash: string, base: string): string | null | { error: string } {
  const m = /(?:^#|&)src=([^&]+)/.exec(hash);
  if (!m) return null;
  try {
    const u = new URL(decodeURIComponent(m[1]), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return { error: `#src= must be an http(s) address, not ${u.protocol}` };
    return u.href;
  } catch {
    return { error: `#src= is not an address: ${m[1]}` };
  }
}
