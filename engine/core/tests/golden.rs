//! Golden fingerprints: the results of every shipped scenario under every
//! protocol (200 flows each), hashed, must equal the fingerprints recorded
//! in `tests/golden/fingerprints.txt`. What is hashed is the results
//! themselves at full precision (every flow record with its times in
//! picoseconds, and the summary as `dcsim run --json` prints it), not the
//! CSV files: a change of the CSV's format (column names, units, printed
//! precision) leaves the fingerprints alone, so they still prove that the
//! results did not move.
//!
//! This guards refactors that must not change behaviour (issue 19's
//! engine-design pass: controllers, shared timers): any change in any FCT,
//! drop count or summary figure of any protocol shows here. A change that
//! is meant to alter results (a model fix) re-records them:
//! `DCSIM_BLESS=1 cargo test --release -p dcsim-core --test golden`, and
//! the commit says why the numbers moved.
//!
//! `DCSIM_GOLDEN_DUMP=DIR` also writes each run's flows and summary CSVs
//! into DIR (`FILE_PROTOCOL_flows.csv`, `..._summary.csv`), to compare two
//! CSV formats value by value.

mod common;

use common::{every_scenario_and_protocol, par_map};
use dcsim_core::report::{flows_csv, summary_csv};
use dcsim_core::{run, RunOptions};

/// FNV-1a, 64 bits: a fixed, platform-independent hash of the CSV bytes.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

fn fingerprints() -> Vec<String> {
    let jobs = every_scenario_and_protocol();
    par_map(&jobs, |(file, s)| {
        let line = match run(s, RunOptions::default()) {
            Ok(o) => {
                if let Some(dir) = std::env::var_os("DCSIM_GOLDEN_DUMP") {
                    let base = std::path::Path::new(&dir).join(format!("{file}_{}", s.protocol.as_str()));
                    std::fs::create_dir_all(&dir).unwrap();
                    std::fs::write(base.with_extension("flows.csv"), flows_csv(&o.records)).unwrap();
                    std::fs::write(base.with_extension("summary.csv"), summary_csv(std::slice::from_ref(&o.summary))).unwrap();
                }
                let records = serde_json::to_string(&o.records).unwrap();
                let summary = serde_json::to_string(&o.summary).unwrap();
                format!("{:016x} {:016x}", fnv(records.as_bytes()), fnv(summary.as_bytes()))
            }
            Err(e) => format!("refused: {}", e.lines().next().unwrap_or("")),
        };
        format!("{file} {} {line}", s.protocol.as_str())
    })
}

#[test]
fn every_scenario_and_protocol_gives_its_recorded_results() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/fingerprints.txt");
    let now = fingerprints();
    if std::env::var_os("DCSIM_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, now.join("\n") + "\n").unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (record with DCSIM_BLESS=1)", path.display()));
    let recorded: Vec<&str> = recorded.lines().collect();
    let changed: Vec<String> =
        now.iter().zip(recorded.iter().chain(std::iter::repeat(&"(none)"))).filter(|(a, b)| a != *b).map(|(a, b)| format!("  now {a}\n  was {b}")).collect();
    assert!(
        changed.is_empty() && now.len() == recorded.len(),
        "{} of {} runs changed (re-record only if the change is meant):\n{}",
        changed.len(),
        now.len(),
        changed.join("\n")
    );
}
