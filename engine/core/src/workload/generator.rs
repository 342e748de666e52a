//! The flow generator: the flows of a run in arrival order, drawn from a
//! validated [`WorkloadSpec`] (sizes, Poisson or closed-loop arrivals,
//! endpoints by traffic matrix, deadlines, tenants, background flows).

use super::cdf::Cdf;
use super::{DeadlineSpec, FlowSpec, MatrixSpec, WorkloadSpec};
use crate::ids::{FlowId, NodeId};
use crate::net::ideal::IdealFct;
use crate::net::{Network, Switching};
use crate::rng::{SimRng, Stream};
use crate::units::{SimTime, MSS};

/// A size distribution, ready to draw from.
#[derive(Clone)]
pub(super) enum Sizes {
    Cdf(Cdf),
    Uniform(u64, u64),
    Bimodal(u64, u64, f64),
    Fixed(u64),
}

impl Sizes {
    pub(super) fn mean_bytes(&self) -> f64 {
        match self {
            Sizes::Cdf(c) => c.mean_bytes(),
            Sizes::Uniform(a, b) => (*a as f64 + *b as f64) / 2.0,
            Sizes::Bimodal(s, l, f) => (f * *s as f64 + (1.0 - f) * *l as f64) * MSS as f64,
            Sizes::Fixed(b) => *b as f64,
        }
    }
    pub(super) fn sample(&self, rng: &mut SimRng) -> u64 {
        match self {
            Sizes::Cdf(c) => c.sample_packets(rng) * MSS as u64,
            Sizes::Uniform(a, b) => a + (rng.unit() * (b - a + 1) as f64) as u64,
            Sizes::Bimodal(s, l, f) => (if rng.unit() < *f { *s } else { *l }) * MSS as u64,
            Sizes::Fixed(b) => *b,
        }
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
        // docs/model.md#workloads: lambda_per_host = load * rate / (8 * mean bytes).
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
