//! From a scenario to results: builds the network, the queues the protocol
//! wants, the workload and the protocol, runs them, and summarizes. The
//! command line, the browser binding and the tests all go through here.

use crate::branch::BranchChange;
use crate::ids::{FlowId, PortId};
use crate::metrics::{backlog_growth, is_stable, Backlog, BucketStats, Counters, FlowRecord, Sample, Summary, LONG_FLOW_MIN, SHORT_FLOW_MAX};
use crate::net::topology::build;
use crate::net::Network;
use crate::packet::Packet;
use crate::protocol::ideal;
use crate::protocol::plugin::{Build, Env, FlowlevelFn, Plugin};
use crate::protocol::ports::PortSetup;
use crate::protocol::{Protocol, ProtocolName, Visit};
use crate::scenario::{LoadBalancing, Scenario};
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
    /// The packets buffered at one port in the order it sends them, and
    /// the index of the one a full buffer drops first (for the port
    /// inspector; `Simulation::port_packets`).
    fn port_packets(&self, port: PortId) -> (Vec<Packet>, Option<usize>);
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
    fn port_packets(&self, port: PortId) -> (Vec<Packet>, Option<usize>) {
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
    fn port_packets(&self, _port: PortId) -> (Vec<Packet>, Option<usize>) {
        (Vec::new(), None)
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
    /// A plain run of a protocol: a flow-level scheduler's, or a packet-level
    /// simulation in a box with its faults scheduled.
    struct Plain<'a>(OnSimulation<'a, Boxed>);
    impl Build for Plain<'_> {
        type Out = Result<Box<dyn Runner>, String>;
        fn packet<P: Protocol<Timer: Send> + Send + 'static>(self, make: &(dyn Fn(&Network, Env) -> P + Sync)) -> Self::Out {
            self.0.packet(make)
        }
        fn flow(self, run: FlowlevelFn) -> Self::Out {
            let s = self.0.s.clone();
            if !s.faults.is_empty() {
                return Err("faults: the flow-level schedulers (ideal, optimal_deadline) have no packets to lose; faults need a packet-level protocol".into());
            }
            let net = build(&s.topology);
            let gen = FlowGenerator::new(&s.workload, &net, s.switching, s.seed);
            let total_flows = gen.total_flows();
            let scheduler = (run, s.protocol.as_str());
            Ok(Box::new(Flowlevel { scheduler, net, total_flows, gen: Some(gen), out: None, order: Vec::new(), counters: Counters::new(), scenario: s }))
        }
    }
    struct VisitPlain<'a>(&'a Scenario, RunOptions);
    impl Visit for VisitPlain<'_> {
        type Out = Result<Box<dyn Runner>, String>;
        fn visit<P: Plugin>(self, _: ProtocolName, params: &P::Params) -> Self::Out {
            P::build(params, Plain(OnSimulation::new::<P>(self.0, self.1, params, Boxed { trace: self.1.trace })))
        }
    }
    scenario.protocol.visit(&scenario.params, VisitPlain(scenario, opts))
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

/// A packet-level protocol's build carried out for `v` on scenario `s`:
/// every port of the fabric an empty queue of the protocol's setup, the
/// flows of the scenario's workload.
struct OnSimulation<'a, V> {
    s: &'a Scenario,
    opts: RunOptions,
    ports: PortSetup,
    single_path: bool,
    v: V,
}

impl<'a, V> OnSimulation<'a, V> {
    fn new<P: Plugin>(s: &'a Scenario, opts: RunOptions, params: &P::Params, v: V) -> Self {
        OnSimulation { s, opts, ports: P::ports(params), single_path: P::single_path(params), v }
    }
}

impl<V: WithSimulation> Build for OnSimulation<'_, V> {
    type Out = Result<V::Out, String>;
    fn packet<P: Protocol<Timer: Send> + Send + 'static>(self, make: &(dyn Fn(&Network, Env) -> P + Sync)) -> Self::Out {
        let OnSimulation { s, opts, ports, single_path, v } = self;
        let env = Env { spraying: s.load_balancing != LoadBalancing::Ecmp };
        Ok(v.with(&|| build_sim(s, opts, &ports, single_path, |net| make(net, env)), s))
    }
    fn flow(self, _: FlowlevelFn) -> Self::Out {
        Err(format!("{}: a flow-level scheduler has no packet-level simulation", self.s.protocol.as_str()))
    }
}

/// A simulation of `s` whose protocol `proto` builds for the network, on
/// ports of setup `ports` (all on one path each when `single_path`).
fn build_sim<P: Protocol>(s: &Scenario, opts: RunOptions, ports: &PortSetup, single_path: bool, proto: impl FnOnce(&Network) -> P) -> Simulation<P> {
    let net = build(&s.topology);
    let gen = FlowGenerator::new(&s.workload, &net, s.switching, s.seed);
    let mut cfg = sim_config(s, &gen, &net, opts.audit);
    if single_path {
        cfg.load_balancing = LoadBalancing::Ecmp;
    }
    let q = ports.queue();
    let proto = proto(&net);
    Simulation::new(net, move |_: &Network, _: PortId| q.clone().expect("packet-level protocols have queues"), proto, gen, cfg)
}

/// Calls `v` with the packet-level simulation of `s` (an error for the
/// flow-level schedulers, which have none). Used by `crate::parallel`,
/// which WebAssembly builds leave out.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn with_simulation<V: WithSimulation>(s: &Scenario, opts: RunOptions, v: V) -> Result<V::Out, String> {
    struct VisitSim<'a, V>(&'a Scenario, RunOptions, V);
    impl<V: WithSimulation> Visit for VisitSim<'_, V> {
        type Out = Result<V::Out, String>;
        fn visit<P: Plugin>(self, _: ProtocolName, params: &P::Params) -> Self::Out {
            P::build(params, OnSimulation::new::<P>(self.0, self.1, params, self.2))
        }
    }
    s.protocol.visit(&s.params, VisitSim(s, opts, v))
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
