//! `strict_priority(n)` (PROTOCOLS.md section 1): n FIFO sub-queues, served
//! highest first (sub-queue 0), each with its own ECN threshold, sharing one
//! byte limit for the port. pHost puts control in sub-queue 0; PASE maps
//! arbitrated flows to sub-queues.

use super::{DropReason, EnqueueOutcome};
use crate::packet::{PacketId, Packets};
use std::collections::VecDeque;

/// Strict-priority sub-queues with a shared buffer.
#[derive(Clone, Debug)]
pub struct StrictPriority {
    queues: Vec<VecDeque<PacketId>>,
    queue_bytes: Vec<u64>,
    bytes: u64,
    /// Shared buffer limit of the port in bytes.
    pub limit: u64,
    /// Per-sub-queue ECN threshold in bytes of that sub-queue (`None`: never mark).
    pub ecn_thresholds: Vec<Option<u64>>,
}

impl StrictPriority {
    /// `n` sub-queues sharing `limit` bytes, each marking above `ecn_threshold`.
    pub fn new(n: usize, limit: u64, ecn_threshold: Option<u64>) -> Self {
        assert!(n >= 1);
        StrictPriority {
            queues: vec![VecDeque::new(); n],
            queue_bytes: vec![0; n],
            bytes: 0,
            limit,
            ecn_thresholds: vec![ecn_threshold; n],
        }
    }
    /// Number of sub-queues.
    pub fn n(&self) -> usize {
        self.queues.len()
    }
    pub(super) fn enqueue(&mut self, id: PacketId, pool: &mut Packets) -> EnqueueOutcome {
        let p = pool.get_mut(id);
        if self.bytes + p.size as u64 > self.limit {
            return EnqueueOutcome::rejected(id, DropReason::BufferFull);
        }
        // A class beyond the last sub-queue goes to the lowest one.
        let c = (p.class as usize).min(self.queues.len() - 1);
        let marked = match self.ecn_thresholds[c] {
            Some(k) if p.ecn.capable && self.queue_bytes[c] > k => {
                p.ecn.ce = true;
                true
            }
            _ => false,
        };
        self.bytes += p.size as u64;
        self.queue_bytes[c] += p.size as u64;
        self.queues[c].push_back(id);
        EnqueueOutcome::stored(marked)
    }
    pub(super) fn dequeue(&mut self, pool: &Packets) -> Option<PacketId> {
        for (c, q) in self.queues.iter_mut().enumerate() {
            if let Some(id) = q.pop_front() {
                let size = pool.get(id).size as u64;
                self.bytes -= size;
                self.queue_bytes[c] -= size;
                return Some(id);
            }
        }
        None
    }
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }
    pub(super) fn len(&self) -> usize {
        self.queues.iter().map(|q| q.len()).sum()
    }
    pub(super) fn iter(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.queues.iter().flat_map(|q| q.iter().copied())
    }
    pub(super) fn subqueue_bytes(&self) -> Vec<u64> {
        self.queue_bytes.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Packet;
    use crate::queue::{Queue, TestQueue};
    use crate::ids::{FlowId, NodeId};
    use crate::packet::PacketKind;

    fn pkt(seq: u32, class: u8) -> Packet {
        let mut p = Packet::new(FlowId(0), NodeId(0), NodeId(1), PacketKind::Data, seq, 1500);
        p.class = class;
        p.ecn.capable = true;
        p
    }

    #[test]
    fn serves_highest_priority_first_fifo_within_a_class() {
        let mut q = TestQueue::new(Queue::StrictPriority(StrictPriority::new(3, 1_000_000, None)));
        for (seq, class) in [(0, 2), (1, 1), (2, 2), (3, 0), (4, 1), (5, 9)] {
            assert!(q.enqueue(pkt(seq, class)).accepted);
        }
        let order: Vec<u32> = std::iter::from_fn(|| q.dequeue()).map(|p| p.seq).collect();
        // class 9 is clamped to the lowest sub-queue (2), after 0 and 2.
        assert_eq!(order, vec![3, 1, 4, 0, 2, 5]);
    }

    #[test]
    fn buffer_is_shared_and_ecn_is_per_subqueue() {
        let mut q = TestQueue::new(Queue::StrictPriority(StrictPriority::new(2, 4500, Some(1000))));
        assert!(!q.enqueue(pkt(0, 0)).marked); // sub-queue 0 was empty
        assert!(q.enqueue(pkt(1, 0)).marked); // sub-queue 0 holds 1500 > K
        // Sub-queue 1 is empty: no mark, although the port holds 3000 B.
        assert!(!q.enqueue(pkt(2, 1)).marked);
        // The shared 4500-byte buffer is now full, whatever the class.
        let o = q.enqueue(pkt(3, 0));
        assert!(!o.accepted);
        assert_eq!(o.dropped[0].1, DropReason::BufferFull);
        assert_eq!(q.q.subqueue_bytes(), vec![3000, 1500]);
        assert_eq!(q.dequeue().unwrap().seq, 0);
        assert_eq!(q.bytes(), 3000);
    }
}
