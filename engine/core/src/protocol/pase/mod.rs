//! PASE (Munir et al., "Friends, not Foes: Synthesizing Existing Transport
//! Strategies for Data Center Networks", SIGCOMM 2014; docs/protocols/pase.md): arbitration decides each flow's priority queue and reference
//! rate, commodity strict-priority queues enforce the order in the network,
//! and DCTCP-like end hosts adjust around the reference rate.
//!
//! * **Arbitration rule** ([`arbitrate`], PASE section 3.1, Algorithm 1):
//!   on a link of capacity C, ADH is the summed demand of the flows more
//!   critical than this one; if ADH < C the reference rate is
//!   min(demand, C - ADH), else the base rate (one packet per RTT); the
//!   queue is ceil(ADH / C), capped at the lowest queue. Read with the top
//!   queue as 0, a flow with 0 < ADH < C is out of the top queue although
//!   it gets a rate; read with the paper's queues numbered from 1, a flow
//!   with ADH = C is in the top queue at the base rate. The default reads
//!   it as floor(ADH / C) (top queue iff ADH < C); [`PaseQueueNumbering`]
//!   offers all three. Along its path a flow takes the largest queue index
//!   and the smallest rate.
//! * **Arbitrators** (section 3.1, "arbitration control plane"): one per
//!   link direction ([`Arbitrator`], a list sorted by criticality: SRPT by
//!   remaining bytes, or EDF, [`PaseCriticality`]). A host arbitrates its
//!   uplink (the source) and its downlink (the destination); links above
//!   the ToR are arbitrated at the switch that owns the output port.
//! * **Bottom-up, as real messages**: the source decides its uplink at once
//!   (and starts with that decision), then sends a 40-B request (sub-queue 0)
//!   to the destination, which decides the downlink, so intra-rack flows
//!   need nobody else; the request then visits the switch arbitrators of
//!   the path level by level (ToR links before aggregation-core links), each
//!   adding its decision, and the last one answers the source. Requests
//!   repeat every `update_interval_rtts` base RTTs with the flow's remaining
//!   (un-ACKed) bytes. A finished flow is removed at once by its endpoints
//!   and by a release message to each switch arbitrator it reached; switch
//!   arbitrators also forget flows not refreshed for `expiry_updates`
//!   update periods (soft state, for flows pruned below them).
//! * **Early pruning** (section 3.1, "optimizations"): a request goes
//!   further up only while its decision so far is in one of the top
//!   `pruning_queues` queues; otherwise the arbitrator where it stops
//!   answers the source.
//! * **Delegation** (section 3.1, "optimizations"): a switch-arbitrated link
//!   hands each child arbitrator (the arbitrators one level below it, of
//!   the links feeding it or fed by it) a share of its capacity; the child
//!   arbitrates the flows it sees against that virtual link, so the
//!   request never goes to the switch. Every `delegation_interval_rtts`
//!   each child with a changed demand (at most its own link's capacity)
//!   reports it to the parent, which re-apportions: `delegation_reserve`
//!   of the capacity split equally, the rest in proportion to demand, and
//!   tells each child whose capacity changed what it may now hand out:
//!   its share, or (`delegated_capacity: share_or_spare`, the default)
//!   the larger of its share and what its siblings' demands leave of the
//!   link, so an idle child's new flow is not held below its line rate.
//! * **Arbitrators' processing time** (`arbitrator_service_us`, 0 by
//!   default: the paper gives no value): each node's arbitration logic is a
//!   FIFO server of arbitration messages (requests, releases, delegation
//!   reports and updates); a message waits for those before it and is
//!   processed when its own service ends, so fewer messages (early
//!   pruning, delegation) mean shorter arbitration delays (PASE section
//!   4.3.1). `PaseStats` keeps each round's delay, from its start at the
//!   source to its answer there (the round's start rides in the requests'
//!   and the answer's `sent_at`).
//! * **Arbitration latency** (`await_arbitration`, off by default): an
//!   inter-rack flow holds one packet until its chain's first answer
//!   reaches the source; otherwise it starts with its source's decision.
//! * **End hosts** (section 3.2): each flow's sender (`window/`) holds a
//!   [`PaseHost`] (`host.rs`, the window transport's extension), which the
//!   source tells every decision ([`PaseHost::on_decision`]; the sender's
//!   fields are not touched):
//!   DCTCP's cut on ECN marks; in the top queue the window is the reference
//!   rate times the base RTT; entering an intermediate queue the window is 1
//!   and grows by 1/cwnd per ACK; in the lowest queue it is 1 and a timeout
//!   sends a header-only probe once per probe interval instead of
//!   retransmitting. Data carry the queue in the packet's `class` (the
//!   sender's). PASE-DCTCP (`rate_control: dctcp`) keeps the queues and
//!   runs a plain DCTCP controller.
//! * **Switches**: `strict_priority(queues)` with per-queue ECN at K.
//!
//! The paper's text was not available while this was written (searches
//! found neither it nor the authors' code): the rules follow docs/protocols/pase.md, and the paper sections named here are as we recall them.
//! Choices where the paper is open are parameters (`PaseParams`) and are
//! listed in `docs/protocols/pase.md`.

use crate::ids::{FlowId, NodeId, PortId};
use crate::net::{Network, PortRole};
use crate::packet::{Header, Packet, PacketKind};
use crate::protocol::flow_table::FlowTable;
use crate::protocol::window::{WindowConfig, WindowTimer, WindowTransport};
use crate::protocol::{Io, Protocol};
use crate::trace::TraceKind;
use crate::units::{SimTime, HEADER, MTU};
use crate::workload::FlowSpec;
pub use header::{PaseHeader, PaseMsg};
use params::{PaseCriticality, PaseDelegatedCapacity, PaseParams, PaseRateControl};
use std::collections::BTreeMap;

mod arbitrator;
mod control;
pub mod events;
mod header;
mod host;
pub mod params;
mod plugin;
pub use arbitrator::{arbitrate, Arbitrator, Decision};
pub use host::{PaseHost, PaseHostConfig, PaseMode, PaseQueue};
pub use plugin::PasePlugin;

/// A link a stop arbitrates: a real one, or a parent's link delegated to
/// the child arbitrator of `child` (a virtual link).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LinkRef {
    /// The link fed by this port, arbitrated with its full capacity.
    Real(PortId),
    /// Parent port `.0`, arbitrated at the child `.1`'s arbitrator against
    /// the share `.0` delegated to it.
    Virtual(PortId, PortId),
}

/// One arbitrator location a flow's request visits, with the links it
/// decides there.
#[derive(Clone, Debug)]
pub struct Stop {
    /// Where the arbitrators sit (a host or a switch).
    pub node: NodeId,
    /// The links decided there.
    pub links: Vec<LinkRef>,
}

/// A child's view of a link delegated to it.
#[derive(Clone, Debug)]
pub struct VirtualLink {
    /// The arbitrator of the share (its capacity is the share).
    pub arb: Arbitrator,
    reported: f64,
    timer_armed: bool,
}

/// Counts of PASE's control messages (read by the tests).
#[derive(Clone, Debug, Default)]
pub struct PaseStats {
    /// Requests that reached an arbitrator over the network.
    pub requests: u64,
    /// Decisions that reached a source.
    pub responses: u64,
    /// Requests stopped by early pruning.
    pub pruned: u64,
    /// Release messages processed at switches.
    pub releases: u64,
    /// Delegation reports processed by parents.
    pub delegation_reports: u64,
    /// Delegation updates processed by children.
    pub delegation_updates: u64,
    /// Arbitration messages processed per node (requests, releases,
    /// delegation reports and updates; responses are not arbitration).
    pub processed_at: Vec<u64>,
    /// Every decision made at a real link above the ToR (a switch
    /// arbitrator's own link), in order, when `Pase::log_switch_requests`
    /// is on.
    pub switch_requests: Vec<SwitchRequest>,
    /// Answers that reached a running flow's source, and the sum of their
    /// arbitration delays (from the round's start at the source), ps.
    pub answered_rounds: u64,
    /// See `answered_rounds`.
    pub arbitration_delay_ps: u64,
    /// With `arbitrator_service_us` > 0: messages the arbitrators served,
    /// and the time they waited behind earlier ones (before their own
    /// service), ps.
    pub served: u64,
    /// See `served`.
    pub queued_ps: u64,
}

/// A request decided at a switch arbitrator's own link.
#[derive(Clone, Copy, Debug)]
pub struct SwitchRequest {
    /// The link (its output port).
    pub port: PortId,
    /// The flow.
    pub flow: FlowId,
    /// The queue the flow had from the arbitrators below (the request's).
    pub queue_in: u8,
}

impl PaseStats {
    /// Arbitration messages processed anywhere.
    pub fn messages(&self) -> u64 {
        self.processed_at.iter().sum()
    }
    /// Mean arbitration delay of the answered rounds, microseconds.
    pub fn mean_arbitration_delay_us(&self) -> Option<f64> {
        (self.answered_rounds > 0).then(|| self.arbitration_delay_ps as f64 / self.answered_rounds as f64 / 1e6)
    }
}

/// One node's arbitration logic as a FIFO server of messages
/// (`arbitrator_service_us`): the messages waiting, the first in service,
/// each with its arrival time.
#[derive(Clone, Debug, Default)]
struct Server {
    queue: std::collections::VecDeque<(SimTime, Packet)>,
}

/// A flow's arbitration state, from its arrival until its sender holds
/// every ACK (then retired: see [`Pase::sender_finished`]).
#[derive(Clone, Debug)]
struct FlowState {
    src: NodeId,
    chain: Vec<Stop>,
    rtt: SimTime,
    nic_bps: f64,
    deadline_us: u32,
    demand: f64,
    /// Highest stop the last response came from (releases go up to it).
    reached: u8,
    /// The destination holds every packet (and has left its arbitrators).
    receiver_done: bool,
}

/// PASE timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaseTimer {
    /// An end host's timer (a flow's retransmission or probe timer).
    Window(WindowTimer),
    /// The message in service at this node's arbitrators is done
    /// (`arbitrator_service_us`).
    Serve(NodeId),
    /// A flow's next arbitration update.
    Update(FlowId),
    /// A child's delegated share of parent `.0` at child `.1`: report demand.
    Delegation(PortId, PortId),
}

impl From<WindowTimer> for PaseTimer {
    fn from(t: WindowTimer) -> Self {
        PaseTimer::Window(t)
    }
}

/// PASE as one [`Protocol`]: the end hosts (a window transport with PASE's
/// rate control) and every arbitrator.
#[derive(Clone)]
pub struct Pase {
    p: PaseParams,
    /// The end hosts' senders and receivers.
    pub win: WindowTransport<PaseHost>,
    /// Each port's link arbitrator.
    pub arbs: Vec<Arbitrator>,
    /// Delegated shares, by (parent, child).
    pub virtual_links: BTreeMap<(PortId, PortId), VirtualLink>,
    /// Parents' latest reported demands per child (absent: none yet).
    pub parent_demand: BTreeMap<(PortId, PortId), f64>,
    /// Parents' current shares per child (absent: the initial equal share).
    pub parent_share: BTreeMap<(PortId, PortId), f64>,
    /// The capacity each parent last told each child it may hand out: the
    /// share, or with `delegated_capacity: share_or_spare` the larger of
    /// the share and the capacity the siblings leave unclaimed (absent:
    /// [`Pase::initial_capacity`]).
    pub parent_capacity: BTreeMap<(PortId, PortId), f64>,
    /// Level of each port's link: 0 for host links, 1 above the ToRs, ...
    pub level: Vec<u8>,
    up: Vec<bool>,
    loc: Vec<NodeId>,
    /// Each switch-arbitrated link's children (the links one level below).
    pub children: Vec<Vec<PortId>>,
    /// Each node's links, every one a stop there may decide: a release
    /// removes its flow from all of them (the flow's own record may be
    /// retired by then; its links at a node are all in one stop).
    node_links: Vec<Vec<LinkRef>>,
    /// Per-flow state by flow id while the flow's sender runs.
    flows: FlowTable<FlowState>,
    delegation_interval: SimTime,
    /// Message counts.
    pub stats: PaseStats,
    /// Record every request decided at a switch's own link in
    /// `stats.switch_requests` (tests; off in runs, where the list would
    /// grow with the run instead of with the live flows).
    pub log_switch_requests: bool,
    /// Virtual links whose report timer must be armed (set while deciding).
    pending_timers: Vec<(PortId, PortId)>,
    /// Per-link decisions of the last stop, for the trace.
    pending_traces: Vec<(PortId, Decision)>,
    /// Per node, its arbitrators' message server (used only with
    /// `arbitrator_service_us` > 0).
    servers: Vec<Server>,
    /// `arbitrator_service_us`.
    service: SimTime,
    net: Network,
}

/// One packet per `rtt`, bits per second (a flow's base rate).
fn base_rate_of(rtt: SimTime) -> f64 {
    MTU as f64 * 8.0 / rtt.as_secs_f64()
}

/// Base RTT of the path from `src` to `dst`: a full packet out, a header
/// back, every hop's serialization and delay.
fn base_rtt(net: &Network, src: NodeId, dst: NodeId) -> SimTime {
    let way = |a: NodeId, b: NodeId, bytes: u64| {
        net.path(a, b).iter().fold(SimTime::ZERO, |t, q| {
            let s = &net.ports[q.idx()];
            t + s.rate.serialization(bytes) + s.delay
        })
    };
    way(src, dst, MTU as u64) + way(dst, src, HEADER as u64)
}

impl Pase {
    /// PASE over `net`.
    pub fn new(p: PaseParams, net: &Network, spraying: bool) -> Self {
        let n = net.nodes.len();
        // Depth of every node above the hosts (hosts 0, ToRs 1, ...).
        let mut depth = vec![u32::MAX; n];
        let mut frontier: Vec<usize> = (0..net.n_hosts as usize).collect();
        for &h in &frontier {
            depth[h] = 0;
        }
        let mut i = 0;
        while i < frontier.len() {
            let u = frontier[i];
            i += 1;
            for q in &net.nodes[u].ports {
                let v = net.ports[q.idx()].peer.idx();
                if depth[v] == u32::MAX {
                    depth[v] = depth[u] + 1;
                    frontier.push(v);
                }
            }
        }
        let np = net.ports.len();
        let mut level = vec![0u8; np];
        let mut up = vec![false; np];
        let mut loc = vec![NodeId(0); np];
        for (i, s) in net.ports.iter().enumerate() {
            level[i] = depth[s.node.idx()].min(depth[s.peer.idx()]) as u8;
            up[i] = matches!(s.role, PortRole::HostNic | PortRole::Up);
            loc[i] = if net.is_host(s.peer) { s.peer } else { s.node };
        }
        // A link's children: the links one level below that feed it (up) or
        // that it feeds (down).
        let mut children = vec![Vec::new(); np];
        for (i, s) in net.ports.iter().enumerate() {
            if level[i] == 0 {
                continue;
            }
            for (j, c) in net.ports.iter().enumerate() {
                let feeds = if up[i] { up[j] && c.peer == s.node } else { !up[j] && c.node == s.peer };
                if feeds && level[j] + 1 == level[i] {
                    children[i].push(PortId(j as u32));
                }
            }
        }
        let mut node_links = vec![Vec::new(); n];
        for (i, c) in children.iter().enumerate() {
            node_links[loc[i].idx()].push(LinkRef::Real(PortId(i as u32)));
            for &k in c {
                node_links[loc[k.idx()].idx()].push(LinkRef::Virtual(PortId(i as u32), k));
            }
        }
        let arbs = net.ports.iter().map(|s| Arbitrator::new(s.rate.bps() as f64)).collect();
        let last = NodeId(net.n_hosts - 1);
        let delegation_interval = SimTime::from_ps((base_rtt(net, NodeId(0), last).ps() as f64 * p.delegation_interval_rtts) as u64);
        Pase {
            win: WindowTransport::new(WindowConfig::pase(&p, spraying)),
            arbs,
            virtual_links: BTreeMap::new(),
            parent_demand: BTreeMap::new(),
            parent_share: BTreeMap::new(),
            parent_capacity: BTreeMap::new(),
            level,
            up,
            loc,
            children,
            node_links,
            flows: FlowTable::default(),
            delegation_interval,
            stats: PaseStats { processed_at: vec![0; n], ..Default::default() },
            log_switch_requests: false,
            pending_timers: Vec::new(),
            pending_traces: Vec::new(),
            servers: if p.arbitrator_service_us > 0.0 { vec![Server::default(); n] } else { Vec::new() },
            service: SimTime::from_us_f64(p.arbitrator_service_us),
            net: net.clone(),
            p,
        }
    }

    /// The stops of a flow's arbitration, bottom-up: the source, the
    /// destination, then the switch arbitrators by level.
    pub fn chain(&self, src: NodeId, dst: NodeId) -> Vec<Stop> {
        let path = self.net.path(src, dst);
        let mut chain = vec![Stop { node: src, links: Vec::new() }, Stop { node: dst, links: Vec::new() }];
        let mut above: Vec<(u8, usize, NodeId, LinkRef)> = Vec::new();
        for (i, &q) in path.iter().enumerate() {
            let lvl = self.level[q.idx()];
            if lvl == 0 {
                let k = if self.up[q.idx()] { 0 } else { 1 };
                chain[k].links.push(LinkRef::Real(q));
                continue;
            }
            if self.p.local_only {
                continue;
            }
            let child = if self.up[q.idx()] { i.checked_sub(1).map(|j| path[j]) } else { path.get(i + 1).copied() };
            let link = match child {
                Some(c) if self.p.delegation && self.level[c.idx()] + 1 == lvl => (lvl - 1, self.loc[c.idx()], LinkRef::Virtual(q, c)),
                _ => (lvl, self.loc[q.idx()], LinkRef::Real(q)),
            };
            above.push((link.0, i, link.1, link.2));
        }
        above.sort_by_key(|a| (a.0, a.1));
        for (_, _, node, link) in above {
            if let Some(s) = chain.iter_mut().find(|s| s.node == node) {
                s.links.push(link);
            } else {
                chain.push(Stop { node, links: vec![link] });
            }
        }
        chain
    }

    fn key(&self, flow: FlowId, remaining: u64, deadline_us: u32) -> (u64, u64, u32) {
        match self.p.criticality {
            PaseCriticality::Srpt => (remaining, 0, flow.0),
            PaseCriticality::Edf => (deadline_us as u64, remaining, flow.0),
        }
    }

    /// Decides every link of stop `stage` of `flow`'s chain.
    fn decide_stop(&mut self, flow: FlowId, stage: usize, remaining: u64, deadline_us: u32, queue_in: u8, now: SimTime) -> Decision {
        let f = self.flow(flow);
        let key = self.key(flow, remaining, deadline_us);
        let (demand, rtt) = (f.demand, f.rtt);
        let base_rate = base_rate_of(rtt);
        let expires = now + SimTime::from_ps((rtt.ps() as f64 * self.p.update_interval_rtts * self.p.expiry_updates) as u64);
        let (queues, numbering) = (self.p.queues as u8, self.p.queue_numbering);
        let links = f.chain[stage].links.clone();
        let mut d = Decision::NONE;
        for link in links {
            let arb = match link {
                LinkRef::Real(q) => &mut self.arbs[q.idx()],
                LinkRef::Virtual(parent, child) => {
                    let initial = self.initial_capacity(parent);
                    let v = self.virtual_links.entry((parent, child)).or_insert_with(|| VirtualLink {
                        arb: Arbitrator::new(initial),
                        reported: 0.0,
                        timer_armed: false,
                    });
                    &mut v.arb
                }
            };
            arb.expire(now);
            arb.update(flow, key, demand, expires);
            let local = arb.decide(flow, base_rate, queues, numbering);
            d = d.combine(local);
            let port = match link {
                LinkRef::Real(q) | LinkRef::Virtual(q, _) => q,
            };
            self.pending_traces.push((port, local));
            match link {
                LinkRef::Real(q) if self.level[q.idx()] > 0 && self.log_switch_requests => {
                    self.stats.switch_requests.push(SwitchRequest { port: q, flow, queue_in })
                }
                LinkRef::Virtual(parent, child) => {
                    let v = self.virtual_links.get_mut(&(parent, child)).unwrap();
                    if !v.timer_armed {
                        v.timer_armed = true;
                        // Armed by the caller (needs the Io): remembered here.
                        self.pending_timers.push((parent, child));
                    }
                }
                _ => {}
            }
        }
        d
    }

    /// Per-queue numbering and number of queues, for reading decisions.
    pub fn params(&self) -> &PaseParams {
        &self.p
    }

    /// The base rate of `flow`: one packet per base RTT, bits per second
    /// (while its sender runs: the flow's state is then retired).
    pub fn base_rate(&self, flow: FlowId) -> f64 {
        base_rate_of(self.flow(flow).rtt)
    }

    /// The state of a flow whose sender still runs.
    fn flow(&self, flow: FlowId) -> &FlowState {
        self.flows.get(flow.idx()).expect("the flow's sender runs")
    }

    /// The equal share a parent's link gives each child before any report.
    pub fn initial_share(&self, parent: PortId) -> f64 {
        let c = self.arbs[parent.idx()].capacity;
        c / self.children[parent.idx()].len().max(1) as f64
    }

    /// What a child may hand out of `parent`'s link before the parent's
    /// first update: the equal share, or (`share_or_spare`, no child having
    /// reported a demand yet) the whole link.
    pub fn initial_capacity(&self, parent: PortId) -> f64 {
        match self.p.delegated_capacity {
            PaseDelegatedCapacity::Share => self.initial_share(parent),
            PaseDelegatedCapacity::ShareOrSpare => self.arbs[parent.idx()].capacity,
        }
    }
}

impl Pase {
    /// Arms the report timers and traces the per-link decisions of the
    /// stop just decided for `flow`.
    fn arm_pending(&mut self, flow: FlowId, io: &mut Io<PaseTimer>) {
        for (parent, child) in self.pending_timers.drain(..) {
            io.set_timer(io.now + self.delegation_interval, PaseTimer::Delegation(parent, child));
        }
        for (port, d) in self.pending_traces.drain(..) {
            io.trace(|| TraceKind::Decision { flow, port: Some(port), what: events::REQUEST, queue: Some(d.queue), rate_bps: d.rate_bps });
        }
    }

    /// A control packet from `from` to `to` at the highest priority.
    fn control(flow: FlowId, from: NodeId, to: NodeId, h: PaseHeader) -> Packet {
        let mut p = Packet::new(flow, from, to, PacketKind::Control, 0, HEADER);
        p.header = Header::new(h);
        p
    }

    /// The flow's demand, bits per second: its line rate, or less when its
    /// remaining bytes take less than a base RTT at line rate.
    fn demand(&self, flow: FlowId, remaining: u64) -> f64 {
        let f = self.flow(flow);
        if self.p.demand_capped_by_remaining {
            f.nic_bps.min(remaining as f64 * 8.0 / f.rtt.as_secs_f64())
        } else {
            f.nic_bps
        }
    }

    fn update_interval(&self, flow: FlowId) -> SimTime {
        SimTime::from_ps((self.flow(flow).rtt.ps() as f64 * self.p.update_interval_rtts) as u64)
    }

    /// The source arbitrates its own links and sends the request on.
    fn start_round(&mut self, flow: FlowId, io: &mut Io<PaseTimer>) -> Decision {
        let remaining = self.win.senders.get(flow.idx()).map_or(0, |s| s.remaining_bytes());
        let demand = self.demand(flow, remaining);
        let f = self.flows.get_mut(flow.idx()).expect("the flow's sender runs");
        f.demand = demand;
        let deadline_us = f.deadline_us;
        let d = self.decide_stop(flow, 0, remaining, deadline_us, 0, io.now);
        self.arm_pending(flow, io);
        self.forward(flow, 0, d, remaining, io.now, io);
        d
    }

    /// After stop `stage` decided `d`: on to the next stop, or back to the
    /// source (last stop, or early pruning).
    fn forward(&mut self, flow: FlowId, stage: usize, d: Decision, remaining: u64, round_start: SimTime, io: &mut Io<PaseTimer>) {
        let f = self.flows.get(flow.idx()).expect("the flow's sender runs");
        let here = f.chain[stage].node;
        let h = PaseHeader { msg: PaseMsg::Request, queue: d.queue, stage: stage as u8 + 1, rate_bps: d.rate_bps as f32, deadline_us: f.deadline_us };
        let next = stage + 1;
        let pruned = next >= 2 && next < f.chain.len() && self.p.early_pruning && (d.queue as u32) >= self.p.pruning_queues;
        if next < f.chain.len() && !pruned {
            let mut p = Self::control(flow, here, f.chain[next].node, h);
            p.rank = remaining;
            // The round's start rides along to the answer.
            p.sent_at = round_start;
            io.send(p);
            return;
        }
        if pruned {
            self.stats.pruned += 1;
            io.trace(|| TraceKind::Decision { flow, port: None, what: events::PRUNE, queue: Some(d.queue), rate_bps: d.rate_bps });
        }
        let src = f.src;
        let mut p = Self::control(flow, here, src, PaseHeader { msg: PaseMsg::Response, stage: stage as u8, ..h });
        p.sent_at = round_start;
        io.send(p);
    }

    /// A request reached stop `h.stage` of its flow's chain at `node`.
    fn on_request(&mut self, node: NodeId, p: &Packet, h: PaseHeader, io: &mut Io<PaseTimer>) {
        let flow = p.flow;
        let stage = h.stage as usize;
        self.stats.requests += 1;
        self.stats.processed_at[node.idx()] += 1;
        let so_far = Decision { queue: h.queue, rate_bps: h.rate_bps as f64 };
        // The flow is over (retired: the sender has every ACK; or this is
        // its destination, which has every packet): nothing to arbitrate.
        let Some(f) = self.flows.get(flow.idx()) else { return };
        if stage == 1 && f.receiver_done {
            return;
        }
        let d = so_far.combine(self.decide_stop(flow, stage, p.rank, h.deadline_us, h.queue, io.now));
        self.arm_pending(flow, io);
        self.forward(flow, stage, d, p.rank, p.sent_at, io);
    }

    /// The source applies a decision to its sender (PASE section 3.2).
    fn apply(&mut self, flow: FlowId, d: Decision, io: &mut Io<PaseTimer>) {
        let lowest = self.p.queues as u8 - 1;
        let rtt = self.flow(flow).rtt;
        // A retired flow (every packet acknowledged) has nothing to apply.
        let Some(s) = self.win.senders.get_mut(flow.idx()) else { return };
        s.class = d.queue;
        // PASE's rate control (PASE-DCTCP's plain DCTCP takes the queue
        // only).
        if let Some(host) = s.cc.extension_mut() {
            let mode = if d.queue == 0 {
                PaseMode::Top
            } else if d.queue == lowest {
                PaseMode::Lowest
            } else {
                PaseMode::Middle
            };
            host.on_decision(mode, d.rate_bps, rtt);
        }
        self.win.send_window(flow, io);
    }

    /// The sender holds every ACK: forget the flow at the source and at the
    /// switch arbitrators it reached, then retire its state. Nothing needs
    /// it any more: the destination forgot the flow when it got the last
    /// packet (before the last ACK); a late request, response or update
    /// timer of a retired flow is ignored, as for a finished one; releases
    /// name only the flow and the stop's node ([`Pase::forget_at`]).
    fn sender_finished(&mut self, flow: FlowId, io: &mut Io<PaseTimer>) {
        // Retired already: finished before.
        let Some(f) = self.flows.get(flow.idx()) else { return };
        let (src, reached) = (f.src, f.reached as usize);
        self.forget(flow, 0);
        let f = self.flow(flow);
        for stage in 2..=reached.min(f.chain.len() - 1) {
            let to = f.chain[stage].node;
            let h = PaseHeader { msg: PaseMsg::Release, stage: stage as u8, ..Default::default() };
            io.send(Self::control(flow, src, to, h));
            io.trace(|| TraceKind::Control { flow, what: events::RELEASE });
        }
        self.flows.retire(flow.idx());
    }

    /// Removes `flow` from the arbitrators of stop `stage`.
    fn forget(&mut self, flow: FlowId, stage: usize) {
        let f = self.flows.get(flow.idx()).expect("the flow's sender runs");
        for &link in &f.chain[stage].links {
            Self::remove_from(&mut self.arbs, &mut self.virtual_links, link, flow);
        }
    }

    /// A release reached `node`: removes `flow` from every arbitrator
    /// there. The same as forgetting the links of the flow's stop at
    /// `node` (a flow has one stop per node, and only a stop's own links
    /// hold it), without the flow's record, which is retired by now.
    fn forget_at(&mut self, node: NodeId, flow: FlowId) {
        for &link in &self.node_links[node.idx()] {
            Self::remove_from(&mut self.arbs, &mut self.virtual_links, link, flow);
        }
    }

    /// Removes `flow` from the arbitrator of `link`, if it is there.
    fn remove_from(arbs: &mut [Arbitrator], virtual_links: &mut BTreeMap<(PortId, PortId), VirtualLink>, link: LinkRef, flow: FlowId) {
        match link {
            LinkRef::Real(q) => {
                arbs[q.idx()].remove(flow);
            }
            LinkRef::Virtual(parent, child) => {
                if let Some(v) = virtual_links.get_mut(&(parent, child)) {
                    v.arb.remove(flow);
                }
            }
        }
    }
}

impl Protocol for Pase {
    type Timer = PaseTimer;

    fn name(&self) -> &'static str {
        "pase"
    }
    fn arbitration_messages(&self) -> Option<u64> {
        Some(self.stats.messages())
    }
    fn arbitration_delay_us(&self) -> Option<f64> {
        self.stats.mean_arbitration_delay_us()
    }

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<PaseTimer>) {
        let rtt = base_rtt(&self.net, f.src, f.dst);
        let nic_bps = self.net.ports[self.net.nic(f.src).idx()].rate.bps() as f64;
        let deadline_us = f.deadline.map_or(u32::MAX, |d| ((f.arrival + d).ps() / 1_000_000).min(u32::MAX as u64 - 1) as u32);
        let chain = self.chain(f.src, f.dst);
        // Arbitrators beyond the endpoints: an inter-rack flow's answer
        // takes their round of messages.
        let awaiting = self.p.await_arbitration && chain.len() > 2;
        self.flows.push(f.id.idx(), FlowState { src: f.src, chain, rtt, nic_bps, deadline_us, demand: 0.0, reached: 1, receiver_done: false });
        self.win.add_flow(f, &self.net);
        let probe = SimTime::from_ps((rtt.ps() as f64 * self.p.probe_interval_rtts) as u64);
        if let Some(host) = self.win.senders.get_mut(f.id.idx()).expect("just added").cc.extension_mut() {
            host.set_probe_interval(probe);
        }
        // Bottom-up: the source's own decision at once (PASE-DCTCP keeps its
        // initial window and only takes the queue).
        let d = self.start_round(f.id, io);
        if self.p.rate_control == PaseRateControl::Pase && !awaiting {
            self.apply(f.id, d, io);
        } else {
            // PASE-DCTCP, or awaiting the answer (applied as it comes, like
            // every later one): the source's queue; a waiting flow holds
            // one packet (the top queue's window does not grow).
            let s = self.win.senders.get_mut(f.id.idx()).expect("just added");
            s.class = d.queue;
            if let (true, Some(host)) = (awaiting, s.cc.extension_mut()) {
                host.set_window(1.0);
            }
            self.win.send_window(f.id, io);
        }
        io.set_timer(io.now + self.update_interval(f.id), PaseTimer::Update(f.id));
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<PaseTimer>) {
        match p.kind {
            PacketKind::Control => {
                let node = p.dst;
                self.on_control(node, p, io);
            }
            PacketKind::Ack => {
                let flow = p.flow;
                self.win.handle_packet(p, io);
                if self.win.sender_done(flow) {
                    self.sender_finished(flow, io);
                }
            }
            PacketKind::Data | PacketKind::Probe => {
                let flow = p.flow;
                self.win.handle_packet(p, io);
                // A retired flow's receiver finished (and forgot it) before.
                let Some(f) = self.flows.get_mut(flow.idx()) else { return };
                if !f.receiver_done && self.win.receiver_done(flow) {
                    f.receiver_done = true;
                    self.forget(flow, 1);
                }
            }
        }
    }

    fn on_switch_packet(&mut self, node: NodeId, p: Packet, io: &mut Io<PaseTimer>) {
        self.on_control(node, p, io);
    }

    fn abort_sender(&mut self, flow: FlowId, io: &mut Io<PaseTimer>) -> bool {
        if !self.win.abort_sender(flow) {
            return false;
        }
        // As a finished flow: the source's arbitrator forgets it and the
        // switch arbitrators it reached get a release.
        self.sender_finished(flow, io);
        true
    }

    fn abort_receiver(&mut self, flow: FlowId, at: NodeId) {
        self.win.abort_receiver(flow);
        // The destination's arbitrator forgets it too.
        self.forget_at(at, flow);
    }

    fn on_timer(&mut self, t: PaseTimer, io: &mut Io<PaseTimer>) {
        match t {
            PaseTimer::Window(t) => self.win.handle_timer(t, io),
            PaseTimer::Update(flow) => {
                if self.flows.get(flow.idx()).is_none() {
                    return; // the flow is over (retired)
                }
                self.start_round(flow, io);
                io.set_timer(io.now + self.update_interval(flow), PaseTimer::Update(flow));
            }
            PaseTimer::Delegation(parent, child) => self.on_delegation_timer(parent, child, io),
            PaseTimer::Serve(node) => self.serve(node, io),
        }
    }
}

#[cfg(test)]
mod tests;
