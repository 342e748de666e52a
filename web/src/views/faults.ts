// Faults on the network drawing (issue 16): which ports are down at a
// time, from the run's scenario (its `faults` and a fault branch), the same
// rule the engine applies (engine/core/src/fault.rs): a link fault takes
// both directions down, a switch fault every link of the switch.

import { FaultKinds, type BranchSettingKind, type FaultKind, type Topology } from '../engine/api';
import type { BranchChange } from '../state/settings';

type Fault = { at_us: number; kind: string; link?: [string, string]; node?: string };

/**
 * What each kind of fault does to the ports: which ports (a link's, a
 * switch's, or none: `drop_next` drops one packet and leaves the link up)
 * and whether they go down or come back. Keyed by the engine's fault kinds
 * (`dcsim names`), so a kind added there fails the type check here.
 */
const EFFECT: Record<FaultKind, { of: 'link' | 'switch' | null; up: boolean }> = {
  link_down: { of: 'link', up: false },
  link_up: { of: 'link', up: true },
  switch_down: { of: 'switch', up: false },
  switch_up: { of: 'switch', up: true },
  drop_next: { of: null, up: false },
};

// The page's `BranchChange` names exactly the engine's change kinds (a
// compile-time check: a fault kind missing there or extra fails tsc).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const changeKindsMatch: Same<BranchChange['kind'], BranchSettingKind | FaultKind> = true;
void changeKindsMatch;

/** Whether `kind` is a fault's kind (`link_down`, ...; not a setting such as `buffer_bytes`). */
export function isFaultKind(kind: unknown): kind is FaultKind {
  return (FaultKinds as readonly unknown[]).includes(kind);
}

/** The ports a fault affects. */
function portsOf(topo: Topology, f: Fault): number[] {
  const id = (name?: string) => topo.nodes.findIndex((n) => n.name === name);
  const of = isFaultKind(f.kind) ? EFFECT[f.kind].of : null;
  if (of === 'link') {
    const [a, b] = [id(f.link?.[0]), id(f.link?.[1])];
    return topo.ports.flatMap((p, i) => ((p.node === a && p.peer === b) || (p.node === b && p.peer === a) ? [i] : []));
  }
  if (of === 'switch') {
    const n = id(f.node);
    return topo.ports.flatMap((p, i) => (p.node === n || p.peer === n ? [i] : []));
  }
  return [];
}

/** Ports whose link is down at `tPs` in a run of `scenario` (empty when none). */
export function downPortsAt(scenario: Record<string, any> | null, topo: Topology | null, tPs: number): Set<number> {
  const down = new Set<number>();
  if (!scenario || !topo) return down;
  const faults: Fault[] = [...(Array.isArray(scenario.faults) ? scenario.faults : [])];
  const b = scenario.branch;
  if (b && isFaultKind(b.change?.kind)) faults.push({ at_us: b.at_us, ...b.change });
  faults.sort((x, y) => x.at_us - y.at_us);
  for (const f of faults) {
    if (f.at_us * 1e6 > tPs) break;
    const up = isFaultKind(f.kind) && EFFECT[f.kind].up;
    for (const p of portsOf(topo, f)) (up ? down.delete(p) : down.add(p));
  }
  return down;
}
