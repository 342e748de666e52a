//! PASE (docs/protocols/pase.md; Munir et al., SIGCOMM 2014): its
//! mechanisms, each on a small setting. The paper's results (AFCT, queues,
//! optimizations, deadlines, against pFabric, DCTCP, D2TCP and L2DCT) are
//! in `pase_paper.rs`.
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
//! * the testbed's many-to-one matrix: every flow goes to the receiver from
//!   one of the senders, at the load asked of the receiver's link.

mod common;

use common::{assert_rejected_naming, load, pase_sim, run_ok};
use dcsim_core::ids::{FlowId, NodeId, PortId};
use dcsim_core::net::topology::build;
use dcsim_core::protocol::pase::events;
use dcsim_core::protocol::pase::events::PROBE as PASE_PROBE;
use dcsim_core::protocol::pase::params::{PaseDelegatedCapacity, PaseParams, PaseQueueNumbering, PaseRateControl};
use dcsim_core::protocol::pase::{arbitrate, Arbitrator, Decision, Pase};
use dcsim_core::sim::Simulation;
use dcsim_core::trace::TraceKind;
use dcsim_core::units::SimTime;
use dcsim_core::workload::{BackgroundFlow, FlowGenerator, MatrixSpec};
use dcsim_core::{RunOptions, Scenario};

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
        interval = interval.or_else(|| sim.proto.win.senders.get(low.idx()).and_then(|s| s.cc.extension()).map(|h| h.probe_interval().ps()));
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
