// The paper gallery (`#gallery`, `#gallery=<figure>`, `#claim=<id>`): the
// fidelity report's every claim (docs/fidelity.json, drawn by Report.tsx),
// and the seed papers' headline figures run live as sweeps in the page
// (web/src/sweep: one worker per point, to the end, trace off) with what
// the papers state overlaid, each point said to lie inside or outside the
// paper's bound as the report's rules read it (no slack), and a link to
// the report's verdict: a live run is one seed per point, too small to
// judge.

import { downloadCsvReadme } from '../export/readme';
import { useEffect, useMemo, useRef, useState } from 'react';
import { area, axisBottom, axisLeft, line, scaleLinear, scaleLog, select, symbol, symbolCircle, symbolCross, symbolDiamond, symbolSquare, symbolStar, symbolTriangle, symbolWye, type SymbolType } from 'd3';
import { downloadCsv, downloadSvg } from '../export/download';
import { parallelism, type SweepResult } from '../sweep/sweep';
import { useSweep } from '../sweep/useSweep';
import { applyPalette, runColor } from '../views/palette';
import { loadDisplay } from '../views/display';
import { sig } from '../format/format';
import { CHART_H, CHART_W, PLOT_H, PLOT_W, chartFrame, setEmpty } from '../views/charts/chartFrame';
import { FIGURES, figureCsv, figurePoints, type Figure, type FigurePoint } from './figures';
import { PUBLISHED, type Published } from './published';
import { boundText, relativeBack, relativeText, verdict, type SimSeries, type Verdict } from './verdict';
import { ReportView, VerdictBadge, useReport } from './Report';
import { claimHref, claimsFor, type Claim, type Report } from './report';
import './gallery.css';

/** The browser's local storage, or null where it is refused. */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The whole gallery page; `focus` is the live figure the address names, `claim` the report's claim. */
export function Gallery({ focus, claim = null }: { focus: string | null; claim?: string | null }) {
  useState(() => applyPalette(loadDisplay(window.location.hash, storage()).palette));
  const { report, error } = useReport();
  return (
    <div className="app gallery" data-testid="gallery">
      <header>
        <h1>dcsim: the papers' claims and figures</h1>
        <a href="#" data-testid="gallery-back">
          ← back to the simulator
        </a>
      </header>
      <p className="narration">
        How closely does this simulator reproduce the papers it teaches? First, the fidelity report (<code>dcsim reproduce</code>): every claim it tests, with the
        paper's own sentence, how its words are read into a bound, and the verdict from several seeds. Then the papers' headline figures, which you can run
        here in your browser: small runs in seconds, the paper's size in minutes.
      </p>
      <nav aria-label="gallery contents">
        <ul className="gallery-index">
          <li>
            <a href="#gallery" onClick={() => document.getElementById('report-title')?.scrollIntoView()}>
              The fidelity report
            </a>
          </li>
          {FIGURES.map((f) => (
            <li key={f.id}>
              <a href={`#gallery=${f.id}`} aria-current={f.id === focus ? 'true' : undefined}>
                live: {f.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {error && (
        <p className="banner error" data-testid="report-error">
          The fidelity report could not be read: {error}
        </p>
      )}
      {!report && !error && (
        <p role="status" data-testid="report-loading">
          loading the fidelity report…
        </p>
      )}
      {report && <ReportView report={report} focus={claim} />}
      <section className="live-figures" aria-labelledby="live-title">
        <h2 id="live-title">The papers' figures, run live</h2>
        <p className="narration">
          Each figure runs here as a sweep on the engine in your browser. What the paper states is overlaid: its printed numbers as black diamonds, and its
          claims as opaque bands (the paper's bound, as the report's rules read its words, with no slack) or as lines under the chart. Every point is said to
          lie inside or outside that bound; a live run is one seed per point, so the verdict is the report's, linked beside each series.
        </p>
        {FIGURES.map((f) => (
          <FigureCard key={f.id} figure={f} focused={f.id === focus} report={report} />
        ))}
      </section>
    </div>
  );
}

/** Simulated values by series and x, from the finished points. */
function simSeries(f: Figure, points: FigurePoint[], results: (SweepResult | undefined)[]): Map<string, SimSeries> {
  const m = new Map<string, SimSeries>(f.protocols.map((p) => [p, new Map()]));
  results.forEach((r, i) => {
    const v = r ? f.y.value(r.summary) : null;
    if (v !== null && v !== undefined && Number.isFinite(v)) m.get(points[i].protocol)!.set(points[i].x, v);
  });
  return m;
}

/** The report's verdicts a series' entries point at, as links: "small live run — see the report's verdict: ✗ differs (claim)". */
function ReportLinks({ entries, report }: { entries: Published[]; report: Report | null }) {
  if (entries.length === 0) return null;
  if (!report) return <span className="report-links"> Small live run — the report's verdict is loading.</span>;
  const claims: Claim[] = [];
  for (const e of entries) for (const c of claimsFor(report, e.report)) if (!claims.includes(c)) claims.push(c);
  if (claims.length === 0)
    return <span className="report-links"> Small live run, and the report has no claim on {entries[0].report.paper} {entries[0].report.figure ?? ''} yet: no verdict.</span>;
  return (
    <span className="report-links">
      {' '}
      Small live run — see the report's verdict:{' '}
      {claims.map((c, i) => (
        <span key={c.id}>
          {i > 0 && ', '}
          <a href={claimHref(c.id)} data-testid={`report-link-${c.id}`}>
            <VerdictBadge verdict={c.judged.verdict} text={c.judged.verdict_text} /> ({c.id})
          </a>
        </span>
      ))}
      .
    </span>
  );
}

/** A series' status in a mark and words. */
function statusWords(v: Verdict): string {
  if (v.status === 'inside') return "✓ this run lies inside the paper's bounds";
  if (v.status === 'outside') return "✗ this run lies outside the paper's bound";
  if (v.status === 'pending') return 'not compared yet';
  return 'nothing published about this series';
}

/** One figure: caption, controls, chart, where each series lies against the paper, and the published claims with their sources. */
function FigureCard({ figure: f, focused, report }: { figure: Figure; focused: boolean; report: Report | null }) {
  const [size, setSize] = useState<'small' | 'paper'>('small');
  const { run, running, error, done, finished, start, cancel } = useSweep<FigurePoint>();
  const card = useRef<HTMLElement>(null);
  const published = PUBLISHED[f.id] ?? [];
  useEffect(() => {
    if (focused) card.current?.scrollIntoView({ block: 'start' });
  }, [focused]);
  const sim = useMemo(() => (run ? simSeries(f, run.points, run.results) : new Map<string, SimSeries>()), [f, run]);
  const verdicts = useMemo(() => f.protocols.map((p) => verdict(p, published, sim, f.x.text)), [f, published, sim]);
  const xs = run ? [...new Set(run.points.map((p) => p.x))] : f[size].xs;
  const id = `gallery-${f.id}`;

  return (
    <section ref={card} className={focused ? 'figure focused' : 'figure'} id={id} data-testid={id} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{f.title}</h3>
      <p className="cites">{f.cites}</p>
      <p className="caption">{f.caption}</p>
      <div className="sweep-controls">
        <label>
          size{' '}
          <select data-testid={`${id}-size`} value={size} onChange={(e) => setSize(e.target.value as 'small' | 'paper')} disabled={running}>
            <option value="small">small: {f.small.note}</option>
            <option value="paper">paper size: {f.paper.note}</option>
          </select>
        </label>
        {running ? (
          <button data-testid={`${id}-cancel`} onClick={cancel}>
            Cancel
          </button>
        ) : (
          <button data-testid={`${id}-run`} onClick={() => start(figurePoints(f, f[size]))}>
            Run this figure
          </button>
        )}
        <button
          data-testid={`${id}-csv`}
          disabled={!finished}
          onClick={() => downloadCsv(`gallery_${f.id}_${size}.csv`, figureCsv(f, run!.results as SweepResult[], run!.points.map((p) => p.x)))}
          title="one summary row per protocol and x, the columns of dcsim sweep"
        >
          sweep.csv
        </button>
        <button data-testid={`${id}-readme`} onClick={downloadCsvReadme} title="what every column of the CSV means, with its unit">
          README.md
        </button>
        <button disabled={!run || done === 0} onClick={() => downloadSvg(`chart-${id}`, `gallery_${f.id}_${size}.svg`)}>
          SVG
        </button>
        {run && (
          <span data-testid={`${id}-progress`} role="status">
            {done} of {run.points.length} runs{running ? ` (${parallelism()} at a time, each to the end)` : finished ? ' · done' : ''}
          </span>
        )}
      </div>
      {error && (
        <em className="error" data-testid={`${id}-error`}>
          {error}
        </em>
      )}
      <FigureChart figure={f} id={`chart-${id}`} sim={sim} xs={xs} published={published} verdicts={verdicts} />
      <ul className="verdicts" data-testid={`${id}-verdicts`} aria-label="each series against the paper">
        {verdicts.map((v) => {
          const mine = published.filter((p) => p.series === v.series);
          return (
            <li key={v.series} data-testid={`${id}-verdict-${v.series}`} data-status={v.status} className={`verdict ${v.status}`}>
              <strong>{v.series}</strong>: <span data-testid={`${id}-status-${v.series}`}>{statusWords(v)}</span>
              {v.status !== 'none' && '.'}
              <ReportLinks entries={mine} report={report} />
              {v.checks.length > 0 && (
                <ul className="live-checks">
                  {v.checks.map((c, i) => (
                    <li key={i} data-status={c.status}>
                      {c.text}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <details className="sources">
        <summary>What the paper states, read by the report's rules, and the sources</summary>
        {published.length === 0 ? (
          <p>nothing published is entered for this figure</p>
        ) : (
          <ul>
            {published.map((p, i) => (
              <li key={i}>
                {describe(p)}. Source: {p.source.paper}, {p.source.where}; quoted in {p.source.quotedIn}.
              </li>
            ))}
          </ul>
        )}
      </details>
    </section>
  );
}

/** A published entry in words: the quantity, the bound, the paper's words and the rule. */
function describe(p: Published): string {
  const q = p.kind === 'relative' ? relativeText(p) : p.kind === 'value' ? `${p.series}: ${p.quantity.text}` : `${p.series} at the fewest minus at the most`;
  const ends = p.kind === 'relative' && p.ends ? `; smallest over the axis ${boundText(p.ends.smallest)}, largest ${boundText(p.ends.largest)}` : '';
  const pts = p.kind === 'value' && p.points.length ? `; the paper prints ${p.points.map((d) => `${sig(d.y)} at x = ${d.x}`).join(', ')}` : '';
  return `${q} ${boundText(p.bound)}${ends}${pts} (the paper: "${p.says}"; rule: ${p.rule}; slack ${p.slack})`;
}

/** The series' markers and dashes: each distinct, so that no series hides another (Ideal under pFabric). */
const SYMBOLS: SymbolType[] = [symbolCircle, symbolSquare, symbolTriangle, symbolDiamond, symbolCross, symbolStar, symbolWye];
const DASHES = [null, '7 4', '2 3', '10 3 2 3', '4 2', null, '1 2'];

/** Mixes a colour with white: an opaque tint for the paper's bands. */
function tint(color: string, white = 0.72): string {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (!m) return '#d9e2ec';
  const n = parseInt(m[1], 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v + (255 - v) * white));
  return `rgb(${c.join(',')})`;
}

/** Labelled ticks for a log axis: 1, 2, 3, 5 in each decade when they fit, else 1, 2, 5, else powers of ten. */
function logTickValues([a, b]: [number, number]): number[] {
  const pick = (ms: number[]) => {
    const out: number[] = [];
    for (let e = Math.floor(Math.log10(a)); e <= Math.ceil(Math.log10(b)); e++) for (const m of ms) {
      const v = Number((m * 10 ** e).toPrecision(3));
      if (v >= a && v <= b) out.push(v);
    }
    return out;
  };
  for (const ms of [[1, 1.5, 2, 3, 5, 7], [1, 2, 3, 5], [1, 2, 5], [1]]) {
    const t = pick(ms);
    if (t.length <= 8) return t;
  }
  return pick([1]);
}

/** Legend entries laid out in rows across the plot's top: each entry's offset, and the height taken. */
function legendLayout(labels: string[]): { at: [number, number][]; height: number } {
  const at: [number, number][] = [];
  let x = 0;
  let row = 0;
  for (const l of labels) {
    const w = 34 + 7 * l.length;
    if (x > 0 && x + w > PLOT_W - 16) {
      x = 0;
      row++;
    }
    at.push([x, row * 16]);
    x += w + 10;
  }
  return { at, height: labels.length ? (row + 1) * 16 + 8 : 0 };
}

interface Dot {
  protocol: string;
  color: string;
  i: number;
  x: number;
  value: number;
}

interface Band {
  key: string;
  color: string;
  /** Where along x, in data units, and its bounds in y (before the figure's scale). */
  pts: { x: number; lo: number; hi: number }[];
}

/**
 * The chart: each series with its own marker, dash and width, drawn first
 * to last with the widest first so later ones sit on top and every one
 * shows (Ideal under pFabric); categories as points dodged side by side,
 * never joined by lines; the paper's two-sided bounds as opaque bands
 * beneath the series, its numbers as black diamonds.
 */
function FigureChart({ figure: f, id, sim, xs, published, verdicts }: { figure: Figure; id: string; sim: Map<string, SimSeries>; xs: number[]; published: Published[]; verdicts: Verdict[] }) {
  const ref = useRef<SVGSVGElement>(null);
  const k = f.y.scale ?? 1;
  const series = useMemo(
    () =>
      f.protocols.map((p, i) => ({
        protocol: p,
        i,
        // Each protocol's colour from its descriptor (the two flow-level bounds share Ideal's black).
        color: runColor(p, i),
        points: [...(sim.get(p) ?? new Map<number, number>()).entries()].map(([x, value]) => ({ x, value })).sort((a, b) => a.x - b.x),
      })),
    [f, sim],
  );
  useEffect(() => {
    const c = chartFrame(select(ref.current!), f.title.replace(/^[^:]*: /, ''), f.x.label, f.y.label);
    const cats = f.x.categories;
    const paperPts = published.flatMap((p) => (p.kind === 'value' ? p.points.map((q) => ({ ...q, series: p.series })) : []));
    const color = (p: string) => series.find((s) => s.protocol === p)?.color ?? '#000';
    // Bands: two-sided bounds only (an ordering's band would cover half the chart), around the reference series or at the paper's points.
    const bands: Band[] = published.flatMap((p): Band[] => {
      if (p.bound.lo === null || p.bound.hi === null) return [];
      const lo = p.bound.lo;
      const hi = p.bound.hi;
      if (p.kind === 'relative') {
        const refPts = series.find((s) => s.protocol === p.reference)?.points ?? [];
        const pts = refPts.filter((d) => (p.xMin === undefined || d.x >= p.xMin) && (p.xMax === undefined || d.x <= p.xMax));
        const ys = (r: number) => [relativeBack(p.quantity, lo, r), relativeBack(p.quantity, hi, r)].sort((a, b) => a - b);
        return pts.length ? [{ key: `${p.series}/${p.reference}/${lo}/${hi}`, color: color(p.series), pts: pts.map((d) => ({ x: d.x, lo: ys(d.value)[0], hi: ys(d.value)[1] })) }] : [];
      }
      if (p.kind === 'value') {
        const at = p.at ?? xs;
        return [{ key: `${p.series}/value/${lo}/${hi}`, color: color(p.series), pts: at.map((x) => ({ x, lo: p.quantity.back(lo), hi: p.quantity.back(hi) })) }];
      }
      return [];
    });
    const all = [...series.flatMap((s) => s.points.map((d) => d.value)), ...paperPts.map((d) => d.y), ...(series.some((s) => s.points.length) ? bands.flatMap((b) => b.pts.flatMap((d) => [d.lo, d.hi])) : [])];
    if (series.every((s) => s.points.length === 0) && paperPts.length === 0) {
      setEmpty(c, 'run the figure to draw it');
      return;
    }
    setEmpty(c, null);
    // The legend: each series' marker and dash, the paper's points and bands, in rows across the top of the plot (room is kept free for it).
    const entries = [
      ...series.map((s) => ({ label: s.protocol, color: s.color, i: s.i, kind: 'series' as const })),
      ...(paperPts.length ? [{ label: 'paper', color: '#000', i: -1, kind: 'paper' as const }] : []),
      ...(bands.length ? [{ label: "paper's bound", color: '#6b7785', i: -1, kind: 'band' as const }] : []),
    ];
    const place = legendLayout(entries.map((e) => e.label));
    c.legend.attr('transform', 'translate(8,2)');
    const rows = c.legend
      .selectAll<SVGGElement, (typeof entries)[number]>('g.legend-row')
      .data(entries)
      .join((enter) => {
        const row = enter.append('g').attr('class', 'legend-row');
        row.append('rect').attr('class', 'lg-band').attr('x', 0).attr('y', 1).attr('width', 22).attr('height', 10);
        row.append('line').attr('x1', 0).attr('x2', 22).attr('y1', 6).attr('y2', 6);
        row.append('path').attr('class', 'lg-mark').attr('transform', 'translate(11,6)');
        row.append('text').attr('x', 28).attr('y', 10);
        return row;
      })
      .attr('transform', (_, i) => `translate(${place.at[i][0]},${place.at[i][1]})`);
    const n = series.length;
    const dodge = (i: number) => (cats ? (i - (n - 1) / 2) * Math.min(0.14, 0.7 / n) : 0);
    const x = cats
      ? scaleLinear().domain([-0.5, cats.length - 0.5]).range([0, PLOT_W])
      : f.x.column === null
        ? scaleLinear().domain([0, Math.max(...xs, 0.1) * 1.05]).range([0, PLOT_W])
        : scaleLinear().domain([0, Math.max(...xs) * 1.05]).range([0, PLOT_W]);
    const vals = all.map((v) => v * k);
    const min = Math.min(...vals);
    const max = Math.max(...vals);
    // Log where the values span about a decade or more (web search: Ideal near 1, TCP near 10), so the paper band around Ideal shows.
    const log = min > 0 && max / min >= 5;
    const lo = log ? min / 1.3 : f.y.fromZero === false ? min - (max - min) * 0.08 : 0;
    // The top `place.height` pixels are the legend's: the data's top sits below it.
    const room = PLOT_H / Math.max(PLOT_H - place.height, PLOT_H / 2);
    const y = log
      ? scaleLog()
          .domain([lo, lo * ((max * 1.15) / lo) ** room])
          .range([PLOT_H, 0])
      : scaleLinear()
          .domain([lo, max > lo ? lo + (max - lo) * 1.05 * room : lo + 1])
          .range([PLOT_H, 0]);
    const yTicks = log ? logTickValues(y.domain() as [number, number]) : null;
    c.grid.call((yTicks ? axisLeft(y).tickValues(yTicks) : axisLeft(y).ticks(5)).tickSize(-PLOT_W).tickFormat(() => ''));
    const ax = axisBottom(x);
    if (cats) ax.tickValues(cats.map((_, i) => i)).tickFormat((v) => cats[Number(v)] ?? '');
    else if (f.x.column !== null) ax.tickValues(xs).tickFormat((v) => String(v));
    else ax.ticks(5);
    c.xAxis.call(ax);
    c.yAxis.call(yTicks ? axisLeft(y).tickValues(yTicks).tickFormat((v) => String(Number(Number(v).toPrecision(3)))) : axisLeft(y).ticks(5));
    c.plot.attr('data-y-scale', log ? 'log' : 'linear');
    // Bands first, opaque, beneath everything.
    const yc = (v: number) => Math.max(0, Math.min(PLOT_H, y(v * k)));
    const bandArea = area<{ x: number; lo: number; hi: number }>()
      .x((d) => x(d.x))
      .y0((d) => yc(d.lo))
      .y1((d) => yc(d.hi));
    const half = cats ? (x(0.4) - x(0)) : 7;
    c.content
      .selectAll<SVGPathElement, Band>('path.paper-band')
      .data(bands, (b) => b.key)
      .join('path')
      .attr('class', 'paper-band')
      .attr('fill', (b) => tint(b.color))
      .attr('stroke', (b) => b.color)
      .attr('stroke-width', 1.5)
      .attr('d', (b) =>
        cats || b.pts.length === 1
          ? b.pts.map((d) => `M${x(d.x) - half},${yc(d.lo)}H${x(d.x) + half}V${Math.min(yc(d.hi), yc(d.lo) - 2)}H${x(d.x) - half}Z`).join('')
          : bandArea(b.pts),
      )
      .attr('data-series', (b) => b.key.split('/')[0]);
    // Lines (not for categories), the widest first.
    const path = line<{ x: number; value: number }>()
      .x((d) => x(d.x))
      .y((d) => y(d.value * k));
    c.content
      .selectAll<SVGPathElement, (typeof series)[number]>('path.sweep-line')
      .data(cats ? [] : series, (s) => s.protocol)
      .join('path')
      .attr('class', 'sweep-line')
      .attr('fill', 'none')
      .attr('stroke', (s) => s.color)
      .attr('stroke-width', (s) => Math.max(1.5, 4.5 - 1 * s.i))
      .attr('stroke-dasharray', (s) => DASHES[s.i % DASHES.length])
      .attr('d', (s) => path(s.points));
    const dots: Dot[] = series.flatMap((s) => s.points.map((d) => ({ ...d, protocol: s.protocol, color: s.color, i: s.i })));
    const size = (i: number) => Math.max(40, 130 - 22 * i);
    c.content
      .selectAll<SVGPathElement, Dot>('path.gallery-dot')
      .data(dots, (d) => `${d.protocol}-${d.x}`)
      .join((enter) => {
        const e = enter.append('path').attr('class', 'gallery-dot');
        e.append('title');
        return e;
      })
      .attr('d', (d) => symbol(SYMBOLS[d.i % SYMBOLS.length], size(d.i))())
      .attr('transform', (d) => `translate(${x(d.x + dodge(d.i))},${y(d.value * k)})`)
      .attr('fill', (d) => (d.i === 0 ? '#fff' : d.color))
      .attr('stroke', (d) => d.color)
      .attr('stroke-width', (d) => (d.i === 0 ? 2.5 : 1))
      .attr('data-protocol', (d) => d.protocol)
      .attr('data-x', (d) => f.x.csv(d.x))
      .attr('data-value', (d) => String(d.value))
      .select('title')
      .text((d) => `${d.protocol} at ${f.x.text(d.x)}: ${sig(d.value * k)}`);
    c.content
      .selectAll<SVGPathElement, (typeof paperPts)[number]>('path.paper-point')
      .data(paperPts, (d) => `${d.series}-${d.x}`)
      .join((enter) => {
        const e = enter.append('path').attr('class', 'paper-point').attr('d', symbol(symbolDiamond, 110)()).attr('fill', 'none').attr('stroke', '#000').attr('stroke-width', 2);
        e.append('title');
        return e;
      })
      .attr('transform', (d) => `translate(${x(d.x)},${y(d.y * k)})`)
      .attr('data-series', (d) => d.series)
      .attr('data-x', (d) => f.x.csv(d.x))
      .attr('data-value', (d) => String(d.y))
      .select('title')
      .text((d) => `paper: ${d.series} at ${f.x.text(d.x)}: ${sig(d.y * k)}`);
    rows
      .select('rect')
      .attr('display', (e) => (e.kind === 'band' ? null : 'none'))
      .attr('fill', tint('#6b7785'))
      .attr('stroke', '#6b7785');
    rows
      .select('line')
      .attr('display', (e) => (e.kind === 'series' && !cats ? null : 'none'))
      .attr('stroke', (e) => e.color)
      .attr('stroke-width', (e) => Math.max(1.5, 4.5 - e.i))
      .attr('stroke-dasharray', (e) => (e.kind === 'series' ? DASHES[e.i % DASHES.length] : null));
    rows
      .select('path')
      .attr('display', (e) => (e.kind === 'band' ? 'none' : null))
      .attr('d', (e) => (e.kind === 'paper' ? symbol(symbolDiamond, 70)() : symbol(SYMBOLS[e.i % SYMBOLS.length], 55)()))
      .attr('fill', (e) => (e.kind === 'paper' || e.i === 0 ? '#fff' : e.color))
      .attr('stroke', (e) => e.color)
      .attr('stroke-width', (e) => (e.kind === 'paper' || e.i === 0 ? 2 : 1));
    rows.select('text').text((e) => e.label);
  }, [f, series, xs, published, k]);
  const label = `${f.title}. ${verdicts.map((v) => `${v.series}: ${statusWords(v)}${v.checks.length ? `: ${v.text}` : ''}`).join('. ')}`;
  return <svg ref={ref} id={id} data-testid={id} className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label={label} />;
}
