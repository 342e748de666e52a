//! What-if branches (issue 16): a branch is its base run up to `at_us`,
//! then one change; it is reproducible from its description alone, equal
//! to the base before the divergence, and the change does what it says.

mod common;

use common::{assert_rejected_naming, load, run_ok};
use dcsim_core::branch::{BranchChange, BranchSpec};
use dcsim_core::report::flows_csv;
use dcsim_core::scenario::ProtocolName;
use dcsim_core::units::SimTime;
use dcsim_core::{prepare, RunOptions, Scenario};

fn base(p: ProtocolName) -> Scenario {
    let mut s = load("websearch-leaf-spine");
    s.workload.flows = 400;
    s.protocol = p;
    s
}

fn with_branch(s: &Scenario, at_us: f64, change: BranchChange) -> Scenario {
    let mut b = s.clone();
    b.branch = Some(BranchSpec { name: "what if".into(), at_us, change });
    b
}

#[test]
fn a_branch_is_reproducible_and_equals_its_base_before_the_divergence() {
    for p in [ProtocolName::Pfabric, ProtocolName::Dctcp, ProtocolName::Phost] {
        let s = base(p);
        let at = 2000.0;
        let b = with_branch(&s, at, BranchChange::BufferBytes { bytes: 6000 });
        let one = run_ok(&b, RunOptions::default());
        let two = run_ok(&b, RunOptions::default());
        assert_eq!(flows_csv(&one.records), flows_csv(&two.records), "{}: a branch run twice differs", p.as_str());
        // By hand: the base to `at`, the change, the rest.
        let mut r = prepare(&s, RunOptions::default()).unwrap();
        r.run_until(SimTime::from_us_f64(at));
        r.apply_change(&BranchChange::BufferBytes { bytes: 6000 }).unwrap();
        assert_eq!(flows_csv(&r.finish().records), flows_csv(&one.records), "{}: the branch is not base + change", p.as_str());
        // Before the divergence the branch is the base: the same flows done, at the same times.
        let plain = run_ok(&s, RunOptions::default());
        let t = SimTime::from_us_f64(at);
        let done_before = |o: &dcsim_core::RunOutput| o.records.iter().filter(|r| r.end.is_some_and(|e| e <= t)).map(|r| (r.id, r.end)).collect::<Vec<_>>();
        assert!(!done_before(&plain).is_empty(), "{}: no flow finished before the divergence", p.as_str());
        assert_eq!(done_before(&one), done_before(&plain), "{}: the branch differs before it diverges", p.as_str());
        assert!(one.summary.scenario.contains("what if"), "the summary names the branch: {}", one.summary.scenario);
        // And it does diverge: a 6 KB buffer (4 packets) drops more than the base's.
        assert!(
            one.counters.data_dropped_total() > plain.counters.data_dropped_total(),
            "{}: 6 KB buffers dropped {} packets, the base {}",
            p.as_str(),
            one.counters.data_dropped_total(),
            plain.counters.data_dropped_total()
        );
    }
}

#[test]
fn a_protocol_branch_runs_the_other_protocol_on_the_same_arrivals() {
    let s = base(ProtocolName::Pfabric);
    let b = with_branch(&s, 1500.0, BranchChange::Protocol { protocol: ProtocolName::Dctcp });
    assert_eq!(b.branch.as_ref().unwrap().divergence_ps(), 0);
    let mut other = s.clone();
    other.protocol = ProtocolName::Dctcp;
    assert_eq!(flows_csv(&run_ok(&b, RunOptions::default()).records), flows_csv(&run_ok(&other, RunOptions::default()).records));
}

#[test]
fn bad_branches_name_the_field() {
    let ok = r#"{"name":"x","workload":{"flows":10},"branch":{"name":"b","at_us":10,"change":{"kind":"buffer_bytes","bytes":20000}}}"#;
    Scenario::from_json(ok).unwrap();
    assert_rejected_naming([
        (ok.replace(r#""at_us":10"#, r#""at_us":-1"#), "branch.at_us"),
        (ok.replace(r#""bytes":20000"#, r#""bytes":100"#), "branch.change.bytes"),
        (ok.replace(r#""name":"b""#, r#""name":"""#), "branch.name"),
        (ok.replace("buffer_bytes", "buffer_size"), "buffer_size"),
        (ok.replace(r#""bytes":20000"#, r#""bytes":20000,"extra":1"#), "extra"),
    ]);
    // A flow-level scheduler cannot branch from a state: an error, not a panic.
    let mut s = base(ProtocolName::Ideal);
    s.workload.flows = 20;
    let e = prepare(&with_branch(&s, 10.0, BranchChange::BufferBytes { bytes: 9000 }), RunOptions::default()).err().unwrap();
    assert!(e.starts_with("branch"), "{e}");
}
