//! Section 4.3, Figures 11 to 13(a): PASE's optimizations, end-to-end
//! arbitration, priority queues, the reference rate and probing.

use super::*;

// ------------------------------------------------- Figure 11: optimizations

/// The left-right runs of PASE with its optimizations on and off.
pub(super) fn optimizations<'a>(lab: &'a Lab, size: &Size) -> Option<Grid<'a>> {
    grid(
        lab,
        size,
        &[true, false],
        |on, _, x| {
            let mut s = left_right(lab, P::Pase, x);
            s.params.pase.early_pruning = *on;
            s.params.pase.delegation = *on;
            s
        },
        false,
    )
}

pub(super) const OVERHEAD_UP_TO: Reading = Reading {
    key: "up-to-50%",
    says: "these optimizations provide up to 50% reduction in arbitration overhead",
    of: "1 minus arbitration messages with the optimizations over without, largest over the loads",
    bound: approx(0.50),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const OVERHEAD_NONE_ABOVE: Reading = Reading {
    key: "none-above",
    says: "up to 50% reduction",
    of: "1 minus arbitration messages with the optimizations over without",
    bound: Bound::at_most(0.50 * 1.1),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const OVERHEAD_HIGH: Reading = Reading {
    key: "especially-high",
    says: "especially at high loads",
    of: "the reduction at the highest load minus at the lowest",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) const OVERHEAD_REDUCES: Reading = Reading {
    key: "reduction",
    says: "these optimizations provide up to 50% reduction in arbitration overhead",
    of: "1 minus arbitration messages with the optimizations over without, at every load",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn optimizations_overhead(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = optimizations(lab, size)?;
    let msgs = |s: usize, x: usize| g.per_seed_outcome(s, x, |o| o.arbitration_messages.unwrap_or(0) as f64);
    let cut: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| msgs(0, x).iter().zip(msgs(1, x)).map(|(a, b)| 1.0 - a / b).collect()).collect();
    let mut checks = up_to_checks(&OVERHEAD_UP_TO, &OVERHEAD_NONE_ABOVE, "1 - messages with / without the optimizations", &cut, |i| load(size, i));
    checks.extend(
        cut.iter()
            .enumerate()
            .map(|(x, v)| Check::of(&OVERHEAD_REDUCES, format!("{}: 1 - messages with / without the optimizations", load(size, x)), v.clone())),
    );
    let last = size.xs.len() - 1;
    checks.push(Check::of(
        &OVERHEAD_HIGH,
        format!("reduction at {} minus at {}", load(size, last), load(size, 0)),
        cut[last].iter().zip(&cut[0]).map(|(a, b)| a - b).collect(),
    ));
    let m: Vec<f64> = cut.iter().map(|v| 100.0 * mean(v.iter().copied())).collect();
    Some(Judged {
        value: format!("{}% fewer arbitration messages", span(&m)),
        checks,
        notes: vec![format!("reduction (%) by load: {}", by_point(size.xs, &m))],
    })
}

pub(super) const AFCT_GAIN: [Reading; 3] = range_readings(
    0.04,
    0.1,
    "these optimizations also improve the AFCT by 4-10% across all loads",
    "these optimizations also improve the AFCT by 4-10% across all loads",
    "AFCT without the optimizations over with, minus 1",
);

pub(super) const AFCT_IMPROVES: Reading = Reading {
    key: "improve",
    says: "these optimizations also improve the AFCT by 4-10% across all loads",
    of: "AFCT without the optimizations over with, minus 1, at every load",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn optimizations_afct(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = optimizations(lab, size)?;
    let gain: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(1, 0, x, |s| s.all.afct_us).iter().map(|v| v - 1.0).collect()).collect();
    let mut checks = range_checks(&AFCT_GAIN[0], &AFCT_GAIN[1], &AFCT_GAIN[2], "AFCT without / with the optimizations - 1", &gain, |i| load(size, i));
    checks.extend(
        gain.iter().enumerate().map(|(x, v)| Check::of(&AFCT_IMPROVES, format!("{}: AFCT without / with the optimizations - 1", load(size, x)), v.clone())),
    );
    let m: Vec<f64> = gain.iter().map(|v| 100.0 * mean(v.iter().copied())).collect();
    Some(Judged {
        value: format!("AFCT {}% lower with them (negative: higher)", span(&m)),
        checks,
        notes: vec![format!("gain (%) by load: {}", by_point(size.xs, &m))],
    })
}

// ------------------------------------- Figure 12(a): end-to-end arbitration

pub(super) const E2E_UP_TO: Reading = Reading {
    key: "up-to-60%",
    says: "significant improvements (up to 60%) in AFCTs",
    of: "1 minus AFCT with end-to-end arbitration over with local arbitration only, largest over the loads",
    bound: approx(0.60),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const E2E_NONE_ABOVE: Reading = Reading {
    key: "none-above",
    says: "up to 60%",
    of: "1 minus end-to-end over local AFCT",
    bound: Bound::at_most(0.60 * 1.1),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const E2E_BETTER: Reading = Reading {
    key: "improves",
    says: "end-to-end arbitration leads to significant improvements",
    of: "AFCT with local arbitration only over end-to-end",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) const E2E_SIGNIFICANT: Reading = Reading {
    key: "significant",
    says: "end-to-end arbitration leads to significant improvements",
    of: "AFCT with local arbitration only over end-to-end",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};

pub(super) fn end_to_end(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &[false, true],
        |local, _, x| {
            let mut s = left_right(lab, P::Pase, x);
            s.params.pase.local_only = *local;
            s
        },
        false,
    )?;
    let r: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(1, 0, x, |s| s.all.afct_us)).collect();
    let gain: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(0, 1, x, |s| s.all.afct_us).iter().map(|v| 1.0 - v).collect()).collect();
    let mut checks = up_to_checks(&E2E_UP_TO, &E2E_NONE_ABOVE, "1 - end-to-end / local AFCT", &gain, |i| load(size, i));
    checks.extend(r.iter().enumerate().map(|(x, v)| Check::of(&E2E_BETTER, format!("{}: local / end-to-end AFCT", load(size, x)), v.clone())));
    checks.extend(r.iter().enumerate().map(|(x, v)| Check::of(&E2E_SIGNIFICANT, format!("{}: local / end-to-end AFCT", load(size, x)), v.clone())));
    let m: Vec<f64> = gain.iter().map(|v| 100.0 * mean(v.iter().copied())).collect();
    Some(Judged {
        value: format!("end-to-end arbitration's AFCT {}% below local's", span(&m)),
        checks,
        notes: vec![
            format!("by load (%): {}", by_point(size.xs, &m)),
            format!(
                "AFCT (us) by load, local / end-to-end: {}",
                (0..size.xs.len())
                    .map(|x| format!("{}: {} / {}", fmt(size.xs[x]), fmt(g.mean(1, x, |s| s.all.afct_us)), fmt(g.mean(0, x, |s| s.all.afct_us))))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "data drops at hops NIC / ToR up / core down / ToR down by load, local; end-to-end (all seeds): {}",
                (0..size.xs.len()).map(|x| format!("{}: {}; {}", fmt(size.xs[x]), g.drops_by_hop(1, x), g.drops_by_hop(0, x))).collect::<Vec<_>>().join(", ")
            ),
        ],
    })
}

// -------------------------------------------- Figure 12(b): priority queues

pub(super) const Q4_SIGNIFICANT: Reading = Reading {
    key: "4-significant",
    says: "using 4 queues provide significant improvement in AFCT at loads ≥ 70%",
    of: "AFCT with 3 queues over with 4, loads from 0.7",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};
pub(super) const Q4_ORDER: Reading = Reading {
    key: "4-improves",
    says: "using 4 queues provide significant improvement in AFCT at loads ≥ 70%",
    of: "AFCT with 3 queues over with 4, loads from 0.7",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const Q_MARGINAL: Reading = Reading {
    key: "beyond-marginal",
    says: "increasing the number of queues beyond this provides only marginal improvement in AFCT",
    of: "AFCT with 4 queues over with 6 and with 8",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};

pub(super) fn queues(lab: &Lab, size: &Size) -> Option<Judged> {
    let qs = [3u32, 4, 6, 8];
    let g = grid(
        lab,
        size,
        &qs,
        |q, _, x| {
            let mut s = left_right(lab, P::Pase, x);
            s.params.pase.queues = *q;
            s.params.pase.pruning_queues = s.params.pase.pruning_queues.min(*q);
            s
        },
        false,
    )?;
    let mut checks = Vec::new();
    let mut three = Vec::new();
    for (x, l) in size.xs.iter().enumerate() {
        let r = g.ratio(0, 1, x, |s| s.all.afct_us);
        three.push(mean(r.iter().copied()));
        if *l >= 0.7 {
            checks.push(Check::of(&Q4_ORDER, format!("{}: AFCT 3 queues / 4", load(size, x)), r.clone()));
            checks.push(Check::of(&Q4_SIGNIFICANT, format!("{}: AFCT 3 queues / 4", load(size, x)), r));
        }
        for (s, q) in [(2, 6), (3, 8)] {
            checks.push(Check::of(&Q_MARGINAL, format!("{}: AFCT 4 queues / {q}", load(size, x)), g.ratio(1, s, x, |m| m.all.afct_us)));
        }
    }
    let row = |s: usize| by_point(size.xs, &(0..size.xs.len()).map(|x| g.mean(s, x, |m| m.all.afct_us / 1000.0)).collect::<Vec<_>>());
    Some(Judged {
        value: format!("AFCT 3 queues / 4: {}", by_point(size.xs, &three)),
        checks,
        notes: qs.iter().enumerate().map(|(s, q)| format!("AFCT (ms) with {q} queues by load: {}", row(s))).collect(),
    })
}

// ------------------------------------------- Figure 13(a): reference rate

pub(super) const REF_RATE: Reading = Reading {
    key: "50%-smaller",
    says: "leveraging reference rate results in AFCTs of PASE to be 50% smaller than the AFCTs for PASE-DCTCP",
    of: "1 minus PASE's AFCT over PASE-DCTCP's",
    bound: approx(0.50),
    kind: Kind::Value,
    rule: Rule::Approx,
};

pub(super) const REF_RATE_SMALLER: Reading = Reading {
    key: "smaller",
    says: "results in AFCTs of PASE to be 50% smaller than the AFCTs for PASE-DCTCP",
    of: "1 minus PASE's AFCT over PASE-DCTCP's, at every load",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn reference_rate(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &["pase", "dctcp"],
        |rc, _, x| {
            with(&lab.scenario("pase-all-to-all"), P::Pase, x)
                .with_field("topology", serde_json::json!({"kind": "single_rack", "hosts": 20, "link_gbps": 1, "propagation_ns": 10000}))
                .and_then(|s| s.with_field("params.pase.rate_control", (*rc).into()))
                .expect("a 20-host rack")
        },
        false,
    )?;
    let gain: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(0, 1, x, |s| s.all.afct_us).iter().map(|v| 1.0 - v).collect()).collect();
    let mut checks: Vec<Check> =
        gain.iter().enumerate().map(|(x, v)| Check::of(&REF_RATE_SMALLER, format!("{}: 1 - PASE / PASE-DCTCP AFCT", load(size, x)), v.clone())).collect();
    checks.extend(gain.iter().enumerate().map(|(x, v)| Check::of(&REF_RATE, format!("{}: 1 - PASE / PASE-DCTCP AFCT", load(size, x)), v.clone())));
    let m: Vec<f64> = gain.iter().map(|v| 100.0 * mean(v.iter().copied())).collect();
    Some(Judged { value: format!("PASE's AFCT {}% below PASE-DCTCP's", span(&m)), checks, notes: vec![format!("by load (%): {}", by_point(size.xs, &m))] })
}

// ------------------------------------------------------- 4.3.2: probing

pub(super) const PROBING_80: Reading = Reading {
    key: "2.4%-at-80%",
    says: "using probing improves performance by ≈2.4%",
    of: "AFCT without probing over with, minus 1, at load 0.8",
    bound: approx(0.024),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const PROBING_90: Reading = Reading {
    key: "11%-at-90%",
    says: "≈11% at 80% and 90% loads, respectively",
    of: "AFCT without probing over with, minus 1, at load 0.9",
    bound: approx(0.11),
    kind: Kind::Value,
    rule: Rule::Approx,
};

pub(super) const PROBING_IMPROVES: Reading = Reading {
    key: "improves",
    says: "using probing improves performance",
    of: "AFCT without probing over with, minus 1, at loads 0.8 and 0.9",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn probing(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &[true, false],
        |on, _, x| with(&lab.scenario("pase-all-to-all"), P::Pase, x).with_field("params.pase.probing", (*on).into()).expect("a PASE switch"),
        false,
    )?;
    let mut checks = Vec::new();
    let mut m = Vec::new();
    for (x, l) in size.xs.iter().enumerate() {
        let gain: Vec<f64> = g.ratio(1, 0, x, |s| s.all.afct_us).iter().map(|v| v - 1.0).collect();
        m.push(100.0 * mean(gain.iter().copied()));
        let r = if *l < 0.85 { &PROBING_80 } else { &PROBING_90 };
        checks.push(Check::of(&PROBING_IMPROVES, format!("{}: AFCT without / with probing - 1", load(size, x)), gain.clone()));
        checks.push(Check::of(r, format!("{}: AFCT without / with probing - 1", load(size, x)), gain));
    }
    Some(Judged {
        value: format!("probing lowers AFCT by {}% (loads {})", span(&m), size.xs.iter().map(|x| fmt(*x)).collect::<Vec<_>>().join(", ")),
        checks,
        notes: Vec::new(),
    })
}
