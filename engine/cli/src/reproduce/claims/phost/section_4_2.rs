//! Section 4.2, Figures 3 and 4: the default setup (all-to-all, load
//! 0.6, 36 KB ports) under pFabric, pHost and Fastpass, overall and by
//! flow size.

use super::*;

// ------------------------------------------------------- Figures 3, 4

pub(super) const WITHIN_4: Reading = Reading {
    key: "within-4%",
    says: "within 4% for typical conditions",
    of: "pHost's mean slowdown over pFabric's",
    bound: within(0.04),
    kind: Kind::Value,
    rule: Rule::Literal,
};

pub(super) const OUTPERFORMS_FP: Reading = Reading {
    key: "outperforms-fastpass",
    says: "significantly outperforms Fastpass",
    of: "Fastpass's mean slowdown over pHost's",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const OUTPERFORMS_FP_SIG: Reading = Reading {
    key: "significantly-outperforms-fastpass",
    says: "significantly outperforms Fastpass",
    of: "Fastpass's mean slowdown over pHost's",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};

pub(super) fn near_pfabric(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = defaults(lab, size)?;
    let r: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(PH, PF, x, |s| s.all.mean_slowdown)).collect();
    let mut checks: Vec<Check> =
        r.iter().enumerate().map(|(x, v)| Check::of(&WITHIN_4, format!("{}: pHost / pFabric mean slowdown", wl(size, x)), v.clone())).collect();
    let fp: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(FP, PH, x, |s| s.all.mean_slowdown)).collect();
    for (x, v) in fp.iter().enumerate() {
        checks.push(Check::of(&OUTPERFORMS_FP, format!("{}: Fastpass / pHost mean slowdown", wl(size, x)), v.clone()));
        checks.push(Check::of(&OUTPERFORMS_FP_SIG, format!("{}: Fastpass / pHost mean slowdown", wl(size, x)), v.clone()));
    }
    let means: Vec<String> = r.iter().enumerate().map(|(x, v)| format!("{} {}", wl(size, x), fmt(mean(v.iter().copied())))).collect();
    let fp_means: Vec<String> = fp.iter().enumerate().map(|(x, v)| format!("{} {}", wl(size, x), fmt(mean(v.iter().copied())))).collect();
    Some(Judged { value: format!("pHost/pFabric {}; Fastpass/pHost {}", means.join(", "), fp_means.join(", ")), checks, notes: Vec::new() })
}

pub(super) const FP_RANGE: [Reading; 3] =
    range_readings(1.3, 4.0, "1.3–4× better than Fastpass", "1.3–4× better than Fastpass", "Fastpass's mean slowdown over pHost's");
pub(super) const FP_BETTER: Reading = Reading {
    key: "better",
    says: "1.3–4× better than Fastpass",
    of: "Fastpass's mean slowdown over pHost's, each trace",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const COMPARABLE_PF: Reading = Reading {
    key: "comparable",
    says: "pHost performs comparable to pFabric",
    of: "pHost's mean slowdown over pFabric's",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};

pub(super) fn vs_fastpass(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = defaults(lab, size)?;
    let r: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(FP, PH, x, |s| s.all.mean_slowdown)).collect();
    let mut checks = range_checks(&FP_RANGE[0], &FP_RANGE[1], &FP_RANGE[2], "Fastpass / pHost mean slowdown", &r, |i| wl(size, i).to_string());
    for (x, v) in r.iter().enumerate() {
        checks.push(Check::of(&FP_BETTER, format!("{}: Fastpass / pHost mean slowdown", wl(size, x)), v.clone()));
        checks.push(Check::of(&COMPARABLE_PF, format!("{}: pHost / pFabric mean slowdown", wl(size, x)), g.ratio(PH, PF, x, |s| s.all.mean_slowdown)));
    }
    let means: Vec<String> = r.iter().enumerate().map(|(x, v)| format!("{} {}", wl(size, x), fmt(mean(v.iter().copied())))).collect();
    Some(Judged { value: format!("Fastpass/pHost {}", means.join(", ")), checks, notes: Vec::new() })
}

/// Whether a flow is long in Figure 4: above 10 MB for web search and data
/// mining, above 100 KB for IMC10.
pub(super) fn is_long(r: &FlowRecord, workload: NamedCdf) -> bool {
    r.size > if workload == NamedCdf::Imc10 { 100_000 } else { 10_000_000 }
}

/// Mean slowdown of a run's long or short flows (Figure 4's split).
pub(super) fn split_slowdown(o: &Outcome, workload: NamedCdf, long: bool) -> f64 {
    if !o.finished() {
        return f64::NAN;
    }
    mean(o.records.iter().filter(|r| !r.background && is_long(r, workload) == long).filter_map(|r| r.slowdown()))
}

pub(super) const LONG_COMPARABLE: Reading = Reading {
    key: "long-comparable",
    says: "All the three schemes have similar performance for long flows",
    of: "pFabric's and Fastpass's long flows' mean slowdown over pHost's",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};
pub(super) const SHORT_COMPARABLE: Reading = Reading {
    key: "short-similar",
    says: "pHost performs similar to pFabric",
    of: "pHost's short flows' mean slowdown over pFabric's",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};
pub(super) const SHORT_FP: [Reading; 3] =
    range_readings(1.3, 4.0, "1.3–4× better than Fastpass", "1.3–4× better than Fastpass", "Fastpass's short flows' mean slowdown over pHost's");
pub(super) const SHORT_FP_BETTER: Reading = Reading {
    key: "short-better",
    says: "1.3–4× better than Fastpass",
    of: "Fastpass's short flows' mean slowdown over pHost's, each trace",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn flow_sizes(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = defaults(lab, size)?;
    let mut checks = Vec::new();
    let mut short_fp = Vec::new();
    let mut notes = Vec::new();
    for x in 0..size.xs.len() {
        let w = WORKLOADS[size.xs[x] as usize].0;
        let split = |s: usize, long: bool| g.per_seed_outcome(s, x, |o| split_slowdown(o, w, long));
        let ratio = |a: Vec<f64>, b: Vec<f64>| a.iter().zip(&b).map(|(p, q)| p / q).collect::<Vec<f64>>();
        for (s, name) in [(PF, "pFabric"), (FP, "Fastpass")] {
            checks.push(Check::of(
                &LONG_COMPARABLE,
                format!("{}: {name} / pHost, long flows' mean slowdown", wl(size, x)),
                ratio(split(s, true), split(PH, true)),
            ));
        }
        checks.push(Check::of(
            &SHORT_COMPARABLE,
            format!("{}: pHost / pFabric, short flows' mean slowdown", wl(size, x)),
            ratio(split(PH, false), split(PF, false)),
        ));
        short_fp.push(ratio(split(FP, false), split(PH, false)));
        notes.push(format!(
            "{}: mean slowdown of short / long flows: pFabric {} / {}, pHost {} / {}, Fastpass {} / {}",
            wl(size, x),
            fmt(mean(split(PF, false))),
            fmt(mean(split(PF, true))),
            fmt(mean(split(PH, false))),
            fmt(mean(split(PH, true))),
            fmt(mean(split(FP, false))),
            fmt(mean(split(FP, true)))
        ));
    }
    for (x, v) in short_fp.iter().enumerate() {
        checks.push(Check::of(&SHORT_FP_BETTER, format!("{}: Fastpass / pHost, short flows' mean slowdown", wl(size, x)), v.clone()));
    }
    checks
        .extend(range_checks(&SHORT_FP[0], &SHORT_FP[1], &SHORT_FP[2], "Fastpass / pHost, short flows' mean slowdown", &short_fp, |i| wl(size, i).to_string()));
    let m: Vec<f64> = short_fp.iter().map(|v| mean(v.iter().copied())).collect();
    Some(Judged { value: format!("short flows: Fastpass/pHost {}", span(&m)), checks, notes })
}
