//! Where a number must lie: the bound a reading of a paper's words gives
//! ([`Bound`]), whether failing it breaks an ordering or a value ([`Kind`]),
//! and where an interval lies against it ([`Fit`]).

use super::format::fmt;
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
        let f = fmt;
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

#[cfg(test)]
mod tests {
    use super::*;

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
