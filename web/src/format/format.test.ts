// The clock's time: to the nanosecond at every magnitude, never rounded up.

import { describe, expect, it } from 'vitest';
import { fmtClock, fmtTime } from './format';

describe('the clock', () => {
  it('reads to the nanosecond, grouped in threes, cut (not rounded) below it', () => {
    expect(fmtClock(0)).toBe('0 ns');
    expect(fmtClock(850_999)).toBe('850 ns');
    expect(fmtClock(12_345_678)).toBe('12.345 µs');
    expect(fmtClock(5_421_757_450)).toBe('5.421\u202f757 ms');
    expect(fmtClock(5_421_757_999)).toBe('5.421\u202f757 ms');
    expect(fmtClock(1_000_000_250_000)).toBe('1.000\u202f000\u202f250 s');
    expect(fmtClock(Infinity)).toBe('end');
  });
  it('steps 1 ns apart read apart where the short form reads the same', () => {
    const a = 5_421_757_450;
    const b = a + 1_000;
    expect(fmtTime(a)).toBe(fmtTime(b));
    expect(fmtClock(a)).not.toBe(fmtClock(b));
  });
});
