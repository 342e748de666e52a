//! Flows and settlement: arrivals from the generator, the actions a
//! protocol asks for (packets, timers, a flow done or given up), a flow
//! settling (counted, its bytes no longer pending, the next request of a
//! closed loop), deadline aborts, and the bytes not yet sent once.

use super::part::Settlement;
use super::{tie, Event, Simulation};
use crate::ids::{FlowId, NodeId};
use crate::metrics::FlowRecord;
use crate::protocol::{Action, Io, Protocol};
use crate::trace::TraceKind;
use crate::units::MSS;

impl<P: Protocol> Simulation<P> {
    /// Draws the next flow from the generator, if none is waiting, and
    /// schedules its arrival (once).
    pub(super) fn schedule_next_arrival(&mut self) {
        if self.pending_arrival.is_none() {
            self.pending_arrival = self.generator.next_flow(&self.net);
        }
        if let (Some(f), false) = (&self.pending_arrival, self.arrival_scheduled) {
            self.events.push(f.arrival.max(self.now), tie::FLOW | f.id.0 as u64, Event::FlowArrival);
            self.arrival_scheduled = true;
        }
    }

    /// The waiting flow arrives: recorded, its deadline aborts scheduled,
    /// handed to the protocol at its source (and receiver, in a split run).
    pub(super) fn flow_arrival(&mut self) {
        self.arrival_scheduled = false;
        let f = self.pending_arrival.take().expect("an arrival was scheduled");
        debug_assert_eq!(f.id.idx(), self.records.len());
        // Every part of a split run knows every flow; the sender runs where
        // the source is, the receiver where the destination is.
        let (at_src, at_dst) = match &self.part {
            None => (true, true),
            Some(part) => (part.owns(f.src), part.owns(f.dst)),
        };
        if f.background {
            self.background_flows += 1;
        } else if at_src {
            self.pending_bytes = self.pending_bytes.wrapping_add(f.size);
            self.unsent_bytes = self.unsent_bytes.wrapping_add(f.size);
        }
        self.records.push(FlowRecord::new(&f));
        self.first_unsent.push(0);
        if self.cfg.audit {
            self.audit.push(vec![0; (crate::units::packets_for(f.size) as usize).div_ceil(64)]);
            self.audit_bytes.push(0);
        }
        if self.trace.enabled {
            self.trace.push(self.now, TraceKind::FlowStart { flow: f.id });
        }
        if at_dst {
            self.proto.prepare_receiver(&f);
        }
        if let (true, Some(d), false) = (self.abort_at_deadline, f.deadline, f.background) {
            // Each end gives the flow up at its deadline, where it runs.
            let at = f.arrival + d;
            if at_src {
                self.events.push(at, tie::ABORT | (f.id.0 as u64) << 1, Event::AbortSender(f.id));
            }
            if at_dst {
                self.events.push(at, tie::ABORT | (f.id.0 as u64) << 1 | 1, Event::AbortReceiver(f.id));
            }
        }
        if at_src {
            let mut io = io!(self, f.src);
            self.proto.on_flow_arrival(&f, &mut io);
            self.apply_actions();
        } else {
            // Counted once, where the source is.
            self.events_processed -= 1;
        }
        self.schedule_next_arrival();
    }

    /// Carries out the actions the protocol asked for, in order. The check
    /// for none is inlined into the callers (for speed: about a third of
    /// the protocol's calls ask for nothing).
    #[inline(always)]
    pub(super) fn apply_actions(&mut self) {
        if !self.actions.is_empty() {
            self.apply_pending_actions();
        }
    }

    /// Carries out a non-empty list of actions (see `apply_actions`).
    #[inline(never)]
    pub(super) fn apply_pending_actions(&mut self) {
        // The common case, one packet out (an ACK, a new data packet).
        if let [Action::Send(p)] = self.actions[..] {
            self.actions.clear();
            self.inject(p);
            return;
        }
        if P::HAS_PORT_LOGIC {
            // Switch logic at the port a packet enters may ask for more
            // actions, which `enqueue` carries out at once (a nested call):
            // take this batch out of the way first.
            while !self.actions.is_empty() {
                let mut batch = std::mem::take(&mut self.actions);
                for a in batch.drain(..) {
                    self.apply(a);
                }
                if self.actions.is_empty() {
                    self.actions = batch;
                }
            }
        } else {
            // No action adds actions: walk the list in place.
            let mut i = 0;
            while let Some(&a) = self.actions.get(i) {
                i += 1;
                self.apply(a);
            }
            self.actions.clear();
        }
    }

    /// Carries out one action.
    #[inline(always)]
    pub(super) fn apply(&mut self, a: Action<P::Timer>) {
        match a {
            Action::Send(p) => self.inject(p),
            Action::Timer(at, node, t) => {
                let n = &mut self.timers_set[node.idx()];
                let tie = tie::TIMER | (node.0 as u64) << tie::NODE_SHIFT | *n;
                *n += 1;
                self.events.push(at, tie, Event::Timer(t));
            }
            Action::FlowDone(flow) => self.flow_done(flow),
            Action::FlowTerminated(flow) => self.flow_terminated(flow),
        }
    }

    /// The receiver holds every byte of `flow`: its FCT ends now (once).
    pub(super) fn flow_done(&mut self, flow: FlowId) {
        let r = &mut self.records[flow.idx()];
        if r.end.is_some() || r.terminated {
            return;
        }
        r.end = Some(self.now);
        if self.cfg.audit {
            assert_eq!(
                self.audit_bytes[flow.idx()],
                r.size,
                "audit: flow {} completed with {} distinct payload bytes of {}",
                flow.0,
                self.audit_bytes[flow.idx()],
                r.size
            );
        }
        if self.trace.enabled {
            self.trace.push(self.now, TraceKind::FlowFinish { flow });
        }
        self.settle(flow, true);
    }

    /// The protocol gave `flow` up: it settles without an end time.
    pub(super) fn flow_terminated(&mut self, flow: FlowId) {
        let r = &mut self.records[flow.idx()];
        if r.end.is_some() || r.terminated {
            return;
        }
        r.terminated = true;
        // What its source never sent will not be sent: no longer unsent.
        // (Flows are given up at their sources, where the count is kept.)
        let (src, size, background) = (NodeId(r.src), r.size, r.background);
        if !background && self.part.as_ref().is_none_or(|p| p.owns(src)) {
            let first = std::mem::replace(&mut self.first_unsent[flow.idx()], u32::MAX);
            if first != u32::MAX {
                self.unsent_bytes = self.unsent_bytes.wrapping_sub(size - size.min(first as u64 * MSS as u64));
            }
        }
        self.settle(flow, false);
    }

    /// What settling a flow (`done`: completed, else given up) does to the
    /// run: logged for a split run; a foreground flow is counted, its bytes
    /// are no longer pending, and a closed-loop generator may start the
    /// next request. Background flows are not measured and belong to no
    /// request.
    pub(super) fn settle(&mut self, flow: FlowId, done: bool) {
        let (background, size) = (self.records[flow.idx()].background, self.records[flow.idx()].size);
        self.note_settled(flow, done, background);
        if background {
            return;
        }
        if done {
            self.completion_order.push(flow);
        }
        self.completed += 1;
        self.pending_bytes = self.pending_bytes.wrapping_sub(size);
        self.generator.on_flow_complete(self.now, &self.net);
        self.schedule_next_arrival();
    }

    /// A flow's deadline passed at its sender (`workload.abort_at_deadline`):
    /// the protocol stops sending it and, if it was still at work, the flow
    /// settles as terminated (unless it completed before).
    #[cold]
    #[inline(never)]
    pub(super) fn abort_sender(&mut self, flow: FlowId) {
        let src = NodeId(self.records[flow.idx()].src);
        let mut io = io!(self, src);
        let running = self.proto.abort_sender(flow, &mut io);
        self.apply_actions();
        if running {
            if self.trace.enabled {
                self.trace.push(self.now, TraceKind::Control { flow, what: crate::trace::DEADLINE_ABORT });
            }
            self.flow_terminated(flow);
        }
    }

    /// Logs a settlement in a part of a split run (nothing otherwise).
    #[inline]
    pub(super) fn note_settled(&mut self, flow: FlowId, done: bool, background: bool) {
        if let Some(part) = &mut self.part {
            let seq = part.settlements.len() as u32;
            part.settlements.push(Settlement { t: self.now, tie: self.cur_tie, seq, flow, done });
            part.settled += !background as u64;
        }
    }

    /// Packet `seq` of `flow`, at or past its first unsent packet, is sent
    /// for the first time: the bytes up to it are no longer unsent.
    pub(super) fn first_sent(&mut self, flow: FlowId, seq: u32) {
        let (size, background) = (self.records[flow.idx()].size, self.records[flow.idx()].background);
        let first = std::mem::replace(&mut self.first_unsent[flow.idx()], seq + 1);
        if !background {
            let sent = |k: u32| size.min(k as u64 * MSS as u64);
            self.unsent_bytes = self.unsent_bytes.wrapping_sub(sent(seq + 1) - sent(first));
        }
    }
}
