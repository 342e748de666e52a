//! The ports a protocol runs on (issue 19): the discipline, the buffer of
//! every port, ECN marking and the number of priority sub-queues, from the
//! protocol's parameters (each protocol's `Plugin::ports`; `PortSetup::of`, in `registry.rs`,
//! asks the named protocol). `run.rs` builds
//! the queues from it, the WebAssembly binding reports it for the loaded
//! scenario, and the page's queue bars, port inspector and legend read it
//! (their defaults through `dcsim names`, generated into
//! `web/src/engine/names.generated.ts`).

use crate::queue::{Fifo, PFabricQueue, Queue, StrictPriority};
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
    /// One FIFO-like queue per port (`queues: 1`).
    pub fn fifo(discipline: Discipline, buffer_bytes: u64, ecn_threshold_bytes: Option<u64>) -> PortSetup {
        PortSetup { discipline, buffer_bytes, ecn_threshold_bytes, queues: 1 }
    }

    /// No ports: a flow-level scheduler's.
    pub const NONE: PortSetup = PortSetup { discipline: Discipline::None, buffer_bytes: 0, ecn_threshold_bytes: None, queues: 0 };

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
