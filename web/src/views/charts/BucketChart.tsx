// Mean slowdown by flow-size bucket, grouped bars per run.

import { useEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, scaleBand, scaleLog, select } from 'd3';
import type { RunState } from '../../state/run';
import { SIZE_BUCKETS, bucketMeans } from '../stats';
import { runColor } from '../palette';
import { sig } from '../format';
import { CHART_H, CHART_W, PLOT_H, PLOT_W, chartFrame, emptyMessage, legend } from './chartFrame';
import { useThrottled } from './useThrottled';
import '../views.css';

/** Props of {@link BucketChart}. */
export interface BucketChartProps {
  runs: RunState[];
  /** The <svg>'s id (SVG/PNG export) and test id. */
  id: string;
}

/**
 * Mean slowdown per flow-size bucket ((0,10KB], (10KB,100KB], (100KB,1MB],
 * (1MB,10MB], >10MB), one bar per run in each bucket, on a log axis from 1
 * (the ideal). Shows where a protocol wins: pFabric on short flows, for one.
 */
export function BucketChart({ runs, id }: BucketChartProps) {
  const shown = useThrottled(runs, 250);
  const data = useMemo(() => shown.map((r, i) => ({ protocol: r.protocol, color: runColor(r.protocol, i), final: !!r.summary, ...bucketMeans(r.flows) })), [shown]);
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    const svg = select(ref.current!);
    const g = chartFrame(svg, 'Mean slowdown by flow size', 'flow size', 'mean slowdown (log scale)');
    const max = Math.max(1, ...data.flatMap((d) => d.mean.filter((m) => Number.isFinite(m))));
    if (!data.some((d) => d.count.some((c) => c > 0))) {
      emptyMessage(g, 'no completed flows yet');
      return;
    }
    const x = scaleBand<number>()
      .domain(SIZE_BUCKETS.map((_, i) => i))
      .range([0, PLOT_W])
      .padding(0.18);
    const inner = scaleBand<number>()
      .domain(data.map((_, i) => i))
      .range([0, x.bandwidth()])
      .padding(0.08);
    const top = 10 ** Math.ceil(Math.log10(max * 1.15) + 1e-9);
    const y = scaleLog().domain([1, Math.max(top, 10)]).range([PLOT_H, 0]).clamp(true);
    g.append('g').attr('class', 'grid').call(axisLeft(y).ticks(4).tickSize(-PLOT_W).tickFormat(() => ''));
    g.append('g')
      .attr('transform', `translate(0,${PLOT_H})`)
      .call(axisBottom(x).tickFormat((i) => SIZE_BUCKETS[i].label));
    g.append('g').call(axisLeft(y).ticks(4, '~g'));
    data.forEach((d, ri) => {
      SIZE_BUCKETS.forEach((_, b) => {
        const m = d.mean[b];
        if (!Number.isFinite(m)) return;
        const bx = x(b)! + inner(ri)!;
        const by = y(Math.max(1, m));
        g.append('rect')
          .attr('x', bx)
          .attr('y', by)
          .attr('width', inner.bandwidth())
          .attr('height', Math.max(1, PLOT_H - by))
          .attr('fill', d.color)
          .attr('opacity', d.final ? 1 : 0.7)
          .append('title')
          .text(`${d.protocol}, ${SIZE_BUCKETS[b].label}: mean slowdown ${sig(m)} over ${d.count[b]} flows`);
        if (inner.bandwidth() >= 14)
          g.append('text')
            .attr('class', 'bar-label')
            .attr('x', bx + inner.bandwidth() / 2)
            .attr('y', by - 3)
            .attr('text-anchor', 'middle')
            .text(sig(m, 2));
      });
    });
    legend(
      g,
      data.map((d) => ({ label: d.final ? d.protocol : `${d.protocol} (so far)`, color: d.color })),
      8,
      2,
    );
  }, [data]);
  return <svg ref={ref} id={id} data-testid={id} className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label="mean slowdown by flow size" />;
}
