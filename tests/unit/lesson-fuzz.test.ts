// Property test of lesson parsing (lessons are parsed only in TypeScript):
// mutated bundled lessons and random JSON never make validateLesson throw;
// it returns field-named errors, and a lesson it accepts has the shape the
// lesson bar relies on. A tiny seeded generator (xorshift32), no new
// dependency. LESSON_FUZZ_CASES sets the number of cases (default 3000).

import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../web/src/scenarios';
import { LESSON_FILES, lessonFromHash, validateLesson } from '../../web/src/lessons/lesson';
import { rng, type Rng } from './rng';

const names = SCENARIOS.map((s) => String(s.name));
const CASES = Number(process.env.LESSON_FUZZ_CASES ?? 3000);


const WORDS = ['', 'pfabric', 'dctcp', 'branch', 'mean_slowdown', 'lowest', 'websearch-leaf-spine', '=1+1', '\u0000', 'x'.repeat(300), '__proto__', 'constructor'];

/** Any JSON value, small. */
function anyValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 5 : 7)) {
    case 0: return null;
    case 1: return r.next() < 0.5;
    case 2: return r.pick([0, -1, 1.5, 1e308, -0, 2 ** 53, NaN]);
    case 3: return r.pick(WORDS);
    case 4: return r.int(100000);
    case 5: return Array.from({ length: r.int(4) }, () => anyValue(r, depth + 1));
    default: return Object.fromEntries(Array.from({ length: r.int(4) }, () => [r.pick(WORDS), anyValue(r, depth + 1)]));
  }
}

/** A bundled lesson with a few fields deleted, replaced or added, at any depth. */
function mutate(r: Rng, v: unknown, depth = 0): unknown {
  if (Array.isArray(v)) {
    const out = v.map((x) => (r.next() < 0.3 ? mutate(r, x, depth + 1) : x));
    if (r.next() < 0.1) out.splice(r.int(out.length + 1), 0, anyValue(r));
    if (r.next() < 0.1 && out.length) out.splice(r.int(out.length), 1);
    return out;
  }
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    for (const k of Object.keys(o)) {
      const p = r.next();
      if (p < 0.08) delete o[k];
      else if (p < 0.16) o[k] = anyValue(r);
      else if (p < 0.5) o[k] = mutate(r, o[k], depth + 1);
    }
    if (r.next() < 0.1) o[r.pick(WORDS)] = anyValue(r);
    return o;
  }
  return r.next() < 0.5 ? anyValue(r) : v;
}

describe('lesson parsing under random input', () => {
  // Found by the fuzzing below: `"branch": null` throws a TypeError
  // (reading 'of' of null) instead of naming the field; fixed: the field is named.
  it('a null branch is named, not thrown', () => {
    const l = structuredClone(LESSON_FILES['pfabric-small-buffers-what-if'] ?? Object.values(LESSON_FILES)[0]) as Record<string, unknown>;
    l.branch = null;
    expect(() => validateLesson(l, names)).not.toThrow();
    expect(validateLesson(l, names).map((x: { field: string }) => x.field)).toContain('branch');
  });

  const lessons = Object.values(LESSON_FILES);

  it(`never throws and names the field of every error (${CASES} cases)`, () => {
    const r = rng(0x5eed);
    let accepted = 0;
    for (let i = 0; i < CASES; i++) {
      const input = i % 4 === 3 ? anyValue(r) : mutate(r, structuredClone(r.pick(lessons)));
      // Known failure, tested on its own below: a null branch.
      let errs;
      try {
        errs = validateLesson(input, names);
      } catch (e) {
        throw new Error(`case ${i} threw ${String(e)} for ${JSON.stringify(input)}`);
      }
      for (const x of errs) {
        expect(typeof x.field === 'string' && x.field.length > 0, JSON.stringify(x)).toBe(true);
        expect(typeof x.message === 'string' && x.message.length > 0, JSON.stringify(x)).toBe(true);
      }
      if (errs.length === 0) {
        accepted++;
        const l = input as { name: string; steps: { at_us: number }[]; protocols: string[] };
        expect(/^[a-z0-9-]+$/.test(l.name)).toBe(true);
        expect(l.steps.length).toBeGreaterThan(0);
        expect(l.protocols.length).toBeGreaterThan(0);
      }
    }
    // Mutations are small: some lessons stay valid, so acceptance is tested too.
    expect(accepted).toBeGreaterThan(0);
  }, Math.max(5000, CASES));

  it('reads a lesson name from any hash or none', () => {
    const r = rng(7);
    for (let i = 0; i < CASES; i++) {
      const hash = Array.from({ length: r.int(40) }, () => r.pick(['#', '&', '=', 'lesson', 'a', '-', '%', '\u00e9', ' '])).join('');
      const got = lessonFromHash(hash);
      expect(got === null || /^[a-z0-9-]+$/.test(got)).toBe(true);
    }
    expect(lessonFromHash('#lesson=tcp-vs-dctcp&x=1')).toBe('tcp-vs-dctcp');
  }, Math.max(5000, CASES));
});
