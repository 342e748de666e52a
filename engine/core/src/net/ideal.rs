//! The ideal FCT (OPT) of a flow: the time it takes alone in an empty
//! network (docs/model.md#metrics), computed with the same forwarding rules
//! the simulation uses, so that slowdown = FCT / OPT is never below 1 and
//! equals 1 for a lone flow whose sender keeps its NIC busy.

use super::{Network, Switching};
use crate::ids::NodeId;
use crate::units::{data_packet_wire_size, packets_for, SimTime, HEADER};

/// Per-hop constants of one path.
struct Hop {
    rate: crate::units::Rate,
    delay: SimTime,
    peer_is_switch: bool,
}

/// Computes OPT for flows of a network.
pub struct IdealFct<'a> {
    net: &'a Network,
    switching: Switching,
}

impl<'a> IdealFct<'a> {
    /// A calculator for `net` under `switching`.
    pub fn new(net: &'a Network, switching: Switching) -> Self {
        IdealFct { net, switching }
    }

    /// OPT of a flow of `bytes` payload bytes from `src` to `dst`: from the
    /// first byte entering the source NIC to the last byte arriving at `dst`.
    pub fn fct(&self, src: NodeId, dst: NodeId, bytes: u64) -> SimTime {
        let hops: Vec<Hop> = self
            .net
            .path(src, dst)
            .into_iter()
            .map(|p| {
                let s = &self.net.ports[p.idx()];
                Hop { rate: s.rate, delay: s.delay, peer_is_switch: !self.net.is_host(s.peer) }
            })
            .collect();
        let n = packets_for(bytes);
        let ct = self.switching.is_cut_through();
        let hold = self.switching.waits_for_last_bit();
        // end[h]: when the previous packet finished leaving hop h.
        let mut end = vec![SimTime::ZERO; hops.len()];
        let mut last_arrival = SimTime::ZERO;
        let step = |end: &mut Vec<SimTime>, size: u32| -> SimTime {
            let (mut arr, mut ready) = (SimTime::ZERO, SimTime::ZERO);
            for (h, hop) in hops.iter().enumerate() {
                let start = arr.max(end[h]);
                let sent = start + hop.rate.serialization(size as u64);
                let e = if hold { sent.max(ready) } else { sent };
                end[h] = e;
                ready = e + hop.delay;
                arr = if ct && hop.peer_is_switch { start + hop.rate.serialization(HEADER as u64) + hop.delay } else { ready };
            }
            ready
        };
        // Full packets 0..n-1. Once every hop's finish time advances by the
        // same amount from one packet to the next, it does so for every later
        // identical packet (the recurrence is shift-invariant once the source
        // is backlogged), so the rest of the run is a jump.
        let full = n - 1;
        let mut k = 0u32;
        let mut prev: Vec<SimTime> = end.clone();
        while k < full {
            last_arrival = step(&mut end, data_packet_wire_size(bytes, k));
            k += 1;
            if k >= 2 {
                let d0 = end[0].0 - prev[0].0;
                if end.iter().zip(&prev).all(|(a, b)| a.0 - b.0 == d0) {
                    let skip = (full - k) as u64;
                    for e in end.iter_mut() {
                        e.0 += skip * d0;
                    }
                    last_arrival.0 += skip * d0;
                    k = full;
                    break;
                }
            }
            prev.clone_from(&end);
        }
        let _ = k;
        // The last (possibly smaller) packet; with one packet it is the only one.
        let last = step(&mut end, data_packet_wire_size(bytes, n - 1));
        last.max(last_arrival)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::{build, TopologySpec};

    /// The same recurrence without the shortcut, for comparison.
    fn brute(net: &Network, sw: Switching, src: NodeId, dst: NodeId, bytes: u64) -> SimTime {
        let path = net.path(src, dst);
        let mut end = vec![SimTime::ZERO; path.len()];
        let mut last = SimTime::ZERO;
        for k in 0..packets_for(bytes) {
            let size = data_packet_wire_size(bytes, k) as u64;
            let (mut arr, mut ready) = (SimTime::ZERO, SimTime::ZERO);
            for (h, p) in path.iter().enumerate() {
                let s = &net.ports[p.idx()];
                let start = arr.max(end[h]);
                let sent = start + s.rate.serialization(size);
                end[h] = if sw.waits_for_last_bit() { sent.max(ready) } else { sent };
                ready = end[h] + s.delay;
                arr = if sw.is_cut_through() && !net.is_host(s.peer) { start + s.rate.serialization(40) + s.delay } else { ready };
            }
            last = last.max(ready);
        }
        last
    }

    #[test]
    fn shortcut_equals_the_full_recurrence() {
        let net = build(&TopologySpec::default());
        for sw in [Switching::StoreAndForward, Switching::CutThrough, Switching::CutThroughHold] {
            for bytes in [1u64, 1460, 1461, 5000, 14_600, 100_001, 3_000_000] {
                for dst in [3u32, 40] {
                    let f = IdealFct::new(&net, sw);
                    assert_eq!(f.fct(NodeId(0), NodeId(dst), bytes), brute(&net, sw, NodeId(0), NodeId(dst), bytes), "{sw:?} {bytes} {dst}");
                }
            }
        }
    }

    #[test]
    fn one_packet_store_and_forward_by_hand() {
        // 1 packet of 1500 B, inter-rack: 1.2 us at 10G, 0.3 us at 40G twice,
        // 1.2 us at 10G, plus 4 x 200 ns propagation = 3.8 us.
        let net = build(&TopologySpec::default());
        let f = IdealFct::new(&net, Switching::StoreAndForward);
        assert_eq!(f.fct(NodeId(0), NodeId(20), 1460), SimTime::from_ns(3_800));
        // 20 MB counted as 13,334 full packets over one 10G bottleneck is
        // 16.0008 ms of serialization plus a few microseconds of latency.
        let big = f.fct(NodeId(0), NodeId(20), 13_334 * 1460);
        assert!(big > SimTime::from_us(16_000) && big < SimTime::from_us(16_005), "{big:?}");
    }
}
