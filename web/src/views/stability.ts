// What the summary's "unstable" means, in plain words (pure, no DOM): the
// summary table shows it under the numbers whenever a run is flagged, so a
// class reading a lesson's summary knows what the flag says about them.

import type { Summary } from '../engine/api';

/** An explanation of one kind of flag, and the runs it applies to. */
export interface StabilityNote {
  /** "backlog": pending bytes kept growing; "limit": a time or event limit stopped the run first. */
  kind: 'backlog' | 'limit';
  runs: string[];
  title: string;
  /** Paragraphs of plain text. */
  paragraphs: string[];
}

const BACKLOG: Omit<StabilityNote, 'runs'> = {
  kind: 'backlog',
  title: 'What "unstable: pending bytes kept growing" means',
  paragraphs: [
    'While flows arrive, dcsim watches the pending bytes: the bytes of the flows that have arrived and not yet finished. In a steady state the network carries what arrives, and the pending bytes go up and down around one level. dcsim flags a run when, over the last three quarters of the arrival period, they rose by more than their own average over that time (along a straight line fitted through them): work was piling up faster than it drained.',
    'In an overloaded network that goes on for good. In a short run, such as a lesson\'s hundred web search flows, a few of the largest flows (up to about 29 MB each) arriving near the end of the arrivals are enough: they are still being sent when the arrivals stop, so the pending bytes end high.',
    'Either way the run never settled, so its averages (mean slowdown, completion times, throughput) describe this stretch of time, not the protocol in the long run: the same protocol over more flows gives other numbers, larger ones when the backlog really grows. The runs side by side see the very same arrivals, so comparing them with each other is still fair. The pHost paper discusses this in its section 4.3 (Figure 7); the README\'s "Long runs" section shows the default fabric settling at 30,000 and 100,000 flows.',
  ],
};

const LIMIT: Omit<StabilityNote, 'runs'> = {
  kind: 'limit',
  title: 'What "unstable: stopped by ... before the workload finished" means',
  paragraphs: [
    'A limit of the scenario (max_time_ms or max_events) stopped the run, or the protocol stalled, before every flow that arrived had finished. The flows still unfinished are left out of the averages, and they are mostly the slow ones, so the averages look better than the run was: compare the flows completed with the flows that arrived, and raise the limit to see the rest.',
  ],
};

/** The explanations the runs' summaries call for (none when every run is stable), each naming its runs. */
export function stabilityNotes(runs: readonly { label: string; summary: Summary | null }[]): StabilityNote[] {
  const backlog: string[] = [];
  const limit: string[] = [];
  for (const r of runs) {
    const s = r.summary;
    if (!s || s.flows === 0) continue;
    if (s.stop !== 'all_flows_done') limit.push(r.label);
    else if (!s.stable) backlog.push(r.label);
  }
  return [...(backlog.length ? [{ ...BACKLOG, runs: backlog }] : []), ...(limit.length ? [{ ...LIMIT, runs: limit }] : [])];
}
