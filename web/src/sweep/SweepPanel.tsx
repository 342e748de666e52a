// The load sweep panel: the current settings' protocols at a list of loads,
// each point run to the end in its own worker (no animation), then a chart
// of one summary number against load and the grid as CSV (the bytes
// `dcsim sweep` writes).

import { downloadCsvReadme } from '../export/readme';
import { useEffect, useMemo, useRef, useState } from 'react';
import { axisBottom, axisLeft, line, scaleLinear, select } from 'd3';
import type { Settings } from '../state/settings';
import { exportName } from '../state/settings';
import { metricText, metricValue, type Metric, type Scope } from '../lessons/lesson';
import { downloadCsv, downloadSvg } from '../export/download';
import { runColor } from '../views/palette';
import { sig } from '../format/format';
import { CHART_H, CHART_W, PLOT_H, PLOT_W, chartFrame, joinLines, legend, setEmpty } from '../views/charts/chartFrame';
import { parallelism, parseLoads, sweepCsv, sweepPoints, type SweepResult } from './sweep';
import { useSweep } from './useSweep';

/** The numbers the chart can plot: a metric and, for slowdowns and FCTs, a size bucket. */
const PLOTS: { key: string; metric: Metric; scope?: Scope }[] = [
  { key: 'mean_slowdown', metric: 'mean_slowdown' },
  { key: 'short_mean_slowdown', metric: 'mean_slowdown', scope: 'short' },
  { key: 'short_p99_slowdown', metric: 'p99_slowdown', scope: 'short' },
  { key: 'long_mean_slowdown', metric: 'mean_slowdown', scope: 'long' },
  { key: 'afct_us', metric: 'afct_us' },
  { key: 'drop_rate', metric: 'drop_rate' },
  { key: 'deadlines_met', metric: 'deadlines_met' },
  { key: 'throughput_gbps', metric: 'throughput_gbps' },
];

/** Sweep controls, progress, chart, table and CSV for `settings`. */
export function SweepPanel({ settings }: { settings: Settings }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('0.2, 0.4, 0.6, 0.8');
  const [plot, setPlot] = useState('mean_slowdown');
  const { run, running, error, done, finished, start: startPoints, cancel, reset } = useSweep();
  const results = run?.results ?? null;
  const parsed = parseLoads(text);
  // New settings make an old sweep stale: drop it (and stop one running).
  useEffect(() => reset(), [settings, reset]);

  const start = () => {
    if (!('error' in parsed)) startPoints(sweepPoints(settings, parsed.loads));
  };
  const which = PLOTS.find((p) => p.key === plot)!;

  if (!open) {
    return (
      <section className="sweep closed">
        <button data-testid="sweep-open" onClick={() => setOpen(true)}>
          ▸ Load sweep: these protocols at several loads
        </button>
      </section>
    );
  }
  return (
    <section className="sweep" data-testid="sweep">
      <div className="sweep-head">
        <button onClick={() => setOpen(false)}>▾</button>
        <strong>Load sweep</strong>
        <span>
          {settings.protocols.join(', ')} · {String(settings.scenario.name)} · {settings.scenario.workload?.flows ?? '?'} flows per run · seed {settings.scenario.seed ?? 1}
        </span>
      </div>
      <div className="sweep-controls">
        <label>
          loads{' '}
          <input data-testid="sweep-loads" value={text} onChange={(e) => setText(e.target.value)} size={28} disabled={running} />
        </label>
        <label>
          plot{' '}
          <select data-testid="sweep-metric" value={plot} onChange={(e) => setPlot(e.target.value)}>
            {PLOTS.map((p) => (
              <option key={p.key} value={p.key}>
                {metricText(p)}
              </option>
            ))}
          </select>
        </label>
        {running ? (
          <button data-testid="sweep-cancel" onClick={cancel}>
            Cancel
          </button>
        ) : (
          <button data-testid="sweep-run" disabled={'error' in parsed} onClick={start}>
            Run sweep
          </button>
        )}
        <button
          data-testid="sweep-csv"
          disabled={!finished}
          onClick={() => downloadCsv(exportName(settings.scenario, settings.protocols.join('+'), 'sweep', 'csv'), sweepCsv(results as SweepResult[]))}
          title="one summary row per protocol and load, the columns and order of dcsim sweep"
        >
          sweep.csv
        </button>
        <button data-testid="sweep-readme" onClick={downloadCsvReadme} title="what every column of the CSV means, with its unit">
          README.md
        </button>
        <button disabled={!results || done === 0} onClick={() => downloadSvg('chart-sweep', exportName(settings.scenario, settings.protocols.join('+'), 'sweep', 'svg'))}>
          SVG
        </button>
        {results && (
          <span data-testid="sweep-progress">
            {done} of {results.length} runs{running ? ` (${parallelism()} at a time, each to the end)` : finished ? ' · done' : ''}
          </span>
        )}
      </div>
      {'error' in parsed && (
        <em className="error" data-testid="sweep-error">
          loads: {parsed.error}
        </em>
      )}
      {error && (
        <em className="error" data-testid="sweep-error">
          {error}
        </em>
      )}
      {results && <SweepChart results={results} plot={which} protocols={settings.protocols} />}
    </section>
  );
}

/** The chart: one line per protocol, the chosen number against load. */
function SweepChart({ results, plot, protocols }: { results: (SweepResult | undefined)[]; plot: (typeof PLOTS)[number]; protocols: string[] }) {
  const ref = useRef<SVGSVGElement>(null);
  const series = useMemo(
    () =>
      protocols.map((p, i) => ({
        protocol: p,
        color: runColor(p, i),
        points: results
          .filter((r): r is SweepResult => !!r && r.point.protocol === p)
          .map((r) => ({ load: r.point.load, value: metricValue(plot, r.summary) }))
          .filter((d): d is { load: number; value: number } => d.value !== null && Number.isFinite(d.value))
          .sort((a, b) => a.load - b.load),
      })),
    [results, plot, protocols],
  );
  useEffect(() => {
    const c = chartFrame(select(ref.current!), `${metricText(plot)} against load`, 'load', metricText(plot));
    const all = series.flatMap((s) => s.points);
    if (all.length === 0) {
      setEmpty(c, 'no finished runs yet');
      return;
    }
    setEmpty(c, null);
    const x = scaleLinear().domain([0, 1]).range([0, PLOT_W]);
    const hi = Math.max(...all.map((d) => d.value));
    const lo = Math.min(0, ...all.map((d) => d.value));
    const y = scaleLinear()
      .domain([lo, hi > lo ? hi * 1.1 : lo + 1])
      .nice()
      .range([PLOT_H, 0]);
    c.grid.call(axisLeft(y).ticks(5).tickSize(-PLOT_W).tickFormat(() => ''));
    c.xAxis.call(axisBottom(x).ticks(5));
    c.yAxis.call(axisLeft(y).ticks(5, '~g'));
    const path = line<{ load: number; value: number }>()
      .x((d) => x(d.load))
      .y((d) => y(d.value));
    joinLines(c, 'sweep-line', series, (s) => path(s.points), 2);
    const dots = series.flatMap((s) => s.points.map((d) => ({ ...d, protocol: s.protocol, color: s.color })));
    c.content
      .selectAll<SVGCircleElement, (typeof dots)[number]>('circle.sweep-dot')
      .data(dots, (d) => `${d.protocol}-${d.load}`)
      .join((enter) => {
        const e = enter.append('circle').attr('class', 'sweep-dot').attr('r', 3.5);
        e.append('title');
        return e;
      })
      .attr('cx', (d) => x(d.load))
      .attr('cy', (d) => y(d.value))
      .attr('fill', (d) => d.color)
      .select('title')
      .text((d) => `${d.protocol} at load ${d.load}: ${sig(d.value)}`);
    legend(
      c,
      series.map((s) => ({ label: s.protocol, color: s.color })),
      8,
      2,
    );
  }, [series, plot]);
  return <svg ref={ref} id="chart-sweep" data-testid="chart-sweep" className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label="sweep chart" />;
}
