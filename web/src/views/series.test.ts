// Time series honest about time: points are cut where nothing was sampled
// (a seek, a long jump), a lone sample is a dot, an unknown value is left
// out, and thinning a long series keeps its gaps.

import { describe, expect, it } from 'vitest';
import { segmentSeries } from './stats';
import { applyFrame, emptyRun, SERIES_MAX_SPAN_PS, thin, type SeriesPoint } from '../state/run';
import type { Frame } from '../engine/api';

/** A frame at `nowPs` with `bytes` queued at one port and the flows completed in it. */
function frame(nowPs: number, bytes: number, reset = false, completions: number[] = []): Frame {
  return {
    type: 'frame', reset, replayed: 0, timeline: { coarse: 0, fine: 0, bytes: 0, budget_bytes: 1, interval_events: 1, explored_ps: 0, explored_all: false },
    nowPs, nextPs: nowPs + 1, events: 1, done: 0, total: 1, running: true, end: null,
    queueBytes: new Float64Array([bytes]), trace: new Float64Array(0), traceDropped: 0, completions: new Float64Array(completions), inspect: null, wallMs: 1,
  };
}

describe('time series gaps', () => {
  it('a seek and a jump longer than SERIES_MAX_SPAN_PS start a new piece; a goodput after a seek is unknown', () => {
    let r = emptyRun('pfabric');
    const step = 1_000_000; // 1 us
    for (const t of [0, step, 2 * step]) r = applyFrame(r, frame(t, 1500));
    r = applyFrame(r, frame(2 * step + SERIES_MAX_SPAN_PS + 1, 3000)); // a long jump
    r = applyFrame(r, frame(3 * step + SERIES_MAX_SPAN_PS + 1, 3000));
    r = applyFrame(r, frame(9e9, 0, true, [1, 1500, 0, 100, 1, 0, 1])); // a seek forward
    expect(r.series.map((p) => p.gap)).toEqual([false, false, false, true, false, true]);
    expect(r.series[5].goodputGbps).toBeNaN();
    expect(r.series[4].goodputGbps).toBe(0);
    const t = r.series.map((p) => p.tPs);
    const { lines, dots } = segmentSeries(t, r.series.map((p) => p.queuedBytes), r.series.map((p) => p.gap), 1e6, 'mean');
    expect(lines.map((l) => l.map((p) => p[0]))).toEqual([t.slice(0, 3), t.slice(3, 5)]);
    expect(dots).toEqual([[9e9, 0]]);
    // The unknown goodput is left out: no dot for it.
    expect(segmentSeries(t, r.series.map((p) => p.goodputGbps), r.series.map((p) => p.gap), 400, 'mean').dots).toEqual([]);
  });

  it('a value that is not finite cuts the line', () => {
    const { lines, dots } = segmentSeries([0, 1, 2, 3, 4], [1, 2, NaN, 3, 4], [false, false, false, false, false], 10, 'mean');
    expect(lines).toEqual([
      [
        [0, 1],
        [1, 2],
      ],
      [
        [3, 3],
        [4, 4],
      ],
    ]);
    expect(dots).toEqual([]);
  });

  it('thinning moves a gap of a dropped point to the next point kept', () => {
    const pts: SeriesPoint[] = [0, 1, 2, 3, 4, 5].map((t) => ({ tPs: t, queuedBytes: 0, maxPortBytes: 0, goodputGbps: 0, gap: t === 2 }));
    // Kept: 1, 3, 5 (the newest and every other one before it); the gap before 2 now lies before 3.
    expect(thin(pts).map((p) => [p.tPs, p.gap])).toEqual([
      [1, false],
      [3, true],
      [5, false],
    ]);
  });
});
