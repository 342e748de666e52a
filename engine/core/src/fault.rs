//! Scheduled faults (issue 16): links and switches that fail and come back
//! at given times, in scenario files (`faults`) and as what-if branches.
//!
//! Model (docs/architecture.md, "Time travel, faults and branches"):
//! * A down link drops, in both directions, the packets buffered at its
//!   ports at once, every packet that reaches its ports while it is down,
//!   and the packets already on its wires (they arrive nowhere). All are
//!   counted as drops by port role like any drop, and also as
//!   `fault_drops`, with the trace reason `link_down`.
//! * A down switch is all its links down.
//! * `drop_next` drops the next data packet of one flow that reaches one
//!   output port after the fault's time, once (a single loss, to watch a
//!   protocol's loss recovery in isolation); counted the same way, with
//!   the trace reason `injected`. If that flow sends nothing more through
//!   that port, nothing is dropped.
//! * Routing fails over at once (no convergence delay): switches forward
//!   on the shortest paths of the links still up, spreading over all of
//!   them as before; a destination with no path left is unreachable and
//!   packets to it are dropped. When every link is up again the original
//!   routes come back. A delayed reroute (routing protocol convergence)
//!   is not modelled.
//! * Protocols are not told: they see losses and recover by their own
//!   means (retransmission timeouts, pHost's token expiry, ...). Their own
//!   path knowledge (PDQ's per-flow paths, PASE's arbitrators, the
//!   Fastpass arbiter's path model) stays as it was built, failure-free.

use crate::ids::{FlowId, NodeId, PortId};
use crate::net::Network;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What fails or comes back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FaultKind {
    /// The link between two adjacent nodes (by name, e.g. `["tor0",
    /// "spine1"]`) goes down, both directions.
    LinkDown {
        /// The two ends.
        link: [String; 2],
    },
    /// That link comes back.
    LinkUp {
        /// The two ends.
        link: [String; 2],
    },
    /// Every link of a switch (by name, e.g. `"spine1"`) goes down.
    SwitchDown {
        /// The switch.
        node: String,
    },
    /// Every link of that switch comes back.
    SwitchUp {
        /// The switch.
        node: String,
    },
    /// The next data packet of `flow` that reaches the output port from
    /// `port[0]` towards `port[1]` is dropped (once).
    DropNext {
        /// The flow, by id (0-based, in arrival order: the `id` column of
        /// the flows CSV).
        flow: u32,
        /// The output port, as its node and the neighbour it sends to,
        /// e.g. `["spine0", "tor3"]`.
        port: [String; 2],
    },
}

/// What a fault does to the simulation, its names resolved to ports.
#[derive(Clone, Debug, PartialEq)]
pub enum FaultAction {
    /// These output ports go down (`up` false) or come back (`up` true).
    Ports {
        /// Both directions of every link concerned.
        ports: Vec<PortId>,
        /// A repair.
        up: bool,
    },
    /// Arm a one-time drop of `flow`'s next data packet at `port`.
    DropNext {
        /// The output port.
        port: PortId,
        /// The flow.
        flow: FlowId,
    },
}

/// A fault at a time, as a scenario file lists it.
/// (Unknown fields are refused by [`FaultKind`]: `deny_unknown_fields`
/// does not combine with `flatten` here.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FaultSpec {
    /// When, microseconds of simulated time (>= 0).
    pub at_us: f64,
    /// What.
    #[serde(flatten)]
    pub kind: FaultKind,
}

fn node_named(net: &Network, name: &str, field: &str) -> Result<NodeId, String> {
    net.nodes.iter().position(|n| n.name == name).map(|i| NodeId(i as u32)).ok_or_else(|| {
        let some: Vec<&str> = net.nodes.iter().rev().take(3).map(|n| n.name.as_str()).collect();
        format!("{field}: no node named \"{name}\" (names are like {})", some.join(", "))
    })
}

impl FaultKind {
    /// The `kind` of every fault, as written in files: what a branch's
    /// change accepts besides its settings (`BranchChange::SETTING_KINDS`)
    /// and what `dcsim names` exports to the page; a test checks it
    /// against the enum's schema.
    pub const NAMES: [&'static str; 5] = ["link_down", "link_up", "switch_down", "switch_up", "drop_next"];

    /// What the fault does, its node names resolved against `net`; errors
    /// name `field`.
    pub fn resolve(&self, net: &Network, field: &str) -> Result<FaultAction, String> {
        match self {
            FaultKind::DropNext { flow, port } => {
                let a = node_named(net, &port[0], &format!("{field}.port"))?;
                let b = node_named(net, &port[1], &format!("{field}.port"))?;
                let p = net
                    .ports
                    .iter()
                    .position(|p| p.node == a && p.peer == b)
                    .ok_or_else(|| format!("{field}.port: {} has no port towards {}", port[0], port[1]))?;
                Ok(FaultAction::DropNext { port: PortId(p as u32), flow: FlowId(*flow) })
            }
            FaultKind::LinkDown { link } | FaultKind::LinkUp { link } => {
                let a = node_named(net, &link[0], &format!("{field}.link"))?;
                let b = node_named(net, &link[1], &format!("{field}.link"))?;
                let ports: Vec<PortId> = net
                    .ports
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| (p.node == a && p.peer == b) || (p.node == b && p.peer == a))
                    .map(|(i, _)| PortId(i as u32))
                    .collect();
                if ports.is_empty() {
                    return Err(format!("{field}.link: no link between {} and {}", link[0], link[1]));
                }
                Ok(FaultAction::Ports { ports, up: matches!(self, FaultKind::LinkUp { .. }) })
            }
            FaultKind::SwitchDown { node } | FaultKind::SwitchUp { node } => {
                let n = node_named(net, node, &format!("{field}.node"))?;
                if net.is_host(n) {
                    return Err(format!("{field}.node: {node} is a host; fail its link instead (link_down)"));
                }
                let ports = net.ports.iter().enumerate().filter(|(_, p)| p.node == n || p.peer == n).map(|(i, _)| PortId(i as u32)).collect();
                Ok(FaultAction::Ports { ports, up: matches!(self, FaultKind::SwitchUp { .. }) })
            }
        }
    }
}

impl FaultSpec {
    /// Checks the fault against the network; `i` is its index in `faults`.
    pub fn validate(&self, net: &Network, i: usize) -> Result<(), String> {
        if !(self.at_us.is_finite() && self.at_us >= 0.0 && self.at_us <= 3.6e9) {
            return Err(format!("faults[{i}].at_us: must be a time in microseconds >= 0, got {}", self.at_us));
        }
        self.kind.resolve(net, &format!("faults[{i}]")).map(|_| ())
    }
}

/// Shortest-path next hops over the ports that are up: for every switch
/// and destination node, the ports towards the destination on a shortest
/// path of up links, in port order (empty: unreachable).
pub fn routes_avoiding(net: &Network, down: &[bool]) -> Vec<Vec<Vec<PortId>>> {
    let n = net.nodes.len();
    let h = net.n_hosts as usize;
    let mut out = vec![vec![Vec::new(); n]; n - h];
    for dst in 0..n {
        // Hop distance to dst over up links, walking ports backwards.
        let mut dist = vec![u32::MAX; n];
        dist[dst] = 0;
        let mut frontier = vec![dst];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &v in &frontier {
                for (i, p) in net.ports.iter().enumerate() {
                    // Port p goes from p.node to p.peer; hosts do not forward.
                    let u = p.node.idx();
                    if p.peer.idx() == v && !down[i] && dist[u] == u32::MAX && (u >= h || u == dst) {
                        dist[u] = dist[v] + 1;
                        next.push(u);
                    }
                }
            }
            frontier = next.into_iter().filter(|&u| u >= h).collect();
        }
        for (s, row) in out.iter_mut().enumerate() {
            let node = s + h;
            if node == dst || dist[node] == u32::MAX {
                continue;
            }
            row[dst] = net.nodes[node].ports.iter().copied().filter(|&p| !down[p.idx()] && dist[net.ports[p.idx()].peer.idx()] == dist[node] - 1).collect();
        }
    }
    out
}

/// The `kind` constants of a tagged enum's schema, sorted (tests check
/// the hand-kept name lists against them).
#[cfg(test)]
pub(crate) fn schema_kinds(schema: schemars::Schema) -> Vec<String> {
    let schema = serde_json::to_value(schema).unwrap();
    let mut kinds: Vec<String> = schema["oneOf"]
        .as_array()
        .expect("one schema per variant")
        .iter()
        .map(|v| v["properties"]["kind"]["const"].as_str().or_else(|| v["properties"]["kind"]["enum"][0].as_str()).expect("a kind per variant").to_string())
        .collect();
    kinds.sort();
    kinds
}

#[cfg(test)]
mod tests {
    use super::{schema_kinds, FaultKind};

    #[test]
    fn the_fault_names_are_the_kinds_of_the_enum() {
        // The schema lists one `kind` constant per variant: a variant added
        // without its name in `NAMES` (so not accepted in a branch) fails.
        let mut names: Vec<String> = FaultKind::NAMES.iter().map(|s| s.to_string()).collect();
        names.sort();
        assert_eq!(schema_kinds(schemars::schema_for!(FaultKind)), names);
    }
}
