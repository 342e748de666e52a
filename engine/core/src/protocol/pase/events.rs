//! PASE's control messages and arbitration decisions as traced, with the
//! words the page's event log shows (listed in its descriptor), the end
//! hosts' probe (`host`) among them.

use crate::trace::ControlEvent;

/// An arbitration request and its per-link decision.
pub const REQUEST: &ControlEvent = &ControlEvent { name: "pase_request", text: "PASE arbitrator decided its link", gives_up: false };
/// The arbitrators' answer (queue and reference rate).
pub const DECISION: &ControlEvent = &ControlEvent { name: "pase_decision", text: "PASE decision reached the source", gives_up: false };
/// Early pruning stopped a request.
pub const PRUNE: &ControlEvent =
    &ControlEvent { name: "pase_prune", text: "PASE request pruned (not in the top queues): answered without going further up", gives_up: false };
/// A child reports its delegated share's use.
pub const DELEGATION_REPORT: &ControlEvent =
    &ControlEvent { name: "pase_delegation_report", text: "PASE child arbitrator reported its demand on a delegated link", gives_up: false };
/// A parent updates a child's delegated share.
pub const DELEGATION_UPDATE: &ControlEvent =
    &ControlEvent { name: "pase_delegation_update", text: "PASE parent arbitrator sent a child its new share of a link", gives_up: false };
/// PASE's end-host probe from the lowest queue, traced (section 3.2).
pub const PROBE: &ControlEvent = &ControlEvent { name: "pase_probe", text: "PASE probe (lowest queue: no retransmission)", gives_up: false };
/// A finished flow releases its arbitration.
pub const RELEASE: &ControlEvent = &ControlEvent { name: "pase_release", text: "PASE flow finished: released at a switch arbitrator", gives_up: false };

/// All of them, in the order the page numbers them.
pub const ALL: &[&ControlEvent] = &[REQUEST, DECISION, PRUNE, DELEGATION_REPORT, DELEGATION_UPDATE, PROBE, RELEASE];
