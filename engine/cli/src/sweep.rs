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
//! A task of an array learns its id and the array's bounds, step and
//! size, never the list of ids: plan.json records the array that ran the
//! sweep, and [`EnvShard::shard`] refuses a resubmission of part of it
//! (issue 30; docs/cluster.md). Without `--jobs`, a task runs as many runs
//! at once as Slurm gave it CPUs ([`job_slots`]).

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
    /// Parallel runs. Default (also when given empty, as
    /// `--jobs "$SLURM_CPUS_PER_TASK"` is without `--cpus-per-task`): the
    /// CPUs Slurm gave the task (SLURM_CPUS_PER_TASK, else
    /// SLURM_CPUS_ON_NODE), never more than the cores this process may run
    /// on (its CPU affinity and cgroup quota); outside Slurm, those cores.
    #[arg(long, value_parser = parse_jobs)]
    pub jobs: Option<Jobs>,
    /// Also vary one scenario field: `PATH=V1,V2,...`, a dotted path such
    /// as `workload.matrix.fanout` or `params.pdq.early_start` and its
    /// values (JSON; bare words are strings). The CSV then starts with a
    /// column named PATH.
    #[arg(long)]
    pub vary: Option<String>,
    /// Run only shard M of N (1-based): the runs k (0-based, grid order)
    /// with k mod N = M - 1. Default: from a Slurm job array
    /// (SLURM_ARRAY_TASK_ID, _MIN, _MAX, _STEP and _COUNT: the array's
    /// size is N, so resubmit the same range, never part of it), or from a
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

/// `--jobs N`: how many runs at once; `None` (an empty value) means the
/// default ([`job_slots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jobs(pub Option<usize>);

/// Reads `--jobs`: a number of at least 1, or empty for the default (so
/// that `--jobs "$SLURM_CPUS_PER_TASK"` works when Slurm does not set it).
pub fn parse_jobs(s: &str) -> Result<Jobs, String> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(Jobs(None));
    }
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1 (or empty for the default: the CPUs Slurm gave the task, else this machine's)".into()),
        Ok(n) => Ok(Jobs(Some(n))),
        Err(_) => Err("expected a number of parallel runs (at least 1), or empty for the default".into()),
    }
}

/// The default number of parallel runs, and why: the CPUs Slurm allocated
/// to the task (`SLURM_CPUS_PER_TASK`, set with `--cpus-per-task`; else
/// `SLURM_CPUS_ON_NODE`, the job's CPUs on this node), never more than
/// `affinity`, the cores the process may run on (with `TaskPlugin=task/none`
/// a task may run on every core of the node while it was given one);
/// outside Slurm, `affinity`. A variable that is not a positive integer is
/// an error naming it. `get` reads a variable (the environment, or a map in
/// tests).
pub fn job_slots(get: impl Fn(&str) -> Option<String>, affinity: usize) -> Result<(usize, String), String> {
    let affinity = affinity.max(1);
    for name in ["SLURM_CPUS_PER_TASK", "SLURM_CPUS_ON_NODE"] {
        let Some(v) = get(name).filter(|v| !v.trim().is_empty()) else { continue };
        let n: usize = v.trim().parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("{name}={v}: not a positive number of CPUs; give --jobs N"))?;
        let why = if n > affinity { format!("{name}={n}, but this process may run on {}", plural(affinity, "core")) } else { format!("{name}={n}") };
        return Ok((n.min(affinity), why));
    }
    Ok((affinity, format!("the {} this process may run on", plural(affinity, "core"))))
}

/// The cores this process may run on (its CPU affinity mask and cgroup CPU
/// quota, as `std::thread::available_parallelism` reads them on Linux), and
/// inside a Slurm job no more than the CPUs Slurm gave it ([`job_slots`];
/// a malformed Slurm variable is ignored here); 1 when unknown. The
/// default number of parallel runs of `sweep` and `reproduce`, and of
/// threads of `run`.
pub fn cores() -> usize {
    let affinity = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    job_slots(|k| std::env::var(k).ok(), affinity).map(|j| j.0).unwrap_or(affinity)
}

/// `n word` or `n words`: "1 run", "2 runs".
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The job array a task belongs to, as the task's environment describes
/// it and as `plan.json` records it (`"array"`) so that a later
/// resubmission of part of the array can be told from the whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayJob {
    /// Number of tasks: the number of shards.
    pub tasks: usize,
    /// A Slurm array's first id, last id and step; `None` for a Kubernetes
    /// Indexed Job (indices 0..tasks).
    pub slurm: Option<(i64, i64, i64)>,
}

impl ArrayJob {
    /// How the array is submitted: `--array=0-3`, `--array=0-6:2`, or a
    /// Kubernetes Job's completions.
    pub fn describe(&self) -> String {
        match self.slurm {
            Some((min, max, _)) if min == max => format!("--array={min}"),
            Some((min, max, 1)) => format!("--array={min}-{max}"),
            Some((min, max, step)) => format!("--array={min}-{max}:{step}"),
            None => format!("an Indexed Job of {}", plural(self.tasks, "completion")),
        }
    }
    /// The record in plan.json.
    pub fn to_json(&self) -> Value {
        match self.slurm {
            Some((min, max, step)) => json!({"scheduler": "slurm", "tasks": self.tasks, "min": min, "max": max, "step": step, "submitted": self.describe()}),
            None => json!({"scheduler": "kubernetes", "tasks": self.tasks}),
        }
    }
    /// Reads the record of plan.json (`None` when absent or unreadable).
    pub fn from_json(v: &Value) -> Option<ArrayJob> {
        let tasks = usize::try_from(v.get("tasks")?.as_u64()?).ok()?;
        let slurm = match v.get("scheduler")?.as_str()? {
            "slurm" => Some((v.get("min")?.as_i64()?, v.get("max")?.as_i64()?, v.get("step")?.as_i64()?)),
            _ => None,
        };
        Some(ArrayJob { tasks, slurm })
    }
    /// The shard (1-based) of Slurm task `id` of this array, if it is one.
    fn shard_of(&self, id: i64) -> Option<usize> {
        let (min, max, step) = self.slurm?;
        (id >= min && id <= max && (id - min) % step == 0).then(|| ((id - min) / step) as usize + 1)
    }
}

/// A task of a job array, as its environment describes it: see
/// [`shard_from_env`] and [`EnvShard::shard`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvShard {
    /// The array as the task sees it.
    pub array: ArrayJob,
    /// The task's id (Slurm) or index (Kubernetes).
    pub id: i64,
    /// The variables it came from, for messages.
    pub from: String,
}

/// The array job a task's environment describes, if any:
///
/// * Slurm job arrays: `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`,
///   `SLURM_ARRAY_TASK_MIN` (0 when unset), `SLURM_ARRAY_TASK_STEP` (1 when
///   unset) and `SLURM_ARRAY_TASK_MAX` (MIN + (COUNT - 1) x STEP when
///   unset). The array may start anywhere (`--array=0-7`, `1-8`) and step
///   (`0-14:2`): the task's shard is its position in the array.
/// * Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (0-based) and the
///   number of completions in `DCSIM_SHARD_COUNT` (Kubernetes does not
///   export it: set it in the pod template to `spec.completions`).
///
/// `None` when neither is set. `get` reads a variable (the environment,
/// or a map in tests). Whether the task is a shard of the sweep is
/// [`EnvShard::shard`]'s to say.
pub fn shard_from_env(get: impl Fn(&str) -> Option<String>) -> Result<Option<EnvShard>, String> {
    let num = |name: &str| -> Result<Option<i64>, String> {
        get(name).map(|v| v.trim().parse::<i64>().map_err(|_| format!("{name}={v}: not an integer"))).transpose()
    };
    if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
        let count = num("SLURM_ARRAY_TASK_COUNT")?.ok_or("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard M/N")?;
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        let max = num("SLURM_ARRAY_TASK_MAX")?.unwrap_or(min + (count - 1) * step);
        let from = format!(
            "SLURM_ARRAY_TASK_ID={id}, SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_MAX={max}, SLURM_ARRAY_TASK_STEP={step}, SLURM_ARRAY_TASK_COUNT={count}"
        );
        if count < 1 {
            return Err(format!("{from}: the array has no task"));
        }
        return Ok(Some(EnvShard { array: ArrayJob { tasks: count as usize, slurm: Some((min, max, step)) }, id, from }));
    }
    if let Some(i) = num("JOB_COMPLETION_INDEX")? {
        let count = num("DCSIM_SHARD_COUNT")?
            .ok_or("JOB_COMPLETION_INDEX is set but DCSIM_SHARD_COUNT is not: set it to the Job's completions, or give --shard M/N")?;
        let from = format!("JOB_COMPLETION_INDEX={i}, DCSIM_SHARD_COUNT={count}");
        if i < 0 || count < 1 || i >= count {
            return Err(format!("{from}: the index must be in 0..{count}"));
        }
        return Ok(Some(EnvShard { array: ArrayJob { tasks: count as usize, slurm: None }, id: i, from }));
    }
    Ok(None)
}

impl EnvShard {
    /// This task's shard of the sweep, given the array `recorded` in the
    /// sweep's plan.json (`plan`, for messages) by the tasks that ran
    /// before. Refuses a partial resubmission, naming the fix:
    ///
    /// * a Slurm array whose ids are not an evenly spaced range
    ///   (`--array=1,3,7`: MAX is not MIN + (COUNT - 1) x STEP): a task
    ///   learns only its id, MIN, MAX, STEP and COUNT, not the list, so it
    ///   cannot tell its shard;
    /// * fewer tasks than the array recorded (`--array=2` after
    ///   `--array=0-3`): the task would take the whole sweep, or another
    ///   share of it, as its shard.
    ///
    /// Fewer shards on purpose: give `--shard M/N` explicitly.
    pub fn shard(&self, recorded: Option<&ArrayJob>, plan: &Path) -> Result<Shard, String> {
        let n = self.array.tasks;
        let fix = |what: String| -> String {
            let (whole, nn, example) = match recorded {
                Some(r) => {
                    let ex = r.shard_of(self.id).map(|m| format!(" (task {} of {} is --shard {m}/{})", self.id, r.describe(), r.tasks)).unwrap_or_default();
                    (format!("resubmit the whole {} ({} tasks)", r.describe(), r.tasks), r.tasks.to_string(), ex)
                }
                None => ("resubmit the original array's whole range".to_string(), "N".to_string(), String::new()),
            };
            let n_is = if recorded.is_none() { ", N the original array's number of tasks" } else { "" };
            format!(
                "{}: {what} A task learns its own id and the array's first id, last id, step and size, never the list of ids, so part of an array cannot tell which shard is which. To rerun the runs that failed, {whole} with --skip-existing (only the runs without a result run again), or run a failed shard alone with --shard M/{nn}{n_is}{example}",
                self.from
            )
        };
        match self.array.slurm {
            Some((min, max, step)) => {
                if max != min + (n as i64 - 1) * step {
                    return Err(fix(format!("ids {min} to {max} in {} is not an evenly spaced range such as --array=0-7 or --array=0-14:2: is this part of an earlier array resubmitted?", plural(n, "task"))));
                }
                let m = self.array.shard_of(self.id).ok_or_else(|| format!("{}: not a task of this array (ids {min} to {max}, step {step})", self.from))?;
                if let Some(r) = recorded.filter(|r| r.tasks > n) {
                    return Err(fix(format!(
                        "an array of {}, but {} records this sweep as an array of {} ({}): is this part of it resubmitted?",
                        plural(n, "task"),
                        plan.display(),
                        plural(r.tasks, "task"),
                        r.describe()
                    )));
                }
                Ok(Shard { m, n })
            }
            None => {
                if let Some(r) = recorded.filter(|r| r.tasks > n) {
                    return Err(format!(
                        "{}: {} records this sweep as {} of {}: set DCSIM_SHARD_COUNT to the Job's completions ({}), and rerun the Job whole with --skip-existing (only the runs without a result run again), or run a shard alone with --shard M/{}",
                        self.from,
                        plan.display(),
                        if r.slurm.is_some() { "a Slurm array" } else { "an Indexed Job" },
                        plural(r.tasks, "task"),
                        r.tasks,
                        r.tasks
                    ));
                }
                Ok(Shard { m: self.id as usize + 1, n })
            }
        }
    }
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

/// Writes `text` to `path` through a temporary file and a rename, so that
/// a reader (another shard, `--skip-existing`, `merge`) never sees half a file.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_file_name(format!(".{}.tmp{}", path.file_name().and_then(|f| f.to_str()).unwrap_or("x"), std::process::id()));
    write_file(&tmp, text)?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// The plan of a sweep's output directory: the CSV header and every run
/// of the grid with its result file. plan.json holds it, and the job array
/// that ran it (`"array"`, see [`ArrayJob`]) once one has.
fn plan_value(vary: Option<&str>, points: &[Point]) -> Value {
    let runs: Vec<Value> = points.iter().enumerate().map(|(k, p)| json!({"run": k + 1, "file": p.file, "point": p.point})).collect();
    json!({"engine": ENGINE, "header": sweep_header(vary), "runs": runs})
}

/// Reads DIR/plan.json if there is one: `Some` with the job array it
/// records (if any). A plan of another sweep is an error.
pub(crate) fn read_plan(dir: &Path, plan: &Value) -> Result<Option<Option<ArrayJob>>, String> {
    let path = dir.join("plan.json");
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(None) };
    let mut old: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}: not a dcsim sweep plan; give this sweep its own --out-dir", path.display()))?;
    let array = old.as_object_mut().and_then(|o| o.remove("array"));
    if old != *plan {
        return Err(format!("{}: describes another sweep (other scenario, grid or engine version): give this sweep its own --out-dir", path.display()));
    }
    Ok(Some(array.as_ref().and_then(ArrayJob::from_json)))
}

/// Writes DIR/plan.json when it is not there yet, or when `array` (this
/// task's job array) has more tasks than the one `existing` records: the
/// record says how large the array that ran the sweep was.
pub(crate) fn write_plan(dir: &Path, plan: &Value, existing: Option<Option<&ArrayJob>>, array: Option<&ArrayJob>) -> Result<(), String> {
    let grows = |old: Option<&ArrayJob>| array.is_some_and(|a| old.is_none_or(|o| a.tasks > o.tasks));
    if existing.is_some_and(|old| !grows(old)) {
        return Ok(());
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let mut plan = plan.clone();
    if let Some(a) = array {
        plan["array"] = a.to_json();
    }
    write_atomic(&dir.join("plan.json"), &(serde_json::to_string_pretty(&plan).unwrap() + "\n"))
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
    let existing = match &a.out_dir {
        Some(d) => read_plan(d, &plan)?,
        None => None,
    };
    let env = if a.shard.is_some() { None } else { shard_from_env(|k| std::env::var(k).ok())? };
    let plan_path = a.out_dir.as_deref().unwrap_or(Path::new(".")).join("plan.json");
    let shard = match (&a.shard, &env) {
        (Some(s), _) => Some((Shard::parse(s)?, format!("--shard {s}"))),
        (None, Some(e)) => Some((e.shard(existing.as_ref().and_then(Option::as_ref), &plan_path)?, e.from.clone())),
        (None, None) => None,
    };
    let jobs = match a.jobs {
        Some(Jobs(Some(n))) => (n, "--jobs".to_string()),
        _ => job_slots(|k| std::env::var(k).ok(), std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))?,
    };
    let sharded = shard.as_ref().is_some_and(|(s, _)| s.n > 1);
    if let Some((s, from)) = &shard {
        if a.out_dir.is_none() {
            return Err(format!(
                "running as shard {}/{} ({from}): give --out-dir DIR for the results (then `dcsim sweep merge DIR`), or --shard 1/1 for the whole sweep here",
                s.m, s.n
            ));
        }
        if sharded && a.out.is_some() {
            return Err(format!("-o: shard {}/{} holds part of the sweep; merge every shard's results with `dcsim sweep merge DIR -o FILE`", s.m, s.n));
        }
    }
    if (a.plan || a.skip_existing) && a.out_dir.is_none() {
        return Err(format!("{} needs --out-dir DIR (where the runs' results go)", if a.plan { "--plan" } else { "--skip-existing" }));
    }
    let mine: Vec<usize> = (0..points.len()).filter(|&k| shard.as_ref().is_none_or(|(s, _)| s.owns(k))).collect();
    if let Some(dir) = &a.out_dir {
        write_plan(dir, &plan, existing.as_ref().map(Option::as_ref), env.as_ref().map(|e| &e.array))?;
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
    let results = par_map(&todo, jobs.0, |_, &k| -> Result<Summary, String> {
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
        eprintln!(
            "shard {}/{} ({from}): {} done, {skipped} already there, up to {} at a time ({}); results in {}",
            s.m,
            s.n,
            plural(todo.len(), "run"),
            jobs.0,
            jobs.1,
            a.out_dir.as_ref().unwrap().display()
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

    /// The shard of a task whose environment is `vars`, with `recorded` the
    /// array plan.json records.
    fn shard_of(vars: &[(&str, &str)], recorded: Option<&ArrayJob>) -> Result<Shard, String> {
        shard_from_env(env(vars))?.expect("an array task").shard(recorded, Path::new("out/plan.json"))
    }

    /// The variables Slurm 22.05 sets in a task of `--array=MIN-MAX:STEP`
    /// (COUNT tasks): the same five whatever the array.
    fn slurm(id: &str, min: &str, max: &str, step: &str, count: &str) -> [(&'static str, String); 5] {
        [
            ("SLURM_ARRAY_TASK_ID", id.into()),
            ("SLURM_ARRAY_TASK_MIN", min.into()),
            ("SLURM_ARRAY_TASK_MAX", max.into()),
            ("SLURM_ARRAY_TASK_STEP", step.into()),
            ("SLURM_ARRAY_TASK_COUNT", count.into()),
        ]
    }

    fn vars<'a>(v: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
        v.iter().map(|(k, v)| (*k, v.as_str())).collect()
    }

    #[test]
    fn slurm_arrays_starting_at_zero_or_one_or_stepping_give_the_same_shards() {
        assert_eq!(shard_of(&vars(&slurm("0", "0", "3", "1", "4")), None).unwrap(), Shard { m: 1, n: 4 });
        assert_eq!(shard_of(&vars(&slurm("1", "1", "4", "1", "4")), None).unwrap(), Shard { m: 1, n: 4 });
        assert_eq!(shard_of(&vars(&slurm("4", "1", "4", "1", "4")), None).unwrap(), Shard { m: 4, n: 4 });
        assert_eq!(shard_of(&vars(&slurm("6", "0", "6", "3", "3")), None).unwrap(), Shard { m: 3, n: 3 });
        assert_eq!(shard_of(&vars(&slurm("4", "0", "6", "2", "4")), None).unwrap(), Shard { m: 3, n: 4 });
        // Without MAX and STEP (older Slurm, or set by hand): a range.
        assert_eq!(
            shard_of(&[("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")], None).unwrap(),
            Shard { m: 2, n: 4 }
        );
        let outside = shard_of(&[("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")], None);
        assert!(outside.unwrap_err().contains("SLURM_ARRAY_TASK_ID=5"));
        // The array recorded by an earlier, larger or equal submission does
        // not matter to a whole one.
        let rec = ArrayJob { tasks: 4, slurm: Some((0, 3, 1)) };
        assert_eq!(shard_of(&vars(&slurm("3", "1", "4", "1", "4")), Some(&rec)).unwrap(), Shard { m: 3, n: 4 });
        assert_eq!(shard_of(&vars(&slurm("7", "0", "7", "1", "8")), Some(&rec)).unwrap(), Shard { m: 8, n: 8 });
    }

    #[test]
    fn part_of_an_array_resubmitted_is_refused_with_the_fix() {
        let rec = ArrayJob { tasks: 4, slurm: Some((0, 3, 1)) };
        // `sbatch --array=2` after `--array=0-3`: COUNT 1 would be the whole sweep.
        let e = shard_of(&vars(&slurm("2", "2", "2", "1", "1")), Some(&rec)).unwrap_err();
        for needle in [
            "SLURM_ARRAY_TASK_COUNT=1",
            "out/plan.json",
            "array of 4 tasks (--array=0-3)",
            "resubmit the whole --array=0-3 (4 tasks) with --skip-existing",
            "--shard M/4",
            "task 2 of --array=0-3 is --shard 3/4",
        ] {
            assert!(e.contains(needle), "`{needle}` not in: {e}");
        }
        // `--array=1,3,7`: ids not evenly spaced, refused even with no record
        // (task 3 would otherwise run shard 3/3).
        for id in ["1", "3", "7"] {
            let e = shard_of(&vars(&slurm(id, "1", "7", "1", "3")), None).unwrap_err();
            for needle in [
                "ids 1 to 7 in 3 tasks is not an evenly spaced range",
                "resubmit the original array's whole range with --skip-existing",
                "--shard M/N, N the original array's number of tasks",
            ] {
                assert!(e.contains(needle), "task {id}: `{needle}` not in: {e}");
            }
        }
        let e = shard_of(&vars(&slurm("3", "1", "7", "1", "3")), Some(&rec)).unwrap_err();
        assert!(e.contains("--shard M/4 (task 3 of --array=0-3 is --shard 4/4)"), "{e}");
        // `--array=0-1` after `--array=0-3`: a range, but a smaller one.
        assert!(shard_of(&vars(&slurm("1", "0", "1", "1", "2")), Some(&rec)).unwrap_err().contains("an array of 2 tasks"));
        // A step array recorded: its own syntax in the advice.
        let stepped = ArrayJob { tasks: 4, slurm: Some((0, 6, 2)) };
        let e = shard_of(&vars(&slurm("4", "4", "4", "1", "1")), Some(&stepped)).unwrap_err();
        assert!(e.contains("--array=0-6:2 (4 tasks)") && e.contains("task 4 of --array=0-6:2 is --shard 3/4") && e.contains("1 task,"), "{e}");
        // Kubernetes: a smaller DCSIM_SHARD_COUNT than recorded.
        let k8s = ArrayJob { tasks: 5, slurm: None };
        let e = shard_of(&[("JOB_COMPLETION_INDEX", "1"), ("DCSIM_SHARD_COUNT", "2")], Some(&k8s)).unwrap_err();
        assert!(e.contains("DCSIM_SHARD_COUNT") && e.contains("(5)") && e.contains("--shard M/5"), "{e}");
        assert_eq!(shard_of(&[("JOB_COMPLETION_INDEX", "1"), ("DCSIM_SHARD_COUNT", "5")], Some(&k8s)).unwrap(), Shard { m: 2, n: 5 });
    }

    #[test]
    fn the_array_record_round_trips_through_plan_json() {
        for a in [
            ArrayJob { tasks: 4, slurm: Some((1, 4, 1)) },
            ArrayJob { tasks: 4, slurm: Some((0, 6, 2)) },
            ArrayJob { tasks: 1, slurm: Some((2, 2, 1)) },
            ArrayJob { tasks: 3, slurm: None },
        ] {
            assert_eq!(ArrayJob::from_json(&a.to_json()), Some(a.clone()));
        }
        assert_eq!(ArrayJob { tasks: 4, slurm: Some((0, 6, 2)) }.describe(), "--array=0-6:2");
        assert_eq!(ArrayJob { tasks: 1, slurm: Some((2, 2, 1)) }.describe(), "--array=2");
        assert_eq!(ArrayJob::from_json(&json!({"tasks": "x"})), None);
    }

    #[test]
    fn kubernetes_indexed_jobs_need_the_count() {
        let s = shard_of(&[("JOB_COMPLETION_INDEX", "2"), ("DCSIM_SHARD_COUNT", "5")], None).unwrap();
        assert_eq!(s, Shard { m: 3, n: 5 });
        assert!(shard_from_env(env(&[("JOB_COMPLETION_INDEX", "2")])).unwrap_err().contains("DCSIM_SHARD_COUNT"));
        assert_eq!(shard_from_env(env(&[])).unwrap(), None);
    }

    #[test]
    fn the_default_jobs_are_slurms_cpus_never_more_than_the_cores_allowed() {
        assert_eq!(job_slots(env(&[("SLURM_CPUS_PER_TASK", "2"), ("SLURM_CPUS_ON_NODE", "8")]), 16).unwrap(), (2, "SLURM_CPUS_PER_TASK=2".into()));
        assert_eq!(job_slots(env(&[("SLURM_CPUS_PER_TASK", "8")]), 4).unwrap(), (4, "SLURM_CPUS_PER_TASK=8, but this process may run on 4 cores".into()));
        // No --cpus-per-task: the job's CPUs on the node (task/none lets the
        // task run on all 16 cores while Slurm gave it 1).
        assert_eq!(job_slots(env(&[("SLURM_CPUS_ON_NODE", "1")]), 16).unwrap(), (1, "SLURM_CPUS_ON_NODE=1".into()));
        assert_eq!(job_slots(env(&[("SLURM_CPUS_PER_TASK", "")]), 3).unwrap(), (3, "the 3 cores this process may run on".into()));
        assert_eq!(job_slots(env(&[]), 1).unwrap(), (1, "the 1 core this process may run on".into()));
        assert!(job_slots(env(&[("SLURM_CPUS_PER_TASK", "two")]), 4).unwrap_err().contains("SLURM_CPUS_PER_TASK=two"));
        assert!(job_slots(env(&[("SLURM_CPUS_PER_TASK", "0")]), 4).unwrap_err().contains("--jobs N"));
    }

    #[test]
    fn jobs_may_be_given_empty_but_not_zero() {
        assert_eq!(parse_jobs("").unwrap(), Jobs(None));
        assert_eq!(parse_jobs(" 3 ").unwrap(), Jobs(Some(3)));
        assert!(parse_jobs("0").unwrap_err().contains("at least 1"));
        assert!(parse_jobs("x").unwrap_err().contains("number of parallel runs"));
        assert_eq!(plural(1, "run"), "1 run");
        assert_eq!(plural(0, "run"), "0 runs");
    }

    #[test]
    fn shell_quoting_survives_spaces_and_quotes() {
        assert_eq!(shell_quote("a/b-c_1.json"), "a/b-c_1.json");
        assert_eq!(shell_quote("my dir"), "'my dir'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
