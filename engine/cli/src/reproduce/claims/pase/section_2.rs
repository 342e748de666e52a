//! Section 2.1, Figures 1 and 2: the strategies of arbitration, and
//! PDQ's switching between flows.

use super::*;

// ---------------------------------------------- section 2.1, Figure 1

pub(super) const D2TCP_PRIORITIZES: Reading = Reading {
    key: "low-load",
    says: "at low loads, D2TCP is able to meet deadlines (i.e., achieve prioritization)",
    of: "D2TCP minus DCTCP, fraction of deadlines met, low loads (0.1 to 0.3)",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const D2TCP_BEYOND_SIMILAR: Reading = Reading {
    key: "low-load-beyond-similar",
    says: "While at low loads, D2TCP is able to meet deadlines (i.e., achieve prioritization), at higher loads its performance approaches its fair-sharing counterpart, DCTCP",
    of: "D2TCP minus DCTCP, fraction of deadlines met, low loads (0.1 to 0.3): beyond what the papers call similar, since the sentence sets it against D2TCP approaching DCTCP at higher loads",
    bound: Bound::above(SIMILAR_DEADLINES),
    kind: Kind::Value,
    rule: Rule::Significant,
};
pub(super) const D2TCP_APPROACHES: Reading = Reading {
    key: "approaches-dctcp",
    says: "at higher loads its performance approaches its fair-sharing counterpart, DCTCP",
    of: "D2TCP minus DCTCP, fraction of deadlines met, at the highest load",
    bound: Bound::range(-SIMILAR_DEADLINES, SIMILAR_DEADLINES),
    kind: Kind::Value,
    rule: Rule::SimilarDeadlines,
};
pub(super) const PFABRIC_MUCH_BETTER: Reading = Reading {
    key: "much-worse",
    says: "protocols perform much worse than pFabric at high loads",
    of: "pFabric minus D2TCP and minus DCTCP, fraction of deadlines met, high loads (0.7 to 0.9)",
    bound: Bound::above(SIMILAR_DEADLINES),
    kind: Kind::Value,
    rule: Rule::Significant,
};
pub(super) const PFABRIC_BETTER: Reading = Reading {
    key: "worse",
    says: "perform much worse than pFabric at high loads",
    of: "pFabric minus D2TCP and minus DCTCP, fraction of deadlines met, high loads (0.7 to 0.9)",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn strategies(lab: &Lab, size: &Size) -> Option<Judged> {
    let schemes = [P::Dctcp, P::D2tcp, P::Pfabric];
    let g = grid(lab, size, &schemes, |p, _, x| with(&lab.scenario("d2tcp-deadlines"), *p, x), false)?;
    let mut checks = Vec::new();
    let mut low = Vec::new();
    let last = size.xs.len() - 1;
    for (x, l) in size.xs.iter().enumerate() {
        if *l <= 0.3 {
            let d = g.diff(1, 0, x, Outcome::deadlines_met);
            low.push(mean(d.iter().copied()));
            checks.push(Check::of(&D2TCP_PRIORITIZES, format!("{}: D2TCP minus DCTCP, deadlines met", load(size, x)), d.clone()));
            checks.push(Check::of(&D2TCP_BEYOND_SIMILAR, format!("{}: D2TCP minus DCTCP, deadlines met", load(size, x)), d));
        }
        if *l >= 0.7 {
            for (s, name) in [(1, "D2TCP"), (0, "DCTCP")] {
                let d = g.diff(2, s, x, Outcome::deadlines_met);
                checks.push(Check::of(&PFABRIC_BETTER, format!("{}: pFabric minus {name}, deadlines met", load(size, x)), d.clone()));
                checks.push(Check::of(&PFABRIC_MUCH_BETTER, format!("{}: pFabric minus {name}, deadlines met", load(size, x)), d));
            }
        }
    }
    checks.push(Check::of(&D2TCP_APPROACHES, format!("{}: D2TCP minus DCTCP, deadlines met", load(size, last)), g.diff(1, 0, last, Outcome::deadlines_met)));
    let row = |s: usize| by_point(size.xs, &(0..size.xs.len()).map(|x| mean(g.per_seed_outcome(s, x, Outcome::deadlines_met))).collect::<Vec<_>>());
    Some(Judged {
        value: format!(
            "D2TCP minus DCTCP in deadlines met up to load 0.3: {}; at load {}: DCTCP {}, D2TCP {}, pFabric {}",
            span(&low),
            fmt(size.xs[last]),
            fmt(mean(g.per_seed_outcome(0, last, Outcome::deadlines_met))),
            fmt(mean(g.per_seed_outcome(1, last, Outcome::deadlines_met))),
            fmt(mean(g.per_seed_outcome(2, last, Outcome::deadlines_met)))
        ),
        checks,
        notes: schemes.iter().enumerate().map(|(s, p)| format!("{} deadlines met by load: {}", p.as_str(), row(s))).collect(),
    })
}

// ---------------------------------------------- section 2.1, Figure 2

pub(super) const PDQ_POOR: Reading = Reading {
    key: "pdq-poor",
    says: "At high loads, PDQ's high flow switching overhead leads to poor performance",
    of: "PDQ's AFCT over DCTCP's (the caption compares PDQ with DCTCP), loads 0.7 to 0.9",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn pdq_switching(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &[P::Pdq, P::Dctcp], |p, _, x| with(&lab.scenario("pase-all-to-all"), *p, x), false)?;
    let r: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(0, 1, x, |s| s.all.afct_us)).collect();
    let checks = r.iter().enumerate().map(|(x, v)| Check::of(&PDQ_POOR, format!("{}: PDQ / DCTCP AFCT", load(size, x)), v.clone())).collect();
    let m: Vec<f64> = r.iter().map(|v| mean(v.iter().copied())).collect();
    let afct = |s: usize| by_point(size.xs, &(0..size.xs.len()).map(|x| g.mean(s, x, |m| m.all.afct_us / 1000.0)).collect::<Vec<_>>());
    Some(Judged {
        value: format!("PDQ / DCTCP AFCT {}", by_point(size.xs, &m)),
        checks,
        notes: vec![format!("AFCT (ms) by load: PDQ {}; DCTCP {}", afct(0), afct(1))],
    })
}
