// "What if...": branch a run at the time on screen (time travel, issue 16).
// The branch is the run up to now, then one change: smaller or larger
// buffers, a failed link or switch, one lost packet of the selected flow,
// or another protocol on the same arrivals. It runs beside the
// original in lockstep, its CDFs overlaid, the divergence time marked on
// the scrubber; the share link and lessons carry it; its CSVs are named
// after it.

import { useState } from 'react';
import type { Conductor, ConductorState } from '../state/conductor';
import { fmtTime } from '../format/format';
import { FLOW_LEVEL, PROTOCOLS, portsOf, type BranchSettings, type Protocol } from '../state/settings';

/** The what-if bar under the scrubber. */
export function WhatIf({ c, s }: { c: Conductor; s: ConductorState }) {
  const packet = s.settings.protocols.filter((p) => !FLOW_LEVEL.has(p));
  const [of, setOf] = useState<Protocol | ''>('');
  const [kind, setKind] = useState<'buffer_bytes' | 'protocol' | 'switch_down' | 'link_down' | 'drop_next'>('buffer_bytes');
  const [sw, setSw] = useState('');
  const [kb, setKb] = useState('');
  const [proto, setProto] = useState<Protocol>(() => PROTOCOLS.find((p) => !FLOW_LEVEL.has(p) && !s.settings.protocols.includes(p)) ?? PROTOCOLS[0]);
  const [error, setError] = useState<string | null>(null);
  const base = (of || packet[0]) as Protocol | undefined;
  const branch = s.settings.branch;
  if (!base) return null;
  const current = portsOf(s.settings, base).bufferBytes;
  const topo = s.runs.find((r) => r.topology)?.topology ?? null;
  const switches = topo ? topo.nodes.filter((n) => n.kind !== 'host').map((n) => n.name) : [];
  const port = s.inspectPort !== null && topo ? topo.ports[s.inspectPort] : undefined;
  const link: [string, string] | null = port && topo ? [topo.nodes[port.node].name, topo.nodes[port.peer].name] : null;
  const go = () => {
    // The clock as it is now (the page state lags it by up to CLOCK_STATE_MS while playing).
    const at_us = Math.round(c.getClock()) / 1e6;
    let b: BranchSettings;
    if (kind === 'buffer_bytes') {
      const bytes = Math.round(Number(kb || current / 1000) * 1000);
      if (!(Number.isFinite(bytes) && bytes >= 1500)) return setError('buffer: at least 1.5 KB (one packet)');
      b = { of: base, name: `${bytes / 1000} KB buffers`, at_us, change: { kind: 'buffer_bytes', bytes } };
    } else if (kind === 'switch_down') {
      const node = sw || switches[switches.length - 1];
      if (!node) return setError('no switch to fail');
      b = { of: base, name: `${node} fails`, at_us, change: { kind: 'switch_down', node } };
    } else if (kind === 'link_down') {
      if (!link) return setError('click a port on the network first: its link is the one that fails');
      b = { of: base, name: `link ${link[0]}–${link[1]} fails`, at_us, change: { kind: 'link_down', link } };
    } else if (kind === 'drop_next') {
      if (s.selectedFlow === null) return setError('select a flow first (click one in the control plane or the event log)');
      if (!link) return setError('click a port on the network first: the flow loses its next packet there');
      const flow = s.selectedFlow;
      b = { of: base, name: `flow ${flow} loses a packet at ${link[0]}→${link[1]}`, at_us, change: { kind: 'drop_next', flow, port: link } };
    } else {
      if (proto === base) return setError(`the run is already ${base}`);
      b = { of: base, name: `${proto} instead`, at_us, change: { kind: 'protocol', protocol: proto } };
    }
    setError(null);
    c.branch(b);
  };
  return (
    <div className="whatif" data-testid="whatif" role="group" aria-label="what if: branch the run here">
      <strong>What if…</strong>
      {packet.length > 1 && (
        <label>
          run{' '}
          <select value={base} onChange={(e) => setOf(e.target.value as Protocol)} data-testid="whatif-of">
            {packet.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
      )}
      <label>
        change{' '}
        <select value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} data-testid="whatif-kind">
          <option value="buffer_bytes">every port&apos;s buffer</option>
          <option value="link_down">fail the clicked port&apos;s link</option>
          <option value="switch_down">fail a switch</option>
          <option value="drop_next">drop the selected flow&apos;s next packet at the clicked port</option>
          <option value="protocol">the protocol (from t = 0, same arrivals)</option>
        </select>
      </label>
      {kind === 'link_down' ? (
        <span data-testid="whatif-link">{link ? `${link[0]} – ${link[1]}` : '(click a port on the network)'}</span>
      ) : kind === 'drop_next' ? (
        <span data-testid="whatif-drop">
          {s.selectedFlow !== null ? `flow ${s.selectedFlow}` : '(select a flow)'} at {link ? `${link[0]} → ${link[1]}` : '(click a port)'}
        </span>
      ) : kind === 'switch_down' ? (
        <select value={sw || switches[switches.length - 1]} onChange={(e) => setSw(e.target.value)} data-testid="whatif-switch" aria-label="switch that fails">
          {switches.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      ) : kind === 'buffer_bytes' ? (
        <label>
          to{' '}
          <input size={6} value={kb} placeholder={String(current / 1000)} onChange={(e) => setKb(e.target.value)} data-testid="whatif-kb" aria-label="buffer in KB" /> KB
        </label>
      ) : (
        <select value={proto} onChange={(e) => setProto(e.target.value as Protocol)} data-testid="whatif-protocol" aria-label="protocol of the branch">
          {PROTOCOLS.filter((p) => !FLOW_LEVEL.has(p)).map((p) => (
            <option key={p}>{p}</option>
          ))}
        </select>
      )}
      <button onClick={go} disabled={!s.loaded || s.seeking} data-testid="whatif-branch" title="branch the run at the time on screen; it runs beside the original">
        Branch at t = {fmtTime(s.displayPs)}
      </button>
      {branch && (
        <span className="whatif-current" data-testid="whatif-current">
          branch: {branch.of} · {branch.name} from t = {fmtTime(s.divergencePs ?? 0)}{' '}
          <button onClick={() => c.closeBranch()} data-testid="whatif-close" aria-label="close the branch">
            ✕
          </button>
        </span>
      )}
      {error && <em className="error">{error}</em>}
    </div>
  );
}
