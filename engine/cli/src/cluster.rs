//! A batch of runs spread over processes and machines: the shared
//! arguments (`--jobs`, `--shard`, `--out-dir`, `--skip-existing`), which
//! share of a batch a process runs ([`Shard`], from `--shard M/N` or a job
//! array's environment, [`shard_from_env`]) and the plan.json an output
//! directory holds ([`read_plan`], [`write_plan`]). `sweep` and
//! `reproduce` both split their runs this way.
//!
//! Run `k` (0-based, in the batch's order) belongs to shard `(k mod n) + 1`
//! of `n`: round robin, so every shard gets a share of every kind of run.
//! A task of an array learns its id and the array's bounds, step and
//! size, never the list of ids: plan.json records the array that ran the
//! batch, and [`EnvShard::shard`] refuses a resubmission of part of it
//! (issue 30; docs/cluster.md).

use crate::output::{plural, write_atomic};
use crate::pool::{cores, job_slots, parse_jobs, Jobs};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// How a batch of runs is spread: the arguments `sweep` and `reproduce`
/// share.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct BatchArgs {
    /// Parallel runs. Default (also when given empty, as
    /// `--jobs "$SLURM_CPUS_PER_TASK"` is without `--cpus-per-task`): the
    /// CPUs Slurm gave the task (SLURM_CPUS_PER_TASK, else
    /// SLURM_CPUS_ON_NODE), never more than the cores this process may run
    /// on (its CPU affinity and cgroup quota); outside Slurm, those cores.
    #[arg(long, value_parser = parse_jobs)]
    pub jobs: Option<Jobs>,
    /// Run only shard M of N (1-based): the runs k (0-based, in order) with
    /// k mod N = M - 1. Default: from a Slurm job array
    /// (SLURM_ARRAY_TASK_ID, _MIN, _MAX, _STEP and _COUNT: the array's
    /// size is N, so resubmit the same range, never part of it), or from a
    /// Kubernetes Indexed Job's JOB_COMPLETION_INDEX with the count in
    /// DCSIM_SHARD_COUNT; otherwise every run. Needs --out-dir.
    #[arg(long)]
    pub shard: Option<String>,
    /// Write each run's result to DIR (a content-addressed file per run,
    /// and DIR/plan.json listing every run); `merge DIR` puts them
    /// together.
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Skip the runs whose result file already exists in --out-dir.
    #[arg(long)]
    pub skip_existing: bool,
}

impl BatchArgs {
    /// Parallel runs and why: `--jobs N`, else [`job_slots`] of this
    /// process's environment (an error for a malformed Slurm variable).
    pub fn slots(&self) -> Result<(usize, String), String> {
        match self.jobs {
            Some(Jobs(Some(n))) => Ok((n, "--jobs".to_string())),
            _ => job_slots(|k| std::env::var(k).ok(), std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)),
        }
    }
    /// Parallel runs: `--jobs N`, else [`cores`] (a malformed Slurm
    /// variable ignored); at least 1.
    pub fn threads(&self) -> usize {
        self.jobs.and_then(|j| j.0).unwrap_or_else(cores).max(1)
    }
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

/// Reads DIR/plan.json if there is one: `Some` with the job array it
/// records (if any). A plan of another sweep is an error.
pub fn read_plan(dir: &Path, plan: &Value) -> Result<Option<Option<ArrayJob>>, String> {
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
pub fn write_plan(dir: &Path, plan: &Value, existing: Option<Option<&ArrayJob>>, array: Option<&ArrayJob>) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::tests::env;

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
}
