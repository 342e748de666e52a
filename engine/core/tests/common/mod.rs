//! Helpers shared by the integration tests (each test file includes this
//! module with `mod common;`, so not every helper is used by every file).
#![allow(dead_code)]

use dcsim_core::{run, RunOptions, RunOutput, Scenario};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The repository's `scenarios/` directory.
pub fn scenarios_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

/// Every shipped scenario under every protocol, at most 200 flows each, as
/// (file stem, scenario), in file then protocol order (the golden
/// fingerprints and the split-run test go through them all).
pub fn every_scenario_and_protocol() -> Vec<(String, Scenario)> {
    let mut paths: Vec<_> = std::fs::read_dir(scenarios_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("scenario.schema.json"))
        .collect();
    paths.sort();
    let mut jobs = Vec::new();
    for p in &paths {
        let mut s = Scenario::from_json(&std::fs::read_to_string(p).unwrap()).unwrap();
        cap_flows(&mut s, 200);
        let file = p.file_stem().unwrap().to_string_lossy().to_string();
        for proto in dcsim_core::scenario::ProtocolName::ALL {
            let mut s = s.clone();
            s.protocol = proto;
            jobs.push((file.clone(), s));
        }
    }
    jobs
}

/// Cuts a scenario to at most `n` flows: an open-loop workload's flows, or
/// a closed-loop matrix's requests (at least one) so that senders times
/// requests stays within `n` (incast.json runs the pFabric paper's 10,000
/// requests; the tests need a few).
pub fn cap_flows(s: &mut Scenario, n: u64) {
    s.workload.flows = s.workload.flows.min(n);
    if let dcsim_core::workload::MatrixSpec::Incast { senders, requests, .. } = &mut s.workload.matrix {
        *requests = (*requests).min((n / (*senders).max(1) as u64).max(1) as u32);
    }
}

/// Loads `scenarios/<name>.json`.
pub fn load(name: &str) -> Scenario {
    let path = scenarios_dir().join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `s`, panicking with the scenario's name on a validation error.
pub fn run_ok(s: &Scenario, opts: RunOptions) -> RunOutput {
    run(s, opts).unwrap_or_else(|e| panic!("{} ({}): {e}", s.name, s.protocol.as_str()))
}

/// Runs `f` over `jobs` on as many threads as the machine has cores and
/// returns the results in job order. `cargo test` already runs test
/// functions in parallel; this spreads the work of one long test too.
pub fn par_map<J: Sync, R: Send>(jobs: &[J], f: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(jobs.len().max(1));
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|sc| {
        for _ in 0..threads {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= jobs.len() {
                    break;
                }
                let r = f(&jobs[i]);
                out.lock().unwrap()[i] = Some(r);
            });
        }
    });
    out.into_inner().unwrap().into_iter().map(|r| r.unwrap()).collect()
}

/// Asserts that each scenario text in `cases` is rejected with an error
/// that names its field (the second of each pair).
pub fn assert_rejected_naming<S: AsRef<str>>(cases: impl IntoIterator<Item = (S, &'static str)>) {
    for (json, field) in cases {
        let json = json.as_ref();
        let e = Scenario::from_json(json).unwrap_err();
        assert!(e.contains(field), "{json}: {e}");
    }
}

/// A PASE simulation of `s`, built as `run::prepare` builds it, so tests
/// can read the arbitrators (`pase.rs`, `pase_paper.rs`).
pub fn pase_sim(s: &Scenario) -> dcsim_core::sim::Simulation<dcsim_core::protocol::pase::Pase> {
    use dcsim_core::protocol::pase::Pase;
    use dcsim_core::protocol::ports::PortSetup;
    use dcsim_core::scenario::ProtocolName;
    use dcsim_core::sim::{SimConfig, Simulation};
    use dcsim_core::units::SimTime;
    use dcsim_core::workload::FlowGenerator;
    s.validate().unwrap();
    let net = dcsim_core::net::topology::build(&s.topology);
    let gen = FlowGenerator::new(&s.workload, &net, s.switching, s.seed);
    let cfg = SimConfig {
        switching: s.switching,
        load_balancing: s.load_balancing,
        seed: s.seed,
        max_time: SimTime::from_ms(2000),
        max_events: u64::MAX,
        sample_interval: SimTime::from_us(1000),
        audit: true,
    };
    let q = PortSetup::of(ProtocolName::Pase, &s.params).queue().unwrap();
    let mut proto = Pase::new(s.params.pase.clone(), &net, true);
    proto.log_switch_requests = true;
    Simulation::new(net, |_, _| q.clone(), proto, gen, cfg)
}
