//! The posts and notes the parts share, the one place of the crate where
//! threads touch the same memory, and the only `unsafe` of `parallel`.
//!
//! The protocol, for every part `i` and cell number `c` (the first cell
//! is 1; a cell uses the post and note of its number's parity):
//!
//! 1. the one thread that runs part `i` writes its post of cell `c`, then
//!    publishes its note of cell `c` (the note's count, a release store);
//! 2. every thread waits until every part has noted cell `c` (acquire
//!    loads), then reads any part's post of cell `c`;
//! 3. a thread begins cell `c + 1` (and so publishes its parts' notes of
//!    `c + 1`) only after it stopped reading the posts of cell `c`.
//!
//! So the post of parity `c` is written again (cell `c + 2`) only after its
//! writer saw every part's note of `c + 1`, which each thread publishes
//! after it finished reading the posts of cell `c`: a post is never read
//! and written at once. [`Seat`] and [`Round`] make the steps safe to call:
//! a seat owns its parts (no two seats own one), may post a part once per
//! cell and only after it waited for the cell before, and a [`Round`]
//! (the reads of one cell) borrows the seat, so the seat cannot begin the
//! next cell while it is alive. Every seat owns a part, so every reader
//! publishes a note that writers wait for.
//!
//! `loom_model` (at the end of this file) runs the real board under loom
//! (`RUSTFLAGS="--cfg loom"`), which checks every interleaving (up to its
//! bounds) for a read and a write of one post at once.

use self::sync::{spin_loop, yield_now, AtomicU64, Ordering, UnsafeCell};
use super::{Post, Seen};

/// What every thread reads of a part after every cell, in one cache
/// line with the count of cells the part has posted: a thread waiting
/// for the part spins on this line, and once the count comes the rest
/// of the note is already in its cache. (Before, the count had a line
/// of its own and the note's fields were spread over the post and the
/// vectors' headers: four to six lines crossed between the cores every
/// cell, where now one does, plus the packets when there are some.
/// Sparse runs, with a few events a cell, spent most of their time
/// there.)
///
/// The fields other than `cells` are written (relaxed) before `cells`
/// (release) and read (relaxed) after it (acquire).
#[repr(C, align(128))]
struct Note {
    /// Cells posted (the part's epoch).
    cells: AtomicU64,
    /// [`Seen::next`].
    next: AtomicU64,
    /// [`Seen::out_min`].
    out_min: AtomicU64,
    /// [`Seen::events`].
    events: AtomicU64,
    /// [`Seen::last`].
    last: AtomicU64,
    /// [`Seen::flags`].
    flags: AtomicU64,
}

/// The parts' posts and notes, two of each per part (one per cell
/// parity), and how threads wait for them.
///
/// Waiting spins a little before yielding (a cell's work is
/// microseconds, so sleeping would dominate); with more threads than
/// cores a spinning thread would keep the one with work from running,
/// so it yields at once then. (Blocking in the operating system's
/// barrier was measured 5 to 7 times slower with 3 and 4 threads on 2
/// cores: waking a thread takes longer than a cell.)
pub(super) struct Board {
    notes: Vec<[Note; 2]>,
    posts: Vec<[UnsafeCell<Post>; 2]>,
    /// Spins before yielding.
    spins: u32,
    /// The seats were handed out ([`Board::seats`] runs once).
    seated: std::sync::atomic::AtomicBool,
}

// SAFETY: the posts are the only state not behind atomics; the
// protocol in the module's documentation, which `Seat` and `Round`
// enforce, keeps every post from being written while anyone else reads
// or writes it, and the note's release/acquire pair orders each write
// before the reads that follow it. A post moves between threads only
// by reference to its contents, and `Post` is `Send` (checked below).
unsafe impl Sync for Board {}
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Post>();
};

impl Board {
    /// A board for `parts` parts (each post with an empty packet list
    /// per part) whose waits spin `spins` times before yielding.
    pub(super) fn new(parts: usize, spins: u32) -> Self {
        let note = || Note {
            cells: AtomicU64::new(0),
            next: AtomicU64::new(0),
            out_min: AtomicU64::new(0),
            events: AtomicU64::new(0),
            last: AtomicU64::new(0),
            flags: AtomicU64::new(0),
        };
        let post = || UnsafeCell::new(Post { out: (0..parts).map(|_| Vec::new()).collect(), ..Post::default() });
        Board {
            notes: (0..parts).map(|_| [note(), note()]).collect(),
            posts: (0..parts).map(|_| [post(), post()]).collect(),
            spins,
            seated: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// One seat per thread, part `i` owned by seat `i mod threads`.
    /// Panics when called twice (two seats would own a part), or when
    /// a seat would own no part (`threads` is 0 or more than the parts).
    pub(super) fn seats(&self, threads: usize) -> Vec<Seat<'_>> {
        let parts = self.notes.len();
        assert!(threads >= 1 && threads <= parts, "{threads} seats for {parts} parts");
        assert!(!self.seated.swap(true, std::sync::atomic::Ordering::Relaxed), "the board's seats were handed out twice");
        (0..threads)
            .map(|t| Seat {
                board: self,
                mine: (0..parts).map(|i| i % threads == t).collect(),
                posted: vec![0; parts],
                cells: 0,
                waited: 0,
                seen: Vec::with_capacity(parts),
            })
            .collect()
    }

    /// Notes that part `part` has written its post of cell `cells`.
    fn publish(&self, part: usize, cells: u64, seen: Seen) {
        let n = &self.notes[part][(cells & 1) as usize];
        n.next.store(seen.next, Ordering::Relaxed);
        n.out_min.store(seen.out_min, Ordering::Relaxed);
        n.events.store(seen.events, Ordering::Relaxed);
        n.last.store(seen.last, Ordering::Relaxed);
        n.flags.store(seen.flags, Ordering::Relaxed);
        n.cells.store(cells, Ordering::Release);
    }

    /// Waits until every part has noted cell `cells`, and reads their
    /// notes into `into` (by part).
    fn wait_all(&self, cells: u64, into: &mut Vec<Seen>) {
        into.clear();
        for pair in &self.notes {
            let n = &pair[(cells & 1) as usize];
            let mut spins = 0u32;
            while n.cells.load(Ordering::Acquire) < cells {
                if spins < self.spins {
                    spin_loop();
                    spins += 1;
                } else {
                    yield_now();
                }
            }
            into.push(Seen {
                next: n.next.load(Ordering::Relaxed),
                out_min: n.out_min.load(Ordering::Relaxed),
                events: n.events.load(Ordering::Relaxed),
                last: n.last.load(Ordering::Relaxed),
                flags: n.flags.load(Ordering::Relaxed),
            });
        }
    }
}

/// One thread's place at the [`Board`]: the parts it owns and where it
/// is in the protocol.
pub(super) struct Seat<'b> {
    board: &'b Board,
    /// The parts it owns.
    mine: Vec<bool>,
    /// The last cell each part was posted in.
    posted: Vec<u64>,
    /// Cells begun.
    cells: u64,
    /// The last cell waited for.
    waited: u64,
    /// The notes read by the last wait.
    seen: Vec<Seen>,
}

impl<'b> Seat<'b> {
    /// Begins the next cell and returns its number. Panics unless the
    /// seat waited for the cell before (step 3).
    pub(super) fn begin(&mut self) -> u64 {
        assert_eq!(self.waited, self.cells, "a cell begun before the last one was waited for");
        self.cells += 1;
        self.cells
    }

    /// Writes part `part`'s post of the current cell with `write`, then
    /// publishes the note `write` returns (step 1). Panics unless the
    /// seat owns the part, has begun a cell and has not posted the part
    /// in it yet.
    pub(super) fn post(&mut self, part: usize, write: impl FnOnce(&mut Post) -> Seen) {
        let cells = self.cells;
        assert!(self.mine[part] && self.waited < cells && self.posted[part] < cells, "part {part} posted out of turn");
        self.posted[part] = cells;
        let post = &self.board.posts[part][(cells & 1) as usize];
        // SAFETY: this seat alone owns the part, so no other thread
        // writes this post; the last reads of this parity were of cell
        // `cells - 2`, and every thread finished them before it noted
        // cell `cells - 1`, which this seat waited for before it began
        // this cell (`begin`); nobody reads this post of this cell
        // before the note published below.
        let seen = post.with_mut(|p| write(unsafe { &mut *p }));
        self.board.publish(part, cells, seen);
    }

    /// Waits until every part has noted the current cell (step 2) and
    /// returns the round of reads of its posts.
    pub(super) fn wait(&mut self) -> Round<'_> {
        self.board.wait_all(self.cells, &mut self.seen);
        self.waited = self.cells;
        Round { board: self.board, cell: self.cells, seen: &self.seen }
    }

    /// Takes over the parts of `other` (a thread that stops and leaves
    /// its parts to this one). Panics unless both seats sit at the same
    /// board and stand at the same cell, waited for.
    pub(super) fn absorb(&mut self, other: Seat<'b>) {
        assert!(std::ptr::eq(self.board, other.board), "a seat of another board");
        assert!(other.cells == self.cells && other.waited == self.cells && self.waited == self.cells, "a seat absorbed mid-cell");
        for (m, o) in self.mine.iter_mut().zip(other.mine) {
            *m |= o;
        }
        for (p, o) in self.posted.iter_mut().zip(other.posted) {
            *p = (*p).max(o);
        }
    }
}

/// The reads of one cell's posts, after every part noted the cell: the
/// seat that waited cannot begin the next cell while a round lives.
pub(super) struct Round<'s> {
    board: &'s Board,
    cell: u64,
    seen: &'s [Seen],
}

impl Round<'_> {
    /// Every part's note of the cell, by part.
    pub(super) fn seen(&self) -> &[Seen] {
        self.seen
    }

    /// Reads part `part`'s post of the cell.
    pub(super) fn read<R>(&self, part: usize, read: impl FnOnce(&Post) -> R) -> R {
        let post = &self.board.posts[part][(self.cell & 1) as usize];
        // SAFETY: every part noted this cell (`Seat::wait`), so the
        // post is written and its write happened before this read
        // (release/acquire on the note); its writer writes it again in
        // cell `cell + 2`, after every part noted `cell + 1`, which the
        // seat borrowed by this round does only after the round ends.
        post.with(|p| read(unsafe { &*p }))
    }
}

/// The model's entries to the raw posts, without a seat's checks: the
/// test that shows loom catches a broken protocol.
#[cfg(all(test, loom))]
impl Board {
    pub(super) fn publish_raw(&self, part: usize, cells: u64, seen: Seen) {
        self.publish(part, cells, seen);
    }

    /// Writes a post with no check.
    ///
    /// # Safety
    /// None: the model that calls it expects loom to report a race.
    pub(super) unsafe fn write_raw(&self, part: usize, cells: u64, write: impl FnOnce(&mut Post)) {
        // SAFETY: none; the model checks that loom reports the race.
        self.posts[part][(cells & 1) as usize].with_mut(|p| write(unsafe { &mut *p }));
    }

    /// Waits for every part's note of cell `cells`, with no seat.
    pub(super) fn wait_raw(&self, cells: u64, into: &mut Vec<Seen>) {
        self.wait_all(cells, into);
    }

    /// Reads a post with no check (after [`Board::wait_raw`]).
    pub(super) fn read_raw<R>(&self, part: usize, cells: u64, read: impl FnOnce(&Post) -> R) -> R {
        // SAFETY: none; the model checks that loom reports the race.
        self.posts[part][(cells & 1) as usize].with(|p| read(unsafe { &*p }))
    }
}

/// The atomics, cell and waits of the [`Board`]: std's, or loom's when
/// built with `--cfg loom` (its model checks the real board).
#[cfg(not(loom))]
mod sync {
    pub(super) use std::hint::spin_loop;
    pub(super) use std::sync::atomic::{AtomicU64, Ordering};
    pub(super) use std::thread::yield_now;

    /// std's `UnsafeCell` with loom's interface (`with`, `with_mut`), so
    /// that the board reads the same with either.
    pub(super) struct UnsafeCell<T>(std::cell::UnsafeCell<T>);

    impl<T> UnsafeCell<T> {
        pub(super) fn new(v: T) -> Self {
            UnsafeCell(std::cell::UnsafeCell::new(v))
        }
        pub(super) fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
            f(self.0.get())
        }
        pub(super) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
            f(self.0.get())
        }
    }
}

/// The atomics, cell and waits of the [`Board`]: loom's.
#[cfg(loom)]
mod sync {
    pub(super) use loom::cell::UnsafeCell;
    pub(super) use loom::hint::spin_loop;
    pub(super) use loom::sync::atomic::{AtomicU64, Ordering};
    pub(super) use loom::thread::yield_now;
}

/// The loom model of the board (`RUSTFLAGS="--cfg loom" cargo test
/// --release -p dcsim-core --lib loom`, run by `scripts/test`): the real
/// [`Board`], [`Seat`] and `Round` on loom's atomics and cell, every
/// interleaving of two threads up to loom's preemption bound.
#[cfg(all(test, loom))]
mod loom_model {
    use super::*;
    use crate::ids::FlowId;
    use crate::parallel::flag;
    use loom::thread;

    /// A board for one model execution (loom's threads want `'static`; a
    /// board is a few hundred bytes).
    fn board(parts: usize) -> &'static Board {
        Box::leak(Box::new(Board::new(parts, 0)))
    }

    /// The two seats of a new two-part board: the first's, the other's.
    fn two_seats() -> (Seat<'static>, Seat<'static>) {
        let mut seats = board(2).seats(2);
        let other = seats.pop().unwrap();
        (seats.pop().unwrap(), other)
    }

    /// Checks that a model explored something (a model that explored
    /// nothing would prove nothing).
    fn explored(runs: usize) {
        println!("loom: {runs} executions");
        assert!(runs > 100, "only {runs} executions");
    }

    /// Runs `f` under loom in every interleaving up to three preemptions;
    /// returns how many executions that took.
    fn model(f: impl Fn() + Sync + Send + 'static) -> usize {
        use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
        use std::sync::Arc;
        let runs = Arc::new(AtomicUsize::new(0));
        let counted = runs.clone();
        let mut b = loom::model::Builder::new();
        b.preemption_bound = Some(3);
        b.check(move || {
            counted.fetch_add(1, Relaxed);
            f();
        });
        runs.load(Relaxed)
    }

    /// One thread's cells `from..=to` on `seat`: post each of its parts
    /// (checking what the post held, two cells ago), wait, read every
    /// part's note and post.
    fn cells(seat: &mut Seat<'static>, mine: &[usize], parts: usize, from: u64, to: u64) {
        for c in from..=to {
            assert_eq!(seat.begin(), c);
            for &part in mine {
                seat.post(part, |p| {
                    let before = p.settled.first().map(|f| f.idx() as u64);
                    assert_eq!(before, (c > 2).then(|| (c - 2) * 10 + part as u64), "a post lost its last write");
                    p.settled.clear();
                    p.settled.push(FlowId((c * 10 + part as u64) as u32));
                    p.busy_ns = c;
                    Seen { events: c, flags: flag::SETTLED, ..Seen::default() }
                });
            }
            let round = seat.wait();
            assert!(round.seen().iter().all(|s| s.events == c && s.flags == flag::SETTLED), "a note of another cell");
            for j in 0..parts {
                assert_eq!(round.read(j, |p| (p.settled[0].idx() as u64, p.busy_ns)), (c * 10 + j as u64, c), "a post of another cell");
            }
        }
    }

    #[test]
    fn loom_model_posts_are_never_read_and_written_at_once() {
        // Two threads, two parts, three cells: the third reuses the first's
        // posts (parity), so a write that came before the other thread's
        // reads were done would race.
        let runs = model(|| {
            let (mut first, mut other) = two_seats();
            let h = thread::spawn(move || cells(&mut other, &[1], 2, 1, 3));
            cells(&mut first, &[0], 2, 1, 3);
            h.join().unwrap();
        });
        explored(runs);
    }

    #[test]
    fn loom_model_a_fold_hands_a_seat_over() {
        // Two cells on two threads, then the first takes the other's part
        // and runs both alone (the fold).
        let runs = model(|| {
            let (mut first, mut other) = two_seats();
            let h = thread::spawn(move || {
                cells(&mut other, &[1], 2, 1, 2);
                other
            });
            cells(&mut first, &[0], 2, 1, 2);
            first.absorb(h.join().unwrap());
            cells(&mut first, &[0, 1], 2, 3, 4);
        });
        explored(runs);
    }

    #[test]
    #[should_panic(expected = "Causality violation")]
    fn loom_model_catches_a_write_that_does_not_wait() {
        // The protocol broken on purpose: the writer writes its post of
        // cell 3 (cell 1's parity) without waiting for cell 2, while the
        // reader may still be reading cell 1. loom must find the race.
        model(|| {
            let board = board(1);
            let writer = thread::spawn(move || {
                // SAFETY: none; the race is the point.
                unsafe { board.write_raw(0, 1, |p| p.busy_ns = 1) };
                board.publish_raw(0, 1, Seen::default());
                unsafe { board.write_raw(0, 3, |p| p.busy_ns = 3) };
            });
            let mut seen = Vec::new();
            board.wait_raw(1, &mut seen);
            board.read_raw(0, 1, |p| p.busy_ns);
            writer.join().unwrap();
        });
    }
}
