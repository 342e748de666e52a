//! Queue disciplines of output ports (docs/model.md#queue-disciplines). A port
//! asks its discipline three things (htsim's queue shape): take this
//! arriving packet (or drop it, or drop another), give me the next packet
//! to send, and how full are you.

mod fifo;
mod pfabric;
mod strict_priority;

pub use fifo::Fifo;
pub use pfabric::PFabricQueue;
pub use strict_priority::StrictPriority;

use crate::packet::{PacketId, Packets};
use serde::{Deserialize, Serialize};

/// Why a packet was dropped. Its code (`reason as u8`, the order here) is
/// the aux column of the browser binding's drop records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum DropReason {
    /// The buffer had no room for the arrival (droptail, ecn, strict_priority).
    BufferFull,
    /// pFabric: the buffer was full and this packet was the least urgent.
    LeastUrgent,
    /// A fault: the port's link is down, the packet was on a link that
    /// failed, or no path to its destination is left (`crate::fault`).
    LinkDown,
    /// A `drop_next` fault dropped this packet (`crate::fault`).
    Injected,
}

impl DropReason {
    /// Every reason, in code order (`dcsim names` exports them).
    pub const ALL: [DropReason; 4] = [DropReason::BufferFull, DropReason::LeastUrgent, DropReason::LinkDown, DropReason::Injected];
}

/// What happened to an arriving packet. The packets dropped (the arrival
/// itself when not accepted, or buffered packets pFabric pushed out to make
/// room) go to a list the caller passes in and empties: they are still in
/// the pool, and the caller counts and frees them. (For speed: the outcome
/// is two flags in registers, and the common case allocates and frees
/// nothing.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnqueueOutcome {
    /// The arrival was stored.
    pub accepted: bool,
    /// The arrival was stored and CE-marked (ECN threshold exceeded).
    pub marked: bool,
}

/// Packets a discipline dropped in one `enqueue`, with the reasons.
pub type Dropped = Vec<(PacketId, DropReason)>;

impl EnqueueOutcome {
    fn stored(marked: bool) -> Self {
        EnqueueOutcome { accepted: true, marked }
    }
    /// Rejects arrival `p`, listing it in `dropped`.
    fn rejected(p: PacketId, why: DropReason, dropped: &mut Dropped) -> Self {
        dropped.push((p, why));
        EnqueueOutcome { accepted: false, marked: false }
    }
}

/// The queue discipline of one output port.
///
/// `repr(u8)` gives the enum a tag byte of its own: without it the variant
/// is encoded in a niche of a field, and every call on the hot path
/// decoded it with a handful of extra instructions.
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum Queue {
    /// FIFO with a byte limit; with `ecn_threshold` set it is the `ecn`
    /// discipline (DCTCP marking at K).
    Fifo(Fifo),
    /// `strict_priority(n)`: n FIFOs served highest first, shared buffer.
    StrictPriority(StrictPriority),
    /// pFabric: priority dequeue and priority drop.
    PFabric(PFabricQueue),
}

impl Queue {
    /// Offers arriving packet `p` (in `pool`) to the queue, which may mark
    /// it; packets it drops are appended to `dropped`. Always inlined (for
    /// speed: the simulation calls it at every queued hop, and pFabric's
    /// common case is a few instructions).
    #[inline(always)]
    pub fn enqueue(&mut self, p: PacketId, pool: &mut Packets, dropped: &mut Dropped) -> EnqueueOutcome {
        match self {
            Queue::Fifo(q) => q.enqueue(p, pool, dropped),
            Queue::StrictPriority(q) => q.enqueue(p, pool, dropped),
            Queue::PFabric(q) => q.enqueue(p, pool, dropped),
        }
    }
    /// Takes the next packet to transmit. Always inlined, like `enqueue`.
    #[inline(always)]
    pub fn dequeue(&mut self, pool: &Packets) -> Option<PacketId> {
        match self {
            Queue::Fifo(q) => q.dequeue(pool),
            Queue::StrictPriority(q) => q.dequeue(pool),
            Queue::PFabric(q) => q.dequeue(pool),
        }
    }
    /// Bytes buffered.
    #[inline]
    pub fn bytes(&self) -> u64 {
        match self {
            Queue::Fifo(q) => q.bytes(),
            Queue::StrictPriority(q) => q.bytes(),
            Queue::PFabric(q) => q.bytes(),
        }
    }
    /// Buffer limit in bytes.
    #[inline]
    pub fn limit(&self) -> u64 {
        match self {
            Queue::Fifo(q) => q.limit,
            Queue::StrictPriority(q) => q.limit,
            Queue::PFabric(q) => q.limit,
        }
    }
    /// Packets buffered.
    pub fn len(&self) -> usize {
        match self {
            Queue::Fifo(q) => q.len(),
            Queue::StrictPriority(q) => q.len(),
            Queue::PFabric(q) => q.len(),
        }
    }
    /// True when nothing is buffered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Calls `f` on every buffered packet (for conservation audits and the
    /// port inspector).
    pub fn for_each(&self, f: impl FnMut(PacketId)) {
        match self {
            Queue::Fifo(q) => q.iter().for_each(f),
            Queue::StrictPriority(q) => q.iter().for_each(f),
            Queue::PFabric(q) => q.iter().for_each(f),
        }
    }
    /// The buffered packets in the order this port sends them if nothing
    /// else arrives: the discipline's own dequeue, run on a copy (the port
    /// inspector shows this order; the page does not re-derive it).
    pub fn service_order(&self, pool: &Packets) -> Vec<PacketId> {
        let mut copy = self.clone();
        std::iter::from_fn(|| copy.dequeue(pool)).collect()
    }
    /// The buffered packet a full buffer pushes out first to admit a more
    /// urgent arrival: pFabric's least urgent packet, the latest arrival
    /// among ties (pFabric paper section 4.1, "drop the lowest priority
    /// packet"). None for the disciplines that drop the arrival instead.
    pub fn drop_first(&self) -> Option<PacketId> {
        match self {
            Queue::PFabric(q) => q.drop_first(),
            Queue::Fifo(_) | Queue::StrictPriority(_) => None,
        }
    }
    /// Bytes buffered per sub-queue (one entry for single-queue disciplines).
    pub fn subqueue_bytes(&self) -> Vec<u64> {
        match self {
            Queue::StrictPriority(q) => q.subqueue_bytes(),
            _ => vec![self.bytes()],
        }
    }
}

/// [`EnqueueOutcome`] with the dropped packets themselves.
#[cfg(test)]
pub(crate) struct TestOutcome {
    pub accepted: bool,
    pub marked: bool,
    pub dropped: Vec<(crate::packet::Packet, DropReason)>,
}

/// A queue with its own packet pool, offering the packet-valued calls the
/// disciplines' tests are written in.
#[cfg(test)]
pub(crate) struct TestQueue {
    pub q: Queue,
    pub pool: Packets,
}

#[cfg(test)]
impl TestQueue {
    pub fn new(q: Queue) -> Self {
        TestQueue { q, pool: Packets::default() }
    }
    /// Offers `p`; the outcome lists the dropped packets themselves.
    pub fn enqueue(&mut self, p: crate::packet::Packet) -> TestOutcome {
        let id = self.pool.insert(p);
        let mut dropped = Vec::new();
        let o = self.q.enqueue(id, &mut self.pool, &mut dropped);
        let dropped = dropped.into_iter().map(|(d, why)| (self.pool.remove(d), why)).collect();
        TestOutcome { accepted: o.accepted, marked: o.marked, dropped }
    }
    pub fn dequeue(&mut self) -> Option<crate::packet::Packet> {
        let id = self.q.dequeue(&self.pool)?;
        Some(self.pool.remove(id))
    }
    pub fn bytes(&self) -> u64 {
        self.q.bytes()
    }
    pub fn len(&self) -> usize {
        self.q.len()
    }
}
