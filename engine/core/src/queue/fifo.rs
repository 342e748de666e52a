//! `droptail` and `ecn` (docs/model.md#queue-disciplines).

use super::{DropReason, Dropped, EnqueueOutcome};
use crate::packet::{PacketId, Packets};
use std::collections::VecDeque;

/// A FIFO with a byte limit. With an ECN threshold K it is DCTCP's `ecn`
/// discipline: an ECN-capable arrival is CE-marked when the queue already
/// holds more than K bytes (DCTCP paper, section 3.1: mark on enqueue when
/// the instantaneous queue exceeds K).
#[derive(Clone, Debug)]
pub struct Fifo {
    packets: VecDeque<PacketId>,
    bytes: u64,
    /// Buffer limit in bytes.
    pub limit: u64,
    /// ECN marking threshold K in bytes; `None` for plain droptail.
    pub ecn_threshold: Option<u64>,
}

impl Fifo {
    /// A droptail FIFO of `limit` bytes.
    pub fn droptail(limit: u64) -> Self {
        Fifo { packets: VecDeque::new(), bytes: 0, limit, ecn_threshold: None }
    }
    /// An ECN-marking FIFO of `limit` bytes with threshold `k` bytes.
    pub fn ecn(limit: u64, k: u64) -> Self {
        Fifo { ecn_threshold: Some(k), ..Self::droptail(limit) }
    }
    pub(super) fn enqueue(&mut self, id: PacketId, pool: &mut Packets, dropped: &mut Dropped) -> EnqueueOutcome {
        let p = pool.get_mut(id);
        if self.bytes + p.size as u64 > self.limit {
            return EnqueueOutcome::rejected(id, DropReason::BufferFull, dropped);
        }
        let marked = match self.ecn_threshold {
            Some(k) if p.ecn.capable && self.bytes > k => {
                p.ecn.ce = true;
                true
            }
            _ => false,
        };
        self.bytes += p.size as u64;
        self.packets.push_back(id);
        EnqueueOutcome::stored(marked)
    }
    pub(super) fn dequeue(&mut self, pool: &Packets) -> Option<PacketId> {
        let id = self.packets.pop_front()?;
        self.bytes -= pool.get(id).size as u64;
        Some(id)
    }
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }
    pub(super) fn len(&self) -> usize {
        self.packets.len()
    }
    pub(super) fn iter(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.packets.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::packet::Packet;
    use crate::packet::PacketKind;
    use crate::queue::{Queue, TestQueue};

    fn pkt(seq: u32, size: u32) -> Packet {
        let mut p = Packet::new(FlowId(0), NodeId(0), NodeId(1), PacketKind::Data, seq, size);
        p.ecn.capable = true;
        p
    }

    #[test]
    fn droptail_drops_the_arrival_that_does_not_fit_and_keeps_order() {
        let mut q = TestQueue::new(Queue::Fifo(Fifo::droptail(3000)));
        assert!(q.enqueue(pkt(0, 1500)).accepted);
        assert!(q.enqueue(pkt(1, 1500)).accepted);
        let o = q.enqueue(pkt(2, 40));
        assert!(!o.accepted);
        assert_eq!(o.dropped[0].0.seq, 2);
        assert_eq!(q.dequeue().unwrap().seq, 0);
        assert!(q.enqueue(pkt(3, 1500)).accepted);
        assert_eq!(q.dequeue().unwrap().seq, 1);
        assert_eq!(q.dequeue().unwrap().seq, 3);
        assert_eq!(q.bytes(), 0);
    }

    #[test]
    fn ecn_marks_only_above_k() {
        // K = 3000 B: the third arrival sees 3000 B (not above K), the fourth 4500 B.
        let mut q = TestQueue::new(Queue::Fifo(Fifo::ecn(100_000, 3000)));
        let marks: Vec<bool> = (0..5).map(|i| q.enqueue(pkt(i, 1500)).marked).collect();
        assert_eq!(marks, vec![false, false, false, true, true]);
        let ce: Vec<bool> = std::iter::from_fn(|| q.dequeue()).map(|p| p.ecn.ce).collect();
        assert_eq!(ce, marks);
        // Not ECN-capable: never marked.
        let mut q = TestQueue::new(Queue::Fifo(Fifo::ecn(100_000, 0)));
        q.enqueue(pkt(0, 1500));
        let mut p = pkt(1, 1500);
        p.ecn.capable = false;
        assert!(!q.enqueue(p).marked);
    }
}
