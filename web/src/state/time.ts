// Simulated time as the page writes it (pure, no DOM): the short form the
// status line and the buttons use, and the clock's form, exact to the
// nanosecond so that single-event steps a few nanoseconds apart read apart.

/** "12.345 µs", "3.200 ms": microsecond resolution above 1 ms. */
export function fmtTime(ps: number): string {
  if (!Number.isFinite(ps)) return 'end';
  const us = ps / 1e6;
  if (us < 1) return `${(ps / 1e3).toFixed(1)} ns`;
  if (us < 1000) return `${us.toFixed(3)} µs`;
  if (us < 1e6) return `${(us / 1000).toFixed(3)} ms`;
  return `${(us / 1e6).toFixed(3)} s`;
}

/** Groups the digits after the decimal point in threes (a narrow no-break space between groups): "5.421 812". */
function grouped(x: string): string {
  const [int, frac] = x.split('.');
  return frac === undefined ? int : `${int}.${frac.replace(/(\d{3})(?=\d)/g, '$1\u202f')}`;
}

/**
 * The clock's time, to the nanosecond at every magnitude: "850 ns",
 * "12.345 µs", "5.421 812 ms", "1.000 000 250 s". A fraction of a
 * nanosecond (the engine counts picoseconds) is cut, not rounded up, so
 * the clock never shows a time that has not been reached.
 */
export function fmtClock(ps: number): string {
  if (!Number.isFinite(ps)) return 'end';
  const ns = Math.floor(ps / 1e3);
  if (ns < 1e3) return `${ns} ns`;
  if (ns < 1e6) return `${grouped((ns / 1e3).toFixed(3))} µs`;
  if (ns < 1e9) return `${grouped((ns / 1e6).toFixed(6))} ms`;
  return `${grouped((ns / 1e9).toFixed(9))} s`;
}
