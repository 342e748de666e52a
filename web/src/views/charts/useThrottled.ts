// Throttling for the live charts and tables: the run states change with
// every worker frame (up to ~80 times a second); these views update at most
// every `ms`, each in its own task, and not at all while the page plays
// with the chart out of sight.

import { startTransition, useEffect, useRef, useState, type RefObject } from 'react';

/**
 * `value`, but updated at most once every `ms` milliseconds; the latest
 * value always arrives (a trailing update), so a finished run shows its
 * final state within `ms`. Every hook gets its own random phase, so the
 * several charts of the page do not all redraw in the same task (one long
 * task would stall the animation), and each update renders as a React
 * transition, in slices between animation frames.
 *
 * While `hold` is true the value shown stays as it is; the latest value
 * arrives within `ms` once `hold` is false again.
 */
export function useThrottled<T>(value: T, ms = 250, hold = false): T {
  const [shown, setShown] = useState(value);
  const last = useRef(-Infinity);
  const phase = useRef(Math.random() * ms * 0.4);
  useEffect(() => {
    if (hold || Object.is(value, shown)) return;
    const wait = Math.max(0, last.current + ms - performance.now()) + phase.current;
    const t = setTimeout(() => {
      last.current = performance.now();
      startTransition(() => setShown(() => value));
    }, wait);
    return () => clearTimeout(t);
  }, [value, shown, ms, hold]);
  return shown;
}

/**
 * Whether the element is within `marginPx` of the viewport (true until the
 * browser says otherwise, and where IntersectionObserver is missing).
 */
export function useOnScreen(ref: RefObject<Element | null>, marginPx = 200): boolean {
  const [on, setOn] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((es) => setOn(es[es.length - 1].isIntersecting), { rootMargin: `${marginPx}px` });
    io.observe(el);
    return () => io.disconnect();
  }, [ref, marginPx]);
  return on;
}

/**
 * The runs a chart draws: `useThrottled(runs, 250)`, held while the page
 * plays and the chart (`ref`) is out of sight. A chart below the networks
 * redrew four times a second for nobody; its D3 axes and paths were most of
 * the page's script while a lesson played. Paused,
 * stepped or seeked, every chart updates as before, seen or not (an export
 * or a test may read it).
 */
export function useChartRuns<T>(runs: T, playing: boolean, ref: RefObject<Element | null>): T {
  const onScreen = useOnScreen(ref);
  return useThrottled(runs, 250, playing && !onScreen);
}
