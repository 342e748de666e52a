//! Determinism (docs/model.md#time: integer time, FIFO among equal
//! times, one seeded stream per purpose): the same scenario and seed give
//! byte-identical per-flow and summary CSVs, and another seed gives a
//! different run.
//!
//! 500 web-search flows at load 0.6 on the leaf-spine are enough: they
//! overlap (hundreds of concurrent flows, queueing, drops and retransmits
//! for TCP and pFabric), so any dependence on hash order, addresses or
//! uninitialized state would show up in at least one FCT.

mod common;

use common::{load, par_map, run_ok};
use dcsim_core::report::{flows_csv, summary_csv};
use dcsim_core::scenario::ProtocolName;
use dcsim_core::RunOptions;

fn csvs(p: ProtocolName, seed: u64) -> (String, String) {
    let mut s = load("websearch-leaf-spine");
    s.workload.flows = 500;
    s.protocol = p;
    s.seed = seed;
    let o = run_ok(&s, RunOptions::default());
    assert_eq!(o.records.len(), 500, "{}: flows", p.as_str());
    (flows_csv(&o.records), summary_csv(std::slice::from_ref(&o.summary)))
}

#[test]
fn same_seed_same_csv_other_seed_other_csv() {
    let protos = ProtocolName::ALL;
    let jobs: Vec<(ProtocolName, u64)> = protos.iter().flat_map(|&p| [(p, 1), (p, 1), (p, 2)]).collect();
    let out = par_map(&jobs, |&(p, seed)| csvs(p, seed));
    for (i, p) in protos.iter().enumerate() {
        let (a, b, c) = (&out[3 * i], &out[3 * i + 1], &out[3 * i + 2]);
        assert_eq!(a.0.lines().count(), 501, "{}: header + 500 rows", p.as_str());
        assert!(a.0 == b.0, "{}: flows CSV differs between two runs with seed 1", p.as_str());
        assert!(a.1 == b.1, "{}: summary CSV differs between two runs with seed 1:\n{}\n{}", p.as_str(), a.1, b.1);
        assert!(a.0 != c.0, "{}: seeds 1 and 2 gave the same flows CSV", p.as_str());
        assert!(a.1 != c.1, "{}: seeds 1 and 2 gave the same summary CSV", p.as_str());
    }
}
