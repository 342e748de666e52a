//! Window-based transports: TCP NewReno, DCTCP, D2TCP, L2DCT and pFabric's
//! minimal rate control share one sender and receiver; a [`Controller`]
//! (`cc.rs`) decides how the window moves (smoltcp's congestion
//! controllers, quinn's `congestion.rs`). PASE's end hosts join as a
//! further controller.
//!
//! The sender keeps a per-packet scoreboard (unsent, in flight, SACKed,
//! lost), sends while the packets in flight ("pipe", RFC 6675) are below
//! the window, retransmits lost packets first, and runs one retransmission
//! timer. The receiver acknowledges every data packet with the cumulative
//! ACK, the packet it got (a selective ACK), its ECN mark and timestamp.

use super::cc::{CongestionControl, Controller, D2tcp, Dctcp, L2dct, NewReno, PFabric, PaseHost};
use super::flow_table::FlowTable;
use super::scoreboard::Scoreboard;
use super::timer::{Fired, LazyTimer, RttEstimator};
use super::{Io, Protocol};
use crate::ids::{FlowId, NodeId};
use crate::packet::{Header, Packet, PacketKind, WindowHeader};
use crate::protocol::params::{D2tcpParams, DctcpParams, L2dctParams, PFabricParams, PaseParams, PaseRateControl, TcpParams};
use crate::trace::{ControlEvent, TraceKind};
use crate::units::{data_packet_wire_size, packets_for, SimTime, HEADER, MSS};
use crate::workload::FlowSpec;

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

/// Settings of a window transport, from the protocol's parameters.
#[derive(Clone, Debug)]
pub struct WindowConfig {
    /// Which controller, with its own parameters.
    pub control: Controller,
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
}

impl WindowConfig {
    /// TCP NewReno with pFabric Table 1's parameters.
    pub fn tcp(p: &TcpParams, spraying: bool) -> Self {
        WindowConfig {
            control: Controller::NewReno(NewReno),
            init_cwnd: p.init_cwnd as f64,
            max_cwnd: 1e9,
            min_rto: SimTime::from_us_f64(p.min_rto_us),
            max_rto: SimTime::from_us_f64(p.max_rto_us),
            fixed_rto: false,
            dupack_threshold: Some(p.dupack_threshold),
            dupack_cwnd_fraction: if spraying { 0.75 } else { 0.0 },
        }
    }
    /// DCTCP with pFabric Table 1's parameters.
    pub fn dctcp(p: &DctcpParams, spraying: bool) -> Self {
        Self::dctcp_like(Controller::Dctcp(Dctcp::new(p)), p, spraying)
    }
    /// D2TCP: DCTCP's settings plus the imminence bounds.
    pub fn d2tcp(p: &D2tcpParams, spraying: bool) -> Self {
        Self::dctcp_like(Controller::D2tcp(D2tcp::new(p)), &p.dctcp_part(), spraying)
    }
    /// L2DCT: DCTCP's settings plus the weights and their thresholds.
    pub fn l2dct(p: &L2dctParams, spraying: bool) -> Self {
        Self::dctcp_like(Controller::L2dct(L2dct::new(p)), &p.dctcp_part(), spraying)
    }
    /// PASE's end hosts: DCTCP's settings from PASE's parameters, with
    /// PASE's window rules ([`PaseHost`]) or, for PASE-DCTCP, plain
    /// DCTCP's.
    pub fn pase(p: &PaseParams, spraying: bool) -> Self {
        let d = p.dctcp_part();
        let control = match p.rate_control {
            PaseRateControl::Pase => Controller::Pase(PaseHost { dctcp: Dctcp::new(&d), lowest_grows: p.lowest_queue_grows }),
            PaseRateControl::Dctcp => Controller::Dctcp(Dctcp::new(&d)),
        };
        Self::dctcp_like(control, &d, spraying)
    }
    /// The settings DCTCP, D2TCP and L2DCT share, from DCTCP's parameters.
    fn dctcp_like(control: Controller, p: &DctcpParams, spraying: bool) -> Self {
        WindowConfig {
            control,
            init_cwnd: p.init_cwnd as f64,
            min_rto: SimTime::from_us_f64(p.min_rto_us),
            max_rto: SimTime::from_us_f64(p.max_rto_us),
            dupack_threshold: Some(p.dupack_threshold),
            ..Self::tcp(&TcpParams::default(), spraying)
        }
    }
    /// pFabric with its Table 1 parameters.
    pub fn pfabric(p: &PFabricParams) -> Self {
        WindowConfig {
            control: Controller::PFabric(PFabric::new(p)),
            init_cwnd: p.init_cwnd as f64,
            max_cwnd: p.max_cwnd as f64,
            min_rto: SimTime::from_us_f64(p.rto_us),
            max_rto: SimTime::from_us_f64(p.rto_us),
            fixed_rto: true,
            dupack_threshold: None,
            dupack_cwnd_fraction: 0.0,
        }
    }
}

/// Sender state of one flow.
#[derive(Clone, Debug)]
pub struct Sender {
    src: NodeId,
    dst: NodeId,
    /// Payload bytes.
    pub(super) size: u64,
    /// Which packets are in flight, acknowledged, lost.
    pub sb: Scoreboard,
    /// Congestion window, packets.
    pub cwnd: f64,
    ssthresh: f64,
    rtt: RttEstimator,
    /// The current retransmission timeout.
    pub(super) rto: SimTime,
    timer: LazyTimer,
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
    pub(super) deadline: SimTime,
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
    /// Sender state by flow id, until the flow's last ACK (then retired,
    /// with its receiver: memory follows the live flows).
    pub senders: FlowTable<Sender>,
    receivers: FlowTable<Receiver>,
}

impl WindowTransport {
    /// A transport with `cfg`.
    pub fn new(cfg: WindowConfig) -> Self {
        WindowTransport { cfg, senders: FlowTable::default(), receivers: FlowTable::default() }
    }

    fn on_ack<T: From<FlowId>>(&mut self, flow: FlowId, h: WindowHeader, echo_sent_at: SimTime, io: &mut Io<T>) {
        let cfg = &self.cfg;
        let Some(s) = self.senders.get_mut(flow.idx()) else { return };
        if s.sb.done() {
            return;
        }
        // pFabric: any ACK ends probe mode and the run of timeouts.
        s.timeouts_in_row = 0;
        let was_probing = s.probe_mode;
        s.probe_mode = false;
        if !cfg.fixed_rto && h.sack < s.sb.n() {
            s.rtt.sample(io.now - echo_sent_at);
            s.rto = s.rtt.rto(cfg.min_rto, cfg.max_rto);
        }
        let newly = s.sb.on_ack(h.cum_ack, h.sack);
        if s.sb.done() {
            // Every packet acknowledged (so received): forget the flow.
            self.senders.retire(flow.idx());
            self.receivers.retire(flow.idx());
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
        let cc = &cfg.control;
        let dctcp = cc.dctcp();
        if let Some(d) = dctcp.filter(|_| newly > 0) {
            s.win_acked += newly;
            if h.ece {
                s.win_marked += newly;
            }
            if s.sb.snd_una > s.win_end {
                let f = s.win_marked as f64 / s.win_acked.max(1) as f64;
                s.alpha = (1.0 - d.g) * s.alpha + d.g * f;
                s.win_acked = 0;
                s.win_marked = 0;
                s.win_end = s.sb.snd_nxt;
            }
            if h.ece && h.sack >= s.cwr_end && !s.in_recovery {
                // DCTCP cuts by alpha / 2; D2TCP by alpha^d / 2 (section 3);
                // L2DCT by alpha^w_c / 2 (section IV).
                let p = cc.cut(s, io.now);
                s.cwnd = (s.cwnd * (1.0 - p / 2.0)).max(1.0);
                s.ssthresh = s.cwnd.max(2.0);
                s.cwr_end = s.sb.snd_nxt;
            }
        }
        // Window growth: slow start below ssthresh, then k packets per
        // window (1; L2DCT: w_c / w_max, section IV). PASE: only
        // intermediate queues grow (section 3.2).
        if newly > 0 && !s.in_recovery && !(h.ece && dctcp.is_some()) && cc.grows(s) {
            let k = cc.avoidance_gain(s);
            for _ in 0..newly {
                s.cwnd += if s.cwnd < s.ssthresh { 1.0 } else { k / s.cwnd };
            }
            s.cwnd = s.cwnd.min(cfg.max_cwnd);
        }
        if newly > 0 || was_probing {
            s.timer.set(io.now + cc.progress_wait(s));
        }
        self.send_window(flow, io);
    }

    /// Sends while the pipe is below the window.
    pub fn send_window<T: From<FlowId>>(&mut self, flow: FlowId, io: &mut Io<T>) {
        let (ecn, prioritized) = (self.cfg.control.dctcp().is_some(), self.cfg.control.prioritized());
        let Some(s) = self.senders.get_mut(flow.idx()) else { return };
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
            p.ecn.capable = ecn;
            p.class = s.class;
            if prioritized {
                // pFabric: remaining un-ACKed, un-SACKed bytes (the ns-2
                // code's `set_prio`, PROTOCOLS.md section 3).
                p.rank = s.sb.remaining_bytes();
            }
            p.header = Header::Window(WindowHeader::default());
            io.send(p);
        }
        if was_idle && s.sb.in_flight > 0 {
            s.timer.set(io.now + s.rto);
        }
        s.arm(io, flow);
    }

    fn on_timeout<T: From<FlowId>>(&mut self, flow: FlowId, io: &mut Io<T>) {
        let cfg = &self.cfg;
        let Some(s) = self.senders.get_mut(flow.idx()) else { return };
        if cfg.control.probes_instead_of_retransmitting(s) {
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
            io.trace(|| TraceKind::Control { flow, what: ControlEvent::PaseProbe });
            s.timer.set(io.now + s.probe_interval);
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
        if cfg.control.probe_mode_after().is_some_and(|n| s.timeouts_in_row >= n) {
            s.probe_mode = true;
        }
        let probe = s.probe_mode;
        io.trace(|| TraceKind::Timeout { flow, probe_mode: probe });
        s.timer.set(io.now + s.rto);
        if probe {
            // A probe: a 1-byte payload at the flow's priority (section 4.2).
            let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Probe, s.sb.snd_una, HEADER + 1);
            p.rank = s.sb.remaining_bytes();
            p.sent_at = io.now;
            p.header = Header::Window(WindowHeader::default());
            io.send(p);
            io.trace(|| TraceKind::Control { flow, what: ControlEvent::Probe });
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
            rtt: RttEstimator::default(),
            rto: cfg.min_rto,
            timer: LazyTimer::new(),
            last_cum: 0,
            dupacks: 0,
            in_recovery: false,
            recover: 0,
            alpha: cfg.control.dctcp().map_or(0.0, |d| d.initial_alpha),
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
    pub(super) fn bytes_sent(&self) -> u64 {
        (self.sb.snd_nxt as u64 * MSS as u64).min(self.size)
    }

    /// The smoothed RTT, picoseconds (0 before the first sample).
    pub(super) fn srtt_ps(&self) -> f64 {
        self.rtt.srtt_ps()
    }

    /// Keeps the retransmission timer's event pending (a lazy timer).
    fn arm<T: From<FlowId>>(&mut self, io: &mut Io<T>, flow: FlowId) {
        if self.sb.done() {
            return;
        }
        if let Some(at) = self.timer.arm() {
            io.set_timer(at, T::from(flow));
        }
    }
}

impl WindowTransport {
    /// Starts a flow's sender and receiver (without sending: see
    /// [`WindowTransport::send_window`]).
    pub fn add_flow(&mut self, f: &FlowSpec) {
        self.senders.push(f.id.idx(), Sender::new(f, &self.cfg));
        self.receivers.push(f.id.idx(), Receiver::new(f.size));
    }
    /// A data packet, probe or ACK of a window transport reached its host.
    pub fn handle_packet<T: From<FlowId>>(&mut self, p: Packet, io: &mut Io<T>) {
        let Header::Window(h) = p.header else { return };
        match p.kind {
            PacketKind::Ack => self.on_ack(p.flow, h, p.sent_at, io),
            PacketKind::Data | PacketKind::Probe => {
                let mut sack = u32::MAX;
                // A retired flow (its sender has every ACK) still answers a
                // late duplicate, as before: the ACK crosses the network,
                // and the retired sender ignores it.
                let mut cum = u32::MAX;
                if let Some(r) = self.receivers.get_mut(p.flow.idx()) {
                    if p.kind == PacketKind::Data {
                        sack = p.seq;
                        if r.receive(p.seq) {
                            io.flow_done(p.flow);
                        }
                    }
                    cum = r.cum;
                } else if p.kind == PacketKind::Data {
                    sack = p.seq;
                }
                let mut ack = Packet::new(p.flow, p.dst, p.src, PacketKind::Ack, p.seq, HEADER);
                ack.rank = 0; // ACKs are the most urgent (pFabric ns-2: prio 0)
                ack.sent_at = p.sent_at; // timestamp echo
                ack.header = Header::Window(WindowHeader { cum_ack: cum, sack, ece: p.ecn.ce });
                io.send(ack);
            }
            PacketKind::Control => {}
        }
    }
    /// A flow's retransmission timer fired.
    pub fn handle_timer<T: From<FlowId>>(&mut self, flow: FlowId, io: &mut Io<T>) {
        let Some(s) = self.senders.get_mut(flow.idx()) else { return };
        if s.sb.done() {
            return;
        }
        match s.timer.fire(io.now) {
            Fired::Stale => {}
            Fired::NotDue => s.arm(io, flow),
            Fired::Due => self.on_timeout(flow, io),
        }
    }
    /// True when the receiver of `flow` holds every packet.
    pub fn receiver_done(&self, flow: FlowId) -> bool {
        self.receivers.get(flow.idx()).is_none_or(|r| r.count == r.n)
    }
    /// True once every packet of `flow` is acknowledged (also once the
    /// flow is retired).
    pub fn sender_done(&self, flow: FlowId) -> bool {
        self.senders.get(flow.idx()).is_none_or(|s| s.done())
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
        SimTime::from_ps(self.rtt.srtt_ps() as u64)
    }
}

impl Protocol for WindowTransport {
    type Timer = FlowId;

    fn name(&self) -> &'static str {
        self.cfg.control.name()
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
