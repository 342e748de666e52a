//! PDQ's control messages and switch decisions as traced, with the words
//! the page's event log shows (listed in its descriptor).

use crate::trace::ControlEvent;

/// A flow's SYN, asking the switches for a rate.
pub const SYN: &ControlEvent = &ControlEvent { name: "pdq_syn", text: "PDQ SYN sent (no data before the switches grant a rate)", gives_up: false };
/// The switches accept the flow at a rate.
pub const ACCEPT: &ControlEvent = &ControlEvent { name: "pdq_accept", text: "PDQ accepted", gives_up: false };
/// A switch accepts the flow early (Early Start, PDQ section 3.3).
pub const EARLY_START: &ControlEvent =
    &ControlEvent { name: "pdq_early_start", text: "PDQ Early Start: accepted while the current flow finishes", gives_up: false };
/// A switch pauses the flow.
pub const PAUSE: &ControlEvent = &ControlEvent { name: "pdq_pause", text: "PDQ paused (a more critical flow holds the link)", gives_up: false };
/// The flow's rate changed.
pub const RATE: &ControlEvent = &ControlEvent { name: "pdq_rate", text: "PDQ rate changed", gives_up: false };
/// A paused or slowed flow probes.
pub const PROBE: &ControlEvent = &ControlEvent { name: "pdq_probe", text: "PDQ probe (a paused flow asks again)", gives_up: false };
/// Early Termination gives the flow up.
pub const TERMINATE: &ControlEvent = &ControlEvent { name: "pdq_terminate", text: "PDQ Early Termination: cannot meet its deadline, given up", gives_up: true };
/// The flow's FIN releases its state at the switches.
pub const FIN: &ControlEvent = &ControlEvent { name: "pdq_fin", text: "PDQ FIN: the flow leaves the switches' lists", gives_up: false };

/// All of them, in the order the page numbers them.
pub const ALL: &[&ControlEvent] = &[SYN, ACCEPT, EARLY_START, PAUSE, RATE, PROBE, TERMINATE, FIN];
