//! Section 4.3, Figures 8 to 10: the bimodal workload, the permutation
//! matrix, incast and buffer sizes.

use super::*;

// ------------------------------------------------------ bimodal, Fig 8

pub(super) const MATCHES: Reading = Reading {
    key: "matches",
    says: "pHost once again matches pFabric's performance over the spectrum of test cases",
    of: "pHost's mean slowdown over pFabric's",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};
pub(super) const FP_SIMILAR_LONG: Reading = Reading {
    key: "fastpass-similar",
    says: "Fastpass performs similar to pHost and pFabric when there are 90% long flows",
    of: "Fastpass's mean slowdown over pHost's with 10% short flows",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};
pub(super) const FP_WORSE: Reading = Reading {
    key: "fastpass-worse",
    says: "gets significantly worse as the fraction of short flows increases",
    of: "Fastpass's mean slowdown over pHost's with the most short flows",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};
pub(super) const FP_WORSENS: Reading = Reading {
    key: "fastpass-worsens",
    says: "gets significantly worse as the fraction of short flows increases",
    of: "Fastpass / pHost with the most short flows minus with 10%",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn bimodal(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &SCHEMES,
        |p, _, f| with(&lab.scenario("phost-bimodal"), *p, f64::NAN).with_field("workload.sizes.short_fraction", f.into()).expect("a bimodal workload"),
        false,
    )?;
    let mut checks: Vec<Check> = (0..size.xs.len())
        .map(|x| {
            Check::of(&MATCHES, format!("{}% short flows: pHost / pFabric mean slowdown", fmt(100.0 * size.xs[x])), g.ratio(PH, PF, x, |s| s.all.mean_slowdown))
        })
        .collect();
    let ten = size.xs.iter().position(|f| *f == 0.1).expect("the 10% point");
    let last = size.xs.len() - 1;
    let (a, b) = (g.ratio(FP, PH, ten, |s| s.all.mean_slowdown), g.ratio(FP, PH, last, |s| s.all.mean_slowdown));
    checks.push(Check::of(&FP_SIMILAR_LONG, "10% short flows: Fastpass / pHost mean slowdown", a.clone()));
    checks.push(Check::of(&FP_WORSE, format!("{}% short flows: Fastpass / pHost mean slowdown", fmt(100.0 * size.xs[last])), b.clone()));
    checks.push(Check::of(
        &FP_WORSENS,
        format!("Fastpass / pHost at {}% short minus at 10%", fmt(100.0 * size.xs[last])),
        b.iter().zip(&a).map(|(p, q)| p - q).collect(),
    ));
    let row = |s: usize| by_point(size.xs, &(0..size.xs.len()).map(|x| g.mean(s, x, |m| m.all.mean_slowdown)).collect::<Vec<_>>());
    Some(Judged {
        value: format!(
            "pHost/pFabric {}, Fastpass/pHost {} (10% short) to {} ({}% short)",
            span(&(0..size.xs.len()).map(|x| mean(g.ratio(PH, PF, x, |s| s.all.mean_slowdown))).collect::<Vec<_>>()),
            fmt(mean(a)),
            fmt(mean(b)),
            fmt(100.0 * size.xs[last])
        ),
        checks,
        notes: vec![format!("mean slowdown by fraction of short flows: pFabric {}", row(PF)), format!("pHost {}", row(PH)), format!("Fastpass {}", row(FP))],
    })
}

// -------------------------------------------------- permutation, Fig 9

pub(super) const PERM_PF: Reading = Reading {
    key: "beats-pfabric",
    says: "pHost significantly outperforms both pFabric and Fastpass",
    of: "pFabric's mean slowdown over pHost's",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const PERM_FP: Reading = Reading {
    key: "beats-fastpass",
    says: "pHost significantly outperforms both pFabric and Fastpass",
    of: "Fastpass's mean slowdown over pHost's",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const PERM_SIG: Reading = Reading {
    key: "significantly",
    says: "significantly outperforms",
    of: "pFabric's and Fastpass's mean slowdown over pHost's",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};

/// "pFabric 0.8% (0 / 12 / 3 / 40), ..." for point `x`: each scheme's share
/// of data packets dropped and its drops at hops 1 / 2 / 3 / 4 (NIC, ToR up,
/// spine down, ToR down), over every seed: where the permutation runs lose
/// packets, for the discussion of what the paper saw.
pub(super) fn drops_note(g: &Grid, x: usize) -> String {
    [(PF, "pFabric"), (PH, "pHost"), (FP, "Fastpass")]
        .iter()
        .map(|&(s, name)| {
            let runs = g.at(s, x);
            let sent: u64 = runs.iter().map(|o| o.counters.data_sent).sum();
            let dropped: u64 = runs.iter().map(|o| o.counters.data_dropped.iter().sum::<u64>()).sum();
            format!("{name} {}% ({})", fmt(100.0 * dropped as f64 / sent.max(1) as f64), g.drops_by_hop(s, x))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn permutation(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &SCHEMES, |p, _, x| workload(with(&lab.scenario("phost-permutation"), *p, f64::NAN), x), false)?;
    let mut checks = Vec::new();
    let mut value = Vec::new();
    for x in 0..size.xs.len() {
        let (pf, fp) = (g.ratio(PF, PH, x, |s| s.all.mean_slowdown), g.ratio(FP, PH, x, |s| s.all.mean_slowdown));
        value.push(format!("{}: pFabric/pHost {}, Fastpass/pHost {}", wl(size, x), fmt(mean(pf.iter().copied())), fmt(mean(fp.iter().copied()))));
        checks.push(Check::of(&PERM_PF, format!("{}: pFabric / pHost mean slowdown", wl(size, x)), pf.clone()));
        checks.push(Check::of(&PERM_SIG, format!("{}: pFabric / pHost mean slowdown", wl(size, x)), pf));
        checks.push(Check::of(&PERM_FP, format!("{}: Fastpass / pHost mean slowdown", wl(size, x)), fp.clone()));
        checks.push(Check::of(&PERM_SIG, format!("{}: Fastpass / pHost mean slowdown", wl(size, x)), fp));
    }
    let stable = |s: usize| {
        (0..size.xs.len())
            .map(|x| format!("{} {}/{}", wl(size, x), g.at(s, x).iter().filter(|o| o.summary.as_ref().is_some_and(|m| m.stable)).count(), size.seeds.len()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(Judged {
        value: value.join("; "),
        checks,
        notes: vec![
            format!(
                "runs dcsim's stability test finds stable (its backlog did not keep growing), pFabric: {}; pHost: {}; Fastpass: {}",
                stable(PF),
                stable(PH),
                stable(FP)
            ),
            format!(
                "data packets dropped (share of those sent; drops at hops NIC / ToR up / spine down / ToR down, all seeds): {}",
                (0..size.xs.len()).map(|x| format!("{}: {}", wl(size, x), drops_note(&g, x))).collect::<Vec<_>>().join("; ")
            ),
        ],
    })
}

pub(super) const PERM_LONG: Reading = Reading {
    key: "long-flows",
    says: "per-packet scheduling as in pHost and Fastpass performs significantly better than pFabric for long flows",
    of: "pFabric's mean slowdown over pHost's and over Fastpass's, every flow long",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};
pub(super) const PERM_LONG_ORDER: Reading = Reading {
    key: "long-flows-order",
    says: "performs significantly better than pFabric for long flows",
    of: "pFabric's mean slowdown over pHost's and over Fastpass's, every flow long",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn permutation_long(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &SCHEMES,
        |p, _, _| {
            with(&lab.scenario("phost-permutation"), *p, f64::NAN)
                .with_field("workload.sizes", serde_json::json!({"kind": "bimodal", "short_packets": 3, "long_packets": 700, "short_fraction": 0.0}))
                .expect("bimodal sizes")
        },
        false,
    )?;
    let (ph, fp) = (g.ratio(PF, PH, 0, |s| s.all.mean_slowdown), g.ratio(PF, FP, 0, |s| s.all.mean_slowdown));
    Some(Judged {
        value: format!("pFabric/pHost {}, pFabric/Fastpass {}", fmt(mean(ph.iter().copied())), fmt(mean(fp.iter().copied()))),
        checks: vec![
            Check::of(&PERM_LONG_ORDER, "pFabric / pHost mean slowdown", ph.clone()),
            Check::of(&PERM_LONG, "pFabric / pHost mean slowdown", ph),
            Check::of(&PERM_LONG_ORDER, "pFabric / Fastpass mean slowdown", fp.clone()),
            Check::of(&PERM_LONG, "pFabric / Fastpass mean slowdown", fp),
        ],
        notes: vec![
            format!(
                "mean slowdown: pFabric {}, pHost {}, Fastpass {}",
                fmt(g.mean(PF, 0, |s| s.all.mean_slowdown)),
                fmt(g.mean(PH, 0, |s| s.all.mean_slowdown)),
                fmt(g.mean(FP, 0, |s| s.all.mean_slowdown))
            ),
            format!("data packets dropped (share of those sent; drops at hops NIC / ToR up / spine down / ToR down, all seeds): {}", drops_note(&g, 0)),
        ],
    })
}

// -------------------------------------------------------- incast, 9(c,d)

pub(super) const INCAST_FCT: Reading = Reading {
    key: "fct-7%",
    says: "each of pHost, pFabric and Fastpass perform within 7% of each other",
    of: "largest over smallest mean flow completion time among the three",
    bound: Bound::range(1.0, 1.07),
    kind: Kind::Value,
    rule: Rule::Literal,
};
pub(super) const INCAST_RCT: Reading = Reading {
    key: "rct-4%",
    says: "the performance difference between pHost, pFabric and Fastpass is less than 4%",
    of: "largest over smallest mean request completion time among the three",
    bound: Bound { lo: 1.0, hi: 1.04, lo_open: false, hi_open: true },
    kind: Kind::Value,
    rule: Rule::Literal,
};

/// Per seed: the mean request completion time and mean flow completion
/// time of a run of the incast matrix, ms.
pub(super) fn incast_times(o: &Outcome) -> (f64, f64) {
    if !o.finished() {
        return (f64::NAN, f64::NAN);
    }
    let mut by: std::collections::BTreeMap<u32, (f64, f64)> = std::collections::BTreeMap::new();
    for r in o.records.iter().filter(|r| !r.background) {
        let e = by.entry(r.request.unwrap_or(0)).or_insert((f64::INFINITY, f64::NEG_INFINITY));
        e.0 = e.0.min(r.start.as_us_f64());
        e.1 = e.1.max(r.end.map_or(f64::NAN, |t| t.as_us_f64()));
    }
    let rct = mean(by.values().map(|(a, b)| (b - a) / 1000.0));
    let fct = mean(o.records.iter().filter(|r| !r.background).map(|r| r.fct().map_or(f64::NAN, |f| f.as_us_f64() / 1000.0)));
    (rct, fct)
}

pub(super) fn incast(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &SCHEMES,
        |p, _, n| {
            let mut s = with(&lab.scenario("incast"), *p, f64::NAN);
            if let MatrixSpec::Incast { senders, .. } = &mut s.workload.matrix {
                *senders = n as u32;
            }
            s
        },
        true,
    )?;
    let mut checks = Vec::new();
    let (mut rs, mut fs) = (Vec::new(), Vec::new());
    for x in 0..size.xs.len() {
        let t: Vec<Vec<(f64, f64)>> = (0..3).map(|s| g.at(s, x).iter().map(|o| incast_times(o)).collect()).collect();
        let spread = |f: fn(&(f64, f64)) -> f64| -> Vec<f64> {
            (0..size.seeds.len())
                .map(|k| {
                    let v: Vec<f64> = (0..3).map(|s| f(&t[s][k])).collect();
                    v.iter().copied().fold(f64::NEG_INFINITY, f64::max) / v.iter().copied().fold(f64::INFINITY, f64::min)
                })
                .collect()
        };
        let (r, f) = (spread(|p| p.0), spread(|p| p.1));
        rs.push(mean(r.iter().copied()));
        fs.push(mean(f.iter().copied()));
        checks.push(Check::of(&INCAST_RCT, format!("{} senders: largest / smallest mean request completion", fmt(size.xs[x])), r));
        checks.push(Check::of(&INCAST_FCT, format!("{} senders: largest / smallest mean flow completion", fmt(size.xs[x])), f));
    }
    Some(Judged {
        value: format!("request completion within {}, flow completion within {} of each other (largest / smallest)", span(&rs), span(&fs)),
        checks,
        notes: Vec::new(),
    })
}

// ------------------------------------------------- buffer sizes, Fig 10

pub(super) const BUFFERS: Reading = Reading {
    key: "under-1%",
    says: "varying less than 1% over the range of parameters evaluated even with tiny 6.2 KB buffers",
    of: "largest over smallest mean slowdown across buffer sizes, per scheme",
    bound: Bound { lo: 1.0, hi: 1.01, lo_open: false, hi_open: true },
    kind: Kind::Value,
    rule: Rule::Literal,
};

pub(super) fn buffers(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &SCHEMES,
        |p, _, kb| {
            let s = with(&lab.scenario("datamining-leaf-spine"), *p, f64::NAN);
            s.with_field(&format!("params.{}.buffer_bytes", p.as_str()), ((kb * 1000.0).round() as u64).into()).expect("every scheme has a buffer")
        },
        false,
    )?;
    let mut checks = Vec::new();
    let mut value = Vec::new();
    let mut notes = Vec::new();
    for (s, p) in SCHEMES.iter().enumerate() {
        let per: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.per_seed(s, x, |m| m.all.mean_slowdown)).collect();
        let spread: Vec<f64> = (0..size.seeds.len())
            .map(|k| {
                let v: Vec<f64> = per.iter().map(|p| p[k]).collect();
                v.iter().copied().fold(f64::NEG_INFINITY, f64::max) / v.iter().copied().fold(f64::INFINITY, f64::min)
            })
            .collect();
        value.push(format!("{} {}", p.as_str(), fmt(mean(spread.iter().copied()))));
        notes.push(format!(
            "{} mean slowdown by buffer (KB): {}",
            p.as_str(),
            by_point(size.xs, &per.iter().map(|v| mean(v.iter().copied())).collect::<Vec<_>>())
        ));
        checks.push(Check::of(&BUFFERS, format!("{}: largest / smallest mean slowdown over the buffer sizes", p.as_str()), spread));
    }
    Some(Judged { value: format!("largest / smallest over buffer sizes: {}", value.join(", ")), checks, notes })
}
