import { describe, expect, it } from 'vitest';
import { fingerprint, fnv1a64, fold, type Action } from './protocol';
import { backoffMs, liveUrl } from './client';
import { emptyRun } from '../state/run';

const a = (at_ps: number, op: Action['op']): Action => ({ at_ps, op });

describe('fold: the state an action log leads to', () => {
  it('is where the instructor is after a lesson, play, pause, a seek back and a branch', () => {
    const d = fold([
      a(0, { kind: 'load', settings: { protocols: ['pfabric'] } }),
      a(0, { kind: 'lesson', name: 'pfabric-vs-dctcp' }),
      a(0, { kind: 'play' }),
      a(7_000_000, { kind: 'pause' }),
      a(7_000_000, { kind: 'lesson_step', step: 2 }),
      a(7_000_000, { kind: 'seek', t_ps: 3_000_000 }),
      a(3_000_000, { kind: 'branch', branch: { of: 'pfabric', at_us: 3 } }),
      a(3_000_000, { kind: 'reveal', step: 2 }),
      a(3_000_000, { kind: 'reveal', step: 2 }),
    ]);
    expect(d).toMatchObject({ lesson: 'pfabric-vs-dctcp', lessonStep: 2, revealed: [2], playing: false, atPs: 3_000_000, branch: { of: 'pfabric', at_us: 3 }, pacing: 'follow' });
  });
  it('starts over on a load (branch, end and play go with the old run), and follows pacing', () => {
    const d = fold([a(0, { kind: 'branch', branch: { of: 'x' } }), a(5, { kind: 'finish' }), a(9, { kind: 'pacing', mode: 'explore' }), a(9, { kind: 'load', settings: {} })]);
    expect(d).toMatchObject({ branch: null, finished: false, playing: false, atPs: 0, pacing: 'explore' });
    expect(fold([a(0, { kind: 'pacing', mode: 'explore' }), a(1, { kind: 'bring_back' })]).pacing).toBe('follow');
  });
});

describe('fingerprint', () => {
  it('is FNV-1a 64 (the published test vectors) of the runs\' state', () => {
    // The FNV reference values: "" gives the offset basis.
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
    expect(fingerprint([])).toBe(fnv1a64(''));
  });
  it('changes with one event more and not with the order flows completed in', () => {
    const r = { ...emptyRun('pfabric'), events: 10, nowPs: 5, done: 2 };
    const f1 = { flow: 1, sizeBytes: 1, startPs: 0, fctPs: 3, slowdown: 1, src: 0, dst: 1 };
    const f2 = { ...f1, flow: 2, fctPs: 4 };
    const base = fingerprint([{ ...r, flows: [f1, f2] }]);
    expect(fingerprint([{ ...r, flows: [f2, f1] }])).toBe(base);
    expect(fingerprint([{ ...r, flows: [f1, f2], events: 11 }])).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('the connection', () => {
  it('talks to /live on the page\'s own host, ws or wss as the page', () => {
    expect(liveUrl({ protocol: 'http:', host: '10.0.0.5:5173' })).toBe('ws://10.0.0.5:5173/live');
    expect(liveUrl({ protocol: 'https:', host: 'class.example' })).toBe('wss://class.example/live');
  });
  it('waits longer after each failed attempt, at most 4 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(backoffMs)).toEqual([250, 500, 1000, 2000, 4000, 4000]);
  });
});
