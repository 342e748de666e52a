//! The network model (docs/model.md): nodes (hosts and switches),
//! full-duplex links made of two ports, and routes.
//!
//! Every direction of a link starts at an output port with a queue; a host
//! NIC is such a port too. A port sends one packet at a time at its link's
//! rate; after the propagation delay the packet reaches the far node.

pub mod topology;

use crate::ids::{LinkId, NodeId, PortId};
use crate::units::{Rate, SimTime};
use serde::Serialize;

/// Whether a node is an end host or a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// An end host: runs transports.
    Host,
    /// A top-of-rack (edge) switch: hosts hang below it.
    Tor,
    /// An aggregation switch of a tree.
    Aggregation,
    /// A spine (core) switch.
    Core,
}

/// Where a port sits, which names the hop a drop happens at (the pHost paper
/// counts drops at the host NIC, the ToR uplink, the core, the ToR downlink).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PortRole {
    /// A host's NIC: the first hop.
    HostNic,
    /// A ToR (or aggregation) port towards the core: going up.
    Up,
    /// A core or aggregation port towards a ToR: coming down.
    Down,
    /// A ToR port towards a host: the last hop.
    Edge,
}

impl PortRole {
    /// All roles, in path order.
    pub const ALL: [PortRole; 4] = [PortRole::HostNic, PortRole::Up, PortRole::Down, PortRole::Edge];
    /// Short name used in CSV columns.
    pub fn name(self) -> &'static str {
        match self {
            PortRole::HostNic => "host_nic",
            PortRole::Up => "tor_up",
            PortRole::Down => "core_down",
            PortRole::Edge => "tor_down",
        }
    }
}

/// A host or a switch.
#[derive(Clone, Debug, Serialize)]
pub struct Node {
    /// Host or which kind of switch.
    pub kind: NodeKind,
    /// Output ports, one per attached link.
    pub ports: Vec<PortId>,
    /// Rack index for hosts and ToRs; group index for other switches.
    pub group: u32,
    /// Display name ("h12", "tor3", "spine0").
    pub name: String,
}

/// Static description of one output port and the link direction it feeds.
#[derive(Clone, Debug, Serialize)]
pub struct PortSpec {
    /// Node the port belongs to.
    pub node: NodeId,
    /// Node at the far end of the link.
    pub peer: NodeId,
    /// The full-duplex link this direction belongs to.
    pub link: LinkId,
    /// Link rate.
    pub rate: Rate,
    /// Time from the last bit leaving this port to it arriving at the peer:
    /// propagation plus the peer's processing delay, if it is a switch.
    pub delay: SimTime,
    /// Position in the path (for drop statistics).
    pub role: PortRole,
}

/// The static network: nodes, ports, routes. Built once per run by
/// [`topology::build`]; the moving parts live in the simulation.
#[derive(Clone, Debug, Serialize)]
pub struct Network {
    /// All nodes; hosts come first, so host `i` is `NodeId(i)`.
    pub nodes: Vec<Node>,
    /// All output ports.
    pub ports: Vec<PortSpec>,
    /// Number of hosts.
    pub n_hosts: u32,
    /// Rate of host access links (all hosts share one rate in every
    /// topology here); the rate loads and ideal FCTs are computed from.
    pub host_rate: Rate,
    /// Candidate next-hop ports per (switch, destination node): flat table,
    /// `route_index[(switch - n_hosts) * n_nodes + dst] = (start, count)` into
    /// `route_ports` (hosts never forward, so they have no rows). Destinations
    /// are hosts and switches: control packets may be addressed to a switch
    /// (PASE's arbitrators); a switch has no route to itself.
    #[serde(skip)]
    route_index: Vec<(u32, u32)>,
    #[serde(skip)]
    route_ports: Vec<PortId>,
}

impl Network {
    /// True when `n` is a host.
    #[inline]
    pub fn is_host(&self, n: NodeId) -> bool {
        n.0 < self.n_hosts
    }
    /// The NIC port of host `h` (its only port).
    #[inline]
    pub fn nic(&self, h: NodeId) -> PortId {
        self.nodes[h.idx()].ports[0]
    }
    /// The equal-cost output ports at `node` towards node `dst` (a host or
    /// another switch).
    #[inline]
    pub fn next_hops(&self, node: NodeId, dst: NodeId) -> &[PortId] {
        let (h, n) = (self.n_hosts as usize, self.nodes.len());
        let (s, c) = self.route_index[(node.idx() - h) * n + dst.idx()];
        &self.route_ports[s as usize..(s + c) as usize]
    }
    /// True when packets from host `src` to host `dst` can take more than
    /// one path: some switch on the way has more than one equal-cost next
    /// hop towards `dst` (a leaf-spine between racks; not one switch, nor
    /// two hosts under one ToR). Only then can spraying reorder a flow.
    pub fn has_multiple_paths(&self, src: NodeId, dst: NodeId) -> bool {
        let mut at = self.ports[self.nic(src).idx()].peer;
        while at != dst {
            let hops = self.next_hops(at, dst);
            if hops.len() > 1 {
                return true;
            }
            at = self.ports[hops[0].idx()].peer;
        }
        false
    }
    /// Rack (ToR group) of a host.
    pub fn rack_of(&self, h: NodeId) -> u32 {
        self.nodes[h.idx()].group
    }
    /// Number of links (full-duplex).
    pub fn n_links(&self) -> usize {
        self.ports.iter().map(|p| p.link.idx() + 1).max().unwrap_or(0)
    }

    /// One shortest path from host `src` to host `dst` as the list of ports
    /// it leaves through (the first equal-cost choice at every hop; all
    /// choices have the same rates and delays in the topologies here).
    pub fn path(&self, src: NodeId, dst: NodeId) -> Vec<PortId> {
        let mut ports = vec![self.nic(src)];
        let mut at = self.ports[self.nic(src).idx()].peer;
        while at != dst {
            let p = self.next_hops(at, dst)[0];
            ports.push(p);
            at = self.ports[p.idx()].peer;
        }
        ports
    }

    /// Fills the route table by breadth-first search from every node: a port
    /// is a next hop towards `dst` when it leads one hop closer.
    fn compute_routes(&mut self) {
        let n = self.nodes.len();
        let h = self.n_hosts as usize;
        self.route_index = vec![(0, 0); (n - h) * n];
        self.route_ports.clear();
        let mut dist = vec![u32::MAX; n];
        let mut frontier = Vec::new();
        // Identical candidate lists (a ToR's uplinks serve every remote
        // host) are stored once, so the table stays small enough to cache.
        let mut seen: std::collections::BTreeMap<Vec<PortId>, u32> = Default::default();
        let mut cands: Vec<PortId> = Vec::new();
        for dst in 0..n {
            dist.iter_mut().for_each(|d| *d = u32::MAX);
            dist[dst] = 0;
            frontier.clear();
            frontier.push(dst);
            let mut i = 0;
            while i < frontier.len() {
                let u = frontier[i];
                i += 1;
                // Hosts do not forward: only expand from the destination itself or switches.
                if u != dst && u < h {
                    continue;
                }
                for &p in &self.nodes[u].ports {
                    let v = self.ports[p.idx()].peer.idx();
                    if dist[v] == u32::MAX {
                        dist[v] = dist[u] + 1;
                        frontier.push(v);
                    }
                }
            }
            for node in h..n {
                cands.clear();
                for &p in &self.nodes[node].ports {
                    let v = self.ports[p.idx()].peer.idx();
                    if dist[v] != u32::MAX && dist[v] + 1 == dist[node] {
                        cands.push(p);
                    }
                }
                let start = *seen.entry(cands.clone()).or_insert_with(|| {
                    let s = self.route_ports.len() as u32;
                    self.route_ports.extend_from_slice(&cands);
                    s
                });
                self.route_index[(node - h) * n + dst] = (start, cands.len() as u32);
            }
        }
    }
}

pub mod ideal;

/// How a switch forwards a packet (docs/model.md#switches).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Switching {
    /// A switch starts sending a packet only once it has received all of it.
    #[default]
    StoreAndForward,
    /// A switch starts sending once the header (40 B) has arrived, and every
    /// port sends a packet at its own rate: a faster port forwarding a
    /// packet from a slower link (a 40G uplink, a packet from a 10G host)
    /// may finish before the packet's last bit has arrived. This is the
    /// pHost authors' simulator (NetSys/simulator `coresim/event.cpp`,
    /// `QueueProcessingEvent`: the next hop gets the packet one header time
    /// plus propagation after it starts, and sends it whole), whose runs
    /// are the pHost paper's figures, and the pipelining the ideal FCT
    /// assumes; the pHost and pFabric evaluations use cut-through.
    CutThrough,
    /// Cut-through in which no port finishes sending a packet before its
    /// last bit has arrived: a faster port forwarding a packet from a
    /// slower link is held for the slower link's time (dcsim's cut-through
    /// until issue 21). Physically consistent, but it costs a 40G uplink
    /// most of its capacity for packets straight from 10G hosts: under
    /// pFabric at load 0.6 the uplinks drop packets and long runs lose
    /// their steady state (README, "Long runs").
    CutThroughHold,
}

impl Switching {
    /// Either cut-through variant: a switch forwards a packet once its
    /// header has arrived.
    pub fn is_cut_through(self) -> bool {
        matches!(self, Switching::CutThrough | Switching::CutThroughHold)
    }
    /// No port finishes a packet before its last bit has arrived (store
    /// and forward trivially; cut-through only in `CutThroughHold`).
    pub fn waits_for_last_bit(self) -> bool {
        !matches!(self, Switching::CutThrough)
    }
}

/// How switches pick among equal-cost next hops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LoadBalancing {
    /// Each packet takes the next equal-cost port in round robin at every
    /// switch (per-packet spraying, the pFabric and pHost default; the pHost
    /// authors' simulator sprays round robin).
    #[default]
    Spray,
    /// Each packet picks a uniformly random equal-cost port.
    SprayRandom,
    /// Each flow hashes to one port (ECMP).
    Ecmp,
}
