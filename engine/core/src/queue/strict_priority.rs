//! `strict_priority(n)` (docs/model.md#queue-disciplines): n FIFO sub-queues, served
//! highest first (sub-queue 0), each with its own ECN threshold, sharing one
//! byte limit for the port. pHost puts control in sub-queue 0; PASE maps
//! arbitrated flows to sub-queues.

use super::{DropReason, Dropped, EnqueueOutcome};
use crate::packet::{PacketId, Packets};
use std::collections::VecDeque;

/// One sub-queue.
#[derive(Clone, Debug)]
struct Sub {
    /// Its packets, oldest first, each with its size (kept here so that a
    /// dequeue reads no packet).
    packets: VecDeque<(PacketId, u32)>,
    /// Bytes it holds.
    bytes: u64,
    /// ECN threshold in bytes of this sub-queue (`None`: never mark).
    ecn_threshold: Option<u64>,
}

/// Strict-priority sub-queues with a shared buffer.
///
/// A bitmask says which sub-queues hold packets, so a dequeue finds the
/// highest non-empty one with one instruction instead of trying each in
/// turn (pHost's ports have eight, and its data waits in the third).
#[derive(Clone, Debug)]
pub struct StrictPriority {
    /// Bit `c` set: sub-queue `c` is not empty.
    nonempty: u64,
    bytes: u64,
    /// Shared buffer limit of the port in bytes.
    pub limit: u64,
    subs: Box<[Sub]>,
}

impl StrictPriority {
    /// `n` sub-queues (1 to 64) sharing `limit` bytes, each marking above
    /// `ecn_threshold`.
    pub fn new(n: usize, limit: u64, ecn_threshold: Option<u64>) -> Self {
        assert!((1..=64).contains(&n));
        let sub = Sub { packets: VecDeque::new(), bytes: 0, ecn_threshold };
        StrictPriority { nonempty: 0, bytes: 0, limit, subs: vec![sub; n].into_boxed_slice() }
    }
    /// Number of sub-queues.
    pub fn n(&self) -> usize {
        self.subs.len()
    }
    /// Inlined into the simulation's `enqueue_queued` (for speed: a call
    /// and its register saves per queued hop).
    #[inline(always)]
    pub(super) fn enqueue(&mut self, id: PacketId, pool: &mut Packets, dropped: &mut Dropped) -> EnqueueOutcome {
        let p = pool.get_mut(id);
        let size = p.size as u64;
        if self.bytes + size > self.limit {
            return EnqueueOutcome::rejected(id, DropReason::BufferFull, dropped);
        }
        // A class beyond the last sub-queue goes to the lowest one.
        let c = (p.class as usize).min(self.subs.len() - 1);
        let sub = &mut self.subs[c];
        let marked = match sub.ecn_threshold {
            Some(k) if p.ecn.capable && sub.bytes > k => {
                p.ecn.ce = true;
                true
            }
            _ => false,
        };
        self.bytes += size;
        sub.bytes += size;
        sub.packets.push_back((id, size as u32));
        self.nonempty |= 1 << c;
        EnqueueOutcome::stored(marked)
    }
    #[inline]
    pub(super) fn dequeue(&mut self, _pool: &Packets) -> Option<PacketId> {
        if self.nonempty == 0 {
            return None;
        }
        let c = self.nonempty.trailing_zeros() as usize;
        let sub = &mut self.subs[c];
        let (id, size) = sub.packets.pop_front()?;
        // The bit is set: flipping it clears it, with no branch (whether a
        // sub-queue empties is a coin toss).
        self.nonempty ^= (sub.packets.is_empty() as u64) << c;
        self.bytes -= size as u64;
        sub.bytes -= size as u64;
        Some(id)
    }
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }
    pub(super) fn len(&self) -> usize {
        self.subs.iter().map(|s| s.packets.len()).sum()
    }
    pub(super) fn iter(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.subs.iter().flat_map(|s| s.packets.iter().map(|&(id, _)| id))
    }
    pub(super) fn subqueue_bytes(&self) -> Vec<u64> {
        self.subs.iter().map(|s| s.bytes).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::packet::Packet;
    use crate::packet::PacketKind;
    use crate::queue::{Queue, TestQueue};

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
