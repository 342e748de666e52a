// Shared scaffolding of the D3 charts: a fixed viewBox (the <svg> scales
// with its container and exports at a known size), margins, the title,
// axis labels, a legend and the empty-state message.

import type { Selection } from 'd3';

/** The chart's coordinate system (viewBox). */
export const CHART_W = 520;
export const CHART_H = 300;
export const MARGIN = { top: 30, right: 16, bottom: 44, left: 58 };
export const PLOT_W = CHART_W - MARGIN.left - MARGIN.right;
export const PLOT_H = CHART_H - MARGIN.top - MARGIN.bottom;

export type Svg = Selection<SVGSVGElement, unknown, null, undefined>;
export type G = Selection<SVGGElement, unknown, null, undefined>;

/** Clears the chart and draws its title and axis labels; returns the plot group. */
export function chartFrame(svg: Svg, title: string, xLabel: string, yLabel: string): G {
  svg.selectAll('*').remove();
  svg.append('text').attr('class', 'chart-title').attr('x', MARGIN.left).attr('y', 18).text(title);
  svg
    .append('text')
    .attr('class', 'axis-label')
    .attr('x', MARGIN.left + PLOT_W / 2)
    .attr('y', CHART_H - 8)
    .attr('text-anchor', 'middle')
    .text(xLabel);
  svg
    .append('text')
    .attr('class', 'axis-label')
    .attr('transform', `translate(14,${MARGIN.top + PLOT_H / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(yLabel);
  return svg.append('g').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`) as unknown as G;
}

/** A legend in the top-left corner of the plot: a swatch and a label per entry. */
export function legend(g: G, entries: { label: string; color: string; dashed?: boolean }[], x = 8, y = 6) {
  const lg = g.append('g').attr('class', 'legend').attr('transform', `translate(${x},${y})`);
  entries.forEach((e, i) => {
    const row = lg.append('g').attr('transform', `translate(0,${i * 16})`);
    row
      .append('line')
      .attr('x1', 0)
      .attr('x2', 18)
      .attr('y1', 6)
      .attr('y2', 6)
      .attr('stroke', e.color)
      .attr('stroke-width', 3)
      .attr('stroke-dasharray', e.dashed ? '4 3' : null);
    row.append('text').attr('x', 24).attr('y', 10).text(e.label);
  });
}

/** The "nothing yet" message in the middle of the plot. */
export function emptyMessage(g: G, text: string) {
  g.append('text').attr('class', 'chart-empty').attr('x', PLOT_W / 2).attr('y', PLOT_H / 2).attr('text-anchor', 'middle').text(text);
}
