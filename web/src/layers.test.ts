// The web app's layers: every import points down, and no files import each
// other in a circle (as engine/core/tests/layers.rs holds for the engine).
//
// The import graph is read from the sources themselves (`import ... from`,
// `export ... from`, `import '...'`, dynamic `import('...')`, type-only
// imports included: a type is a dependency too). A top-level folder of
// web/src (or a file directly in it) is a module; LAYERS lists them bottom-up
// and docs/architecture.md ("The browser side") says why each sits where it
// does. A module may import from a module of a LOWER layer only: never from
// one above, never from a sibling in its own layer.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The modules of web/src, bottom-up; the modules of one layer do not import each other. */
export const LAYERS: readonly (readonly string[])[] = [
  ['engine-glue'],
  ['engine'],
  ['format', 'export'],
  ['state'],
  ['scenarios'],
  ['views'],
  ['controls', 'lessons'],
  ['import', 'live', 'present', 'start', 'sweep'],
  ['gallery'],
  ['App'],
  ['main'],
];

/** Arrows back up (or sideways) still allowed, as "from -> to" file paths. Must stay empty. */
const KNOWN_BACK_ARROWS: readonly string[] = [];
/** Circles still allowed, each as its files sorted and joined by " ". Must stay empty. */
const KNOWN_CIRCLES: readonly string[] = [];

/** This file (its examples are not imports). */
const SELF = new URL(import.meta.url).pathname;
const SRC = dirname(SELF);

/** Every source file under `dir` (this one aside), relative to web/src. The generated wasm glue is read too (it imports nothing of ours). */
function sources(dir = SRC): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx|js|mjs)$/.test(name) && !name.endsWith('.d.ts') && p !== SELF) out.push(relative(SRC, p));
  }
  return out.sort();
}

/** The specifiers a source imports (relative ones only: packages are outside the layers). */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    // import x from '...'; import { a,\n b } from '...'; export { a } from '...'; export * from '...'
    /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    // import '...' (side effects only)
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    // import('...'), new URL('...', import.meta.url) (a worker script)
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bnew\s+URL\s*\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) if (m[1].startsWith('.')) out.push(m[1]);
  return out;
}

/** The source file (relative to web/src) a specifier in `from` names, or null when it lies outside web/src. */
function resolve(from: string, spec: string, files: ReadonlySet<string>): string | null {
  const bare = spec.replace(/\?.*$/, '');
  const p = normalize(join(dirname(from), bare));
  if (p.startsWith('..')) return null;
  for (const c of [p, `${p}.ts`, `${p}.tsx`, `${p}/index.ts`, `${p}/index.tsx`, p.replace(/\.js$/, '.ts')]) if (files.has(c)) return c;
  return p; // a stylesheet, a wasm file: still inside its module
}

/** The module of a file: its top-level folder, or the file's own name without extension. */
export function moduleOf(file: string): string {
  const [head, ...rest] = file.split('/');
  return rest.length ? head : head.replace(/\.[^.]+$/, '');
}

/** The layer of a module (index into LAYERS), -1 if it has none. */
function layerOf(module: string): number {
  return LAYERS.findIndex((l) => l.includes(module));
}

/** file -> the files it imports (inside web/src). */
function importGraph(): Map<string, string[]> {
  const files = sources();
  const set = new Set(files);
  const g = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(join(SRC, f), 'utf8');
    g.set(f, [...new Set(importsOf(text).map((s) => resolve(f, s, set)).filter((x): x is string => x !== null))]);
  }
  return g;
}

/** Arrows from a module to one not below it ("from -> to", files). */
export function backArrows(g: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [f, tos] of g) {
    const a = moduleOf(f);
    for (const t of tos) {
      const b = moduleOf(t);
      if (a !== b && !(layerOf(b) < layerOf(a))) out.push(`${f} -> ${t}`);
    }
  }
  return out.sort();
}

/** Circles of files (strongly connected components of more than one file, or a file importing itself), Tarjan's algorithm. */
export function circles(g: ReadonlyMap<string, readonly string[]>): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (g.get(v) ?? []).includes(v)) out.push(scc.sort().join(' '));
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out.sort();
}

describe('web/src layers', () => {
  const g = importGraph();

  it('reads the imports of every kind', () => {
    const text = ["import a from './a';", "import type { B } from '../b';", "import {\n  c,\n  d,\n} from './c';", "export { e } from './e';", "import './f.css';", "const g = await import('./g');", "new Worker(new URL('./h.ts', import.meta.url));", "import React from 'react';"].join('\n');
    expect(importsOf(text).sort()).toEqual(['../b', './a', './c', './e', './f.css', './g', './h.ts']);
  });

  it('finds a back arrow and a circle when there is one', () => {
    const bad = new Map([
      ['engine/api.ts', ['lessons/shows.ts']],
      ['lessons/shows.ts', ['engine/api.ts']],
    ]);
    expect(backArrows(bad)).toEqual(['engine/api.ts -> lessons/shows.ts']);
    expect(circles(bad)).toEqual(['engine/api.ts lessons/shows.ts']);
  });

  it('places every module in a layer', () => {
    const modules = [...new Set([...g.keys()].map(moduleOf))].sort();
    expect(modules.filter((m) => layerOf(m) < 0)).toEqual([]);
  });

  it('has no arrow back up or sideways', () => {
    expect(backArrows(g).filter((a) => !KNOWN_BACK_ARROWS.includes(a))).toEqual([]);
  });

  it('has no circle', () => {
    expect(circles(g).filter((c) => !KNOWN_CIRCLES.includes(c))).toEqual([]);
  });

  it('lists no exceptions', () => {
    expect(KNOWN_BACK_ARROWS).toEqual([]);
    expect(KNOWN_CIRCLES).toEqual([]);
  });

});
