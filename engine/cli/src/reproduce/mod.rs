//! `dcsim reproduce`: the claims of the four papers this project
//! reproduces (pFabric, pHost, PDQ, PASE), and in a section of their own
//! the D2TCP and L2DCT claims its tests hold, measured through
//! `dcsim_core` and judged against the papers' own statements: a table on
//! stdout and, on request, CSV, Markdown and JSON (`docs/fidelity.csv`,
//! `docs/fidelity.md`, `docs/fidelity.json`: generated, never edited; the
//! page's paper gallery shows the JSON).
//!
//! A [`Claim`] is data: the paper, section and figure, the sentence it
//! tests quoted as the paper words it (and whether that sentence is in the
//! excerpts the project was given), its [`Reading`]s (each a bound made
//! from the quote's words by one of the rules of [`readings`]), its
//! setting (scenarios, quick and full sizes, deviations from the paper's
//! setting, settings applied beyond the scenario files) and the open
//! choices it is also judged under ([`Variant`]: the sensitivity table),
//! plus a `measure` function that asks the [`Lab`] for runs and turns
//! their outcomes into [`judge::Check`]s. Each check is a mean over
//! samples (seeds, requests) with its 95% interval ([`stats`]); the
//! verdict is computed from the checks ([`judge::Verdict::of`]), never
//! written by a claim.
//!
//! Runs are collected in two passes over the same claim functions: the
//! first records every run the selected claims ask for (a run asked by
//! several claims, identical after its settings, is run once), the pool of
//! `sweep` ([`crate::pool::par_map`]) runs them longest first, and the
//! second pass hands each claim its outcomes. `--shard M/N --out-dir DIR`
//! runs a share of the distinct runs and keeps their outcomes in DIR;
//! `reproduce merge DIR` judges from them ([`shard`]).

use crate::cluster::BatchArgs;
use crate::output::{write_file, Progress};
use crate::pool::par_map;
use dcsim_core::metrics::{Counters, FlowRecord, Sample, Summary};
use dcsim_core::scenario::{ProtocolName, Scenario};
use dcsim_core::sim::StopReason;
use dcsim_core::units::SimTime;
use dcsim_core::workload::{NamedCdf, SizeSpec};
use dcsim_core::{prepare, RunOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub mod authors;
pub mod cause;
pub mod claims;
pub mod judge;
pub mod readings;
pub mod report;
pub mod shard;
pub mod stats;

use judge::{Bound, Check, Kind, Verdict};
use readings::Rule;

/// What `reproduce merge` does.
#[derive(clap::Subcommand)]
pub enum ReproduceAction {
    /// Judge the claims from the runs a sharded reproduction kept in DIR
    /// (as given to `--out-dir`), writing the report as an unsharded run
    /// would.
    Merge {
        /// The reproduction's output directory (plan.json and one file per run).
        dir: PathBuf,
        /// Write the table as CSV here (one row per claim).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Write the whole report as Markdown here.
        #[arg(long)]
        markdown: Option<PathBuf>,
        /// Write the whole report as JSON here (what the page's gallery reads).
        #[arg(long)]
        json: Option<PathBuf>,
        /// Directory holding the scenario files the reproduction was planned
        /// with (default: as for `reproduce`).
        #[arg(long)]
        scenarios: Option<PathBuf>,
    },
}

/// The arguments of `dcsim reproduce`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ReproduceArgs {
    /// `merge DIR`: judge a sharded reproduction's runs.
    #[command(subcommand)]
    pub action: Option<ReproduceAction>,
    /// Every claim at its reduced size (a few minutes on 2 cores; what the
    /// tests run). Without it, the full size (docs/fidelity.md).
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
    /// Write the whole report as JSON here (`docs/fidelity.json`, what the
    /// page's paper gallery shows).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Directory holding the scenario files (default: ./scenarios, ../scenarios
    /// or the repository's, found from the executable).
    #[arg(long)]
    pub scenarios: Option<PathBuf>,
    /// List the claims with their sizes and run nothing.
    #[arg(long)]
    pub list: bool,
    /// Print the distinct runs the selected claims need (scenario,
    /// protocol, load, flows, seed, one per line, longest first) and run
    /// nothing.
    #[arg(long)]
    pub plan: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Parallel runs, and a share of the distinct runs kept in --out-dir
    /// (`--shard M/N`, or a Slurm array's or a Kubernetes Indexed Job's
    /// environment, as `sweep` does). Judge with `dcsim reproduce merge
    /// DIR` once every shard is done.
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Which size every claim runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Reduced sizes (the tests pin every verdict at this size).
    Quick,
    /// Sizes as close to the papers' as this machine allows within an hour
    /// on two cores (`docs/fidelity.md`).
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
    /// Seeds; a check's samples are usually one per seed.
    pub seeds: &'static [u64],
    /// The points along the claim's axis ([`Setting::axis`]); empty: one
    /// point, the scenario as it is.
    pub xs: &'static [f64],
    /// Requests per run of a closed-loop matrix (incast, query
    /// aggregation); 0: the scenario's.
    pub requests: u32,
    /// Flows per run for the runs of a named scenario, in place of
    /// `flows` (a claim over two workloads shares each workload's runs with
    /// the claims of that workload alone).
    pub per_scenario: &'static [(&'static str, u64)],
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
        for (name, f) in self.per_scenario {
            parts.push(format!("{} flows for {name}", thousands(*f)));
        }
        if self.requests > 0 {
            parts.push(format!("{} request{} per run", thousands(self.requests as u64), if self.requests == 1 { "" } else { "s" }));
        }
        let seeds = list(&self.seeds.iter().map(u64::to_string).collect::<Vec<_>>());
        parts.push(format!("seed{} {seeds}", if self.seeds.len() == 1 { "" } else { "s" }));
        parts.join("; ")
    }
}

/// The paper a claim comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Paper {
    /// Alizadeh et al., SIGCOMM 2013.
    PFabric,
    /// Gao et al., CoNEXT 2015.
    PHost,
    /// Hong, Caesar, Godfrey, SIGCOMM 2012.
    Pdq,
    /// Munir et al., SIGCOMM 2014.
    Pase,
    /// Vamanan, Hasan, Vijaykumar, SIGCOMM 2012 (not a source paper).
    D2tcp,
    /// Munir et al., INFOCOM 2013 (not a source paper).
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

    /// Whether the paper is one of the project's source papers (its text in
    /// `../shared/papers/`); the others' claims get a section of their own.
    pub fn is_source(self) -> bool {
        !matches!(self, Paper::D2tcp | Paper::L2dct)
    }
}

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

/// A setting applied to a claim's runs beyond its scenario files: a dotted
/// scenario path (as `sweep --vary` takes) and its JSON value.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Applied {
    /// Dotted path into the scenario, e.g. `params.pdq.early_start`.
    pub path: &'static str,
    /// The value, as JSON.
    pub value: &'static str,
    /// Why, with its source.
    pub why: &'static str,
}

/// Another reasonable reading of a choice the paper leaves open: the claim
/// is judged again with these settings (the report's sensitivity table).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Variant {
    /// Short name ("DCTCP initial alpha 0").
    pub name: &'static str,
    /// Its source or reason.
    pub why: &'static str,
    /// The settings that make it.
    pub settings: &'static [Applied],
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
    /// The paper's own size, as far as the paper says.
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
    /// Section ("4.2").
    pub section: &'static str,
    /// Figure or table, when the claim has one ("Figure 10(a)").
    pub figure: &'static str,
    /// The sentence the claim tests, as the paper words it.
    pub quote: &'static str,
    /// Whether the quote is in the excerpts of `../shared/papers/`
    /// (otherwise it is cited from the paper).
    pub in_excerpt: bool,
    /// The claim in a few words of this project's.
    pub statement: &'static str,
    /// The quantitative readings of the quote the checks test.
    pub readings: &'static [Reading],
    /// Its runs' scenarios, sizes and deviations.
    pub setting: Setting,
    /// Settings applied to every run beyond the scenario files.
    pub applied: &'static [Applied],
    /// Other reasonable readings of the open choices the verdict may depend
    /// on; each is judged too.
    pub variants: &'static [Variant],
    /// Where the claim is not reproduced or differs at full size: what was
    /// checked and what the data suggest (`""`: nothing to add to the
    /// checks and notes). Written from the full report's numbers; the
    /// Markdown and the page show it under the checks.
    pub discussion: &'static str,
    /// Why the claim does not agree at full size (`None`: no cause given;
    /// the report shows a cause only beside a verdict other than agrees).
    /// The registry fills it from [`claims::causes`].
    pub cause: Option<cause::Cause>,
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
    /// "section 4.2, Figure 10(a)"; "abstract; section 4.2, Figure 3".
    pub fn source(&self) -> String {
        let place = self
            .section
            .split("; ")
            .map(|p| if p.starts_with(|c: char| c.is_ascii_digit()) { format!("section {p}") } else { p.to_string() })
            .collect::<Vec<_>>()
            .join("; ");
        if self.figure.is_empty() {
            place
        } else {
            format!("{place}, {}", self.figure)
        }
    }
    /// The same claim with its discussion (see [`Claim::discussion`]).
    pub const fn discussing(self, discussion: &'static str) -> Claim {
        Claim { discussion, ..self }
    }
    /// The reading with key `key`.
    pub fn reading(&self, key: &str) -> Option<&Reading> {
        self.readings.iter().find(|r| r.key == key)
    }
}

/// What a claim's measurement gives.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Judged {
    /// dcsim's value(s) in a few words, from the checks' numbers.
    pub value: String,
    /// The numbers the verdict is computed from.
    pub checks: Vec<Check>,
    /// More numbers worth reading beside the checks (not judged).
    pub notes: Vec<String>,
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
    /// What makes two runs the same run: the scenario and where it stops.
    pub fn key(&self) -> String {
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

/// A number that may be NaN, in JSON (which has no NaN): null for NaN, read
/// back as NaN, so an outcome file of a stopped run reads back whole.
mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};
    /// Writes NaN as null, any other number as itself.
    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        if x.is_nan() {
            s.serialize_none()
        } else {
            s.serialize_some(x)
        }
    }
    /// Reads null as NaN.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// What a run gave.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// How much the bytes of arrived, unfinished flows grew through the
    /// arrivals ([`dcsim_core::metrics::backlog_growth`]; NaN for a run
    /// stopped at `until_us`, kept as null in an outcome file).
    #[serde(with = "nan_as_null")]
    pub pending_growth: f64,
    /// The same for the bytes not yet sent once (pHost's Figure 7).
    #[serde(with = "nan_as_null")]
    pub unsent_growth: f64,
    /// The bytes arrived at their sources and not yet sent once (pHost's
    /// Figure 7 "pending" packets), averaged over the second half of the
    /// foreground arrivals ([`unsent_late`]); NaN for a run stopped at
    /// `until_us`, and in outcome files written before it.
    #[serde(with = "nan_as_null", default = "nan")]
    pub unsent_late: f64,
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

/// NaN (a missing number in an outcome file).
fn nan() -> f64 {
    f64::NAN
}

/// The mean of the bytes not yet sent once over the second half of the
/// foreground arrivals (from half the last arrival's time to it); NaN
/// without arrivals or samples there.
pub fn unsent_late(samples: &[Sample], records: &[FlowRecord]) -> f64 {
    let Some(last) = records.iter().filter(|r| !r.background).map(|r| r.start).max() else {
        return f64::NAN;
    };
    claims::mean(samples.iter().filter(|s| s.t.ps() >= last.ps() / 2 && s.t <= last).map(|s| s.unsent_bytes as f64))
}

/// Runs one job.
pub fn run_job(job: &Job) -> Result<Outcome, String> {
    let t0 = Instant::now();
    let mut r = prepare(&job.scenario, RunOptions::default())?;
    let out = if let Some(us) = job.until_us {
        r.run_until(SimTime::from_us_f64(us));
        Outcome {
            summary: None,
            counters: r.counters().clone(),
            records: if job.records { r.records().to_vec() } else { Vec::new() },
            tenant_bytes: r.tenant_bytes_delivered(),
            arbitration_messages: r.arbitration_messages(),
            pending_growth: f64::NAN,
            unsent_growth: f64::NAN,
            unsent_late: f64::NAN,
            wall_s: 0.0,
        }
    } else {
        while r.run_events(1 << 22) {}
        let (tenant_bytes, arbitration_messages) = (r.tenant_bytes_delivered(), r.arbitration_messages());
        let o = r.finish();
        let unsent_late = unsent_late(&o.samples, &o.records);
        Outcome {
            summary: Some(o.summary),
            counters: o.counters,
            records: if job.records { o.records } else { Vec::new() },
            tenant_bytes,
            arbitration_messages,
            pending_growth: o.pending_growth,
            unsent_growth: o.unsent_growth,
            unsent_late,
            wall_s: 0.0,
        }
    };
    Ok(Outcome { wall_s: t0.elapsed().as_secs_f64(), ..out })
}

/// Where claims get their scenarios and runs. In the first pass it records
/// the runs asked for and answers `None`; in the second it answers with
/// their outcomes.
pub struct Lab {
    scenarios: HashMap<String, Scenario>,
    /// Settings applied to every run of the claim being measured (its own
    /// and its variant's).
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
        Lab {
            scenarios,
            extra: RefCell::new(Vec::new()),
            asked: RefCell::new(Vec::new()),
            done: None,
            unfinished: RefCell::new(Vec::new()),
            errors: RefCell::new(Vec::new()),
        }
    }

    /// A copy of `scenarios/<name>.json` (one of the claim's `scenarios`).
    pub fn scenario(&self, name: &str) -> Scenario {
        self.scenarios.get(name).unwrap_or_else(|| panic!("claim asks for scenario {name}, not in its `scenarios` list")).clone()
    }

    /// Sets the settings applied to every run until the next call.
    fn set_extra(&self, settings: &[&Applied]) -> Result<(), String> {
        let mut v = Vec::new();
        for a in settings {
            let value: Value = serde_json::from_str(a.value).map_err(|e| format!("setting {} = {}: {e}", a.path, a.value))?;
            v.push((a.path.to_string(), value));
        }
        *self.extra.borrow_mut() = v;
        Ok(())
    }

    /// The outcomes of `jobs`, in order, or `None` in the collecting pass.
    pub fn runs(&self, jobs: Vec<Job>) -> Option<Vec<&Outcome>> {
        let mut keyed = Vec::with_capacity(jobs.len());
        for mut j in jobs {
            for (path, v) in self.extra.borrow().iter() {
                if !applies_to(path, j.scenario.protocol) {
                    continue;
                }
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

/// Whether a setting at `path` applies to a run of `p`: a protocol's
/// parameters (`params.<name>.…`) only to that protocol's runs (each
/// protocol reads its own block), so a variant of one protocol's settings
/// reruns that protocol alone; every other path to every run.
fn applies_to(path: &str, p: ProtocolName) -> bool {
    match path.strip_prefix("params.").and_then(|r| r.split('.').next()) {
        Some(block) => block == p.as_str(),
        None => true,
    }
}

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
    /// Wall time of the whole report, seconds (for a merged reproduction:
    /// the sum of its runs' wall times).
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
    let mut jobs: Vec<Job> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for j in lab.asked.take() {
        match index.get(&j.key()) {
            Some(&i) => jobs[i].records |= j.records,
            None => {
                index.insert(j.key(), jobs.len());
                jobs.push(j);
            }
        }
    }
    jobs.sort_by(|a, b| b.cost().total_cmp(&a.cost()).then_with(|| a.key().cmp(&b.key())));
    Ok((lab, jobs))
}

/// Runs `jobs` on `threads` threads, printing progress unless `quiet`;
/// `each` is handed every outcome as it is done (a shard writes it).
pub fn run_all(jobs: &[Job], threads: usize, quiet: bool, each: impl Fn(&Job, &Outcome) -> Result<(), String> + Sync) -> Result<Vec<Outcome>, String> {
    let progress = Progress::start();
    let n = jobs.len();
    let results = par_map(jobs, threads, |_, j| {
        let r = run_job(j).and_then(|o| each(j, &o).map(|_| o));
        let k = progress.count();
        if !quiet {
            let s = &j.scenario;
            let what = format!("{} {} load {} flows {} seed {}", s.name, s.protocol.as_str(), fmt(s.workload.load), s.workload.flows, s.seed);
            let took = r.as_ref().map_or(String::new(), |o| format!(" ({:.1} s)", o.wall_s));
            progress.say(&format!("run {k}/{n} done: {what}{took}"));
        }
        r
    });
    jobs.iter().zip(results).map(|(j, r)| r.map_err(|e| format!("{} ({}): {e}", j.scenario.name, j.scenario.protocol.as_str()))).collect()
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

/// Writes the report to stdout and the files asked for.
fn write_report(report: &Report, csv: Option<&Path>, markdown: Option<&Path>, json: Option<&Path>) -> Result<(), String> {
    print!("{}", report::table(report));
    if let Some(p) = csv {
        write_file(p, &report::csv(report)?)?;
    }
    if let Some(p) = markdown {
        write_file(p, &report::markdown(report))?;
    }
    if let Some(p) = json {
        write_file(p, &report::json(report))?;
    }
    Ok(())
}

/// The command line as typed, for the report's header.
fn command_line() -> String {
    std::iter::once("dcsim".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ")
}

/// `dcsim reproduce ...`.
pub fn reproduce(a: ReproduceArgs, dir: PathBuf) -> Result<(), String> {
    let registry = claims::registry();
    if let Some(ReproduceAction::Merge { dir: out_dir, csv, markdown, json, .. }) = &a.action {
        let t = shard::merge(&registry, out_dir, &dir)?;
        let report = Report { mode: t.mode, rows: t.rows, runs: t.runs, threads: t.threads, wall_s: t.wall_s, command: command_line() };
        return write_report(&report, csv.as_deref(), markdown.as_deref(), json.as_deref());
    }
    let selected = select(&registry, &a.filter)?;
    let mode = if a.quick { Mode::Quick } else { Mode::Full };
    if a.list {
        for c in &selected {
            println!("{:<34} {:<8} {}: {}", c.id, c.paper.short(), mode.name(), c.size(mode).describe(c.setting.axis));
        }
        return Ok(());
    }
    if a.plan {
        let (_, jobs) = plan(&selected, mode, &dir)?;
        for j in &jobs {
            let s = &j.scenario;
            println!(
                "{} {} load {} flows {} seed {}{}",
                s.name,
                s.protocol.as_str(),
                fmt(s.workload.load),
                s.workload.flows,
                s.seed,
                j.until_us.map_or(String::new(), |u| format!(" until {} us", fmt(u)))
            );
        }
        eprintln!("{} distinct run{}", jobs.len(), if jobs.len() == 1 { "" } else { "s" });
        return Ok(());
    }
    let threads = a.batch.threads();
    if let Some(s) = shard::requested(&a)? {
        return shard::run(&selected, mode, &a, &dir, threads, s);
    }
    let t0 = Instant::now();
    let (rows, runs) = measure(&selected, mode, &dir, threads, a.quiet)?;
    let report = Report { mode, rows, runs, threads, wall_s: t0.elapsed().as_secs_f64(), command: command_line() };
    write_report(&report, a.csv.as_deref(), a.markdown.as_deref(), a.json.as_deref())
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
pub fn thousands(n: u64) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    const STATED: Reading =
        Reading { key: "within-4%", says: "within 4%", of: "a ratio", bound: Bound::range(0.96, 1.04), kind: Kind::Value, rule: Rule::Literal };

    fn widened(_: &Lab, _: &Size) -> Option<Judged> {
        Some(Judged { checks: vec![Check::narrowed(&STATED, Bound::range(0.96, 1.092), "5% past the range", vec![1.06])], ..Judged::default() })
    }

    #[test]
    fn a_bound_wider_than_the_papers_statement_is_refused() {
        let s = Size { flows: &[], seeds: &[1], xs: &[], requests: 0, per_scenario: &[] };
        let c = Claim {
            id: "widened",
            paper: Paper::PHost,
            section: "4.2",
            figure: "",
            quote: "within 4%",
            in_excerpt: true,
            statement: "a claim whose check adds slack",
            readings: &[STATED],
            setting: Setting { scenarios: &[], axis: "", quick: s, full: s, paper_size: "-", deviations: &[] },
            applied: &[],
            variants: &[],
            discussion: "",
            cause: None,
            measure: widened,
        };
        let judged = widened(&Lab::new(HashMap::new()), &s).unwrap();
        let e = bounds_as_stated(&c, &judged.checks).unwrap_err();
        assert!(e.contains("wider than its reading") && e.contains("within 4%"), "{e}");
        let narrowed = Check::narrowed(&STATED, Bound::range(0.97, 1.04), "narrower", vec![1.0]);
        assert!(bounds_as_stated(&c, &[narrowed]).is_ok());
        let other = Reading { key: "other", ..STATED };
        assert!(bounds_as_stated(&c, &[Check::of(&other, "undeclared", vec![1.0])]).unwrap_err().contains("does not declare"));
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
        for c in claims::registry().iter().filter(|c| c.in_excerpt) {
            let t = text(c.paper);
            for part in c.quote.split("[...]").map(|p| plain(p.trim())).filter(|p| !p.is_empty()) {
                if !t.contains(&part) {
                    missing.push(format!("{}: {part:?}", c.id));
                }
            }
        }
        assert!(missing.is_empty(), "quotes not found word for word in the excerpts:\n{}", missing.join("\n"));
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

    /// Every cause names a claim, and says something.
    #[test]
    fn every_cause_is_a_claims() {
        let reg = claims::registry();
        for id in claims::causes::ids() {
            let c = reg.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("a cause for {id}, which is no claim"));
            assert!(c.cause.is_some_and(|k| k.why.len() > 80), "{id}: a cause without its evidence");
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
