//! The `pfabric` discipline (pFabric paper, section 4.1; docs/protocols/pfabric.md).
//!
//! * Dequeue: find the most urgent packet (lowest rank; the earliest among
//!   ties) in the buffer, then send the earliest-arrived packet *of that
//!   flow*, so a flow's packets leave in order even when later packets carry
//!   lower ranks.
//! * Enqueue when full: drop the least urgent packet among the buffer and
//!   the arrival; among equally unurgent packets the latest arrival goes,
//!   so on a tie the arrival itself is dropped (the pFabric ns-2 queue scans
//!   with `prio >= max_prio` after enqueuing the arrival).
//!
//! The buffer is tiny (36 KB, 24 packets), so linear scans are what the
//! switch hardware does too. Packets stay put in the simulation's pool;
//! only their ranks, flows and numbers are kept in arrival order, so scans
//! and removals touch a few cache lines, not whole packets.
//!
//! The most urgent entry is remembered between calls: an arrival only
//! compares with it, and a dequeue that sends an older packet of the most
//! urgent flow (one less urgent than the most urgent entry, which stays)
//! keeps it. Only sending the most urgent entry itself, or a drop, makes
//! the next dequeue scan for it again (about two dequeues in three on the
//! web search benchmark).

use super::{DropReason, Dropped, EnqueueOutcome};
use crate::packet::{PacketId, Packets};

/// A buffered packet as the scans see it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    rank: u64,
    flow: u32,
    id: PacketId,
}

/// `PFabricQueue::best` when the most urgent entry must be searched for.
const UNKNOWN: usize = usize::MAX;

/// pFabric's priority queue with priority dropping.
#[derive(Clone, Debug)]
pub struct PFabricQueue {
    /// In arrival order: each buffered packet's rank, flow and number.
    order: Vec<Entry>,
    /// Index in `order` of the most urgent entry (lowest rank, earliest
    /// among ties), or `UNKNOWN`.
    best: usize,
    bytes: u64,
    /// Buffer limit in bytes (36 KB in pFabric's Table 1).
    pub limit: u64,
}

/// Index of the most urgent entry: lowest rank, earliest among ties.
#[inline]
fn most_urgent(order: &[Entry]) -> Option<usize> {
    let (head, rest) = order.split_first()?;
    let (mut best, mut best_rank) = (0, head.rank);
    for (i, e) in rest.iter().enumerate() {
        // Branch-free (conditional moves): whether an entry beats the best
        // so far is a coin toss a branch predictor keeps losing.
        let better = e.rank < best_rank;
        best = std::hint::select_unpredictable(better, i + 1, best);
        best_rank = std::hint::select_unpredictable(better, e.rank, best_rank);
    }
    Some(best)
}

/// Index of the first entry of `flow`. Checks four entries per step
/// without early exits inside the step (for speed: the search usually
/// runs to the end, about eight entries on the web search benchmark).
#[inline]
fn first_of_flow(order: &[Entry], flow: u32) -> Option<usize> {
    let mut chunks = order.chunks_exact(4);
    let mut base = 0;
    for c in chunks.by_ref() {
        if (c[0].flow == flow) | (c[1].flow == flow) | (c[2].flow == flow) | (c[3].flow == flow) {
            break;
        }
        base += 4;
    }
    order[base..].iter().position(|e| e.flow == flow).map(|i| base + i)
}

impl PFabricQueue {
    /// An empty pFabric queue of `limit` bytes.
    pub fn new(limit: u64) -> Self {
        PFabricQueue { order: Vec::with_capacity(32), best: UNKNOWN, bytes: 0, limit }
    }
    #[inline]
    fn push(&mut self, id: PacketId, pool: &Packets) {
        let p = pool.get(id);
        self.bytes += p.size as u64;
        let (rank, flow) = (p.rank, p.flow.0);
        // A strictly lower rank beats the remembered entry; a tie does not
        // (the earlier arrival wins).
        if self.best != UNKNOWN && rank < self.order[self.best].rank {
            self.best = self.order.len();
        }
        self.order.push(Entry { rank, flow, id });
    }
    fn remove(&mut self, i: usize, pool: &Packets) -> PacketId {
        let id = self.order.remove(i).id;
        self.bytes -= pool.get(id).size as u64;
        id
    }
    /// Inlined into the caller, with the rare full-buffer case out of line
    /// (for speed: nearly every arrival finds room).
    #[inline]
    pub(super) fn enqueue(&mut self, id: PacketId, pool: &mut Packets, dropped: &mut Dropped) -> EnqueueOutcome {
        if self.bytes + pool.get(id).size as u64 <= self.limit {
            self.push(id, pool);
            return EnqueueOutcome::stored(false);
        }
        self.enqueue_full(id, pool, dropped)
    }
    /// `enqueue` when the arrival does not fit.
    #[cold]
    #[inline(never)]
    fn enqueue_full(&mut self, id: PacketId, pool: &mut Packets, dropped: &mut Dropped) -> EnqueueOutcome {
        let (size, rank) = (pool.get(id).size as u64, pool.get(id).rank);
        let need = self.bytes + size - self.limit;
        // Victims: buffered packets strictly less urgent than the arrival,
        // least urgent first, the latest arrival first among ties.
        let mut order: Vec<usize> = (0..self.order.len()).filter(|&i| self.order[i].rank > rank).collect();
        order.sort_unstable_by(|&a, &b| self.order[b].rank.cmp(&self.order[a].rank).then(b.cmp(&a)));
        let mut freed = 0u64;
        let mut take = 0;
        while freed < need && take < order.len() {
            freed += pool.get(self.order[order[take]].id).size as u64;
            take += 1;
        }
        if freed < need {
            // The arrival is (one of) the least urgent: drop it.
            return EnqueueOutcome::rejected(id, DropReason::LeastUrgent, dropped);
        }
        self.best = UNKNOWN;
        let mut victims: Vec<usize> = order[..take].to_vec();
        victims.sort_unstable_by(|a, b| b.cmp(a)); // remove from the back first
        for i in victims {
            dropped.push((self.remove(i, pool), DropReason::LeastUrgent));
        }
        self.push(id, pool);
        EnqueueOutcome::stored(false)
    }
    /// Inlined into the simulation's `start_tx` (for speed: one call less
    /// per queued hop).
    #[inline(always)]
    pub(super) fn dequeue(&mut self, pool: &Packets) -> Option<PacketId> {
        // A known `best` implies a non-empty buffer.
        let best = match self.best {
            UNKNOWN => most_urgent(&self.order)?,
            b => b,
        };
        // The earliest-arrived packet of that flow. An earlier one is
        // strictly less urgent than `best`, which stays the most urgent
        // entry and moves down one place.
        let first = first_of_flow(&self.order[..best], self.order[best].flow).unwrap_or(best);
        self.best = if first == best { UNKNOWN } else { best - 1 };
        let id = if first + 1 == self.order.len() {
            // The newest entry (often: fresh arrivals are the most urgent):
            // no shift, and no call to `memmove`.
            self.order.pop().unwrap().id
        } else {
            self.order.remove(first).id
        };
        self.bytes -= pool.get(id).size as u64;
        Some(id)
    }
    /// The entry `enqueue_full` drops first: the least urgent (highest
    /// rank), the latest arrival among ties.
    pub(super) fn drop_first(&self) -> Option<PacketId> {
        self.order.iter().enumerate().max_by(|(i, a), (j, b)| a.rank.cmp(&b.rank).then(i.cmp(j))).map(|(_, e)| e.id)
    }
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }
    pub(super) fn len(&self) -> usize {
        self.order.len()
    }
    pub(super) fn iter(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.order.iter().map(|e| e.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Packet;
    use crate::queue::{Queue, TestQueue};

    fn pfabric(limit: u64) -> TestQueue {
        TestQueue::new(Queue::PFabric(PFabricQueue::new(limit)))
    }
    use crate::ids::{FlowId, NodeId};
    use crate::packet::PacketKind;

    fn pkt(flow: u32, seq: u32, rank: u64) -> Packet {
        let mut p = Packet::new(FlowId(flow), NodeId(0), NodeId(1), PacketKind::Data, seq, 1500);
        p.rank = rank;
        p
    }

    #[test]
    fn sends_the_earliest_packet_of_the_most_urgent_flow() {
        let mut q = pfabric(100_000);
        q.enqueue(pkt(1, 0, 900)); // flow 1, older packet, higher rank
        q.enqueue(pkt(2, 0, 500));
        q.enqueue(pkt(1, 1, 100)); // flow 1 is now the most urgent
        q.enqueue(pkt(3, 0, 300));
        q.enqueue(pkt(4, 0, 300)); // ties with flow 3: the earlier arrival wins
        let order: Vec<(u32, u32)> = std::iter::from_fn(|| q.dequeue()).map(|p| (p.flow.0, p.seq)).collect();
        // Flow 1 goes first, in order (seq 0 although its rank is 900).
        assert_eq!(order, vec![(1, 0), (1, 1), (3, 0), (4, 0), (2, 0)]);
        assert_eq!(q.bytes(), 0);
    }

    /// The order the port inspector shows is the order the port sends, and
    /// its "drops first" is the packet a more urgent arrival pushes out.
    #[test]
    fn service_order_and_drop_first_are_what_the_queue_does() {
        let mut q = pfabric(5 * 1500);
        q.enqueue(pkt(1, 0, 900));
        q.enqueue(pkt(2, 0, 500));
        q.enqueue(pkt(1, 1, 100));
        q.enqueue(pkt(3, 0, 300));
        q.enqueue(pkt(4, 0, 900)); // ties flow 1's first packet: the later arrival drops first
        let shown: Vec<(u32, u32)> = q.q.service_order(&q.pool).into_iter().map(|id| (q.pool.get(id).flow.0, q.pool.get(id).seq)).collect();
        let first = q.q.drop_first().map(|id| (q.pool.get(id).flow.0, q.pool.get(id).seq));
        assert_eq!(q.len(), 5, "showing the order leaves the buffer as it is");
        assert_eq!(first, Some((4, 0)));
        let mut full = q.q.clone();
        let mut pool = q.pool.clone();
        let mut dropped = Vec::new();
        full.enqueue(pool.insert(pkt(5, 0, 50)), &mut pool, &mut dropped);
        assert_eq!(dropped.iter().map(|&(id, _)| (pool.get(id).flow.0, pool.get(id).seq)).collect::<Vec<_>>(), vec![(4, 0)]);
        let sent: Vec<(u32, u32)> = std::iter::from_fn(|| q.dequeue()).map(|p| (p.flow.0, p.seq)).collect();
        assert_eq!(shown, sent);
        assert_eq!(shown, vec![(1, 0), (1, 1), (3, 0), (2, 0), (4, 0)]);
        assert_eq!(q.q.drop_first(), None);
    }

    #[test]
    fn drops_the_least_urgent_when_full() {
        let mut q = pfabric(3 * 1500);
        q.enqueue(pkt(1, 0, 100));
        q.enqueue(pkt(2, 0, 700));
        q.enqueue(pkt(3, 0, 300));
        // A more urgent arrival pushes out flow 2 (rank 700).
        let o = q.enqueue(pkt(4, 0, 200));
        assert!(o.accepted);
        assert_eq!(o.dropped.len(), 1);
        assert_eq!(o.dropped[0].0.flow, FlowId(2));
        assert_eq!(o.dropped[0].1, DropReason::LeastUrgent);
        // A less urgent arrival is itself dropped.
        let o = q.enqueue(pkt(5, 0, 400));
        assert!(!o.accepted);
        assert_eq!(o.dropped[0].0.flow, FlowId(5));
        // A tie with the least urgent buffered packet drops the arrival.
        let o = q.enqueue(pkt(6, 0, 300));
        assert!(!o.accepted);
        assert_eq!(o.dropped[0].0.flow, FlowId(6));
        assert_eq!(q.bytes(), 4500);
        let flows: Vec<u32> = std::iter::from_fn(|| q.dequeue()).map(|p| p.flow.0).collect();
        assert_eq!(flows, vec![1, 4, 3]);
    }

    /// Against a direct transcription of the rules (scan every packet), on
    /// random arrivals and departures with many ties.
    #[test]
    fn matches_the_rules_on_random_traffic() {
        use crate::rng::{SimRng, Stream};
        let mut rng = SimRng::new(5, Stream::Protocol);
        let mut q = pfabric(10 * 1500);
        let mut model: Vec<Packet> = Vec::new(); // arrival order
        for step in 0..50_000u32 {
            if rng.below(2) == 0 {
                let mut p = pkt(rng.below(6), step, rng.below(5) as u64 * 100);
                p.size = [40u16, 1500, 700][rng.below(3) as usize];
                let o = q.enqueue(p);
                // Model: make room by dropping the least urgent, latest first.
                let need = (model.iter().map(|x| x.size as u64).sum::<u64>() + p.size as u64).saturating_sub(10 * 1500);
                let mut order: Vec<usize> = (0..model.len()).filter(|&i| model[i].rank > p.rank).collect();
                order.sort_by(|&a, &b| model[b].rank.cmp(&model[a].rank).then(b.cmp(&a)));
                let (mut freed, mut take) = (0u64, 0);
                while freed < need && take < order.len() {
                    freed += model[order[take]].size as u64;
                    take += 1;
                }
                if need > 0 && freed < need {
                    assert!(!o.accepted);
                } else {
                    assert!(o.accepted);
                    let mut victims: Vec<usize> = order[..take].to_vec();
                    victims.sort_by(|a, b| b.cmp(a));
                    let mut want: Vec<u32> = victims.iter().map(|&i| model.remove(i).seq).collect();
                    let mut got: Vec<u32> = o.dropped.iter().map(|d| d.0.seq).collect();
                    want.sort();
                    got.sort();
                    assert_eq!(got, want);
                    model.push(p);
                }
            } else {
                let got = q.dequeue().map(|p| p.seq);
                let want = (!model.is_empty()).then(|| {
                    let best = (0..model.len()).min_by_key(|&i| (model[i].rank, i)).unwrap();
                    let first = model.iter().position(|x| x.flow == model[best].flow).unwrap();
                    model.remove(first).seq
                });
                assert_eq!(got, want);
            }
            assert_eq!(q.len(), model.len());
        }
    }

    #[test]
    fn among_equal_victims_the_latest_arrival_is_dropped() {
        let mut q = pfabric(3 * 1500);
        q.enqueue(pkt(1, 0, 500));
        q.enqueue(pkt(2, 0, 500));
        q.enqueue(pkt(3, 0, 100));
        let o = q.enqueue(pkt(4, 0, 50));
        assert_eq!(o.dropped[0].0.flow, FlowId(2));
    }

    #[test]
    fn a_large_arrival_can_push_out_several_small_unurgent_packets() {
        let mut q = pfabric(1500 + 3 * 41);
        q.enqueue(pkt(1, 0, 10));
        for f in 2..5 {
            let mut probe = pkt(f, 0, 1000 + f as u64);
            probe.size = 41;
            assert!(q.enqueue(probe).accepted);
        }
        let mut big = pkt(9, 0, 50);
        big.size = 100;
        let o = q.enqueue(big);
        assert!(o.accepted);
        // 100 B needs three 41-B victims: the least urgent (flows 4, 3, 2).
        let v: Vec<u32> = o.dropped.iter().map(|d| d.0.flow.0).collect();
        assert_eq!(v, vec![4, 3, 2]);
        assert_eq!(q.bytes(), 1600);
    }
}
