//! RCP's and D3's control messages as traced, with the words the page's
//! event log shows (listed in their descriptors).

use crate::trace::ControlEvent;

/// D3: a flow that cannot meet its deadline is quenched.
pub const D3_QUENCH: &ControlEvent = &ControlEvent { name: "d3_quench", text: "D3 quenched: cannot meet its deadline, stopped", gives_up: true };
/// RCP/D3: a slow flow asks for the current rate again.
pub const RCP_REFRESH: &ControlEvent =
    &ControlEvent { name: "rcp_refresh", text: "rate refresh: a slow flow asks for the current rate again", gives_up: false };
