//! What-if branches (issue 16): a run that follows a base scenario up to a
//! time, then changes one thing and goes on. A branch is described by the
//! base scenario plus `branch: {name, at_us, change}` in the scenario file,
//! so it is reproducible from that description alone (`dcsim run` runs it;
//! the page's share link and lessons carry it).
//!
//! Up to `at_us` a branch is the base run itself: the branch's state at
//! `at_us` is the state after every base event at or before `at_us`; the
//! change applies then, before any later event.
//!
//! Changes:
//! * `buffer_bytes`: every port's buffer limit becomes this many bytes
//!   (packets already buffered stay; arrivals are dropped until there is
//!   room). The protocol's own parameters are unchanged.
//! * a fault (`link_down`, `switch_down`, `drop_next`, ... as in
//!   `faults`): it happens at `at_us` (`crate::fault`).
//! * `protocol`: another protocol on the same arrivals. A protocol's state
//!   (windows, tokens, arbitration) cannot carry over to another
//!   protocol, so this branch runs the other protocol from time zero: its
//!   divergence time is 0 whatever `at_us` says.

use crate::fault::FaultKind;
use crate::protocol::ProtocolName;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A what-if branch of a run: the base scenario up to `at_us`, then
/// `change`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BranchSpec {
    /// What the branch asks ("what if the buffers were 20 KB?"); shown on
    /// the page and appended to the scenario name in summaries and CSVs.
    pub name: String,
    /// When the change applies, microseconds of simulated time (>= 0).
    pub at_us: f64,
    /// What changes.
    pub change: BranchChange,
}

/// One change a branch makes. In a file: `{"kind": "buffer_bytes",
/// "bytes": N}`, `{"kind": "protocol", "protocol": P}`, or any fault of a
/// scenario's `faults` without its `at_us`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum BranchChange {
    /// Every port's buffer limit becomes `bytes` (at least one MTU).
    BufferBytes {
        /// The new buffer limit per port, bytes.
        bytes: u64,
    },
    /// Another protocol on the same arrivals, from time zero (see the
    /// module documentation).
    Protocol {
        /// The protocol the branch runs.
        protocol: ProtocolName,
    },
    /// A fault at `at_us` (`link_down`, `link_up`, `switch_down`,
    /// `switch_up`, `drop_next`, with the fields they have in a scenario's
    /// `faults`; `crate::fault`).
    #[serde(untagged)]
    Fault(FaultKind),
}

/// The changes that are not faults, as read from a file (`BranchChange`
/// reads a fault as a [`FaultKind`]).
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum SettingChange {
    BufferBytes { bytes: u64 },
    Protocol { protocol: ProtocolName },
}

impl<'de> Deserialize<'de> for BranchChange {
    // By hand: serde's untagged variants lose the reason of an error
    // ("data did not match any variant"); this names the field.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let v = serde_json::Value::deserialize(d)?;
        match v.get("kind").and_then(|k| k.as_str()) {
            Some(k) if BranchChange::SETTING_KINDS.contains(&k) => serde_json::from_value::<SettingChange>(v).map(|c| match c {
                SettingChange::BufferBytes { bytes } => BranchChange::BufferBytes { bytes },
                SettingChange::Protocol { protocol } => BranchChange::Protocol { protocol },
            }),
            Some(k) if FaultKind::NAMES.contains(&k) => serde_json::from_value::<FaultKind>(v).map(BranchChange::Fault),
            Some(k) => {
                let known = [&BranchChange::SETTING_KINDS[..], &FaultKind::NAMES[..]].concat();
                return Err(D::Error::custom(format!("unknown change kind `{k}`, expected one of {}", known.join(", "))));
            }
            None => return Err(D::Error::custom("missing field `kind`")),
        }
        .map_err(D::Error::custom)
    }
}

impl BranchChange {
    /// The `kind` of every change that is a setting, not a fault (the
    /// others are [`FaultKind::NAMES`]). With those, the one list of
    /// change kinds: the deserializer reads it and `dcsim names` exports
    /// it to the page; a test checks it against the enum's schema.
    pub const SETTING_KINDS: [&'static str; 2] = ["buffer_bytes", "protocol"];

    /// The fault this change is, if it is one.
    pub fn fault(&self) -> Option<&FaultKind> {
        match self {
            BranchChange::Fault(k) => Some(k),
            _ => None,
        }
    }
}

/// Largest buffer a branch may set, bytes (1 GB: beyond it nothing drops
/// on these networks and the number is most likely a typo).
pub const MAX_BUFFER_BYTES: u64 = 1 << 30;

impl BranchSpec {
    /// Checks the branch; errors name the field (`branch.at_us`, ...).
    pub fn validate(&self) -> Result<(), String> {
        if self.name.trim().is_empty() || self.name.len() > 120 {
            return Err("branch.name: must be 1 to 120 characters".into());
        }
        if !(self.at_us.is_finite() && self.at_us >= 0.0 && self.at_us <= 3.6e9) {
            return Err(format!("branch.at_us: must be a time in microseconds >= 0, got {}", self.at_us));
        }
        match self.change {
            BranchChange::BufferBytes { bytes } if !(crate::units::MTU as u64..=MAX_BUFFER_BYTES).contains(&bytes) => {
                Err(format!("branch.change.bytes: must be from one MTU ({} bytes) to {MAX_BUFFER_BYTES}, got {bytes}", crate::units::MTU))
            }
            _ => Ok(()),
        }
    }

    /// Simulated time at which the branch leaves its base, picoseconds (0
    /// for a protocol change, which runs from the start).
    pub fn divergence_ps(&self) -> u64 {
        match self.change {
            BranchChange::Protocol { .. } => 0,
            _ => crate::units::SimTime::from_us_f64(self.at_us).ps(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BranchChange, SettingChange};
    use crate::fault::{schema_kinds, FaultKind};

    #[test]
    fn the_setting_kinds_are_the_kinds_of_the_enum() {
        // A setting added to `SettingChange` without its name in
        // `SETTING_KINDS` would never be read: this fails instead.
        let mut names: Vec<String> = BranchChange::SETTING_KINDS.iter().map(|s| s.to_string()).collect();
        names.sort();
        assert_eq!(schema_kinds(schemars::schema_for!(SettingChange)), names);
    }

    #[test]
    fn every_kind_is_read_and_an_unknown_one_is_named() {
        for k in BranchChange::SETTING_KINDS.iter().chain(FaultKind::NAMES.iter()) {
            let e = serde_json::from_str::<BranchChange>(&format!("{{\"kind\": \"{k}\"}}")).unwrap_err().to_string();
            assert!(!e.contains("unknown change kind"), "{k}: {e}");
        }
        let e = serde_json::from_str::<BranchChange>(r#"{"kind": "meteor"}"#).unwrap_err().to_string();
        assert!(e.contains("unknown change kind `meteor`, expected one of buffer_bytes, protocol, link_down"), "{e}");
    }
}
