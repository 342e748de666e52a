//! Scenario files as the command line takes them: one read with the
//! overrides of its flags ([`load`]), and the folder of the standard ones
//! ([`find_scenarios`]).

use dcsim_core::scenario::{ProtocolName, Scenario};
use std::path::{Path, PathBuf};

/// Overrides of a scenario's values.
#[derive(clap::Args, Clone, Default)]
pub struct Overrides {
    /// Protocol name (tcp, dctcp, pfabric, rcp, ideal, phost, fastpass, ...; an unknown name lists them all).
    #[arg(long)]
    pub protocol: Option<String>,
    /// Offered load in (0, 1].
    #[arg(long, allow_hyphen_values = true)]
    pub load: Option<f64>,
    /// Number of flows (open-loop workloads).
    #[arg(long)]
    pub flows: Option<u64>,
    /// Random seed.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Reads the scenario at `path`, applies `o`, and validates it; an error
/// names the file and the field.
pub fn load(path: &Path, o: &Overrides) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut s: Scenario = serde_json::from_str(&text).map_err(|e| dcsim_core::scenario::json_error(&path.display().to_string(), &text, &e))?;
    if let Some(p) = &o.protocol {
        s.protocol = ProtocolName::parse(p).map_err(|e| format!("--{e}"))?;
    }
    if let Some(l) = o.load {
        s.workload.load = l;
    }
    if let Some(f) = o.flows {
        s.workload.flows = f;
    }
    if let Some(x) = o.seed {
        s.seed = x;
    }
    s.validate().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(s)
}

/// The folder of the standard scenarios: `dir` when given, else
/// ./scenarios, ../scenarios or the repository's (found from the
/// executable).
pub fn find_scenarios(dir: Option<PathBuf>) -> PathBuf {
    if let Some(d) = dir {
        return d;
    }
    let mut cands = vec![PathBuf::from("scenarios"), PathBuf::from("../scenarios")];
    if let Ok(exe) = std::env::current_exe() {
        // engine/target/release/dcsim -> repository root
        if let Some(root) = exe.ancestors().nth(4) {
            cands.push(root.join("scenarios"));
        }
    }
    cands.into_iter().find(|c| c.join("websearch-leaf-spine.json").exists()).unwrap_or_else(|| PathBuf::from("scenarios"))
}
