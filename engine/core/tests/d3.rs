//! D3 (Wilson et al., SIGCOMM 2011) end to end: quenching and deadline
//! flows on PDQ's tree. The switch's allocation rules are unit tests in
//! `protocol/rcp/` (D3 runs on RCP's hosts and ports).

mod common;

use common::{load, run_ok};
use dcsim_core::scenario::ProtocolName;
use dcsim_core::sim::StopReason;
use dcsim_core::workload::{DeadlineSpec, MatrixSpec, SizeSpec};
use dcsim_core::{RunOptions, Scenario};

fn two_flows(bytes: u64, deadline_us: f64) -> Scenario {
    let mut s = load("pdq-query-aggregation");
    s.protocol = ProtocolName::D3;
    s.workload.matrix = MatrixSpec::QueryAggregation { fanout: 2, queries: 1 };
    s.workload.sizes = SizeSpec::Fixed { bytes: Some(bytes), packets: None };
    s.workload.deadlines = Some(DeadlineSpec::Uniform { min_us: deadline_us, max_us: deadline_us });
    s
}

#[test]
fn a_flow_that_cannot_meet_its_deadline_is_quenched() {
    // 500 KB take 4 ms at 1 Gbps: a 3 ms deadline is out of reach, so both
    // flows stop at once and send no data.
    let o = run_ok(&two_flows(500_000, 3000.0), RunOptions { trace: false, audit: true });
    assert_eq!(o.stop, StopReason::AllFlowsDone);
    assert!(o.records.iter().all(|r| r.terminated && r.end.is_none()), "{:?}", o.records);
    assert_eq!(o.counters.data_sent, 0);
    assert_eq!(o.summary.deadlines_met, Some(0.0));
}

#[test]
fn two_deadline_flows_that_fit_both_make_it() {
    // 2 x 100 KB take 1.6 ms of the shared downlink; deadlines 5 ms: each
    // asks 160 Mb/s, both are granted and finish in time.
    let o = run_ok(&two_flows(100_000, 5000.0), RunOptions { trace: false, audit: true });
    assert_eq!(o.stop, StopReason::AllFlowsDone);
    for r in &o.records {
        eprintln!("flow {}: fct {:?} deadline {:?}", r.id, r.fct(), r.deadline);
    }
    assert_eq!(o.summary.deadlines_met, Some(1.0));
}
