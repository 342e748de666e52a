//! A slab: values in stable numbered slots, freed slots reused last-in
//! first-out (so the memory a new value lands in is usually still in
//! cache). The simulation keeps every packet inside the network here;
//! wires and buffers hold slot numbers.

/// Values of type `T` in reusable numbered slots.
#[derive(Clone, Debug)]
pub struct Slab<T> {
    slots: Vec<T>,
    free: Vec<u32>,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Slab { slots: Vec::new(), free: Vec::new() }
    }
}

impl<T: Copy> Slab<T> {
    /// Stores `v`; returns its slot.
    #[inline]
    pub fn insert(&mut self, v: T) -> u32 {
        match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = v;
                s
            }
            None => {
                self.slots.push(v);
                (self.slots.len() - 1) as u32
            }
        }
    }
    /// Frees slot `s` and returns what it held.
    #[inline]
    pub fn remove(&mut self, s: u32) -> T {
        self.free.push(s);
        self.slots[s as usize]
    }
    /// The value in slot `s`.
    #[inline]
    pub fn get(&self, s: u32) -> &T {
        &self.slots[s as usize]
    }
    /// The value in slot `s`, mutably.
    #[inline]
    pub fn get_mut(&mut self, s: u32) -> &mut T {
        &mut self.slots[s as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_slots_are_reused_last_first() {
        let mut s = Slab::default();
        let (a, b, c) = (s.insert('a'), s.insert('b'), s.insert('c'));
        assert_eq!((a, b, c), (0, 1, 2));
        assert_eq!(s.remove(a), 'a');
        assert_eq!(s.remove(c), 'c');
        assert_eq!(s.insert('d'), c);
        assert_eq!(s.insert('e'), a);
        assert_eq!((*s.get(0), *s.get(1), *s.get(2)), ('e', 'b', 'd'));
        *s.get_mut(1) = 'f';
        assert_eq!(*s.get(1), 'f');
    }
}
