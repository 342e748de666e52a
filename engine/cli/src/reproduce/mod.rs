//! `dcsim reproduce`: every claim of the four papers this project
//! reproduces (pFabric, pHost, PDQ, PASE) and the D2TCP and L2DCT claims
//! its tests hold, measured through `dcsim_core` and judged against the
//! papers' numbers, as a table on stdout and, on request, CSV and Markdown
//! (`docs/fidelity.csv`, `docs/fidelity.md`: generated, never edited).
//!
//! A [`Claim`] is data (paper, place, statement, the paper's value, the
//! tolerance and its source, scenario, quick and full sizes, the
//! deviations from the paper's setting, settings still pending in the
//! engine) plus a `measure` function that asks the [`Lab`] for runs and
//! turns their outcomes into [`Check`]s: a number, the bound it must lie
//! in, and whether the bound is an ordering the paper states or a value
//! with a tolerance. The verdict is computed here from the checks, never
//! written by a claim ([`Verdict::of`]):
//!
//! * **agrees**: every check within its bound;
//! * **differs**: a value outside its tolerance, every ordering kept;
//! * **not reproduced**: an ordering or direction the paper states fails.
//!
//! Runs are collected in two passes over the same claim functions: the
//! first records every run the selected claims ask for (a run asked by
//! several claims, identical after its settings, is run once), the pool of
//! `sweep` ([`crate::sweep::par_map`]) runs them longest first, and the
//! second pass hands each claim its outcomes.

use crate::sweep::{cores, par_map};
use dcsim_core::metrics::{Counters, FlowRecord, Summary};
use dcsim_core::scenario::{ProtocolName, Scenario};
use dcsim_core::sim::StopReason;
use dcsim_core::units::SimTime;
use dcsim_core::workload::{NamedCdf, SizeSpec};
use dcsim_core::{prepare, RunOptions};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub mod claims;

/// The arguments of `dcsim reproduce`.
#[derive(clap::Args)]
pub struct ReproduceArgs {
    /// Every claim at its reduced size (about 3 minutes on 2 cores; what CI
    /// runs). Without it, the full size: a benchmark (see the README).
    #[arg(long)]
    pub quick: bool,
    /// Only the claims whose id contains one of these (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub filter: Vec<String>,
    /// Write the table as CSV here (one row per claim).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write the whole report as Markdown here (`docs/fidelity.md` is this
    /// file from a full run).
    #[arg(long)]
    pub markdown: Option<PathBuf>,
    /// Parallel runs (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Directory holding the scenario files (default: ./scenarios, ../scenarios
    /// or the repository's, found from the executable).
    #[arg(long)]
    pub scenarios: Option<PathBuf>,
    /// List the claims with their sizes and run nothing.
    #[arg(long)]
    pub list: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Which size every claim runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Reduced sizes that still discriminate (CI).
    Quick,
    /// Sizes as close to the papers' as this machine allows (a benchmark).
    Full,
}

impl Mode {
    /// "quick" or "full".
    pub fn name(self) -> &'static str {
        match self {
            Mode::Quick => "quick",
            Mode::Full => "full",
        }
    }
}

/// The runs of a claim at one size.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    /// Flows per run: one value for every run, or one per point of `xs`;
    /// empty: the scenario's own.
    pub flows: &'static [u64],
    /// Seeds; a claim's numbers are means over them.
    pub seeds: &'static [u64],
    /// The points along the claim's axis ([`Claim::axis`]); empty: one run
    /// of the scenario as it is.
    pub xs: &'static [f64],
}

impl Size {
    /// The flows of the runs at point `i` (`None`: the scenario's).
    pub fn flows_at(&self, i: usize) -> Option<u64> {
        match self.flows.len() {
            0 => None,
            1 => Some(self.flows[0]),
            _ => Some(self.flows[i]),
        }
    }

    /// The points, or one unnamed point when the claim has no axis.
    pub fn points(&self) -> Vec<f64> {
        if self.xs.is_empty() {
            vec![f64::NAN]
        } else {
            self.xs.to_vec()
        }
    }

    /// In words: "loads 0.2, 0.5, 0.8; 2,000 flows; seeds 1, 2".
    pub fn describe(&self, axis: &str) -> String {
        let list = |v: &[String]| v.join(", ");
        let mut parts = Vec::new();
        if !self.xs.is_empty() {
            parts.push(format!("{axis} {}", list(&self.xs.iter().map(|x| fmt(*x)).collect::<Vec<_>>())));
        }
        match self.flows.len() {
            0 => parts.push("the scenario's flows".into()),
            1 => parts.push(format!("{} flows", thousands(self.flows[0]))),
            _ => parts.push(format!("{} flows", list(&self.flows.iter().map(|f| thousands(*f)).collect::<Vec<_>>()))),
        }
        let seeds = list(&self.seeds.iter().map(u64::to_string).collect::<Vec<_>>());
        parts.push(format!("seed{} {seeds}", if self.seeds.len() == 1 { "" } else { "s" }));
        parts.join("; ")
    }
}

/// The paper a claim comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    /// Alizadeh et al., SIGCOMM 2013.
    PFabric,
    /// Gao et al., CoNEXT 2015.
    PHost,
    /// Hong, Caesar, Godfrey, SIGCOMM 2012.
    Pdq,
    /// Munir et al., SIGCOMM 2014.
    Pase,
    /// Vamanan, Hasan, Vijaykumar, SIGCOMM 2012.
    D2tcp,
    /// Munir et al., INFOCOM 2013.
    L2dct,
}

impl Paper {
    /// Short name for tables.
    pub fn short(self) -> &'static str {
        match self {
            Paper::PFabric => "pFabric",
            Paper::PHost => "pHost",
            Paper::Pdq => "PDQ",
            Paper::Pase => "PASE",
            Paper::D2tcp => "D2TCP",
            Paper::L2dct => "L2DCT",
        }
    }

    /// Authors, venue and year.
    pub fn cite(self) -> &'static str {
        match self {
            Paper::PFabric => "pFabric (Alizadeh et al., SIGCOMM 2013)",
            Paper::PHost => "pHost (Gao et al., CoNEXT 2015)",
            Paper::Pdq => "PDQ (Hong, Caesar, Godfrey, SIGCOMM 2012)",
            Paper::Pase => "PASE (Munir et al., SIGCOMM 2014)",
            Paper::D2tcp => "D2TCP (Vamanan, Hasan, Vijaykumar, SIGCOMM 2012)",
            Paper::L2dct => "L2DCT (Munir et al., INFOCOM 2013)",
        }
    }
}

/// A setting a claim needs that the engine may not have yet: a dotted
/// scenario path (as `sweep --vary` takes) and its JSON value. Applied to
/// every run of the claim when the engine knows the field; otherwise the
/// claim runs without it and the report says so.
#[derive(Clone, Copy, Debug)]
pub struct Pending {
    /// Dotted path into the scenario, e.g. `workload.abort_at_deadline`.
    pub path: &'static str,
    /// The value, as JSON.
    pub value: &'static str,
    /// Why the claim needs it.
    pub why: &'static str,
}

/// Where and how big a claim's runs are; claims measured on the same runs
/// share one.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// The scenario files (`scenarios/<name>.json`) the runs start from.
    pub scenarios: &'static [&'static str],
    /// What [`Size::xs`] are (loads, senders, flows per query, ...).
    pub axis: &'static str,
    /// Reduced size (`--quick`).
    pub quick: Size,
    /// Full size.
    pub full: Size,
    /// The paper's own size, as far as known, to say how far the full size is.
    pub paper_size: &'static str,
    /// Where the setting departs from the paper's (modelling choices,
    /// smaller sizes); empty: none.
    pub deviations: &'static [&'static str],
}

/// One claim of a paper, with everything needed to test it and report it.
pub struct Claim {
    /// Stable identifier (`--filter` matches it).
    pub id: &'static str,
    /// The paper.
    pub paper: Paper,
    /// Figure, table or section of the paper.
    pub source: &'static str,
    /// The claim in words.
    pub statement: &'static str,
    /// The paper's value, as the paper states it.
    pub paper_value: &'static str,
    /// The tolerance, and where it comes from.
    pub tolerance: &'static str,
    /// Its runs' scenarios, sizes and deviations.
    pub setting: Setting,
    /// Settings the engine may not have yet (see [`Pending`]).
    pub pending: &'static [Pending],
    /// Asks the lab for runs and judges them; `None` while the lab only
    /// collects the runs asked for (the first pass).
    pub measure: fn(&Lab, &Size) -> Option<Judged>,
}

impl Claim {
    /// The size for `mode`.
    pub fn size(&self, mode: Mode) -> &Size {
        match mode {
            Mode::Quick => &self.setting.quick,
            Mode::Full => &self.setting.full,
        }
    }
}

/// What a check's bound stands for, and so what failing it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An ordering or direction the paper states: failing it means the
    /// claim is not reproduced.
    Order,
    /// A value with a tolerance: failing it means dcsim differs.
    Value,
}

/// The interval a checked number must lie in: [lo, hi] widened by `slack`
/// relative to the bound it passes (the gallery's rule, `verdict.ts`:
/// 5% slack past 1.178 admits up to 1.2369); `strict` excludes `lo`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// Lower bound (may be -inf).
    pub lo: f64,
    /// Upper bound (may be +inf).
    pub hi: f64,
    /// Relative slack past either bound.
    pub slack: f64,
    /// The value must be above `lo`, not equal to it.
    pub strict: bool,
}

impl Bound {
    /// At most `hi`.
    pub fn at_most(hi: f64) -> Bound {
        Bound { lo: f64::NEG_INFINITY, hi, slack: 0.0, strict: false }
    }
    /// At least `lo`.
    pub fn at_least(lo: f64) -> Bound {
        Bound { lo, hi: f64::INFINITY, slack: 0.0, strict: false }
    }
    /// Above `lo`.
    pub fn above(lo: f64) -> Bound {
        Bound { lo, hi: f64::INFINITY, slack: 0.0, strict: true }
    }
    /// In [lo, hi].
    pub fn range(lo: f64, hi: f64) -> Bound {
        Bound { lo, hi, slack: 0.0, strict: false }
    }
    /// Within `rel` of `target` (relative).
    pub fn within(target: f64, rel: f64) -> Bound {
        Bound::range(target * (1.0 - rel), target * (1.0 + rel))
    }
    /// The same with `slack` past the bounds.
    pub fn slack(self, slack: f64) -> Bound {
        Bound { slack, ..self }
    }

    /// Whether `v` lies in the bound (NaN never does).
    pub fn holds(&self, v: f64) -> bool {
        // Infinite bounds stay as they are (0 x inf would be NaN); a
        // finite one is widened by the slack and by rounding's 1e-12.
        let widen = |b: f64, by: f64| if b.is_finite() { b + by * b.abs() } else { b };
        let (lo, hi) = (widen(self.lo, -self.slack), widen(self.hi, self.slack));
        let above_lo = if self.strict { v > lo } else { v >= widen(lo, -1e-12) };
        !v.is_nan() && above_lo && v <= widen(hi, 1e-12)
    }

    /// In words: "at most 1.178 (5% slack)", "in [0.4, 0.5]", "above 0".
    pub fn describe(&self) -> String {
        let core = match (self.lo.is_finite(), self.hi.is_finite()) {
            (true, true) => format!("in [{}, {}]", fmt(self.lo), fmt(self.hi)),
            (true, false) => format!("{} {}", if self.strict { "above" } else { "at least" }, fmt(self.lo)),
            (false, true) => format!("at most {}", fmt(self.hi)),
            (false, false) => "any".into(),
        };
        if self.slack > 0.0 {
            format!("{core} ({}% slack)", fmt(100.0 * self.slack))
        } else {
            core
        }
    }
}

/// One number a claim is judged by.
#[derive(Clone, Debug)]
pub struct Check {
    /// What the number is ("load 0.8: pFabric / Ideal mean slowdown").
    pub what: String,
    /// dcsim's value (NaN when a run it needs did not finish).
    pub value: f64,
    /// Where it must lie.
    pub bound: Bound,
    /// Ordering or value.
    pub kind: Kind,
}

impl Check {
    /// An ordering the paper states.
    pub fn order(what: impl Into<String>, value: f64, bound: Bound) -> Check {
        Check { what: what.into(), value, bound, kind: Kind::Order }
    }
    /// A value with its tolerance.
    pub fn value(what: impl Into<String>, value: f64, bound: Bound) -> Check {
        Check { what: what.into(), value, bound, kind: Kind::Value }
    }
    /// Whether the value lies in its bound.
    pub fn holds(&self) -> bool {
        self.bound.holds(self.value)
    }
}

/// What a claim's measurement gives.
#[derive(Clone, Debug, Default)]
pub struct Judged {
    /// dcsim's value(s) in a few words, from the checks' numbers.
    pub value: String,
    /// The numbers the verdict is computed from.
    pub checks: Vec<Check>,
    /// More numbers worth reading beside the checks (not judged).
    pub notes: Vec<String>,
}

/// The verdict on a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every check holds.
    Agrees,
    /// A value is outside its tolerance; every ordering holds.
    Differs,
    /// An ordering the paper states fails (or there is nothing to check).
    NotReproduced,
}

impl Verdict {
    /// The verdict the checks give: any failed ordering, not reproduced;
    /// else any failed value, differs; else agrees.
    pub fn of(checks: &[Check]) -> Verdict {
        if checks.is_empty() || checks.iter().any(|c| c.kind == Kind::Order && !c.holds()) {
            Verdict::NotReproduced
        } else if checks.iter().any(|c| !c.holds()) {
            Verdict::Differs
        } else {
            Verdict::Agrees
        }
    }
    /// "agrees", "differs", "not reproduced".
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees",
            Verdict::Differs => "differs",
            Verdict::NotReproduced => "not reproduced",
        }
    }
}

/// One run a claim asks for.
#[derive(Clone, Debug)]
pub struct Job {
    /// The scenario, settings applied.
    pub scenario: Scenario,
    /// Stop at this simulated time instead of the end (the outcome then has
    /// no summary).
    pub until_us: Option<f64>,
    /// Keep the per-flow records.
    pub records: bool,
}

impl Job {
    /// A run of `scenario` to its end.
    pub fn new(scenario: Scenario) -> Job {
        Job { scenario, until_us: None, records: false }
    }
    /// Keep the per-flow records.
    pub fn with_records(self) -> Job {
        Job { records: true, ..self }
    }
    /// Stop at `us` of simulated time.
    pub fn until_us(self, us: f64) -> Job {
        Job { until_us: Some(us), ..self }
    }
    fn key(&self) -> String {
        format!("{}|{:?}", serde_json::to_string(&self.scenario).expect("scenarios serialize"), self.until_us)
    }
    /// A rough cost, to start the longest runs first.
    fn cost(&self) -> f64 {
        let s = &self.scenario;
        if matches!(s.protocol, ProtocolName::Ideal | ProtocolName::OptimalDeadline) {
            return 0.01 * s.workload.flows as f64;
        }
        let per_flow = match &s.workload.sizes {
            SizeSpec::Cdf { name: Some(NamedCdf::Datamining), .. } => 4.0,
            SizeSpec::Cdf { name: Some(NamedCdf::Imc10), .. } => 0.3,
            SizeSpec::Cdf { .. } => 1.0,
            _ => 0.1,
        };
        let t = self.until_us.map_or(1.0, |_| 0.2);
        t * per_flow * s.workload.flows as f64 * (0.5 + s.workload.load)
    }
}

/// What a run gave.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The summary (`None` for a run stopped at `until_us`).
    pub summary: Option<Summary>,
    /// Packet counters.
    pub counters: Counters,
    /// Per-flow records, when asked for.
    pub records: Vec<FlowRecord>,
    /// Data bytes delivered per tenant (at the stop for `until_us` runs).
    pub tenant_bytes: Vec<u64>,
    /// Arbitration messages processed (PASE).
    pub arbitration_messages: Option<u64>,
    /// Wall time of the run, seconds.
    pub wall_s: f64,
}

impl Outcome {
    /// The summary of a run to its end.
    pub fn summary(&self) -> &Summary {
        self.summary.as_ref().expect("a run to its end has a summary")
    }
    /// Whether every flow finished (or was settled by its protocol).
    pub fn finished(&self) -> bool {
        self.summary.as_ref().is_none_or(|s| s.stop == StopReason::AllFlowsDone)
    }
    /// `f` of the summary, or NaN when the run did not finish (a number
    /// from an unfinished run would not mean what the claim says).
    pub fn get(&self, f: impl Fn(&Summary) -> f64) -> f64 {
        if self.finished() {
            f(self.summary())
        } else {
            f64::NAN
        }
    }
    /// The fraction of the arrived flows that met their deadlines, finished
    /// or not: a flow left unfinished by a limit missed its deadline, so
    /// the fraction stays meaningful (over the flows that arrived).
    pub fn deadlines_met(&self) -> f64 {
        self.summary().deadlines_met.unwrap_or(f64::NAN)
    }
}

/// Runs one job.
fn run_job(job: &Job) -> Result<Outcome, String> {
    let t0 = Instant::now();
    let mut r = prepare(&job.scenario, RunOptions::default())?;
    if let Some(us) = job.until_us {
        r.run_until(SimTime::from_us_f64(us));
        let out = Outcome {
            summary: None,
            counters: r.counters().clone(),
            records: if job.records { r.records().to_vec() } else { Vec::new() },
            tenant_bytes: r.tenant_bytes_delivered(),
            arbitration_messages: r.arbitration_messages(),
            wall_s: 0.0,
        };
        return Ok(Outcome { wall_s: t0.elapsed().as_secs_f64(), ..out });
    }
    while r.run_events(1 << 22) {}
    let (tenant_bytes, arbitration_messages) = (r.tenant_bytes_delivered(), r.arbitration_messages());
    let o = r.finish();
    Ok(Outcome {
        summary: Some(o.summary),
        counters: o.counters,
        records: if job.records { o.records } else { Vec::new() },
        tenant_bytes,
        arbitration_messages,
        wall_s: t0.elapsed().as_secs_f64(),
    })
}

/// Where claims get their scenarios and runs. In the first pass it records
/// the runs asked for and answers `None`; in the second it answers with
/// their outcomes.
pub struct Lab {
    scenarios: HashMap<String, Scenario>,
    /// Settings applied to every run of the claim being measured (its
    /// pending settings the engine knows).
    extra: RefCell<Vec<(String, Value)>>,
    asked: RefCell<Vec<Job>>,
    done: Option<HashMap<String, Outcome>>,
    /// Runs handed out since the last reset that did not finish, in words.
    unfinished: RefCell<Vec<String>>,
    errors: RefCell<Vec<String>>,
}

impl Lab {
    /// A lab holding `scenarios` (name -> scenario), collecting runs.
    pub fn new(scenarios: HashMap<String, Scenario>) -> Lab {
        Lab { scenarios, extra: RefCell::new(Vec::new()), asked: RefCell::new(Vec::new()), done: None, unfinished: RefCell::new(Vec::new()), errors: RefCell::new(Vec::new()) }
    }

    /// A copy of `scenarios/<name>.json` (one of the claim's `scenarios`).
    pub fn scenario(&self, name: &str) -> Scenario {
        self.scenarios.get(name).unwrap_or_else(|| panic!("claim asks for scenario {name}, not in its `scenarios` list")).clone()
    }

    /// The outcomes of `jobs`, in order, or `None` in the collecting pass.
    pub fn runs(&self, jobs: Vec<Job>) -> Option<Vec<&Outcome>> {
        let mut keyed = Vec::with_capacity(jobs.len());
        for mut j in jobs {
            for (path, v) in self.extra.borrow().iter() {
                match j.scenario.with_field(path, v.clone()) {
                    Ok(s) => j.scenario = s,
                    Err(e) => self.errors.borrow_mut().push(e),
                }
            }
            keyed.push((j.key(), j));
        }
        match &self.done {
            None => {
                self.asked.borrow_mut().extend(keyed.into_iter().map(|(_, j)| j));
                None
            }
            Some(done) => {
                let out: Vec<&Outcome> = keyed.iter().map(|(k, _)| done.get(k).expect("every run asked for was run")).collect();
                for ((_, j), o) in keyed.iter().zip(&out) {
                    if !o.finished() {
                        let s = &j.scenario;
                        let why = o.summary().note.clone().unwrap_or_default();
                        let matrix = serde_json::to_string(&s.workload.matrix).unwrap_or_default();
                        let line = format!("{} under {}, matrix {matrix}, load {}, seed {}: {why}", s.name, s.protocol.as_str(), fmt(s.workload.load), s.seed);
                        let mut u = self.unfinished.borrow_mut();
                        if !u.contains(&line) {
                            u.push(line);
                        }
                    }
                }
                Some(out)
            }
        }
    }
}

/// A claim's result in the report.
pub struct Row<'a> {
    /// The claim.
    pub claim: &'a Claim,
    /// Its measurement.
    pub judged: Judged,
    /// The verdict computed from the checks.
    pub verdict: Verdict,
    /// Pending settings applied (true) or not in this engine yet (false).
    pub pending: Vec<(Pending, bool)>,
}

/// The whole report.
pub struct Report<'a> {
    /// Quick or full.
    pub mode: Mode,
    /// One row per claim, in registry order.
    pub rows: Vec<Row<'a>>,
    /// Distinct runs.
    pub runs: usize,
    /// Parallel runs.
    pub threads: usize,
    /// Wall time of the whole report, seconds.
    pub wall_s: f64,
    /// The command as typed (for the Markdown's header).
    pub command: String,
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

/// Which of a claim's pending settings the engine knows: tried on its
/// first scenario. An unknown field means "not yet"; any other refusal is
/// an error.
fn resolve_pending(c: &Claim, lab: &Lab) -> Result<Vec<(Pending, bool)>, String> {
    let Some(&first) = c.setting.scenarios.first() else { return Ok(Vec::new()) };
    let s = lab.scenario(first);
    c.pending
        .iter()
        .map(|p| {
            let v: Value = serde_json::from_str(p.value).map_err(|e| format!("claim {}: pending {} = {}: {e}", c.id, p.path, p.value))?;
            match s.with_field(p.path, v) {
                Ok(_) => Ok((*p, true)),
                Err(e) if e.contains("unknown field") || e.contains("unknown variant") => Ok((*p, false)),
                Err(e) => Err(format!("claim {}: pending setting {e}", c.id)),
            }
        })
        .collect()
}

/// Sets the lab's extra settings to a claim's applied pending ones.
fn set_extra(lab: &Lab, pending: &[(Pending, bool)]) {
    *lab.extra.borrow_mut() = pending.iter().filter(|p| p.1).map(|(p, _)| (p.path.to_string(), serde_json::from_str(p.value).expect("checked"))).collect();
}

/// Measures `claims` at `mode`: collects their runs, runs them on
/// `threads` threads, and judges each claim.
pub fn measure<'a>(claims: &[&'a Claim], mode: Mode, dir: &Path, threads: usize, quiet: bool) -> Result<(Vec<Row<'a>>, usize), String> {
    let mut lab = Lab::new(load_scenarios(dir, claims)?);
    let mut pendings = Vec::new();
    for c in claims {
        let p = resolve_pending(c, &lab)?;
        set_extra(&lab, &p);
        if (c.measure)(&lab, c.size(mode)).is_some() {
            return Err(format!("claim {}: judged before its runs", c.id));
        }
        pendings.push(p);
    }
    if let Some(e) = lab.errors.borrow().first() {
        return Err(e.clone());
    }
    // Distinct runs, records kept when any claim wants them.
    let mut jobs: Vec<(String, Job)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for j in lab.asked.take() {
        let k = j.key();
        match index.get(&k) {
            Some(&i) => jobs[i].1.records |= j.records,
            None => {
                index.insert(k.clone(), jobs.len());
                jobs.push((k, j));
            }
        }
    }
    jobs.sort_by(|a, b| b.1.cost().total_cmp(&a.1.cost()));
    let t0 = Instant::now();
    let n = jobs.len();
    let done_count = std::sync::atomic::AtomicUsize::new(0);
    let results = par_map(&jobs, threads, |_, (_, j)| {
        let r = run_job(j);
        let k = done_count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        if !quiet {
            let s = &j.scenario;
            let what = format!("{} {} load {} flows {} seed {}", s.name, s.protocol.as_str(), fmt(s.workload.load), s.workload.flows, s.seed);
            let took = r.as_ref().map_or(String::new(), |o| format!(" ({:.1} s)", o.wall_s));
            eprintln!("[{:.1}s] run {k}/{n} done: {what}{took}", t0.elapsed().as_secs_f64());
        }
        r
    });
    let mut done = HashMap::new();
    for ((k, j), r) in jobs.into_iter().zip(results) {
        let o = r.map_err(|e| format!("{} ({}): {e}", j.scenario.name, j.scenario.protocol.as_str()))?;
        done.insert(k, o);
    }
    lab.done = Some(done);
    let mut rows = Vec::new();
    for (c, pending) in claims.iter().zip(pendings) {
        set_extra(&lab, &pending);
        lab.unfinished.borrow_mut().clear();
        let mut judged = (c.measure)(&lab, c.size(mode)).ok_or_else(|| format!("claim {}: no judgement after its runs", c.id))?;
        for u in lab.unfinished.borrow().iter() {
            judged.notes.push(format!("a run stopped before every flow finished (its means count as missing, NaN; its fraction of deadlines met is over the flows that arrived): {u}"));
        }
        let verdict = Verdict::of(&judged.checks);
        rows.push(Row { claim: c, judged, verdict, pending });
    }
    Ok((rows, n))
}

/// `dcsim reproduce ...`.
pub fn reproduce(a: ReproduceArgs, dir: PathBuf) -> Result<(), String> {
    let registry = claims::registry();
    let selected: Vec<&Claim> = registry.iter().filter(|c| a.filter.is_empty() || a.filter.iter().any(|f| c.id.contains(f.as_str()))).collect();
    if selected.is_empty() {
        return Err(format!("--filter {}: no claim matches; ids: {}", a.filter.join(","), registry.iter().map(|c| c.id).collect::<Vec<_>>().join(", ")));
    }
    let mode = if a.quick { Mode::Quick } else { Mode::Full };
    if a.list {
        for c in &selected {
            println!("{:<34} {:<8} {}: {}", c.id, c.paper.short(), mode.name(), c.size(mode).describe(c.setting.axis));
        }
        return Ok(());
    }
    let threads = a.jobs.unwrap_or_else(cores).max(1);
    let t0 = Instant::now();
    let (rows, runs) = measure(&selected, mode, &dir, threads, a.quiet)?;
    let command = std::iter::once("dcsim".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
    let report = Report { mode, rows, runs, threads, wall_s: t0.elapsed().as_secs_f64(), command };
    print!("{}", table(&report));
    if let Some(p) = &a.csv {
        crate::write_file(p, &csv(&report)?)?;
    }
    if let Some(p) = &a.markdown {
        crate::write_file(p, &markdown(&report))?;
    }
    Ok(())
}

/// A number to 4 significant digits (whole numbers from 1,000 up).
pub fn fmt(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x.abs() >= 1000.0 {
        return format!("{x:.0}");
    }
    if x == 0.0 {
        return "0".into();
    }
    let digits = (3 - x.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// 10000 -> "10,000".
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Counts of each verdict, in words.
fn tally(rows: &[Row]) -> String {
    let n = |v: Verdict| rows.iter().filter(|r| r.verdict == v).count();
    format!("{} claims: {} agree, {} differ, {} not reproduced", rows.len(), n(Verdict::Agrees), n(Verdict::Differs), n(Verdict::NotReproduced))
}

/// The table on stdout: claim | paper value | dcsim value | tolerance | verdict.
pub fn table(r: &Report) -> String {
    let head = ["claim", "paper value", "dcsim value", "tolerance", "verdict"];
    let cells: Vec<[String; 5]> = r
        .rows
        .iter()
        .map(|x| [x.claim.id.to_string(), x.claim.paper_value.to_string(), x.judged.value.clone(), x.claim.tolerance.to_string(), x.verdict.name().to_string()])
        .collect();
    let width = |i: usize| cells.iter().map(|c| c[i].chars().count()).chain([head[i].len()]).max().unwrap_or(0);
    let w: Vec<usize> = (0..5).map(width).collect();
    let line = |c: &[String]| c.iter().zip(&w).map(|(s, w)| format!("{s:<w$}")).collect::<Vec<_>>().join(" | ").trim_end().to_string() + "\n";
    let mut out = line(&head.map(String::from));
    out += &(w.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("-+-") + "\n");
    for c in &cells {
        out += &line(c);
    }
    out + &format!("\n{} ({} size, {} runs on {} threads, {:.0} s)\n", tally(&r.rows), r.mode.name(), r.runs, r.threads, r.wall_s)
}

/// The CSV: one row per claim.
pub fn csv(r: &Report) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| e.to_string();
    w.write_record(["claim", "paper", "source", "statement", "paper_value", "dcsim_value", "tolerance", "verdict", "checks_holding", "checks", "size", "deviations", "pending"]).map_err(err)?;
    for x in &r.rows {
        let c = x.claim;
        let holding = x.judged.checks.iter().filter(|k| k.holds()).count();
        let pending = x.pending.iter().map(|(p, on)| format!("{}={} ({})", p.path, p.value, if *on { "applied" } else { "not in this engine yet" })).collect::<Vec<_>>().join("; ");
        let size = format!("{}: {}", r.mode.name(), c.size(r.mode).describe(c.setting.axis));
        let dev = if c.setting.deviations.is_empty() { "none".to_string() } else { c.setting.deviations.join("; ") };
        w.write_record([
            c.id,
            c.paper.cite(),
            c.source,
            c.statement,
            c.paper_value,
            &x.judged.value,
            c.tolerance,
            x.verdict.name(),
            &holding.to_string(),
            &x.judged.checks.len().to_string(),
            &size,
            &dev,
            &pending,
        ])
        .map_err(err)?;
    }
    String::from_utf8(w.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

/// Escapes a table cell for Markdown.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Today's date (UTC), from the system clock.
fn today() -> String {
    let days = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}-{m:02}-{d:02}")
}

/// The Markdown report: how it was made, the table, then each claim.
pub fn markdown(r: &Report) -> String {
    let mut s = String::new();
    s += "# Fidelity report\n\n";
    s += &format!(
        "Generated by `{}` ({} size) with dcsim {} on {}: {} distinct runs on {} threads, {:.0} s wall time. \
         Do not edit this file: regenerate it with the command (`dcsim reproduce --help`; README, \"Fidelity report\").\n\n",
        r.command,
        r.mode.name(),
        env!("CARGO_PKG_VERSION"),
        today(),
        r.runs,
        r.threads,
        r.wall_s
    );
    s += "Each claim is measured by runs through the engine and judged by checks: a number, the bound it must lie in, \
          and whether the bound is an ordering the paper states or a value with a tolerance. The verdict is computed \
          from them: **agrees** (every check holds), **differs** (a value outside its tolerance, every ordering kept), \
          **not reproduced** (an ordering or direction the paper states fails). Numbers are means over the seeds listed.\n\n";
    s += &format!("{}.\n\n", tally(&r.rows));
    s += "| claim | paper | paper value | dcsim value | tolerance | verdict |\n|---|---|---|---|---|---|\n";
    for x in &r.rows {
        let c = x.claim;
        s += &format!("| [{}](#{}) | {}, {} | {} | {} | {} | **{}** |\n", c.id, c.id, c.paper.short(), cell(c.source), cell(c.paper_value), cell(&x.judged.value), cell(c.tolerance), x.verdict.name());
    }
    for x in &r.rows {
        let c = x.claim;
        s += &format!("\n<a id=\"{}\"></a>\n## {} ({})\n\n", c.id, c.id, x.verdict.name());
        s += &format!("{}, {}: {}\n\n", c.paper.cite(), c.source, c.statement);
        s += &format!("* Paper value: {}\n", c.paper_value);
        s += &format!("* Tolerance: {}\n", c.tolerance);
        let files: Vec<String> = c.setting.scenarios.iter().map(|n| format!("`scenarios/{n}.json`")).collect();
        s += &format!("* Scenario: {}\n", files.join(", "));
        s += &format!("* Size ({}): {}\n", r.mode.name(), c.size(r.mode).describe(c.setting.axis));
        let other = if r.mode == Mode::Full { Mode::Quick } else { Mode::Full };
        s += &format!("* Size ({}): {}\n", other.name(), c.size(other).describe(c.setting.axis));
        s += &format!("* The paper's size: {}\n", c.setting.paper_size);
        if c.setting.deviations.is_empty() {
            s += "* Deviations from the paper's setting: none\n";
        } else {
            s += "* Deviations from the paper's setting:\n";
            for d in c.setting.deviations {
                s += &format!("  * {d}\n");
            }
        }
        for (p, on) in &x.pending {
            s += &if *on {
                format!("* Setting beyond the scenario file: `{}` = `{}`: {}\n", p.path, p.value, p.why)
            } else {
                format!("* Pending setting `{}` = `{}` (not in this engine yet: the runs go without it): {}\n", p.path, p.value, p.why)
            };
        }
        s += &format!("* dcsim: {}\n", x.judged.value);
        for n in &x.judged.notes {
            s += &format!("* Note: {n}\n");
        }
        s += "\n| check | kind | dcsim | bound | holds |\n|---|---|---|---|---|\n";
        for k in &x.judged.checks {
            let kind = if k.kind == Kind::Order { "ordering" } else { "value" };
            s += &format!("| {} | {kind} | {} | {} | {} |\n", cell(&k.what), fmt(k.value), cell(&k.bound.describe()), if k.holds() { "yes" } else { "**no**" });
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_follow_the_gallery_rule_and_never_hold_nan() {
        let b = Bound::range(1.007, 1.178).slack(0.05);
        assert!(b.holds(1.2369) && !b.holds(1.2371) && b.holds(0.957) && !b.holds(0.95));
        assert!(Bound::at_most(0.05).holds(0.05) && !Bound::at_most(0.05).holds(0.0501));
        assert!(Bound::above(0.0).holds(1e-9) && !Bound::above(0.0).holds(0.0) && Bound::at_least(0.0).holds(0.0));
        for b in [Bound::at_most(1.0), Bound::at_least(0.0), Bound::range(0.0, 1.0)] {
            assert!(!b.holds(f64::NAN));
        }
        assert_eq!(Bound::range(1.007, 1.178).slack(0.05).describe(), "in [1.007, 1.178] (5% slack)");
        assert_eq!(Bound::above(0.0).describe(), "above 0");
    }

    #[test]
    fn the_verdict_comes_from_the_checks() {
        let ok = Check::value("v", 1.0, Bound::at_most(2.0));
        let off = Check::value("v", 3.0, Bound::at_most(2.0));
        let wrong_way = Check::order("o", -1.0, Bound::above(0.0));
        assert_eq!(Verdict::of(&[ok.clone()]), Verdict::Agrees);
        assert_eq!(Verdict::of(&[ok.clone(), off.clone()]), Verdict::Differs);
        assert_eq!(Verdict::of(&[ok, off, wrong_way]), Verdict::NotReproduced);
        assert_eq!(Verdict::of(&[]), Verdict::NotReproduced);
        assert_eq!(Verdict::of(&[Check::value("missing run", f64::NAN, Bound::at_least(0.0))]), Verdict::Differs);
    }

    #[test]
    fn numbers_read_as_the_gallery_writes_them() {
        assert_eq!(fmt(1.06531), "1.065");
        assert_eq!(fmt(0.05), "0.05");
        assert_eq!(fmt(81_100.4), "81100");
        assert_eq!(fmt(0.0), "0");
        assert_eq!(thousands(10_000), "10,000");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn every_claim_asks_for_runs_at_both_sizes_and_is_complete() {
        let reg = claims::registry();
        let mut ids = std::collections::HashSet::new();
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        for c in &reg {
            assert!(ids.insert(c.id), "duplicate id {}", c.id);
            for f in [c.statement, c.paper_value, c.tolerance, c.source, c.setting.paper_size] {
                assert!(!f.trim().is_empty(), "{}: an empty field", c.id);
            }
            assert!(!c.setting.scenarios.is_empty(), "{}", c.id);
            for mode in [Mode::Quick, Mode::Full] {
                let refs = [c];
                let lab = Lab::new(load_scenarios(&dir, &refs).unwrap());
                let p = resolve_pending(c, &lab).unwrap();
                set_extra(&lab, &p);
                assert!((c.measure)(&lab, c.size(mode)).is_none());
                assert!(!lab.asked.borrow().is_empty(), "{} asks for no run at {} size", c.id, mode.name());
                assert!(lab.errors.borrow().is_empty(), "{}: {:?}", c.id, lab.errors.borrow());
                let sz = c.size(mode);
                assert!(sz.flows.len() <= 1 || sz.flows.len() == sz.xs.len(), "{}: flows per point", c.id);
                assert!(!sz.seeds.is_empty(), "{}", c.id);
            }
        }
    }
}
