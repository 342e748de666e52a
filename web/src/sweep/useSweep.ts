// A sweep's life in a component: start a grid of points (each in its own
// worker, `parallelism()` at a time), follow its results as they come,
// cancel it, and stop it when the component goes away.

import { useCallback, useEffect, useRef, useState } from 'react';
import { parallelism, SweepRunner, type SweepPoint, type SweepResult } from './sweep';

/** A sweep started with `start`: its points and the results so far, by grid index. */
export interface SweepRun<P extends SweepPoint> {
  points: P[];
  results: (SweepResult | undefined)[];
}

/** The sweep state and its controls; `done` counts finished points, `finished` says all are. */
export function useSweep<P extends SweepPoint>() {
  const [run, setRun] = useState<SweepRun<P> | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const runner = useRef<SweepRunner | null>(null);
  useEffect(() => () => runner.current?.cancel(), []);

  const start = useCallback((points: P[]) => {
    runner.current?.cancel();
    setError(null);
    setRun({ points, results: points.map(() => undefined) });
    setRunning(true);
    runner.current = new SweepRunner(points, parallelism(), {
      onProgress: (results) => setRun({ points, results }),
      onDone: (results) => {
        setRun({ points, results });
        setRunning(false);
      },
      onError: (m) => {
        setError(m);
        setRunning(false);
      },
    });
    runner.current.start();
  }, []);
  const cancel = useCallback(() => {
    runner.current?.cancel();
    setRunning(false);
  }, []);
  /** Cancels and forgets the sweep (its results are stale). */
  const reset = useCallback(() => {
    runner.current?.cancel();
    setRun(null);
    setRunning(false);
    setError(null);
  }, []);
  const done = run?.results.filter((r) => r).length ?? 0;
  const finished = !!run && done === run.points.length;
  return { run, running, error, done, finished, start, cancel, reset };
}
