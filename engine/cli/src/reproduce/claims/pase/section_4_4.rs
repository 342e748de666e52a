//! Section 4.4, Figure 13(b): the testbed.

use super::*;

// --------------------------------------------------- Figure 13(b): testbed

pub(super) const TESTBED: [Reading; 3] = range_readings(
    0.5,
    0.6,
    "it achieves ≈50%-60% smaller AFCTs compared to DCTCP",
    "it achieves ≈50%-60% smaller AFCTs compared to DCTCP",
    "1 minus PASE's AFCT over DCTCP's",
);
pub(super) const TESTBED_SIG: Reading = Reading {
    key: "significantly",
    says: "PASE significantly outperforms DCTCP",
    of: "DCTCP's AFCT over PASE's",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};

pub(super) const TESTBED_OUTPERFORMS: Reading = Reading {
    key: "outperforms",
    says: "PASE significantly outperforms DCTCP",
    of: "DCTCP's AFCT over PASE's",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn testbed(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &[P::Pase, P::Dctcp], |p, _, x| with(&lab.scenario("pase-testbed"), *p, x), false)?;
    let smaller: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(0, 1, x, |s| s.all.afct_us).iter().map(|v| 1.0 - v).collect()).collect();
    let mut checks = range_checks(&TESTBED[0], &TESTBED[1], &TESTBED[2], "1 - PASE / DCTCP AFCT", &smaller, |i| load(size, i));
    checks.extend(
        (0..size.xs.len()).map(|x| Check::of(&TESTBED_OUTPERFORMS, format!("{}: DCTCP / PASE AFCT", load(size, x)), g.ratio(1, 0, x, |s| s.all.afct_us))),
    );
    checks.extend((0..size.xs.len()).map(|x| Check::of(&TESTBED_SIG, format!("{}: DCTCP / PASE AFCT", load(size, x)), g.ratio(1, 0, x, |s| s.all.afct_us))));
    let m: Vec<f64> = smaller.iter().map(|v| 100.0 * mean(v.iter().copied())).collect();
    Some(Judged { value: format!("PASE's AFCT {}% below DCTCP's", span(&m)), checks, notes: vec![format!("by load (%): {}", by_point(size.xs, &m))] })
}
