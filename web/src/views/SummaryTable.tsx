// The numbers of every run side by side: live "so far" figures while a run
// goes, the engine's own summary (the same object `dcsim run --json`
// prints) once it has finished.

import { memo, useMemo, useRef, type ReactNode } from 'react';
import type { RunState } from '../state/run';
import type { Summary } from '../engine/api';
import { liveSummary, type LiveBucket } from './stats';
import { count, pct, sig } from '../format/format';
import { useThrottled } from './charts/useThrottled';
import { stabilityNotes } from './stability';
import './views.css';

/** Props of {@link SummaryTable}. */
export interface SummaryTableProps {
  runs: RunState[];
}

/** One cell: a final engine number (exact value in data-value) or a live figure. */
interface Cell {
  /** Shown text. */
  text: string;
  /** The exact number, for data-value (final numbers only). */
  value?: number;
  /** data-testid key (final numbers only). */
  key?: string;
  live?: boolean;
  title?: string;
}

interface Row {
  label: ReactNode;
  cells: Cell[];
  group?: string;
}

const final = (key: string, value: number, text: string): Cell => ({ key, value, text });
const liveCell = (text: string): Cell => ({ text, live: true });
const none: Cell = { text: '–' };

/** The rows of the table for these runs. */
function summaryRows(runs: RunState[], live: ({ all: LiveBucket; short: LiveBucket; medium: LiveBucket; long: LiveBucket } | null)[]): Row[] {
  const per = <T,>(f: (s: Summary, r: RunState) => T, g: (r: RunState, i: number) => T) => runs.map((r, i) => (r.summary ? f(r.summary, r) : g(r, i)));
  const bucketRow = (label: string, b: 'all' | 'short' | 'medium' | 'long', key: string): Row => ({
    label,
    cells: per(
      (s) => (s[b].flows ? final(key, s[b].mean_slowdown, sig(s[b].mean_slowdown)) : final(key, s[b].mean_slowdown, '–')),
      (_r, i) => (live[i] && live[i]![b].flows ? liveCell(sig(live[i]![b].meanSlowdown)) : none),
    ),
  });
  const wallS = (r: RunState) => r.wallMs / 1000;
  return [
    {
      label: 'flows completed / total',
      cells: runs.map((r) =>
        r.summary ? { text: '', key: 'completed', value: r.summary.completed } : { text: `${count(r.done)} / ${count(r.total)}`, live: true },
      ),
    },
    bucketRow('mean slowdown (all flows)', 'all', 'mean_slowdown'),
    bucketRow('mean slowdown, short flows (under 100 KB)', 'short', 'short_mean_slowdown'),
    bucketRow('mean slowdown, medium flows (100 KB to 10 MB)', 'medium', 'medium_mean_slowdown'),
    bucketRow('mean slowdown, long flows (over 10 MB)', 'long', 'long_mean_slowdown'),
    {
      label: '99th percentile slowdown',
      cells: per(
        (s) => final('p99_slowdown', s.all.p99_slowdown, s.all.flows ? sig(s.all.p99_slowdown) : '–'),
        (_r, i) => (live[i]?.all.flows ? liveCell(sig(live[i]!.all.p99Slowdown)) : none),
      ),
    },
    {
      label: '99th percentile slowdown, short flows (under 100 KB)',
      cells: per(
        (s) => final('short_p99_slowdown', s.short.p99_slowdown, s.short.flows ? sig(s.short.p99_slowdown) : '–'),
        (_r, i) => (live[i]?.short.flows ? liveCell(sig(live[i]!.short.p99Slowdown)) : none),
      ),
    },
    {
      label: 'average flow completion time (µs)',
      cells: per(
        (s) => final('afct_us', s.all.afct_us, s.all.flows ? sig(s.all.afct_us) : '–'),
        (_r, i) => (live[i]?.all.flows ? liveCell(sig(live[i]!.all.afctUs)) : none),
      ),
    },
    {
      label: 'drop rate (data packets)',
      cells: per(
        (s) => final('drop_rate', s.drop_rate, pct(s.drop_rate)),
        () => none,
      ),
    },
    ...(['host NIC', 'ToR up', 'core down', 'ToR down'] as const).map((hop, h) => ({
      label: `data packets dropped at ${hop}`,
      group: 'hop',
      cells: per(
        (s) => final(`drops_${['host_nic', 'tor_up', 'core_down', 'tor_down'][h]}`, s.drops_by_hop[h], count(s.drops_by_hop[h])),
        () => none,
      ),
    })),
    {
      label: 'throughput (Gbps)',
      cells: per(
        (s) => final('throughput_gbps', s.throughput_gbps, sig(s.throughput_gbps)),
        () => none,
      ),
    },
    {
      label: 'control overhead (control bytes per data byte)',
      cells: per(
        (s) => final('control_overhead', s.control_overhead, pct(s.control_overhead)),
        () => none,
      ),
    },
    {
      label: 'stable',
      cells: per(
        (s) => ({ text: s.stable ? 'yes' : `${s.note ?? 'no: backlog grew or flows unfinished'} (see below)`, title: 'pending bytes must not keep growing through the arrivals (means are not meaningful otherwise)' }),
        () => none,
      ),
    },
    {
      label: 'simulated time (µs)',
      cells: per(
        (s) => final('sim_time_us', s.sim_time_us, sig(s.sim_time_us, 6)),
        (r) => liveCell(sig(r.nowPs / 1e6, 6)),
      ),
    },
    {
      label: 'events',
      cells: per(
        (s) => final('events', s.events, count(s.events)),
        (r) => liveCell(count(r.events)),
      ),
    },
    {
      label: 'wall time (s)',
      cells: runs.map((r) => ({ text: sig(wallS(r)), live: !r.summary, key: r.summary ? 'wall_s' : undefined, value: r.summary ? wallS(r) : undefined })),
    },
    {
      label: 'events per second',
      cells: runs.map((r) => {
        const ev = r.summary ? r.summary.events : r.events;
        return wallS(r) > 0 && ev > 0 ? { text: sig(ev / wallS(r)), live: !r.summary } : none;
      }),
    },
  ];
}

/**
 * The summary table: one column per run. While a run goes, figures are
 * computed from the flows completed so far and marked "so far"; once the
 * engine's summary arrives the cells show it, each carrying
 * data-testid="summary-{run}-{key}" and the exact number in data-value.
 */
export function SummaryTable({ runs }: SummaryTableProps) {
  const shown = useThrottled(runs, 250);
  // Finished runs render at once (their numbers no longer change); live ones at most 4 times a second.
  const next = runs.map((r, i) => (r.summary || shown[i]?.protocol !== r.protocol ? r : shown[i]));
  // The same runs give the same array, so the table body is not rebuilt on every animation frame.
  const last = useRef<RunState[]>([]);
  if (next.length !== last.current.length || next.some((r, i) => r !== last.current[i])) last.current = next;
  const view = last.current;
  const live = useMemo(() => shown.map((r) => (r.summary ? null : liveSummary(r.flows))), [shown]);
  const notes = stabilityNotes(view.map((r) => ({ label: r.protocol, summary: r.summary })));
  return (
    <>
      <SummaryBody view={view} shown={shown} live={live} />
      {notes.map((n) => (
        <section key={n.kind} className="stability-note" data-testid={`unstable-explained-${n.kind}`} aria-label={n.title}>
          <h4>
            {n.title} <small>({n.runs.join(', ')})</small>
          </h4>
          {n.paragraphs.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </section>
      ))}
    </>
  );
}

const SummaryBody = memo(function SummaryBody({ view, shown, live }: { view: RunState[]; shown: RunState[]; live: (ReturnType<typeof liveSummary> | null)[] }) {
  const liveFor = view.map((r, i) => (r.summary || r !== shown[i] ? null : (live[i] ?? null)));
  const rows = summaryRows(view, liveFor);
  return (
    <table className="summary-table" data-testid="summary-table">
      <thead>
        <tr>
          <th scope="col">protocol</th>
          {view.map((r, i) => (
            <th key={i} scope="col" data-testid={`summary-${i}-protocol`} data-value={r.protocol}>
              {r.protocol}
              {!r.summary && <span className="so-far">{r.running ? ' running, so far' : ' so far'}</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, j) => (
          <tr key={j} className={row.group}>
            <th scope="row">{row.label}</th>
            {row.cells.map((c, i) =>
              j === 0 && c.key === 'completed' ? (
                <td key={i}>
                  <span data-testid={`summary-${i}-completed`} data-value={String(c.value)}>
                    {count(c.value!)}
                  </span>
                  {' / '}
                  <span data-testid={`summary-${i}-flows`} data-value={String(view[i].summary!.flows)}>
                    {count(view[i].summary!.flows)}
                  </span>
                </td>
              ) : (
                <td
                  key={i}
                  className={c.live ? 'live' : undefined}
                  title={c.title ?? (c.live ? 'so far: from the flows completed up to now' : c.value !== undefined ? String(c.value) : undefined)}
                  data-testid={c.key !== undefined ? `summary-${i}-${c.key}` : undefined}
                  data-value={c.key !== undefined && c.value !== undefined ? String(c.value) : undefined}
                >
                  {c.text}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
});
