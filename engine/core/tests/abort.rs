//! `workload.abort_at_deadline` (issue 18): a flow not done at its
//! deadline is given up there, by every protocol. What must then hold,
//! whatever the protocol: no flow completes after its deadline, the flows
//! given up are settled as terminated (so the run ends), packets are
//! conserved, and a run without deadlines refuses the option, naming it.

mod common;

use common::{assert_rejected_naming, load, par_map, run_ok};
use dcsim_core::scenario::ProtocolName;
use dcsim_core::RunOptions;

#[test]
fn no_flow_completes_after_its_deadline_and_the_rest_are_given_up() {
    let jobs: Vec<(&str, ProtocolName)> = ["pdq-query-aggregation", "phost-deadlines"]
        .into_iter()
        .flat_map(|f| ProtocolName::ALL.into_iter().filter(|p| *p != ProtocolName::OptimalDeadline).map(move |p| (f, p)))
        .collect();
    let out = par_map(&jobs, |&(file, p)| {
        let mut s = load(file);
        s.protocol = p;
        s.workload.flows = s.workload.flows.min(300);
        if let dcsim_core::workload::MatrixSpec::QueryAggregation { fanout, .. } = &mut s.workload.matrix {
            // Many flows per query: most cannot make their deadline.
            *fanout = 25;
            s.workload.matrix = dcsim_core::workload::MatrixSpec::QueryAggregation { fanout: 25, queries: 4 };
        }
        s.workload.abort_at_deadline = true;
        let with = run_ok(&s, RunOptions { trace: false, audit: true });
        s.workload.abort_at_deadline = false;
        let without = run_ok(&s, RunOptions::default());
        (file, p, with, without)
    });
    for (file, p, o, without) in out {
        let who = format!("{file} / {}", p.as_str());
        let fg: Vec<_> = o.records.iter().filter(|r| !r.background).collect();
        for r in &fg {
            let deadline = r.start + r.deadline.expect("every flow has a deadline");
            if let Some(end) = r.end {
                assert!(end <= deadline, "{who}: flow {} completed at {} ps, deadline {} ps", r.id, end.ps(), deadline.ps());
            } else {
                assert!(r.terminated, "{who}: flow {} neither completed nor given up", r.id);
            }
        }
        assert_eq!(o.stop, dcsim_core::sim::StopReason::AllFlowsDone, "{who}");
        // Flows that finished late when running on are the ones the option
        // gives up: with some late before, some are given up now (not all
        // of them: each one given up frees the network for the rest).
        let late = without.records.iter().filter(|r| !r.background && r.end.is_some_and(|e| e > r.start + r.deadline.unwrap())).count();
        let given_up = fg.iter().filter(|r| r.terminated).count();
        assert!(late == 0 || given_up > 0, "{who}: {late} flows late when running on, none given up");
        if file == "pdq-query-aggregation" && p != ProtocolName::Pdq && p != ProtocolName::Ideal {
            // 25 flows to one aggregator: without PDQ's preemption, many
            // cannot make it, and go.
            assert!(given_up >= 10, "{who}: only {given_up} flows given up");
        }
        let c = &o.counters;
        assert_eq!(c.data_sent, c.data_delivered + c.data_dropped.iter().sum::<u64>() + c.data_in_flight, "{who}: data packets conserved");
        // Giving flows up frees the network for the others: no fewer
        // deadlines met than with late flows running on (a few points of
        // slack for protocols that already give up, PDQ and D3, whose
        // runs then differ only in the order of what follows).
        let (a, b) = (o.summary.deadlines_met.unwrap(), without.summary.deadlines_met.unwrap());
        assert!(a + 0.03 >= b, "{who}: {a:.3} of deadlines met when late flows are given up, {b:.3} when they run on");
    }
}

#[test]
fn the_option_needs_deadlines() {
    let ok = r#"{"name":"x","workload":{"flows":10,"abort_at_deadline":true,"deadlines":{"kind":"uniform","min_us":5000,"max_us":25000}}}"#;
    dcsim_core::Scenario::from_json(ok).unwrap();
    assert_rejected_naming([(r#"{"name":"x","workload":{"flows":10,"abort_at_deadline":true}}"#.to_string(), "workload.abort_at_deadline")]);
}
