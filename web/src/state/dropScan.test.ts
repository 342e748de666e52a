// The scrubber's drop ticks: positions along the track where drops fall.

import { describe, expect, it } from 'vitest';
import { tickPositions } from './dropScan';

describe('drop ticks', () => {
  it('one tick per position holding a drop, in order; drops past the end are left out', () => {
    expect(tickPositions([950, 0, 10, 12, 500, 1000, 1001], 1000, 100)).toEqual([0, 1, 50, 95, 99]);
    expect(tickPositions([], 1000, 100)).toEqual([]);
  });
});
