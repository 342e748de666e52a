// Number, time and code formatting for the views (pure, no DOM).

import { dropWhyName, type DropWhyName } from '../engine/api';

/** A number to `digits` significant digits, without exponent notation for everyday magnitudes. */
export function sig(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '-∞';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e9 || a < 1e-4) return v.toExponential(digits - 1);
  if (a >= 10 ** digits) return Math.round(v).toLocaleString('en');
  return String(Number(v.toPrecision(digits)));
}

/** A count with thousands separators. */
export function count(v: number): string {
  return Math.round(v).toLocaleString('en');
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
