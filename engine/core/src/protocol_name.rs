//! The names of the protocols: which protocol a scenario or a what-if
//! branch runs. Kept below everything that names a protocol (the scenario
//! file, branches, the runner), so that none of them imports another for
//! it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which protocol runs (PROTOCOLS.md). Protocols of later issues are listed
/// once they exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProtocolName {
    /// TCP NewReno with SACK over DropTail queues (section 9).
    Tcp,
    /// DCTCP over ECN-marking queues (section 9).
    Dctcp,
    /// pFabric: priority queues and minimal rate control (section 3).
    Pfabric,
    /// RCP: switches compute a fair rate per link (section 9).
    Rcp,
    /// The flow-level oracle: greedy SRPT matching (section 4).
    Ideal,
    /// pHost: receiver-driven tokens over priority queues (section 5).
    Phost,
    /// Fastpass: a central arbiter allocates timeslots (section 6).
    Fastpass,
    /// D2TCP: DCTCP whose cut depends on deadline imminence (section 9).
    D2tcp,
    /// L2DCT: DCTCP weighted by bytes sent, least attained service first
    /// (section 9).
    L2dct,
    /// PASE: arbitrated priority queues and reference rates, DCTCP-like
    /// end hosts (section 7).
    Pase,
    /// PDQ: switches grant or pause flows by criticality (section 8).
    Pdq,
    /// D3: switches grant deadline flows their desired rate first come
    /// first served and share the rest (section 9).
    D3,
    /// The optimal deadline scheduler: flow-level, earliest deadline first
    /// with the fewest flows discarded (Moore-Hodgson; PDQ's bound).
    OptimalDeadline,
}

impl ProtocolName {
    /// All protocols, for help texts and sweeps.
    pub const ALL: [ProtocolName; 13] = [
        ProtocolName::Tcp,
        ProtocolName::Dctcp,
        ProtocolName::Pfabric,
        ProtocolName::Rcp,
        ProtocolName::Ideal,
        ProtocolName::Phost,
        ProtocolName::Fastpass,
        ProtocolName::D2tcp,
        ProtocolName::L2dct,
        ProtocolName::Pase,
        ProtocolName::Pdq,
        ProtocolName::D3,
        ProtocolName::OptimalDeadline,
    ];
    /// The name used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolName::Tcp => "tcp",
            ProtocolName::Dctcp => "dctcp",
            ProtocolName::Pfabric => "pfabric",
            ProtocolName::Rcp => "rcp",
            ProtocolName::Ideal => "ideal",
            ProtocolName::Fastpass => "fastpass",
            ProtocolName::Phost => "phost",
            ProtocolName::D2tcp => "d2tcp",
            ProtocolName::L2dct => "l2dct",
            ProtocolName::Pase => "pase",
            ProtocolName::Pdq => "pdq",
            ProtocolName::D3 => "d3",
            ProtocolName::OptimalDeadline => "optimal_deadline",
        }
    }
    /// Flow-level schedulers (no packets: Ideal, the optimal deadline
    /// scheduler); every other protocol runs in the packet-level engine.
    pub fn is_flow_level(self) -> bool {
        matches!(self, ProtocolName::Ideal | ProtocolName::OptimalDeadline)
    }
    /// Parses a command-line name.
    pub fn parse(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| format!("protocol: unknown protocol `{s}` (known: {})", Self::ALL.map(|p| p.as_str()).join(", ")))
    }
}
