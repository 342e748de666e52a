#!/usr/bin/env node
// Writes the documentation pages that are generated from the repository's
// own files, so that they never go stale (run by scripts/docs before
// mdBook; the outputs are gitignored):
//   docs/reference/scenarios.md        the scenario file reference, from
//                                      scenarios/scenario.schema.json (which
//                                      `dcsim schema` writes from the engine's
//                                      types) and the shipped scenario files;
//   docs/protocols/generated/NAME.md   per protocol: its parameters (from
//                                      the schema: field, type, default, the
//                                      doc comment that names the source) and
//                                      the shipped lessons that run it (from
//                                      scenarios/lessons/*.json);
//   docs/contributing.md               CONTRIBUTING.md, its links to docs/
//                                      made relative to the site.
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schema = JSON.parse(readFileSync(join(root, 'scenarios/scenario.schema.json'), 'utf8'));
const defs = schema.$defs ?? {};

// One line of a table cell: the schema's descriptions are wrapped doc
// comments; a table needs them on one line with pipes escaped.
const cell = (s) => String(s ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
// The anchor mdBook gives a heading made of a plain name.
const anchor = (name) => name.toLowerCase().replace(/[^a-z0-9_\- ]/g, '').replace(/ /g, '-');
const refName = (ref) => ref.replace('#/$defs/', '');

// A property's type in words, linking to the definition it refers to.
// `link` turns a definition's name into a Markdown link (or plain text).
function typeOf(p, link) {
  if (!p) return '';
  if (p.$ref) return link(refName(p.$ref));
  if (p.const !== undefined) return '`' + JSON.stringify(p.const) + '`';
  if (p.enum) return p.enum.map((v) => '`' + JSON.stringify(v) + '`').join(', ');
  for (const key of ['anyOf', 'oneOf']) {
    if (p[key]) {
      const parts = p[key].filter((q) => q.type !== 'null').map((q) => typeOf(q, link));
      const nullable = p[key].some((q) => q.type === 'null');
      return parts.join(' or ') + (nullable ? ' or null' : '');
    }
  }
  let types = Array.isArray(p.type) ? p.type : p.type ? [p.type] : [];
  const nullable = types.includes('null');
  types = types.filter((t) => t !== 'null');
  let t = types
    .map((ty) => {
      if (ty === 'array') {
        if (p.prefixItems) return '[' + p.prefixItems.map((q) => typeOf(q, link)).join(', ') + ']';
        return 'array of ' + (p.items ? typeOf(p.items, link) : 'values');
      }
      return ty;
    })
    .join(' or ');
  if (p.minItems !== undefined && p.minItems === p.maxItems && types.includes('array') && !p.prefixItems) t += ` (${p.minItems})`;
  return t + (nullable ? ' or null' : '');
}

function defaultOf(value) {
  if (value === undefined) return '';
  if (value === null) return '`null`';
  if (typeof value === 'object') {
    const json = JSON.stringify(value);
    return json.length <= 60 ? '`' + json + '`' : 'each field\'s default';
  }
  return '`' + JSON.stringify(value) + '`';
}

// A table of an object's fields (without the `kind` tag of a variant).
// `defaults` overrides the fields' own defaults (a protocol's parameter
// set may differ from the struct's, as D3's from RCP's).
function fieldTable(obj, link, defaults = {}) {
  const props = Object.entries(obj.properties ?? {}).filter(([k]) => k !== 'kind' || !obj.properties.kind.const);
  if (props.length === 0) return 'No fields.\n';
  const required = new Set(obj.required ?? []);
  const rows = props.map(([k, p]) => {
    const d = k in defaults ? defaults[k] : p.default;
    const def = d === undefined ? (required.has(k) ? 'required' : '') : defaultOf(d);
    return `| \`${k}\` | ${cell(typeOf(p, link))} | ${cell(def)} | ${cell(p.description)} |`;
  });
  return ['| field | type | default | meaning |', '|---|---|---|---|', ...rows].join('\n') + '\n';
}

// One definition of the schema as a section of the reference page.
function defSection(name, d, link) {
  const out = [`### ${name}`, ''];
  if (d.description) out.push(cell(d.description), '');
  const variants = d.oneOf ?? d.anyOf;
  if (d.type === 'object' || d.properties) {
    out.push(fieldTable(d, link));
  } else if (variants && variants.every((v) => v.const !== undefined)) {
    out.push('| value | meaning |', '|---|---|');
    for (const v of variants) out.push(`| \`${JSON.stringify(v.const)}\` | ${cell(v.description)} |`);
    out.push('');
  } else if (d.enum) {
    out.push('Values: ' + d.enum.map((v) => '`' + JSON.stringify(v) + '`').join(', ') + '.', '');
  } else if (variants) {
    for (const v of variants) {
      const kind = v.properties?.kind?.const;
      if (kind !== undefined) {
        out.push(`**\`"kind": ${JSON.stringify(kind)}\`**: ${cell(v.description)}`, '', fieldTable(v, link));
      } else if (v.$ref) {
        out.push(`* ${cell(v.description)} (${link(refName(v.$ref))})`, '');
      } else {
        out.push(`* ${typeOf(v, link)}: ${cell(v.description)}`, '');
      }
    }
  } else {
    out.push(`Type: ${typeOf(d, link)}.`, '');
  }
  return out.join('\n');
}

// The order a reader meets the definitions in; any definition not listed
// follows in alphabetical order, so none is ever left out.
const ORDER = [
  'TopologySpec', 'Switching', 'LoadBalancing', 'WorkloadSpec', 'SizeSpec', 'NamedCdf', 'MatrixSpec',
  'DeadlineSpec', 'BackgroundFlow', 'FaultSpec', 'FaultKind', 'BranchSpec', 'BranchChange', 'ProtocolName',
  'ProtocolParams',
];
const names = [...ORDER.filter((n) => defs[n]), ...Object.keys(defs).filter((n) => !ORDER.includes(n)).sort()];

function scenarioReference() {
  const link = (n) => `[${n}](#${anchor(n)})`;
  const shipped = readdirSync(join(root, 'scenarios'))
    .filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json')
    .sort()
    .map((f) => {
      const s = JSON.parse(readFileSync(join(root, 'scenarios', f), 'utf8'));
      return `| \`${f}\` | ${cell(s.protocol ?? '')} | ${cell(s.description)} |`;
    });
  const out = [
    '# Scenario reference',
    '',
    '<!-- Generated by scripts/docs-generate.mjs from scenarios/scenario.schema.json; do not edit. -->',
    '',
    'A scenario is a JSON file: the network, the workload, the protocol and its parameters, and optionally',
    'faults and a what-if branch. `dcsim run FILE` runs one; the app loads the shipped ones by name and opens',
    'any other (see [Using the app](../guide/app.md)). Every field has a default, and a field the engine does',
    'not know is an error that names it.',
    '',
    'This page is generated from `scenarios/scenario.schema.json`, which `dcsim schema` writes from the',
    "engine's own types and doc comments, so it describes exactly what the engine accepts.",
    '',
    '## Shipped scenarios',
    '',
    'In `scenarios/`; the workload CDFs (web search, data mining, IMC10) are in `scenarios/workloads/` and',
    'built into the engine.',
    '',
    '| file | protocol | what it shows |',
    '|---|---|---|',
    ...shipped,
    '',
    '## Top-level fields',
    '',
    cell(schema.description),
    '',
    fieldTable(schema, link),
    '## Definitions',
    '',
    ...names.map((n) => defSection(n, defs[n], link)),
  ];
  return out.join('\n');
}

// The lessons that run a protocol (in `protocols`, or as a branch's
// protocol change).
function lessonsOf(protocol) {
  const dir = join(root, 'scenarios/lessons');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
    .filter((l) => (l.protocols ?? []).includes(protocol) || l.branch?.change?.protocol === protocol);
}

function protocolFragment(protocol) {
  const link = (n) => `[${n}](../reference/scenarios.md#${anchor(n)})`;
  const prop = defs.ProtocolParams?.properties?.[protocol];
  const out = ['<!-- Generated by scripts/docs-generate.mjs; do not edit. -->', '', '## Parameters', ''];
  if (prop?.$ref) {
    const struct = refName(prop.$ref);
    out.push(
      `\`params.${protocol}\` in a scenario file (${link(struct)}; the defaults are the papers', and each`,
      "field's meaning names its source). Every field can be set in the app's parameter panel and varied",
      `by a sweep (\`dcsim sweep --vary params.${protocol}.FIELD=...\`).`,
      '',
      fieldTable(defs[struct], link, prop.default ?? {}),
    );
  } else {
    out.push('None: the scheduler is flow-level and takes only the scenario (network and workload).', '');
  }
  out.push('## Lessons', '');
  const lessons = lessonsOf(protocol);
  if (lessons.length === 0) out.push('No shipped lesson runs it yet.', '');
  for (const l of lessons) {
    const others = (l.protocols ?? []).filter((p) => p !== protocol);
    const beside = others.length ? ` (beside ${others.join(', ')})` : '';
    out.push(`* [${cell(l.title)}](../../index.html#lesson=${l.name})${beside}: \`scenarios/lessons/${l.name}.json\`, ${l.steps.length} steps.`);
  }
  out.push('');
  return out.join('\n');
}

mkdirSync(join(root, 'docs/reference'), { recursive: true });
writeFileSync(join(root, 'docs/reference/scenarios.md'), scenarioReference());
const gen = join(root, 'docs/protocols/generated');
rmSync(gen, { recursive: true, force: true });
mkdirSync(gen, { recursive: true });
const protocols = (defs.ProtocolName?.oneOf ?? []).map((v) => v.const).filter((c) => typeof c === 'string');
for (const p of protocols) writeFileSync(join(gen, `${p}.md`), protocolFragment(p));
// CONTRIBUTING.md stays where contributors look for it; the site shows it
// with its links into docs/ made relative to docs/.
const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8').replace(/\]\(docs\//g, '](');
writeFileSync(join(root, 'docs/contributing.md'), '<!-- Generated from CONTRIBUTING.md by scripts/docs-generate.mjs; do not edit. -->\n\n' + contributing);
console.log(`docs-generate: reference/scenarios.md, protocols/generated/ (${protocols.length} protocols), contributing.md`);
