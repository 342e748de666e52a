// The base round-trip time of a topology, for the "step one RTT" control:
// the longest host-to-host path's propagation both ways plus one MTU
// serialization per hop out and one header serialization per hop back
// (docs/model.md#switches: store-and-forward), without queueing.

import type { Topology } from '../engine/api';

/** Base RTT in picoseconds between the two hosts farthest apart (by hops). */
export function baseRttPs(t: Topology, mtu = 1500, ack = 40): number {
  if (t.n_hosts === 0) return 0;
  // Breadth-first search from host 0 over ports, keeping the first path found.
  const best = (src: number) => {
    const via = new Map<number, number>(); // node -> port it was reached by
    const q = [src];
    via.set(src, -1);
    for (let i = 0; i < q.length; i++) {
      const n = q[i];
      if (n !== src && n < t.n_hosts) continue; // hosts do not forward
      for (const p of t.nodes[n].ports) {
        const peer = t.ports[p].peer;
        if (!via.has(peer)) {
          via.set(peer, p);
          q.push(peer);
        }
      }
    }
    // The farthest host: the last host reached.
    let far = -1;
    for (const n of q) if (n < t.n_hosts && n !== src) far = n;
    return { via, far };
  };
  const { via, far } = best(0);
  if (far < 0) return 0;
  let rtt = 0;
  for (let n = far; via.get(n)! >= 0; ) {
    const p = t.ports[via.get(n)!];
    rtt += 2 * p.delay + ((mtu + ack) * 8 * 1e12) / p.rate;
    n = p.node;
  }
  return Math.round(rtt);
}
