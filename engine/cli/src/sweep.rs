//! `dcsim sweep`: a grid of runs (protocols x varied values x loads x
//! seeds), on this machine's cores or split into shards over many
//! machines.
//!
//! A sharded sweep writes one result file per run into an output directory,
//! named by a hash of what determines the run (the scenario after
//! overrides, the sweep point, the engine version), plus `plan.json`, the
//! list of every run of the grid. `dcsim sweep merge DIR` puts the results
//! back together into exactly the bytes an unsharded sweep writes, and
//! names any run whose result is missing.
//!
//! The grid is split into shards, as every batch of runs is
//! ([`crate::cluster`]): run `k` in grid order (protocol, varied value,
//! load, seed) to shard `(k mod n) + 1` of `n`, from `--shard m/n` or a
//! job array's environment. Without `--jobs`, a task runs as many runs at
//! once as Slurm gave it CPUs ([`crate::pool::job_slots`]).

use crate::cluster::{read_plan, shard_from_env, write_plan, BatchArgs, Shard};
use crate::output::{plural, write_atomic, write_file, Progress};
use crate::pool::par_map;
use crate::scenario_file::{load, Overrides};
use dcsim_core::metrics::Summary;
use dcsim_core::report::{sweep_header, sweep_line};
use dcsim_core::scenario::{ProtocolName, Scenario};
use dcsim_core::{prepare, RunOptions};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// What `sweep merge` does.
#[derive(clap::Subcommand)]
pub enum SweepAction {
    /// Merge the per-run results of a sharded sweep (DIR, as given to
    /// `--out-dir`) into the CSV the unsharded sweep writes.
    Merge {
        /// The sweep's output directory (holds plan.json and one file per run).
        dir: PathBuf,
        /// The merged CSV (default: stdout).
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
}

/// The arguments of `dcsim sweep`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SweepArgs {
    /// `merge DIR`: put a sharded sweep's results together.
    #[command(subcommand)]
    pub action: Option<SweepAction>,
    /// Scenario file (JSON).
    #[arg(required = true)]
    pub scenario: Option<PathBuf>,
    /// Comma-separated protocols.
    #[arg(long, value_delimiter = ',')]
    pub protocols: Vec<String>,
    /// Comma-separated loads.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub loads: Vec<f64>,
    /// Comma-separated seeds (default: the scenario's).
    #[arg(long, value_delimiter = ',')]
    pub seeds: Vec<u64>,
    /// Number of flows for every point.
    #[arg(long)]
    pub flows: Option<u64>,
    /// Summary CSV path (default: stdout; not with a shard of several).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Also vary one scenario field: `PATH=V1,V2,...`, a dotted path such
    /// as `workload.matrix.fanout` or `params.pdq.early_start` and its
    /// values (JSON; bare words are strings). The CSV then starts with a
    /// column named PATH.
    #[arg(long)]
    pub vary: Option<String>,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Print the runs (of this shard) one per line, each a complete
    /// command line that performs that single run, for GNU parallel or
    /// xargs; runs nothing. Needs --out-dir.
    #[arg(long)]
    pub plan: bool,
}

/// One run of the grid.
struct Point {
    /// The scenario with the point's protocol, load, seed and varied value.
    scenario: Scenario,
    /// The varied value, if the sweep varies a field.
    label: Option<Value>,
    /// The point as JSON (protocol, varied field and value, load, seed), for
    /// the plan and messages.
    point: Value,
    /// Result file name: hash of the scenario JSON, the point and the
    /// engine version.
    file: String,
}

/// The engine version that goes into result file names: results of another
/// engine are other results.
const ENGINE: &str = concat!("dcsim ", env!("CARGO_PKG_VERSION"));

fn content_address(scenario: &Scenario, point: &Value) -> String {
    let mut h = Sha256::new();
    h.update(ENGINE.as_bytes());
    h.update(b"\n");
    h.update(serde_json::to_string(scenario).unwrap().as_bytes());
    h.update(b"\n");
    h.update(point.to_string().as_bytes());
    let d = h.finalize();
    d[..16].iter().map(|b| format!("{b:02x}")).collect::<String>() + ".json"
}

fn describe(point: &Value) -> String {
    let mut s = format!("protocol {}", point["protocol"].as_str().unwrap_or("?"));
    if let (Some(p), Some(v)) = (point.get("vary").and_then(Value::as_str), point.get("value")) {
        s += &format!(", {p} {v}");
    }
    s + &format!(", load {}, seed {}", point["load"], point["seed"])
}

/// The grid, in order: protocol, then the varied value, then load, then seed.
fn grid(a: &SweepArgs, scenario: &Path, vary: &Option<(String, Vec<Value>)>) -> Result<Vec<Point>, String> {
    let base = load(scenario, &Overrides { flows: a.flows, ..Default::default() })?;
    let values: Vec<Option<&Value>> = match vary {
        Some((_, vs)) => vs.iter().map(Some).collect(),
        None => vec![None],
    };
    let protocols: Vec<ProtocolName> =
        if a.protocols.is_empty() { vec![base.protocol] } else { a.protocols.iter().map(|p| ProtocolName::parse(p)).collect::<Result<_, _>>()? };
    let loads = if a.loads.is_empty() { vec![base.workload.load] } else { a.loads.clone() };
    let seeds = if a.seeds.is_empty() { vec![base.seed] } else { a.seeds.clone() };
    let mut points = Vec::new();
    for &p in &protocols {
        for v in &values {
            for &l in &loads {
                for &sd in &seeds {
                    let mut s = base.clone();
                    s.protocol = p;
                    s.workload.load = l;
                    s.seed = sd;
                    let at = || format!("{} (protocol {}, load {l}, seed {sd})", scenario.display(), p.as_str());
                    let mut point = json!({"protocol": p.as_str(), "load": l, "seed": sd});
                    if let (Some((path, _)), Some(v)) = (vary, v) {
                        s = s.with_field(path, (*v).clone()).map_err(|e| format!("{}: --vary {e}", at()))?;
                        point["vary"] = json!(path);
                        point["value"] = (*v).clone();
                    }
                    s.validate().map_err(|e| format!("{}: {e}", at()))?;
                    let file = content_address(&s, &point);
                    points.push(Point { scenario: s, label: v.cloned(), point, file });
                }
            }
        }
    }
    Ok(points)
}

/// Reads `--vary PATH=V1,V2,...`: the dotted path and its values (each JSON,
/// or a bare word taken as a string).
fn parse_vary(arg: &str) -> Result<(String, Vec<Value>), String> {
    let (path, list) = arg.split_once('=').ok_or_else(|| format!("--vary {arg}: expected PATH=V1,V2,... (e.g. workload.matrix.fanout=2,5,8)"))?;
    let values: Vec<Value> =
        list.split(',').map(str::trim).filter(|v| !v.is_empty()).map(|v| serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_string()))).collect();
    if path.trim().is_empty() || values.is_empty() {
        return Err(format!("--vary {arg}: expected PATH=V1,V2,... (e.g. workload.matrix.fanout=2,5,8)"));
    }
    Ok((path.trim().to_string(), values))
}

/// Quotes a word for a POSIX shell (only when it needs it).
fn shell_quote(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "_-./=,:+@%".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// The plan of a sweep's output directory: the CSV header and every run
/// of the grid with its result file. plan.json holds it, and the job array
/// that ran it (`"array"`, see [`ArrayJob`]) once one has.
fn plan_value(vary: Option<&str>, points: &[Point]) -> Value {
    let runs: Vec<Value> = points.iter().enumerate().map(|(k, p)| json!({"run": k + 1, "file": p.file, "point": p.point})).collect();
    json!({"engine": ENGINE, "header": sweep_header(vary), "runs": runs})
}

/// The CSV line a result file holds, if the file is there and whole.
fn read_result(path: &Path) -> Option<String> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v["line"].as_str().map(str::to_string)
}

/// `dcsim sweep ...`.
pub fn sweep(a: SweepArgs) -> Result<(), String> {
    if let Some(SweepAction::Merge { dir, out }) = a.action {
        let csv = merge(&dir)?;
        return match out {
            Some(p) => write_file(&p, &csv),
            None => {
                print!("{csv}");
                Ok(())
            }
        };
    }
    let scenario = a.scenario.clone().ok_or("sweep: give a scenario file")?;
    let vary = a.vary.as_deref().map(parse_vary).transpose()?;
    let points = grid(&a, &scenario, &vary)?;
    let vary_path = vary.as_ref().map(|(p, _)| p.as_str());
    let plan = plan_value(vary_path, &points);
    let existing = match &a.batch.out_dir {
        Some(d) => read_plan(d, &plan)?,
        None => None,
    };
    let env = if a.batch.shard.is_some() { None } else { shard_from_env(|k| std::env::var(k).ok())? };
    let plan_path = a.batch.out_dir.as_deref().unwrap_or(Path::new(".")).join("plan.json");
    let shard = match (&a.batch.shard, &env) {
        (Some(s), _) => Some((Shard::parse(s)?, format!("--shard {s}"))),
        (None, Some(e)) => Some((e.shard(existing.as_ref().and_then(Option::as_ref), &plan_path)?, e.from.clone())),
        (None, None) => None,
    };
    let jobs = a.batch.slots()?;
    let sharded = shard.as_ref().is_some_and(|(s, _)| s.n > 1);
    if let Some((s, from)) = &shard {
        if a.batch.out_dir.is_none() {
            return Err(format!(
                "running as shard {}/{} ({from}): give --out-dir DIR for the results (then `dcsim sweep merge DIR`), or --shard 1/1 for the whole sweep here",
                s.m, s.n
            ));
        }
        if sharded && a.out.is_some() {
            return Err(format!("-o: shard {}/{} holds part of the sweep; merge every shard's results with `dcsim sweep merge DIR -o FILE`", s.m, s.n));
        }
    }
    if (a.plan || a.batch.skip_existing) && a.batch.out_dir.is_none() {
        return Err(format!("{} needs --out-dir DIR (where the runs' results go)", if a.plan { "--plan" } else { "--skip-existing" }));
    }
    let mine: Vec<usize> = (0..points.len()).filter(|&k| shard.as_ref().is_none_or(|(s, _)| s.owns(k))).collect();
    if let Some(dir) = &a.batch.out_dir {
        write_plan(dir, &plan, existing.as_ref().map(Option::as_ref), env.as_ref().map(|e| &e.array))?;
    }
    if a.plan {
        let dir = a.batch.out_dir.as_ref().unwrap();
        let exe = std::env::args().next().unwrap_or_else(|| "dcsim".into());
        let mut common = vec![exe, "sweep".into(), scenario.display().to_string()];
        let list = |xs: Vec<String>| xs.join(",");
        if !a.protocols.is_empty() {
            common.extend(["--protocols".into(), list(a.protocols.clone())]);
        }
        if !a.loads.is_empty() {
            common.extend(["--loads".into(), list(a.loads.iter().map(f64::to_string).collect())]);
        }
        if !a.seeds.is_empty() {
            common.extend(["--seeds".into(), list(a.seeds.iter().map(u64::to_string).collect())]);
        }
        if let Some(f) = a.flows {
            common.extend(["--flows".into(), f.to_string()]);
        }
        if let Some(v) = &a.vary {
            common.extend(["--vary".into(), v.clone()]);
        }
        common.extend(["--jobs".into(), "1".into(), "--out-dir".into(), dir.display().to_string(), "--skip-existing".into()]);
        // Shard k+1 of (number of runs) is run k alone.
        for &k in &mine {
            let words: Vec<String> = common.iter().cloned().chain(["--shard".into(), format!("{}/{}", k + 1, points.len())]).collect();
            println!("{}", words.iter().map(|w| shell_quote(w)).collect::<Vec<_>>().join(" "));
        }
        return Ok(());
    }
    // Results already there (--skip-existing) are read, not run again.
    let mut lines: Vec<Option<String>> = vec![None; points.len()];
    let mut todo = Vec::new();
    for &k in &mine {
        let existing = match (&a.batch.out_dir, a.batch.skip_existing) {
            (Some(d), true) => read_result(&d.join(&points[k].file)),
            _ => None,
        };
        match existing {
            Some(l) => lines[k] = Some(l),
            None => todo.push(k),
        }
    }
    let skipped = mine.len() - todo.len();
    let progress = Progress::start();
    let results = par_map(&todo, jobs.0, |_, &k| -> Result<Summary, String> {
        let p = &points[k];
        let r = prepare(&p.scenario, RunOptions::default()).map(|r| r.finish().summary);
        let r = r.and_then(|s| {
            if let Some(d) = &a.batch.out_dir {
                let line = sweep_line(p.label.as_ref(), &s);
                let body = json!({"engine": ENGINE, "run": k + 1, "runs": points.len(), "point": p.point, "line": line, "summary": s});
                write_atomic(&d.join(&p.file), &(serde_json::to_string_pretty(&body).unwrap() + "\n"))?;
            }
            Ok(s)
        });
        progress.say(&format!("done run {}/{}: {}", k + 1, points.len(), describe(&p.point)));
        r
    });
    for (&k, r) in todo.iter().zip(results) {
        let s = r.map_err(|e| format!("run {} ({}): {e}", k + 1, describe(&points[k].point)))?;
        lines[k] = Some(sweep_line(points[k].label.as_ref(), &s));
    }
    if sharded {
        let (s, from) = shard.as_ref().unwrap();
        eprintln!(
            "shard {}/{} ({from}): {} done, {skipped} already there, up to {} at a time ({}); results in {}",
            s.m,
            s.n,
            plural(todo.len(), "run"),
            jobs.0,
            jobs.1,
            a.batch.out_dir.as_ref().unwrap().display()
        );
        return Ok(());
    }
    let mut csv = sweep_header(vary_path);
    for l in lines.into_iter().flatten() {
        csv.push_str(&l);
    }
    match a.out {
        Some(p) => write_file(&p, &csv),
        None => {
            print!("{csv}");
            Ok(())
        }
    }
}

/// `dcsim sweep merge DIR`: the sweep's CSV from DIR/plan.json and the
/// per-run result files; an error names every missing run.
pub fn merge(dir: &Path) -> Result<String, String> {
    let plan_path = dir.join("plan.json");
    let text =
        std::fs::read_to_string(&plan_path).map_err(|e| format!("{}: cannot read ({e}): is {} a sweep's --out-dir?", plan_path.display(), dir.display()))?;
    let plan: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", plan_path.display()))?;
    let header = plan["header"].as_str().ok_or_else(|| format!("{}: no header", plan_path.display()))?;
    let runs = plan["runs"].as_array().ok_or_else(|| format!("{}: no runs", plan_path.display()))?;
    let mut csv = header.to_string();
    let mut missing = Vec::new();
    for (k, r) in runs.iter().enumerate() {
        let file = r["file"].as_str().unwrap_or_default();
        match read_result(&dir.join(file)) {
            Some(line) => csv.push_str(&line),
            None => missing.push(format!("run {} of {} ({}; {})", k + 1, runs.len(), describe(&r["point"]), dir.join(file).display())),
        }
    }
    if !missing.is_empty() {
        let have = if missing.len() == 1 { "has" } else { "have" };
        return Err(format!(
            "{}: {} of {} {have} no result: {}; run their shards again: the same --shard M/N, or the whole array as first submitted, with --skip-existing (it skips the runs done)",
            dir.display(),
            missing.len(),
            plural(runs.len(), "run"),
            missing.join("; ")
        ));
    }
    Ok(csv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting_survives_spaces_and_quotes() {
        assert_eq!(shell_quote("a/b-c_1.json"), "a/b-c_1.json");
        assert_eq!(shell_quote("my dir"), "'my dir'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
