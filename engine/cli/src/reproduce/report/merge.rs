//! A sharded reproduction put together: the claims it planned, judged
//! from the outcomes its shards kept (see [`crate::reproduce::lab::shard`]);
//! the report is the one an unsharded run writes, but for its wall time
//! and thread count.

use crate::reproduce::claim::{Claim, Mode};
use crate::reproduce::lab::plan::{judge_all, plan, select, Row};
use crate::reproduce::lab::shard::{file_of, plan_value, read_outcome_or_why};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// A merged reproduction, judged.
pub struct Merged<'a> {
    /// Its mode.
    pub mode: Mode,
    /// The judged claims.
    pub rows: Vec<Row<'a>>,
    /// Distinct runs.
    pub runs: usize,
    /// 0: the runs were spread over machines.
    pub threads: usize,
    /// Sum of the runs' wall times, seconds.
    pub wall_s: f64,
}

/// Judges the claims a sharded reproduction planned in `out`, from its
/// runs' outcomes.
pub fn merge<'a>(registry: &'a [Claim], out: &Path, dir: &Path) -> Result<Merged<'a>, String> {
    let plan_path = out.join("plan.json");
    let text = std::fs::read_to_string(&plan_path)
        .map_err(|e| format!("{}: cannot read ({e}): is {} a reproduction's --out-dir?", plan_path.display(), out.display()))?;
    let mut v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", plan_path.display()))?;
    if let Some(o) = v.as_object_mut() {
        o.remove("array");
    }
    let mode: Mode = serde_json::from_value(v["mode"].clone()).map_err(|e| format!("{}: mode: {e}", plan_path.display()))?;
    let filter: Vec<String> = serde_json::from_value(v["filter"].clone()).map_err(|e| format!("{}: filter: {e}", plan_path.display()))?;
    let selected = select(registry, &filter)?;
    let (lab, jobs) = plan(&selected, mode, dir)?;
    if plan_value(mode, &filter, &jobs) != v {
        return Err(format!(
            "{}: planned by another engine version or other scenario files than these ({}): merge with the dcsim and scenarios that planned it",
            plan_path.display(),
            dir.display()
        ));
    }
    let mut done = HashMap::new();
    let mut missing = Vec::new();
    let mut unreadable = Vec::new();
    let mut wall_s = 0.0;
    for (k, j) in jobs.iter().enumerate() {
        match read_outcome_or_why(&out.join(file_of(j))) {
            Ok((key, o)) if key == j.key() => {
                wall_s += o.wall_s;
                done.insert(key, o);
            }
            Err(why) if why != "missing" => unreadable.push(format!("run {}: {why}", k + 1)),
            _ => missing.push(k + 1),
        }
    }
    if let Some(first) = unreadable.first() {
        return Err(format!(
            "{}: {} of {} runs have an outcome file dcsim cannot read (first: {first}): delete them and run the same shards again with --skip-existing",
            out.display(),
            unreadable.len(),
            jobs.len()
        ));
    }
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(10).map(usize::to_string).collect();
        return Err(format!(
            "{}: {} of {} runs have no outcome yet (runs {}{}): run the missing shards (or the same array again with --skip-existing), then merge",
            out.display(),
            missing.len(),
            jobs.len(),
            shown.join(", "),
            if missing.len() > 10 { ", ..." } else { "" }
        ));
    }
    let runs = jobs.len();
    Ok(Merged { mode, rows: judge_all(&selected, mode, lab, done)?, runs, threads: 0, wall_s })
}
