//! PASE's arbitration rule and a link's arbitrator (PASE section 3.1,
//! Algorithm 1; see the module above for the whole control plane).

use crate::ids::FlowId;
use crate::protocol::pase::params::PaseQueueNumbering;
use crate::units::SimTime;

/// A flow's priority queue (0 is the top) and reference rate on a link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// Sub-queue index, 0 served first.
    pub queue: u8,
    /// Reference rate, bits per second.
    pub rate_bps: f64,
}

impl Decision {
    /// The decision along a path so far: the largest queue index and the
    /// smallest rate (PASE section 3.1).
    pub fn combine(self, other: Decision) -> Decision {
        Decision { queue: self.queue.max(other.queue), rate_bps: self.rate_bps.min(other.rate_bps) }
    }
    /// The identity of [`Decision::combine`].
    pub const NONE: Decision = Decision { queue: 0, rate_bps: f64::INFINITY };
}

/// The arbitration rule of one flow on one link (PASE section 3.1,
/// Algorithm 1; docs/protocols/pase.md): `adh` is the summed demand of the
/// more critical flows on a link of `capacity`, all in bits per second.
pub fn arbitrate(adh: f64, demand: f64, capacity: f64, base_rate: f64, queues: u8, numbering: PaseQueueNumbering) -> Decision {
    let rate_bps = if adh < capacity { demand.min(capacity - adh) } else { base_rate };
    let x = (adh / capacity).max(0.0);
    let k = match numbering {
        PaseQueueNumbering::OneBased => x.ceil().max(1.0) - 1.0,
        PaseQueueNumbering::ZeroBased => x.ceil(),
        PaseQueueNumbering::Floor => x.floor(),
    };
    let lowest = queues.max(1) - 1;
    Decision { queue: k.min(lowest as f64) as u8, rate_bps }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: (u64, u64, u32),
    flow: FlowId,
    demand: f64,
    expires: SimTime,
}

/// One link's arbitrator: its flows sorted by criticality, most critical
/// first, each with its demand (PASE section 3.1).
#[derive(Clone, Debug)]
pub struct Arbitrator {
    /// The capacity it arbitrates, bits per second (the link's, or the
    /// share a parent delegated).
    pub capacity: f64,
    entries: Vec<Entry>,
}

impl Arbitrator {
    /// An empty arbitrator of `capacity` bits per second.
    pub fn new(capacity: f64) -> Self {
        Arbitrator { capacity, entries: Vec::new() }
    }
    /// Adds or moves `flow` with criticality `key` (smaller is more
    /// critical) and `demand`; it is forgotten after `expires`.
    pub fn update(&mut self, flow: FlowId, key: (u64, u64, u32), demand: f64, expires: SimTime) {
        self.remove(flow);
        let at = self.entries.partition_point(|e| e.key < key);
        self.entries.insert(at, Entry { key, flow, demand, expires });
    }
    /// Forgets `flow`; true if it was there.
    pub fn remove(&mut self, flow: FlowId) -> bool {
        match self.entries.iter().position(|e| e.flow == flow) {
            Some(i) => {
                self.entries.remove(i);
                true
            }
            None => false,
        }
    }
    /// Forgets the flows whose entries expired before `now`.
    pub fn expire(&mut self, now: SimTime) {
        self.entries.retain(|e| e.expires >= now);
    }
    /// The decision for `flow` (which must be present).
    pub fn decide(&self, flow: FlowId, base_rate: f64, queues: u8, numbering: PaseQueueNumbering) -> Decision {
        let mut adh = 0.0;
        for e in &self.entries {
            if e.flow == flow {
                return arbitrate(adh, e.demand, self.capacity, base_rate, queues, numbering);
            }
            adh += e.demand;
        }
        panic!("flow {} is not at this arbitrator", flow.0)
    }
    /// Every flow's decision, most critical first.
    pub fn decisions(&self, base_rate: f64, queues: u8, numbering: PaseQueueNumbering) -> Vec<(FlowId, Decision)> {
        let mut adh = 0.0;
        self.entries
            .iter()
            .map(|e| {
                let d = arbitrate(adh, e.demand, self.capacity, base_rate, queues, numbering);
                adh += e.demand;
                (e.flow, d)
            })
            .collect()
    }
    /// Summed demand of its flows, bits per second.
    pub fn demand(&self) -> f64 {
        self.entries.iter().map(|e| e.demand).sum()
    }
    /// Number of flows.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// True without flows.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// True when `flow` is in the list.
    pub fn contains(&self, flow: FlowId) -> bool {
        self.entries.iter().any(|e| e.flow == flow)
    }
}
