//! Window-based transports: TCP NewReno, DCTCP, D2TCP, L2DCT and pFabric's
//! minimal rate control share one sender and receiver; each flow's sender
//! holds one congestion controller (`controller/`: a [`FlowController`]
//! built per flow by the configuration's [`ControllerConfig`], in the shape
//! of quinn-proto's and smoltcp's congestion controllers) that owns the
//! window and whatever state its rule keeps. A protocol outside this folder
//! may add its own controller (a [`ControllerExtension`], the transport's
//! type parameter).
//!
//! The sender keeps a per-packet scoreboard (unsent, in flight, SACKed,
//! lost), sends while the packets in flight ("pipe", RFC 6675) are below
//! the controller's window, retransmits lost packets first, and runs one
//! retransmission timer. It detects loss (duplicate ACKs, NewReno's fast
//! recovery, RFC 6582; the timeout) and tells the controller, which moves
//! the window; the sender holds no congestion state of its own (issue 29:
//! the controllers own theirs, and `controller/` never sees the sender).
//!
//! The receiver acknowledges every data packet with the cumulative
//! ACK, the packet it got (a selective ACK), its ECN mark and timestamp;
//! with delayed ACKs (DCTCP's `testbed_kernel` profile) it acknowledges
//! every second packet, a lone one after a timeout, and at once a packet out
//! of order or one whose CE mark differs from the last (RFC 8257 section
//! 3.2). The delayed-ACK state and timer are the receiver's own.

use crate::ids::{FlowId, NodeId};
use crate::net::Network;
use crate::packet::{Header, Packet, PacketKind};
use crate::protocol::flow_table::FlowTable;
use crate::protocol::scoreboard::Scoreboard;
use crate::protocol::timer::{Fired, LazyTimer, RttEstimator};
use crate::protocol::{Io, Protocol};
use crate::trace::TraceKind;
use crate::units::{data_packet_wire_size, packets_for, SimTime, HEADER};
use crate::workload::FlowSpec;
use controller::{AckEvent, CongestionEvent, Controller, ControllerConfig, D2tcpConfig, DctcpConfig, FlowController, L2dctConfig, PFabricConfig};
use controller::{ControllerExtension, NoExtension, ProbeInstead, RenoConfig, UNBOUNDED_CWND};
pub use header::WindowHeader;
use params::{D2tcpParams, DctcpParams, DctcpSettings, L2dctParams, PFabricParams, TcpParams};

pub mod controller;
mod header;
pub mod params;
mod plugins;
pub use plugins::{D2tcpPlugin, DctcpPlugin, L2dctPlugin, PFabricPlugin, TcpPlugin};

/// Settings of a window transport, from the protocol's parameters: its
/// controller's (the factory of each flow's controller) and its sender's;
/// `X` is a protocol's own controller, if any.
#[derive(Clone, Debug)]
pub struct WindowConfig<X: ControllerExtension = NoExtension> {
    /// Which controller, with its own parameters (window bounds included).
    pub control: ControllerConfig<X>,
    /// Smallest (TCP) or fixed (pFabric) retransmission timeout.
    pub min_rto: SimTime,
    /// Largest timeout after exponential backoff.
    pub max_rto: SimTime,
    /// pFabric: the timeout is fixed (no RTT estimation, no backoff).
    pub fixed_rto: bool,
    /// Duplicate ACKs that trigger fast retransmit; `None` disables it
    /// (pFabric: spraying reorders packets, section 4.2).
    pub dupack_threshold: Option<u32>,
    /// With spraying, on a flow with more than one path between its
    /// source and destination, the threshold grows to this fraction of the
    /// window. The pFabric ns-2 scripts set `dynamic_dupack_ 0.75` for TCP
    /// and DCTCP when packets are sprayed (under `if {$perflowMP == 0}`),
    /// and their `tcp-full.h` reads "if non-zero, set dupack threshold to
    /// max(3, dynamic_dupack_ * cwnd)". It is there for the reordering that
    /// spraying causes across paths: a flow with one path (one switch, or
    /// two hosts in one rack) sees none, and its threshold stays at
    /// `dupack_threshold`.
    pub dupack_cwnd_fraction: f64,
    /// The receiver delays ACKs, holding a lone packet's ACK at most this
    /// long (DCTCP's `delayed_ack`); `None`: every packet is ACKed at once.
    pub delayed_ack: Option<SimTime>,
}

impl WindowConfig {
    /// TCP NewReno with pFabric Table 1's parameters.
    pub fn tcp(p: &TcpParams, spraying: bool) -> Self {
        WindowConfig {
            control: ControllerConfig::NewReno(RenoConfig { init_cwnd: p.init_cwnd as f64, max_cwnd: UNBOUNDED_CWND }),
            min_rto: SimTime::from_us_f64(p.min_rto_us),
            max_rto: SimTime::from_us_f64(p.max_rto_us),
            fixed_rto: false,
            dupack_threshold: Some(p.dupack_threshold),
            dupack_cwnd_fraction: if spraying { 0.75 } else { 0.0 },
            delayed_ack: None,
        }
    }
    /// DCTCP with its profile's defaults and the parameters given.
    pub fn dctcp(p: &DctcpParams, spraying: bool) -> Self {
        let d = p.dctcp_part();
        Self::dctcp_like(ControllerConfig::Dctcp(DctcpConfig::new(&d)), &d, spraying)
    }
    /// D2TCP: DCTCP's settings plus the imminence bounds.
    pub fn d2tcp(p: &D2tcpParams, spraying: bool) -> Self {
        Self::dctcp_like(ControllerConfig::D2tcp(D2tcpConfig::new(p)), &p.dctcp_part(), spraying)
    }
    /// L2DCT: DCTCP's settings plus the weights and their thresholds.
    pub fn l2dct(p: &L2dctParams, spraying: bool) -> Self {
        Self::dctcp_like(ControllerConfig::L2dct(L2dctConfig::new(p)), &p.dctcp_part(), spraying)
    }
    /// pFabric with its Table 1 parameters.
    pub fn pfabric(p: &PFabricParams) -> Self {
        WindowConfig {
            control: ControllerConfig::PFabric(PFabricConfig::new(p)),
            min_rto: SimTime::from_us_f64(p.rto_us),
            max_rto: SimTime::from_us_f64(p.rto_us),
            fixed_rto: true,
            dupack_threshold: None,
            dupack_cwnd_fraction: 0.0,
            delayed_ack: None,
        }
    }
}

impl<X: ControllerExtension> WindowConfig<X> {
    /// The sender's settings of the DCTCP family (DCTCP, D2TCP, L2DCT and a
    /// protocol's own member), from DCTCP's settings, with `control` built
    /// from the same; the rest as TCP's.
    pub(crate) fn dctcp_like(control: ControllerConfig<X>, p: &DctcpSettings, spraying: bool) -> Self {
        let tcp = WindowConfig::tcp(&TcpParams::default(), spraying);
        WindowConfig {
            control,
            min_rto: SimTime::from_us_f64(p.min_rto_us),
            max_rto: SimTime::from_us_f64(p.max_rto_us),
            fixed_rto: tcp.fixed_rto,
            dupack_threshold: Some(p.dupack_threshold),
            dupack_cwnd_fraction: tcp.dupack_cwnd_fraction,
            delayed_ack: p.delayed_ack_timeout_us.map(SimTime::from_us_f64),
        }
    }
}

/// Sender state of one flow: the transport's (scoreboard, RTT estimate,
/// timer, loss detection, counters) and its congestion controller, which
/// owns the window.
#[derive(Clone, Debug)]
pub struct Sender<X = NoExtension> {
    src: NodeId,
    dst: NodeId,
    /// Payload bytes.
    size: u64,
    /// Which packets are in flight, acknowledged, lost.
    pub sb: Scoreboard,
    /// The congestion controller: the window and its rule's state.
    pub cc: FlowController<X>,
    rtt: RttEstimator,
    /// The current retransmission timeout.
    rto: SimTime,
    timer: LazyTimer,
    /// The duplicate-ACK threshold grows with the window
    /// ([`WindowConfig::dupack_cwnd_fraction`]): spraying, and more than
    /// one path from the source to the destination.
    multipath: bool,
    last_cum: u32,
    dupacks: u32,
    in_recovery: bool,
    recover: u32,
    /// Fast retransmit has begun: the next send goes out whatever the pipe.
    retransmit_now: bool,
    /// Sub-queue of its data packets (set by a protocol that arbitrates
    /// queues; 0 otherwise).
    pub class: u8,
    /// Header-only probes sent instead of retransmissions
    /// ([`ProbeInstead`]).
    pub probes_sent: u32,
    /// Data retransmissions started by a timeout.
    pub timeout_retransmissions: u32,
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

/// A rate protocol's receiver (PDQ, RCP, D3) takes packet `p`: records it
/// when it is data, settles and retires the flow when that completes it,
/// and returns the cumulative ACK to echo and whether the receiver is still
/// held. A retired receiver's late packet gets the cumulative ACK
/// `u32::MAX`: its sender has every ACK already (retired), or the receiver
/// held every byte (a complete receiver's cumulative ACK acknowledges
/// everything too).
pub(crate) fn receive_at_rate_receiver<T>(receivers: &mut FlowTable<Receiver>, p: &Packet, io: &mut Io<T>) -> (u32, bool) {
    let Some(r) = receivers.get_mut(p.flow.idx()) else { return (u32::MAX, false) };
    let complete = p.kind == PacketKind::Data && r.receive(p.seq);
    let cum = r.cum;
    if complete {
        io.flow_done(p.flow);
        receivers.retire(p.flow.idx());
    }
    (cum, !complete)
}

/// A window transport's timers: the sender's and the receiver's, each
/// reading and writing only its own end's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowTimer {
    /// The sender's retransmission (or probe) timer of a flow.
    Rto(FlowId),
    /// The receiver's delayed-ACK timer of a flow.
    DelayedAck(FlowId),
}

/// The receiver's ACK held back under delayed ACKs (RFC 1122 section
/// 4.2.3.2, RFC 5681 section 4.2: an ACK for at least every second
/// full-sized segment, none held longer than the timeout; Linux's
/// `__tcp_ack_snd_check`: at once when more than one full segment is
/// unacknowledged or data are out of order) and DCTCP's CE state (RFC 8257
/// section 3.2).
#[derive(Clone, Debug)]
struct DelayedAck {
    /// The receiving host and the sender's (an ACK's source and destination).
    host: NodeId,
    peer: NodeId,
    /// DCTCP.CE: whether the last data packet carried a CE mark.
    ce: bool,
    /// A data packet is received and not yet acknowledged.
    held: bool,
    /// Its sequence number (the selective ACK of the ACK that covers it).
    held_seq: u32,
    /// When it was sent: the ACK's timestamp echo (RFC 7323 section 4.3:
    /// the earliest unacknowledged segment's, so the sender's RTT sample
    /// includes the delay).
    held_sent_at: SimTime,
    /// The held ACK's timeout.
    timer: LazyTimer,
}

/// Receiver state of one flow of a window transport.
#[derive(Clone, Debug)]
struct WindowReceiver {
    /// Which packets arrived.
    r: Receiver,
    /// Delayed ACKs; `None`: every packet is ACKed at once.
    delayed: Option<DelayedAck>,
}

/// An ACK of `flow` from `from` to `to` for packet `seq`.
#[allow(clippy::too_many_arguments)]
fn ack_packet(flow: FlowId, from: NodeId, to: NodeId, seq: u32, cum_ack: u32, sack: u32, ece: bool, echo: SimTime) -> Packet {
    let mut ack = Packet::new(flow, from, to, PacketKind::Ack, seq, HEADER);
    ack.rank = 0; // ACKs are the most urgent (pFabric ns-2: prio 0)
    ack.sent_at = echo; // timestamp echo
    ack.header = Header::new(WindowHeader { cum_ack, sack, ece });
    ack
}

/// The window-based transports as one [`Protocol`]; `X` is a protocol's
/// own controller, if any.
#[derive(Clone)]
pub struct WindowTransport<X: ControllerExtension = NoExtension> {
    cfg: WindowConfig<X>,
    /// Sender state by flow id (at the source), until the flow's last ACK
    /// (then retired: memory follows the live flows).
    pub senders: FlowTable<Sender<X>>,
    /// Receiver state by flow id (at the destination), until it holds
    /// every byte and has sent its last ACK (one held back by delayed ACKs
    /// goes first). Kept apart from the senders and retired by the
    /// destination's own events, so that a host's code reads only its own
    /// state (`crate::parallel`).
    receivers: FlowTable<WindowReceiver>,
}

impl<X: ControllerExtension> WindowTransport<X> {
    /// A transport with `cfg`.
    pub fn new(cfg: WindowConfig<X>) -> Self {
        WindowTransport { cfg, senders: FlowTable::default(), receivers: FlowTable::default() }
    }

    fn on_ack<T: From<WindowTimer>>(&mut self, flow: FlowId, h: WindowHeader, echo_sent_at: SimTime, io: &mut Io<T>) {
        let cfg = &self.cfg;
        let Some(s) = self.senders.get_mut(flow.idx()) else { return };
        if s.sb.done() {
            return;
        }
        // pFabric: any ACK ends probe mode and the run of timeouts.
        let was_probing = s.cc.on_ack_arrival();
        if !cfg.fixed_rto && h.sack < s.sb.n() {
            s.rtt.sample(io.now - echo_sent_at);
            s.rto = s.rtt.rto(cfg.min_rto, cfg.max_rto);
        }
        let newly = s.sb.on_ack(h.cum_ack, h.sack);
        if s.sb.done() {
            // Every packet acknowledged (so received): forget the sender.
            self.senders.retire(flow.idx());
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
            let thr = if s.multipath { thr.max((cfg.dupack_cwnd_fraction * s.cc.window()) as u32) } else { thr };
            if s.in_recovery {
                if s.sb.snd_una > s.recover {
                    s.in_recovery = false;
                    s.cc.on_recovery_end();
                } else {
                    // RFC 6675 section 5, step (C): the loss marking
                    // (IsLost) runs on every ACK of the recovery.
                    s.sb.mark_lost_below_acked(thr);
                    if advanced && !s.sb.loss_examined(s.sb.snd_una) {
                        // NewReno partial ACK (RFC 6582 section 3.2, step
                        // 3): "retransmit the first unacknowledged segment"
                        // (unless the loss marking already did).
                        s.sb.mark_lost(s.sb.snd_una);
                    }
                }
            } else if s.dupacks == thr {
                s.cc.on_congestion_event(CongestionEvent::DupAcks);
                s.in_recovery = true;
                s.recover = s.sb.snd_nxt.saturating_sub(1);
                s.sb.mark_lost(s.sb.snd_una);
                // RFC 6675 section 5, step (4.3): the packets with
                // DupThresh acknowledged above them are lost too, so the
                // pipe counts only what is still in the network.
                s.sb.mark_lost_below_acked(thr);
                // RFC 5681 section 3.2, step 4: "The lost segment starting
                // at SND.UNA MUST be retransmitted", at once, whatever the
                // pipe (RFC 6675 section 5, step (4.3) likewise).
                s.retransmit_now = true;
            }
        }
        // The controller moves the window: DCTCP's estimate and cut on
        // marks, growth (slow start, congestion avoidance).
        let ack = AckEvent {
            newly,
            ece: h.ece,
            sack: h.sack,
            snd_una: s.sb.snd_una,
            snd_nxt: s.sb.snd_nxt,
            in_recovery: s.in_recovery,
            size: s.size,
            srtt_ps: s.rtt.srtt_ps(),
            now: io.now,
        };
        s.cc.on_ack(&ack);
        // RFC 6298 section 5.3: "When an ACK is received that acknowledges
        // new data, restart the retransmission timer": new data is a
        // cumulative ACK that moved. An ACK that only SACKs a later packet
        // leaves the timer running, so a lost first packet still times out
        // one RTO after it was sent.
        if advanced || was_probing {
            s.timer.set(io.now + s.cc.progress_wait(s.rto));
        }
        self.send_window(flow, io);
    }

    /// Sends while the pipe is below the window.
    pub fn send_window<T: From<WindowTimer>>(&mut self, flow: FlowId, io: &mut Io<T>) {
        let (ecn, prioritized) = (self.cfg.control.ecn_capable(), self.cfg.control.prioritized());
        let Some(s) = self.senders.get_mut(flow.idx()) else { return };
        if s.sb.done() || s.cc.in_probe_mode() {
            return;
        }
        let was_idle = s.sb.in_flight == 0;
        // Whole packets of window: the float-to-integer cast truncates,
        // which is `floor` for a window of at least one packet (and much
        // cheaper than the `floor` call this target makes without SSE4.1).
        let window = s.cc.window().max(1.0) as u32;
        // Fast retransmit sends the first lost packet even when the pipe
        // fills the window (RFC 5681 section 3.2).
        let mut first_regardless = std::mem::take(&mut s.retransmit_now) && s.sb.in_flight >= window;
        while s.sb.in_flight < window || std::mem::take(&mut first_regardless) {
            let Some(seq) = s.sb.take_next() else { break };
            let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Data, seq, data_packet_wire_size(s.size, seq));
            p.sent_at = io.now;
            p.ecn.capable = ecn;
            p.class = s.class;
            if prioritized {
                // pFabric: remaining un-ACKed, un-SACKed bytes (the ns-2
                // code's `set_prio`, docs/protocols/pfabric.md).
                p.rank = s.sb.remaining_bytes();
            }
            p.header = Header::new(WindowHeader::default());
            io.send(p);
        }
        if was_idle && s.sb.in_flight > 0 {
            s.timer.set(io.now + s.rto);
        }
        s.arm(io, flow);
    }

    fn on_timeout<T: From<WindowTimer>>(&mut self, flow: FlowId, io: &mut Io<T>) {
        let cfg = &self.cfg;
        let Some(s) = self.senders.get_mut(flow.idx()) else { return };
        if let Some(ProbeInstead { interval, traced_as }) = s.cc.probe_instead_of_retransmit() {
            // The controller asks for a header-only probe instead of a
            // retransmission, once per interval (its ACK restarts the
            // clock); data are retransmitted again once it stops asking.
            let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Probe, s.sb.snd_una, HEADER);
            p.class = s.class;
            p.sent_at = io.now;
            p.header = Header::new(WindowHeader::default());
            io.send(p);
            s.probes_sent += 1;
            io.trace(|| TraceKind::Control { flow, what: traced_as });
            s.timer.set(io.now + interval);
            s.arm(io, flow);
            return;
        }
        if s.sb.in_flight > 0 {
            s.timeout_retransmissions += 1;
        }
        // The window collapses; pFabric counts the timeouts in a row and
        // may enter probe mode (section 4.2).
        s.cc.on_timeout();
        s.in_recovery = false;
        s.dupacks = 0;
        s.sb.all_in_flight_lost();
        if !cfg.fixed_rto {
            s.rto = (s.rto + s.rto).min(cfg.max_rto);
        }
        let probe = s.cc.in_probe_mode();
        io.trace(|| TraceKind::Timeout { flow, probe_mode: probe });
        s.timer.set(io.now + s.rto);
        if probe {
            // A probe: a 1-byte payload at the flow's priority (section 4.2).
            let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Probe, s.sb.snd_una, HEADER + 1);
            p.rank = s.sb.remaining_bytes();
            p.sent_at = io.now;
            p.header = Header::new(WindowHeader::default());
            io.send(p);
            io.trace(|| TraceKind::Control { flow, what: controller::pfabric::PROBE });
            s.arm(io, flow);
        } else {
            self.send_window(flow, io);
        }
    }
}

impl<X: ControllerExtension> Sender<X> {
    fn new(f: &FlowSpec, cfg: &WindowConfig<X>, net: &Network) -> Self {
        Sender {
            src: f.src,
            dst: f.dst,
            size: f.size,
            sb: Scoreboard::new(f.size),
            cc: cfg.control.new_flow(f),
            rtt: RttEstimator::default(),
            rto: cfg.min_rto,
            timer: LazyTimer::new(),
            multipath: cfg.dupack_cwnd_fraction > 0.0 && net.has_multiple_paths(f.src, f.dst),
            last_cum: 0,
            dupacks: 0,
            in_recovery: false,
            recover: 0,
            retransmit_now: false,
            class: 0,
            probes_sent: 0,
            timeout_retransmissions: 0,
        }
    }

    /// Keeps the retransmission timer's event pending (a lazy timer).
    fn arm<T: From<WindowTimer>>(&mut self, io: &mut Io<T>, flow: FlowId) {
        if self.sb.done() {
            return;
        }
        if let Some(at) = self.timer.arm(io.now) {
            io.set_timer(at, T::from(WindowTimer::Rto(flow)));
        }
    }
}

impl<X: ControllerExtension> WindowTransport<X> {
    /// Starts a flow's sender and receiver (without sending: see
    /// [`WindowTransport::send_window`]).
    pub fn add_flow(&mut self, f: &FlowSpec, net: &Network) {
        self.add_receiver(f);
        self.add_sender(f, net);
    }
    /// Starts a flow's sender (at its source, on `net`; without sending).
    pub fn add_sender(&mut self, f: &FlowSpec, net: &Network) {
        self.senders.push(f.id.idx(), Sender::new(f, &self.cfg, net));
    }
    /// Starts a flow's receiver (at its destination).
    pub fn add_receiver(&mut self, f: &FlowSpec) {
        let delayed = self.cfg.delayed_ack.map(|_| DelayedAck {
            host: f.dst,
            peer: f.src,
            ce: false,
            held: false,
            held_seq: 0,
            held_sent_at: SimTime::ZERO,
            timer: LazyTimer::new(),
        });
        self.receivers.push(f.id.idx(), WindowReceiver { r: Receiver::new(f.size), delayed });
    }
    /// A data packet, probe or ACK of a window transport reached its host.
    pub fn handle_packet<T: From<WindowTimer>>(&mut self, p: Packet, io: &mut Io<T>) {
        let h: WindowHeader = p.header.read();
        match p.kind {
            PacketKind::Ack => self.on_ack(p.flow, h, p.sent_at, io),
            PacketKind::Data if self.cfg.delayed_ack.is_some() && self.receivers.get(p.flow.idx()).is_some() => self.on_data_delayed(p, io),
            PacketKind::Data | PacketKind::Probe => {
                let mut sack = u32::MAX;
                // A retired receiver (it held every byte) still answers a
                // late duplicate, as before, with the cumulative ACK
                // `u32::MAX`, which acknowledges everything as a complete
                // receiver's would: the ACK crosses the network, and the
                // sender ignores it or, if that ACK is the first to say
                // all arrived, is done (the scoreboard reads min(cum, n)).
                let mut cum = u32::MAX;
                if let Some(WindowReceiver { r, delayed }) = self.receivers.get_mut(p.flow.idx()) {
                    let mut complete = false;
                    if let Some(d) = delayed {
                        // A probe's ACK covers the packet held back too.
                        d.held = false;
                        d.timer.clear();
                    }
                    if p.kind == PacketKind::Data {
                        sack = p.seq;
                        complete = r.receive(p.seq);
                    }
                    cum = r.cum;
                    if complete {
                        io.flow_done(p.flow);
                        self.receivers.retire(p.flow.idx());
                    }
                } else if p.kind == PacketKind::Data {
                    sack = p.seq;
                }
                io.send(ack_packet(p.flow, p.dst, p.src, p.seq, cum, sack, p.ecn.ce, p.sent_at));
            }
            PacketKind::Control => {}
        }
    }
    /// A data packet reached a receiver that delays ACKs. Its ACK goes at
    /// once when the CE mark changes (RFC 8257 section 3.2, after the ACK
    /// held back, sent with the old CE state as Linux's
    /// `dctcp_ece_ack_update` does), when it is the second unacknowledged
    /// packet, or when it arrives out of order, is a duplicate, or data
    /// wait out of order (RFC 5681 section 4.2); otherwise it is held until
    /// the next packet or the timeout.
    fn on_data_delayed<T: From<WindowTimer>>(&mut self, p: Packet, io: &mut Io<T>) {
        let timeout = self.cfg.delayed_ack.unwrap_or(SimTime::ZERO);
        let Some(WindowReceiver { r, delayed: Some(d) }) = self.receivers.get_mut(p.flow.idx()) else { return };
        let (prior_cum, out_of_order_before) = (r.cum, r.count > r.cum);
        let ce_changed = p.ecn.ce != d.ce;
        if ce_changed && d.held {
            io.send(ack_packet(p.flow, d.host, d.peer, d.held_seq, prior_cum, d.held_seq, d.ce, d.held_sent_at));
            d.held = false;
        }
        d.ce = p.ecn.ce;
        let complete = r.receive(p.seq);
        if complete {
            io.flow_done(p.flow);
        }
        let in_order = p.seq == prior_cum && !out_of_order_before && r.count == r.cum;
        if ce_changed || d.held || !in_order {
            let echo = if d.held { d.held_sent_at } else { p.sent_at };
            io.send(ack_packet(p.flow, d.host, d.peer, p.seq, r.cum, p.seq, d.ce, echo));
            d.held = false;
            d.timer.clear();
            if complete {
                // Every byte in and acknowledged: nothing is needed again.
                self.receivers.retire(p.flow.idx());
            }
            return;
        }
        // Held back (the last ACK too: the timer sends it, then retires).
        d.held = true;
        d.held_seq = p.seq;
        d.held_sent_at = p.sent_at;
        d.timer.set(io.now + timeout);
        if let Some(at) = d.timer.arm(io.now) {
            io.set_timer(at, T::from(WindowTimer::DelayedAck(p.flow)));
        }
    }
    /// A receiver's delayed-ACK timer fired: the ACK held back goes out.
    /// Reads and writes only the receiver's state.
    fn on_delayed_ack_timer<T: From<WindowTimer>>(&mut self, flow: FlowId, io: &mut Io<T>) {
        let Some(WindowReceiver { r, delayed: Some(d) }) = self.receivers.get_mut(flow.idx()) else { return };
        match d.timer.fire(io.now) {
            Fired::Stale => {}
            Fired::NotDue => {
                if let Some(at) = d.timer.arm(io.now) {
                    io.set_timer(at, T::from(WindowTimer::DelayedAck(flow)));
                }
            }
            Fired::Due => {
                d.timer.clear();
                if d.held {
                    io.send(ack_packet(flow, d.host, d.peer, d.held_seq, r.cum, d.held_seq, d.ce, d.held_sent_at));
                    d.held = false;
                }
                if r.count == r.n {
                    // The last ACK is out: nothing is needed again.
                    self.receivers.retire(flow.idx());
                }
            }
        }
    }
    /// A window transport's timer fired: a sender's retransmission timer
    /// or a receiver's delayed-ACK timer.
    pub fn handle_timer<T: From<WindowTimer>>(&mut self, timer: WindowTimer, io: &mut Io<T>) {
        let flow = match timer {
            WindowTimer::Rto(flow) => flow,
            WindowTimer::DelayedAck(flow) => return self.on_delayed_ack_timer(flow, io),
        };
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
    /// `workload.abort_at_deadline` at the source: the sender stops and is
    /// forgotten (its timers and ACKs then find nothing). True if it was
    /// still at work.
    pub fn abort_sender(&mut self, flow: FlowId) -> bool {
        if self.senders.get(flow.idx()).is_none_or(|s| s.done()) {
            return false;
        }
        self.senders.retire(flow.idx());
        true
    }
    /// `workload.abort_at_deadline` at the destination: the receiver is
    /// forgotten (a later packet is answered as for a flow that is over,
    /// and never completes it).
    pub fn abort_receiver(&mut self, flow: FlowId) {
        self.receivers.retire(flow.idx());
    }
    /// True when the receiver of `flow` holds every packet.
    pub fn receiver_done(&self, flow: FlowId) -> bool {
        self.receivers.get(flow.idx()).is_none_or(|w| w.r.count == w.r.n)
    }
    /// True once every packet of `flow` is acknowledged (also once the
    /// flow is retired).
    pub fn sender_done(&self, flow: FlowId) -> bool {
        self.senders.get(flow.idx()).is_none_or(|s| s.done())
    }
}

impl<X> Sender<X> {
    /// True once every packet is acknowledged.
    pub fn done(&self) -> bool {
        self.sb.done()
    }
    /// Payload bytes not yet acknowledged.
    pub fn remaining_bytes(&self) -> u64 {
        self.sb.remaining_bytes()
    }
    /// The smoothed RTT estimate (zero before the first sample).
    pub fn srtt(&self) -> SimTime {
        SimTime::from_ps(self.rtt.srtt_ps() as u64)
    }
}

impl<X: ControllerExtension> Protocol for WindowTransport<X> {
    type Timer = WindowTimer;

    fn name(&self) -> &'static str {
        self.cfg.control.name()
    }

    fn prepare_receiver(&mut self, f: &FlowSpec) {
        self.add_receiver(f);
    }

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<WindowTimer>) {
        self.add_sender(f, io.net);
        self.send_window(f.id, io);
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<WindowTimer>) {
        self.handle_packet(p, io);
    }

    fn abort_sender(&mut self, flow: FlowId, _io: &mut Io<WindowTimer>) -> bool {
        WindowTransport::abort_sender(self, flow)
    }

    fn abort_receiver(&mut self, flow: FlowId, _at: NodeId) {
        WindowTransport::abort_receiver(self, flow)
    }

    fn on_timer(&mut self, timer: WindowTimer, io: &mut Io<WindowTimer>) {
        self.handle_timer(timer, io);
    }
}

#[cfg(test)]
mod tests;
