// The paper figures page (`#gallery`, `#gallery=<id>`): each seed paper's
// headline figure as a sweep run in the page (web/src/sweep: one worker per
// point, to the end, trace off), the paper's published values or claims
// overlaid, and one verdict line per series computed from the sweep.

import { useEffect, useMemo, useRef, useState } from 'react';
import { area, axisBottom, axisLeft, line, scaleLinear, select, symbol, symbolDiamond } from 'd3';
import { downloadCsv, downloadSvg } from '../export/download';
import { parallelism, type SweepResult } from '../sweep/sweep';
import { useSweep } from '../sweep/useSweep';
import { applyPalette, runColor } from '../views/palette';
import { loadDisplay } from '../views/display';
import { sig } from '../views/format';
import { CHART_H, CHART_W, PLOT_H, PLOT_W, chartFrame, joinLines, legend, setEmpty } from '../views/charts/chartFrame';
import { FIGURES, figureCsv, figurePoints, type Figure, type FigurePoint } from './figures';
import { PUBLISHED, type Published } from './published';
import { num, verdict, type SimSeries, type Verdict } from './verdict';

/** The browser's local storage, or null where it is refused. */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The whole gallery page; `focus` is the figure the address names. */
export function Gallery({ focus }: { focus: string | null }) {
  useState(() => applyPalette(loadDisplay(window.location.hash, storage()).palette));
  return (
    <div className="app gallery" data-testid="gallery">
      <header>
        <h1>dcsim: paper figures</h1>
        <a href="#" data-testid="gallery-back">
          ← back to the simulator
        </a>
      </header>
      <p className="narration">
        Each seed paper's headline figure, run here as a sweep on the engine in your browser, with what the paper publishes overlaid: its numbers as black
        diamonds ("paper"), or, where the paper gives only a claim about one scheme against another, the claim as a shaded band and a check. Under each chart,
        one line per series says whether this simulator agrees with the paper, within the tolerance it states. The small size runs in seconds; the paper size
        takes minutes.
      </p>
      <nav aria-label="figures">
        <ul className="gallery-index">
          {FIGURES.map((f) => (
            <li key={f.id}>
              <a href={`#gallery=${f.id}`} aria-current={f.id === focus ? 'true' : undefined}>
                {f.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {FIGURES.map((f) => (
        <FigureCard key={f.id} figure={f} focused={f.id === focus} />
      ))}
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

/** One figure: caption, controls, chart, verdicts, and the published values with their sources. */
function FigureCard({ figure: f, focused }: { figure: Figure; focused: boolean }) {
  const [size, setSize] = useState<'small' | 'paper'>('small');
  const { run, running, error, done, finished, start, cancel } = useSweep<FigurePoint>();
  const card = useRef<HTMLElement>(null);
  const published = PUBLISHED[f.id] ?? [];
  useEffect(() => {
    if (focused) card.current?.scrollIntoView({ block: 'start' });
  }, [focused]);
  const sim = useMemo(() => (run ? simSeries(f, run.points, run.results) : new Map<string, SimSeries>()), [f, run]);
  const verdicts = useMemo(() => f.protocols.map((p) => verdict(p, published, sim, f.x.text, (v) => num(v * (f.y.scale ?? 1)) + (f.y.unit ?? ''))), [f, published, sim]);
  const xs = run ? [...new Set(run.points.map((p) => p.x))] : f[size].xs;
  const id = `gallery-${f.id}`;

  return (
    <section ref={card} className={focused ? 'figure focused' : 'figure'} id={id} data-testid={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{f.title}</h2>
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
      <ul className="verdicts" data-testid={`${id}-verdicts`} aria-label="verdicts">
        {verdicts.map((v) => (
          <li key={v.series} data-testid={`${id}-verdict-${v.series}`} data-status={v.status} className={`verdict ${v.status}`}>
            <strong>{v.series}</strong>: {v.text}
          </li>
        ))}
      </ul>
      <details className="sources">
        <summary>Published values and their sources</summary>
        {published.length === 0 ? (
          <p>no published values entered</p>
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

/** A published entry in words. */
function describe(p: Published): string {
  if (p.kind === 'points') return `${p.series}: ${p.points.map((q) => `${sig(q.y)} at x = ${q.x}`).join(', ')} (tolerance ${Math.round(p.tolerance * 100)}%)`;
  return `${p.claim}: ${p.series} / ${p.reference} in [${p.lo}, ${p.hi === Infinity ? '∞' : p.hi}]${p.xMin !== undefined ? ` from x = ${p.xMin}` : ''} (tolerance ${Math.round(p.tolerance * 100)}%)`;
}

interface Dot {
  protocol: string;
  color: string;
  x: number;
  value: number;
}

/** The chart: one line per series, the paper's points as diamonds and its ratio claims as bands. */
function FigureChart({ figure: f, id, sim, xs, published, verdicts }: { figure: Figure; id: string; sim: Map<string, SimSeries>; xs: number[]; published: Published[]; verdicts: Verdict[] }) {
  const ref = useRef<SVGSVGElement>(null);
  const k = f.y.scale ?? 1;
  const series = useMemo(
    () =>
      f.protocols.map((p, i) => ({
        protocol: p,
        color: runColor(p, i),
        points: [...(sim.get(p) ?? new Map<number, number>()).entries()].map(([x, value]) => ({ x, value })).sort((a, b) => a.x - b.x),
      })),
    [f, sim],
  );
  useEffect(() => {
    const c = chartFrame(select(ref.current!), f.title.replace(/^[^:]*: /, ''), f.x.label, f.y.label);
    const paperPts = published.flatMap((p) => (p.kind === 'points' ? p.points.map((q) => ({ ...q, series: p.series })) : []));
    const color = (p: string) => series.find((s) => s.protocol === p)?.color ?? '#000';
    // Bands: a ratio claim with both bounds finite, drawn around the reference series.
    const bands = published.flatMap((p) => {
      if (p.kind !== 'ratio' || !Number.isFinite(p.hi) || p.lo <= 0) return [];
      const ref = series.find((s) => s.protocol === p.reference)?.points ?? [];
      const pts = ref.filter((d) => (p.xMin === undefined || d.x >= p.xMin) && (p.xMax === undefined || d.x <= p.xMax));
      return pts.length ? [{ key: `${p.series}/${p.reference}`, color: color(p.series), pts: pts.map((d) => ({ x: d.x, lo: d.value * p.lo, hi: d.value * p.hi })) }] : [];
    });
    const all = [...series.flatMap((s) => s.points.map((d) => d.value)), ...paperPts.map((d) => d.y), ...bands.flatMap((b) => b.pts.map((d) => d.hi))];
    if (all.length === 0) {
      setEmpty(c, 'run the figure to draw it');
      return;
    }
    setEmpty(c, null);
    const cats = f.x.categories;
    const x = cats
      ? scaleLinear().domain([-0.5, cats.length - 0.5]).range([0, PLOT_W])
      : f.x.column === null
        ? scaleLinear().domain([0, 1]).range([0, PLOT_W])
        : scaleLinear().domain([0, Math.max(...xs) * 1.05]).range([0, PLOT_W]);
    const hi = Math.max(...all) * k;
    const lo = f.y.fromZero === false ? Math.min(...all) * k * 0.98 : 0;
    const y = scaleLinear()
      .domain([lo, hi > lo ? lo + (hi - lo) * 1.1 : lo + 1])
      .nice()
      .range([PLOT_H, 0]);
    c.grid.call(axisLeft(y).ticks(5).tickSize(-PLOT_W).tickFormat(() => ''));
    const ax = axisBottom(x);
    if (cats) ax.tickValues(cats.map((_, i) => i)).tickFormat((v) => cats[Number(v)] ?? '');
    else if (f.x.column !== null) ax.tickValues(xs).tickFormat((v) => String(v));
    else ax.ticks(5);
    c.xAxis.call(ax);
    c.yAxis.call(axisLeft(y).ticks(5));
    const bandArea = area<{ x: number; lo: number; hi: number }>()
      .x((d) => x(d.x))
      .y0((d) => y(d.lo * k))
      .y1((d) => y(d.hi * k));
    c.content
      .selectAll<SVGPathElement, (typeof bands)[number]>('path.paper-band')
      .data(bands, (b) => b.key)
      .join('path')
      .attr('class', 'paper-band')
      .attr('fill', (b) => b.color)
      .attr('fill-opacity', 0.15)
      .attr('stroke', (b) => b.color)
      .attr('stroke-dasharray', '4 3')
      .attr('d', (b) => bandArea(b.pts));
    const path = line<{ x: number; value: number }>()
      .x((d) => x(d.x))
      .y((d) => y(d.value * k));
    joinLines(c, 'sweep-line', series, (s) => path(s.points), 2);
    const dots: Dot[] = series.flatMap((s) => s.points.map((d) => ({ ...d, protocol: s.protocol, color: s.color })));
    c.content
      .selectAll<SVGCircleElement, Dot>('circle.gallery-dot')
      .data(dots, (d) => `${d.protocol}-${d.x}`)
      .join((enter) => {
        const e = enter.append('circle').attr('class', 'gallery-dot').attr('r', 3.5);
        e.append('title');
        return e;
      })
      .attr('cx', (d) => x(d.x))
      .attr('cy', (d) => y(d.value * k))
      .attr('fill', (d) => d.color)
      .attr('data-protocol', (d) => d.protocol)
      .attr('data-x', (d) => f.x.csv(d.x))
      .attr('data-value', (d) => String(d.value))
      .select('title')
      .text((d) => `${d.protocol} at ${f.x.text(d.x)}: ${sig(d.value * k)}`);
    c.content
      .selectAll<SVGPathElement, (typeof paperPts)[number]>('path.paper-point')
      .data(paperPts, (d) => `${d.series}-${d.x}`)
      .join((enter) => {
        const e = enter.append('path').attr('class', 'paper-point').attr('d', symbol(symbolDiamond, 90)()).attr('fill', 'none').attr('stroke', '#000').attr('stroke-width', 2);
        e.append('title');
        return e;
      })
      .attr('transform', (d) => `translate(${x(d.x)},${y(d.y * k)})`)
      .attr('data-series', (d) => d.series)
      .attr('data-x', (d) => f.x.csv(d.x))
      .attr('data-value', (d) => String(d.y))
      .select('title')
      .text((d) => `paper: ${d.series} at ${f.x.text(d.x)}: ${sig(d.y * k)}`);
    legend(
      c,
      [
        ...series.map((s) => ({ label: s.protocol, color: s.color })),
        ...(paperPts.length ? [{ label: 'paper', color: '#000', dashed: true }] : []),
        ...(bands.length ? [{ label: 'paper claim (band)', color: '#6b7785', dashed: true }] : []),
      ],
      8,
      2,
    );
  }, [f, series, xs, published, k]);
  const label = `${f.title}. ${verdicts.map((v) => `${v.series}: ${v.text}`).join('. ')}`;
  return <svg ref={ref} id={id} data-testid={id} className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label={label} />;
}
