//! Time travel: a run with checkpoints, so that going to any simulated
//! time costs at most one checkpoint interval of replay instead of a replay
//! from time zero (issue 16).
//!
//! A checkpoint is a [`Runner::snapshot`], a deep copy of the whole run.
//! Two kinds are kept:
//!
//! * **Coarse** checkpoints on a grid of event counts (one per
//!   `interval` events), taken by the run the page shows as it passes each
//!   grid slot, and by a *scout*, a copy of the run that explores ahead
//!   while the page is idle ([`Timeline::explore`]). Their memory is
//!   measured and bounded: when it exceeds the budget the grid interval
//!   doubles and every other checkpoint goes (the one at time zero stays).
//! * **Fine** checkpoints, a few recent ones (`fine_keep`), taken every
//!   `fine_span` of simulated time while the run is animated and just
//!   before the target of every seek, so that stepping back one event or
//!   one RTT replays microseconds, not a whole interval.
//!
//! A seek to time `t` restores the checkpoint nearest before `t` (or keeps
//! going from the current state when that is nearer), replays with the
//! trace off up to `t - lead_in`, then with the trace on (when animating)
//! up to `t`, so the page has the packets in flight and the recent log at
//! `t`. Replays are deterministic, so a seek lands on exactly the state
//! the uninterrupted run had: the state after every event at or before
//! `t`.

use crate::run::Runner;
use crate::units::SimTime;

/// Settings of a [`Timeline`].
#[derive(Clone, Copy, Debug)]
pub struct TimelineConfig {
    /// Events between coarse checkpoints at first (it doubles whenever the
    /// checkpoints outgrow `budget_bytes`).
    pub interval_events: u64,
    /// Most bytes all checkpoints together may hold.
    pub budget_bytes: usize,
    /// Simulated time between fine checkpoints while animating, and how
    /// far before a seek's target the seek leaves one.
    pub fine_span: SimTime,
    /// Fine checkpoints kept (the oldest goes first).
    pub fine_keep: usize,
    /// A seek replays this last stretch with the trace on (the packets on
    /// the wires and the log at the target need it).
    pub lead_in: SimTime,
}

impl Default for TimelineConfig {
    /// One coarse checkpoint per million events (about 0.1 s of replay in
    /// the browser), 256 MB, a fine checkpoint every 100 us, four kept,
    /// 20 us of traced lead-in (the page shows drops for 20 us).
    fn default() -> Self {
        TimelineConfig { interval_events: 1_000_000, budget_bytes: 256 << 20, fine_span: SimTime::from_us(100), fine_keep: 4, lead_in: SimTime::from_us(20) }
    }
}

/// One saved state.
struct Checkpoint {
    /// Events processed when it was taken (its place on the grid).
    events: u64,
    /// Simulated time when it was taken.
    time: SimTime,
    /// Heap bytes it holds (0 when memory is not measured).
    bytes: usize,
    run: Box<dyn Runner>,
}

/// Heap bytes in use now: the browser binding counts them in its
/// allocator; without a measure every checkpoint counts as 0 bytes.
pub type MemoryMeasure = fn() -> usize;

/// Statistics for the page and the README: how much time travel holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TimelineStats {
    /// Coarse checkpoints kept.
    pub coarse: usize,
    /// Fine checkpoints kept.
    pub fine: usize,
    /// Bytes all checkpoints hold.
    pub bytes: usize,
    /// The budget.
    pub budget_bytes: usize,
    /// Events between coarse checkpoints now.
    pub interval_events: u64,
    /// Simulated picoseconds up to which coarse checkpoints exist (or the
    /// run's end once the scout reached it).
    pub explored_ps: u64,
    /// The scout reached the end of the run.
    pub explored_all: bool,
}

/// A run with checkpoints (see the module documentation).
pub struct Timeline {
    run: Box<dyn Runner>,
    coarse: Vec<Checkpoint>,
    fine: Vec<Checkpoint>,
    scout: Option<Box<dyn Runner>>,
    explored_all: bool,
    /// Where the scout found the run's end.
    end: Option<SimTime>,
    interval: u64,
    cfg: TimelineConfig,
    measure: Option<MemoryMeasure>,
    /// The page wants the trace (it animates).
    trace: bool,
    /// Time of the newest fine checkpoint of the shown run.
    last_fine: SimTime,
}

/// Events per slice of a replay (between checkpoint checks).
const CHUNK: u64 = 1 << 16;

impl Timeline {
    /// A timeline over `run` (at time zero or anywhere), with its state now
    /// as the first checkpoint.
    pub fn new(run: Box<dyn Runner>, cfg: TimelineConfig, measure: Option<MemoryMeasure>) -> Self {
        let mut t = Timeline {
            run,
            coarse: Vec::new(),
            fine: Vec::new(),
            scout: None,
            explored_all: false,
            end: None,
            interval: cfg.interval_events.max(1),
            cfg,
            measure,
            trace: false,
            last_fine: SimTime::ZERO,
        };
        let first = t.checkpoint_of(None);
        t.coarse.push(first);
        t
    }

    /// The run the page shows.
    pub fn run(&self) -> &dyn Runner {
        &*self.run
    }

    /// The run the page shows, to advance it; call [`Timeline::after_advance`]
    /// after advancing.
    pub fn run_mut(&mut self) -> &mut dyn Runner {
        &mut *self.run
    }

    /// Takes the run out (to finish it), leaving a copy in its place so
    /// the timeline can still seek.
    pub fn take_copy(&self) -> Box<dyn Runner> {
        self.run.snapshot()
    }

    /// Sets whether the shown run records its trace (while animating).
    pub fn set_trace(&mut self, on: bool) {
        self.trace = on;
        self.run.set_trace(on);
    }

    fn checkpoint_of(&self, which: Option<&dyn Runner>) -> Checkpoint {
        let r = which.unwrap_or(&*self.run);
        let before = self.measure.map_or(0, |m| m());
        let run = r.snapshot();
        let bytes = self.measure.map_or(0, |m| m().saturating_sub(before));
        Checkpoint { events: r.events(), time: r.now(), bytes, run }
    }

    /// Adds a coarse checkpoint of `which` (the shown run when None) if its
    /// grid slot has none yet.
    fn coarse_checkpoint(&mut self, which: Option<&dyn Runner>) {
        let r = which.unwrap_or(&*self.run);
        let slot = r.events() / self.interval;
        let at = self.coarse.partition_point(|c| c.events <= r.events());
        // The checkpoint before it is in the same slot: nothing to add.
        if at > 0 && self.coarse[at - 1].events / self.interval == slot {
            return;
        }
        if r.next_event_time().is_none() {
            return; // the run is over: nothing to resume
        }
        let c = self.checkpoint_of(Some(r));
        self.coarse.insert(at, c);
        self.enforce_budget();
    }

    fn bytes(&self) -> usize {
        self.coarse.iter().chain(&self.fine).map(|c| c.bytes).sum()
    }

    /// Thins the checkpoints until they fit the budget: fine ones beyond
    /// two first, then every other coarse one (the interval doubles).
    fn enforce_budget(&mut self) {
        while self.bytes() > self.cfg.budget_bytes && self.fine.len() > 2 {
            self.fine.remove(0);
        }
        while self.bytes() > self.cfg.budget_bytes && self.coarse.len() > 1 {
            self.interval *= 2;
            let iv = self.interval;
            let mut last_slot = None;
            self.coarse.retain(|c| {
                let s = c.events / iv;
                let keep = c.events == 0 || last_slot != Some(s);
                last_slot = Some(s);
                keep
            });
            if self.coarse.len() == 1 {
                break;
            }
        }
    }

    /// Adds a fine checkpoint of the shown run.
    fn fine_checkpoint(&mut self) {
        if self.run.next_event_time().is_none() || self.fine.iter().any(|c| c.events == self.run.events()) {
            return;
        }
        let c = self.checkpoint_of(None);
        self.last_fine = c.time;
        self.fine.push(c);
        if self.fine.len() > self.cfg.fine_keep {
            self.fine.remove(0);
        }
        self.enforce_budget();
    }

    /// Call after advancing the shown run: adds the checkpoints it has
    /// earned (a coarse one per new grid slot; a fine one every
    /// `fine_span` while animating).
    pub fn after_advance(&mut self) {
        self.coarse_checkpoint(None);
        if self.trace && self.run.now() >= self.last_fine + self.cfg.fine_span {
            self.fine_checkpoint();
        }
    }

    /// Explores ahead while the page is idle: runs the scout (a copy of
    /// the furthest checkpoint) for at most `max_events` events with the
    /// trace off, leaving coarse checkpoints. Returns true while there is
    /// more to explore.
    pub fn explore(&mut self, max_events: u64) -> bool {
        if self.explored_all {
            return false;
        }
        let mut scout = match self.scout.take() {
            // The shown run went further than the scout: explore from there.
            Some(s) if s.events() >= self.run.events() => s,
            _ => {
                let last = self.coarse.last().expect("the first checkpoint is never dropped");
                let from = if self.run.events() > last.events { &*self.run } else { &*last.run };
                let mut s = from.snapshot();
                s.set_trace(false);
                s
            }
        };
        let mut left = max_events;
        while left > 0 {
            let n = left.min(CHUNK);
            let before = scout.events();
            let alive = scout.run_events(n);
            left = left.saturating_sub((scout.events() - before).max(1));
            if !alive || scout.next_event_time().is_none() {
                self.explored_all = true;
                self.end = Some(scout.now());
                return false;
            }
            self.coarse_checkpoint(Some(&*scout));
        }
        self.scout = Some(scout);
        true
    }

    /// Goes to the state after every event at or before `t`: restores the
    /// nearest checkpoint before `t` (or goes on from the shown run when
    /// that is nearer) and replays. Returns the events replayed.
    pub fn seek(&mut self, t: SimTime) -> u64 {
        // The best starting point: the most advanced state not past `t`,
        // and, when animating, not past `t - lead_in` either, so that the
        // replay records the lead-in's trace (the packets in flight and the
        // recent log at `t`). A step back of one event from a run already
        // at its target otherwise replayed nothing and the page's log came
        // back empty. A checkpoint taken mid-time (a slice ended between
        // two events at the same time) is still before `t` when its time is.
        // Nothing is earlier than the first checkpoint: a what-if branch's
        // run starts at its divergence time, not at zero.
        let first = self.coarse.first().map_or(SimTime::ZERO, |c| c.time).min(t);
        let from = if self.trace { t.saturating_sub(self.cfg.lead_in).max(first) } else { t };
        let best = self.coarse.iter().chain(&self.fine).filter(|c| c.time <= from).max_by_key(|c| c.events);
        let own = self.run.now() <= from && best.is_none_or(|b| self.run.events() >= b.events);
        if !own {
            // Before the first checkpoint (a branch's, seeking to before
            // it diverged) there is nothing: the run lands on its start.
            if let Some(b) = best.or(self.coarse.first()) {
                self.run = b.run.snapshot();
            }
        }
        let start = self.run.events();
        self.run.set_trace(false);
        // Leave a fine checkpoint shortly before the target (step back).
        let fine_at = t.saturating_sub(self.cfg.fine_span);
        if fine_at > self.run.now() {
            self.replay_until(fine_at);
            self.fine_checkpoint();
        }
        self.replay_until(t.saturating_sub(self.cfg.lead_in));
        self.run.set_trace(self.trace);
        self.replay_until(t);
        self.run.events() - start
    }

    /// Runs the shown run to `t` in slices, adding coarse checkpoints.
    fn replay_until(&mut self, t: SimTime) {
        while self.run.run_until_max(t, CHUNK) {
            self.coarse_checkpoint(None);
            match self.run.next_event_time() {
                Some(next) if next <= t => {}
                _ => break,
            }
        }
    }

    /// Changes the memory budget (thinning at once when over it).
    pub fn set_budget(&mut self, bytes: usize) {
        self.cfg.budget_bytes = bytes;
        self.enforce_budget();
    }

    /// What the timeline holds now.
    pub fn stats(&self) -> TimelineStats {
        let explored = self
            .coarse
            .last()
            .map_or(SimTime::ZERO, |c| c.time)
            .max(self.scout.as_ref().map_or(SimTime::ZERO, |s| s.now()))
            .max(self.run.now())
            .max(self.end.unwrap_or(SimTime::ZERO));
        TimelineStats {
            coarse: self.coarse.len(),
            fine: self.fine.len(),
            bytes: self.bytes(),
            budget_bytes: self.cfg.budget_bytes,
            interval_events: self.interval,
            explored_ps: explored.ps(),
            explored_all: self.explored_all,
        }
    }
}
