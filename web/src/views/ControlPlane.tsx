// The control-plane panel: what the arbitrators (PASE) or the switches
// (PDQ) last decided for each active flow, at the time on screen.

import { memo, useMemo } from 'react';
import type { Topology } from '../engine/api';
import type { RunState } from '../state/run';
import { controlRows } from './controlPlane';
import { controlText } from './eventText';
import { rateText, usText } from '../format/format';
import { portName } from './layout';
import { useThrottled } from './charts/useThrottled';
import './views.css';

/** Props of {@link ControlPlane}. */
export interface ControlPlaneProps {
  run: RunState;
  topology: Topology | null;
  /** The time on screen, ps. */
  nowPs: number;
  /** Rows shown (default 12). */
  limit?: number;
  onSelectFlow?: (flow: number) => void;
}

function ControlPlaneImpl({ run, topology, nowPs, limit = 12, onSelectFlow }: ControlPlaneProps) {
  const control = useThrottled(run.control, 150);
  const rows = useMemo(() => controlRows(control, nowPs, limit), [control, nowPs, limit]);
  if (control.size === 0) return null;
  return (
    <div className="control-plane" data-testid="control-plane">
      <strong>Control plane</strong> <small>each flow's latest scheduling decision, most urgent first</small>
      <table>
        <thead>
          <tr>
            <th>flow</th>
            <th>decision</th>
            <th>queue</th>
            <th>rate</th>
            <th>link</th>
            <th>at</th>
            <th>decisions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.flow} className={r.finished ? 'finished' : r.decision.rateBps > 0 ? '' : 'paused'} onClick={() => onSelectFlow?.(r.flow)}>
              <td>{r.flow}</td>
              <td>{controlText(r.decision.what)}</td>
              <td>{r.decision.queue ?? '–'}</td>
              <td>{r.decision.rateBps > 0 ? `${rateText(r.decision.rateBps)}b/s` : 'paused'}</td>
              <td>{r.decision.port !== null ? portName(topology, r.decision.port) : '–'}</td>
              <td>{usText(r.decision.tPs)}</td>
              <td>{r.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A table of the flows the control plane has decided about (PASE's
 * arbitration: queue and reference rate; PDQ: accepted at a rate, or
 * paused), most urgent first, as of the time on screen; finished flows
 * linger greyed for 50 us. Shown only for protocols that record decisions.
 */
export const ControlPlane = memo(ControlPlaneImpl);
