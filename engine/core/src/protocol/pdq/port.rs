//! PDQ's switch part (every output port, host NICs included): the list of
//! flows each port keeps, sorted by criticality, and the forward and
//! reverse paths of the paper's Algorithms 1 to 3.

use super::header::{pdq_flags as F, PdqHeader};
use super::NO_DEADLINE;
use crate::protocol::pdq::params::PdqParams;
use crate::units::SimTime;

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

pub(super) fn t_ns(x: u64) -> u32 {
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
