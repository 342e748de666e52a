// The fidelity report in the gallery: every claim of docs/fidelity.json
// (`dcsim reproduce --json`), grouped by paper, with the paper's quote, how
// its words are read, the verdict (a mark and a word, never colour alone),
// one chart per group of checks (each check's 95% interval as an error bar
// over the paper's bound as an opaque band), the checks in words, the
// settings, and the sensitivity table. The rules and the tallies once, at
// the top; filters by verdict and paper; an anchor per claim
// (`#claim=<id>`). Pure logic lives in report.ts.

import { useEffect, useMemo, useRef, useState } from 'react';
import { scaleLinear, scaleLog } from 'd3';
import {
  MAX_SAMPLES_DRAWN,
  VERDICTS,
  VERDICT_MARK,
  VERDICT_MEANING,
  chartModel,
  chartSummary,
  checkGroups,
  claimElementId,
  claimHref,
  claimPlace,
  describeCheck,
  filterClaims,
  fitWords,
  fmt,
  groupByPaper,
  parseReport,
  parseTally,
  seedCount,
  tally,
  tallyText,
  type Check,
  type CheckGroup,
  type Claim,
  type ClaimFilter,
  type Judged,
  type PaperGroup,
  type Report,
  type Rule,
  type Tally,
  type VerdictWord,
} from './report';

const files = import.meta.glob('../../../docs/fidelity.json', { import: 'default' });

/**
 * Loads the report bundled with this build (docs/fidelity.json, in a chunk
 * of its own so the classroom page does not carry it) and reads it.
 */
export async function loadReport(): Promise<Report> {
  const load = Object.values(files)[0];
  if (!load) throw new Error('this build has no docs/fidelity.json');
  return parseReport(await load());
}

/** The report once loaded (null before), or the error that stopped it. */
export function useReport(): { report: Report | null; error: string | null } {
  const [state, setState] = useState<{ report: Report | null; error: string | null }>({ report: null, error: null });
  useEffect(() => {
    let live = true;
    loadReport().then(
      (report) => live && setState({ report, error: null }),
      (e: unknown) => live && setState({ report: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** A verdict as a badge: its mark and its word, e.g. "✗ differs". */
export function VerdictBadge({ verdict, text }: { verdict: VerdictWord; text?: string }) {
  return (
    <span className={`verdict-badge v-${verdict.replace(' ', '-')}`} data-verdict={verdict}>
      <span aria-hidden="true">{VERDICT_MARK[verdict]} </span>
      {text || verdict}
    </span>
  );
}

/** A tally as marks and words: "✓ 3 agree · ✗ 6 differ · ? 1 inconclusive · – 0 not reproduced". */
function TallyLine({ t }: { t: Tally }) {
  const words: Record<VerdictWord, string> = { agrees: t.agrees === 1 ? 'agrees' : 'agree', differs: t.differs === 1 ? 'differs' : 'differ', inconclusive: 'inconclusive', 'not reproduced': 'not reproduced' };
  return (
    <span className="tally-line">
      {t.claims} {t.claims === 1 ? 'claim' : 'claims'}:{' '}
      {VERDICTS.map((v, i) => (
        <span key={v}>
          {i > 0 && ' · '}
          <span className={`tally-part v-${v.replace(' ', '-')}`}>
            <span aria-hidden="true">{VERDICT_MARK[v]} </span>
            {t[v]} {words[v]}
          </span>
        </span>
      ))}
    </span>
  );
}

const minutes = (s: number) => (s >= 90 ? `${fmt(s / 60, 2)} minutes` : `${Math.round(s)} s`);

/** The whole report: how it was made, the tallies, how to read it, the rules, the filters, and the claims by paper. */
export function ReportView({ report, focus }: { report: Report; focus: string | null }) {
  const [filter, setFilter] = useState<ClaimFilter>({ verdict: 'all', paper: 'all' });
  const claims = report.claims;
  const shown = useMemo(() => filterClaims(claims, filter), [claims, filter]);
  const groups = useMemo(() => groupByPaper(shown), [shown]);
  const papers = useMemo(() => [...new Set(claims.map((c) => c.paper))], [claims]);
  const rules = useMemo(() => new Map(report.rules.map((r) => [r.rule, r])), [report.rules]);
  const source = tally(claims.filter((c) => c.source_paper));
  const other = tally(claims.filter((c) => !c.source_paper));
  const stated = { source: parseTally(report.tally.source), other: parseTally(report.tally.other) };
  const same = (a: Tally | null, b: Tally) => !a || (a.claims === b.claims && VERDICTS.every((v) => a[v] === b[v]));
  const focused = focus ? claims.find((c) => c.id === focus) : undefined;

  // A claim named in the address is shown even when the filters would hide it, and brought to the eye and focused once
  // (once it is rendered; changing the filters afterwards does not jump back to it).
  const pending = useRef<string | null>(null);
  useEffect(() => {
    pending.current = focused?.id ?? null;
    if (focused && !filterClaims([focused], filter).length) setFilter({ verdict: 'all', paper: 'all' });
  }, [focused]);
  useEffect(() => {
    const el = pending.current && document.getElementById(claimElementId(pending.current));
    if (el) {
      pending.current = null;
      el.scrollIntoView({ block: 'start' });
      el.focus({ preventScroll: true });
    }
  }, [focused, shown]);

  return (
    <section className="report" aria-labelledby="report-title" data-testid="report">
      <h2 id="report-title">The fidelity report: every claim, judged</h2>
      <p className="report-made" data-testid="report-made">
        Made by <code>{report.generated_by || 'dcsim reproduce'}</code>
        {report.date && ` on ${report.date}`}
        {report.engine && ` (dcsim ${report.engine})`}: {report.runs} runs on {report.threads} {report.threads === 1 ? 'thread' : 'threads'} in {minutes(report.wall_s)}, at{' '}
        {report.mode || 'an unstated'} size.
      </p>
      {report.mode === 'quick' && (
        <p className="banner warn" data-testid="report-quick">
          This report was made at quick size: fewer seeds and shorter runs than the full report, so more intervals are wide and some verdicts may change at full size.
        </p>
      )}
      <div className="tallies" data-testid="report-tally">
        <p>
          <strong>The papers this project reproduces:</strong> <TallyLine t={source} />
        </p>
        {other.claims > 0 && (
          <p>
            <strong>Claims from other papers:</strong> <TallyLine t={other} />
          </p>
        )}
        {!(same(stated.source, source) && same(stated.other, other)) && (
          <p className="banner error" data-testid="report-tally-mismatch">
            The report's own tally ("{report.tally.source}"; other papers: "{report.tally.other}") does not match its claims: the counts above are recounted from the claims.
          </p>
        )}
      </div>
      <HowToRead />
      <RulesTable rules={report.rules} />
      <div className="report-filters" role="group" aria-label="show claims by verdict and paper">
        <label>
          Verdict{' '}
          <select data-testid="filter-verdict" value={filter.verdict} onChange={(e) => setFilter({ ...filter, verdict: e.target.value as ClaimFilter['verdict'] })}>
            <option value="all">all verdicts</option>
            {VERDICTS.map((v) => (
              <option key={v} value={v}>
                {VERDICT_MARK[v]} {v} ({claims.filter((c) => c.judged.verdict === v).length})
              </option>
            ))}
          </select>
        </label>
        <label>
          Paper{' '}
          <select data-testid="filter-paper" value={filter.paper} onChange={(e) => setFilter({ ...filter, paper: e.target.value })}>
            <option value="all">all papers</option>
            {papers.map((p) => (
              <option key={p} value={p}>
                {p} ({claims.filter((c) => c.paper === p).length})
              </option>
            ))}
          </select>
        </label>
        <span role="status" data-testid="filter-count">
          showing {shown.length} of {claims.length} claims
        </span>
      </div>
      {groups.source.map((g) => (
        <PaperSection key={`s-${g.paper}`} group={g} rules={rules} other={false} />
      ))}
      {groups.other.length > 0 && (
        <div className="other-papers" data-testid="report-other">
          <p className="narration">
            The claims below come from papers this project does not reproduce as a whole (they are the baselines' own papers); they are judged the same way and
            counted apart.
          </p>
          {groups.other.map((g) => (
            <PaperSection key={`o-${g.paper}`} group={g} rules={rules} other={true} />
          ))}
        </div>
      )}
      {shown.length === 0 && <p data-testid="report-none">No claim has this verdict for this paper.</p>}
    </section>
  );
}

/** How to read the verdicts and the charts, once, with a drawn example of band, interval and marks. */
function HowToRead() {
  return (
    <details className="how-to-read" open>
      <summary>How to read a claim</summary>
      <p>
        Each claim quotes the paper's sentence, says how its words are read into a bound (by the rules below, the same for every claim, with no slack added),
        and measures the number over several seeds. The 95% confidence interval of that number is then compared with the bound:
      </p>
      <ul>
        {VERDICTS.map((v) => (
          <li key={v}>
            <VerdictBadge verdict={v} />: {VERDICT_MEANING[v]}.
          </li>
        ))}
      </ul>
      <svg className="legend-chart" viewBox="0 0 640 52" role="img" aria-label="Legend: the grey band is the paper's bound; the black bar is dcsim's 95% interval, the marker its mean, the small circles each seed; the mark on the right says inside, outside, or cannot tell.">
        <line x1={30} x2={130} y1={17} y2={17} stroke="#111" strokeWidth={3} />
        <line x1={30} x2={30} y1={11} y2={23} stroke="#111" strokeWidth={2} />
        <line x1={130} x2={130} y1={11} y2={23} stroke="#111" strokeWidth={2} />
        <Marker fit="fails" x={80} y={17} />
        {[48, 72, 104].map((cx) => (
          <circle key={cx} cx={cx} cy={31} r={2.6} fill="none" stroke="#52606d" strokeWidth={1.2} />
        ))}
        <text x={4} y={48} className="lg">
          dcsim: 95% interval, mean, seeds
        </text>
        <rect x={215} y={8} width={170} height={18} fill={BAND} />
        <line x1={215} x2={215} y1={6} y2={28} stroke={EDGE} strokeWidth={2} />
        <line x1={385} x2={385} y1={6} y2={28} stroke={EDGE} strokeWidth={2} strokeDasharray="4 3" />
        <text x={215} y={48} className="lg">
          the paper's bound (solid edge: in, dashed: out)
        </text>
        <Marker fit="holds" x={428} y={17} />
        <text x={440} y={22} className="lg">
          inside
        </text>
        <Marker fit="fails" x={490} y={17} />
        <text x={502} y={22} className="lg">
          outside
        </text>
        <Marker fit="straddles" x={560} y={17} />
        <text x={572} y={22} className="lg">
          can't tell
        </text>
      </svg>
    </details>
  );
}

/** The rules table: how each kind of the papers' words is read, and why, once for the whole report. */
function RulesTable({ rules }: { rules: Rule[] }) {
  return (
    <details className="rules" data-testid="report-rules" open>
      <summary>How the papers' words are read ({rules.length} rules, the same for every claim)</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">The papers' words</th>
            <th scope="col">Read as</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((r) => (
            <tr key={r.rule} data-testid={`rule-${r.rule}`}>
              <th scope="row">{r.name}</th>
              <td>{r.words}</td>
              <td>{r.reading}</td>
              <td>{r.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** One paper's claims, under a heading with its tally. */
function PaperSection({ group, rules, other }: { group: PaperGroup; rules: Map<string, Rule>; other: boolean }) {
  const id = `paper-${other ? 'other-' : ''}${group.paper.replace(/[^A-Za-z0-9]+/g, '-')}`;
  return (
    <section className="paper-group" aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`}>
        {other ? 'Other papers: ' : ''}
        {group.cite || group.paper}
      </h2>
      <p className="paper-tally">
        <TallyLine t={tally(group.claims)} />
      </p>
      {group.claims.map((c) => (
        <ClaimCard key={c.id} claim={c} rules={rules} />
      ))}
    </section>
  );
}

/** One claim: where it is, the quote, the statement, the readings, the verdict, the checks (charts and words), the settings and the sensitivity table. */
export function ClaimCard({ claim: c, rules }: { claim: Claim; rules: Map<string, Rule> }) {
  const seeds = seedCount(c.size);
  const j = c.judged;
  const groups = checkGroups(c.readings, j);
  const hid = `${claimElementId(c.id)}-title`;
  return (
    <article className={`claim v-${j.verdict.replace(' ', '-')}`} id={claimElementId(c.id)} tabIndex={-1} data-testid={`claim-${c.id}`} data-verdict={j.verdict} aria-labelledby={hid}>
      <h3 id={hid}>
        <VerdictBadge verdict={j.verdict} text={j.verdict_text} /> <span className="claim-place">{claimPlace(c)}</span> <span className="claim-id">{c.id}</span>
      </h3>
      <p className="claim-value" data-testid={`claim-${c.id}-verdict`}>
        <strong>
          Verdict: {VERDICT_MARK[j.verdict]} {j.verdict_text || j.verdict}
        </strong>
        {j.value && <> — dcsim: {j.value}</>}
        <a className="claim-link" href={claimHref(c.id)}>
          link to {c.id}
        </a>
      </p>
      <blockquote className="quote" data-testid={`claim-${c.id}-quote`}>
        <p>{c.quote}</p>
      </blockquote>
      <p className="quote-source">
        — {c.cite || c.paper}
        {c.section && `, section ${c.section}`}
        {c.figure && `, ${c.figure}`}:{' '}
        <span data-testid={`claim-${c.id}-excerpt`}>{c.in_excerpt ? 'in the excerpts' : 'outside the excerpts: cited from the paper'}</span>
      </p>
      <p className="statement">
        <strong>What is tested:</strong> {c.statement}
      </p>
      <dl className="three-values" data-testid={`claim-${c.id}-values`}>
        <dt>The paper</dt>
        <dd>{c.statement || c.quote}</dd>
        <dt>The pHost authors' simulator</dt>
        <dd data-testid="claim-authors">{c.authors_simulator ?? 'not run on this claim'}</dd>
        <dt>dcsim</dt>
        <dd>{j.value || 'no value'}</dd>
      </dl>
      {c.readings.length > 0 && (
        <table className="readings">
          <caption>How the paper's words are read</caption>
          <thead>
            <tr>
              <th scope="col">The paper's words</th>
              <th scope="col">The quantity</th>
              <th scope="col">The bound</th>
              <th scope="col">Rule</th>
            </tr>
          </thead>
          <tbody>
            {c.readings.map((r) => (
              <tr key={r.key}>
                <td>“{r.says}”</td>
                <td>{r.of}</td>
                <td>{r.bound}</td>
                <td>{rules.get(r.rule)?.name ?? r.rule}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4>The checks</h4>
      {groups.length === 0 && <p>No check was made.</p>}
      {groups.map((g) => (
        <CheckGroupView key={g.key} claim={c} group={g} seeds={seeds} rules={rules} />
      ))}
      {c.discussion && (
        <>
          <h4>What was checked, what the data suggest</h4>
          <p className="discussion" data-testid="claim-discussion">
            {c.discussion}
          </p>
        </>
      )}
      {c.cause && (
        <>
          <h4>Why it does not agree: {c.cause.name}</h4>
          <p className="cause" data-testid="claim-cause" data-cause={c.cause.kind}>
            {c.cause.why}
          </p>
        </>
      )}
      {j.notes.length > 0 && (
        <>
          <h4>Notes</h4>
          <ul className="notes">
            {j.notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </>
      )}
      <h4>The setting</h4>
      <dl className="setting">
        <dt>This report's runs</dt>
        <dd>
          {c.size || 'not stated'}
          {c.scenarios.length > 0 && (
            <>
              {' '}
              (scenario{c.scenarios.length > 1 ? 's' : ''} {c.scenarios.map((s, i) => [i > 0 && ', ', <code key={s}>{s}</code>])})
            </>
          )}
        </dd>
        <dt>The paper's runs</dt>
        <dd>{c.paper_size || 'not stated'}</dd>
        <dt>Where dcsim's setting differs from the paper's</dt>
        <dd>
          {c.deviations.length ? (
            <ul>
              {c.deviations.map((d, i) => (
                <li key={i}>{d}</li>
              ))}
            </ul>
          ) : (
            'nowhere stated'
          )}
        </dd>
        <dt>Settings applied for this claim</dt>
        <dd>
          {c.applied.length ? (
            <ul>
              {c.applied.map((s, i) => (
                <li key={i}>
                  <code>
                    {s.path} = {s.value}
                  </code>
                  {s.why && `: ${s.why}`}
                </li>
              ))}
            </ul>
          ) : (
            "none: the scenario's own"
          )}
        </dd>
      </dl>
      <Sensitivity claim={c} seeds={seeds} rules={rules} />
    </article>
  );
}

/** One group of checks (one reading): what the paper's words say, the chart, and each check in a sentence. */
function CheckGroupView({ claim: c, group: g, seeds, rules }: { claim: Claim; group: CheckGroup; seeds: number | null; rules: Map<string, Rule> }) {
  const r = g.reading;
  const ruleName = r ? (rules.get(r.rule)?.name ?? r.rule) : undefined;
  return (
    <figure className="check-group" data-testid={`claim-${c.id}-group-${g.key}`}>
      <figcaption>
        {r ? (
          <>
            “{r.says}” → {r.of}: <strong>{r.bound}</strong> ({ruleName})
          </>
        ) : (
          <>checks {g.key}</>
        )}
      </figcaption>
      <CheckChart group={g} seeds={seeds} />
      <ul className="checks">
        {g.checks.map((k, i) => (
          <li key={i} data-fit={k.fit}>
            {k.what}: {describeCheck(k, g.checks.length === 1 ? { seeds, reading: r, ruleName } : { seeds })}
          </li>
        ))}
      </ul>
    </figure>
  );
}

const BAND = '#c9d6e3';
const EDGE = '#243b53';
const FIT_COLOR: Record<string, string> = { holds: '#17612c', fails: '#a4201a', straddles: '#7a4b00' };
/** The chart's size, in viewBox units (the SVG scales with the page). */
export const CHECK_CHART = { width: 640, left: 10, right: 118, top: 8, row: 46, axis: 34 };

/** A check's mean, drawn by its fit: a filled circle (inside), a cross (outside), an open diamond (cannot tell). */
function Marker({ fit, x, y }: { fit: string; x: number; y: number }) {
  const col = FIT_COLOR[fit] ?? '#444';
  if (fit === 'fails')
    return (
      <path className="mk mk-fails" d={`M${x - 6},${y - 6}L${x + 6},${y + 6}M${x - 6},${y + 6}L${x + 6},${y - 6}`} stroke={col} strokeWidth={3.5} fill="none" />
    );
  if (fit === 'straddles') return <path className="mk mk-straddles" d={`M${x},${y - 7}L${x + 7},${y}L${x},${y + 7}L${x - 7},${y}Z`} stroke={col} strokeWidth={2.5} fill="#fff" />;
  return <circle className={`mk mk-${fit === 'holds' ? 'holds' : 'other'}`} cx={x} cy={y} r={5.5} fill={fit === 'holds' ? col : '#fff'} stroke={col} strokeWidth={2} />;
}

/**
 * One chart per check group: a row per check, the paper's bound as an
 * opaque band (its edges solid where included, dashed where not; a
 * one-sided bound runs to the chart's edge), dcsim's 95% interval as an
 * error bar with its mean marked by fit, each sample as a small circle,
 * and the fit in a mark and a word at the right. Scales with d3; log when
 * the values span a factor of 10 or more.
 */
export function CheckChart({ group, seeds = null }: { group: CheckGroup; seeds?: number | null }) {
  const m = chartModel(group.checks);
  const { width: W, left, right, top, row, axis } = CHECK_CHART;
  const x0 = left;
  const x1 = W - right;
  const x = m.scale === 'log' ? scaleLog().domain(m.domain).range([x0, x1]) : scaleLinear().domain(m.domain).range([x0, x1]).nice();
  const [d0, d1] = x.domain() as [number, number];
  const H = top + m.rows.length * row + axis;
  const ticks = m.scale === 'log' ? logTicks(x as ReturnType<typeof scaleLog>) : (x as ReturnType<typeof scaleLinear>).ticks(5);
  const clamp = (v: number) => Math.max(x0, Math.min(x1, x(v)));
  return (
    <svg className="check-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Chart: ${chartSummary(group)}${m.scale === 'log' ? ' (log scale)' : ''}`} data-scale={m.scale}>
      {ticks.map((t) => (
        <line key={`g${t}`} x1={x(t)} x2={x(t)} y1={top} y2={H - axis} stroke="#e4e7eb" />
      ))}
      {m.rows.map((r, i) => {
        const y = top + i * row + 30;
        const k = r.check;
        const b = k.bound;
        const bl = b.lo === null ? x0 : clamp(b.lo);
        const bh = b.hi === null ? x1 : clamp(b.hi);
        const iv = k.interval;
        const f = fitWords(k.fit);
        const label = r.label.length > 88 ? `${r.label.slice(0, 86)}…` : r.label;
        return (
          <g key={i} className="check-row" data-fit={k.fit}>
            <title>{`${r.full}: ${describeCheck(k, { seeds })}`}</title>
            <text x={x0} y={y - 15} className="row-label">
              {label}
            </text>
            <rect className="band" x={bl} y={y - 9} width={Math.max(bh - bl, 2)} height={18} fill={BAND} data-lo={b.lo ?? ''} data-hi={b.hi ?? ''} />
            {b.lo !== null && b.lo >= d0 && b.lo <= d1 && <line className="edge" x1={x(b.lo)} x2={x(b.lo)} y1={y - 11} y2={y + 11} stroke={EDGE} strokeWidth={2} strokeDasharray={b.lo_open ? '4 3' : undefined} />}
            {b.hi !== null && b.hi >= d0 && b.hi <= d1 && <line className="edge" x1={x(b.hi)} x2={x(b.hi)} y1={y - 11} y2={y + 11} stroke={EDGE} strokeWidth={2} strokeDasharray={b.hi_open ? '4 3' : undefined} />}
            {(k.samples.length <= MAX_SAMPLES_DRAWN ? k.samples : []).map((s, j) => (
              <circle key={j} className="sample" cx={clamp(s)} cy={y + 14} r={2.6} fill="none" stroke="#52606d" strokeWidth={1.2} />
            ))}
            {iv && (
              <g className="interval" data-lo={iv.lo} data-hi={iv.hi}>
                <line x1={clamp(iv.lo)} x2={clamp(iv.hi)} y1={y} y2={y} stroke="#111" strokeWidth={3} />
                <line x1={clamp(iv.lo)} x2={clamp(iv.lo)} y1={y - 6} y2={y + 6} stroke="#111" strokeWidth={2} />
                <line x1={clamp(iv.hi)} x2={clamp(iv.hi)} y1={y - 6} y2={y + 6} stroke="#111" strokeWidth={2} />
                <Marker fit={k.fit} x={clamp(iv.mean)} y={y} />
              </g>
            )}
            <text x={x1 + 12} y={y + 5} className="fit-label" fill={FIT_COLOR[k.fit] ?? '#333'}>
              {f.mark} {f.word}
            </text>
          </g>
        );
      })}
      <g className="x-axis" transform={`translate(0,${H - axis})`}>
        <line x1={x0} x2={x1} stroke="#52606d" />
        {ticks.map((t) => (
          <g key={t} transform={`translate(${x(t)},0)`}>
            <line y2={5} stroke="#52606d" />
            <text y={19} textAnchor="middle" className="tick">
              {fmt(t, 3)}
            </text>
          </g>
        ))}
        {m.scale === 'log' && (
          <text x={x1} y={32} textAnchor="end" className="tick">
            log scale
          </text>
        )}
      </g>
    </svg>
  );
}

/** Ticks for a log axis: the powers of ten inside it, with 2 and 5 between them when there are few. */
function logTicks(x: ReturnType<typeof scaleLog>): number[] {
  const [a, b] = x.domain() as [number, number];
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(a)); e <= Math.ceil(Math.log10(b)); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= a && v <= b) out.push(Number(v.toPrecision(3)));
    }
  }
  const powers = out.filter((v) => Number.isInteger(Math.log10(v)));
  return powers.length >= 3 ? powers : out;
}

/** The sensitivity table: the verdict as reported and under each variant (another reading of an open choice), with the checks under each. */
function Sensitivity({ claim: c, seeds, rules }: { claim: Claim; seeds: number | null; rules: Map<string, Rule> }) {
  if (c.variants.length === 0)
    return (
      <p className="sensitivity-none" data-testid={`claim-${c.id}-sensitivity`}>
        <strong>Sensitivity:</strong> the report varies no open choice for this claim.
      </p>
    );
  const row = (name: string, why: string, settings: Claim['applied'], j: Judged, key: string) => (
    <tr key={key}>
      <th scope="row">
        {name}
        {why && <div className="why">{why}</div>}
      </th>
      <td>
        {settings.length
          ? settings.map((s, i) => (
              <div key={i}>
                <code>
                  {s.path} = {s.value}
                </code>
                {s.why && ` (${s.why})`}
              </div>
            ))
          : '—'}
      </td>
      <td>
        <VerdictBadge verdict={j.verdict} text={j.verdict_text} />
      </td>
      <td>{j.value}</td>
    </tr>
  );
  return (
    <>
      <table className="sensitivity" data-testid={`claim-${c.id}-sensitivity`}>
        <caption>Sensitivity: the verdict under other readings of the open choices</caption>
        <thead>
          <tr>
            <th scope="col">Reading</th>
            <th scope="col">Settings</th>
            <th scope="col">Verdict</th>
            <th scope="col">dcsim</th>
          </tr>
        </thead>
        <tbody>
          {row('as reported', "the report's default settings", c.applied, c.judged, 'default')}
          {c.variants.map((v, i) => row(v.name, v.why, v.settings, v.judged, `v${i}`))}
        </tbody>
      </table>
      {c.variants.map((v, i) => (
        <details key={i} className="variant-checks">
          <summary>The checks under “{v.name}”</summary>
          <ul className="checks">
            {v.judged.checks.map((k, n) => {
              const r = c.readings.find((q) => q.key === k.reading);
              return (
                <li key={n} data-fit={k.fit}>
                  {k.what}: {describeCheck(k, { seeds, reading: r, ruleName: r ? (rules.get(r.rule)?.name ?? r.rule) : undefined })}
                </li>
              );
            })}
          </ul>
          {v.judged.notes.length > 0 && (
            <ul className="notes">
              {v.judged.notes.map((n, k) => (
                <li key={k}>{n}</li>
              ))}
            </ul>
          )}
        </details>
      ))}
    </>
  );
}
