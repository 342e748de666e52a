import { describe, expect, it } from 'vitest';
import { embedCode, EMBED_SIZES, viewModeFromHash, withoutViewMode, withViewMode } from './mode';

describe('view modes from the address', () => {
  it('reads embed presets, sizes and presentation beside the run', () => {
    expect(viewModeFromHash('')).toEqual({ kind: 'normal' });
    expect(viewModeFromHash('#run=abc')).toEqual({ kind: 'normal' });
    expect(viewModeFromHash('#embed')).toEqual({ kind: 'embed', ...EMBED_SIZES.medium });
    expect(viewModeFromHash('#lesson=tcp-vs-dctcp&embed=small')).toEqual({ kind: 'embed', ...EMBED_SIZES.small });
    expect(viewModeFromHash('#run=x&embed=800x500')).toEqual({ kind: 'embed', width: 800, height: 500 });
    expect(viewModeFromHash('#embed=100x9999')).toEqual({ kind: 'embed', width: 320, height: 2160 });
    expect(viewModeFromHash('#embed=huge')).toEqual({ kind: 'embed', ...EMBED_SIZES.medium });
    expect(viewModeFromHash('#present')).toEqual({ kind: 'present', panel: 'network' });
    expect(viewModeFromHash('#lesson=a&present=cdf')).toEqual({ kind: 'present', panel: 'cdf' });
    // Words that only start alike are not modes.
    expect(viewModeFromHash('#embedded=1&presently')).toEqual({ kind: 'normal' });
  });
  it('adds and removes the mode word, keeping the rest', () => {
    expect(withoutViewMode('#run=abc&embed=small&palette=okabe-ito')).toBe('#run=abc&palette=okabe-ito');
    expect(withoutViewMode('#present')).toBe('');
    expect(withViewMode('#lesson=x&present', 'embed=large')).toBe('#lesson=x&embed=large');
    expect(withViewMode('', 'present')).toBe('#present');
  });
});

describe('embed code', () => {
  it('is an iframe of the preset size whose address names the run and the embed', () => {
    const code = embedCode('https://example.org/dcsim/', '#lesson=tcp-vs-dctcp&present', 'large', 'dcsim: "TCP" <vs> DCTCP');
    expect(code).toMatch(/^<iframe src="https:\/\/example\.org\/dcsim\/#lesson=tcp-vs-dctcp&amp;embed=large" width="960" height="640" title="dcsim: &quot;TCP&quot; &lt;vs&gt; DCTCP"/);
    expect(code.endsWith('></iframe>')).toBe(true);
    // The address inside, unescaped, opens the embed mode at that size.
    const src = /src="([^"]+)"/.exec(code)![1].replace(/&amp;/g, '&');
    expect(viewModeFromHash(new URL(src).hash)).toEqual({ kind: 'embed', ...EMBED_SIZES.large });
  });
});
