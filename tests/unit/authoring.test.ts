// Lessons brought by instructors (issue 17): the lesson link codec, the
// narration's Markdown rendered safely, the self-check CSV, the settings
// on screen as lesson fields, and how an imported file is read.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { decodeLessonHash, encodeLessonHash, MAX_LINK_CHARS } from '../../web/src/lessons/share';
import { Markdown } from '../../web/src/lessons/Markdown';
import { parseMarkdown, plainText } from '../../web/src/lessons/markdown';
import { documentedColumns } from '../../web/src/export/readme';
import { runsOfSettings, selfCheckCsv, selfCheckRows, selfCheckScore, spreadsheetSafe } from '../../web/src/lessons/author';
import { LESSON_FILES, lessonSettings, validateLesson, type Lesson } from '../../web/src/lessons/lesson';
import { readImport, parseJson, srcFromHash } from '../../web/src/import/importer';
import { SCENARIOS } from '../../web/src/scenarios';
import { parseCsv } from '../../web/src/export/csv';
import type { Summary } from '../../web/src/engine/api';

const root = join(__dirname, '..', '..');
const names = SCENARIOS.map((s) => String(s.name));
const websearch = () => JSON.parse(readFileSync(join(root, 'scenarios/websearch-leaf-spine.json'), 'utf8'));

function lesson(): Lesson {
  return {
    name: 'my-lesson',
    title: 'Queues — µs by µs, naïvely',
    scenario: 'websearch-leaf-spine',
    protocols: ['pfabric', 'dctcp'],
    seed: 3,
    workload: { flows: 200 },
    steps: [
      { at_us: 0, title: 'Start', text: 'Two **fabrics**, one *workload*:\n\n- `pfabric`\n- dctcp\n\nSee [the paper](https://example.org/pfabric.pdf).' },
      { at_us: 250.5, title: 'Q', text: 'Predict.', question: { prompt: 'Who wins?', metric: 'mean_slowdown', scope: 'short', pick: 'lowest', expect: 'pfabric', explain: 'SRPT.' } },
    ],
  };
}

/** A seeded xorshift32 stream of non-negative integers. */
function rng(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

describe('lesson links', () => {
  it('round-trips a lesson through the URL hash', async () => {
    const l = lesson();
    const hash = await encodeLessonHash(l);
    expect(hash).toMatch(/^#lessonz=1\.[A-Za-z0-9_-]+$/);
    expect(await decodeLessonHash(hash)).toEqual({ lesson: l });
    // Other hash parts around it do not matter.
    expect(await decodeLessonHash(`#x=1&${hash.slice(1)}`)).toEqual({ lesson: l });
    expect(await decodeLessonHash('#run=abc')).toBeNull();
  });

  it('says clearly that a damaged link is damaged', async () => {
    const hash = await encodeLessonHash(lesson());
    const body = hash.slice('#lessonz=1.'.length);
    const cases = [
      '#lessonz=1.' + body.slice(0, Math.floor(body.length / 2)), // cut short
      '#lessonz=1.' + body.slice(0, 20) + (body[20] === 'A' ? 'B' : 'A') + body.slice(21, 40) + 'zz' + body.slice(42), // changed
      '#lessonz=1.' + body + '!!', // not base64url
      '#lessonz=' + body, // no version
      '#lessonz=1.AAAAAAAA', // decompresses to nothing useful
    ];
    for (const h of cases) {
      const d = await decodeLessonHash(h);
      expect(d && 'error' in d ? d.error : `decoded: ${JSON.stringify(d)}`, h.slice(0, 60)).toMatch(/^the lesson link is damaged: /);
    }
    const v2 = await decodeLessonHash('#lessonz=2.' + body);
    expect(v2 && 'error' in v2 && v2.error).toMatch(/version 2/);
  });

  it('fits a large lesson (every shipped lesson\'s steps and questions in one, the whole scenario inline) in a link', async () => {
    const l = lesson();
    l.scenario = websearch();
    // Real narration: the 27 steps of the seven shipped lessons, one after another.
    const shipped = (Object.values(LESSON_FILES) as Lesson[]).flatMap((x) => x.steps);
    // Their statements too, about any run (the shipped ones name protocols this lesson does not run).
    l.steps = shipped.map((st, i) => ({ ...st, at_us: i * 100, ...(st.question ? { question: { ...st.question, among: undefined, expect: 'pfabric' as const } } : {}), ...(st.shows ? { shows: st.shows.map((x) => ({ ...x, protocol: undefined })) } : {}) }));
    l.steps = JSON.parse(JSON.stringify(l.steps));
    expect(l.steps.length).toBeGreaterThanOrEqual(25);
    expect(validateLesson(l, names)).toEqual([]);
    const json = JSON.stringify(l);
    const hash = await encodeLessonHash(l);
    expect(json.length).toBeGreaterThan(16_000);
    expect(hash.length).toBeLessThanOrEqual(MAX_LINK_CHARS);
    expect(hash.length).toBeLessThan(json.length / 2);
    expect(await decodeLessonHash(hash)).toEqual({ lesson: l });
  });

  it('refuses to make a link longer than the limit', async () => {
    const l = lesson();
    const next = rng(1);
    // Text that does not compress: random letters.
    l.steps[0].text = Array.from({ length: 60_000 }, () => String.fromCharCode(97 + (next() % 26))).join('');
    await expect(encodeLessonHash(l)).rejects.toThrow(/too large for a link/);
  });
});

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe('narration Markdown', () => {
  it('renders paragraphs, lists, bold, italic, code and http(s) links', () => {
    expect(html(lesson().steps[0].text)).toBe(
      '<div><p>Two <strong>fabrics</strong>, one <em>workload</em>:</p><ul><li><code>pfabric</code></li><li>dctcp</li></ul>' +
        '<p>See <a href="https://example.org/pfabric.pdf" target="_blank" rel="noopener noreferrer">the paper</a>.</p></div>',
    );
    expect(html('1. one\n2. **two**\n   continued')).toBe('<div><ol><li>one</li><li><strong>two</strong> continued</li></ol></div>');
    // Not marks: a lone star, a product, snake_case.
    expect(html('2 * 3 * 4 and buffer_bytes')).toBe('<div><p>2 * 3 * 4 and buffer_bytes</p></div>');
  });

  it('keeps injected HTML and scripts inert text', () => {
    const attacks = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '**<svg onload=alert(1)>**',
      '`<iframe src=javascript:alert(1)>`',
      '&lt;script&gt;alert(1)&lt;/script&gt;',
      '<a href="javascript:alert(1)">x</a>',
    ];
    for (const a of attacks) {
      const out = html(a);
      // No element but the renderer's own, none with an attribute.
      for (const tag of out.match(/<[^>]*>/g) ?? []) expect(tag, a).toMatch(/^<\/?(div|p|ul|ol|li|strong|em|code)>$/);
      expect(out, a).toMatch(/&(amp;)?lt;/);
    }
    expect(html('&lt;b&gt;')).toBe('<div><p>&amp;lt;b&amp;gt;</p></div>');
  });

  it('turns only http(s) links into links; the others stay their own text', () => {
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', '//evil.example/x', 'https://ok.example/"onmouseover="alert(1)', 'file:///etc/passwd']) {
      const out = html(`[click](${bad})`);
      expect(out, bad).not.toMatch(/<a\b/);
      expect(out, bad).toContain('[click]');
    }
    expect(html('[<b>x</b>](https://a.example)')).toBe('<div><p><a href="https://a.example/" target="_blank" rel="noopener noreferrer">&lt;b&gt;x&lt;/b&gt;</a></p></div>');
  });

  it('shows every shipped lesson\'s narration word for word', () => {
    for (const l of Object.values(LESSON_FILES) as Lesson[]) for (const s of l.steps) expect(plainText(parseMarkdown(s.text))).toBe(s.text);
  });
});

/** A summary with just the numbers a question reads. */
function fake(protocol: string, meanSlowdown: number): Summary {
  const b = { flows: 10, mean_slowdown: meanSlowdown, p99_slowdown: meanSlowdown, afct_us: 1, nfct: 1 };
  return { protocol, all: b, short: b, medium: b, long: b, drop_rate: 0, drops_by_hop: [0, 0, 0, 0], deadlines_met: null, throughput_gbps: 1 } as unknown as Summary;
}

describe('self-check', () => {
  it('scores the answers against the runs and writes a CSV spreadsheets will not run', () => {
    const l = lesson();
    l.title = '=HYPERLINK("http://evil.example","x")';
    l.steps[1].title = '+1, "quoted"\nline';
    l.steps[1].question!.prompt = '@SUM(A1)';
    l.steps.push({ at_us: 300, title: '-2', text: 't', question: { prompt: 'Highest?', metric: 'mean_slowdown', pick: 'highest', expect: 'dctcp', explain: 'x' } });
    const summaries = [fake('pfabric', 1.2), fake('dctcp', 2)];
    const rows = selfCheckRows(l, { 1: 'pfabric', 2: 'pfabric' });
    expect(selfCheckScore(rows, summaries)).toEqual({ right: 1, answered: 2, of: 2 });
    const csv = parseCsv(selfCheckCsv(l, rows, summaries));
    expect(csv[0]).toEqual(['lesson', 'step', 'step_title', 'question', 'judged_by', 'your_answer', 'correct_answer', 'result']);
    // The data dictionary (the README beside the downloads, docs/reference/csv.md) has every column.
    const documented = documentedColumns();
    for (const name of csv[0]) expect(documented.has(name), `${name} is not in the CSV README`).toBe(true);
    expect(csv[1]).toEqual([`'=HYPERLINK("http://evil.example","x")`, '2', `'+1, "quoted"\nline`, "'@SUM(A1)", 'lowest mean slowdown of short flows (under 100 KB)', 'pfabric', 'pfabric', 'right']);
    expect(csv[2].slice(2)).toEqual(["'-2", 'Highest?', 'highest mean slowdown', 'pfabric', 'dctcp', 'wrong']);
    expect(csv[3][3]).toBe('1 right of 2 answered (2 questions)');
    // Every cell of the file is safe, whatever it holds.
    for (const row of csv) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
    expect(spreadsheetSafe(-3)).toBe("'-3");
    expect(spreadsheetSafe('a=b')).toBe('a=b');
  });
});

describe('the settings on screen as a lesson', () => {
  it('says a bundled scenario with overrides when that is exact, the whole scenario otherwise', () => {
    const sc = websearch();
    sc.seed = 4;
    sc.workload.flows = 123;
    sc.params = { dctcp: { buffer_bytes: 90_000 } };
    const settings = { scenario: sc, protocols: ['pfabric' as const, 'dctcp' as const] };
    const runs = runsOfSettings(settings, SCENARIOS);
    expect(runs).toEqual({ scenario: 'websearch-leaf-spine', protocols: ['pfabric', 'dctcp'], seed: 4, workload: { flows: 123 }, params: { dctcp: { buffer_bytes: 90_000 } } });
    expect(lessonSettings({ name: 'a', title: 'a', steps: [], ...runs }, SCENARIOS)).toEqual(settings);
    // A change the overrides cannot say (the topology): the whole scenario, which still runs the same.
    sc.topology.spines = 2;
    const inline = runsOfSettings(settings, SCENARIOS);
    expect(inline.scenario).toEqual(sc);
    expect(lessonSettings({ name: 'a', title: 'a', steps: [], ...inline }, SCENARIOS).scenario).toEqual(sc);
  });
});

describe('reading an imported file', () => {
  const current = { scenario: websearch(), protocols: ['pfabric' as const] };
  it('tells a lesson from a scenario and checks each as the page does', () => {
    const l = readImport(lesson(), current, SCENARIOS);
    expect('ok' in l && l.ok.kind).toBe('lesson');
    const s = readImport({ ...websearch(), protocol: 'dctcp', branch: { name: 'b', at_us: 5, change: { kind: 'buffer_bytes', bytes: 9000 } } }, current, SCENARIOS);
    expect('ok' in s && s.ok.settings.protocols).toEqual(['dctcp']);
    expect('ok' in s && s.ok.settings.branch?.of).toBe('dctcp');
    expect('ok' in s && 'branch' in s.ok.settings.scenario).toBe(false);
    const bad = readImport({ ...websearch(), workload: { ...websearch().workload, load: 3 } }, current, SCENARIOS);
    expect('errors' in bad && bad.errors[0].field).toBe('workload.load');
    const badLesson = readImport({ ...lesson(), protocols: ['warp'] }, current, SCENARIOS);
    expect('errors' in badLesson && badLesson.errors[0].field).toBe('protocols');
    const notJson = parseJson('{"name": ');
    expect('errors' in notJson && notJson.errors[0].field).toBe('(file)');
  });
  it('reads #src= addresses, http(s) only', () => {
    expect(srcFromHash('#src=https%3A%2F%2Fa.example%2Fl.json', 'http://h/')).toBe('https://a.example/l.json');
    expect(srcFromHash('#src=lessons/x.json', 'http://h/app/')).toBe('http://h/app/lessons/x.json');
    expect(srcFromHash('#src=javascript:alert(1)', 'http://h/')).toEqual({ error: expect.stringMatching(/http\(s\)/) });
    expect(srcFromHash('#run=x', 'http://h/')).toBeNull();
  });
});
