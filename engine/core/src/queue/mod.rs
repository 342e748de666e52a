//! Queue disciplines of output ports (PROTOCOLS.md section 1). A port
//! asks its discipline three things (htsim's queue shape): take this
//! arriving packet (or drop it, or drop another), give me the next packet
//! to send, and how full are you.

mod fifo;
mod pfabric;
mod strict_priority;

pub use fifo::Fifo;
pub use pfabric::PFabricQueue;
pub use strict_priority::StrictPriority;

use crate::packet::Packet;
use serde::{Deserialize, Serialize};

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DropReason {
    /// The buffer had no room for the arrival (droptail, ecn, strict_priority).
    BufferFull,
    /// pFabric: the buffer was full and this packet was the least urgent.
    LeastUrgent,
}

/// What happened to an arriving packet.
#[derive(Debug, PartialEq)]
pub struct EnqueueOutcome {
    /// The arrival was stored.
    pub accepted: bool,
    /// The arrival was stored and CE-marked (ECN threshold exceeded).
    pub marked: bool,
    /// Packets dropped: the arrival itself (when not accepted), or buffered
    /// packets pFabric pushed out to make room (empty almost always).
    pub dropped: Vec<(Packet, DropReason)>,
}

impl EnqueueOutcome {
    fn stored(marked: bool) -> Self {
        EnqueueOutcome { accepted: true, marked, dropped: Vec::new() }
    }
    fn rejected(p: Packet, why: DropReason) -> Self {
        EnqueueOutcome { accepted: false, marked: false, dropped: vec![(p, why)] }
    }
}

/// The queue discipline of one output port.
#[derive(Clone, Debug)]
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
    /// Offers an arriving packet to the queue.
    #[inline]
    pub fn enqueue(&mut self, p: Packet) -> EnqueueOutcome {
        match self {
            Queue::Fifo(q) => q.enqueue(p),
            Queue::StrictPriority(q) => q.enqueue(p),
            Queue::PFabric(q) => q.enqueue(p),
        }
    }
    /// Takes the next packet to transmit.
    #[inline]
    pub fn dequeue(&mut self) -> Option<Packet> {
        match self {
            Queue::Fifo(q) => q.dequeue(),
            Queue::StrictPriority(q) => q.dequeue(),
            Queue::PFabric(q) => q.dequeue(),
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
    pub fn for_each(&self, f: impl FnMut(&Packet)) {
        match self {
            Queue::Fifo(q) => q.iter().for_each(f),
            Queue::StrictPriority(q) => q.iter().for_each(f),
            Queue::PFabric(q) => q.iter().for_each(f),
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
