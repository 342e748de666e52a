// The colour key of the network view.

import { memo } from 'react';
import { PacketKindCode } from '../engine/api';
import { COLORS, FLOW_PALETTE, KIND_COLORS, KIND_NAMES, PRIORITY_PALETTE, type ColorBy } from './palette';
import { bytesText } from '../format/format';
import { DESCRIPTORS, PROTOCOLS } from '../state/settings';
import './views.css';

/** Props of {@link Legend}. */
export interface LegendProps {
  /** Which packet colouring the key explains (default: flow and kind). */
  colorBy?: ColorBy;
  /** The protocols shown (the priority key depends on their ports). */
  protocols?: readonly string[];
}

/** What the priority colours mean for each protocol's ports, from the engine's descriptors. */
function priorityKey(protocols: readonly string[]): { color: string; label: string }[] {
  const out: { color: string; label: string }[] = [];
  const fifo: string[] = [];
  for (const p of PROTOCOLS) {
    if (!protocols.includes(p)) continue;
    const d = DESCRIPTORS[p];
    const key = d.priority;
    if (key.kind === 'ranks') {
      const last = key.bounds[key.bounds.length - 1];
      const names = [...key.bounds.map((b) => `< ${bytesText(b)}`), `≥ ${bytesText(last)}`];
      names.forEach((n, i) => out.push({ color: PRIORITY_PALETTE[i], label: `${d.label} rank ${n} left` }));
    } else if (key.kind === 'queues') {
      key.labels.forEach((n, i) => out.push({ color: PRIORITY_PALETTE[i], label: `${d.label} queue ${i}${n ? `: ${n}` : ''}` }));
    } else if (key.kind === 'fifo') fifo.push(d.label);
  }
  if (fifo.length) out.push({ color: PRIORITY_PALETTE[0], label: `${fifo.join(', ')}: one FIFO queue` });
  return out;
}

function Dot({ color, square = false }: { color: string; square?: boolean }) {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
      {square ? <rect x="3.5" y="3.5" width="7" height="7" fill={color} /> : <circle cx="7" cy="7" r="4.5" fill={color} />}
    </svg>
  );
}

/**
 * The colour key of the network view: packet shapes and colours (data
 * dots, ACK/probe/control squares; by flow, by kind or by priority), drops, ECN marks,
 * and the queue bars (occupancy, above the ECN threshold K, capacity).
 */
export const Legend = memo(function Legend({ colorBy, protocols = [] }: LegendProps) {
  const kinds = [PacketKindCode.Data, PacketKindCode.Ack, PacketKindCode.Probe, PacketKindCode.Control];
  return (
    <div className="legend-bar" data-testid="legend">
      {colorBy === 'priority' &&
        priorityKey(protocols).map((x) => (
          <span key={x.label} className="legend-item">
            <Dot color={x.color} /> {x.label}
          </span>
        ))}
      {(colorBy === undefined || colorBy === 'flow') && (
        <span className="legend-item" title="colour by flow: each flow id hashes to one of these colours">
          {FLOW_PALETTE.slice(0, 5).map((c) => (
            <Dot key={c} color={c} />
          ))}
          flows (data ● · ACK/control ■)
        </span>
      )}
      {(colorBy === undefined || colorBy === 'kind') &&
        kinds.map((k) => (
          <span key={k} className="legend-item">
            <Dot color={KIND_COLORS[k]} square={k !== PacketKindCode.Data} /> {KIND_NAMES[k]}
          </span>
        ))}
      <span className="legend-item">
        <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
          <path d="M3 3 L11 11 M11 3 L3 11" stroke={COLORS.drop} strokeWidth="2.4" strokeLinecap="round" />
        </svg>{' '}
        drop
      </span>
      <span className="legend-item">
        <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
          <path d="M2.5 7 L5.5 10 L11.5 3.5" stroke="#5c4300" strokeWidth="3.6" fill="none" strokeLinecap="round" />
          <path d="M2.5 7 L5.5 10 L11.5 3.5" stroke={COLORS.mark} strokeWidth="2" fill="none" strokeLinecap="round" />
        </svg>{' '}
        ECN mark
      </span>
      <span className="legend-item">
        <svg width="22" height="14" viewBox="0 0 22 14" aria-hidden="true">
          <rect x="1" y="1" width="5" height="12" fill={COLORS.queueBack} />
          <rect x="1" y="6" width="5" height="7" fill={COLORS.queue} />
          <rect x="9" y="1" width="5" height="12" fill={COLORS.queueBack} />
          <rect x="9" y="3" width="5" height="10" fill={COLORS.queueOverK} />
          <line x1="8" x2="15" y1="7" y2="7" stroke="#868e96" />
        </svg>{' '}
        queue (grey = buffer, red = above K)
      </span>
    </div>
  );
});
