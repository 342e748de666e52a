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
use std::sync::Mutex;
use std::time::Instant;

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
    /// Where the threads' time went, when [`Options::stats`] asked.
    pub stats: Option<Stats>,
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
    /// Measured (the default; it needs [`Options::clock`]): every
    /// [`FOLD_WINDOW`] cells the first thread compares the window's wall
    /// time with the time all threads spent simulating in it (what one
    /// thread would have needed); two windows in a row that took more than
    /// [`FOLD_MARGIN`] times that fold the run.
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

/// What a split run is told from outside: the core reads no environment
/// and no clock, so the command line passes these in.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// When to fold onto one thread.
    pub fold: Fold,
    /// The function that reads the wall clock (`Instant::now`): what
    /// [`Fold::Auto`] measures with, and [`Options::stats`] times with
    /// (the core reads no clock itself, it only subtracts the readings).
    /// Without one, `Fold::Auto` never folds and the stats hold no times.
    pub clock: Option<fn() -> Instant>,
    /// Record where each thread's time went ([`Parallel::stats`]).
    pub stats: bool,
}

impl Default for Options {
    /// [`Fold::Auto`], no clock (so no fold), no stats.
    fn default() -> Self {
        Options { fold: Fold::Auto, clock: None, stats: false }
    }
}

/// Where a split run's threads spent their time (asked for with
/// [`Options::stats`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// The cells after which the run folded onto one thread, if it did
    /// ([`Parallel::folded_at`] says when in simulated time).
    pub folded_after: Option<u64>,
    /// The threads that ran to the end, in order (after a fold only the
    /// first one, which ran every part).
    pub threads: Vec<ThreadStats>,
}

/// One thread's share of [`Stats`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadStats {
    /// Each part the thread ran at the end, with the events it processed.
    pub events: Vec<(usize, u64)>,
    /// Cells the thread went through.
    pub cells: u64,
    /// Nanoseconds spent simulating its parts and posting.
    pub busy_ns: u64,
    /// Nanoseconds spent waiting for the other parts' notes.
    pub waiting_ns: u64,
    /// Packets its parts handed over to other parts.
    pub sent: usize,
}

/// Runs `scenario` to the end on up to `threads` threads; the output is
/// the one [`crate::run`] gives, byte for byte. Falls back to one thread
/// (saying why) when the scenario cannot be split. With the default
/// [`Options`] (no clock) it never folds; [`run_with`] passes a clock.
pub fn run(scenario: &Scenario, threads: usize, opts: RunOptions) -> Result<(RunOutput, Parallel), String> {
    run_with(scenario, threads, opts, Options::default())
}

/// [`run`], folding onto one thread as `fold` says.
pub fn run_folding(scenario: &Scenario, threads: usize, opts: RunOptions, fold: Fold) -> Result<(RunOutput, Parallel), String> {
    run_with(scenario, threads, opts, Options { fold, ..Options::default() })
}

/// [`run`] with the [`Options`] the caller passes in.
pub fn run_with(scenario: &Scenario, threads: usize, opts: RunOptions, options: Options) -> Result<(RunOutput, Parallel), String> {
    scenario.validate()?;
    let one = |reason: Option<String>| -> Result<(RunOutput, Parallel), String> {
        Ok((crate::run::run(scenario, opts)?, Parallel { parts: 1, threads: 1, reason, folded_at: None, stats: None }))
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
    let (out, folded_at, stats) = with_simulation(scenario, opts, Split { owner: &owner, parts, threads, options })?;
    Ok((out, Parallel { parts, threads, reason: None, folded_at, stats }))
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

/// What a part publishes at the end of a cell besides its note (`Seen`):
/// the bulk, read by the other threads only where the note says there is
/// some.
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

/// Bits of [`Seen::flags`].
#[forbid(unsafe_code)]
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

/// A part's note of a cell, as published and as read, for the decision
/// after the cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Seen {
    /// Time of its next pending event (`u64::MAX`: none).
    next: u64,
    /// Earliest arrival among the packets it handed over (`u64::MAX`:
    /// none).
    out_min: u64,
    /// Events it counted so far.
    events: u64,
    /// Time of the last event it processed.
    last: u64,
    /// [`flag`] bits.
    flags: u64,
}

/// The [`flag`] bits of a note: the part's window ran to its end
/// (`alive`), the first thread's fold decision rides on it, the lowest
/// arrival time of the packets it handed over (`u64::MAX`: none), and
/// whether it settled flows.
fn flags(alive: bool, fold_now: bool, out_min: u64, settled: bool) -> u64 {
    (if alive { 0 } else { flag::RUNAWAY })
        | if fold_now { flag::FOLD } else { 0 }
        | if out_min != u64::MAX { flag::OUT } else { 0 }
        | if settled { flag::SETTLED } else { 0 }
}

/// The posts and notes the threads share (the only `unsafe` of this
/// module; see its documentation).
#[allow(unsafe_code)]
mod board;
use board::{Board, Seat};

/// The global decision every part takes alike after a cell, from every
/// part's note: the next cell's earliest event time, or why and when the
/// run stops. The order is one thread's (`Simulation::boundary`): nothing
/// left to do, every flow settled, the event limit (or a part that ran
/// away inside the cell), then the time limit.
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

/// The start of the cell holding time `next`: cells are whole multiples
/// of the cell length `cell` from time 0.
fn cell_start(next: u64, cell: u64) -> u64 {
    next / cell * cell
}

/// The end of the cell starting at `start` (exclusive): one cell length
/// on, but no later than just past the time limit `max_time` (ps).
fn cell_end(start: u64, cell: u64, max_time: u64) -> u64 {
    start.saturating_add(cell).min(max_time.saturating_add(1))
}

/// [`Fold::Auto`]'s measuring window, kept by the first thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Window {
    /// Wall clock at the window's start (ns).
    start_ns: u64,
    /// Busy time of all parts at the window's start (ns).
    busy_ns: u64,
    /// Windows in a row that were slow.
    slow: u32,
}

impl Window {
    /// Closes the window at wall clock `now_ns` with `busy_ns` the busy
    /// time of all parts so far, opens the next, and says whether the run
    /// should fold: the window counts as slow when it took more than
    /// [`FOLD_MARGIN`] times what one thread would have needed (the busy
    /// time of every part within it), and two slow windows in a row fold.
    fn close(&mut self, now_ns: u64, busy_ns: u64) -> bool {
        let wall = now_ns.saturating_sub(self.start_ns) as f64;
        let one = busy_ns.saturating_sub(self.busy_ns) as f64;
        self.slow = if wall > FOLD_MARGIN * one { self.slow + 1 } else { 0 };
        *self = Window { start_ns: now_ns, busy_ns, slow: self.slow };
        self.slow >= 2
    }
}

/// The split run, as a [`WithSimulation`]: builds one simulation per part
/// and runs them on threads (part `i` on thread `i mod threads`).
struct Split<'a> {
    owner: &'a [u8],
    parts: usize,
    threads: usize,
    options: Options,
}

/// The parts one thread runs, each with its index.
type Group<P> = Vec<(usize, Simulation<P>)>;

/// Where the other threads leave their parts (and seats) for the first
/// one when the run folds.
type Handed<'b, P> = Mutex<Option<(Group<P>, Seat<'b>)>>;

impl WithSimulation for Split<'_> {
    /// The output, when the run folded onto one thread, and the stats.
    type Out = (RunOutput, Option<SimTime>, Option<Stats>);
    fn with<P: Protocol<Timer: Send> + Send + 'static>(self, make: &(dyn Fn() -> Simulation<P> + Sync), scenario: &Scenario) -> Self::Out {
        let (n, threads) = (self.parts, self.threads.clamp(1, self.parts));
        let mut groups: Vec<Group<P>> = (0..threads).map(|_| Vec::new()).collect();
        for i in 0..n {
            let mut s = make();
            s.set_part(i, self.owner);
            groups[i % threads].push((i, s));
        }
        let first = &groups[0][0].1;
        let (max_events, max_time) = first.limits();
        let fold = if threads > 1 { self.options.fold } else { Fold::Never };
        let plan = Plan {
            parts: n,
            cell: first.cell().ps(),
            max_events,
            max_time,
            total: first.progress().1,
            fold,
            clock: self.options.clock,
            origin: self.options.clock.map(|c| c()),
            measure: fold == Fold::Auto && self.options.clock.is_some(),
            stats: self.options.stats,
        };
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        let board = Board::new(n, if threads <= cores { 1 << 12 } else { 0 });
        let handed: Vec<Handed<P>> = (0..threads).map(|_| Mutex::new(None)).collect();
        let done: Vec<Done> = std::thread::scope(|sc| {
            let handles: Vec<_> = groups
                .into_iter()
                .zip(board.seats(threads))
                .enumerate()
                .map(|(tid, (group, seat))| {
                    let worker = Worker::new(tid, &plan, group, seat, &handed);
                    sc.spawn(move || worker.run())
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a part of the run panicked")).collect()
        });
        let folded = done[0].folded;
        let stats = plan.stats.then(|| Stats { folded_after: folded.map(|f| f.1), threads: done.iter().filter_map(|d| d.stats.clone()).collect() });
        let mut outputs: Vec<(usize, PartOutput)> = done.into_iter().flat_map(|d| d.outputs).collect();
        outputs.sort_by_key(|(i, _)| *i);
        (merge(scenario, outputs.into_iter().map(|(_, o)| o).collect()), folded.map(|f| f.0), stats)
    }
}

/// What every thread of a split run knows alike, fixed for the run.
struct Plan {
    /// Parts.
    parts: usize,
    /// The cell's length (ps).
    cell: u64,
    /// The scenario's event limit.
    max_events: u64,
    /// The scenario's time limit.
    max_time: SimTime,
    /// Flows in the run.
    total: u64,
    /// When to fold ([`Fold::Never`] with one thread).
    fold: Fold,
    /// [`Options::clock`].
    clock: Option<fn() -> Instant>,
    /// Its reading when the run started.
    origin: Option<Instant>,
    /// [`Fold::Auto`] with a clock: the parts' busy time is measured.
    measure: bool,
    /// [`Options::stats`].
    stats: bool,
}

impl Plan {
    /// A reading of the clock, if there is one.
    fn mark(&self) -> Option<Instant> {
        self.clock.map(|c| c())
    }

    /// Nanoseconds from `from` to now.
    fn since(&self, from: Instant) -> u64 {
        self.clock.map_or(0, |c| c().duration_since(from).as_nanos() as u64)
    }

    /// Nanoseconds since the run started (0 without a clock).
    fn now(&self) -> u64 {
        self.origin.map_or(0, |o| self.since(o))
    }
}

/// What a thread leaves when it stops.
struct Done {
    /// Its parts' outputs (none when it handed its parts over).
    outputs: Vec<(usize, PartOutput)>,
    /// When the run folded, and after how many cells (first thread).
    folded: Option<(SimTime, u64)>,
    /// Where its time went ([`Options::stats`]; none when it handed its
    /// parts over).
    stats: Option<ThreadStats>,
}

/// One thread of a split run: its parts, its seat at the board, and what
/// it carries from cell to cell. Each cell is three steps: [`run_cell`]
/// (simulate the cell in each part, post and publish), [`exchange`] (wait
/// for every part, take the packets and settled flows, decide), and
/// [`fold`] when the first thread decided so.
///
/// [`run_cell`]: Worker::run_cell
/// [`exchange`]: Worker::exchange
/// [`fold`]: Worker::fold
struct Worker<'a, 'b, P: Protocol> {
    /// The thread's index (0: the first, which decides when to fold).
    tid: usize,
    plan: &'a Plan,
    group: Group<P>,
    seat: Seat<'b>,
    handed: &'a [Handed<'b, P>],
    /// The run folded: this thread (the first) runs every part and waits
    /// for no one.
    alone: bool,
    /// The first thread decided to fold after the next cell.
    fold_next: bool,
    /// [`Fold::Auto`], first thread: the current measuring window.
    window: Window,
    /// Flows settled in any part so far (by flow id), and how many.
    settled: Vec<bool>,
    settled_all: u64,
    /// The current cell's start (ps).
    start: u64,
    /// Each part's busy time so far ([`Fold::Auto`]).
    busy_ns: Vec<u64>,
    /// Where the time went ([`Options::stats`]).
    stats: ThreadStats,
    /// When the run folded, and after how many cells.
    folded: Option<(SimTime, u64)>,
}

impl<'a, 'b, P: Protocol> Worker<'a, 'b, P> {
    fn new(tid: usize, plan: &'a Plan, group: Group<P>, seat: Seat<'b>, handed: &'a [Handed<'b, P>]) -> Self {
        Worker {
            tid,
            plan,
            group,
            seat,
            handed,
            alone: false,
            fold_next: false,
            window: Window { start_ns: plan.now(), ..Window::default() },
            settled: Vec::new(),
            settled_all: 0,
            start: 0,
            busy_ns: vec![0; plan.parts],
            stats: ThreadStats::default(),
            folded: None,
        }
    }

    /// Runs cells until the run stops (or, when the run folds, until this
    /// thread hands its parts to the first).
    fn run(mut self) -> Done {
        loop {
            let t0 = if self.plan.stats { self.plan.mark() } else { None };
            let end = cell_end(self.start, self.plan.cell, self.plan.max_time.ps());
            let cells = self.run_cell(end);
            let (verdict, folding) = self.exchange(cells, t0);
            if folding && verdict.is_ok() {
                // Every thread read the same decision after the same cell:
                // the others hand their parts to the first thread and stop.
                if self.tid != 0 {
                    *self.handed[self.tid].lock().unwrap() = Some((self.group, self.seat));
                    return Done { outputs: Vec::new(), folded: None, stats: None };
                }
                self.fold(cells);
            }
            match verdict {
                Ok(next) => self.start = cell_start(next, self.plan.cell),
                Err((why, now)) => {
                    for (_, sim) in &mut self.group {
                        sim.stop_part(why, SimTime::from_ps(now));
                    }
                    break;
                }
            }
        }
        let stats = self.plan.stats.then(|| ThreadStats { events: self.group.iter().map(|(i, s)| (*i, s.events_processed())).collect(), ..self.stats });
        Done { outputs: self.group.into_iter().map(|(i, sim)| (i, sim.into_part_output())).collect(), folded: self.folded, stats }
    }

    /// Simulates the next cell, up to `end` (ps), in each of the thread's
    /// parts, and posts what each handed over and settled. Returns the
    /// cell's number.
    fn run_cell(&mut self, end: u64) -> u64 {
        let cells = self.seat.begin();
        let plan = self.plan;
        // Measured only while a fold can still come.
        let measure = plan.measure && !self.alone;
        let fold_next = self.fold_next && !self.alone;
        let (busy_ns, sent) = (&mut self.busy_ns, &mut self.stats.sent);
        for (me, sim) in &mut self.group {
            let p0 = if measure { plan.mark() } else { None };
            let alive = sim.run_window(SimTime::from_ps(end));
            self.seat.post(*me, |post| {
                // Cleared only where there was something (a write to a line
                // the readers hold costs a trip between the cores).
                for o in post.out.iter_mut().filter(|o| !o.is_empty()) {
                    o.clear();
                }
                let out_min = sim.take_outgoing(&mut post.out);
                if !post.settled.is_empty() {
                    post.settled.clear();
                }
                sim.take_new_settled(&mut post.settled);
                if let Some(p0) = p0 {
                    busy_ns[*me] += plan.since(p0);
                    if cells.is_multiple_of(FOLD_WINDOW) {
                        post.busy_ns = busy_ns[*me];
                    }
                }
                if plan.stats {
                    *sent += post.out.iter().map(Vec::len).sum::<usize>();
                }
                // The first thread's decision rides on part 0's note.
                Seen {
                    next: sim.next_event_time().map_or(u64::MAX, |t| t.ps()),
                    out_min,
                    events: sim.events_processed(),
                    last: sim.last_event_time().ps(),
                    flags: flags(alive, *me == 0 && fold_next, out_min, !post.settled.is_empty()),
                }
            });
        }
        cells
    }

    /// Waits for every part's note of cell `cells`, delivers the packets
    /// the other parts handed over to this thread's parts, counts the
    /// flows settled anywhere, and decides: the next cell's earliest event
    /// or why the run stops ([`decide`]), and whether every thread folds
    /// now. On the first thread, also decides whether to fold after the
    /// next cell. `t0`: when the cell began ([`Options::stats`]).
    fn exchange(&mut self, cells: u64, t0: Option<Instant>) -> (Result<u64, (StopReason, u64)>, bool) {
        let plan = self.plan;
        let t1 = if plan.stats { plan.mark() } else { None };
        let round = self.seat.wait();
        if let (Some(t0), Some(t1)) = (t0, t1) {
            self.stats.busy_ns += t1.duration_since(t0).as_nanos() as u64;
            self.stats.waiting_ns += plan.since(t1);
            self.stats.cells += 1;
        }
        let seen = round.seen();
        for (me, sim) in &mut self.group {
            for (j, s) in seen.iter().enumerate() {
                if j != *me && s.flags & flag::OUT != 0 {
                    round.read(j, |post| {
                        for &(at, port, p) in &post.out[*me] {
                            sim.deliver(at, port, p);
                        }
                    });
                }
            }
        }
        for (j, s) in seen.iter().enumerate() {
            if s.flags & flag::SETTLED == 0 {
                continue;
            }
            round.read(j, |post| {
                for f in &post.settled {
                    if self.settled.len() <= f.idx() {
                        self.settled.resize(f.idx() + 1, false);
                    }
                    if !std::mem::replace(&mut self.settled[f.idx()], true) {
                        self.settled_all += 1;
                    }
                }
            });
        }
        let verdict = decide(seen, self.settled_all, plan.total, self.group[0].1.arrivals_done(), plan.max_events, plan.max_time);
        let folding = !self.alone && seen[0].flags & flag::FOLD != 0;
        if self.tid == 0 && !self.alone && !self.fold_next {
            self.fold_next = match plan.fold {
                Fold::Never => false,
                Fold::AfterCells(c) => cells >= c,
                Fold::Auto if plan.measure && cells.is_multiple_of(FOLD_WINDOW) => {
                    // One thread would have needed the busy time of every
                    // part.
                    let all: u64 = (0..plan.parts).map(|j| round.read(j, |post| post.busy_ns)).sum();
                    self.window.close(plan.now(), all)
                }
                Fold::Auto => false,
            };
        }
        (verdict, folding)
    }

    /// The first thread takes over every part after cell `cells` and runs
    /// them alone from then on.
    fn fold(&mut self, cells: u64) {
        for h in &self.handed[1..] {
            loop {
                if let Some((group, seat)) = h.lock().unwrap().take() {
                    self.group.extend(group);
                    self.seat.absorb(seat);
                    break;
                }
                std::thread::yield_now();
            }
        }
        self.alone = true;
        self.folded = Some((SimTime::from_ps(self.start.saturating_add(self.plan.cell)), cells));
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

#[cfg(all(test, not(loom)))]
#[forbid(unsafe_code)]
mod tests;
