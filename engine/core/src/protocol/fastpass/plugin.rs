//! Fastpass as a plug-in: a central arbiter, strict-priority ports with
//! its control traffic above the data.

use super::params::FastpassParams;
use super::Fastpass;
use crate::net::Network;
use crate::protocol::params::{at_least, non_negative, positive};
use crate::protocol::plugin::{buffer_field, Build, Descriptor, Plugin, PriorityKey};
use crate::protocol::ports::{Discipline, PortSetup};

/// Fastpass (Perry et al., SIGCOMM 2014; docs/protocols/fastpass.md).
pub struct FastpassPlugin;

impl Plugin for FastpassPlugin {
    type Params = FastpassParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "Fastpass",
        summary: "Fastpass: a central arbiter allocates every host's timeslots",
        color: "#0b7285",
        list_rank: 2,
        flow_level: false,
        dctcp_profile: false,
        priority: PriorityKey::Queues { labels: &["control (request, grant, ACK)", "data"] },
        fields: &[buffer_field("the pHost paper gives every scheme pFabric's 36 KB ports")],
        controls: super::events::ALL,
    };
    fn validate(f: &FastpassParams) -> Result<(), String> {
        at_least("fastpass.buffer_bytes", f.buffer_bytes, 1500)?;
        at_least("fastpass.epoch_slots", f.epoch_slots as u64, 1)?;
        if f.epoch_slots > 32 {
            return Err(format!("params.fastpass.epoch_slots: must be at most 32, got {}", f.epoch_slots));
        }
        non_negative("fastpass.epoch_guard_slots", f.epoch_guard_slots)?;
        non_negative("fastpass.arbiter_processing_us", f.arbiter_processing_us)?;
        non_negative("fastpass.clock_skew_ns", f.clock_skew_ns)?;
        positive("fastpass.retransmit_timeout_us", f.retransmit_timeout_us)
    }
    fn validate_for(p: &FastpassParams, net: &Network, _running: bool) -> Result<(), String> {
        p.validate_for_hosts(net.n_hosts)
    }
    /// The arbiter's control traffic above the data.
    fn ports(p: &FastpassParams) -> PortSetup {
        PortSetup { discipline: Discipline::StrictPriority, buffer_bytes: p.buffer_bytes, ecn_threshold_bytes: None, queues: 2 }
    }
    fn unsplittable(_: &FastpassParams) -> Option<&'static str> {
        // Measured (issue 20): split runs gave the same bytes but no gain.
        Some("Fastpass's arbiter schedules every host's timeslots, so each cell holds few events: split, its runs were no faster (web search, 10,000 flows: 5.1 s on one thread, 5.8 s on two)")
    }
    fn build<B: Build>(p: &FastpassParams, b: B) -> B::Out {
        b.packet(&|net, _| Fastpass::new(p.clone(), net))
    }
}
