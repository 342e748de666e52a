//! Fuzzing on stable Rust with proptest: random scenarios (structure-aware,
//! mostly valid, some bad) parsed, prepared and run to the end with the
//! conservation audit on, and raw or mutated JSON fed to the parser.
//!
//! Properties: nothing panics; a bad scenario is refused with a message
//! that names a field (or the JSON position); every run ends (small
//! `max_events` and `max_time_ms`, so a hang is impossible), and a limit
//! reached is said in the summary's note; packets are conserved (data
//! packets sent = delivered + dropped + in flight) and every completed flow
//! received exactly its bytes (the audit asserts it inside the run).
//!
//! The bounded version runs in the test suite (a few seconds). The
//! benchmark version (README, "What the tests check"):
//!
//! ```sh
//! FUZZ_PARSE_CASES=1000000 FUZZ_RUN_CASES=20000 \
//!   cargo test --release -p dcsim-core --test fuzz -- --ignored --nocapture
//! ```

use dcsim_core::scenario::ProtocolName;
use dcsim_core::sim::StopReason;
use dcsim_core::{prepare, RunOptions, Scenario};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// The repository's scenario schema: where the parameter names and types
/// the generator uses come from (so new parameters are fuzzed too).
fn schema() -> &'static Value {
    static S: OnceLock<Value> = OnceLock::new();
    S.get_or_init(|| {
        let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/scenario.schema.json");
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    })
}

/// (parameter name, JSON type, default) of each protocol's parameter block.
fn params_of(protocol: &str) -> Vec<(String, String, Value)> {
    let defs = &schema()["$defs"];
    let Some(r) = defs["ProtocolParams"]["properties"][protocol]["$ref"].as_str() else { return Vec::new() };
    let def = &defs[r.rsplit('/').next().unwrap()];
    def["properties"]
        .as_object()
        .map(|o| o.iter().map(|(k, v)| (k.clone(), v["type"].as_str().unwrap_or("enum").to_string(), v["default"].clone())).collect())
        .unwrap_or_default()
}

fn pick<T: Clone + std::fmt::Debug + 'static>(xs: &'static [T]) -> impl Strategy<Value = T> + Clone {
    proptest::sample::select(xs)
}

/// Integers: the usual, the edges, and bad ones.
const INTS: &[i64] = &[0, 1, 2, 3, 4, 8, 20, 64, 1460, 1500, 9000, 36_000, 225_000, 1 << 20, 4_294_967_296, -1];
/// Numbers: the usual, the edges, and bad ones.
const NUMS: &[f64] = &[0.0, 1e-9, 0.001, 0.1, 0.5, 0.9, 1.0, 1.5, 3.0, 10.0, 45.0, 250.0, 1e4, 1e12, 1e300, -1.0, -0.5];

/// A parameter's value: mostly its default scaled by a small factor (a
/// plausible setting), sometimes anything from the pools (bad ones too).
fn value_of(kind: &str, default: &Value) -> BoxedStrategy<Value> {
    let scaled = match (kind, default.as_f64()) {
        ("integer", Some(d)) => pick(&[0.25, 0.5, 1.0, 1.0, 2.0, 4.0]).prop_map(move |f| json!(((d * f).round() as i64).max(1))).boxed(),
        ("number", Some(d)) => pick(&[0.25, 0.5, 1.0, 1.0, 2.0, 4.0]).prop_map(move |f| json!(d * f)).boxed(),
        ("boolean", _) => any::<bool>().prop_map(Value::from).boxed(),
        _ => Just(default.clone()).boxed(),
    };
    prop_oneof![4 => scaled, 1 => any_value_of(kind)].boxed()
}

fn any_value_of(kind: &str) -> BoxedStrategy<Value> {
    match kind {
        "integer" => pick(INTS).prop_map(Value::from).boxed(),
        "number" => pick(NUMS).prop_map(Value::from).boxed(),
        "boolean" => any::<bool>().prop_map(Value::from).boxed(),
        // Enumerations: a known-good word is unlikely, a bad one names the field.
        _ => prop_oneof![Just(json!("bogus")), Just(json!(1)), Just(json!(null))].boxed(),
    }
}

/// A count of hosts or senders: mostly 2 to 7, sometimes 0 or 1.
fn small() -> impl Strategy<Value = u32> {
    prop_oneof![20 => 2u32..8, 1 => 0u32..2]
}

fn topology() -> impl Strategy<Value = Value> {
    // Rare bad values: a scenario has many of these, each may spoil it.
    let gbps = prop_oneof![30 => pick(&[1.0, 10.0, 40.0, 100.0]), 1 => pick(&[0.0, -1.0, 1e-12])];
    let prop = prop_oneof![30 => pick(&[0.0, 200.0, 1000.0, 62_500.0]), 1 => pick(&[-5.0, 1e15])];
    prop_oneof![
        4 => (1u32..4, 1u32..5, 1u32..3, gbps.clone(), gbps.clone(), prop.clone()).prop_map(|(r, h, s, a, b, p)| json!({"kind":"leaf_spine","racks":r,"hosts_per_rack":h,"spines":s,"host_link_gbps":a,"fabric_link_gbps":b,"propagation_ns":p})),
        2 => (small(), gbps.clone(), prop.clone()).prop_map(|(n, g, p)| json!({"kind":"single_bottleneck","senders":n,"link_gbps":g,"propagation_ns":p})),
        3 => (small(), gbps.clone(), prop.clone()).prop_map(|(n, g, p)| json!({"kind":"single_rack","hosts":n,"link_gbps":g,"propagation_ns":p})),
        1 => (proptest::collection::vec(1u32..4, 1..4), proptest::collection::vec(gbps, 1..4), prop).prop_map(|(mut b, mut g, p)| {
            // Usually as many rates as levels, with two hosts per ToR at least.
            if g.len() % 4 != 0 {
                g.resize(b.len(), 1.0);
                *b.last_mut().unwrap() += 1;
            }
            json!({"kind":"tree","branching":b,"link_gbps":g,"propagation_ns":p})
        }),
    ]
}

fn sizes() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => Just(json!({"kind":"cdf","name":"websearch"})),
        2 => Just(json!({"kind":"cdf","name":"datamining"})),
        1 => Just(json!({"kind":"cdf","name":"imc10"})),
        3 => (1u64..100_000, 0u64..1_000_000).prop_map(|(a, b)| json!({"kind":"uniform","min_bytes":a,"max_bytes":a + b})),
        2 => ((0u32..=10).prop_map(|f| f as f64 / 10.0), 1u32..5, 1u32..40).prop_map(|(f, s, l)| json!({"kind":"bimodal","short_fraction":f,"short_packets":s,"long_packets":l})),
        2 => (1u64..3_000_000).prop_map(|b| json!({"kind":"fixed","bytes":b})),
        1 => prop_oneof![
            Just(json!({"kind":"cdf","name":"nonexistent"})),
            Just(json!({"kind":"cdf","points":[[1, 0.0], [10, 0.5], [5, 1.0]]})),
            (pick(INTS), pick(INTS)).prop_map(|(a, b)| json!({"kind":"uniform","min_bytes":a,"max_bytes":b})),
            (pick(NUMS), 0u32..5, 0u32..40).prop_map(|(f, s, l)| json!({"kind":"bimodal","short_fraction":f,"short_packets":s,"long_packets":l})),
            pick(INTS).prop_map(|b| json!({"kind":"fixed","bytes":b})),
        ],
    ]
}

fn matrix() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => Just(json!({"kind":"all_to_all"})),
        1 => Just(json!({"kind":"permutation"})),
        1 => Just(json!({"kind":"intra_rack"})),
        1 => Just(json!({"kind":"left_right"})),
        1 => (small(), small(), 1u64..200_000).prop_map(|(s, q, b)| json!({"kind":"incast","senders":s / 2,"requests":q / 2,"request_bytes":b})),
        1 => (small(), small()).prop_map(|(f, q)| json!({"kind":"query_aggregation","fanout":f / 2,"queries":q / 2})),
        1 => Just(json!({"kind":"many_to_one"})),
        1 => (small(), proptest::collection::vec(small(), 0..4)).prop_map(|(r, s)| json!({"kind":"many_to_one","receiver":r / 2,"senders":s.iter().map(|x| x / 2).collect::<Vec<_>>()})),
    ]
}

fn faults() -> impl Strategy<Value = Value> {
    let at = pick(&[0.0, 5.0, 50.0, 500.0, 5.0, 50.0, -1.0]);
    let node = pick(&["h0", "h1", "h2", "tor0", "tor1", "spine0", "switch", "sw0", "nope"]);
    let one = prop_oneof![
        (at.clone(), node.clone(), node.clone()).prop_map(|(t, a, b)| json!({"at_us":t,"kind":"link_down","link":[a,b]})),
        (at.clone(), node.clone(), node.clone()).prop_map(|(t, a, b)| json!({"at_us":t,"kind":"link_up","link":[a,b]})),
        (at.clone(), node.clone()).prop_map(|(t, a)| json!({"at_us":t,"kind":"switch_down","node":a})),
        (at.clone(), node.clone()).prop_map(|(t, a)| json!({"at_us":t,"kind":"switch_up","node":a})),
        (at, 0u32..6, node.clone(), node).prop_map(|(t, f, a, b)| json!({"at_us":t,"kind":"drop_next","flow":f,"port":[a,b]})),
    ];
    prop_oneof![3 => Just(json!([])), 1 => proptest::collection::vec(one, 1..3).prop_map(Value::from)]
}

/// A random scenario as JSON: small, every protocol, random parameters of
/// the running protocol (bad ones included), sometimes faults or a branch.
fn scenario() -> impl Strategy<Value = Value> {
    let protocol = pick(&ProtocolName::ALL).prop_map(|p| p.as_str());
    let load = prop_oneof![20 => (1u32..100).prop_map(|l| l as f64 / 100.0), 1 => pick(NUMS)];
    let flows = prop_oneof![20 => 1u64..12, 1 => Just(0u64)];
    (protocol, topology(), sizes(), matrix(), load, flows, any::<u64>(), faults(), any::<bool>())
        .prop_flat_map(|(p, topo, sizes, matrix, load, flows, seed, faults, all_at_zero)| {
            let params = params_of(p);
            let chosen = proptest::sample::subsequence(params.clone(), 0..=params.len().min(3));
            let branch = prop_oneof![
                6 => Just(Value::Null),
                1 => (pick(&[0.0, 3.0, 30.0]), prop_oneof![4 => 1500i64..200_000, 1 => pick(INTS)]).prop_map(|(t, b)| json!({"name":"b","at_us":t,"change":{"kind":"buffer_bytes","bytes":b}})),
                1 => pick(&ProtocolName::ALL).prop_map(|q| json!({"name":"b","at_us":1.0,"change":{"kind":"protocol","protocol":q.as_str()}})),
            ];
            (chosen.prop_flat_map(|c| c.into_iter().map(|(k, t, d)| value_of(&t, &d).prop_map(move |v| (k.clone(), v))).collect::<Vec<_>>()), branch, pick(&[0.01, 0.1, 1.0, 20.0]), 1u64..50_000).prop_map(
                move |(ps, branch, max_ms, max_events)| {
                    let mut block = Map::new();
                    block.extend(ps);
                    let mut s = json!({
                        "name": "fuzz", "protocol": p, "seed": seed, "topology": topo,
                        "workload": {"sizes": sizes, "matrix": matrix, "load": load, "flows": flows, "all_at_zero": all_at_zero},
                        "faults": faults, "max_time_ms": max_ms, "max_events": max_events,
                    });
                    if !block.is_empty() {
                        s["params"] = json!({p: block});
                    }
                    if !branch.is_null() {
                        s["branch"] = branch;
                    }
                    s
                },
            )
        })
}

/// What one generated scenario did.
#[derive(Default, Debug)]
struct Tally {
    refused: u64,
    ran: u64,
    time_limit: u64,
    event_limit: u64,
}

/// Parses, prepares and runs `text` with the audit; checks the properties.
fn check_run(text: &str, t: &mut Tally) -> Result<(), TestCaseError> {
    remember(text);
    let s = match Scenario::from_json(text) {
        Ok(s) => s,
        Err(e) => {
            t.refused += 1;
            if std::env::var("FUZZ_SHOW").is_ok() {
                eprintln!("refused: {e}");
            }
            // The message names what is wrong: a field path or a JSON position.
            prop_assert!(e.contains(':') && e.len() > 10, "vague error `{e}` for {text}");
            return Ok(());
        }
    };
    let r = match prepare(&s, RunOptions { trace: false, audit: true }) {
        Ok(r) => r,
        Err(e) => {
            t.refused += 1;
            prop_assert!(e.contains(':'), "vague error `{e}` for {text}");
            return Ok(());
        }
    };
    let o = r.finish();
    t.ran += 1;
    let c = &o.counters;
    let dropped: u64 = c.data_dropped.iter().sum();
    prop_assert_eq!(c.data_sent, c.data_delivered + dropped + c.data_in_flight, "data packets sent = delivered + dropped + in flight: {}", text);
    // Flow-level schedulers (ideal, optimal_deadline) take a bounded number
    // of steps per flow and do not count events against `max_events`; a
    // flow whose last byte left before `max_time_ms` ends one path latency
    // later, possibly past it (protocol/ideal/).
    let packet_level = !ProtocolName::parse(&o.summary.protocol).map_or(true, |p| p.is_flow_level());
    // A run stops at the end of the lookahead cell in which it reached
    // the event limit (so that split runs stop where one thread does), or,
    // stuck at one instant, once past twice the limit (at least 10^6 more).
    let runaway = s.max_events.saturating_add(s.max_events.max(1_000_000));
    prop_assert!(!packet_level || o.summary.events <= runaway, "{} events, far over the limit {}", o.summary.events, s.max_events);
    prop_assert!(
        !packet_level || o.summary.events <= s.max_events || matches!(o.stop, StopReason::EventLimit | StopReason::AllFlowsDone),
        "{} events over the limit {}, stopped by {:?}",
        o.summary.events,
        s.max_events,
        o.stop
    );
    prop_assert!(!packet_level || o.summary.sim_time_us <= s.max_time_ms * 1000.0 + 1e-6, "ran past the time limit");
    prop_assert_eq!(o.summary.completed as usize, o.records.iter().filter(|r| !r.background && r.end.is_some()).count());
    match o.stop {
        StopReason::TimeLimit | StopReason::EventLimit => {
            if o.stop == StopReason::TimeLimit {
                t.time_limit += 1
            } else {
                t.event_limit += 1
            }
            let note = o.summary.note.clone().unwrap_or_default();
            prop_assert!(note.contains("limit"), "a run cut short by {:?} says so, got note `{}`", o.stop, note);
        }
        _ => {}
    }
    Ok(())
}

fn config(cases: u32) -> Config {
    Config { cases, failure_persistence: None, ..Config::default() }
}

fn env_cases(var: &str, default: u32) -> u32 {
    std::env::var(var).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn fuzz_runs(cases: u32) -> Tally {
    let mut tally = Tally::default();
    let mut runner = TestRunner::new(config(cases));
    let t = std::cell::RefCell::new(&mut tally);
    runner.run(&scenario(), |v| check_run(&v.to_string(), &mut t.borrow_mut())).unwrap();
    tally
}

/// Byte-level mutations of a JSON text: delete, insert or replace a span.
fn mutated() -> impl Strategy<Value = String> {
    let base = prop_oneof![scenario().prop_map(|v| v.to_string()), pick(seed_files()).prop_map(str::to_string)];
    (base, proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<u8>(), 0usize..8), 1..4)).prop_map(|(text, edits)| {
        let mut b = text.into_bytes();
        for (at, op, byte, len) in edits {
            let i = at.index(b.len() + 1);
            match op {
                0 => drop(b.drain(i..(i + len).min(b.len()))),
                1 => b.splice(i..i, std::iter::repeat_n(byte, len.max(1))).for_each(drop),
                _ if i < b.len() => b[i] = byte,
                _ => b.push(byte),
            }
        }
        String::from_utf8_lossy(&b).into_owned()
    })
}

/// The repository's scenario files, as mutation seeds.
fn seed_files() -> &'static [&'static str] {
    static S: OnceLock<Vec<&'static str>> = OnceLock::new();
    S.get_or_init(|| {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut v: Vec<&'static str> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("scenario.schema.json"))
            .map(|p| &*Box::leak(std::fs::read_to_string(p).unwrap().into_boxed_str()))
            .collect();
        v.sort();
        v
    })
}

/// With `FUZZ_LAST=path`, each case's text is written there before it is
/// tried: when the process dies (an abort, out of memory, a hang killed),
/// the file holds the culprit.
fn remember(text: &str) {
    static PATH: OnceLock<Option<String>> = OnceLock::new();
    if let Some(p) = PATH.get_or_init(|| std::env::var("FUZZ_LAST").ok()) {
        std::fs::write(p, text).unwrap();
    }
}

/// Parses `text`: never a panic; a refusal names something.
fn check_parse(text: &str) -> Result<(), TestCaseError> {
    remember(text);
    if let Err(e) = Scenario::from_json(text) {
        prop_assert!(e.contains(':') && e.len() > 10, "vague error `{e}` for {text:?}");
    }
    Ok(())
}

fn fuzz_parse(cases: u32) {
    // Half mutated JSON, half raw strings (mostly JSON-ish characters).
    let mut runner = TestRunner::new(config(cases / 2));
    runner.run(&mutated(), |t| check_parse(&t)).unwrap();
    let mut runner = TestRunner::new(config(cases - cases / 2));
    runner.run(&"[{}\\[\\]\":,a-z0-9.\\-eE ]{0,200}|\\PC{0,100}", |t| check_parse(&t)).unwrap();
}

#[test]
fn random_scenarios_run_to_the_end_with_packets_conserved() {
    let t = fuzz_runs(env_cases("FUZZ_RUN_CASES", 150));
    eprintln!("fuzz runs: {t:?}");
    // The generator must reach the engine, not only its validation.
    assert!(t.ran * 5 >= t.ran + t.refused, "too few generated scenarios are valid: {t:?}");
}

#[test]
fn raw_and_mutated_json_never_panics_the_parser() {
    fuzz_parse(env_cases("FUZZ_PARSE_CASES", 3000));
}

/// The documented benchmark run (see the module doc): counts default to a
/// million parse cases and 20,000 full runs.
#[test]
#[ignore]
fn fuzz_benchmark() {
    let (parse, runs) = (env_cases("FUZZ_PARSE_CASES", 1_000_000), env_cases("FUZZ_RUN_CASES", 20_000));
    let t0 = std::time::Instant::now();
    fuzz_parse(parse);
    let tp = t0.elapsed().as_secs_f64();
    let t = fuzz_runs(runs);
    eprintln!("fuzz benchmark: {parse} parse cases in {tp:.0} s; {runs} scenario cases in {:.0} s: {t:?}", t0.elapsed().as_secs_f64() - tp);
}
