//! Fastpass's control messages as traced, with the words the page's event
//! log shows (listed in its descriptor).

use crate::trace::ControlEvent;

/// A demand report to the arbiter.
pub const REQUEST: &ControlEvent = &ControlEvent { name: "fastpass_request", text: "Fastpass request sent to the arbiter", gives_up: false };
/// The arbiter's timeslot allocation.
pub const GRANT: &ControlEvent = &ControlEvent { name: "fastpass_grant", text: "Fastpass timeslots granted", gives_up: false };
/// A source missed its slot.
pub const MISSED_SLOT: &ControlEvent = &ControlEvent { name: "fastpass_missed_slot", text: "Fastpass grant came after its slot began", gives_up: false };
/// A source asks again after a lost request.
pub const QUERY: &ControlEvent = &ControlEvent { name: "fastpass_query", text: "Fastpass query: which packets are missing?", gives_up: false };
/// The arbiter could not place a demand.
pub const NACK: &ControlEvent = &ControlEvent { name: "fastpass_nack", text: "Fastpass NACK: packets missing", gives_up: false };
/// An acknowledgement of arbiter messages.
pub const ACK: &ControlEvent = &ControlEvent { name: "fastpass_ack", text: "Fastpass ACK", gives_up: false };

/// All of them, in the order the page numbers them.
pub const ALL: &[&ControlEvent] = &[REQUEST, GRANT, MISSED_SLOT, QUERY, NACK, ACK];
