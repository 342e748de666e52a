//! `dcsim reproduce --quick` end to end: the whole quick report, its table,
//! CSV, Markdown and JSON, every claim's verdict pinned at the quick size,
//! and a sharded reproduction merged into the unsharded report.
//!
//! The verdicts are pinned so that a change to the engine or to a claim
//! that moves a verdict shows here and is decided on purpose (with the
//! report regenerated). A bound wider than the paper's statement is
//! refused by `dcsim reproduce` itself (`bounds_as_stated`): the whole
//! report run below would fail.

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

/// Every claim's verdict at the quick size. A verdict that moves is a
/// finding: regenerate the report (docs/guide/command-line.md, "The fidelity report") and update
/// this table in the same commit, saying why in its body.
const QUICK_VERDICTS: &[(&str, &str)] = &[
    ("pfabric-seamless-switching", "differs"),
    ("pfabric-incast-81ms", "differs"),
    ("pfabric-incast-dctcp-and-serial", "agrees"),
    ("pfabric-incast-pdq", "agrees"),
    ("pfabric-probe-mode", "agrees"),
    ("pfabric-websearch-near-ideal", "differs"),
    ("pfabric-datamining-near-ideal", "differs"),
    ("pfabric-websearch-below-pdq", "differs"),
    ("pfabric-datamining-below-pdq", "differs"),
    ("pfabric-better-than-others", "inconclusive"),
    ("pfabric-short-and-long-flows", "inconclusive"),
    ("pfabric-pdq-one-packet-two-rtts", "agrees"),
    ("phost-near-pfabric", "inconclusive"),
    ("phost-vs-fastpass", "differs"),
    ("phost-short-and-long-flows", "differs"),
    ("phost-first-hop-drops", "differs"),
    ("phost-deadlines", "differs"),
    ("phost-bimodal", "agrees"),
    ("phost-permutation", "not reproduced"),
    ("phost-permutation-long-flows", "not reproduced"),
    ("phost-incast", "agrees"),
    ("phost-buffer-size", "differs"),
    ("phost-tenant-fair", "agrees"),
    ("phost-stability", "differs"),
    ("phost-nfct", "agrees"),
    ("phost-tail-slowdown", "not reproduced"),
    ("phost-drop-rate", "differs"),
    ("phost-varying-load", "agrees"),
    ("pdq-near-optimal", "differs"),
    ("pdq-early-start", "agrees"),
    ("pdq-early-termination", "agrees"),
    ("pdq-baselines-fall-with-flows", "agrees"),
    ("pdq-flow-size", "agrees"),
    ("pase-vs-pfabric-left-right", "differs"),
    ("pase-vs-pfabric-all-to-all", "not reproduced"),
    ("pase-similar-to-pfabric", "differs"),
    ("pase-vs-deployment-friendly", "differs"),
    ("pase-optimizations-overhead", "inconclusive"),
    ("pase-optimizations-afct", "differs"),
    ("pase-end-to-end-arbitration", "differs"),
    ("pase-priority-queues", "inconclusive"),
    ("pase-reference-rate", "differs"),
    ("pase-probing", "differs"),
    ("pase-testbed", "differs"),
    ("pase-strategies-deadlines", "differs"),
    ("pase-pdq-switching", "not reproduced"),
    ("d2tcp-fewer-missed-deadlines", "differs"),
    ("l2dct-vs-d2tcp", "agrees"),
];

const VERDICTS: [&str; 4] = ["agrees", "differs", "inconclusive", "not reproduced"];

#[test]
fn the_quick_report_judges_every_claim_as_pinned() {
    let dir = scenarios();
    let list = dcsim(&["reproduce", "--quick", "--list", "--scenarios", &dir]);
    assert!(list.status.success(), "{}", String::from_utf8_lossy(&list.stderr));
    let ids: Vec<String> = String::from_utf8(list.stdout).unwrap().lines().map(|l| l.split_whitespace().next().unwrap().to_string()).collect();
    assert!(ids.len() >= 30, "{ids:?}");

    let (csv_path, md_path, json_path) = (tmp("fidelity.csv"), tmp("fidelity.md"), tmp("fidelity.json"));
    let o = dcsim(&[
        "reproduce",
        "--quick",
        "-q",
        "--scenarios",
        &dir,
        "--csv",
        csv_path.to_str().unwrap(),
        "--markdown",
        md_path.to_str().unwrap(),
        "--json",
        json_path.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}\n{stdout}", String::from_utf8_lossy(&o.stderr));

    // The table: a header, a rule, one row per claim, the tallies.
    let lines: Vec<&str> = stdout.lines().collect();
    let head: Vec<&str> = lines[0].split(" | ").map(str::trim).collect();
    assert_eq!(head, ["claim", "paper", "dcsim value", "verdict"]);
    assert!(stdout.contains("source papers: ") && stdout.contains("other papers: ") && stdout.contains("(quick size,"), "{stdout}");

    // The CSV: one row per claim, in list order.
    let mut r = csv::Reader::from_path(&csv_path).unwrap();
    let cols: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        cols,
        [
            "claim",
            "paper",
            "source",
            "in_excerpt",
            "quote",
            "statement",
            "readings",
            "dcsim_value",
            "authors_simulator_value",
            "verdict",
            "checks_holding",
            "checks_undecided",
            "checks",
            "variants",
            "size",
            "seeds",
            "deviations",
            "discussion",
            "cause",
            "cause_why"
        ]
    );
    // Fields by their column's name, so that a new column moves no index.
    let col = |name: &str| cols.iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"));
    let (quote, readings, value, verdict_at) = (col("quote"), col("readings"), col("dcsim_value"), col("verdict"));
    let (holding_at, undecided_at, checks_at, cause_at) = (col("checks_holding"), col("checks_undecided"), col("checks"), col("cause"));
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.iter().map(|x| x[0].to_string()).collect::<Vec<_>>(), ids);
    let mut moved = Vec::new();
    for x in &rows {
        let (id, verdict) = (&x[0], &x[verdict_at]);
        assert!(VERDICTS.contains(&verdict), "{id}: {verdict}");
        let (holding, undecided, checks): (usize, usize, usize) =
            (x[holding_at].parse().unwrap(), x[undecided_at].parse().unwrap(), x[checks_at].parse().unwrap());
        assert!(checks > 0, "{id}: no checks");
        // The verdict follows from the checks: every one holds exactly when
        // the claim agrees; an undecided one and no failure is inconclusive.
        assert_eq!(verdict == "agrees", holding == checks, "{id}: {verdict} with {holding} of {checks} holding");
        if verdict == "inconclusive" {
            assert!(undecided > 0 && holding + undecided == checks, "{id}: inconclusive with {holding} holding, {undecided} undecided of {checks}");
        }
        assert!(!x[quote].is_empty() && !x[readings].is_empty() && !x[value].is_empty(), "{id}: an empty field");
        // A cause stands beside every verdict but "agrees", and only there.
        assert_eq!(verdict == "agrees", x[cause_at].is_empty(), "{id}: {verdict} with cause {:?}", &x[cause_at]);
        match QUICK_VERDICTS.iter().find(|(c, _)| *c == id) {
            Some((_, pinned)) if *pinned == verdict => {}
            Some((_, pinned)) => moved.push(format!("{id}: {verdict} (pinned: {pinned}); dcsim {}", &x[value])),
            None => moved.push(format!("{id}: {verdict} (not pinned); dcsim {}", &x[value])),
        }
    }
    for (id, _) in QUICK_VERDICTS {
        assert!(ids.iter().any(|i| i == id), "{id} is pinned but no longer a claim");
    }
    assert!(moved.is_empty(), "verdicts at the quick size that are not the pinned ones:\n{}", moved.join("\n"));

    // The Markdown: how it was made and how to read it, a section per
    // claim with its quote, readings and checks.
    let md = std::fs::read_to_string(&md_path).unwrap();
    assert!(md.starts_with("# Fidelity report\n") && md.contains("Generated by `dcsim reproduce --quick") && md.contains("## How to read it"));
    for id in &ids {
        assert!(md.contains(&format!("\n## {id} (")), "no section for {id}");
    }
    assert_eq!(md.matches("| check | reading | kind | dcsim: mean [95% interval] | bound | holds |").count(), ids.len());
    assert!(md.contains("## Claims from other papers") && md.contains("Sensitivity: the verdict under each reasonable reading"));
    assert!(md.contains("**Causes** (why a claim does not agree") && md.contains("| claim | paper | authors' simulator | dcsim | verdict | cause |"));

    // The JSON the gallery reads: every claim, its quote and its checks'
    // intervals; a check holds exactly when its interval lies in its bound.
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let claims = v["claims"].as_array().unwrap();
    assert_eq!(claims.len(), ids.len());
    for c in claims {
        assert!(!c["quote"].as_str().unwrap().is_empty());
        // The words of the CSV and the Markdown, which the page reads.
        let verdict = c["judged"]["verdict"].as_str().unwrap_or("");
        assert!(VERDICTS.contains(&verdict), "{}: verdict {verdict:?} in the JSON", c["id"]);
        for k in c["judged"]["checks"].as_array().unwrap() {
            let (i, b) = (&k["interval"], &k["bound"]);
            let (lo, hi) = (i["lo"].as_f64().unwrap_or(f64::NAN), i["hi"].as_f64().unwrap_or(f64::NAN));
            let (blo, bhi) = (b["lo"].as_f64().unwrap_or(f64::NEG_INFINITY), b["hi"].as_f64().unwrap_or(f64::INFINITY));
            if k["fit"] == "holds" {
                assert!(lo >= blo - 1e-9 * blo.abs().max(1.0) && hi <= bhi + 1e-9 * bhi.abs().max(1.0), "{}: {k}", c["id"]);
            }
        }
    }
}

#[test]
fn a_filter_that_matches_nothing_lists_the_ids() {
    let o = dcsim(&["reproduce", "--quick", "--filter", "no-such-claim", "--scenarios", &scenarios()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("no claim matches") && err.contains("pfabric-websearch-near-ideal"), "{err}");
}

/// The report without its first paragraph (the command and the wall time).
fn body(md: &str) -> String {
    md.split("\n\n").skip(2).collect::<Vec<_>>().join("\n\n")
}

#[test]
fn shards_merge_into_the_unsharded_report() {
    // phost-tenant-fair's runs stop at 4 ms: their outcome files hold
    // numbers a stopped run leaves undefined (NaN, kept as null), which a
    // merge must read back.
    let filter = "pfabric-pdq-one-packet,pfabric-seamless,phost-tenant";
    let dir = scenarios();
    let whole = tmp("whole.md");
    let o = dcsim(&["reproduce", "--quick", "-q", "--filter", filter, "--scenarios", &dir, "--markdown", whole.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = tmp("shards");
    let _ = std::fs::remove_dir_all(&out);
    let run = |shard: &str, extra: &[&str]| {
        let mut args = vec!["reproduce", "--quick", "-q", "--filter", filter, "--scenarios", &dir, "--shard", shard, "--out-dir", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = dcsim(&args);
        assert!(o.status.success(), "shard {shard}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    run("1/2", &[]);
    // Half the runs: the merge names what is missing.
    let m = dcsim(&["reproduce", "merge", out.to_str().unwrap(), "--scenarios", &dir]);
    assert!(!m.status.success() && String::from_utf8_lossy(&m.stderr).contains("have no outcome yet"), "{}", String::from_utf8_lossy(&m.stderr));
    run("2/2", &[]);
    // Run again with --skip-existing: nothing is run twice.
    let again = run("1/2", &["--skip-existing"]);
    assert!(again.contains("0 runs done"), "{again}");
    let merged = tmp("merged.md");
    let m = dcsim(&["reproduce", "merge", out.to_str().unwrap(), "--scenarios", &dir, "--markdown", merged.to_str().unwrap()]);
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    let (a, b) = (std::fs::read_to_string(&whole).unwrap(), std::fs::read_to_string(&merged).unwrap());
    assert_eq!(body(&a), body(&b), "the merged report differs from the unsharded one");
    // A shard may not write the report, and needs somewhere to keep its runs.
    let e = dcsim(&["reproduce", "--quick", "--filter", filter, "--scenarios", &dir, "--shard", "1/2"]);
    assert!(!e.status.success() && String::from_utf8_lossy(&e.stderr).contains("--out-dir"));
}
