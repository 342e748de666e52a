//! Section 4.2, Figure 10, and the abstract: PASE against pFabric on
//! the left-right and all-to-all trees, and against the
//! deployment-friendly transports (DCTCP, L2DCT).

use super::*;

// ------------------------------------------------------ Figure 10, pFabric

pub(super) const LR_PF_SMALLER: Reading = Reading {
    key: "pfabric-smaller",
    says: "pFabric achieves smaller FCT for up to 50% load",
    of: "PASE's 99th-percentile FCT over pFabric's, loads up to 0.5",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const LR_COMPARABLE: Reading = Reading {
    key: "pase-comparable",
    says: "PASE achieves comparable performance",
    of: "PASE's 99th-percentile FCT over pFabric's, loads up to 0.5",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};
pub(super) const LR_PASE_SMALLER: Reading = Reading {
    key: "pase-smaller",
    says: "at ≥ 60% loads, PASE results in smaller FCT than pFabric",
    of: "PASE's 99th-percentile FCT over pFabric's, loads from 0.6",
    bound: Bound::below(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const LR_85: Reading = Reading {
    key: "more-than-85%",
    says: "At 90% load, this improvement is more than 85%",
    of: "1 minus PASE's 99th-percentile FCT over pFabric's at load 0.9",
    bound: Bound::above(0.85),
    kind: Kind::Value,
    rule: Rule::Literal,
};

pub(super) fn lr_grid<'a>(lab: &'a Lab, size: &Size, schemes: &[ProtocolName]) -> Option<Grid<'a>> {
    grid(lab, size, schemes, |p, _, x| left_right(lab, *p, x), true)
}

pub(super) fn vs_pfabric_left_right(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = lr_grid(lab, size, &[P::Pase, P::Pfabric])?;
    let mut checks = Vec::new();
    let mut r_all = Vec::new();
    for (x, l) in size.xs.iter().enumerate() {
        let r: Vec<f64> = g.per_seed_outcome(0, x, p99_fct_ms).iter().zip(g.per_seed_outcome(1, x, p99_fct_ms)).map(|(a, b)| a / b).collect();
        r_all.push(mean(r.iter().copied()));
        let what = format!("{}: PASE / pFabric 99th-percentile FCT", load(size, x));
        if *l <= 0.5 {
            checks.push(Check::of(&LR_PF_SMALLER, what.clone(), r.clone()));
            checks.push(Check::of(&LR_COMPARABLE, what, r.clone()));
        } else if *l >= 0.6 {
            checks.push(Check::of(&LR_PASE_SMALLER, what, r.clone()));
        }
        if *l == 0.9 {
            checks.push(Check::of(&LR_85, "load 0.9: 1 - PASE / pFabric 99th-percentile FCT", r.iter().map(|v| 1.0 - v).collect()));
        }
    }
    let drops = |s: usize| by_point(size.xs, &(0..size.xs.len()).map(|x| 100.0 * g.mean(s, x, |m| m.drop_rate)).collect::<Vec<_>>());
    Some(Judged {
        value: format!("PASE / pFabric 99th-percentile FCT {}", span(&r_all)),
        checks,
        notes: vec![
            format!("PASE / pFabric 99th-percentile FCT by load: {}", by_point(size.xs, &r_all)),
            format!("pFabric's loss rate (%) by load: {}", drops(1)),
            format!("PASE's loss rate (%) by load: {}", drops(0)),
        ],
    })
}

pub(super) const A2A_LOWER: Reading = Reading {
    key: "lower-every-load",
    says: "results in lower AFCTs across all loads",
    of: "PASE's AFCT over pFabric's",
    bound: Bound::below(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const A2A_UP_TO: Reading = Reading {
    key: "up-to-85%",
    says: "PASE provides up to 85% improvement in AFCT over pFabric",
    of: "1 minus PASE's AFCT over pFabric's, largest over the loads",
    bound: approx(0.85),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const A2A_NONE_ABOVE: Reading = Reading {
    key: "none-above",
    says: "up to 85% improvement",
    of: "1 minus PASE's AFCT over pFabric's",
    bound: Bound::at_most(0.85 * 1.1),
    kind: Kind::Value,
    rule: Rule::Approx,
};

pub(super) fn vs_pfabric_all_to_all(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &[P::Pase, P::Pfabric], |p, _, x| with(&lab.scenario("pase-all-to-all"), *p, x), false)?;
    let r: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(0, 1, x, |s| s.all.afct_us)).collect();
    let gain: Vec<Vec<f64>> = r.iter().map(|v| v.iter().map(|x| 1.0 - x).collect()).collect();
    let mut checks: Vec<Check> =
        r.iter().enumerate().map(|(x, v)| Check::of(&A2A_LOWER, format!("{}: PASE / pFabric AFCT", load(size, x)), v.clone())).collect();
    checks.extend(up_to_checks(&A2A_UP_TO, &A2A_NONE_ABOVE, "1 - PASE / pFabric AFCT", &gain, |i| load(size, i)));
    let m: Vec<f64> = gain.iter().map(|v| mean(v.iter().copied())).collect();
    // Where pFabric's drops are, and what they cost the senders' links
    // (the paper's explanation of Figure 10(c)).
    let hop = |h: usize| {
        by_point(
            size.xs,
            &(0..size.xs.len())
                .map(|x| {
                    100.0 * mean(g.per_seed_outcome(1, x, |o| o.counters.data_dropped[h] as f64 / o.counters.data_dropped.iter().sum::<u64>().max(1) as f64))
                })
                .collect::<Vec<_>>(),
        )
    };
    let loss = by_point(size.xs, &(0..size.xs.len()).map(|x| 100.0 * g.mean(1, x, |m| m.drop_rate)).collect::<Vec<_>>());
    let wasted = by_point(
        size.xs,
        &(0..size.xs.len())
            .map(|x| 100.0 * mean(g.per_seed_outcome(1, x, |o| o.counters.data_bytes_wasted_upstream as f64 / o.counters.data_bytes_sent.max(1) as f64)))
            .collect::<Vec<_>>(),
    );
    Some(Judged {
        value: format!("PASE's AFCT {}% below pFabric's", span(&pct(&m))),
        checks,
        notes: vec![
            format!("1 - PASE / pFabric AFCT (%) by load: {}", by_point(size.xs, &pct(&m))),
            format!("pFabric's loss rate (%) by load: {loss}"),
            format!("share (%) of pFabric's data drops at the ToR-host downlinks by load: {}", hop(3)),
            format!("capacity pFabric wasted on the senders' links (bytes sent there and dropped further on, % of the data bytes sent) by load: {wasted}"),
        ],
    })
}

pub(super) const SIMILAR_6: Reading = Reading {
    key: "under-6%",
    says: "similar performance (< 6% difference in AFCTs) compared to pFabric",
    of: "PASE's AFCT over pFabric's",
    bound: Bound { lo: 0.94, hi: 1.06, lo_open: true, hi_open: true },
    kind: Kind::Value,
    rule: Rule::Literal,
};

pub(super) fn similar_to_pfabric(lab: &Lab, size: &Size) -> Option<Judged> {
    let single = grid(lab, size, &[P::Pase, P::Pfabric], |p, _, x| with(&lab.scenario("pase-testbed"), *p, x), false);
    let lr = lr_grid(lab, size, &[P::Pase, P::Pfabric]);
    let (single, lr) = (single?, lr?);
    let mut checks = Vec::new();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (x, l) in size.xs.iter().enumerate() {
        let r = single.ratio(0, 1, x, |s| s.all.afct_us);
        a.push(mean(r.iter().copied()));
        checks.push(Check::of(&SIMILAR_6, format!("single bottleneck (the testbed rack), {}: PASE / pFabric AFCT", load(size, x)), r));
        let r = lr.ratio(0, 1, x, |s| s.all.afct_us);
        b.push(mean(r.iter().copied()));
        if *l < 0.8 {
            checks.push(Check::of(&SIMILAR_6, format!("left-right tree, {}: PASE / pFabric AFCT", load(size, x)), r));
        }
    }
    Some(Judged {
        value: format!(
            "PASE / pFabric AFCT: single bottleneck {}, left-right below load 0.8 {}",
            span(&a),
            span(&b[..size.xs.iter().filter(|l| **l < 0.8).count()])
        ),
        checks,
        notes: vec![format!("single bottleneck by load: {}", by_point(size.xs, &a)), format!("left-right by load: {}", by_point(size.xs, &b))],
    })
}

// --------------------------------------- against DCTCP and L2DCT (abstract)

pub(super) const FRIENDLY: [Reading; 3] = range_readings(
    0.4,
    0.6,
    "improves the average FCT (AFCT) by 40% to 60% for various scenarios",
    "improves the average FCT (AFCT) by 40% to 60% for various scenarios",
    "1 minus PASE's AFCT over DCTCP's or L2DCT's",
);

pub(super) const FRIENDLY_IMPROVES: Reading = Reading {
    key: "improves",
    says: "PASE improves the average FCT (AFCT)",
    of: "1 minus PASE's AFCT over DCTCP's or L2DCT's, each scenario and load",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn vs_deployment_friendly(lab: &Lab, size: &Size) -> Option<Judged> {
    let schemes = [P::Pase, P::Dctcp, P::L2dct];
    let lr = lr_grid(lab, size, &schemes);
    let a2a = grid(lab, size, &schemes, |p, _, x| with(&lab.scenario("pase-all-to-all"), *p, x), false);
    let (lr, a2a) = (lr?, a2a?);
    let mut samples = Vec::new();
    let mut labels = Vec::new();
    for (g, scen) in [(&lr, "left-right"), (&a2a, "all-to-all")] {
        for (b, name) in [(1, "DCTCP"), (2, "L2DCT")] {
            for x in 0..size.xs.len() {
                samples.push(g.ratio(0, b, x, |s| s.all.afct_us).iter().map(|v| 1.0 - v).collect::<Vec<_>>());
                labels.push(format!("{scen}, against {name}, {}", load(size, x)));
            }
        }
    }
    let mut checks = range_checks(&FRIENDLY[0], &FRIENDLY[1], &FRIENDLY[2], "1 - PASE / baseline AFCT", &samples, |i| labels[i].clone());
    checks.extend(samples.iter().zip(&labels).map(|(v, l)| Check::of(&FRIENDLY_IMPROVES, format!("{l}: 1 - PASE / baseline AFCT"), v.clone())));
    let m: Vec<f64> = samples.iter().map(|v| 100.0 * mean(v.iter().copied())).collect();
    Some(Judged {
        value: format!("PASE's AFCT {}% below DCTCP's and L2DCT's", span(&m)),
        checks,
        notes: labels.iter().zip(&m).map(|(l, v)| format!("{l}: {}%", fmt(*v))).collect(),
    })
}
