//! RCP, the Rate Control Protocol (Dukkipati and McKeown; docs/protocols/rcp.md): the simplest switch-resident protocol.
//!
//! * Switch part (every output port, host NICs included): once per control
//!   interval T the port updates its fair rate
//!   `R <- R (1 + (T/d) (alpha (C - y) - beta q / d) / C)`, with C the link
//!   rate, y the input rate over the interval, q the queue and d the mean
//!   RTT (the RCP ns-2 router's equation), and lowers the rate field of
//!   every data packet passing through to R.
//! * Host part: the receiver echoes the path's rate in its ACK; the sender
//!   paces packets at that rate. A new flow's first packet learns the rate,
//!   as RCP's SYN does, so data starts one round trip after arrival. A
//!   sender whose pacing gap is longer than the RTT sends a 40-B rate
//!   refresh (the RCP ns-2 host's REF packet) every RTT, so a flow slowed
//!   to a trickle hears at once when its path frees up, and it reschedules
//!   its next packet when the rate rises.
//!
//! * Exact flow counting (`count_flows`, off by default; PDQ section 5's
//!   RCP baseline "count[s] the exact number of flows at switches"): each
//!   port counts the flows whose packets cross it, from a flow's first
//!   packet there to its FIN (sent once every byte is acknowledged) or
//!   `count_flows_lifetime_rtts` without a packet, caps its rate at C / N
//!   when a flow enters, and updates R <- R + (T/d) (alpha (C - y) -
//!   beta q / d) / N, the equation above with the count N for C / R.
//!
//! D3 (Wilson et al., SIGCOMM 2011; docs/protocols/d3.md) runs on the
//! same hosts and ports ([`Rcp::d3`]): see [`D3Port`].

use crate::ids::{FlowId, NodeId, PortId};
use crate::packet::{Header, Packet, PacketKind};
use crate::protocol::flow_table::FlowTable;
use crate::protocol::scoreboard::Scoreboard;
use crate::protocol::timer::{Fired, LazyTimer, Pacer};
use crate::protocol::window::{receive_at_rate_receiver, Receiver};
use crate::protocol::{Io, Protocol};
use crate::trace::TraceKind;
use crate::units::{data_packet_wire_size, SimTime, HEADER};
use crate::workload::FlowSpec;
pub use header::RcpHeader;
use params::RcpParams;
use std::collections::BTreeMap;

pub mod events;
mod header;
pub mod params;
mod plugin;
pub use plugin::{D3Plugin, RcpPlugin};

/// RCP timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RcpTimer {
    /// Time for a flow's next paced packet (the number tells stale timers,
    /// superseded by a reschedule, from the current one).
    Pace(FlowId, u32),
    /// Time for a flow's next rate refresh.
    Refresh(FlowId),
    /// A flow's retransmission timeout.
    Rto(FlowId),
    /// A port's rate update.
    Port(PortId),
}

#[derive(Clone)]
struct Sender {
    src: NodeId,
    dst: NodeId,
    size: u64,
    /// D3: absolute deadline, if any.
    deadline: Option<SimTime>,
    /// D3: the next packet sent at or after this time is a rate request.
    next_request_at: SimTime,
    sb: Scoreboard,
    /// Rate learned from the last ACK, bits per second (0: not yet known).
    rate_bps: f64,
    pacer: Pacer,
    refresh_armed: bool,
    rto: LazyTimer,
}

impl Sender {
    /// D3's quenching (`d3`: D3 runs): a deadline flow that cannot finish
    /// in time even at its NIC rate `nic_bps` stops (D3 section 4.3).
    fn d3_hopeless(&self, d3: bool, nic_bps: f64, now: SimTime) -> bool {
        match (d3, self.deadline) {
            (true, Some(d)) => now >= d || self.sb.remaining_bytes() as f64 * 8.0 / nic_bps > (d - now).as_secs_f64(),
            _ => false,
        }
    }

    /// D3: the rank of the next packet (a request once per RTT).
    fn d3_rank(&mut self, p: &RcpParams, now: SimTime, always: bool) -> u64 {
        let rtt = SimTime::from_us_f64(p.rtt_us);
        if !(always || now >= self.next_request_at) {
            return 0;
        }
        self.next_request_at = now + rtt;
        // Desired rate: the bytes left over the time left (D3 section 4).
        let desired = match self.deadline {
            Some(d) if d > now => self.sb.remaining_bytes() as f64 * 8.0 / (d - now).as_secs_f64(),
            _ => 0.0,
        };
        d3_rank::request(desired)
    }

    /// Sends the next data packet, if any is left to send (with a D3 rate
    /// request when due, `d3`), and keeps the retransmission timeout
    /// pending; returns its wire size.
    fn send_one(&mut self, flow: FlowId, p: &RcpParams, d3: bool, io: &mut Io<RcpTimer>) -> Option<u32> {
        let seq = self.sb.take_next()?;
        let size = data_packet_wire_size(self.size, seq);
        let mut pkt = Packet::new(flow, self.src, self.dst, PacketKind::Data, seq, size);
        pkt.sent_at = io.now;
        pkt.header = Header::new(RcpHeader { rate_bps: f32::INFINITY, cum_ack: 0, sack: 0 });
        if d3 {
            pkt.rank = self.d3_rank(p, io.now, false);
        }
        io.send(pkt);
        self.rto.set_if_unset(io.now + SimTime::from_us_f64(p.rto_us));
        if let Some(at) = self.rto.arm(io.now) {
            io.set_timer(at, RcpTimer::Rto(flow));
        }
        Some(size)
    }

    /// A higher rate arrived: bring the next paced packet forward if the
    /// new rate says it is due sooner.
    fn reschedule(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) {
        if !self.pacer.pacing || self.rate_bps <= 0.0 {
            return;
        }
        if let Some((at, token)) = self.pacer.bring_forward(io.now, self.rate_bps) {
            io.set_timer(at, RcpTimer::Pace(flow, token));
        }
    }
}

/// Per-port RCP state.
#[derive(Clone, Debug)]
pub struct RcpPort {
    /// The port's current fair rate, bits per second.
    pub rate_bps: f64,
    input_bytes: u64,
    armed: bool,
    /// Time of the last rate update, if any: a port that went idle stops
    /// its update timer and, when traffic returns, applies the updates of
    /// the intervals it skipped ([`Rcp::catch_up`]).
    last_update: Option<SimTime>,
}

/// A D3 rate request or release in `Packet::rank` (D3's header fields
/// beside the allocated rate, which rides in [`RcpHeader::rate_bps`]):
/// bit 63 marks a request, bit 62 a release (FIN), the low 32 bits are the
/// desired rate as an `f32` (0 for flows without a deadline).
pub mod d3_rank {
    /// The packet is a rate request.
    pub const REQUEST: u64 = 1 << 63;
    /// The flow is over: switches release its allocation.
    pub const FIN: u64 = 1 << 62;
    /// A request for `desired_bps`.
    pub fn request(desired_bps: f64) -> u64 {
        REQUEST | (desired_bps as f32).to_bits() as u64
    }
    /// The desired rate of a request.
    pub fn desired(rank: u64) -> f64 {
        f32::from_bits(rank as u32) as f64
    }
}

/// Per-port D3 state (Wilson et al. section 4.1): the rate allocated to
/// and desired by every flow the port has seen (D3's header carries each
/// hop's past allocation; here the port remembers it, which is the same
/// information), their sums, and the number of flows.
#[derive(Clone, Debug, Default)]
pub struct D3Port {
    /// Per flow: allocation, desired rate, time of the last request.
    flows: std::collections::BTreeMap<u32, (f64, f64, SimTime)>,
    /// Sum of current allocations A.
    pub allocated: f64,
    /// Sum of desired rates D.
    pub demand: f64,
}

impl D3Port {
    /// A rate request of `flow` desiring `desired` at a port that may
    /// allocate `capacity` in all: deadline flows get their desired rate
    /// first come first served, and every flow a share of what the
    /// desired rates leave, never negative (the PDQ paper's D3). A flow
    /// granted nothing gets `floor`, so that it keeps asking every RTT.
    pub fn request(&mut self, flow: u32, desired: f64, capacity: f64, floor: f64, now: SimTime) -> f64 {
        let (a_old, d_old, _) = self.flows.get(&flow).copied().unwrap_or((0.0, 0.0, now));
        self.allocated -= a_old;
        self.demand += desired - d_old;
        let n = (self.flows.len() + usize::from(!self.flows.contains_key(&flow))) as f64;
        let left = (capacity - self.allocated).max(0.0);
        let fair = ((capacity - self.demand) / n).max(0.0);
        let a = if left >= desired { desired + fair.min(left - desired) } else { left };
        let a = a.max(floor);
        self.allocated += a;
        self.flows.insert(flow, (a, desired, now));
        a
    }
    /// The flow is over: its allocation and demand are returned.
    pub fn release(&mut self, flow: u32) {
        if let Some((a, d, _)) = self.flows.remove(&flow) {
            self.allocated -= a;
            self.demand -= d;
        }
    }
    /// Returns the allocations of flows that made no request since
    /// `before`: a flow whose packets are sprayed over several ports asks
    /// each only now and then, and its release reaches one of them.
    pub fn expire(&mut self, before: SimTime) {
        let n = self.flows.len();
        self.flows.retain(|_, e| e.2 >= before);
        if self.flows.len() != n {
            // Sums again in flow order, so rounding does not depend on history.
            self.allocated = self.flows.values().map(|e| e.0).sum();
            self.demand = self.flows.values().map(|e| e.1).sum();
        }
    }
}

/// RCP hosts and switches.
#[derive(Clone)]
pub struct Rcp {
    p: RcpParams,
    /// D3 instead of RCP: per-port allocations (None for RCP).
    d3: Option<Vec<D3Port>>,
    nic_bps: f64,
    /// Sender state by flow id (at the source), until every byte is
    /// acknowledged or D3 quenches the flow (then retired: memory follows
    /// the live flows).
    senders: FlowTable<Sender>,
    /// Receiver state by flow id (at the destination), until it holds
    /// every byte or D3's release says the sender is done. Kept apart from
    /// the senders and retired by the destination's own events, so that a
    /// host's code reads only its own state (`crate::parallel`).
    receivers: FlowTable<Receiver>,
    /// Per-port fair rates.
    pub ports: Vec<RcpPort>,
    capacity: Vec<f64>,
    /// `count_flows`: per port, the flows it counts, each with the time of
    /// its last packet there (empty without `count_flows`).
    counted: Vec<BTreeMap<u32, SimTime>>,
}

impl Rcp {
    /// RCP on a network whose ports have the given rates.
    pub fn new(p: RcpParams, port_rates_bps: Vec<f64>) -> Self {
        Rcp {
            senders: FlowTable::default(),
            receivers: FlowTable::default(),
            ports: port_rates_bps.iter().map(|&c| RcpPort { rate_bps: c, input_bytes: 0, armed: false, last_update: None }).collect(),
            counted: if p.count_flows { vec![BTreeMap::new(); port_rates_bps.len()] } else { Vec::new() },
            capacity: port_rates_bps,
            d3: None,
            nic_bps: 0.0,
            p,
        }
    }

    /// D3 on the same hosts and ports: each port's RCP rate is its
    /// estimate of the capacity it may allocate (the RCP control equation
    /// with D3's alpha and beta tracks the spare capacity from the input
    /// rate and the queue), and data packets are paced at the allocation.
    pub fn d3(p: RcpParams, port_rates_bps: Vec<f64>, nic_bps: f64) -> Self {
        let n = port_rates_bps.len();
        // D3 keeps every flow's allocation itself (validation refuses
        // `params.d3.count_flows`).
        let p = RcpParams { count_flows: false, ..p };
        Rcp { d3: Some(vec![D3Port::default(); n]), nic_bps, ..Rcp::new(p, port_rates_bps) }
    }

    /// The sender of `flow`, which the caller knows is live (not retired).
    #[inline]
    fn sender(&self, flow: FlowId) -> &Sender {
        self.senders.get(flow.idx()).expect("RCP: the sender of a live flow")
    }

    /// Forgets the flow's sender: it is done with it (every byte
    /// acknowledged, or D3 quenched it). Its later timers and ACKs find no
    /// state and are ignored, as they were for a finished sender. (The
    /// receiver is retired by the destination: when it holds every byte,
    /// or when D3's release arrives.)
    fn retire(&mut self, flow: FlowId) {
        self.senders.retire(flow.idx());
    }

    /// A header-only FIN: D3's release of the flow's allocations, or with
    /// `count_flows` the end of the flow at the ports that count it.
    fn d3_release(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) {
        let s = self.sender(flow);
        let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Control, u32::MAX, HEADER);
        p.rank = d3_rank::FIN;
        p.header = Header::new(RcpHeader { rate_bps: f32::INFINITY, cum_ack: 0, sack: 0 });
        io.send(p);
    }

    /// The sender is done with `flow` (every byte acknowledged, or given
    /// up): D3 and RCP counting flows send the FIN.
    fn send_fin(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) {
        if self.d3.is_some() || self.p.count_flows {
            self.d3_release(flow, io);
        }
    }

    /// `count_flows`: the number of flows `port` counts now, at least 1
    /// (after forgetting those not seen for the lifetime).
    fn flows_at(&mut self, port: usize, now: SimTime) -> usize {
        let life = SimTime::from_us_f64(self.p.rtt_us * self.p.count_flows_lifetime_rtts);
        let since = now.saturating_sub(life);
        let c = &mut self.counted[port];
        c.retain(|_, &mut seen| seen >= since);
        c.len().max(1)
    }

    /// One control interval of RCP's rate update at port `i` (RCP paper;
    /// the ns-2 router's `queue_timeout`): with input rate `y_bps` over the
    /// interval and `q_bits` queued, and S = (T/d) (alpha (C - y) - beta q
    /// / d), R <- R (1 + S / C), or with `count_flows` R <- R + S / N, kept
    /// within [C / 1000, C]. d is the flows' mean
    /// RTT, which includes the queueing delay their packets see: the base
    /// RTT plus this port's queue drain time (with a fixed d the queue term
    /// drives the rate to its floor whenever a queue forms). The port timer
    /// applies it every interval; `catch_up` applies it, with y = q = 0, for
    /// the intervals a port was idle.
    fn control_step(&mut self, i: usize, y_bps: f64, q_bits: f64, now: SimTime) -> f64 {
        let c = self.capacity[i];
        let t_s = self.p.control_interval_us * 1e-6;
        let d = self.p.rtt_us * 1e-6 + q_bits / c;
        let spare = (t_s / d) * (self.p.alpha * (c - y_bps) - self.p.beta * q_bits / d);
        let r = self.ports[i].rate_bps;
        let r = if self.p.count_flows {
            // RCP's update with the exact count N for N^ = C / R.
            r + spare / self.flows_at(i, now) as f64
        } else {
            r * (1.0 + spare / c)
        };
        r.clamp(c / 1000.0, c)
    }

    /// `count_flows`: packet `p` of a flow enters `port`. A FIN ends the
    /// flow's count there; a flow's first packet there adds it and caps
    /// the port's rate at C / N, so that the packet, and every packet
    /// after it, carries at most the new fair share.
    fn count(&mut self, port: PortId, p: &Packet, io: &mut Io<RcpTimer>) {
        let i = port.idx();
        if p.kind == PacketKind::Control && p.rank == d3_rank::FIN {
            self.counted[i].remove(&p.flow.0);
            return;
        }
        if self.counted[i].insert(p.flow.0, io.now).is_some() {
            return;
        }
        let n = self.flows_at(i, io.now);
        let fair = self.capacity[i] / n as f64;
        let st = &mut self.ports[i];
        if st.rate_bps > fair {
            st.rate_bps = fair;
            io.trace(|| TraceKind::LinkRate { port, rate_bps: fair });
        }
    }

    /// Traffic reaches `port`, whose update timer stopped when it went
    /// idle: applies the rate updates of the intervals it was idle and arms
    /// the timer again on the same grid of control intervals.
    ///
    /// The RCP ns-2 router (Zhang and Dukkipati, rcp.cc) updates every
    /// interval whatever the traffic: `queue_timeout` computes
    /// `R = R * {1 + (T/rtt)*[alpha*(C - input_tr/T) - beta*Q/rtt]/link_capacity}`
    /// and reschedules itself, so an idle interval (no input, no queue)
    /// raises R by the factor 1 + alpha T / d, up to C. Running the timer on
    /// idle ports would keep every run's event list busy forever; applying
    /// those updates when traffic returns gives the same rate. (Resetting an
    /// idle port to C at once instead, as this model once did, let five
    /// flows slowed to a few Mb/s learn C all at once after one 10 us gap
    /// and overflow the port together.)
    fn catch_up(&mut self, port: PortId, io: &mut Io<RcpTimer>) {
        let i = port.idx();
        let interval = SimTime::from_us_f64(self.p.control_interval_us);
        let c = self.capacity[i];
        let next = match self.ports[i].last_update {
            None => io.now + interval,
            Some(last) => {
                // Each idle interval: y = 0 and q = 0, so d is the base RTT.
                let skipped = (io.now - last).ps() / interval.ps();
                let mut k = 0;
                while k < skipped && self.ports[i].rate_bps < c {
                    self.ports[i].rate_bps = self.control_step(i, 0.0, 0.0, io.now);
                    k += 1;
                }
                if k > 0 {
                    let rate = self.ports[i].rate_bps;
                    io.trace(|| TraceKind::LinkRate { port, rate_bps: rate });
                }
                last + SimTime::from_ps(interval.ps() * (skipped + 1))
            }
        };
        self.ports[i].armed = true;
        io.set_timer(next, RcpTimer::Port(port));
    }

    /// D3: quench the flow.
    fn d3_quench(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) {
        self.d3_release(flow, io);
        // Nothing more to send or wait for: forget the flow. Its data
        // still in flight get their ACKs, which nothing reads, and a
        // receiver completing it now would not count, the flow being
        // settled as terminated.
        self.retire(flow);
        io.flow_terminated(flow);
        io.trace(|| TraceKind::Control { flow, what: events::D3_QUENCH });
    }

    fn send_one(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) -> Option<u32> {
        let d3 = self.d3.is_some();
        let s = self.senders.get_mut(flow.idx()).expect("RCP: the sender of a live flow");
        s.send_one(flow, &self.p, d3, io)
    }

    fn pace(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) {
        let d3 = self.d3.is_some();
        let s = self.senders.get_mut(flow.idx()).expect("RCP: the sender of a live flow");
        if s.sb.done() || s.rate_bps <= 0.0 {
            s.pacer.pacing = false;
            return;
        }
        let rate = s.rate_bps;
        match s.send_one(flow, &self.p, d3, io) {
            Some(size) => {
                let gap = Pacer::gap(size, rate);
                let rtt = SimTime::from_us_f64(self.p.rtt_us);
                let token = s.pacer.schedule(io.now + gap);
                io.set_timer(io.now + gap, RcpTimer::Pace(flow, token));
                if gap > rtt && !s.refresh_armed {
                    s.refresh_armed = true;
                    io.set_timer(io.now + rtt, RcpTimer::Refresh(flow));
                }
            }
            None => s.pacer.pacing = false,
        }
    }
}

impl Protocol for Rcp {
    type Timer = RcpTimer;
    const HAS_PORT_LOGIC: bool = true;

    fn name(&self) -> &'static str {
        if self.d3.is_some() {
            "d3"
        } else {
            "rcp"
        }
    }

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<RcpTimer>) {
        let s = Sender {
            src: f.src,
            dst: f.dst,
            size: f.size,
            deadline: f.deadline.map(|d| f.arrival + d),
            next_request_at: SimTime::ZERO,
            sb: Scoreboard::new(f.size),
            rate_bps: 0.0,
            pacer: Pacer::new(),
            refresh_armed: false,
            rto: LazyTimer::new(),
        };
        self.senders.push(f.id.idx(), s);
        if self.sender(f.id).d3_hopeless(self.d3.is_some(), self.nic_bps, io.now) {
            return self.d3_quench(f.id, io);
        }
        // The first packet learns the path's rate (RCP's SYN does this).
        self.send_one(f.id, io);
    }

    fn prepare_receiver(&mut self, f: &FlowSpec) {
        self.receivers.push(f.id.idx(), Receiver::new(f.size));
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<RcpTimer>) {
        let h: RcpHeader = p.header.read();
        match p.kind {
            PacketKind::Data | PacketKind::Control => {
                // Data, or a rate refresh (REF) or D3 release: acknowledge
                // with the rate. A retired flow's late packet is answered
                // as before; only its cumulative ACK, which nobody reads
                // once the sender is retired, is not kept.
                let mut sack = u32::MAX;
                if p.kind == PacketKind::Data {
                    sack = p.seq;
                }
                let (cum, held) = receive_at_rate_receiver(&mut self.receivers, &p, io);
                if held && p.kind == PacketKind::Control && p.rank == d3_rank::FIN {
                    // D3's release: the sender is done (acknowledged or
                    // quenched), so the receiver is not needed.
                    self.receivers.retire(p.flow.idx());
                }
                let mut ack = Packet::new(p.flow, p.dst, p.src, PacketKind::Ack, p.seq, HEADER);
                ack.header = Header::new(RcpHeader { rate_bps: h.rate_bps, cum_ack: cum, sack });
                io.send(ack);
            }
            PacketKind::Ack => {
                let flow = p.flow;
                let rto = SimTime::from_us_f64(self.p.rto_us);
                let d3 = self.d3.is_some();
                // A retired flow (over at its sender) ignores late ACKs.
                let Some(s) = self.senders.get_mut(flow.idx()) else { return };
                let progress = s.sb.on_ack(h.cum_ack, h.sack) > 0;
                if s.sb.done() {
                    self.send_fin(flow, io);
                    // Every byte acknowledged (so received): forget the flow.
                    self.retire(flow);
                    return;
                }
                if s.d3_hopeless(d3, self.nic_bps, io.now) {
                    return self.d3_quench(flow, io);
                }
                if progress {
                    // A deadline needs an event pending (none may be, after a timeout).
                    s.rto.set(io.now + rto);
                    if let Some(at) = s.rto.arm(io.now) {
                        io.set_timer(at, RcpTimer::Rto(flow));
                    }
                }
                let old_rate = s.rate_bps;
                if h.rate_bps.is_finite() {
                    s.rate_bps = h.rate_bps as f64;
                }
                if !s.pacer.pacing {
                    self.pace(flow, io);
                } else if s.rate_bps > old_rate {
                    s.reschedule(flow, io);
                }
            }
            _ => {}
        }
    }

    fn abort_sender(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) -> bool {
        if self.senders.get(flow.idx()).is_none() {
            return false;
        }
        // D3: the switches return the flow's allocation; RCP counting
        // flows: they stop counting it.
        self.send_fin(flow, io);
        self.retire(flow);
        true
    }

    fn abort_receiver(&mut self, flow: FlowId, _at: NodeId) {
        self.receivers.retire(flow.idx());
    }

    fn on_timer(&mut self, t: RcpTimer, io: &mut Io<RcpTimer>) {
        match t {
            // A retired flow's timers find no sender: ignored.
            RcpTimer::Pace(flow, token) => {
                if self.senders.get(flow.idx()).is_some_and(|s| s.pacer.is_current(token)) {
                    self.pace(flow, io);
                }
            }
            RcpTimer::Refresh(flow) => {
                let rtt = SimTime::from_us_f64(self.p.rtt_us);
                let d3 = self.d3.is_some();
                let Some(s) = self.senders.get_mut(flow.idx()) else { return };
                s.refresh_armed = false;
                if s.sb.done() || !s.pacer.pacing || s.pacer.next_at() <= io.now + rtt {
                    return; // the next data packet will learn the rate soon enough
                }
                let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Control, 0, HEADER);
                p.sent_at = io.now;
                p.header = Header::new(RcpHeader { rate_bps: f32::INFINITY, cum_ack: 0, sack: 0 });
                if d3 {
                    // D3: a flow slowed to a trickle asks again every RTT.
                    p.rank = s.d3_rank(&self.p, io.now, true);
                }
                io.send(p);
                io.trace(|| TraceKind::Control { flow, what: events::RCP_REFRESH });
                s.refresh_armed = true;
                io.set_timer(io.now + rtt, RcpTimer::Refresh(flow));
            }
            RcpTimer::Rto(flow) => {
                let Some(s) = self.senders.get_mut(flow.idx()) else { return };
                let fired = s.rto.fire(io.now);
                if s.sb.done() {
                    return;
                }
                if fired != Fired::Due {
                    if let Some(at) = s.rto.arm(io.now) {
                        io.set_timer(at, RcpTimer::Rto(flow));
                    }
                    return;
                }
                // Timeout: everything unacknowledged is resent.
                s.sb.all_in_flight_lost();
                s.rto.clear();
                io.trace(|| TraceKind::Timeout { flow, probe_mode: false });
                if s.rate_bps <= 0.0 {
                    // The rate-learning packet itself was lost: send it again.
                    self.send_one(flow, io);
                } else if !s.pacer.pacing {
                    self.pace(flow, io);
                }
            }
            RcpTimer::Port(port) => {
                let i = port.idx();
                let t_s = self.p.control_interval_us * 1e-6;
                let y = self.ports[i].input_bytes as f64 * 8.0 / t_s;
                let q = io.queue_bytes[i] as f64 * 8.0;
                if let Some(d3) = &mut self.d3 {
                    let life = SimTime::from_us_f64(self.p.rtt_us * self.p.d3_allocation_lifetime_rtts);
                    d3[i].expire(io.now.saturating_sub(life));
                }
                let idle = self.ports[i].input_bytes == 0 && q == 0.0;
                let r = self.control_step(i, y, q, io.now);
                let st = &mut self.ports[i];
                st.rate_bps = r;
                st.input_bytes = 0;
                st.last_update = Some(io.now);
                let rate = st.rate_bps;
                io.trace(|| TraceKind::LinkRate { port, rate_bps: rate });
                if idle {
                    // Nothing arrived and nothing waits: the timer stops
                    // until traffic returns, which then applies the idle
                    // intervals' updates it skipped (`catch_up`).
                    st.armed = false;
                } else {
                    io.set_timer(io.now + SimTime::from_us_f64(self.p.control_interval_us), RcpTimer::Port(port));
                }
            }
        }
    }

    fn on_port_enqueue(&mut self, port: PortId, p: &mut Packet, io: &mut Io<RcpTimer>) {
        if !self.ports[port.idx()].armed {
            self.catch_up(port, io);
        }
        if self.p.count_flows && matches!(p.kind, PacketKind::Data | PacketKind::Control) {
            self.count(port, p, io);
        }
        let st = &mut self.ports[port.idx()];
        st.input_bytes += p.size as u64;
        if matches!(p.kind, PacketKind::Data | PacketKind::Control) {
            let mut h = p.header.edit::<RcpHeader>();
            match &mut self.d3 {
                None => h.rate_bps = h.rate_bps.min(st.rate_bps as f32),
                Some(d3) if p.rank & d3_rank::FIN != 0 => d3[port.idx()].release(p.flow.0),
                Some(d3) if p.rank & d3_rank::REQUEST != 0 => {
                    let c = st.rate_bps;
                    let a = d3[port.idx()].request(p.flow.0, d3_rank::desired(p.rank), c, self.capacity[port.idx()] / 1000.0, io.now);
                    h.rate_bps = h.rate_bps.min(a as f32);
                }
                Some(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod d3_tests {
    use super::D3Port;
    use crate::units::SimTime;

    const C: f64 = 1e9;

    #[test]
    fn deadline_flows_get_their_desired_rate_first_come_first_served() {
        let mut p = D3Port::default();
        // The first request: its 600 Mb/s plus the fair share of what the
        // desires leave, (1000 - 600) / 1.
        assert_eq!(p.request(1, 600e6, C, 1e6, SimTime::ZERO), 1000e6);
        // The next asks 600 Mb/s too: only what is left, 0 (the floor).
        assert_eq!(p.request(2, 600e6, C, 1e6, SimTime::ZERO), 1e6);
        // Flow 1's next request (past allocation returned first): desired
        // 600 plus the fair share, now (1000 - 1200) / 2 < 0, so 0.
        assert_eq!(p.request(1, 600e6, C, 1e6, SimTime::ZERO), 600e6);
        // Flow 2 gets what flow 1 no longer holds.
        assert_eq!(p.request(2, 600e6, C, 1e6, SimTime::ZERO), 400e6);
    }

    #[test]
    fn flows_without_deadlines_share_and_the_fair_share_is_never_negative() {
        let mut p = D3Port::default();
        assert_eq!(p.request(1, 0.0, C, 0.0, SimTime::ZERO), 1000e6);
        // Two flows: each is offered (C - D) / N = 500; flow 1 still holds
        // 1000 until its next request, so flow 2 gets what is left, 0.
        assert_eq!(p.request(2, 0.0, C, 0.0, SimTime::ZERO), 0.0);
        assert_eq!(p.request(1, 0.0, C, 0.0, SimTime::ZERO), 500e6);
        assert_eq!(p.request(2, 0.0, C, 0.0, SimTime::ZERO), 500e6);
        // A deadline flow desiring more than the link: the others' fair
        // share is 0, not negative, and the link is never over-allocated.
        let a3 = p.request(3, 2e9, C, 0.0, SimTime::ZERO);
        assert_eq!(a3, 0.0, "nothing left while flows 1 and 2 hold their shares");
        assert_eq!(p.request(1, 0.0, C, 0.0, SimTime::ZERO), 0.0, "(C - D) / N < 0 gives 0");
        assert!(p.allocated <= C + 1.0);
        p.release(1);
        p.release(2);
        p.release(3);
        assert_eq!((p.allocated, p.demand), (0.0, 0.0));
    }
}
