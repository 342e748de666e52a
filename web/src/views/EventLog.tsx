// The narration panel: the latest trace records of a run in words.

import { memo, useMemo, useState } from 'react';
import type { Topology } from '../engine/api';
import type { RunState } from '../state/run';
import { recentLines } from './eventText';
import { useThrottled } from './charts/useThrottled';
import './views.css';

/** Props of {@link EventLog}. */
export interface EventLogProps {
  run: RunState;
  topology: Topology | null;
  /** Hide records after this simulated time (the time on screen), ps. */
  nowPs?: number;
  /** Lines shown (default 40). */
  limit?: number;
}

function EventLogImpl({ run, topology, nowPs, limit = 40 }: EventLogProps) {
  const [everything, setEverything] = useState(false);
  // The run state keeps notable records from every frame in full (state/run.ts); the list is redrawn at most ~7 times a second.
  const log = useThrottled(everything ? run.log : run.notable, 150);
  const traceOff = run.log.length === 0 && run.events > 0;
  const list = useMemo(() => {
    let recs = log;
    if (nowPs !== undefined) {
      let end = recs.length;
      while (end > 0 && recs[end - 1].tPs > nowPs) end--;
      if (end < recs.length) recs = recs.slice(0, end);
    }
    const lines = recentLines(recs, topology, limit);
    if (!lines.length)
      return <p className="note">{traceOff ? 'No events recorded here yet (the packet trace is off at full speed and while seeking).' : 'Nothing notable yet: drops, marks, timeouts and finished flows appear here.'}</p>;
    return (
      // Focusable (it scrolls) and named, so a screen reader can find and read it.
      <ol className="event-lines" tabIndex={0} aria-label={`events of the ${run.protocol} run, newest first`}>
        {lines.map((l, i) => (
          <li key={i} className={`ev-${l.tone}`}>
            <span className="ev-time">{l.time}</span> {l.text}
          </li>
        ))}
      </ol>
    );
  }, [log, nowPs, topology, limit, traceOff, run.protocol]);
  return (
    <section className="event-log" data-testid="event-log" aria-label={`event log of the ${run.protocol} run`}>
      <div className="event-log-head">
        <strong>Events</strong>
        <label>
          <input type="checkbox" checked={everything} onChange={(e) => setEverything(e.target.checked)} /> every enqueue and dequeue
        </label>
      </div>
      {list}
    </section>
  );
}

/**
 * The last events of a run, newest first, in words: "t=12.345 µs port
 * tor3→h50: flow 17 seq 4 dropped (least urgent)", "flow 17 finished",
 * timeouts, control messages. By default only the notable events (kept
 * beyond the run's short rolling log); a box shows every enqueue and
 * dequeue too. Re-renders only when the log changes, at most ~7 times a
 * second.
 */
export const EventLog = memo(
  EventLogImpl,
  (a, b) =>
    a.run.log === b.run.log &&
    a.topology === b.topology &&
    a.nowPs === b.nowPs &&
    a.limit === b.limit &&
    (a.run.events > 0) === (b.run.events > 0),
);
