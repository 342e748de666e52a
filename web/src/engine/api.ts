// The worker API: every message between the page and a simulation worker,
// and the shapes of the data the views draw. The page imports only types
// from here (plus the pure decoders in frame.ts); the engine itself lives in
// the worker (sim.worker.ts).

import { BRANCH_SETTING_KINDS, DROP_REASON, FAULT_KINDS, PACKET_KIND, TRACE_CODE } from './names.generated';

/** Record widths of the flat Float64Arrays the engine hands out (engine/wasm/src/lib.rs). */
export const TRACE_WIDTH = 9; // [t_ps, kind, port, flow, seq, packet_kind, aux, priority, end_ps]
export const FLOW_WIDTH = 7; // [flow, size_bytes, start_ps, fct_ps, slowdown, src, dst]
export const PACKET_WIDTH = 6; // [flow, seq, packet_kind, rank, size, class]

/**
 * Trace record kinds (column 1 of a trace record), read from the engine.
 * Enqueue: aux = sub-queue. Dequeue: aux = bytes left in the buffer,
 * priority = pFabric rank (remaining bytes) or sub-queue. Drop: aux =
 * DropWhy. Timeout: aux = 1 in pFabric probe mode. LinkRate: aux = bits per
 * second (RCP fair share). Control: aux = index into CONTROL_NAMES.
 * Decision: aux = index into CONTROL_NAMES, seq = priority queue (-1: none),
 * priority = rate in b/s, port = the link (-1: none). Fault: a port's link
 * went down (aux 0) or came back (aux 1).
 */
export const TraceCode = TRACE_CODE;
export type TraceCode = (typeof TRACE_CODE)[keyof typeof TRACE_CODE];

/** Packet kinds (packet_kind column), read from the engine. */
export const PacketKindCode = PACKET_KIND;
export type PacketKindCode = (typeof PACKET_KIND)[keyof typeof PACKET_KIND];

/** Why a packet was dropped (aux of a Drop record), read from the engine. */
export const DropWhy = DROP_REASON;
export type DropWhy = (typeof DROP_REASON)[keyof typeof DROP_REASON];
/** A drop reason's name (`BufferFull`, ...): tables keyed by it must name every reason. */
export type DropWhyName = keyof typeof DROP_REASON;

/** The name of drop reason `code`, or undefined for a code the engine does not write. */
export function dropWhyName(code: number): DropWhyName | undefined {
  return (Object.keys(DROP_REASON) as DropWhyName[]).find((k) => DROP_REASON[k] === code);
}

/** The kinds of fault (a scenario's `faults`, a branch's change), read from the engine. */
export const FaultKinds = FAULT_KINDS;
/** One kind of fault (`link_down`, ...). */
export type FaultKind = (typeof FAULT_KINDS)[number];
/** The kinds of a branch's change that are settings, not faults, read from the engine. */
export const BranchSettingKinds = BRANCH_SETTING_KINDS;
/** One kind of setting change (`buffer_bytes`, `protocol`). */
export type BranchSettingKind = (typeof BRANCH_SETTING_KINDS)[number];

/** Names of control events, indexed by the aux of a Control or Decision record: read from the engine. */
export { CONTROL_EVENTS, CONTROL_NAMES } from './names.generated';

/** A node as the engine serializes it (engine/core/src/net/mod.rs `Node`). */
export interface TopoNode {
  kind: 'host' | 'tor' | 'aggregation' | 'core';
  ports: number[];
  /** Rack for hosts and ToRs, group index for other switches. */
  group: number;
  name: string;
}

/** An output port (engine `PortSpec`): one direction of a link. */
export interface TopoPort {
  node: number;
  peer: number;
  link: number;
  /** Bits per second. */
  rate: number;
  /** Propagation (plus the peer's processing), picoseconds. */
  delay: number;
  role: 'host_nic' | 'up' | 'down' | 'edge';
}

/** The network of a run (engine `Network`). Hosts are nodes 0..n_hosts-1. */
export interface Topology {
  nodes: TopoNode[];
  ports: TopoPort[];
  n_hosts: number;
  /** Host link rate, bits per second. */
  host_rate: number;
}

/** Mean slowdown etc. of one flow-size bucket (engine `BucketStats`). */
export interface BucketStats {
  flows: number;
  mean_slowdown: number;
  p99_slowdown: number;
  afct_us: number;
  nfct: number;
}

/** The summary of a finished run: the object `dcsim run --json` prints. */
export interface Summary {
  scenario: string;
  protocol: string;
  load: number;
  seed: number;
  flows: number;
  completed: number;
  all: BucketStats;
  short: BucketStats;
  medium: BucketStats;
  long: BucketStats;
  deadlines_met: number | null;
  mean_request_us: number | null;
  throughput_gbps: number;
  drop_rate: number;
  drops_by_hop: [number, number, number, number];
  control_overhead: number;
  stable: boolean;
  /** Why the run stopped. */
  stop: 'all_flows_done' | 'idle' | 'time_limit' | 'event_limit';
  /** How the run ended in words when it matters (no flow arrived, a limit cut it short, the backlog grew); null for a complete, stable run. */
  note: string | null;
  sim_time_us: number;
  events: number;
  /** Packets dropped because of faults (down links and switches). */
  fault_drops: number;
}

/** The port the user is inspecting: its buffer as the discipline holds it. */
export interface PortSnapshot {
  port: number;
  /** Bytes per sub-queue (one entry for single-queue disciplines). */
  subqueueBytes: Float64Array;
  /** PACKET_WIDTH numbers per buffered packet, in the order the port sends them if nothing else arrives (the engine's own dequeue). */
  packets: Float64Array;
  /** Index in `packets` of the packet a full buffer drops first to admit a more urgent arrival (pFabric: the least urgent); -1 where the arrival is dropped instead. */
  dropFirst: number;
  /** A host NIC: wire bytes of data its host sent here that were dropped at a later hop (PASE §4.2's wasted capacity); 0 elsewhere. */
  wastedBytes: number;
  /** A host NIC: wire bytes this link has sent so far; 0 elsewhere. */
  sentBytes: number;
}

/** One flow's record (engine `FlowRecord`; times in picoseconds). */
export interface FlowInfo {
  record: { id: number; src: number; dst: number; size: number; start: number; end: number | null; ideal: number; deadline: number | null; tenant: number; request: number | null; background: boolean };
  fct_ps: number | null;
  slowdown: number | null;
}

/** What time travel holds in one worker (engine `TimelineStats`). */
export interface TimelineStats {
  /** Coarse checkpoints (one per `interval_events` events). */
  coarse: number;
  /** Fine checkpoints (recent, for stepping back). */
  fine: number;
  /** Bytes the checkpoints hold. */
  bytes: number;
  budget_bytes: number;
  interval_events: number;
  /** Simulated picoseconds up to which checkpoints exist. */
  explored_ps: number;
  /** The worker has explored the whole run (explored_ps is its end). */
  explored_all: boolean;
}

/** The end of a run: the summary and the CSVs `dcsim run` writes. */
export interface RunEnd {
  summary: Summary;
  flowsCsv: string;
  summaryCsv: string;
  /** Wall time the worker spent on the last slice and the summary, ms. */
  wallMs: number;
}

/** One slice of a run: the worker's answer to `advance`, `seek`, `finish` (and `inspect`). */
export interface Frame {
  type: 'frame';
  /**
   * The run went to another time (a seek): `completions` holds every flow
   * completed so far, and the trace the last stretch before `nowPs`; the
   * page rebuilds the run's state from this frame instead of adding it.
   */
  reset: boolean;
  /** Events a seek replayed from its checkpoint (0 for other frames). */
  replayed: number;
  /** Checkpoints and exploration (time travel). */
  timeline: TimelineStats;
  /** Simulated time now, picoseconds. */
  nowPs: number;
  /** Time of the next pending event (-1 when none). */
  nextPs: number;
  events: number;
  done: number;
  total: number;
  /** False once the run is over (then `end` holds its summary). */
  running: boolean;
  /** The run's summary and CSVs when this slice reached its end, else null. */
  end: RunEnd | null;
  /** Bytes buffered per port, by port id. */
  queueBytes: Float64Array;
  /** TRACE_WIDTH numbers per record, time-ordered; empty when tracing is off. */
  trace: Float64Array;
  /** Trace records cut from this frame to keep it small. */
  traceDropped: number;
  /** FLOW_WIDTH numbers per flow completed in this slice. */
  completions: Float64Array;
  inspect: PortSnapshot | null;
  /** Wall time the worker spent simulating this slice, ms. */
  wallMs: number;
}

/** How far one `advance` goes. */
export interface AdvanceRequest {
  type: 'advance';
  /** Stop after the last event at or before this time (Infinity: no bound). */
  untilPs: number;
  /** At most this many events (Infinity: no bound). */
  maxEvents: number;
  /** Stop right after the next flow completion. */
  stopOnCompletion: boolean;
  /** Reply after at most this much wall time even if not there yet. */
  maxWallMs: number;
}

/** Requests from the page to a worker; each is answered by one reply (`Replies`) or an error. */
export type WorkerRequest =
  /** `budgetBytes`: memory the worker's checkpoints may hold. */
  | { type: 'load'; scenario: unknown; trace: boolean; budgetBytes?: number }
  | AdvanceRequest
  /** Go to the state after every event at or before `tPs` (time travel; any direction). */
  | { type: 'seek'; tPs: number }
  /** Change the memory the checkpoints may hold (thinning them at once). */
  | { type: 'budget'; bytes: number }
  /** Include this port's buffer in every frame (null: none). */
  | { type: 'inspect'; port: number | null }
  | { type: 'trace'; on: boolean }
  /**
   * Explore the run ahead while the page is idle (time travel's
   * checkpoints; on until the page says otherwise), or stop: a hidden
   * page's workers stop, so a tab in the background costs no CPU.
   */
  | { type: 'explore'; on: boolean }
  | { type: 'flow'; flow: number }
  /** Run to the end: the reply's frame carries the summary (`end`). */
  | { type: 'finish' }
  /** Check scenarios with the engine's own validation (no run is kept): the answer is `checked`. */
  | { type: 'check'; scenarios: unknown[] }
  /**
   * What a scenario's run shows at each time of `atPs` (nondecreasing),
   * for a lesson's `shows` statements (lessons/shows.ts): a run of its own
   * with the trace on, the loaded run untouched; at most `maxWallMs`.
   */
  | { type: 'facts'; scenario: unknown; atPs: number[]; maxWallMs: number }
  /**
   * The time of the next (or previous) event of a kind after (before)
   * `fromPs` in the loaded run, looking for at most `maxWallMs`. The run
   * is left elsewhere: the page seeks afterwards (to the time found, or
   * back to `fromPs`).
   */
  | { type: 'find'; event: NavEvent; direction: 'next' | 'previous'; fromPs: number; maxWallMs: number };

/** Events the page can go to (next and previous), as `find` names them. */
export const NAV_EVENTS = ['drop', 'ecn_mark', 'token', 'decision', 'flow_completed'] as const;
/** One of NAV_EVENTS. */
export type NavEvent = (typeof NAV_EVENTS)[number];

/** Answer to `load`: the run is prepared at time zero. */
export interface Loaded {
  type: 'loaded';
  topology: Topology;
  scenario: Record<string, unknown>;
}
/** Answer to a `flow` request: null when the flow has not arrived yet. */
export interface FlowReply {
  type: 'flow';
  flow: number;
  info: FlowInfo | null;
}
/** Answer to `check`: the engine's message for the first scenario it refuses (null: all valid). */
export interface Checked {
  type: 'checked';
  error: string | null;
}
/** Answer to `facts`: what the run shows at each time asked for. */
/** What one run shows at one time, folded from its trace. */
export interface Facts {
  tPs: number;
  /** Events at or before tPs by key (as `FactsFolder` keys them): "drop", "drop.first_hop", "control_message.token", "flow_completed.long". */
  counts: Record<string, number>;
  /** Flows paused at tPs: their latest decision is a pause and they have neither finished nor been given up. */
  pausedFlows: number;
  /** The fullest buffer at tPs among the ports of each hop (HOPS order), bytes. */
  queueBytesByHop: number[];
}

/** What a run shows at each of some times. */
export interface RunFacts {
  /** One per time asked for, in that order (fewer when the wall-time bound cut the run short). */
  at: Facts[];
  /** First time of each event key over the whole part of the run looked at, ps. */
  firstPs: Record<string, number>;
  /** Every time asked for was reached (false: the wall-time bound cut it). */
  complete: boolean;
  /** Times of the drops in the part of the run looked at (the first DROP_TIMES_KEEP), ps. */
  dropPs: number[];
  /** How far the run was looked at, ps; `ended`: to its end (then this is its end). */
  reachedPs: number;
  ended: boolean;
}

export interface FactsReply {
  type: 'facts';
  facts: RunFacts;
}
/** Answer to `find`. */
export interface Found {
  type: 'found';
  /** The event's time (null: none found). */
  tPs: number | null;
  /** How far the search looked: up to this time (next) or down to it (previous) when nothing was found. */
  searchedPs: number;
  /** Where the run was left (the page seeks afterwards), its events so far, and whether it is at its end with its summary made. */
  nowPs: number;
  events: number;
  finished: boolean;
}
/** Answer to a request that returns nothing (`budget`, `trace`; `inspect` when no run is going). */
export interface Done {
  type: 'done';
}
/**
 * The engine refused a request (or could not start), or the request was
 * malformed: its message. A malformed request's message starts with
 * `invalid` and names the field and the reason (workerCore.ts
 * `checkEnvelope`); it carries the request's id when that is valid.
 */
export interface WorkerFailure {
  type: 'error';
  message: string;
  /** The request's type; `init`: the engine could not start; `request`: a message with no known type. */
  during: WorkerRequest['type'] | 'init' | 'request';
}
/** The worker explored further ahead while idle (time travel's checkpoints). */
export interface Explored {
  type: 'explored';
  timeline: TimelineStats;
}

/** What the worker answers each request type with (what `SimClient.request` resolves to). */
export interface Replies {
  load: Loaded;
  advance: Frame;
  seek: Frame;
  finish: Frame;
  /** A frame with the port's buffer while the run goes on, else `done`. */
  inspect: Frame | Done;
  flow: FlowReply;
  check: Checked;
  facts: FactsReply;
  find: Found;
  budget: Done;
  trace: Done;
  explore: Done;
}

/** The reply to request `R`. */
export type ReplyTo<R extends WorkerRequest> = Replies[R['type']];

/** A request as it travels to the worker: `id` is echoed on its reply. */
export type WorkerEnvelope = WorkerRequest & { id: number };

/** Messages the worker sends unasked (no id): exploration progress, and an exploration that failed. */
export type Unsolicited = Explored | WorkerFailure;

/**
 * Messages from a worker to the page: exactly one reply per request,
 * carrying the request's id (an error when the engine refused it), and
 * unsolicited messages without one.
 */
export type WorkerResponse = ((Replies[keyof Replies] | WorkerFailure) & { id: number }) | Unsolicited;
