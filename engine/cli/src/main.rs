//! `dcsim`: the native command line over `dcsim-core`.
//!
//! * `dcsim run SCENARIO`: one run, summary on stdout, CSVs on request.
//! * `dcsim sweep SCENARIO --protocols a,b --loads 0.2,0.4`: a grid of runs
//!   on all cores, one summary CSV; or one shard of it on a cluster
//!   (`--shard`, `--plan`, `--out-dir`, then `sweep merge`: see `sweep.rs`).
//! * `dcsim bench`: the standard benchmark scenarios, each in its own
//!   process, with events, events per second, wall time and peak memory.
//! * `dcsim schema`: the JSON Schema of scenario files.
//! * `dcsim names`: the names and defaults the page reads from the engine.

use clap::{Parser, Subcommand};
use dcsim_core::metrics::Summary;
use dcsim_core::report::{flows_csv, summary_csv};
use dcsim_core::scenario::{ProtocolName, Scenario};
use dcsim_core::{prepare, RunOptions, RunOutput};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

mod sweep;

#[derive(Parser)]
#[command(name = "dcsim", version, about = "Packet-level datacenter transport simulator")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// Overrides of a scenario's values.
#[derive(clap::Args, Clone, Default)]
struct Overrides {
    /// Protocol name (tcp, dctcp, pfabric, rcp, ideal, phost, fastpass, ...; an unknown name lists them all).
    #[arg(long)]
    protocol: Option<String>,
    /// Offered load in (0, 1].
    #[arg(long, allow_hyphen_values = true)]
    load: Option<f64>,
    /// Number of flows (open-loop workloads).
    #[arg(long)]
    flows: Option<u64>,
    /// Random seed.
    #[arg(long)]
    seed: Option<u64>,
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
    },
    /// One benchmark in this process (used by `bench` to measure memory).
    #[command(hide = true)]
    BenchOne {
        scenario: PathBuf,
        #[command(flatten)]
        o: Overrides,
    },
    /// Print the JSON Schema of scenario files.
    Schema,
    /// Print the names and defaults the page reads from the engine, as the
    /// TypeScript module `web/src/engine/names.generated.ts`.
    Names,
}

fn load(path: &Path, o: &Overrides) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut s: Scenario = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(p) = &o.protocol {
        s.protocol = ProtocolName::parse(p).map_err(|e| format!("--{e}"))?;
    }
    if let Some(l) = o.load {
        s.workload.load = l;
    }
    if let Some(f) = o.flows {
        s.workload.flows = f;
    }
    if let Some(x) = o.seed {
        s.seed = x;
    }
    s.validate().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(s)
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
    println!("drop rate       {:.6}   (host NIC {}, ToR up {}, core down {}, ToR down {})", s.drop_rate, s.drops_by_hop[0], s.drops_by_hop[1], s.drops_by_hop[2], s.drops_by_hop[3]);
    println!("throughput      {:.3} Gbps   control overhead {:.4}", s.throughput_gbps, s.control_overhead);
    println!("simulated       {:.3} us in {} events", s.sim_time_us, s.events);
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))
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
    ("incast-pfabric", "incast.json", "pfabric", None),
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

fn find_scenarios(dir: Option<PathBuf>) -> PathBuf {
    if let Some(d) = dir {
        return d;
    }
    let mut cands = vec![PathBuf::from("scenarios"), PathBuf::from("../scenarios")];
    if let Ok(exe) = std::env::current_exe() {
        // engine/target/release/dcsim -> repository root
        if let Some(root) = exe.ancestors().nth(4) {
            cands.push(root.join("scenarios"));
        }
    }
    cands.into_iter().find(|c| c.join("websearch-leaf-spine.json").exists()).unwrap_or_else(|| PathBuf::from("scenarios"))
}

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
        Cmd::Schema => {
            print!("{}", Scenario::json_schema());
            Ok(())
        }
        Cmd::Run { scenario, o, flows_csv: fcsv, summary_csv: scsv, trace, json, quiet } => {
            let s = load(&scenario, &o)?;
            let mut trace_file = match &trace {
                Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(|e| format!("{}: cannot write: {e}", p.display()))?)),
                None => None,
            };
            let opts = RunOptions { trace: trace.is_some(), audit: false };
            let (out, wall) = run_with_progress(&s, opts, quiet, trace_file.as_mut().map(|w| w as &mut dyn Write))?;
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
                println!("wall time       {:.3} s ({:.2} M events/s)", wall, out.summary.events as f64 / wall / 1e6);
            }
            Ok(())
        }
        Cmd::Sweep(a) => sweep::sweep(a),
        Cmd::BenchOne { scenario, o } => {
            let s = load(&scenario, &o)?;
            let (out, wall) = run_with_progress(&s, RunOptions::default(), true, None)?;
            println!(
                "{}",
                serde_json::json!({"events": out.summary.events, "wall_s": wall, "peak_rss_kb": peak_rss_kb(), "flows": out.summary.flows, "mean_slowdown": out.summary.all.mean_slowdown, "throughput_gbps": out.summary.throughput_gbps, "stable": out.summary.stable})
            );
            Ok(())
        }
        Cmd::Bench { scenarios, filter, long } => {
            let dir = find_scenarios(scenarios);
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            println!("{:<26} {:>12} {:>14} {:>10} {:>12} {:>14}{}", "benchmark", "events", "events/s", "wall s", "peak MB", "mean slowdown", if long { "  throughput Gbps  stable" } else { "" });
            for (name, file, proto, flows) in if long { LONG_BENCHMARKS } else { BENCHMARKS } {
                if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
                    continue;
                }
                let mut cmd = std::process::Command::new(&exe);
                cmd.arg("bench-one").arg(dir.join(file)).arg("--protocol").arg(proto);
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
                println!("{:<26} {:>12} {:>14.0} {:>10.3} {:>12.1} {:>14.4}{extra}", name, ev, ev as f64 / wall, wall, mb, v["mean_slowdown"].as_f64().unwrap_or(f64::NAN));
            }
            Ok(())
        }
    }
}
