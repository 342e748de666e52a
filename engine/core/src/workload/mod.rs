//! Workloads (PROTOCOLS.md section 1): what flows arrive, when, between
//! which hosts, with which sizes, deadlines and tenants.
//!
//! Open-loop matrices draw Poisson arrivals at a target load; closed-loop
//! matrices (incast, query aggregation) start the next request when the
//! previous one completes.

pub mod cdf;

use crate::ids::{FlowId, NodeId};
use crate::net::ideal::IdealFct;
use crate::net::{Network, Switching};
use crate::rng::{SimRng, Stream};
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

#[derive(Clone)]
enum Sizes {
    Cdf(Cdf),
    Uniform(u64, u64),
    Bimodal(u64, u64, f64),
    Fixed(u64),
}

impl Sizes {
    fn mean_bytes(&self) -> f64 {
        match self {
            Sizes::Cdf(c) => c.mean_bytes(),
            Sizes::Uniform(a, b) => (*a as f64 + *b as f64) / 2.0,
            Sizes::Bimodal(s, l, f) => (f * *s as f64 + (1.0 - f) * *l as f64) * MSS as f64,
            Sizes::Fixed(b) => *b as f64,
        }
    }
    fn sample(&self, rng: &mut SimRng) -> u64 {
        match self {
            Sizes::Cdf(c) => c.sample_packets(rng) * MSS as u64,
            Sizes::Uniform(a, b) => a + (rng.unit() * (b - a + 1) as f64) as u64,
            Sizes::Bimodal(s, l, f) => (if rng.unit() < *f { *s } else { *l }) * MSS as u64,
            Sizes::Fixed(b) => *b,
        }
    }
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

/// Produces the flows of a run, in arrival order.
#[derive(Clone)]
pub struct FlowGenerator {
    spec: WorkloadSpec,
    sizes: Sizes,
    /// Per-tenant sizes (empty unless `tenant_sizes` is given).
    tenant_sizes: Vec<Sizes>,
    /// Each tenant's share of flows, with `tenant_sizes`.
    tenant_shares: Vec<f64>,
    n_hosts: u32,
    racks: Vec<u32>,
    arrivals: SimRng,
    size_rng: SimRng,
    endpoints: SimRng,
    attrs: SimRng,
    permutation: Vec<u32>,
    /// many_to_one: the receiver and the senders.
    many_to_one: (u32, Vec<u32>),
    switching: Switching,
    /// Mean inter-arrival time of the open-loop process, picoseconds.
    mean_gap_ps: f64,
    clock: SimTime,
    next_id: u32,
    /// Closed loop: flows of the current request still running.
    outstanding: u32,
    /// Closed loop: requests started so far.
    requests_started: u32,
    /// Flows ready to be handed out (closed loop: a whole request).
    ready: std::collections::VecDeque<FlowSpec>,
    /// Background flows not yet handed out (they come first, at time zero).
    background: std::collections::VecDeque<FlowSpec>,
}

impl FlowGenerator {
    /// A generator for `spec` on `net`; `spec` must have passed `validate`.
    pub fn new(spec: &WorkloadSpec, net: &Network, switching: Switching, seed: u64) -> Self {
        let sizes = spec.sizes().expect("validated");
        let n_hosts = net.n_hosts;
        // The links `load` is defined on: each sending host's, or the
        // receiver's alone (many_to_one).
        let loaded_links = match spec.matrix {
            MatrixSpec::LeftRight => n_hosts / 2,
            MatrixSpec::ManyToOne { .. } => 1,
            _ => n_hosts,
        }
        .max(1);
        // PROTOCOLS.md section 1: lambda_per_host = load * rate / (8 * mean bytes).
        let per_host = spec.load * net.host_rate.bps() as f64 / (8.0 * spec.mean_flow_bytes().expect("validated"));
        let tenant_sizes = spec.tenant_sizes.iter().flatten().map(|t| WorkloadSpec::sizes_of(t).expect("validated")).collect();
        let mean_gap_ps = 1e12 / (per_host * loaded_links as f64);
        let many_to_one = match &spec.matrix {
            MatrixSpec::ManyToOne { receiver, senders } => MatrixSpec::many_to_one_hosts(*receiver, senders, n_hosts),
            _ => (0, Vec::new()),
        };
        let mut endpoints = SimRng::new(seed, Stream::Endpoints);
        let permutation = derangement(n_hosts, &mut endpoints);
        let mut g = FlowGenerator {
            spec: spec.clone(),
            sizes,
            tenant_sizes,
            tenant_shares: spec.tenant_shares(),
            n_hosts,
            racks: (0..n_hosts).map(|h| net.rack_of(NodeId(h))).collect(),
            arrivals: SimRng::new(seed, Stream::Arrivals),
            size_rng: SimRng::new(seed, Stream::Sizes),
            endpoints,
            attrs: SimRng::new(seed, Stream::FlowAttributes),
            permutation,
            many_to_one,
            switching,
            mean_gap_ps,
            clock: SimTime::ZERO,
            next_id: 0,
            outstanding: 0,
            requests_started: 0,
            ready: Default::default(),
            background: Default::default(),
        };
        for b in &spec.background {
            // Drawn from no random stream, so adding background flows
            // leaves the workload's own flows as they were.
            let ideal_fct = IdealFct::new(net, switching).fct(NodeId(b.src), NodeId(b.dst), b.bytes);
            let id = FlowId(g.next_id);
            g.next_id += 1;
            let f = FlowSpec {
                id,
                src: NodeId(b.src),
                dst: NodeId(b.dst),
                size: b.bytes,
                arrival: SimTime::ZERO,
                deadline: None,
                tenant: 0,
                request: None,
                ideal_fct,
                background: true,
            };
            g.background.push_back(f);
        }
        if g.is_closed_loop() {
            g.start_request(SimTime::ZERO, net);
        }
        g
    }

    /// Flows are given up at their deadline (`WorkloadSpec::abort_at_deadline`).
    pub fn abort_at_deadline(&self) -> bool {
        self.spec.abort_at_deadline
    }

    /// Number of tenants flows are spread over.
    pub fn tenants(&self) -> u16 {
        self.spec.tenants
    }

    /// Total number of flows this workload will produce.
    pub fn total_flows(&self) -> u64 {
        match self.spec.matrix {
            MatrixSpec::Incast { senders, requests, .. } => senders as u64 * requests as u64,
            MatrixSpec::QueryAggregation { fanout, queries } => fanout as u64 * queries as u64,
            _ => self.spec.flows,
        }
    }

    fn is_closed_loop(&self) -> bool {
        self.spec.is_closed_loop()
    }

    /// The next flow, if one is due to arrive (closed loop: `None` while the
    /// current request is running). Open-loop flows come with arrival times
    /// in the future; the caller schedules them.
    pub fn next_flow(&mut self, net: &Network) -> Option<FlowSpec> {
        if let Some(b) = self.background.pop_front() {
            return Some(b);
        }
        if self.is_closed_loop() {
            return self.ready.pop_front();
        }
        if self.next_id as u64 >= self.spec.flows + self.spec.background.len() as u64 {
            return None;
        }
        if !self.spec.all_at_zero {
            let gap = self.arrivals.exponential(self.mean_gap_ps);
            // The first flow also waits one gap, so a run starts empty.
            self.clock += SimTime::from_ps(gap.round() as u64);
        }
        let (src, dst) = self.pick_pair();
        if !self.tenant_sizes.is_empty() {
            let u = self.attrs.unit();
            let mut acc = 0.0;
            let tenant = self.tenant_shares.iter().position(|s| {
                acc += s;
                u < acc
            });
            let tenant = tenant.unwrap_or(self.tenant_shares.len() - 1);
            let size = self.tenant_sizes[tenant].sample(&mut self.size_rng);
            let mut f = self.make(src, dst, size, self.clock, None, net);
            f.tenant = tenant as u16;
            return Some(f);
        }
        let size = self.sizes.sample(&mut self.size_rng);
        Some(self.make(src, dst, size, self.clock, None, net))
    }

    /// Tells the generator that a flow finished at `now` (closed loop: the
    /// next request starts when the current one is done).
    pub fn on_flow_complete(&mut self, now: SimTime, net: &Network) {
        if !self.is_closed_loop() {
            return;
        }
        self.outstanding -= 1;
        if self.outstanding == 0 {
            self.start_request(now, net);
        }
    }

    fn start_request(&mut self, now: SimTime, net: &Network) {
        let r = self.requests_started;
        match self.spec.matrix.clone() {
            MatrixSpec::Incast { senders, request_bytes, request_packets, requests, receiver } => {
                if r >= requests {
                    return;
                }
                let total = request_bytes.unwrap_or_else(|| request_packets.unwrap_or(0) * MSS as u64);
                let dst = receiver.unwrap_or_else(|| self.endpoints.below(self.n_hosts));
                let srcs = self.distinct_hosts(senders, dst);
                let each = total / senders as u64;
                for (i, &s) in srcs.iter().enumerate() {
                    let size = if i + 1 == srcs.len() { total - each * (senders as u64 - 1) } else { each };
                    let f = self.make(s, dst, size, now, Some(r), net);
                    self.ready.push_back(f);
                }
                self.outstanding = senders;
            }
            MatrixSpec::QueryAggregation { fanout, queries } => {
                if r >= queries {
                    return;
                }
                let dst = self.endpoints.below(self.n_hosts);
                // Distinct senders while there are enough hosts; beyond,
                // every other host sends `fanout / (hosts - 1)` flows and
                // distinct random hosts one more each for the remainder.
                let others = self.n_hosts - 1;
                let srcs = if fanout <= others {
                    self.distinct_hosts(fanout, dst)
                } else {
                    let mut v: Vec<u32> = (0..fanout / others).flat_map(|_| (0..self.n_hosts).filter(|&x| x != dst)).collect();
                    v.extend(self.distinct_hosts(fanout % others, dst));
                    v
                };
                for &s in &srcs {
                    let size = self.sizes.sample(&mut self.size_rng);
                    let f = self.make(s, dst, size, now, Some(r), net);
                    self.ready.push_back(f);
                }
                self.outstanding = fanout;
            }
            _ => unreachable!(),
        }
        self.requests_started += 1;
    }

    fn distinct_hosts(&mut self, k: u32, except: u32) -> Vec<u32> {
        // Partial Fisher-Yates over all hosts but `except`.
        let mut pool: Vec<u32> = (0..self.n_hosts).filter(|&h| h != except).collect();
        for i in 0..k as usize {
            let j = i + self.endpoints.below((pool.len() - i) as u32) as usize;
            pool.swap(i, j);
        }
        pool.truncate(k as usize);
        pool
    }

    fn pick_pair(&mut self) -> (u32, u32) {
        let h = self.n_hosts;
        let e = &mut self.endpoints;
        match self.spec.matrix {
            MatrixSpec::AllToAll => {
                let s = e.below(h);
                let mut d = e.below(h - 1);
                if d >= s {
                    d += 1;
                }
                (s, d)
            }
            MatrixSpec::Permutation => {
                let s = e.below(h);
                (s, self.permutation[s as usize])
            }
            MatrixSpec::LeftRight => {
                let half = h / 2;
                (e.below(half), half + e.below(h - half))
            }
            MatrixSpec::IntraRack => loop {
                let s = e.below(h);
                let mates: Vec<u32> = (0..h).filter(|&x| x != s && self.racks[x as usize] == self.racks[s as usize]).collect();
                if !mates.is_empty() {
                    break (s, mates[e.below(mates.len() as u32) as usize]);
                }
            },
            MatrixSpec::ManyToOne { .. } => {
                let (r, senders) = &self.many_to_one;
                (senders[e.below(senders.len() as u32) as usize], *r)
            }
            _ => unreachable!(),
        }
    }

    fn make(&mut self, src: u32, dst: u32, size: u64, arrival: SimTime, request: Option<u32>, net: &Network) -> FlowSpec {
        let id = FlowId(self.next_id);
        self.next_id += 1;
        let ideal_fct = IdealFct::new(net, self.switching).fct(NodeId(src), NodeId(dst), size);
        let deadline = self.spec.deadlines.as_ref().map(|d| match *d {
            DeadlineSpec::Exponential { mean_us, min_us, min_ideal_factor } => {
                let x = self.attrs.exponential(mean_us).max(min_us);
                let floor = ideal_fct.as_us_f64() * min_ideal_factor;
                SimTime::from_us_f64(x.max(floor))
            }
            DeadlineSpec::Uniform { min_us, max_us } => SimTime::from_us_f64(self.attrs.uniform(min_us, max_us)),
        });
        let tenant = if self.spec.tenants > 1 { self.attrs.below(self.spec.tenants as u32) as u16 } else { 0 };
        FlowSpec { id, src: NodeId(src), dst: NodeId(dst), size, arrival, deadline, tenant, request, ideal_fct, background: false }
    }
}

/// A random permutation with no fixed point (Sattolo's algorithm gives a
/// single cycle, which has none).
fn derangement(n: u32, rng: &mut SimRng) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n).collect();
    for i in (1..n as usize).rev() {
        let j = rng.below(i as u32) as usize;
        p.swap(i, j);
    }
    p
}

impl FlowGenerator {
    /// About how long the arrivals last: the open-loop arrival period, or
    /// the closed-loop requests' total bytes at the access rate.
    pub fn estimated_span(&self, net: &Network) -> SimTime {
        let closed_loop_bytes = match &self.spec.matrix {
            MatrixSpec::Incast { request_bytes, request_packets, requests, .. } => {
                request_bytes.unwrap_or_else(|| request_packets.unwrap_or(0) * MSS as u64) as f64 * *requests as f64
            }
            MatrixSpec::QueryAggregation { .. } => self.total_flows() as f64 * self.sizes.mean_bytes(),
            _ if self.spec.all_at_zero => return SimTime::from_us(1000),
            _ => return SimTime::from_ps((self.mean_gap_ps * self.spec.flows as f64) as u64),
        };
        net.host_rate.serialization(closed_loop_bytes as u64)
    }
}
