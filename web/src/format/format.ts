// Number, time and code formatting for the state and the views (pure, no DOM).

import { dropWhyName, type DropWhyName, type NavEvent } from '../engine/api';

/** Thousands separators, English style ("2,048"): one formatter, as `toLocaleString` builds a new one on every call. */
const THOUSANDS = new Intl.NumberFormat('en');

/** A number to `digits` significant digits, without exponent notation for everyday magnitudes. */
export function sig(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '-∞';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e9 || a < 1e-4) return v.toExponential(digits - 1);
  if (a >= 10 ** digits) return THOUSANDS.format(Math.round(v));
  return String(Number(v.toPrecision(digits)));
}

/** A count with thousands separators. */
export function count(v: number): string {
  return THOUSANDS.format(Math.round(v));
}

/** A count and its noun, singular for exactly one: "1 event", "2,048 events" (`many` for irregular plurals: "switches"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** A fraction as a percentage with 3 significant digits ("0.0123 %"). */
export function pct(v: number): string {
  return `${sig(v * 100)} %`;
}

/** Simulated time in microseconds with 3 decimals: "12.345 µs". */
export function usText(ps: number): string {
  return `${(ps / 1e6).toFixed(3)} µs`;
}

/** A rate in bits per second as "9.6 G", "250 M". */
export function rateText(bps: number): string {
  if (bps >= 1e9) return `${sig(bps / 1e9, 2)}G`;
  if (bps >= 1e6) return `${sig(bps / 1e6, 2)}M`;
  if (bps >= 1e3) return `${sig(bps / 1e3, 2)}k`;
  return `${sig(bps, 2)}`;
}

/** Bytes as "1.5 KB", "2.25 MB" (decimal units, as the engine's size buckets). */
export function bytesText(b: number): string {
  if (b < 1e3) return `${Math.round(b)} B`;
  if (b < 1e6) return `${sig(b / 1e3)} KB`;
  if (b < 1e9) return `${sig(b / 1e6)} MB`;
  return `${sig(b / 1e9)} GB`;
}

/** Each drop reason in words; keyed by the engine's reasons, so a reason added there fails the type check until it has words. */
export const DROP_WHY_WORDS: Record<DropWhyName, string> = {
  BufferFull: 'buffer full',
  LeastUrgent: 'least urgent',
  LinkDown: 'link down',
  Injected: 'injected fault',
};

/** Why a packet was dropped, in words (the aux of a Drop record; an unknown code reads as a full buffer). */
export function dropWhyText(aux: number): string {
  return DROP_WHY_WORDS[dropWhyName(aux) ?? 'BufferFull'];
}

// Simulated time as the page writes it: the short form the status line
// and the buttons use, and the clock's form, exact to the nanosecond so
// that single-event steps a few nanoseconds apart read apart.

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

/** "2 µs of simulated time per second". */
export function fmtSpeed(psPerS: number): string {
  return `${fmtTime(psPerS)} of simulated time per second`;
}

/** "1.5 KB", "2.30 MB" (the flow inspector's sizes). */
export function fmtBytes(b: number): string {
  if (b < 1e3) return `${b} B`;
  if (b < 1e6) return `${(b / 1e3).toFixed(1)} KB`;
  return `${(b / 1e6).toFixed(2)} MB`;
}

/** The events one can go to, in words ("the next drop"). */
export const NAV_TEXT: Record<NavEvent, { one: string; many: string }> = {
  drop: { one: 'drop', many: 'drops' },
  ecn_mark: { one: 'ECN mark', many: 'ECN marks' },
  token: { one: 'token', many: 'tokens' },
  decision: { one: 'scheduling decision', many: 'scheduling decisions' },
  flow_completed: { one: 'flow completion', many: 'flow completions' },
};

/**
 * The status line's start after a search for the next or previous
 * `event` from `fromPs`: "next drop (dctcp): " when found at `target` (in
 * the runs `where`), else "no drop after t = … in any run (looked up to
 * t = …); back " (`lookedPs`: how far each run that answered looked).
 */
export function foundText(event: NavEvent, direction: 'next' | 'previous', fromPs: number, target: number | null, where: string[], lookedPs: number[]): string {
  const what = NAV_TEXT[event].one;
  if (target !== null) return `${direction} ${what} (${where.join(', ')}): `;
  const upTo = Math.min(...lookedPs);
  const looked = lookedPs.length && direction === 'next' && Number.isFinite(upTo) ? ` (looked up to t = ${fmtTime(upTo)})` : '';
  return `no ${what} ${direction === 'next' ? 'after' : 'before'} t = ${fmtTime(fromPs)} in any run${looked}; back `;
}

/** The status line after a time-travel landing at `shownPs` that took `ms`: "stepped back one RTT (…): at t = … (time travel: 12 ms)". */
export function landedText(what: 'seek' | 'event' | 'rtt' | 'find', prefix: string, rttPs: number, shownPs: number, ms: number): string {
  const label = prefix || (what === 'event' ? 'stepped back one event: ' : what === 'rtt' ? `stepped back one RTT (${fmtTime(rttPs)}): ` : '');
  return `${label}at t = ${fmtTime(shownPs)} (time travel: ${ms.toFixed(0)} ms)`;
}
