// How the page is shown, read from the address: the whole classroom app
// (normal), a minimal player for an <iframe> (`#embed`, `#embed=small`,
// `#embed=640x400`), or presentation mode for a projector (`#present`,
// `#present=cdf`). These words sit beside the run's own (`#run=...&embed`,
// `#lesson=NAME&present`), so an embedded or presented page shows exactly
// what the link names.

/** The embed size presets, CSS pixels (the iframe's width and height). */
export const EMBED_SIZES = {
  small: { width: 480, height: 360 },
  medium: { width: 720, height: 480 },
  large: { width: 960, height: 640 },
} as const;
/** An embed size preset's name. */
export type EmbedPreset = keyof typeof EMBED_SIZES;

/** Smallest and largest embed sizes accepted as WIDTHxHEIGHT, pixels. */
export const EMBED_MIN = { width: 320, height: 240 };
export const EMBED_MAX = { width: 3840, height: 2160 };

/** The panel presentation mode shows large: the animated network or the slowdown CDF. */
export type PresentPanel = 'network' | 'cdf';

/** How the page is shown. */
export type ViewMode =
  | { kind: 'normal' }
  | { kind: 'embed'; width: number; height: number }
  | { kind: 'present'; panel: PresentPanel };

/** Reads the view mode from an address's hash; unknown values fall back to the defaults (medium, network). */
export function viewModeFromHash(hash: string): ViewMode {
  const e = /(?:^#|&)embed(?:=([a-z0-9]+))?(?=&|$)/.exec(hash);
  if (e) {
    const v = e[1] ?? 'medium';
    if (v in EMBED_SIZES) return { kind: 'embed', ...EMBED_SIZES[v as EmbedPreset] };
    const m = /^(\d{3,4})x(\d{3,4})$/.exec(v);
    if (m) {
      const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, x));
      return { kind: 'embed', width: clamp(Number(m[1]), EMBED_MIN.width, EMBED_MAX.width), height: clamp(Number(m[2]), EMBED_MIN.height, EMBED_MAX.height) };
    }
    return { kind: 'embed', ...EMBED_SIZES.medium };
  }
  const p = /(?:^#|&)present(?:=([a-z]+))?(?=&|$)/.exec(hash);
  if (p) return { kind: 'present', panel: p[1] === 'cdf' ? 'cdf' : 'network' };
  return { kind: 'normal' };
}

/** The hash without any view-mode word (what the run itself is). */
export function withoutViewMode(hash: string): string {
  const parts = hash.replace(/^#/, '').split('&').filter((x) => x && !/^(embed|present)(=|$)/.test(x));
  return parts.length ? '#' + parts.join('&') : '';
}

/** `hash` with a view-mode word added (replacing any there). */
export function withViewMode(hash: string, word: string): string {
  const base = withoutViewMode(hash);
  return base ? `${base}&${word}` : `#${word}`;
}

/** Escapes text for an HTML attribute value in double quotes. */
function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The <iframe> snippet that embeds the page at `pageUrl` (its address
 * without hash), showing what `runHash` names at a preset size; `title`
 * names the frame for screen readers.
 */
export function embedCode(pageUrl: string, runHash: string, preset: EmbedPreset, title: string): string {
  const { width, height } = EMBED_SIZES[preset];
  const src = pageUrl + withViewMode(runHash, `embed=${preset}`);
  return `<iframe src="${attr(src)}" width="${width}" height="${height}" title="${attr(title)}" style="border: 1px solid #ccc; border-radius: 6px" loading="lazy" allow="clipboard-write"></iframe>`;
}
