//! Parameters of stop-and-wait, with their defaults.

use crate::protocol::params::serde_default;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Stop-and-wait, the test protocol. No paper sets its values: each
/// default is a choice of this protocol, stated beside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StopAndWaitParams {
    /// Buffer of every port, bytes (DropTail). A choice: 225 KB, the
    /// DropTail buffer of the TCP baselines here.
    #[serde(default = "d_buffer")]
    pub buffer_bytes: u64,
    /// Retransmission timeout, microseconds: a packet unacknowledged this
    /// long after it was sent is sent again. A choice: 1,000 us, far above
    /// a datacenter round trip (a few to a hundred microseconds), so a
    /// timeout means a loss.
    #[serde(default = "d_rto_us")]
    pub rto_us: f64,
}

serde_default!(StopAndWaitParams);

fn d_buffer() -> u64 {
    225_000
}

fn d_rto_us() -> f64 {
    1000.0
}
