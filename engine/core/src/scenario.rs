//! Scenario files: everything that defines a run, as JSON (see
//! `scenarios/scenario.schema.json`, generated from these types by
//! `dcsim schema`). Unknown fields are errors, so a typo never silently
//! falls back to a default.

use crate::net::topology::TopologySpec;
/// How switches pick among equal-cost next hops (defined with the
/// network, which the simulation reads it from).
pub use crate::net::LoadBalancing;
use crate::net::Switching;
use crate::protocol::ProtocolParams;
/// Which protocol runs (defined below the scenario, so that the branch
/// spec names it without importing the scenario).
pub use crate::protocol_name::ProtocolName;
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

impl Scenario {
    /// Parses a scenario from JSON text; errors name the field, line and column.
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        let s: Scenario = serde_json::from_str(text).map_err(|e| format!("scenario: {e}"))?;
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
        self.params.fastpass.validate_for_hosts(net.n_hosts)?;
        self.check_rate_interval(&net)?;
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

    /// RCP and D3 update rates once per `rtt_us`: far below the network's
    /// round trip they react many times before any feedback returns, rates
    /// collapse and flows starve (D3 on a 250 us rack with the 10 us
    /// default sent over a billion refreshes). Refuses an interval under
    /// half the smallest round trip of link delays (hosts 0 and 1).
    fn check_rate_interval(&self, net: &crate::net::Network) -> Result<(), String> {
        let (field, rtt_us) = match self.protocol {
            ProtocolName::Rcp => ("params.rcp.rtt_us", self.params.rcp.rtt_us),
            ProtocolName::D3 => ("params.d3.rtt_us", self.params.d3.rtt_us),
            _ => return Ok(()),
        };
        if net.n_hosts < 2 {
            return Ok(());
        }
        let one_way: u64 = net.path(crate::ids::NodeId(0), crate::ids::NodeId(1)).iter().map(|p| net.ports[p.idx()].delay.ps()).sum();
        let round_trip_us = 2.0 * one_way as f64 / 1e6;
        if rtt_us < 0.5 * round_trip_us {
            return Err(format!(
                "{field}: {rtt_us} us is under half this network's smallest round trip ({round_trip_us} us of link delays between hosts 0 and 1); rates would be updated long before any feedback returns and flows starve: set it to about the round trip"
            ));
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
        let s = base.with_field("params.pdq.early_start", serde_json::json!(false)).unwrap();
        assert!(!s.params.pdq.early_start);
        assert!(s.params.pdq.early_termination);
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
