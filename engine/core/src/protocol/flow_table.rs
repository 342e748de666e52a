//! Per-flow protocol state kept only while it can be needed (issue 19):
//! flows get ids in arrival order, so a table indexed by flow id can forget
//! a prefix of ids once every flow in it has finished. Memory is then
//! bounded by the span of flow ids from the oldest unfinished flow to the
//! newest, not by every flow of the run.

/// Most ids the vector spans before its oldest live flows move to the
/// side map (see [`FlowTable`]).
const MAX_SPAN: usize = 1 << 13;

/// State of type `T` per flow id, from the oldest unfinished flow on.
///
/// A plain vector indexed by `id - base` (one subtraction and a bounds
/// check per lookup: protocols look flows up on every packet); the retired
/// prefix is cut off once it is at least half the vector, so each flow is
/// moved at most once on average. A flow that stays unfinished far longer
/// than the others (a pHost source whose final ACK was lost waits forever)
/// would pin every later id in the vector: once the vector spans more than
/// [`MAX_SPAN`] ids, its oldest live flows move to a side map, so the
/// vector follows the recent flows and the map holds the stragglers.
#[derive(Clone, Debug)]
pub struct FlowTable<T> {
    /// Id of `items[0]`.
    base: usize,
    /// Index in `items` of the oldest flow not retired (all before it are
    /// `None`).
    live_from: usize,
    /// `None`: a retired flow (or one moved to `stragglers`). Boxed, so a
    /// slot costs one pointer however large the state: a slow flow keeps
    /// the slots of every flow that arrives during its life.
    items: Vec<Option<Box<T>>>,
    /// Live flows with ids below `base + live_from`, moved out of the
    /// vector (looked up only, never iterated: deterministic).
    stragglers: std::collections::HashMap<usize, Box<T>>,
}

impl<T> Default for FlowTable<T> {
    fn default() -> Self {
        FlowTable { base: 0, live_from: 0, items: Vec::new(), stragglers: std::collections::HashMap::new() }
    }
}

impl<T> FlowTable<T> {
    /// Adds the state of flow `id`. Ids are pushed in increasing order;
    /// ids skipped count as retired (a part of a run split between threads
    /// sees only the flows of its own hosts).
    pub fn push(&mut self, id: usize, v: T) {
        debug_assert!(id >= self.base + self.items.len(), "flow ids arrive in order");
        let gap = id - (self.base + self.items.len());
        if gap > 0 {
            self.items.extend(std::iter::repeat_with(|| None).take(gap));
        }
        self.items.push(Some(Box::new(v)));
        if self.items.len() - self.live_from > MAX_SPAN {
            self.move_stragglers();
        }
    }
    /// The flow's state, `None` once it is retired.
    #[inline]
    pub fn get(&self, id: usize) -> Option<&T> {
        match self.items.get(id.wrapping_sub(self.base)) {
            Some(x) => x.as_deref(),
            None => self.straggler(id),
        }
    }
    /// The flow's state, mutable, `None` once it is retired.
    #[inline]
    pub fn get_mut(&mut self, id: usize) -> Option<&mut T> {
        let i = id.wrapping_sub(self.base);
        if i < self.items.len() {
            return self.items[i].as_deref_mut();
        }
        self.straggler_mut(id)
    }
    #[inline(never)]
    fn straggler(&self, id: usize) -> Option<&T> {
        if self.stragglers.is_empty() {
            None
        } else {
            self.stragglers.get(&id).map(|b| &**b)
        }
    }
    #[inline(never)]
    fn straggler_mut(&mut self, id: usize) -> Option<&mut T> {
        if self.stragglers.is_empty() {
            None
        } else {
            self.stragglers.get_mut(&id).map(|b| &mut **b)
        }
    }
    /// Forgets a finished flow's state; frees the prefix of retired ids.
    pub fn retire(&mut self, id: usize) {
        match self.items.get_mut(id.wrapping_sub(self.base)) {
            Some(x) => *x = None,
            None => {
                self.stragglers.remove(&id);
            }
        }
        self.advance();
    }
    /// Moves `live_from` past retired ids and cuts the retired prefix off
    /// once it is half the vector.
    fn advance(&mut self) {
        while self.items.get(self.live_from).is_some_and(|x| x.is_none()) {
            self.live_from += 1;
        }
        if self.live_from >= 64 && 2 * self.live_from >= self.items.len() {
            self.items.drain(..self.live_from);
            self.base += self.live_from;
            self.live_from = 0;
        }
    }
    /// Moves the oldest live flows to `stragglers` until the vector spans
    /// half of [`MAX_SPAN`] ids.
    #[inline(never)]
    fn move_stragglers(&mut self) {
        while self.items.len() - self.live_from > MAX_SPAN / 2 {
            if let Some(v) = self.items[self.live_from].take() {
                self.stragglers.insert(self.base + self.live_from, v);
            }
            self.live_from += 1;
        }
        self.advance();
    }
    /// Number of ids held from the oldest unfinished flow on (retired ones
    /// in between included; stragglers not included).
    pub fn span(&self) -> usize {
        self.items.len() - self.live_from
    }
}

#[cfg(test)]
mod tests {
    use super::{FlowTable, MAX_SPAN};

    #[test]
    fn retiring_frees_the_finished_prefix_only() {
        let mut t = FlowTable::default();
        for i in 0..5 {
            t.push(i, i * 10);
        }
        t.retire(1);
        assert_eq!(t.get(1), None);
        assert_eq!(t.span(), 5, "flow 0 still runs: nothing freed");
        t.retire(0);
        assert_eq!(t.span(), 3, "0 and 1 freed");
        assert_eq!(t.get(2), Some(&20));
        *t.get_mut(4).unwrap() += 1;
        assert_eq!(t.get(4), Some(&41));
        assert_eq!(t.get(0), None, "below the base");
        assert_eq!(t.get(9), None, "not pushed yet");
        t.push(5, 50);
        assert_eq!(t.get(5), Some(&50));
    }

    #[test]
    fn a_long_run_keeps_only_the_live_span() {
        // 10,000 flows, each retired 100 ids after it arrived: the vector
        // never holds much more than twice the live span.
        let mut t = FlowTable::default();
        let mut most = 0;
        for i in 0..10_000usize {
            t.push(i, i);
            if i >= 100 {
                t.retire(i - 100);
                assert_eq!(t.get(i - 100), None);
                assert_eq!(t.get(i - 99), Some(&(i - 99)));
            }
            most = most.max(t.items.len());
        }
        assert_eq!(t.span(), 100);
        assert!(most <= 2 * 101 + 64, "held {most} slots for a span of 100");
    }

    #[test]
    fn a_flow_that_never_finishes_does_not_pin_the_later_ones() {
        // Flow 0 is never retired (a lost final ACK); every other flow is
        // retired 10 ids after it arrived. The vector stays within the
        // span limit and flow 0 stays reachable, as do the live flows.
        let mut t = FlowTable::default();
        let n = 4 * MAX_SPAN;
        let mut most = 0;
        for i in 0..n {
            t.push(i, i);
            if i > 10 {
                t.retire(i - 10);
            }
            most = most.max(t.items.len());
        }
        assert!(most <= 2 * MAX_SPAN + 64, "held {most} slots");
        assert_eq!(t.get(0), Some(&0), "the straggler is kept");
        *t.get_mut(0).unwrap() += 1;
        assert_eq!(t.get(0), Some(&1));
        assert_eq!(t.get(n - 5), Some(&(n - 5)));
        assert_eq!(t.get(n - 20), None, "retired");
        t.retire(0);
        assert_eq!(t.get(0), None);
        assert!(t.stragglers.is_empty());
    }
}
