//! PASE (PROTOCOLS.md section 7; Munir et al., SIGCOMM 2014).
//!
//! Properties:
//! * the arbitration rule, on a list of flows over a path of links, gives
//!   exactly the queue and rate the rule says (section 3.1, Algorithm 1);
//! * early pruning: a flow already below the top queues at the endpoints
//!   or its rack never reaches the arbitrators of the links above;
//! * delegation: a child arbitrator never hands out more than the share
//!   its parent gave it, the shares never exceed the parent's link, and no
//!   request goes to a delegated link's switch;
//! * probing: a flow in the lowest queue sends header-only probes once per
//!   probe interval and retransmits no data on timeouts;
//! * the paper's results: on the left-right tree the optimizations (early
//!   pruning and delegation) cut arbitration messages, by at least a
//!   quarter at high load (paper: up to 50%); on the testbed setting one
//!   queue is clearly worse than eight at high load. Not reproduced yet
//!   (ignored, with the measured numbers): PASE's AFCT 40% to 70% below
//!   DCTCP's at every load, the optimizations' AFCT no worse at every load,
//!   four queues within 10% of eight at every load.

mod common;

use common::{assert_rejected_naming, load, par_map, run_ok};
use dcsim_core::ids::{FlowId, NodeId};
use dcsim_core::net::topology::build;
use dcsim_core::protocol::params::{PaseParams, PaseQueueNumbering};
use dcsim_core::protocol::pase::{arbitrate, Arbitrator, Decision, Pase};
use dcsim_core::queue::setup::PortSetup;
use dcsim_core::scenario::ProtocolName;
use dcsim_core::sim::{SimConfig, Simulation};
use dcsim_core::trace::{ControlEvent, TraceKind};
use dcsim_core::units::SimTime;
use dcsim_core::workload::{BackgroundFlow, FlowGenerator};
use dcsim_core::{RunOptions, Scenario};

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
    let proto = Pase::new(s.params.pase.clone(), &net, true);
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
fn delegated_children_never_hand_out_more_than_their_share() {
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
        t = t + SimTime::from_us(100);
        let more = sim.run_until(t);
        let p = &sim.proto;
        for (&(parent, child), v) in &p.virtual_links {
            // Base rate 0: only what the rule hands out from the share.
            let granted: f64 = v.arb.decisions(0.0, queues, numbering).iter().map(|d| d.1.rate_bps).sum();
            assert!(granted <= v.arb.capacity * (1.0 + 1e-9), "child {} of link {}: {granted} bps granted from a share of {}", child.0, parent.0, v.arb.capacity);
            assert!(v.arb.capacity <= p.arbs[parent.idx()].capacity * (1.0 + 1e-9));
            checks += !v.arb.is_empty() as u32;
        }
        for (parent, kids) in p.children.iter().enumerate() {
            let shares: f64 = kids.iter().map(|k| p.parent_share.get(&(dcsim_core::ids::PortId(parent as u32), *k)).copied().unwrap_or_else(|| p.initial_share(dcsim_core::ids::PortId(parent as u32)))).sum();
            assert!(shares <= p.arbs[parent].capacity * (1.0 + 1e-6), "link {parent} hands out {shares} of {}", p.arbs[parent].capacity);
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

#[test]
fn a_flow_in_the_lowest_queue_probes_once_per_rtt_and_never_retransmits() {
    // One rack of 3 hosts, 2 queues (the lowest is 1). Two long flows from
    // host 0 to host 1 start at time zero: the 1 MB one is in the top
    // queue at line rate, the 2 MB one in the lowest (ADH = C), where its
    // packets wait behind the first flow's far longer than a timeout.
    let mut s = load("pase-testbed");
    s.topology = dcsim_core::net::topology::TopologySpec::SingleRack { hosts: 3, link_gbps: 1.0, propagation_ns: 62_500.0, switch_delay_ns: 0.0 };
    s.params.pase.queues = 2;
    // A timeout shorter than the round trip: a window sender would time out
    // on every packet that waits; in the lowest queue it only probes.
    s.params.pase.min_rto_us = 100.0;
    s.workload.load = 0.001; // the workload's one flow arrives long after
    s.workload.flows = 1;
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
                TraceKind::Control { flow, what: ControlEvent::PaseProbe } if flow == low => probes.push(e.t_ps),
                TraceKind::Decision { flow, what: ControlEvent::PaseDecision, queue: Some(queue), .. } if flow == low && high_done.is_none() => low_decisions.push(queue),
                TraceKind::FlowFinish { flow } if flow == high => high_done = Some(e.t_ps),
                TraceKind::Timeout { flow, .. } if flow == low => timeouts += 1,
                _ => {}
            }
        }
        // A finished flow's sender is retired (forgotten): read it while it runs.
        interval = interval.or_else(|| sim.proto.win.senders.get(low.idx()).map(|s| s.probe_interval.ps()));
        if sim.proto.win.sender_done(low) {
            break;
        }
    }
    let high_done = high_done.expect("the top-queue flow finishes");
    assert!(!low_decisions.is_empty() && low_decisions.iter().all(|&q| q == 1), "the 2 MB flow stays in the lowest queue while the 1 MB one runs: {low_decisions:?}");
    assert!(sim.proto.win.sender_done(low), "the low flow finishes once promoted");
    let before: Vec<u64> = probes.iter().copied().filter(|&t| t < high_done).collect();
    // About 8 ms in the lowest queue: a probe whenever a timeout fires (the
    // 100 us timeout, stretched to one probe interval after progress),
    // never two within one probe interval (one base RTT). (The top flow's
    // window is just under a BDP, so the low flow's packet mostly slips
    // through within a round trip: a few probes, measured 4.)
    assert!(before.len() >= 3, "{} probes while waiting", before.len());
    let interval = interval.expect("the low flow ran");
    for w in probes.windows(2) {
        assert!(w[1] - w[0] >= interval, "probes {} ps apart (interval {interval} ps)", w[1] - w[0]);
    }
    // A timeout that retransmits data is traced as a Timeout; probes are not.
    assert_eq!(timeouts, 0, "no data retransmitted on a timeout");
}

/// AFCT of `s` under `protocol`, mean over seeds 1 and 2.
fn afct(s: &Scenario, protocol: ProtocolName) -> f64 {
    let mut total = 0.0;
    for seed in [1, 2] {
        let mut s = s.clone();
        s.protocol = protocol;
        s.seed = seed;
        total += run_ok(&s, RunOptions::default()).summary.all.afct_us;
    }
    total / 2.0
}

fn testbed(load_: f64, flows: u64) -> Scenario {
    let mut s = load("pase-testbed");
    s.workload.load = load_;
    s.workload.flows = flows;
    s
}

const LOADS: [f64; 5] = [0.1, 0.3, 0.5, 0.7, 0.9];

#[test]
#[ignore = "not reproduced yet: PASE's AFCT is 0.641, 0.748, 0.801, 0.631, 0.531 of DCTCP's at loads 0.1, 0.3, 0.5, 0.7, 0.9 (1,500 flows, seeds 1 and 2): 36% to 47% lower at 0.1, 0.7 and 0.9, 20% to 25% at 0.3 and 0.5"]
fn testbed_pase_afct_is_40_to_70_percent_below_dctcp() {
    let ratios = par_map(&LOADS, |&l| {
        let s = testbed(l, 1500);
        afct(&s, ProtocolName::Pase) / afct(&s, ProtocolName::Dctcp)
    });
    println!("PASE / DCTCP AFCT by load {LOADS:?}: {ratios:?}");
    for (l, r) in LOADS.iter().zip(&ratios) {
        assert!((0.3..=0.6).contains(r), "load {l}: PASE AFCT is {r:.3} of DCTCP's (want 0.3 to 0.6)");
    }
}

/// AFCT and arbitration messages processed on the left-right tree.
fn left_right(load_: f64, optimized: bool) -> (f64, u64) {
    let mut s = load("pase-left-right");
    s.workload.load = load_;
    s.workload.flows = 1500;
    s.params.pase.early_pruning = optimized;
    s.params.pase.delegation = optimized;
    let mut sim = pase_sim(&s);
    sim.run();
    let n = sim.records.len() as f64;
    let afct = sim.records.iter().map(|r| (r.end.unwrap() - r.start).as_us_f64()).sum::<f64>() / n;
    (afct, sim.proto.stats.messages())
}

const LR_LOADS: [f64; 4] = [0.2, 0.3, 0.4, 0.45];

/// (optimized, not optimized) runs of the left-right tree at each load.
fn left_right_pairs() -> Vec<((f64, u64), (f64, u64))> {
    let r = par_map(&LR_LOADS, |&l| (left_right(l, true), left_right(l, false)));
    println!("left-right, (AFCT us, messages) optimized vs not, loads {LR_LOADS:?}: {r:?}");
    r
}

#[test]
fn optimizations_cut_arbitration_messages() {
    // Measured (1,500 flows, seed 1): 155,983 against 185,627 messages at
    // load 0.2 (-16%), 178,822 / 229,225 at 0.3, 209,731 / 314,051 at 0.4,
    // 264,798 / 551,804 at 0.45 (-52%).
    let r = left_right_pairs();
    for (l, ((_, m_on), (_, m_off))) in LR_LOADS.iter().zip(&r) {
        assert!(m_on < m_off, "load {l}: {m_on} messages with the optimizations, {m_off} without");
    }
    // At the highest load the paper saves up to half; at least a quarter here.
    let ((_, m_on), (_, m_off)) = r[r.len() - 1];
    assert!((m_on as f64) < 0.75 * m_off as f64, "high load: {m_on} against {m_off}");
}

#[test]
#[ignore = "not reproduced yet: AFCT with the optimizations 3968, 4909, 6425, 10244 us against 3578, 4449, 6145, 10955 us without at loads 0.2, 0.3, 0.4, 0.45 (worse by 10.9%, 10.3%, 4.6%, better by 6.5%)"]
fn optimizations_do_not_hurt_afct() {
    let r = left_right_pairs();
    for (l, ((a_on, _), (a_off, _))) in LR_LOADS.iter().zip(&r) {
        assert!(a_on <= a_off, "load {l}: AFCT {a_on:.0} us with the optimizations, {a_off:.0} us without");
    }
}

/// Testbed AFCT with 8, 4 and 1 queues at `load_`.
fn by_queues(load_: f64) -> Vec<f64> {
    let mut s = testbed(load_, 1500);
    let mut by_q = Vec::new();
    for q in [8, 4, 1] {
        s.params.pase.queues = q;
        s.params.pase.pruning_queues = s.params.pase.pruning_queues.min(q);
        by_q.push(afct(&s, ProtocolName::Pase));
    }
    by_q
}

#[test]
#[ignore = "not reproduced yet: AFCT with 8 / 4 queues 3353 / 3353, 5434 / 5507, 10003 / 12075, 21578 / 42048, 47127 / 73332 us at loads 0.1 to 0.9 (within 10% only at 0.1 and 0.3); with lowest_queue_grows 4 queues are within 5%, 14%, 9% at 0.5, 0.7, 0.9"]
fn four_queues_are_almost_as_good_as_eight() {
    let r = par_map(&LOADS, |&l| by_queues(l));
    println!("AFCT with 8, 4, 1 queues by load {LOADS:?}: {r:?}");
    for (l, v) in LOADS.iter().zip(&r) {
        assert!((v[1] - v[0]).abs() <= 0.1 * v[0], "load {l}: 4 queues {:.0} us, 8 queues {:.0} us", v[1], v[0]);
    }
}

#[test]
fn one_queue_is_clearly_worse_at_high_load() {
    // Measured: 126,465 us with 1 queue against 47,127 us with 8 at load
    // 0.9 (78,592 against 21,578 at 0.7).
    let v = by_queues(0.9);
    println!("AFCT with 8, 4, 1 queues at load 0.9: {v:?}");
    assert!(v[2] >= 1.2 * v[0], "high load: 1 queue {:.0} us against 8 queues {:.0} us", v[2], v[0]);
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
    let mut s = testbed(0.7, 300);
    s.params.pase.rate_control = dcsim_core::protocol::params::PaseRateControl::Dctcp;
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
