//! Heap accounting for time travel: an allocator wrapper that counts live
//! bytes, so a [`crate::timeline::Timeline`] can measure what each
//! checkpoint holds and keep them within a budget. A binary opts in with
//! `#[global_allocator] static A: CountingAllocator = CountingAllocator;`
//! (the browser binding does; so does the timeline test).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting live bytes in [`live_bytes`].
pub struct CountingAllocator;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter is only bookkeeping.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(l.size(), Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE_BYTES.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(n, Relaxed);
        LIVE_BYTES.fetch_sub(l.size(), Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}

/// Heap bytes live now, as counted by [`CountingAllocator`] (0 when the
/// binary does not use it).
pub fn live_bytes() -> usize {
    LIVE_BYTES.load(Relaxed)
}
