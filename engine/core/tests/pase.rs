//! PASE (docs/protocols/pase.md; Munir et al., SIGCOMM 2014).
//!
//! Properties:
//! * the arbitration rule, on a list of flows over a path of links, gives
//!   exactly the queue and rate the rule says (section 3.1, Algorithm 1);
//! * early pruning: a flow already below the top queues at the endpoints
//!   or its rack never reaches the arbitrators of the links above;
//! * delegation: a child arbitrator never hands out more than its parent
//!   allows (its share, or the capacity its siblings leave unclaimed), the
//!   shares never exceed the parent's link, no request goes to a delegated
//!   link's switch, and a new flow at an idle child gets its line rate
//!   while the parent's link has room;
//! * `await_arbitration`: an inter-rack flow sends at most one packet per
//!   base RTT until its arbitrators answer, the optimizations make the
//!   answer come sooner, intra-rack flows never wait;
//! * probing: a flow in the lowest queue sends header-only probes once per
//!   probe interval and retransmits no data on timeouts;
//! * the paper's results, each on the scenario the seed places it (the
//!   paper's text was not at hand: claims and tolerances follow the seed's
//!   wording, docs/protocols/pase.md). Reproduced: on the left-right tree
//!   at high load four queues within 10% of eight and one clearly worse;
//!   the optimizations cut arbitration messages (at least a quarter at
//!   high load; paper up to 50%) and, with delegation fixed, cost no AFCT
//!   at low load; PASE comparable to or better than pFabric, better than
//!   D2TCP and L2DCT in AFCT, PASE-DCTCP worse than PASE, on the left-right
//!   tree and the all-to-all racks; PASE (EDF) meeting more deadlines than
//!   D2TCP at loads 0.3 and 0.5 of the deadline scenario. Not reproduced
//!   (ignored, with the measured numbers and the reason): PASE 50% to 60%
//!   below DCTCP on the testbed (PASE gains more), the optimizations'
//!   4% to 10% AFCT gain, end-to-end arbitration beating local-only, PASE
//!   within 10% of pFabric at load 0.3 of the all-to-all racks (at the
//!   edge), PASE above D2TCP in deadlines met at loads 0.7 and 0.9;
//! * the testbed's many-to-one matrix: every flow goes to the receiver from
//!   one of the senders, at the load asked of the receiver's link.

mod common;

use common::{assert_rejected_naming, load, par_map, run_ok};
use dcsim_core::ids::{FlowId, NodeId, PortId};
use dcsim_core::net::topology::build;
use dcsim_core::protocol::pase::events;
use dcsim_core::protocol::pase::params::{PaseCriticality, PaseDelegatedCapacity, PaseParams, PaseQueueNumbering, PaseRateControl};
use dcsim_core::protocol::pase::{arbitrate, Arbitrator, Decision, Pase};
use dcsim_core::protocol::ports::PortSetup;
use dcsim_core::protocol::window::controller::pase::PROBE as PASE_PROBE;
use dcsim_core::scenario::ProtocolName;
use dcsim_core::sim::{SimConfig, Simulation};
use dcsim_core::trace::TraceKind;
use dcsim_core::units::SimTime;
use dcsim_core::workload::{BackgroundFlow, FlowGenerator, MatrixSpec};
use dcsim_core::{RunOptions, Scenario};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A PASE simulation of `s`, built as `run::prepare` builds it, so tests
/// can read the arbitrators.
fn pase_sim(s: &Scenario) -> Simulation<Pase> {
    s.validate().unwrap();
    let net = build(&s.topology);
    let gen = FlowGenerator::new(&s.workload, &net, s.switching, s.seed);
    let cfg = SimConfig {
        switching: s.switching,
        load_balancing: s.load_balancing,
        seed: s.seed,
        max_time: SimTime::from_ms(2000),
        max_events: u64::MAX,
        sample_interval: SimTime::from_us(1000),
        audit: true,
    };
    let q = PortSetup::of(ProtocolName::Pase, &s.params).queue().unwrap();
    let mut proto = Pase::new(s.params.pase.clone(), &net, true);
    proto.log_switch_requests = true;
    Simulation::new(net, |_, _| q.clone(), proto, gen, cfg)
}

/// The left-right tree: 2 aggregation switches, 2 ToRs each, `hosts` per
/// ToR; the left half sends to the right half.
fn tree(hosts: u32) -> Scenario {
    let mut s = load("pase-left-right");
    s.topology = dcsim_core::net::topology::TopologySpec::Tree {
        branching: vec![2, 2, hosts],
        link_gbps: vec![1.0, 1.0, 1.0],
        propagation_ns: 10_000.0,
        switch_delay_ns: 0.0,
    };
    s
}

const C: f64 = 1e9;

#[test]
fn the_rule_on_a_flow_list_and_a_path() {
    // Three flows share a 1 Gbps link; flow 7 (smallest remaining) is the
    // most critical. Demands: 0.4 C, C, C.
    let base = 48_000.0;
    let z = PaseQueueNumbering::ZeroBased;
    let mut a = Arbitrator::new(C);
    a.update(FlowId(7), (50_000, 0, 7), 0.4 * C, SimTime::NEVER);
    a.update(FlowId(8), (80_000, 0, 8), C, SimTime::NEVER);
    a.update(FlowId(9), (90_000, 0, 9), C, SimTime::NEVER);
    // Flow 7: ADH 0 -> top queue, its demand. Flow 8: ADH 0.4 C -> rate
    // 0.6 C, queue ceil(0.4) = 1. Flow 9: ADH 1.4 C >= C -> base rate,
    // queue ceil(1.4) = 2.
    assert_eq!(a.decide(FlowId(7), base, 8, z), Decision { queue: 0, rate_bps: 0.4 * C });
    let d8 = a.decide(FlowId(8), base, 8, z);
    assert_eq!(d8.queue, 1);
    assert!((d8.rate_bps - 0.6 * C).abs() < 1e-3);
    assert_eq!(a.decide(FlowId(9), base, 8, z), Decision { queue: 2, rate_bps: base });
    // With 2 queues the third flow is capped at the lowest (1).
    assert_eq!(a.decide(FlowId(9), base, 2, z).queue, 1);
    // A second link of 10 Gbps where flow 8 is alone: it would get the top
    // queue and its whole demand; along the path it keeps the worse of the
    // two: queue 1, rate 0.6 C.
    let mut b = Arbitrator::new(10.0 * C);
    b.update(FlowId(8), (80_000, 0, 8), C, SimTime::NEVER);
    let d8b = b.decide(FlowId(8), base, 8, z);
    assert_eq!(d8b, Decision { queue: 0, rate_bps: C });
    let path = Decision::NONE.combine(d8).combine(d8b);
    assert_eq!(path.queue, 1);
    assert!((path.rate_bps - 0.6 * C).abs() < 1e-3);
    // The formula directly: ADH exactly k C is queue k (0-based).
    for k in 1..6u8 {
        assert_eq!(arbitrate(k as f64 * C, C, C, base, 8, z), Decision { queue: k, rate_bps: base });
    }
}

/// All flows at time zero from the 8 left hosts (40 flows: 5 per host), so
/// at each source the 3rd to 5th flows are in queues 2 to 4.
fn pruning_run(early_pruning: bool) -> Simulation<Pase> {
    let mut s = tree(2);
    s.workload.flows = 40;
    s.workload.all_at_zero = true;
    s.params.pase.delegation = false;
    s.params.pase.early_pruning = early_pruning;
    let mut sim = pase_sim(&s);
    sim.run();
    assert_eq!(sim.records.iter().filter(|r| r.end.is_some()).count(), 40);
    sim
}

#[test]
fn early_pruning_keeps_low_flows_away_from_the_core() {
    let on = pruning_run(true);
    let top = on.proto.params().pruning_queues as u8;
    let core_level = *on.proto.level.iter().max().unwrap();
    assert_eq!(core_level, 2);
    let at_core: Vec<_> = on.proto.stats.switch_requests.iter().filter(|r| on.proto.level[r.port.idx()] == core_level).collect();
    assert!(!at_core.is_empty(), "some requests reach the aggregation-core arbitrators");
    for r in &at_core {
        assert!(r.queue_in < top, "flow {} reached core link {} from queue {} (top queues: {top})", r.flow.0, r.port.0, r.queue_in);
    }
    assert!(on.proto.stats.pruned > 0);
    // Without pruning, flows low at their endpoints do reach the core, and
    // the core-level switches process more messages.
    let off = pruning_run(false);
    assert!(off.proto.stats.switch_requests.iter().any(|r| off.proto.level[r.port.idx()] == core_level && r.queue_in >= top));
    assert_eq!(off.proto.stats.pruned, 0);
    let net = build(&tree(2).topology);
    let core = NodeId(net.n_hosts); // the root, built first
    let aggs: Vec<NodeId> = (0..net.nodes.len() as u32).map(NodeId).filter(|n| net.nodes[n.idx()].name.starts_with("agg")).collect();
    let core_msgs = |sim: &Simulation<Pase>| sim.proto.stats.processed_at[core.idx()] + aggs.iter().map(|a| sim.proto.stats.processed_at[a.idx()]).sum::<u64>();
    let (m_on, m_off) = (core_msgs(&on), core_msgs(&off));
    assert!(m_on < m_off, "messages at the core-level arbitrators: {m_on} with pruning, {m_off} without");
}

#[test]
fn delegated_children_never_hand_out_more_than_their_parent_allows() {
    let mut s = tree(4);
    s.workload.flows = 400;
    s.workload.load = 0.3;
    s.params.pase.delegation = true;
    s.params.pase.early_pruning = false;
    let mut sim = pase_sim(&s);
    let (queues, numbering) = (s.params.pase.queues as u8, s.params.pase.queue_numbering);
    let mut checks = 0;
    let mut t = SimTime::ZERO;
    loop {
        t += SimTime::from_us(100);
        let more = sim.run_until(t);
        let p = &sim.proto;
        for (&(parent, child), v) in &p.virtual_links {
            // Base rate 0: only what the rule hands out from the capacity.
            let granted: f64 = v.arb.decisions(0.0, queues, numbering).iter().map(|d| d.1.rate_bps).sum();
            assert!(granted <= v.arb.capacity * (1.0 + 1e-9), "child {} of link {}: {granted} bps granted from {}", child.0, parent.0, v.arb.capacity);
            assert!(v.arb.capacity <= p.arbs[parent.idx()].capacity * (1.0 + 1e-9));
            checks += !v.arb.is_empty() as u32;
        }
        for (parent, kids) in p.children.iter().enumerate() {
            let parent = PortId(parent as u32);
            let c = p.arbs[parent.idx()].capacity;
            let shares: f64 = kids.iter().map(|k| p.parent_share.get(&(parent, *k)).copied().unwrap_or_else(|| p.initial_share(parent))).sum();
            assert!(shares <= c * (1.0 + 1e-6), "link {} hands out {shares} of {c}", parent.0);
            // What a child was told it may hand out: its share, or what its
            // siblings' reported demands leave of the link.
            let demand = |k: &PortId| p.parent_demand.get(&(parent, *k)).copied().unwrap_or(0.0);
            let total: f64 = kids.iter().map(demand).sum();
            for k in kids {
                let Some(&told) = p.parent_capacity.get(&(parent, *k)) else { continue };
                let share = p.parent_share[&(parent, *k)];
                let spare = c - (total - demand(k));
                assert!(told <= share.max(spare) * (1.0 + 1e-6), "link {} told child {} {told}: share {share}, spare {spare}", parent.0, k.0);
                assert!(demand(k) <= p.arbs[k.idx()].capacity, "a child reports at most its own link");
            }
        }
        if !more {
            break;
        }
    }
    assert!(checks > 100, "the checks saw busy virtual links ({checks})");
    let st = &sim.proto.stats;
    assert!(st.switch_requests.is_empty(), "every switch-level link is delegated: no request reaches a switch ({} did)", st.switch_requests.len());
    assert!(st.delegation_reports > 0 && st.delegation_updates > 0, "reports {} updates {}", st.delegation_reports, st.delegation_updates);
    // Each virtual link sits one level below its parent.
    for (parent, child) in sim.proto.virtual_links.keys() {
        assert_eq!(sim.proto.level[child.idx()] + 1, sim.proto.level[parent.idx()]);
    }
}

/// The rate the arbitrator of ToR 0's uplink, delegated to host 2, gives
/// host 2's first flow on the left-right tree while hosts 0 and 1 (also
/// under ToR 0) send long flows to the right half, once ToR 0's uplink
/// has re-apportioned its capacity among its ten hosts.
fn first_rate_at_an_idle_child(capacity: PaseDelegatedCapacity) -> f64 {
    let mut s = load("pase-left-right");
    s.params.pase.delegated_capacity = capacity;
    s.workload.background = vec![BackgroundFlow { src: 0, dst: 20, bytes: 1_000_000_000 }, BackgroundFlow { src: 1, dst: 21, bytes: 1_000_000_000 }];
    s.workload.matrix = MatrixSpec::ManyToOne { receiver: Some(22), senders: Some(vec![2]) };
    s.workload.flows = 1;
    s.workload.load = 0.1; // one flow, tens of milliseconds in
    let net = build(&s.topology);
    let tor_up = net.path(NodeId(2), NodeId(22))[1];
    let mut sim = pase_sim(&s);
    sim.trace.enabled = true;
    let mut flow = None;
    while sim.run_until(sim.now() + SimTime::from_us(100)) {
        for e in sim.trace.drain() {
            match e.kind {
                TraceKind::FlowStart { flow: f } if e.t_ps > 0 => {
                    // Long after ToR 0's uplink re-apportioned (every 4 base
                    // RTTs, about 0.6 ms) for hosts 0 and 1.
                    assert!(e.t_ps > SimTime::from_ms(2).ps(), "the flow arrives at {} ps, before the shares settle", e.t_ps);
                    flow = Some(f);
                }
                TraceKind::Decision { flow: f, port: Some(port), what: events::REQUEST, rate_bps, .. } if Some(f) == flow && port == tor_up => return rate_bps,
                _ => {}
            }
        }
    }
    panic!("host 2's flow was never decided at ToR 0's uplink");
}

#[test]
fn a_new_flow_at_an_idle_child_gets_its_line_rate_while_the_parent_has_room() {
    // ToR 0's uplink (10 Gbps) has re-apportioned: hosts 0 and 1 (1 Gbps
    // demand each) hold 0.5 Gbps of the reserve plus 2.5 Gbps by demand
    // each, every idle host 0.5 Gbps, while 8 Gbps are unclaimed.
    let borrowing = first_rate_at_an_idle_child(PaseDelegatedCapacity::ShareOrSpare);
    let share_only = first_rate_at_an_idle_child(PaseDelegatedCapacity::Share);
    println!("host 2's first rate at ToR 0's uplink: {borrowing} bps with share_or_spare, {share_only} bps with share");
    assert!((borrowing - 1e9).abs() < 1.0, "with share_or_spare the new flow gets its line rate, got {borrowing} bps");
    assert!(share_only < 0.99e9, "with the share alone it is held below its line rate ({share_only} bps)");
}

/// Per inter-rack flow of a left-right run with `await_arbitration`: the
/// time from its arrival to its chain's first answer, and the data packets
/// its source sent meanwhile beyond one per base RTT of waiting.
fn arbitration_waits(await_arbitration: bool, optimized: bool) -> Vec<(SimTime, i64)> {
    let mut s = load("pase-left-right");
    s.workload.flows = 300;
    s.workload.load = 0.3;
    s.params.pase.await_arbitration = await_arbitration;
    s.params.pase.early_pruning = optimized;
    s.params.pase.delegation = optimized;
    let net = build(&s.topology);
    let mut sim = pase_sim(&s);
    sim.trace.enabled = true;
    // Per flow: arrival, base RTT, packets sent from its NIC, the answer.
    let mut flows: std::collections::BTreeMap<FlowId, (u64, u64, i64, Option<u64>)> = Default::default();
    while sim.run_until(sim.now() + SimTime::from_us(50)) {
        for e in sim.trace.drain() {
            match e.kind {
                TraceKind::FlowStart { flow } => {
                    let rtt = (12_000.0 / sim.proto.base_rate(flow) * 1e12) as u64;
                    flows.insert(flow, (e.t_ps, rtt, 0, None));
                }
                TraceKind::Dequeue { port, flow, kind: dcsim_core::packet::PacketKind::Data, .. } => {
                    if let Some(f) = flows.get_mut(&flow) {
                        if f.3.is_none() && port == net.nic(NodeId(sim.records[flow.idx()].src)) {
                            f.2 += 1;
                        }
                    }
                }
                TraceKind::Decision { flow, what: events::DECISION, .. } => {
                    let f = flows.get_mut(&flow).unwrap();
                    f.3 = f.3.or(Some(e.t_ps));
                }
                _ => {}
            }
        }
    }
    flows
        .values()
        .map(|&(t0, rtt, sent, answer)| {
            let wait = answer.expect("every flow gets an answer") - t0;
            (SimTime::from_ps(wait), sent - 1 - (wait / rtt) as i64)
        })
        .collect()
}

#[test]
fn an_inter_rack_flow_awaits_its_arbitrators_and_the_optimizations_answer_sooner() {
    let mean_us = |w: &[(SimTime, i64)]| w.iter().map(|x| x.0.as_us_f64()).sum::<f64>() / w.len() as f64;
    let on = arbitration_waits(true, true);
    let off = arbitration_waits(true, false);
    let free = arbitration_waits(false, true);
    let worst = |w: &[(SimTime, i64)]| w.iter().map(|x| x.1).max().unwrap();
    println!("mean wait for the answer: {:.1} us with the optimizations, {:.1} us without; packets beyond one per base RTT while waiting: at most {}, {} (not awaiting: {})", mean_us(&on), mean_us(&off), worst(&on), worst(&off), worst(&free));
    // Waiting: one packet per base RTT (the base rate) until the answer.
    assert!(worst(&on) <= 0 && worst(&off) <= 0, "a waiting flow sent beyond the base rate");
    // Not waiting, a flow sends its source's window at once.
    assert!(worst(&free) > 2, "without await_arbitration the first window goes out before the answer");
    // Pruning answers from lower stops, delegation takes the
    // aggregation-core links at the ToRs and aggregation switches.
    assert!(mean_us(&on) < mean_us(&off), "the answer comes sooner with the optimizations");
}

#[test]
fn intra_rack_flows_never_await_arbitration() {
    // On the all-to-all racks every flow's arbitration ends at its
    // endpoints: await_arbitration changes nothing.
    let mut s = load("pase-all-to-all");
    s.workload.flows = 200;
    let a = run_ok(&s, RunOptions::default());
    s.params.pase.await_arbitration = true;
    let b = run_ok(&s, RunOptions::default());
    assert_eq!(a.records, b.records);
}

/// What a flow kept in the lowest queue does while a top-queue flow runs:
/// one rack of 3 hosts, 2 queues (the lowest is 1); two long flows from
/// host 0 to host 1 start at time zero: the 1 MB one is in the top queue at
/// line rate, the 2 MB one in the lowest (ADH = C), where its packets wait
/// behind the first flow's far longer than a timeout.
struct LowestQueueRun {
    /// Times of the low flow's probes.
    probes: Vec<u64>,
    /// Its queues while the top flow runs.
    low_decisions: Vec<u8>,
    /// When the top flow finished.
    high_done: u64,
    /// Its timeouts that retransmitted data.
    timeouts: u32,
    /// Its probe interval, ps.
    interval: u64,
}

fn lowest_queue_run(probing: bool) -> LowestQueueRun {
    let mut s = load("pase-testbed");
    s.topology = dcsim_core::net::topology::TopologySpec::SingleRack { hosts: 3, link_gbps: 1.0, propagation_ns: 62_500.0, switch_delay_ns: 0.0 };
    s.params.pase.queues = 2;
    s.params.pase.probing = probing;
    // A timeout shorter than the round trip: a window sender would time out
    // on every packet that waits; in the lowest queue it only probes.
    s.params.pase.min_rto_us = 100.0;
    s.workload.load = 0.001; // the workload's one flow arrives long after
    s.workload.flows = 1;
    s.workload.matrix = MatrixSpec::IntraRack; // the testbed's receiver is not on this rack
    s.workload.background = vec![BackgroundFlow { src: 0, dst: 1, bytes: 1_000_000 }, BackgroundFlow { src: 0, dst: 1, bytes: 2_000_000 }];
    let mut sim = pase_sim(&s);
    sim.trace.enabled = true;
    let (low, high) = (FlowId(1), FlowId(0));
    let mut probes: Vec<u64> = Vec::new();
    let mut low_decisions: Vec<u8> = Vec::new();
    let mut high_done = None;
    let mut timeouts = 0;
    let mut interval = None;
    while sim.run_until(sim.now() + SimTime::from_us(200)) && sim.now() < SimTime::from_ms(40) {
        for e in sim.trace.drain() {
            match e.kind {
                TraceKind::Control { flow, what: PASE_PROBE } if flow == low => probes.push(e.t_ps),
                TraceKind::Decision { flow, what: events::DECISION, queue: Some(queue), .. } if flow == low && high_done.is_none() => low_decisions.push(queue),
                TraceKind::FlowFinish { flow } if flow == high => high_done = Some(e.t_ps),
                TraceKind::Timeout { flow, .. } if flow == low => timeouts += 1,
                _ => {}
            }
        }
        // A finished flow's sender is retired (forgotten): read it while it runs.
        interval = interval.or_else(|| sim.proto.win.senders.get(low.idx()).and_then(|s| s.cc.pase()).map(|h| h.probe_interval().ps()));
        if sim.proto.win.sender_done(low) {
            break;
        }
    }
    assert!(sim.proto.win.sender_done(low), "the low flow finishes once promoted");
    LowestQueueRun {
        probes,
        low_decisions,
        high_done: high_done.expect("the top-queue flow finishes"),
        timeouts,
        interval: interval.expect("the low flow ran"),
    }
}

#[test]
fn a_flow_in_the_lowest_queue_probes_once_per_rtt_and_never_retransmits() {
    let r = lowest_queue_run(true);
    assert!(
        !r.low_decisions.is_empty() && r.low_decisions.iter().all(|&q| q == 1),
        "the 2 MB flow stays in the lowest queue while the 1 MB one runs: {:?}",
        r.low_decisions
    );
    let before: Vec<u64> = r.probes.iter().copied().filter(|&t| t < r.high_done).collect();
    // About 8 ms in the lowest queue: a probe whenever a timeout fires (the
    // 100 us timeout, stretched to one probe interval after progress),
    // never two within one probe interval (one base RTT). (The top flow's
    // window is just under a BDP, so the low flow's packet mostly slips
    // through within a round trip: a few probes, measured 4.)
    assert!(before.len() >= 3, "{} probes while waiting", before.len());
    for w in r.probes.windows(2) {
        assert!(w[1] - w[0] >= r.interval, "probes {} ps apart (interval {} ps)", w[1] - w[0], r.interval);
    }
    // A timeout that retransmits data is traced as a Timeout; probes are not.
    assert_eq!(r.timeouts, 0, "no data retransmitted on a timeout");
}

#[test]
fn without_probing_the_lowest_queue_retransmits_full_packets() {
    // PASE 4.3.2 compares probing with its absence: a flow in the lowest
    // queue then times out and retransmits data, and sends no probe.
    let r = lowest_queue_run(false);
    assert!(r.low_decisions.iter().all(|&q| q == 1), "{:?}", r.low_decisions);
    assert!(r.probes.is_empty(), "{} probes with probing off", r.probes.len());
    assert!(r.timeouts >= 3, "{} data retransmissions on timeouts while waiting", r.timeouts);
}

#[test]
fn many_to_one_sends_every_flow_to_the_receiver_at_the_load_of_its_link() {
    // The testbed's matrix (receiver 9, senders 0 to 8), and the defaults
    // (receiver: the last host, senders: every other host) on 6 hosts with
    // the receiver moved to host 2.
    let mut testbed = load("pase-testbed");
    testbed.workload.matrix = MatrixSpec::ManyToOne { receiver: Some(9), senders: Some((0..9).collect()) };
    let mut small = load("pase-testbed");
    small.topology = dcsim_core::net::topology::TopologySpec::SingleRack { hosts: 6, link_gbps: 1.0, propagation_ns: 62_500.0, switch_delay_ns: 0.0 };
    small.workload.matrix = MatrixSpec::ManyToOne { receiver: Some(2), senders: None };
    small.workload.background.clear();
    let cases = [(testbed, 9, (0..9).collect::<Vec<u32>>()), (small, 2, vec![0, 1, 3, 4, 5])];
    // Offered bytes per second over the arrivals: n sizes over n
    // exponential gaps, so relative std about sqrt((1 + CV^2) / n) with CV
    // the sizes' (uniform [100 KB, 500 KB]: 400 / sqrt(12) / 300 = 0.385);
    // 20,000 flows: 0.76%, tolerance 3 sigma.
    let n = 20_000;
    let cv = 400.0 / 12f64.sqrt() / 300.0;
    let tol = 3.0 * ((1.0 + cv * cv) / n as f64).sqrt();
    for (mut s, receiver, senders) in cases {
        // The load only scales the gaps: the seed varies the draws.
        for (load_, seed) in [(0.2, 1), (0.8, 2), (0.5, 3)] {
            s.workload.load = load_;
            s.seed = seed;
            s.workload.flows = n;
            s.validate().unwrap();
            let net = build(&s.topology);
            let mut gen = FlowGenerator::new(&s.workload, &net, s.switching, s.seed);
            let (mut bytes, mut last, mut count) = (0u64, SimTime::ZERO, 0);
            let mut per_sender = vec![0u32; net.n_hosts as usize];
            while let Some(f) = gen.next_flow(&net) {
                if f.background {
                    continue;
                }
                assert_eq!(f.dst, NodeId(receiver), "flow {:?}", f.id);
                assert!(senders.contains(&f.src.0), "flow {:?} from host {}", f.id, f.src.0);
                per_sender[f.src.idx()] += 1;
                bytes += f.size;
                last = f.arrival;
                count += 1;
            }
            assert_eq!(count, n);
            // Every sender is drawn, about equally (each 1 / senders).
            for &h in &senders {
                let share = per_sender[h as usize] as f64 / n as f64;
                assert!((share * senders.len() as f64 - 1.0).abs() < 0.15, "host {h} sends {share:.3} of the flows");
            }
            let offered = bytes as f64 / (last.ps() as f64 * 1e-12);
            let want = load_ * net.host_rate.bps() as f64 / 8.0;
            let err = offered / want - 1.0;
            println!(
                "{} hosts, load {load_}, seed {seed}: {offered:.0} B/s offered on the receiver's link, want {want:.0} ({:+.2}%, tolerance {:.2}%)",
                net.n_hosts,
                100.0 * err,
                100.0 * tol
            );
            assert!(err.abs() <= tol, "load {load_}: offered {offered:.0} B/s, want {want:.0} B/s (relative error {err:.4}, tolerance {tol:.4})");
        }
    }
}

#[test]
fn many_to_one_bad_hosts_name_the_field() {
    let bad = |m: &str| format!(r#"{{"name":"x","topology":{{"kind":"single_rack","hosts":10}},"workload":{{"matrix":{{"kind":"many_to_one",{m}}}}}}}"#);
    let e = Scenario::from_json(&bad(r#""receiver":12"#)).unwrap_err();
    assert!(e.contains("workload.matrix.receiver: host 12 does not exist (hosts: 10)"), "{e}");
    assert_rejected_naming([
        (bad(r#""senders":[]"#), "workload.matrix.senders: must list at least one host"),
        (bad(r#""senders":[0, 10]"#), "workload.matrix.senders[1]: host 10 does not exist"),
        (bad(r#""receiver":3,"senders":[1, 3]"#), "workload.matrix.senders[1]: host 3 is the receiver"),
        (bad(r#""senders":[1, 2, 1]"#), "workload.matrix.senders[2]: host 1 is listed twice"),
        (bad(r#""senders":[0],"weights":[1]"#), "weights"),
    ]);
}

/// Arbitration messages processed on the left-right tree (1,500 flows,
/// seed 1).
fn left_right_messages(load_: f64, optimized: bool) -> u64 {
    let mut s = load("pase-left-right");
    s.workload.load = load_;
    s.workload.flows = 1500;
    s.params.pase.early_pruning = optimized;
    s.params.pase.delegation = optimized;
    let mut sim = pase_sim(&s);
    sim.proto.log_switch_requests = false;
    sim.run();
    sim.proto.stats.messages()
}

/// Loads of the left-right tree (its aggregation-core link carries twice
/// the host links' load: 0.45 is 90%).
const LR_LOADS: [f64; 4] = [0.2, 0.3, 0.4, 0.45];
/// Loads of the all-to-all racks.
const A2A_LOADS: [f64; 4] = [0.3, 0.5, 0.7, 0.9];
/// Seeds of every comparison (the mean is compared).
const SEEDS: [u64; 2] = [1, 2];

#[test]
fn optimizations_cut_arbitration_messages() {
    // Measured (1,500 flows, seed 1): 158,507 against 185,627 messages at
    // load 0.2 (-15%), 168,559 / 229,225 at 0.3 (-26%), 185,773 / 314,051
    // at 0.4 (-41%), 225,973 / 551,804 at 0.45 (-59%).
    let r = par_map(&LR_LOADS, |&l| (left_right_messages(l, true), left_right_messages(l, false)));
    println!("left-right, messages optimized vs not, loads {LR_LOADS:?}: {r:?}");
    for (l, (m_on, m_off)) in LR_LOADS.iter().zip(&r) {
        assert!(m_on < m_off, "load {l}: {m_on} messages with the optimizations, {m_off} without");
    }
    // At the highest load the paper saves up to half; at least a quarter here.
    let (m_on, m_off) = r[r.len() - 1];
    assert!((m_on as f64) < 0.75 * m_off as f64, "high load: {m_on} against {m_off}");
}

/// `base` as `variant` says: words joined by `+`, each a protocol's name
/// or a change to PASE's parameters.
fn variant(mut s: Scenario, variant: &str) -> Scenario {
    let p = &mut s.params.pase;
    for word in variant.split('+') {
        match word {
            "pase_dctcp" => {
                s.protocol = ProtocolName::Pase;
                p.rate_control = PaseRateControl::Dctcp;
            }
            "local_only" => p.local_only = true,
            "optimizations_off" => (p.early_pruning, p.delegation) = (false, false),
            "await" => p.await_arbitration = true,
            "delegated_share" => p.delegated_capacity = PaseDelegatedCapacity::Share,
            "queues_4" => p.queues = 4,
            "queues_1" => (p.queues, p.pruning_queues) = (1, 1),
            "edf" => p.criticality = PaseCriticality::Edf,
            // The deadline scenario's minimum RTO for the window transports.
            "rto_as_d2tcp" => p.min_rto_us = s.params.d2tcp.dctcp_part().min_rto_us,
            name => s.protocol = ProtocolName::parse(name).unwrap(),
        }
    }
    s
}

/// AFCT (us) and deadlines met of a run, each the mean over [`SEEDS`].
#[derive(Clone, Copy, Debug)]
struct Point {
    afct_us: f64,
    deadlines_met: f64,
}

type Cache = Mutex<BTreeMap<(String, String, String), Arc<OnceLock<Vec<Point>>>>>;
static RUNS: OnceLock<Cache> = OnceLock::new();

/// `variant` of `scenarios/<name>.json` at each of `loads` (1,500 flows),
/// computed once per test binary (the comparisons share their PASE runs).
fn points(name: &str, v: &str, loads: &[f64]) -> Vec<Point> {
    let key = (name.to_string(), v.to_string(), format!("{loads:?}"));
    let cell = RUNS.get_or_init(Default::default).lock().unwrap().entry(key).or_default().clone();
    cell.get_or_init(|| {
        let jobs: Vec<(f64, u64)> = loads.iter().flat_map(|&l| SEEDS.map(|seed| (l, seed))).collect();
        let runs = par_map(&jobs, |&(l, seed)| {
            let mut s = variant(load(name), v);
            s.workload.load = l;
            s.workload.flows = 1500;
            s.seed = seed;
            let o = run_ok(&s, RunOptions::default()).summary;
            Point { afct_us: o.all.afct_us, deadlines_met: o.deadlines_met.unwrap_or(f64::NAN) }
        });
        let n = SEEDS.len() as f64;
        runs.chunks(SEEDS.len())
            .map(|c| Point { afct_us: c.iter().map(|p| p.afct_us).sum::<f64>() / n, deadlines_met: c.iter().map(|p| p.deadlines_met).sum::<f64>() / n })
            .collect()
    })
    .clone()
}

/// AFCT of variant `a` over variant `b` at each load, printed.
fn afct_ratios(name: &str, a: &str, b: &str, loads: &[f64]) -> Vec<f64> {
    let (pa, pb) = (points(name, a, loads), points(name, b, loads));
    let r: Vec<f64> = pa.iter().zip(&pb).map(|(x, y)| x.afct_us / y.afct_us).collect();
    let us = |p: &[Point]| p.iter().map(|x| format!("{:.0}", x.afct_us)).collect::<Vec<_>>().join(", ");
    println!(
        "{name}, loads {loads:?}: AFCT {a} {} us, {b} {} us, ratio {}",
        us(&pa),
        us(&pb),
        r.iter().map(|x| format!("{x:.3}")).collect::<Vec<_>>().join(", ")
    );
    r
}

/// PASE's testbed claim (section 5): with nine clients sending to one
/// server, PASE's AFCT is about 50% to 60% below DCTCP's. Loads 0.1 to 0.9
/// (the gallery's range for this figure; the paper's exact loads are not
/// at hand here), the paper's 1,000 flows, seeds 1 and 2
/// (about 20 runs of a second or two); the band is widened to 45% to 65%
/// for reading "about" off the paper and for seed noise (the three seeds'
/// reductions differ by up to 5 points at load 0.9).
#[test]
#[ignore = "not reproduced: PASE gains more than the paper says: its AFCT is 0.243, 0.283, 0.303, 0.322, 0.304 of DCTCP's at loads 0.1, 0.3, 0.5, 0.7, 0.9 (1,000 flows, seeds 1 and 2), 68% to 76% lower; see the comment"]
fn testbed_pase_afct_is_50_to_60_percent_below_dctcp() {
    // The setting is the paper's (10 hosts at 1 Gbps, 250 us round trip,
    // 100-packet queues, K = 20 packets, nine clients to one server, load on
    // the server's link, flows uniform in [100 KB, 500 KB], 1,000 flows, one
    // long-lived flow from a client to the server). DCTCP loses more here
    // than on the paper's hosts: every flow shares the server's link with
    // the long-lived flow, and a new DCTCP flow (alpha starting at 1, as in
    // RFC 8257 and Linux) halves its window at the first mark and then grows
    // one packet per round trip, so at load 0.1 DCTCP's mean slowdown is
    // 5.3 while PASE keeps the long flow in its lowest queue (1.29). Without
    // the long-lived flow PASE is only 4% below DCTCP at load 0.1; with
    // DCTCP's alpha starting at 0 (not adopted: not a paper value) 49% and
    // 52% below at loads 0.1 and 0.5. What the paper's DCTCP did on its
    // hosts is not known here.
    let loads = [0.1, 0.3, 0.5, 0.7, 0.9];
    let ratios = par_map(&loads, |&l| {
        let mut s = load("pase-testbed");
        s.workload.load = l;
        let afct = |p| SEEDS.iter().map(|&seed| run_ok(&Scenario { seed, protocol: p, ..s.clone() }, RunOptions::default()).summary.all.afct_us).sum::<f64>();
        afct(ProtocolName::Pase) / afct(ProtocolName::Dctcp)
    });
    println!("PASE / DCTCP AFCT by load {loads:?}: {ratios:?}");
    for (l, r) in loads.iter().zip(&ratios) {
        assert!((0.35..=0.55).contains(r), "load {l}: PASE AFCT is {r:.3} of DCTCP's (want 0.35 to 0.55: 45% to 65% lower)");
    }
}

/// The number of queues (section 5; the seed's figure is the left-right
/// inter-rack scenario at high load): 4 queues within 10% of 8 in AFCT.
/// Measured (1,500 flows, seeds 1 and 2): 6,272 against 6,202 us at load
/// 0.4 (+1.1%), 8,978 against 9,349 us at 0.45 (-4.0%).
#[test]
fn four_queues_are_within_10_percent_of_eight_at_high_load() {
    let r = afct_ratios("pase-left-right", "pase+queues_4", "pase", &LR_LOADS[2..]);
    for (l, x) in LR_LOADS[2..].iter().zip(&r) {
        assert!((x - 1.0).abs() <= 0.10, "load {l}: 4 queues' AFCT is {x:.3} of 8 queues'");
    }
}

/// One queue (arbitration and rate control without in-network
/// prioritization) is clearly worse at high load. Measured (1,500 flows,
/// seeds 1 and 2): 20,697 against 6,202 us at load 0.4, 30,448 against
/// 9,349 us at 0.45 (3.3 times); asked: at least 1.5 times.
#[test]
fn one_queue_is_clearly_worse_at_high_load() {
    let r = afct_ratios("pase-left-right", "pase+queues_1", "pase", &LR_LOADS[2..]);
    for (l, x) in LR_LOADS[2..].iter().zip(&r) {
        assert!(*x >= 1.5, "load {l}: 1 queue's AFCT is only {x:.3} of 8 queues'");
    }
}

/// Delegation no longer holds a new flow at an idle child below its line
/// rate (`delegated_capacity: share_or_spare`), so the optimizations cost
/// no AFCT at low load: measured (1,500 flows, seeds 1 and 2) 3,587 against
/// 3,592 us at load 0.2 (-0.2%), 4,521 against 4,457 us at 0.3 (+1.4%);
/// asked: at most 5% worse. With the share alone (`share`, the former
/// rule) they were 10.9% and 10.3% worse (seed 1).
#[test]
fn optimizations_cost_no_afct_at_low_load() {
    let r = afct_ratios("pase-left-right", "pase", "pase+optimizations_off", &LR_LOADS);
    for (l, x) in LR_LOADS[..2].iter().zip(&r) {
        assert!(*x <= 1.05, "load {l}: AFCT with the optimizations is {x:.3} of without");
    }
}

/// The paper: early pruning and delegation improve AFCT by 4% to 10%
/// through a shorter arbitration delay (section 5, "arbitration
/// optimizations"). Asked: the optimizations' AFCT 0.90 to 0.96 of
/// without at every load, with flows starting at once and with flows
/// awaiting their arbitrators' answer.
#[test]
#[ignore = "not reproduced: optimizations on / off AFCT 0.998, 1.014, 1.027, 0.945 at loads 0.2, 0.3, 0.4, 0.45 (1,500 flows, seeds 1 and 2); with await_arbitration 0.997, 1.018, 1.036, 1.005: the answer comes 13% sooner (185 against 213 us at load 0.3), a few percent of a 1 to 4 ms flow; see the comment"]
fn optimizations_improve_afct_by_4_to_10_percent() {
    // The answer does come sooner with the optimizations (see
    // an_inter_rack_flow_awaits_its_arbitrators_and_the_optimizations_answer_sooner:
    // 185 against 213 us at load 0.3, the base RTT being 150 us), but by
    // little: without them the request visits the source, the destination,
    // the left ToR, the right aggregation switch, the left one and the core
    // (20 hops); with delegation the aggregation-core links are decided at
    // the left ToR and the right aggregation switch (18 hops), and pruning
    // answers early only for flows already low at their endpoints, which
    // wait regardless. 28 us is under 2% of a 1 to 4 ms flow; what is left
    // is delegation's coarser view (shares instead of the link's flow
    // list), a few percent either way.
    let r = ["pase", "pase+await"].map(|v| (v, afct_ratios("pase-left-right", v, &format!("{v}+optimizations_off"), &LR_LOADS)));
    for (v, r) in r {
        for (l, x) in LR_LOADS.iter().zip(&r) {
            assert!((0.90..=0.96).contains(x), "{v}, load {l}: AFCT with the optimizations is {x:.3} of without");
        }
    }
}

/// The paper: for inter-rack traffic, arbitration at every link of the
/// path (end to end) beats arbitration at the endpoints only (local-only),
/// which cannot see the contention on the aggregation-core links.
#[test]
#[ignore = "not reproduced: end-to-end / local-only AFCT 1.009, 1.044, 1.074, 1.116 at loads 0.2, 0.3, 0.4, 0.45 (1,500 flows, seeds 1 and 2); with await_arbitration 1.053, 1.103, 1.132, 1.164: the switch arbitrators' decisions cost more than they gain here, and waiting for them only adds their latency; see the comment"]
fn end_to_end_arbitration_beats_local_only_for_inter_rack_traffic() {
    // Waiting for the arbitrators (await_arbitration) only adds the
    // arbitration latency to every inter-rack flow. What costs end-to-end
    // arbitration its advantage: an aggregation-core arbitrator counts every
    // flow at its full demand although many are held back at their
    // endpoints (counting the rate the lower arbitrators gave it instead
    // gained 2% to 6% and did not close the gap: 9,725 against 9,128 us at
    // load 0.45, seed 1), and when a flow ends its capacity is handed on
    // only after the next round of requests (one update period and a
    // chain of about 20 hops, about 2.7 base RTTs), while the flows below
    // it restart from one packet in an intermediate queue. Local-only
    // flows share the aggregation-core links through ECN instead. The
    // drops at the aggregation-core links are similar (7,519 against 6,373
    // packets at load 0.45, seed 1).
    let r = ["pase", "pase+await"].map(|v| (v, afct_ratios("pase-left-right", v, "pase+local_only", &LR_LOADS)));
    for (v, r) in r {
        for (l, x) in LR_LOADS.iter().zip(&r) {
            assert!(*x <= 1.0, "{v}, load {l}: end-to-end arbitration's AFCT is {x:.3} of local-only's");
        }
    }
}

/// The paper: PASE's performance is comparable to, or better than,
/// pFabric's (abstract; section 5). Read as: PASE's AFCT at most 10% above
/// pFabric's at every load. Measured (1,500 flows, seeds 1 and 2): on the
/// left-right tree 1.028, 1.046, 0.969, 0.817 at loads 0.2 to 0.45; on the
/// all-to-all racks 1.039, 0.988, 1.011 at loads 0.5 to 0.9 (0.3: see the
/// next test).
#[test]
fn pase_is_comparable_to_or_better_than_pfabric() {
    for (name, loads) in [("pase-left-right", &LR_LOADS[..]), ("pase-all-to-all", &A2A_LOADS[1..])] {
        let r = afct_ratios(name, "pase", "pfabric", loads);
        for (l, x) in loads.iter().zip(&r) {
            assert!(*x <= 1.10, "{name}, load {l}: PASE's AFCT is {x:.3} of pFabric's");
        }
    }
}

#[test]
#[ignore = "at the tolerance's edge: PASE's AFCT is 1.097 of pFabric's at load 0.3 of the all-to-all racks (seeds 1 and 2: 1.091, 1.104; seed 3: 1.10), so the reading flips with the third digit; see the comment"]
fn pase_is_within_10_percent_of_pfabric_at_low_load_on_the_all_to_all_racks() {
    // A lone flow in PASE's top queue sends floor(rate x base RTT) packets
    // per base RTT (the window is whole packets, as in ns-2's TCP): on this
    // rack's 65 us round trip, 5 of 5.4, 93% of the line rate; pFabric
    // starts at its line rate. Rounding the window up instead (not adopted:
    // the paper's simulator rounds down) gives 1.02 at this load.
    let r = afct_ratios("pase-all-to-all", "pase", "pfabric", &A2A_LOADS);
    assert!(r[0] <= 1.10, "load 0.3: PASE's AFCT is {:.3} of pFabric's", r[0]);
}

/// The paper: PASE beats the deployment-friendly transports in their own
/// objective: AFCT against L2DCT (and D2TCP, which without deadlines is
/// DCTCP). Asked: the ordering beyond seed noise, lower by more than twice
/// the noise between seeds (about 1%) at every load. How much lower (the
/// paper's 40% to 60%) is the fidelity report's pase-vs-deployment-friendly,
/// which finds far less. On the all-to-all racks it holds: measured
/// (1,500 flows, seeds 1 and 2), PASE over L2DCT 0.857, 0.688, 0.574,
/// 0.544, over D2TCP 0.845, 0.691, 0.566, 0.526 at loads 0.3 to 0.9. On the
/// left-right tree it does not (the next test).
#[test]
fn pase_has_lower_afct_than_d2tcp_and_l2dct() {
    for other in ["l2dct", "d2tcp"] {
        let r = afct_ratios("pase-all-to-all", "pase", other, &A2A_LOADS);
        for (l, x) in A2A_LOADS.iter().zip(&r) {
            assert!(*x < 0.98, "pase-all-to-all, load {l}: PASE's AFCT is {x:.3} of {other}'s");
        }
    }
}

#[test]
#[ignore = "not reproduced on the left-right tree since fast retransmit goes out at once (RFC 5681/6675): PASE's AFCT is 0.957, 0.991, 1.011, 0.961 of L2DCT's at loads 0.2, 0.3, 0.4, 0.45 (1,500 flows, seeds 1 and 2); see the comment"]
fn pase_has_lower_afct_than_d2tcp_and_l2dct_on_the_left_right_tree() {
    // Before the fix (the retransmission waited for room in the window,
    // which counted the dropped packets), the baselines lost a window's
    // worth of time to timeouts the standard recovery does not have, and
    // PASE's AFCT was 0.953, 0.974, 0.967, 0.877 of L2DCT's here.
    for other in ["l2dct", "d2tcp"] {
        let r = afct_ratios("pase-left-right", "pase", other, &LR_LOADS);
        for (l, x) in LR_LOADS.iter().zip(&r) {
            assert!(*x < 0.98, "pase-left-right, load {l}: PASE's AFCT is {x:.3} of {other}'s");
        }
    }
}

/// Deadlines met on the deadline scenario (`d2tcp-deadlines.json`:
/// deadlines uniform in [5 ms, 25 ms]): PASE with EDF arbitrators (the
/// paper's deadline objective) and the file's minimum RTO, and D2TCP, at
/// `loads`.
fn deadlines_met(loads: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let met = |v| points("d2tcp-deadlines", v, loads).iter().map(|p| p.deadlines_met).collect::<Vec<_>>();
    let (pase, d2tcp) = (met("pase+edf+rto_as_d2tcp"), met("d2tcp"));
    println!("deadlines met at loads {loads:?}: PASE (EDF) {pase:.3?}, D2TCP {d2tcp:.3?}");
    (pase, d2tcp)
}

/// The paper: PASE meets more deadlines than D2TCP. Asked: at least 5
/// points more. Measured (1,500 flows, seeds 1 and 2): 0.979 against
/// 0.849 at load 0.3. At load 0.5 it does not hold (the next test).
#[test]
fn pase_meets_more_deadlines_than_d2tcp() {
    let (pase, d2tcp) = deadlines_met(&[0.3]);
    assert!(pase[0] >= d2tcp[0] + 0.05, "load 0.3: PASE meets {:.3}, D2TCP {:.3}", pase[0], d2tcp[0]);
}

#[test]
#[ignore = "not reproduced at load 0.5 since fast retransmit goes out at once (RFC 5681/6675): PASE (EDF) meets 0.714 of deadlines against D2TCP's 0.664 (1,500 flows, seeds 1 and 2), 5.0 points asked; see the comment"]
fn pase_meets_more_deadlines_than_d2tcp_at_load_0_5() {
    // Before the fix PASE met 0.773 and D2TCP 0.627 here: D2TCP lost more
    // to timeouts after a window's heavy losses than PASE did.
    let (pase, d2tcp) = deadlines_met(&[0.5]);
    assert!(pase[0] >= d2tcp[0] + 0.05, "load 0.5: PASE meets {:.3}, D2TCP {:.3}", pase[0], d2tcp[0]);
}

#[test]
#[ignore = "not reproduced at high load: PASE (EDF) meets 0.137 and 0.059 of deadlines against D2TCP's 0.326 and 0.095 at loads 0.7 and 0.9 (1,500 flows, seeds 1 and 2); see the comment"]
fn pase_meets_more_deadlines_than_d2tcp_at_high_load() {
    // EDF without a way to give up on a late flow (the paper's arbitrators
    // have none that the seed names) serves flows that have already missed
    // their deadline ahead of every later one: past saturation the misses
    // cascade. PASE with SRPT arbitrators met 0.530 and 0.437 here (measured
    // before fast retransmit went out at once).
    let (pase, d2tcp) = deadlines_met(&[0.7, 0.9]);
    for i in 0..2 {
        assert!(pase[i] >= d2tcp[i] + 0.05, "PASE meets {:.3}, D2TCP {:.3}", pase[i], d2tcp[i]);
    }
}

/// The paper: PASE-DCTCP (arbitrated queues, plain DCTCP rate control) is
/// worse than PASE, whose end hosts start at the reference rate. Asked: at
/// least 2% higher AFCT at every load (seed noise is about 1%). Measured
/// (1,500 flows, seeds 1 and 2): on the left-right tree 1.043, 1.042,
/// 1.131, 1.440; on the all-to-all racks 1.052, 1.186, 1.264, 1.227.
#[test]
fn pase_dctcp_is_worse_than_pase() {
    for (name, loads) in [("pase-left-right", &LR_LOADS[..]), ("pase-all-to-all", &A2A_LOADS[..])] {
        let r = afct_ratios(name, "pase_dctcp", "pase", loads);
        for (l, x) in loads.iter().zip(&r) {
            assert!(*x >= 1.02, "{name}, load {l}: PASE-DCTCP's AFCT is only {x:.3} of PASE's");
        }
    }
}

#[test]
fn bad_parameters_name_the_field() {
    assert_rejected_naming([
        (r#"{"name":"x","params":{"pase":{"queues":9}}}"#, "params.pase.queues"),
        (r#"{"name":"x","params":{"pase":{"queues":0}}}"#, "params.pase.queues"),
        (r#"{"name":"x","params":{"pase":{"queues":4,"pruning_queues":5}}}"#, "params.pase.pruning_queues"),
        (r#"{"name":"x","params":{"pase":{"update_interval_rtts":0}}}"#, "params.pase.update_interval_rtts"),
        (r#"{"name":"x","params":{"pase":{"delegation_reserve":1.5}}}"#, "params.pase.delegation_reserve"),
        (r#"{"name":"x","params":{"pase":{"expiry_updates":0.5}}}"#, "params.pase.expiry_updates"),
        (r#"{"name":"x","params":{"pase":{"g":0}}}"#, "params.pase.g"),
        (r#"{"name":"x","params":{"pase":{"arbitrator_service_us":-1}}}"#, "params.pase.arbitrator_service_us"),
    ]);
    assert_eq!(PaseParams::default().queues, 8);
}

#[test]
fn local_only_never_asks_a_switch() {
    let mut s = tree(2);
    s.workload.flows = 100;
    s.params.pase.local_only = true;
    s.params.pase.delegation = false;
    let mut sim = pase_sim(&s);
    sim.run();
    assert!(sim.proto.stats.switch_requests.is_empty());
    let n_hosts = build(&s.topology).n_hosts as usize;
    assert_eq!(sim.proto.stats.processed_at[n_hosts..].iter().sum::<u64>(), 0);
    assert_eq!(sim.records.iter().filter(|r| r.end.is_some()).count(), 100);
}

#[test]
fn pase_dctcp_keeps_the_arbitrated_queues() {
    // PASE-DCTCP: the data go in the queues arbitration gives (some below
    // the top one at this load), and every flow completes.
    let mut s = load("pase-testbed");
    s.workload.load = 0.7;
    s.workload.flows = 300;
    s.params.pase.rate_control = PaseRateControl::Dctcp;
    let mut sim = pase_sim(&s);
    sim.trace.enabled = true;
    let mut lower = 0u64;
    while sim.run_events(200_000) {
        for e in sim.trace.drain() {
            if let TraceKind::Enqueue { kind: dcsim_core::packet::PacketKind::Data, subqueue, .. } = e.kind {
                lower += (subqueue > 0) as u64;
            }
        }
    }
    assert!(lower > 1000, "{lower} data packets queued below the top queue");
    let done = sim.records.iter().filter(|r| r.end.is_some() && !r.background).count();
    assert_eq!(done, 300);
}

/// Measurement aid: AFCT and arbitration messages of PASE on
/// `PASE_SCENARIO` (default the left-right tree) for each variant of
/// `PASE_VARIANTS` (a JSON list of `params.pase` overrides), at
/// `PASE_LOADS`, `PASE_FLOWS` flows and `PASE_SEEDS`, one run at a time.
#[test]
#[ignore = "measurement aid, prints numbers"]
fn explore_variants() {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let base = load(&env("PASE_SCENARIO", "pase-left-right"));
    let variants: Vec<serde_json::Value> = serde_json::from_str(&env("PASE_VARIANTS", "[{}]")).unwrap();
    let list = |k: &str, d: &str| env(k, d).split(',').map(|x| x.parse::<f64>().unwrap()).collect::<Vec<_>>();
    for v in &variants {
        for &l in &list("PASE_LOADS", "0.2,0.45") {
            for &seed in &list("PASE_SEEDS", "1") {
                let mut s = base.clone();
                let mut p = serde_json::to_value(&s.params.pase).unwrap();
                for (k, x) in v.as_object().unwrap() {
                    p[k] = x.clone();
                }
                s.params.pase = serde_json::from_value(p).unwrap();
                s.workload.load = l;
                s.workload.flows = list("PASE_FLOWS", "1500")[0] as u64;
                s.seed = seed as u64;
                let mut sim = pase_sim(&s);
                sim.proto.log_switch_requests = false;
                sim.run();
                let done: Vec<_> = sim.records.iter().filter(|r| !r.background && r.end.is_some()).collect();
                let afct = done.iter().map(|r| (r.end.unwrap() - r.start).as_us_f64()).sum::<f64>() / done.len() as f64;
                let st = &sim.proto.stats;
                eprintln!(
                    "{v} load {l} seed {seed}: AFCT {afct:.0} us, messages {} (reports {}, updates {}, pruned {})",
                    st.messages(),
                    st.delegation_reports,
                    st.delegation_updates,
                    st.pruned
                );
            }
        }
    }
}

/// Mean arbitration delay (us: from a round's start at the source to its
/// answer there), mean wait of a served message behind earlier ones (us),
/// and messages served, on the left-right tree at `load_` (600 flows,
/// seed 1) with arbitrators taking `service_us` per message.
fn arbitration_delay(load_: f64, optimized: bool, service_us: f64) -> (f64, f64, u64) {
    let mut s = load("pase-left-right");
    s.workload.load = load_;
    s.workload.flows = 600;
    s.params.pase.early_pruning = optimized;
    s.params.pase.delegation = optimized;
    s.params.pase.arbitrator_service_us = service_us;
    let mut sim = pase_sim(&s);
    sim.proto.log_switch_requests = false;
    sim.run();
    let st = &sim.proto.stats;
    (st.mean_arbitration_delay_us().expect("rounds answered"), st.queued_ps as f64 / st.served.max(1) as f64 / 1e6, st.served)
}

#[test]
fn arbitrators_with_a_service_time_queue_messages_and_the_optimizations_cut_the_delay() {
    // PASE section 4.3.1 credits part of the optimizations' AFCT gain to
    // delegation, "which reduces the arbitration delays". With each
    // arbitrator a FIFO server taking 5 us per message, on the left-right
    // tree at load 0.45 (90% on the aggregation-core links), 600 flows:
    // measured mean arbitration delay (round start to answer) 189.4 us ->
    // 205.6 us with the optimizations (76,124 messages served, mean wait
    // behind earlier ones 1.20 us), 232.0 us -> 275.9 us without (132,959
    // served, wait 3.78 us). At load 0.2: 206.7 -> 223.2 and 229.2 ->
    // 256.6 us. (At 20 us per message the servers saturate: 845 us with,
    // 12,345 us without, at load 0.45.)
    let jobs = [(true, 0.0), (true, 5.0), (false, 0.0), (false, 5.0)];
    let out = par_map(&jobs, |&(opt, sv)| arbitration_delay(0.45, opt, sv));
    let [(on0, _, served_on0), (on5, wait_on, _), (off0, _, _), (off5, wait_off, _)] = out[..] else { unreachable!() };
    eprintln!("mean arbitration delay, service 0 / 5 us: optimized {on0:.1} / {on5:.1} us (wait {wait_on:.2} us), not {off0:.1} / {off5:.1} us (wait {wait_off:.2} us)");
    assert_eq!(served_on0, 0, "no service time: nothing queues");
    assert!(wait_on > 0.0 && wait_off > 0.0, "messages wait behind earlier ones");
    assert!(on5 > on0 && off5 > off0, "a service time delays the answers");
    assert!(off5 > on5, "without the optimizations the answers come later: {off5:.1} against {on5:.1} us");
    assert!(off5 - off0 > 2.0 * (on5 - on0), "the service time should cost the unoptimized arbitration more: +{:.1} against +{:.1} us", off5 - off0, on5 - on0);
    assert!(wait_off > wait_on, "more messages, longer queues: {wait_off:.2} against {wait_on:.2} us");
}
