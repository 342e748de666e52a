//! PDQ as a plug-in: its own switch logic on DropTail ports.

use super::params::PdqParams;
use super::Pdq;
use crate::protocol::params::{at_least, non_negative, positive, unit_fraction};
use crate::protocol::plugin::{buffer_field, Build, Descriptor, Plugin, PriorityKey};
use crate::protocol::ports::{Discipline, PortSetup};

/// PDQ (Hong, Caesar, Godfrey, SIGCOMM 2012; docs/protocols/pdq.md):
/// switches grant or pause flows by criticality.
pub struct PdqPlugin;

impl Plugin for PdqPlugin {
    type Params = PdqParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "PDQ",
        summary: "PDQ: switches grant or pause flows by criticality (earliest deadline, then smallest)",
        color: "#c2255c",
        list_rank: 4,
        flow_level: false,
        dctcp_profile: false,
        priority: PriorityKey::Fifo,
        fields: &[buffer_field("pFabric Table 1: 225 KB")],
        controls: super::events::ALL,
    };
    fn validate(q: &PdqParams) -> Result<(), String> {
        at_least("pdq.buffer_bytes", q.buffer_bytes, 1500)?;
        positive("pdq.rto_us", q.rto_us)?;
        positive("pdq.probe_interval_us", q.probe_interval_us)?;
        at_least("pdq.kappa", q.kappa as u64, 1)?;
        positive("pdq.early_start_k", q.early_start_k)?;
        positive("pdq.probing_x", q.probing_x)?;
        non_negative("pdq.dampening_us", q.dampening_us)?;
        positive("pdq.rate_r", q.rate_r)?;
        unit_fraction("pdq.rate_r", q.rate_r)?;
        positive("pdq.init_rtt_us", q.init_rtt_us)?;
        non_negative("pdq.early_termination_rtts", q.early_termination_rtts)?;
        unit_fraction("pdq.early_termination_rate_fraction", q.early_termination_rate_fraction)?;
        if !(0.0..1.0).contains(&q.min_rate_fraction) {
            return Err(format!("params.pdq.min_rate_fraction: must be in [0, 1), got {}", q.min_rate_fraction));
        }
        Ok(())
    }
    fn ports(p: &PdqParams) -> PortSetup {
        PortSetup::fifo(Discipline::Droptail, p.buffer_bytes, None)
    }
    /// PDQ is single-path (see `PdqParams::per_flow_paths`).
    fn single_path(p: &PdqParams) -> bool {
        p.per_flow_paths
    }
    fn build<B: Build>(p: &PdqParams, b: B) -> B::Out {
        b.packet(&|net, _| Pdq::new(p.clone(), net))
    }
}
