#!/usr/bin/env node
// Checks the built documentation site (run by scripts/docs after mdBook):
//   * every relative link and image in every built page resolves to a file
//     of the site, and its #anchor to an id in that file (the app itself,
//     ../index.html, is the one target outside the site: lessons link to
//     it, and the app's build puts it there);
//   * every Markdown page under docs/ is in SUMMARY.md (a page left out is
//     not built, so links to it would be caught, but a page nobody links to
//     would silently vanish), except include-only fragments;
//   * no comment, scenario description or doc names a file the repository
//     does not hold, nor a heading a docs page lacks (scripts/repo-refs.mjs
//     lists the patterns it checks).
// Prints one line per broken link, then "docs: N passed, M failed" (one
// check per built page, one per source page's SUMMARY entry and one per
// file that names repository files) and exits non-zero when anything
// failed.
// Usage: node scripts/docs-linkcheck.mjs [BUILT_DIR] [DOCS_DIR]
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRepoRefs } from './repo-refs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const site = resolve(process.argv[2] ?? join(root, 'public/docs'));
const src = resolve(process.argv[3] ?? join(root, 'docs'));
const app = resolve(site, '..', 'index.html'); // the app, beside the site

function walk(dir, keep) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? walk(p, keep) : keep(p) ? [p] : [];
  });
}

const idsCache = new Map();
function idsOf(file) {
  if (!idsCache.has(file)) {
    const html = readFileSync(file, 'utf8');
    idsCache.set(file, new Set([...html.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((m) => decode(m[1]))));
  }
  return idsCache.get(file);
}
const decode = (s) => {
  const t = s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  try {
    return decodeURIComponent(t);
  } catch {
    return t;
  }
};

const problems = [];
let passed = 0;
const pages = walk(site, (p) => p.endsWith('.html'));
if (pages.length === 0) problems.push(`${site}: no built pages (run mdbook build first)`);
for (const page of pages) {
  const html = readFileSync(page, 'utf8')
    // Code is shown, not followed.
    .replace(/<code[\s\S]*?<\/code>/g, '')
    .replace(/<script[\s\S]*?<\/script>/g, '');
  const before = problems.length;
  const seen = new Set();
  for (const m of html.matchAll(/\s(href|src)="([^"]*)"/g)) {
    const raw = decode(m[2]);
    if (seen.has(raw)) continue;
    seen.add(raw);
    if (raw === '' || /^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//')) continue; // external or mailto:, javascript:, data:
    const [pathPart, hash] = raw.split('#', 2);
    const clean = pathPart.split('?')[0];
    let target = clean === '' ? page : resolve(dirname(page), clean);
    if (existsSync(target) && statSync(target).isDirectory()) target = join(target, 'index.html');
    const where = `${relative(site, page)}: ${m[1]}="${m[2]}"`;
    if (target === app) continue; // the app; its #fragment is the app's own state (#lesson=...)
    if (!(target === site || target.startsWith(site + sep))) {
      problems.push(`${where}: leaves the site`);
    } else if (!existsSync(target)) {
      problems.push(`${where}: no such file`);
    } else if (hash && target.endsWith('.html') && !idsOf(target).has(hash)) {
      problems.push(`${where}: no anchor #${hash} in ${relative(site, target)}`);
    }
  }
  if (problems.length === before) passed++;
}

// Pages in docs/ that SUMMARY.md leaves out.
const summary = readFileSync(join(src, 'SUMMARY.md'), 'utf8');
const listed = new Set([...summary.matchAll(/\]\(([^)]+\.md)\)/g)].map((m) => resolve(src, m[1])));
const isFragment = (p) => p.split(sep).includes('generated');
for (const md of walk(src, (p) => p.endsWith('.md') && !p.startsWith(site))) {
  if (md === join(src, 'SUMMARY.md') || isFragment(md)) continue;
  if (listed.has(md)) passed++;
  else problems.push(`${relative(root, md)}: not in docs/SUMMARY.md (add it, or it is never built)`);
}

// References to files the repository does not hold.
const refs = checkRepoRefs(site);
passed += refs.passed;
problems.push(...refs.problems);

for (const p of new Set(problems)) console.log(`docs: broken: ${p}`);
console.log(`docs: ${passed} passed, ${problems.length} failed`);
process.exit(problems.length ? 1 : 0);
