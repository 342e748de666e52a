//! Stop-and-wait's one traced event, with the words the page shows
//! (listed in its descriptor).

use crate::trace::ControlEvent;

/// The sender heard no ACK within the retransmission timeout and sends
/// the packet again.
pub const TIMEOUT: &ControlEvent =
    &ControlEvent { name: "stop_and_wait_timeout", text: "retransmission timeout: the unacknowledged packet is sent again", gives_up: false };

/// All of them, in the order the page numbers them.
pub const ALL: &[&ControlEvent] = &[TIMEOUT];
