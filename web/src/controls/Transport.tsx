// The transport bar: play, pause, step one event, step one RTT, full
// speed, restart, seek, speed, each with a keyboard shortcut (shown on the
// button and in the help line); the keys of EventNav's buttons (next and
// previous drop, mark, token, decision, completion) are handled here too.

import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Conductor, ConductorState } from '../state/conductor';
import { useClockText } from './useClock';
import { fmtClock, fmtTime, NAV_TEXT } from '../format/format';
import { NAV_EVENTS } from '../engine/api';
import { NAV_KEYS, navKey } from './EventNav';

/** Speeds on the slider: simulated picoseconds per wall second (log scale), 10 ns/s to 100 ms/s. */
export const SPEED_MIN = 1e4;
export const SPEED_MAX = 1e11;

/** Keyboard shortcuts: key -> [action, label]. */
export const SHORTCUTS: Record<string, string> = {
  ' ': 'play / pause',
  ArrowRight: 'step one event',
  ArrowLeft: 'step back one event',
  r: 'step one RTT',
  R: 'step back one RTT (shift+r)',
  ...Object.fromEntries(NAV_EVENTS.flatMap((ev) => [[NAV_KEYS[ev], `next ${NAV_TEXT[ev].one}`], [NAV_KEYS[ev].toUpperCase(), `previous ${NAV_TEXT[ev].one} (shift+${NAV_KEYS[ev]})`]])),
  f: 'full speed to the end',
  '0': 'restart',
  g: 'seek to a time',
  '+': 'faster',
  '-': 'slower',
};

/**
 * The play controls of the shared timeline. `compact` keeps play/pause and
 * the steps (the embedded player, presentation mode); `keys: false` leaves
 * the keyboard to the caller (presentation mode's clicker keys).
 */
export function Transport({ c, s, compact = false, keys = true }: { c: Conductor; s: ConductorState; compact?: boolean; keys?: boolean }) {
  const [seekUs, setSeekUs] = useState('');
  const busy = !s.loaded || s.seeking;
  // At the end: every run finished and none rewound (a seek back makes them run again).
  const done = s.runs.length > 0 && s.runs.every((r) => r.summary && !r.running);

  useEffect(() => {
    if (!keys) return;
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const st = c.getState();
      const nav = navKey(e.key);
      if (nav) {
        e.preventDefault();
        return c.goToEvent(nav.event, nav.direction);
      }
      switch (e.key) {
        case ' ':
          st.mode === 'playing' || st.mode === 'full' ? c.pause() : c.play();
          break;
        case 'ArrowRight':
          c.stepEvent();
          break;
        case 'ArrowLeft':
          c.stepBack();
          break;
        case 'r':
          c.stepRtt();
          break;
        case 'R':
          c.stepBackRtt();
          break;
        case 'f':
          c.fullSpeed();
          break;
        case '0':
          c.restartRun();
          break;
        case 'g':
          (document.getElementById('seek-input') as HTMLInputElement | null)?.focus();
          break;
        case '+':
        case '=':
          c.setSpeed(Math.min(SPEED_MAX, st.speed * 2));
          break;
        case '-':
          c.setSpeed(Math.max(SPEED_MIN, st.speed / 2));
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [c, keys]);

  return (
    <div className="transport" role="toolbar" aria-label="simulation controls">
      {s.mode === 'playing' || s.mode === 'full' ? (
        <button className="primary" data-testid="pause" onClick={() => c.pause()} title="pause (space)">
          ❚❚ Pause
        </button>
      ) : (
        <button className="primary" data-testid="play" onClick={() => c.play()} disabled={busy || done} title="play (space)">
          ▶ Play
        </button>
      )}
      <button data-testid="step-event" onClick={() => c.stepEvent()} disabled={busy || done} title="step one event (→)">
        → Event
      </button>
      <button data-testid="step-rtt" onClick={() => c.stepRtt()} disabled={busy || done} title="step one base RTT (r)">
        +1 RTT
      </button>
      {compact && (
        <button data-testid="step-back-rtt-compact" onClick={() => c.stepBackRtt()} disabled={busy || s.displayPs <= 0} title="step back one base RTT">
          −1 RTT
        </button>
      )}
      {!compact && (<>
      <button data-testid="full-speed" onClick={() => c.fullSpeed()} disabled={busy || done || s.mode === 'full'} title="run to the end as fast as the engine goes, animation off (f)">
        » Full speed
      </button>
      <button data-testid="restart" onClick={() => c.restartRun()} disabled={!s.loaded && !s.crashed} title="restart from time zero (0)">
        ⟲ Restart
      </button>
      <Speed c={c} />
      <form
        className="seek"
        onSubmit={(e) => {
          e.preventDefault();
          const us = Number(seekUs);
          if (Number.isFinite(us) && us >= 0) c.seek(us * 1e6);
          // Leave the box, so that the keys (space, arrows, d, ...) work again at once.
          (document.getElementById('seek-input') as HTMLInputElement | null)?.blur();
        }}
      >
        <input id="seek-input" data-testid="seek-input" placeholder="seek to µs (g)" value={seekUs} onChange={(e) => setSeekUs(e.target.value)} size={12} />
        <button type="submit" disabled={busy} data-testid="seek" title="go to this time, earlier or later (time travel: from the nearest checkpoint)">
          Seek
        </button>
      </form>
      </>)}
      <Clock c={c} s={s} />
    </div>
  );
}

/**
 * The one clock: to the nanosecond while paused and stepping (events a few
 * ns apart read apart), coarser while playing. It follows the conductor's
 * clock (useClockText), re-rendering only itself.
 */
function Clock({ c, s }: { c: Conductor; s: ConductorState }) {
  const ps = useClockText(c);
  return (
    <span className="clock" data-testid="clock" data-ps={String(ps)} title={`${(ps / 1e6).toFixed(6)} µs`}>
      t = {s.mode === 'paused' ? fmtClock(ps) : fmtTime(ps)} · RTT {fmtTime(s.rttPs)}
    </span>
  );
}

/**
 * The speed slider. It follows the conductor's speed as a clock listener
 * (`getLive().speed`), so a drag re-renders the slider alone, at once;
 * the page hears of the new speed as a background change (`setSpeed`).
 */
function Speed({ c }: { c: Conductor }) {
  const speed = useSyncExternalStore(c.subscribeClock, () => c.getLive().speed);
  return (
    <label className="speed" title="simulated time per wall-clock second (+ / -)">
      speed
      <input
        type="range"
        min={Math.log10(SPEED_MIN)}
        max={Math.log10(SPEED_MAX)}
        step={0.1}
        value={Math.log10(speed)}
        onChange={(e) => c.setSpeed(10 ** Number(e.target.value))}
        data-testid="speed"
      />
      <span className="speed-value">{fmtTime(speed)}/s</span>
    </label>
  );
}
