// The page's copy of the conductor's state, rendered urgently or in pieces.

import { startTransition, useEffect, useState } from 'react';
import type { Conductor, ConductorState } from './conductor';

/**
 * The conductor's page state (`getState`), kept as React state. An urgent
 * change (a click, a pause, a step, a seek, a load) renders at once; a
 * background one (the clock and the frames while playing, time travel's
 * statistics) renders as a transition, which React splits into slices of
 * a few milliseconds between animation frames, so the network keeps moving
 * while the panels catch up (no long task on a slow laptop). A newer
 * change supersedes a background render still in progress.
 */
export function useConductorState(c: Conductor): ConductorState {
  const [state, setState] = useState(c.getState);
  useEffect(() => {
    // Anything published between the first render and this subscription.
    setState(c.getState());
    const unsubscribe = c.subscribe((urgent) => {
      const next = c.getState();
      if (urgent) setState(next);
      else startTransition(() => setState(next));
    });
    return () => {
      unsubscribe();
    };
  }, [c]);
  return state;
}
