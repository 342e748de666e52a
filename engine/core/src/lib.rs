//! # dcsim-core: a packet-level datacenter transport simulator
//!
//! This crate is the whole simulation and nothing else: no I/O, no clock,
//! no threads, no WebAssembly bindings. The native command line
//! (`engine/cli`) and the browser binding are thin layers over it, and both
//! get bit-identical results for the same scenario and seed.
//!
//! ## Layers, bottom up
//!
//! * [`units`], [`ids`]: integer picosecond time, link rates, typed indices.
//! * [`event`]: the event list, ordered by (time, tie) with a tie that does not depend on the order of scheduling (`sim::tie`); [`slab`]: numbered
//!   slots with reuse, for the packets inside the network.
//! * [`rng`]: one seeded random stream per purpose.
//! * [`packet`]: packets with the fields the network reads and one
//!   protocol-owned header.
//! * [`queue`]: the disciplines of output ports: `droptail`, `ecn`,
//!   `strict_priority(n)`, `pfabric`.
//! * [`net`]: topologies (leaf-spine, single bottleneck, single rack,
//!   tree), routes, and the ideal FCT of a flow.
//! * [`workload`]: flow sizes, arrivals and traffic matrices.
//! * [`metrics`], [`trace`]: per-flow records, counters, summaries, the
//!   stability check; the structured event stream the browser animates.
//! * [`protocol`]: the [`protocol::Protocol`] trait and the protocols:
//!   end-host state machines driven by packets and timers, switch-resident
//!   logic at output ports, control-plane entities.
//! * [`sim`]: the simulation value that owns time, events, ports and wires
//!   and drives a protocol.
//! * [`scenario`], [`run`]: scenario files and the one entry point that
//!   turns a scenario into results.
//! * [`timeline`]: time travel, a run with checkpoints (snapshots) so any
//!   simulated time is one checkpoint interval of replay away.
//!
//! `docs/architecture.md` describes the layers (their order is checked by
//! `tests/layers.rs`) and how to add a protocol.
//!
//! No `unsafe` outside two fenced places, each allowed where it is and
//! nowhere else: the counting allocator ([`heap`]) and the posts the
//! threads of a split run share (`parallel`'s board). Every other module
//! forbids it (`#[forbid(unsafe_code)]` on its declaration, which nothing
//! inside can lift); the crate denies it, and so does `parallel` outside
//! its board.

#![deny(unsafe_code)]

#[forbid(unsafe_code)]
pub mod branch;
#[forbid(unsafe_code)]
pub mod event;
#[forbid(unsafe_code)]
pub mod exports;
#[forbid(unsafe_code)]
pub mod fault;
#[allow(unsafe_code)]
pub mod heap;
#[forbid(unsafe_code)]
pub mod ids;
#[forbid(unsafe_code)]
pub mod metrics;
#[forbid(unsafe_code)]
pub mod net;
#[forbid(unsafe_code)]
pub mod packet;
#[cfg(not(target_arch = "wasm32"))]
pub mod parallel;
#[forbid(unsafe_code)]
pub mod protocol;
#[forbid(unsafe_code)]
pub mod queue;
#[forbid(unsafe_code)]
pub mod report;
#[forbid(unsafe_code)]
pub mod rng;
#[forbid(unsafe_code)]
pub mod run;
#[forbid(unsafe_code)]
pub mod scenario;
#[forbid(unsafe_code)]
pub mod sim;
#[forbid(unsafe_code)]
pub mod slab;
#[forbid(unsafe_code)]
pub mod timeline;
#[forbid(unsafe_code)]
pub mod trace;
#[forbid(unsafe_code)]
pub mod units;
#[forbid(unsafe_code)]
pub mod workload;

pub use run::{prepare, restore, run, RunOptions, RunOutput, Runner};
pub use scenario::Scenario;
