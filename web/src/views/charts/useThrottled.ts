// Throttling for the live charts and tables: the run states change with
// every worker frame (up to ~80 times a second); these views update at most
// every `ms`, each in its own task.

import { startTransition, useEffect, useRef, useState } from 'react';

/**
 * `value`, but updated at most once every `ms` milliseconds; the latest
 * value always arrives (a trailing update), so a finished run shows its
 * final state within `ms`. Every hook gets its own random phase, so the
 * several charts of the page do not all redraw in the same task (one long
 * task would stall the animation), and each update renders as a React
 * transition, in slices between animation frames.
 */
export function useThrottled<T>(value: T, ms = 250): T {
  const [shown, setShown] = useState(value);
  const last = useRef(-Infinity);
  const phase = useRef(Math.random() * ms * 0.4);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const wait = Math.max(0, last.current + ms - performance.now()) + phase.current;
    const t = setTimeout(() => {
      last.current = performance.now();
      startTransition(() => setShown(() => value));
    }, wait);
    return () => clearTimeout(t);
  }, [value, shown, ms]);
  return shown;
}
