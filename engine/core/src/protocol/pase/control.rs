//! PASE's arbitration control plane as messages: each node's FIFO server
//! of arbitration messages (`arbitrator_service_us`, PASE section 4.3.1)
//! and delegation (section 3.1, "optimizations"): children report their
//! demand on a delegated link, the parent re-apportions its capacity.

use super::*;

impl Pase {
    /// A child's report timer: tell the parent a changed demand.
    pub(super) fn on_delegation_timer(&mut self, parent: PortId, child: PortId, io: &mut Io<PaseTimer>) {
        let c = self.arbs[parent.idx()].capacity;
        // A child can carry no more than its own link.
        let own = self.arbs[child.idx()].capacity;
        let Some(v) = self.virtual_links.get_mut(&(parent, child)) else { return };
        v.arb.expire(io.now);
        let d = v.arb.demand().min(own);
        if (d - v.reported).abs() > 0.01 * c {
            v.reported = d;
            let mut p = Self::control(
                FlowId(0),
                self.loc[child.idx()],
                self.loc[parent.idx()],
                PaseHeader { msg: PaseMsg::DelegationReport, rate_bps: d as f32, ..Default::default() },
            );
            p.seq = parent.0;
            p.rank = child.0 as u64;
            io.send(p);
        }
        if v.arb.is_empty() && v.reported == 0.0 {
            v.timer_armed = false;
        } else {
            io.set_timer(io.now + self.delegation_interval, PaseTimer::Delegation(parent, child));
        }
    }

    /// A parent got a child's demand: re-apportion its link and tell the
    /// children whose share (or, with `share_or_spare`, the capacity they
    /// may hand out) changed.
    pub(super) fn on_delegation_report(&mut self, node: NodeId, p: &Packet, demand: f64, io: &mut Io<PaseTimer>) {
        self.stats.delegation_reports += 1;
        self.stats.processed_at[node.idx()] += 1;
        let (parent, child) = (PortId(p.seq), PortId(p.rank as u32));
        io.trace(|| TraceKind::Control { flow: FlowId(0), what: events::DELEGATION_REPORT });
        self.parent_demand.insert((parent, child), demand);
        let c = self.arbs[parent.idx()].capacity;
        let kids = self.children[parent.idx()].clone();
        let demand_of = |k: PortId| self.parent_demand.get(&(parent, k)).copied().unwrap_or(0.0);
        let total: f64 = kids.iter().map(|&k| demand_of(k)).sum();
        let n = kids.len().max(1) as f64;
        let initial = self.initial_capacity(parent);
        // (child, share, capacity it may hand out, share held, capacity held)
        let plan: Vec<(PortId, f64, f64, f64, f64)> = kids
            .iter()
            .map(|&k| {
                let dk = demand_of(k);
                let share = if total > 0.0 { c * (self.p.delegation_reserve / n + (1.0 - self.p.delegation_reserve) * dk / total) } else { c / n };
                let capacity = match self.p.delegated_capacity {
                    PaseDelegatedCapacity::Share => share,
                    // What the siblings do not claim: c - (total - dk).
                    PaseDelegatedCapacity::ShareOrSpare => share.max(c - (total - dk)),
                };
                let held_share = self.parent_share.get(&(parent, k)).copied().unwrap_or(c / n);
                let held_capacity = self.parent_capacity.get(&(parent, k)).copied().unwrap_or(initial);
                (k, share, capacity, held_share, held_capacity)
            })
            .collect();
        // Re-apportion when some share or capacity moves by more than 1% of
        // the link; then every child whose share or capacity changed hears
        // it, so the shares the children hold never sum above the link once
        // the updates land.
        if plan.iter().all(|&(_, sh, cap, old_sh, old_cap)| (sh - old_sh).abs() <= 0.01 * c && (cap - old_cap).abs() <= 0.01 * c) {
            return;
        }
        for (k, share, capacity, _, old_capacity) in plan {
            self.parent_share.insert((parent, k), share);
            if capacity == old_capacity {
                continue;
            }
            self.parent_capacity.insert((parent, k), capacity);
            let mut u = Self::control(
                FlowId(0),
                node,
                self.loc[k.idx()],
                PaseHeader { msg: PaseMsg::DelegationUpdate, rate_bps: capacity as f32, ..Default::default() },
            );
            u.seq = parent.0;
            u.rank = k.0 as u64;
            io.send(u);
        }
    }

    /// A child got the capacity it may now hand out.
    pub(super) fn on_delegation_update(&mut self, node: NodeId, p: &Packet, capacity: f64, io: &mut Io<PaseTimer>) {
        self.stats.delegation_updates += 1;
        self.stats.processed_at[node.idx()] += 1;
        let (parent, child) = (PortId(p.seq), PortId(p.rank as u32));
        io.trace(|| TraceKind::Control { flow: FlowId(0), what: events::DELEGATION_UPDATE });
        let initial = self.initial_capacity(parent);
        let v = self.virtual_links.entry((parent, child)).or_insert_with(|| VirtualLink { arb: Arbitrator::new(initial), reported: 0.0, timer_armed: false });
        v.arb.capacity = capacity;
    }

    /// A PASE control message reached `node` (a host or a switch). With
    /// `arbitrator_service_us` > 0, an arbitration message joins the node's
    /// server queue and is processed when its service ends.
    pub(super) fn on_control(&mut self, node: NodeId, p: Packet, io: &mut Io<PaseTimer>) {
        let h: PaseHeader = p.header.read();
        if !self.servers.is_empty() && h.msg != PaseMsg::Response {
            let q = &mut self.servers[node.idx()].queue;
            q.push_back((io.now, p));
            if q.len() == 1 {
                // The server was idle: this message's service starts now.
                io.set_timer(io.now + self.service, PaseTimer::Serve(node));
            }
            return;
        }
        self.process(node, p, io);
    }

    /// The message in service at `node` is done: it is processed, and the
    /// next one waiting starts its service.
    pub(super) fn serve(&mut self, node: NodeId, io: &mut Io<PaseTimer>) {
        let q = &mut self.servers[node.idx()].queue;
        let Some((_, p)) = q.pop_front() else { return };
        if let Some(&(arrived, _)) = q.front() {
            self.stats.queued_ps += (io.now - arrived).ps();
            io.set_timer(io.now + self.service, PaseTimer::Serve(node));
        }
        self.stats.served += 1;
        self.process(node, p, io);
    }

    /// Processes a PASE control message at `node`.
    pub(super) fn process(&mut self, node: NodeId, p: Packet, io: &mut Io<PaseTimer>) {
        let h: PaseHeader = p.header.read();
        match h.msg {
            PaseMsg::Request => self.on_request(node, &p, h, io),
            PaseMsg::Response => {
                let flow = p.flow;
                self.stats.responses += 1;
                // Retired: the sender has every ACK, nothing to apply.
                let Some(f) = self.flows.get_mut(flow.idx()) else { return };
                f.reached = h.stage;
                self.stats.answered_rounds += 1;
                self.stats.arbitration_delay_ps += (io.now - p.sent_at).ps();
                let d = Decision { queue: h.queue, rate_bps: h.rate_bps as f64 };
                io.trace(|| TraceKind::Decision { flow, port: None, what: events::DECISION, queue: Some(d.queue), rate_bps: d.rate_bps });
                self.apply(flow, d, io);
            }
            PaseMsg::Release => {
                self.stats.releases += 1;
                self.stats.processed_at[node.idx()] += 1;
                self.forget_at(node, p.flow);
            }
            PaseMsg::DelegationReport => self.on_delegation_report(node, &p, h.rate_bps as f64, io),
            PaseMsg::DelegationUpdate => self.on_delegation_update(node, &p, h.rate_bps as f64, io),
        }
    }
}
