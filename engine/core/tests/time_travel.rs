//! Time travel (issue 16): a snapshot of a run, restored and continued,
//! gives bytes identical to the run that was never interrupted: every
//! shipped scenario under every protocol, per-flow and summary CSVs.
//!
//! Each case snapshots at a third of the run's events, lets the original
//! run on (so any state the snapshot shared with it would be disturbed),
//! then restores twice: once to the end, once again from the same
//! snapshot (a snapshot must survive being restored).

mod common;

use common::{par_map, scenarios_dir};
use dcsim_core::report::{flows_csv, summary_csv};
use dcsim_core::scenario::ProtocolName;
use dcsim_core::{prepare, restore, RunOptions, RunOutput, Scenario};

fn csv(o: &RunOutput) -> (String, String) {
    (flows_csv(&o.records), summary_csv(std::slice::from_ref(&o.summary)))
}

/// Every scenario file shipped in `scenarios/`, cut to at most 100 flows (enough to overlap:
/// queues, drops and retransmissions happen before the snapshot).
fn shipped() -> Vec<Scenario> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(scenarios_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("scenario.schema.json"))
        .collect();
    paths.sort();
    for p in paths {
        let mut s = Scenario::from_json(&std::fs::read_to_string(&p).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        common::cap_flows(&mut s, 100);
        out.push(s);
    }
    assert!(out.len() >= 15, "expected the shipped scenarios, found {}", out.len());
    out
}

#[test]
fn restore_equals_uninterrupted_on_every_scenario_and_protocol() {
    let jobs: Vec<Scenario> = shipped()
        .into_iter()
        .flat_map(|s| {
            ProtocolName::ALL.into_iter().map(move |p| {
                let mut s = s.clone();
                s.protocol = p;
                s
            })
        })
        .collect();
    let failures: Vec<String> = par_map(&jobs, |s| {
        let who = format!("{} / {}", s.name, s.protocol.as_str());
        let whole = prepare(s, RunOptions::default()).unwrap_or_else(|e| panic!("{who}: {e}")).finish();
        let (fa, sa) = csv(&whole);
        let third = (whole.summary.events / 3).max(1);
        let mut r = prepare(s, RunOptions { trace: true, audit: false }).unwrap();
        r.run_events(third);
        r.drain_trace();
        let snap = r.snapshot();
        let at = (snap.now(), snap.events());
        // The original runs on: the snapshot must not share its state.
        r.run_events(third);
        let first = restore(&*snap);
        assert_eq!((first.now(), first.events()), at, "{who}: the restored run starts where the snapshot was taken");
        let (fb, sb) = csv(&first.finish());
        let (fc, sc) = csv(&restore(&*snap).finish());
        let (fd, sd) = csv(&r.finish());
        let mut bad = Vec::new();
        for (name, f, s) in [("restored", &fb, &sb), ("restored again", &fc, &sc), ("original", &fd, &sd)] {
            if *f != fa || *s != sa {
                bad.push(format!("{who}: {name} differs from the uninterrupted run\n{sa}{s}"));
            }
        }
        bad
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), jobs.len(), failures.join("\n"));
}
