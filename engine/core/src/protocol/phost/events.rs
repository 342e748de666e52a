//! pHost's control messages and events as traced, with the words the
//! page's event log shows (listed in its descriptor).

use crate::trace::ControlEvent;

/// A flow's request to send (pHost section 3).
pub const RTS: &ControlEvent = &ControlEvent { name: "rts", text: "RTS sent (asks its receiver for tokens)", gives_up: false };
/// A token granting one data packet.
pub const TOKEN: &ControlEvent = &ControlEvent { name: "token", text: "token sent (one packet may go)", gives_up: false };
/// A token expired unused at its source (pHost section 3).
pub const TOKEN_EXPIRED: &ControlEvent = &ControlEvent { name: "token_expired", text: "token expired unused at the source", gives_up: false };
/// A free token (for the first packets) expired unused.
pub const FREE_TOKEN_EXPIRED: &ControlEvent = &ControlEvent { name: "free_token_expired", text: "free token expired unused", gives_up: false };
/// A destination downgrades an unresponsive flow.
pub const DOWNGRADE: &ControlEvent =
    &ControlEvent { name: "downgrade", text: "downgraded: too many unanswered tokens, no tokens for a while", gives_up: false };
/// A destination names missing packets again.
pub const RECEIVER_TIMEOUT: &ControlEvent =
    &ControlEvent { name: "receiver_timeout", text: "receiver timeout: missing packets are named again", gives_up: false };

/// All of them, in the order the page numbers them.
pub const ALL: &[&ControlEvent] = &[RTS, TOKEN, TOKEN_EXPIRED, FREE_TOKEN_EXPIRED, DOWNGRADE, RECEIVER_TIMEOUT];
