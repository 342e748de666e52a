//! Unit tests of pase.
use super::*;
use params::PaseQueueNumbering::{Floor, OneBased, ZeroBased};

const C: f64 = 1e9;
const BASE: f64 = 12_000.0 / 250e-6; // one 1500-B packet per 250 us

#[test]
fn the_rule_gives_rate_and_queue_from_adh() {
    // Most critical flow: the whole demand, top queue.
    assert_eq!(arbitrate(0.0, C, C, BASE, 8, OneBased), Decision { queue: 0, rate_bps: C });
    assert_eq!(arbitrate(0.0, 0.3 * C, C, BASE, 8, ZeroBased), Decision { queue: 0, rate_bps: 0.3 * C });
    // ADH < C: what is left, min(demand, C - ADH).
    assert_eq!(arbitrate(0.3 * C, C, C, BASE, 8, OneBased), Decision { queue: 0, rate_bps: 0.7 * C });
    assert_eq!(arbitrate(0.3 * C, 0.5 * C, C, BASE, 8, OneBased).rate_bps, 0.5 * C);
    // 0-based reading: ceil(0.3) = 1, the second queue.
    assert_eq!(arbitrate(0.3 * C, C, C, BASE, 8, ZeroBased), Decision { queue: 1, rate_bps: 0.7 * C });
    // ADH >= C: base rate, queue ceil(ADH / C) (1-based: minus one).
    assert_eq!(arbitrate(C, C, C, BASE, 8, OneBased), Decision { queue: 0, rate_bps: BASE });
    assert_eq!(arbitrate(C, C, C, BASE, 8, ZeroBased), Decision { queue: 1, rate_bps: BASE });
    assert_eq!(arbitrate(2.5 * C, C, C, BASE, 8, OneBased), Decision { queue: 2, rate_bps: BASE });
    assert_eq!(arbitrate(2.5 * C, C, C, BASE, 8, ZeroBased), Decision { queue: 3, rate_bps: BASE });
    // floor: top queue iff ADH < C; whole multiples as 0-based.
    assert_eq!(arbitrate(0.3 * C, C, C, BASE, 8, Floor), Decision { queue: 0, rate_bps: 0.7 * C });
    assert_eq!(arbitrate(C, C, C, BASE, 8, Floor), Decision { queue: 1, rate_bps: BASE });
    assert_eq!(arbitrate(2.5 * C, C, C, BASE, 8, Floor), Decision { queue: 2, rate_bps: BASE });
    // Capped at the lowest queue.
    assert_eq!(arbitrate(40.0 * C, C, C, BASE, 8, ZeroBased).queue, 7);
    assert_eq!(arbitrate(40.0 * C, C, C, BASE, 8, Floor).queue, 7);
    assert_eq!(arbitrate(40.0 * C, C, C, BASE, 4, OneBased).queue, 3);
    assert_eq!(arbitrate(40.0 * C, C, C, BASE, 1, OneBased).queue, 0);
}

#[test]
fn an_arbitrator_sorts_by_criticality_and_sums_demand_ahead() {
    let mut a = Arbitrator::new(C);
    let never = SimTime::NEVER;
    // Remaining bytes as the SRPT key; demands 0.6 C, C, C, 0.2 C.
    a.update(FlowId(1), (300_000, 0, 1), C, never);
    a.update(FlowId(2), (100_000, 0, 2), 0.6 * C, never);
    a.update(FlowId(3), (500_000, 0, 3), C, never);
    a.update(FlowId(4), (900_000, 0, 4), 0.2 * C, never);
    let d: Vec<(u32, Decision)> = a.decisions(BASE, 8, ZeroBased).into_iter().map(|(f, d)| (f.0, d)).collect();
    assert_eq!(d[0], (2, Decision { queue: 0, rate_bps: 0.6 * C }));
    assert_eq!(d[1].0, 1);
    assert_eq!(d[1].1.queue, 1);
    assert!((d[1].1.rate_bps - 0.4 * C).abs() < 1.0);
    assert_eq!(d[2], (3, Decision { queue: 2, rate_bps: BASE })); // ADH 1.6 C
    assert_eq!(d[3], (4, Decision { queue: 3, rate_bps: BASE })); // ADH 2.6 C
    assert_eq!(a.decide(FlowId(3), BASE, 8, ZeroBased), d[2].1);
    // A flow's update moves it; a removal shrinks everyone's ADH.
    a.update(FlowId(3), (50_000, 0, 3), C, never);
    assert_eq!(a.decide(FlowId(3), BASE, 8, ZeroBased), Decision { queue: 0, rate_bps: C });
    assert!(a.remove(FlowId(3)));
    assert_eq!(a.decide(FlowId(1), BASE, 8, ZeroBased).queue, 1);
    assert_eq!(a.len(), 3);
    // Soft state: an expired entry is forgotten.
    a.update(FlowId(5), (1, 0, 5), C, SimTime::from_us_f64(10.0));
    a.expire(SimTime::from_us_f64(11.0));
    assert!(!a.contains(FlowId(5)));
}

#[test]
fn along_a_path_the_lowest_queue_and_smallest_rate_win() {
    let a = Decision { queue: 1, rate_bps: 0.7 * C };
    let b = Decision { queue: 3, rate_bps: 0.9 * C };
    assert_eq!(Decision::NONE.combine(a).combine(b), Decision { queue: 3, rate_bps: 0.7 * C });
}

#[test]
fn srpt_ranks_by_remaining_bytes_and_edf_by_deadline() {
    use crate::net::topology::{build, TopologySpec};
    let net = build(&TopologySpec::SingleRack { hosts: 3, link_gbps: 1.0, propagation_ns: 0.0, switch_delay_ns: 0.0 });
    let pase = |c| Pase::new(PaseParams { criticality: c, ..PaseParams::default() }, &net, true);
    // Flow 1: 900 KB left, deadline at 5 ms; flow 2: 100 KB left,
    // deadline at 20 ms; flow 3: 50 KB left, no deadline.
    let flows = [(FlowId(1), 900_000, 5_000), (FlowId(2), 100_000, 20_000), (FlowId(3), 50_000, u32::MAX)];
    let order = |p: &Pase| {
        let mut v: Vec<_> = flows.iter().map(|&(f, left, dl)| (p.key(f, left, dl), f.0)).collect();
        v.sort();
        v.into_iter().map(|x| x.1).collect::<Vec<_>>()
    };
    assert_eq!(order(&pase(PaseCriticality::Srpt)), vec![3, 2, 1]);
    assert_eq!(order(&pase(PaseCriticality::Edf)), vec![1, 2, 3], "earliest deadline first, no deadline last");
}

/// PASE's hosts read no DCTCP profile: they run the simulations' DCTCP
/// (every packet ACKed at once), whatever `params.dctcp.profile` says.
#[test]
fn pase_hosts_read_no_dctcp_profile() {
    let d = params::PaseParams::default().dctcp_part();
    assert_eq!((d.profile, d.delayed_ack_timeout_us), (crate::protocol::window::params::DctcpProfile::Linux, None));
}

/// PASE's end-host controller keeps the window at the one offset every
/// window controller has (`window::controller`'s docs: the window is one
/// load whatever the variant), in an enum as small as those docs say.
#[test]
fn the_end_host_window_is_at_the_shared_offset() {
    use crate::protocol::window::controller::FlowController;
    let c = crate::protocol::window::WindowConfig::pase(&PaseParams::default(), false).control;
    assert_eq!(c.name(), "pase");
    assert_eq!(c.new_flow(&crate::protocol::testing::flow(0, 0, 1, 10)).window_offset(), 8);
    assert!(std::mem::size_of::<FlowController<PaseHost>>() <= 104);
}
