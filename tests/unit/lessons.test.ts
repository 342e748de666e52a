// Lessons (scenarios/lessons): every bundled file is valid, bad files are
// refused with field-named messages, a question's answer is computed from
// the runs, and each lesson's expected answer is what the engine (the
// WebAssembly build the page runs) actually gives for the lesson's
// settings: a lesson whose text stops being true fails here.

import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync, Engine } from '../../web/src/engine-glue/dcsim_wasm.js';
import { SCENARIOS } from '../../web/src/scenarios';
import { answer, BRANCH_RUN, bundledLessons, LESSON_FILES, lessonFromHash, lessonSettings, validateLesson, type Lesson, type Question } from '../../web/src/lessons/lesson';
import { runsOf } from '../../web/src/state/settings';
import type { Summary } from '../../web/src/engine/api';

const root = join(__dirname, '..', '..');
const names = SCENARIOS.map((s) => String(s.name));

beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'web/src/engine-glue/dcsim_wasm_bg.wasm')) });
});

/** A minimal valid lesson to break field by field. */
function good(): any {
  return {
    name: 'demo',
    title: 'Demo',
    scenario: 'websearch-leaf-spine',
    protocols: ['pfabric', 'dctcp'],
    steps: [
      { at_us: 0, title: 'a', text: 'b' },
      { at_us: 10, title: 'c', text: 'd', question: { prompt: 'q?', metric: 'mean_slowdown', pick: 'lowest', expect: 'pfabric', explain: 'e' } },
    ],
  };
}

describe('lesson files', () => {
  it('every bundled lesson is valid and named after its file', () => {
    const files = Object.entries(LESSON_FILES);
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const [path, l] of files) {
      expect(validateLesson(l, names), path).toEqual([]);
      expect(path.endsWith(`/${(l as Lesson).name}.json`), path).toBe(true);
    }
    expect(bundledLessons(names).length).toBe(files.length);
  });

  it('refuses bad lessons, naming the field and the reason', () => {
    const cases: [(l: any) => void, string, RegExp][] = [
      [(l) => (l.scenario = 'nope'), 'scenario', /no bundled scenario named "nope"/],
      [(l) => (l.protocols = []), 'protocols', /1 to 4/],
      [(l) => (l.protocols = ['pfabric', 'warp']), 'protocols', /unknown protocol "warp"/],
      [(l) => (l.name = 'Has Spaces'), 'name', /lower-case/],
      [(l) => (l.steps[1].at_us = -5), 'steps[1].at_us', /at least 0/],
      [(l) => ((l.steps[0].at_us = 20), (l.steps[1].at_us = 10)), 'steps[1].at_us', /before the previous step/],
      [(l) => (l.steps[1].text = ''), 'steps[1].text', /empty/],
      [(l) => (l.steps[1].question.metric = 'happiness'), 'steps[1].question.metric', /must be one of/],
      [(l) => (l.steps[1].question.expect = 'tcp'), 'steps[1].question.expect', /protocols the question compares/],
      [(l) => (l.steps[1].question.among = ['pfabric']), 'steps[1].question.among', /at least two/],
      [(l) => (l.steps = []), 'steps', /at least one step/],
      [(l) => (l.branch = { of: 'tcp', name: 'b', at_us: 5, change: { kind: 'buffer_bytes', bytes: 9000 } }), 'branch.of', /not shown/],
      [(l) => (l.branch = { of: 'pfabric', name: 'b', at_us: 5, change: { kind: 'buffer_bytes', bytes: 10 } }), 'branch.change.bytes', /1500/],
      [(l) => (l.steps[1].question.expect = 'branch'), 'steps[1].question.expect', /protocols the question compares/],
      [(l) => (l.scenario = { topology: { kind: 'leaf_spine' } }), 'scenario.name', /empty/],
      [(l) => (l.scenario = 42), 'scenario', /bundled scenario or hold a whole scenario/],
    ];
    expect(validateLesson(good(), names)).toEqual([]);
    for (const [edit, field, msg] of cases) {
      const l = good();
      edit(l);
      const errs = validateLesson(l, names);
      const hit = errs.find((e) => e.field === field);
      expect(hit, `${field}: ${JSON.stringify(errs)}`).toBeDefined();
      expect(hit!.message).toMatch(msg);
    }
    expect(validateLesson('not an object', names)[0].field).toBe('(file)');
    // A lesson may hold its scenario whole (a scenario of one's own).
    const own = good();
    own.scenario = { ...SCENARIOS[0], name: 'my-fabric' };
    expect(validateLesson(own, names)).toEqual([]);
    expect(lessonSettings(own, SCENARIOS).scenario.name).toBe('my-fabric');
  });

  it('reads a lesson name from a shared link', () => {
    expect(lessonFromHash('#lesson=pdq-deadlines')).toBe('pdq-deadlines');
    expect(lessonFromHash('#run=abc')).toBeNull();
  });

  it('applies the lesson overrides to its scenario', () => {
    const l = good();
    l.seed = 9;
    l.workload = { flows: 123 };
    l.params = { dctcp: { buffer_bytes: 99_000 } };
    const s = lessonSettings(l, SCENARIOS);
    expect(s.protocols).toEqual(['pfabric', 'dctcp']);
    expect([s.scenario.seed, s.scenario.workload.flows, s.scenario.workload.load, s.scenario.params.dctcp.buffer_bytes]).toEqual([9, 123, 0.6, 99_000]);
    // The bundled scenario itself is untouched.
    expect(SCENARIOS.find((x) => x.name === 'websearch-leaf-spine')!.workload.flows).toBe(10_000);
  });
});

/** A summary with just the numbers a question reads. */
function fake(protocol: string, meanSlowdown: number, drops = 0): Summary {
  const b = { flows: 10, mean_slowdown: meanSlowdown, p99_slowdown: meanSlowdown, afct_us: 1, nfct: 1 };
  return { protocol, all: b, short: b, medium: b, long: { ...b, flows: 0 }, drop_rate: drops, drops_by_hop: [drops, 0, 0, 0], deadlines_met: null, throughput_gbps: 1 } as unknown as Summary;
}

describe('answers come from the runs', () => {
  const q: Question = { prompt: '?', metric: 'mean_slowdown', pick: 'lowest', expect: 'pfabric', explain: '' };
  it('picks the lowest or the highest', () => {
    const s = [fake('pfabric', 1.2), fake('dctcp', 1.8), fake('tcp', 9)];
    expect(answer(q, s).winner).toBe('pfabric');
    expect(answer({ ...q, pick: 'highest' }, s).winner).toBe('tcp');
    expect(answer({ ...q, among: ['dctcp', 'tcp'] }, s).winner).toBe('dctcp');
    expect(answer({ ...q, among: ['dctcp', 'tcp'] }, s).values.map((v) => v.protocol)).toEqual(['dctcp', 'tcp']);
  });
  it('names no winner on a tie or when no run has the number', () => {
    expect(answer(q, [fake('pfabric', 1.5), fake('dctcp', 1.5)]).winner).toBeNull();
    expect(answer({ ...q, scope: 'long' }, [fake('pfabric', 1.5), fake('dctcp', 2)]).winner).toBeNull();
    expect(answer({ ...q, metric: 'deadlines_met', pick: 'highest' }, [fake('pfabric', 1), fake('dctcp', 2)]).winner).toBeNull();
  });
});

describe('each lesson states what its runs show', () => {
  for (const lesson of bundledLessons(names)) {
    const questions = lesson.steps.flatMap((s) => (s.question ? [s.question] : []));
    if (questions.length === 0) continue;
    it(`${lesson.name}: the expected answers hold for the lesson's settings`, () => {
      const settings = lessonSettings(lesson, SCENARIOS);
      // Every run the page shows, the what-if branch included (answering to "branch").
      const summaries: Summary[] = runsOf(settings).map((r, i) => {
        const e = new Engine(JSON.stringify(r.scenario), false);
        const s = JSON.parse(e.finish()) as Summary;
        e.free();
        return i >= settings.protocols.length ? { ...s, protocol: BRANCH_RUN } : s;
      });
      for (const q of questions) {
        const a = answer(q, summaries);
        expect(a.winner, `${q.prompt} ${JSON.stringify(a.values)}`).toBe(q.expect);
      }
    }, 120_000);
  }
});
