// The run settings the parameter panel edits: a scenario (the same JSON a
// scenario file holds, so a shared URL or an exported settings file runs
// identically under `dcsim run`) and the protocols shown side by side.
// Validation here gives instant, field-named messages; the engine's own
// validation (validate_scenario in the worker) has the final word.

import { DCTCP_PROFILES, ENGINE_PROTOCOLS, PORT_DEFAULTS, PROTOCOL_DESCRIPTORS } from '../engine/names.generated';

/** A protocol the engine runs. */
export type Protocol = (typeof ENGINE_PROTOCOLS)[number];

/** A parameter the panel offers as a field (engine/core/src/protocol/plugin.rs `Field`), with its default. */
export interface ParamField {
  key: string;
  label: string;
  unit: string;
  source: string;
  min: number;
  max: number | null;
  default: number;
}

/** What the page shows of a protocol (engine/core/src/protocol/plugin.rs `Descriptor`). */
export interface ProtocolDescriptor {
  label: string;
  summary: string;
  color: string;
  list_rank: number;
  flow_level: boolean;
  dctcp_profile: boolean;
  priority: { kind: 'none' } | { kind: 'fifo' } | { kind: 'queues'; labels: readonly string[] } | { kind: 'ranks'; bounds: readonly number[] };
  fields: readonly ParamField[];
}

/** Each protocol's descriptor, as the engine states it (`dcsim names`). */
export const DESCRIPTORS: Readonly<Record<Protocol, ProtocolDescriptor>> = PROTOCOL_DESCRIPTORS;

/** The descriptor of `protocol`, or undefined for a name the engine does not know. */
export function descriptorOf(protocol: string): ProtocolDescriptor | undefined {
  return Object.hasOwn(DESCRIPTORS, protocol) ? DESCRIPTORS[protocol as Protocol] : undefined;
}

/** Protocols the engine runs, in the order the page lists them (each descriptor's `list_rank`). */
export const PROTOCOLS: readonly Protocol[] = [...ENGINE_PROTOCOLS].sort((a, b) => DESCRIPTORS[a].list_rank - DESCRIPTORS[b].list_rank);

/** The queue discipline of each protocol's ports, as the engine states it (engine/core/src/protocol/ports.rs `PortSetup`). */
export const DISCIPLINE = Object.fromEntries(PROTOCOLS.map((p) => [p, PORT_DEFAULTS[p].discipline])) as Record<Protocol, (typeof PORT_DEFAULTS)[Protocol]['discipline']>;

/**
 * Flow-level schedulers: no packets, computed at once (the Ideal SRPT
 * oracle, PDQ's optimal deadline scheduler); their flows are revealed as
 * the shared clock passes their completions.
 */
export const FLOW_LEVEL: ReadonlySet<string> = new Set(PROTOCOLS.filter((p) => DESCRIPTORS[p].flow_level));

/** Default port buffer per protocol, bytes (pFabric Table 1), as the engine states it. */
export const DEFAULT_BUFFER: Record<Protocol, number> = Object.fromEntries(PROTOCOLS.map((p) => [p, PORT_DEFAULTS[p].buffer_bytes])) as Record<Protocol, number>;

/** Default ECN marking threshold K of ECN ports, bytes (pFabric Table 1: 22.5 KB), as the engine states it. */
export const DEFAULT_ECN_THRESHOLD: number = Math.max(...PROTOCOLS.map((p) => PORT_DEFAULTS[p].ecn_threshold_bytes ?? 0));

/** The protocol the page offers first, and runs when a scenario names none (pFabric: also the engine's default). */
export const DEFAULT_PROTOCOL: Protocol = PROTOCOLS[0];

/** Discipline, buffer and ECN threshold of a protocol's ports, for the inspector and the queue bars. */
export function portsOf(settings: Settings, protocol: string): { discipline: string; bufferBytes: number; ecnThresholdBytes?: number } {
  const p = settings.scenario.params?.[protocol] ?? {};
  const known = descriptorOf(protocol) ? (protocol as Protocol) : null;
  const discipline = known ? DISCIPLINE[known] : 'droptail';
  const bufferBytes = p.buffer_bytes ?? (known ? DEFAULT_BUFFER[known] : 225_000);
  // Ports that mark (ECN FIFOs, and PASE's strict-priority sub-queues) state their K.
  const k = known ? PORT_DEFAULTS[known].ecn_threshold_bytes : null;
  return k !== null ? { discipline, bufferBytes, ecnThresholdBytes: p.ecn_threshold_bytes ?? k } : { discipline, bufferBytes };
}

/** A DCTCP end-host profile (engine/core/src/protocol/window/params.rs `DctcpProfile`). */
export type DctcpProfile = keyof typeof DCTCP_PROFILES;

/** DCTCP's end-host profiles as the engine lists them, its default first. */
export const DCTCP_PROFILE_NAMES = Object.keys(DCTCP_PROFILES) as DctcpProfile[];

/** The protocols that read a DCTCP profile (`params.<protocol>.profile`). */
export const DCTCP_FAMILY: ReadonlySet<string> = new Set(PROTOCOLS.filter((p) => DESCRIPTORS[p].dctcp_profile));

/** The DCTCP profile `protocol` runs with in `scenario` (the engine's default when unset), or null for a protocol that reads none. */
export function dctcpProfileOf(scenario: ScenarioJson, protocol: string): string | null {
  if (!DCTCP_FAMILY.has(protocol)) return null;
  return scenario.params?.[protocol]?.profile ?? DCTCP_PROFILE_NAMES[0];
}

/** Side by side shows at most this many protocols, each in its own worker. */
export const MAX_SIDE_BY_SIDE = 4;
/** Most flows the browser accepts in one run (the engine's own cap is 5,000,000). */
export const MAX_BROWSER_FLOWS = 1_000_000;

/** The built-in flow-size distributions. */
export const NAMED_CDFS = ['websearch', 'datamining', 'imc10'] as const;

/** A scenario as JSON (see scenarios/scenario.schema.json). */
export type ScenarioJson = Record<string, any>;

/** What a what-if branch changes (engine/core/src/branch.rs `BranchChange`). */
export type BranchChange =
  | { kind: 'buffer_bytes'; bytes: number }
  | { kind: 'protocol'; protocol: Protocol }
  | { kind: 'link_down' | 'link_up'; link: [string, string] }
  | { kind: 'switch_down' | 'switch_up'; node: string }
  | { kind: 'drop_next'; flow: number; port: [string, string] };

/**
 * A what-if branch of one of the runs (engine/core/src/branch.rs): the run
 * of protocol `of` up to `at_us`, then `change`. Reproducible from this
 * description alone; the share link and lessons carry it.
 */
export interface BranchSettings {
  /** The run it branches from. */
  of: Protocol;
  /** What it asks, e.g. "6 KB buffers". */
  name: string;
  /** When the change applies, microseconds. */
  at_us: number;
  change: BranchChange;
}

/** What the page runs. */
export interface Settings {
  scenario: ScenarioJson;
  protocols: Protocol[];
  /** A what-if branch shown beside the runs (at most one). */
  branch?: BranchSettings;
}

/** One run the page shows: a protocol's, or the branch. */
export interface RunSpec {
  /** Shown on the panel, the charts and export file names (unique). */
  label: string;
  /** The protocol the engine runs. */
  protocol: Protocol;
  scenario: ScenarioJson;
}

/** "pfabric · what if 6 KB buffers". */
export function branchLabel(b: BranchSettings): string {
  return `${b.of} · what if ${b.name}`;
}

/** When a branch leaves its base, picoseconds (a protocol change runs from zero). */
export function divergencePs(b: BranchSettings): number {
  return b.change.kind === 'protocol' ? 0 : Math.round(b.at_us * 1e6);
}

/** The runs of some settings: one per protocol, then the branch. */
export function runsOf(s: Settings): RunSpec[] {
  const runs: RunSpec[] = s.protocols.map((p) => ({ label: p, protocol: p, scenario: scenarioFor(s, p) }));
  const b = s.branch;
  if (b && s.protocols.includes(b.of)) {
    const protocol = b.change.kind === 'protocol' ? b.change.protocol : b.of;
    runs.push({ label: branchLabel(b), protocol, scenario: { ...scenarioFor(s, b.of), branch: { name: b.name, at_us: b.at_us, change: b.change } } });
  }
  return runs;
}

/** A validation problem, naming the field. */
export interface FieldError {
  field: string;
  message: string;
}

function isInt(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x);
}

/** Checks a value given for a panel field: a whole number within the field's bounds. */
function checkField(v: unknown, path: string, f: ParamField, e: (field: string, message: string) => void) {
  if (v === undefined || (isInt(v) && v >= f.min && (f.max === null || v <= f.max))) return;
  const range = f.max !== null ? ` from ${f.min} to ${f.max}` : f.min > 0 ? ` of at least ${f.min}` : '';
  e(path, `must be a whole number${f.unit ? ` of ${f.unit}` : ''}${range}, got ${v}`);
}

/** Checks settings; returns every problem found (empty when valid). */
export function validateSettings(s: Settings): FieldError[] {
  const errs: FieldError[] = [];
  const e = (field: string, message: string) => errs.push({ field, message });
  if (s.protocols.length === 0) e('protocols', 'choose at least one protocol');
  if (s.protocols.length > MAX_SIDE_BY_SIDE) e('protocols', `at most ${MAX_SIDE_BY_SIDE} protocols side by side`);
  if (new Set(s.protocols).size !== s.protocols.length) e('protocols', 'each protocol at most once');
  for (const p of s.protocols) if (!PROTOCOLS.includes(p)) e('protocols', `unknown protocol "${p}" (known: ${PROTOCOLS.join(', ')})`);
  const sc = s.scenario;
  if (typeof sc.name !== 'string' || !sc.name.trim()) e('name', 'must not be empty');
  if (sc.seed !== undefined && !(isInt(sc.seed) && sc.seed >= 0 && sc.seed <= Number.MAX_SAFE_INTEGER)) e('seed', 'must be a whole number from 0 to 2^53-1');
  const w = sc.workload ?? {};
  if (w.load !== undefined) {
    if (typeof w.load !== 'number' || Number.isNaN(w.load)) e('workload.load', 'must be a number');
    else if (w.load <= 0) e('workload.load', `must be above 0, got ${w.load}`);
    else if (w.load > 1) e('workload.load', `must be at most 1 (a load above 1 never drains), got ${w.load}`);
  }
  if (w.flows !== undefined) {
    if (!isInt(w.flows) || w.flows < 1) e('workload.flows', `must be a whole number of at least 1, got ${w.flows}`);
    else if (w.flows > MAX_BROWSER_FLOWS) e('workload.flows', `at most ${MAX_BROWSER_FLOWS.toLocaleString('en')} in the browser (use the command line for more)`);
  }
  const t = sc.topology ?? {};
  if (t.kind === 'leaf_spine') {
    for (const k of ['racks', 'hosts_per_rack', 'spines']) {
      if (t[k] !== undefined && !(isInt(t[k]) && t[k] >= 1)) e(`topology.${k}`, `must be a whole number of at least 1, got ${t[k]}`);
    }
    if (isInt(t.racks) && isInt(t.hosts_per_rack) && t.racks * t.hosts_per_rack > 4096) e('topology', 'at most 4096 hosts in the browser');
    for (const k of ['host_link_gbps', 'fabric_link_gbps']) if (t[k] !== undefined && !(t[k] > 0)) e(`topology.${k}`, `must be above 0, got ${t[k]}`);
  }
  // The engine checks every protocol's parameters, ticked or not.
  for (const p of PROTOCOLS) for (const f of DESCRIPTORS[p].fields) checkField(sc.params?.[p]?.[f.key], `params.${p}.${f.key}`, f, e);
  const b = s.branch;
  if (b) {
    // A branch of a run no longer shown is dropped (runsOf), not an error.
    if (FLOW_LEVEL.has(b.of)) e('branch.of', `${b.of} is flow-level (computed at once): branch a packet-level protocol`);
    if (typeof b.name !== 'string' || !b.name.trim() || b.name.length > 120) e('branch.name', 'must be 1 to 120 characters');
    if (!(typeof b.at_us === 'number' && Number.isFinite(b.at_us) && b.at_us >= 0)) e('branch.at_us', `must be a time in microseconds >= 0, got ${b.at_us}`);
    const c = b.change;
    if (c?.kind === 'buffer_bytes') {
      if (!(isInt(c.bytes) && c.bytes >= 1500)) e('branch.change.bytes', `must be a whole number of bytes, at least one 1500-byte packet, got ${c.bytes}`);
    } else if (c?.kind === 'protocol') {
      if (!PROTOCOLS.includes(c.protocol)) e('branch.change.protocol', `unknown protocol "${c.protocol}"`);
    } else if (c?.kind === 'link_down' || c?.kind === 'link_up') {
      if (!(Array.isArray(c.link) && c.link.length === 2 && c.link.every((x) => typeof x === 'string' && x))) e('branch.change.link', 'must name the two ends, e.g. ["tor0", "spine1"]');
    } else if (c?.kind === 'switch_down' || c?.kind === 'switch_up') {
      if (typeof c.node !== 'string' || !c.node) e('branch.change.node', 'must name a switch, e.g. "spine1"');
    } else if (c?.kind === 'drop_next') {
      if (!(isInt(c.flow) && c.flow >= 0)) e('branch.change.flow', `must be a flow id (a whole number >= 0), got ${c.flow}`);
      if (!(Array.isArray(c.port) && c.port.length === 2 && c.port.every((x) => typeof x === 'string' && x))) e('branch.change.port', 'must name the port as its node and the neighbour it sends to, e.g. ["spine0", "tor3"]');
    } else e('branch.change', 'must be a buffer_bytes, protocol, link_down/up, switch_down/up or drop_next change');
  }
  for (const p of DCTCP_FAMILY) {
    const prof = sc.params?.[p]?.profile;
    if (prof !== undefined && !(DCTCP_PROFILE_NAMES as string[]).includes(prof))
      e(`params.${p}.profile`, `unknown DCTCP profile "${prof}" (known: ${DCTCP_PROFILE_NAMES.join(', ')})`);
  }
  return errs;
}

/** The scenario one protocol runs: the shared scenario with `protocol` set. */
export function scenarioFor(s: Settings, p: Protocol): ScenarioJson {
  return { ...s.scenario, protocol: p };
}

/** Bytes as base64url (RFC 4648 section 5, no padding): safe in a URL hash. */
export function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of base64url text (throws on characters outside the alphabet). */
export function fromBase64Url(s: string): Uint8Array {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Version of the shared-URL format. */
const URL_VERSION = 1;

/** Encodes settings into a URL hash (`#run=...`) that reproduces the run exactly. */
export function encodeSettings(s: Settings): string {
  const json = JSON.stringify({ v: URL_VERSION, protocols: s.protocols, scenario: s.scenario, ...(s.branch ? { branch: s.branch } : {}) });
  return '#run=' + toBase64Url(new TextEncoder().encode(json));
}

/** Decodes a URL hash made by `encodeSettings`; null when there is none, an error message when it is broken. */
export function decodeSettings(hash: string): Settings | null | { error: string } {
  const m = /(?:^#|&)run=([A-Za-z0-9_-]+)/.exec(hash);
  if (!m) return null;
  let obj: any;
  try {
    obj = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(m[1])));
  } catch {
    return { error: 'the shared link is damaged (its run= part does not decode); loading the default scenario instead' };
  }
  if (!obj || obj.v !== URL_VERSION || typeof obj.scenario !== 'object' || !Array.isArray(obj.protocols)) {
    return { error: `the shared link is of an unknown version (${obj?.v}); loading the default scenario instead` };
  }
  return { scenario: obj.scenario, protocols: obj.protocols, ...(obj.branch && typeof obj.branch === 'object' ? { branch: obj.branch } : {}) };
}

/** File name for an export: scenario, protocol and seed, e.g. `websearch-leaf-spine_pfabric_seed1_flows.csv`. */
export function exportName(scenario: ScenarioJson, protocol: string, what: string, ext: string): string {
  const safe = (x: string) => x.replace(/[^A-Za-z0-9._-]+/g, '-');
  return `${safe(String(scenario.name))}_${safe(protocol)}_seed${scenario.seed ?? 1}_${what}.${ext}`;
}
