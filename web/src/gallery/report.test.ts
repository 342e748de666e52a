// The fidelity report in the gallery: reading docs/fidelity.json, every
// claim rendered with its quote, excerpt flag and verdict (mark and word),
// checks in words (a straddling interval "cannot tell"), tallies recounted
// from the claims, grouping, filters, the sensitivity tables, and the
// charts' geometry (the interval drawn inside the band exactly when the
// check holds). Rendered with react-dom/server: no browser needed. Tests
// of exact wording read a fixed sample (fixtures/fidelity-quick-pfabric.json:
// a quick-size report of pFabric's claims), so regenerating the report does
// not move them; the rest read the committed full report.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  VERDICT_MARK,
  chartModel,
  checkGroups,
  claimHref,
  claimsFor,
  describeCheck,
  digitsFor,
  filterClaims,
  groupByPaper,
  intervalText,
  isPointBound,
  parseReport,
  parseTally,
  seedCount,
  shortLabels,
  tally,
  tallyText,
  type Check,
  type Claim,
  type Report,
} from './report';
import { CheckChart, ReportView } from './Report';

const raw = JSON.parse(readFileSync(join(__dirname, '../../../docs/fidelity.json'), 'utf8'));
const report = parseReport(raw);
const claim = (id: string) => report.claims.find((c) => c.id === id)!;
const sampleRaw = JSON.parse(readFileSync(join(__dirname, 'fixtures/fidelity-quick-pfabric.json'), 'utf8'));
const sample = parseReport(sampleRaw);
const sampleClaim = (id: string) => sample.claims.find((c) => c.id === id)!;
/** HTML-escapes text as React does in markup. */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
const render = (r: Report, focus: string | null = null) => renderToStaticMarkup(createElement(ReportView, { report: r, focus }));
/** The markup of one claim's card. */
const card = (html: string, id: string) => {
  const start = html.indexOf(`data-testid="claim-${id}"`);
  expect(start, `no card for ${id}`).toBeGreaterThan(0);
  const end = html.indexOf('</article>', start);
  return html.slice(start, end);
};

/** A report with claims the sample lacks: from another paper, not reproduced, cited outside the excerpts. */
function widerReport(): Report {
  const base = structuredClone(sampleRaw);
  const other = structuredClone(base.claims[9]);
  Object.assign(other, { id: 'd2tcp-low-load', paper: 'D2TCP', cite: 'D2TCP (Vamanan et al., SIGCOMM 2012)', source_paper: false, in_excerpt: false, quote: 'At low loads, D2TCP meets deadlines <"quoted">.' });
  other.judged.verdict = 'not reproduced';
  other.judged.verdict_text = 'not reproduced';
  other.judged.checks = [];
  base.claims.push(other);
  base.tally.other = '1 claims: 0 agree, 0 differ, 0 inconclusive, 1 not reproduced';
  return parseReport(base);
}

describe('reading docs/fidelity.json', () => {
  it('reads every claim of the bundled report, with quote, verdict and checks', () => {
    expect(report.claims.length).toBeGreaterThan(0);
    expect(report.rules.length).toBeGreaterThan(0);
    for (const c of report.claims) {
      expect(c.quote.length, c.id).toBeGreaterThan(10);
      expect(['agrees', 'differs', 'inconclusive', 'not reproduced']).toContain(c.judged.verdict);
      for (const r of c.readings) expect(report.rules.map((x) => x.rule), `${c.id}: rule ${r.rule}`).toContain(r.rule);
    }
  });
  it('the full report says, for every claim it does not reproduce, what was checked and what the data suggest, and the card shows it', () => {
    expect(report.mode, 'docs/fidelity.json is the full-size report').toBe('full');
    const html = render(report);
    const missing = report.claims.filter((c) => c.judged.verdict === 'not reproduced' && c.discussion.length < 80).map((c) => c.id);
    expect(missing, 'not reproduced without a discussion').toEqual([]);
    for (const c of report.claims.filter((c) => c.discussion)) expect(card(html, c.id)).toContain(esc(c.discussion));
  });

  it('reads a claim\'s cause and shows it on the card; a report without causes reads as none', () => {
    const withCause = structuredClone(raw);
    withCause.claims[0].cause = { kind: 'open_setting', name: 'an open setting decides it', why: 'The row <"4,000 flows"> flips it.' };
    const r = parseReport(withCause);
    expect(r.claims[0].cause).toEqual({ kind: 'open_setting', name: 'an open setting decides it', why: 'The row <"4,000 flows"> flips it.' });
    const html = card(render({ ...r, claims: [r.claims[0]] }), r.claims[0].id);
    expect(html).toContain('data-testid="claim-cause"');
    expect(html).toContain(esc('The row <"4,000 flows"> flips it.'));
    const none = structuredClone(raw);
    delete none.claims[0].cause;
    expect(parseReport(none).claims[0].cause).toBeNull();
    const bad = structuredClone(raw);
    bad.claims[0].cause = { kind: 'unexplained' };
    expect(() => parseReport(bad)).toThrow(/cause\.name: expected text/);
  });

  it('shows the three values on every card: the paper, the authors\' simulator (or that it was not run), dcsim', () => {
    const withAuthors = structuredClone(raw);
    withAuthors.claims[0].authors_simulator = 'pHost/pFabric web search <1.112>';
    delete withAuthors.claims[1].authors_simulator;
    const r = parseReport(withAuthors);
    expect(r.claims[0].authors_simulator).toBe('pHost/pFabric web search <1.112>');
    expect(r.claims[1].authors_simulator).toBeNull();
    const html = render({ ...r, claims: r.claims.slice(0, 2) });
    const first = card(html, r.claims[0].id);
    expect(first).toContain(`data-testid="claim-${r.claims[0].id}-values"`);
    expect(first).toContain(esc('pHost/pFabric web search <1.112>'));
    expect(first).toContain(esc(r.claims[0].judged.value));
    expect(card(html, r.claims[1].id)).toContain('not run on this claim');
    const bad = structuredClone(raw);
    bad.claims[0].authors_simulator = 3;
    expect(() => parseReport(bad)).toThrow(/authors_simulator: expected text/);
  });

  it('names the field it cannot read', () => {
    const bad = structuredClone(raw);
    delete bad.claims[2].quote;
    expect(() => parseReport(bad)).toThrow(/claims\[pfabric-incast-dctcp-and-serial\]\.quote: expected text/);
    const verdict = structuredClone(raw);
    verdict.claims[0].judged.verdict = 'passes';
    expect(() => parseReport(verdict)).toThrow(/judged\.verdict: "passes" is not one of/);
    expect(() => parseReport([])).toThrow(/report: expected an object/);
  });
  it('reads an interval of one sample written with null edges as that one value', () => {
    const one = structuredClone(raw);
    one.claims[0].judged.checks[0].interval = { mean: 16, lo: null, hi: null };
    one.claims[0].judged.checks[0].samples = [16];
    const k = parseReport(one).claims[0].judged.checks[0];
    expect(k.interval).toEqual({ mean: 16, lo: 16, hi: 16, n: 1 });
    expect(describeCheck(k)).toBe('16, 1 sample (no interval): ✓ inside "in [14.4, 17.6]"');
  });
  it('takes missing optional lists as empty and a null interval as no value', () => {
    const lean = structuredClone(raw);
    delete lean.claims[0].variants;
    delete lean.claims[0].judged.notes;
    lean.claims[0].judged.checks[0].interval = null;
    const r = parseReport(lean);
    expect(r.claims[0].variants).toEqual([]);
    expect(describeCheck(r.claims[0].judged.checks[0])).toBe('no value was measured: ✓ inside "in [14.4, 17.6]"');
  });
});

describe('checks in words', () => {
  it('an interval outside its bound, with the samples and the paper words it is read from', () => {
    const c = sampleClaim('pfabric-websearch-near-ideal');
    const k = c.judged.checks[0];
    expect(describeCheck(k, { seeds: seedCount(c.size), reading: c.readings[0], ruleName: 'approximate value' })).toBe(
      '0.0126 [0.00983, 0.0154], 3 seeds: ✗ outside "in [0.0063, 0.0077]", read from the paper\'s "within ∼0.7" (approximate value)',
    );
  });
  it('a straddling interval is described as "cannot tell"', () => {
    const k = sampleClaim('pfabric-datamining-near-ideal').judged.checks[0];
    expect(k.fit).toBe('straddles');
    expect(describeCheck(k, { seeds: 3 })).toBe('0.0107 [0.00302, 0.0184], 3 seeds: ? straddles "in [0.0153, 0.0187]": cannot tell');
    expect(render(sample)).toContain('straddles &quot;in [0.0153, 0.0187]&quot;: cannot tell');
  });
  it('samples that are not seeds are called samples; no spread and one sample are said so', () => {
    const c = sampleClaim('pfabric-incast-81ms');
    expect(seedCount(c.size)).toBe(2);
    expect(describeCheck(c.judged.checks[0], { seeds: 2 })).toMatch(/^0\.669 \[0\.\d+, 0\.\d+\], 10 samples: ✗ outside "in \[0\.99, 1\.21\]"$/);
    const same = sampleClaim('pfabric-seamless-switching').judged.checks[0];
    expect(describeCheck(same, { seeds: 3 })).toBe('16.1 in all 3 seeds (no spread): ✓ inside "in [14.4, 17.6]"');
    const one: Check = { ...same, interval: { mean: 2, lo: 2, hi: 2, n: 1 } };
    expect(describeCheck(one)).toBe('2, 1 sample (no interval): ✓ inside "in [14.4, 17.6]"');
  });
  it('prints enough digits that an interval just past a bound never reads as touching it', () => {
    expect(digitsFor([0.00771], [0.0077])).toBe(3);
    expect(digitsFor([0.007701], [0.0077])).toBe(4);
    const k: Check = { ...sampleClaim('pfabric-websearch-near-ideal').judged.checks[0], interval: { mean: 0.00772, lo: 0.007701, hi: 0.00774, n: 3 } };
    expect(intervalText(k)).toBe('0.00772 [0.007701, 0.00774]');
  });
  it('reads the number of seeds from the size', () => {
    expect(seedCount('loads 0.1, 0.8; 1,000 flows; seeds 1, 2, 3')).toBe(3);
    expect(seedCount('seeds 1 to 10')).toBe(10);
    expect(seedCount("the scenario's flows")).toBeNull();
  });
});

describe('tallies, groups and filters', () => {
  it('the tally recounted from the claims matches the report’s own', () => {
    const source = tally(report.claims.filter((c) => c.source_paper));
    const other = tally(report.claims.filter((c) => !c.source_paper));
    expect(source).toEqual(parseTally(report.tally.source));
    expect(other).toEqual(parseTally(report.tally.other));
    expect(tallyText(source)).toBe(report.tally.source);
    const html = render(report);
    expect(html).not.toContain('report-tally-mismatch');
    expect(html).toContain(`${source.claims} claims:`);
  });
  it('a report whose tally does not match its claims says so', () => {
    const wrong = { ...report, tally: { ...report.tally, source: '10 claims: 10 agree, 0 differ, 0 inconclusive, 0 not reproduced' } };
    expect(render(wrong)).toContain('data-testid="report-tally-mismatch"');
  });
  it('groups by paper, the other papers apart, and filters by verdict and paper', () => {
    const r = widerReport();
    const g = groupByPaper(r.claims);
    expect(g.source.map((x) => [x.paper, x.claims.length])).toEqual([['pFabric', 10]]);
    expect(g.other.map((x) => [x.paper, x.claims.length])).toEqual([['D2TCP', 1]]);
    expect(filterClaims(r.claims, { verdict: 'differs', paper: 'all' }).every((c) => c.judged.verdict === 'differs')).toBe(true);
    expect(filterClaims(r.claims, { verdict: 'differs', paper: 'all' }).length).toBe(tally(r.claims).differs);
    expect(filterClaims(r.claims, { verdict: 'all', paper: 'D2TCP' }).map((c) => c.id)).toEqual(['d2tcp-low-load']);
    expect(filterClaims(r.claims, { verdict: 'agrees', paper: 'D2TCP' })).toEqual([]);
  });
});

describe('every claim rendered', () => {
  const html = render(report);
  it('with its quote, where it is in the paper, the excerpt flag, the statement and its verdict as a mark and a word', () => {
    for (const c of report.claims) {
      const h = card(html, c.id);
      expect(h, c.id).toContain(esc(c.quote));
      expect(h, c.id).toContain(esc(c.statement));
      expect(h, c.id).toContain(c.in_excerpt ? 'in the excerpts' : 'outside the excerpts: cited from the paper');
      expect(h, c.id).toContain(`Verdict: ${VERDICT_MARK[c.judged.verdict]} ${c.judged.verdict_text}`);
      expect(h, c.id).toContain(`data-verdict="${c.judged.verdict}"`);
      expect(h, c.id).toContain(`href="${claimHref(c.id)}"`);
      expect(h, c.id).toMatch(/<blockquote class="quote"/);
      // Every reading's words and bound, and one chart per group of checks with a text alternative.
      for (const r of c.readings) expect(h, `${c.id} ${r.key}`).toContain(esc(`“${r.says}”`));
      const groups = checkGroups(c.readings, c.judged);
      expect((h.match(/<svg class="check-chart"/g) ?? []).length, c.id).toBe(groups.length);
      expect((h.match(/<svg class="check-chart"[^>]*role="img" aria-label="Chart: /g) ?? []).length, c.id).toBe(groups.length);
      // Each check in words.
      expect((h.match(/<li data-fit=/g) ?? []).length, c.id).toBeGreaterThanOrEqual(c.judged.checks.length);
    }
  });
  it('the rules once, at the top, with their reading and reason', () => {
    expect((html.match(/data-testid="report-rules"/g) ?? []).length).toBe(1);
    for (const r of report.rules) expect(html).toContain(esc(r.reason));
    expect(html.indexOf('report-rules')).toBeLessThan(html.indexOf('data-testid="claim-'));
  });
  it('the sensitivity table: the verdict as reported and under each variant; a claim without variants says so', () => {
    const c = claim('pfabric-websearch-near-ideal');
    const h = card(html, c.id);
    expect(h).toContain(`data-testid="claim-${c.id}-sensitivity"`);
    expect(h).toContain('as reported');
    for (const v of c.variants) {
      expect(h).toContain(esc(v.name));
      expect(h).toContain(`data-verdict="${v.judged.verdict}"`);
      for (const s of v.settings) expect(h).toContain(`${s.path} = ${s.value}`);
    }
    expect(card(html, 'pfabric-incast-81ms')).toContain('the report varies no open choice for this claim');
  });
  it('deviations, applied settings and notes', () => {
    const c = claim('pfabric-websearch-near-ideal');
    const h = card(html, c.id);
    for (const a of c.applied) expect(h).toContain(esc(`${a.path} = ${a.value}`));
    for (const n of c.judged.notes) expect(h).toContain(esc(n));
    for (const d of claim('pfabric-seamless-switching').deviations) expect(card(html, 'pfabric-seamless-switching')).toContain(esc(d));
  });
  it('claims from other papers in their own section; "not reproduced" and "outside the excerpts" shown', () => {
    const r = widerReport();
    const h = render(r);
    const other = h.indexOf('data-testid="report-other"');
    expect(other).toBeGreaterThan(h.lastIndexOf('data-testid="claim-pfabric'));
    const c = card(h, 'd2tcp-low-load');
    expect(c).toContain('Verdict: – not reproduced');
    expect(c).toContain('outside the excerpts: cited from the paper');
    expect(c).toContain(esc('At low loads, D2TCP meets deadlines <"quoted">.'));
    expect(c).toContain('No check was made.');
    expect(h).not.toContain('report-tally-mismatch');
  });
  it('a quick-size report says its verdicts may change at full size; the full one does not', () => {
    expect(sample.mode).toBe('quick');
    expect(render(sample)).toContain('data-testid="report-quick"');
    expect(report.mode).toBe('full');
    expect(html).not.toContain('data-testid="report-quick"');
  });
});

/** The band's and the interval's pixel extents in each row of a rendered chart. */
function rows(svg: string): { fit: string; band: [number, number]; iv: [number, number] | null }[] {
  return [...svg.matchAll(/<g class="check-row" data-fit="(\w+)">(.*?)<\/g><text/g)].map((m) => {
    const band = /<rect class="band" x="([\d.-]+)"[^>]*width="([\d.-]+)"/.exec(m[2])!;
    const iv = /<g class="interval"[^>]*><line x1="([\d.-]+)" x2="([\d.-]+)"/.exec(m[2]);
    return { fit: m[1], band: [Number(band[1]), Number(band[1]) + Number(band[2])], iv: iv ? [Number(iv[1]), Number(iv[2])] : null };
  });
}

describe('check charts', () => {
  it('draw every interval inside its band when the check holds, outside when it fails, across an edge when it straddles', () => {
    const seen = new Set<string>();
    for (const c of report.claims) {
      for (const g of checkGroups(c.readings, c.judged)) {
        const svg = renderToStaticMarkup(createElement(CheckChart, { group: g }));
        const rs = rows(svg);
        expect(rs.length, `${c.id} ${g.key}`).toBe(g.checks.length);
        for (const [i, r] of rs.entries()) {
          const k = g.checks[i];
          // A one-value bound fails on a sample off the value, whatever the interval: said in words.
          if (r.fit === 'fails' && isPointBound(k.bound)) {
            expect(k.samples.some((x) => x !== k.bound.lo), `${c.id} ${g.key}: fails with every sample on the bound`).toBe(true);
            expect(describeCheck(k)).toMatch(/not every sample is/);
            seen.add(r.fit);
            continue;
          }
          if (!r.iv) continue;
          const [b0, b1] = r.band;
          const [i0, i1] = r.iv;
          const eps = 0.01;
          if (r.fit === 'holds') expect(i0 >= b0 - eps && i1 <= b1 + eps, `${c.id} ${g.key} holds: [${i0}, ${i1}] in [${b0}, ${b1}]`).toBe(true);
          if (r.fit === 'fails') expect(i1 <= b0 + eps || i0 >= b1 - eps, `${c.id} ${g.key} fails: [${i0}, ${i1}] off [${b0}, ${b1}]`).toBe(true);
          if (r.fit === 'straddles') expect((i0 < b0 && i1 > b0) || (i0 < b1 && i1 > b1), `${c.id} ${g.key} straddles: [${i0}, ${i1}] across [${b0}, ${b1}]`).toBe(true);
          seen.add(r.fit);
        }
      }
    }
    expect([...seen].sort()).toEqual(['fails', 'holds', 'straddles']);
  });
  it('say inside / outside / cannot tell in words beside each row', () => {
    const g = checkGroups(claim('pfabric-datamining-near-ideal').readings, claim('pfabric-datamining-near-ideal').judged)[0];
    const svg = renderToStaticMarkup(createElement(CheckChart, { group: g }));
    expect(svg).toContain('? cannot tell');
    expect(svg).toMatch(/aria-label="Chart: pFabric&#x27;s mean normalized FCT over Ideal&#x27;s, minus 1: 1 check against the paper&#x27;s bound, 1 cannot tell"/);
  });
  it('use a log axis where the values span a factor of 10 or more, linear otherwise', () => {
    const probe = claim('pfabric-probe-mode');
    const under = checkGroups(probe.readings, probe.judged).find((g) => g.key === 'under-5.5%')!;
    expect(chartModel(under.checks).scale).toBe('log');
    expect(renderToStaticMarkup(createElement(CheckChart, { group: under }))).toContain('data-scale="log"');
    const seamless = claim('pfabric-seamless-switching');
    expect(chartModel(checkGroups(seamless.readings, seamless.judged)[0].checks).scale).toBe('linear');
  });
  it('draw no circles for thousands of samples (one per request), and keep the range on the interval', () => {
    const k = claim('pfabric-incast-81ms').judged.checks[0];
    const many: Check = { ...k, samples: [...Array(5000)].map((_, i) => (i === 0 ? 40 : 0.6 + (i % 10) / 100)) };
    const svg = renderToStaticMarkup(createElement(CheckChart, { group: { key: 'x', checks: [many] } }));
    expect(svg).not.toContain('class="sample"');
    expect(chartModel([many]).domain[1]).toBeLessThan(2);
  });
  it('label rows by what differs between the checks, whole words only', () => {
    const better = checkGroups(claim('pfabric-better-than-others').readings, claim('pfabric-better-than-others').judged)[0];
    expect(shortLabels(better.checks.map((k) => k.what)).slice(0, 2)).toEqual(['web search, load 0.1: pdq', 'web search, load 0.1: dctcp']);
    expect(shortLabels(['flow 1 ends after the start (ms)', 'flow 2 ends after flow 1 (ms)'])).toEqual(['flow 1 ends after the start', 'flow 2 ends after flow 1']);
    expect(shortLabels(['50 senders: pFabric x', '50 senders: DCTCP x'])).toEqual(['pFabric', 'DCTCP']);
    expect(shortLabels(['only one'])).toEqual(['only one']);
  });
});

describe('links', () => {
  it('a focused claim hidden by nothing is rendered; its anchor is #claim=<id>', () => {
    expect(claimHref('pfabric-incast-81ms')).toBe('#claim=pfabric-incast-81ms');
    expect(render(report, 'pfabric-incast-81ms')).toContain('id="claim-pfabric-incast-81ms"');
  });
  it('a live figure finds the report claim by id, else by paper and figure', () => {
    expect(claimsFor(report, { paper: 'pFabric', claim: 'pfabric-incast-81ms' }).map((c: Claim) => c.id)).toEqual(['pfabric-incast-81ms']);
    expect(claimsFor(report, { paper: 'pfabric', claim: 'gone', figure: 'Figure 7' }).map((c) => c.id)).toContain('pfabric-better-than-others');
    expect(claimsFor(report, { paper: 'pFabric', figure: 'Figure 5' }).map((c) => c.figure)).toEqual(['Figure 5(a)', 'Figure 5(b)']);
    expect(claimsFor(report, { paper: 'pFabric', figure: 'Figure 1' })).toEqual([]);
    expect(claimsFor(null, { paper: 'pFabric', claim: 'pfabric-incast-81ms' })).toEqual([]);
  });
});
