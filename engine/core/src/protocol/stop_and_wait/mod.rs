//! Stop-and-wait ARQ, the engine's test protocol: it proves that a
//! protocol is one folder plus one line in `registry.rs`
//! (docs/architecture.md, "How to add a protocol"), and it is compiled
//! only for the engine's own unit tests (`#[cfg(test)]`), so it never
//! appears in `dcsim names`, the JSON Schema or the page.
//!
//! * Sender: sends a flow's packets one at a time, each once the previous
//!   one is acknowledged; a packet unacknowledged `rto_us` after it was
//!   sent is sent again ([`events::TIMEOUT`]).
//! * Receiver: acknowledges every data packet with the next packet it
//!   expects ([`StopAndWaitHeader::next`]); the flow is complete when it
//!   holds every packet (it learns their number from the header).
//! * Ports: DropTail FIFOs; no switch logic.

use crate::ids::FlowId;
use crate::packet::{Header, Packet, PacketKind};
use crate::protocol::flow_table::FlowTable;
use crate::protocol::{Io, Protocol};
use crate::trace::TraceKind;
use crate::units::{data_packet_wire_size, packets_for, SimTime, HEADER};
use crate::workload::FlowSpec;
use params::StopAndWaitParams;

pub mod events;
mod header;
pub mod params;
mod plugin;
pub use header::StopAndWaitHeader;
pub use plugin::StopAndWaitPlugin;

/// A stop-and-wait timer: the retransmission timeout of a flow's
/// `sends`-th transmission (a later transmission makes it stale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retransmit {
    /// The flow.
    pub flow: FlowId,
    /// The sender's transmission count when it was armed.
    pub sends: u32,
}

/// A flow at its source.
#[derive(Clone, Debug)]
struct Sender {
    /// The flow (addresses, size).
    spec: FlowSpec,
    /// Its packets.
    packets: u32,
    /// The packet in flight: every one before it is acknowledged.
    next: u32,
    /// Transmissions so far (names the one a timer belongs to).
    sends: u32,
}

/// A flow at its destination: the next packet it expects.
#[derive(Clone, Debug, Default)]
struct Receiver {
    /// Every packet before this one has arrived.
    next: u32,
}

/// Stop-and-wait's hosts.
#[derive(Clone)]
pub struct StopAndWait {
    /// Retransmission timeout.
    rto: SimTime,
    /// Flows at their sources.
    senders: FlowTable<Sender>,
    /// Flows at their destinations.
    receivers: FlowTable<Receiver>,
}

impl StopAndWait {
    /// Stop-and-wait with parameters `p`.
    pub fn new(p: &StopAndWaitParams) -> Self {
        StopAndWait { rto: SimTime::from_us_f64(p.rto_us), senders: FlowTable::default(), receivers: FlowTable::default() }
    }

    /// Sends the flow's packet in flight (again) and arms its timeout.
    fn transmit(&mut self, flow: FlowId, io: &mut Io<Retransmit>) {
        let Some(s) = self.senders.get_mut(flow.idx()) else { return };
        let mut p = Packet::new(flow, s.spec.src, s.spec.dst, PacketKind::Data, s.next, data_packet_wire_size(s.spec.size, s.next));
        p.sent_at = io.now;
        p.header = Header::new(StopAndWaitHeader { packets: s.packets, next: 0 });
        s.sends += 1;
        io.send(p);
        io.set_timer(io.now + self.rto, Retransmit { flow, sends: s.sends });
    }
}

impl Protocol for StopAndWait {
    type Timer = Retransmit;

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<Retransmit>) {
        self.senders.push(f.id.idx(), Sender { spec: f.clone(), packets: packets_for(f.size), next: 0, sends: 0 });
        self.transmit(f.id, io);
    }

    fn prepare_receiver(&mut self, f: &FlowSpec) {
        self.receivers.push(f.id.idx(), Receiver::default());
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<Retransmit>) {
        let h: StopAndWaitHeader = p.header.read();
        let flow = p.flow;
        if p.kind == PacketKind::Ack {
            let Some(s) = self.senders.get_mut(flow.idx()) else { return };
            if h.next <= s.next {
                return; // a duplicate: the packet in flight is not yet acknowledged
            }
            s.next = h.next;
            if s.next == s.packets {
                self.senders.retire(flow.idx());
            } else {
                self.transmit(flow, io);
            }
            return;
        }
        // A data packet: a retired receiver holds every packet.
        let next = match self.receivers.get_mut(flow.idx()) {
            None => h.packets,
            Some(r) => {
                if p.seq == r.next {
                    r.next += 1;
                }
                let next = r.next;
                if next == h.packets {
                    self.receivers.retire(flow.idx());
                    io.flow_done(flow);
                }
                next
            }
        };
        let mut ack = Packet::new(flow, p.dst, p.src, PacketKind::Ack, p.seq, HEADER);
        ack.sent_at = p.sent_at;
        ack.header = Header::new(StopAndWaitHeader { packets: h.packets, next });
        io.send(ack);
    }

    fn on_timer(&mut self, t: Retransmit, io: &mut Io<Retransmit>) {
        if self.senders.get(t.flow.idx()).is_some_and(|s| s.sends == t.sends) {
            io.trace(|| TraceKind::Control { flow: t.flow, what: events::TIMEOUT });
            self.transmit(t.flow, io);
        }
    }

    fn abort_sender(&mut self, flow: FlowId, _io: &mut Io<Retransmit>) -> bool {
        if self.senders.get(flow.idx()).is_none() {
            return false;
        }
        self.senders.retire(flow.idx());
        true
    }

    fn abort_receiver(&mut self, flow: FlowId, _at: crate::ids::NodeId) {
        self.receivers.retire(flow.idx());
    }

    fn name(&self) -> &'static str {
        "stop_and_wait"
    }
}

#[cfg(test)]
mod tests;
