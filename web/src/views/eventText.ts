// Trace records in words, for the narration panel (pure, no DOM).

import { CONTROL_NAMES, PacketKindCode, TraceCode, type Topology } from '../engine/api';
import type { TraceRecord } from '../engine/frame';
import { KIND_NAMES } from './palette';
import { portName } from './layout';
import { dropWhyText, rateText, usText } from '../format/format';

/** How notable a record is (the log styles drops and finishes). */
export type EventTone = 'drop' | 'mark' | 'finish' | 'start' | 'timeout' | 'control' | 'queue' | 'rate';

/** One line of the event log. */
export interface EventLine {
  time: string;
  text: string;
  tone: EventTone;
}

/**
 * What each control message and decision means, in a few words (names
 * without an entry are shown as they are).
 */
export const CONTROL_TEXT: Record<string, string> = {
  probe: 'probe sent',
  ack: 'ACK sent',
  rts: 'RTS sent (asks its receiver for tokens)',
  token: 'token sent (one packet may go)',
  token_expired: 'token expired unused at the source',
  free_token_expired: 'free token expired unused',
  downgrade: 'downgraded: too many unanswered tokens, no tokens for a while',
  receiver_timeout: 'receiver timeout: missing packets are named again',
  fastpass_request: 'Fastpass request sent to the arbiter',
  fastpass_grant: 'Fastpass timeslots granted',
  fastpass_missed_slot: 'Fastpass grant came after its slot began',
  fastpass_query: 'Fastpass query: which packets are missing?',
  fastpass_nack: 'Fastpass NACK: packets missing',
  fastpass_ack: 'Fastpass ACK',
  pase_request: 'PASE arbitrator decided its link',
  pase_decision: 'PASE decision reached the source',
  pase_prune: 'PASE request pruned (not in the top queues): answered without going further up',
  pase_delegation_report: 'PASE child arbitrator reported its demand on a delegated link',
  pase_delegation_update: 'PASE parent arbitrator sent a child its new share of a link',
  pase_probe: 'PASE probe (lowest queue: no retransmission)',
  pase_release: 'PASE flow finished: released at a switch arbitrator',
  pdq_syn: 'PDQ SYN sent (no data before the switches grant a rate)',
  pdq_accept: 'PDQ accepted',
  pdq_pause: 'PDQ paused (a more critical flow holds the link)',
  pdq_rate: 'PDQ rate changed',
  pdq_probe: 'PDQ probe (a paused flow asks again)',
  pdq_early_start: 'PDQ Early Start: accepted while the current flow finishes',
  pdq_terminate: 'PDQ Early Termination: cannot meet its deadline, given up',
  pdq_fin: 'PDQ FIN: the flow leaves the switches\' lists',
  d3_quench: 'D3 quenched: cannot meet its deadline, stopped',
  deadline_abort: 'deadline passed: the sender gave the flow up',
};

/** A control message's or decision's name in words. */
export function controlText(name: string): string {
  return CONTROL_TEXT[name] ?? name.replace(/_/g, ' ');
}

function packetText(r: TraceRecord): string {
  const kind = r.packetKind === PacketKindCode.Data ? '' : `${KIND_NAMES[r.packetKind as PacketKindCode] ?? 'packet'} `;
  return `flow ${r.flow} ${kind}seq ${r.seq}`;
}

/**
 * A trace record as a sentence: "port tor3→h50: flow 17 seq 4 dropped
 * (least urgent)", "flow 17 finished", "flow 9 timed out (probe mode)".
 */
export function describeRecord(r: TraceRecord, topo: Topology | null): EventLine {
  const time = `t=${usText(r.tPs)}`;
  const at = r.port >= 0 ? `port ${portName(topo, r.port)}: ` : '';
  switch (r.code) {
    case TraceCode.Enqueue:
      return { time, text: `${at}${packetText(r)} queued${r.aux > 0 ? ` (sub-queue ${r.aux})` : ''}`, tone: 'queue' };
    case TraceCode.Dequeue:
      return { time, text: `${at}${packetText(r)} sent (${Math.round(r.aux)} B left in the buffer)`, tone: 'queue' };
    case TraceCode.Drop:
      return { time, text: `${at}${packetText(r)} dropped (${dropWhyText(r.aux)})`, tone: 'drop' };
    case TraceCode.Fault:
      return { time, text: `${at}link ${r.aux === 1 ? 'back up' : 'DOWN (fault)'}`, tone: 'drop' };
    case TraceCode.EcnMark:
      return { time, text: `${at}flow ${r.flow} seq ${r.seq} ECN-marked (queue above K)`, tone: 'mark' };
    case TraceCode.FlowStart:
      return { time, text: `flow ${r.flow} started`, tone: 'start' };
    case TraceCode.FlowFinish:
      return { time, text: `flow ${r.flow} finished`, tone: 'finish' };
    case TraceCode.Timeout:
      return { time, text: `flow ${r.flow} timed out${r.aux === 1 ? ' (probe mode)' : ''}`, tone: 'timeout' };
    case TraceCode.LinkRate:
      return { time, text: `${at}link rate set to ${rateText(r.aux)}b/s (RCP's fair share, D3's capacity, PDQ's C')`, tone: 'rate' };
    case TraceCode.Control: {
      const name = CONTROL_NAMES[r.aux] ?? 'control message';
      return { time, text: `flow ${r.flow}: ${controlText(name)}`, tone: 'control' };
    }
    case TraceCode.Decision: {
      const name = CONTROL_NAMES[r.aux] ?? 'decision';
      const parts = [r.seq >= 0 ? `queue ${r.seq}` : '', r.prio > 0 ? `${rateText(r.prio)}b/s` : 'paused (rate 0)'].filter(Boolean);
      return { time, text: `${at}flow ${r.flow}: ${controlText(name)}: ${parts.join(', ')}`, tone: 'control' };
    }
    default:
      return { time, text: `${at}event ${r.code} flow ${r.flow}`, tone: 'queue' };
  }
}

/**
 * The newest `limit` records, newest first, in words. Enqueues and
 * dequeues are the bulk of a trace; with `skipRoutine` they are left out so
 * drops, marks, finishes and control messages stay visible.
 */
export function recentLines(log: readonly TraceRecord[], topo: Topology | null, limit = 60, skipRoutine = false): EventLine[] {
  const out: EventLine[] = [];
  for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
    const r = log[i];
    if (skipRoutine && (r.code === TraceCode.Enqueue || r.code === TraceCode.Dequeue)) continue;
    out.push(describeRecord(r, topo));
  }
  return out;
}

/** Whether a record is worth narrating (everything but routine enqueues and dequeues). */
export function isNotable(r: TraceRecord): boolean {
  return r.code !== TraceCode.Enqueue && r.code !== TraceCode.Dequeue;
}

