//! Claims of papers that are not among the project's sources, which its
//! tests hold (D2TCP, L2DCT): reported in a section of their own.

use super::{by_point, grid, mean, span, with};
use crate::reproduce::bound::{Bound, Kind};
use crate::reproduce::claim::{Claim, Judged, Paper, Setting, Size};
use crate::reproduce::format::fmt;
use crate::reproduce::judge::Check;
use crate::reproduce::lab::{Lab, Outcome};
use crate::reproduce::readings::{approx, Reading, Rule};
use dcsim_core::scenario::ProtocolName;
use ProtocolName as P;

const SCHEMES: [ProtocolName; 3] = [P::Dctcp, P::D2tcp, P::L2dct];

const FEWER_MISSED: Reading = Reading {
    key: "75%",
    says: "D2TCP reduces the fraction of missed deadlines compared to DCTCP and D3 by 75%",
    of: "1 minus D2TCP's fraction of missed deadlines over DCTCP's",
    bound: approx(0.75),
    kind: Kind::Value,
    rule: Rule::Approx,
};

const REDUCES: Reading = Reading {
    key: "reduces",
    says: "D2TCP reduces the fraction of missed deadlines compared to DCTCP",
    of: "1 minus D2TCP's fraction of missed deadlines over DCTCP's",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

fn d2tcp_missed(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &SCHEMES[..2], |p, _, x| with(&lab.scenario("d2tcp-deadlines"), *p, x), false)?;
    let mut checks = Vec::new();
    let mut m = Vec::new();
    let mut points = Vec::new();
    for (x, l) in size.xs.iter().enumerate() {
        let missed = |s: usize| g.per_seed_outcome(s, x, |o: &Outcome| 1.0 - o.deadlines_met());
        let cut: Vec<f64> = missed(1).iter().zip(missed(0)).map(|(a, b)| 1.0 - a / b).collect();
        m.push(100.0 * mean(cut.iter().copied()));
        checks.push(Check::of(&REDUCES, format!("load {}: 1 - D2TCP / DCTCP missed deadlines", fmt(*l)), cut.clone()));
        checks.push(Check::of(&FEWER_MISSED, format!("load {}: 1 - D2TCP / DCTCP missed deadlines", fmt(*l)), cut));
        points.push(mean(g.diff(1, 0, x, Outcome::deadlines_met)));
    }
    Some(Judged {
        value: format!("D2TCP misses {}% fewer deadlines than DCTCP (fraction of deadlines met, D2TCP minus DCTCP: {})", span(&m), span(&points)),
        checks,
        notes: vec![
            format!("by load (%): {}", by_point(size.xs, &m)),
            format!("D2TCP minus DCTCP, fraction of deadlines met, by load: {}", by_point(size.xs, &points)),
        ],
    })
}

const L2DCT_MORE: Reading = Reading {
    key: "l2dct-ahead",
    says: "L2DCT misses fewer deadlines than D2TCP",
    of: "L2DCT minus D2TCP, fraction of deadlines met",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

fn l2dct_vs_d2tcp(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &SCHEMES[1..], |p, _, x| with(&lab.scenario("d2tcp-deadlines"), *p, x), false)?;
    let d: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.diff(1, 0, x, Outcome::deadlines_met)).collect();
    let checks =
        d.iter().enumerate().map(|(x, v)| Check::of(&L2DCT_MORE, format!("load {}: L2DCT minus D2TCP, deadlines met", fmt(size.xs[x])), v.clone())).collect();
    let m: Vec<f64> = d.iter().map(|v| mean(v.iter().copied())).collect();
    Some(Judged { value: format!("L2DCT ahead by {}", span(&m)), checks, notes: Vec::new() })
}

const SETTING: Setting = Setting {
    scenarios: &["d2tcp-deadlines"],
    axis: "loads",
    quick: Size { flows: &[2000], seeds: &[1, 2, 3], xs: &[0.3], requests: 0, per_scenario: &[] },
    full: Size { flows: &[3000], seeds: &[1, 2, 3, 4, 5], xs: &[0.2, 0.3, 0.5], requests: 0, per_scenario: &[] },
    paper_size: "not the papers' own settings: PASE's testbed rack with D2TCP's flows and deadlines",
    deviations: &[
        "PASE's testbed rack (10 hosts, 1 Gbps, 250 us RTT) with flows uniform in 100 KB to 500 KB, deadlines uniform in 5 to 25 ms and two long-lived background flows (the D2TCP experiment PASE section 2.1 replicates), not the D2TCP or L2DCT papers' own topologies",
        "L2DCT's bytes-sent thresholds (full weight up to 200 segments, the least from 1000) from the ns-3 port; D2TCP's B is the bytes never sent and d = 0.5 past the deadline (the ns-3 port's choices)",
    ],
};

/// The D2TCP and L2DCT claims.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim::new(Paper::D2tcp, "d2tcp-fewer-missed-deadlines", "abstract", "")
            .says(
                "Using a small-scale implementation and at-scale simulations, we show that D2TCP reduces the fraction of missed deadlines compared to DCTCP and D3 by 75% and 50%, respectively.",
                "D2TCP misses about 75% fewer deadlines than DCTCP",
            )
            .reads(&[REDUCES, FEWER_MISSED])
            .on(SETTING)
            .cited()
            .measured_by(d2tcp_missed),
        Claim::new(Paper::L2dct, "l2dct-vs-d2tcp", "abstract", "")
            .says(
                "(not quoted: the L2DCT paper's text is not available to this project) L2DCT misses fewer deadlines than D2TCP over a wide range of loads, though it does not know the deadlines",
                "L2DCT, deadline-unaware, meets more deadlines than D2TCP (the tests' paraphrase of the L2DCT abstract; its words could not be checked)",
            )
            .reads(&[L2DCT_MORE])
            .on(Setting { quick: Size { xs: &[0.2], ..SETTING.quick }, full: Size { xs: &[0.2, 0.5], ..SETTING.full }, ..SETTING })
            .cited()
            .measured_by(l2dct_vs_d2tcp),
    ]
}
