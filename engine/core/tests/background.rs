//! Long-lived background flows (`workload.background`; PASE section 5's
//! testbed has one, D2TCP section 5's deadline runs two): they start at
//! time zero, load the network, are not measured, and do not keep the run
//! going once the workload's own flows are done.

mod common;

use common::run_ok;
use dcsim_core::report::flows_csv;
use dcsim_core::scenario::ProtocolName;
use dcsim_core::sim::StopReason;
use dcsim_core::workload::BackgroundFlow;
use dcsim_core::{RunOptions, Scenario};

/// DCTCP on one rack of 8 hosts at 10 Gbps, 400 web-search-like flows of
/// 100 KB to 1 MB at load 0.4, all-to-all within the rack.
fn base() -> Scenario {
    Scenario::from_json(
        r#"{"name":"test-background","protocol":"dctcp",
            "topology":{"kind":"single_rack","hosts":8},
            "workload":{"sizes":{"kind":"uniform","min_bytes":100000,"max_bytes":1000000},
                        "load":0.4,"flows":400,"matrix":{"kind":"intra_rack"}}}"#,
    )
    .unwrap()
}

fn with_background(mut s: Scenario, flows: &[(u32, u32)]) -> Scenario {
    s.workload.background = flows.iter().map(|&(src, dst)| BackgroundFlow { src, dst, bytes: 1_000_000_000 }).collect();
    s
}

#[test]
fn background_flows_leave_the_workload_unchanged_and_are_not_reported() {
    let plain = run_ok(&base(), RunOptions { trace: false, audit: true });
    let bg = run_ok(&with_background(base(), &[(0, 7), (1, 7)]), RunOptions { trace: false, audit: true });
    // The run ends when the 400 measured flows are done, not when the 1 GB
    // flows are (they would need 0.8 s alone at 10 Gbps).
    assert_eq!(bg.stop, StopReason::AllFlowsDone);
    assert_eq!(bg.summary.flows, 400);
    assert_eq!(bg.summary.completed, 400);
    let (b, fg): (Vec<_>, Vec<_>) = bg.records.iter().partition(|r| r.background);
    assert_eq!(b.len(), 2);
    assert!(b.iter().all(|r| r.end.is_none() && r.start.ps() == 0 && r.size == 1_000_000_000));
    // The flows CSV has the measured flows only (header + 400 rows).
    assert_eq!(flows_csv(&bg.records).lines().count(), 401);
    // Same arrivals, endpoints and sizes as without background flows: the
    // background flows draw from no random stream.
    assert_eq!(fg.len(), plain.records.len());
    for (a, b) in plain.records.iter().zip(&fg) {
        assert_eq!((a.src, a.dst, a.size, a.start), (b.src, b.dst, b.size, b.start), "flow {}", a.id);
        assert_eq!(b.id, a.id + 2, "ids follow the background flows");
    }
}

#[test]
fn background_flows_slow_the_flows_that_share_their_links() {
    // Two 1 GB flows into host 7 hold its downlink busy: DCTCP shares the
    // link per flow, so a measured flow into host 7 gets about a third of
    // it instead of all of it, and its mean FCT must rise well above the
    // run without them (asked: at least 1.5x); flows between other hosts
    // share no link with them.
    let plain = run_ok(&base(), RunOptions::default());
    let bg = run_ok(&with_background(base(), &[(0, 7), (1, 7)]), RunOptions::default());
    let mean_fct = |o: &dcsim_core::RunOutput, into7: bool| {
        let v: Vec<f64> =
            o.records.iter().filter(|r| !r.background && (r.dst == 7) == into7 && r.src > 1).filter_map(|r| r.fct().map(|f| f.as_us_f64())).collect();
        assert!(v.len() >= 20, "too few flows: {}", v.len());
        v.iter().sum::<f64>() / v.len() as f64
    };
    let (p7, b7) = (mean_fct(&plain, true), mean_fct(&bg, true));
    assert!(b7 >= 1.5 * p7, "flows into host 7: mean FCT {b7:.0} us with background vs {p7:.0} us without");
    // Flows from hosts 2..7 to hosts other than 7 only meet the background
    // flows' ACKs; their FCT stays within 25% (queueing behind other
    // measured flows that were slowed is the only coupling).
    let (po, bo) = (mean_fct(&plain, false), mean_fct(&bg, false));
    assert!(bo <= 1.25 * po, "other flows: {bo:.0} us with background vs {po:.0} us without");
}

#[test]
fn bad_background_flows_are_rejected_naming_the_field() {
    for (flows, field) in [(vec![(3, 3)], "workload.background[0].dst"), (vec![(0, 1), (0, 8)], "workload.background[1]")] {
        let s = with_background(base(), &flows);
        let e = s.validate().unwrap_err();
        assert!(e.starts_with(field), "{e}");
    }
    let mut s = with_background(base(), &[(0, 1)]);
    s.workload.background[0].bytes = 0;
    assert!(s.validate().unwrap_err().starts_with("workload.background[0].bytes"));
    // Every protocol runs them (the ideal oracle leaves them out: under
    // SRPT a longer flow never delays a shorter one).
    for p in [ProtocolName::Ideal, ProtocolName::Pfabric] {
        let mut s = with_background(base(), &[(0, 7)]);
        s.protocol = p;
        s.workload.flows = 50;
        let o = run_ok(&s, RunOptions::default());
        assert_eq!((o.summary.completed, o.stop), (50, StopReason::AllFlowsDone), "{}", p.as_str());
    }
}
