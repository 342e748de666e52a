// The conductor's clock for what people read (the clock, the scrubber):
// every change at once while paused or stepping; while playing at most
// every CLOCK_TEXT_MS, as digits that change 60 times a second cannot be
// read, and every change of text lays out the page again (and, under a
// resting mouse pointer, hit-tests it).

import { useEffect, useState } from 'react';
import type { Conductor } from '../state/conductor';

/** Most often the clock's text changes while playing, ms. */
export const CLOCK_TEXT_MS = 100;

/** The time on screen, picoseconds, for a view that shows it as text (see above). */
export function useClockText(c: Conductor): number {
  const [ps, setPs] = useState(c.getClock);
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      timer = undefined;
      last = performance.now();
      setPs(c.getClock());
    };
    show();
    const off = c.subscribeClock(() => {
      const wait = c.getState().mode === 'playing' ? last + CLOCK_TEXT_MS - performance.now() : 0;
      if (wait <= 0) {
        clearTimeout(timer);
        show();
      } else if (timer === undefined) timer = setTimeout(show, wait);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [c]);
  return ps;
}
