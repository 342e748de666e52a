//! The event loop: running a simulation in slices (by events, to a time,
//! to the end), dispatching each event, and stopping (only between
//! lookahead cells, so that a split run stops where one thread does).

use super::part::PartSample;
use super::{tie, Event, Simulation};
use crate::ids::{NodeId, PortId};
use crate::metrics::{Sample, StopReason};
use crate::protocol::{Io, Protocol};
use crate::units::SimTime;

impl<P: Protocol> Simulation<P> {
    /// Runs at most `max` events; returns true while the run goes on.
    pub fn run_events(&mut self, max: u64) -> bool {
        for _ in 0..max {
            if !self.step() {
                return false;
            }
        }
        self.stopped.is_none()
    }

    /// Runs until simulated time `t` (events at `t` included) or the end.
    pub fn run_until(&mut self, t: SimTime) -> bool {
        let end = t.ps().saturating_add(1);
        while self.step_before(end, false) {}
        self.stopped.is_none()
    }

    /// Runs until simulated time `t` (events at `t` included), the end, or
    /// `max` events, whichever comes first; true while the run goes on.
    pub fn run_until_max(&mut self, t: SimTime, max: u64) -> bool {
        let end = t.ps().saturating_add(1);
        let mut left = max;
        while left > 0 && self.step_before(end, false) {
            left -= 1;
        }
        self.stopped.is_none()
    }

    /// Runs to the end.
    pub fn run(&mut self) -> StopReason {
        while self.step() {}
        self.stopped.unwrap()
    }

    /// Processes one event; returns false once the run has stopped.
    /// Inlined into the run loops (for speed: one call per event saved).
    #[inline(always)]
    pub fn step(&mut self) -> bool {
        self.step_before(u64::MAX, true)
    }

    /// Processes the next event if it comes before `end` (picoseconds);
    /// false when it does not (nothing changes then, unless the list is
    /// empty and `idle_stops`: the run stops as `Idle`, as [`Self::step`]
    /// does) or the run has stopped. Inlined into the run loops.
    #[inline(always)]
    pub(super) fn step_before(&mut self, end: u64, idle_stops: bool) -> bool {
        if self.events_processed >= self.check_stop_at && self.runaway() {
            return false;
        }
        let Some((t, tie, ev)) = self.events.pop_before(end) else {
            if idle_stops && self.events.is_empty() {
                self.stop(StopReason::Idle);
            }
            return false;
        };
        if t.ps() >= self.next_boundary && self.boundary(t) {
            return false;
        }
        self.now = t;
        self.cur_tie = tie;
        self.events_processed += 1;
        match ev {
            Event::TxDone(port) => self.start_tx(port),
            Event::Arrive(port) => self.arrive(port),
            Event::FlowArrival => self.flow_arrival(),
            Event::Timer(t) => {
                let mut io = io!(self, NodeId(tie::timer_node(tie)));
                self.proto.on_timer(t, &mut io);
                self.apply_actions();
            }
            Event::Fault(i) => {
                let action = self.faults[i as usize].clone();
                self.apply_fault(&action);
            }
            Event::AbortSender(flow) => self.abort_sender(flow),
            Event::AbortReceiver(flow) => self.proto.abort_receiver(flow, NodeId(self.records[flow.idx()].dst)),
            Event::Sample => {
                if let Some(part) = &mut self.part {
                    let arrived = self.records.len() as u64 - self.background_flows;
                    part.samples.push(PartSample { t: self.now, pending: self.pending_bytes, unsent: self.unsent_bytes, settled: part.settled, arrived });
                    // Every part samples; the event counts once.
                    self.events_processed -= (part.index != 0) as u64;
                } else {
                    self.samples.push(Sample {
                        t: self.now,
                        pending_bytes: self.pending_bytes,
                        active_flows: self.records.len() as u64 - self.completed - self.background_flows,
                        unsent_bytes: self.unsent_bytes,
                    });
                }
                self.events.push(self.now + self.cfg.sample_interval, tie::SAMPLE, Event::Sample);
            }
        }
        true
    }

    /// The next event, at `t`, is past the current lookahead cell or past
    /// `max_time`: the run stops if a reason to stop arose in the cell just
    /// ended (every flow done, then the event limit), else if `t` is past
    /// `max_time`; otherwise `t`'s cell begins. True when the run stopped
    /// (the event at `t` is then not processed). Stopping only between
    /// cells is what makes a run split between threads stop at the same
    /// event as one thread (`crate::parallel`).
    #[cold]
    #[inline(never)]
    pub(super) fn boundary(&mut self, t: SimTime) -> bool {
        // A part of a split run leaves stopping to the parts together
        // (`crate::parallel`), which never let it past `max_time`.
        if self.part.is_none() {
            if let Some(why) = self.stop_reason() {
                self.stop(why);
                return true;
            }
        }
        if t > self.cfg.max_time {
            self.now = self.cfg.max_time;
            self.stop(StopReason::TimeLimit);
            return true;
        }
        let cell_end = (t.ps() / self.cell_ps + 1).saturating_mul(self.cell_ps);
        self.next_boundary = cell_end.min(self.cfg.max_time.ps().saturating_add(1));
        false
    }

    /// Why the run stops at the end of the current cell, if it does: every
    /// flow has arrived and settled, or the event limit is reached.
    pub(super) fn stop_reason(&self) -> Option<StopReason> {
        if self.completed == self.total_flows && self.pending_arrival.is_none() {
            Some(StopReason::AllFlowsDone)
        } else if self.events_processed >= self.cfg.max_events {
            Some(StopReason::EventLimit)
        } else {
            None
        }
    }

    /// `events_processed` reached `check_stop_at`: the run has stopped, or
    /// it ran far past the event limit without leaving its cell (stopped
    /// now, with the event limit as the reason). True when stopped.
    #[cold]
    #[inline(never)]
    pub(super) fn runaway(&mut self) -> bool {
        if self.stopped.is_none() {
            self.stop(StopReason::EventLimit);
        }
        true
    }

    /// Stops the run: whatever is still queued or on a wire is counted
    /// in flight.
    pub(super) fn stop(&mut self, why: StopReason) {
        self.stopped = Some(why);
        self.check_stop_at = 0;
        // Whatever is still queued or on a wire is in flight at the end
        // (a part of a split run counts the wires its nodes receive from).
        let remote = self.part.as_ref().map(|p| p.remote_ports.clone()).unwrap_or_default();
        for (i, p) in self.ports.iter().enumerate() {
            self.queues[i].for_each(|id| self.counters.count_in_flight(self.packets.get(id)));
            if remote.contains(&PortId(i as u32)) {
                continue;
            }
            for id in p.wire_iter(&self.wire_overflow[i]) {
                self.counters.count_in_flight(self.packets.get(id));
            }
        }
    }
}
