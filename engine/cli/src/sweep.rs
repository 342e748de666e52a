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
//! Run `k` (0-based, grid order) belongs to shard `(k mod n) + 1` of `n`:
//! round robin, so every shard gets a share of every protocol. The shard
//! comes from `--shard m/n` or, when absent, from the environment of a
//! Slurm job array or a Kubernetes Indexed Job (see [`shard_from_env`]).

use crate::{load, write_file, Overrides};
use dcsim_core::metrics::Summary;
use dcsim_core::report::{sweep_header, sweep_line};
use dcsim_core::scenario::{ProtocolName, Scenario};
use dcsim_core::{prepare, RunOptions};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    /// Parallel runs (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Also vary one scenario field: `PATH=V1,V2,...`, a dotted path such
    /// as `workload.matrix.fanout` or `params.pdq.early_start` and its
    /// values (JSON; bare words are strings). The CSV then starts with a
    /// column named PATH.
    #[arg(long)]
    pub vary: Option<String>,
    /// Run only shard M of N (1-based): the runs k (0-based, grid order)
    /// with k mod N = M - 1. Default: from SLURM_ARRAY_TASK_ID and
    /// SLURM_ARRAY_TASK_COUNT (minus SLURM_ARRAY_TASK_MIN), or from a
    /// Kubernetes Indexed Job's JOB_COMPLETION_INDEX with the count in
    /// DCSIM_SHARD_COUNT; otherwise the whole sweep. Needs --out-dir.
    #[arg(long)]
    pub shard: Option<String>,
    /// Write each run's result to DIR (a content-addressed file per run,
    /// and DIR/plan.json listing the whole grid); `dcsim sweep merge DIR`
    /// makes the CSV.
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Skip the runs whose result file already exists in --out-dir.
    #[arg(long)]
    pub skip_existing: bool,
    /// Print the runs (of this shard) one per line, each a complete
    /// command line that performs that single run, for GNU parallel or
    /// xargs; runs nothing. Needs --out-dir.
    #[arg(long)]
    pub plan: bool,
}

/// Shard `m` of `n`, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 1..=n.
    pub m: usize,
    /// How many shards.
    pub n: usize,
}

impl Shard {
    /// Parses `M/N` with 1 <= M <= N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {s}: expected M/N with 1 <= M <= N (e.g. 2/8)");
        let (m, n) = s.split_once('/').ok_or_else(bad)?;
        let (m, n): (usize, usize) = (m.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if m == 0 || n == 0 || m > n {
            return Err(bad());
        }
        Ok(Shard { m, n })
    }
    /// Whether run `k` (0-based, grid order) is this shard's.
    pub fn owns(&self, k: usize) -> bool {
        k % self.n == self.m - 1
    }
}

/// The shard an array job's environment assigns, with where it came from:
///
/// * Slurm job arrays: `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT`;
///   the array may start anywhere (`--array=0-7` or `1-8`): the first id is
///   `SLURM_ARRAY_TASK_MIN` (0 when unset) and ids step by
///   `SLURM_ARRAY_TASK_STEP` (1 when unset).
/// * Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (0-based) and the
///   number of completions in `DCSIM_SHARD_COUNT` (Kubernetes does not
///   export it: set it in the pod template to `spec.completions`).
///
/// `None` when neither is set. `get` reads a variable (the environment,
/// or a map in tests).
pub fn shard_from_env(get: impl Fn(&str) -> Option<String>) -> Result<Option<(Shard, String)>, String> {
    let num = |name: &str| -> Result<Option<i64>, String> {
        get(name).map(|v| v.trim().parse::<i64>().map_err(|_| format!("{name}={v}: not an integer"))).transpose()
    };
    if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
        let count = num("SLURM_ARRAY_TASK_COUNT")?.ok_or("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard M/N")?;
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        let from = format!("SLURM_ARRAY_TASK_ID={id}, SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_COUNT={count}");
        let m = (id - min) / step + 1;
        if count < 1 || m < 1 || m > count || (id - min) % step != 0 {
            return Err(format!("{from}: not a task of this array (expected ids {min}, {}, ... up to {count} tasks)", min + step));
        }
        return Ok(Some((Shard { m: m as usize, n: count as usize }, from)));
    }
    if let Some(i) = num("JOB_COMPLETION_INDEX")? {
        let count = num("DCSIM_SHARD_COUNT")?.ok_or("JOB_COMPLETION_INDEX is set but DCSIM_SHARD_COUNT is not: set it to the Job's completions, or give --shard M/N")?;
        let from = format!("JOB_COMPLETION_INDEX={i}, DCSIM_SHARD_COUNT={count}");
        if i < 0 || count < 1 || i >= count {
            return Err(format!("{from}: the index must be in 0..{count}"));
        }
        return Ok(Some((Shard { m: i as usize + 1, n: count as usize }, from)));
    }
    Ok(None)
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
    let protocols: Vec<ProtocolName> = if a.protocols.is_empty() { vec![base.protocol] } else { a.protocols.iter().map(|p| ProtocolName::parse(p)).collect::<Result<_, _>>()? };
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
    let values: Vec<Value> = list
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_string())))
        .collect();
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

/// Writes `text` to `path` through a temporary file and a rename, so that
/// a reader (another shard, `--skip-existing`, `merge`) never sees half a file.
fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_file_name(format!(".{}.tmp{}", path.file_name().and_then(|f| f.to_str()).unwrap_or("x"), std::process::id()));
    write_file(&tmp, text)?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// The plan file of a sweep's output directory: the CSV header and every
/// run of the grid with its result file.
fn plan_json(vary: Option<&str>, points: &[Point]) -> String {
    let runs: Vec<Value> = points.iter().enumerate().map(|(k, p)| json!({"run": k + 1, "file": p.file, "point": p.point})).collect();
    serde_json::to_string_pretty(&json!({"engine": ENGINE, "header": sweep_header(vary), "runs": runs})).unwrap() + "\n"
}

/// Writes DIR/plan.json, or checks that the one there is this sweep's.
fn write_plan(dir: &Path, plan: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let path = dir.join("plan.json");
    match std::fs::read_to_string(&path) {
        Ok(old) if old == plan => Ok(()),
        Ok(_) => Err(format!("{}: describes another sweep (other scenario, grid or engine version): give this sweep its own --out-dir", path.display())),
        Err(_) => write_atomic(&path, plan),
    }
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
    let shard = match &a.shard {
        Some(s) => Some((Shard::parse(s)?, format!("--shard {s}"))),
        None => shard_from_env(|k| std::env::var(k).ok())?,
    };
    let sharded = shard.as_ref().is_some_and(|(s, _)| s.n > 1);
    if let Some((s, from)) = &shard {
        if a.out_dir.is_none() {
            return Err(format!("running as shard {}/{} ({from}): give --out-dir DIR for the results (then `dcsim sweep merge DIR`), or --shard 1/1 for the whole sweep here", s.m, s.n));
        }
        if sharded && a.out.is_some() {
            return Err(format!("-o: shard {}/{} holds part of the sweep; merge every shard's results with `dcsim sweep merge DIR -o FILE`", s.m, s.n));
        }
    }
    if (a.plan || a.skip_existing) && a.out_dir.is_none() {
        return Err(format!("{} needs --out-dir DIR (where the runs' results go)", if a.plan { "--plan" } else { "--skip-existing" }));
    }
    let mine: Vec<usize> = (0..points.len()).filter(|&k| shard.as_ref().is_none_or(|(s, _)| s.owns(k))).collect();
    let vary_path = vary.as_ref().map(|(p, _)| p.as_str());
    if let Some(dir) = &a.out_dir {
        write_plan(dir, &plan_json(vary_path, &points))?;
    }
    if a.plan {
        let dir = a.out_dir.as_ref().unwrap();
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
        let existing = match (&a.out_dir, a.skip_existing) {
            (Some(d), true) => read_result(&d.join(&points[k].file)),
            _ => None,
        };
        match existing {
            Some(l) => lines[k] = Some(l),
            None => todo.push(k),
        }
    }
    let skipped = mine.len() - todo.len();
    let t0 = Instant::now();
    let results = par_map(&todo, a.jobs.unwrap_or_else(cores), |_, &k| -> Result<Summary, String> {
        let p = &points[k];
        let r = prepare(&p.scenario, RunOptions::default()).map(|r| r.finish().summary);
        let r = r.and_then(|s| {
            if let Some(d) = &a.out_dir {
                let line = sweep_line(p.label.as_ref(), &s);
                let body = json!({"engine": ENGINE, "run": k + 1, "runs": points.len(), "point": p.point, "line": line, "summary": s});
                write_atomic(&d.join(&p.file), &(serde_json::to_string_pretty(&body).unwrap() + "\n"))?;
            }
            Ok(s)
        });
        eprintln!("[{:.1}s] done run {}/{}: {}", t0.elapsed().as_secs_f64(), k + 1, points.len(), describe(&p.point));
        r
    });
    for (&k, r) in todo.iter().zip(results) {
        let s = r.map_err(|e| format!("run {} ({}): {e}", k + 1, describe(&points[k].point)))?;
        lines[k] = Some(sweep_line(points[k].label.as_ref(), &s));
    }
    if sharded {
        let (s, from) = shard.as_ref().unwrap();
        eprintln!("shard {}/{} ({from}): {} runs done, {skipped} already there; results in {}", s.m, s.n, todo.len(), a.out_dir.as_ref().unwrap().display());
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

/// This machine's cores (1 when unknown): the default number of parallel runs.
pub fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Runs `f` on every job on `threads` threads (at least one) and returns
/// the results in job order; `f` gets the job's index too. Jobs are taken
/// in order as threads free up, so put the longest first. The pool of
/// `sweep` and `reproduce`.
pub fn par_map<J: Sync, R: Send>(jobs: &[J], threads: usize, f: impl Fn(usize, &J) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<R>>> = jobs.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|sc| {
        for _ in 0..threads.max(1).min(jobs.len()) {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(j) = jobs.get(i) else { break };
                let r = f(i, j);
                *results[i].lock().unwrap() = Some(r);
            });
        }
    });
    results.into_iter().map(|m| m.into_inner().unwrap().expect("every job ran")).collect()
}

/// `dcsim sweep merge DIR`: the sweep's CSV from DIR/plan.json and the
/// per-run result files; an error names every missing run.
pub fn merge(dir: &Path) -> Result<String, String> {
    let plan_path = dir.join("plan.json");
    let text = std::fs::read_to_string(&plan_path).map_err(|e| format!("{}: cannot read ({e}): is {} a sweep's --out-dir?", plan_path.display(), dir.display()))?;
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
        return Err(format!("{}: {} of {} runs have no result: {}; run their shards again (--skip-existing skips the runs done)", dir.display(), missing.len(), runs.len(), missing.join("; ")));
    }
    Ok(csv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| vars.iter().find(|v| v.0 == k).map(|v| v.1.to_string())
    }

    #[test]
    fn shards_split_the_grid_round_robin_and_cover_it_once() {
        let shards: Vec<Shard> = (1..=3).map(|m| Shard::parse(&format!("{m}/3")).unwrap()).collect();
        for k in 0..10 {
            assert_eq!(shards.iter().filter(|s| s.owns(k)).count(), 1, "run {k}");
        }
        assert!(shards[0].owns(0) && shards[1].owns(1) && shards[2].owns(2) && shards[0].owns(3));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(Shard::parse(bad).unwrap_err().contains("M/N"), "{bad}");
        }
    }

    #[test]
    fn slurm_arrays_starting_at_zero_or_one_give_the_same_shards() {
        let zero = shard_from_env(env(&[("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_MIN", "0"), ("SLURM_ARRAY_TASK_COUNT", "4")])).unwrap().unwrap();
        let one = shard_from_env(env(&[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")])).unwrap().unwrap();
        assert_eq!(zero.0, Shard { m: 1, n: 4 });
        assert_eq!(one.0, Shard { m: 1, n: 4 });
        let last = shard_from_env(env(&[("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")])).unwrap().unwrap();
        assert_eq!(last.0, Shard { m: 4, n: 4 });
        let stepped = shard_from_env(env(&[("SLURM_ARRAY_TASK_ID", "6"), ("SLURM_ARRAY_TASK_MIN", "0"), ("SLURM_ARRAY_TASK_STEP", "3"), ("SLURM_ARRAY_TASK_COUNT", "3")])).unwrap().unwrap();
        assert_eq!(stepped.0, Shard { m: 3, n: 3 });
        let outside = shard_from_env(env(&[("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")]));
        assert!(outside.unwrap_err().contains("SLURM_ARRAY_TASK_ID=5"));
    }

    #[test]
    fn kubernetes_indexed_jobs_need_the_count() {
        let s = shard_from_env(env(&[("JOB_COMPLETION_INDEX", "2"), ("DCSIM_SHARD_COUNT", "5")])).unwrap().unwrap();
        assert_eq!(s.0, Shard { m: 3, n: 5 });
        assert!(shard_from_env(env(&[("JOB_COMPLETION_INDEX", "2")])).unwrap_err().contains("DCSIM_SHARD_COUNT"));
        assert_eq!(shard_from_env(env(&[])).unwrap(), None);
    }

    #[test]
    fn shell_quoting_survives_spaces_and_quotes() {
        assert_eq!(shell_quote("a/b-c_1.json"), "a/b-c_1.json");
        assert_eq!(shell_quote("my dir"), "'my dir'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
