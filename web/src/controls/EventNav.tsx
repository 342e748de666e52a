// Going to events: the previous and next drop, ECN mark, token, scheduling
// decision and flow completion of any run, each a button pair with a key
// (lower case: next; shift: previous). The clock lands exactly on the
// event's time (the worker finds it, time travel lands there).

import { NAV_EVENTS, type NavEvent } from '../engine/api';
import type { Conductor, ConductorState } from '../state/conductor';
import { NAV_TEXT } from '../format/format';

/** The key of each event (lower case: next; upper case, with shift: previous). */
export const NAV_KEYS: Record<NavEvent, string> = { drop: 'd', ecn_mark: 'm', token: 't', decision: 'a', flow_completed: 'c' };

/** The event a key goes to, and which way (null: not a navigation key). */
export function navKey(key: string): { event: NavEvent; direction: 'next' | 'previous' } | null {
  for (const event of NAV_EVENTS) {
    if (key === NAV_KEYS[event]) return { event, direction: 'next' };
    if (key === NAV_KEYS[event].toUpperCase()) return { event, direction: 'previous' };
  }
  return null;
}

/** The button pairs (◂ drop ▸ ...) under the transport bar. */
export function EventNav({ c, s }: { c: Conductor; s: ConductorState }) {
  const busy = !s.loaded || s.seeking;
  return (
    <div className="event-nav" role="group" aria-label="go to an event" data-testid="event-nav">
      <span>Go to the previous / next</span>
      {NAV_EVENTS.map((ev) => {
        const k = NAV_KEYS[ev];
        const t = NAV_TEXT[ev].one;
        return (
          <span key={ev} className="event-nav-pair">
            <button data-testid={`nav-previous-${ev}`} disabled={busy || s.displayPs <= 0} onClick={() => c.goToEvent(ev, 'previous')} aria-label={`previous ${t}`} title={`the previous ${t} of any run, exactly on its time (shift+${k})`}>
              ◂
            </button>
            <span aria-hidden="true">{t}</span>
            <button data-testid={`nav-next-${ev}`} disabled={busy} onClick={() => c.goToEvent(ev, 'next')} aria-label={`next ${t}`} title={`the next ${t} of any run, exactly on its time (${k})`}>
              ▸
            </button>
          </span>
        );
      })}
    </div>
  );
}
