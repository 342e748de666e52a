//! The event list. The simulation owns one; nothing else schedules events.
//!
//! Events are ordered by a key (time, tie): the time in picoseconds, then
//! a tie-break number the simulation gives each event (`sim::tie`: the
//! kind of event and the port, node or flow it concerns,
//! never the order events were scheduled in). So the order of events at
//! equal times does not depend on which part of the simulation scheduled
//! them first, which is what lets a run split between threads give the
//! same results as one thread (`crate::parallel`). Two events never have
//! the same key.
//!
//! Almost every event of a packet simulation falls within a few
//! microseconds of now (the next hop, the end of a transmission), so the
//! list is a timing wheel: 2^13 buckets of 2^10 ps (1 ns) cover the next
//! 8.4 us, and a bitmap marks the non-empty buckets. Buckets are so fine
//! that they hold one event most of the time. Each bucket is a linked list
//! kept sorted by key through one arena of entries; freed entries form a last-in first-out free list
//! through the same links, so the memory a push touches is usually still in
//! cache. A pop unlinks the head of the first non-empty bucket; a push
//! appends at the tail unless it is earlier than the tail (rare), and then
//! walks the bucket. Neither branches on whether the bucket is (or becomes)
//! empty: an empty bucket's tail is a dummy entry (see `NIL`).
//!
//! Later events (timeouts) wait in a binary heap ordered by key and are
//! compared against the wheel's first event by key on every pop. Time
//! never goes backwards: no event is scheduled at a time before the last
//! one popped (an event at the same time with a smaller tie pops next).
//!
//! The design was measured on the web search benchmark (pFabric, 10,000
//! flows) against a binary heap (25.7 s), a radix heap (no faster), and a
//! wheel of separately allocated, sorted buckets (17.6 s at best). A
//! smaller wheel (2 ns buckets, each a circular list named by its last
//! entry: 16 KB instead of 64 KB) had a quarter fewer L1 misses in
//! callgrind's simulation but 3.5% more instructions and a pop of two
//! dependent loads instead of one, and took 2-18% more CPU time
//! (docs/architecture.md, "Where an event's time goes").

use crate::units::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

const SHIFT: u32 = 10;
const BUCKETS: usize = 1 << 13;
const MASK: u64 = BUCKETS as u64 - 1;
/// "No entry": the number of entry 0, a dummy that is never an event. An
/// empty bucket's head and tail are both `NIL`, so a push into it appends
/// after the dummy (time 0, so never later than the push) exactly as it
/// appends after a real tail: the common push and pop take no branch on
/// whether a bucket is empty (for speed: that branch was among the most
/// mispredicted of a run).
const NIL: u32 = 0;

/// A far-future event with its key (time, tie).
#[derive(Clone)]
struct Far<E> {
    key: (u64, u64),
    event: E,
}

impl<E> PartialEq for Far<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl<E> Eq for Far<E> {}
impl<E> PartialOrd for Far<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Far<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key.cmp(&self.key)
    }
}

/// A wheel entry: its key (time, tie), its event, and the next entry of
/// its bucket (or of the free list, while it is free).
#[derive(Clone, Copy)]
struct Entry<E> {
    time: u64,
    tie: u64,
    event: E,
    next: u32,
}

impl<E> Entry<E> {
    /// The key as one number: compared without a branch on equal times.
    #[inline(always)]
    fn key(&self) -> u128 {
        key(self.time, self.tie)
    }
}

/// (time, tie) as one number, ordered as the pair.
#[inline(always)]
fn key(time: u64, tie: u64) -> u128 {
    (time as u128) << 64 | tie as u128
}

/// A priority queue of events ordered by (time, tie).
#[derive(Clone)]
pub struct EventList<E> {
    /// First and last entry of each bucket (both `NIL` when empty). Bucket
    /// `b % BUCKETS` holds events of absolute bucket `b = time >> SHIFT`,
    /// for `cursor <= b < cursor + BUCKETS`.
    heads: Box<[(u32, u32); BUCKETS]>,
    /// One bit per bucket: non-empty.
    occupied: Box<[u64; BUCKETS / 64]>,
    /// Absolute bucket of the last popped event.
    cursor: u64,
    /// Wheel entries, in use or free, after the dummy entry `NIL` (empty
    /// until the first push).
    entries: Vec<Entry<E>>,
    /// First free entry (`NIL` when none).
    free: u32,
    /// Events beyond the wheel's window.
    far: BinaryHeap<Far<E>>,
    /// Key of the earliest far event (`u128::MAX` when there is none).
    far_first: u128,
}

impl<E: Copy> Default for EventList<E> {
    fn default() -> Self {
        EventList {
            heads: Box::new([(NIL, NIL); BUCKETS]),
            occupied: Box::new([0; BUCKETS / 64]),
            cursor: 0,
            entries: Vec::new(),
            free: NIL,
            far: BinaryHeap::new(),
            far_first: u128::MAX,
        }
    }
}

impl<E: Copy> EventList<E> {
    /// Schedules `event` at `time` with tie-break `tie` (not before the
    /// last popped event's time). Always inlined: the common path is a few
    /// instructions, about as many as a call's register saves, and most
    /// call sites know the event.
    #[inline(always)]
    pub fn push(&mut self, time: SimTime, tie: u64, event: E) {
        let t = time.ps();
        let abs = t >> SHIFT;
        debug_assert!(abs >= self.cursor, "event scheduled in the past");
        if abs >= self.cursor + BUCKETS as u64 {
            self.push_far(t, tie, event);
            return;
        }
        if self.free == NIL {
            // A tail call: the common path keeps nothing alive across a call.
            self.refill_and_push(time, tie, event);
            return;
        }
        let id = self.free;
        let slot = &mut self.entries[id as usize];
        self.free = slot.next;
        *slot = Entry { time: t, tie, event, next: NIL };
        let i = (abs & MASK) as usize;
        let (head, tail) = self.heads[i];
        // An empty bucket's tail is the dummy, of key (0, 0).
        let last = &mut self.entries[tail as usize];
        if last.key() > key(t, tie) {
            self.insert_sorted(i, id, key(t, tie));
            return;
        }
        last.next = id;
        self.heads[i] = (std::hint::select_unpredictable(head == NIL, id, head), id);
        self.occupied[i / 64] |= 1 << (i % 64);
    }

    /// Links entry `id` (key `k`, before the tail's) into bucket `i` after
    /// every entry of a smaller key.
    #[cold]
    fn insert_sorted(&mut self, i: usize, id: u32, k: u128) {
        let head = self.heads[i].0;
        if self.entries[head as usize].key() > k {
            self.entries[id as usize].next = head;
            self.heads[i].0 = id;
        } else {
            let mut prev = head;
            loop {
                let next = self.entries[prev as usize].next;
                // The tail's key is larger than `k`, so the walk stops before the end.
                if self.entries[next as usize].key() > k {
                    self.entries[id as usize].next = next;
                    self.entries[prev as usize].next = id;
                    break;
                }
                prev = next;
            }
        }
    }

    /// Doubles the arena, putting the new entries on the free list, then
    /// pushes. The first call also makes the dummy entry `NIL`.
    #[cold]
    #[inline(never)]
    fn refill_and_push(&mut self, time: SimTime, tie: u64, event: E) {
        if self.entries.is_empty() {
            self.entries.push(Entry { time: 0, tie: 0, event, next: NIL });
        }
        let n = self.entries.len();
        let more = n.max(256);
        self.entries.extend((0..more).map(|k| Entry { time: 0, tie: 0, event, next: if k + 1 < more { (n + k + 1) as u32 } else { NIL } }));
        self.free = n as u32;
        self.push(time, tie, event);
    }

    #[cold]
    fn push_far(&mut self, t: u64, tie: u64, event: E) {
        self.far.push(Far { key: (t, tie), event });
        self.far_first = self.far_first.min(key(t, tie));
    }

    /// The absolute index of the first non-empty wheel bucket at or after
    /// the cursor, if any.
    #[inline(always)]
    fn next_occupied(&self) -> Option<u64> {
        let start = (self.cursor & MASK) as usize;
        let (w0, b0) = (start / 64, start % 64);
        let first = self.occupied[w0] & (!0u64 << b0);
        if first != 0 {
            let i = w0 * 64 + first.trailing_zeros() as usize;
            return Some(self.cursor + (i - start) as u64);
        }
        self.next_occupied_far(start)
    }

    /// `next_occupied` past the cursor's own bitmap word.
    #[cold]
    fn next_occupied_far(&self, start: usize) -> Option<u64> {
        let words = BUCKETS / 64;
        let (w0, b0) = (start / 64, start % 64);
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

    /// Removes and returns the earliest event with its tie-break. Always
    /// inlined, like `push`.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<(SimTime, u64, E)> {
        self.pop_before(u64::MAX)
    }

    /// Removes and returns the earliest event with its tie-break if its
    /// time is before `end` (picoseconds); `None` leaves the list as it was
    /// (no event, or the earliest at `end` or later). The run loops that
    /// stop at a time use it instead of a look then a pop (for speed: the
    /// look found the first bucket a second time every event, 9% of a
    /// split run's instructions). Always inlined, like `push`.
    #[inline(always)]
    pub fn pop_before(&mut self, end: u64) -> Option<(SimTime, u64, E)> {
        // `next_occupied`, written out so that the common case (a bucket
        // in the cursor's bitmap word or the next) goes straight on (for
        // speed: no `Option` to merge with the rare case's, and looking at
        // two words at once, the rare case is rarer and its branch better
        // predicted).
        let start = (self.cursor & MASK) as usize;
        let (w0, b0) = (start / 64, start % 64);
        let first = self.occupied[w0] & (!0u64 << b0);
        let second = self.occupied[(w0 + 1) % (BUCKETS / 64)];
        let both = first as u128 | (second as u128) << 64;
        let abs = if both != 0 {
            self.cursor - b0 as u64 + both.trailing_zeros() as u64
        } else {
            match self.next_occupied_far(start) {
                Some(abs) => abs,
                None => return self.pop_far(end),
            }
        };
        {
            let i = (abs & MASK) as usize;
            let (id, tail) = self.heads[i];
            // One look-up of the entry for both the read and the free-list
            // link (written before the heads, which the compiler cannot
            // tell apart from the arena's length).
            let slot = &mut self.entries[id as usize];
            let e = *slot;
            if e.key() < self.far_first {
                if e.time >= end {
                    return None;
                }
                slot.next = self.free;
                self.free = id;
                self.cursor = abs;
                // Emptied: the tail goes back to the dummy and the bit off,
                // without a branch (see `NIL`).
                let emptied = e.next == NIL;
                self.heads[i] = (e.next, std::hint::select_unpredictable(emptied, NIL, tail));
                // The bit is set: flipping it clears it.
                self.occupied[i / 64] ^= (emptied as u64) << (i % 64);
                return Some((SimTime(e.time), e.tie, e.event));
            }
        }
        self.pop_far(end)
    }

    /// Pops the earliest far event if it is before `end`.
    #[cold]
    fn pop_far(&mut self, end: u64) -> Option<(SimTime, u64, E)> {
        if self.far.peek()?.key.0 >= end {
            return None;
        }
        let e = self.far.pop()?;
        self.far_first = self.far.peek().map_or(u128::MAX, |o| key(o.key.0, o.key.1));
        // The far event is no later than anything on the wheel, so the
        // wheel's events stay inside the window from the new cursor.
        self.cursor = self.cursor.max(e.key.0 >> SHIFT);
        Some((SimTime(e.key.0), e.key.1, e.event))
    }

    /// Time of the earliest event, if any.
    pub fn peek_time(&self) -> Option<SimTime> {
        let wheel = self.next_occupied().map(|abs| self.entries[self.heads[(abs & MASK) as usize].0 as usize].time);
        match (wheel, self.far.is_empty()) {
            (None, true) => None,
            (w, _) => Some(SimTime(w.unwrap_or(u64::MAX).min((self.far_first >> 64) as u64))),
        }
    }
    /// Number of pending events. Counted on demand by walking the wheel
    /// (no count is kept: keeping one cost two instructions per event).
    pub fn len(&self) -> usize {
        let mut n = self.far.len();
        for &(head, _) in self.heads.iter() {
            let mut id = head;
            while id != NIL {
                n += 1;
                id = self.entries[id as usize].next;
            }
        }
        n
    }
    /// True when no event is pending.
    pub fn is_empty(&self) -> bool {
        self.far.is_empty() && self.occupied.iter().all(|&w| w == 0)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_times_pop_by_tie_and_earlier_first() {
        let mut q = EventList::default();
        q.push(SimTime(5), 2, 'a');
        q.push(SimTime(3), 9, 'b');
        q.push(SimTime(5), 1, 'c');
        q.push(SimTime(3), 4, 'd');
        q.push(SimTime(5), 7, 'e');
        q.push(SimTime(1 << 40), 0, 'f'); // beyond the wheel
        assert_eq!((q.len(), q.peek_time()), (6, Some(SimTime(3))));
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, _, e)| e)).collect();
        assert_eq!(order, vec!['d', 'b', 'c', 'a', 'e', 'f']);
        assert!(q.is_empty() && q.peek_time().is_none());
        assert_eq!(q.len(), 0);
    }

    /// Against a reference (a sort by key of everything pushed), with
    /// pushes interleaved with pops the way a simulation does them, far
    /// events among them, and events pushed at the time just popped with a
    /// smaller tie (they pop next).
    #[test]
    fn matches_a_sort_by_key_under_interleaving() {
        use crate::rng::{SimRng, Stream};
        let mut rng = SimRng::new(9, Stream::Protocol);
        let mut q = EventList::default();
        let mut pending: std::collections::BTreeSet<(u64, u64)> = Default::default();
        let mut now = (0u64, 0u64);
        let mut n = 0;
        for _ in 0..40_000 {
            if rng.below(3) > 0 || q.is_empty() {
                // Times in the near future, with many exact ties.
                let t = now.0 + [0, 0, 1, 7, 1000, 123_456, 1 << 40][rng.below(7) as usize];
                let tie = rng.below(1 << 20) as u64 * 64 + (n % 64);
                n += 1;
                if pending.contains(&(t, tie)) || (t, tie) == now {
                    continue;
                }
                q.push(SimTime(t), tie, (t, tie));
                pending.insert((t, tie));
            } else {
                // The smallest pending key pops, whatever the order of pushes.
                let (t, tie, e) = q.pop().unwrap();
                assert_eq!((t.ps(), tie), e);
                let first = *pending.iter().next().unwrap();
                assert_eq!(e, first, "popped {e:?}, smallest pending {first:?}");
                pending.remove(&first);
                assert!(t.ps() >= now.0);
                now = e;
            }
        }
        while let Some((_, _, e)) = q.pop() {
            let first = *pending.iter().next().unwrap();
            assert_eq!(e, first);
            pending.remove(&first);
        }
        assert!(pending.is_empty());
    }
}
