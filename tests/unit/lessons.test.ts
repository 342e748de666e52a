// Lessons (scenarios/lessons): every bundled file is valid, bad files are
// refused with field-named messages, a question's answer is computed from
// the runs, each lesson's expected answer is what the engine (the
// WebAssembly build the page runs) actually gives for the lesson's
// settings, and every step's `shows` statements hold in the runs at the
// step's time: a lesson whose text stops being true fails here.

import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync, Engine } from '../../web/src/engine-glue/dcsim_wasm.js';
import { SCENARIOS } from '../../web/src/scenarios';
import { answer, BRANCH_RUN, bundledLessons, judgedRuns, judgedSummaries, LESSON_FILES, lessonFromHash, lessonRunsChanged, lessonSettings, validateLesson, type Lesson, type Question } from '../../web/src/lessons/lesson';
import { runsOf } from '../../web/src/state/settings';
import { CONTROL_NAMES, type Summary } from '../../web/src/engine/api';
import type { RunFacts } from '../../web/src/engine/api';
import { collectFacts, FactsFolder } from '../../web/src/engine/facts';
import { checkShows, judge, showsText, type Shows } from '../../web/src/lessons/shows';

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
      [(l) => (l.steps[1].shows = { what: 'drop' }), 'steps[1].shows', /list of statements/],
      [(l) => (l.steps[1].shows = ['drop']), 'steps[1].shows[0]', /object/],
      [(l) => (l.steps[1].shows = [{ what: 'explosion' }]), 'steps[1].shows[0].what', /must be one of drop, ecn_mark, .*got "explosion"/],
      [(l) => (l.steps[1].shows = [{ what: 'drop', protocol: 'tcp' }]), 'steps[1].shows[0].protocol', /lesson's runs \(pfabric, dctcp\), got "tcp"/],
      [(l) => (l.steps[1].shows = [{ what: 'drop', where: 'middle' }]), 'steps[1].shows[0].where', /first_hop, uplink, downlink, last_hop/],
      [(l) => (l.steps[1].shows = [{ what: 'flow_started', where: 'first_hop' }]), 'steps[1].shows[0].where', /does not apply to "flow_started"/],
      [(l) => (l.steps[1].shows = [{ what: 'control_message', message: 'tokens' }]), 'steps[1].shows[0].message', /message the engine names \(probe, .*\btoken\b.*\), got "tokens"/],
      [(l) => (l.steps[1].shows = [{ what: 'flow_completed', size: 'huge' }]), 'steps[1].shows[0].size', /short, medium, long/],
      [(l) => (l.steps[1].shows = [{ what: 'drop', at_least: 0 }]), 'steps[1].shows[0].at_least', /whole number of at least 1/],
      [(l) => (l.steps[1].shows = [{ what: 'queue_occupied', at_least: 2 }]), 'steps[1].shows[0].at_least', /use bytes_at_least/],
      [(l) => (l.steps[1].shows = [{ what: 'queue_occupied', bytes_at_least: -3 }]), 'steps[1].shows[0].bytes_at_least', /at least 1/],
      [(l) => (l.steps[1].shows = [{ what: 'drop', when: 'now' }]), 'steps[1].shows[0].when', /not a field of a statement/],
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
    // Statements that are well formed pass, the branch included as a run.
    const stated = good();
    stated.steps[1].shows = [{ what: 'drop', where: 'first_hop', protocol: 'pfabric' }, { what: 'control_message', message: 'token' }, { what: 'queue_occupied', where: 'last_hop', bytes_at_least: 22_500, protocol: 'dctcp' }, { what: 'flow_paused', at_least: 2 }];
    expect(validateLesson(stated, names)).toEqual([]);
    stated.branch = { of: 'pfabric', name: 'b', at_us: 5, change: { kind: 'buffer_bytes', bytes: 9000 } };
    stated.steps[1].shows = [{ what: 'drop', protocol: 'branch' }];
    expect(validateLesson(stated, names)).toEqual([]);
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

describe('a what-if branch is never judged as a competitor', () => {
  const q: Question = { prompt: '?', metric: 'drop_rate', pick: 'highest', expect: 'pfabric', explain: '' };
  const userBranch = { of: 'pfabric' as const, name: '4.5 KB buffers', at_us: 1000, change: { kind: 'buffer_bytes' as const, bytes: 4500 } };

  it('a branch opened beside a lesson is left out of its answers and not waited for', () => {
    const l = good();
    const settings = { ...lessonSettings(l, SCENARIOS), branch: userBranch };
    // The branch drops the most: judged as a competitor it would win.
    const all = [fake('pfabric', 1, 0.02), fake('dctcp', 2, 0.001), fake('pfabric', 3, 0.5)];
    const j = judgedSummaries(l, settings, all);
    expect(j.summaries.map((x) => x.protocol)).toEqual(['pfabric', 'dctcp']);
    expect([j.done, j.outsideBranch]).toEqual([true, true]);
    expect(answer(q, j.summaries).winner).toBe('pfabric');
    // What the page did: the branch, named "branch", judged as a competitor, and winning.
    expect(answer(q, [all[0], all[1], { ...all[2], protocol: BRANCH_RUN }]).winner).toBe(BRANCH_RUN);
    // Unfinished, the branch does not hold the answer back; an unfinished protocol does.
    expect(judgedSummaries(l, settings, [all[0], all[1], null]).done).toBe(true);
    expect(judgedSummaries(l, settings, [all[0], null, all[2]]).done).toBe(false);
    // The lesson's runs have not changed (no "settings were changed" note); its seed has.
    expect(lessonRunsChanged(l, settings, SCENARIOS)).toBe(false);
    expect(lessonRunsChanged(l, { ...settings, scenario: { ...settings.scenario, seed: 99 } }, SCENARIOS)).toBe(true);
    expect(judgedRuns(l)).toEqual(['pfabric', 'dctcp']);
  });

  it("a lesson's own branch is one of its runs, answering to \"branch\"; another branch in its place is not", () => {
    const l: Lesson = { ...good(), protocols: ['pfabric'], branch: userBranch, steps: [{ at_us: 1000, title: 'a', text: 'b' }] };
    const settings = lessonSettings(l, SCENARIOS);
    const all = [fake('pfabric', 1, 0.001), fake('pfabric', 3, 0.02)];
    const j = judgedSummaries(l, settings, all);
    expect(j.summaries.map((x) => x.protocol)).toEqual(['pfabric', BRANCH_RUN]);
    expect(answer(q, j.summaries).winner).toBe(BRANCH_RUN);
    expect(judgedRuns(l)).toEqual(['pfabric', BRANCH_RUN]);
    const other = { ...settings, branch: { ...userBranch, name: '9 KB', change: { kind: 'buffer_bytes' as const, bytes: 9000 } } };
    expect(judgedSummaries(l, other, all)).toMatchObject({ outsideBranch: true, summaries: [{ protocol: 'pfabric' }] });
    expect(lessonRunsChanged(l, other, SCENARIOS)).toBe(true);
    expect(lessonRunsChanged(l, settings, SCENARIOS)).toBe(false);
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

/** Each run's facts at the lesson's step times, by run name (the branch as "branch"), looked at to the run's end. */
function lessonFacts(lesson: Lesson): Record<string, RunFacts> {
  const settings = lessonSettings(lesson, SCENARIOS);
  const times = lesson.steps.map((s) => s.at_us * 1e6);
  const out: Record<string, RunFacts> = {};
  runsOf(settings).forEach((r, i) => {
    const e = new Engine(JSON.stringify(r.scenario), true);
    try {
      out[i >= settings.protocols.length ? BRANCH_RUN : r.label] = collectFacts(e, JSON.parse(e.topology_json()), times, { lookAheadMs: Infinity });
    } finally {
      e.free();
    }
  });
  return out;
}

describe('each step shows what it says', () => {
  for (const lesson of bundledLessons(names)) {
    it(`${lesson.name}: every statement holds in its run at its step's time`, () => {
      const facts = lessonFacts(lesson);
      for (const [run, f] of Object.entries(facts)) expect(f.complete && f.at.length === lesson.steps.length, `${lesson.name}: ${run} reached every step`).toBe(true);
      const failures = checkShows(lesson.steps, facts).map((f) => `${lesson.name} ${f.message}`);
      expect(failures).toEqual([]);
    }, 120_000);
  }

  it('every shipped lesson says what its steps show, and every step after the first has a statement', () => {
    for (const lesson of bundledLessons(names)) {
      lesson.steps.slice(1).forEach((st, i) => expect(st.shows?.length ?? 0, `${lesson.name} steps[${i + 1}] "${st.title}" states nothing it shows`).toBeGreaterThan(0));
    }
  });

  it('a step that lies is reported, naming the step, the statement, the time and when it does happen', () => {
    // pHost against pFabric on the shipped lesson's fabric: pFabric's first
    // drop (at a host's own link) comes at about 5.4 ms, so a step at 1 ms
    // that claims one lies, and the same claim at 6 ms is true.
    const base = bundledLessons(names).find((l) => l.name === 'phost-tokens')!;
    const drop: Shows = { what: 'drop', where: 'first_hop', protocol: 'pfabric' };
    const lying: Lesson = {
      ...base,
      steps: [
        { at_us: 1000, title: 'Where the drops are', text: 'Look at the red crosses.', shows: [drop, { what: 'flow_started' }] },
        { at_us: 6000, title: 'Later', text: 'Now they are there.', shows: [drop] },
        { at_us: 6000, title: 'Not pHost', text: 'pHost drops nothing at its first hops.', shows: [{ what: 'drop', where: 'first_hop', protocol: 'phost' }, { what: 'flow_paused', protocol: 'pfabric' }, { what: 'queue_occupied', bytes_at_least: 1e9 }] },
      ],
    };
    expect(validateLesson(lying, names)).toEqual([]);
    const failures = checkShows(lying.steps, lessonFacts(lying));
    expect(failures.map((f) => [f.step, f.index])).toEqual([
      [0, 0],
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
    expect(failures[0].message).toMatch(/^steps\[0\]\.shows\[0\] \(step 1, "Where the drops are"\): "a packet has been dropped at a first hop .* in pfabric" is false at t = 1\.000 ms: none by then \(the first is at t = 5\.42\d ms\)$/);
    expect(failures[1].message).toMatch(/"a packet has been dropped at a first hop .* in phost" is false at t = 6\.000 ms: none by then \(and none later/);
    expect(failures[2].message).toMatch(/"a flow is paused .* now in pfabric" is false at t = 6\.000 ms: no flow is paused then$/);
    expect(failures[3].message).toMatch(/"a port's buffer holds at least 1 GB now in some run" is false at t = 6\.000 ms: pfabric: the fullest such buffer holds .*; phost: /);
  }, 120_000);
});

describe('facts folded from a trace', () => {
  // Two hosts under one switch: ports 0 and 1 are the hosts' NICs, 2 and 3 the switch's downlinks.
  const topo = { nodes: [], n_hosts: 2, host_rate: 1e10, ports: [{ role: 'host_nic' }, { role: 'host_nic' }, { role: 'edge' }, { role: 'edge' }] } as any;
  /** A flat trace record (api.ts TRACE_WIDTH layout). */
  const rec = (tPs: number, code: number, port: number, flow: number, aux = 0, prio = 0) => [tPs, code, port, flow, 0, 0, aux, prio, 0];
  const at = (f: FactsFolder, tPs: number, q = [0, 0, 0, 0]) => f.snapshot(tPs, q);
  /** A control event's code, as the engine numbers it (`CONTROL_NAMES`). */
  const code = (name: string) => {
    const c = (CONTROL_NAMES as readonly string[]).indexOf(name);
    expect(c, name).toBeGreaterThanOrEqual(0);
    return c;
  };

  it('counts events by kind, hop and message, and knows when each first happened', () => {
    const f = new FactsFolder(topo);
    f.foldTrace([...rec(10, 2, 0, 1), ...rec(20, 2, 3, 1), ...rec(30, 3, 2, 2), ...rec(40, 8, -1, 4, code('token')), ...rec(50, 8, -1, 4, code('token')), ...rec(60, 6, -1, 4)]);
    const x = at(f, 60);
    expect(x.counts).toMatchObject({ drop: 2, 'drop.first_hop': 1, 'drop.last_hop': 1, ecn_mark: 1, 'ecn_mark.last_hop': 1, control_message: 2, 'control_message.token': 2, timeout: 1 });
    expect(f.firstPs['control_message.token']).toBe(40);
    expect(judge({ what: 'control_message', message: 'token', at_least: 3 }, x).holds).toBe(false);
    expect(judge({ what: 'control_message', message: 'token', at_least: 2 }, x).holds).toBe(true);
    expect(judge({ what: 'drop', where: 'uplink' }, x)).toEqual({ holds: false, saw: 'none by then' });
  });

  it('a flow is paused from a pause decision until a rate, its finish or its termination', () => {
    const f = new FactsFolder(topo);
    // Decision records: aux = control name index, prio = rate (0: pause).
    const pause = code('pdq_pause');
    const accept = code('pdq_accept');
    f.foldTrace([...rec(1, 9, 2, 7, pause, 0), ...rec(1, 9, 2, 8, pause, 0)]);
    expect(at(f, 1).pausedFlows).toBe(2);
    expect(judge({ what: 'flow_paused', at_least: 2 }, at(f, 1)).holds).toBe(true);
    f.foldTrace([...rec(2, 9, 2, 7, accept, 1e9), ...rec(3, 5, -1, 8)]);
    expect(at(f, 3).pausedFlows).toBe(0);
    expect(judge({ what: 'flow_paused' }, at(f, 3))).toEqual({ holds: false, saw: 'no flow is paused then' });
    f.foldTrace([...rec(4, 9, 2, 9, pause, 0), ...rec(5, 8, -1, 9, code('pdq_terminate'))]);
    expect(at(f, 5).pausedFlows).toBe(0);
  });

  it('counts completions up to the snapshot time only, by size bucket, and reads buffers by hop', () => {
    const f = new FactsFolder(topo);
    // flow, size, start, fct, slowdown, src, dst
    f.foldCompletions([1, 50_000, 0, 100, 1, 0, 1, 2, 20_000_000, 0, 500, 1, 0, 1]);
    expect(at(f, 99).counts.flow_completed).toBeUndefined();
    expect(at(f, 100).counts).toMatchObject({ flow_completed: 1, 'flow_completed.short': 1 });
    expect(judge({ what: 'flow_completed', size: 'long' }, at(f, 100)).holds).toBe(false);
    expect(judge({ what: 'flow_completed', size: 'long' }, at(f, 500)).holds).toBe(true);
    const q = at(f, 500, [0, 3000, 45_000, 0]);
    expect(q.queueBytesByHop).toEqual([3000, 0, 0, 45_000]);
    expect(judge({ what: 'queue_occupied', where: 'last_hop', bytes_at_least: 22_500 }, q).holds).toBe(true);
    expect(judge({ what: 'queue_occupied', where: 'first_hop', bytes_at_least: 22_500 }, q)).toEqual({ holds: false, saw: 'the fullest such buffer holds 3 KB then' });
    expect(showsText({ what: 'queue_occupied', where: 'last_hop', bytes_at_least: 22_500, protocol: 'dctcp' })).toBe("a port's buffer holds at least 22.5 KB at a last hop (a ToR's link down to a host) now in dctcp");
  });
});
