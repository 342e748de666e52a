// A protocol is named in code by few files of the web app (issue 40:
// "pHost, PASE, Fastpass and PDQ each named in code in at most 2 files
// outside their own folder (the registry line, the paper gallery's data and
// the fidelity claims aside)"): read from the sources, not claimed. The
// engine's half is engine/cli/tests/protocol_names.rs; a protocol's folder
// is in the engine, so every web file naming it counts. (protocol-names.test.ts
// holds the page to the engine's descriptors name by name; this one counts
// files.)
//
// Every source file of web/src is split into tokens by the `typescript` package's scanner: comments are
// trivia, not tokens. A file names protocol P when
// * an identifier contains P's name, case aside (`pdqRows`, `PaseView`), or
// * a string or template literal's text is P's name or starts with
//   `<name>_` or `<name>-`, case aside ('pdq', 'pdq_pause', `phost-${x}`).
// Prose strings that merely mention a paper ('the pHost paper ...') do not
// count: they name no code. Tests count like any code.
//
// The files set aside, each by path with its reason, are EXEMPT.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SyntaxKind } from 'typescript/unstable/ast';
import { createScanner } from 'typescript/unstable/ast/scanner';
import { describe, expect, it } from 'vitest';

/** The protocols the acceptance counts, by their names in code. */
const PROTOCOLS = ['phost', 'pase', 'fastpass', 'pdq'] as const;

/** Most web files that may name one of PROTOCOLS. */
const LIMIT = 2;

/** Files set aside, by path from web/src (a path ending in '/' is a folder), each with the reason: the issue's exceptions. */
const EXEMPT: ReadonlyMap<string, string> = new Map([
  ['engine/names.generated.ts', "generated: the engine registry's export (`dcsim names`)"],
  ['gallery/figures.ts', "the paper gallery's data: each figure's protocols, as the paper draws them"],
  ['gallery/published.ts', "the paper gallery's data: what the papers state about each figure's protocols"],
  ['gallery/fixtures/', "the paper gallery's data: a recorded report"],
]);

/** web/src. */
const SRC = join(dirname(new URL(import.meta.url).pathname), '../../web/src');

/** Every source file of web/src, relative to it. */
function sources(): string[] {
  const all = readdirSync(SRC, { recursive: true, encoding: 'utf8' });
  return all.filter((f) => /\.(ts|tsx|js|mjs)$/.test(f) && !f.endsWith('.d.ts')).sort();
}

/** Tokens after which a `/` divides (otherwise it starts a regular expression). */
const ENDS_OPERAND = new Set<SyntaxKind>([
  SyntaxKind.Identifier,
  SyntaxKind.NumericLiteral,
  SyntaxKind.BigIntLiteral,
  SyntaxKind.StringLiteral,
  SyntaxKind.NoSubstitutionTemplateLiteral,
  SyntaxKind.TemplateTail,
  SyntaxKind.RegularExpressionLiteral,
  SyntaxKind.CloseParenToken,
  SyntaxKind.CloseBracketToken,
  SyntaxKind.CloseBraceToken,
  SyntaxKind.ThisKeyword,
  SyntaxKind.TrueKeyword,
  SyntaxKind.FalseKeyword,
  SyntaxKind.NullKeyword,
  SyntaxKind.PlusPlusToken,
  SyntaxKind.MinusMinusToken,
]);

/** Where the scanner is: code (with its open braces, and whether a `}` at depth 0 ends a template's `${` or a JSX `{`), inside a JSX tag, or among a JSX element's children. */
type Context = { kind: 'code'; braces: number; template: boolean } | { kind: 'tag' } | { kind: 'children' };

/** What a file's code names: its identifiers (keywords aside) and its string literals' texts (a template's up to its first `${`); in a .tsx file, JSX text is prose and skipped. */
export function words(text: string, tsx: boolean): { idents: string[]; strings: string[] } {
  const s = createScanner(true, tsx ? 1 : 0, text);
  const idents: string[] = [];
  const strings: string[] = [];
  const stack: Context[] = [{ kind: 'code', braces: 0, template: false }];
  let prev = SyntaxKind.Unknown;
  for (;;) {
    const top = stack[stack.length - 1];
    let t: SyntaxKind;
    if (top.kind === 'children') {
      t = s.scanJsxToken();
      if (t === SyntaxKind.EndOfFile) break;
      if (t === SyntaxKind.OpenBraceToken) stack.push({ kind: 'code', braces: 0, template: false });
      else if (t === SyntaxKind.LessThanSlashToken) {
        // `</name>`: the element ends.
        for (t = s.scan(); t !== SyntaxKind.GreaterThanToken && t !== SyntaxKind.EndOfFile; t = s.scan()) if (t === SyntaxKind.Identifier) idents.push(s.getTokenValue());
        stack.pop();
      } else if (t === SyntaxKind.LessThanToken) stack.push({ kind: 'tag' });
      prev = t;
      continue;
    }
    t = s.scan();
    if (t === SyntaxKind.EndOfFile) break;
    if (top.kind === 'tag') {
      if (t === SyntaxKind.GreaterThanToken) stack[stack.length - 1] = { kind: 'children' };
      else if (t === SyntaxKind.SlashToken) {
        s.scan(); // `/>`: the element ends with its tag.
        stack.pop();
      } else if (t === SyntaxKind.OpenBraceToken) stack.push({ kind: 'code', braces: 0, template: false });
      else if (t === SyntaxKind.Identifier) idents.push(s.getTokenValue());
      else if (t === SyntaxKind.StringLiteral) strings.push(s.getTokenValue());
      prev = t;
      continue;
    }
    if ((t === SyntaxKind.SlashToken || t === SyntaxKind.SlashEqualsToken) && !ENDS_OPERAND.has(prev)) t = s.reScanSlashToken();
    if (tsx && t === SyntaxKind.LessThanToken && !ENDS_OPERAND.has(prev)) {
      stack.push({ kind: 'tag' });
      prev = t;
      continue;
    }
    if (t === SyntaxKind.OpenBraceToken) top.braces++;
    else if (t === SyntaxKind.CloseBraceToken) {
      if (top.braces > 0) top.braces--;
      else if (stack.length > 1) {
        stack.pop();
        if (top.template) t = s.reScanTemplateToken(false);
      }
    }
    if (t === SyntaxKind.Identifier) idents.push(s.getTokenValue());
    else if (t === SyntaxKind.StringLiteral || t === SyntaxKind.NoSubstitutionTemplateLiteral || t === SyntaxKind.TemplateHead) strings.push(s.getTokenValue());
    if (t === SyntaxKind.TemplateHead || t === SyntaxKind.TemplateMiddle) stack.push({ kind: 'code', braces: 0, template: true });
    prev = t;
  }
  return { idents, strings };
}

/** Whether code with these words names protocol `name` (see the comment at the top). */
export function names(w: { idents: string[]; strings: string[] }, name: string): boolean {
  return w.idents.some((id) => id.toLowerCase().includes(name)) || w.strings.some((s) => {
    const l = s.toLowerCase();
    return l === name || l.startsWith(`${name}_`) || l.startsWith(`${name}-`);
  });
}

/** Per protocol, the files of web/src (EXEMPT aside) whose code names it. */
function namingFiles(): Record<string, string[]> {
  const out: Record<string, string[]> = Object.fromEntries(PROTOCOLS.map((p) => [p, [] as string[]]));
  for (const f of sources()) {
    if ([...EXEMPT.keys()].some((e) => (e.endsWith('/') ? f.startsWith(e) : f === e))) continue;
    const w = words(readFileSync(join(SRC, f), 'utf8'), /\.(tsx|jsx)$/.test(f));
    for (const p of PROTOCOLS) if (names(w, p)) out[p].push(f);
  }
  return out;
}

describe('protocol names in web/src', () => {
  it('reads identifiers and the protocol\'s own strings, not comments or prose', () => {
    const cases: [string, boolean][] = [
      ['const x: PdqRow = y;', true],
      ["f('pdq_pause');", true],
      ['const n = "pdq";', true],
      ['const n = `PDQ-${k}`;', true],
      ['const n = `a${b}`; const m = `${c}pdq_x`;', false],
      ['const n = `a${{ pdq: 1 }.x}b`;', true],
      ['// pdq in a comment\nf();', false],
      ['/** PdqRow in a doc comment */ f();', false],
      ["const t = 'the PDQ paper';", false],
      ["const r = /pdq'/g; const s = 'x';", false],
      ['const q = a / b; const s = "pdq";', true],
    ];
    for (const [src, named] of cases) expect(names(words(src, false), 'pdq'), src).toBe(named);
    const jsx: [string, boolean][] = [
      ['const e = <div className="x">{pdq}</div>;', true],
      ['const e = <PdqView a={1} />;', true],
      ['const e = <dt>The PDQ authors\' simulator</dt>; const f = 1;', false],
      ['const e = <><p title="pdq-x">a</p></>;', true],
      ["const e = <p>it's {a ? <b>x</b> : 'y'}</p>; const p = 'pdq';", true],
    ];
    for (const [src, named] of jsx) expect(names(words(src, true), 'pdq'), src).toBe(named);
  });

  it(`names each protocol in at most ${LIMIT} files`, () => {
    const found = namingFiles();
    const over = Object.entries(found)
      .filter(([, files]) => files.length > LIMIT)
      .map(([p, files]) => `${p}: ${files.length} files name it (at most ${LIMIT}):\n  ${files.join('\n  ')}`);
    expect(over.join('\n'), JSON.stringify(found, null, 1)).toBe('');
  });
});
