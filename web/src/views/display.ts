// How the page looks, apart from what it runs: the colour scheme (kept in
// the browser and carried by share links as `&palette=`), and the
// operating system's "reduce motion" setting, which the network view
// honours by letting packets jump instead of glide.

import { PALETTE_NAMES, type PaletteName } from './palette';

/** Display preferences that travel with the page, not with the run. */
export interface Display {
  /** The colour scheme of packets, runs and queues. */
  palette: PaletteName;
}

/** Where the page keeps the preferences between visits. */
export const DISPLAY_KEY = 'dcsim.display';

/** The preferences a hash names (`&palette=okabe-ito`); absent or unknown values are left out. */
export function displayFromHash(hash: string): Partial<Display> {
  const m = /(?:^#|&)palette=([a-z-]+)/.exec(hash);
  return m && (PALETTE_NAMES as readonly string[]).includes(m[1]) ? { palette: m[1] as PaletteName } : {};
}

/** The hash part that carries the preferences (empty for the defaults), to append to a share link. */
export function displayHashPart(d: Display): string {
  return d.palette === 'default' ? '' : `&palette=${d.palette}`;
}

/** The preferences in force: the address's first, then what the browser kept, then the defaults. */
export function loadDisplay(hash: string, storage: Pick<Storage, 'getItem'> | null): Display {
  let kept: Partial<Display> = {};
  try {
    const o = JSON.parse(storage?.getItem(DISPLAY_KEY) ?? '{}');
    if (o && (PALETTE_NAMES as readonly string[]).includes(o.palette)) kept = { palette: o.palette };
  } catch {
    /* a damaged entry: the defaults */
  }
  return { palette: 'default', ...kept, ...displayFromHash(hash) };
}

/** Keeps the preferences for the next visit (quietly skipped where storage is refused). */
export function saveDisplay(d: Display, storage: Pick<Storage, 'setItem'> | null) {
  try {
    storage?.setItem(DISPLAY_KEY, JSON.stringify(d));
  } catch {
    /* private mode or a full quota: the choice lasts this visit */
  }
}

/** The operating system asks for reduced motion (`prefers-reduced-motion: reduce`). */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
