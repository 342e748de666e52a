//! Parameters of pHost and its timer profiles.

use crate::protocol::params::*;

defaults! {
    /// Strict-priority sub-queues per port: 8, as commodity switches have
    /// (pHost uses three of them, section 3.3).
    d_queues8: u32 = 8;
    /// Free tokens on arrival and unanswered tokens before a downgrade,
    /// packets: one BDP, 8 (pHost section 3.2).
    d_8: u32 = 8;
    /// Token lifetime, MTU-times: pHost section 3.2, 1.5.
    d_ttl: f64 = 1.5;
    /// Short-flow threshold, packets (the paper gives none): 69, about
    /// 100 KB, the papers' short-flow bucket.
    d_69: u32 = 69;
    /// Bytes of NIC time per token: MTU + one token, 1540 B, as the pHost
    /// authors' simulator.
    d_1540: u64 = 1540;
    /// First RTS retransmission timeout, microseconds (not in the paper):
    /// 100.
    d_rts_timeout: f64 = 100.0;
}
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a pHost destination picks the flow for its next token, and a
/// source the token to use (pHost paper section 3.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhostPolicy {
    /// Fewest remaining packets first (the paper's default).
    #[default]
    Srpt,
    /// Earliest deadline first (flows without a deadline last).
    Edf,
    /// The tenant granted (destination) or served (source) the fewest
    /// packets so far first, SRPT inside a tenant.
    TenantFair,
}

/// pHost (docs/protocols/phost.md; pHost paper section 3). MTU-times are
/// the transmission time of 1500 B at the host's NIC (1.2 us at 10 Gbps).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhostParams {
    /// Buffer of every port, bytes, shared by its priority queues. pHost
    /// paper section 4.1: 36 KB, as pFabric.
    #[serde(default = "d_36k")]
    pub buffer_bytes: u64,
    /// Strict-priority sub-queues per port (commodity switches have 8);
    /// pHost uses three: control, short-flow data, long-flow data.
    #[serde(default = "d_queues8")]
    pub priority_queues: u32,
    /// Free tokens a source holds on flow arrival, packets (pHost section
    /// 3.2: one BDP, 8).
    #[serde(default = "d_8")]
    pub free_tokens: u32,
    /// Whether flows longer than `free_tokens` packets also start with
    /// `free_tokens` free packets. Default true, as the paper's text and
    /// docs/protocols/phost.md describe it; the authors' simulator gives free
    /// tokens only to flows that fit in them entirely (`init_capa_size`):
    /// set false for that.
    #[serde(default = "d_true")]
    pub free_tokens_long_flows: bool,
    /// Whether free tokens expire. docs/protocols/phost.md has tokens expire
    /// 1.5 MTU-times after the source receives them, which free tokens never
    /// are; default false. The authors' simulator voids them after
    /// `free_tokens + token_ttl_mtu` MTU-times from the flow's arrival: set
    /// true for that (a free packet pushed back by a shorter flow is then
    /// recovered only by the receiver timeout).
    #[serde(default)]
    pub free_tokens_expire: bool,
    /// A token expires this many MTU-times after the source gets it (pHost
    /// section 3.2: 1.5).
    #[serde(default = "d_ttl")]
    pub token_ttl_mtu: f64,
    /// A destination sends one token per this many bytes of its NIC's time:
    /// one MTU per token (section 3.1); the authors' simulator paces at
    /// MTU + one token, 1540 B, which leaves the tokens' own room.
    #[serde(default = "d_1540")]
    pub token_interval_bytes: u64,
    /// Unanswered tokens that downgrade a flow (section 3.2: a BDP, 8).
    #[serde(default = "d_8")]
    pub downgrade_window: u32,
    /// Where the defaults of `downgrade_mtu` and `receiver_timeout_mtu`
    /// come from (see [`PhostProfile`]): `paper` (8 and 24, pHost section
    /// 4.1) or `authors_scripts` (25 and 9, the scripts that produced the
    /// paper's figures). A field given here overrides its profile.
    /// Default `paper`: where the paper states a setting, it is the
    /// default (issue 28).
    #[serde(default, deserialize_with = "phost_profile")]
    #[schemars(with = "PhostProfile")]
    pub profile: PhostProfile,
    /// A downgraded flow gets no token for this many MTU-times after its
    /// last one (pHost section 3.2, "source downgrade time"). Default: the
    /// profile's (`paper` 8: pHost section 4.1, "source downgrade time to
    /// be 8x ... MTU-sized packet transmission time"; `authors_scripts` 25:
    /// `capability_window_timeout: 25` in NetSys/simulator
    /// py/run_experiments.py).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "f64", extend("default" = 8.0))]
    pub downgrade_mtu: Option<f64>,
    /// Once every packet has been named by a token, the destination waits
    /// this many MTU-times before naming missing packets again (pHost
    /// section 3.2, the receiver's timeout). Default: the profile's
    /// (`paper` 24: pHost section 4.1, "timeout to be 24x MTU-sized packet
    /// transmission time"; `authors_scripts` 9:
    /// `capability_resend_timeout: 9` in the same script).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "f64", extend("default" = 24.0))]
    pub receiver_timeout_mtu: Option<f64>,
    /// Whether data packets carry pHost's data priorities (section 3.3:
    /// short flows' data at the second level, long flows' at the third).
    /// Default true. False puts every data packet at one priority, the
    /// second level, below the control packets (RTS, tokens, ACKs), which
    /// stay at the highest: pHost section 4.4, for the multi-tenant
    /// experiment (Figure 11), "Additionally we turn off data packet
    /// priorities (all packets go at the same priority) and remove 'free
    /// token'" (that experiment also sets `free_tokens` to 0). Keeping
    /// control above data is this project's reading: the quote is about
    /// data packets, and a token or RTS behind data would only delay the
    /// tokens the fair policy hands out.
    #[serde(default = "d_true")]
    pub data_priorities: bool,
    /// Flows of at most this many packets send data at the second priority,
    /// longer ones at the third (section 3.3). The paper does not give the
    /// threshold; default 69 packets (about 100 KB, the papers' short-flow
    /// bucket).
    #[serde(default = "d_69")]
    pub short_flow_packets: u32,
    /// Scheduling policy at both ends (section 3.3). Default SRPT.
    #[serde(default)]
    pub policy: PhostPolicy,
    /// A source that hears nothing (no token, no ACK) this long after its
    /// RTS sends it again, doubling the wait each time, microseconds. Not
    /// in the paper (an RTS is at the highest priority and practically
    /// never lost); it keeps a lost RTS from stalling a flow forever.
    #[serde(default = "d_rts_timeout")]
    pub rts_timeout_us: f64,
}
serde_default!(PhostParams);
impl PhostParams {
    /// The downgrade time a run uses, MTU-times: `downgrade_mtu` if given,
    /// else the profile's.
    pub fn downgrade_mtu(&self) -> f64 {
        self.downgrade_mtu.unwrap_or(self.profile.defaults().downgrade_mtu)
    }
    /// The receiver timeout a run uses, MTU-times: `receiver_timeout_mtu`
    /// if given, else the profile's.
    pub fn receiver_timeout_mtu(&self) -> f64 {
        self.receiver_timeout_mtu.unwrap_or(self.profile.defaults().receiver_timeout_mtu)
    }
}

/// A named set of pHost's timer defaults (issue 28): the paper states one
/// setting, the authors' experiment scripts another. A field given in
/// `params.phost` overrides its profile; results that depend on the
/// choice are reported under each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhostProfile {
    /// pHost section 4.1: "For pHost, we set the token expiry time to be
    /// 1.5x, source downgrade time to be 8x and timeout to be 24xMTU-sized
    /// packet transmission time": downgrade 8, receiver timeout 24
    /// MTU-times (the token expiry, 1.5, is `token_ttl_mtu` in both).
    #[default]
    Paper,
    /// The pHost authors' experiment scripts, which produced the paper's
    /// figures (NetSys/simulator py/run_experiments.py:
    /// `capability_window_timeout: 25`, `capability_resend_timeout: 9`):
    /// downgrade 25, receiver timeout 9 MTU-times.
    AuthorsScripts,
}

/// The values a [`PhostProfile`] sets when the scenario does not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhostProfileDefaults {
    /// Downgrade time, MTU-times.
    pub downgrade_mtu: f64,
    /// Receiver timeout, MTU-times.
    pub receiver_timeout_mtu: f64,
}

/// pHost section 4.1's source downgrade time, MTU-times.
pub const PHOST_PAPER_DOWNGRADE_MTU: f64 = 8.0;
/// pHost section 4.1's timeout, MTU-times.
pub const PHOST_PAPER_RECEIVER_TIMEOUT_MTU: f64 = 24.0;
/// The authors' scripts' `capability_window_timeout`, MTU-times.
pub const PHOST_SCRIPTS_DOWNGRADE_MTU: f64 = 25.0;
/// The authors' scripts' `capability_resend_timeout`, MTU-times.
pub const PHOST_SCRIPTS_RECEIVER_TIMEOUT_MTU: f64 = 9.0;

impl PhostProfile {
    /// Every profile, in the order the page lists them.
    pub const ALL: [PhostProfile; 2] = [PhostProfile::Paper, PhostProfile::AuthorsScripts];

    /// The name in scenario files.
    pub fn as_str(self) -> &'static str {
        match self {
            PhostProfile::Paper => "paper",
            PhostProfile::AuthorsScripts => "authors_scripts",
        }
    }

    /// What the profile sets.
    pub fn defaults(self) -> PhostProfileDefaults {
        match self {
            PhostProfile::Paper => PhostProfileDefaults { downgrade_mtu: PHOST_PAPER_DOWNGRADE_MTU, receiver_timeout_mtu: PHOST_PAPER_RECEIVER_TIMEOUT_MTU },
            PhostProfile::AuthorsScripts => {
                PhostProfileDefaults { downgrade_mtu: PHOST_SCRIPTS_DOWNGRADE_MTU, receiver_timeout_mtu: PHOST_SCRIPTS_RECEIVER_TIMEOUT_MTU }
            }
        }
    }
}

/// Reads `params.phost.profile`: an unknown name is an error that names
/// the field and the known profiles.
fn phost_profile<'de, D: serde::Deserializer<'de>>(d: D) -> Result<PhostProfile, D::Error> {
    let name = String::deserialize(d)?;
    PhostProfile::ALL.into_iter().find(|p| p.as_str() == name).ok_or_else(|| {
        let known: Vec<&str> = PhostProfile::ALL.iter().map(|p| p.as_str()).collect();
        serde::de::Error::custom(format!("params.phost.profile: unknown pHost profile `{name}` (known: {})", known.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::testing::params;

    /// pHost's profiles set the values their doc comments quote; a field
    /// given overrides its profile, and unset fields stay unset when
    /// written back (so a sweep over `params.phost.profile` changes them).
    #[test]
    fn phost_profiles_set_the_paper_and_the_scripts_values() {
        for (name, downgrade, timeout) in [("paper", 8.0, 24.0), ("authors_scripts", 25.0, 9.0)] {
            let p = params(&format!(r#"{{"phost":{{"profile":"{name}"}}}}"#)).unwrap();
            assert_eq!(p.phost.profile.as_str(), name);
            assert_eq!((p.phost.downgrade_mtu(), p.phost.receiver_timeout_mtu()), (downgrade, timeout), "{name}");
        }
        let p = params(r#"{"phost":{"profile":"paper","receiver_timeout_mtu":30}}"#).unwrap();
        assert_eq!((p.phost.downgrade_mtu(), p.phost.receiver_timeout_mtu()), (8.0, 30.0));
        let p = params(r#"{"phost":{"profile":"authors_scripts","downgrade_mtu":12}}"#).unwrap();
        assert_eq!((p.phost.downgrade_mtu(), p.phost.receiver_timeout_mtu()), (12.0, 9.0));
        let d = PhostParams::default();
        assert_eq!((d.profile, d.downgrade_mtu(), d.receiver_timeout_mtu()), (PhostProfile::Paper, 8.0, 24.0), "the paper's setting is the default");
        let v = serde_json::to_value(PhostParams::default()).unwrap();
        assert!(v.get("downgrade_mtu").is_none() && v.get("receiver_timeout_mtu").is_none(), "{v}");
        for (json, needle) in [
            (r#"{"phost":{"profile":"ns2"}}"#, "params.phost.profile: unknown pHost profile `ns2` (known: paper, authors_scripts)"),
            (r#"{"phost":{"profile":"paper","downgrade_mtu":0}}"#, "params.phost.downgrade_mtu"),
            (r#"{"phost":{"receiver_timeout_mtu":-1}}"#, "params.phost.receiver_timeout_mtu"),
        ] {
            let e = params(json).unwrap_err();
            assert!(e.contains(needle), "{json}: {e}");
        }
    }
}
