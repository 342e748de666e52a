// The control-plane panel's rows (pure, no DOM): each flow's latest
// scheduling decision at the time on screen.

import type { FlowControl, FlowDecision } from '../state/run';

/** One row of the control-plane panel. */
export interface ControlRow {
  flow: number;
  decision: FlowDecision;
  /** Decisions the flow has had so far (all of them, not only those kept). */
  count: number;
  /** The flow finished at or before the time on screen. */
  finished: boolean;
}

/**
 * The flows with a decision at or before `nowPs`, most urgent first: by
 * priority queue (0 first; flows without one after), then the higher rate
 * (paused flows last), then flow id. At most `limit` rows.
 */
export function controlRows(control: ReadonlyMap<number, FlowControl>, nowPs: number, limit = 12): ControlRow[] {
  const rows: ControlRow[] = [];
  for (const [flow, c] of control) {
    let d: FlowDecision | undefined;
    for (let i = c.decisions.length - 1; i >= 0; i--) {
      if (c.decisions[i].tPs <= nowPs) {
        d = c.decisions[i];
        break;
      }
    }
    if (!d) continue;
    const shownBefore = c.decisions.filter((x) => x.tPs > nowPs).length;
    rows.push({ flow, decision: d, count: c.count - shownBefore, finished: c.finishedPs !== null && c.finishedPs <= nowPs });
  }
  const q = (r: ControlRow) => (r.finished ? 1e9 : 0) + (r.decision.queue ?? 1e6);
  rows.sort((a, b) => q(a) - q(b) || b.decision.rateBps - a.decision.rateBps || a.flow - b.flow);
  return rows.slice(0, limit);
}
