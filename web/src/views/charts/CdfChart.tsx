// The CDF of flow completion times or slowdowns, one line per run, growing
// live as flows complete.

import { useEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, curveLinear, curveStepAfter, line, scaleLinear, scaleLog, select } from 'd3';
import type { RunState } from '../../state/run';
import { SortedSamples, cdfPoints, logDomain, type CdfPoints } from '../stats';
import { plural } from '../../format/format';
import { runColor } from '../palette';
import { CHART_H, CHART_W, PLOT_H, PLOT_W, chartFrame, joinLines, legend, setEmpty } from './chartFrame';
import { useChartRuns } from './useThrottled';
import '../views.css';

/** Props of {@link CdfChart}. */
export interface CdfChartProps {
  runs: RunState[];
  /** 'fct': flow completion time in µs; 'slowdown': FCT / ideal FCT. Both on a log x axis. */
  metric: 'fct' | 'slowdown';
  /** The <svg>'s id (SVG/PNG export) and test id. */
  id: string;
  /** The page is playing: the chart then holds still while out of sight (useChartRuns). */
  playing?: boolean;
  /** Most points per line (the CDF is downsampled above this). */
  maxPoints?: number;
}

interface Curve {
  protocol: string;
  color: string;
  pts: CdfPoints;
  n: number;
  full: boolean;
  final: boolean;
}

/**
 * CDF of FCT or slowdown over the completed flows of every run (the
 * figures the papers compare protocols by). Recomputed at most 4 times a
 * second; samples are kept sorted incrementally and each line is cut to
 * about 500 points, so a 100k-flow run costs a merge, not a sort.
 */
export function CdfChart({ runs, metric, id, playing = false, maxPoints = 500 }: CdfChartProps) {
  const ref = useRef<SVGSVGElement>(null);
  const shown = useChartRuns(runs, playing, ref);
  // Sorted samples per metric and run index, kept between updates.
  const caches = useRef<Record<string, SortedSamples[]>>({});
  const curves = useMemo<Curve[]>(() => {
    return shown.map((r, i) => {
      const c = ((caches.current[metric] ??= [])[i] ??= new SortedSamples());
      const sorted = c.update(r.flows, metric === 'fct' ? (f) => f.fctPs / 1e6 : (f) => f.slowdown);
      return { protocol: r.protocol, color: runColor(r.protocol, i), pts: cdfPoints(sorted, maxPoints), n: sorted.length, full: sorted.length <= maxPoints, final: !!r.summary };
    });
  }, [shown, metric, maxPoints]);

  useEffect(() => {
    const c = chartFrame(
      select(ref.current!),
      metric === 'fct' ? 'Flow completion time (CDF)' : 'Slowdown = FCT / ideal FCT (CDF)',
      metric === 'fct' ? 'FCT (µs, log scale)' : 'slowdown (log scale)',
      'fraction of flows',
    );
    const live = curves.filter((k) => k.n > 0);
    if (!live.length) {
      setEmpty(c, 'no completed flows yet');
      return;
    }
    setEmpty(c, null);
    let lo = Infinity;
    let hi = -Infinity;
    for (const k of live) {
      lo = Math.min(lo, k.pts.x[0]);
      hi = Math.max(hi, k.pts.x[k.pts.x.length - 1]);
    }
    const x = scaleLog()
      .domain(logDomain(lo, hi, metric === 'slowdown' ? 1 : 0))
      .range([0, PLOT_W])
      .clamp(true);
    const y = scaleLinear().domain([0, 1]).range([PLOT_H, 0]);
    c.grid.call(axisLeft(y).ticks(5).tickSize(-PLOT_W).tickFormat(() => ''));
    c.xAxis.call(axisBottom(x).ticks(6, '~g'));
    c.yAxis.call(axisLeft(y).ticks(5, '.0%'));
    const d = (k: Curve) => {
      const pts = Array.from(k.pts.x, (xv, i) => [xv, k.pts.y[i]] as [number, number]);
      // Start the line at zero just before the first sample.
      pts.unshift([k.pts.x[0], 0]);
      return line<[number, number]>()
        .x((p) => x(p[0]))
        .y((p) => y(p[1]))
        .curve(k.full ? curveStepAfter : curveLinear)(pts);
    };
    joinLines(c, 'cdf-line', live, d, 2.2, (k) => !k.final);
    legend(
      c,
      live.map((k) => ({ label: `${k.protocol} (${plural(k.n, 'flow')}${k.final ? '' : ', so far'})`, color: k.color, dashed: !k.final })),
      PLOT_W - 190,
      PLOT_H - 16 * live.length - 4,
    );
  }, [curves, metric]);

  return <svg ref={ref} id={id} data-testid={id} className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label={metric === 'fct' ? 'FCT CDF' : 'slowdown CDF'} />;
}
