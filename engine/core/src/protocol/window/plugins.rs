//! The window transports as plug-ins: TCP, DCTCP, D2TCP, L2DCT and pFabric
//! each describe their parameters, ports and page entries here, and all
//! run as a [`WindowTransport`] with their own [`WindowConfig`].

use super::params::{dctcp_like, D2tcpParams, DctcpParams, L2dctParams, PFabricParams, TcpParams};
use super::{WindowConfig, WindowTransport};
use crate::protocol::params::{at_least, positive};
use crate::protocol::plugin::{buffer_field, Build, Descriptor, Field, Plugin, PriorityKey};
use crate::protocol::ports::{Discipline, PortSetup};

/// Every DCTCP-family port: an ECN-marking FIFO (DCTCP paper section 3.1).
const ECN_THRESHOLD: Field =
    Field { key: "ecn_threshold_bytes", label: "ECN threshold K", unit: "bytes", source: "pFabric Table 1: 22.5 KB", min: 0, max: None };
/// The buffer of the DropTail and ECN ports.
const BUFFER_225K: Field = buffer_field("pFabric Table 1: 225 KB");

/// TCP NewReno with SACK over DropTail ports (docs/protocols/tcp.md;
/// pFabric Table 1).
pub struct TcpPlugin;

impl Plugin for TcpPlugin {
    type Params = TcpParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "TCP",
        summary: "TCP NewReno with SACK over DropTail queues",
        color: "#6c757d",
        list_rank: 9,
        flow_level: false,
        dctcp_profile: false,
        priority: PriorityKey::Fifo,
        fields: &[BUFFER_225K],
        controls: &[],
    };
    fn validate(t: &TcpParams) -> Result<(), String> {
        at_least("tcp.buffer_bytes", t.buffer_bytes, 1500)?;
        at_least("tcp.init_cwnd", t.init_cwnd as u64, 1)?;
        positive("tcp.min_rto_us", t.min_rto_us)?;
        positive("tcp.max_rto_us", t.max_rto_us)?;
        at_least("tcp.dupack_threshold", t.dupack_threshold as u64, 1)
    }
    fn ports(p: &TcpParams) -> PortSetup {
        PortSetup::fifo(Discipline::Droptail, p.buffer_bytes, None)
    }
    fn build<B: Build>(p: &TcpParams, b: B) -> B::Out {
        b.packet(&|_, env| WindowTransport::new(WindowConfig::tcp(p, env.spraying)))
    }
}

/// DCTCP over ECN-marking ports (docs/protocols/dctcp.md; DCTCP paper
/// section 3).
pub struct DctcpPlugin;

impl Plugin for DctcpPlugin {
    type Params = DctcpParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "DCTCP",
        summary: "DCTCP: windows cut in proportion to the ECN marks, over ECN-marking queues",
        color: "#e8590c",
        list_rank: 6,
        flow_level: false,
        dctcp_profile: true,
        priority: PriorityKey::Fifo,
        fields: &[BUFFER_225K, ECN_THRESHOLD],
        controls: &[],
    };
    fn validate(p: &DctcpParams) -> Result<(), String> {
        dctcp_like("dctcp", &p.dctcp_part())
    }
    fn ports(p: &DctcpParams) -> PortSetup {
        PortSetup::fifo(Discipline::Ecn, p.buffer_bytes, Some(p.ecn_threshold_bytes))
    }
    fn build<B: Build>(p: &DctcpParams, b: B) -> B::Out {
        b.packet(&|_, env| WindowTransport::new(WindowConfig::dctcp(p, env.spraying)))
    }
}

/// D2TCP: DCTCP whose cut depends on deadline imminence (D2TCP paper
/// section 3), over DCTCP's ports.
pub struct D2tcpPlugin;

impl Plugin for D2tcpPlugin {
    type Params = D2tcpParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "D2TCP",
        summary: "D2TCP: DCTCP whose cut depends on how near the deadline is",
        color: "#f08c00",
        list_rank: 7,
        flow_level: false,
        dctcp_profile: true,
        priority: PriorityKey::Fifo,
        fields: &[BUFFER_225K],
        controls: &[],
    };
    fn validate(d: &D2tcpParams) -> Result<(), String> {
        dctcp_like("d2tcp", &d.dctcp_part())?;
        positive("d2tcp.min_imminence", d.min_imminence)?;
        if !(d.max_imminence.is_finite() && d.max_imminence >= d.min_imminence) {
            return Err(format!("params.d2tcp.max_imminence: must be a number >= min_imminence ({}), got {}", d.min_imminence, d.max_imminence));
        }
        positive("d2tcp.past_deadline_imminence", d.past_deadline_imminence)
    }
    fn ports(p: &D2tcpParams) -> PortSetup {
        let d = p.dctcp_part();
        PortSetup::fifo(Discipline::Ecn, d.buffer_bytes, Some(d.ecn_threshold_bytes))
    }
    fn build<B: Build>(p: &D2tcpParams, b: B) -> B::Out {
        b.packet(&|_, env| WindowTransport::new(WindowConfig::d2tcp(p, env.spraying)))
    }
}

/// L2DCT: DCTCP weighted by bytes sent, least attained service first
/// (L2DCT paper section IV), over DCTCP's ports.
pub struct L2dctPlugin;

impl Plugin for L2dctPlugin {
    type Params = L2dctParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "L2DCT",
        summary: "L2DCT: DCTCP weighted by the bytes a flow has sent (least attained service first)",
        color: "#9c36b5",
        list_rank: 8,
        flow_level: false,
        dctcp_profile: true,
        priority: PriorityKey::Fifo,
        fields: &[BUFFER_225K],
        controls: &[],
    };
    fn validate(l: &L2dctParams) -> Result<(), String> {
        dctcp_like("l2dct", &l.dctcp_part())?;
        positive("l2dct.min_weight", l.min_weight)?;
        if !(l.max_weight.is_finite() && l.max_weight >= l.min_weight) {
            return Err(format!("params.l2dct.max_weight: must be a number >= min_weight ({}), got {}", l.min_weight, l.max_weight));
        }
        at_least("l2dct.min_weight_bytes", l.min_weight_bytes, l.full_weight_bytes + 1)
    }
    fn ports(p: &L2dctParams) -> PortSetup {
        let d = p.dctcp_part();
        PortSetup::fifo(Discipline::Ecn, d.buffer_bytes, Some(d.ecn_threshold_bytes))
    }
    fn build<B: Build>(p: &L2dctParams, b: B) -> B::Out {
        b.packet(&|_, env| WindowTransport::new(WindowConfig::l2dct(p, env.spraying)))
    }
}

/// pFabric: minimal rate control over ports that serve the most urgent
/// flow first and drop the least urgent (pFabric paper section 4).
pub struct PFabricPlugin;

impl Plugin for PFabricPlugin {
    type Params = PFabricParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "pFabric",
        summary: "pFabric: priority queues by remaining flow size and minimal rate control",
        color: "#1f77b4",
        list_rank: 0,
        flow_level: false,
        dctcp_profile: false,
        // The page's buckets of remaining bytes, not the paper's.
        priority: PriorityKey::Ranks { bounds: &[10_000, 100_000, 1_000_000, 10_000_000] },
        fields: &[buffer_field("pFabric Table 1: 36 KB")],
        controls: &[super::controller::pfabric::PROBE],
    };
    fn validate(p: &PFabricParams) -> Result<(), String> {
        at_least("pfabric.buffer_bytes", p.buffer_bytes, 1500)?;
        at_least("pfabric.init_cwnd", p.init_cwnd as u64, 1)?;
        at_least("pfabric.max_cwnd", p.max_cwnd as u64, p.init_cwnd as u64)?;
        positive("pfabric.rto_us", p.rto_us)?;
        at_least("pfabric.probe_after_timeouts", p.probe_after_timeouts as u64, 1)
    }
    fn ports(p: &PFabricParams) -> PortSetup {
        PortSetup::fifo(Discipline::Pfabric, p.buffer_bytes, None)
    }
    fn build<B: Build>(p: &PFabricParams, b: B) -> B::Out {
        b.packet(&|_, _| WindowTransport::new(WindowConfig::pfabric(p)))
    }
}
