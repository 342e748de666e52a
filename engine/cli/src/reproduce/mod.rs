//! `dcsim reproduce`: the claims of the four papers this project
//! reproduces (pFabric, pHost, PDQ, PASE), and in a section of their own
//! the D2TCP and L2DCT claims its tests hold, measured through
//! `dcsim_core` and judged against the papers' own statements: a table on
//! stdout and, on request, CSV, Markdown and JSON (`docs/fidelity.csv`,
//! `docs/fidelity.md`, `docs/fidelity.json`: generated, never edited; the
//! page's paper gallery shows the JSON).
//!
//! A [`claim::Claim`] is data: the paper, section and figure, the sentence it
//! tests quoted as the paper words it (and whether that sentence is in the
//! excerpts the project was given), its [`readings::Reading`]s (each a bound made
//! from the quote's words by one of the rules of [`readings`]), its
//! setting (scenarios, quick and full sizes, deviations from the paper's
//! setting, settings applied beyond the scenario files) and the open
//! choices it is also judged under ([`claim::Variant`]: the sensitivity
//! table), plus a `measure` function that asks the [`lab::Lab`] for runs and
//! turns their outcomes into [`judge::Check`]s. Each check is a mean over
//! samples (seeds, requests) with its 95% interval ([`stats`]); the
//! verdict is computed from the checks ([`judge::Verdict::of`]), never
//! written by a claim.
//!
//! The modules, by concern, bottom up: the vocabulary of judging
//! ([`format`], [`stats`], [`cause`], [`bound`], [`readings`], [`judge`]);
//! the [`lab`] that runs what claims ask for; the [`claim`] type and its
//! constructor, and the registries of [`claims`] (with the [`authors`]'
//! values); planning and judging claims ([`lab::plan`]) and running a
//! share of their runs ([`lab::shard`]); the [`report`] (its forms, and
//! [`report::merge`] of a sharded reproduction).
//!
//! Runs are collected in two passes over the same claim functions: the
//! first records every run the selected claims ask for (a run asked by
//! several claims, identical after its settings, is run once), the pool of
//! `sweep` ([`crate::pool::par_map`]) runs them longest first, and the
//! second pass hands each claim its outcomes. `--shard M/N --out-dir DIR`
//! runs a share of the distinct runs and keeps their outcomes in DIR;
//! `reproduce merge DIR` judges from them ([`lab::shard`],
//! [`report::merge`]).

use crate::cluster::BatchArgs;
use claim::Mode;
use format::fmt;
use lab::plan::{measure, plan, select};
use lab::shard;
use report::{write_report, Report};
use std::path::PathBuf;
use std::time::Instant;

pub mod authors;
pub mod bound;
pub mod cause;
pub mod claim;
pub mod claims;
pub mod format;
pub mod judge;
pub mod lab;
pub mod readings;
pub mod report;
pub mod stats;

/// What `reproduce merge` does.
#[derive(clap::Subcommand)]
pub enum ReproduceAction {
    /// Judge the claims from the runs a sharded reproduction kept in DIR
    /// (as given to `--out-dir`), writing the report as an unsharded run
    /// would.
    Merge {
        /// The reproduction's output directory (plan.json and one file per run).
        dir: PathBuf,
        /// Write the table as CSV here (one row per claim).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Write the whole report as Markdown here.
        #[arg(long)]
        markdown: Option<PathBuf>,
        /// Write the whole report as JSON here (what the page's gallery reads).
        #[arg(long)]
        json: Option<PathBuf>,
        /// Directory holding the scenario files the reproduction was planned
        /// with (default: as for `reproduce`).
        #[arg(long)]
        scenarios: Option<PathBuf>,
    },
}

/// The arguments of `dcsim reproduce`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ReproduceArgs {
    /// `merge DIR`: judge a sharded reproduction's runs.
    #[command(subcommand)]
    pub action: Option<ReproduceAction>,
    /// Every claim at its reduced size (a few minutes on 2 cores; what the
    /// tests run). Without it, the full size (docs/fidelity.md).
    #[arg(long)]
    pub quick: bool,
    /// Only the claims whose id contains one of these (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub filter: Vec<String>,
    /// Write the table as CSV here (one row per claim).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write the whole report as Markdown here (`docs/fidelity.md` is this
    /// file from a full run).
    #[arg(long)]
    pub markdown: Option<PathBuf>,
    /// Write the whole report as JSON here (`docs/fidelity.json`, what the
    /// page's paper gallery shows).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Directory holding the scenario files (default: ./scenarios, ../scenarios
    /// or the repository's, found from the executable).
    #[arg(long)]
    pub scenarios: Option<PathBuf>,
    /// List the claims with their sizes and run nothing.
    #[arg(long)]
    pub list: bool,
    /// Print the distinct runs the selected claims need (scenario,
    /// protocol, load, flows, seed, one per line, longest first) and run
    /// nothing.
    #[arg(long)]
    pub plan: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Parallel runs, and a share of the distinct runs kept in --out-dir
    /// (`--shard M/N`, or a Slurm array's or a Kubernetes Indexed Job's
    /// environment, as `sweep` does). Judge with `dcsim reproduce merge
    /// DIR` once every shard is done.
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// The command line as typed, for the report's header.
fn command_line() -> String {
    std::iter::once("dcsim".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ")
}

/// `dcsim reproduce ...`.
pub fn reproduce(a: ReproduceArgs, dir: PathBuf) -> Result<(), String> {
    let registry = claims::registry();
    if let Some(ReproduceAction::Merge { dir: out_dir, csv, markdown, json, .. }) = &a.action {
        let t = report::merge::merge(&registry, out_dir, &dir)?;
        let report = Report { mode: t.mode, rows: t.rows, runs: t.runs, threads: t.threads, wall_s: t.wall_s, command: command_line() };
        return write_report(&report, csv.as_deref(), markdown.as_deref(), json.as_deref());
    }
    let selected = select(&registry, &a.filter)?;
    let mode = if a.quick { Mode::Quick } else { Mode::Full };
    if a.list {
        for c in &selected {
            println!("{:<34} {:<8} {}: {}", c.id, c.paper.short(), mode.name(), c.size(mode).describe(c.setting.axis));
        }
        return Ok(());
    }
    if a.plan {
        let (_, jobs) = plan(&selected, mode, &dir)?;
        for j in &jobs {
            let s = &j.scenario;
            println!(
                "{} {} load {} flows {} seed {}{}",
                s.name,
                s.protocol.as_str(),
                fmt(s.workload.load),
                s.workload.flows,
                s.seed,
                j.until_us.map_or(String::new(), |u| format!(" until {} us", fmt(u)))
            );
        }
        eprintln!("{} distinct run{}", jobs.len(), if jobs.len() == 1 { "" } else { "s" });
        return Ok(());
    }
    let threads = a.batch.threads();
    if let Some(s) = shard::requested(&a.batch, a.csv.is_some() || a.markdown.is_some() || a.json.is_some())? {
        return shard::run(&selected, mode, &a.filter, &a.batch, a.quiet, &dir, s);
    }
    let t0 = Instant::now();
    let (rows, runs) = measure(&selected, mode, &dir, threads, a.quiet)?;
    let report = Report { mode, rows, runs, threads, wall_s: t0.elapsed().as_secs_f64(), command: command_line() };
    write_report(&report, a.csv.as_deref(), a.markdown.as_deref(), a.json.as_deref())
}
