//! One run on several threads, with the results of one thread, byte for
//! byte (issue 20).
//!
//! The network is cut into parts (`partition`): each rack (an edge switch
//! and its hosts) whole in one part, the other switches shared out, so that
//! the parts carry about equal traffic. Each part is a [`Simulation`] of
//! the whole scenario that simulates only its own nodes: their ports, their
//! protocol state, their events. Every part runs the same flow generator,
//! so each knows every flow; a flow's sender runs where its source host is
//! and its receiver where its destination is (`Protocol::prepare_receiver`).
//!
//! The parts advance together, one lookahead cell at a time: a cell is as
//! long as the least time a packet takes from a port starting to send it to
//! the far node seeing it (`sim::lookahead`: a header's serialization plus
//! the link delay), so nothing a part does in a cell can reach another
//! part within the same cell. At the end of each cell every part hands the
//! packets that left on ports towards other parts' nodes to their owners,
//! and all parts wait for each other (a barrier); the next cell is the one
//! holding the earliest pending event of any part. This is conservative
//! parallel discrete-event simulation with a fixed window (as in the
//! literature's "YAWNS" and window-based synchronization).
//!
//! Why the results are the same as one thread's: events at equal times are
//! ordered by a key that does not depend on the partition (`sim::tie`), each
//! part processes its events in key order, and the events of different
//! parts within a cell touch disjoint state (every protocol hook reads and
//! writes only its own node's state). A run stops only at the end of a cell
//! (`Simulation::boundary`), which both engines decide the same way: every
//! flow settled, then the event limit, then the time limit. The flows'
//! settlements (completion or termination) are merged by key, so a flow
//! settled in two parts (terminated at its sender, completed at its
//! receiver) settles as one thread has it, by whichever came first.
//!
//! Not split (run on one thread, with the reason in [`Parallel::reason`]):
//! the flow-level schedulers, PASE (its arbitrators keep per-flow state
//! that the source, the destination and the switches all touch), traces,
//! faults and what-if branches (a fault changes every part's routes at
//! once), closed-loop workloads (a completion starts the next request's
//! flows at other hosts at the same instant), random spraying (one random
//! stream for every switch), Fastpass (split, its runs gave the same
//! bytes but were no faster: the arbiter's timeslots leave few events in a
//! cell; with clock skew each host's offset is also drawn from one stream
//! when it first needs it), and networks with only one rack.
//!
//! This is the one module of the crate that starts threads; the browser's
//! build leaves it out.

use crate::ids::{FlowId, NodeId};
use crate::metrics::{Counters, FlowRecord, Sample};
use crate::net::Network;
use crate::protocol::Protocol;
use crate::run::{summarize, with_simulation, RunOptions, RunOutput, WithSimulation};
use crate::scenario::{LoadBalancing, Scenario};
use crate::sim::{Outgoing, PartOutput, Settlement, Simulation, StopReason};
use crate::units::SimTime;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// How a run was carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parallel {
    /// Parts the network was split into (the threads asked for; 1: not
    /// split).
    pub parts: usize,
    /// Threads the parts ran on: at most one per core (a thread runs
    /// several parts in turn when there are more parts than cores).
    pub threads: usize,
    /// Why the run was not split when more threads were asked for.
    pub reason: Option<String>,
    /// When the split run went on with one thread running every part
    /// (see [`Fold`]), if it did.
    pub folded_at: Option<SimTime>,
}

/// When a split run folds onto one thread: one thread runs every part in
/// turn from then on, for the rest of the run (the results are the same
/// bytes either way).
///
/// A split run pays for keeping the threads in step once per cell; when
/// cells hold few events (a sparse stretch: the long tail of a few big
/// flows) or the threads do not run at the same time (another busy process
/// on the machine), that costs more than the parallel work gains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// Measured (the default): every [`FOLD_WINDOW`] cells the first
    /// thread compares the window's wall time with the time all threads
    /// spent simulating in it (what one thread would have needed); two
    /// windows in a row that took more than [`FOLD_MARGIN`] times that
    /// fold the run.
    Auto,
    /// Never fold.
    Never,
    /// Fold after this many cells (tests: a fold changes nothing in the
    /// results).
    AfterCells(u64),
}

/// Cells per measuring window of [`Fold::Auto`] (on the default fabric
/// 65,536 cells are at least 13.6 ms of simulated time: a run's start,
/// before its network fills, is within the first window).
pub const FOLD_WINDOW: u64 = 1 << 16;

/// How much slower than one thread a window of [`Fold::Auto`] must have
/// been to count towards folding (the cost of handing packets over is
/// left in both sides of the comparison).
pub const FOLD_MARGIN: f64 = 1.1;

/// Runs `scenario` to the end on up to `threads` threads; the output is
/// the one [`crate::run`] gives, byte for byte. Falls back to one thread
/// (saying why) when the scenario cannot be split. Folds onto one thread
/// when splitting stops paying ([`Fold::Auto`]; the environment variable
/// `DCSIM_PARALLEL_NOFOLD` set: [`Fold::Never`], to measure the split
/// alone).
pub fn run(scenario: &Scenario, threads: usize, opts: RunOptions) -> Result<(RunOutput, Parallel), String> {
    let fold = if std::env::var_os("DCSIM_PARALLEL_NOFOLD").is_some() { Fold::Never } else { Fold::Auto };
    run_folding(scenario, threads, opts, fold)
}

/// [`run`], folding onto one thread as `fold` says.
pub fn run_folding(scenario: &Scenario, threads: usize, opts: RunOptions, fold: Fold) -> Result<(RunOutput, Parallel), String> {
    scenario.validate()?;
    let one = |reason: Option<String>| -> Result<(RunOutput, Parallel), String> {
        Ok((crate::run::run(scenario, opts)?, Parallel { parts: 1, threads: 1, reason, folded_at: None }))
    };
    if threads <= 1 {
        return one(None);
    }
    if let Some(why) = unsplittable(scenario, opts) {
        return one(Some(why));
    }
    let net = crate::net::topology::build(&scenario.topology);
    let Some(owner) = partition(&net, threads) else {
        return one(Some("the network has fewer racks than threads".into()));
    };
    let parts = owner.iter().map(|&o| o as usize).max().unwrap_or(0) + 1;
    // More parts than cores: a thread runs several parts in turn (the
    // results do not depend on it).
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let threads = parts.min(cores);
    let (out, folded_at) = with_simulation(scenario, opts, Split { owner: &owner, parts, threads, fold })?;
    Ok((out, Parallel { parts, threads, reason: None, folded_at }))
}

/// Why `scenario` runs on one thread whatever is asked (see the module's
/// documentation), if it does.
pub fn unsplittable(s: &Scenario, opts: RunOptions) -> Option<String> {
    let why = if let Some(why) = s.protocol.unsplittable(&s.params) {
        why
    } else if opts.trace {
        "a trace is recorded in one stream"
    } else if !s.faults.is_empty() || s.branch.is_some() {
        "faults and what-if branches change every part's routes at once"
    } else if s.workload.is_closed_loop() {
        "a closed-loop workload starts flows the moment others finish"
    } else if s.load_balancing == LoadBalancing::SprayRandom {
        "random spraying draws every switch's choice from one stream"
    } else {
        return None;
    };
    Some(why.into())
}

/// Assigns each node to one of at most `parts` parts: each edge switch
/// with its hosts as one group, every other switch a group of its own;
/// groups in decreasing weight (the link capacity arriving at their nodes,
/// a measure of the events they will see) go to the lightest part so far.
/// `None` when there are fewer groups than two, or a part would be empty.
pub fn partition(net: &Network, parts: usize) -> Option<Vec<u8>> {
    let parts = parts.min(u8::MAX as usize);
    let n = net.nodes.len();
    let mut inbound = vec![0u64; n];
    for p in &net.ports {
        inbound[p.peer.idx()] += p.rate.bps() / 1_000_000;
    }
    // A host's group is its edge switch's.
    let mut group: Vec<usize> = (0..n).collect();
    for (h, g) in group.iter_mut().enumerate().take(net.n_hosts as usize) {
        *g = net.ports[net.nic(NodeId(h as u32)).idx()].peer.idx();
    }
    let mut weight = vec![0u64; n];
    for v in 0..n {
        weight[group[v]] += inbound[v];
    }
    let mut groups: Vec<usize> = (net.n_hosts as usize..n).collect();
    if groups.len() < 2 {
        return None;
    }
    groups.sort_by_key(|&g| (std::cmp::Reverse(weight[g]), g));
    let mut load = vec![0u64; parts.min(groups.len())];
    let mut part_of = vec![0u8; n];
    for &g in &groups {
        let k = (0..load.len()).min_by_key(|&k| (load[k], k)).unwrap();
        load[k] += weight[g];
        part_of[g] = k as u8;
    }
    if load.len() < 2 {
        return None;
    }
    Some((0..n).map(|v| part_of[group[v]]).collect())
}

/// What a part publishes at the end of a cell besides its [`Note`]: the
/// bulk, read by the other threads only where the note says there is some.
#[derive(Default)]
struct Post {
    /// Packets for each part (its own entry stays empty).
    out: Vec<Outgoing>,
    /// Flows settled in the cell.
    settled: Vec<FlowId>,
    /// Nanoseconds its thread spent simulating it so far (measured only
    /// under [`Fold::Auto`]; read once per [`FOLD_WINDOW`] cells).
    busy_ns: u64,
}

/// One part's post for one cell parity, shared between the threads
/// without a lock: the notes' cell counts order every access (see
/// `Split::with`).
struct PostCell(UnsafeCell<Post>);

// SAFETY: a `PostCell` is written only by the thread that runs its part,
// and only while no thread reads it: a post of parity `p` is written in
// cells c and c + 2 and read by the other threads between their waits of
// cells c and c + 1 (`Notes::wait_all`); the writer's wait of cell c + 1
// returns only once every part has noted cell c + 1, which each thread
// does after it finished reading the posts of cell c. `Post` itself is
// `Send`.
unsafe impl Sync for PostCell {}

/// What every thread reads of a part after every cell, in one cache line
/// with the count of cells the part has posted: a thread waiting for the
/// part spins on this line, and once the count comes the rest of the note
/// is already in its cache. (Before, the count had a line of its own and
/// the note's fields were spread over the post and the vectors' headers:
/// four to six lines crossed between the cores every cell, where now one
/// does, plus the packets when there are some. Sparse runs, with a few
/// events a cell, spent most of their time there.)
///
/// The fields other than `cells` are written (relaxed) before `cells`
/// (release) and read (relaxed) after it (acquire).
#[repr(C, align(128))]
struct Note {
    /// Cells posted (the part's epoch).
    cells: AtomicU64,
    /// Time of its next pending event (`u64::MAX`: none).
    next: AtomicU64,
    /// Earliest arrival among the packets it handed over (`u64::MAX`:
    /// none).
    out_min: AtomicU64,
    /// Events it counted so far.
    events: AtomicU64,
    /// Time of the last event it processed.
    last: AtomicU64,
    /// [`flag`] bits.
    flags: AtomicU64,
}

/// Bits of [`Note::flags`].
mod flag {
    /// It ran far past the event limit inside the cell.
    pub const RUNAWAY: u64 = 1;
    /// The first thread's decision, read by every thread after this cell:
    /// fold now (only part 0's note says it).
    pub const FOLD: u64 = 2;
    /// Its post holds packets for other parts.
    pub const OUT: u64 = 4;
    /// Its post holds settled flows.
    pub const SETTLED: u64 = 8;
}

/// A note as read, for the decision after a cell.
#[derive(Clone, Copy)]
struct Seen {
    next: u64,
    out_min: u64,
    events: u64,
    last: u64,
    flags: u64,
}

/// The parts' notes, two per part (one per cell parity), and how threads
/// wait for them.
///
/// Waiting spins a little before yielding (a cell's work is microseconds,
/// so sleeping would dominate); with more threads than cores a spinning
/// thread would keep the one with work from running, so it yields at once
/// then. (Blocking in the operating system's barrier was measured 5 to 7
/// times slower with 3 and 4 threads on 2 cores: waking a thread takes
/// longer than a cell.)
struct Notes {
    notes: Vec<[Note; 2]>,
    /// Spins before yielding.
    spins: u32,
}

impl Notes {
    fn new(parts: usize, threads: usize) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        let zero = || Note {
            cells: AtomicU64::new(0),
            next: AtomicU64::new(0),
            out_min: AtomicU64::new(0),
            events: AtomicU64::new(0),
            last: AtomicU64::new(0),
            flags: AtomicU64::new(0),
        };
        Notes { notes: (0..parts).map(|_| [zero(), zero()]).collect(), spins: if threads <= cores { 1 << 12 } else { 0 } }
    }

    /// Part `part` has written its post of cell number `cells` (the first
    /// cell is number 1; a cell's post and note are those of its number's
    /// parity) and notes it.
    fn publish(&self, part: usize, cells: u64, seen: Seen) {
        let n = &self.notes[part][(cells & 1) as usize];
        n.next.store(seen.next, Ordering::Relaxed);
        n.out_min.store(seen.out_min, Ordering::Relaxed);
        n.events.store(seen.events, Ordering::Relaxed);
        n.last.store(seen.last, Ordering::Relaxed);
        n.flags.store(seen.flags, Ordering::Relaxed);
        n.cells.store(cells, Ordering::Release);
    }

    /// Waits until every part has noted cell number `cells`, and reads
    /// their notes into `into` (by part).
    fn wait_all(&self, cells: u64, into: &mut Vec<Seen>) {
        into.clear();
        for pair in &self.notes {
            let n = &pair[(cells & 1) as usize];
            let mut spins = 0u32;
            while n.cells.load(Ordering::Acquire) < cells {
                if spins < self.spins {
                    std::hint::spin_loop();
                    spins += 1;
                } else {
                    std::thread::yield_now();
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

/// The global decision every part takes alike after a cell.
fn decide(notes: &[Seen], settled_all: u64, total: u64, arrivals_done: bool, max_events: u64, max_time: SimTime) -> Result<u64, (StopReason, u64)> {
    let next = notes.iter().map(|p| p.next.min(p.out_min)).min().unwrap_or(u64::MAX);
    let last = notes.iter().map(|p| p.last).max().unwrap_or(0);
    let events: u64 = notes.iter().map(|p| p.events).sum();
    if next == u64::MAX {
        return Err((StopReason::Idle, last));
    }
    if settled_all == total && arrivals_done {
        return Err((StopReason::AllFlowsDone, last));
    }
    if events >= max_events || notes.iter().any(|p| p.flags & flag::RUNAWAY != 0) {
        return Err((StopReason::EventLimit, last));
    }
    if next > max_time.ps() {
        return Err((StopReason::TimeLimit, max_time.ps()));
    }
    Ok(next)
}

/// The split run, as a [`WithSimulation`]: builds one simulation per part
/// and runs them on threads (part `i` on thread `i mod threads`).
struct Split<'a> {
    owner: &'a [u8],
    parts: usize,
    threads: usize,
    fold: Fold,
}

/// The parts one thread runs, each with its index.
type Group<P> = Vec<(usize, Simulation<P>)>;

impl WithSimulation for Split<'_> {
    /// The output, and when the run folded onto one thread.
    type Out = (RunOutput, Option<SimTime>);
    fn with<P: Protocol<Timer: Send> + Send + 'static>(self, make: &(dyn Fn() -> Simulation<P> + Sync), scenario: &Scenario) -> Self::Out {
        let (n, threads) = (self.parts, self.threads.clamp(1, self.parts));
        let mut groups: Vec<Group<P>> = (0..threads).map(|_| Vec::new()).collect();
        for i in 0..n {
            let mut s = make();
            s.set_part(i, self.owner);
            groups[i % threads].push((i, s));
        }
        let first = &groups[0][0].1;
        let cell = first.cell().ps();
        let (max_events, max_time) = first.limits();
        let total = first.progress().1;
        let notes = Notes::new(n, threads);
        let posts: Vec<[PostCell; 2]> = (0..n)
            .map(|_| {
                let post = || PostCell(UnsafeCell::new(Post { out: (0..n).map(|_| Vec::new()).collect(), ..Post::default() }));
                [post(), post()]
            })
            .collect();
        // Where the other threads leave their parts for the first one when
        // the run folds.
        let handed: Vec<Mutex<Option<Group<P>>>> = (0..threads).map(|_| Mutex::new(None)).collect();
        let fold = if threads > 1 { self.fold } else { Fold::Never };
        let measure = fold == Fold::Auto;
        let folded_at: Mutex<Option<SimTime>> = Mutex::new(None);
        let mut outputs: Vec<(usize, PartOutput)> = std::thread::scope(|sc| {
            let handles: Vec<_> = groups
                .into_iter()
                .enumerate()
                .map(|(tid, mut group)| {
                    let (notes, posts, handed, folded_at) = (&notes, &posts, &handed, &folded_at);
                    sc.spawn(move || {
                        // The run folded: this thread (the first) runs
                        // every part and waits for no one.
                        let mut alone = false;
                        // Fold::Auto, first thread: the current window's
                        // start (wall clock, busy time of all parts) and
                        // how many windows in a row were slow.
                        let mut window = (std::time::Instant::now(), 0u64);
                        let mut slow_windows = 0u32;
                        // Flows settled in any part so far (by flow id).
                        let mut settled: Vec<bool> = Vec::new();
                        let mut settled_all = 0u64;
                        let mut start = 0u64;
                        // Cells whose posts this thread has written; the
                        // parity of a cell's posts is its number's.
                        let mut cells_done = 0u64;
                        let mut seen: Vec<Seen> = Vec::with_capacity(n);
                        // Each part's busy time so far (Fold::Auto).
                        let mut busy_ns = vec![0u64; n];
                        // The first thread decided to fold after the next cell.
                        let mut fold_next = false;
                        // DCSIM_PARALLEL_STATS: where each thread's time went.
                        let stats = std::env::var_os("DCSIM_PARALLEL_STATS").is_some();
                        let (mut busy, mut waiting, mut cells, mut sent) = (std::time::Duration::ZERO, std::time::Duration::ZERO, 0u64, 0usize);
                        loop {
                            let end = start.saturating_add(cell).min(max_time.ps().saturating_add(1));
                            let t0 = stats.then(std::time::Instant::now);
                            cells_done += 1;
                            let parity = (cells_done & 1) as usize;
                            for (me, sim) in &mut group {
                                // Measured only while a fold can still come.
                                let p0 = (measure && !alone).then(std::time::Instant::now);
                                let alive = sim.run_window(SimTime::from_ps(end));
                                // SAFETY: this thread alone writes its parts'
                                // posts, and every thread finished reading
                                // this parity's posts (two cells ago) before
                                // it noted the last cell (`PostCell`).
                                let post = unsafe { &mut *posts[*me][parity].0.get() };
                                // Cleared only where there was something
                                // (a write to a line the readers hold costs
                                // a trip between the cores).
                                for o in post.out.iter_mut().filter(|o| !o.is_empty()) {
                                    o.clear();
                                }
                                let out_min = sim.take_outgoing(&mut post.out);
                                if !post.settled.is_empty() {
                                    post.settled.clear();
                                }
                                sim.take_new_settled(&mut post.settled);
                                // The first thread's decision rides on part 0's note.
                                let fold_now = *me == 0 && fold_next && !alone;
                                if let Some(p0) = p0 {
                                    busy_ns[*me] += p0.elapsed().as_nanos() as u64;
                                    if cells_done.is_multiple_of(FOLD_WINDOW) {
                                        post.busy_ns = busy_ns[*me];
                                    }
                                }
                                let flags = if !alive { flag::RUNAWAY } else { 0 }
                                    | if fold_now { flag::FOLD } else { 0 }
                                    | if out_min != u64::MAX { flag::OUT } else { 0 }
                                    | if post.settled.is_empty() { 0 } else { flag::SETTLED };
                                let note = Seen {
                                    next: sim.next_event_time().map_or(u64::MAX, |t| t.ps()),
                                    out_min,
                                    events: sim.events_processed(),
                                    last: sim.last_event_time().ps(),
                                    flags,
                                };
                                if stats {
                                    sent += post.out.iter().map(Vec::len).sum::<usize>();
                                }
                                notes.publish(*me, cells_done, note);
                            }
                            let t1 = stats.then(std::time::Instant::now);
                            notes.wait_all(cells_done, &mut seen);
                            if let (Some(t0), Some(t1)) = (t0, t1) {
                                busy += t1 - t0;
                                waiting += t1.elapsed();
                                cells += 1;
                            }
                            // SAFETY: every part has noted this cell, so
                            // its post is written, and none writes this
                            // parity again before this thread notes the
                            // next cell (`PostCell`).
                            let post = |j: usize| unsafe { &*posts[j][parity].0.get() };
                            for (me, sim) in &mut group {
                                for (j, s) in seen.iter().enumerate() {
                                    if j != *me && s.flags & flag::OUT != 0 {
                                        for &(at, port, p) in &post(j).out[*me] {
                                            sim.deliver(at, port, p);
                                        }
                                    }
                                }
                            }
                            for (j, s) in seen.iter().enumerate() {
                                if s.flags & flag::SETTLED == 0 {
                                    continue;
                                }
                                for f in &post(j).settled {
                                    if settled.len() <= f.idx() {
                                        settled.resize(f.idx() + 1, false);
                                    }
                                    if !std::mem::replace(&mut settled[f.idx()], true) {
                                        settled_all += 1;
                                    }
                                }
                            }
                            let verdict = decide(&seen, settled_all, total, group[0].1.arrivals_done(), max_events, max_time);
                            let folding = !alone && seen[0].flags & flag::FOLD != 0;
                            if tid == 0 && !alone && !fold_next {
                                fold_next = match fold {
                                    Fold::Never => false,
                                    Fold::AfterCells(c) => cells_done >= c,
                                    Fold::Auto if cells_done.is_multiple_of(FOLD_WINDOW) => {
                                        // One thread would have needed the
                                        // busy time of every part.
                                        let all: u64 = (0..n).map(|j| post(j).busy_ns).sum();
                                        let wall = window.0.elapsed().as_nanos() as f64;
                                        let one = (all - window.1) as f64;
                                        slow_windows = if wall > FOLD_MARGIN * one { slow_windows + 1 } else { 0 };
                                        window = (std::time::Instant::now(), all);
                                        slow_windows >= 2
                                    }
                                    Fold::Auto => false,
                                };
                            }
                            if folding && verdict.is_ok() {
                                // Every thread read the same decision after
                                // the same cell: the others hand their parts
                                // to the first thread and stop.
                                if tid != 0 {
                                    *handed[tid].lock().unwrap() = Some(std::mem::take(&mut group));
                                    return Vec::new();
                                }
                                for h in &handed[1..] {
                                    loop {
                                        if let Some(g) = h.lock().unwrap().take() {
                                            group.extend(g);
                                            break;
                                        }
                                        std::thread::yield_now();
                                    }
                                }
                                alone = true;
                                let at = SimTime::from_ps(start.saturating_add(cell));
                                *folded_at.lock().unwrap() = Some(at);
                                if stats {
                                    eprintln!("parallel: folded onto one thread after {cells_done} cells, at {} us", at.ps() as f64 / 1e6);
                                }
                            }
                            match verdict {
                                Ok(next) => start = next / cell * cell,
                                Err((why, now)) => {
                                    for (_, sim) in &mut group {
                                        sim.stop_part(why, SimTime::from_ps(now));
                                    }
                                    if stats {
                                        let parts: Vec<String> = group.iter().map(|(i, s)| format!("part {i}: {} events", s.events_processed())).collect();
                                        eprintln!(
                                            "parallel: {}; {cells} cells, busy {:.3} s, waiting {:.3} s, {sent} packets handed over",
                                            parts.join(", "),
                                            busy.as_secs_f64(),
                                            waiting.as_secs_f64()
                                        );
                                    }
                                    break;
                                }
                            }
                        }
                        group.into_iter().map(|(i, sim)| (i, sim.into_part_output())).collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().expect("a part of the run panicked")).collect()
        });
        outputs.sort_by_key(|(i, _)| *i);
        (merge(scenario, outputs.into_iter().map(|(_, o)| o).collect()), folded_at.into_inner().unwrap())
    }
}

/// Joins the parts' outputs into the output one thread gives.
fn merge(scenario: &Scenario, parts: Vec<PartOutput>) -> RunOutput {
    let mut records: Vec<FlowRecord> = parts[0].records.clone();
    for r in &mut records {
        r.end = None;
        r.terminated = false;
    }
    // Settlements in key order; a flow's first is the one that counts.
    let mut all: Vec<(usize, Settlement)> = parts.iter().enumerate().flat_map(|(i, p)| p.settlements.iter().map(move |s| (i, *s))).collect();
    all.sort_by_key(|(_, s)| (s.t, s.tie, s.seq));
    let mut first = vec![false; records.len()];
    // Later settlements of a flow already settled: their parts counted the
    // flow as settled too early in their samples (time, bytes, part).
    let mut extra: Vec<(SimTime, u64)> = Vec::new();
    for (_, s) in &all {
        let f = s.flow.idx();
        if std::mem::replace(&mut first[f], true) {
            extra.push((s.t, records[f].size));
            continue;
        }
        if s.done {
            records[f].end = Some(s.t);
        } else {
            records[f].terminated = true;
        }
    }
    let mut counters = Counters::new();
    for p in &parts {
        counters.add(&p.counters);
    }
    // Samples: every part took one at the same times; pending bytes add up
    // (each part added the flows whose source it simulates and took off
    // those it settled), flows settled add up, corrected for the flows
    // settled twice.
    let mut samples = Vec::with_capacity(parts[0].samples.len());
    for k in 0..parts[0].samples.len() {
        let t = parts[0].samples[k].t;
        let mut pending = 0u64;
        let mut unsent = 0u64;
        let mut settled = 0u64;
        for p in &parts {
            pending = pending.wrapping_add(p.samples[k].pending);
            unsent = unsent.wrapping_add(p.samples[k].unsent);
            settled += p.samples[k].settled;
        }
        for &(at, size) in &extra {
            if at <= t {
                pending = pending.wrapping_add(size);
                settled -= 1;
            }
        }
        samples.push(Sample { t, pending_bytes: pending, active_flows: parts[0].samples[k].arrived - settled, unsent_bytes: unsent });
    }
    let stop = parts[0].stop;
    let end = parts.iter().map(|p| p.now).max().unwrap_or(SimTime::ZERO);
    let events = parts.iter().map(|p| p.events).sum();
    let summary = summarize(scenario, parts[0].name, &records, &counters, &samples, stop, end, events);
    RunOutput::new(summary, records, counters, samples, stop)
}
