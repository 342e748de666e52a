// The page lists no protocols of its own (issue 29): the protocols, their
// colours, legend entries and parameter fields come from the engine's
// descriptors (`dcsim names` -> web/src/engine/names.generated.ts), so a
// protocol added to the engine needs no change in web/src. This test
// greps web/src for protocol names written as identifiers (quoted, an
// object key, a property) outside the generated files and fails on any
// not allowed below.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_PROTOCOLS, PROTOCOL_DESCRIPTORS } from '../../web/src/engine/names.generated';
import { DESCRIPTORS, PROTOCOLS } from '../../web/src/state/settings';

const ROOT = join(__dirname, '../../web/src');

/**
 * Files that may name protocols, and why each cannot read them from the
 * engine instead.
 */
const ALLOWED_FILES: Record<string, string> = {
  // The published figures and claims quote the papers: which protocols a
  // paper compared and the values it printed are data about the papers.
  'gallery/published.ts': 'quotes the papers’ figures (their protocols and values)',
  'gallery/figures.ts': 'the papers’ figures, each with the protocols the paper drew',
};

/** Lines that may name one, and why (a file and a fragment of the line). */
const ALLOWED_LINES: [string, string, string][] = [
  // `pfabric` here is a queue discipline (engine/core/src/protocol/ports.rs `Discipline`), which shares pFabric's name.
  ['views/PortInspector.tsx', "discipline === 'pfabric'", 'a queue discipline, not a protocol'],
  ['views/PortInspector.tsx', "'pfabric', 'strict_priority'", 'the disciplines, documented'],
  // A flow record's `ideal` is its ideal FCT (a field of the engine's FlowRecord), not the Ideal scheduler.
  ['engine/api.ts', 'ideal: number;', "a flow record's ideal FCT"],
  ['views/FlowInspector.tsx', 'info.record.ideal', "a flow record's ideal FCT"],
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** Protocol names written as identifiers on `line`: `'name'`, `"name"`, `` `name` ``, `name:` keys and `.name` properties. */
function namesOn(line: string): string[] {
  // The D3 charting library shares D3's name.
  const code = line.replace(/from\s+['"]d3['"]/g, '');
  const alt = ENGINE_PROTOCOLS.join('|');
  const re = new RegExp(`(['"\`])(${alt})\\1|(?:^|[\\s{,])(${alt})\\s*:|\\??\\.(${alt})\\b`, 'g');
  return [...code.matchAll(re)].map((m) => m[2] ?? m[3] ?? m[4]);
}

describe('the page lists no protocols of its own', () => {
  it('finds protocol names only in generated files, tests and the allowed places', () => {
    const found: string[] = [];
    for (const f of files(ROOT)) {
      const rel = relative(ROOT, f).split('\\').join('/');
      // Generated from the engine; tests name the protocols they check.
      if (!/\.(ts|tsx)$/.test(rel) || rel.includes('.generated.') || /\.test\.tsx?$/.test(rel) || rel in ALLOWED_FILES) continue;
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (namesOn(line).length === 0) return;
          if (ALLOWED_LINES.some(([file, frag]) => file === rel && line.includes(frag))) return;
          found.push(`web/src/${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found, 'protocol names listed by the page (read them from the descriptors in names.generated.ts instead)').toEqual([]);
  });

  it('the check sees names written the usual ways', () => {
    expect(namesOn(`if (p === 'pase') x();`)).toEqual(['pase']);
    expect(namesOn(`  pdq: '#c2255c',`)).toEqual(['pdq']);
    expect(namesOn(`const k = sc.params?.dctcp?.ecn_threshold_bytes;`)).toEqual(['dctcp']);
    expect(namesOn(`import { select } from 'd3';`)).toEqual([]);
    expect(namesOn(`fastpass_request: 'Fastpass request sent'`)).toEqual([]);
  });

  it('has a complete descriptor for every protocol the engine runs', () => {
    expect([...PROTOCOLS].sort()).toEqual([...ENGINE_PROTOCOLS].sort());
    for (const p of ENGINE_PROTOCOLS) {
      const d = DESCRIPTORS[p];
      expect(d, p).toBe(PROTOCOL_DESCRIPTORS[p]);
      expect(d.color, p).toMatch(/^#[0-9a-f]{6}$/i);
      expect(d.label.length, p).toBeGreaterThan(0);
      for (const f of d.fields) expect(typeof f.default, `${p}.${f.key}`).toBe('number');
    }
  });
});
