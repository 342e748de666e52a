//! A protocol as the rest of the engine sees it: the [`Plugin`] trait
//! (name, parameters, ports, how to build it, whether a run of it can be
//! split between threads) and its [`Descriptor`] for the page. Each
//! protocol's folder implements it once; `registry.rs` lists the
//! implementations, and its one `match` turns a protocol's name into the
//! monomorphised code that runs it.

use super::ports::PortSetup;
use super::Protocol;
use crate::metrics::FlowRecord;
use crate::net::Network;
use crate::trace::ControlEvent;
use crate::units::SimTime;
use crate::workload::FlowGenerator;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Result of a flow-level run (Ideal, the optimal deadline scheduler).
#[derive(Clone)]
pub struct IdealRun {
    /// One record per flow.
    pub records: Vec<FlowRecord>,
    /// Time the last flow completed.
    pub end: SimTime,
    /// Scheduling decisions made (events).
    pub events: u64,
}

/// A flow-level scheduler: runs a whole workload at once, up to the time
/// limit (Ideal, the optimal deadline scheduler).
pub type FlowlevelFn = fn(&Network, FlowGenerator, SimTime) -> IdealRun;

/// What a protocol's builder learns from the scenario besides its own
/// parameters.
#[derive(Clone, Copy, Debug)]
pub struct Env {
    /// Switches spread a flow's packets over equal-cost paths
    /// (`load_balancing` other than `ecmp`): receivers then expect reordering.
    pub spraying: bool,
}

/// What to do with a protocol once it says how it is built: a packet-level
/// protocol gives a function that builds it for a network (called once per
/// simulation: once for a plain run, once per part of a split run), a
/// flow-level scheduler gives its function.
pub trait Build {
    /// What the build gives.
    type Out;
    /// A packet-level protocol built by `make`.
    fn packet<P: Protocol<Timer: Send> + Send + 'static>(self, make: &(dyn Fn(&Network, Env) -> P + Sync)) -> Self::Out;
    /// A flow-level scheduler.
    fn flow(self, run: FlowlevelFn) -> Self::Out;
}

/// One protocol, described to the engine and the page. Implemented once
/// per protocol, in its folder; listed once in `registry.rs`.
pub trait Plugin {
    /// Its parameters, `params.<name>` in scenario files (`()` for a
    /// protocol without any). Every field's doc comment names its source:
    /// it becomes the JSON Schema, the scenario reference and the page's
    /// help.
    type Params: Clone + Default + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema;
    /// What the page shows of it.
    const DESCRIPTOR: Descriptor;
    /// Checks its parameters; the error names the field
    /// (`params.<name>.<field>`) and the reason. Every protocol's
    /// parameters are checked, whichever runs.
    fn validate(p: &Self::Params) -> Result<(), String>;
    /// Checks its parameters against the scenario's network (Fastpass's
    /// arbiter must be one of its hosts, whichever protocol runs; RCP's
    /// interval must not be far below the round trip when RCP runs);
    /// `running` says whether this protocol is the one that runs.
    fn validate_for(_p: &Self::Params, _net: &Network, _running: bool) -> Result<(), String> {
        Ok(())
    }
    /// The ports it runs on.
    fn ports(p: &Self::Params) -> PortSetup;
    /// True when it routes each flow on one path whatever the scenario's
    /// `load_balancing` says (ECMP).
    fn single_path(_p: &Self::Params) -> bool {
        false
    }
    /// Why a run of it can never be split between threads
    /// (`crate::parallel`), or `None` when the protocol allows it (the
    /// scenario may still not: traces, faults, closed loops).
    fn unsplittable(_p: &Self::Params) -> Option<&'static str> {
        None
    }
    /// Says how it is built: calls `b.packet` or `b.flow`.
    fn build<B: Build>(p: &Self::Params, b: B) -> B::Out;
}

/// What the page knows of a protocol (exported by `dcsim names` into
/// `web/src/engine/names.generated.ts`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Descriptor {
    /// Its name as the papers write it ("pFabric").
    pub label: &'static str,
    /// What it is, in one line, with its paper.
    pub summary: &'static str,
    /// Its colour in the charts (`#rrggbb`), so a protocol keeps its
    /// colour everywhere.
    pub color: &'static str,
    /// Its place in the page's list of protocols (distinct, small first).
    pub list_rank: u8,
    /// A flow-level scheduler (no packets; computed at once).
    pub flow_level: bool,
    /// Its `params.<name>.profile` is one of DCTCP's end-host profiles.
    pub dctcp_profile: bool,
    /// What the priority colouring of its packets means.
    pub priority: PriorityKey,
    /// The parameters the page's panel offers as fields.
    pub fields: &'static [Field],
    /// The control messages and decisions it traces, each with the words
    /// the page shows (declared in its folder).
    pub controls: &'static [&'static ControlEvent],
}

/// What a packet's priority colour means on a protocol's ports.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PriorityKey {
    /// No packets (flow-level schedulers).
    None,
    /// One FIFO per port.
    Fifo,
    /// Strict-priority sub-queues, most urgent first: what each holds
    /// (empty when nothing more than its number needs saying).
    Queues {
        /// One label per sub-queue.
        labels: &'static [&'static str],
    },
    /// pFabric's ranks (remaining flow bytes), bucketed below these bounds.
    Ranks {
        /// Upper bounds of the buckets, bytes; the last bucket is above.
        bounds: &'static [u64],
    },
}

/// A parameter the page's panel offers as a field.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Field {
    /// The field of the protocol's parameters (`params.<name>.<key>`).
    pub key: &'static str,
    /// Its label in the panel.
    pub label: &'static str,
    /// Its unit ("" for a count).
    pub unit: &'static str,
    /// Where its default comes from.
    pub source: &'static str,
    /// Smallest value the page accepts (whole numbers only).
    pub min: u64,
    /// Largest value the page accepts.
    pub max: Option<u64>,
}

/// Every port's buffer, the panel field each packet-level protocol offers.
pub const fn buffer_field(source: &'static str) -> Field {
    Field { key: "buffer_bytes", label: "buffer", unit: "bytes", source, min: 1500, max: None }
}

/// The plug-in of a flow-level scheduler: no parameters, no ports, never
/// split between threads; `$run` computes a whole run.
macro_rules! flow_level_plugin {
    ($(#[$doc:meta])* $name:ident, $run:path, $descriptor:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl crate::protocol::plugin::Plugin for $name {
            type Params = ();
            const DESCRIPTOR: crate::protocol::plugin::Descriptor = $descriptor;
            fn validate(_: &()) -> Result<(), String> {
                Ok(())
            }
            fn ports(_: &()) -> crate::protocol::ports::PortSetup {
                crate::protocol::ports::PortSetup::NONE
            }
            fn unsplittable(_: &()) -> Option<&'static str> {
                Some("flow-level schedulers compute the whole run at once")
            }
            fn build<B: crate::protocol::plugin::Build>(_: &(), b: B) -> B::Out {
                b.flow($run)
            }
        }
    };
}
pub(crate) use flow_level_plugin;
