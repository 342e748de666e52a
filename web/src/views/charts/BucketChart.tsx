// Mean slowdown by flow-size bucket, grouped bars per run.

import { useEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, scaleBand, scaleLog, select } from 'd3';
import type { RunState } from '../../state/run';
import { SIZE_BUCKETS, bucketMeans } from '../stats';
import { runColor } from '../palette';
import { plural, sig } from '../../format/format';
import { CHART_H, CHART_W, PLOT_H, PLOT_W, chartFrame, legend, setEmpty } from './chartFrame';
import { useChartRuns } from './useThrottled';
import '../views.css';

/** Props of {@link BucketChart}. */
export interface BucketChartProps {
  runs: RunState[];
  /** The <svg>'s id (SVG/PNG export) and test id. */
  id: string;
  /** The page is playing: the chart then holds still while out of sight (useChartRuns). */
  playing?: boolean;
}

/**
 * Mean slowdown per flow-size bucket ((0,10KB], (10KB,100KB], (100KB,1MB],
 * (1MB,10MB], >10MB), one bar per run in each bucket, on a log axis from 1
 * (the ideal). Shows where a protocol wins: pFabric on short flows, for one.
 */
export function BucketChart({ runs, id, playing = false }: BucketChartProps) {
  const ref = useRef<SVGSVGElement>(null);
  const shown = useChartRuns(runs, playing, ref);
  const data = useMemo(() => shown.map((r, i) => ({ protocol: r.protocol, color: runColor(r.protocol, i), final: !!r.summary, ...bucketMeans(r.flows) })), [shown]);
  useEffect(() => {
    const c = chartFrame(select(ref.current!), 'Mean slowdown by flow size', 'flow size', 'mean slowdown (log scale)');
    if (!data.some((d) => d.count.some((n) => n > 0))) {
      setEmpty(c, 'no completed flows yet');
      return;
    }
    setEmpty(c, null);
    const max = Math.max(1, ...data.flatMap((d) => d.mean.filter((m) => Number.isFinite(m))));
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
    c.grid.call(axisLeft(y).ticks(4).tickSize(-PLOT_W).tickFormat(() => ''));
    c.xAxis.call(axisBottom(x).tickFormat((i) => SIZE_BUCKETS[i].label));
    c.yAxis.call(axisLeft(y).ticks(4, '~g'));
    interface Bar {
      key: string;
      run: number;
      bucket: number;
      mean: number;
      count: number;
      color: string;
      final: boolean;
      protocol: string;
    }
    const bars: Bar[] = data.flatMap((d, ri) =>
      SIZE_BUCKETS.flatMap((_, b) => (Number.isFinite(d.mean[b]) ? [{ key: `${d.protocol}-${b}`, run: ri, bucket: b, mean: d.mean[b], count: d.count[b], color: d.color, final: d.final, protocol: d.protocol }] : [])),
    );
    const bx = (b: Bar) => x(b.bucket)! + inner(b.run)!;
    const by = (b: Bar) => y(Math.max(1, b.mean));
    c.content
      .selectAll<SVGRectElement, Bar>('rect.bar')
      .data(bars, (b) => b.key)
      .join((enter) => {
        const r = enter.append('rect').attr('class', 'bar');
        r.append('title');
        return r;
      })
      .attr('x', bx)
      .attr('y', by)
      .attr('width', inner.bandwidth())
      .attr('height', (b) => Math.max(1, PLOT_H - by(b)))
      .attr('fill', (b) => b.color)
      .attr('opacity', (b) => (b.final ? 1 : 0.7))
      .select('title')
      .text((b) => `${b.protocol}, ${SIZE_BUCKETS[b.bucket].label}: mean slowdown ${sig(b.mean)} over ${plural(b.count, 'flow')}`);
    c.content
      .selectAll<SVGTextElement, Bar>('text.bar-label')
      .data(inner.bandwidth() >= 14 ? bars : [], (b) => b.key)
      .join('text')
      .attr('class', 'bar-label')
      .attr('x', (b) => bx(b) + inner.bandwidth() / 2)
      .attr('y', (b) => by(b) - 3)
      .attr('text-anchor', 'middle')
      .text((b) => sig(b.mean, 2));
    legend(
      c,
      data.map((d) => ({ label: d.final ? d.protocol : `${d.protocol} (so far)`, color: d.color })),
      8,
      2,
    );
  }, [data]);
  return <svg ref={ref} id={id} data-testid={id} className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label="mean slowdown by flow size" />;
}
