import { describe, expect, it } from 'vitest';
import { lessonBlurb, startScreenWanted, topologySketch } from './start';

describe('start screen', () => {
  it('shows only for an address that names nothing', () => {
    expect(startScreenWanted('')).toBe(true);
    expect(startScreenWanted('#')).toBe(true);
    expect(startScreenWanted('#explore')).toBe(false);
    expect(startScreenWanted('#lesson=phost-tokens')).toBe(false);
    expect(startScreenWanted('#run=abc')).toBe(false);
    expect(startScreenWanted('#gallery')).toBe(false);
  });

  it('takes the first sentence of a lesson as plain text, cut at a word when long', () => {
    expect(lessonBlurb('Both panels have **small** `buffers`. Then more.')).toBe('Both panels have small buffers.');
    expect(lessonBlurb('See [the paper](https://x.org) now. Next.')).toBe('See the paper now.');
    const long = lessonBlurb('word '.repeat(60) + 'end.', 50);
    expect(long.length).toBeLessThanOrEqual(51);
    expect(long.endsWith('word…')).toBe(true);
  });

  it('sketches a small leaf-spine whole and a large one in part', () => {
    const small = topologySketch({ kind: 'leaf_spine', racks: 2, hosts_per_rack: 4, spines: 2 });
    expect(small.nodes.filter((n) => n.kind === 'switch')).toHaveLength(4);
    expect(small.nodes.filter((n) => n.kind === 'host')).toHaveLength(8);
    // 2 ToRs x 2 spines + 8 host links.
    expect(small.links).toHaveLength(12);
    expect(small.more).toBe(0);
    const big = topologySketch({ kind: 'leaf_spine' }, 18);
    expect(big.nodes.filter((n) => n.kind === 'switch')).toHaveLength(13);
    expect(big.nodes.filter((n) => n.kind === 'host')).toHaveLength(9 * 2);
    expect(big.more).toBe(144 - 18);
    for (const n of big.nodes) {
      expect(n.x).toBeGreaterThan(0);
      expect(n.x).toBeLessThan(1);
    }
  });

  it('sketches a tree by its branching, a rack and a bottleneck as one switch', () => {
    const tree = topologySketch({ kind: 'tree', branching: [4, 3] });
    expect(tree.nodes.filter((n) => n.kind === 'switch')).toHaveLength(5);
    expect(tree.nodes.filter((n) => n.kind === 'host')).toHaveLength(12);
    expect(topologySketch({ kind: 'single_rack', hosts: 8 }).nodes).toHaveLength(9);
    expect(topologySketch({ kind: 'single_bottleneck', senders: 5 }).nodes).toHaveLength(7);
  });
});
