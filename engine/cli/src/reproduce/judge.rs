//! How a claim is judged: each check's 95% interval against the bound the
//! paper's sentence gives, and the claim's verdict from its checks.
//!
//! * A check **holds** when its whole interval lies inside its bound,
//!   **fails** when the whole interval lies outside, and **straddles**
//!   otherwise (the runs cannot tell).
//! * A claim **agrees** when every check holds; is **not reproduced** when
//!   an ordering or direction the paper states fails; **differs** when a
//!   value fails (every ordering kept or undecided); and is
//!   **inconclusive** when nothing fails but a check straddles.
//!
//! Bounds have no slack: a bound is the paper's statement read once by
//! the rules of [`super::readings`], and a check's bound must lie inside
//! the reading it tests (`Bound::inside`, checked by the CLI tests).

use super::bound::{Bound, Fit, Kind};
use super::readings::Reading;
use super::stats::Interval;
use serde::Serialize;

/// One number a claim is judged by.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// What the number is ("load 0.8: pFabric / Ideal mean slowdown").
    pub what: String,
    /// The key of the claim's reading this check tests ([`Reading`]).
    pub reading: &'static str,
    /// The samples (one per seed or per request); NaN for a run that did
    /// not finish.
    pub samples: Vec<f64>,
    /// Their mean and 95% interval.
    pub interval: Interval,
    /// Where the number must lie: the reading's bound or a narrower one.
    pub bound: Bound,
    /// Ordering or value (the reading's).
    pub kind: Kind,
}

impl Check {
    /// A check of `reading` on `samples`, with the reading's own bound.
    pub fn of(reading: &Reading, what: impl Into<String>, samples: Vec<f64>) -> Check {
        Check::narrowed(reading, reading.bound, what, samples)
    }
    /// A check of `reading` with a bound narrower than the reading's (the
    /// tests refuse a wider one).
    pub fn narrowed(reading: &Reading, bound: Bound, what: impl Into<String>, samples: Vec<f64>) -> Check {
        let interval = Interval::of(&samples);
        Check { what: what.into(), reading: reading.key, samples, interval, bound, kind: reading.kind }
    }
    /// Where its interval lies against its bound. A bound of one value
    /// ("zero drops at the first hop") is a statement about every run, not
    /// about a mean: it holds when every sample is that value and fails
    /// when one is not.
    pub fn fit(&self) -> Fit {
        if self.bound.lo == self.bound.hi && !self.bound.lo_open && !self.bound.hi_open {
            return if !self.samples.is_empty() && self.samples.iter().all(|&v| self.bound.contains(v)) { Fit::Holds } else { Fit::Fails };
        }
        self.bound.judge(&self.interval)
    }
}

/// The verdict on a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every check's interval inside its bound.
    Agrees,
    /// A value's interval outside its bound; no ordering fails.
    Differs,
    /// Nothing fails, but an interval straddles a bound: more seeds or a
    /// larger run could tell.
    Inconclusive,
    /// An ordering or direction the paper states fails (or there is nothing
    /// to check). In JSON "not reproduced", the report's word (the page
    /// reads the same words as the CSV and the Markdown).
    #[serde(rename = "not reproduced")]
    NotReproduced,
}

impl Verdict {
    /// The verdict the checks give.
    pub fn of(checks: &[Check]) -> Verdict {
        let fails = |k: Kind| checks.iter().any(|c| c.kind == k && c.fit() == Fit::Fails);
        if checks.is_empty() || fails(Kind::Order) {
            Verdict::NotReproduced
        } else if fails(Kind::Value) {
            Verdict::Differs
        } else if checks.iter().any(|c| c.fit() == Fit::Straddles) {
            Verdict::Inconclusive
        } else {
            Verdict::Agrees
        }
    }
    /// "agrees", "differs", "inconclusive", "not reproduced".
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees",
            Verdict::Differs => "differs",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotReproduced => "not reproduced",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::readings::Rule;
    use super::*;

    const V: Reading = Reading { key: "v", says: "v", of: "v", bound: Bound::at_most(2.0), kind: Kind::Value, rule: Rule::Literal };
    const O: Reading = Reading { key: "o", says: "o", of: "o", bound: Bound::above(0.0), kind: Kind::Order, rule: Rule::Ordering };

    #[test]
    fn the_verdict_comes_from_the_checks() {
        let c = |r: &Reading, s: &[f64]| Check::of(r, "c", s.to_vec());
        let ok = c(&V, &[1.0, 1.1, 0.9]);
        let off = c(&V, &[3.0, 3.1, 2.9]);
        let unsure = c(&V, &[1.0, 3.0, 2.0]);
        let wrong_way = c(&O, &[-1.0, -1.1, -0.9]);
        assert_eq!(Verdict::of(std::slice::from_ref(&ok)), Verdict::Agrees);
        assert_eq!(Verdict::of(&[ok.clone(), unsure.clone()]), Verdict::Inconclusive);
        assert_eq!(Verdict::of(&[ok.clone(), unsure.clone(), off.clone()]), Verdict::Differs);
        assert_eq!(Verdict::of(&[ok, off, wrong_way]), Verdict::NotReproduced);
        assert_eq!(Verdict::of(&[]), Verdict::NotReproduced);
        assert_eq!(Verdict::of(&[c(&V, &[f64::NAN])]), Verdict::Differs);
        // "Zero drops": every run must have none; one run with 8 fails,
        // though the mean's interval would reach below zero.
        const ZERO: Reading = Reading { key: "zero", says: "zero", of: "drops", bound: Bound::range(0.0, 0.0), kind: Kind::Value, rule: Rule::Literal };
        assert_eq!(c(&ZERO, &[0.0, 0.0, 8.0]).fit(), Fit::Fails);
        assert_eq!(c(&ZERO, &[0.0, 0.0, 0.0]).fit(), Fit::Holds);
    }
}
