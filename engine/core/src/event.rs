//! The event list. The simulation owns one; nothing else schedules events.
//!
//! Events at equal times pop in insertion order (FIFO), via a sequence
//! number (nexosim's `util/priority_queue.rs`), so a run is a pure function
//! of its scenario and seed.
//!
//! Almost every event of a packet simulation falls within tens of
//! microseconds of now (the next hop, the end of a transmission), so the
//! list is a timing wheel: 2^10 buckets of 2^13 ps (8.2 ns) cover the next
//! 8.4 us, a bitmap marks the non-empty buckets, and only the bucket being
//! drained is kept sorted by (time, insertion). Later events (timeouts)
//! wait in a binary heap and are compared against the wheel on every pop.
//! Time never goes backwards: no event is scheduled before the last one
//! popped.
//!
//! The sizes were measured (web search, pFabric, 10,000 flows, these
//! machines): the wheel must stay small enough to live in cache; 2^10 x
//! 8.2 ns ran in 17.6 s, 2^14 x 4.1 ns in 20.0 s, a binary heap alone in
//! 25.7 s, a radix heap no faster than the binary heap.

use crate::units::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

const SHIFT: u32 = 13;
const BUCKETS: usize = 1 << 10;
const MASK: u64 = BUCKETS as u64 - 1;

/// An event with its key (time, insertion sequence).
struct Entry<E> {
    key: (u64, u64),
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key.cmp(&self.key)
    }
}

#[inline]
fn key(time: u64, seq: u64) -> (u64, u64) {
    (time, seq)
}

/// A priority queue of events ordered by (time, insertion order).
pub struct EventList<E> {
    /// Wheel buckets; bucket `b % BUCKETS` holds events of absolute bucket
    /// `b = time >> SHIFT` for `cursor <= b < cursor + BUCKETS`.
    buckets: Vec<Vec<Entry<E>>>,
    /// One bit per bucket: non-empty.
    occupied: Vec<u64>,
    /// Absolute bucket of the last popped event.
    cursor: u64,
    /// The absolute bucket currently sorted (descending, popped from the end).
    sorted: Option<u64>,
    /// Events beyond the wheel's window.
    overflow: BinaryHeap<Entry<E>>,
    next_seq: u64,
    len: usize,
}

impl<E> Default for EventList<E> {
    fn default() -> Self {
        EventList {
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            occupied: vec![0; BUCKETS / 64],
            cursor: 0,
            sorted: None,
            overflow: BinaryHeap::new(),
            next_seq: 0,
            len: 0,
        }
    }
}

impl<E> EventList<E> {
    /// Schedules `event` at `time` (not before the last popped event).
    #[inline]
    pub fn push(&mut self, time: SimTime, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.len += 1;
        let k = key(time.ps(), seq);
        let abs = time.ps() >> SHIFT;
        debug_assert!(abs >= self.cursor, "event scheduled in the past");
        if abs >= self.cursor + BUCKETS as u64 {
            self.overflow.push(Entry { key: k, event });
            return;
        }
        let i = (abs & MASK) as usize;
        let b = &mut self.buckets[i];
        if self.sorted == Some(abs) {
            // Keep the bucket being drained sorted (descending).
            let pos = b.partition_point(|x| x.key > k);
            b.insert(pos, Entry { key: k, event });
        } else {
            b.push(Entry { key: k, event });
        }
        self.occupied[i / 64] |= 1 << (i % 64);
    }

    /// The absolute index of the first non-empty wheel bucket at or after
    /// the cursor, if any.
    fn next_occupied(&self) -> Option<u64> {
        let start = (self.cursor & MASK) as usize;
        let words = BUCKETS / 64;
        let (w0, b0) = (start / 64, start % 64);
        // The first word, masked below the start, then the rest with wrap-around.
        let first = self.occupied[w0] & (!0u64 << b0);
        if first != 0 {
            let i = w0 * 64 + first.trailing_zeros() as usize;
            return Some(self.cursor + (i - start) as u64);
        }
        for step in 1..=words {
            let w = (w0 + step) % words;
            let mut bits = self.occupied[w];
            if step == words {
                bits &= !(!0u64 << b0); // back at the first word: only below the start
            }
            if bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                let dist = (i + BUCKETS - start) % BUCKETS;
                return Some(self.cursor + dist as u64);
            }
        }
        None
    }

    /// Removes and returns the earliest event (the first inserted among equals).
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let wheel = self.next_occupied();
        if let Some(abs) = wheel {
            let i = (abs & MASK) as usize;
            if self.sorted != Some(abs) {
                self.buckets[i].sort_unstable_by(|a, b| b.key.cmp(&a.key));
                self.sorted = Some(abs);
            }
            let wk = self.buckets[i].last().unwrap().key;
            if self.overflow.peek().is_none_or(|o| o.key > wk) {
                self.cursor = abs;
                let b = &mut self.buckets[i];
                let e = b.pop().unwrap();
                if b.is_empty() {
                    self.occupied[i / 64] &= !(1 << (i % 64));
                }
                self.len -= 1;
                return Some((SimTime(e.key.0), e.event));
            }
        }
        let e = self.overflow.pop()?;
        self.len -= 1;
        let t = e.key.0;
        // The overflow event is earlier than anything on the wheel, so the
        // wheel's events stay inside the window from the new cursor.
        self.cursor = t >> SHIFT;
        Some((SimTime(t), e.event))
    }

    /// Time of the earliest event, if any.
    pub fn peek_time(&self) -> Option<SimTime> {
        let wheel = self.next_occupied().map(|abs| {
            let b = &self.buckets[(abs & MASK) as usize];
            b.iter().map(|e| e.key).min().unwrap()
        });
        let over = self.overflow.peek().map(|o| o.key);
        let k = match (wheel, over) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some(SimTime(k.0))
    }
    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when no event is pending.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_times_pop_fifo_and_earlier_first() {
        let mut q = EventList::default();
        q.push(SimTime(5), 'a');
        q.push(SimTime(3), 'b');
        q.push(SimTime(5), 'c');
        q.push(SimTime(3), 'd');
        q.push(SimTime(5), 'e');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['b', 'd', 'a', 'c', 'e']);
    }

    /// Against a reference (a stable sort by time of everything pushed),
    /// with pushes interleaved with pops the way a simulation does them.
    #[test]
    fn matches_a_stable_sort_under_interleaving() {
        use crate::rng::{SimRng, Stream};
        let mut rng = SimRng::new(9, Stream::Protocol);
        let mut q = EventList::default();
        let mut reference: Vec<(u64, u32)> = Vec::new();
        let mut popped: Vec<(u64, u32)> = Vec::new();
        let mut now = 0u64;
        let mut id = 0u32;
        for _ in 0..20_000 {
            if rng.below(3) > 0 || q.is_empty() {
                // Times in the near future, with many exact ties.
                let t = now + [0, 0, 1, 7, 1000, 123_456, 1 << 40][rng.below(7) as usize];
                q.push(SimTime(t), id);
                reference.push((t, id));
                id += 1;
            } else {
                let (t, e) = q.pop().unwrap();
                assert!(t.ps() >= now);
                now = t.ps();
                popped.push((t.ps(), e));
            }
        }
        while let Some((t, e)) = q.pop() {
            popped.push((t.ps(), e));
        }
        // Every event exactly once, times non-decreasing, FIFO among equal times.
        assert_eq!(popped.len(), reference.len());
        for w in popped.windows(2) {
            assert!(w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1), "{w:?}");
        }
    }
}
