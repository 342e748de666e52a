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

use super::stats::Interval;
use serde::Serialize;

/// What a check's bound stands for, and so what failing it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// An ordering or direction the paper states: failing it means the
    /// claim is not reproduced.
    Order,
    /// A value the paper states: failing it means dcsim differs.
    Value,
}

impl Kind {
    /// "ordering" or "value".
    pub fn name(self) -> &'static str {
        match self {
            Kind::Order => "ordering",
            Kind::Value => "value",
        }
    }
}

/// The set a checked number must lie in: from `lo` to `hi`, each end open
/// or closed. Infinite ends are unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bound {
    /// Lower end (may be -inf).
    pub lo: f64,
    /// Upper end (may be +inf).
    pub hi: f64,
    /// The number must be above `lo`, not equal to it.
    pub lo_open: bool,
    /// The number must be below `hi`, not equal to it.
    pub hi_open: bool,
}

/// Rounding allowance at a closed end: 80 ms computed as 79.99999999999 ms
/// still reaches "at least 80".
const ROUNDING: f64 = 1e-12;

impl Bound {
    /// At most `hi`.
    pub const fn at_most(hi: f64) -> Bound {
        Bound { lo: f64::NEG_INFINITY, hi, lo_open: false, hi_open: false }
    }
    /// Below `hi`.
    pub const fn below(hi: f64) -> Bound {
        Bound { lo: f64::NEG_INFINITY, hi, lo_open: false, hi_open: true }
    }
    /// At least `lo`.
    pub const fn at_least(lo: f64) -> Bound {
        Bound { lo, hi: f64::INFINITY, lo_open: false, hi_open: false }
    }
    /// Above `lo`.
    pub const fn above(lo: f64) -> Bound {
        Bound { lo, hi: f64::INFINITY, lo_open: true, hi_open: false }
    }
    /// In [lo, hi].
    pub const fn range(lo: f64, hi: f64) -> Bound {
        Bound { lo, hi, lo_open: false, hi_open: false }
    }
    /// Within `rel` of `target`, relative: [target (1 - rel), target (1 + rel)].
    pub const fn within(target: f64, rel: f64) -> Bound {
        Bound::range(target * (1.0 - rel), target * (1.0 + rel))
    }

    fn above_lo(&self, v: f64) -> bool {
        if self.lo_open {
            v > self.lo
        } else {
            v >= self.lo - ROUNDING * self.lo.abs().max(1.0)
        }
    }
    fn below_hi(&self, v: f64) -> bool {
        if self.hi_open {
            v < self.hi
        } else {
            v <= self.hi + ROUNDING * self.hi.abs().max(1.0)
        }
    }

    /// Whether `v` lies in the bound (NaN never does).
    pub fn contains(&self, v: f64) -> bool {
        !v.is_nan() && self.above_lo(v) && self.below_hi(v)
    }

    /// Where an interval lies against the bound. A missing interval (NaN:
    /// a run did not finish) fails.
    pub fn judge(&self, i: &Interval) -> Fit {
        if i.is_nan() {
            Fit::Fails
        } else if self.contains(i.lo) && self.contains(i.hi) {
            Fit::Holds
        } else if !self.below_hi(i.lo) || !self.above_lo(i.hi) {
            Fit::Fails
        } else {
            Fit::Straddles
        }
    }

    /// Whether this bound is no wider than `outer` (every number it admits,
    /// `outer` admits too): what the tests require of a check against the
    /// reading it tests.
    pub fn inside(&self, outer: &Bound) -> bool {
        let lo_ok = self.lo > outer.lo || (self.lo == outer.lo && (self.lo_open || !outer.lo_open));
        let hi_ok = self.hi < outer.hi || (self.hi == outer.hi && (self.hi_open || !outer.hi_open));
        lo_ok && hi_ok
    }

    /// In words: "at most 1.04", "in [0.45, 0.55]", "above 1".
    pub fn describe(&self) -> String {
        let f = super::fmt;
        match (self.lo.is_finite(), self.hi.is_finite()) {
            (true, true) => format!("in {}{}, {}{}", if self.lo_open { "(" } else { "[" }, f(self.lo), f(self.hi), if self.hi_open { ")" } else { "]" }),
            (true, false) => format!("{} {}", if self.lo_open { "above" } else { "at least" }, f(self.lo)),
            (false, true) => format!("{} {}", if self.hi_open { "below" } else { "at most" }, f(self.hi)),
            (false, false) => "any".into(),
        }
    }
}

/// Where a check's interval lies against its bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fit {
    /// The whole interval inside the bound.
    Holds,
    /// Part inside, part outside: the runs cannot tell.
    Straddles,
    /// The whole interval outside (or the number is missing).
    Fails,
}

impl Fit {
    /// "yes", "cannot tell", "no".
    pub fn name(self) -> &'static str {
        match self {
            Fit::Holds => "yes",
            Fit::Straddles => "cannot tell",
            Fit::Fails => "no",
        }
    }
}

/// One number a claim is judged by.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// What the number is ("load 0.8: pFabric / Ideal mean slowdown").
    pub what: String,
    /// The key of the claim's reading this check tests ([`super::Reading`]).
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
    pub fn of(reading: &super::Reading, what: impl Into<String>, samples: Vec<f64>) -> Check {
        Check::narrowed(reading, reading.bound, what, samples)
    }
    /// A check of `reading` with a bound narrower than the reading's (the
    /// tests refuse a wider one).
    pub fn narrowed(reading: &super::Reading, bound: Bound, what: impl Into<String>, samples: Vec<f64>) -> Check {
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
    use super::super::Reading;
    use super::*;

    const V: Reading = Reading { key: "v", says: "v", of: "v", bound: Bound::at_most(2.0), kind: Kind::Value, rule: Rule::Literal };
    const O: Reading = Reading { key: "o", says: "o", of: "o", bound: Bound::above(0.0), kind: Kind::Order, rule: Rule::Ordering };

    #[test]
    fn an_interval_holds_fails_or_straddles() {
        let b = Bound::range(1.0, 2.0);
        let i = |lo, hi| Interval { mean: (lo + hi) / 2.0, lo, hi, n: 3 };
        assert_eq!(b.judge(&i(1.2, 1.8)), Fit::Holds);
        assert_eq!(b.judge(&i(2.1, 2.5)), Fit::Fails);
        assert_eq!(b.judge(&i(0.1, 0.5)), Fit::Fails);
        assert_eq!(b.judge(&i(1.5, 2.5)), Fit::Straddles);
        assert_eq!(b.judge(&i(0.5, 2.5)), Fit::Straddles);
        assert_eq!(b.judge(&Interval::of(&[f64::NAN])), Fit::Fails);
        // Open ends: an interval ending on an open end does not hold.
        assert_eq!(Bound::above(0.0).judge(&i(0.0, 1.0)), Fit::Straddles);
        assert_eq!(Bound::above(0.0).judge(&i(-1.0, 0.0)), Fit::Fails);
        assert_eq!(Bound::at_least(80.0).judge(&i(80.0 - 1e-13, 80.0)), Fit::Holds);
    }

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

    #[test]
    fn a_bound_inside_another_admits_nothing_more() {
        assert!(Bound::range(0.45, 0.55).inside(&Bound::range(0.4, 0.6)));
        assert!(Bound::range(0.4, 0.6).inside(&Bound::range(0.4, 0.6)));
        assert!(!Bound::range(0.38, 0.6).inside(&Bound::range(0.4, 0.6)));
        assert!(Bound::above(1.0).inside(&Bound::at_least(1.0)));
        assert!(!Bound::at_least(1.0).inside(&Bound::above(1.0)));
        assert!(!Bound::at_most(1.05).inside(&Bound::at_most(1.04)));
        assert!(Bound::range(1.0, 1.04).inside(&Bound::at_most(1.04)));
        assert_eq!(Bound::range(0.4, 0.5).describe(), "in [0.4, 0.5]");
        assert_eq!(Bound::above(0.0).describe(), "above 0");
        assert_eq!(Bound::below(1.0).describe(), "below 1");
    }
}
