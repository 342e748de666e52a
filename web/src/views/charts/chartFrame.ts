// Shared scaffolding of the D3 charts: a fixed viewBox (the <svg> scales
// with its container and exports at a known size), margins, the title,
// axis labels, a legend and the empty-state message. The skeleton is built
// once and then updated in place (axes re-join their ticks, lines and bars
// are joined by key), so a live update touches few DOM nodes.

import type { Selection } from 'd3';

/** The chart's coordinate system (viewBox). */
export const CHART_W = 520;
export const CHART_H = 300;
export const MARGIN = { top: 30, right: 24, bottom: 44, left: 58 };
export const PLOT_W = CHART_W - MARGIN.left - MARGIN.right;
export const PLOT_H = CHART_H - MARGIN.top - MARGIN.bottom;

export type Svg = Selection<SVGSVGElement, unknown, null, undefined>;
export type G = Selection<SVGGElement, unknown, null, undefined>;

/** The parts of a chart an update draws into. */
export interface ChartParts {
  plot: G;
  grid: G;
  xAxis: G;
  yAxis: G;
  content: G;
  legend: G;
  empty: Selection<SVGTextElement, unknown, null, undefined>;
}

/**
 * The chart's skeleton: built on first use (or when the title changes),
 * reused afterwards. The title and axis labels are (re)set every time.
 */
export function chartFrame(svg: Svg, title: string, xLabel: string, yLabel: string): ChartParts {
  let root = svg.select<SVGGElement>('g.chart-root');
  if (root.empty()) {
    svg.selectAll('*').remove();
    root = svg.append('g').attr('class', 'chart-root');
    root.append('text').attr('class', 'chart-title').attr('x', MARGIN.left).attr('y', 18);
    root
      .append('text')
      .attr('class', 'axis-label x-label')
      .attr('x', MARGIN.left + PLOT_W / 2)
      .attr('y', CHART_H - 8)
      .attr('text-anchor', 'middle');
    root
      .append('text')
      .attr('class', 'axis-label y-label')
      .attr('transform', `translate(14,${MARGIN.top + PLOT_H / 2}) rotate(-90)`)
      .attr('text-anchor', 'middle');
    const plot = root.append('g').attr('class', 'plot').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    plot.append('g').attr('class', 'grid');
    plot.append('g').attr('class', 'x-axis').attr('transform', `translate(0,${PLOT_H})`);
    plot.append('g').attr('class', 'y-axis');
    plot.append('g').attr('class', 'content');
    plot.append('g').attr('class', 'legend');
    plot.append('text').attr('class', 'chart-empty').attr('x', PLOT_W / 2).attr('y', PLOT_H / 2).attr('text-anchor', 'middle');
  }
  root.select('.chart-title').text(title);
  root.select('.x-label').text(xLabel);
  root.select('.y-label').text(yLabel);
  const plot = root.select<SVGGElement>('g.plot') as unknown as G;
  return {
    plot,
    grid: plot.select<SVGGElement>('g.grid') as unknown as G,
    xAxis: plot.select<SVGGElement>('g.x-axis') as unknown as G,
    yAxis: plot.select<SVGGElement>('g.y-axis') as unknown as G,
    content: plot.select<SVGGElement>('g.content') as unknown as G,
    legend: plot.select<SVGGElement>('g.legend') as unknown as G,
    empty: plot.select<SVGTextElement>('text.chart-empty') as unknown as ChartParts['empty'],
  };
}

/** Shows `text` in the middle of the plot and hides everything else (or, with null, the reverse). */
export function setEmpty(c: ChartParts, text: string | null) {
  c.empty.text(text ?? '').attr('display', text ? null : 'none');
  for (const part of [c.grid, c.xAxis, c.yAxis, c.content, c.legend]) part.attr('display', text ? 'none' : null);
}

/** A legend in the plot at (x, y): a swatch and a label per entry. */
export function legend(c: ChartParts, entries: { label: string; color: string; dashed?: boolean }[], x = 8, y = 6) {
  c.legend.attr('transform', `translate(${x},${y})`);
  const rows = c.legend
    .selectAll<SVGGElement, { label: string; color: string; dashed?: boolean }>('g.legend-row')
    .data(entries)
    .join((enter) => {
      const row = enter.append('g').attr('class', 'legend-row');
      row.append('line').attr('x1', 0).attr('x2', 18).attr('y1', 6).attr('y2', 6).attr('stroke-width', 3);
      row.append('text').attr('x', 24).attr('y', 10);
      return row;
    })
    .attr('transform', (_, i) => `translate(0,${i * 16})`);
  rows
    .select('line')
    .attr('stroke', (e) => e.color)
    .attr('stroke-dasharray', (e) => (e.dashed ? '4 3' : null));
  rows.select('text').text((e) => e.label);
}

/**
 * One path per series, joined by protocol: `cls` names the paths, `d` draws
 * one, `dashed` marks series still running. Returns the joined paths.
 */
export function joinLines<T extends { protocol: string; color: string }>(c: ChartParts, cls: string, series: T[], d: (s: T) => string | null, width: number, dashed: (s: T) => boolean = () => false) {
  return c.content
    .selectAll<SVGPathElement, T>(`path.${cls}`)
    .data(series, (s) => s.protocol)
    .join('path')
    .attr('class', cls)
    .attr('fill', 'none')
    .attr('stroke', (s) => s.color)
    .attr('stroke-width', width)
    .attr('stroke-dasharray', (s) => (dashed(s) ? '6 3' : null))
    .attr('d', d);
}
