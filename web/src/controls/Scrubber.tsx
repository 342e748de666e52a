// The timeline scrubber under the transport bar (time travel, issue 16):
// drag or use the keys to go to any simulated time; step back one event or
// one RTT. The shaded part is what the workers have explored (checkpoints
// exist there, so a seek replays at most one checkpoint interval); the
// line under it says how much memory the checkpoints hold. Ticks mark the
// drops of every run (red, from a scan of the whole runs in the
// background, for runs of lesson size) and a lesson's steps (numbered).

import { useEffect, useMemo, useState } from 'react';
import type { Conductor, ConductorState } from '../state/conductor';
import { useClockText } from './useClock';
import { fmtTime, plural } from '../format/format';
import { DROP_SCAN_MAX_FLOWS, scanDrops, tickPositions, type ScannedRun } from '../state/dropScan';

/** Positions on the scrubber (it maps 0..STEPS onto 0..end). */
const STEPS = 1000;

/** "12.3 MB". */
function fmtMb(b: number): string {
  return `${(b / 2 ** 20).toFixed(1)} MB`;
}

/** Drop ticks are drawn at this many positions along the track (one per position at most). */
const TICK_POSITIONS = 400;

/**
 * The end of the scrubber: the explored extent (the run's end once
 * explored, or once a drop scan has been through every run), never less
 * than the time on screen.
 */
export function scrubberEnd(s: ConductorState, scan: ScannedRun[] | null = null): { endPs: number; exploredPs: number; all: boolean } {
  const ts = s.timelines.filter((t) => t !== null);
  const exploredPs = ts.length ? Math.min(...ts.map((t) => t!.explored_ps)) : 0;
  const scanned = scan !== null && scan.length === s.runs.length && scan.every((r) => r.ended);
  const all = (ts.length === s.timelines.length && ts.length > 0 && ts.every((t) => t!.explored_all)) || scanned;
  const reached = Math.max(0, ...s.runs.map((r) => (Number.isFinite(r.nowPs) ? r.nowPs : 0)));
  const scanEnd = scanned ? Math.max(...scan.map((r) => r.reachedPs)) : 0;
  const endPs = Math.max(exploredPs, reached, s.displayPs, scanEnd, 1);
  return { endPs, exploredPs, all };
}

/** Scans the drops of the runs on screen when they are small enough (see state/dropScan.ts); null until the first run is scanned. */
function useDropScan(s: ConductorState): ScannedRun[] | null {
  const [scan, setScan] = useState<ScannedRun[] | null>(null);
  const flows = s.runs[0]?.total || Number(s.settings.scenario.workload?.flows ?? Infinity);
  const small = s.loaded && flows <= DROP_SCAN_MAX_FLOWS;
  // The settings object is replaced only by a load or a branch: its text is computed then, not on every frame.
  const key = useMemo(() => JSON.stringify(s.settings), [s.settings]);
  useEffect(() => {
    setScan(null);
    if (!small) return;
    return scanDrops(JSON.parse(key), setScan);
  }, [key, small]);
  return scan;
}

/** The timeline scrubber and the step-back buttons; `steps`: the open lesson's, ticked on the track. */
export function Scrubber({ c, s, steps = [] }: { c: Conductor; s: ConductorState; steps?: readonly { at_us: number; title: string }[] }) {
  const scan = useDropScan(s);
  const { endPs, exploredPs, all } = scrubberEnd(s, scan);
  const drops = useMemo(() => (scan ? tickPositions(scan.flatMap((r) => r.dropPs), endPs, TICK_POSITIONS) : []), [scan, endPs]);
  const nDrops = scan ? scan.reduce((n, r) => n + r.dropPs.length, 0) : 0;
  const busy = !s.loaded || s.seeking;
  const bytes = s.timelines.reduce((a, t) => a + (t?.bytes ?? 0), 0);
  const budget = s.timelines.reduce((a, t) => a + (t?.budget_bytes ?? 0), 0);
  const cps = s.timelines.reduce((a, t) => a + (t ? t.coarse + t.fine : 0), 0);
  return (
    <div className="scrubber" data-testid="scrubber">
      <button data-testid="step-back-event" onClick={() => c.stepBack()} disabled={busy || s.displayPs <= 0} title="step back one event (←)">
        ← Event
      </button>
      <button data-testid="step-back-rtt" onClick={() => c.stepBackRtt()} disabled={busy || s.displayPs <= 0} title="step back one base RTT (shift+R)">
        −1 RTT
      </button>
      <div className="scrub-track">
        <div className="scrub-explored" data-testid="scrub-explored" data-explored-ps={exploredPs} style={{ width: `${(100 * Math.min(exploredPs, endPs)) / endPs}%` }} />
        {scan && (
          <div
            className="scrub-drops"
            data-testid="scrub-drop-ticks"
            data-count={nDrops}
            data-first-ps={nDrops ? Math.min(...scan.map((r) => (r.dropPs.length ? r.dropPs[0] : Infinity))) : ''}
            title={nDrops ? `red ticks: ${nDrops.toLocaleString('en')} ${nDrops === 1 ? 'drop' : 'drops'} in ${scan.map((r) => `${r.label} ${r.dropPs.length.toLocaleString('en')}`).join(', ')} (d / shift+d go to the next / previous one)` : `no drop in ${scan.map((r) => r.label).join(', ')}`}
          >
            {drops.map((p) => (
              <span key={p} className="scrub-drop" style={{ left: `${(100 * p) / TICK_POSITIONS}%` }} />
            ))}
          </div>
        )}
        {steps.map((st, i) => (
          <span key={i} className="scrub-step" data-testid={`scrub-step-${i}`} style={{ left: `${(100 * Math.min(st.at_us * 1e6, endPs)) / endPs}%` }} title={`step ${i + 1}: ${st.title} (t = ${fmtTime(st.at_us * 1e6)})`} aria-hidden="true">
            {i + 1}
          </span>
        ))}
        {s.divergencePs !== null && (
          <div className="scrub-divergence" data-testid="divergence-mark" style={{ left: `${(100 * s.divergencePs) / endPs}%` }} title={`branch diverges at t = ${fmtTime(s.divergencePs)}`} />
        )}
        <ScrubRange c={c} endPs={endPs} busy={busy} />
      </div>
      <span className="scrub-info" data-testid="scrub-info">
        <ClockText c={c} /> / {all ? fmtTime(endPs) : `${fmtTime(exploredPs)} explored…`}
        {s.lastSeekMs !== null && <> · last seek {s.lastSeekMs.toFixed(0)} ms</>}
        {budget > 0 && (
          <span title="memory the checkpoints hold (bounded: the interval doubles when they reach the budget)" data-testid="checkpoint-memory" data-bytes={bytes}>
            {' '}
            · {plural(cps, 'checkpoint')}, {fmtMb(bytes)} of {fmtMb(budget)}
          </span>
        )}
      </span>
    </div>
  );
}

/** The current time as text, following the conductor's clock (useClockText), re-rendering only itself. */
function ClockText({ c }: { c: Conductor }) {
  return <>{fmtTime(useClockText(c))}</>;
}

/**
 * The scrubber's slider: follows the conductor's clock (useClockText),
 * re-rendering only itself; dragging it seeks. `endPs`: the end of
 * the track (the page's state), never less than the time on screen.
 */
function ScrubRange({ c, endPs: stateEnd, busy }: { c: Conductor; endPs: number; busy: boolean }) {
  const [drag, setDrag] = useState<number | null>(null);
  const ps = useClockText(c);
  const endPs = Math.max(stateEnd, ps);
  const value = drag ?? Math.round((ps / endPs) * STEPS);
  return (
    <input
      type="range"
      min={0}
      max={STEPS}
      step={1}
      value={value}
      disabled={busy}
      aria-label="simulated time"
      aria-valuetext={fmtTime(drag !== null ? (drag / STEPS) * endPs : ps)}
      data-testid="scrubber-range"
      onChange={(e) => {
        const v = Number(e.target.value);
        setDrag(v);
        c.seek((v / STEPS) * endPs);
      }}
      onPointerUp={() => setDrag(null)}
      onKeyUp={() => setDrag(null)}
      onBlur={() => setDrag(null)}
    />
  );
}
