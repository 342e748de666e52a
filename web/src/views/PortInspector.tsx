// The port inspector: one output port's buffer as its discipline holds it,
// next to the rule that decides who goes next and who is dropped.

import { useMemo, type ReactNode } from 'react';
import { PacketKindCode } from '../engine/api';
import { decodePackets, type BufferedPacket } from '../engine/frame';
import type { RunState } from '../state/run';
import { flowColor, KIND_NAMES } from './palette';
import { portName, ROLE_NAMES } from './layout';
import { bytesAhead, dropExplanation, priorityLanes, wasteText } from './buffer';
import { bytesText, count, plural, rateText, sig, usText } from '../format/format';

/** A rank (remaining bytes) with 4 significant digits, so near-equal ranks stay distinguishable. */
function rankText(b: number): string {
  if (b < 1e3) return `${b} B`;
  if (b < 1e6) return `${sig(b / 1e3, 4)} KB`;
  return `${sig(b / 1e6, 4)} MB`;
}
import './views.css';

/** Props of {@link PortInspector}. */
export interface PortInspectorProps {
  run: RunState;
  port: number;
  /** The port's queue discipline: 'pfabric', 'strict_priority', 'ecn', 'droptail' (or 'fifo'). */
  discipline: string;
  /** Buffer size, bytes. */
  bufferBytes: number;
  /** ECN marking threshold K, bytes (the 'ecn' discipline). */
  ecnThresholdBytes?: number;
  onClose: () => void;
}

function Cell({ p, note, className }: { p: BufferedPacket; note?: string; className?: string }) {
  return (
    <div className={`pkt-cell ${className ?? ''}`} title={`flow ${p.flow}, seq ${p.seq}, ${KIND_NAMES[p.packetKind as PacketKindCode] ?? 'packet'}, ${p.size} B, rank ${p.rank}`}>
      <span className="pkt-swatch" style={{ background: flowColor(p.flow) }} />
      <span className="pkt-flow">f{p.flow}</span>
      <span className="pkt-seq">#{p.seq}</span>
      {p.packetKind !== PacketKindCode.Data && <span className="pkt-kind">{KIND_NAMES[p.packetKind as PacketKindCode]}</span>}
      {note && <span className="pkt-note">{note}</span>}
    </div>
  );
}

/**
 * The inspector of one port: its name, role and rate, its occupancy against
 * the buffer, the buffered packets in the order the discipline serves them
 * (pFabric: next to send first, the packet a full buffer drops marked;
 * strict priority: one lane per sub-queue; FIFO/ECN: a stack with the
 * marking threshold K), and the recent drops here with their reason.
 */
export function PortInspector({ run, port, discipline, bufferBytes, ecnThresholdBytes, onClose }: PortInspectorProps) {
  const topo = run.topology;
  const spec = topo?.ports[port];
  const snap = run.inspect && run.inspect.port === port ? run.inspect : null;
  const packets = useMemo(() => (snap ? decodePackets(snap.packets) : []), [snap]);
  const queued = run.queueBytes[port] ?? 0;
  const buf = Math.max(bufferBytes, 1);
  const K = discipline === 'ecn' ? ecnThresholdBytes : undefined;
  const events = run.portEvents.filter((e) => e.port === port && e.tPs <= run.nowPs).slice(-8).reverse();

  let body: ReactNode;
  if (!snap) {
    body = <p className="note">Waiting for the buffer snapshot of this port…</p>;
  } else if (!packets.length) {
    body = <p className="note">The buffer is empty.</p>;
  } else if (discipline === 'pfabric') {
    // The engine sends the packets in its service order, with the one a
    // full buffer drops first (queue/pfabric.rs): nothing re-derived here.
    const order = packets;
    const victim = snap.dropFirst >= 0 ? packets[snap.dropFirst] : undefined;
    body = (
      <>
        <p className="rule">
          Service order (pFabric §4.1): the most urgent packet (lowest rank = fewest bytes left in its flow) picks the flow, and that flow's earliest
          packet is sent. When the buffer is full, the least urgent packet (highest rank) is dropped, possibly the arrival.
        </p>
        <div className="pkt-row" data-testid="pfabric-order">
          {order.map((p, i) => (
            <div key={`${p.flow}-${p.seq}-${i}`} className="pkt-col">
              <Cell p={p} className={p === victim ? 'victim' : i === 0 ? 'next' : ''} note={i === 0 ? 'next' : p === victim ? 'drop first' : undefined} />
              <span className="pkt-rank" title={`rank ${count(p.rank)} bytes`}>{rankText(p.rank)}</span>
            </div>
          ))}
        </div>
        <div className="pkt-axis">
          <span>← sent next</span>
          <span>rank = remaining flow bytes</span>
          <span>sent last →</span>
        </div>
      </>
    );
  } else if (discipline === 'strict_priority') {
    const sub = snap.subqueueBytes;
    const lanes = priorityLanes(packets, sub.length);
    body = (
      <>
        <p className="rule">Strict priority: sub-queue 0 is always served first; a lower lane sends only when every lane above it is empty.</p>
        {lanes.map((lane, i) => (
          <div key={i} className="lane">
            <span className="lane-name">
              queue {i} · {bytesText(sub[i] ?? lane.reduce((s, p) => s + p.size, 0))}
            </span>
            <div className="pkt-row">
              {lane.map((p, j) => (
                <Cell key={`${p.flow}-${p.seq}-${j}`} p={p} note={j === 0 && lanes.slice(0, i).every((l) => !l.length) ? 'next' : undefined} />
              ))}
            </div>
          </div>
        ))}
      </>
    );
  } else {
    const ahead = bytesAhead(packets);
    const kAt = K !== undefined ? ahead.findIndex((b) => b > K) : -1;
    body = (
      <>
        <p className="rule">
          FIFO: packets leave in arrival order; an arrival that does not fit is dropped (drop-tail).
          {K !== undefined && ' ECN (DCTCP §3.1): an arrival is marked when the queue already holds more than K bytes.'}
        </p>
        <div className="pkt-row fifo">
          {packets.map((p, i) => (
            <div key={`${p.flow}-${p.seq}-${i}`} className="pkt-col">
              {i === kAt && kAt > 0 && <div className="k-line" title={`K = ${bytesText(K!)}`}>K</div>}
              <Cell p={p} className={K !== undefined && ahead[i] > K ? 'over-k' : i === 0 ? 'next' : ''} note={i === 0 ? 'next' : undefined} />
            </div>
          ))}
        </div>
      </>
    );
  }

  return (
    <div className="port-inspector" data-testid="port-inspector">
      <div className="pi-head">
        <strong>{portName(topo, port)}</strong>
        {spec && (
          <span className="pi-meta">
            {ROLE_NAMES[spec.role] ?? spec.role} · {rateText(spec.rate)}b/s · {discipline}
          </span>
        )}
        <button type="button" className="pi-close" onClick={onClose} aria-label="close the inspector" data-testid="port-inspector-close">
          ×
        </button>
      </div>
      <div className="occupancy" title={`${bytesText(queued)} of ${bytesText(buf)}`}>
        <div className={`occupancy-fill ${K !== undefined && queued > K ? 'over-k' : ''}`} style={{ width: `${Math.min(100, (100 * queued) / buf)}%` }} />
        {K !== undefined && <div className="occupancy-k" style={{ left: `${Math.min(100, (100 * K) / buf)}%` }} title={`ECN threshold K = ${bytesText(K)}`} />}
      </div>
      <div className="occupancy-text">
        {bytesText(queued)} of {bytesText(buf)} buffered ({plural(packets.length, 'packet')}{K !== undefined ? `; marking threshold K = ${bytesText(K)}` : ''})
      </div>
      {snap && spec?.role === 'host_nic' && (
        <div className="occupancy-text" data-testid="port-waste" title="PASE §4.2: flows sending at line rate collide at a downstream ToR-host link, and the capacity their dropped packets used on the senders' links is wasted">
          {wasteText(snap.wastedBytes, snap.sentBytes)}
        </div>
      )}
      {body}
      <div className="pi-drops">
        <strong>Recent drops and marks here</strong>
        {events.length === 0 ? (
          <span className="note"> none in the last 20 µs</span>
        ) : (
          <ul>
            {events.map((e, i) => (
              <li key={i} className={e.kind}>
                t={usText(e.tPs)} flow {e.flow}: {e.kind === 'mark' ? 'ECN-marked (queue above K, DCTCP §3.1)' : dropExplanation(e.reason)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
