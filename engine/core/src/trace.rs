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
    /// `arrive_ps` is when its last bit reaches the peer (serialization,
    /// then the link's delay), so the browser draws it on the wire without
    /// recomputing the timing.
    Dequeue { port: PortId, flow: FlowId, seq: u32, kind: PacketKind, queue_bytes: u64, priority: u64, arrive_ps: u64 },
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
    /// A control message was sent (`what` names it).
    Control {
        flow: FlowId,
        #[serde(serialize_with = "control_name")]
        what: &'static ControlEvent,
    },
    /// A scheduling decision about a flow, with what was decided: PASE's
    /// arbitrators (the priority queue and reference rate), PDQ's switches
    /// (accept at a rate, or pause: rate 0). `port` is the link the
    /// decision is about when one is (a PDQ switch port, a PASE
    /// arbitrator's link); `queue` the priority queue when one is decided.
    /// The browser's control-plane panel shows each flow's latest one.
    Decision {
        flow: FlowId,
        port: Option<PortId>,
        #[serde(serialize_with = "control_name")]
        what: &'static ControlEvent,
        queue: Option<u8>,
        rate_bps: f64,
    },
}

/// The kind of a trace record as the browser binding encodes it (the
/// `kind` column of its flat records); `dcsim names` exports the codes to
/// the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TraceCode {
    /// A packet entered a buffer; aux = sub-queue.
    Enqueue = 0,
    /// A packet started transmission; aux = bytes left in the buffer,
    /// priority = pFabric rank (remaining bytes) or sub-queue.
    Dequeue = 1,
    /// A packet was dropped; aux = its [`DropReason`] code.
    Drop = 2,
    /// A packet was CE-marked.
    EcnMark = 3,
    /// A flow arrived at its sender.
    FlowStart = 4,
    /// A flow finished.
    FlowFinish = 5,
    /// A retransmission timeout; aux = 1 in pFabric probe mode.
    Timeout = 6,
    /// A switch set a link rate (RCP); aux = bits per second.
    LinkRate = 7,
    /// A control message; aux = its [`ControlEvent`]'s code.
    Control = 8,
    /// A scheduling decision (PASE, PDQ); aux = its [`ControlEvent`]'s code,
    /// seq = priority queue (-1: none decided), priority = rate in bits per
    /// second, port = the link (-1: none).
    Decision = 9,
    /// A port's link went down (aux 0) or came back (aux 1): a fault.
    Fault = 10,
}

impl TraceCode {
    /// Every code, in code order (the page's names come from here).
    pub const ALL: [TraceCode; 11] = [
        TraceCode::Enqueue,
        TraceCode::Dequeue,
        TraceCode::Drop,
        TraceCode::EcnMark,
        TraceCode::FlowStart,
        TraceCode::FlowFinish,
        TraceCode::Timeout,
        TraceCode::LinkRate,
        TraceCode::Control,
        TraceCode::Decision,
        TraceCode::Fault,
    ];
}

impl TraceKind {
    /// The record kind the browser binding writes for this event.
    pub fn code(&self) -> TraceCode {
        match self {
            TraceKind::Fault { .. } => TraceCode::Fault,
            TraceKind::Enqueue { .. } => TraceCode::Enqueue,
            TraceKind::Dequeue { .. } => TraceCode::Dequeue,
            TraceKind::Drop { .. } => TraceCode::Drop,
            TraceKind::EcnMark { .. } => TraceCode::EcnMark,
            TraceKind::FlowStart { .. } => TraceCode::FlowStart,
            TraceKind::FlowFinish { .. } => TraceCode::FlowFinish,
            TraceKind::Timeout { .. } => TraceCode::Timeout,
            TraceKind::LinkRate { .. } => TraceCode::LinkRate,
            TraceKind::Control { .. } => TraceCode::Control,
            TraceKind::Decision { .. } => TraceCode::Decision,
        }
    }
}

/// A control message or decision of a protocol, as traced (`TraceKind`'s
/// `Control` and `Decision`). Each protocol declares its own in its folder
/// and lists them in its descriptor (`Descriptor::controls`); the page
/// reads the names and words from there (`dcsim names`). The WebAssembly
/// binding encodes one as its place in the registry's list of every
/// protocol's events (`protocol::control_events`).
#[derive(Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ControlEvent {
    /// Its name in the trace, e.g. `"pdq_pause"` (distinct across protocols).
    pub name: &'static str,
    /// What it means, in a few words, as the page's event log shows it.
    pub text: &'static str,
    /// The flow is given up by it: it will never finish (the lessons'
    /// "a flow was given up" facts count these).
    pub gives_up: bool,
}

/// Any protocol, with `workload.abort_at_deadline`: the flow's deadline
/// passed before it finished, and its sender gave it up.
pub const DEADLINE_ABORT: &ControlEvent = &ControlEvent { name: "deadline_abort", text: "deadline passed: the sender gave the flow up", gives_up: true };

/// A traced control event as its name (the trace's serialized form).
fn control_name<S: serde::Serializer>(e: &&'static ControlEvent, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(e.name)
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

#[cfg(test)]
mod tests {
    use super::DEADLINE_ABORT;

    #[test]
    fn record_codes_are_their_place_in_the_lists() {
        // The page indexes these lists by code: each `ALL` must be in code
        // order and complete (a variant left out of a list would leave a
        // code the page cannot name).
        use super::{TraceCode, TraceKind};
        use crate::ids::{FlowId, PortId};
        use crate::packet::PacketKind;
        use crate::queue::DropReason;
        for (i, c) in TraceCode::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i, "{c:?}");
        }
        for (i, k) in PacketKind::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i, "{k:?}");
        }
        for (i, r) in DropReason::ALL.iter().enumerate() {
            assert_eq!(*r as usize, i, "{r:?}");
        }
        assert_eq!(DropReason::ALL.len(), DropReason::Injected as usize + 1);
        assert_eq!(PacketKind::ALL.len(), PacketKind::Control as usize + 1);
        let f = FlowId(0);
        let p = PortId(0);
        let kinds = [
            TraceKind::Fault { port: p, up: true },
            TraceKind::Enqueue { port: p, flow: f, seq: 0, kind: PacketKind::Data, subqueue: 0, queue_bytes: 0 },
            TraceKind::Drop { port: p, flow: f, seq: 0, kind: PacketKind::Data, reason: DropReason::BufferFull },
            TraceKind::EcnMark { port: p, flow: f, seq: 0 },
            TraceKind::FlowStart { flow: f },
            TraceKind::FlowFinish { flow: f },
            TraceKind::Timeout { flow: f, probe_mode: false },
            TraceKind::LinkRate { port: p, rate_bps: 0.0 },
            TraceKind::Control { flow: f, what: DEADLINE_ABORT },
            TraceKind::Decision { flow: f, port: None, what: DEADLINE_ABORT, queue: None, rate_bps: 0.0 },
        ];
        let mut codes: Vec<TraceCode> = kinds.iter().map(|k| k.code()).collect();
        codes.push(TraceCode::Dequeue);
        codes.sort_by_key(|c| *c as u8);
        assert_eq!(codes, TraceCode::ALL, "every code is some event's");
    }
}
