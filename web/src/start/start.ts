// The start screen's pure parts: when the address asks for it, a lesson's
// one-sentence blurb, and a small schematic of a scenario's network (the
// card's thumbnail), computed from the topology spec alone so that the start
// screen draws without the engine.

import type { ScenarioJson } from '../state/settings';

/** The hash "Explore freely" opens: the default scenario, no lesson. */
export const EXPLORE_HASH = '#explore';

/** True when the address names nothing (no run, lesson, gallery or file): the start screen is shown. */
export function startScreenWanted(hash: string): boolean {
  return hash === '' || hash === '#';
}

/** Markdown marks removed for plain text: emphasis, code ticks, links (their text kept). */
function plain(md: string): string {
  return md
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * One sentence about a lesson for its card: the first sentence of its first
 * step, in plain text, cut at a word and ended with "…" past `max` characters.
 */
export function lessonBlurb(firstStepText: string, max = 170): string {
  const text = plain(firstStepText);
  const m = /^(.+?[.!?])(\s|$)/.exec(text);
  const first = m ? m[1] : text;
  if (first.length <= max) return first;
  const cut = first.slice(0, max);
  const sp = cut.lastIndexOf(' ');
  return (sp > max * 0.6 ? cut.slice(0, sp) : cut).replace(/[,;:]$/, '') + '…';
}

/** A node of a {@link Sketch}: a switch (box) or a host (dot), in a 0..1 square. */
export interface SketchNode {
  x: number;
  y: number;
  kind: 'switch' | 'host';
}

/** A network drawn small: nodes in a unit square and links between them (indices into `nodes`); `more` counts hosts not drawn. */
export interface Sketch {
  nodes: SketchNode[];
  links: [number, number][];
  more: number;
}

/**
 * A schematic of the network a scenario's `topology` builds (leaf-spine,
 * single rack, single bottleneck, tree), with the engine's defaults for
 * missing fields. At most `maxHosts` hosts are drawn (evenly picked).
 */
export function topologySketch(topology: ScenarioJson | undefined, maxHosts = 16): Sketch {
  const t = (topology ?? {}) as Record<string, unknown>;
  const num = (v: unknown, d: number) => (typeof v === 'number' && v > 0 ? Math.floor(v) : d);
  // Tiers of switches, top first; each lower switch lists its parents; hosts hang under the bottom tier.
  let tiers: { parents: number[] }[][];
  let hostsPer: number[];
  const kind = t.kind ?? 'leaf_spine';
  if (kind === 'single_rack' || kind === 'single_bottleneck') {
    tiers = [[{ parents: [] }]];
    hostsPer = [kind === 'single_rack' ? num(t.hosts, 10) : num(t.senders, 5) + 1];
  } else if (kind === 'tree') {
    const b = Array.isArray(t.branching) && t.branching.length ? (t.branching as unknown[]).map((v) => num(v, 1)) : [4, 3];
    tiers = [[{ parents: [] }]];
    for (let l = 0; l < b.length - 1; l++) {
      const above = tiers[tiers.length - 1];
      const next: { parents: number[] }[] = [];
      above.forEach((_, i) => {
        for (let j = 0; j < b[l]; j++) next.push({ parents: [i] });
      });
      tiers.push(next);
    }
    hostsPer = tiers[tiers.length - 1].map(() => b[b.length - 1]);
  } else {
    const racks = num(t.racks, 9);
    const spines = num(t.spines, 4);
    const all = Array.from({ length: spines }, (_, i) => i);
    tiers = [Array.from({ length: spines }, () => ({ parents: [] })), Array.from({ length: racks }, () => ({ parents: all }))];
    hostsPer = Array.from({ length: racks }, () => num(t.hosts_per_rack, 16));
  }
  const totalHosts = hostsPer.reduce((a, b) => a + b, 0);
  // Hosts drawn per bottom switch: every one when they fit, else an even share (at least one each).
  const share = totalHosts <= maxHosts ? hostsPer : hostsPer.map((h) => Math.max(1, Math.min(h, Math.floor((maxHosts * h) / totalHosts))));
  const drawn = share.reduce((a, b) => a + b, 0);

  const nodes: SketchNode[] = [];
  const links: [number, number][] = [];
  const levels = tiers.length + 1;
  const yOf = (level: number) => 0.1 + (0.8 * level) / (levels - 1);
  const idx: number[][] = [];
  tiers.forEach((tier, l) => {
    idx.push(
      tier.map((sw, i) => {
        nodes.push({ x: (i + 0.5) / tier.length, y: yOf(l), kind: 'switch' });
        const me = nodes.length - 1;
        if (l > 0) for (const p of sw.parents) links.push([idx[l - 1][p], me]);
        return me;
      }),
    );
  });
  const bottom = idx[idx.length - 1];
  let k = 0;
  share.forEach((n, s) => {
    for (let j = 0; j < n; j++) {
      nodes.push({ x: (k + 0.5) / drawn, y: yOf(levels - 1), kind: 'host' });
      links.push([bottom[s], nodes.length - 1]);
      k++;
    }
  });
  return { nodes, links, more: totalHosts - drawn };
}
