//! How many runs at once, and the pool that runs them: `--jobs`, the
//! default from Slurm or this machine's cores, and [`par_map`], the pool
//! of `sweep` and `reproduce`.

use crate::output::plural;

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A variable reader over `vars` (in place of the environment).
    pub(crate) fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| vars.iter().find(|v| v.0 == k).map(|v| v.1.to_string())
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
    }

    #[test]
    fn the_pool_returns_results_in_job_order() {
        let jobs: Vec<u64> = (0..50).collect();
        for threads in [0, 1, 3, 64] {
            assert_eq!(par_map(&jobs, threads, |i, &j| (i as u64, j * j)), jobs.iter().map(|&j| (j, j * j)).collect::<Vec<_>>());
        }
    }
}
