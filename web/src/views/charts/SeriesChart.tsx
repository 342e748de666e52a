// Time series of a run: bytes queued in the network, goodput, the largest
// port queue; x is simulated time in milliseconds.

import { useEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, format, line, scaleLinear, select } from 'd3';
import { bytesText } from '../format';
import type { RunState, SeriesPoint } from '../../state/run';
import { binSeries } from '../stats';
import { runColor } from '../palette';
import { CHART_H, CHART_W, PLOT_H, PLOT_W, chartFrame, joinLines, legend, setEmpty } from './chartFrame';
import { useThrottled } from './useThrottled';
import '../views.css';

/** The series a SeriesChart can show. */
export type SeriesMetric = 'queuedBytes' | 'goodputGbps' | 'maxPortBytes';

/** Props of {@link SeriesChart}. */
export interface SeriesChartProps {
  runs: RunState[];
  metric: SeriesMetric;
  /** The <svg>'s id (SVG/PNG export) and test id. */
  id: string;
}

// Goodput is bursty (a flow's bytes count when it completes), so it gets wider bins.
const META: Record<SeriesMetric, { title: string; y: string; mode: 'mean' | 'max'; bins: number; tick: (v: number) => string }> = {
  queuedBytes: { title: 'Bytes buffered in the whole network', y: 'bytes queued', mode: 'mean', bins: 400, tick: bytesText },
  goodputGbps: { title: 'Goodput (completed flow bytes per second)', y: 'Gbps', mode: 'mean', bins: 100, tick: format('~s') },
  maxPortBytes: { title: 'Largest queue at any port', y: 'bytes', mode: 'max', bins: 400, tick: bytesText },
};

/**
 * A time series per run from run.series (sampled once per worker frame),
 * binned to at most 400 points per line (goodput 100): goodput and total queue as
 * time-weighted means per bin, the largest port queue as each bin's peak.
 */
export function SeriesChart({ runs, metric, id }: SeriesChartProps) {
  const shown = useThrottled(runs, 250);
  const meta = META[metric];
  const lines = useMemo(
    () =>
      shown.map((r, i) => {
        const s: SeriesPoint[] = r.series;
        const t = Float64Array.from(s, (p) => p.tPs / 1e9);
        const v = Float64Array.from(s, (p) => p[metric]);
        return { protocol: r.protocol, color: runColor(r.protocol, i), final: !!r.summary, pts: binSeries(t, v, meta.bins, meta.mode) };
      }),
    [shown, metric, meta],
  );
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    const c = chartFrame(select(ref.current!), meta.title, 'simulated time (ms)', meta.y);
    const live = lines.filter((l) => l.pts.length > 0);
    if (!live.length) {
      setEmpty(c, 'no samples yet');
      return;
    }
    setEmpty(c, null);
    let tMax = 0;
    let vMax = 0;
    for (const l of live)
      for (const [t, v] of l.pts) {
        if (t > tMax) tMax = t;
        if (v > vMax) vMax = v;
      }
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
    joinLines(c, 'series-line', live, (l) => path(l.pts), 1.8);
    legend(
      c,
      live.map((l) => ({ label: l.final ? l.protocol : `${l.protocol} (running)`, color: l.color })),
      PLOT_W - 150,
      2,
    );
  }, [lines, meta]);

  return <svg ref={ref} id={id} data-testid={id} className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label={meta.title} />;
}
