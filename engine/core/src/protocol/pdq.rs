//! PDQ, Preemptive Distributed Quick flow scheduling (Hong, Caesar,
//! Godfrey, SIGCOMM 2012; PROTOCOLS.md section 8).
//!
//! * Header ([`PdqHeader`], deadline in `Packet::rank`): every packet
//!   carries the rate R_H, pauseby P_H, deadline D_H, expected
//!   transmission time T_H, inter-probing time I_H and the sender's RTT.
//! * Switch part (every output port, host NICs included, `PdqPort`): a
//!   list of at most kappa flows sorted by criticality (earliest deadline,
//!   then shortest expected transmission time, then flow id). Forward path
//!   (paper Algorithm 1): a flow paused by another port leaves the list; a
//!   flow is accepted at the bandwidth left after more critical flows
//!   (Algorithm 2, with Early Start) or paused (R_H = 0, P_H = this port).
//!   Reverse path (Algorithm 3, on ACKs; the switch finds the forward port
//!   by routing towards the data's destination): the list learns the final
//!   rate and pause state, Suppressed Probing raises I_H.
//! * Host part: a SYN (40 B) carries the header first; data starts once
//!   the SYN-ACK brings a rate, paced at R_H; a paused flow sends a 40-B
//!   probe every I_H x max(probing interval, RTT); the receiver echoes
//!   every header in its ACK; a finished flow sends a FIN so ports forget
//!   it. Early Termination gives a flow up at the sender (when it sees it
//!   cannot finish) or at a switch (TERM flag echoed back).

use super::flow_table::FlowTable;
use super::scoreboard::Scoreboard;
use super::timer::{Fired, LazyTimer, Pacer, RttEstimator};
use super::window::{receive_at_rate_receiver, Receiver};
use super::{Io, Protocol};
use crate::ids::{FlowId, NodeId, PortId};
use crate::net::Network;
use crate::packet::{pdq_flags as F, Header, Packet, PacketKind, PdqHeader};
use crate::protocol::params::PdqParams;
use crate::trace::{ControlEvent, TraceKind};
use crate::units::{data_packet_wire_size, SimTime, HEADER};
use crate::workload::FlowSpec;

/// No deadline, in `Packet::rank` and in list entries.
pub const NO_DEADLINE: u64 = u64::MAX;

/// PDQ timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdqTimer {
    /// A flow's next paced packet (stale when the number differs).
    Pace(FlowId, u32),
    /// A paused flow's next probe (stale when the number differs).
    Probe(FlowId, u32),
    /// A flow's retransmission timeout.
    Rto(FlowId),
}

/// One flow in a port's list.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The flow.
    pub flow: u32,
    /// Absolute deadline, ps ([`NO_DEADLINE`] for none).
    pub deadline: u64,
    /// Expected transmission time T, ns.
    pub expected_ns: u32,
    /// The flow's RTT, ps.
    pub rtt_ps: u64,
    /// Rate the port last granted, bits per second (0: paused).
    pub rate: f64,
    /// Paused (here or elsewhere) as far as the port knows.
    pub paused: bool,
    /// The entry is forgotten if the flow sends nothing before this.
    pub expires: SimTime,
    /// Rate the flow asked for (R_H as its last packet reached the port):
    /// what a paused flow holds here when paused flows keep their place.
    pub demand: f64,
}

impl Entry {
    fn key(&self) -> (u64, u32, u32) {
        (self.deadline, self.expected_ns, self.flow)
    }
}

/// What a port decided for a forward packet (for traces and tests).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decision {
    /// Nothing to decide (FIN, already terminated, paused elsewhere).
    None,
    /// Accepted at this rate; `newly` when it was paused or new here;
    /// `early_start` when a finishing flow's bandwidth made it possible.
    Accept { rate: f64, newly: bool, early_start: bool },
    /// Paused here; `newly` when it was new or running here before.
    Pause { newly: bool },
    /// Early Termination: the flow cannot meet its deadline.
    Terminate,
}

/// The switch settings a port needs.
#[derive(Clone, Debug)]
pub struct SwitchConfig {
    /// List length.
    pub kappa: usize,
    /// Early Start and its K (None: off).
    pub early_start_k: Option<f64>,
    /// Early Termination.
    pub early_termination: bool,
    /// Suppressed Probing's X (None: off).
    pub probing_x: Option<f64>,
    /// Dampening window (None: off).
    pub dampening: Option<SimTime>,
    /// Rate controller's r (None: off).
    pub rate_r: Option<f64>,
    /// Smallest grant, as a fraction of the link rate.
    pub min_rate_fraction: f64,
    /// Mean RTT before any sample, ps.
    pub init_rtt_ps: u64,
    /// How long an entry lives without hearing from its flow, beyond the
    /// flow's probing period.
    pub entry_ttl: SimTime,
    /// Paused flows keep their place ([`PdqParams::paused_flows_hold_place`]).
    pub paused_hold_place: bool,
    /// The rate controller's RTT includes this port's queueing delay
    /// ([`PdqParams::rate_control_rtt_with_queue`]).
    pub rate_control_rtt_with_queue: bool,
    /// ACKs carry back at most what the port can give the flow now
    /// ([`PdqParams::ack_rechecks_rate`]).
    pub ack_rechecks_rate: bool,
    /// Early Start counts K in the longer RTT of the finishing flow and the
    /// flow it would start ([`PdqParams::early_start_longer_rtt`]).
    pub early_start_longer_rtt: bool,
    /// Early Termination's view of the NIC rate, as a fraction
    /// ([`PdqParams::early_termination_rate_fraction`]).
    pub et_rate_fraction: f64,
    /// Round trips Early Termination adds while anything is left
    /// ([`PdqParams::early_termination_rtts`]).
    pub et_rtts: f64,
}

impl SwitchConfig {
    /// Early Termination's estimate (PDQ section 3.3.2) of the earliest
    /// time, ps, a flow that still has `expected_ps` of transmission at the
    /// NIC rate can finish from `now_ps`: that time at
    /// `et_rate_fraction` of the rate, plus the flow's RTT `rtt_ps` while
    /// anything is left when configured so. A flow whose estimate is past
    /// its deadline is terminated.
    pub fn et_finish(&self, now_ps: u64, expected_ps: u64, rtt_ps: u64) -> u64 {
        if expected_ps == 0 {
            return now_ps;
        }
        let t = (expected_ps as f64 / self.et_rate_fraction) as u64;
        now_ps.saturating_add(t).saturating_add((self.et_rtts * rtt_ps as f64) as u64)
    }
    /// From the scenario's parameters.
    pub fn new(p: &PdqParams) -> Self {
        SwitchConfig {
            kappa: p.kappa as usize,
            early_start_k: p.early_start.then_some(p.early_start_k),
            early_termination: p.early_termination,
            probing_x: p.suppressed_probing.then_some(p.probing_x),
            dampening: p.dampening.then(|| SimTime::from_us_f64(p.dampening_us)),
            rate_r: p.rate_control.then_some(p.rate_r),
            min_rate_fraction: p.min_rate_fraction,
            init_rtt_ps: SimTime::from_us_f64(p.init_rtt_us).ps(),
            entry_ttl: SimTime::from_us_f64(2.0 * p.rto_us + 4.0 * p.probe_interval_us),
            paused_hold_place: p.paused_flows_hold_place,
            rate_control_rtt_with_queue: p.rate_control_rtt_with_queue,
            ack_rechecks_rate: p.ack_rechecks_rate,
            early_start_longer_rtt: p.early_start_longer_rtt,
            et_rate_fraction: p.early_termination_rate_fraction,
            et_rtts: p.early_termination_rtts,
        }
    }
}

/// Per-port PDQ state.
#[derive(Clone, Debug)]
pub struct PdqPort {
    /// This port's tag in P_H (port index + 1).
    pub tag: u16,
    /// Link rate C, bits per second.
    pub link_bps: f64,
    /// Rate the port may grant (C' of the rate controller).
    pub capacity: f64,
    /// Flows by criticality, most critical first.
    pub flows: Vec<Entry>,
    /// Last time a flow was accepted (dampening).
    pub last_accept: Option<SimTime>,
    /// Mean RTT of the flows seen, ps.
    pub rtt_avg_ps: f64,
    last_control: SimTime,
}

fn t_ns(x: u64) -> u32 {
    x.min(u32::MAX as u64) as u32
}

impl PdqPort {
    /// A port of rate `link_bps` with an empty list.
    pub fn new(index: usize, link_bps: f64, cfg: &SwitchConfig) -> Self {
        PdqPort {
            tag: (index + 1).min(u16::MAX as usize) as u16,
            link_bps,
            capacity: link_bps,
            flows: Vec::new(),
            last_accept: None,
            rtt_avg_ps: cfg.init_rtt_ps as f64,
            last_control: SimTime::ZERO,
        }
    }

    fn find(&self, flow: u32) -> Option<usize> {
        self.flows.iter().position(|e| e.flow == flow)
    }

    /// Forgets a flow.
    pub fn remove(&mut self, flow: u32) {
        if let Some(i) = self.find(flow) {
            self.flows.remove(i);
        }
    }

    /// Re-inserts entry `e` at its place by criticality; returns its index.
    fn insert_sorted(&mut self, e: Entry) -> usize {
        let k = e.key();
        let i = self.flows.partition_point(|x| x.key() < k);
        self.flows.insert(i, e);
        i
    }

    /// Algorithm 2: bandwidth left for the flow at `index` after the more
    /// critical flows; with Early Start, flows within K RTTs of finishing
    /// (up to K of them, counted in RTTs) are not counted. A more critical
    /// flow counts its granted rate, or, paused here when paused flows keep
    /// their place, the rate it asks for. Returns the bandwidth and whether
    /// Early Start freed any of it.
    pub fn available(&self, index: usize, cfg: &SwitchConfig) -> (f64, bool) {
        let mut x = 0.0;
        let mut used = 0.0;
        let mut early = false;
        // Early Start hides the next flow's start-up (its probe period and a
        // round trip), so "within K RTTs" counts in the longer of the two
        // flows' RTTs when configured so.
        let cand_rtt = if cfg.early_start_longer_rtt { self.flows[index].rtt_ps } else { 0 };
        for e in &self.flows[..index] {
            let left_rtts = e.expected_ns as f64 * 1000.0 / e.rtt_ps.max(cand_rtt).max(1) as f64;
            match cfg.early_start_k {
                Some(k) if left_rtts < k && x < k => {
                    x += left_rtts;
                    early |= e.rate > 0.0;
                }
                _ => used += if cfg.paused_hold_place && e.paused { e.demand.min(self.link_bps) } else { e.rate },
            }
            if used >= self.capacity {
                return (0.0, false);
            }
        }
        (self.capacity - used, early)
    }

    /// A rate smaller than the smallest grant ([`SwitchConfig::min_rate_fraction`]
    /// of the link) is no grant: the flow is paused instead.
    fn below_min_rate(&self, rate: f64, cfg: &SwitchConfig) -> bool {
        rate < cfg.min_rate_fraction * self.link_bps
    }

    /// The rate controller: C' = r C - q / (2 RTT), every two mean RTTs,
    /// RTT the flows' mean RTT (with this port's queueing delay when
    /// configured so). Returns the new C' when it changed.
    pub fn control(&mut self, queue_bytes: u64, now: SimTime, cfg: &SwitchConfig) -> Option<f64> {
        let r = cfg.rate_r?;
        if now < self.last_control + SimTime::from_ps((2.0 * self.rtt_avg_ps) as u64) {
            return None;
        }
        self.last_control = now;
        // The flows' mean RTT includes the queueing delay here, as the RCP
        // router equation's d does (PDQ section 3.3.3 gives the controller
        // "in the spirit of RCP"); the header's RTTs do not (they are the
        // path RTT without queueing, for Early Start).
        let queueing = if cfg.rate_control_rtt_with_queue { queue_bytes as f64 * 8.0 / self.link_bps } else { 0.0 };
        let rtt_s = self.rtt_avg_ps * 1e-12 + queueing;
        let c = (r * self.link_bps - queue_bytes as f64 * 8.0 / (2.0 * rtt_s)).max(0.0);
        (c != self.capacity).then(|| {
            self.capacity = c;
            c
        })
    }

    /// Algorithm 1, a forward packet (SYN, data, probe, FIN) of `flow`
    /// with absolute deadline `deadline` (ps or [`NO_DEADLINE`]) and RTT
    /// `rtt_ps`.
    #[allow(clippy::too_many_arguments)]
    pub fn forward(&mut self, flow: u32, h: &mut PdqHeader, deadline: u64, rtt_ps: u64, now: SimTime, cfg: &SwitchConfig) -> Decision {
        if h.flags & (F::FIN | F::TERM) != 0 {
            self.remove(flow);
            return Decision::None;
        }
        let rtt_ps = rtt_ps.max(1);
        self.rtt_avg_ps += (rtt_ps as f64 - self.rtt_avg_ps) / 8.0;
        // Drop entries whose flows went silent (a lost FIN).
        self.flows.retain(|e| e.expires >= now || e.flow == flow);
        if cfg.early_termination && deadline != NO_DEADLINE {
            let t = now.ps();
            let finish = cfg.et_finish(t, h.aux as u64 * 1000, rtt_ps);
            let paused = h.pauseby != 0;
            if t >= deadline || finish > deadline || (paused && deadline - t < rtt_ps) {
                h.flags |= F::TERM;
                h.rate_bps = 0.0;
                self.remove(flow);
                return Decision::Terminate;
            }
        }
        if h.pauseby != 0 && h.pauseby != self.tag {
            // Paused elsewhere: hold no state for it (Algorithm 1, line 1).
            self.remove(flow);
            return Decision::None;
        }
        let period = SimTime::from_ps(rtt_ps * (h.probe_tenths.max(10) as u64) / 10);
        let fresh =
            Entry { flow, deadline, expected_ns: h.aux, rtt_ps, rate: 0.0, paused: true, expires: now + period + cfg.entry_ttl, demand: h.rate_bps as f64 };
        let found = self.find(flow);
        let is_new = found.is_none();
        let index = match found {
            Some(i) => {
                let old = self.flows.remove(i);
                self.insert_sorted(Entry { rate: old.rate, paused: old.paused, ..fresh })
            }
            None => {
                if self.flows.len() >= cfg.kappa {
                    if self.flows.last().is_some_and(|l| l.key() < fresh.key()) {
                        h.rate_bps = 0.0;
                        h.pauseby = self.tag;
                        return Decision::Pause { newly: false };
                    }
                    self.flows.pop();
                }
                self.insert_sorted(fresh)
            }
        };
        let (avail, early) = self.available(index, cfg);
        let mut rate = avail.min(h.rate_bps as f64);
        if self.below_min_rate(rate, cfg) {
            rate = 0.0;
        }
        let e = &mut self.flows[index];
        let was_paused = e.paused;
        // Dampening holds back paused flows only: a new flow's first packet
        // is not a flow coming back from a pause.
        let damped = was_paused && !is_new && cfg.dampening.is_some_and(|w| self.last_accept.is_some_and(|t| now < t + w));
        if rate > 0.0 && !damped {
            h.rate_bps = rate as f32;
            h.pauseby = 0;
            // Tentatively until the ACK brings the path's rate back.
            e.rate = rate;
            e.paused = false;
            if was_paused && !is_new {
                self.last_accept = Some(now);
            }
            Decision::Accept { rate, newly: was_paused, early_start: early }
        } else {
            h.rate_bps = 0.0;
            h.pauseby = self.tag;
            e.rate = 0.0;
            e.paused = true;
            Decision::Pause { newly: !was_paused || is_new }
        }
    }

    /// Algorithm 3, the ACK of a packet that left through this port: it
    /// records the rate the path gave the flow (or its pause), capped, when
    /// configured, at what the port can give the flow now.
    pub fn reverse(&mut self, flow: u32, h: &mut PdqHeader, cfg: &SwitchConfig) {
        if h.flags & F::TERM != 0 || (h.pauseby != 0 && h.pauseby != self.tag) {
            self.remove(flow);
            if h.pauseby != 0 {
                h.rate_bps = 0.0;
            }
            return;
        }
        if h.pauseby != 0 {
            h.rate_bps = 0.0;
        }
        if let Some(i) = self.find(flow) {
            if h.pauseby == 0 && cfg.ack_rechecks_rate {
                // What the port can give the flow now: a more critical flow
                // may have been accepted since the forward packet passed.
                let (avail, _) = self.available(i, cfg);
                let rate = (h.rate_bps as f64).min(avail);
                if self.below_min_rate(rate, cfg) {
                    h.rate_bps = 0.0;
                    h.pauseby = self.tag;
                } else {
                    h.rate_bps = rate as f32;
                }
            }
            let e = &mut self.flows[i];
            e.paused = h.pauseby != 0;
            e.rate = h.rate_bps as f64;
            if let Some(x) = cfg.probing_x {
                let tenths = (x * i as f64 * 10.0).round().min(255.0) as u8;
                h.probe_tenths = h.probe_tenths.max(tenths);
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// SYN sent, no rate yet.
    Syn,
    /// Accepted: pacing at `rate_bps`.
    Sending,
    /// Paused: probing.
    Paused,
}

#[derive(Clone)]
struct Sender {
    src: NodeId,
    dst: NodeId,
    size: u64,
    deadline: u64,
    sb: Scoreboard,
    state: State,
    rate_bps: f64,
    /// Last P_H heard (carried on forward packets).
    pauseby: u16,
    probe_tenths: u8,
    /// Smoothed RTT (RFC 6298) and the smallest sample: the path's RTT
    /// without queueing.
    rtt: RttEstimator,
    pacer: Pacer,
    probe_token: u32,
    rto: LazyTimer,
}

impl Sender {
    /// Payload bytes still to go: not yet transmitted, or with
    /// `counts_in_flight` not yet acknowledged.
    fn bytes_left(&self, counts_in_flight: bool) -> u64 {
        if counts_in_flight {
            self.sb.remaining_bytes()
        } else {
            self.sb.untransmitted_bytes()
        }
    }

    /// The smoothed RTT, or the initial estimate before any sample.
    fn srtt_or_init(&self, p: &PdqParams) -> SimTime {
        self.rtt.srtt().unwrap_or(SimTime::from_us_f64(p.init_rtt_us))
    }

    /// `Packet::rank` of the flow's forward packets: deadline and RTT.
    /// The RTT the header carries is the sender's smallest sample, the
    /// path's RTT without queueing (a choice: with the smoothed RTT, a
    /// queue lengthens every flow's K RTTs of Early Start, more flows
    /// overlap, the queue grows further, and the rate controller's
    /// q / (2 RTT) weakens as RTT grows).
    fn rank(&self, p: &PdqParams) -> u64 {
        let rtt = self.rtt.min().unwrap_or(SimTime::from_us_f64(p.init_rtt_us));
        PdqHeader::pack_rank((self.deadline != NO_DEADLINE).then_some(self.deadline), rtt.ps())
    }

    /// A forward header now, for hosts whose NIC sends `nic_bps`.
    fn header(&self, p: &PdqParams, nic_bps: f64, flags: u8) -> PdqHeader {
        // T_H: the time to transmit what is left (PDQ section 3.1).
        let expected = self.bytes_left(p.expected_time_counts_in_flight) as f64 * 8.0 / nic_bps * 1e9;
        PdqHeader { rate_bps: nic_bps as f32, aux: t_ns(expected as u64), pauseby: self.pauseby, probe_tenths: 10, flags }
    }

    /// Keeps the retransmission timeout pending, `rto` from now unless set.
    fn arm_rto(&mut self, flow: FlowId, rto: SimTime, io: &mut Io<PdqTimer>) {
        self.rto.set_if_unset(io.now + rto);
        if let Some(at) = self.rto.arm(io.now) {
            io.set_timer(at, PdqTimer::Rto(flow));
        }
    }

    /// The probing period: I_H x max(probing interval, RTT).
    fn probe_period(&self, p: &PdqParams) -> SimTime {
        let base = SimTime::from_us_f64(p.probe_interval_us).max(self.srtt_or_init(p));
        SimTime::from_ps(base.ps() * self.probe_tenths.max(10) as u64 / 10)
    }

    /// Schedules the next probe a probing period from now (an earlier
    /// probe timer becomes stale).
    fn arm_probe(&mut self, p: &PdqParams, flow: FlowId, io: &mut Io<PdqTimer>) {
        let period = self.probe_period(p);
        self.probe_token = self.probe_token.wrapping_add(1);
        io.set_timer(io.now + period, PdqTimer::Probe(flow, self.probe_token));
    }

    /// Sender-side Early Termination: the flow cannot finish in time, by
    /// the switches' estimate ([`SwitchConfig::et_finish`]) of the time to
    /// transmit the bytes not yet sent (and those in flight with
    /// [`PdqParams::early_termination_counts_in_flight`]).
    fn hopeless(&self, p: &PdqParams, cfg: &SwitchConfig, nic_bps: f64, now: SimTime) -> bool {
        if !p.early_termination || self.deadline == NO_DEADLINE {
            return false;
        }
        let left_ps = (self.bytes_left(p.early_termination_counts_in_flight) as f64 * 8.0 / nic_bps * 1e12) as u64;
        now.ps() >= self.deadline || cfg.et_finish(now.ps(), left_ps, self.srtt_or_init(p).ps()) > self.deadline
    }
}

/// PDQ hosts and switches.
#[derive(Clone)]
pub struct Pdq {
    p: PdqParams,
    cfg: SwitchConfig,
    /// Sender state by flow id (at the source), until every byte is
    /// acknowledged or the flow is terminated (then retired: memory
    /// follows the live flows).
    senders: FlowTable<Sender>,
    /// Receiver state by flow id (at the destination), until it holds
    /// every byte or the sender's FIN says the flow is over. Kept apart
    /// from the senders, and retired by the destination's own events, so
    /// that a host's code reads only its own state (`crate::parallel`).
    receivers: FlowTable<Receiver>,
    /// Per-port state (public for tests).
    pub ports: Vec<PdqPort>,
    nic_bps: f64,
    /// Node of each port, and whether it is a host.
    port_node: Vec<(NodeId, bool)>,
}

impl Pdq {
    /// PDQ on `net`.
    pub fn new(p: PdqParams, net: &Network) -> Self {
        let cfg = SwitchConfig::new(&p);
        let ports = net.ports.iter().enumerate().map(|(i, x)| PdqPort::new(i, x.rate.bps() as f64, &cfg)).collect();
        let port_node = net.ports.iter().map(|x| (x.node, net.is_host(x.node))).collect();
        Pdq { p, cfg, senders: FlowTable::default(), receivers: FlowTable::default(), ports, nic_bps: net.host_rate.bps() as f64, port_node }
    }

    /// The sender of `flow`, which the caller knows is live (not retired).
    #[inline]
    fn sender(&self, flow: FlowId) -> &Sender {
        self.senders.get(flow.idx()).expect("PDQ: the sender of a live flow")
    }

    /// The sender of `flow`, mutable; the caller knows the flow is live.
    #[inline]
    fn sender_mut(&mut self, flow: FlowId) -> &mut Sender {
        self.senders.get_mut(flow.idx()).expect("PDQ: the sender of a live flow")
    }

    /// Forgets the flow's sender: it is done with it (every byte
    /// acknowledged, or the flow terminated). Its later packets and timers
    /// find no state: timers and ACKs are ignored, as they were for a
    /// finished sender. (The receiver is retired by the destination: when
    /// it holds every byte, or when the FIN arrives.)
    fn retire(&mut self, flow: FlowId) {
        self.senders.retire(flow.idx());
    }

    fn control_packet(&self, flow: FlowId, kind: PacketKind, flags: u8, now: SimTime) -> Packet {
        let s = self.sender(flow);
        let mut p = Packet::new(flow, s.src, s.dst, kind, u32::MAX, HEADER);
        p.sent_at = now;
        p.rank = s.rank(&self.p);
        p.header = Header::Pdq(s.header(&self.p, self.nic_bps, flags));
        p
    }

    fn send_syn(&mut self, flow: FlowId, io: &mut Io<PdqTimer>) {
        let p = self.control_packet(flow, PacketKind::Control, F::SYN, io.now);
        io.send(p);
        io.trace(|| TraceKind::Control { flow, what: ControlEvent::PdqSyn });
        let rto = SimTime::from_us_f64(self.p.rto_us);
        self.sender_mut(flow).arm_rto(flow, rto, io);
    }

    fn pace(&mut self, flow: FlowId, io: &mut Io<PdqTimer>) {
        let params = &self.p;
        let s = self.senders.get_mut(flow.idx()).expect("PDQ: the sender of a live flow");
        if s.state != State::Sending || s.rate_bps <= 0.0 {
            s.pacer.pacing = false;
            return;
        }
        let Some(seq) = s.sb.take_next() else {
            s.pacer.pacing = false;
            return;
        };
        let size = data_packet_wire_size(s.size, seq);
        let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Data, seq, size);
        p.sent_at = io.now;
        p.rank = s.rank(params);
        p.header = Header::Pdq(s.header(params, self.nic_bps, 0));
        io.send(p);
        s.arm_rto(flow, SimTime::from_us_f64(params.rto_us), io);
        let gap = Pacer::gap(size, s.rate_bps);
        let token = s.pacer.schedule(io.now + gap);
        io.set_timer(io.now + gap, PdqTimer::Pace(flow, token));
        // A flow granted a sliver would hear of a higher rate only with its
        // next packet, many RTTs away: it probes every probing period
        // meanwhile (as RCP's rate refresh).
        if gap > s.probe_period(params) {
            s.arm_probe(params, flow, io);
        }
    }

    /// Gives the flow up (Early Termination): ports upstream forget it,
    /// and so does the host (the flow is retired: its data still in flight
    /// get their ACKs, which nothing reads, and a receiver completing the
    /// flow now would not count, the flow being settled as terminated).
    fn terminate(&mut self, flow: FlowId, io: &mut Io<PdqTimer>) {
        let p = self.control_packet(flow, PacketKind::Control, F::FIN | F::TERM, io.now);
        io.send(p);
        self.retire(flow);
        io.flow_terminated(flow);
        io.trace(|| TraceKind::Control { flow, what: ControlEvent::PdqTerminate });
    }

    fn on_ack(&mut self, p: Packet, h: PdqHeader, io: &mut Io<PdqTimer>) {
        let flow = p.flow;
        // A retired flow (over at its sender) ignores late ACKs.
        let Some(s) = self.senders.get_mut(flow.idx()) else { return };
        // The sender's NIC is the first port of the forward path.
        let nic = io.net.nic(s.src);
        let mut h = h;
        self.ports[nic.idx()].reverse(flow.0, &mut h, &self.cfg);
        let rto = SimTime::from_us_f64(self.p.rto_us);
        let sample = io.now - p.sent_at;
        s.rtt.sample(sample);
        if h.flags & F::TERM != 0 {
            self.terminate(flow, io);
            return;
        }
        // SYN and probe replies carry seq u32::MAX, which acknowledges nothing.
        if s.sb.on_ack(h.aux, p.seq) > 0 {
            // A deadline needs an event pending (none may be, after a timeout).
            s.rto.set(io.now + rto);
            if let Some(at) = s.rto.arm(io.now) {
                io.set_timer(at, PdqTimer::Rto(flow));
            }
        }
        if s.sb.done() {
            let fin = self.control_packet(flow, PacketKind::Control, F::FIN, io.now);
            io.send(fin);
            io.trace(|| TraceKind::Control { flow, what: ControlEvent::PdqFin });
            // Every byte acknowledged (so received): forget the flow.
            self.retire(flow);
            return;
        }
        if s.sb.in_flight == 0 {
            s.rto.clear();
        }
        if s.hopeless(&self.p, &self.cfg, self.nic_bps, io.now) {
            self.terminate(flow, io);
            return;
        }
        let old_rate = s.rate_bps;
        let old_state = s.state;
        s.pauseby = h.pauseby;
        s.probe_tenths = h.probe_tenths;
        if h.rate_bps > 0.0 && h.pauseby == 0 {
            s.rate_bps = h.rate_bps as f64;
            s.state = State::Sending;
            let rate_bps = s.rate_bps;
            if old_state != State::Sending {
                io.trace(|| TraceKind::Decision { flow, port: None, what: ControlEvent::PdqAccept, queue: None, rate_bps });
            } else if rate_bps != old_rate {
                io.trace(|| TraceKind::Decision { flow, port: None, what: ControlEvent::PdqRate, queue: None, rate_bps });
            }
            if !s.pacer.pacing {
                self.pace(flow, io);
            } else if s.rate_bps > old_rate {
                // Bring the next packet forward if the new rate makes it due sooner.
                if let Some((at, token)) = s.pacer.bring_forward(io.now, s.rate_bps) {
                    io.set_timer(at, PdqTimer::Pace(flow, token));
                }
            }
        } else {
            s.rate_bps = 0.0;
            s.state = State::Paused;
            s.pacer.cancel();
            if old_state != State::Paused {
                // P_H names the pausing port (its index plus one).
                let port = (h.pauseby > 0).then(|| PortId(h.pauseby as u32 - 1));
                io.trace(|| TraceKind::Decision { flow, port, what: ControlEvent::PdqPause, queue: None, rate_bps: 0.0 });
                s.arm_probe(&self.p, flow, io);
            }
        }
    }
}

impl Protocol for Pdq {
    type Timer = PdqTimer;
    const HAS_PORT_LOGIC: bool = true;

    fn name(&self) -> &'static str {
        "pdq"
    }

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<PdqTimer>) {
        let deadline = f.deadline.map_or(NO_DEADLINE, |d| (f.arrival + d).ps());
        let s = Sender {
            src: f.src,
            dst: f.dst,
            size: f.size,
            deadline,
            sb: Scoreboard::new(f.size),
            state: State::Syn,
            rate_bps: 0.0,
            pauseby: 0,
            probe_tenths: 10,
            rtt: RttEstimator::default(),
            pacer: Pacer::new(),
            probe_token: 0,
            rto: LazyTimer::new(),
        };
        self.senders.push(f.id.idx(), s);
        self.send_syn(f.id, io);
    }

    fn prepare_receiver(&mut self, f: &FlowSpec) {
        self.receivers.push(f.id.idx(), Receiver::new(f.size));
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<PdqTimer>) {
        let Header::Pdq(h) = p.header else { return };
        if p.kind == PacketKind::Ack {
            return self.on_ack(p, h, io);
        }
        if h.flags & F::FIN != 0 {
            // The sender is done (every byte acknowledged, or terminated):
            // the receiver is not needed any more.
            self.receivers.retire(p.flow.idx());
            return;
        }
        // SYN, data or probe at the receiver: echo the header in an ACK.
        // A retired receiver's late packet is answered as before (the ACK
        // updates the ports on its way back).
        let (cum, _) = receive_at_rate_receiver(&mut self.receivers, &p, io);
        let mut ack = Packet::new(p.flow, p.dst, p.src, PacketKind::Ack, p.seq, HEADER);
        ack.sent_at = p.sent_at;
        ack.header = Header::Pdq(PdqHeader { aux: cum, ..h });
        io.send(ack);
    }

    fn abort_sender(&mut self, flow: FlowId, io: &mut Io<PdqTimer>) -> bool {
        if self.senders.get(flow.idx()).is_none() {
            return false;
        }
        // As Early Termination: a FIN with TERM releases the flow at the
        // switches on its path and at the receiver.
        let p = self.control_packet(flow, PacketKind::Control, F::FIN | F::TERM, io.now);
        io.send(p);
        self.retire(flow);
        true
    }

    fn abort_receiver(&mut self, flow: FlowId, _at: NodeId) {
        self.receivers.retire(flow.idx());
    }

    fn on_timer(&mut self, t: PdqTimer, io: &mut Io<PdqTimer>) {
        match t {
            // A retired flow's timers find no sender: ignored.
            PdqTimer::Pace(flow, token) => {
                if self.senders.get(flow.idx()).is_some_and(|s| s.pacer.is_current(token)) {
                    self.pace(flow, io);
                }
            }
            PdqTimer::Probe(flow, token) => {
                let Some(s) = self.senders.get(flow.idx()) else { return };
                let period = s.probe_period(&self.p);
                let slow = s.state == State::Sending && s.pacer.pacing && s.pacer.next_at() > io.now + period;
                if !(s.state == State::Paused || slow) || s.probe_token != token {
                    return;
                }
                if s.hopeless(&self.p, &self.cfg, self.nic_bps, io.now) {
                    return self.terminate(flow, io);
                }
                let p = self.control_packet(flow, PacketKind::Probe, F::PROBE, io.now);
                io.send(p);
                io.trace(|| TraceKind::Control { flow, what: ControlEvent::PdqProbe });
                let s = self.senders.get_mut(flow.idx()).expect("PDQ: the sender of a live flow");
                s.arm_probe(&self.p, flow, io);
            }
            PdqTimer::Rto(flow) => {
                let Some(s) = self.senders.get_mut(flow.idx()) else { return };
                let fired = s.rto.fire(io.now);
                if !s.rto.is_set() {
                    return;
                }
                if fired != Fired::Due {
                    if let Some(at) = s.rto.arm(io.now) {
                        io.set_timer(at, PdqTimer::Rto(flow));
                    }
                    return;
                }
                s.rto.clear();
                io.trace(|| TraceKind::Timeout { flow, probe_mode: false });
                if s.state == State::Syn {
                    return self.send_syn(flow, io);
                }
                s.sb.all_in_flight_lost();
                if s.state == State::Sending && !s.pacer.pacing {
                    self.pace(flow, io);
                }
            }
        }
    }

    fn on_port_enqueue(&mut self, port: PortId, p: &mut Packet, io: &mut Io<PdqTimer>) {
        let (deadline, rtt_ps) = PdqHeader::unpack_rank(p.rank);
        let deadline = deadline.unwrap_or(NO_DEADLINE);
        let flow = p.flow;
        let Header::Pdq(h) = &mut p.header else { return };
        if p.kind == PacketKind::Ack {
            let (node, is_host) = self.port_node[port.idx()];
            if is_host {
                return; // the receiver's NIC: no forward port of this flow here
            }
            for &fp in io.net.next_hops(node, p.src) {
                self.ports[fp.idx()].reverse(flow.0, h, &self.cfg);
            }
            return;
        }
        let st = &mut self.ports[port.idx()];
        if let Some(c) = st.control(io.queue_bytes[port.idx()], io.now, &self.cfg) {
            io.trace(|| TraceKind::LinkRate { port, rate_bps: c });
        }
        let decision = st.forward(flow.0, h, deadline, rtt_ps, io.now, &self.cfg);
        let rate_bps = h.rate_bps as f64;
        match decision {
            Decision::Accept { newly: true, early_start, .. } => {
                let what = if early_start { ControlEvent::PdqEarlyStart } else { ControlEvent::PdqAccept };
                io.trace(|| TraceKind::Decision { flow, port: Some(port), what, queue: None, rate_bps });
            }
            Decision::Pause { newly: true } => {
                io.trace(|| TraceKind::Decision { flow, port: Some(port), what: ControlEvent::PdqPause, queue: None, rate_bps: 0.0 })
            }
            Decision::Terminate => io.trace(|| TraceKind::Control { flow, what: ControlEvent::PdqTerminate }),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each switch rule in isolation, on one 1 Gbps port (rate controller
    //! off so that the capacity stays C).
    use super::*;
    use crate::packet::pdq_flags;

    const C: f64 = 1e9;
    const RTT: u64 = 100_000_000; // 100 us in ps
    const MS: u64 = 1_000_000_000;

    fn cfg(variant: &str) -> SwitchConfig {
        SwitchConfig::new(&PdqParams { rate_control: false, ..PdqParams::variant(variant).unwrap() })
    }
    fn hdr(t_rtts: f64) -> PdqHeader {
        PdqHeader { rate_bps: C as f32, aux: (t_rtts * RTT as f64 / 1000.0) as u32, pauseby: 0, probe_tenths: 10, flags: 0 }
    }
    fn us(x: u64) -> SimTime {
        SimTime::from_us(x)
    }
    /// One round trip of `flow` through the port: forward, then the ACK
    /// back (Algorithm 3) with the header as the forward path left it.
    fn trip(port: &mut PdqPort, flow: u32, mut h: PdqHeader, deadline: u64, now: SimTime, c: &SwitchConfig) -> (Decision, PdqHeader) {
        let d = port.forward(flow, &mut h, deadline, RTT, now, c);
        port.reverse(flow, &mut h, c);
        (d, h)
    }
    fn accepted(d: Decision) -> bool {
        matches!(d, Decision::Accept { .. })
    }

    #[test]
    fn a_more_critical_flow_preempts() {
        let c = cfg("basic");
        let mut port = PdqPort::new(0, C, &c);
        let (d, _) = trip(&mut port, 1, hdr(50.0), 20 * MS, us(0), &c);
        assert!(accepted(d), "{d:?}");
        // A flow with a later deadline does not get in...
        let (d, h) = trip(&mut port, 3, hdr(5.0), 30 * MS, us(1), &c);
        assert_eq!((d, h.rate_bps, h.pauseby), (Decision::Pause { newly: true }, 0.0, port.tag));
        // ...one with an earlier deadline takes the whole link,
        let (d, h) = trip(&mut port, 2, hdr(50.0), 10 * MS, us(2), &c);
        assert!(accepted(d) && h.rate_bps as f64 == C, "{d:?} {h:?}");
        // and the flow it preempts is paused at its next packet.
        let (d, h) = trip(&mut port, 1, hdr(49.0), 20 * MS, us(3), &c);
        assert_eq!((d, h.rate_bps), (Decision::Pause { newly: true }, 0.0));
    }

    #[test]
    fn a_paused_flow_is_accepted_when_bandwidth_frees() {
        let c = cfg("basic");
        let mut port = PdqPort::new(0, C, &c);
        assert!(accepted(trip(&mut port, 1, hdr(50.0), 10 * MS, us(0), &c).0));
        let (d, paused) = trip(&mut port, 2, hdr(50.0), 20 * MS, us(1), &c);
        assert_eq!(d, Decision::Pause { newly: true });
        // Its probe (carrying P_H) is refused while flow 1 runs...
        let probe = PdqHeader { pauseby: paused.pauseby, flags: pdq_flags::PROBE, ..hdr(50.0) };
        assert_eq!(trip(&mut port, 2, probe, 20 * MS, us(2), &c).0, Decision::Pause { newly: false });
        // ...and accepted at the full rate once flow 1's FIN has passed.
        trip(&mut port, 1, PdqHeader { flags: pdq_flags::FIN, ..hdr(0.0) }, 10 * MS, us(3), &c);
        let (d, h) = trip(&mut port, 2, probe, 20 * MS, us(4), &c);
        assert!(accepted(d) && h.rate_bps as f64 == C && h.pauseby == 0, "{d:?} {h:?}");
    }

    #[test]
    fn a_paused_flow_keeps_its_place_against_a_less_critical_probe() {
        // Flows 2 and 3 wait behind flow 1; flow 1 ends. Flow 3, the less
        // critical, probes first. Keeping its place, flow 2 holds the link
        // for its own next probe; with the paper's Algorithm 2 alone (a
        // paused flow counts 0) flow 3 gets in first and flow 2 then takes
        // the link too, so both are granted it for a round trip.
        for (hold, flow3_first) in [(true, false), (false, true)] {
            let c = SwitchConfig { paused_hold_place: hold, ..cfg("basic") };
            let mut port = PdqPort::new(0, C, &c);
            assert!(accepted(trip(&mut port, 1, hdr(50.0), 10 * MS, us(0), &c).0));
            for (f, dl) in [(2, 20), (3, 30)] {
                assert_eq!(trip(&mut port, f, hdr(50.0), dl * MS, us(1), &c).0, Decision::Pause { newly: true });
            }
            trip(&mut port, 1, PdqHeader { flags: pdq_flags::FIN, ..hdr(0.0) }, 10 * MS, us(3), &c);
            let probe = PdqHeader { pauseby: port.tag, flags: pdq_flags::PROBE, ..hdr(50.0) };
            let d3 = trip(&mut port, 3, probe, 30 * MS, us(4), &c).0;
            assert_eq!(accepted(d3), flow3_first, "hold {hold}: flow 3 {d3:?}");
            let (d2, h2) = trip(&mut port, 2, probe, 20 * MS, us(5), &c);
            assert!(accepted(d2) && h2.rate_bps as f64 == C, "hold {hold}: flow 2 {d2:?}");
        }
    }

    #[test]
    fn an_ack_carries_back_what_the_port_can_give_now() {
        // Two SYNs arrive together: flow 2 first (less critical, granted
        // the link), then flow 1 (more critical, granted it too). When flow
        // 2's SYN-ACK passes back, the port pauses it if ACKs recheck the
        // rate; read literally (Algorithm 3 records the rate) flow 2 would
        // send a round trip at the full rate beside flow 1.
        for (recheck, expect_rate) in [(true, 0.0), (false, C)] {
            let c = SwitchConfig { ack_rechecks_rate: recheck, ..cfg("basic") };
            let mut port = PdqPort::new(0, C, &c);
            let mut h2 = hdr(50.0);
            assert!(accepted(port.forward(2, &mut h2, 20 * MS, RTT, us(0), &c)));
            let (d1, _) = trip(&mut port, 1, hdr(50.0), 10 * MS, us(1), &c);
            assert!(accepted(d1));
            port.reverse(2, &mut h2, &c);
            assert_eq!(h2.rate_bps as f64, expect_rate, "recheck {recheck}");
            assert_eq!(h2.pauseby != 0, recheck, "recheck {recheck}: pause by {}", h2.pauseby);
        }
    }

    #[test]
    fn early_start_admits_the_next_flow_k_rtts_before_the_current_one_ends() {
        for (variant, expect_early) in [("es", true), ("basic", false)] {
            let c = cfg(variant);
            let mut port = PdqPort::new(0, C, &c);
            assert!(accepted(trip(&mut port, 1, hdr(5.0), 10 * MS, us(0), &c).0));
            assert_eq!(trip(&mut port, 2, hdr(50.0), 20 * MS, us(1), &c).0, Decision::Pause { newly: true }, "{variant}");
            // 2.5 RTTs left (K = 2): not yet.
            trip(&mut port, 1, hdr(2.5), 10 * MS, us(2), &c);
            assert_eq!(trip(&mut port, 2, hdr(50.0), 20 * MS, us(3), &c).0, Decision::Pause { newly: false }, "{variant}");
            // 1.5 RTTs left: Early Start lets flow 2 in beside it.
            trip(&mut port, 1, hdr(1.5), 10 * MS, us(4), &c);
            let d = trip(&mut port, 2, hdr(50.0), 20 * MS, us(5), &c).0;
            if expect_early {
                assert_eq!(d, Decision::Accept { rate: C, newly: true, early_start: true });
            } else {
                assert_eq!(d, Decision::Pause { newly: false }, "basic PDQ waits for the FIN");
            }
        }
    }

    #[test]
    fn early_start_counts_k_in_the_longer_rtt_of_the_two_flows() {
        // Flow 1 (RTT 50 us) has 150 us left: 3 of its RTTs, 1.5 of flow 2's
        // (RTT 100 us). Counted in the longer RTT, Early Start admits flow 2
        // now; counted in flow 1's own, it waits.
        for (longer, expect_early) in [(true, true), (false, false)] {
            let c = SwitchConfig { early_start_longer_rtt: longer, ..cfg("es") };
            let mut port = PdqPort::new(0, C, &c);
            let mut h1 = PdqHeader { aux: 150_000, ..hdr(0.0) };
            assert!(accepted(port.forward(1, &mut h1, 10 * MS, RTT / 2, us(0), &c)));
            port.reverse(1, &mut h1, &c);
            let mut h2 = hdr(50.0);
            let d = port.forward(2, &mut h2, 20 * MS, RTT, us(1), &c);
            assert_eq!(accepted(d), expect_early, "longer {longer}: {d:?}");
        }
    }

    #[test]
    fn early_termination_drops_a_flow_that_cannot_make_its_deadline() {
        // 2 ms of transmission left, 1 ms to the deadline.
        let t_left = 2.0 * MS as f64 / RTT as f64;
        for (variant, expect_term) in [("es_et", true), ("es", false)] {
            let c = cfg(variant);
            let mut port = PdqPort::new(0, C, &c);
            let (d, h) = trip(&mut port, 1, hdr(t_left), MS, us(0), &c);
            if expect_term {
                assert_eq!(d, Decision::Terminate);
                assert!(h.flags & pdq_flags::TERM != 0 && h.rate_bps == 0.0 && port.flows.is_empty());
            } else {
                assert!(accepted(d), "without ET the hopeless flow still runs: {d:?}");
            }
            // A flow that can make it is not terminated.
            let (d, _) = trip(&mut port, 2, hdr(5.0), MS, us(0), &c);
            assert!(accepted(d) || d == Decision::Pause { newly: true }, "{variant}: {d:?}");
        }
    }

    #[test]
    fn early_termination_allows_for_the_rate_pdq_achieves_and_a_round_trip() {
        // 0.95 ms of transmission left at the NIC rate, 1 ms to the deadline:
        // feasible only at the full rate with no round trip to wait.
        let t_left = 0.95 * MS as f64 / RTT as f64;
        for (fraction, rtt, expect_term) in [(1.0, false, false), (0.8, false, true), (1.0, true, true), (0.8, true, true)] {
            let c = SwitchConfig { et_rate_fraction: fraction, et_rtts: if rtt { 1.0 } else { 0.0 }, ..cfg("es_et") };
            let mut port = PdqPort::new(0, C, &c);
            let d = trip(&mut port, 1, hdr(t_left), MS, us(0), &c).0;
            assert_eq!(d == Decision::Terminate, expect_term, "fraction {fraction}, rtt {rtt}: {d:?}");
        }
        // With 0.7 ms left the default estimate (0.78 ms + one 100 us RTT)
        // still fits; nothing left to transmit adds no round trip.
        let c = cfg("es_et");
        assert_eq!((c.et_rate_fraction, c.et_rtts), (0.9, 1.0));
        let mut port = PdqPort::new(0, C, &c);
        assert!(accepted(trip(&mut port, 2, hdr(0.7 * MS as f64 / RTT as f64), MS, us(0), &c).0));
        assert_eq!(c.et_finish(5, 0, RTT), 5);
        assert_eq!(c.et_finish(0, 900, RTT), 1000 + RTT);
    }

    #[test]
    fn dampening_delays_a_second_acceptance() {
        for (variant, window) in [("full", Some(us(10))), ("es_et", None)] {
            let c = cfg(variant);
            assert_eq!(c.dampening, window);
            let mut port = PdqPort::new(0, C, &c);
            // Flows 1 and 2 wait, paused, behind flow 0.
            assert!(accepted(trip(&mut port, 0, hdr(50.0), 10 * MS, us(0), &c).0));
            for f in [1, 2] {
                assert_eq!(trip(&mut port, f, hdr(50.0), (20 + f as u64) * MS, us(1), &c).0, Decision::Pause { newly: true });
            }
            trip(&mut port, 0, PdqHeader { flags: pdq_flags::FIN, ..hdr(0.0) }, 10 * MS, us(20), &c);
            // Flow 1 comes back, limited to half the link by its path.
            let half = PdqHeader { rate_bps: (C / 2.0) as f32, pauseby: port.tag, ..hdr(50.0) };
            assert!(accepted(trip(&mut port, 1, half, 21 * MS, us(30), &c).0));
            // Half the link is free, but flow 2 waits out the window.
            let probe = PdqHeader { pauseby: port.tag, flags: pdq_flags::PROBE, ..hdr(50.0) };
            let d = trip(&mut port, 2, probe, 22 * MS, us(31), &c).0;
            let later = Decision::Accept { rate: C / 2.0, newly: true, early_start: false };
            if window.is_some() {
                assert_eq!(d, Decision::Pause { newly: false }, "within the dampening window");
                assert_eq!(trip(&mut port, 2, probe, 22 * MS, us(41), &c).0, later, "after it");
            } else {
                assert_eq!(d, later);
            }
        }
    }

    #[test]
    fn suppressed_probing_spaces_probes_by_list_index() {
        let c = cfg("full");
        let mut port = PdqPort::new(0, C, &c);
        for f in 0..11 {
            trip(&mut port, f, hdr(50.0), (10 + f as u64) * MS, us(f as u64 * 20), &c);
        }
        // Flow 10 sits at index 10: I_H = 0.2 x 10 = 2 RTTs.
        let (_, h) = trip(&mut port, 10, hdr(50.0), 20 * MS, us(300), &c);
        assert_eq!(h.probe_tenths, 20);
        let c = cfg("es_et");
        let mut port = PdqPort::new(0, C, &c);
        for f in 0..11 {
            trip(&mut port, f, hdr(50.0), (10 + f as u64) * MS, us(f as u64 * 20), &c);
        }
        assert_eq!(trip(&mut port, 10, hdr(50.0), 20 * MS, us(300), &c).1.probe_tenths, 10);
    }

    #[test]
    fn the_rate_controller_leaves_room_to_drain_the_queue() {
        // 25 KB queued (200 kbit, 200 us at C), path RTT 100 us.
        for (with_queue, expect) in [(false, 0.0), (true, C - 200e3 / (2.0 * 300e-6))] {
            let c = SwitchConfig { rate_control_rtt_with_queue: with_queue, ..SwitchConfig::new(&PdqParams::default()) };
            let mut port = PdqPort::new(0, C, &c);
            port.rtt_avg_ps = RTT as f64;
            // C' = C - q / (2 RTT): RTT 100 us gives 0; with the queueing
            // delay in the RTT (300 us), 2/3 of C, so the queue drains
            // while the flows keep sending.
            let got = port.control(25_000, us(1000), &c).unwrap();
            assert!((got - expect).abs() < 1.0, "with_queue {with_queue}: C' = {got}, expected {expect}");
            // Within two RTTs no update; then an empty queue restores C.
            assert_eq!(port.control(0, us(1100), &c), None);
            assert_eq!(port.control(0, us(1200), &c), Some(C));
        }
    }
}
