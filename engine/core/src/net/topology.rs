//! Topology builders (docs/model.md#topologies), all parametric.

use super::{Network, Node, NodeKind, PortRole, PortSpec};
use crate::ids::{LinkId, NodeId, PortId};
use crate::units::{Rate, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn d_racks() -> u32 {
    9
}
fn d_hosts_per_rack() -> u32 {
    16
}
fn d_spines() -> u32 {
    4
}
fn d_10() -> f64 {
    10.0
}
fn d_40() -> f64 {
    40.0
}
fn d_1() -> f64 {
    1.0
}
fn d_prop() -> f64 {
    200.0
}
fn d_zero() -> f64 {
    0.0
}
fn d_senders() -> u32 {
    5
}
fn d_rack_hosts() -> u32 {
    10
}
fn d_branching() -> Vec<u32> {
    vec![4, 3]
}
fn d_tree_rates() -> Vec<f64> {
    vec![1.0, 1.0]
}

/// Which network to build and its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TopologySpec {
    /// Two-tier leaf-spine, full bisection. Defaults: the pFabric/pHost
    /// fabric of 9 racks x 16 hosts = 144 hosts, 4 spines, 10 Gbps host
    /// links, 40 Gbps ToR-spine links, 200 ns per link.
    LeafSpine {
        /// Number of racks (ToR switches).
        #[serde(default = "d_racks")]
        racks: u32,
        /// Hosts under each ToR.
        #[serde(default = "d_hosts_per_rack")]
        hosts_per_rack: u32,
        /// Number of spine (core) switches; every ToR links to every spine.
        #[serde(default = "d_spines")]
        spines: u32,
        /// Host-ToR link rate, Gbps.
        #[serde(default = "d_10")]
        host_link_gbps: f64,
        /// ToR-spine link rate, Gbps.
        #[serde(default = "d_40")]
        fabric_link_gbps: f64,
        /// Propagation delay of every link, nanoseconds.
        #[serde(default = "d_prop")]
        propagation_ns: f64,
        /// Processing delay added at every switch, nanoseconds.
        #[serde(default = "d_zero")]
        switch_delay_ns: f64,
    },
    /// N senders and one receiver under one switch; the switch's port to the
    /// receiver is the bottleneck (incast, the pFabric 5-flow experiment,
    /// PDQ's query aggregation). The receiver is the last host.
    SingleBottleneck {
        /// Number of sending hosts.
        #[serde(default = "d_senders")]
        senders: u32,
        /// Rate of every link, Gbps.
        #[serde(default = "d_10")]
        link_gbps: f64,
        /// Propagation delay of every link, nanoseconds.
        #[serde(default = "d_prop")]
        propagation_ns: f64,
        /// Processing delay at the switch, nanoseconds.
        #[serde(default = "d_zero")]
        switch_delay_ns: f64,
    },
    /// N hosts under one switch (PASE's testbed: 10 hosts at 1 Gbps).
    SingleRack {
        /// Number of hosts.
        #[serde(default = "d_rack_hosts")]
        hosts: u32,
        /// Rate of every link, Gbps.
        #[serde(default = "d_1")]
        link_gbps: f64,
        /// Propagation delay of every link, nanoseconds.
        #[serde(default = "d_prop")]
        propagation_ns: f64,
        /// Processing delay at the switch, nanoseconds.
        #[serde(default = "d_zero")]
        switch_delay_ns: f64,
    },
    /// A single-rooted tree. `branching[0]` children under the root,
    /// `branching[1]` under each of those, ...; the last level are hosts.
    /// `link_gbps[i]` is the rate of the links below level i. Default: PDQ's
    /// two-level tree of 12 servers (root, 4 ToRs of 3 hosts) at 1 Gbps.
    Tree {
        /// Fan-out per level, root first; the last entry is hosts per ToR.
        #[serde(default = "d_branching")]
        branching: Vec<u32>,
        /// Link rate per level, Gbps, root level first; same length as `branching`.
        #[serde(default = "d_tree_rates")]
        link_gbps: Vec<f64>,
        /// Propagation delay of every link, nanoseconds.
        #[serde(default = "d_prop")]
        propagation_ns: f64,
        /// Processing delay at every switch, nanoseconds.
        #[serde(default = "d_zero")]
        switch_delay_ns: f64,
    },
}

impl Default for TopologySpec {
    fn default() -> Self {
        TopologySpec::LeafSpine {
            racks: d_racks(),
            hosts_per_rack: d_hosts_per_rack(),
            spines: d_spines(),
            host_link_gbps: d_10(),
            fabric_link_gbps: d_40(),
            propagation_ns: d_prop(),
            switch_delay_ns: 0.0,
        }
    }
}

/// The largest network the simulator agrees to build (hosts), so that a
/// typo cannot exhaust memory; the route table is hosts x nodes entries.
pub const MAX_HOSTS: u64 = 4096;

/// The most spines a leaf-spine may have.
pub const MAX_SPINES: u32 = 1024;
/// The most ToR-spine links a leaf-spine may have (racks x spines).
pub const MAX_FABRIC_LINKS: u64 = 65_536;
/// The most levels a tree may have (switches are then at most hosts x levels).
pub const MAX_TREE_LEVELS: usize = 16;
/// The slowest link rate a topology may have, Gbps (1 Mbps).
pub const MIN_LINK_GBPS: f64 = 0.001;
/// The fastest link rate a topology may have, Gbps (100 Tbps).
pub const MAX_LINK_GBPS: f64 = 100_000.0;
/// The longest propagation or switch delay, nanoseconds (one second).
pub const MAX_DELAY_NS: f64 = 1e9;

impl TopologySpec {
    /// Number of hosts this spec builds.
    pub fn n_hosts(&self) -> u64 {
        match self {
            TopologySpec::LeafSpine { racks, hosts_per_rack, .. } => *racks as u64 * *hosts_per_rack as u64,
            TopologySpec::SingleBottleneck { senders, .. } => *senders as u64 + 1,
            TopologySpec::SingleRack { hosts, .. } => *hosts as u64,
            TopologySpec::Tree { branching, .. } => branching.iter().map(|&b| b as u64).product(),
        }
    }

    /// Checks every parameter; the error names the field and the reason.
    /// Link rates are in [[`MIN_LINK_GBPS`], [`MAX_LINK_GBPS`]], delays in
    /// [0, [`MAX_DELAY_NS`]].
    pub fn validate(&self) -> Result<(), String> {
        // Rates: whole bits per second, a picosecond clock and u64 counters
        // need a rate from 1 Mbps to 100 Tbps (found by fuzzing: 1e-12 Gbps
        // rounded to 0 bps and divided by zero).
        let pos = |name: &str, v: f64| -> Result<(), String> {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("topology.{name}: must be a positive number, got {v}"));
            }
            if !(MIN_LINK_GBPS..=MAX_LINK_GBPS).contains(&v) {
                return Err(format!("topology.{name}: must be from {MIN_LINK_GBPS} Gbps (1 Mbps) to {MAX_LINK_GBPS} Gbps, got {v}"));
            }
            Ok(())
        };
        // Delays: at most a second, so that times stay far from the clock's limit.
        let nonneg = |name: &str, v: f64| -> Result<(), String> {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("topology.{name}: must be zero or more, got {v}"));
            }
            if v > MAX_DELAY_NS {
                return Err(format!("topology.{name}: must be at most {MAX_DELAY_NS} ns (one second), got {v}"));
            }
            Ok(())
        };
        let count = |name: &str, v: u32, min: u32| -> Result<(), String> {
            if v >= min {
                Ok(())
            } else {
                Err(format!("topology.{name}: must be at least {min}, got {v}"))
            }
        };
        match self {
            TopologySpec::LeafSpine { racks, hosts_per_rack, spines, host_link_gbps, fabric_link_gbps, propagation_ns, switch_delay_ns } => {
                count("racks", *racks, 1)?;
                count("hosts_per_rack", *hosts_per_rack, 1)?;
                count("spines", *spines, 1)?;
                // Every ToR links to every spine: bound the links, as hosts
                // are bounded (found by fuzzing: 100,000,000 spines aborted
                // on a 2 GB allocation).
                if *spines > MAX_SPINES || *racks as u64 * *spines as u64 > MAX_FABRIC_LINKS {
                    return Err(format!("topology.spines: {spines} spines under {racks} racks is more than the limits ({MAX_SPINES} spines, {MAX_FABRIC_LINKS} ToR-spine links)"));
                }
                pos("host_link_gbps", *host_link_gbps)?;
                pos("fabric_link_gbps", *fabric_link_gbps)?;
                nonneg("propagation_ns", *propagation_ns)?;
                nonneg("switch_delay_ns", *switch_delay_ns)?;
                if racks * hosts_per_rack < 2 {
                    return Err("topology: a leaf_spine needs at least 2 hosts in all".into());
                }
            }
            TopologySpec::SingleBottleneck { senders, link_gbps, propagation_ns, switch_delay_ns } => {
                count("senders", *senders, 1)?;
                pos("link_gbps", *link_gbps)?;
                nonneg("propagation_ns", *propagation_ns)?;
                nonneg("switch_delay_ns", *switch_delay_ns)?;
            }
            TopologySpec::SingleRack { hosts, link_gbps, propagation_ns, switch_delay_ns } => {
                count("hosts", *hosts, 2)?;
                pos("link_gbps", *link_gbps)?;
                nonneg("propagation_ns", *propagation_ns)?;
                nonneg("switch_delay_ns", *switch_delay_ns)?;
            }
            TopologySpec::Tree { branching, link_gbps, propagation_ns, switch_delay_ns } => {
                if branching.is_empty() || branching.len() > MAX_TREE_LEVELS {
                    return Err(format!("topology.branching: must list 1 to {MAX_TREE_LEVELS} levels, got {}", branching.len()));
                }
                if link_gbps.len() != branching.len() {
                    return Err(format!("topology.link_gbps: must have one rate per level of branching ({}), got {}", branching.len(), link_gbps.len()));
                }
                for (i, &b) in branching.iter().enumerate() {
                    count(&format!("branching[{i}]"), b, 1)?;
                }
                for (i, &r) in link_gbps.iter().enumerate() {
                    pos(&format!("link_gbps[{i}]"), r)?;
                }
                nonneg("propagation_ns", *propagation_ns)?;
                nonneg("switch_delay_ns", *switch_delay_ns)?;
                if self.n_hosts() < 2 {
                    return Err("topology.branching: the tree needs at least 2 hosts".into());
                }
            }
        }
        let h = self.n_hosts();
        if h > MAX_HOSTS {
            return Err(format!("topology: {h} hosts is more than the limit of {MAX_HOSTS}"));
        }
        Ok(())
    }
}

struct Builder {
    net: Network,
    prop: SimTime,
    switch_delay: SimTime,
    n_links: u32,
}

impl Builder {
    fn new(n_hosts: u32, host_rate: Rate, propagation_ns: f64, switch_delay_ns: f64) -> Self {
        let mut net = Network { nodes: Vec::new(), ports: Vec::new(), n_hosts, host_rate, route_index: Vec::new(), route_ports: Vec::new() };
        for i in 0..n_hosts {
            net.nodes.push(Node { kind: NodeKind::Host, ports: Vec::new(), group: 0, name: format!("h{i}") });
        }
        Builder {
            net,
            prop: SimTime::from_ps((propagation_ns * 1000.0).round() as u64),
            switch_delay: SimTime::from_ps((switch_delay_ns * 1000.0).round() as u64),
            n_links: 0,
        }
    }
    fn switch(&mut self, kind: NodeKind, group: u32, name: String) -> NodeId {
        self.net.nodes.push(Node { kind, ports: Vec::new(), group, name });
        NodeId(self.net.nodes.len() as u32 - 1)
    }
    /// A full-duplex link between `a` (lower: host or ToR) and `b` (upper).
    fn link(&mut self, a: NodeId, b: NodeId, rate: Rate, a_role: PortRole, b_role: PortRole) {
        let link = LinkId(self.n_links);
        self.n_links += 1;
        for (from, to, role) in [(a, b, a_role), (b, a, b_role)] {
            let delay = self.prop + if self.net.is_host(to) { SimTime::ZERO } else { self.switch_delay };
            let id = PortId(self.net.ports.len() as u32);
            self.net.ports.push(PortSpec { node: from, peer: to, link, rate, delay, role });
            self.net.nodes[from.idx()].ports.push(id);
        }
    }
    fn finish(mut self) -> Network {
        self.net.compute_routes();
        self.net
    }
}

/// Builds the network a spec describes. The spec must have passed
/// [`TopologySpec::validate`].
pub fn build(spec: &TopologySpec) -> Network {
    match *spec {
        TopologySpec::LeafSpine { racks, hosts_per_rack, spines, host_link_gbps, fabric_link_gbps, propagation_ns, switch_delay_ns } => {
            let host_rate = Rate::from_gbps(host_link_gbps);
            let fabric = Rate::from_gbps(fabric_link_gbps);
            let mut b = Builder::new(racks * hosts_per_rack, host_rate, propagation_ns, switch_delay_ns);
            let tors: Vec<NodeId> = (0..racks).map(|r| b.switch(NodeKind::Tor, r, format!("tor{r}"))).collect();
            let spine_ids: Vec<NodeId> = (0..spines).map(|s| b.switch(NodeKind::Core, 0, format!("spine{s}"))).collect();
            for r in 0..racks {
                for i in 0..hosts_per_rack {
                    let h = NodeId(r * hosts_per_rack + i);
                    b.net.nodes[h.idx()].group = r;
                    b.link(h, tors[r as usize], host_rate, PortRole::HostNic, PortRole::Edge);
                }
            }
            for &t in &tors {
                for &s in &spine_ids {
                    b.link(t, s, fabric, PortRole::Up, PortRole::Down);
                }
            }
            b.finish()
        }
        TopologySpec::SingleBottleneck { senders, link_gbps, propagation_ns, switch_delay_ns } => {
            single_switch(senders + 1, link_gbps, propagation_ns, switch_delay_ns)
        }
        TopologySpec::SingleRack { hosts, link_gbps, propagation_ns, switch_delay_ns } => single_switch(hosts, link_gbps, propagation_ns, switch_delay_ns),
        TopologySpec::Tree { ref branching, ref link_gbps, propagation_ns, switch_delay_ns } => {
            let n_hosts: u32 = branching.iter().product();
            let host_rate = Rate::from_gbps(*link_gbps.last().unwrap());
            let mut b = Builder::new(n_hosts, host_rate, propagation_ns, switch_delay_ns);
            let levels = branching.len();
            let root = b.switch(if levels == 1 { NodeKind::Tor } else { NodeKind::Core }, 0, "root".into());
            let mut parents = vec![root];
            let mut next_host = 0u32;
            for (lvl, &fanout) in branching.iter().enumerate() {
                let rate = Rate::from_gbps(link_gbps[lvl]);
                let mut children = Vec::new();
                for (pi, &p) in parents.iter().enumerate() {
                    for c in 0..fanout {
                        if lvl + 1 == levels {
                            let h = NodeId(next_host);
                            next_host += 1;
                            b.net.nodes[h.idx()].group = pi as u32;
                            b.link(h, p, rate, PortRole::HostNic, PortRole::Edge);
                        } else {
                            let kind = if lvl + 2 == levels { NodeKind::Tor } else { NodeKind::Aggregation };
                            let idx = pi as u32 * fanout + c;
                            let name = if kind == NodeKind::Tor { format!("tor{idx}") } else { format!("agg{lvl}_{idx}") };
                            let s = b.switch(kind, idx, name);
                            b.link(s, p, rate, PortRole::Up, PortRole::Down);
                            children.push(s);
                        }
                    }
                }
                parents = children;
            }
            b.finish()
        }
    }
}

fn single_switch(hosts: u32, link_gbps: f64, propagation_ns: f64, switch_delay_ns: f64) -> Network {
    let rate = Rate::from_gbps(link_gbps);
    let mut b = Builder::new(hosts, rate, propagation_ns, switch_delay_ns);
    let sw = b.switch(NodeKind::Tor, 0, "tor0".into());
    for h in 0..hosts {
        b.link(NodeId(h), sw, rate, PortRole::HostNic, PortRole::Edge);
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_leaf_spine_is_the_pfabric_fabric() {
        let net = build(&TopologySpec::default());
        assert_eq!(net.n_hosts, 144);
        assert_eq!(net.nodes.len(), 144 + 9 + 4);
        // 144 host links + 9 x 4 fabric links, two ports each.
        assert_eq!(net.ports.len(), 2 * (144 + 36));
        // Intra-rack: NIC then ToR edge port.
        assert_eq!(net.path(NodeId(0), NodeId(15)).len(), 2);
        // Inter-rack: NIC, ToR up, spine down, ToR edge; 4 equal-cost uplinks.
        let p = net.path(NodeId(0), NodeId(16));
        assert_eq!(p.len(), 4);
        let roles: Vec<PortRole> = p.iter().map(|x| net.ports[x.idx()].role).collect();
        assert_eq!(roles, vec![PortRole::HostNic, PortRole::Up, PortRole::Down, PortRole::Edge]);
        let tor0 = net.ports[net.nic(NodeId(0)).idx()].peer;
        assert_eq!(net.next_hops(tor0, NodeId(16)).len(), 4);
        assert_eq!(net.next_hops(tor0, NodeId(3)).len(), 1);
    }

    #[test]
    fn tree_routes_through_the_root() {
        let spec = TopologySpec::Tree { branching: vec![2, 2, 3], link_gbps: vec![1.0, 1.0, 1.0], propagation_ns: 100.0, switch_delay_ns: 0.0 };
        spec.validate().unwrap();
        let net = build(&spec);
        assert_eq!(net.n_hosts, 12);
        // Host 0 and host 11 are in different halves: up 3 levels, down 3.
        assert_eq!(net.path(NodeId(0), NodeId(11)).len(), 6);
        assert_eq!(net.path(NodeId(0), NodeId(1)).len(), 2);
        assert_eq!(net.path(NodeId(0), NodeId(3)).len(), 4);
    }

    #[test]
    fn validation_names_the_field() {
        let spec = TopologySpec::SingleRack { hosts: 0, link_gbps: 1.0, propagation_ns: 0.0, switch_delay_ns: 0.0 };
        let e = spec.validate().unwrap_err();
        assert!(e.contains("topology.hosts") && e.contains("at least 2"), "{e}");
        let spec = TopologySpec::LeafSpine {
            racks: 1000,
            hosts_per_rack: 1000,
            spines: 4,
            host_link_gbps: 10.0,
            fabric_link_gbps: 40.0,
            propagation_ns: 0.0,
            switch_delay_ns: 0.0,
        };
        assert!(spec.validate().unwrap_err().contains("limit"));
    }
}
