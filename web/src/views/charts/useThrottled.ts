// Throttling for the live charts: the run states change with every worker
// frame (up to ~80 times a second); the charts redraw at most every `ms`.

import { useEffect, useRef, useState } from 'react';

/**
 * `value`, but updated at most once every `ms` milliseconds; the latest
 * value always arrives (a trailing update), so a finished run shows its
 * final state within `ms`.
 */
export function useThrottled<T>(value: T, ms = 250): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const wait = last.current + ms - performance.now();
    const apply = () => {
      last.current = performance.now();
      setShown(() => value);
    };
    if (wait <= 0) {
      apply();
      return;
    }
    const t = setTimeout(apply, wait);
    return () => clearTimeout(t);
  }, [value, shown, ms]);
  return shown;
}
