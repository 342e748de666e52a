// The scenario files of scenarios/, bundled into the app (so it works
// offline once loaded); the first listed is the default.

import type { ScenarioJson } from './state/settings';

const files = import.meta.glob('../../scenarios/*.json', { eager: true, import: 'default' }) as Record<string, ScenarioJson>;

/** Name of the scenario loaded when the page opens. */
export const DEFAULT_SCENARIO = 'websearch-leaf-spine';

/** Every bundled scenario by name, the default first. */
export const SCENARIOS: ScenarioJson[] = Object.entries(files)
  .filter(([path]) => !path.endsWith('.schema.json'))
  .map(([, s]) => s)
  .sort((a, b) => (a.name === DEFAULT_SCENARIO ? -1 : b.name === DEFAULT_SCENARIO ? 1 : String(a.name).localeCompare(String(b.name))));

/** A deep copy of a bundled scenario. */
export function scenarioNamed(name: string): ScenarioJson | undefined {
  const s = SCENARIOS.find((x) => x.name === name);
  return s && structuredClone(s);
}
