//! `dcsim reproduce --quick` end to end: the whole quick report (about 80
//! CPU-seconds), its table, CSV and Markdown, and the verdicts of the
//! claims the repository's tests say are reproduced.

use std::path::PathBuf;
use std::process::{Command, Output};

fn dcsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dcsim")).args(args).output().expect("dcsim runs")
}

fn scenarios() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").to_str().unwrap().to_string()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dcsim-reproduce-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Claims that reproduce by the repository's own tests (engine/core/tests:
/// paper_pfabric.rs, paper_phost.rs, pdq.rs, pase.rs, d2tcp_l2dct.rs) and
/// that the quick report must therefore find agreeing. Not here: the
/// claims those tests mark `#[ignore]` as not reproduced (pHost below
/// pFabric on the permutation matrix,
/// PASE's testbed AFCT and optimizations' AFCT, 4 queues within 10% of 8
/// at every load), Fastpass's 1.3 to 4 times (the test brackets it by two
/// readings; the default reading alone exceeds 4 on data mining and
/// IMC10), and PDQ(Full) within 5 points on the paper's 12-server tree
/// (the test runs 52 servers beyond 11 flows; on 12 it is about 5.1
/// points at 50 flows).
const MUST_AGREE: &[&str] = &[
    "pfabric-seamless-switching",
    "pfabric-incast-81ms",
    "pfabric-incast-near-ideal",
    "pfabric-probe-mode",
    "pfabric-websearch-ordering",
    "pfabric-near-ideal",
    "pfabric-near-ideal-paper-rtt",
    "pdq-one-packet-two-rtts",
    "phost-near-pfabric",
    "phost-first-hop-drops",
    "phost-permutation-vs-fastpass",
    "phost-tenant-fair",
    "pdq-full-near-optimal-52-servers",
    "pdq-baselines-below-full",
    "pdq-early-termination-helps",
    "pdq-basic-above-baselines",
    "pdq-flow-sizes",
    "pase-optimizations-messages",
    "pase-one-queue",
    "d2tcp-low-load",
    "d2tcp-high-load",
    "pfabric-most-deadlines",
    "l2dct-vs-d2tcp",
];

const VERDICTS: [&str; 3] = ["agrees", "differs", "not reproduced"];

#[test]
fn the_quick_report_lists_every_claim_with_computed_verdicts() {
    let dir = scenarios();
    let list = dcsim(&["reproduce", "--quick", "--list", "--scenarios", &dir]);
    assert!(list.status.success(), "{}", String::from_utf8_lossy(&list.stderr));
    let ids: Vec<String> = String::from_utf8(list.stdout).unwrap().lines().map(|l| l.split_whitespace().next().unwrap().to_string()).collect();
    assert!(ids.len() >= 25, "{ids:?}");
    for id in MUST_AGREE {
        assert!(ids.iter().any(|i| i == id), "{id} is not a claim");
    }

    let (csv_path, md_path) = (tmp("fidelity.csv"), tmp("fidelity.md"));
    let o = dcsim(&["reproduce", "--quick", "-q", "--scenarios", &dir, "--csv", csv_path.to_str().unwrap(), "--markdown", md_path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}\n{stdout}", String::from_utf8_lossy(&o.stderr));

    // The table: a header, a rule, one row per claim, the tally.
    let lines: Vec<&str> = stdout.lines().collect();
    let head: Vec<&str> = lines[0].split(" | ").map(str::trim).collect();
    assert_eq!(head, ["claim", "paper value", "dcsim value", "tolerance", "verdict"]);
    for id in &ids {
        let row = lines.iter().find(|l| l.starts_with(&format!("{id} "))).unwrap_or_else(|| panic!("no row for {id}"));
        let verdict = row.rsplit(" | ").next().unwrap().trim();
        assert!(VERDICTS.contains(&verdict), "{row}");
    }
    assert!(stdout.contains(&format!("{} claims: ", ids.len())) && stdout.contains("(quick size,"), "{stdout}");

    // The CSV: one row per claim; the verdict follows from the checks.
    let mut r = csv::Reader::from_path(&csv_path).unwrap();
    let cols: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        cols,
        ["claim", "paper", "source", "statement", "paper_value", "dcsim_value", "tolerance", "verdict", "checks_holding", "checks", "size", "deviations", "pending"]
    );
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.iter().map(|x| x[0].to_string()).collect::<Vec<_>>(), ids);
    let mut failures = Vec::new();
    for x in &rows {
        let (id, verdict) = (&x[0], &x[7]);
        let (holding, checks): (usize, usize) = (x[8].parse().unwrap(), x[9].parse().unwrap());
        assert!(checks > 0, "{id}: no checks");
        assert_eq!(verdict == "agrees", holding == checks, "{id}: verdict {verdict} with {holding} of {checks} checks holding");
        assert!(x[10].starts_with("quick: "), "{id}: size {}", &x[10]);
        assert!(!x[5].is_empty() && !x[4].is_empty() && !x[6].is_empty(), "{id}: empty value");
        if MUST_AGREE.contains(&id) && verdict != "agrees" {
            failures.push(format!("{id}: {verdict} ({holding} of {checks} checks hold): dcsim {} against the paper's {} ({})", &x[5], &x[4], &x[6]));
        }
    }
    assert!(failures.is_empty(), "claims the tests say reproduce do not agree:\n{}", failures.join("\n"));

    // The Markdown says how it was made and has a section per claim with
    // its checks.
    let md = std::fs::read_to_string(&md_path).unwrap();
    assert!(md.starts_with("# Fidelity report\n"));
    assert!(md.contains("Generated by `dcsim reproduce --quick") && md.contains("(quick size) with dcsim ") && md.contains(" s wall time"));
    for id in &ids {
        assert!(md.contains(&format!("\n## {id} (")), "no section for {id}");
    }
    assert!(md.matches("| check | kind | dcsim | bound | holds |").count() == ids.len());
    assert!(md.contains("Deviations from the paper's setting"));
    assert!(md.contains("Setting beyond the scenario file: `workload.abort_at_deadline`"));
}

#[test]
fn a_filter_that_matches_nothing_lists_the_ids() {
    let o = dcsim(&["reproduce", "--quick", "--filter", "no-such-claim", "--scenarios", &scenarios()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("no claim matches") && err.contains("pfabric-near-ideal"), "{err}");
}

#[test]
fn a_filtered_report_runs_only_its_claims() {
    let o = dcsim(&["reproduce", "--quick", "-q", "--filter", "pdq-one-packet,seamless", "--scenarios", &scenarios()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("pdq-one-packet-two-rtts ") && out.contains("pfabric-seamless-switching "), "{out}");
    assert!(out.contains("2 claims: "), "{out}");
}
