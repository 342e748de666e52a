//! Stop-and-wait as a plug-in: DropTail ports, no switch logic.

use super::params::StopAndWaitParams;
use super::StopAndWait;
use crate::protocol::params::{at_least, positive};
use crate::protocol::plugin::{buffer_field, Build, Descriptor, Plugin, PriorityKey};
use crate::protocol::ports::{Discipline, PortSetup};
use crate::units::MTU;

/// Stop-and-wait ARQ, the engine's test protocol.
pub struct StopAndWaitPlugin;

impl Plugin for StopAndWaitPlugin {
    type Params = StopAndWaitParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "Stop-and-wait",
        summary: "Stop-and-wait ARQ (test only): one packet in flight per flow, an ACK for each, a retransmission timeout",
        color: "#868e96",
        list_rank: 13,
        flow_level: false,
        dctcp_profile: false,
        priority: PriorityKey::Fifo,
        fields: &[buffer_field("a choice of the test protocol: 225 KB")],
        controls: super::events::ALL,
    };
    fn validate(p: &StopAndWaitParams) -> Result<(), String> {
        at_least("stop_and_wait.buffer_bytes", p.buffer_bytes, MTU as u64)?;
        positive("stop_and_wait.rto_us", p.rto_us)
    }
    fn ports(p: &StopAndWaitParams) -> PortSetup {
        PortSetup { discipline: Discipline::Droptail, buffer_bytes: p.buffer_bytes, ecn_threshold_bytes: None, queues: 1 }
    }
    fn build<B: Build>(p: &StopAndWaitParams, b: B) -> B::Out {
        b.packet(&|_, _| StopAndWait::new(p))
    }
}
