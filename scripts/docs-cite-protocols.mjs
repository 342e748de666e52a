#!/usr/bin/env node
// Rewrites citations of the project's former protocol reference
// ("PROTOCOLS.md", "PROTOCOLS.md section N", "PROTOCOLS.md sections N and
// M"), which the repository does not hold, into the docs page that now
// holds the cited content:
//   section 1      docs/model.md, with the heading's anchor when the text
//                  just before the citation names its subject (a
//                  topology, a queue, a workload, ...);
//   section 2      docs/model.md#metrics (#stability when about stability);
//   sections 3-8   docs/protocols/{pfabric,ideal,phost,fastpass,pase,pdq}.md;
//   section 9      the page of the baseline named just before the citation
//                  (TCP, DCTCP, D2TCP, L2DCT, D3, RCP), else
//                  docs/protocols/index.md;
//   no section     docs/protocols/index.md.
// A citation may be split over comment lines ("PROTOCOLS.md\n/// section
// 7") or over a JSON string's "\n"; the rewritten one stays on the first
// line. Runs over every file git tracks, so moved code is found wherever it
// went; a second run changes nothing (no citation is left to rewrite).
// Usage: node scripts/docs-cite-protocols.mjs [--check]
//   --check  changes nothing; exits 1 and lists the files that still cite.
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const self = relative(root, fileURLToPath(import.meta.url));
const check = process.argv.includes('--check');

const PROTOCOL_PAGE = { 3: 'pfabric', 4: 'ideal', 5: 'phost', 6: 'fastpass', 7: 'pase', 8: 'pdq' };

// The headings of docs/model.md a section-1 citation can point at, and the
// words that name their subject.
const MODEL_SUBJECTS = [
  [/topolog/i, 'topologies'],
  [/\bqueue|droptail|strict_priority|\becn\b/i, 'queue-disciplines'],
  [/workload|\bCDF|lambda/i, 'workloads'],
  [/forward|cut-through|store-and-forward/i, 'switches'],
  [/\bMTU\b|\bMSS\b|control packet|40 B|payload/i, 'packets'],
  [/serializ|\blinks?\b|\bwire\b|\bNIC/i, 'links-and-ports'],
  [/picosecond|\bps\b|integer time|determinis/i, 'time'],
];

// Baselines (section 9), matched at the last occurrence before the
// citation; D2TCP and L2DCT before DCTCP, DCTCP before TCP.
const BASELINES = [
  [/\bD2TCP\b/g, 'd2tcp'],
  [/\bL2DCT\b/g, 'l2dct'],
  [/\bDCTCP\b/g, 'dctcp'],
  [/\bD3\b/g, 'd3'],
  [/\bRCP\b/g, 'rcp'],
  [/\bTCP\b/g, 'tcp'],
];

// The text of the citation's own sentence before it, at most 160
// characters: back to the last sentence end or blank comment line.
function before(text, at) {
  const s = text.slice(Math.max(0, at - 160), at);
  const cut = Math.max(s.lastIndexOf('. '), s.lastIndexOf('.\n'), s.lastIndexOf('.\\n'), s.lastIndexOf('\n\n'));
  return cut >= 0 ? s.slice(cut + 1) : s;
}

// The subject a section-1 citation is about: the words right after it
// ("section 1: store-and-forward"), else the subject named nearest before.
function modelPage(context, after) {
  const nearest = (text) => {
    let best = null;
    for (const [re, anchor] of MODEL_SUBJECTS) {
      for (const m of text.matchAll(new RegExp(re.source, re.flags + 'g'))) {
        if (!best || m.index > best.index) best = { index: m.index, anchor };
      }
    }
    return best;
  };
  const found = nearest(after) ?? nearest(context);
  return found ? `docs/model.md#${found.anchor}` : 'docs/model.md';
}

function baselinePage(context) {
  let best = null;
  for (const [re, page] of BASELINES) {
    for (const m of context.matchAll(re)) {
      if (!best || m.index > best.index) best = { index: m.index, page };
    }
  }
  // No two names match at one place ("D2TCP" holds no "\bTCP\b").
  return `docs/protocols/${best ? best.page : 'index'}.md`;
}

function target(sections, context, after) {
  const [first, second] = sections;
  if (first === undefined) return 'docs/protocols/index.md';
  if (first === 1 && (second === undefined || second === 2)) return second === 2 ? 'docs/model.md' : modelPage(context, after);
  if (first === 2 && second === undefined) return /stabil/i.test(context) ? 'docs/model.md#stability' : 'docs/model.md#metrics';
  if (PROTOCOL_PAGE[first] && second === undefined) return `docs/protocols/${PROTOCOL_PAGE[first]}.md`;
  if (first === 9 && second === undefined) return baselinePage(context);
  return null;
}

// "PROTOCOLS.md" (optionally in backticks), then optionally, across spaces,
// line breaks with their comment prefix or a JSON "\n", "section N" or
// "sections N and M".
const SEP = String.raw`(?:[ \t]|\r?\n[ \t]*(?:\/\/[\/!]?|\*(?!\/)|#)?|\\n)+`;
const CITATION = new RegExp(String.raw`\x60?PROTOCOLS\.md\x60?(?:(${SEP})sections?${SEP}(\d+)(?:${SEP}and${SEP}(\d+))?)?`, 'g');

export function rewrite(text) {
  const unknown = [];
  const out = text.replace(CITATION, (whole, _sep, a, b, at) => {
    const sections = [a, b].filter((x) => x !== undefined).map(Number);
    // What follows the citation up to its closing parenthesis, if close.
    const rest = text.slice(at + whole.length, at + whole.length + 40);
    const after = /^[:,;]/.test(rest) ? rest.split(')')[0] : '';
    const page = target(sections, before(text, at), after);
    if (!page) {
      unknown.push(whole);
      return whole;
    }
    return page;
  });
  return { out, unknown };
}

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f && f !== self && /\.(rs|ts|tsx|mjs|js|json|md|toml|sh|txt)$/.test(f));
let changed = 0;
let failed = false;
for (const f of files) {
  let text;
  try {
    text = readFileSync(join(root, f), 'utf8');
  } catch {
    continue; // listed by git but deleted in the work tree
  }
  if (!text.includes('PROTOCOLS.md')) continue;
  const { out, unknown } = rewrite(text);
  for (const u of unknown) {
    console.error(`${f}: no page for ${JSON.stringify(u)}`);
    failed = true;
  }
  if (out === text) continue;
  changed++;
  if (check) console.error(`${f}: cites PROTOCOLS.md`);
  else writeFileSync(join(root, f), out);
}
console.log(`docs-cite-protocols: ${changed} file(s) ${check ? 'cite PROTOCOLS.md' : 'rewritten'}`);
process.exit(failed || (check && changed > 0) ? 1 : 0);
