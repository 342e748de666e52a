//! Partition hooks: a simulation as one part of a run split between
//! threads (`crate::parallel`): which nodes it owns, the packets it hands
//! to other parts and receives from them, its settlements and samples in
//! an order the parts can merge, and what it hands back at the end.

use crate::ids::{FlowId, NodeId, PortId};
use crate::metrics::{Counters, FlowRecord, StopReason};
use crate::units::SimTime;
// For the hooks, which the browser's build leaves out.
#[cfg(not(target_arch = "wasm32"))]
use super::{fabric::WIRE_INLINE, tie, Event, Simulation};
#[cfg(not(target_arch = "wasm32"))]
use crate::{packet::Packet, protocol::Protocol};

/// A flow settling (completing at its receiver, or given up at its
/// sender) in one part of a split run (`crate::parallel`), with the key of
/// the event it happened in, so that the parts' settlements can be put in
/// the order one thread has them.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) struct Settlement {
    /// When.
    pub t: SimTime,
    /// The tie-break of the event it happened in (see `tie`).
    pub tie: u64,
    /// Its place among the part's settlements (orders those of one event).
    pub seq: u32,
    /// The flow.
    pub flow: FlowId,
    /// Completed (true) or terminated.
    pub done: bool,
}

/// One part's pending-bytes sample in a split run: its share of the
/// pending bytes (wrapping: a part takes off flows another part added),
/// the foreground flows it settled, and the foreground flows arrived.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) struct PartSample {
    pub t: SimTime,
    pub pending: u64,
    /// Its share of the bytes not yet sent once (wrapping, as `pending`).
    pub unsent: u64,
    pub settled: u64,
    pub arrived: u64,
}

/// What one part of a split run hands back at the end.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) struct PartOutput {
    /// Every flow's record (settled only where this part settled it).
    pub records: Vec<FlowRecord>,
    /// This part's settlements, in its order.
    pub settlements: Vec<Settlement>,
    /// This part's counters.
    pub counters: Counters,
    /// This part's samples.
    pub samples: Vec<PartSample>,
    /// Why the run stopped (the same in every part).
    pub stop: StopReason,
    /// Time of this part's last event (the time limit for a run stopped by it).
    pub now: SimTime,
    /// Events this part counted.
    pub events: u64,
    /// The protocol's name.
    pub name: &'static str,
}

/// The part of a split run a simulation is (`crate::parallel`).
#[derive(Clone)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(super) struct Part {
    /// Its number.
    pub(super) index: usize,
    /// The part simulating each node.
    pub(super) owner: Vec<u8>,
    /// Ports of this part's nodes whose far node another part simulates.
    /// Their wires' rings are kept full (`wire_len` at its maximum, so no
    /// arrival event is scheduled here), so every packet sent on them goes
    /// to the overflow deque, from which `take_outgoing` hands it over.
    pub(super) remote_ports: Vec<PortId>,
    /// Settlements in this part so far.
    pub(super) settlements: Vec<Settlement>,
    /// Settlements already published to the other parts.
    published: usize,
    /// Foreground flows settled here.
    pub(super) settled: u64,
    /// Samples.
    pub(super) samples: Vec<PartSample>,
}

impl Part {
    #[inline]
    pub(super) fn owns(&self, node: NodeId) -> bool {
        self.owner[node.idx()] as usize == self.index
    }
}

/// Packets for another part of a split run: (arrival time at the far node,
/// port, packet).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Outgoing = Vec<(SimTime, PortId, Packet)>;

/// A simulation as one part of a split run (`crate::parallel`, which the
/// browser's build leaves out).
#[cfg(not(target_arch = "wasm32"))]
impl<P: Protocol> Simulation<P> {
    /// Makes this simulation part `index` of a split run whose nodes are
    /// simulated by the parts `owner` names. Call before the first event.
    pub(crate) fn set_part(&mut self, index: usize, owner: &[u8]) {
        assert!(self.events_processed == 0 && !self.trace.enabled, "a part is set before the run starts, without a trace");
        let mut remote_ports = Vec::new();
        for (i, spec) in self.net.ports.iter().enumerate() {
            if owner[spec.node.idx()] as usize == index && owner[spec.peer.idx()] as usize != index {
                remote_ports.push(PortId(i as u32));
                // A full ring: sends go to the overflow deque, and no
                // arrival is scheduled here (see `Part::remote_ports`).
                let st = &mut self.ports[i];
                st.wire_len = WIRE_INLINE as u8;
                st.spilled = true;
            }
        }
        self.part = Some(Box::new(Part { index, owner: owner.to_vec(), remote_ports, settlements: Vec::new(), published: 0, settled: 0, samples: Vec::new() }));
    }

    /// The event limit and the time limit.
    pub(crate) fn limits(&self) -> (u64, SimTime) {
        (self.cfg.max_events, self.cfg.max_time)
    }

    /// Processes every event before `end`; false if the part stopped
    /// itself (far past the event limit within the cell).
    pub(crate) fn run_window(&mut self, end: SimTime) -> bool {
        match end.ps().checked_sub(1) {
            Some(last) => self.run_until(SimTime::from_ps(last)),
            None => self.stopped.is_none(),
        }
    }

    /// Hands the packets sent towards other parts' nodes since the last
    /// call to `out[part]`, in the order each port sent them; returns the
    /// earliest time one of them arrives (`u64::MAX`: none).
    pub(crate) fn take_outgoing(&mut self, out: &mut [Outgoing]) -> u64 {
        let Some(part) = &self.part else { return u64::MAX };
        let mut first = u64::MAX;
        for &port in &part.remote_ports {
            let q = &mut self.wire_overflow[port.idx()];
            if q.is_empty() {
                continue;
            }
            let to = part.owner[self.net.ports[port.idx()].peer.idx()] as usize;
            // A wire's packets arrive in the order they were sent.
            first = first.min(q[0].0.ps());
            for (at, id) in q.drain(..) {
                out[to].push((at, port, self.packets.remove(id)));
            }
        }
        first
    }

    /// A packet another part sent on `port` (towards this part's node)
    /// reaches the far end of the wire at `at`.
    pub(crate) fn deliver(&mut self, at: SimTime, port: PortId, p: Packet) {
        let id = self.packets.insert(p);
        let st = &mut self.ports[port.idx()];
        if st.wire_len == 0 {
            self.events.push(at, tie::arrive(self.arrival_key, at, port), Event::Arrive(port));
        }
        st.wire_push(at, id, &mut self.wire_overflow, port);
    }

    /// Appends the foreground flows this part settled since the last call.
    pub(crate) fn take_new_settled(&mut self, out: &mut Vec<FlowId>) {
        let Some(part) = &mut self.part else { return };
        for s in &part.settlements[part.published..] {
            if !self.records[s.flow.idx()].background {
                out.push(s.flow);
            }
        }
        part.published = part.settlements.len();
    }

    /// Time of the last event processed.
    pub(crate) fn last_event_time(&self) -> SimTime {
        self.now
    }

    /// Every flow of the workload has arrived.
    pub(crate) fn arrivals_done(&self) -> bool {
        self.pending_arrival.is_none()
    }

    /// Stops this part, as all parts stop together, at time `now`.
    pub(crate) fn stop_part(&mut self, why: StopReason, now: SimTime) {
        if self.stopped.is_none() {
            self.stop(why);
        }
        self.stopped = Some(why);
        self.now = now;
    }

    /// What the part hands back.
    pub(crate) fn into_part_output(self) -> PartOutput {
        let part = self.part.expect("a part of a split run");
        PartOutput {
            records: self.records,
            settlements: part.settlements,
            counters: self.counters,
            samples: part.samples,
            stop: self.stopped.unwrap_or(StopReason::Idle),
            now: self.now,
            events: self.events_processed,
            name: self.proto.name(),
        }
    }
}
