//! `dcsim`: the native command line over `dcsim-core`.
//!
//! * `dcsim run SCENARIO`: one run, summary on stdout, CSVs on request.
//! * `dcsim sweep SCENARIO --protocols a,b --loads 0.2,0.4`: a grid of runs
//!   on all cores, one summary CSV; or one shard of it on a cluster
//!   (`--shard`, `--plan`, `--out-dir`, then `sweep merge`: see `sweep.rs`).
//! * `dcsim bench`: the standard benchmark scenarios, each in its own
//!   process, with events, events per second, wall time and peak memory.
//! * `dcsim reproduce [--quick]`: every claim of the papers the project
//!   reproduces, measured and judged against the papers' numbers (a table;
//!   CSV and Markdown on request: see `reproduce/mod.rs`).
//! * `dcsim schema`: the JSON Schema of scenario files.
//! * `dcsim names`: the names and defaults the page reads from the engine.
//! * `dcsim serve`: the room server of a live class and the built app (`serve/`).

use clap::{Parser, Subcommand};
use dcsim_core::metrics::Summary;
use dcsim_core::report::{flows_csv, summary_csv};
use dcsim_core::scenario::Scenario;
use dcsim_core::{prepare, RunOptions, RunOutput};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

mod cluster;
mod output;
mod pool;
mod reproduce;
mod scenario_file;
mod serve;
mod sweep;

use output::write_file;
use scenario_file::{find_scenarios, load, Overrides};

#[derive(Parser)]
#[command(name = "dcsim", version, about = "Packet-level datacenter transport simulator")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run one scenario.
    Run {
        /// Scenario file (JSON).
        scenario: PathBuf,
        #[command(flatten)]
        o: Overrides,
        /// Write the per-flow CSV here.
        #[arg(long)]
        flows_csv: Option<PathBuf>,
        /// Write the one-row summary CSV here.
        #[arg(long)]
        summary_csv: Option<PathBuf>,
        /// Write the trace stream here (JSON lines).
        #[arg(long)]
        trace: Option<PathBuf>,
        /// Print the summary as JSON instead of text.
        #[arg(long)]
        json: bool,
        /// No progress line.
        #[arg(long, short)]
        quiet: bool,
        /// Threads for this one run (default: every core). The network is
        /// split between them and the results are the bytes one thread
        /// gives; runs that cannot be split (see `dcsim_core::parallel`)
        /// use one and say why.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Run a grid of protocols x loads (x seeds) in parallel, or one shard
    /// of it (`--shard`, `--plan`, `--out-dir`); `sweep merge DIR` joins the
    /// shards' results.
    Sweep(sweep::SweepArgs),
    /// Run the standard benchmark scenarios.
    Bench {
        /// Directory holding the scenario files (default: ./scenarios).
        #[arg(long)]
        scenarios: Option<PathBuf>,
        /// Only benchmarks whose name contains this.
        #[arg(long)]
        filter: Option<String>,
        /// The long-run set instead (issue 21): 30,000 and 100,000 web
        /// search flows under each protocol of the pHost paper, with mean
        /// slowdown, utilization and the stability flag (about 20 minutes).
        #[arg(long)]
        long: bool,
        /// Thread counts to run each benchmark at (issue 20), e.g. `1,2`
        /// (the default; `--long`: 1).
        #[arg(long, value_delimiter = ',')]
        threads: Option<Vec<usize>>,
    },
    /// One benchmark in this process (used by `bench` to measure memory).
    #[command(hide = true)]
    BenchOne {
        scenario: PathBuf,
        #[command(flatten)]
        o: Overrides,
        /// Threads for the run.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Run every claim of the pFabric, pHost, PDQ and PASE papers (and the
    /// D2TCP and L2DCT claims the tests hold) and judge each against the
    /// paper's value: a table on stdout, CSV and Markdown on request.
    Reproduce(reproduce::ReproduceArgs),
    /// Serve a live class: the rooms (WebSocket at /live) and the built app, from one binary.
    Serve(serve::ServeArgs),
    /// Print the JSON Schema of scenario files.
    Schema,
    /// Print the names and defaults the page reads from the engine, as the
    /// TypeScript module `web/src/engine/names.generated.ts`.
    Names,
}

/// Writes the trace events recorded so far as JSON lines.
fn write_trace(r: &mut dyn dcsim_core::Runner, w: &mut dyn Write) -> Result<(), String> {
    for e in r.drain_trace() {
        serde_json::to_writer(&mut *w, &e).map_err(|e| e.to_string())?;
        w.write_all(b"\n").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Runs with a progress line on stderr once the run has taken a second.
fn run_with_progress(s: &Scenario, opts: RunOptions, quiet: bool, mut trace_out: Option<&mut dyn Write>) -> Result<(RunOutput, f64), String> {
    let t0 = Instant::now();
    let mut r = prepare(s, opts)?;
    let mut last = 0.0;
    let mut shown = false;
    while r.run_events(250_000) {
        if let Some(w) = trace_out.as_deref_mut() {
            write_trace(r.as_mut(), w)?;
        }
        let el = t0.elapsed().as_secs_f64();
        if !quiet && el > 1.0 && el - last >= 1.0 {
            last = el;
            shown = true;
            let (done, total) = r.progress();
            eprint!(
                "\r{} {}: t = {:.3} ms, flows {done}/{total}, {:.1} M events ({:.1} M/s)   ",
                s.name,
                s.protocol.as_str(),
                r.now().as_us_f64() / 1000.0,
                r.events() as f64 / 1e6,
                r.events() as f64 / 1e6 / el
            );
        }
    }
    if let Some(w) = trace_out {
        write_trace(r.as_mut(), w)?;
    }
    if shown {
        eprintln!();
    }
    let out = r.finish();
    Ok((out, t0.elapsed().as_secs_f64()))
}

/// Runs on up to `threads` threads (`dcsim_core::parallel`): the bytes one
/// thread gives. A run that cannot be split runs on one thread with the
/// progress line, and says why when more were asked for explicitly.
/// Returns the output, the wall time and the threads used.
fn run_threads(
    s: &Scenario,
    opts: RunOptions,
    threads: usize,
    quiet: bool,
    trace_out: Option<&mut dyn Write>,
    explicit: bool,
) -> Result<(RunOutput, f64, usize), String> {
    if threads > 1 {
        match dcsim_core::parallel::unsplittable(s, opts) {
            None => {
                let t0 = Instant::now();
                let (out, how) = dcsim_core::parallel::run_with(s, threads, opts, parallel_options())?;
                if let Some(stats) = &how.stats {
                    print_parallel_stats(stats, how.folded_at);
                }
                if let (Some(why), true, false) = (&how.reason, explicit, quiet) {
                    eprintln!("note: one thread: {why}");
                }
                if let (Some(at), true, false) = (how.folded_at, explicit, quiet) {
                    eprintln!("note: one thread from t = {:.3} ms on: splitting stopped paying (sparse cells or busy cores)", at.ps() as f64 / 1e9);
                }
                if how.threads < how.parts && explicit && !quiet {
                    eprintln!("note: {} parts on {} cores: each thread runs {} in turn", how.parts, how.threads, how.parts.div_ceil(how.threads));
                }
                return Ok((out, t0.elapsed().as_secs_f64(), how.threads));
            }
            Some(why) if explicit && !quiet => eprintln!("note: one thread: {why}"),
            Some(_) => {}
        }
    }
    let (out, wall) = run_with_progress(s, opts, quiet, trace_out)?;
    Ok((out, wall, 1))
}

/// The split run's options from the environment: `DCSIM_PARALLEL_NOFOLD`
/// set never folds (to measure the split alone), `DCSIM_PARALLEL_STATS`
/// set prints where each thread's time went; the wall clock for measured
/// folding (`Instant::now`).
fn parallel_options() -> dcsim_core::parallel::Options {
    use dcsim_core::parallel::{Fold, Options};
    let fold = if std::env::var_os("DCSIM_PARALLEL_NOFOLD").is_some() { Fold::Never } else { Fold::Auto };
    Options { fold, clock: Some(Instant::now), stats: std::env::var_os("DCSIM_PARALLEL_STATS").is_some() }
}

/// `DCSIM_PARALLEL_STATS`: when the run folded, and each thread's time.
fn print_parallel_stats(stats: &dcsim_core::parallel::Stats, folded_at: Option<dcsim_core::units::SimTime>) {
    if let (Some(cells), Some(at)) = (stats.folded_after, folded_at) {
        eprintln!("parallel: folded onto one thread after {cells} cells, at {} us", at.ps() as f64 / 1e6);
    }
    for t in &stats.threads {
        let parts: Vec<String> = t.events.iter().map(|(i, e)| format!("part {i}: {e} events")).collect();
        eprintln!(
            "parallel: {}; {} cells, busy {:.3} s, waiting {:.3} s, {} packets handed over",
            parts.join(", "),
            t.cells,
            t.busy_ns as f64 / 1e9,
            t.waiting_ns as f64 / 1e9,
            t.sent
        );
    }
}

fn print_summary(s: &Summary) {
    println!("scenario        {}", s.scenario);
    println!("protocol        {}", s.protocol);
    println!("load            {}", s.load);
    println!("seed            {}", s.seed);
    println!("flows           {} ({} completed)", s.flows, s.completed);
    if let Some(v) = &s.note {
        println!("note            {v}");
    }
    if s.no_arrivals() {
        // No slowdown, AFCT or throughput to show: zeros would read as results.
        println!("simulated       {:.3} us in {} events", s.sim_time_us, s.events);
        return;
    }
    println!("mean slowdown   {:.4}", s.all.mean_slowdown);
    println!("p99 slowdown    {:.4}", s.all.p99_slowdown);
    println!("AFCT            {:.3} us   (normalized {:.4})", s.all.afct_us, s.all.nfct);
    for (n, b) in [("short <100KB", &s.short), ("medium", &s.medium), ("long >10MB", &s.long)] {
        if b.flows > 0 {
            println!("  {n:<13} {:>6} flows, mean slowdown {:.4}, p99 {:.4}, AFCT {:.3} us", b.flows, b.mean_slowdown, b.p99_slowdown, b.afct_us);
        }
    }
    if let Some(d) = s.deadlines_met {
        println!("deadlines met   {:.4}", d);
    }
    if let Some(r) = s.mean_request_us {
        println!("mean request    {:.3} us", r);
    }
    println!(
        "drop rate       {:.6}   (host NIC {}, ToR up {}, core down {}, ToR down {})",
        s.drop_rate, s.drops_by_hop[0], s.drops_by_hop[1], s.drops_by_hop[2], s.drops_by_hop[3]
    );
    println!("throughput      {:.3} Gbps   control overhead {:.4}", s.throughput_gbps, s.control_overhead);
    println!("simulated       {:.3} us in {} events", s.sim_time_us, s.events);
}

/// Peak resident memory of this process, kilobytes (Linux).
fn peak_rss_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()
}

/// The standard benchmarks: (name, scenario file, protocol, flows).
const BENCHMARKS: &[(&str, &str, &str, Option<u64>)] = &[
    ("websearch-pfabric-10k", "websearch-leaf-spine.json", "pfabric", Some(10_000)),
    ("websearch-dctcp-10k", "websearch-leaf-spine.json", "dctcp", Some(10_000)),
    ("websearch-tcp-10k", "websearch-leaf-spine.json", "tcp", Some(10_000)),
    ("websearch-rcp-10k", "websearch-leaf-spine.json", "rcp", Some(10_000)),
    ("websearch-ideal-10k", "websearch-leaf-spine.json", "ideal", Some(10_000)),
    ("websearch-fastpass-10k", "websearch-leaf-spine.json", "fastpass", Some(10_000)),
    ("websearch-phost-10k", "websearch-leaf-spine.json", "phost", Some(10_000)),
    ("websearch-pdq-10k", "websearch-leaf-spine.json", "pdq", Some(10_000)),
    ("datamining-pfabric-10k", "datamining-leaf-spine.json", "pfabric", Some(10_000)),
    ("incast-pfabric", "incast-one-request.json", "pfabric", None),
    ("left-right-pase-10k", "pase-left-right.json", "pase", Some(10_000)),
];

/// The long-run benchmarks (issue 21): do runs of increasing length
/// converge? Each protocol of the pHost paper on the default fabric.
const LONG_BENCHMARKS: &[(&str, &str, &str, Option<u64>)] = &[
    ("websearch-pfabric-30k", "websearch-leaf-spine.json", "pfabric", Some(30_000)),
    ("websearch-pfabric-100k", "websearch-leaf-spine.json", "pfabric", Some(100_000)),
    ("websearch-phost-30k", "websearch-leaf-spine.json", "phost", Some(30_000)),
    ("websearch-phost-100k", "websearch-leaf-spine.json", "phost", Some(100_000)),
    ("websearch-fastpass-30k", "websearch-leaf-spine.json", "fastpass", Some(30_000)),
    ("websearch-fastpass-100k", "websearch-leaf-spine.json", "fastpass", Some(100_000)),
    ("websearch-ideal-30k", "websearch-leaf-spine.json", "ideal", Some(30_000)),
    ("websearch-ideal-100k", "websearch-leaf-spine.json", "ideal", Some(100_000)),
];

/// Largest change of the mean slowdown from one run length to the next
/// (relative) for which `bench --long` calls a protocol converged (issue
/// 21): runs of increasing length at a load the network sustains settle to
/// the same mean; the seed's arrivals differ, so a few percent remain.
pub const CONVERGED_WITHIN: f64 = 0.05;

/// The `bench --long` verdict for one protocol from its runs `(flows, mean
/// slowdown, stable)` in increasing length: converged when every run is
/// stable and the mean slowdown moves by at most [`CONVERGED_WITHIN`] from
/// one length to the next.
fn convergence_verdict(proto: &str, rows: &[(u64, f64, bool)]) -> String {
    let steps: Vec<String> = rows.windows(2).map(|w| format!("{} -> {} flows: {:+.1}%", w[0].0, w[1].0, 100.0 * (w[1].1 / w[0].1 - 1.0))).collect();
    let worst = rows.windows(2).map(|w| (w[1].1 / w[0].1 - 1.0).abs()).fold(0.0, f64::max);
    let all_stable = rows.iter().all(|r| r.2);
    let verdict = if rows.len() < 2 {
        "one run length only"
    } else if worst <= CONVERGED_WITHIN && all_stable {
        "converges"
    } else {
        "DOES NOT CONVERGE"
    };
    format!("{proto:<10} {verdict}: mean slowdown {}{}", steps.join(", "), if all_stable { "" } else { "; a run reported UNSTABLE" })
}

/// One long benchmark run, for the convergence verdict: its flows, mean
/// slowdown and whether dcsim's stability test found it stable.
type LongRow = (u64, f64, bool);

fn main() -> ExitCode {
    // `dcsim run ... | head` closes stdout early: end quietly, as Unix tools
    // do, instead of reporting a panic from `println!`.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload().downcast_ref::<String>().map(String::as_str).or_else(|| info.payload().downcast_ref::<&str>().copied()).unwrap_or("");
        if msg.contains("failed printing to stdout") {
            std::process::exit(141);
        }
        default_hook(info);
    }));
    let cli = Cli::parse();
    match real_main(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dcsim: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn real_main(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Names => {
            print!("{}", dcsim_core::exports::typescript());
            Ok(())
        }
        Cmd::Serve(a) => serve::main(a),
        Cmd::Schema => {
            print!("{}", Scenario::json_schema());
            Ok(())
        }
        Cmd::Run { scenario, o, flows_csv: fcsv, summary_csv: scsv, trace, json, quiet, threads } => {
            let s = load(&scenario, &o)?;
            let mut trace_file = match &trace {
                Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(|e| format!("{}: cannot write: {e}", p.display()))?)),
                None => None,
            };
            let opts = RunOptions { trace: trace.is_some(), audit: false };
            let asked = threads.unwrap_or_else(pool::cores);
            if asked == 0 {
                return Err("--threads: must be at least 1".into());
            }
            let (out, wall, used) = run_threads(&s, opts, asked, quiet, trace_file.as_mut().map(|w| w as &mut dyn Write), threads.is_some())?;
            if let Some(mut w) = trace_file {
                w.flush().map_err(|e| e.to_string())?;
            }
            if let Some(p) = fcsv {
                write_file(&p, &flows_csv(&out.records))?;
            }
            if let Some(p) = scsv {
                write_file(&p, &summary_csv(std::slice::from_ref(&out.summary)))?;
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&out.summary).unwrap());
            } else {
                print_summary(&out.summary);
                println!(
                    "wall time       {:.3} s ({:.2} M events/s, {used} thread{})",
                    wall,
                    out.summary.events as f64 / wall / 1e6,
                    if used == 1 { "" } else { "s" }
                );
            }
            Ok(())
        }
        Cmd::Sweep(a) => sweep::sweep(a),
        Cmd::Reproduce(a) => {
            let given = match &a.action {
                Some(reproduce::ReproduceAction::Merge { scenarios, .. }) => scenarios.clone(),
                None => a.scenarios.clone(),
            };
            let dir = find_scenarios(given);
            reproduce::reproduce(a, dir)
        }
        Cmd::BenchOne { scenario, o, threads } => {
            let s = load(&scenario, &o)?;
            let (out, wall, used) = run_threads(&s, RunOptions::default(), threads.max(1), true, None, false)?;
            println!(
                "{}",
                serde_json::json!({"events": out.summary.events, "wall_s": wall, "threads": used, "peak_rss_kb": peak_rss_kb(), "flows": out.summary.flows, "mean_slowdown": out.summary.all.mean_slowdown, "throughput_gbps": out.summary.throughput_gbps, "stable": out.summary.stable})
            );
            Ok(())
        }
        Cmd::Bench { scenarios, filter, long, threads } => {
            let dir = find_scenarios(scenarios);
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            let counts = threads.unwrap_or_else(|| if long { vec![1] } else { vec![1, 2] });
            if counts.contains(&0) {
                return Err("--threads: each count must be at least 1".into());
            }
            println!(
                "{:<26} {:>7} {:>12} {:>14} {:>10} {:>12} {:>14}{}",
                "benchmark",
                "threads",
                "events",
                "events/s",
                "wall s",
                "peak MB",
                "mean slowdown",
                if long { "  throughput Gbps  stable" } else { "" }
            );
            // Long runs: mean slowdown and stability per protocol, in run
            // length order, for the convergence verdict at the end.
            let mut by_protocol: Vec<(&str, Vec<LongRow>)> = Vec::new();
            for (name, file, proto, flows) in if long { LONG_BENCHMARKS } else { BENCHMARKS } {
                if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
                    continue;
                }
                for &t in &counts {
                    let mut cmd = std::process::Command::new(&exe);
                    cmd.arg("bench-one").arg(dir.join(file)).arg("--protocol").arg(proto).arg("--threads").arg(t.to_string());
                    if let Some(f) = flows {
                        cmd.arg("--flows").arg(f.to_string());
                    }
                    let out = cmd.output().map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
                    if !out.status.success() {
                        return Err(format!("benchmark {name} failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
                    }
                    let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("benchmark {name}: bad output: {e}"))?;
                    let ev = v["events"].as_u64().unwrap_or(0);
                    let wall = v["wall_s"].as_f64().unwrap_or(0.0);
                    let mb = v["peak_rss_kb"].as_u64().map(|k| k as f64 / 1024.0).unwrap_or(f64::NAN);
                    let extra = if long { format!("  {:>15.1}  {}", v["throughput_gbps"].as_f64().unwrap_or(f64::NAN), v["stable"]) } else { String::new() };
                    // The threads the run used (a run that cannot be split uses one).
                    let used = v["threads"].as_u64().unwrap_or(1);
                    println!(
                        "{:<26} {:>7} {:>12} {:>14.0} {:>10.3} {:>12.1} {:>14.4}{extra}",
                        name,
                        used,
                        ev,
                        ev as f64 / wall,
                        wall,
                        mb,
                        v["mean_slowdown"].as_f64().unwrap_or(f64::NAN)
                    );
                    if long && t == counts[0] {
                        let row = (flows.unwrap_or(0), v["mean_slowdown"].as_f64().unwrap_or(f64::NAN), v["stable"].as_bool().unwrap_or(false));
                        match by_protocol.iter_mut().find(|(p, _)| p == proto) {
                            Some((_, rows)) => rows.push(row),
                            None => by_protocol.push((proto, vec![row])),
                        }
                    }
                }
            }
            if long {
                println!();
                for (proto, rows) in &by_protocol {
                    println!("{}", convergence_verdict(proto, rows));
                }
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::convergence_verdict;

    #[test]
    fn the_long_run_verdict_needs_stable_runs_and_a_settled_mean() {
        // The figures of README "Long runs" (30,000 and 100,000 flows).
        assert!(convergence_verdict("phost", &[(30_000, 1.484, true), (100_000, 1.518, true)]).contains(" converges:"));
        let pf = convergence_verdict("pfabric", &[(30_000, 1.494, true), (100_000, 1.739, false)]);
        assert!(pf.contains("DOES NOT CONVERGE") && pf.contains("+16.4%") && pf.contains("UNSTABLE"), "{pf}");
        // A settled mean with an unstable run is not converged either.
        assert!(convergence_verdict("x", &[(1, 1.0, true), (2, 1.01, false)]).contains("DOES NOT"));
        assert!(convergence_verdict("x", &[(1, 1.0, true), (2, 1.06, true)]).contains("DOES NOT"));
    }
}
