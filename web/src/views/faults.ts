// Faults on the network drawing (issue 16): which ports are down at a
// time, from the run's scenario (its `faults` and a fault branch), the same
// rule the engine applies (engine/core/src/fault.rs): a link fault takes
// both directions down, a switch fault every link of the switch.

import type { Topology } from '../engine/api';

type Fault = { at_us: number; kind: string; link?: [string, string]; node?: string };

/** The ports a fault affects. */
function portsOf(topo: Topology, f: Fault): number[] {
  const id = (name?: string) => topo.nodes.findIndex((n) => n.name === name);
  if (f.kind === 'link_down' || f.kind === 'link_up') {
    const [a, b] = [id(f.link?.[0]), id(f.link?.[1])];
    return topo.ports.flatMap((p, i) => ((p.node === a && p.peer === b) || (p.node === b && p.peer === a) ? [i] : []));
  }
  if (f.kind === 'switch_down' || f.kind === 'switch_up') {
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
  if (b && typeof b.change?.kind === 'string' && /_(down|up)$/.test(b.change.kind)) faults.push({ at_us: b.at_us, ...b.change });
  faults.sort((x, y) => x.at_us - y.at_us);
  for (const f of faults) {
    if (f.at_us * 1e6 > tPs) break;
    const up = f.kind.endsWith('_up');
    for (const p of portsOf(topo, f)) (up ? down.delete(p) : down.add(p));
  }
  return down;
}
