//! Metrics (docs/model.md#metrics): a record per flow, packet and byte
//! counters with drops per hop, pending-bytes samples, and the run summary
//! with the stability check.

use crate::net::PortRole;
use crate::packet::Packet;
use crate::units::SimTime;
use crate::workload::FlowSpec;
use serde::{Deserialize, Serialize};

/// What happened to one flow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowRecord {
    /// Flow id.
    pub id: u32,
    /// Source host.
    pub src: u32,
    /// Destination host.
    pub dst: u32,
    /// Payload bytes.
    pub size: u64,
    /// Arrival at the sender.
    pub start: SimTime,
    /// When the receiver held the last byte; `None` if unfinished.
    pub end: Option<SimTime>,
    /// Ideal FCT (OPT).
    pub ideal: SimTime,
    /// Deadline relative to the start, if any.
    pub deadline: Option<SimTime>,
    /// Tenant.
    pub tenant: u16,
    /// Request or query index (closed-loop matrices).
    pub request: Option<u32>,
    /// A background flow (`workload.background`): simulated, not reported.
    pub background: bool,
    /// The protocol gave the flow up before it completed (PDQ's Early
    /// Termination, D3's quenching): it has no end and missed its deadline,
    /// but counts as settled for the run's end and closed-loop requests.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub terminated: bool,
}

impl FlowRecord {
    /// A record for a flow that just arrived.
    pub fn new(f: &FlowSpec) -> Self {
        FlowRecord {
            id: f.id.0,
            src: f.src.0,
            dst: f.dst.0,
            size: f.size,
            start: f.arrival,
            end: None,
            ideal: f.ideal_fct,
            deadline: f.deadline,
            tenant: f.tenant,
            request: f.request,
            background: f.background,
            terminated: false,
        }
    }
    /// Flow completion time: from arrival at the sender to the last byte at
    /// the receiver.
    pub fn fct(&self) -> Option<SimTime> {
        self.end.map(|e| e - self.start)
    }
    /// FCT / OPT.
    pub fn slowdown(&self) -> Option<f64> {
        self.fct().map(|f| f.ps() as f64 / self.ideal.ps() as f64)
    }
    /// Whether the flow finished by its deadline (`None` without a deadline).
    pub fn met_deadline(&self) -> Option<bool> {
        self.deadline.map(|d| self.fct().is_some_and(|f| f <= d))
    }
}

/// Packet counters for conservation checks and drop statistics.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counters {
    /// Data packets hosts put on their NICs (retransmissions included).
    pub data_sent: u64,
    /// Wire bytes of those.
    pub data_bytes_sent: u64,
    /// Data packets that reached their destination host.
    pub data_delivered: u64,
    /// Wire bytes of those.
    pub data_bytes_delivered: u64,
    /// Data packets dropped, per port role (host NIC, ToR up, core down, ToR down).
    pub data_dropped: [u64; 4],
    /// Wire bytes of dropped data packets.
    pub data_bytes_dropped: u64,
    /// Data packets still queued or on a wire when the run stopped.
    pub data_in_flight: u64,
    /// Wire bytes of those.
    pub data_bytes_in_flight: u64,
    /// Control packets (ACKs, probes, ...) sent.
    pub control_sent: u64,
    /// Wire bytes of those.
    pub control_bytes_sent: u64,
    /// Control packets dropped, per port role.
    pub control_dropped: [u64; 4],
    /// Control packets still queued or on a wire at the end.
    pub control_in_flight: u64,
    /// CE marks applied.
    pub ecn_marks: u64,
    /// Packets (data and control) dropped because of faults: down links,
    /// packets on a failing wire, no path left (`crate::fault`). They are
    /// also in the drop counts by port role.
    pub fault_drops: u64,
    /// Wire bytes of data packets dropped after their first hop: the
    /// capacity they used on their source's link (and any hop between) for
    /// nothing. PASE section 4.2 explains pFabric's results on the
    /// all-to-all intra-rack scenario (Figure 10(c)) by it: "multiple flows
    /// sending at line rate can collide at a downstream ToR-host link. This
    /// causes a significant amount of network capacity to be wasted on the
    /// host-ToR links". Per port: `Simulation::wasted_bytes`.
    pub data_bytes_wasted_upstream: u64,
}

fn role_index(r: PortRole) -> usize {
    match r {
        PortRole::HostNic => 0,
        PortRole::Up => 1,
        PortRole::Down => 2,
        PortRole::Edge => 3,
    }
}

impl Counters {
    /// All zero.
    pub fn new() -> Self {
        Self::default()
    }
    /// Counts a drop at a port of `role`.
    pub fn count_drop(&mut self, role: PortRole, p: &Packet) {
        if p.kind.is_data() {
            self.data_dropped[role_index(role)] += 1;
            self.data_bytes_dropped += p.size as u64;
        } else {
            self.control_dropped[role_index(role)] += 1;
        }
    }
    /// Counts a packet left in the network at the end.
    pub fn count_in_flight(&mut self, p: &Packet) {
        if p.kind.is_data() {
            self.data_in_flight += 1;
            self.data_bytes_in_flight += p.size as u64;
        } else {
            self.control_in_flight += 1;
        }
    }
    /// Adds another set of counters (the parts of a split run).
    pub fn add(&mut self, o: &Counters) {
        self.data_sent += o.data_sent;
        self.data_bytes_sent += o.data_bytes_sent;
        self.data_delivered += o.data_delivered;
        self.data_bytes_delivered += o.data_bytes_delivered;
        for k in 0..4 {
            self.data_dropped[k] += o.data_dropped[k];
            self.control_dropped[k] += o.control_dropped[k];
        }
        self.data_bytes_dropped += o.data_bytes_dropped;
        self.data_in_flight += o.data_in_flight;
        self.data_bytes_in_flight += o.data_bytes_in_flight;
        self.control_sent += o.control_sent;
        self.control_bytes_sent += o.control_bytes_sent;
        self.control_in_flight += o.control_in_flight;
        self.ecn_marks += o.ecn_marks;
        self.fault_drops += o.fault_drops;
        self.data_bytes_wasted_upstream += o.data_bytes_wasted_upstream;
    }
    /// Total data packets dropped.
    pub fn data_dropped_total(&self) -> u64 {
        self.data_dropped.iter().sum()
    }
    /// Total control packets dropped.
    pub fn control_dropped_total(&self) -> u64 {
        self.control_dropped.iter().sum()
    }
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// Every flow completed.
    AllFlowsDone,
    /// The event list ran dry with flows unfinished (a protocol stalled).
    Idle,
    /// The simulated time limit was reached.
    TimeLimit,
    /// The event-count limit was reached.
    EventLimit,
}

/// The backlog at the sources at one time: bytes of arrived flows that
/// have not completed, and bytes not yet sent (pHost section 4.3: growing
/// without bound means the network cannot keep up).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// When.
    pub t: SimTime,
    /// Payload bytes of arrived, unfinished flows.
    pub pending_bytes: u64,
    /// Number of arrived, unfinished flows.
    pub active_flows: u64,
    /// Payload bytes that have arrived at their sources and have not yet
    /// been sent once (first transmissions only: a packet sent again does
    /// not count twice): pHost section 4.3, Figure 7's "packets ... that
    /// have arrived at the source but have not yet been injected into the
    /// network by the source ('pending' packets)". A flow's bytes count as
    /// sent up to its highest packet sent so far (every protocol here sends
    /// a flow's new packets in order; a pHost token that expires unused
    /// lets a later packet go first, and its packet then counts as sent);
    /// a flow given up takes its unsent bytes with it. Background flows are
    /// not counted.
    pub unsent_bytes: u64,
}

/// Which backlog of the [`Sample`]s [`backlog_growth`] fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backlog {
    /// `pending_bytes`: bytes of arrived, unfinished flows (what
    /// [`is_stable`] judges).
    Pending,
    /// `unsent_bytes`: bytes not yet sent once (pHost's Figure 7).
    Unsent,
}

/// Flow-size buckets of pFabric and pHost: short below 100 KB, long above
/// 10 MB, medium in between.
pub const SHORT_FLOW_MAX: u64 = 100_000;
/// See [`SHORT_FLOW_MAX`].
pub const LONG_FLOW_MIN: u64 = 10_000_000;

/// Statistics of one set of flows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BucketStats {
    /// Completed flows in the set.
    pub flows: u64,
    /// Mean slowdown (FCT / OPT).
    pub mean_slowdown: f64,
    /// 99th-percentile slowdown (nearest rank).
    pub p99_slowdown: f64,
    /// Mean FCT, microseconds.
    pub afct_us: f64,
    /// Mean FCT / mean OPT.
    pub nfct: f64,
}

impl BucketStats {
    /// Statistics of the completed flows among `recs`.
    pub fn of<'a>(recs: impl Iterator<Item = &'a FlowRecord>) -> Self {
        let mut sl = Vec::new();
        let (mut fct, mut opt) = (0f64, 0f64);
        for r in recs {
            if let (Some(s), Some(f)) = (r.slowdown(), r.fct()) {
                sl.push(s);
                fct += f.as_us_f64();
                opt += r.ideal.as_us_f64();
            }
        }
        let n = sl.len();
        if n == 0 {
            return BucketStats::default();
        }
        let mean = sl.iter().sum::<f64>() / n as f64;
        sl.sort_by(|a, b| a.total_cmp(b));
        BucketStats { flows: n as u64, mean_slowdown: mean, p99_slowdown: nearest_rank(&sl, 0.99), afct_us: fct / n as f64, nfct: fct / opt }
    }
}

/// The `q` quantile (0 < q <= 1) of `sorted` (ascending) by nearest rank:
/// the ceil(q * n)-th smallest value, the definition every percentile of
/// dcsim's reports uses. NaN for an empty slice.
pub fn nearest_rank(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    sorted[((q * n as f64).ceil() as usize).clamp(1, n) - 1]
}

/// The summary of one run: one row of the summary CSV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Scenario name.
    pub scenario: String,
    /// Protocol name.
    pub protocol: String,
    /// Offered load.
    pub load: f64,
    /// Seed.
    pub seed: u64,
    /// Flows that arrived. Every workload has at least one flow, so 0 means
    /// that no flow arrived before the run stopped (see [`Summary::no_arrivals`]).
    pub flows: u64,
    /// Flows that completed.
    pub completed: u64,
    /// All completed flows.
    pub all: BucketStats,
    /// Flows below 100 KB.
    pub short: BucketStats,
    /// Flows from 100 KB to 10 MB.
    pub medium: BucketStats,
    /// Flows above 10 MB.
    pub long: BucketStats,
    /// Fraction of flows with deadlines that met them (application
    /// throughput); `None` when no flow had a deadline.
    pub deadlines_met: Option<f64>,
    /// Mean completion time of requests (incast, query aggregation),
    /// microseconds; `None` for open-loop workloads.
    pub mean_request_us: Option<f64>,
    /// Payload throughput: delivered flow bytes over the run, Gbps.
    pub throughput_gbps: f64,
    /// Dropped data packets / data packets sent.
    pub drop_rate: f64,
    /// Data packets dropped at host NICs, ToR uplinks, core downlinks, ToR downlinks.
    pub drops_by_hop: [u64; 4],
    /// Control bytes / data bytes sent.
    pub control_overhead: f64,
    /// False when pending bytes kept growing through the arrival period, or
    /// flows were left unfinished, or none arrived: the means are then not
    /// meaningful.
    pub stable: bool,
    /// Why the run stopped: `all_flows_done`, `time_limit` (`max_time_ms`),
    /// `event_limit` (`max_events`) or `idle` (nothing left to do with flows
    /// unfinished: a protocol stalled).
    pub stop: StopReason,
    /// How the run ended in words when a reader must know it (no flow
    /// arrived, a limit cut the run short, the backlog grew): what
    /// [`Summary::verdict`] says. `None` for a complete, stable run.
    pub note: Option<String>,
    /// Simulated time at the end, microseconds.
    pub sim_time_us: f64,
    /// Events processed (0 for flow-level runs).
    pub events: u64,
    /// Packets dropped because of faults (`faults`, a fault branch).
    pub fault_drops: u64,
}

impl Summary {
    /// True when no flow arrived before the run stopped (a time limit below
    /// the first arrival): every statistic is then empty, not a zero
    /// slowdown, and the run is neither stable nor unstable.
    pub fn no_arrivals(&self) -> bool {
        self.flows == 0
    }

    /// What a person should know about how the run ended, in words, or
    /// `None` for a run whose flows all finished and whose backlog stayed
    /// bounded. `summarize` stores it in [`Summary::note`].
    pub fn verdict(&self) -> Option<String> {
        let limit = match self.stop {
            StopReason::TimeLimit => "the time limit (max_time_ms)",
            StopReason::EventLimit => "the event limit (max_events)",
            StopReason::Idle => "a stall (no event left with flows unfinished)",
            StopReason::AllFlowsDone => "the end",
        };
        if self.no_arrivals() {
            return Some(format!("no flow arrived before {limit}: nothing to measure"));
        }
        if self.stop != StopReason::AllFlowsDone {
            return Some(format!("UNSTABLE: stopped by {limit} before the workload finished ({} of {} arrived flows completed)", self.completed, self.flows));
        }
        (!self.stable).then(|| "UNSTABLE: pending bytes kept growing through the arrivals".to_string())
    }
}

/// Stability check (docs/model.md#stability): fits a line to the pending
/// bytes sampled between a quarter of the arrival period and its end; the
/// run is unstable when the rise along that line exceeds the mean pending
/// bytes over the same window (a backlog that grows linearly from zero
/// rises by 3 and averages 2.5 units over that window, a stationary one
/// rises by about 0).
pub fn is_stable(samples: &[Sample], last_arrival: SimTime) -> bool {
    match backlog_fit(samples, last_arrival, Backlog::Pending) {
        Some((rise, mean)) => rise <= mean,
        None => true,
    }
}

/// How much a backlog grew through the arrivals: the rise of the line
/// fitted to `series` between a quarter of the arrival period and its end
/// (`last_arrival`), over the series' mean there: what [`is_stable`]
/// compares (pending bytes are stable while this is at most 1). A backlog
/// that grows linearly from zero gives 1.2 (it rises by 3 and averages 2.5
/// units over the window), a stationary one about 0, a shrinking one less
/// than 0. 0 when fewer than 8 samples fall in the window, when they are
/// all at one time, or when the backlog is zero throughout.
pub fn backlog_growth(samples: &[Sample], last_arrival: SimTime, series: Backlog) -> f64 {
    match backlog_fit(samples, last_arrival, series) {
        Some((rise, mean)) if mean > 0.0 => rise / mean,
        _ => 0.0,
    }
}

/// The rise of the least-squares line through `series` between a quarter
/// of the arrival period and `last_arrival`, and the series' mean there;
/// `None` with fewer than 8 samples or all at one time.
fn backlog_fit(samples: &[Sample], last_arrival: SimTime, series: Backlog) -> Option<(f64, f64)> {
    let lo = last_arrival.ps() / 4;
    let value = |s: &Sample| match series {
        Backlog::Pending => s.pending_bytes,
        Backlog::Unsent => s.unsent_bytes,
    };
    let pts: Vec<(f64, f64)> = samples.iter().filter(|s| s.t.ps() >= lo && s.t <= last_arrival).map(|s| (s.t.ps() as f64, value(s) as f64)).collect();
    if pts.len() < 8 {
        return None;
    }
    let n = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx == 0.0 {
        return None;
    }
    let rise = sxy / sxx * (pts.last().unwrap().0 - pts[0].0);
    Some((rise, my))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(f: impl Fn(f64) -> f64) -> Vec<Sample> {
        two_series(f, |_| 0.0)
    }

    /// 101 samples 1000 ps apart: pending bytes `pending(i)`, unsent
    /// bytes `unsent(i)`.
    fn two_series(pending: impl Fn(f64) -> f64, unsent: impl Fn(f64) -> f64) -> Vec<Sample> {
        (0..=100)
            .map(|i| Sample { t: SimTime(i * 1000), pending_bytes: pending(i as f64) as u64, active_flows: 0, unsent_bytes: unsent(i as f64) as u64 })
            .collect()
    }

    #[test]
    fn growing_backlog_is_unstable_and_noisy_stationary_is_stable() {
        assert!(!is_stable(&samples(|i| 1000.0 * i), SimTime(100_000)));
        assert!(is_stable(&samples(|i| 50_000.0 + 20_000.0 * ((i * 1.7).sin())), SimTime(100_000)));
    }

    #[test]
    fn backlog_growth_is_the_fitted_rise_over_the_mean() {
        let end = SimTime(100_000);
        let g = |s: &[Sample], b| backlog_growth(s, end, b);
        // Linear from zero: over the window [25, 100] the line rises by 75
        // units of 1000 and the mean is 62.5 of them: 1.2.
        let linear = samples(|i| 1000.0 * i);
        assert!((g(&linear, Backlog::Pending) - 1.2).abs() < 1e-9, "{}", g(&linear, Backlog::Pending));
        // The same line on a base of 100,000 rises as much over a larger
        // mean: 75 / 162.5.
        let based = samples(|i| 100_000.0 + 1000.0 * i);
        assert!((g(&based, Backlog::Pending) - 75.0 / 162.5).abs() < 1e-9);
        // A shrinking backlog grows negatively; a constant one not at all.
        assert!(g(&samples(|i| 200_000.0 - 1000.0 * i), Backlog::Pending) < 0.0);
        assert_eq!(g(&samples(|_| 5000.0), Backlog::Pending), 0.0);
        // A noisy stationary backlog: small either way.
        assert!(g(&samples(|i| 50_000.0 + 20_000.0 * ((i * 1.7).sin())), Backlog::Pending).abs() < 0.1);
        // The two series are fitted apart: pending grows, unsent stays flat.
        let both = two_series(|i| 1000.0 * i, |i| 3000.0 + 500.0 * ((i * 0.9).cos()));
        assert!((g(&both, Backlog::Pending) - 1.2).abs() < 1e-9);
        assert!(g(&both, Backlog::Unsent).abs() < 0.05, "{}", g(&both, Backlog::Unsent));
        assert!((g(&two_series(|_| 0.0, |i| 1000.0 * i), Backlog::Unsent) - 1.2).abs() < 1e-9);
        // Nothing to fit: fewer than 8 samples in the window, or all zero.
        assert_eq!(g(&linear[..30], Backlog::Pending), 0.0);
        assert_eq!(g(&samples(|_| 0.0), Backlog::Pending), 0.0);
        // is_stable is growth <= 1 on the pending series.
        for s in [&linear, &based, &both] {
            assert_eq!(is_stable(s, end), g(s, Backlog::Pending) <= 1.0);
        }
    }

    #[test]
    fn p99_is_nearest_rank() {
        let recs: Vec<FlowRecord> = (1..=200u64)
            .map(|i| FlowRecord {
                id: i as u32,
                src: 0,
                dst: 1,
                size: 1,
                start: SimTime(0),
                end: Some(SimTime(i)),
                ideal: SimTime(1),
                deadline: None,
                tenant: 0,
                request: None,
                background: false,
                terminated: false,
            })
            .collect();
        let b = BucketStats::of(recs.iter());
        assert_eq!(b.p99_slowdown, 198.0);
        assert_eq!(b.mean_slowdown, 100.5);
    }
}
