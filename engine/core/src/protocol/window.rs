//! Window-based transports: TCP NewReno, DCTCP, D2TCP, L2DCT and pFabric's
//! minimal rate control share one sender and receiver; the [`RateControl`]
//! decides how the window moves (smoltcp's congestion controllers, quinn's
//! `congestion.rs`). PASE's end hosts join as a further controller.
//!
//! The sender keeps a per-packet scoreboard (unsent, in flight, SACKed,
//! lost), sends while the packets in flight ("pipe", RFC 6675) are below
//! the window, retransmits lost packets first, and runs one retransmission
//! timer. The receiver acknowledges every data packet with the cumulative
//! ACK, the packet it got (a selective ACK), its ECN mark and timestamp.

use super::{Io, Protocol};
use crate::ids::{FlowId, NodeId};
use crate::packet::{Header, Packet, PacketKind, WindowHeader};
use crate::protocol::params::{D2tcpParams, DctcpParams, L2dctParams, PFabricParams, PaseParams, PaseRateControl, TcpParams};
use crate::trace::TraceKind;
use super::scoreboard::Scoreboard;
use crate::units::{data_packet_wire_size, packets_for, SimTime, HEADER, MSS};
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
    /// D2TCP (Vamanan et al. 2012, section 3): DCTCP whose cut uses
    /// p = alpha^d, d the deadline imminence ([`d2tcp_imminence`]); a flow
    /// without a deadline has d = 1 and behaves as DCTCP.
    D2tcp,
    /// L2DCT (Munir et al. 2013, section IV): DCTCP whose cut uses
    /// b = alpha^w_c and whose congestion-avoidance increase is w_c / w_max
    /// per round trip, w_c falling with the bytes sent ([`l2dct_weight`]).
    L2dct,
    /// PASE's end hosts (PASE paper section 3.2, PROTOCOLS.md section 7):
    /// DCTCP's cut on marks; the window otherwise follows the arbitrated
    /// queue ([`PaseMode`], set by `protocol/pase.rs`).
    Pase,
}

/// Where PASE's arbitration put a flow, as its sender's window sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PaseMode {
    /// The top queue: the window is the reference rate times the RTT
    /// (set by the arbitration, not grown per ACK).
    #[default]
    Top,
    /// An intermediate queue: from 1 packet, + 1/cwnd per ACK.
    Middle,
    /// The lowest queue: 1 packet, and a header-only probe once per probe
    /// interval where a timeout would retransmit.
    Lowest,
}

impl RateControl {
    /// DCTCP and its descendants: ECN-capable, alpha per window, cut once
    /// per window on marks, no growth on a marked ACK.
    pub fn is_dctcp_family(self) -> bool {
        matches!(self, RateControl::Dctcp | RateControl::D2tcp | RateControl::L2dct | RateControl::Pase)
    }
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
    /// D2TCP: smallest deadline imminence d (section 3: 0.5).
    pub min_imminence: f64,
    /// D2TCP: largest deadline imminence d (section 3: 2).
    pub max_imminence: f64,
    /// D2TCP: d of a flow past its deadline (a parameter: see
    /// `D2tcpParams::past_deadline_imminence`).
    pub past_deadline_imminence: f64,
    /// L2DCT: smallest weight w_min.
    pub min_weight: f64,
    /// L2DCT: largest weight w_max.
    pub max_weight: f64,
    /// L2DCT: bytes sent up to which the weight is w_max.
    pub full_weight_bytes: u64,
    /// L2DCT: bytes sent from which the weight is w_min.
    pub min_weight_bytes: u64,
    /// PASE: the lowest queue's window grows as an intermediate queue's.
    pub pase_lowest_grows: bool,
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
            min_imminence: 1.0,
            max_imminence: 1.0,
            past_deadline_imminence: 1.0,
            min_weight: 1.0,
            max_weight: 1.0,
            full_weight_bytes: u64::MAX - 1,
            min_weight_bytes: u64::MAX,
            pase_lowest_grows: false,
        }
    }
    /// DCTCP with pFabric Table 1's parameters.
    pub fn dctcp(p: &DctcpParams, spraying: bool) -> Self {
        Self::dctcp_like(RateControl::Dctcp, p, spraying)
    }
    /// D2TCP: DCTCP's settings plus the imminence bounds.
    pub fn d2tcp(p: &D2tcpParams, spraying: bool) -> Self {
        WindowConfig {
            min_imminence: p.min_imminence,
            max_imminence: p.max_imminence,
            past_deadline_imminence: p.past_deadline_imminence,
            ..Self::dctcp_like(RateControl::D2tcp, &p.dctcp_part(), spraying)
        }
    }
    /// L2DCT: DCTCP's settings plus the weights and their thresholds.
    pub fn l2dct(p: &L2dctParams, spraying: bool) -> Self {
        WindowConfig {
            min_weight: p.min_weight,
            max_weight: p.max_weight,
            full_weight_bytes: p.full_weight_bytes,
            min_weight_bytes: p.min_weight_bytes,
            ..Self::dctcp_like(RateControl::L2dct, &p.dctcp_part(), spraying)
        }
    }
    /// PASE's end hosts: DCTCP's settings from PASE's parameters, with
    /// PASE's window rules ([`RateControl::Pase`]) or, for PASE-DCTCP,
    /// plain DCTCP's.
    pub fn pase(p: &PaseParams, spraying: bool) -> Self {
        let control = match p.rate_control {
            PaseRateControl::Pase => RateControl::Pase,
            PaseRateControl::Dctcp => RateControl::Dctcp,
        };
        WindowConfig { pase_lowest_grows: p.lowest_queue_grows, ..Self::dctcp_like(control, &p.dctcp_part(), spraying) }
    }
    /// The settings DCTCP, D2TCP and L2DCT share, from DCTCP's parameters.
    fn dctcp_like(control: RateControl, p: &DctcpParams, spraying: bool) -> Self {
        WindowConfig {
            control,
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
            ..Self::tcp(&TcpParams::default(), false)
        }
    }
}

/// D2TCP's deadline imminence d (D2TCP paper section 3): d = Tc / D, where
/// Tc = B / ((3/4) W / RTT) is the time the flow needs to send its
/// remaining B bytes at its average DCTCP window (3/4 of W, the sawtooth's
/// mean) and D the time left to its deadline; d is capped to
/// [`WindowConfig::min_imminence`, `max_imminence`] (0.5 and 2 in the
/// paper). A flow without a deadline, or before its first RTT sample, has
/// d = 1 (plain DCTCP); a flow past its deadline gets
/// `past_deadline_imminence` (a choice, see `D2tcpParams`).
pub fn d2tcp_imminence(cfg: &WindowConfig, remaining_bytes: u64, cwnd: f64, srtt_ps: f64, now: SimTime, deadline: SimTime) -> f64 {
    if deadline == SimTime::NEVER || srtt_ps <= 0.0 {
        return 1.0;
    }
    if now >= deadline {
        return cfg.past_deadline_imminence;
    }
    let tc_ps = remaining_bytes as f64 * srtt_ps / (0.75 * cwnd.max(1.0) * MSS as f64);
    let d = tc_ps / (deadline - now).ps() as f64;
    d.clamp(cfg.min_imminence, cfg.max_imminence)
}

/// L2DCT's weight w_c of a flow that has sent `bytes_sent` payload bytes
/// (L2DCT paper section IV, least attained service): w_max up to
/// `full_weight_bytes`, then falling linearly to w_min at
/// `min_weight_bytes` and staying there. The thresholds' defaults come
/// from the ns-3 L2dctSocket port (200 and 1000 segments), see
/// `L2dctParams`.
pub fn l2dct_weight(cfg: &WindowConfig, bytes_sent: u64) -> f64 {
    if bytes_sent <= cfg.full_weight_bytes {
        return cfg.max_weight;
    }
    let span = (cfg.min_weight_bytes - cfg.full_weight_bytes) as f64;
    let f = ((bytes_sent - cfg.full_weight_bytes) as f64 / span).min(1.0);
    cfg.max_weight - (cfg.max_weight - cfg.min_weight) * f
}

/// Sender state of one flow.
#[derive(Clone, Debug)]
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
    /// Sub-queue of its data packets (PASE's arbitrated queue; 0 otherwise).
    pub class: u8,
    /// PASE: the arbitrated queue as the window sees it.
    pub mode: PaseMode,
    /// PASE: period of the lowest queue's probes.
    pub probe_interval: SimTime,
    /// PASE: header-only probes sent.
    pub probes_sent: u32,
    /// PASE: data retransmissions started by a timeout.
    pub timeout_retransmissions: u32,
    /// Absolute deadline (arrival + the flow's deadline), `NEVER` without
    /// one; D2TCP reads it.
    deadline: SimTime,
}

/// Receiver state of one flow: which packets arrived, and the cumulative
/// ACK point. Shared by every transport that acknowledges each packet.
#[derive(Clone, Debug)]
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
#[derive(Clone)]
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

    fn on_ack<T: From<FlowId>>(&mut self, flow: FlowId, h: WindowHeader, echo_sent_at: SimTime, io: &mut Io<T>) {
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
        let dctcp_family = cfg.control.is_dctcp_family();
        if dctcp_family && newly > 0 {
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
                // DCTCP cuts by alpha / 2; D2TCP by alpha^d / 2 (section 3);
                // L2DCT by alpha^w_c / 2 (section IV).
                let p = match cfg.control {
                    RateControl::D2tcp => {
                        let left = s.size - s.bytes_sent();
                        s.alpha.powf(d2tcp_imminence(cfg, left, s.cwnd, s.srtt_ps, io.now, s.deadline))
                    }
                    RateControl::L2dct => s.alpha.powf(l2dct_weight(cfg, s.bytes_sent())),
                    _ => s.alpha,
                };
                s.cwnd = (s.cwnd * (1.0 - p / 2.0)).max(1.0);
                s.ssthresh = s.cwnd.max(2.0);
                s.cwr_end = s.sb.snd_nxt;
            }
        }
        // Window growth: slow start below ssthresh, then one packet per
        // window (L2DCT: k = w_c / w_max packets per window, section IV).
        // PASE: only intermediate queues grow (section 3.2); the top queue
        // holds the reference rate's window, the lowest one packet.
        let grows = cfg.control != RateControl::Pase || s.mode == PaseMode::Middle || (s.mode == PaseMode::Lowest && cfg.pase_lowest_grows);
        if newly > 0 && !s.in_recovery && !(h.ece && dctcp_family) && grows {
            let k = if cfg.control == RateControl::L2dct { l2dct_weight(cfg, s.bytes_sent()) / cfg.max_weight } else { 1.0 };
            for _ in 0..newly {
                s.cwnd += if s.cwnd < s.ssthresh { 1.0 } else { k / s.cwnd };
            }
            s.cwnd = s.cwnd.min(cfg.max_cwnd);
        }
        if newly > 0 || was_probing {
            // PASE's lowest queue: no timeout (hence no probe) sooner than
            // one probe interval after progress.
            let wait = if cfg.control == RateControl::Pase && s.mode == PaseMode::Lowest { s.rto.max(s.probe_interval) } else { s.rto };
            s.rto_deadline = io.now + wait;
        }
        self.send_window(flow, io);
    }

    /// Sends while the pipe is below the window.
    pub fn send_window<T: From<FlowId>>(&mut self, flow: FlowId, io: &mut Io<T>) {
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
            p.class = s.class;
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

    fn on_timeout<T: From<FlowId>>(&mut self, flow: FlowId, io: &mut Io<T>) {
        let cfg = &self.cfg;
        let s = &mut self.senders[flow.idx()];
        if cfg.control == RateControl::Pase && s.mode == PaseMode::Lowest {
            // PASE (section 3.2): in the lowest queue packets may wait long
            // behind higher queues; instead of retransmitting, send a
            // header-only probe once per probe interval (its ACK restarts
            // the clock). Data are retransmitted again once the flow leaves
            // the lowest queue (its timeout then fires as usual).
            let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Probe, s.sb.snd_una, HEADER);
            p.class = s.class;
            p.sent_at = io.now;
            p.header = Header::Window(WindowHeader::default());
            io.send(p);
            s.probes_sent += 1;
            io.trace(|| TraceKind::Control { flow, what: "pase_probe" });
            s.rto_deadline = io.now + s.probe_interval;
            s.arm(io, flow);
            return;
        }
        if s.sb.in_flight > 0 {
            s.timeout_retransmissions += 1;
        }
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
            class: 0,
            mode: PaseMode::Top,
            probe_interval: SimTime::NEVER,
            probes_sent: 0,
            timeout_retransmissions: 0,
            deadline: f.deadline.map_or(SimTime::NEVER, |d| f.arrival + d),
        }
    }

    /// Payload bytes sent at least once (packets below `snd_nxt`).
    fn bytes_sent(&self) -> u64 {
        (self.sb.snd_nxt as u64 * MSS as u64).min(self.size)
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
    fn arm<T: From<FlowId>>(&mut self, io: &mut Io<T>, flow: FlowId) {
        if self.sb.done() || self.rto_deadline == SimTime::NEVER {
            return;
        }
        if self.armed_at.is_none_or(|a| self.rto_deadline < a) {
            self.armed_at = Some(self.rto_deadline);
            io.set_timer(self.rto_deadline, T::from(flow));
        }
    }
}

impl WindowTransport {
    /// Starts a flow's sender and receiver (without sending: see
    /// [`WindowTransport::send_window`]).
    pub fn add_flow(&mut self, f: &FlowSpec) {
        debug_assert_eq!(f.id.idx(), self.senders.len());
        self.senders.push(Sender::new(f, &self.cfg));
        self.receivers.push(Receiver::new(f.size));
    }
    /// A data packet, probe or ACK of a window transport reached its host.
    pub fn handle_packet<T: From<FlowId>>(&mut self, p: Packet, io: &mut Io<T>) {
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
    /// A flow's retransmission timer fired.
    pub fn handle_timer<T: From<FlowId>>(&mut self, flow: FlowId, io: &mut Io<T>) {
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
    /// True when the receiver of `flow` holds every packet.
    pub fn receiver_done(&self, flow: FlowId) -> bool {
        self.receivers[flow.idx()].count == self.receivers[flow.idx()].n
    }
}

impl Sender {
    /// True once every packet is acknowledged.
    pub fn done(&self) -> bool {
        self.sb.done()
    }
    /// Payload bytes not yet acknowledged.
    pub fn remaining_bytes(&self) -> u64 {
        self.sb.remaining_bytes()
    }
    /// Sets the window, in packets, keeping slow start off (PASE).
    pub fn set_window(&mut self, cwnd: f64) {
        self.cwnd = cwnd.max(1.0);
        self.ssthresh = self.cwnd;
    }
    /// The smoothed RTT estimate (zero before the first sample).
    pub fn srtt(&self) -> SimTime {
        SimTime::from_ps(self.srtt_ps as u64)
    }
}

impl Protocol for WindowTransport {
    type Timer = FlowId;

    fn name(&self) -> &'static str {
        match self.cfg.control {
            RateControl::NewReno => "tcp",
            RateControl::Dctcp => "dctcp",
            RateControl::PFabric => "pfabric",
            RateControl::D2tcp => "d2tcp",
            RateControl::L2dct => "l2dct",
            RateControl::Pase => "pase",
        }
    }

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<FlowId>) {
        self.add_flow(f);
        self.send_window(f.id, io);
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<FlowId>) {
        self.handle_packet(p, io);
    }

    fn on_timer(&mut self, flow: FlowId, io: &mut Io<FlowId>) {
        self.handle_timer(flow, io);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d2tcp() -> WindowConfig {
        WindowConfig::d2tcp(&D2tcpParams::default(), true)
    }
    fn l2dct() -> WindowConfig {
        WindowConfig::l2dct(&L2dctParams::default(), true)
    }
    const RTT_PS: f64 = 100e6; // 100 us

    /// D2TCP section 3: for the same alpha, a near-deadline flow (d > 1)
    /// cuts less than DCTCP and a far-deadline flow (d < 1) cuts more.
    #[test]
    fn d2tcp_near_deadline_cuts_less_than_far_deadline() {
        let cfg = d2tcp();
        let now = SimTime::from_us_f64(1000.0);
        // 146 KB left at a 10-packet window and 100 us RTT: Tc = 146000 x
        // 100 us / (0.75 x 14600) = 1333 us.
        let (left, cwnd) = (146_000, 10.0);
        let near = d2tcp_imminence(&cfg, left, cwnd, RTT_PS, now, now + SimTime::from_us_f64(1000.0));
        let far = d2tcp_imminence(&cfg, left, cwnd, RTT_PS, now, now + SimTime::from_us_f64(2000.0));
        assert!((near - 1333.33 / 1000.0).abs() < 1e-3, "near d = {near}");
        assert!((far - 1333.33 / 2000.0).abs() < 1e-3, "far d = {far}");
        let alpha: f64 = 0.4;
        let (p_near, p_far) = (alpha.powf(near), alpha.powf(far));
        assert!(p_near < alpha && alpha < p_far, "p near {p_near}, DCTCP {alpha}, p far {p_far}");
        let w = 20.0;
        assert!(w * (1.0 - p_near / 2.0) > w * (1.0 - p_far / 2.0));
    }

    /// D2TCP section 3: d is capped to [0.5, 2]; no deadline means d = 1
    /// (DCTCP); past the deadline, `past_deadline_imminence`.
    #[test]
    fn d2tcp_imminence_is_clamped() {
        let cfg = d2tcp();
        let now = SimTime::from_us_f64(1000.0);
        let d = |left: u64, deadline: SimTime| d2tcp_imminence(&cfg, left, 10.0, RTT_PS, now, deadline);
        assert_eq!(d(146_000, now + SimTime::from_us_f64(10.0)), 2.0, "very near: capped at 2");
        assert_eq!(d(1460, now + SimTime::from_us_f64(100_000.0)), 0.5, "very far: capped at 0.5");
        assert_eq!(d(146_000, SimTime::NEVER), 1.0, "no deadline: DCTCP");
        assert_eq!(d(146_000, now), cfg.past_deadline_imminence, "deadline reached");
        assert_eq!(d2tcp_imminence(&cfg, 146_000, 10.0, 0.0, now, now + SimTime::from_us_f64(10.0)), 1.0, "no RTT sample yet");
    }

    /// L2DCT section IV: the weight falls with bytes sent, so a flow that
    /// has sent more grows slower (k = w / w_max) and cuts more
    /// (b = alpha^w with alpha < 1).
    #[test]
    fn l2dct_weight_favours_flows_that_sent_less() {
        let cfg = l2dct();
        let (full, floor) = (cfg.full_weight_bytes, cfg.min_weight_bytes);
        assert_eq!(l2dct_weight(&cfg, 0), 2.5);
        assert_eq!(l2dct_weight(&cfg, full), 2.5);
        assert!((l2dct_weight(&cfg, (full + floor) / 2) - (2.5 + 0.125) / 2.0).abs() < 1e-9, "linear in between");
        assert_eq!(l2dct_weight(&cfg, floor), 0.125);
        assert_eq!(l2dct_weight(&cfg, 100 * floor), 0.125);
        let (small, large) = (l2dct_weight(&cfg, 100_000), l2dct_weight(&cfg, 1_000_000));
        assert!(small > large);
        assert!(small / cfg.max_weight > large / cfg.max_weight, "the larger flow grows slower");
        let alpha: f64 = 0.3;
        assert!(alpha.powf(small) < alpha.powf(large), "the larger flow cuts more");
    }
}
