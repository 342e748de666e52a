// Trace records in words, for the narration panel (pure, no DOM).

import { CONTROL_EVENTS, CONTROL_NAMES, PacketKindCode, TraceCode, type Topology } from '../engine/api';
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
 * A control message's or decision's name in words: the words the protocol
 * that traces it declares (the engine's `CONTROL_EVENTS`); a name the
 * engine does not list is shown as it is.
 */
export function controlText(name: string): string {
  return (CONTROL_EVENTS as Record<string, { text: string } | undefined>)[name]?.text ?? name.replace(/_/g, ' ');
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

