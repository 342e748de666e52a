//! The trace stream: structured events the browser animates (htsim's
//! `TrafficLogger`, quinn's `qlog`). Batch runs switch it off and pay one
//! predictable branch per event site.

use crate::ids::{FlowId, PortId};
use crate::packet::PacketKind;
use crate::queue::DropReason;
use crate::units::SimTime;
use serde::Serialize;

/// One traced event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TraceKind {
    /// A port's link went down (`up` false) or came back (a fault).
    Fault { port: PortId, up: bool },
    /// A packet entered a port's buffer.
    Enqueue { port: PortId, flow: FlowId, seq: u32, kind: PacketKind, subqueue: u8, queue_bytes: u64 },
    /// A packet started transmission at a port. `priority` is what the
    /// port's discipline ranks it by: pFabric ports, the packet's rank
    /// (remaining flow bytes, lower is more urgent); other ports, its
    /// sub-queue (0 is served first). The browser colours packets by it.
    Dequeue { port: PortId, flow: FlowId, seq: u32, kind: PacketKind, queue_bytes: u64, priority: u64 },
    /// A packet was dropped at a port.
    Drop { port: PortId, flow: FlowId, seq: u32, kind: PacketKind, reason: DropReason },
    /// A packet was CE-marked at a port.
    EcnMark { port: PortId, flow: FlowId, seq: u32 },
    /// A flow arrived at its sender.
    FlowStart { flow: FlowId },
    /// A flow's receiver holds all its bytes.
    FlowFinish { flow: FlowId },
    /// A sender's retransmission timer fired.
    Timeout { flow: FlowId, probe_mode: bool },
    /// A switch changed a per-link rate (RCP's fair share), bits per second.
    LinkRate { port: PortId, rate_bps: f64 },
    /// A control message was sent (kind names it: "probe", "ack", ...).
    Control { flow: FlowId, what: &'static str },
    /// A scheduling decision about a flow, with what was decided: PASE's
    /// arbitrators (the priority queue and reference rate), PDQ's switches
    /// (accept at a rate, or pause: rate 0). `port` is the link the
    /// decision is about when one is (a PDQ switch port, a PASE
    /// arbitrator's link); `queue` the priority queue when one is decided.
    /// The browser's control-plane panel shows each flow's latest one.
    Decision { flow: FlowId, port: Option<PortId>, what: &'static str, queue: Option<u8>, rate_bps: f64 },
}

impl Serialize for PacketKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            PacketKind::Data => "data",
            PacketKind::Ack => "ack",
            PacketKind::Probe => "probe",
            PacketKind::Control => "control",
        })
    }
}

/// A traced event with its time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceEvent {
    /// Simulated time, picoseconds.
    pub t_ps: u64,
    /// What happened.
    #[serde(flatten)]
    pub kind: TraceKind,
}

/// The trace buffer; the consumer drains it between slices of a run.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Whether events are recorded.
    pub enabled: bool,
    events: Vec<TraceEvent>,
}

impl Trace {
    /// Appends an event (callers check `enabled` first).
    #[inline]
    pub fn push(&mut self, t: SimTime, kind: TraceKind) {
        self.events.push(TraceEvent { t_ps: t.ps(), kind });
    }
    /// Takes the events recorded so far.
    pub fn drain(&mut self) -> Vec<TraceEvent> {
        std::mem::take(&mut self.events)
    }
}
