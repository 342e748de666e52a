//! PASE's results (docs/protocols/pase.md; Munir et al., SIGCOMM 2014),
//! each on the scenario the seed places it; its mechanisms are tested in
//! `pase.rs`. The paper's text was not at hand: claims and tolerances
//! follow the seed's wording (docs/protocols/pase.md).
//!
//! Reproduced: on the left-right tree at high load four queues within 10%
//! of eight and one clearly worse; the optimizations cut arbitration
//! messages (at least a quarter at high load; paper up to 50%) and, with
//! delegation fixed, cost no AFCT at low load; PASE comparable to or better
//! than pFabric and PASE-DCTCP worse than PASE, on the left-right tree and
//! the all-to-all racks; PASE's AFCT below D2TCP's and L2DCT's on the
//! all-to-all racks; PASE (EDF) meeting more deadlines than D2TCP at load
//! 0.3 of the deadline scenario.
//!
//! Not reproduced (ignored, with the measured numbers and the reason):
//! PASE 50% to 60% below DCTCP on the testbed (PASE gains more), the
//! optimizations' 4% to 10% AFCT gain, end-to-end arbitration beating
//! local-only, PASE within 10% of pFabric at load 0.3 of the all-to-all
//! racks (at the edge), PASE's AFCT below L2DCT's on the left-right tree,
//! PASE above D2TCP in deadlines met at loads 0.5, 0.7 and 0.9.

mod common;

use common::{load, par_map, pase_sim, run_ok};
use dcsim_core::protocol::pase::params::{PaseCriticality, PaseDelegatedCapacity, PaseRateControl};
use dcsim_core::scenario::ProtocolName;
use dcsim_core::{RunOptions, Scenario};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

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
