//! From a scenario to results: builds the network, the queues the protocol
//! wants, the workload and the protocol, runs them, and summarizes. The
//! command line, the browser binding and the tests all go through here.

use crate::branch::BranchChange;
use crate::ids::{FlowId, PortId};
use crate::metrics::{backlog_growth, is_stable, Backlog, BucketStats, Counters, FlowRecord, Sample, Summary, LONG_FLOW_MIN, SHORT_FLOW_MAX};
use crate::net::topology::build;
use crate::net::Network;
use crate::packet::Packet;
use crate::protocol::fastpass::Fastpass;
use crate::protocol::ideal;
use crate::protocol::pase::Pase;
use crate::protocol::pdq::Pdq;
use crate::protocol::phost::Phost;
use crate::protocol::rcp::Rcp;
use crate::protocol::window::{WindowConfig, WindowTransport};
use crate::protocol::Protocol;
use crate::queue::setup::PortSetup;
use crate::scenario::{LoadBalancing, ProtocolName, Scenario};
use crate::sim::{SimConfig, Simulation, StopReason};
use crate::trace::TraceEvent;
use crate::units::SimTime;
use crate::workload::FlowGenerator;

/// Switches for one run.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// Record the trace stream.
    pub trace: bool,
    /// Check every completed flow against an independent delivery record.
    pub audit: bool,
}

/// Everything a finished run produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// The summary row.
    pub summary: Summary,
    /// One record per arrived flow, by flow id.
    pub records: Vec<FlowRecord>,
    /// Packet counters (all zero for flow-level protocols).
    pub counters: Counters,
    /// Pending and unsent bytes over time.
    pub samples: Vec<Sample>,
    /// Why the run stopped.
    pub stop: StopReason,
    /// Growth of the pending bytes through the arrivals
    /// ([`crate::metrics::backlog_growth`]): the summary's `stable` is this
    /// at most 1 for open-loop runs that finished. 0 without samples.
    pub pending_growth: f64,
    /// Growth of the bytes not yet sent once (pHost section 4.3's
    /// "pending" packets, Figure 7), the same way. 0 without samples.
    pub unsent_growth: f64,
}

impl RunOutput {
    /// The output of a finished run, with its backlogs' growth measured
    /// over the foreground flows' arrivals (as the summary's stability).
    pub fn new(summary: Summary, records: Vec<FlowRecord>, counters: Counters, samples: Vec<Sample>, stop: StopReason) -> Self {
        let last_arrival = records.iter().filter(|r| !r.background).map(|r| r.start).max().unwrap_or(SimTime::ZERO);
        let pending_growth = backlog_growth(&samples, last_arrival, Backlog::Pending);
        let unsent_growth = backlog_growth(&samples, last_arrival, Backlog::Unsent);
        RunOutput { summary, records, counters, samples, stop, pending_growth, unsent_growth }
    }
}

/// A run in progress that can be advanced in slices (the browser worker
/// and the command line's progress line use this).
pub trait Runner {
    /// Processes up to `n` events; false once the run is over.
    fn run_events(&mut self, n: u64) -> bool;
    /// Current simulated time.
    fn now(&self) -> SimTime;
    /// (completed flows, total flows).
    fn progress(&self) -> (u64, u64);
    /// Events processed so far.
    fn events(&self) -> u64;
    /// Takes the trace events recorded since the last call.
    fn drain_trace(&mut self) -> Vec<TraceEvent>;
    /// Bytes queued at each port now.
    fn queue_bytes(&self) -> Vec<u64>;
    /// The network being simulated.
    fn network(&self) -> &Network;
    /// Runs until simulated time `t` (events at `t` included); false once
    /// the run is over.
    fn run_until(&mut self, t: SimTime) -> bool;
    /// Runs until simulated time `t` (events at `t` included) or at most
    /// `max` events; false once the run is over.
    fn run_until_max(&mut self, t: SimTime, max: u64) -> bool;
    /// Time of the next pending event (None once nothing is pending).
    fn next_event_time(&self) -> Option<SimTime>;
    /// Completed flows in completion order.
    fn completion_order(&self) -> &[FlowId];
    /// Flow records so far, by flow id.
    fn records(&self) -> &[FlowRecord];
    /// Bytes buffered per sub-queue of one port.
    fn subqueue_bytes(&self, port: PortId) -> Vec<u64>;
    /// The packets buffered at one port (for the port inspector).
    fn port_packets(&self, port: PortId) -> Vec<Packet>;
    /// Drop, send and mark counters so far.
    fn counters(&self) -> &Counters;
    /// What a port's link carried for nothing: wire bytes of data packets
    /// its host sent on it that were dropped at a later hop, and wire bytes
    /// it has sent; (0, 0) for ports other than host NICs and for
    /// flow-level protocols (PASE section 4.2, see
    /// `Counters::data_bytes_wasted_upstream`).
    fn port_waste(&self, _port: PortId) -> (u64, u64) {
        (0, 0)
    }
    /// The backlog now: payload bytes of arrived, unsettled flows, and of
    /// those not yet sent once (the two series of the samples; (0, 0) for
    /// flow-level protocols).
    fn backlog(&self) -> (u64, u64) {
        (0, 0)
    }
    /// Data bytes delivered per tenant so far (empty with one tenant or
    /// for flow-level protocols).
    fn tenant_bytes_delivered(&self) -> Vec<u64> {
        Vec::new()
    }
    /// Arbitration messages processed so far (PASE), `None` for protocols
    /// without arbitrators.
    fn arbitration_messages(&self) -> Option<u64> {
        None
    }
    /// Mean arbitration delay so far (PASE: from a round's start at the
    /// source to its answer there), microseconds; `None` for protocols
    /// without arbitrators or before any answer.
    fn arbitration_delay_us(&self) -> Option<f64> {
        None
    }
    /// Switches the trace stream on or off (the browser traces only while
    /// it animates).
    fn set_trace(&mut self, on: bool);
    /// Replaces the scenario the summary describes (a branch's run is
    /// prepared from its base and reports as the branch).
    fn rename(&mut self, scenario: Scenario);
    /// Ends the run (if not over) and summarizes it.
    fn finish(self: Box<Self>) -> RunOutput;
    /// Applies a what-if branch's change now (after the events processed
    /// so far); a protocol change is not a change of state and is refused
    /// here (`prepare` runs it from the start).
    fn apply_change(&mut self, change: &BranchChange) -> Result<(), String>;
    /// A snapshot of the whole run: clock, event list, ports, wires,
    /// packets, protocol state, metrics and random streams, with an empty
    /// trace buffer. The snapshot is itself a runner: continuing it gives
    /// exactly what continuing this run would (see [`restore`]). Time
    /// travel in the browser keeps these as checkpoints.
    fn snapshot(&self) -> Box<dyn Runner>;
}

/// Restores a snapshot: a fresh runner that continues from the snapshot's
/// state, leaving the snapshot itself untouched for later restores.
pub fn restore(snapshot: &dyn Runner) -> Box<dyn Runner> {
    snapshot.snapshot()
}

#[derive(Clone)]
struct PacketLevel<P: Protocol> {
    sim: Simulation<P>,
    scenario: Scenario,
}

impl<P: Protocol + 'static> Runner for PacketLevel<P> {
    fn run_events(&mut self, n: u64) -> bool {
        self.sim.run_events(n)
    }
    fn now(&self) -> SimTime {
        self.sim.now()
    }
    fn progress(&self) -> (u64, u64) {
        self.sim.progress()
    }
    fn events(&self) -> u64 {
        self.sim.events_processed()
    }
    fn drain_trace(&mut self) -> Vec<TraceEvent> {
        self.sim.trace.drain()
    }
    fn queue_bytes(&self) -> Vec<u64> {
        self.sim.queue_bytes().to_vec()
    }
    fn network(&self) -> &Network {
        self.sim.network()
    }
    fn run_until(&mut self, t: SimTime) -> bool {
        self.sim.run_until(t)
    }
    fn run_until_max(&mut self, t: SimTime, max: u64) -> bool {
        self.sim.run_until_max(t, max)
    }
    fn next_event_time(&self) -> Option<SimTime> {
        if self.sim.stopped().is_some() {
            None
        } else {
            self.sim.next_event_time()
        }
    }
    fn completion_order(&self) -> &[FlowId] {
        &self.sim.completion_order
    }
    fn records(&self) -> &[FlowRecord] {
        &self.sim.records
    }
    fn subqueue_bytes(&self, port: PortId) -> Vec<u64> {
        self.sim.subqueue_bytes(port)
    }
    fn port_packets(&self, port: PortId) -> Vec<Packet> {
        self.sim.port_packets(port)
    }
    fn counters(&self) -> &Counters {
        &self.sim.counters
    }
    fn backlog(&self) -> (u64, u64) {
        self.sim.backlog()
    }
    fn port_waste(&self, port: PortId) -> (u64, u64) {
        self.sim.port_waste(port)
    }
    fn tenant_bytes_delivered(&self) -> Vec<u64> {
        self.sim.tenant_bytes_delivered.clone()
    }
    fn arbitration_messages(&self) -> Option<u64> {
        self.sim.proto.arbitration_messages()
    }
    fn arbitration_delay_us(&self) -> Option<f64> {
        self.sim.proto.arbitration_delay_us()
    }
    fn rename(&mut self, scenario: Scenario) {
        self.scenario = scenario;
    }
    fn set_trace(&mut self, on: bool) {
        self.sim.trace.enabled = on;
        if !on {
            self.sim.trace.drain();
        }
    }
    fn finish(mut self: Box<Self>) -> RunOutput {
        let stop = self.sim.run();
        let name = self.sim.proto.name();
        let end = self.sim.now();
        let events = self.sim.events_processed();
        let sim = self.sim;
        let summary = summarize(&self.scenario, name, &sim.records, &sim.counters, &sim.samples, stop, end, events);
        RunOutput::new(summary, sim.records, sim.counters, sim.samples, stop)
    }
    fn apply_change(&mut self, change: &BranchChange) -> Result<(), String> {
        match *change {
            BranchChange::BufferBytes { bytes } => {
                self.sim.set_buffer_limit(bytes);
                Ok(())
            }
            BranchChange::Protocol { .. } => Err("branch.change: a protocol change runs from time zero, not from a state".into()),
            BranchChange::Fault(ref k) => {
                let action = k.resolve(self.sim.network(), "branch.change")?;
                self.sim.apply_fault(&action);
                Ok(())
            }
        }
    }
    fn snapshot(&self) -> Box<dyn Runner> {
        let mut copy = self.clone();
        copy.sim.trace.drain();
        Box::new(copy)
    }
}

/// A flow-level scheduler: runs a whole workload at once.
type FlowlevelFn = fn(&Network, FlowGenerator, SimTime) -> ideal::IdealRun;

#[derive(Clone)]
struct Flowlevel {
    /// The scheduler and its name in reports.
    scheduler: (FlowlevelFn, &'static str),
    net: Network,
    gen: Option<FlowGenerator>,
    out: Option<(ideal::IdealRun, SimTime)>,
    /// Completed flows by end time (then id), filled once the run is done.
    order: Vec<FlowId>,
    counters: Counters,
    scenario: Scenario,
    /// Flows the workload produces (background flows not counted).
    total_flows: u64,
}

impl Runner for Flowlevel {
    fn run_events(&mut self, _n: u64) -> bool {
        if let Some(g) = self.gen.take() {
            let max = SimTime::from_us_f64(self.scenario.max_time_ms * 1000.0);
            let r = (self.scheduler.0)(&self.net, g, max);
            let end = r.end;
            let mut order: Vec<(SimTime, FlowId)> = r.records.iter().enumerate().filter_map(|(i, x)| x.end.map(|e| (e, FlowId(i as u32)))).collect();
            order.sort();
            self.order = order.into_iter().map(|x| x.1).collect();
            self.out = Some((r, end));
        }
        false
    }
    fn run_until(&mut self, _t: SimTime) -> bool {
        self.run_events(0)
    }
    fn run_until_max(&mut self, _t: SimTime, _max: u64) -> bool {
        self.run_events(0)
    }
    fn next_event_time(&self) -> Option<SimTime> {
        if self.gen.is_some() {
            Some(SimTime::ZERO)
        } else {
            None
        }
    }
    fn completion_order(&self) -> &[FlowId] {
        &self.order
    }
    fn records(&self) -> &[FlowRecord] {
        self.out.as_ref().map_or(&[], |o| &o.0.records)
    }
    fn subqueue_bytes(&self, _port: PortId) -> Vec<u64> {
        vec![0]
    }
    fn port_packets(&self, _port: PortId) -> Vec<Packet> {
        Vec::new()
    }
    fn counters(&self) -> &Counters {
        &self.counters
    }
    fn set_trace(&mut self, _on: bool) {}
    fn rename(&mut self, scenario: Scenario) {
        self.scenario = scenario;
    }
    fn now(&self) -> SimTime {
        self.out.as_ref().map_or(SimTime::ZERO, |o| o.1)
    }
    fn progress(&self) -> (u64, u64) {
        match &self.out {
            Some((r, _)) => {
                let fg = r.records.iter().filter(|x| !x.background);
                let done = fg.clone().filter(|x| x.end.is_some() || x.terminated).count() as u64;
                (done, fg.count() as u64)
            }
            None => (0, 0),
        }
    }
    fn events(&self) -> u64 {
        self.out.as_ref().map_or(0, |o| o.0.events)
    }
    fn drain_trace(&mut self) -> Vec<TraceEvent> {
        Vec::new()
    }
    fn queue_bytes(&self) -> Vec<u64> {
        vec![0; self.net.ports.len()]
    }
    fn network(&self) -> &Network {
        &self.net
    }
    fn finish(mut self: Box<Self>) -> RunOutput {
        self.run_events(0);
        let (r, end) = self.out.take().unwrap();
        let counters = Counters::default();
        // Done when every flow of the workload arrived and settled; the
        // scheduler stops at `max_time_ms` otherwise.
        let settled = r.records.iter().filter(|x| !x.background && (x.end.is_some() || x.terminated)).count() as u64;
        let stop = if settled == self.total_flows { StopReason::AllFlowsDone } else { StopReason::TimeLimit };
        let summary = summarize(&self.scenario, self.scheduler.1, &r.records, &counters, &[], stop, end, r.events);
        RunOutput::new(summary, r.records, counters, Vec::new(), stop)
    }
    fn apply_change(&mut self, _change: &BranchChange) -> Result<(), String> {
        Err("branch: the flow-level schedulers (ideal, optimal_deadline) compute a whole run at once; branch a packet-level protocol".into())
    }
    fn snapshot(&self) -> Box<dyn Runner> {
        Box::new(self.clone())
    }
}

/// The simulation settings of scenario `s` (limits, switching, seed, a
/// pending-bytes sample every 1/200 of the arrivals' span, at least 1 us),
/// for `prepare` and for tests that build a `Simulation` themselves.
pub fn sim_config(s: &Scenario, gen: &FlowGenerator, net: &Network, audit: bool) -> SimConfig {
    let span = gen.estimated_span(net);
    SimConfig {
        switching: s.switching,
        load_balancing: s.load_balancing,
        seed: s.seed,
        max_time: SimTime::from_us_f64(s.max_time_ms * 1000.0),
        max_events: s.max_events,
        sample_interval: SimTime::from_ps((span.ps() / 200).max(1_000_000)),
        audit,
    }
}

/// Prepares a run of `scenario` (validated here) without running it. A
/// what-if branch (`scenario.branch`) comes back at its divergence time
/// with its change applied (see [`crate::branch`]).
pub fn prepare(scenario: &Scenario, opts: RunOptions) -> Result<Box<dyn Runner>, String> {
    scenario.validate()?;
    let Some(b) = &scenario.branch else { return prepare_plain(scenario, opts) };
    let mut base = scenario.clone();
    if let BranchChange::Protocol { protocol } = b.change {
        // A protocol's state cannot carry over: the same arrivals from zero.
        base.protocol = protocol;
        base.validate().map_err(|e| format!("branch.change.protocol: {e}"))?;
        return prepare_plain(&base, opts);
    }
    base.branch = None;
    let mut r = prepare_plain(&base, RunOptions { trace: false, ..opts })?;
    r.run_until(SimTime::from_us_f64(b.at_us));
    r.apply_change(&b.change)?;
    r.set_trace(opts.trace);
    // Summaries and CSVs name the branch.
    r.rename(scenario.clone());
    Ok(r)
}

fn prepare_plain(scenario: &Scenario, opts: RunOptions) -> Result<Box<dyn Runner>, String> {
    let s = scenario.clone();
    match s.protocol {
        ProtocolName::Ideal | ProtocolName::OptimalDeadline => {
            let scheduler: (FlowlevelFn, &'static str) = match s.protocol {
                ProtocolName::Ideal => (ideal::run, "ideal"),
                _ => (crate::protocol::optimal_deadline::run, "optimal_deadline"),
            };
            if !s.faults.is_empty() {
                return Err("faults: the flow-level schedulers (ideal, optimal_deadline) have no packets to lose; faults need a packet-level protocol".into());
            }
            let net = build(&s.topology);
            let gen = FlowGenerator::new(&s.workload, &net, s.switching, s.seed);
            let total_flows = gen.total_flows();
            Ok(Box::new(Flowlevel { scheduler, net, total_flows, gen: Some(gen), out: None, order: Vec::new(), counters: Counters::new(), scenario: s }))
        }
        _ => with_simulation(&s, opts, Boxed { trace: opts.trace }),
    }
}

/// Something to do with the packet-level simulation of a scenario,
/// whatever its protocol (each protocol is its own type, so this is a
/// trait with a generic method rather than a closure): [`with_simulation`]
/// calls `with` with a function that builds a fresh simulation of the
/// scenario at each call (one for a plain run, one per part of a split
/// run: `crate::parallel`).
pub(crate) trait WithSimulation {
    /// What `with` gives.
    type Out;
    /// Does the thing with simulations `make` builds.
    fn with<P: Protocol<Timer: Send> + Send + 'static>(self, make: &(dyn Fn() -> Simulation<P> + Sync), scenario: &Scenario) -> Self::Out;
}

/// A plain run in a box, with its faults scheduled.
struct Boxed {
    trace: bool,
}

impl WithSimulation for Boxed {
    type Out = Box<dyn Runner>;
    fn with<P: Protocol<Timer: Send> + Send + 'static>(self, make: &(dyn Fn() -> Simulation<P> + Sync), scenario: &Scenario) -> Box<dyn Runner> {
        let mut sim = make();
        sim.trace.enabled = self.trace;
        // Validated with the scenario: every fault resolves.
        let faults = scenario.faults.iter().filter_map(|f| f.kind.resolve(sim.network(), "faults").ok().map(|a| (SimTime::from_us_f64(f.at_us), a))).collect();
        sim.schedule_faults(faults);
        Box::new(PacketLevel { sim, scenario: scenario.clone() })
    }
}

/// A simulation of `s` whose protocol `proto` builds for the network: every
/// port of the fabric an empty queue of the protocol's setup, the flows of
/// the scenario's workload.
fn build_sim<P: Protocol>(s: &Scenario, opts: RunOptions, proto: impl FnOnce(&Network) -> P) -> Simulation<P> {
    let net = build(&s.topology);
    let gen = FlowGenerator::new(&s.workload, &net, s.switching, s.seed);
    let mut cfg = sim_config(s, &gen, &net, opts.audit);
    if s.protocol == ProtocolName::Pdq && s.params.pdq.per_flow_paths {
        // PDQ is single-path (see `PdqParams::per_flow_paths`).
        cfg.load_balancing = LoadBalancing::Ecmp;
    }
    let q = PortSetup::of(s.protocol, &s.params).queue();
    let proto = proto(&net);
    Simulation::new(net, move |_: &Network, _: PortId| q.clone().expect("packet-level protocols have queues"), proto, gen, cfg)
}

/// Calls `v` with the packet-level simulation of `s` (an error for the
/// flow-level schedulers, which have none).
pub(crate) fn with_simulation<V: WithSimulation>(s: &Scenario, opts: RunOptions, v: V) -> Result<V::Out, String> {
    let spraying = s.load_balancing != LoadBalancing::Ecmp;
    let p = &s.params;
    Ok(match s.protocol {
        ProtocolName::Tcp => v.with(&|| build_sim(s, opts, |_| WindowTransport::new(WindowConfig::tcp(&p.tcp, spraying))), s),
        // The DCTCP family: ECN-marking FIFO ports, one window rule each.
        ProtocolName::Dctcp => v.with(&|| build_sim(s, opts, |_| WindowTransport::new(WindowConfig::dctcp(&p.dctcp, spraying))), s),
        ProtocolName::D2tcp => v.with(&|| build_sim(s, opts, |_| WindowTransport::new(WindowConfig::d2tcp(&p.d2tcp, spraying))), s),
        ProtocolName::L2dct => v.with(&|| build_sim(s, opts, |_| WindowTransport::new(WindowConfig::l2dct(&p.l2dct, spraying))), s),
        ProtocolName::Pfabric => v.with(&|| build_sim(s, opts, |_| WindowTransport::new(WindowConfig::pfabric(&p.pfabric))), s),
        ProtocolName::Rcp => v.with(&|| build_sim(s, opts, |net| Rcp::new(p.rcp.clone(), net.ports.iter().map(|x| x.rate.bps() as f64).collect())), s),
        ProtocolName::D3 => {
            v.with(&|| build_sim(s, opts, |net| Rcp::d3(p.d3.clone(), net.ports.iter().map(|x| x.rate.bps() as f64).collect(), net.host_rate.bps() as f64)), s)
        }
        ProtocolName::Pdq => v.with(&|| build_sim(s, opts, |net| Pdq::new(p.pdq.clone(), net)), s),
        ProtocolName::Phost => v.with(
            &|| {
                build_sim(s, opts, |net| {
                    let mtu_time =
                        (0..net.n_hosts).map(|h| net.ports[net.nic(crate::ids::NodeId(h)).idx()].rate.serialization(crate::units::MTU as u64)).collect();
                    Phost::new(p.phost.clone(), mtu_time)
                })
            },
            s,
        ),
        ProtocolName::Pase => v.with(&|| build_sim(s, opts, |net| Pase::new(p.pase.clone(), net, spraying)), s),
        ProtocolName::Fastpass => v.with(&|| build_sim(s, opts, |net| Fastpass::new(p.fastpass.clone(), net)), s),
        ProtocolName::Ideal | ProtocolName::OptimalDeadline => {
            return Err(format!("{}: a flow-level scheduler has no packet-level simulation", s.protocol.as_str()))
        }
    })
}

/// Runs `scenario` to the end.
pub fn run(scenario: &Scenario, opts: RunOptions) -> Result<RunOutput, String> {
    Ok(prepare(scenario, opts)?.finish())
}

/// Builds the summary row of a run.
#[allow(clippy::too_many_arguments)]
pub fn summarize(
    s: &Scenario,
    protocol: &str,
    records: &[FlowRecord],
    c: &Counters,
    samples: &[Sample],
    stop: StopReason,
    end: SimTime,
    events: u64,
) -> Summary {
    // Background flows (`workload.background`) are simulated, not measured.
    let foreground: std::borrow::Cow<[FlowRecord]> =
        if records.iter().any(|r| r.background) { records.iter().filter(|r| !r.background).cloned().collect::<Vec<_>>().into() } else { records.into() };
    let records = &foreground[..];
    let completed = records.iter().filter(|r| r.end.is_some()).count() as u64;
    let with_deadline: Vec<bool> = records.iter().filter_map(|r| r.met_deadline()).collect();
    let deadlines_met = (!with_deadline.is_empty()).then(|| with_deadline.iter().filter(|&&m| m).count() as f64 / with_deadline.len() as f64);
    // Requests: from the first flow's start to the last flow's end.
    let mut reqs: std::collections::BTreeMap<u32, (SimTime, Option<SimTime>)> = Default::default();
    for r in records {
        if let Some(q) = r.request {
            let e = reqs.entry(q).or_insert((r.start, Some(SimTime::ZERO)));
            e.0 = e.0.min(r.start);
            e.1 = match (e.1, r.end) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            };
        }
    }
    let done_reqs: Vec<f64> = reqs.values().filter_map(|(a, b)| b.map(|b| (b - *a).as_us_f64())).collect();
    let mean_request_us = (!done_reqs.is_empty()).then(|| done_reqs.iter().sum::<f64>() / done_reqs.len() as f64);
    let delivered: u64 = records.iter().filter(|r| r.end.is_some()).map(|r| r.size).sum();
    let last_arrival = records.iter().map(|r| r.start).max().unwrap_or(SimTime::ZERO);
    let open_loop = records.iter().all(|r| r.request.is_none());
    // Flows the protocol gave up (Early Termination) are settled, not stuck.
    let settled = records.iter().filter(|r| r.end.is_some() || r.terminated).count() as u64;
    let stable = !records.is_empty() && settled == records.len() as u64 && stop == StopReason::AllFlowsDone && (!open_loop || is_stable(samples, last_arrival));
    let mut summary = Summary {
        scenario: match &s.branch {
            Some(b) => format!("{} (what if: {} at {} us)", s.name, b.name, b.at_us),
            None => s.name.clone(),
        },
        protocol: protocol.to_string(),
        load: s.workload.load,
        seed: s.seed,
        flows: records.len() as u64,
        completed,
        all: BucketStats::of(records.iter()),
        short: BucketStats::of(records.iter().filter(|r| r.size < SHORT_FLOW_MAX)),
        medium: BucketStats::of(records.iter().filter(|r| (SHORT_FLOW_MAX..=LONG_FLOW_MIN).contains(&r.size))),
        long: BucketStats::of(records.iter().filter(|r| r.size > LONG_FLOW_MIN)),
        deadlines_met,
        mean_request_us,
        throughput_gbps: if end > SimTime::ZERO { delivered as f64 * 8.0 / end.as_secs_f64() / 1e9 } else { 0.0 },
        drop_rate: if c.data_sent > 0 { c.data_dropped_total() as f64 / c.data_sent as f64 } else { 0.0 },
        drops_by_hop: c.data_dropped,
        control_overhead: if c.data_bytes_sent > 0 { c.control_bytes_sent as f64 / c.data_bytes_sent as f64 } else { 0.0 },
        stable,
        stop,
        sim_time_us: end.as_us_f64(),
        events,
        fault_drops: c.fault_drops,
        note: None,
    };
    summary.note = summary.verdict();
    summary
}
