// The conductor's clock for what people read (the clock, the scrubber):
// every change at once while paused or stepping; while playing at most
// every CLOCK_TEXT_MS, as digits that change 60 times a second cannot be
// read, and every change of text lays out the page again (and, under a
// resting mouse pointer, hit-tests it).

import { useEffect, useState } from 'react';
import type { Conductor } from '../state/conductor';

/** Most often the clock's text changes while playing, ms. */
export const CLOCK_TEXT_MS = 100;

/**
 * The time on screen, picoseconds, for a view that shows it as text (see
 * above). While playing, every view's text changes in the same animation
 * frame (the frames are grouped into CLOCK_TEXT_MS bins of wall time), so
 * the clock and the scrubber cost one render and one layout, not one each.
 */
export function useClockText(c: Conductor): number {
  const [ps, setPs] = useState(c.getClock);
  useEffect(() => {
    let bin = -1;
    // The last move of a bin shows at the bin's end even if the clock stops moving then.
    let trailing: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      clearTimeout(trailing);
      trailing = undefined;
      setPs(c.getClock());
    };
    show();
    const off = c.subscribeClock(() => {
      if (c.getState().mode !== 'playing') return show();
      const now = performance.now();
      const b = Math.floor(now / CLOCK_TEXT_MS);
      if (b !== bin) {
        bin = b;
        show();
      } else if (trailing === undefined)
        trailing = setTimeout(() => {
          bin = Math.floor(performance.now() / CLOCK_TEXT_MS);
          show();
        }, (b + 1) * CLOCK_TEXT_MS - now);
    });
    return () => {
      off();
      clearTimeout(trailing);
    };
  }, [c]);
  return ps;
}
