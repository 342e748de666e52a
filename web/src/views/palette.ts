// Colours shared by the network view, the legend and the charts. Chosen to
// stay distinct on a white background and on a washed-out projector. Two
// schemes: the default one, and Okabe and Ito's colour-blind-safe palette
// ("Color Universal Design", Okabe & Ito 2008), chosen in the page
// (`applyPalette`); the tables below hold the scheme in use, in place, so
// the canvas picks it up on its next frame.

import { PacketKindCode } from '../engine/api';
import { descriptorOf } from '../state/settings';

/** The colour schemes the page offers. */
export const PALETTE_NAMES = ['default', 'okabe-ito'] as const;
/** A colour scheme's name. */
export type PaletteName = (typeof PALETTE_NAMES)[number];

/** Okabe and Ito's eight colours: black, orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple. */
export const OKABE_ITO = { black: '#000000', orange: '#E69F00', sky: '#56B4E9', green: '#009E73', yellow: '#F0E442', blue: '#0072B2', vermillion: '#D55E00', purple: '#CC79A7' } as const;

const DEFAULT_FLOWS = ['#1f77b4', '#e8590c', '#2b8a3e', '#c2255c', '#7048e8', '#8c564b', '#0b7285', '#d6336c', '#5c940d', '#364fc7', '#e67700', '#495057'];
const O = OKABE_ITO;
const OKABE_FLOWS = [O.blue, O.vermillion, O.green, O.purple, O.orange, O.sky, O.black, O.yellow];

/** Flow colours: a packet's flow id is hashed into this list (stable across frames and runs). */
export const FLOW_PALETTE: string[] = [...DEFAULT_FLOWS];

/** Index into FLOW_PALETTE for a flow id (a multiplicative hash, so neighbouring ids differ). */
export function flowColorIndex(flow: number): number {
  const h = Math.imul((flow | 0) ^ 0x5bd1e995, 0x9e3779b1) >>> 0;
  return ((h ^ (h >>> 15)) >>> 0) % FLOW_PALETTE.length;
}

/** The colour of a flow. */
export function flowColor(flow: number): string {
  return FLOW_PALETTE[flowColorIndex(flow)];
}

/** Colours by packet kind (the "kind / priority" colouring, and the legend). */
export const KIND_COLORS: Record<PacketKindCode, string> = {
  [PacketKindCode.Data]: '#1f5fbf',
  [PacketKindCode.Ack]: '#2b8a3e',
  [PacketKindCode.Probe]: '#e8590c',
  [PacketKindCode.Control]: '#862e9c',
};
const DEFAULT_KINDS = { ...KIND_COLORS };
const OKABE_KINDS: Record<PacketKindCode, string> = { [PacketKindCode.Data]: O.blue, [PacketKindCode.Ack]: O.green, [PacketKindCode.Probe]: O.orange, [PacketKindCode.Control]: O.purple };

/** How packets can be coloured in the network view. */
export type ColorBy = 'flow' | 'kind' | 'priority';

/**
 * Priority colours, most urgent first (hot to cool): a strict-priority
 * sub-queue index (0 first), or a pFabric rank bucket (see
 * {@link priorityColorIndex}).
 */
export const PRIORITY_PALETTE: string[] = ['#c92a2a', '#e8590c', '#f59f00', '#2b8a3e', '#1971c2', '#5f3dc4', '#868e96', '#343a40'];
const DEFAULT_PRIORITIES = [...PRIORITY_PALETTE];
const OKABE_PRIORITIES = [O.vermillion, O.orange, O.yellow, O.green, O.sky, O.blue, O.purple, O.black];

/**
 * Index into PRIORITY_PALETTE for a departing packet's priority: on ports
 * that rank packets (pFabric's: `priority.kind` 'ranks' in the protocol's
 * descriptor) it is the rank (remaining flow bytes; ACKs and probes 0),
 * bucketed by the descriptor's bounds (below 10 KB, 100 KB, 1 MB, 10 MB
 * and above); elsewhere it is the sub-queue (0 for a single FIFO).
 */
export function priorityColorIndex(protocol: string, prio: number): number {
  const key = descriptorOf(protocol)?.priority;
  if (key?.kind === 'ranks') {
    let b = 0;
    while (b < key.bounds.length && prio >= key.bounds[b]) b++;
    return b;
  }
  return Math.max(0, Math.min(PRIORITY_PALETTE.length - 1, prio | 0));
}

/** Names of packet kinds, for the legend and the event log. */
export const KIND_NAMES: Record<PacketKindCode, string> = {
  [PacketKindCode.Data]: 'data',
  [PacketKindCode.Ack]: 'ACK',
  [PacketKindCode.Probe]: 'probe',
  [PacketKindCode.Control]: 'control',
};

/** Other colours of the network view. */
export const COLORS: Record<'link' | 'linkSelected' | 'host' | 'switchFill' | 'switchStroke' | 'queue' | 'queueOverK' | 'queueBack' | 'drop' | 'mark' | 'label' | 'rate', string> = {
  link: '#aab4bf',
  linkSelected: '#1c7ed6',
  host: '#5f6b78',
  switchFill: '#eef1f5',
  switchStroke: '#5f6b78',
  queue: '#3b5bdb',
  queueOverK: '#e03131',
  queueBack: '#dde2e8',
  drop: '#e03131',
  mark: '#f59f00',
  label: '#1b1f24',
  rate: '#2b8a3e',
};
const DEFAULT_COLORS = { ...COLORS };
const OKABE_COLORS = { ...COLORS, linkSelected: O.blue, queue: O.blue, queueOverK: O.vermillion, drop: O.vermillion, mark: O.orange, rate: O.green };

const SPARE = ['#d6336c', '#5c940d', '#364fc7', '#e67700'];

/** Okabe-Ito run colours, by the run's place on the page (at most 4 protocols and a branch: always distinct). */
const OKABE_RUNS = [O.blue, O.vermillion, O.green, O.purple, O.orange, O.sky, O.black];

let current: PaletteName = 'default';

/** The colour scheme in use. */
export function paletteName(): PaletteName {
  return current;
}

/**
 * Switches every colour table to a scheme, in place: the network view
 * draws with it from its next frame; components that colour at render
 * time (charts, legend) must re-render (the page remounts them).
 */
export function applyPalette(name: PaletteName) {
  current = name;
  const ok = name === 'okabe-ito';
  FLOW_PALETTE.splice(0, FLOW_PALETTE.length, ...(ok ? OKABE_FLOWS : DEFAULT_FLOWS));
  PRIORITY_PALETTE.splice(0, PRIORITY_PALETTE.length, ...(ok ? OKABE_PRIORITIES : DEFAULT_PRIORITIES));
  Object.assign(KIND_COLORS, ok ? OKABE_KINDS : DEFAULT_KINDS);
  Object.assign(COLORS, ok ? OKABE_COLORS : DEFAULT_COLORS);
}

/** The colour of run `i` running `protocol` in the charts: by protocol (so it keeps its colour everywhere), or, colour-blind-safe, by place. */
export function runColor(protocol: string, i: number): string {
  if (current === 'okabe-ito') return OKABE_RUNS[i % OKABE_RUNS.length];
  // By protocol (each descriptor's colour) so a protocol keeps its colour everywhere.
  return descriptorOf(protocol.toLowerCase())?.color ?? SPARE[i % SPARE.length];
}
