#!/usr/bin/env node
// Finds references to files the repository does not hold, in the files git
// tracks under engine/, web/, scenarios/, scripts/, tests/ and docs/ and in
// the top-level Markdown files: the comments of source files (Rust, TS, JS:
// `//` and `/* */`; shell scripts and TOML: `#`), the descriptions of
// scenario and lesson files, and Markdown outside fenced code blocks. It
// checks three patterns:
//   1. a path with a directory and a file extension (.rs .ts .tsx .mjs .js
//      .json .md .csv .toml .sh .txt .html), as `engine/core/src/units.rs`,
//      `queue/pfabric.rs` or `../fidelity.md`: it must name a file or, with
//      a trailing slash, a folder, found from the citing file's folder or
//      one above it, or a source root (engine/core/src and its protocol/,
//      engine/core, engine/cli/src, engine/cli, engine/wasm/src, web/src,
//      docs: the docs name engine files by their short paths); a path git ignores (a build
//      output such as dist/ or a generated page) counts as held;
//   2. a bare upper-case Markdown name, as `README.md`: it must be a file in
//      the root, the citing file's folder or docs/;
//   3. a docs page with an anchor, as `docs/model.md#switches`: the anchor
//      must be a heading of the page (an id in the built site when one is
//      given, else a heading of the Markdown source).
// Not checked: URLs (anything after "scheme://"), paths with a placeholder
// (`*`, `{`, `<`, `$`, an all-capitals segment such as NAME), and paths under
// ../shared/ (the papers and notes outside the repository, which the docs
// say where to find) and /work/ or /tmp/ (machine paths, not repo files).
// Generated outputs and fixtures are left out (SKIP): their words are
// checked where the code that writes them is; so is
// scripts/docs-cite-protocols.mjs, which names the file it cites away.
// Usage: node scripts/repo-refs.mjs [BUILT_SITE]; prints one line per broken
// reference, then "refs: N passed, M failed" (one check per file that
// cites something). docs-linkcheck.mjs runs it with the built site.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const SCANNED = /^(engine|web|scenarios|scripts|tests|docs)\/.*\.(rs|ts|tsx|mjs|js|json|md|toml|sh)$|^[^/]+\.md$|^scripts\/[^/.]+$|^tests\/.*\.sh$/;
const SKIP = [/^docs\/fidelity\.(json|csv|md)$/, /^web\/src\/gallery\/fixtures\//, /^tests\/golden\//, /\.generated\.ts$/, /^engine\/cli\/data\//, /^scripts\/docs-cite-protocols\.mjs$/];
const SOURCE_ROOTS = ['engine/core/src', 'engine/core/src/protocol', 'engine/core', 'engine/cli/src', 'engine/cli', 'engine/wasm/src', 'web/src', 'docs'];

// The words of a file that are prose: comments, descriptions, Markdown.
function prose(f, text) {
  if (/\.md$/.test(f)) return text.replace(/^\x60\x60\x60[\s\S]*?^\x60\x60\x60/gm, '');
  if (/\.json$/.test(f)) return [...text.matchAll(/"(?:description|summary|text|note)"\s*:\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).join('\n');
  if (/\.(rs|ts|tsx|mjs|js)$/.test(f)) {
    const out = [];
    for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'\x60\\])\/\/[^\n]*/g)) out.push(m[0]);
    return out.join('\n');
  }
  return [...text.matchAll(/(?:^|\s)#[^\n]*/g)].map((m) => m[0]).join('\n'); // shell, TOML
}

const ignored = new Map();
function isIgnored(path) {
  if (!ignored.has(path)) {
    let yes = true;
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root });
    } catch {
      yes = false;
    }
    ignored.set(path, yes);
  }
  return ignored.get(path);
}
const EXT = 'rs|ts|tsx|mjs|js|json|md|csv|toml|sh|txt|html';
// A path: segments of word characters, dots and dashes joined by slashes,
// at least one slash, ending in a known extension (or a slash: a folder),
// optionally with a #anchor. Not preceded by a word character, a slash or
// a dot, so that the middle of a longer path or a URL never starts one.
const PATH = new RegExp(String.raw`(?<![\w/.\-@~])((?:\.\.?\/)*(?:[\w][\w.\-]*\/)+(?:[\w][\w.\-]*\.(?:${EXT})(?![\w])|(?=[\s\x60'")\],;:]))(?:#[\w\-]+)?)`, 'g');
const BARE_MD = /(?<![\w/.\-])([A-Z][A-Z0-9_\-]*\.md)(?![\w])/g;

const headingIds = new Map();
function anchorsOf(page, site) {
  if (headingIds.has(page)) return headingIds.get(page);
  let ids = null;
  const html = site && join(site, page.replace(/^docs\//, '').replace(/\.md$/, '.html'));
  if (html && existsSync(html)) {
    ids = new Set([...readFileSync(html, 'utf8').matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]));
  } else if (existsSync(join(root, page))) {
    // mdBook's ids: lower case, spaces to dashes, other punctuation dropped.
    const md = readFileSync(join(root, page), 'utf8');
    ids = new Set([...md.matchAll(/^#+\s+(.*)$/gm)].map((m) => m[1].trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')));
  }
  headingIds.set(page, ids);
  return ids;
}

const exists = (p) => existsSync(p);
const isPlaceholder = (p) => /[*{<$]/.test(p) || p.split('/').some((s) => /^[A-Z][A-Z0-9_]*(\.[a-z]+)?$/.test(s) && !/\.md$/.test(s));

export function checkRepoRefs(site) {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && SCANNED.test(f) && !SKIP.some((re) => re.test(f)) && existsSync(join(root, f)));
  const problems = [];
  let passed = 0;
  for (const f of files) {
    const text = prose(f, readFileSync(join(root, f), 'utf8'))
      .replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'\x60)\]>]*/gi, ' ') // URLs
      .replace(/\\n/g, ' '); // JSON strings' line breaks
    const before = problems.length;
    let cited = false;
    const dir = dirname(f);
    for (const m of text.matchAll(PATH)) {
      const [path, anchor] = m[1].split('#');
      if (isPlaceholder(path) || /^(\.\.\/)+shared\//.test(path) || !/\//.test(path.replace(/\/$/, ''))) continue;
      if (/^(work|tmp|home|usr|etc|proc|dev)\//.test(path)) continue;
      cited = true;
      const ancestors = dir.split('/').map((_, i, a) => a.slice(0, a.length - i).join('/'));
      const bases = /^\.\.?\//.test(path) ? [dir] : [...ancestors, '', ...SOURCE_ROOTS];
      const found = bases.map((b) => resolve(root, b, path)).find((p) => p.startsWith(root + '/') && exists(p) && (!path.endsWith('/') || statSync(p).isDirectory()));
      if (!found && !bases.some((b) => isIgnored(join(b, path)))) {
        problems.push(`${f}: "${m[1]}": no such file in the repository`);
        continue;
      }
      if (found && anchor && found.endsWith('.md')) {
        const page = found.slice(root.length + 1);
        const ids = anchorsOf(page, site);
        if (ids && !ids.has(anchor)) problems.push(`${f}: "${m[1]}": no heading #${anchor} in ${page}`);
      }
    }
    for (const m of text.matchAll(BARE_MD)) {
      cited = true;
      if (![root, join(root, dir), join(root, 'docs')].some((b) => exists(join(b, m[1])))) {
        problems.push(`${f}: "${m[1]}": no such file in the repository`);
      }
    }
    if (cited && problems.length === before) passed++;
  }
  return { passed, problems };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { passed, problems } = checkRepoRefs(process.argv[2] ? resolve(process.argv[2]) : null);
  for (const p of problems) console.log(`refs: broken: ${p}`);
  console.log(`refs: ${passed} passed, ${problems.length} failed`);
  process.exit(problems.length ? 1 : 0);
}
