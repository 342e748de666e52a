//! pHost as a plug-in: receiver-driven tokens over strict-priority ports.

use super::params::PhostParams;
use super::Phost;
use crate::ids::NodeId;
use crate::protocol::params::{at_least, positive};
use crate::protocol::plugin::{buffer_field, Build, Descriptor, Field, Plugin, PriorityKey};
use crate::protocol::ports::{Discipline, PortSetup};
use crate::units::MTU;

/// pHost (Gao et al., CoNEXT 2015; docs/protocols/phost.md).
pub struct PhostPlugin;

impl Plugin for PhostPlugin {
    type Params = PhostParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "pHost",
        summary: "pHost: receivers hand out tokens, sources send one packet per token, over priority queues",
        color: "#7048e8",
        list_rank: 1,
        flow_level: false,
        dctcp_profile: false,
        priority: PriorityKey::Queues { labels: &["control (RTS, token, ACK)", "short-flow data", "long-flow data"] },
        fields: &[
            buffer_field("pHost section 4.1: 36 KB, as pFabric"),
            Field {
                key: "priority_queues",
                label: "priority queues per port",
                unit: "",
                source: "pHost section 3: control, short-flow data, long-flow data, ...",
                min: 3,
                max: Some(8),
            },
        ],
        controls: super::events::ALL,
    };
    fn validate(h: &PhostParams) -> Result<(), String> {
        at_least("phost.buffer_bytes", h.buffer_bytes, 1500)?;
        at_least("phost.priority_queues", h.priority_queues as u64, 3)?;
        if h.priority_queues > 8 {
            return Err(format!("params.phost.priority_queues: must be at most 8, got {}", h.priority_queues));
        }
        at_least("phost.free_tokens", h.free_tokens as u64, 0)?;
        positive("phost.token_ttl_mtu", h.token_ttl_mtu)?;
        at_least("phost.token_interval_bytes", h.token_interval_bytes, 40)?;
        at_least("phost.downgrade_window", h.downgrade_window as u64, 1)?;
        positive("phost.downgrade_mtu", h.downgrade_mtu())?;
        positive("phost.receiver_timeout_mtu", h.receiver_timeout_mtu())?;
        positive("phost.rts_timeout_us", h.rts_timeout_us)
    }
    /// Control, short-flow data, long-flow data, ... (pHost section 3).
    fn ports(p: &PhostParams) -> PortSetup {
        PortSetup { discipline: Discipline::StrictPriority, buffer_bytes: p.buffer_bytes, ecn_threshold_bytes: None, queues: p.priority_queues }
    }
    fn build<B: Build>(p: &PhostParams, b: B) -> B::Out {
        b.packet(&|net, _| {
            let mtu_time = (0..net.n_hosts).map(|h| net.ports[net.nic(NodeId(h)).idx()].rate.serialization(MTU as u64)).collect();
            Phost::new(p.clone(), mtu_time)
        })
    }
}
