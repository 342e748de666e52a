//! Window-based transports: TCP NewReno, DCTCP and pFabric's minimal rate
//! control share one sender and receiver; the [`RateControl`] decides how
//! the window moves (smoltcp's congestion controllers, quinn's
//! `congestion.rs`). D2TCP, L2DCT and PASE's end hosts join as further
//! controllers.
//!
//! The sender keeps a per-packet scoreboard (unsent, in flight, SACKed,
//! lost), sends while the packets in flight ("pipe", RFC 6675) are below
//! the window, retransmits lost packets first, and runs one retransmission
//! timer. The receiver acknowledges every data packet with the cumulative
//! ACK, the packet it got (a selective ACK), its ECN mark and timestamp.

use super::{Io, Protocol};
use crate::ids::{FlowId, NodeId};
use crate::packet::{Header, Packet, PacketKind, WindowHeader};
use crate::protocol::params::{DctcpParams, PFabricParams, TcpParams};
use crate::trace::TraceKind;
use super::scoreboard::Scoreboard;
use crate::units::{data_packet_wire_size, packets_for, SimTime, HEADER};
use crate::workload::FlowSpec;

/// How the congestion window reacts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateControl {
    /// TCP NewReno (RFC 6582) with SACK-based pipe accounting.
    NewReno,
    /// DCTCP (Alizadeh et al. 2010, section 3.2): NewReno whose response to
    /// ECN marks is a cut by alpha / 2 once per window.
    Dctcp,
    /// pFabric's minimal rate control (pFabric paper section 4.2).
    PFabric,
}

/// Settings of a window transport, from the protocol's parameters.
#[derive(Clone, Debug)]
pub struct WindowConfig {
    /// Which controller.
    pub control: RateControl,
    /// Initial window, packets.
    pub init_cwnd: f64,
    /// Largest window, packets.
    pub max_cwnd: f64,
    /// Smallest (TCP) or fixed (pFabric) retransmission timeout.
    pub min_rto: SimTime,
    /// Largest timeout after exponential backoff.
    pub max_rto: SimTime,
    /// pFabric: the timeout is fixed (no RTT estimation, no backoff).
    pub fixed_rto: bool,
    /// Duplicate ACKs that trigger fast retransmit; `None` disables it
    /// (pFabric: spraying reorders packets, section 4.2).
    pub dupack_threshold: Option<u32>,
    /// With spraying, the threshold grows to this fraction of the window
    /// (the pFabric ns-2 scripts' `dynamic_dupack_ 0.75` for TCP and DCTCP).
    pub dupack_cwnd_fraction: f64,
    /// Data packets are ECN-capable (DCTCP).
    pub ecn: bool,
    /// DCTCP estimator weight g.
    pub g: f64,
    /// DCTCP alpha at flow start.
    pub initial_alpha: f64,
    /// Data packets carry pFabric priorities (remaining bytes).
    pub prioritized: bool,
    /// pFabric probe mode is on.
    pub probe_mode: bool,
    /// Consecutive timeouts before probe mode.
    pub probe_after_timeouts: u32,
}

impl WindowConfig {
    /// TCP NewReno with pFabric Table 1's parameters.
    pub fn tcp(p: &TcpParams, spraying: bool) -> Self {
        WindowConfig {
            control: RateControl::NewReno,
            init_cwnd: p.init_cwnd as f64,
            max_cwnd: 1e9,
            min_rto: SimTime::from_us_f64(p.min_rto_us),
            max_rto: SimTime::from_us_f64(p.max_rto_us),
            fixed_rto: false,
            dupack_threshold: Some(p.dupack_threshold),
            dupack_cwnd_fraction: if spraying { 0.75 } else { 0.0 },
            ecn: false,
            g: 0.0,
            initial_alpha: 0.0,
            prioritized: false,
            probe_mode: false,
            probe_after_timeouts: u32::MAX,
        }
    }
    /// DCTCP with pFabric Table 1's parameters.
    pub fn dctcp(p: &DctcpParams, spraying: bool) -> Self {
        WindowConfig {
            control: RateControl::Dctcp,
            init_cwnd: p.init_cwnd as f64,
            min_rto: SimTime::from_us_f64(p.min_rto_us),
            max_rto: SimTime::from_us_f64(p.max_rto_us),
            dupack_threshold: Some(p.dupack_threshold),
            ecn: true,
            g: p.g,
            initial_alpha: p.initial_alpha,
            ..Self::tcp(&TcpParams::default(), spraying)
        }
    }
    /// pFabric with its Table 1 parameters.
    pub fn pfabric(p: &PFabricParams) -> Self {
        WindowConfig {
            control: RateControl::PFabric,
            init_cwnd: p.init_cwnd as f64,
            max_cwnd: p.max_cwnd as f64,
            min_rto: SimTime::from_us_f64(p.rto_us),
            max_rto: SimTime::from_us_f64(p.rto_us),
            fixed_rto: true,
            dupack_threshold: None,
            dupack_cwnd_fraction: 0.0,
            ecn: false,
            g: 0.0,
            initial_alpha: 0.0,
            prioritized: true,
            probe_mode: p.probe_mode,
            probe_after_timeouts: p.probe_after_timeouts,
        }
    }
}

/// Sender state of one flow.
#[derive(Debug)]
pub struct Sender {
    src: NodeId,
    dst: NodeId,
    size: u64,
    /// Which packets are in flight, acknowledged, lost.
    pub sb: Scoreboard,
    /// Congestion window, packets.
    pub cwnd: f64,
    ssthresh: f64,
    srtt_ps: f64,
    rttvar_ps: f64,
    rto: SimTime,
    rto_deadline: SimTime,
    armed_at: Option<SimTime>,
    last_cum: u32,
    dupacks: u32,
    in_recovery: bool,
    recover: u32,
    /// DCTCP's estimate of the fraction of marked packets.
    pub alpha: f64,
    win_acked: u32,
    win_marked: u32,
    win_end: u32,
    cwr_end: u32,
    /// Timeouts since the last ACK.
    pub timeouts_in_row: u32,
    /// pFabric probe mode.
    pub probe_mode: bool,
}

/// Receiver state of one flow: which packets arrived, and the cumulative
/// ACK point. Shared by every transport that acknowledges each packet.
#[derive(Debug)]
pub(crate) struct Receiver {
    n: u32,
    got: Vec<u64>,
    count: u32,
    /// The next packet expected in order (cumulative ACK).
    pub cum: u32,
}

impl Receiver {
    /// A receiver for a flow of `bytes` payload bytes.
    pub fn new(bytes: u64) -> Self {
        let n = packets_for(bytes);
        Receiver { n, got: vec![0; (n as usize).div_ceil(64)], count: 0, cum: 0 }
    }
    /// Records data packet `seq`; returns true when it completes the flow.
    pub fn receive(&mut self, seq: u32) -> bool {
        if self.count == self.n {
            return false; // complete already
        }
        let (w, b) = (seq as usize / 64, seq % 64);
        if self.got[w] & (1 << b) == 0 {
            self.got[w] |= 1 << b;
            self.count += 1;
            while self.cum < self.n && self.got[self.cum as usize / 64] & (1 << (self.cum % 64)) != 0 {
                self.cum += 1;
            }
        }
        if self.count == self.n {
            self.got = Vec::new();
            return true;
        }
        false
    }
}

/// The window-based transports as one [`Protocol`].
pub struct WindowTransport {
    cfg: WindowConfig,
    /// Sender state, indexed by flow id.
    pub senders: Vec<Sender>,
    receivers: Vec<Receiver>,
}

impl WindowTransport {
    /// A transport with `cfg`.
    pub fn new(cfg: WindowConfig) -> Self {
        WindowTransport { cfg, senders: Vec::new(), receivers: Vec::new() }
    }

    fn on_ack(&mut self, flow: FlowId, h: WindowHeader, echo_sent_at: SimTime, io: &mut Io<FlowId>) {
        let cfg = &self.cfg;
        let s = &mut self.senders[flow.idx()];
        if s.sb.done() {
            return;
        }
        // pFabric: any ACK ends probe mode and the run of timeouts.
        s.timeouts_in_row = 0;
        let was_probing = s.probe_mode;
        s.probe_mode = false;
        if !cfg.fixed_rto && h.sack < s.sb.n() {
            s.rtt_sample(io.now - echo_sent_at, cfg);
        }
        let newly = s.sb.on_ack(h.cum_ack, h.sack);
        if s.sb.done() {
            return;
        }
        // Loss detection by duplicate ACKs (not for pFabric).
        let advanced = h.cum_ack > s.last_cum;
        if advanced {
            s.last_cum = h.cum_ack;
            s.dupacks = 0;
        } else if h.sack < s.sb.n() {
            s.dupacks += 1;
        }
        if let Some(thr) = cfg.dupack_threshold {
            let thr = thr.max((cfg.dupack_cwnd_fraction * s.cwnd) as u32);
            if s.in_recovery {
                if s.sb.snd_una > s.recover {
                    s.in_recovery = false;
                    s.cwnd = s.ssthresh;
                } else if advanced {
                    // NewReno partial ACK: the next hole is lost too.
                    s.sb.mark_lost(s.sb.snd_una);
                }
            } else if s.dupacks == thr {
                s.ssthresh = (s.cwnd / 2.0).max(2.0);
                s.cwnd = s.ssthresh;
                s.in_recovery = true;
                s.recover = s.sb.snd_nxt.saturating_sub(1);
                s.sb.mark_lost(s.sb.snd_una);
            }
        }
        // DCTCP: alpha once per window of data, cut once per window.
        if cfg.control == RateControl::Dctcp && newly > 0 {
            s.win_acked += newly;
            if h.ece {
                s.win_marked += newly;
            }
            if s.sb.snd_una > s.win_end {
                let f = s.win_marked as f64 / s.win_acked.max(1) as f64;
                s.alpha = (1.0 - cfg.g) * s.alpha + cfg.g * f;
                s.win_acked = 0;
                s.win_marked = 0;
                s.win_end = s.sb.snd_nxt;
            }
            if h.ece && h.sack >= s.cwr_end && !s.in_recovery {
                s.cwnd = (s.cwnd * (1.0 - s.alpha / 2.0)).max(1.0);
                s.ssthresh = s.cwnd.max(2.0);
                s.cwr_end = s.sb.snd_nxt;
            }
        }
        // Window growth: slow start below ssthresh, then one packet per window.
        if newly > 0 && !s.in_recovery && !(h.ece && cfg.control == RateControl::Dctcp) {
            for _ in 0..newly {
                s.cwnd += if s.cwnd < s.ssthresh { 1.0 } else { 1.0 / s.cwnd };
            }
            s.cwnd = s.cwnd.min(cfg.max_cwnd);
        }
        if newly > 0 || was_probing {
            s.rto_deadline = io.now + s.rto;
        }
        self.send_window(flow, io);
    }

    /// Sends while the pipe is below the window.
    fn send_window(&mut self, flow: FlowId, io: &mut Io<FlowId>) {
        let cfg = &self.cfg;
        let s = &mut self.senders[flow.idx()];
        if s.sb.done() || s.probe_mode {
            return;
        }
        let was_idle = s.sb.in_flight == 0;
        // Whole packets of window: the float-to-integer cast truncates,
        // which is `floor` for a window of at least one packet (and much
        // cheaper than the `floor` call this target makes without SSE4.1).
        let window = s.cwnd.max(1.0) as u32;
        while s.sb.in_flight < window {
            let Some(seq) = s.sb.take_next() else { break };
            let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Data, seq, data_packet_wire_size(s.size, seq));
            p.sent_at = io.now;
            p.ecn.capable = cfg.ecn;
            if cfg.prioritized {
                // pFabric: remaining un-ACKed, un-SACKed bytes (the ns-2
                // code's `set_prio`, PROTOCOLS.md section 3).
                p.rank = s.sb.remaining_bytes();
            }
            p.header = Header::Window(WindowHeader::default());
            io.send(p);
        }
        if was_idle && s.sb.in_flight > 0 {
            s.rto_deadline = io.now + s.rto;
        }
        s.arm(io, flow);
    }

    fn on_timeout(&mut self, flow: FlowId, io: &mut Io<FlowId>) {
        let cfg = &self.cfg;
        let s = &mut self.senders[flow.idx()];
        s.timeouts_in_row += 1;
        s.ssthresh = (s.cwnd / 2.0).max(2.0);
        s.cwnd = 1.0;
        s.in_recovery = false;
        s.dupacks = 0;
        s.sb.all_in_flight_lost();
        if !cfg.fixed_rto {
            s.rto = (s.rto + s.rto).min(cfg.max_rto);
        }
        if cfg.probe_mode && s.timeouts_in_row >= cfg.probe_after_timeouts {
            s.probe_mode = true;
        }
        let probe = s.probe_mode;
        io.trace(|| TraceKind::Timeout { flow, probe_mode: probe });
        s.rto_deadline = io.now + s.rto;
        if probe {
            // A probe: a 1-byte payload at the flow's priority (section 4.2).
            let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Probe, s.sb.snd_una, HEADER + 1);
            p.rank = s.sb.remaining_bytes();
            p.sent_at = io.now;
            p.header = Header::Window(WindowHeader::default());
            io.send(p);
            io.trace(|| TraceKind::Control { flow, what: "probe" });
            s.arm(io, flow);
        } else {
            self.send_window(flow, io);
        }
    }
}

impl Sender {
    fn new(f: &FlowSpec, cfg: &WindowConfig) -> Self {
        Sender {
            src: f.src,
            dst: f.dst,
            size: f.size,
            sb: Scoreboard::new(f.size),
            cwnd: cfg.init_cwnd,
            ssthresh: f64::INFINITY,
            srtt_ps: 0.0,
            rttvar_ps: 0.0,
            rto: cfg.min_rto,
            rto_deadline: SimTime::NEVER,
            armed_at: None,
            last_cum: 0,
            dupacks: 0,
            in_recovery: false,
            recover: 0,
            alpha: cfg.initial_alpha,
            win_acked: 0,
            win_marked: 0,
            win_end: 0,
            cwr_end: 0,
            timeouts_in_row: 0,
            probe_mode: false,
        }
    }

    /// RFC 6298 estimator; the timeout never goes below the minimum.
    fn rtt_sample(&mut self, rtt: SimTime, cfg: &WindowConfig) {
        let r = rtt.ps() as f64;
        if self.srtt_ps == 0.0 {
            self.srtt_ps = r;
            self.rttvar_ps = r / 2.0;
        } else {
            self.rttvar_ps = 0.75 * self.rttvar_ps + 0.25 * (self.srtt_ps - r).abs();
            self.srtt_ps = 0.875 * self.srtt_ps + 0.125 * r;
        }
        let rto = SimTime::from_ps((self.srtt_ps + 4.0 * self.rttvar_ps) as u64);
        self.rto = rto.max(cfg.min_rto).min(cfg.max_rto);
    }

    /// Keeps one timer event pending at or before the deadline (a lazy
    /// timer: moving the deadline later costs nothing until it fires).
    fn arm(&mut self, io: &mut Io<FlowId>, flow: FlowId) {
        if self.sb.done() || self.rto_deadline == SimTime::NEVER {
            return;
        }
        if self.armed_at.is_none_or(|a| self.rto_deadline < a) {
            self.armed_at = Some(self.rto_deadline);
            io.set_timer(self.rto_deadline, flow);
        }
    }
}

impl Protocol for WindowTransport {
    type Timer = FlowId;

    fn name(&self) -> &'static str {
        match self.cfg.control {
            RateControl::NewReno => "tcp",
            RateControl::Dctcp => "dctcp",
            RateControl::PFabric => "pfabric",
        }
    }

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<FlowId>) {
        debug_assert_eq!(f.id.idx(), self.senders.len());
        self.senders.push(Sender::new(f, &self.cfg));
        self.receivers.push(Receiver::new(f.size));
        self.send_window(f.id, io);
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<FlowId>) {
        let Header::Window(h) = p.header else { return };
        match p.kind {
            PacketKind::Ack => self.on_ack(p.flow, h, p.sent_at, io),
            PacketKind::Data | PacketKind::Probe => {
                let r = &mut self.receivers[p.flow.idx()];
                let mut sack = u32::MAX;
                if p.kind == PacketKind::Data {
                    sack = p.seq;
                    if r.receive(p.seq) {
                        io.flow_done(p.flow);
                    }
                }
                let mut ack = Packet::new(p.flow, p.dst, p.src, PacketKind::Ack, p.seq, HEADER);
                ack.rank = 0; // ACKs are the most urgent (pFabric ns-2: prio 0)
                ack.sent_at = p.sent_at; // timestamp echo
                ack.header = Header::Window(WindowHeader { cum_ack: r.cum, sack, ece: p.ecn.ce });
                io.send(ack);
            }
            PacketKind::Control => {}
        }
    }

    fn on_timer(&mut self, flow: FlowId, io: &mut Io<FlowId>) {
        let s = &mut self.senders[flow.idx()];
        if s.sb.done() || s.armed_at != Some(io.now) {
            return; // finished, or a stale timer superseded by an earlier one
        }
        s.armed_at = None;
        if io.now < s.rto_deadline {
            s.arm(io, flow);
            return;
        }
        self.on_timeout(flow, io);
    }
}
