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
    Control { flow: FlowId, what: ControlEvent },
    /// A scheduling decision about a flow, with what was decided: PASE's
    /// arbitrators (the priority queue and reference rate), PDQ's switches
    /// (accept at a rate, or pause: rate 0). `port` is the link the
    /// decision is about when one is (a PDQ switch port, a PASE
    /// arbitrator's link); `queue` the priority queue when one is decided.
    /// The browser's control-plane panel shows each flow's latest one.
    Decision { flow: FlowId, port: Option<PortId>, what: ControlEvent, queue: Option<u8>, rate_bps: f64 },
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
    /// A control message; aux = its [`ControlEvent`] code.
    Control = 8,
    /// A scheduling decision (PASE, PDQ); aux = its [`ControlEvent`] code,
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
/// `Control` and `Decision`). The names are the ones the page shows; the
/// WebAssembly binding encodes one as its index in [`ControlEvent::ALL`],
/// and the page reads the names from the engine (`dcsim names`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ControlEvent {
    /// pFabric: a 1-byte probe in probe mode (pFabric section 4.2).
    Probe,
    /// pHost: a flow's request to send (pHost section 3).
    Rts,
    /// pHost: a token granting one data packet.
    Token,
    /// pHost: a token expired unused at its source (pHost section 3).
    TokenExpired,
    /// pHost: a free token (for the first packets) expired unused.
    FreeTokenExpired,
    /// pHost: a destination downgrades an unresponsive flow.
    Downgrade,
    /// pHost: a destination names missing packets again.
    ReceiverTimeout,
    /// Fastpass: a demand report to the arbiter.
    FastpassRequest,
    /// Fastpass: the arbiter's timeslot allocation.
    FastpassGrant,
    /// Fastpass: a source missed its slot.
    FastpassMissedSlot,
    /// Fastpass: a source asks again after a lost request.
    FastpassQuery,
    /// Fastpass: the arbiter could not place a demand.
    FastpassNack,
    /// Fastpass: an acknowledgement of arbiter messages.
    FastpassAck,
    /// PASE: an arbitration request and its per-link decision.
    PaseRequest,
    /// PASE: the arbitrators' answer (queue and reference rate).
    PaseDecision,
    /// PASE: early pruning stopped a request.
    PasePrune,
    /// PASE: a child reports its delegated share's use.
    PaseDelegationReport,
    /// PASE: a parent updates a child's delegated share.
    PaseDelegationUpdate,
    /// PASE: a header-only probe from the lowest queue.
    PaseProbe,
    /// PASE: a finished flow releases its arbitration.
    PaseRelease,
    /// PDQ: a flow's SYN, asking the switches for a rate.
    PdqSyn,
    /// PDQ: the switches accept the flow at a rate.
    PdqAccept,
    /// PDQ: a switch accepts the flow early (Early Start, PDQ section 3.3).
    PdqEarlyStart,
    /// PDQ: a switch pauses the flow.
    PdqPause,
    /// PDQ: the flow's rate changed.
    PdqRate,
    /// PDQ: a paused or slowed flow probes.
    PdqProbe,
    /// PDQ: Early Termination gives the flow up.
    PdqTerminate,
    /// PDQ: the flow's FIN releases its state at the switches.
    PdqFin,
    /// D3: a flow that cannot meet its deadline is quenched.
    D3Quench,
    /// RCP/D3: a slow flow asks for the current rate again.
    RcpRefresh,
    /// Any protocol, with `workload.abort_at_deadline`: the flow's deadline
    /// passed before it finished, and its sender gave it up.
    DeadlineAbort,
}

impl ControlEvent {
    /// Every control event, in code order.
    pub const ALL: [ControlEvent; 31] = [
        ControlEvent::Probe,
        ControlEvent::Rts,
        ControlEvent::Token,
        ControlEvent::TokenExpired,
        ControlEvent::FreeTokenExpired,
        ControlEvent::Downgrade,
        ControlEvent::ReceiverTimeout,
        ControlEvent::FastpassRequest,
        ControlEvent::FastpassGrant,
        ControlEvent::FastpassMissedSlot,
        ControlEvent::FastpassQuery,
        ControlEvent::FastpassNack,
        ControlEvent::FastpassAck,
        ControlEvent::PaseRequest,
        ControlEvent::PaseDecision,
        ControlEvent::PasePrune,
        ControlEvent::PaseDelegationReport,
        ControlEvent::PaseDelegationUpdate,
        ControlEvent::PaseProbe,
        ControlEvent::PaseRelease,
        ControlEvent::PdqSyn,
        ControlEvent::PdqAccept,
        ControlEvent::PdqEarlyStart,
        ControlEvent::PdqPause,
        ControlEvent::PdqRate,
        ControlEvent::PdqProbe,
        ControlEvent::PdqTerminate,
        ControlEvent::PdqFin,
        ControlEvent::D3Quench,
        ControlEvent::RcpRefresh,
        ControlEvent::DeadlineAbort,
    ];
    /// Its name, e.g. `"pdq_pause"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ControlEvent::Probe => "probe",
            ControlEvent::Rts => "rts",
            ControlEvent::Token => "token",
            ControlEvent::TokenExpired => "token_expired",
            ControlEvent::FreeTokenExpired => "free_token_expired",
            ControlEvent::Downgrade => "downgrade",
            ControlEvent::ReceiverTimeout => "receiver_timeout",
            ControlEvent::FastpassRequest => "fastpass_request",
            ControlEvent::FastpassGrant => "fastpass_grant",
            ControlEvent::FastpassMissedSlot => "fastpass_missed_slot",
            ControlEvent::FastpassQuery => "fastpass_query",
            ControlEvent::FastpassNack => "fastpass_nack",
            ControlEvent::FastpassAck => "fastpass_ack",
            ControlEvent::PaseRequest => "pase_request",
            ControlEvent::PaseDecision => "pase_decision",
            ControlEvent::PasePrune => "pase_prune",
            ControlEvent::PaseDelegationReport => "pase_delegation_report",
            ControlEvent::PaseDelegationUpdate => "pase_delegation_update",
            ControlEvent::PaseProbe => "pase_probe",
            ControlEvent::PaseRelease => "pase_release",
            ControlEvent::PdqSyn => "pdq_syn",
            ControlEvent::PdqAccept => "pdq_accept",
            ControlEvent::PdqEarlyStart => "pdq_early_start",
            ControlEvent::PdqPause => "pdq_pause",
            ControlEvent::PdqRate => "pdq_rate",
            ControlEvent::PdqProbe => "pdq_probe",
            ControlEvent::PdqTerminate => "pdq_terminate",
            ControlEvent::PdqFin => "pdq_fin",
            ControlEvent::D3Quench => "d3_quench",
            ControlEvent::RcpRefresh => "rcp_refresh",
            ControlEvent::DeadlineAbort => "deadline_abort",
        }
    }
    /// Its code: the index in [`ControlEvent::ALL`].
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl Serialize for ControlEvent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
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
    use super::ControlEvent;

    #[test]
    fn control_event_codes_index_their_names() {
        for (i, e) in ControlEvent::ALL.iter().enumerate() {
            assert_eq!(e.code() as usize, i, "{e:?}");
        }
        let mut names: Vec<&str> = ControlEvent::ALL.iter().map(|e| e.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ControlEvent::ALL.len(), "names are distinct");
    }

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
            TraceKind::Control { flow: f, what: ControlEvent::Probe },
            TraceKind::Decision { flow: f, port: None, what: ControlEvent::Probe, queue: None, rate_bps: 0.0 },
        ];
        let mut codes: Vec<TraceCode> = kinds.iter().map(|k| k.code()).collect();
        codes.push(TraceCode::Dequeue);
        codes.sort_by_key(|c| *c as u8);
        assert_eq!(codes, TraceCode::ALL, "every code is some event's");
    }
}
