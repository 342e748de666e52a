//! The lab: where claims get their scenarios and runs. A claim asks the
//! [`Lab`] for [`Job`]s and reads their [`Outcome`]s; the lab is used in
//! two passes over the same claim functions ([`plan`]): the first records
//! every run asked for and answers `None`, the second answers with the
//! outcomes. [`run_all`] runs the distinct jobs on the pool of `sweep`
//! ([`crate::pool::par_map`]), longest first; [`shard`] runs a share of
//! them into an output directory.

use super::format::fmt;
use super::stats::mean;
use crate::output::Progress;
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
use std::time::Instant;

pub mod plan;
pub mod shard;

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
    /// Of `params`, only the running protocol's own object counts: a run
    /// reads no other protocol's parameters, so a parameter added to (or
    /// changed for) another protocol leaves the run, its outcome file and
    /// `--skip-existing` alone, and two claims that differ only there share
    /// one run.
    pub fn key(&self) -> String {
        let mut scenario = serde_json::to_value(&self.scenario).expect("scenarios serialize");
        let own = serde_json::to_value(self.scenario.protocol).expect("protocol names serialize");
        if let Some(params) = scenario.get_mut("params").and_then(Value::as_object_mut) {
            params.retain(|name, _| Some(name.as_str()) == own.as_str());
        }
        format!("{scenario}|{:?}", self.until_us)
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
    mean(samples.iter().filter(|s| s.t.ps() >= last.ps() / 2 && s.t <= last).map(|s| s.unsent_bytes as f64))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn scenario(protocol: ProtocolName) -> Scenario {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut s = Scenario::from_json(&std::fs::read_to_string(dir.join("websearch-leaf-spine.json")).unwrap()).unwrap();
        s.protocol = protocol;
        s
    }

    /// A run's key holds its own protocol's parameters and no other's.
    #[test]
    fn a_runs_key_ignores_other_protocols_parameters() {
        let base = Job::new(scenario(ProtocolName::Pfabric));
        let mut other = scenario(ProtocolName::Pfabric);
        other.params.tcp.init_cwnd += 1;
        assert_eq!(base.key(), Job::new(other).key(), "a TCP parameter changed a pFabric run");
        let mut own = scenario(ProtocolName::Pfabric);
        own.params.pfabric.init_cwnd += 1;
        assert_ne!(base.key(), Job::new(own).key(), "pFabric's own parameter did not change its run");
        assert!(base.key().contains("\"pfabric\""), "{}", base.key());
        assert_ne!(base.key(), Job::new(scenario(ProtocolName::Dctcp)).key());
    }
}
