// The CDF of flow completion times or slowdowns, one line per run, growing
// live as flows complete.

import { useEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, curveLinear, curveStepAfter, line, scaleLinear, scaleLog, select } from 'd3';
import type { RunState } from '../../state/run';
import { SortedSamples, cdfPoints, logDomain, type CdfPoints } from '../stats';
import { runColor } from '../palette';
import { CHART_H, CHART_W, PLOT_H, PLOT_W, chartFrame, emptyMessage, legend } from './chartFrame';
import { useThrottled } from './useThrottled';
import '../views.css';

/** Props of {@link CdfChart}. */
export interface CdfChartProps {
  runs: RunState[];
  /** 'fct': flow completion time in µs; 'slowdown': FCT / ideal FCT. Both on a log x axis. */
  metric: 'fct' | 'slowdown';
  /** The <svg>'s id (SVG/PNG export) and test id. */
  id: string;
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
export function CdfChart({ runs, metric, id, maxPoints = 500 }: CdfChartProps) {
  const shown = useThrottled(runs, 250);
  // Sorted samples per metric and run index, kept between updates.
  const caches = useRef<Record<string, SortedSamples[]>>({});
  const curves = useMemo<Curve[]>(() => {
    return shown.map((r, i) => {
      const c = ((caches.current[metric] ??= [])[i] ??= new SortedSamples());
      const sorted = c.update(r.flows, metric === 'fct' ? (f) => f.fctPs / 1e6 : (f) => f.slowdown);
      return { protocol: r.protocol, color: runColor(r.protocol, i), pts: cdfPoints(sorted, maxPoints), n: sorted.length, full: sorted.length <= maxPoints, final: !!r.summary };
    });
  }, [shown, metric, maxPoints]);

  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    const svg = select(ref.current!);
    const g = chartFrame(
      svg,
      metric === 'fct' ? 'Flow completion time (CDF)' : 'Slowdown = FCT / ideal FCT (CDF)',
      metric === 'fct' ? 'FCT (µs, log scale)' : 'slowdown (log scale)',
      'fraction of flows',
    );
    const live = curves.filter((c) => c.n > 0);
    if (!live.length) {
      emptyMessage(g, 'no completed flows yet');
      return;
    }
    let lo = Infinity;
    let hi = -Infinity;
    for (const c of live) {
      lo = Math.min(lo, c.pts.x[0]);
      hi = Math.max(hi, c.pts.x[c.pts.x.length - 1]);
    }
    const x = scaleLog()
      .domain(logDomain(lo, hi, metric === 'slowdown' ? 1 : 0))
      .range([0, PLOT_W])
      .clamp(true);
    const y = scaleLinear().domain([0, 1]).range([PLOT_H, 0]);
    g.append('g').attr('class', 'grid').call(axisLeft(y).ticks(5).tickSize(-PLOT_W).tickFormat(() => ''));
    g.append('g').attr('transform', `translate(0,${PLOT_H})`).call(axisBottom(x).ticks(6, '~g'));
    g.append('g').call(axisLeft(y).ticks(5, '.0%'));
    for (const c of live) {
      const pts = Array.from(c.pts.x, (xv, i) => [xv, c.pts.y[i]] as [number, number]);
      // Start the line at zero just before the first sample.
      pts.unshift([c.pts.x[0], 0]);
      const path = line<[number, number]>()
        .x((d) => x(d[0]))
        .y((d) => y(d[1]))
        .curve(c.full ? curveStepAfter : curveLinear);
      g.append('path').attr('class', 'cdf-line').attr('fill', 'none').attr('stroke', c.color).attr('stroke-width', 2.2).attr('stroke-dasharray', c.final ? null : '6 3').attr('d', path(pts));
    }
    legend(
      g,
      live.map((c) => ({ label: `${c.protocol} (${c.n.toLocaleString('en')} flows${c.final ? '' : ', so far'})`, color: c.color, dashed: !c.final })),
      PLOT_W - 190,
      PLOT_H - 16 * live.length - 4,
    );
  }, [curves, metric]);

  return <svg ref={ref} id={id} data-testid={id} className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label={metric === 'fct' ? 'FCT CDF' : 'slowdown CDF'} />;
}
