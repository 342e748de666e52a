//! A run split between threads gives the bytes one thread gives (issue
//! 20): every shipped scenario under every protocol, at 1, 2 and 4
//! threads, per-flow and summary CSVs compared byte for byte; the runs
//! that can be split really are (the test would pass trivially if every
//! run fell back to one thread). A split run that folds onto one thread
//! part-way (`parallel::Fold`) gives the same bytes too.

mod common;

use common::{every_scenario_and_protocol, load};
use dcsim_core::net::topology::build;
use dcsim_core::parallel::{self, unsplittable, Fold};
use dcsim_core::report::{flows_csv, summary_csv};
use dcsim_core::scenario::ProtocolName;
use dcsim_core::{run, RunOptions, Scenario};

fn csvs(o: &dcsim_core::RunOutput) -> (String, String) {
    (flows_csv(&o.records), summary_csv(std::slice::from_ref(&o.summary)))
}

/// Runs `s` on one thread and split (threads, and when to fold onto one
/// thread: each run's path is fixed, not left to the wall clock), and
/// compares. Returns how many of the runs were split.
fn same_at(s: &Scenario, runs: &[(usize, Fold)], who: &str) -> usize {
    let one = match run(s, RunOptions::default()) {
        Ok(o) => o,
        Err(_) => return 0,
    };
    let want = csvs(&one);
    let mut split = 0;
    for &(n, fold) in runs {
        let (o, how) = parallel::run_folding(s, n, RunOptions::default(), fold).unwrap();
        if how.parts > 1 {
            assert!(how.parts <= n, "{who}: {} parts for {n} threads", how.parts);
            split += 1;
        }
        if fold == Fold::Never {
            assert_eq!(how.folded_at, None, "{who}: folded when told never to");
        }
        let got = csvs(&o);
        if got.1 != want.1 {
            panic!(
                "{who} at {n} threads ({} parts): the summary differs\n  one thread: {}\n  split:      {}",
                how.parts,
                want.1.lines().nth(1).unwrap_or(""),
                got.1.lines().nth(1).unwrap_or("")
            );
        }
        if got.0 != want.0 {
            let diff = want.0.lines().zip(got.0.lines()).find(|(a, b)| a != b);
            panic!(
                "{who} at {n} threads ({} parts): the flows CSV differs, first at\n  one thread: {:?}\n  split:      {:?}",
                how.parts,
                diff.map(|d| d.0),
                diff.map(|d| d.1)
            );
        }
    }
    split
}

#[test]
fn every_scenario_and_protocol_gives_the_same_bytes_at_1_2_and_4_threads() {
    // At most 50 simulated ms: data mining's few long flows otherwise run
    // for most of a simulated second with a handful of events in each
    // lookahead cell, where a split run is several times slower than one
    // thread (its cost is the cells, not the events) and the test took
    // minutes. Runs cut there stop at the time limit, a path of its own.
    let jobs: Vec<(String, Scenario)> = every_scenario_and_protocol()
        .into_iter()
        .map(|(file, mut s)| {
            s.max_time_ms = s.max_time_ms.min(50.0);
            (format!("{file} / {}", s.protocol.as_str()), s)
        })
        .collect();
    // One job at a time: each split run takes the machine's cores itself.
    let mut not_split = Vec::new();
    let mut splittable = 0;
    for (who, s) in &jobs {
        let can = unsplittable(s, RunOptions::default()).is_none() && parallel::partition(&build(&s.topology), 2).is_some();
        splittable += can as usize;
        // A run that cannot be split runs the one-thread code (checked
        // below once): only the others are worth running three times.
        if !can {
            continue;
        }
        // Two parts on two threads throughout; four parts on two threads
        // folded onto one after 20,000 cells (4 simulated ms).
        if same_at(s, &[(2, Fold::Never), (4, Fold::AfterCells(20_000))], who) != 2 {
            not_split.push(who.clone());
        }
    }
    // Every run that can be split (a leaf-spine or tree with several
    // racks, an open-loop workload, a protocol without shared state) was,
    // at both thread counts.
    assert!(splittable > 60 && not_split.is_empty(), "{splittable} runs can be split; these were not: {not_split:?}");
}

#[test]
fn longer_runs_of_the_default_fabric_give_the_same_bytes_split() {
    for p in [ProtocolName::Pfabric, ProtocolName::Phost, ProtocolName::Dctcp, ProtocolName::Pdq, ProtocolName::Rcp] {
        let mut s = load("websearch-leaf-spine");
        s.workload.flows = 1000;
        s.protocol = p;
        assert_eq!(same_at(&s, &[(2, Fold::Never), (2, Fold::AfterCells(50_000))], p.as_str()), 2, "{}: not split", p.as_str());
    }
}

#[test]
fn flows_given_up_at_their_deadline_give_the_same_bytes_split() {
    // `workload.abort_at_deadline`: the sender's part and the receiver's
    // part each give the flow up; a flow completed at its receiver before
    // its sender gave up counts as completed, as on one thread.
    for p in [ProtocolName::Pfabric, ProtocolName::Phost, ProtocolName::Dctcp, ProtocolName::Pdq, ProtocolName::D3] {
        let mut s = load("phost-deadlines");
        s.workload.flows = 800;
        s.workload.abort_at_deadline = true;
        s.protocol = p;
        let one = run(&s, RunOptions::default()).unwrap();
        assert!(one.records.iter().any(|r| r.terminated), "{}: no flow given up", p.as_str());
        assert_eq!(same_at(&s, &[(2, Fold::Never), (4, Fold::AfterCells(30_000))], p.as_str()), 2, "{}: not split", p.as_str());
    }
}

#[test]
fn a_run_folds_onto_one_thread_where_it_is_told_to_and_keeps_its_bytes() {
    // Data mining with 200 flows: a few long flows over most of a simulated
    // second, a handful of events per cell: the sparse run folding is for.
    let mut s = load("datamining-leaf-spine");
    s.workload.flows = 200;
    s.max_time_ms = 300.0;
    let one = csvs(&run(&s, RunOptions::default()).unwrap());
    for cells in [1, 1000, 300_000] {
        let (o, how) = parallel::run_folding(&s, 2, RunOptions::default(), Fold::AfterCells(cells)).unwrap();
        assert_eq!(how.parts, 2);
        // It folds after the cell that carries the decision, the one after
        // the `cells`th (a cell is 0.208 us of simulated time here).
        let at = how.folded_at.unwrap_or_else(|| panic!("after {cells} cells: did not fold"));
        assert!(at.ps() >= (cells + 1) * 208_000, "after {cells} cells: folded at {} ps", at.ps());
        assert!(csvs(&o) == one, "folded after {cells} cells: the bytes differ from one thread's");
    }
    // Measured folding (the command line's default, with its wall clock)
    // gives the same bytes, folded or not.
    let options = parallel::Options { fold: Fold::Auto, clock: Some(std::time::Instant::now), stats: true };
    let (o, how) = parallel::run_with(&s, 2, RunOptions::default(), options).unwrap();
    let stats = how.stats.expect("stats asked for");
    assert_eq!(stats.folded_after.is_some(), how.folded_at.is_some());
    assert!(!stats.threads.is_empty() && stats.threads[0].cells > 0, "no cells counted: {stats:?}");
    assert!(csvs(&o) == one, "the measured fold ({:?}) changed the bytes", how.folded_at);
}

#[test]
fn what_cannot_be_split_says_why_and_runs_on_one_thread() {
    let mut s = load("websearch-leaf-spine");
    s.workload.flows = 50;
    s.protocol = ProtocolName::Pase;
    let (_, how) = parallel::run(&s, 2, RunOptions::default()).unwrap();
    assert_eq!((how.parts, how.threads), (1, 1));
    assert!(how.reason.unwrap().contains("PASE"));
    s.protocol = ProtocolName::Fastpass;
    let (_, how) = parallel::run(&s, 2, RunOptions::default()).unwrap();
    assert!(how.parts == 1 && how.reason.unwrap().contains("no faster"));
    let (_, how) = parallel::run(&load("incast-one-request"), 2, RunOptions::default()).unwrap();
    assert!(how.parts == 1 && how.reason.unwrap().contains("closed-loop"));
    let mut rack = load("pase-testbed");
    rack.protocol = ProtocolName::Dctcp;
    rack.workload.flows = 100;
    let (o, how) = parallel::run(&rack, 2, RunOptions::default()).unwrap();
    assert!(how.parts == 1 && how.reason.unwrap().contains("racks"));
    assert_eq!(csvs(&o), csvs(&run(&rack, RunOptions::default()).unwrap()), "the fallback is the one-thread run");
}
