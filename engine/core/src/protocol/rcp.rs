//! RCP, the Rate Control Protocol (Dukkipati and McKeown; PROTOCOLS.md
//! section 9): the simplest switch-resident protocol.
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

use super::window::Receiver;
use super::{Io, Protocol};
use crate::ids::{FlowId, NodeId, PortId};
use crate::packet::{Header, Packet, PacketKind, RcpHeader};
use crate::protocol::params::RcpParams;
use crate::trace::TraceKind;
use super::scoreboard::Scoreboard;
use crate::units::{data_packet_wire_size, SimTime, HEADER};
use crate::workload::FlowSpec;

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

struct Sender {
    src: NodeId,
    dst: NodeId,
    size: u64,
    sb: Scoreboard,
    /// Rate learned from the last ACK, bits per second (0: not yet known).
    rate_bps: f64,
    pacing: bool,
    /// Current pacing timer: its number and when it fires.
    pace_token: u32,
    next_pace_at: SimTime,
    refresh_armed: bool,
    rto_deadline: SimTime,
    rto_armed: Option<SimTime>,
}

/// Per-port RCP state.
#[derive(Clone, Debug)]
pub struct RcpPort {
    /// The port's current fair rate, bits per second.
    pub rate_bps: f64,
    input_bytes: u64,
    armed: bool,
}

/// RCP hosts and switches.
pub struct Rcp {
    p: RcpParams,
    senders: Vec<Sender>,
    receivers: Vec<Receiver>,
    /// Per-port fair rates.
    pub ports: Vec<RcpPort>,
    capacity: Vec<f64>,
}

impl Rcp {
    /// RCP on a network whose ports have the given rates.
    pub fn new(p: RcpParams, port_rates_bps: Vec<f64>) -> Self {
        Rcp {
            p,
            senders: Vec::new(),
            receivers: Vec::new(),
            ports: port_rates_bps.iter().map(|&c| RcpPort { rate_bps: c, input_bytes: 0, armed: false }).collect(),
            capacity: port_rates_bps,
        }
    }

    fn send_one(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) -> Option<u32> {
        let s = &mut self.senders[flow.idx()];
        let seq = s.sb.take_next()?;
        let size = data_packet_wire_size(s.size, seq);
        let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Data, seq, size);
        p.sent_at = io.now;
        p.header = Header::Rcp(RcpHeader { rate_bps: f32::INFINITY, cum_ack: 0, sack: 0 });
        io.send(p);
        if s.rto_deadline == SimTime::NEVER {
            s.rto_deadline = io.now + SimTime::from_us_f64(self.p.rto_us);
        }
        if s.rto_armed.is_none() {
            s.rto_armed = Some(s.rto_deadline);
            io.set_timer(s.rto_deadline, RcpTimer::Rto(flow));
        }
        Some(size)
    }

    fn pace(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) {
        let s = &self.senders[flow.idx()];
        if s.sb.done() || s.rate_bps <= 0.0 {
            self.senders[flow.idx()].pacing = false;
            return;
        }
        let rate = s.rate_bps;
        match self.send_one(flow, io) {
            Some(size) => {
                let gap = SimTime::from_ps((size as f64 * 8.0 / rate * 1e12).ceil() as u64);
                let rtt = SimTime::from_us_f64(self.p.rtt_us);
                let s = &mut self.senders[flow.idx()];
                s.pacing = true;
                s.pace_token = s.pace_token.wrapping_add(1);
                s.next_pace_at = io.now + gap;
                io.set_timer(s.next_pace_at, RcpTimer::Pace(flow, s.pace_token));
                if gap > rtt && !s.refresh_armed {
                    s.refresh_armed = true;
                    io.set_timer(io.now + rtt, RcpTimer::Refresh(flow));
                }
            }
            None => self.senders[flow.idx()].pacing = false,
        }
    }

    /// A higher rate arrived: bring the next paced packet forward if the
    /// new rate says it is due sooner.
    fn reschedule(&mut self, flow: FlowId, io: &mut Io<RcpTimer>) {
        let s = &mut self.senders[flow.idx()];
        if !s.pacing || s.rate_bps <= 0.0 {
            return;
        }
        let gap = SimTime::from_ps((crate::units::MTU as f64 * 8.0 / s.rate_bps * 1e12).ceil() as u64);
        if io.now + gap < s.next_pace_at {
            s.pace_token = s.pace_token.wrapping_add(1);
            s.next_pace_at = io.now + gap;
            io.set_timer(s.next_pace_at, RcpTimer::Pace(flow, s.pace_token));
        }
    }
}

impl Protocol for Rcp {
    type Timer = RcpTimer;
    const HAS_PORT_LOGIC: bool = true;

    fn name(&self) -> &'static str {
        "rcp"
    }

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<RcpTimer>) {
        self.senders.push(Sender {
            src: f.src,
            dst: f.dst,
            size: f.size,
            sb: Scoreboard::new(f.size),
            rate_bps: 0.0,
            pacing: false,
            pace_token: 0,
            next_pace_at: SimTime::NEVER,
            refresh_armed: false,
            rto_deadline: SimTime::NEVER,
            rto_armed: None,
        });
        self.receivers.push(Receiver::new(f.size));
        // The first packet learns the path's rate (RCP's SYN does this).
        self.send_one(f.id, io);
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<RcpTimer>) {
        let Header::Rcp(h) = p.header else { return };
        match p.kind {
            PacketKind::Data | PacketKind::Control => {
                // Data, or a rate refresh (REF): acknowledge with the rate.
                let r = &mut self.receivers[p.flow.idx()];
                let mut sack = u32::MAX;
                if p.kind == PacketKind::Data {
                    sack = p.seq;
                    if r.receive(p.seq) {
                        io.flow_done(p.flow);
                    }
                }
                let mut ack = Packet::new(p.flow, p.dst, p.src, PacketKind::Ack, p.seq, HEADER);
                ack.header = Header::Rcp(RcpHeader { rate_bps: h.rate_bps, cum_ack: r.cum, sack });
                io.send(ack);
            }
            PacketKind::Ack => {
                let flow = p.flow;
                let rto = SimTime::from_us_f64(self.p.rto_us);
                let s = &mut self.senders[flow.idx()];
                if s.sb.done() {
                    return;
                }
                let progress = s.sb.on_ack(h.cum_ack, h.sack) > 0;
                if s.sb.done() {
                    return;
                }
                if progress {
                    s.rto_deadline = io.now + rto;
                }
                let old_rate = s.rate_bps;
                if h.rate_bps.is_finite() {
                    s.rate_bps = h.rate_bps as f64;
                }
                if !s.pacing {
                    self.pace(flow, io);
                } else if s.rate_bps > old_rate {
                    self.reschedule(flow, io);
                }
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, t: RcpTimer, io: &mut Io<RcpTimer>) {
        match t {
            RcpTimer::Pace(flow, token) => {
                if self.senders[flow.idx()].pace_token == token {
                    self.pace(flow, io);
                }
            }
            RcpTimer::Refresh(flow) => {
                let rtt = SimTime::from_us_f64(self.p.rtt_us);
                let s = &mut self.senders[flow.idx()];
                s.refresh_armed = false;
                if s.sb.done() || !s.pacing || s.next_pace_at <= io.now + rtt {
                    return; // the next data packet will learn the rate soon enough
                }
                let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Control, 0, HEADER);
                p.sent_at = io.now;
                p.header = Header::Rcp(RcpHeader { rate_bps: f32::INFINITY, cum_ack: 0, sack: 0 });
                io.send(p);
                io.trace(|| TraceKind::Control { flow, what: "rcp_refresh" });
                s.refresh_armed = true;
                io.set_timer(io.now + rtt, RcpTimer::Refresh(flow));
            }
            RcpTimer::Rto(flow) => {
                let s = &mut self.senders[flow.idx()];
                s.rto_armed = None;
                if s.sb.done() {
                    return;
                }
                if io.now < s.rto_deadline {
                    s.rto_armed = Some(s.rto_deadline);
                    io.set_timer(s.rto_deadline, RcpTimer::Rto(flow));
                    return;
                }
                // Timeout: everything unacknowledged is resent.
                s.sb.all_in_flight_lost();
                s.rto_deadline = SimTime::NEVER;
                io.trace(|| TraceKind::Timeout { flow, probe_mode: false });
                if s.rate_bps <= 0.0 {
                    // The rate-learning packet itself was lost: send it again.
                    self.send_one(flow, io);
                } else if !s.pacing {
                    self.pace(flow, io);
                }
            }
            RcpTimer::Port(port) => {
                let i = port.idx();
                let c = self.capacity[i];
                let t_s = self.p.control_interval_us * 1e-6;
                let st = &mut self.ports[i];
                let y = st.input_bytes as f64 * 8.0 / t_s;
                let q = io.queue_bytes[i] as f64 * 8.0;
                // d is the flows' mean RTT (RCP paper), which includes the
                // queueing delay their packets see: the base RTT plus this
                // port's queue drain time. With a fixed d the queue term
                // drives the rate to its floor whenever a queue forms.
                let d = self.p.rtt_us * 1e-6 + q / c;
                if st.input_bytes == 0 && q == 0.0 {
                    // Idle link: back to full rate, no more updates until traffic.
                    st.rate_bps = c;
                    st.armed = false;
                    return;
                }
                let r = st.rate_bps * (1.0 + (t_s / d) * (self.p.alpha * (c - y) - self.p.beta * q / d) / c);
                st.rate_bps = r.clamp(c / 1000.0, c);
                st.input_bytes = 0;
                let rate = st.rate_bps;
                io.trace(|| TraceKind::LinkRate { port, rate_bps: rate });
                io.set_timer(io.now + SimTime::from_us_f64(self.p.control_interval_us), RcpTimer::Port(port));
            }
        }
    }

    fn on_port_enqueue(&mut self, port: PortId, p: &mut Packet, io: &mut Io<RcpTimer>) {
        let st = &mut self.ports[port.idx()];
        st.input_bytes += p.size as u64;
        if let (PacketKind::Data | PacketKind::Control, Header::Rcp(h)) = (p.kind, &mut p.header) {
            h.rate_bps = h.rate_bps.min(st.rate_bps as f32);
        }
        if !st.armed {
            st.armed = true;
            io.set_timer(io.now + SimTime::from_us_f64(self.p.control_interval_us), RcpTimer::Port(port));
        }
    }
}
