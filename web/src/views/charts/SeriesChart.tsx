// Time series of a run: bytes queued in the network, goodput, the largest
// port queue; x is simulated time in milliseconds. Only sampled time is
// drawn as a line: where nothing was sampled (a seek, full speed, a jump
// of more than SERIES_MAX_SPAN_PS) the line stops, and a lone sample is a
// dot.

import { useEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, line, scaleLinear, select } from 'd3';
import { bytesText, sig } from '../../format/format';
import type { RunState, SeriesPoint } from '../../state/run';
import { segmentSeries } from '../stats';
import { runColor } from '../palette';
import { CHART_H, CHART_W, PLOT_H, PLOT_W, chartFrame, joinLines, legend, setEmpty } from './chartFrame';
import { useChartRuns } from './useThrottled';
import '../views.css';

/** The series a SeriesChart can show. */
export type SeriesMetric = 'queuedBytes' | 'goodputGbps' | 'maxPortBytes';

/** Props of {@link SeriesChart}. */
export interface SeriesChartProps {
  runs: RunState[];
  metric: SeriesMetric;
  /** The <svg>'s id (SVG/PNG export) and test id. */
  id: string;
  /** The page is playing: the chart then holds still while out of sight (useChartRuns). */
  playing?: boolean;
}

// Goodput is bursty (a flow's bytes count when it completes), so it gets wider bins.
// `zero`: what the empty state says when every sample so far is 0.
const META: Record<SeriesMetric, { title: string; y: string; mode: 'mean' | 'max'; bins: number; tick: (v: number) => string; zero: string }> = {
  queuedBytes: { title: 'Bytes buffered in the whole network', y: 'bytes queued', mode: 'mean', bins: 400, tick: bytesText, zero: 'nothing buffered yet: every buffer was empty at the samples so far' },
  goodputGbps: { title: 'Goodput (completed flow bytes per second)', y: 'Gbps', mode: 'mean', bins: 100, tick: (v) => sig(v, 3), zero: 'no flow completed yet' },
  maxPortBytes: { title: 'Largest queue at any port', y: 'bytes', mode: 'max', bins: 400, tick: bytesText, zero: 'nothing buffered yet: every buffer was empty at the samples so far' },
};

/**
 * A time series per run from run.series (sampled once per worker frame),
 * binned to at most 400 points per line (goodput 100): goodput and total queue as
 * time-weighted means per bin, the largest port queue as each bin's peak.
 */
export function SeriesChart({ runs, metric, id, playing = false }: SeriesChartProps) {
  const ref = useRef<SVGSVGElement>(null);
  const shown = useChartRuns(runs, playing, ref);
  const meta = META[metric];
  const lines = useMemo(
    () =>
      shown.map((r, i) => {
        const s: SeriesPoint[] = r.series;
        const t = Float64Array.from(s, (p) => p.tPs / 1e9);
        const v = Float64Array.from(s, (p) => p[metric]);
        const { lines: pieces, dots } = segmentSeries(t, v, s.map((p) => p.gap), meta.bins, meta.mode);
        return { protocol: r.protocol, color: runColor(r.protocol, i), final: !!r.summary, pieces, dots, pts: [...pieces.flat(), ...dots] };
      }),
    [shown, metric, meta],
  );
  useEffect(() => {
    const c = chartFrame(select(ref.current!), meta.title, 'simulated time (ms)', meta.y);
    const live = lines.filter((l) => l.pts.length > 0);
    if (!live.length) {
      setEmpty(c, 'no samples yet');
      return;
    }
    let tMax = 0;
    let vMax = 0;
    for (const l of live)
      for (const [t, v] of l.pts) {
        if (t > tMax) tMax = t;
        if (v > vMax) vMax = v;
      }
    // All zero so far: say so, instead of axes of "0 B".
    if (vMax <= 0) {
      setEmpty(c, meta.zero);
      return;
    }
    setEmpty(c, null);
    const x = scaleLinear().domain([0, tMax || 1]).range([0, PLOT_W]);
    const y = scaleLinear()
      .domain([0, vMax > 0 ? vMax * 1.08 : 1])
      .range([PLOT_H, 0])
      .nice();
    c.grid.call(axisLeft(y).ticks(5).tickSize(-PLOT_W).tickFormat(() => ''));
    c.xAxis.call(axisBottom(x).ticks(6));
    c.yAxis.call(axisLeft(y).ticks(5).tickFormat((d) => meta.tick(Number(d))));
    const path = line<[number, number]>()
      .x((d) => x(d[0]))
      .y((d) => y(d[1]));
    joinLines(c, 'series-line', live, (l) => l.pieces.map((p) => path(p) ?? '').join('') || null, 1.8);
    // Lone samples (a seek, full speed): dots, joined to nothing.
    const dots = live.flatMap((l) => l.dots.map((d) => ({ key: `${l.protocol}@${d[0]}`, color: l.color, d })));
    c.content
      .selectAll<SVGCircleElement, (typeof dots)[number]>('circle.series-dot')
      .data(dots, (d) => d.key)
      .join('circle')
      .attr('class', 'series-dot')
      .attr('r', 2.2)
      .attr('fill', (d) => d.color)
      .attr('cx', (d) => x(d.d[0]))
      .attr('cy', (d) => y(d.d[1]));
    legend(
      c,
      live.map((l) => ({ label: l.final ? l.protocol : `${l.protocol} (running)`, color: l.color })),
      PLOT_W - 150,
      2,
    );
  }, [lines, meta]);

  return <svg ref={ref} id={id} data-testid={id} className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label={meta.title} />;
}
