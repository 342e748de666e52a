//! Planning and judging claims: the distinct runs the selected claims ask
//! for ([`plan`]), each claim judged from its runs' outcomes, under its own
//! settings and each of its variants ([`judge_all`]), and a check's bound
//! held to the reading it tests ([`bounds_as_stated`]).

use super::{run_all, Applied, Job, Lab, Outcome};
use crate::reproduce::claim::{Claim, Judged, Mode, Variant};
use crate::reproduce::judge::{Check, Verdict};
use dcsim_core::scenario::Scenario;
use std::collections::HashMap;
use std::path::Path;

/// A claim judged under one of its variants.
pub struct VariantRow {
    /// The variant.
    pub variant: Variant,
    /// Its measurement.
    pub judged: Judged,
    /// Its verdict.
    pub verdict: Verdict,
}

/// A claim's result in the report.
pub struct Row<'a> {
    /// The claim.
    pub claim: &'a Claim,
    /// Its measurement with the default settings.
    pub judged: Judged,
    /// The verdict computed from the checks.
    pub verdict: Verdict,
    /// The same claim under each of its variants.
    pub variants: Vec<VariantRow>,
}

/// Loads the scenarios every claim names.
fn load_scenarios(dir: &Path, claims: &[&Claim]) -> Result<HashMap<String, Scenario>, String> {
    let mut map = HashMap::new();
    for c in claims {
        for &name in c.setting.scenarios {
            if map.contains_key(name) {
                continue;
            }
            let path = dir.join(format!("{name}.json"));
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: cannot read ({e}); give --scenarios DIR", path.display()))?;
            let s = Scenario::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            map.insert(name.to_string(), s);
        }
    }
    Ok(map)
}

/// The settings of each measurement of a claim: the claim's own, then one
/// per variant (its own plus the variant's).
fn passes(c: &Claim) -> Vec<(Option<&Variant>, Vec<&Applied>)> {
    let own: Vec<&Applied> = c.applied.iter().collect();
    std::iter::once((None, own.clone())).chain(c.variants.iter().map(|v| (Some(v), own.iter().copied().chain(v.settings.iter()).collect()))).collect()
}

/// The distinct runs `claims` ask for at `mode`, longest first, with the
/// lab that collected them.
pub fn plan(claims: &[&Claim], mode: Mode, dir: &Path) -> Result<(Lab, Vec<Job>), String> {
    let lab = Lab::new(load_scenarios(dir, claims)?);
    for c in claims {
        for (_, settings) in passes(c) {
            lab.set_extra(&settings).map_err(|e| format!("claim {}: {e}", c.id))?;
            if (c.measure)(&lab, c.size(mode)).is_some() {
                return Err(format!("claim {}: judged before its runs", c.id));
            }
        }
        if let Some(e) = lab.errors.borrow().first() {
            return Err(format!("claim {}: {e}", c.id));
        }
    }
    // Distinct runs, records kept when any claim wants them.
    // Each run's key is computed once (it serializes the whole scenario).
    let mut jobs: Vec<(String, Job)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for j in lab.asked.take() {
        let key = j.key();
        match index.get(&key) {
            Some(&i) => jobs[i].1.records |= j.records,
            None => {
                index.insert(key.clone(), jobs.len());
                jobs.push((key, j));
            }
        }
    }
    jobs.sort_by(|(ka, a), (kb, b)| b.cost().total_cmp(&a.cost()).then_with(|| ka.cmp(kb)));
    Ok((lab, jobs.into_iter().map(|(_, j)| j).collect()))
}

/// Judges `claims` at `mode` from the outcomes in `done` (keyed by
/// [`Job::key`]), with the lab that planned them.
pub fn judge_all<'a>(claims: &[&'a Claim], mode: Mode, mut lab: Lab, done: HashMap<String, Outcome>) -> Result<Vec<Row<'a>>, String> {
    lab.done = Some(done);
    let mut rows = Vec::new();
    for c in claims {
        let mut judged_passes = Vec::new();
        for (variant, settings) in passes(c) {
            lab.set_extra(&settings)?;
            lab.unfinished.borrow_mut().clear();
            let mut judged = (c.measure)(&lab, c.size(mode)).ok_or_else(|| format!("claim {}: no judgement after its runs", c.id))?;
            for u in lab.unfinished.borrow().iter() {
                judged.notes.push(format!("a run stopped before every flow finished (its means count as missing, NaN; its fraction of deadlines met is over the flows that arrived): {u}"));
            }
            bounds_as_stated(c, &judged.checks)?;
            let verdict = Verdict::of(&judged.checks);
            judged_passes.push((variant, judged, verdict));
        }
        let mut it = judged_passes.into_iter();
        let (_, judged, verdict) = it.next().expect("the claim's own pass");
        let variants = it.map(|(v, judged, verdict)| VariantRow { variant: *v.expect("a variant's pass"), judged, verdict }).collect();
        rows.push(Row { claim: c, judged, verdict, variants });
    }
    Ok(rows)
}

/// Refuses a check that tests a reading its claim does not declare, or
/// with a bound wider than that reading's (the paper's statement read by
/// the rules of [`readings`]): a verdict is worth what its bounds are.
pub fn bounds_as_stated(c: &Claim, checks: &[Check]) -> Result<(), String> {
    for k in checks {
        let r = c
            .reading(k.reading)
            .ok_or_else(|| format!("claim {}: check \"{}\" tests reading {}, which the claim does not declare", c.id, k.what, k.reading))?;
        if !k.bound.inside(&r.bound) || k.kind != r.kind {
            return Err(format!(
                "claim {}: check \"{}\" has bound {} ({}), wider than its reading \"{}\" ({}, {}): a bound may narrow the paper's statement, never widen it",
                c.id,
                k.what,
                k.bound.describe(),
                k.kind.name(),
                r.says,
                r.bound.describe(),
                r.kind.name()
            ));
        }
    }
    Ok(())
}

/// Measures `claims` at `mode` on this machine: plans their runs, runs
/// them on `threads` threads, and judges each claim.
pub fn measure<'a>(claims: &[&'a Claim], mode: Mode, dir: &Path, threads: usize, quiet: bool) -> Result<(Vec<Row<'a>>, usize), String> {
    let (lab, jobs) = plan(claims, mode, dir)?;
    let outcomes = run_all(&jobs, threads, quiet, |_, _| Ok(()))?;
    let n = jobs.len();
    let done = jobs.iter().map(Job::key).zip(outcomes).collect();
    Ok((judge_all(claims, mode, lab, done)?, n))
}

/// The claims whose id contains one of `filter` (all when it is empty).
pub fn select<'a>(registry: &'a [Claim], filter: &[String]) -> Result<Vec<&'a Claim>, String> {
    let selected: Vec<&Claim> = registry.iter().filter(|c| filter.is_empty() || filter.iter().any(|f| c.id.contains(f.as_str()))).collect();
    if selected.is_empty() {
        return Err(format!("--filter {}: no claim matches; ids: {}", filter.join(","), registry.iter().map(|c| c.id).collect::<Vec<_>>().join(", ")));
    }
    Ok(selected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reproduce::bound::{Bound, Kind};
    use crate::reproduce::claim::{Paper, Setting, Size};
    use crate::reproduce::claims;
    use crate::reproduce::lab::run_job;
    use crate::reproduce::readings::{Reading, Rule};
    use std::path::PathBuf;

    const STATED: Reading =
        Reading { key: "within-4%", says: "within 4%", of: "a ratio", bound: Bound::range(0.96, 1.04), kind: Kind::Value, rule: Rule::Literal };

    fn widened(_: &Lab, _: &Size) -> Option<Judged> {
        Some(Judged { checks: vec![Check::narrowed(&STATED, Bound::range(0.96, 1.092), "5% past the range", vec![1.06])], ..Judged::default() })
    }

    #[test]
    fn a_bound_wider_than_the_papers_statement_is_refused() {
        let s = Size { flows: &[], seeds: &[1], xs: &[], requests: 0, per_scenario: &[] };
        let c = Claim::new(Paper::PHost, "widened", "4.2", "")
            .says("within 4%", "a claim whose check adds slack")
            .reads(&[STATED])
            .on(Setting { scenarios: &[], axis: "", quick: s, full: s, paper_size: "-", deviations: &[] })
            .measured_by(widened);
        let judged = widened(&Lab::new(HashMap::new()), &s).unwrap();
        let e = bounds_as_stated(&c, &judged.checks).unwrap_err();
        assert!(e.contains("wider than its reading") && e.contains("within 4%"), "{e}");
        let narrowed = Check::narrowed(&STATED, Bound::range(0.97, 1.04), "narrower", vec![1.0]);
        assert!(bounds_as_stated(&c, &[narrowed]).is_ok());
        let other = Reading { key: "other", ..STATED };
        assert!(bounds_as_stated(&c, &[Check::of(&other, "undeclared", vec![1.0])]).unwrap_err().contains("does not declare"));
    }

    /// Every claim asks for all its runs in the collecting pass (none is
    /// asked for only after a `?` returned early) and declares every
    /// reading its checks test, with bounds no wider: each claim is judged
    /// on one real outcome standing in for every run it planned.
    #[test]
    fn every_claim_is_planned_whole_and_judged_within_its_readings() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let reg = claims::registry();
        let all: Vec<&Claim> = reg.iter().collect();
        // A small real run with two tenants, records, a summary: every
        // measure function can read it.
        let mut s = Scenario::from_json(&std::fs::read_to_string(dir.join("phost-two-tenants.json")).unwrap()).unwrap();
        s.workload.flows = 40;
        let stand_in = run_job(&Job::new(s).with_records()).unwrap();
        for mode in [Mode::Quick, Mode::Full] {
            let (lab, jobs) = plan(&all, mode, &dir).unwrap();
            let done = jobs.iter().map(|j| (j.key(), stand_in.clone())).collect();
            let rows = judge_all(&all, mode, lab, done).unwrap_or_else(|e| panic!("{} size: {e}", mode.name()));
            assert_eq!(rows.len(), all.len());
        }
    }

    /// Every claim is complete, asks for runs at both sizes, and tests only
    /// readings it declares, each with a bound no wider than the reading's
    /// (measured on made-up outcomes would need runs: this checks the
    /// registry's data; `tests/reproduce.rs` checks the measured checks).
    #[test]
    fn every_claim_is_complete_and_asks_for_runs_at_both_sizes() {
        let reg = claims::registry();
        let mut ids = std::collections::HashSet::new();
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        for c in &reg {
            assert!(ids.insert(c.id), "duplicate id {}", c.id);
            for f in [c.statement, c.quote, c.section, c.setting.paper_size] {
                assert!(!f.trim().is_empty(), "{}: an empty field", c.id);
            }
            assert!(!c.readings.is_empty(), "{}: no reading", c.id);
            let mut keys = std::collections::HashSet::new();
            for r in c.readings {
                assert!(keys.insert(r.key), "{}: reading {} twice", c.id, r.key);
                assert!(c.quote.contains(r.says), "{}: reading {} says {:?}, not words of the quote", c.id, r.key, r.says);
            }
            assert!(!c.setting.scenarios.is_empty(), "{}", c.id);
            for mode in [Mode::Quick, Mode::Full] {
                let (_, jobs) = plan(&[c], mode, &dir).unwrap_or_else(|e| panic!("{}: {e}", c.id));
                assert!(!jobs.is_empty(), "{} asks for no run at {} size", c.id, mode.name());
                let sz = c.size(mode);
                assert!(sz.flows.len() <= 1 || sz.flows.len() == sz.xs.len(), "{}: flows per point", c.id);
                assert!(!sz.seeds.is_empty(), "{}", c.id);
            }
        }
    }
}
