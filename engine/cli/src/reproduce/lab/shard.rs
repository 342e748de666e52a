//! A reproduction split over many machines, as `sweep` splits a grid: the
//! distinct runs of the selected claims (longest first, the order
//! [`super::plan::plan`] gives) belong round robin to the shards, run `k`
//! (0-based) to shard `k mod n + 1`. Each shard keeps its outcomes in
//! `DIR/runs/<hash>.json` beside `DIR/plan.json` (the mode, the filter and
//! every run's file); `dcsim reproduce merge DIR` plans the same claims
//! again, checks the plan is the same, and judges from the files
//! (`crate::reproduce::report::merge`). The shard comes from `--shard M/N`
//! or from a Slurm array's or a Kubernetes Indexed Job's environment
//! ([`crate::cluster::shard_from_env`]).

use super::plan::plan;
use super::{run_all, Job, Outcome};
use crate::cluster::{read_plan, shard_from_env, write_plan, BatchArgs, EnvShard, Shard};
use crate::output::{plural, write_atomic};
use crate::reproduce::claim::{Claim, Mode};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The result file of a run: `runs/` and the first 16 hex digits of the
/// SHA-256 of its key (its scenario and where it stops).
pub fn file_of(j: &Job) -> String {
    let h = Sha256::digest(j.key().as_bytes());
    format!("runs/{}.json", h.iter().take(8).map(|b| format!("{b:02x}")).collect::<String>())
}

/// The plan a reproduction writes and a merge checks (plan.json also
/// records the job array that ran it, as a sweep's does).
pub fn plan_value(mode: Mode, filter: &[String], jobs: &[Job]) -> Value {
    let runs: Vec<Value> = jobs
        .iter()
        .enumerate()
        .map(|(k, j)| json!({"run": k + 1, "file": file_of(j), "scenario": j.scenario.name, "protocol": j.scenario.protocol.as_str(), "seed": j.scenario.seed}))
        .collect();
    json!({"engine": env!("CARGO_PKG_VERSION"), "mode": mode, "filter": filter, "runs": runs})
}

/// How this process was asked to run a share of the runs.
pub enum Requested {
    /// `--shard M/N`.
    Given(Shard),
    /// A task of a job array ([`shard_from_env`]): its shard is known once
    /// the plan's record of the array is read.
    Array(EnvShard),
    /// `--out-dir` alone: every run, into the directory.
    Whole,
}

/// The share this process runs, if any: `--shard`, else a job array's
/// environment, else `--out-dir` alone (every run). `report`: whether a
/// report file (CSV, Markdown, JSON) was asked for.
pub fn requested(a: &BatchArgs, report: bool) -> Result<Option<Requested>, String> {
    let r = match &a.shard {
        Some(s) => Some(Requested::Given(Shard::parse(s)?)),
        None => shard_from_env(|k| std::env::var(k).ok())?.map(Requested::Array),
    };
    if let Some(r) = &r {
        let what = match r {
            Requested::Given(s) => format!("shard {}/{} (--shard)", s.m, s.n),
            Requested::Array(e) => format!("a task of a job array ({})", e.from),
            Requested::Whole => unreachable!(),
        };
        if a.out_dir.is_none() {
            return Err(format!("running as {what}: give --out-dir DIR for the runs' outcomes (then `dcsim reproduce merge DIR`)"));
        }
        if report {
            return Err(format!("{what} holds part of the runs: write the report with `dcsim reproduce merge DIR --markdown ...` once every shard is done"));
        }
    }
    if a.skip_existing && a.out_dir.is_none() {
        return Err("--skip-existing needs --out-dir DIR (where the runs' outcomes are)".into());
    }
    Ok(r.or_else(|| a.out_dir.as_ref().map(|_| Requested::Whole)))
}

/// Runs this process's share of the selected claims' runs into `--out-dir`.
/// `filter` is the claims' selection as given (plan.json records it).
pub fn run(selected: &[&Claim], mode: Mode, filter: &[String], a: &BatchArgs, quiet: bool, dir: &Path, r: Requested) -> Result<(), String> {
    let out = a.out_dir.as_ref().expect("checked by requested");
    let (_, jobs) = plan(selected, mode, dir)?;
    let plan = plan_value(mode, filter, &jobs);
    let existing = read_plan(out, &plan).map_err(|e| {
        e.replace("another sweep", "another reproduction (other mode, filter, scenarios or engine version)").replace("this sweep", "this reproduction")
    })?;
    let plan_path = out.join("plan.json");
    let (s, from) = match &r {
        Requested::Given(s) => (*s, "--shard".to_string()),
        Requested::Array(e) => (e.shard(existing.as_ref().and_then(Option::as_ref), &plan_path)?, e.from.clone()),
        Requested::Whole => (Shard { m: 1, n: 1 }, "--out-dir".to_string()),
    };
    std::fs::create_dir_all(out.join("runs")).map_err(|e| format!("{}: cannot create: {e}", out.display()))?;
    let array = match &r {
        Requested::Array(e) => Some(&e.array),
        _ => None,
    };
    write_plan(out, &plan, existing.as_ref().map(Option::as_ref), array)?;
    let mine: Vec<&Job> = jobs.iter().enumerate().filter(|(k, _)| s.owns(*k)).map(|(_, j)| j).collect();
    let todo: Vec<Job> = mine.iter().filter(|j| !(a.skip_existing && read_outcome(&out.join(file_of(j))).is_some())).map(|j| (*j).clone()).collect();
    let skipped = mine.len() - todo.len();
    run_all(&todo, a.threads(), quiet, |j, o| {
        write_atomic(&out.join(file_of(j)), &(serde_json::to_string(&json!({"key": j.key(), "outcome": o})).expect("outcomes serialize") + "\n"))
    })?;
    eprintln!(
        "shard {}/{} ({from}): {} done, {} already there; outcomes in {} (judge with `dcsim reproduce merge {}`)",
        s.m,
        s.n,
        plural(todo.len(), "run"),
        skipped,
        out.display(),
        out.display()
    );
    Ok(())
}

/// The outcome a result file holds, if it is there and whole.
fn read_outcome(path: &Path) -> Option<(String, Outcome)> {
    read_outcome_or_why(path).ok()
}

/// The outcome a result file holds, or why not: missing, or there but
/// unreadable (an outcome written by another dcsim, a damaged file).
pub fn read_outcome_or_why(path: &Path) -> Result<(String, Outcome), String> {
    let text = std::fs::read_to_string(path).map_err(|_| "missing".to_string())?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: not JSON ({e})", path.display()))?;
    let key = v["key"].as_str().ok_or_else(|| format!("{}: no key", path.display()))?.to_string();
    let o = serde_json::from_value(v["outcome"].clone()).map_err(|e| format!("{}: outcome unreadable ({e})", path.display()))?;
    Ok((key, o))
}
