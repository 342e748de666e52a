//! PASE as a plug-in: arbitrators, strict-priority ports marking ECN at
//! K in every sub-queue, DCTCP-like end hosts.

use super::params::PaseParams;
use super::params::PaseRateControl;
use super::Pase;
use super::{PaseHost, PaseHostConfig};
use crate::protocol::plugin::{buffer_field, Build, Descriptor, Field, Plugin, PriorityKey};
use crate::protocol::ports::{Discipline, PortSetup};
use crate::protocol::window::controller::{ControllerConfig, DctcpConfig};
use crate::protocol::window::WindowConfig;

/// PASE (Munir et al., SIGCOMM 2014; docs/protocols/pase.md).
pub struct PasePlugin;

impl Plugin for PasePlugin {
    type Params = PaseParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "PASE",
        summary: "PASE: arbitrators give each flow a priority queue and a reference rate; DCTCP-like end hosts",
        color: "#8c564b",
        list_rank: 3,
        flow_level: false,
        dctcp_profile: false,
        // As many queues as params.pase.queues (8 by default); the lowest one's flows probe.
        priority: PriorityKey::Queues { labels: &["top (control, ACKs, the most critical flows)", "", "", "", "", "", "", "lowest of 8 (flows there probe)"] },
        fields: &[
            buffer_field("as DCTCP: 225 KB"),
            Field {
                key: "queues",
                label: "priority queues per port",
                unit: "",
                source: "PASE section 3.2: commodity switches have 8 queues",
                min: 1,
                max: Some(8),
            },
        ],
        controls: super::events::ALL,
    };
    fn validate(p: &PaseParams) -> Result<(), String> {
        p.validate()
    }
    /// PASE marks each sub-queue at K (PASE section 3.2).
    fn ports(p: &PaseParams) -> PortSetup {
        PortSetup { discipline: Discipline::StrictPriority, buffer_bytes: p.buffer_bytes, ecn_threshold_bytes: Some(p.ecn_threshold_bytes), queues: p.queues }
    }
    fn unsplittable(_: &PaseParams) -> Option<&'static str> {
        Some("PASE's arbitrators keep per-flow state that hosts and switches share")
    }
    fn build<B: Build>(p: &PaseParams, b: B) -> B::Out {
        b.packet(&|net, env| Pase::new(p.clone(), net, env.spraying))
    }
}

impl WindowConfig<PaseHost> {
    /// PASE's end hosts: DCTCP's settings from PASE's parameters, with
    /// PASE's window rules ([`PaseHost`], PASE section 3.2) or,
    /// for PASE-DCTCP, plain DCTCP's.
    pub fn pase(p: &PaseParams, spraying: bool) -> Self {
        let d = p.dctcp_part();
        let dctcp = DctcpConfig::new(&d);
        let control = match p.rate_control {
            PaseRateControl::Pase => ControllerConfig::Extension(PaseHostConfig { dctcp, lowest_grows: p.lowest_queue_grows, probing: p.probing }),
            PaseRateControl::Dctcp => ControllerConfig::Dctcp(dctcp),
        };
        Self::dctcp_like(control, &d, spraying)
    }
}
