//! The registry: every claim `dcsim reproduce` measures, one file per
//! paper. Each claim quotes its sentence, reads its words into bounds by
//! the rules of [`super::readings`], and measures them; no dcsim number is
//! written here, they come from the runs.
//!
//! To add a claim: a `Claim` in its paper's `claims()` with its quote and
//! readings (each reading's `says` must be words of the quote), and a
//! `measure` function that builds its runs from the lab's scenarios, asks
//! the lab for all of them, and returns one [`Check`] per number judged,
//! each against one of the claim's readings. In the lab's collecting pass
//! every answer is `None`: ask for every grid before unwrapping any
//! (`let (a, b) = (grid(..), grid(..)); let (a, b) = (a?, b?);`), or the
//! runs asked for after the first `?` are never planned (the test
//! `every_claim_is_planned_whole` catches it).

use super::bound::{Bound, Kind};
use super::claim::{Claim, Size};
use super::format::fmt;
use super::judge::Check;
use super::lab::{Job, Lab, Outcome};
use super::readings::{approx, Reading, Rule, APPROX};
use dcsim_core::metrics::Summary;
use dcsim_core::scenario::{ProtocolName, Scenario};

pub mod causes;
mod other;
mod pase;
mod pdq;
mod pfabric;
mod phost;

/// Every claim, in report order: the source papers', then the others'.
pub fn registry() -> Vec<Claim> {
    [pfabric::claims(), phost::claims(), pdq::claims(), pase::claims(), other::claims()]
        .into_iter()
        .flatten()
        .map(|c| {
            let cause = causes::of(c.id);
            c.caused(cause)
        })
        .collect()
}

/// The mean the registries use (see [`super::stats::mean`]).
pub use super::stats::mean;

/// "a to b" over `v` (or the one value).
pub fn span(v: &[f64]) -> String {
    if v.iter().any(|x| x.is_nan()) {
        return format!("{} (a run unfinished)", v.iter().map(|x| fmt(*x)).collect::<Vec<_>>().join(", "));
    }
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if lo == hi {
        fmt(lo)
    } else {
        format!("{} to {}", fmt(lo), fmt(hi))
    }
}

/// "0.1: 1.01, 0.5: 1.04" (point: value).
pub fn by_point(xs: &[f64], v: &[f64]) -> String {
    xs.iter().zip(v).map(|(x, y)| format!("{}: {}", fmt(*x), fmt(*y))).collect::<Vec<_>>().join(", ")
}

/// Per cent: 0.052 -> 5.2.
pub fn pct(v: &[f64]) -> Vec<f64> {
    v.iter().map(|x| 100.0 * x).collect()
}

/// Outcomes of a grid of runs: [scheme][point][seed].
pub struct Grid<'a> {
    out: Vec<&'a Outcome>,
    points: usize,
    seeds: usize,
}

impl<'a> Grid<'a> {
    /// The runs of scheme `s` at point `x`, one per seed.
    pub fn at(&self, s: usize, x: usize) -> &[&'a Outcome] {
        let i = (s * self.points + x) * self.seeds;
        &self.out[i..i + self.seeds]
    }
    /// `f` of each seed's summary (NaN for a run that did not finish).
    pub fn per_seed(&self, s: usize, x: usize, f: impl Fn(&Summary) -> f64) -> Vec<f64> {
        self.at(s, x).iter().map(|o| o.get(&f)).collect()
    }
    /// `f` of each seed's outcome.
    pub fn per_seed_outcome(&self, s: usize, x: usize, f: impl Fn(&Outcome) -> f64) -> Vec<f64> {
        self.at(s, x).iter().map(|o| f(o)).collect()
    }
    /// Scheme `a`'s `f` over scheme `b`'s, seed by seed (the same seed is
    /// the same arrivals: a paired comparison).
    pub fn ratio(&self, a: usize, b: usize, x: usize, f: impl Fn(&Summary) -> f64) -> Vec<f64> {
        self.per_seed(a, x, &f).iter().zip(self.per_seed(b, x, &f)).map(|(p, q)| p / q).collect()
    }
    /// Scheme `a`'s `f` minus scheme `b`'s, seed by seed.
    pub fn diff(&self, a: usize, b: usize, x: usize, f: impl Fn(&Outcome) -> f64) -> Vec<f64> {
        self.per_seed_outcome(a, x, &f).iter().zip(self.per_seed_outcome(b, x, &f)).map(|(p, q)| p - q).collect()
    }
    /// Scheme `s`'s data drops at point `x` by port role, summed over the
    /// seeds: "NIC / ToR up / core or spine down / ToR down" counts, as
    /// "0 / 12 / 3 / 40" (the notes that say where packets are lost).
    pub fn drops_by_hop(&self, s: usize, x: usize) -> String {
        (0..4).map(|h| self.at(s, x).iter().map(|o| o.counters.data_dropped[h]).sum::<u64>().to_string()).collect::<Vec<_>>().join(" / ")
    }
    /// Mean over seeds of `f` of the summary.
    pub fn mean(&self, s: usize, x: usize, f: impl Fn(&Summary) -> f64) -> f64 {
        mean(self.per_seed(s, x, f))
    }
}

/// Runs every scheme at every point of `size` with every seed: `make`
/// builds the scenario of (scheme, point index, point).
pub fn grid<'a, S>(lab: &'a Lab, size: &Size, schemes: &[S], make: impl Fn(&S, usize, f64) -> Scenario, records: bool) -> Option<Grid<'a>> {
    let points = size.points();
    let mut jobs = Vec::new();
    for s in schemes {
        for (i, &x) in points.iter().enumerate() {
            for &seed in size.seeds {
                let mut sc = make(s, i, x);
                if let Some(f) = size.per_scenario.iter().find(|(n, _)| *n == sc.name).map(|p| p.1).or_else(|| size.flows_at(i)) {
                    sc.workload.flows = f;
                }
                if size.requests > 0 {
                    sc = sc.with_field(requests_path(&sc), size.requests.into()).expect("a closed-loop matrix takes a number of requests");
                }
                sc.seed = seed;
                let j = Job::new(sc);
                jobs.push(if records { j.with_records() } else { j });
            }
        }
    }
    Some(Grid { out: lab.runs(jobs)?, points: points.len(), seeds: size.seeds.len() })
}

/// The field holding a closed-loop matrix's number of requests.
fn requests_path(s: &Scenario) -> &'static str {
    match s.workload.matrix {
        dcsim_core::workload::MatrixSpec::QueryAggregation { .. } => "workload.matrix.queries",
        _ => "workload.matrix.requests",
    }
}

/// `base` with protocol `p` (and load `x` when `x` is a number).
pub fn with(base: &Scenario, p: ProtocolName, load: f64) -> Scenario {
    let mut s = base.clone();
    s.protocol = p;
    if !load.is_nan() {
        s.workload.load = load;
    }
    s
}

/// The three readings of a range "lo-hi" the paper states over an axis,
/// by the approximate-value rule: the smallest point is lo ± 10%
/// (`says_lo`), the largest hi ± 10% (`says_hi`), and every point lies
/// between lo - 10% and hi + 10%; keys `smallest`, `largest`, `every`.
pub const fn range_readings(lo: f64, hi: f64, says_lo: &'static str, says_hi: &'static str, of: &'static str) -> [Reading; 3] {
    [
        Reading { key: "smallest", says: says_lo, of, bound: approx(lo), kind: Kind::Value, rule: Rule::Approx },
        Reading { key: "largest", says: says_hi, of, bound: approx(hi), kind: Kind::Value, rule: Rule::Approx },
        Reading { key: "every", says: says_hi, of, bound: Bound::range(lo * (1.0 - APPROX), hi * (1.0 + APPROX)), kind: Kind::Value, rule: Rule::Approx },
    ]
}

/// The checks of a range the paper states over an axis ("within ∼0.7-17.8%
/// of Ideal" over loads), by the approximate-value rule: the point with
/// the smallest mean against `smallest`, the one with the largest against
/// `largest`, and every point against `every`. `samples[i]` are point i's
/// samples, `label(i)` names the point.
pub fn range_checks(
    smallest: &Reading,
    largest: &Reading,
    every: &Reading,
    quantity: &str,
    samples: &[Vec<f64>],
    label: impl Fn(usize) -> String,
) -> Vec<Check> {
    let means: Vec<f64> = samples.iter().map(|s| mean(s.iter().copied())).collect();
    let pick = |better: fn(f64, f64) -> bool| (0..means.len()).fold(0, |b, i| if means[i].is_nan() || better(means[i], means[b]) { i } else { b });
    let (lo, hi) = (pick(|a, b| a < b), pick(|a, b| a > b));
    let mut checks = vec![
        Check::of(smallest, format!("smallest over the axis ({}): {quantity}", label(lo)), samples[lo].clone()),
        Check::of(largest, format!("largest over the axis ({}): {quantity}", label(hi)), samples[hi].clone()),
    ];
    checks.extend(samples.iter().enumerate().map(|(i, s)| Check::of(every, format!("{}: {quantity}", label(i)), s.clone())));
    checks
}

/// The checks of "up to y" over an axis: the point with the largest mean
/// against `largest`, every point against `every`.
pub fn up_to_checks(largest: &Reading, every: &Reading, quantity: &str, samples: &[Vec<f64>], label: impl Fn(usize) -> String) -> Vec<Check> {
    let means: Vec<f64> = samples.iter().map(|s| mean(s.iter().copied())).collect();
    let hi = (0..means.len()).fold(0, |b, i| if means[i].is_nan() || means[i] > means[b] { i } else { b });
    let mut checks = vec![Check::of(largest, format!("largest over the axis ({}): {quantity}", label(hi)), samples[hi].clone())];
    checks.extend(samples.iter().enumerate().map(|(i, s)| Check::of(every, format!("{}: {quantity}", label(i)), s.clone())));
    checks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reproduce::claim::Paper;
    use std::path::PathBuf;

    /// The text the quotes are compared in: ligatures and typographic
    /// quotes plain, the extraction's ⇥ for ×, and without white space or
    /// hyphens (the excerpts break words across lines with a hyphen:
    /// "bot-\ntleneck", which must match "bottleneck" and "near-\nideal"
    /// "near-ideal" alike).
    fn plain(s: &str) -> String {
        let s = s
            .replace('ﬁ', "fi")
            .replace('ﬂ', "fl")
            .replace('ﬀ', "ff")
            .replace('ﬃ', "ffi")
            .replace('ﬄ', "ffl")
            .replace(['’', '‘'], "'")
            .replace(['“', '”'], "\"")
            .replace('⇥', "×");
        s.chars().filter(|c| !c.is_whitespace() && *c != '-').collect()
    }

    /// Every quote a claim says is in the excerpts is there, word for word
    /// (each part between "[...]"), in its paper's excerpt files of
    /// `../shared/papers/` (when this checkout sits beside them).
    #[test]
    fn quotes_said_to_be_in_the_excerpts_are_there_word_for_word() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/papers");
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).map(|t| plain(&t));
        let Ok(pfabric) = read("003_5127f2f10e0919c6.txt") else {
            eprintln!("skipped: {} is not here", dir.display());
            return;
        };
        let text = |p: Paper| -> String {
            match p {
                Paper::PFabric => pfabric.clone(),
                Paper::PHost => read("001_a5918b41178178de.txt").unwrap(),
                Paper::Pdq => read("004_c95b59bc1f42aa4c.txt").unwrap(),
                Paper::Pase => read("000_cbc38bb7057dcdcc.txt").unwrap() + " " + &read("002_d3ec5008830fbfcd.txt").unwrap(),
                Paper::D2tcp | Paper::L2dct => String::new(),
            }
        };
        let mut missing = Vec::new();
        for c in registry().iter().filter(|c| c.in_excerpt) {
            let t = text(c.paper);
            for part in c.quote.split("[...]").map(|p| plain(p.trim())).filter(|p| !p.is_empty()) {
                if !t.contains(&part) {
                    missing.push(format!("{}: {part:?}", c.id));
                }
            }
        }
        assert!(missing.is_empty(), "quotes not found word for word in the excerpts:\n{}", missing.join("\n"));
    }

    /// Every cause names a claim, and says something.
    #[test]
    fn every_cause_is_a_claims() {
        let reg = registry();
        for id in causes::ids() {
            let c = reg.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("a cause for {id}, which is no claim"));
            assert!(c.cause.is_some_and(|k| k.why.len() > 80), "{id}: a cause without its evidence");
        }
    }
}
