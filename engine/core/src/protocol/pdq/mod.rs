//! PDQ, Preemptive Distributed Quick flow scheduling (Hong, Caesar,
//! Godfrey, SIGCOMM 2012; docs/protocols/pdq.md).
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

use crate::ids::{FlowId, NodeId, PortId};
use crate::net::Network;
use crate::packet::{Header, Packet, PacketKind};
use crate::protocol::flow_table::FlowTable;
use crate::protocol::scoreboard::Scoreboard;
use crate::protocol::timer::{Fired, LazyTimer, Pacer, RttEstimator};
use crate::protocol::window::{receive_at_rate_receiver, Receiver};
use crate::protocol::{Io, Protocol};
use crate::trace::TraceKind;
use crate::units::{data_packet_wire_size, SimTime, HEADER};
use crate::workload::FlowSpec;
pub use header::{pdq_flags, PdqHeader};
use params::PdqParams;
use pdq_flags as F;

pub mod events;
mod header;
pub mod params;
mod plugin;
pub use plugin::PdqPlugin;

mod port;
use port::t_ns;
pub use port::{Decision, Entry, PdqPort, SwitchConfig};

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
        p.header = Header::new(s.header(&self.p, self.nic_bps, flags));
        p
    }

    fn send_syn(&mut self, flow: FlowId, io: &mut Io<PdqTimer>) {
        let p = self.control_packet(flow, PacketKind::Control, F::SYN, io.now);
        io.send(p);
        io.trace(|| TraceKind::Control { flow, what: events::SYN });
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
        p.header = Header::new(s.header(params, self.nic_bps, 0));
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
        io.trace(|| TraceKind::Control { flow, what: events::TERMINATE });
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
            io.trace(|| TraceKind::Control { flow, what: events::FIN });
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
                io.trace(|| TraceKind::Decision { flow, port: None, what: events::ACCEPT, queue: None, rate_bps });
            } else if rate_bps != old_rate {
                io.trace(|| TraceKind::Decision { flow, port: None, what: events::RATE, queue: None, rate_bps });
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
                io.trace(|| TraceKind::Decision { flow, port, what: events::PAUSE, queue: None, rate_bps: 0.0 });
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
        let h: PdqHeader = p.header.read();
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
        ack.header = Header::new(PdqHeader { aux: cum, ..h });
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
                io.trace(|| TraceKind::Control { flow, what: events::PROBE });
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
        let mut h = p.header.edit::<PdqHeader>();
        if p.kind == PacketKind::Ack {
            let (node, is_host) = self.port_node[port.idx()];
            if is_host {
                return; // the receiver's NIC: no forward port of this flow here
            }
            for &fp in io.net.next_hops(node, p.src) {
                self.ports[fp.idx()].reverse(flow.0, &mut h, &self.cfg);
            }
            return;
        }
        let st = &mut self.ports[port.idx()];
        if let Some(c) = st.control(io.queue_bytes[port.idx()], io.now, &self.cfg) {
            io.trace(|| TraceKind::LinkRate { port, rate_bps: c });
        }
        let decision = st.forward(flow.0, &mut h, deadline, rtt_ps, io.now, &self.cfg);
        let rate_bps = h.rate_bps as f64;
        match decision {
            Decision::Accept { newly: true, early_start, .. } => {
                let what = if early_start { events::EARLY_START } else { events::ACCEPT };
                io.trace(|| TraceKind::Decision { flow, port: Some(port), what, queue: None, rate_bps });
            }
            Decision::Pause { newly: true } => io.trace(|| TraceKind::Decision { flow, port: Some(port), what: events::PAUSE, queue: None, rate_bps: 0.0 }),
            Decision::Terminate => io.trace(|| TraceKind::Control { flow, what: events::TERMINATE }),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
