// The timeline scrubber under the transport bar (time travel, issue 16):
// drag or use the keys to go to any simulated time; step back one event or
// one RTT. The shaded part is what the workers have explored (checkpoints
// exist there, so a seek replays at most one checkpoint interval); the
// line under it says how much memory the checkpoints hold.

import { useState } from 'react';
import { fmtTime, type Conductor, type ConductorState } from '../state/conductor';

/** Positions on the scrubber (it maps 0..STEPS onto 0..end). */
const STEPS = 1000;

/** "12.3 MB". */
function fmtMb(b: number): string {
  return `${(b / 2 ** 20).toFixed(1)} MB`;
}

/** The end of the scrubber: the explored extent (the run's end once explored), never less than the time on screen. */
export function scrubberEnd(s: ConductorState): { endPs: number; exploredPs: number; all: boolean } {
  const ts = s.timelines.filter((t) => t !== null);
  const exploredPs = ts.length ? Math.min(...ts.map((t) => t!.explored_ps)) : 0;
  const all = ts.length === s.timelines.length && ts.length > 0 && ts.every((t) => t!.explored_all);
  const reached = Math.max(0, ...s.runs.map((r) => (Number.isFinite(r.nowPs) ? r.nowPs : 0)));
  const endPs = Math.max(exploredPs, reached, s.displayPs, 1);
  return { endPs, exploredPs, all };
}

/** The timeline scrubber and the step-back buttons. */
export function Scrubber({ c, s }: { c: Conductor; s: ConductorState }) {
  const [drag, setDrag] = useState<number | null>(null);
  const { endPs, exploredPs, all } = scrubberEnd(s);
  const busy = !s.loaded || s.seeking;
  const value = drag ?? Math.round((s.displayPs / endPs) * STEPS);
  const bytes = s.timelines.reduce((a, t) => a + (t?.bytes ?? 0), 0);
  const budget = s.timelines.reduce((a, t) => a + (t?.budget_bytes ?? 0), 0);
  const cps = s.timelines.reduce((a, t) => a + (t ? t.coarse + t.fine : 0), 0);
  const go = (v: number) => c.seek((v / STEPS) * endPs);
  return (
    <div className="scrubber" data-testid="scrubber">
      <button data-testid="step-back-event" onClick={() => c.stepBack()} disabled={busy || s.displayPs <= 0} title="step back one event (←)">
        ← Event
      </button>
      <button data-testid="step-back-rtt" onClick={() => c.stepBackRtt()} disabled={busy || s.displayPs <= 0} title="step back one base RTT (shift+R)">
        −1 RTT
      </button>
      <div className="scrub-track">
        <div className="scrub-explored" style={{ width: `${(100 * Math.min(exploredPs, endPs)) / endPs}%` }} />
        {s.divergencePs !== null && (
          <div className="scrub-divergence" data-testid="divergence-mark" style={{ left: `${(100 * s.divergencePs) / endPs}%` }} title={`branch diverges at t = ${fmtTime(s.divergencePs)}`} />
        )}
        <input
          type="range"
          min={0}
          max={STEPS}
          step={1}
          value={value}
          disabled={busy}
          aria-label="simulated time"
          aria-valuetext={fmtTime(drag !== null ? (drag / STEPS) * endPs : s.displayPs)}
          data-testid="scrubber-range"
          onChange={(e) => {
            const v = Number(e.target.value);
            setDrag(v);
            go(v);
          }}
          onPointerUp={() => setDrag(null)}
          onKeyUp={() => setDrag(null)}
          onBlur={() => setDrag(null)}
        />
      </div>
      <span className="scrub-info" data-testid="scrub-info">
        {fmtTime(s.displayPs)} / {all ? fmtTime(endPs) : `${fmtTime(exploredPs)} explored…`}
        {s.lastSeekMs !== null && <> · last seek {s.lastSeekMs.toFixed(0)} ms</>}
        {budget > 0 && (
          <span title="memory the checkpoints hold (bounded: the interval doubles when they reach the budget)" data-testid="checkpoint-memory" data-bytes={bytes}>
            {' '}
            · {cps} checkpoints, {fmtMb(bytes)} of {fmtMb(budget)}
          </span>
        )}
      </span>
    </div>
  );
}
