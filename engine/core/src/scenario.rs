//! Scenario files: everything that defines a run, as JSON (see
//! `scenarios/scenario.schema.json`, generated from these types by
//! `dcsim schema`). Unknown fields are errors, so a typo never silently
//! falls back to a default.

use crate::net::topology::TopologySpec;
/// How switches pick among equal-cost next hops (defined with the
/// network, which the simulation reads it from).
pub use crate::net::LoadBalancing;
use crate::net::Switching;
/// The protocols, listed once in `protocol/registry.rs`.
pub use crate::protocol::{ProtocolName, ProtocolParams};
use crate::workload::WorkloadSpec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn d_seed() -> u64 {
    1
}
fn d_protocol() -> ProtocolName {
    ProtocolName::Pfabric
}
fn d_max_time() -> f64 {
    60_000.0
}
fn d_max_events() -> u64 {
    5_000_000_000
}

/// A complete, reproducible description of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short name, used in CSV rows and file names.
    pub name: String,
    /// What the scenario shows, for the UI and the README.
    #[serde(default)]
    pub description: String,
    /// Random seed. Same scenario and seed give identical results. Default 1.
    #[serde(default = "d_seed")]
    pub seed: u64,
    /// The network. Default: the 144-host leaf-spine.
    #[serde(default)]
    pub topology: TopologySpec,
    /// Store-and-forward (default) or cut-through switching.
    #[serde(default)]
    pub switching: Switching,
    /// Per-packet spraying (default) or per-flow ECMP.
    #[serde(default)]
    pub load_balancing: LoadBalancing,
    /// The protocol to run. Default pfabric.
    #[serde(default = "d_protocol")]
    pub protocol: ProtocolName,
    /// Parameters of every protocol; only the running protocol's are used.
    /// Defaults are the papers' (pFabric Table 1).
    #[serde(default)]
    pub params: ProtocolParams,
    /// The flows.
    #[serde(default)]
    pub workload: WorkloadSpec,
    /// Stop the run at this simulated time (milliseconds) even if flows are
    /// unfinished; they are reported as incomplete. Default 60,000 ms.
    #[serde(default = "d_max_time")]
    pub max_time_ms: f64,
    /// Stop after this many events (a guard against runaway runs).
    #[serde(default = "d_max_events")]
    pub max_events: u64,
    /// Links and switches that fail and come back at given times (see
    /// `engine/core/src/fault.rs`). Default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<crate::fault::FaultSpec>,
    /// A what-if branch: this scenario up to `branch.at_us`, then one
    /// change (see `engine/core/src/branch.rs`). Absent for a plain run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<crate::branch::BranchSpec>,
}

/// A JSON error in words for a person: `what: FIELD: message`, where FIELD
/// is the dotted path of the value the error is about (`workload.load`,
/// `faults[1].at_us`), then "(line L, column C)" if the text has more than
/// one line. serde_json's own message ends "at line 1 column 656", which
/// points at nothing a person sees in a one-line text.
pub fn json_error(what: &str, text: &str, e: &serde_json::Error) -> String {
    let full = e.to_string();
    let msg = full.rsplit_once(" at line ").map_or(full.as_str(), |(m, _)| m);
    let path = if e.line() == 0 { String::new() } else { json_path_at(text, e.line(), e.column()) };
    let field = if path.is_empty() { String::new() } else { format!(" {path}:") };
    let place = if text.trim_end().contains('\n') && e.line() > 0 { format!(" (line {}, column {})", e.line(), e.column()) } else { String::new() };
    format!("{what}:{field} {msg}{place}")
}

/// The dotted path of the JSON value being read at `line` and `column`
/// (1-based, as serde_json counts them) of `text`: object keys joined by
/// dots, array indices in brackets (`faults[1].at_us`); empty at the top
/// level. A tokenizer of its own, enough for text that got that far.
pub fn json_path_at(text: &str, line: usize, column: usize) -> String {
    enum Frame {
        Object(Option<String>),
        Array(usize),
    }
    let mut stack: Vec<Frame> = Vec::new();
    let (mut l, mut c) = (1usize, 0usize);
    let mut chars = text.chars().peekable();
    // Whether the string being read is an object's key.
    let mut expect_key = false;
    while let Some(ch) = chars.next() {
        if ch == '\n' {
            l += 1;
            c = 0;
        } else {
            c += 1;
        }
        if l > line || (l == line && c >= column) {
            break;
        }
        match ch {
            '{' => {
                stack.push(Frame::Object(None));
                expect_key = true;
            }
            '[' => stack.push(Frame::Array(0)),
            '}' | ']' => {
                stack.pop();
            }
            ',' => match stack.last_mut() {
                Some(Frame::Object(k)) => {
                    *k = None;
                    expect_key = true;
                }
                Some(Frame::Array(i)) => *i += 1,
                None => {}
            },
            '"' => {
                let mut s = String::new();
                while let Some(x) = chars.next() {
                    c += 1;
                    match x {
                        '"' => break,
                        '\\' => {
                            if let Some(y) = chars.next() {
                                c += 1;
                                s.push(y);
                            }
                        }
                        '\n' => {
                            l += 1;
                            c = 0;
                        }
                        _ => s.push(x),
                    }
                }
                if expect_key {
                    if let Some(Frame::Object(k)) = stack.last_mut() {
                        *k = Some(s);
                    }
                    expect_key = false;
                }
            }
            _ => {}
        }
    }
    let mut path = String::new();
    for f in &stack {
        match f {
            Frame::Object(Some(k)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Frame::Object(None) => {}
            Frame::Array(i) => path.push_str(&format!("[{i}]")),
        }
    }
    path
}

impl Scenario {
    /// Parses a scenario from JSON text; an error names the field it is
    /// about (`workload.load: invalid type: ...`), and the line and column
    /// only when the text has more than one line (a line and column in a
    /// one-line text, as the page sends, would be a byte offset).
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        let s: Scenario = serde_json::from_str(text).map_err(|e| json_error("scenario", text, &e))?;
        s.validate()?;
        Ok(s)
    }

    /// A copy of this scenario with the field at the dotted `path` (for
    /// example `workload.matrix.fanout` or `params.pdq.early_start`) set to
    /// `value`, then checked as a scenario file is: an unknown field, a
    /// wrong type or a bad value is an error that names `path`. Objects
    /// missing along the path are created (their other fields keep their
    /// defaults). `dcsim sweep --vary` uses it.
    pub fn with_field(&self, path: &str, value: serde_json::Value) -> Result<Scenario, String> {
        let keys: Vec<&str> = path.split('.').collect();
        if keys.iter().any(|k| k.is_empty()) {
            return Err(format!("{path}: not a dotted field path such as workload.load"));
        }
        let mut v = serde_json::to_value(self).map_err(|e| format!("{path}: {e}"))?;
        let mut cur = &mut v;
        for k in &keys[..keys.len() - 1] {
            let obj = cur.as_object_mut().ok_or_else(|| format!("{path}: the value holding `{k}` is not an object"))?;
            cur = obj.entry(k.to_string()).or_insert_with(|| serde_json::json!({}));
        }
        let obj = cur.as_object_mut().ok_or_else(|| format!("{path}: the value holding `{}` is not an object", keys[keys.len() - 1]))?;
        obj.insert(keys[keys.len() - 1].to_string(), value);
        let s: Scenario = serde_json::from_value(v).map_err(|e| format!("{path}: {e}"))?;
        s.validate().map_err(|e| format!("{path}: {e}"))?;
        Ok(s)
    }

    /// Checks every value a run depends on; the error names the field and why.
    pub fn validate(&self) -> Result<(), String> {
        if self.name.trim().is_empty() {
            return Err("name: must not be empty".into());
        }
        self.topology.validate()?;
        let net = crate::net::topology::build(&self.topology);
        self.workload.validate(&net)?;
        self.params.validate()?;
        self.params.validate_for(&net, self.protocol)?;
        if !(self.max_time_ms.is_finite() && self.max_time_ms > 0.0 && self.max_time_ms <= 3.6e6) {
            return Err(format!("max_time_ms: must be in (0, 3600000], got {}", self.max_time_ms));
        }
        if self.max_events == 0 {
            return Err("max_events: must be at least 1".into());
        }
        for (i, f) in self.faults.iter().enumerate() {
            f.validate(&net, i)?;
        }
        if let Some(b) = &self.branch {
            b.validate()?;
            if let Some(k) = b.change.fault() {
                k.resolve(&net, "branch.change")?;
            }
        }
        Ok(())
    }

    /// The JSON Schema of scenario files.
    pub fn json_schema() -> String {
        let schema = schemars::schema_for!(Scenario);
        serde_json::to_string_pretty(&schema).unwrap() + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_object_needs_a_name_and_typos_are_rejected() {
        assert!(Scenario::from_json("{}").unwrap_err().contains("name"));
        let e = Scenario::from_json(r#"{"name":"x","workload":{"lod":0.5}}"#).unwrap_err();
        assert!(e.contains("lod"), "{e}");
    }

    #[test]
    fn a_json_error_names_the_field_not_a_byte_offset() {
        // One line, as the page sends it: the field, no "line 1 column N".
        let e = Scenario::from_json(r#"{"name":"x","workload":{"flows":10,"load":"high"}}"#).unwrap_err();
        assert!(e.starts_with("scenario: workload.load: invalid type: string"), "{e}");
        assert!(!e.contains("column"), "{e}");
        let e = Scenario::from_json(r#"{"name":"x","workload":{"lod":0.5}}"#).unwrap_err();
        assert!(e.starts_with("scenario: workload.lod: unknown field `lod`"), "{e}");
        // Array elements by index; a file of many lines keeps its line and column.
        let text = "{\n  \"name\": \"x\",\n  \"faults\": [\n    {\"kind\": \"link_down\", \"at_us\": 1, \"link\": [\"tor0\", \"spine0\"]},\n    {\"kind\": \"link_down\", \"at_us\": \"soon\", \"link\": [\"tor0\", \"spine0\"]}\n  ]\n}";
        let e = Scenario::from_json(text).unwrap_err();
        assert!(e.starts_with("scenario: faults[1]"), "{e}");
        assert!(e.contains("(line 5, column "), "{e}");
        assert_eq!(json_path_at(r#"{"a":{"b":[1,{"c":"x,}]"}],"d":2}}"#, 1, 22), "a.b[1].c");
        assert_eq!(json_path_at(r#"{"a":1}"#, 1, 1), "");
    }

    #[test]
    fn a_rate_interval_far_below_the_round_trip_is_refused() {
        // One rack at 1 Gbps with 62.5 us links: a 250 us round trip.
        let rack = r#"{"name":"x","topology":{"kind":"single_rack","hosts":4,"link_gbps":1,"propagation_ns":62500},"protocol":"d3"}"#;
        let e = Scenario::from_json(rack).unwrap_err();
        assert!(e.starts_with("params.d3.rtt_us") && e.contains("250 us"), "{e}");
        let ok =
            r#"{"name":"x","topology":{"kind":"single_rack","hosts":4,"link_gbps":1,"propagation_ns":62500},"protocol":"rcp","params":{"rcp":{"rtt_us":250}}}"#;
        Scenario::from_json(ok).unwrap();
        // The leaf-spine's round trip is under 1 us: the defaults pass.
        Scenario::from_json(r#"{"name":"x","protocol":"rcp"}"#).unwrap();
    }

    #[test]
    fn with_field_sets_a_nested_field_and_names_bad_paths() {
        let base = Scenario::from_json(r#"{"name":"x","workload":{"matrix":{"kind":"query_aggregation","fanout":3,"queries":2}}}"#).unwrap();
        let s = base.with_field("workload.matrix.fanout", serde_json::json!(7)).unwrap();
        assert_eq!(serde_json::to_value(&s.workload.matrix).unwrap()["fanout"], 7);
        assert_eq!(serde_json::to_value(&s.workload.matrix).unwrap()["queries"], 2, "the other fields stay");
        // A parameter block absent from the file is created with its defaults.
        let s = base.with_field("params.rcp.alpha", serde_json::json!(0.2)).unwrap();
        assert_eq!(s.params.rcp.alpha, 0.2);
        assert_eq!(s.params.rcp.beta, 1.0, "RCP paper's beta: the other fields keep their defaults");
        for (path, value, needle) in [
            ("workload.fanout", serde_json::json!(3), "unknown field"),
            ("workload.load", serde_json::json!(1.5), "workload.load"),
            ("workload.load", serde_json::json!("high"), "invalid type"),
            ("workload..load", serde_json::json!(0.5), "dotted"),
            ("seed.x", serde_json::json!(1), "not an object"),
        ] {
            let e = base.with_field(path, value).unwrap_err();
            assert!(e.starts_with(path) && e.contains(needle), "{path}: {e}");
        }
    }

    #[test]
    fn bad_values_name_the_field() {
        for (json, field) in [
            (r#"{"name":"x","workload":{"load":-0.1}}"#, "workload.load"),
            (r#"{"name":"x","workload":{"load":1.5}}"#, "workload.load"),
            (r#"{"name":"x","workload":{"flows":0}}"#, "workload.flows"),
            (r#"{"name":"x","workload":{"flows":999999999999}}"#, "workload.flows"),
            (r#"{"name":"x","topology":{"kind":"single_rack","hosts":0}}"#, "topology.hosts"),
            (r#"{"name":"x","params":{"pfabric":{"init_cwnd":0}}}"#, "params.pfabric.init_cwnd"),
            // Found by fuzzing (tests/fuzz.rs): a rate that rounds to 0 bps,
            // a delay past the clock, spines that exhaust memory.
            (r#"{"name":"x","topology":{"kind":"single_rack","hosts":2,"link_gbps":1e-12}}"#, "topology.link_gbps"),
            (r#"{"name":"x","topology":{"kind":"single_rack","hosts":2,"propagation_ns":1e15}}"#, "topology.propagation_ns"),
            (r#"{"name":"x","topology":{"kind":"leaf_spine","spines":100000000}}"#, "topology.spines"),
        ] {
            let e = Scenario::from_json(json).unwrap_err();
            assert!(e.contains(field), "{json}: {e}");
        }
    }

    #[test]
    fn defaults_are_the_pfabric_fabric() {
        let s = Scenario::from_json(r#"{"name":"x"}"#).unwrap();
        assert_eq!(s.topology.n_hosts(), 144);
        assert_eq!(s.protocol, ProtocolName::Pfabric);
        assert_eq!(s.params.pfabric.buffer_bytes, 36_000);
        assert_eq!(s.params.tcp.buffer_bytes, 225_000);
        assert_eq!(s.params.dctcp.ecn_threshold_bytes, 22_500);
    }
}
