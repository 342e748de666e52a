//! End-to-end tests of the `dcsim` binary: what a person typing commands
//! sees, including the errors for bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

fn dcsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dcsim")).args(args).output().expect("dcsim runs")
}

fn scenario(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(name);
    p.to_str().unwrap().to_string()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dcsim-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Runs and expects failure with every `needle` in the error message.
fn fails_with(args: &[&str], needles: &[&str]) {
    let o = dcsim(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{args:?} should fail");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: error `{err}` does not mention `{n}`");
    }
}

#[test]
fn bad_input_names_the_field_and_the_reason() {
    let ws = scenario("websearch-leaf-spine.json");
    fails_with(&["run", &ws, "--load", "-0.2"], &["workload.load", "(0, 1]", "-0.2"]);
    fails_with(&["run", &ws, "--load", "1.5"], &["workload.load", "(0, 1]"]);
    fails_with(&["run", &ws, "--flows", "0"], &["workload.flows", "at least 1"]);
    fails_with(&["run", &ws, "--flows", "1000000000000"], &["workload.flows", "limit"]);
    fails_with(&["run", &ws, "--protocol", "quic"], &["unknown protocol", "quic", "pfabric"]);
    fails_with(&["run", "/nonexistent/x.json"], &["cannot read"]);

    let zero_hosts = tmp("zero-hosts.json");
    std::fs::write(&zero_hosts, r#"{"name":"z","topology":{"kind":"single_rack","hosts":0}}"#).unwrap();
    fails_with(&["run", zero_hosts.to_str().unwrap()], &["topology.hosts", "at least 2"]);

    let malformed = tmp("malformed.json");
    std::fs::write(&malformed, "{\"name\": \"m\",\n \"seed\": }").unwrap();
    fails_with(&["run", malformed.to_str().unwrap()], &["malformed.json", "line 2"]);

    let typo = tmp("typo.json");
    std::fs::write(&typo, r#"{"name":"t","workload":{"flow":10}}"#).unwrap();
    fails_with(&["run", typo.to_str().unwrap()], &["unknown field", "flow"]);

    let bad_sweep = scenario("websearch-leaf-spine.json");
    fails_with(&["sweep", &bad_sweep, "--protocols", "pfabric", "--loads", "0.5,2"], &["workload.load", "load 2"]);

    // DCTCP's profiles (issue 18): an unknown one is named with the field
    // and the known ones, in a file and through --vary.
    let bad_profile = tmp("bad-profile.json");
    std::fs::write(&bad_profile, r#"{"name":"p","protocol":"d2tcp","params":{"d2tcp":{"profile":"bsd"}}}"#).unwrap();
    fails_with(&["run", bad_profile.to_str().unwrap()], &["params.d2tcp.profile", "unknown DCTCP profile `bsd`", "linux, ns2, testbed_kernel"]);
    fails_with(&["sweep", &bad_sweep, "--protocols", "dctcp", "--vary", "params.dctcp.profile=linux,bsd"], &["params.dctcp.profile", "`bsd`"]);
    let bad_delack = tmp("bad-delack.json");
    std::fs::write(&bad_delack, r#"{"name":"p","params":{"dctcp":{"delayed_ack":true,"delayed_ack_timeout_us":0}}}"#).unwrap();
    fails_with(&["run", bad_delack.to_str().unwrap()], &["params.dctcp.delayed_ack_timeout_us", "positive"]);
}

#[test]
fn run_writes_csvs_with_the_documented_columns_and_identical_bytes() {
    let ws = scenario("websearch-leaf-spine.json");
    let (f1, s1, f2, s2) = (tmp("f1.csv"), tmp("s1.csv"), tmp("f2.csv"), tmp("s2.csv"));
    for (f, s) in [(&f1, &s1), (&f2, &s2)] {
        let o = dcsim(&[
            "run",
            &ws,
            "--flows",
            "200",
            "--load",
            "0.5",
            "--seed",
            "7",
            "-q",
            "--flows-csv",
            f.to_str().unwrap(),
            "--summary-csv",
            s.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let flows = std::fs::read_to_string(&f1).unwrap();
    let mut lines = flows.lines();
    assert_eq!(lines.next().unwrap(), "flow_id,src,dst,size_bytes,start_us,end_us,fct_us,ideal_fct_us,slowdown,deadline_us,met_deadline,tenant,request");
    assert_eq!(lines.count(), 200);
    let summary = std::fs::read_to_string(&s1).unwrap();
    let mut rows = summary.lines();
    assert!(rows.next().unwrap().starts_with("scenario,protocol,load,seed,flows,mean_slowdown,p99_slowdown,afct_us,normalized_fct,drop_rate_pct,"));
    let row = rows.next().unwrap();
    assert!(row.starts_with("websearch-leaf-spine,pfabric,0.5,7,200,"), "{row}");
    assert_eq!(rows.next(), None);
    assert_eq!(std::fs::read(&f1).unwrap(), std::fs::read(&f2).unwrap());
    assert_eq!(std::fs::read(&s1).unwrap(), std::fs::read(&s2).unwrap());
}

#[test]
fn sweep_runs_every_point_into_one_csv() {
    let ws = scenario("websearch-leaf-spine.json");
    let out = tmp("sweep.csv");
    let o = dcsim(&["sweep", &ws, "--protocols", "pfabric,dctcp", "--loads", "0.3,0.5", "--flows", "150", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 4);
    // Points come out in grid order whatever order the threads finished in.
    let keys: Vec<String> = rows.iter().map(|r| r.split(',').take(3).collect::<Vec<_>>().join(",")).collect();
    assert_eq!(
        keys,
        ["websearch-leaf-spine,pfabric,0.3", "websearch-leaf-spine,pfabric,0.5", "websearch-leaf-spine,dctcp,0.3", "websearch-leaf-spine,dctcp,0.5"]
    );
}

#[test]
fn sweep_varies_a_scenario_field_into_a_first_column() {
    // PDQ paper Figure 3's axis: flows per query.
    let qa = scenario("pdq-query-aggregation.json");
    let o = dcsim(&["sweep", &qa, "--protocols", "pdq,tcp", "--vary", "workload.matrix.fanout=2,6"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = String::from_utf8(o.stdout).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[..3], ["workload.matrix.fanout", "scenario", "protocol"]);
    let flows = header.iter().position(|h| *h == "flows").unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // Grid order (protocol, then value), and the value really applied: the
    // scenario's 20 queries start `fanout` flows each.
    let got: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r[2], r[0], r[flows])).collect();
    assert_eq!(got, [("pdq", "2", "40"), ("pdq", "6", "120"), ("tcp", "2", "40"), ("tcp", "6", "120")]);
    fails_with(&["sweep", &qa, "--vary", "workload.fanout=2"], &["--vary workload.fanout", "unknown field `fanout`"]);
    fails_with(&["sweep", &qa, "--vary", "workload.matrix.fanout"], &["PATH=V1,V2"]);
    fails_with(&["sweep", &qa, "--vary", "workload.load=0.5,3"], &["--vary workload.load", "(0, 1]"]);
}

#[test]
fn sweep_varies_dctcps_profile() {
    // The PASE testbed claim depends on DCTCP's initial alpha (issue 18):
    // `--vary params.dctcp.profile=...` runs each profile over the file's
    // explicit DCTCP values, and alpha starting at 0 (ns2) lowers DCTCP's
    // AFCT beside the long-lived flow.
    let tb = scenario("pase-testbed.json");
    let o = dcsim(&[
        "sweep",
        &tb,
        "--protocols",
        "dctcp",
        "--vary",
        "params.dctcp.profile=linux,ns2,testbed_kernel",
        "--loads",
        "0.1",
        "--flows",
        "100",
        "--jobs",
        "1",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = csv_cells(&String::from_utf8(o.stdout).unwrap());
    assert_eq!(rows[0][0], "params.dctcp.profile");
    let afct = rows[0].iter().position(|h| h == "afct_us").unwrap();
    let got: Vec<(&str, f64)> = rows[1..].iter().map(|r| (r[0].as_str(), r[afct].parse().unwrap())).collect();
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), ["linux", "ns2", "testbed_kernel"]);
    assert!(got[1].1 < got[0].1, "ns2 {} us, linux {} us", got[1].1, got[0].1);
    assert!(got[2].1 != got[0].1, "testbed_kernel changes nothing");
}

#[test]
fn the_pages_engine_names_are_the_generated_ones() {
    let o = dcsim(&["names"]);
    assert!(o.status.success());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/engine/names.generated.ts");
    let checked_in = std::fs::read_to_string(&path).unwrap();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), checked_in, "run `dcsim names > web/src/engine/names.generated.ts`");
}

#[test]
fn the_checked_in_schema_is_the_generated_one() {
    let o = dcsim(&["schema"]);
    assert!(o.status.success());
    let checked_in = std::fs::read_to_string(scenario("scenario.schema.json")).unwrap();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), checked_in, "run `dcsim schema > scenarios/scenario.schema.json`");
}

#[test]
fn bench_reports_events_rate_wall_time_and_memory() {
    let o = dcsim(&["bench", "--filter", "incast", "--scenarios", &scenario("")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    // One row at 1 thread and one at 2 (issue 20); incast is closed-loop,
    // so both ran on one thread, with the same events.
    let rows: Vec<Vec<f64>> =
        text.lines().filter(|l| l.starts_with("incast-pfabric")).map(|row| row.split_whitespace().skip(1).map(|c| c.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 2, "{text}");
    for cols in &rows {
        // threads, events, events/s, wall s, peak MB, mean slowdown: all positive.
        assert_eq!(cols.len(), 6);
        assert!(cols.iter().all(|&c| c > 0.0), "{text}");
        assert_eq!(cols[0], 1.0, "a closed-loop run uses one thread: {text}");
    }
    assert_eq!((rows[0][1], rows[0][5]), (rows[1][1], rows[1][5]), "the same events and mean slowdown: {text}");
}

#[test]
fn run_splits_between_threads_with_the_same_bytes() {
    // Issue 20: `--threads 2` splits the default fabric and writes the
    // bytes one thread writes; a scenario that cannot be split says why.
    let dir = std::env::temp_dir().join(format!("dcsim-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut csvs = Vec::new();
    for t in ["1", "2"] {
        let (f, s) = (dir.join(format!("flows{t}.csv")), dir.join(format!("summary{t}.csv")));
        let o = dcsim(&[
            "run",
            &scenario("websearch-leaf-spine.json"),
            "--flows",
            "300",
            "--threads",
            t,
            "--flows-csv",
            f.to_str().unwrap(),
            "--summary-csv",
            s.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains(&format!("{t} thread")), "{text}");
        csvs.push((std::fs::read(&f).unwrap(), std::fs::read(&s).unwrap()));
    }
    assert!(csvs[0] == csvs[1], "the CSVs differ between 1 and 2 threads");
    let o = dcsim(&["run", &scenario("incast-one-request.json"), "--threads", "2"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("one thread: a closed-loop workload"));
    let o = dcsim(&["run", &scenario("incast-one-request.json"), "--threads", "0"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--threads"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Parses CSV text into rows of cells (RFC 4180).
fn csv_cells(text: &str) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
    r.records().map(|x| x.unwrap().iter().map(str::to_string).collect()).collect()
}

#[test]
fn hostile_scenario_names_are_text_in_every_csv() {
    // A scenario name (or a label from a share link) a spreadsheet would run.
    for (name, cell) in [("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"), ("-1+2", "'-1+2"), ("@SUM(A1)", "'@SUM(A1)")] {
        let f = tmp("hostile.json");
        std::fs::write(&f, serde_json::json!({"name": name, "topology": {"kind": "single_rack", "hosts": 4}, "workload": {"flows": 5}}).to_string()).unwrap();
        let summary = tmp("hostile-summary.csv");
        let o = dcsim(&["run", f.to_str().unwrap(), "-q", "--summary-csv", summary.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let rows = csv_cells(&std::fs::read_to_string(&summary).unwrap());
        assert_eq!(rows[1][0], cell);
        // The varied value is a text cell too (--vary splits at commas);
        // the load stays a number.
        let (name, cell) = (name.replace(',', ";"), cell.replace(',', ";"));
        let o = dcsim(&["sweep", f.to_str().unwrap(), "--vary", &format!("name={name}"), "--loads", "0.5", "--jobs", "1"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let rows = csv_cells(&String::from_utf8(o.stdout).unwrap());
        assert_eq!(rows[0][..2], ["name", "scenario"]);
        assert_eq!(rows[1][..4], [cell.as_str(), &cell, "pfabric", "0.5"]);
    }
}

#[test]
fn a_run_in_which_no_flow_arrives_says_so() {
    // The first flow arrives one mean gap after time zero: far beyond 1 ps.
    let f = tmp("no-arrivals.json");
    std::fs::write(&f, r#"{"name":"early","max_time_ms":0.000001,"workload":{"flows":50}}"#).unwrap();
    let path = f.to_str().unwrap();
    for proto in ["pfabric", "ideal", "dctcp"] {
        let o = dcsim(&["run", path, "--protocol", proto, "-q"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains("no flow arrived before the time limit"), "{proto}: {text}");
        assert!(!text.contains("UNSTABLE") && !text.contains("mean slowdown"), "{proto}: {text}");
        let o = dcsim(&["run", path, "--protocol", proto, "-q", "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!((v["flows"].as_u64(), v["stop"].as_str(), v["stable"].as_bool()), (Some(0), Some("time_limit"), Some(false)), "{proto}");
        assert!(v["note"].as_str().unwrap().starts_with("no flow arrived before the time limit"));
        let csv = tmp("no-arrivals.csv");
        dcsim(&["run", path, "--protocol", proto, "-q", "--summary-csv", csv.to_str().unwrap()]);
        let rows = csv_cells(&std::fs::read_to_string(&csv).unwrap());
        let col = |name: &str| rows[1][rows[0].iter().position(|h| h == name).unwrap()].clone();
        assert_eq!(
            (col("flows"), col("mean_slowdown"), col("p99_slowdown"), col("stopped_by")),
            ("0".into(), "".into(), "".into(), "time_limit".into()),
            "{proto}"
        );
    }
    // A run cut short after some arrivals says which limit and how many finished.
    std::fs::write(&f, r#"{"name":"cut","max_time_ms":0.3,"workload":{"flows":500}}"#).unwrap();
    let text = String::from_utf8(dcsim(&["run", path, "-q"]).stdout).unwrap();
    assert!(text.contains("UNSTABLE: stopped by the time limit (max_time_ms) before the workload finished"), "{text}");
    assert!(text.contains("mean slowdown"), "{text}");
}

/// A fresh empty directory for one test.
fn fresh_dir(name: &str) -> PathBuf {
    let d = tmp(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The grid of the sharding tests: 2 protocols x 2 loads x 2 seeds, small.
const GRID: [&str; 8] = ["--protocols", "pfabric,dctcp", "--loads", "0.3,0.5", "--seeds", "1,2", "--flows", "60"];

#[test]
fn three_shards_merged_give_the_unsharded_sweeps_bytes() {
    let ws = scenario("websearch-leaf-spine.json");
    let whole = tmp("whole.csv");
    let o = dcsim(&[&["sweep", &ws][..], &GRID, &["-o", whole.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dir = fresh_dir("shards");
    let d = dir.to_str().unwrap();
    for m in 1..=3 {
        let o = dcsim(&[&["sweep", &ws][..], &GRID, &["--shard", &format!("{m}/3"), "--out-dir", d]].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stdout.is_empty(), "a shard writes files, not a CSV");
    }
    // 8 result files (content-addressed) and the plan.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 9);
    let merged = tmp("merged.csv");
    let o = dcsim(&["sweep", "merge", d, "-o", merged.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&merged).unwrap(), std::fs::read(&whole).unwrap());

    // --skip-existing runs nothing when every result is there.
    let o = dcsim(&[&["sweep", &ws][..], &GRID, &["--shard", "2/3", "--out-dir", d, "--skip-existing"]].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("0 runs done, 3 already there"), "{}", String::from_utf8_lossy(&o.stderr));

    // A missing run is named, and merge refuses.
    let plan: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
    let lost = plan["runs"][5]["file"].as_str().unwrap();
    std::fs::remove_file(dir.join(lost)).unwrap();
    fails_with(&["sweep", "merge", d], &["1 of 8 runs has no result", "run 6 of 8 (protocol dctcp, load 0.3, seed 2", lost]);
    // Shard 3 of 3 holds run 6 (k = 5: 5 mod 3 = 2) and redoes only it.
    let o = dcsim(&[&["sweep", &ws][..], &GRID, &["--shard", "3/3", "--out-dir", d, "--skip-existing"]].concat());
    // One run: "1 run", not "1 runs".
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 run done, 1 already there"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = dcsim(&["sweep", "merge", d]);
    assert_eq!(o.stdout, std::fs::read(&whole).unwrap());

    // Another sweep may not share the directory; a shard needs one.
    fails_with(&[&["sweep", &ws][..], &GRID[..6], &["--flows", "61", "--shard", "1/3", "--out-dir", d]].concat(), &["plan.json", "another sweep"]);
    fails_with(&[&["sweep", &ws][..], &GRID, &["--shard", "1/3"]].concat(), &["shard 1/3", "--out-dir"]);
    fails_with(&[&["sweep", &ws][..], &GRID, &["--shard", "4/3", "--out-dir", d]].concat(), &["--shard 4/3", "M/N"]);
}

#[test]
fn array_job_environments_pick_the_shard() {
    let ws = scenario("websearch-leaf-spine.json");
    let run = |dir: &str, env: &[(&str, &str)]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_dcsim"));
        c.args([&["sweep", &ws][..], &GRID, &["--out-dir", dir]].concat());
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{env:?}: {}", String::from_utf8_lossy(&o.stderr));
        let mut files: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        files.sort();
        files
    };
    // The second task of a Slurm array numbered from 1, from 0, and a
    // Kubernetes Indexed Job's index 1: all shard 2 of 4, runs 2 and 6.
    let mut seen = Vec::new();
    for (i, env) in [
        vec![("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")],
        vec![("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "0"), ("SLURM_ARRAY_TASK_COUNT", "4")],
        vec![("JOB_COMPLETION_INDEX", "1"), ("DCSIM_SHARD_COUNT", "4")],
    ]
    .into_iter()
    .enumerate()
    {
        let dir = fresh_dir(&format!("env-shard-{i}"));
        let files = run(dir.to_str().unwrap(), &env);
        assert_eq!(files.len(), 3, "{env:?}: plan.json and 2 runs: {files:?}");
        seen.push(files);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:?}");
    let plan: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(tmp("env-shard-0").join("plan.json")).unwrap()).unwrap();
    let expected: Vec<&str> = [1, 5].iter().map(|&k| plan["runs"][k]["file"].as_str().unwrap()).collect();
    assert!(expected.iter().all(|f| seen[0].iter().any(|s| s == f)), "{expected:?} {:?}", seen[0]);
}

#[test]
fn the_plan_runs_under_xargs_and_gnu_parallel_as_the_readme_says() {
    // README, "Sweeps on a cluster": the plan's lines through xargs -P (and
    // GNU parallel where it is installed), then merge.
    let ws = scenario("websearch-leaf-spine.json");
    let whole = String::from_utf8(dcsim(&[&["sweep", &ws][..], &GRID].concat()).stdout).unwrap();
    let exe = env!("CARGO_BIN_EXE_dcsim");
    let grid = GRID.join(" ");
    let mut runners = vec!["xargs -d '\\n' -n 1 -P 2 sh -c"];
    if Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success()) {
        runners.push("parallel -j 2");
    } else {
        eprintln!("GNU parallel not installed: only the xargs line is tested");
    }
    for runner in runners {
        let dir = fresh_dir("plan");
        let d = dir.to_str().unwrap();
        let plan = dcsim(&[&["sweep", &ws][..], &GRID, &["--out-dir", d, "--plan"]].concat());
        let lines = String::from_utf8(plan.stdout).unwrap();
        assert_eq!(lines.lines().count(), 8, "{lines}");
        assert!(lines.lines().all(|l| l.starts_with(exe) && l.contains("--shard ")), "{lines}");
        let sh = format!("'{exe}' sweep '{ws}' {grid} --out-dir '{d}' --plan | {runner} && '{exe}' sweep merge '{d}' -o '{d}/sweep.csv'");
        let o = Command::new("sh").arg("-c").arg(&sh).output().unwrap();
        assert!(o.status.success(), "{sh}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(std::fs::read_to_string(dir.join("sweep.csv")).unwrap(), whole, "{runner}");
    }
}

/// The variables of array jobs and Slurm allocations that `dcsim sweep`
/// reads: cleared before each run of the tests below, so that a test run
/// inside a Slurm job sees only what the test sets.
const ARRAY_VARS: [&str; 9] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_CPUS_PER_TASK",
    "SLURM_CPUS_ON_NODE",
    "JOB_COMPLETION_INDEX",
    "DCSIM_SHARD_COUNT",
];

/// `dcsim ARGS` with exactly the array variables `env` (see [`ARRAY_VARS`]).
fn dcsim_in(args: &[&str], env: &[(&str, String)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dcsim"));
    c.args(args);
    for k in ARRAY_VARS {
        c.env_remove(k);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("dcsim runs")
}

/// What Slurm 22.05 sets in task `id` of an array whose ids run from `min`
/// to `max` by `step` in `count` tasks (seen on a real Slurm: see
/// tests/cluster/slurm.sh). `--array=1,3,7` is min 1, max 7, step 1, count 3.
fn slurm_task(id: i64, min: i64, max: i64, step: i64, count: i64) -> Vec<(&'static str, String)> {
    [
        ("SLURM_ARRAY_TASK_ID", id),
        ("SLURM_ARRAY_TASK_MIN", min),
        ("SLURM_ARRAY_TASK_MAX", max),
        ("SLURM_ARRAY_TASK_STEP", step),
        ("SLURM_ARRAY_TASK_COUNT", count),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_string()))
    .collect()
}

/// The result files of a sweep's output directory, sorted, with their
/// modification times: what a task wrote or left alone.
fn results_in(dir: &std::path::Path) -> Vec<(String, std::time::SystemTime)> {
    let mut files: Vec<(String, std::time::SystemTime)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() != "plan.json")
        .map(|e| (e.file_name().into_string().unwrap(), e.metadata().unwrap().modified().unwrap()))
        .collect();
    files.sort();
    files
}

#[test]
fn part_of_an_array_resubmitted_is_refused_and_the_whole_range_reruns_only_the_missing() {
    // Issue 30: a task learns its id, MIN, MAX, STEP and COUNT, not the
    // list. `sbatch --array=2` after `--array=0-3` (COUNT 1) used to run the
    // whole sweep in that task, and `--array=1,3,7` ran task 3 as shard 3/3.
    let ws = scenario("websearch-leaf-spine.json");
    let whole = String::from_utf8(dcsim_in(&[&["sweep", &ws][..], &GRID].concat(), &[]).stdout).unwrap();
    let dir = fresh_dir("partial");
    let d = dir.to_str().unwrap();
    let args = [&["sweep", &ws][..], &GRID, &["--out-dir", d, "--skip-existing"]].concat();
    for id in 0..4 {
        let o = dcsim_in(&args, &slurm_task(id, 0, 3, 1, 4));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let plan: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
    assert_eq!((plan["array"]["tasks"].as_u64(), plan["array"]["submitted"].as_str()), (Some(4), Some("--array=0-3")), "{}", plan["array"]);
    // Shard 3/4 (task 2) holds runs 3 and 7: lose run 7.
    let lost = plan["runs"][6]["file"].as_str().unwrap().to_string();
    std::fs::remove_file(dir.join(&lost)).unwrap();
    let before = results_in(&dir);
    let plan_before = std::fs::read(dir.join("plan.json")).unwrap();

    // The partial resubmissions fail, name the fix, and write nothing.
    let o = dcsim_in(&args, &slurm_task(2, 2, 2, 1, 1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "--array=2 ran: {err}");
    for needle in ["SLURM_ARRAY_TASK_COUNT=1", "array of 4 tasks (--array=0-3)", "resubmit the whole --array=0-3 (4 tasks) with --skip-existing", "--shard 3/4"]
    {
        assert!(err.contains(needle), "`{needle}` not in: {err}");
    }
    for id in [1, 3, 7] {
        let o = dcsim_in(&args, &slurm_task(id, 1, 7, 1, 3));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "task {id} of --array=1,3,7 ran: {err}");
        assert!(err.contains("not an evenly spaced range") && err.contains("--array=0-3") && err.contains("--skip-existing"), "{err}");
    }
    assert_eq!(results_in(&dir), before, "a refused task wrote results");
    assert_eq!(std::fs::read(dir.join("plan.json")).unwrap(), plan_before, "a refused task rewrote the plan");

    // The fix: the whole range again; only task 2 has a run to do.
    for id in 0..4 {
        let o = dcsim_in(&args, &slurm_task(id, 0, 3, 1, 4));
        let err = String::from_utf8_lossy(&o.stderr);
        let expect = if id == 2 { "1 run done, 1 already there" } else { "0 runs done, 2 already there" };
        assert!(err.contains(expect), "task {id}: {err}");
    }
    let after = results_in(&dir);
    assert_eq!(after.len(), 8);
    assert!(before.iter().all(|f| after.contains(f)), "a result that was there was written again");
    assert_eq!(String::from_utf8(dcsim_in(&["sweep", "merge", d], &[]).stdout).unwrap(), whole);
    // Or one shard by hand with the original N, as the message says.
    std::fs::remove_file(dir.join(&lost)).unwrap();
    let o = dcsim_in(&[&args[..], &["--shard", "3/4"]].concat(), &[]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 run done, 1 already there"), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8(dcsim_in(&["sweep", "merge", d], &[]).stdout).unwrap(), whole);

    // A larger array, all of it, is a whole resubmission: it runs, and is
    // recorded, so that part of it is refused in turn.
    let o = dcsim_in(&args, &slurm_task(9, 2, 9, 1, 8));
    assert!(o.status.success() && String::from_utf8_lossy(&o.stderr).contains("shard 8/8"), "{}", String::from_utf8_lossy(&o.stderr));
    let plan: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
    assert_eq!(plan["array"]["submitted"].as_str(), Some("--array=2-9"));
    let o = dcsim_in(&args, &slurm_task(1, 0, 3, 1, 4));
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("array of 8 tasks (--array=2-9)"), "{}", String::from_utf8_lossy(&o.stderr));

    // Kubernetes: a DCSIM_SHARD_COUNT smaller than the Job's first one.
    let kdir = fresh_dir("partial-k8s");
    let kd = kdir.to_str().unwrap();
    let kargs = [&["sweep", &ws][..], &GRID, &["--out-dir", kd, "--skip-existing"]].concat();
    let k8s = |i: &str, n: &str| vec![("JOB_COMPLETION_INDEX", i.to_string()), ("DCSIM_SHARD_COUNT", n.to_string())];
    assert!(dcsim_in(&kargs, &k8s("0", "4")).status.success());
    let o = dcsim_in(&kargs, &k8s("0", "1"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("DCSIM_SHARD_COUNT=1") && err.contains("--shard M/4"), "{err}");
}

#[test]
fn the_default_jobs_are_the_cpus_slurm_gave_never_more_than_the_cores_allowed() {
    // Issue 30: without --jobs a task took every core of the node, whatever
    // --cpus-per-task said (TaskPlugin=task/none does not pin it), and
    // `--jobs "$SLURM_CPUS_PER_TASK"` was a clap error without it.
    let ws = scenario("websearch-leaf-spine.json");
    let dir = fresh_dir("jobs");
    let d = dir.to_str().unwrap();
    let args = [&["sweep", &ws][..], &GRID, &["--out-dir", d, "--shard", "1/8"]].concat();
    let cores = std::thread::available_parallelism().unwrap().get();
    let said = |extra: &[&str], env: &[(&str, String)]| {
        let o = dcsim_in(&[&args[..], extra].concat(), env);
        assert!(o.status.success(), "{extra:?} {env:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stderr).unwrap()
    };
    let cpus = |k: &'static str, v: &str| vec![(k, v.to_string())];
    assert!(said(&[], &cpus("SLURM_CPUS_PER_TASK", "1")).contains("up to 1 at a time (SLURM_CPUS_PER_TASK=1)"));
    // More than the process may use: capped.
    let e = said(&[], &cpus("SLURM_CPUS_PER_TASK", "4096"));
    assert!(e.contains(&format!("up to {cores} at a time (SLURM_CPUS_PER_TASK=4096, but this process may run on {cores} core")), "{e}");
    // No --cpus-per-task: the job's CPUs on the node.
    assert!(said(&[], &cpus("SLURM_CPUS_ON_NODE", "1")).contains("up to 1 at a time (SLURM_CPUS_ON_NODE=1)"));
    // The README's `--jobs "$SLURM_CPUS_PER_TASK"` when Slurm sets nothing.
    let e = said(&["--jobs", ""], &cpus("SLURM_CPUS_ON_NODE", "1"));
    assert!(e.contains("up to 1 at a time (SLURM_CPUS_ON_NODE=1)"), "{e}");
    assert!(said(&["--jobs", "3"], &cpus("SLURM_CPUS_PER_TASK", "1")).contains("up to 3 at a time (--jobs)"));
    fails_with(&[&args[..], &["--jobs", "0"]].concat(), &["--jobs", "at least 1"]);
    fails_with(&[&args[..], &["--jobs", "many"]].concat(), &["--jobs", "number of parallel runs"]);
    let o = dcsim_in(&args, &cpus("SLURM_CPUS_PER_TASK", "two"));
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("SLURM_CPUS_PER_TASK=two"));
    // Outside Slurm: the CPU affinity, as taskset narrows it.
    if Command::new("taskset").arg("--version").output().is_ok_and(|o| o.status.success()) {
        let mut c = Command::new("taskset");
        c.args(["-c", "0", env!("CARGO_BIN_EXE_dcsim")]).args(&args);
        for k in ARRAY_VARS {
            c.env_remove(k);
        }
        let o = c.output().unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("up to 1 at a time (the 1 core this process may run on)"), "{e}");
    } else {
        eprintln!("taskset not installed: the affinity case is not tested");
    }
    assert!(said(&[], &[]).contains(&format!("up to {cores} at a time (the {cores} core")));
}

#[test]
fn the_cluster_page_shows_the_tested_sbatch_script_as_it_is() {
    // docs/cluster.md quotes the script tests/cluster/slurm.sh submits.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = std::fs::read_to_string(root.join("scripts/slurm/sweep.sbatch")).unwrap();
    let page = std::fs::read_to_string(root.join("docs/cluster.md")).unwrap();
    assert!(page.contains(&format!("```bash\n{script}```\n")), "docs/cluster.md does not show scripts/slurm/sweep.sbatch as it is");
    // And the script relies on the --jobs default, not on a variable
    // Slurm sets only with --cpus-per-task.
    assert!(script.lines().filter(|l| !l.starts_with('#')).all(|l| !l.contains("--jobs")), "{script}");
}
