//! Per-flow protocol state kept only while it can be needed (issue 19):
//! flows get ids in arrival order, so a table indexed by flow id can forget
//! a prefix of ids once every flow in it has finished. Memory is then
//! bounded by the span of flow ids from the oldest unfinished flow to the
//! newest, not by every flow of the run.

use std::collections::VecDeque;

/// State of type `T` per flow id, from the oldest unfinished flow on.
#[derive(Clone, Debug)]
pub struct FlowTable<T> {
    /// Id of `items[0]`.
    base: usize,
    /// `None`: a retired flow whose id is above an unfinished one.
    items: VecDeque<Option<T>>,
}

impl<T> Default for FlowTable<T> {
    fn default() -> Self {
        FlowTable { base: 0, items: VecDeque::new() }
    }
}

impl<T> FlowTable<T> {
    /// Adds the state of the next flow id (ids are pushed in order).
    pub fn push(&mut self, id: usize, v: T) {
        debug_assert_eq!(id, self.base + self.items.len(), "flow ids arrive in order");
        self.items.push_back(Some(v));
    }
    /// The flow's state, `None` once it is retired.
    #[inline]
    pub fn get(&self, id: usize) -> Option<&T> {
        self.items.get(id.wrapping_sub(self.base))?.as_ref()
    }
    /// The flow's state, mutable, `None` once it is retired.
    #[inline]
    pub fn get_mut(&mut self, id: usize) -> Option<&mut T> {
        self.items.get_mut(id.wrapping_sub(self.base))?.as_mut()
    }
    /// Forgets a finished flow's state; frees the prefix of retired ids.
    pub fn retire(&mut self, id: usize) {
        if let Some(x) = self.items.get_mut(id.wrapping_sub(self.base)) {
            *x = None;
        }
        while let Some(None) = self.items.front() {
            self.items.pop_front();
            self.base += 1;
        }
    }
    /// Number of ids held (retired ones in between included).
    pub fn span(&self) -> usize {
        self.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::FlowTable;

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
}
