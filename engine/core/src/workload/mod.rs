//! Workloads (docs/model.md#workloads): what flows arrive, when, between
//! which hosts, with which sizes, deadlines and tenants.
//!
//! Open-loop matrices draw Poisson arrivals at a target load; closed-loop
//! matrices (incast, query aggregation) start the next request when the
//! previous one completes.

pub mod cdf;
mod generator;

/// The flow generator (in `generator.rs`).
pub use generator::FlowGenerator;
use generator::Sizes;

use crate::ids::{FlowId, NodeId};
use crate::net::Network;
use crate::units::{SimTime, MSS};
use cdf::Cdf;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most flows one run may ask for: each costs about 200 bytes of
/// records, so this bounds memory to about a gigabyte.
pub const MAX_FLOWS: u64 = 5_000_000;

/// A measured workload shipped with the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NamedCdf {
    /// Web search (DCTCP paper); mean about 1.67 MB.
    Websearch,
    /// Data mining (VL2 paper); mean about 7.5 MB.
    Datamining,
    /// IMC10 (Benson et al.); mean about 195 KB.
    Imc10,
}

/// Flow-size distribution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SizeSpec {
    /// An empirical CDF: a shipped one by `name`, or inline `points` of
    /// (packets of 1460 B, cumulative probability).
    Cdf {
        /// A shipped workload.
        #[serde(default)]
        name: Option<NamedCdf>,
        /// Inline CDF points: [[packets, probability], ...].
        #[serde(default)]
        points: Option<Vec<(f64, f64)>>,
    },
    /// Uniform in [min_bytes, max_bytes] (D2TCP and PASE use 100 KB to 500 KB).
    Uniform {
        /// Smallest flow, payload bytes.
        min_bytes: u64,
        /// Largest flow, payload bytes.
        max_bytes: u64,
    },
    /// Two sizes (pHost: 3-packet and 700-packet flows).
    Bimodal {
        /// Short flow size, packets of 1460 B.
        #[serde(default = "d_three")]
        short_packets: u64,
        /// Long flow size, packets of 1460 B.
        #[serde(default = "d_seven_hundred")]
        long_packets: u64,
        /// Fraction of flows that are short, in [0, 1].
        short_fraction: f64,
    },
    /// Every flow the same size: give `bytes` or `packets` (of 1460 B).
    Fixed {
        /// Payload bytes.
        #[serde(default)]
        bytes: Option<u64>,
        /// Full packets of 1460 B.
        #[serde(default)]
        packets: Option<u64>,
    },
}
fn d_three() -> u64 {
    3
}
fn d_seven_hundred() -> u64 {
    700
}

/// Who sends to whom.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum MatrixSpec {
    /// Uniform random source and destination, source != destination.
    AllToAll,
    /// Each source sends to one fixed destination (a random derangement).
    Permutation,
    /// `senders` random hosts each send `request_bytes / senders` to one
    /// receiver; the request completes when all do and the next starts at
    /// once. `load` does not apply.
    Incast {
        /// Number of senders per request.
        senders: u32,
        /// Bytes of one request, split evenly over the senders (the last
        /// sender takes the remainder). Give this or `request_packets`.
        #[serde(default)]
        request_bytes: Option<u64>,
        /// Request size in full 1460-B packets, as an alternative.
        #[serde(default)]
        request_packets: Option<u64>,
        /// Number of requests, one after another.
        #[serde(default = "d_one")]
        requests: u32,
        /// Receiving host; random per request when absent.
        #[serde(default)]
        receiver: Option<u32>,
    },
    /// `fanout` flows with sizes from `sizes` start at once towards one
    /// random aggregator (PDQ); the next query starts when all finish.
    QueryAggregation {
        /// Flows per query, each from a different sender while there are
        /// enough hosts; beyond that every other host sends
        /// floor(fanout / (hosts - 1)) flows and a random set of distinct
        /// hosts one more each.
        fanout: u32,
        /// Number of queries, one after another.
        #[serde(default = "d_one")]
        queries: u32,
    },
    /// The left half of the hosts sends to the right half (PASE's
    /// inter-rack scenario on a tree).
    LeftRight,
    /// Source and destination in the same rack (PASE's intra-rack scenario).
    IntraRack,
    /// Every flow goes to one `receiver` from a uniformly random host of
    /// `senders` (PASE section 5, testbed: nine clients send to one server
    /// of the rack). Here `load` is the offered load on the receiver's
    /// link: Poisson arrivals at load x receiver link rate / mean flow size
    /// (flows per second; the other open-loop matrices define it on each
    /// sending host's link).
    ManyToOne {
        /// Receiving host (index). Default: the last host.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        receiver: Option<u32>,
        /// Sending hosts (indices), distinct, without the receiver.
        /// Default: every host but the receiver.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        senders: Option<Vec<u32>>,
    },
}

impl MatrixSpec {
    /// A many_to_one matrix's receiver and senders on `n_hosts` hosts,
    /// defaults filled in (not validated).
    fn many_to_one_hosts(receiver: Option<u32>, senders: &Option<Vec<u32>>, n_hosts: u32) -> (u32, Vec<u32>) {
        let r = receiver.unwrap_or(n_hosts.saturating_sub(1));
        let s = senders.clone().unwrap_or_else(|| (0..n_hosts).filter(|&h| h != r).collect());
        (r, s)
    }
}
fn d_one() -> u32 {
    1
}

/// Per-flow deadlines (optional).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum DeadlineSpec {
    /// Exponential with `mean_us`, raised to at least `min_us` and to at
    /// least `min_ideal_factor` x the flow's ideal FCT (pFabric and pHost:
    /// mean 1000 us, factor 1.25; PDQ: mean 20 ms, at least 3 ms).
    Exponential {
        /// Mean, microseconds.
        mean_us: f64,
        /// Floor, microseconds.
        #[serde(default)]
        min_us: f64,
        /// Floor as a multiple of the ideal FCT.
        #[serde(default)]
        min_ideal_factor: f64,
    },
    /// Uniform in [min_us, max_us] (D2TCP and PASE: 5 ms to 25 ms).
    Uniform {
        /// Smallest deadline, microseconds.
        min_us: f64,
        /// Largest deadline, microseconds.
        max_us: f64,
    },
}

fn d_load() -> f64 {
    0.6
}
fn d_flows() -> u64 {
    10_000
}
fn d_tenants() -> u16 {
    1
}
fn d_matrix() -> MatrixSpec {
    MatrixSpec::AllToAll
}
fn d_sizes() -> SizeSpec {
    SizeSpec::Cdf { name: Some(NamedCdf::Websearch), points: None }
}

/// The workload of a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkloadSpec {
    /// Flow sizes. Default: web search.
    #[serde(default = "d_sizes")]
    pub sizes: SizeSpec,
    /// Offered load on the host access links (many_to_one: on the
    /// receiver's link), in (0, 1]. Default 0.6.
    #[serde(default = "d_load")]
    pub load: f64,
    /// Number of flows (open-loop matrices). Default 10,000.
    #[serde(default = "d_flows")]
    pub flows: u64,
    /// Traffic matrix. Default all-to-all.
    #[serde(default = "d_matrix")]
    pub matrix: MatrixSpec,
    /// Deadlines; none by default.
    #[serde(default)]
    pub deadlines: Option<DeadlineSpec>,
    /// A flow not complete at its deadline is given up there: its sender
    /// stops and it settles as terminated (a missed deadline), so it no
    /// longer takes bandwidth from the flows that can still make theirs.
    /// Off: every flow runs to completion, however late (the default, as
    /// in the PDQ paper's PDQ(Basic), D3's quench aside). Applies to every
    /// protocol; needs `deadlines`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub abort_at_deadline: bool,
    /// Number of tenants; each flow belongs to one, drawn uniformly. Default 1.
    #[serde(default = "d_tenants")]
    pub tenants: u16,
    /// Inject every flow at time zero instead of Poisson arrivals (pHost's
    /// two-tenant experiment).
    #[serde(default)]
    pub all_at_zero: bool,
    /// Per-tenant flow sizes (pHost section 4.3: one tenant IMC10, one web
    /// search). When given, each flow picks its tenant uniformly and draws
    /// its size from that tenant's entry; `tenants` must then equal the
    /// number of entries, and `sizes` is not used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tenant_sizes: Option<Vec<SizeSpec>>,
    /// With `tenant_sizes`: the relative share of flows of each tenant
    /// (default equal), e.g. to give two tenants about the same bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tenant_weights: Option<Vec<f64>>,
    /// Long-lived background flows, started at time zero beside the
    /// workload's flows (PASE section 5 testbed: one long-lived flow; D2TCP
    /// section 5: two). They load the network but are not measured: they
    /// appear in neither the flows CSV nor the summary, and the run ends
    /// when the workload's own flows are done, whether or not they are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub background: Vec<BackgroundFlow>,
}

/// One long-lived background flow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BackgroundFlow {
    /// Sending host (index).
    pub src: u32,
    /// Receiving host (index).
    pub dst: u32,
    /// Payload bytes, at most 10 GB (senders keep a byte of state per
    /// packet). Default 1 GB: 8 s at 1 Gbps, 0.8 s at 10 Gbps, longer
    /// than the shipped scenarios' runs.
    #[serde(default = "d_background_bytes")]
    pub bytes: u64,
}
fn d_background_bytes() -> u64 {
    1_000_000_000
}

/// The largest background flow, payload bytes.
pub const MAX_BACKGROUND_BYTES: u64 = 10_000_000_000;

impl Default for WorkloadSpec {
    fn default() -> Self {
        serde_json::from_str("{}").unwrap()
    }
}

/// One flow to simulate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlowSpec {
    /// Sequential id, in arrival order.
    pub id: FlowId,
    /// Sending host.
    pub src: NodeId,
    /// Receiving host.
    pub dst: NodeId,
    /// Payload bytes.
    pub size: u64,
    /// When the flow arrives at its sender.
    pub arrival: SimTime,
    /// Deadline, relative to arrival.
    pub deadline: Option<SimTime>,
    /// Tenant index.
    pub tenant: u16,
    /// Request (incast) or query index for closed-loop matrices.
    pub request: Option<u32>,
    /// The flow's ideal FCT (OPT).
    pub ideal_fct: SimTime,
    /// A long-lived background flow (`workload.background`): simulated,
    /// not measured.
    pub background: bool,
}

impl WorkloadSpec {
    /// A closed-loop matrix (incast, query aggregation): the next request
    /// starts when the current one's flows are all done.
    pub fn is_closed_loop(&self) -> bool {
        matches!(self.matrix, MatrixSpec::Incast { .. } | MatrixSpec::QueryAggregation { .. })
    }

    /// Checks every parameter against a network of `n_hosts` hosts; the
    /// error names the field and the reason.
    pub fn validate(&self, net: &Network) -> Result<(), String> {
        if !(self.load.is_finite() && self.load > 0.0 && self.load <= 1.0) {
            return Err(format!("workload.load: must be in (0, 1], got {}", self.load));
        }
        if self.flows == 0 {
            return Err("workload.flows: must be at least 1".into());
        }
        if self.flows > MAX_FLOWS {
            return Err(format!("workload.flows: {} is more than the limit of {MAX_FLOWS} (memory)", self.flows));
        }
        if self.tenants == 0 {
            return Err("workload.tenants: must be at least 1".into());
        }
        self.sizes()?;
        if let Some(ts) = &self.tenant_sizes {
            if ts.len() != self.tenants as usize {
                return Err(format!(
                    "workload.tenant_sizes: has {} entries but workload.tenants is {}; give one size distribution per tenant",
                    ts.len(),
                    self.tenants
                ));
            }
            for (i, t) in ts.iter().enumerate() {
                Self::sizes_of(t).map_err(|e| e.replace("workload.sizes", &format!("workload.tenant_sizes[{i}]")))?;
            }
        }
        if let Some(w) = &self.tenant_weights {
            if self.tenant_sizes.is_none() {
                return Err("workload.tenant_weights: needs workload.tenant_sizes".into());
            }
            if w.len() != self.tenants as usize || !w.iter().all(|x| x.is_finite() && *x > 0.0) {
                return Err(format!("workload.tenant_weights: must be {} positive numbers, one per tenant", self.tenants));
            }
        }
        let h = net.n_hosts;
        for (i, b) in self.background.iter().enumerate() {
            let f = format!("workload.background[{i}]");
            if b.src >= h || b.dst >= h {
                return Err(format!("{f}: host {} does not exist (hosts: {h})", b.src.max(b.dst)));
            }
            if b.src == b.dst {
                return Err(format!("{f}.dst: must differ from src ({})", b.src));
            }
            if b.bytes == 0 || b.bytes > MAX_BACKGROUND_BYTES {
                return Err(format!("{f}.bytes: must be between 1 and {MAX_BACKGROUND_BYTES}, got {}", b.bytes));
            }
        }
        match &self.matrix {
            MatrixSpec::Incast { senders, request_bytes, request_packets, requests, receiver } => {
                if *senders == 0 || *senders >= h {
                    return Err(format!("workload.matrix.senders: must be between 1 and {} (hosts - 1), got {senders}", h - 1));
                }
                match (request_bytes, request_packets) {
                    (Some(b), None) if *b >= *senders as u64 => {}
                    (None, Some(p)) if *p * MSS as u64 >= *senders as u64 => {}
                    (Some(_), Some(_)) => return Err("workload.matrix: give request_bytes or request_packets, not both".into()),
                    _ => return Err("workload.matrix.request_bytes: must be given and at least one byte per sender".into()),
                }
                if *requests == 0 || (*requests as u64) * (*senders as u64) > MAX_FLOWS {
                    return Err(format!("workload.matrix.requests: must be between 1 and {}", MAX_FLOWS / *senders as u64));
                }
                if let Some(r) = receiver {
                    if *r >= h {
                        return Err(format!("workload.matrix.receiver: host {r} does not exist (hosts: {h})"));
                    }
                }
            }
            MatrixSpec::QueryAggregation { fanout, queries } => {
                if *fanout == 0 {
                    return Err("workload.matrix.fanout: must be at least 1, got 0".into());
                }
                if *queries == 0 || (*queries as u64) * (*fanout as u64) > MAX_FLOWS {
                    return Err("workload.matrix.queries: must be at least 1 and keep flows under the limit".into());
                }
            }
            MatrixSpec::IntraRack => {
                let ok = (0..h).any(|a| (0..h).any(|b| a != b && net.rack_of(NodeId(a)) == net.rack_of(NodeId(b))));
                if !ok {
                    return Err("workload.matrix: intra_rack needs a rack with at least two hosts".into());
                }
            }
            MatrixSpec::ManyToOne { receiver, senders } => {
                let (r, s) = MatrixSpec::many_to_one_hosts(*receiver, senders, h);
                if r >= h {
                    return Err(format!("workload.matrix.receiver: host {r} does not exist (hosts: {h})"));
                }
                if s.is_empty() {
                    return Err("workload.matrix.senders: must list at least one host".into());
                }
                for (i, &x) in s.iter().enumerate() {
                    let f = format!("workload.matrix.senders[{i}]");
                    if x >= h {
                        return Err(format!("{f}: host {x} does not exist (hosts: {h})"));
                    }
                    if x == r {
                        return Err(format!("{f}: host {x} is the receiver"));
                    }
                    if s[..i].contains(&x) {
                        return Err(format!("{f}: host {x} is listed twice"));
                    }
                }
            }
            MatrixSpec::AllToAll | MatrixSpec::Permutation | MatrixSpec::LeftRight => {}
        }
        if let Some(d) = &self.deadlines {
            let ok = match d {
                DeadlineSpec::Exponential { mean_us, min_us, min_ideal_factor } => {
                    *mean_us > 0.0 && *min_us >= 0.0 && *min_ideal_factor >= 0.0 && mean_us.is_finite()
                }
                DeadlineSpec::Uniform { min_us, max_us } => *min_us > 0.0 && max_us >= min_us && max_us.is_finite(),
            };
            if !ok {
                return Err("workload.deadlines: means and bounds must be positive and max >= min".into());
            }
        } else if self.abort_at_deadline {
            return Err("workload.abort_at_deadline: the workload has no deadlines (set workload.deadlines)".into());
        }
        Ok(())
    }

    fn sizes(&self) -> Result<Sizes, String> {
        Self::sizes_of(&self.sizes)
    }

    fn sizes_of(spec: &SizeSpec) -> Result<Sizes, String> {
        Ok(match spec {
            SizeSpec::Cdf { name, points } => match (name, points) {
                (Some(n), None) => Sizes::Cdf(
                    Cdf::parse_csv(match n {
                        NamedCdf::Websearch => cdf::WEBSEARCH_CSV,
                        NamedCdf::Datamining => cdf::DATAMINING_CSV,
                        NamedCdf::Imc10 => cdf::IMC10_CSV,
                    })
                    .expect("shipped CDFs parse"),
                ),
                (None, Some(p)) => Sizes::Cdf(Cdf::from_points(p.clone()).map_err(|e| format!("workload.sizes.points: {e}"))?),
                _ => return Err("workload.sizes: a cdf needs exactly one of `name` or `points`".into()),
            },
            SizeSpec::Uniform { min_bytes, max_bytes } => {
                if *min_bytes == 0 || max_bytes < min_bytes {
                    return Err(format!("workload.sizes: uniform needs 0 < min_bytes <= max_bytes, got [{min_bytes}, {max_bytes}]"));
                }
                Sizes::Uniform(*min_bytes, *max_bytes)
            }
            SizeSpec::Bimodal { short_packets, long_packets, short_fraction } => {
                if *short_packets == 0 || *long_packets == 0 || !(0.0..=1.0).contains(short_fraction) {
                    return Err("workload.sizes: bimodal needs positive sizes and short_fraction in [0, 1]".into());
                }
                Sizes::Bimodal(*short_packets, *long_packets, *short_fraction)
            }
            SizeSpec::Fixed { bytes, packets } => match (bytes, packets) {
                (Some(b), None) if *b > 0 => Sizes::Fixed(*b),
                (None, Some(p)) if *p > 0 => Sizes::Fixed(p * MSS as u64),
                _ => return Err("workload.sizes: fixed needs exactly one of `bytes` or `packets`, positive".into()),
            },
        })
    }

    /// Mean flow size in payload bytes (with per-tenant sizes, the mean
    /// over tenants weighted by their share of flows).
    pub fn mean_flow_bytes(&self) -> Result<f64, String> {
        match &self.tenant_sizes {
            Some(ts) if !ts.is_empty() => {
                let w = self.tenant_shares();
                let mut sum = 0.0;
                for (t, share) in ts.iter().zip(&w) {
                    sum += Self::sizes_of(t)?.mean_bytes() * share;
                }
                Ok(sum)
            }
            _ => Ok(self.sizes()?.mean_bytes()),
        }
    }

    /// Each tenant's share of flows (sums to 1), with `tenant_sizes`.
    fn tenant_shares(&self) -> Vec<f64> {
        let n = self.tenant_sizes.as_ref().map_or(0, |t| t.len());
        let w = self.tenant_weights.clone().unwrap_or_else(|| vec![1.0; n]);
        let total: f64 = w.iter().sum();
        w.iter().map(|x| x / total).collect()
    }
}
