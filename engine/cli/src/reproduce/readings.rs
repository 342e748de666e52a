//! How the papers' words become bounds: every rule in one place, each with
//! its reason, used by every claim alike (the report prints this table).
//!
//! A claim lists its readings ([`Reading`]): the words of its quote
//! it tests, the quantity, the bound and the rule that made the bound from
//! the words. Checks test readings with the reading's bound or a narrower
//! one, never a wider one (the CLI tests fail on a wider one).

use super::bound::{Bound, Kind};
use serde::Serialize;

/// One quantitative reading of a claim's quote: the words it reads, the
/// quantity, and the bound the rule makes of them.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Reading {
    /// Key the checks name it by (unique within the claim).
    pub key: &'static str,
    /// The quote's words this reads ("within 4%").
    pub says: &'static str,
    /// The quantity ("pHost / pFabric mean slowdown").
    pub of: &'static str,
    /// The bound the words give.
    pub bound: Bound,
    /// Ordering or value.
    pub kind: Kind,
    /// The rule of [`readings`] that made the bound.
    pub rule: Rule,
}

/// A rule that turns the papers' words into a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A bound the paper states outright, read as written.
    Literal,
    /// An ordering or direction the paper states.
    Ordering,
    /// A number the paper gives as a value (with or without "∼").
    Approx,
    /// "Comparable", "similar", "on par", "matches" for completion times.
    Comparable,
    /// "Similar", "near-optimal", "close to optimal" for the fraction of
    /// deadlines met.
    SimilarDeadlines,
    /// "Significantly", "much", "considerably" better or worse.
    Significant,
    /// "Stable" and "unstable" (the pHost paper, Figure 7).
    Stability,
}

/// Relative tolerance of [`Rule::Approx`]: a tenth of the stated value.
pub const APPROX: f64 = 0.10;
/// Largest relative difference [`Rule::Comparable`] admits (pHost 4.3).
pub const COMPARABLE: f64 = 0.15;
/// Largest difference in the fraction of deadlines met that
/// [`Rule::SimilarDeadlines`] admits (pHost 4.3): 2 points.
pub const SIMILAR_DEADLINES: f64 = 0.02;

/// `v` read as an approximate value: v ± 10% of v.
pub const fn approx(v: f64) -> Bound {
    Bound::within(v, APPROX)
}

/// A ratio read as comparable: within 15% of 1.
pub const fn comparable() -> Bound {
    Bound::range(1.0 - COMPARABLE, 1.0 + COMPARABLE)
}

/// A ratio read as significantly above 1 (the numerator clearly larger).
pub const fn significantly_above() -> Bound {
    Bound::above(1.0 + COMPARABLE)
}

/// "Within x" of a reference, as a ratio: [1 - x, 1 + x].
pub const fn within(x: f64) -> Bound {
    Bound::range(1.0 - x, 1.0 + x)
}

impl Rule {
    /// Every rule, in the report's order.
    pub const ALL: [Rule; 7] = [Rule::Literal, Rule::Ordering, Rule::Approx, Rule::Comparable, Rule::SimilarDeadlines, Rule::Significant, Rule::Stability];

    /// The rule's short name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Literal => "literal",
            Rule::Ordering => "ordering",
            Rule::Approx => "approximate value",
            Rule::Comparable => "comparable",
            Rule::SimilarDeadlines => "similar deadlines met",
            Rule::Significant => "significant",
            Rule::Stability => "stable",
        }
    }

    /// The papers' words the rule reads.
    pub fn words(self) -> &'static str {
        match self {
            Rule::Literal => "\"within 4%\", \"under 5.5%\", \"< 6% difference\", \"more than 85%\", \"less than 1%\"",
            Rule::Ordering => "\"smaller\", \"lower\", \"better than\", \"decreases\", \"improves\"",
            Rule::Approx => "\"∼80.15 ms\", \"81.1 ms\", \"≈50%-60%\", \"by 4-10%\", \"up to 50%\", \"1.3-4×\"",
            Rule::Comparable => "\"comparable\", \"similar\", \"on par\", \"matches\", \"close to\", \"near theoretically optimal\" (completion times)",
            Rule::SimilarDeadlines => "\"similar\", \"near-optimal\", \"close to optimal\" (fraction of deadlines met)",
            Rule::Significant => "\"significantly\", \"much\", \"considerably\", \"significant improvement\"",
            Rule::Stability => "\"stable\", \"unstable\", \"remains roughly constant\", \"increases as the simulation progresses\"",
        }
    }

    /// The reading: what bound the words give.
    pub fn reading(self) -> &'static str {
        match self {
            Rule::Literal => "as written: \"within x%\" of a reference is a ratio in [1 - x, 1 + x]; \"under\", \"below\", \"less than\", \"more than\" are open bounds",
            Rule::Ordering => "the ratio or difference on the stated side of 1 or 0, strictly",
            Rule::Approx => "the value ± 10% of itself; a range \"x-y\" over an axis (loads, flows, workloads) reads as: the smallest point is x ± 10%, the largest y ± 10%, and every point lies between x - 10% and y + 10%; \"up to y\" reads as: the largest point is y ± 10% and no point is above y + 10%",
            Rule::Comparable => "a ratio within 15% of 1, either way",
            Rule::SimilarDeadlines => "a difference of at most 2 points (0.02) in the fraction of deadlines met",
            Rule::Significant => "beyond what the same papers call similar: a ratio above 1.15 (completion times) or a difference above 2 points (deadlines met), besides the ordering itself",
            Rule::Stability => "the backlog Figure 7 plots (bytes arrived at the sources and not yet sent), averaged over the second half of the arrivals, in a run twice as long over the run: stable when the two are comparable (within 15% either way, as the comparable rule), unstable when the longer run's is significantly larger (above 1.15, as the significant rule)",
        }
    }

    /// Why this reading.
    pub fn reason(self) -> &'static str {
        match self {
            Rule::Literal => "the paper's own bound",
            Rule::Ordering => "the paper's own ordering",
            Rule::Approx => "the papers give these numbers to two or three digits, several marked ∼ or ≈ and some read off their own plots, without saying how precise they are; one tolerance for all of them is this project's choice, so that no claim gets a tolerance of its own",
            Rule::Comparable => "the widest difference these papers call similar: pHost section 4.3 finds \"all three protocols see similar performance as measured by NFCT\" with \"the maximum difference in NFCT between any two protocols\" 15%",
            Rule::SimilarDeadlines => "pHost section 4.3: \"all protocols achieve similar performance in terms of fraction of flows that meet their deadlines, with the maximum difference in performance between any two protocols being 2%\"",
            Rule::Significant => "the complement of the two rules above: a difference the papers would still call similar is not a significant one",
            Rule::Stability => "pHost section 4.3 judges Figure 7 by eye, in its words: \"In a stable network, the fraction of pending packets would remain roughly constant over the duration of the simulation\", while in the unstable regime \"the measured value depends closely on the duration of the simulation\". A backlog that stays level is the same late in a run twice as long; one that grows through the run is about twice as large",
        }
    }
}
