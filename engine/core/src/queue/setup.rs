//! The ports each protocol runs on, stated once (issue 19): the
//! discipline, the buffer of every port, ECN marking and the number of
//! priority sub-queues, from the protocol's parameters. `run.rs` builds
//! the queues from it, the WebAssembly binding reports it for the loaded
//! scenario, and the page's queue bars, port inspector and legend read it
//! (their defaults through `dcsim names`, generated into
//! `web/src/engine/names.generated.ts`).

use super::{Fifo, PFabricQueue, Queue, StrictPriority};
use crate::protocol::params::ProtocolParams;
use crate::scenario::ProtocolName;
use serde::Serialize;

/// How a port orders and drops packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Discipline {
    /// FIFO, drop the arrival when full.
    Droptail,
    /// FIFO that CE-marks arrivals above the threshold K (DCTCP).
    Ecn,
    /// pFabric: serve the most urgent flow's earliest packet, drop the least
    /// urgent (pFabric section 4.1).
    Pfabric,
    /// Strict priority among sub-queues, FIFO within one (pHost, PASE,
    /// Fastpass).
    StrictPriority,
    /// No packets (the flow-level schedulers).
    None,
}

/// The ports of a protocol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PortSetup {
    /// The discipline.
    pub discipline: Discipline,
    /// Buffer of each port, bytes (0 for the flow-level schedulers).
    pub buffer_bytes: u64,
    /// ECN marking threshold K, bytes, when the ports mark (per sub-queue
    /// for PASE).
    pub ecn_threshold_bytes: Option<u64>,
    /// Priority sub-queues (1 for FIFO and pFabric ports).
    pub queues: u32,
}

impl PortSetup {
    /// The ports `protocol` runs on with parameters `p` (pFabric paper
    /// Table 1 and each protocol's paper for the defaults; see
    /// `protocol/params.rs`).
    pub fn of(protocol: ProtocolName, p: &ProtocolParams) -> PortSetup {
        use Discipline as D;
        let fifo = |discipline, buffer_bytes, k| PortSetup { discipline, buffer_bytes, ecn_threshold_bytes: k, queues: 1 };
        match protocol {
            ProtocolName::Tcp => fifo(D::Droptail, p.tcp.buffer_bytes, None),
            ProtocolName::Dctcp => fifo(D::Ecn, p.dctcp.buffer_bytes, Some(p.dctcp.ecn_threshold_bytes)),
            ProtocolName::D2tcp => {
                let d = p.d2tcp.dctcp_part();
                fifo(D::Ecn, d.buffer_bytes, Some(d.ecn_threshold_bytes))
            }
            ProtocolName::L2dct => {
                let d = p.l2dct.dctcp_part();
                fifo(D::Ecn, d.buffer_bytes, Some(d.ecn_threshold_bytes))
            }
            ProtocolName::Pfabric => fifo(D::Pfabric, p.pfabric.buffer_bytes, None),
            ProtocolName::Rcp => fifo(D::Droptail, p.rcp.buffer_bytes, None),
            ProtocolName::D3 => fifo(D::Droptail, p.d3.buffer_bytes, None),
            ProtocolName::Pdq => fifo(D::Droptail, p.pdq.buffer_bytes, None),
            // pHost: control, short-flow data, long-flow data, ... (pHost section 3).
            ProtocolName::Phost => {
                PortSetup { discipline: D::StrictPriority, buffer_bytes: p.phost.buffer_bytes, ecn_threshold_bytes: None, queues: p.phost.priority_queues }
            }
            // PASE marks each sub-queue at K (PASE section 3.2).
            ProtocolName::Pase => PortSetup {
                discipline: D::StrictPriority,
                buffer_bytes: p.pase.buffer_bytes,
                ecn_threshold_bytes: Some(p.pase.ecn_threshold_bytes),
                queues: p.pase.queues,
            },
            // Fastpass: the arbiter's control traffic above the data.
            ProtocolName::Fastpass => PortSetup { discipline: D::StrictPriority, buffer_bytes: p.fastpass.buffer_bytes, ecn_threshold_bytes: None, queues: 2 },
            ProtocolName::Ideal | ProtocolName::OptimalDeadline => PortSetup { discipline: D::None, buffer_bytes: 0, ecn_threshold_bytes: None, queues: 0 },
        }
    }

    /// An empty queue of this setup (`None` for the flow-level schedulers).
    pub fn queue(&self) -> Option<Queue> {
        Some(match self.discipline {
            Discipline::Droptail => Queue::Fifo(Fifo::droptail(self.buffer_bytes)),
            Discipline::Ecn => Queue::Fifo(Fifo::ecn(self.buffer_bytes, self.ecn_threshold_bytes.unwrap_or(u64::MAX))),
            Discipline::Pfabric => Queue::PFabric(PFabricQueue::new(self.buffer_bytes)),
            Discipline::StrictPriority => Queue::StrictPriority(StrictPriority::new(self.queues as usize, self.buffer_bytes, self.ecn_threshold_bytes)),
            Discipline::None => return None,
        })
    }
}
