//! Parameters of the window transports (TCP, DCTCP, D2TCP, L2DCT,
//! pFabric), with the papers' defaults (pFabric's Table 1 unless noted),
//! and DCTCP's end-host profiles, which PASE's hosts share.

use crate::protocol::params::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

defaults! {
    /// DCTCP's marking threshold K, bytes: pFabric paper Table 1,
    /// `markingThresh = 22.5KB` (PASE's hosts and queues share it).
    d_k: u64 = 22_500;
    /// Weight g of DCTCP's alpha estimator: DCTCP paper section 3.1, 1/16
    /// (PASE's hosts share it).
    d_g: f64 = 1.0 / 16.0;
    /// Largest retransmission timeout after backoff, microseconds: one
    /// second (a bound on the backoff, not from a paper).
    d_max_rto: f64 = 1_000_000.0;
    /// Duplicate ACKs that trigger fast retransmit: RFC 5681 section 3.2, 3.
    d_dup3: u32 = 3;
    /// pFabric's largest window, packets: the pHost authors' pFabric
    /// configuration, 15 (`max_cwnd`).
    d_cwnd15: u32 = 15;
    /// pFabric's fixed retransmission timeout, microseconds: pFabric paper
    /// Table 1, `RTO = 45µs`.
    d_rto45: f64 = 45.0;
    /// Consecutive timeouts after which pFabric enters probe mode (pFabric
    /// section 4.2 gives no number): 5.
    d_probe_after: u32 = 5;
    /// D2TCP's smallest deadline imminence d: D2TCP section 3, 0.5.
    d_d_min: f64 = 0.5;
    /// D2TCP's largest deadline imminence d: D2TCP section 3, 2.
    d_d_max: f64 = 2.0;
    /// L2DCT's smallest weight w_min: L2DCT section IV, 0.125.
    d_w_min: f64 = 0.125;
    /// L2DCT's largest weight w_max: L2DCT section IV, 2.5.
    d_w_max: f64 = 2.5;
    /// Bytes up to which an L2DCT flow keeps w_max: the ns-3 L2dctSocket
    /// port's 200 segments of 1460 B.
    d_w_full: u64 = 200 * 1460;
    /// Bytes at which an L2DCT flow's weight reaches w_min: the ns-3
    /// L2dctSocket port's 1000 segments of 1460 B.
    d_w_floor: u64 = 1000 * 1460;
}

/// TCP NewReno with SACK (docs/protocols/tcp.md; pFabric Table 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpParams {
    /// Buffer of every port, bytes (DropTail). pFabric Table 1: 225 KB.
    #[serde(default = "d_225k")]
    pub buffer_bytes: u64,
    /// Initial congestion window, packets. pFabric Table 1: 12.
    #[serde(default = "d_cwnd12")]
    pub init_cwnd: u32,
    /// Minimum retransmission timeout, microseconds. pFabric Table 1: 200 us.
    #[serde(default = "d_rto200")]
    pub min_rto_us: f64,
    /// Maximum retransmission timeout after backoff, microseconds.
    #[serde(default = "d_max_rto")]
    pub max_rto_us: f64,
    /// Duplicate ACKs that trigger fast retransmit (RFC 5681: 3).
    #[serde(default = "d_dup3")]
    pub dupack_threshold: u32,
}
serde_default!(TcpParams);

/// Alpha at flow start in Linux's DCTCP: `dctcp_alpha_on_init =
/// DCTCP_MAX_ALPHA` (1024 of 1024, i.e. 1) in `net/ipv4/tcp_dctcp.c`, the
/// module's default since it came into Linux (3.18).
pub const LINUX_INITIAL_ALPHA: f64 = 1.0;
/// Alpha at flow start in the DCTCP ns-2 scripts: `Agent/TCP set
/// dctcp_alpha_ 0` (the pFabric ns-2 code's DCTCP sender, `ecnhat_alpha_`,
/// starts at 0.0 too).
pub const NS2_INITIAL_ALPHA: f64 = 0.0;
/// Linux's initial congestion window, packets: `TCP_INIT_CWND` = 10
/// (`include/net/tcp.h`, "as per rfc6928"; since Linux 2.6.39).
pub const LINUX_INIT_CWND: u32 = 10;
/// Linux's minimum retransmission timeout, microseconds: `TCP_RTO_MIN` =
/// HZ/5, 200 ms (`include/net/tcp.h`).
pub const LINUX_RTO_MIN_US: f64 = 200_000.0;
/// The smallest window Linux's DCTCP cut leaves, packets: `dctcp_ssthresh`
/// returns `max(cwnd - ((cwnd * dctcp_alpha) >> 11), 2)` in
/// `net/ipv4/tcp_dctcp.c` (the window then falls to that threshold).
pub const LINUX_DCTCP_MIN_CUT_CWND: u32 = 2;
/// The smallest window a DCTCP cut leaves in the simulations, packets: the
/// window sender's floor before profiles existed (one packet).
pub const SIM_MIN_CUT_CWND: u32 = 1;
/// Linux's delayed-ACK timeout, microseconds: `TCP_DELACK_MIN` = HZ/25,
/// 40 ms (`include/net/tcp.h`; also `TCP_ATO_MIN`, where a connection's ACK
/// timeout starts).
pub const LINUX_DELACK_MIN_US: f64 = 40_000.0;
fn d_delack() -> f64 {
    LINUX_DELACK_MIN_US
}

/// A named set of DCTCP end-host defaults (issue 18): the initial alpha,
/// and for a testbed's kernel also the minimum RTO, the initial window and
/// delayed ACKs. DCTCP, D2TCP and L2DCT each take one (`params.dctcp.profile`,
/// ...); a field given explicitly overrides its profile. Results that depend
/// on the choice are reported under each (`docs/protocols/dctcp.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DctcpProfile {
    /// Alpha starts at 1 as in Linux (tcp_dctcp.c); the rest is the
    /// simulations' setting (pFabric Table 1: initial window 12, minimum
    /// RTO 200 us, every packet ACKed). The default: every result before
    /// profiles existed is this profile's.
    #[default]
    Linux,
    /// Alpha starts at 0 as in the DCTCP ns-2 scripts; the rest as
    /// `linux`.
    Ns2,
    /// A Linux host's stack, as a testbed runs it: alpha 1, initial window
    /// 10 (TCP_INIT_CWND), minimum RTO 200 ms (TCP_RTO_MIN), a cut on marks
    /// never below 2 packets (tcp_dctcp.c's dctcp_ssthresh), and delayed
    /// ACKs: an ACK for every second packet or after
    /// `delayed_ack_timeout_us` (40 ms, TCP_DELACK_MIN), at once for a
    /// packet out of order, and at once when the CE state of arriving
    /// packets changes (RFC 8257 section 3.2).
    TestbedKernel,
}

/// The values a [`DctcpProfile`] sets when the scenario does not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProfileDefaults {
    /// Alpha at flow start.
    pub initial_alpha: f64,
    /// Initial congestion window, packets.
    pub init_cwnd: u32,
    /// Minimum retransmission timeout, microseconds.
    pub min_rto_us: f64,
    /// The smallest window a cut on ECN marks leaves, packets.
    pub min_cwnd_after_cut: u32,
    /// The receiver delays ACKs.
    pub delayed_ack: bool,
}

impl DctcpProfile {
    /// Every profile, in the order the page lists them.
    pub const ALL: [DctcpProfile; 3] = [DctcpProfile::Linux, DctcpProfile::Ns2, DctcpProfile::TestbedKernel];

    /// The name in scenario files.
    pub fn as_str(self) -> &'static str {
        match self {
            DctcpProfile::Linux => "linux",
            DctcpProfile::Ns2 => "ns2",
            DctcpProfile::TestbedKernel => "testbed_kernel",
        }
    }

    /// What the profile sets, each value from the source named in its
    /// constant (pFabric Table 1 for the simulations' 12 packets and 200 us).
    pub fn defaults(self) -> ProfileDefaults {
        let linux = ProfileDefaults {
            initial_alpha: LINUX_INITIAL_ALPHA,
            init_cwnd: d_cwnd12(),
            min_rto_us: d_rto200(),
            min_cwnd_after_cut: SIM_MIN_CUT_CWND,
            delayed_ack: false,
        };
        match self {
            DctcpProfile::Linux => linux,
            DctcpProfile::Ns2 => ProfileDefaults { initial_alpha: NS2_INITIAL_ALPHA, ..linux },
            DctcpProfile::TestbedKernel => ProfileDefaults {
                initial_alpha: LINUX_INITIAL_ALPHA,
                init_cwnd: LINUX_INIT_CWND,
                min_rto_us: LINUX_RTO_MIN_US,
                min_cwnd_after_cut: LINUX_DCTCP_MIN_CUT_CWND,
                delayed_ack: true,
            },
        }
    }

    /// Reads the profile of the field `path`: an unknown name is an error
    /// that names the field and the known profiles.
    fn deserialize_at<'de, D: serde::Deserializer<'de>>(d: D, path: &str) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Self::ALL.into_iter().find(|p| p.as_str() == name).ok_or_else(|| {
            let known: Vec<&str> = Self::ALL.iter().map(|p| p.as_str()).collect();
            serde::de::Error::custom(format!("{path}: unknown DCTCP profile `{name}` (known: {})", known.join(", ")))
        })
    }
}

/// The DCTCP settings a run uses: the profile's defaults with the fields
/// the scenario gives (`dctcp_part()` of DCTCP's, D2TCP's, L2DCT's and
/// PASE's parameters).
#[derive(Clone, Debug, PartialEq)]
pub struct DctcpSettings {
    /// The profile the defaults came from.
    pub profile: DctcpProfile,
    /// Buffer of every port, bytes.
    pub buffer_bytes: u64,
    /// Marking threshold K, bytes.
    pub ecn_threshold_bytes: u64,
    /// Weight g of the alpha estimator.
    pub g: f64,
    /// Alpha at flow start.
    pub initial_alpha: f64,
    /// Initial congestion window, packets.
    pub init_cwnd: u32,
    /// Minimum retransmission timeout, microseconds.
    pub min_rto_us: f64,
    /// Maximum retransmission timeout after backoff, microseconds.
    pub max_rto_us: f64,
    /// Duplicate ACKs that trigger fast retransmit.
    pub dupack_threshold: u32,
    /// The smallest window a cut on ECN marks leaves, packets.
    pub min_cwnd_after_cut: u32,
    /// The receiver's delayed-ACK timeout, microseconds, when it delays
    /// ACKs; `None`: every packet is ACKed at once.
    pub delayed_ack_timeout_us: Option<f64>,
}

/// A parameter struct with DCTCP's fields followed by `$extra` (D2TCP's and
/// L2DCT's repeat DCTCP's fields flat: scenario files say `params.d2tcp.g`,
/// and unknown fields are errors, which serde's `flatten` cannot check), its
/// `Default`, and `dctcp_part()`, the settings they resolve to. `$profile`
/// (its name again as `$profile_fn`) reads `profile`, so that a bad name is
/// reported at `$path`.
macro_rules! dctcp_params {
    ($(#[$doc:meta])* $name:ident, $profile:ident = $profile_fn:literal, $path:literal { $($extra:tt)* }) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// End-host profile (`linux`, `ns2` or `testbed_kernel`, see
            /// `DctcpProfile`): the defaults of `initial_alpha`,
            /// `init_cwnd`, `min_rto_us`, `min_cwnd_after_cut` and
            /// `delayed_ack`; a field given
            /// here overrides its profile. Default `linux` (alpha 1 as
            /// Linux, the rest pFabric Table 1).
            #[serde(default, deserialize_with = $profile_fn)]
            #[schemars(with = "DctcpProfile")]
            pub profile: DctcpProfile,
            /// Buffer of every port, bytes. pFabric Table 1: 225 KB.
            #[serde(default = "d_225k")]
            pub buffer_bytes: u64,
            /// Marking threshold K, bytes. pFabric Table 1: 22.5 KB.
            #[serde(default = "d_k")]
            pub ecn_threshold_bytes: u64,
            /// Weight g of the alpha estimator. DCTCP paper: 1/16.
            #[serde(default = "d_g")]
            pub g: f64,
            /// Alpha at flow start. Default: the profile's (linux and
            /// testbed_kernel 1, as Linux's tcp_dctcp.c; ns2 0, as the DCTCP
            /// ns-2 scripts).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(with = "f64", extend("default" = 1.0))]
            pub initial_alpha: Option<f64>,
            /// Initial congestion window, packets. Default: the profile's
            /// (linux and ns2 12, pFabric Table 1; testbed_kernel 10, Linux's
            /// TCP_INIT_CWND).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(with = "u32", extend("default" = 12))]
            pub init_cwnd: Option<u32>,
            /// Minimum retransmission timeout, microseconds. Default: the
            /// profile's (linux and ns2 200 us, pFabric Table 1;
            /// testbed_kernel 200,000 us, Linux's TCP_RTO_MIN).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(with = "f64", extend("default" = 200.0))]
            pub min_rto_us: Option<f64>,
            /// Maximum retransmission timeout after backoff, microseconds.
            #[serde(default = "d_max_rto")]
            pub max_rto_us: f64,
            /// Duplicate ACKs that trigger fast retransmit.
            #[serde(default = "d_dup3")]
            pub dupack_threshold: u32,
            /// The smallest window a cut on ECN marks leaves, packets.
            /// Default: the profile's (linux and ns2 1, the simulations'
            /// floor; testbed_kernel 2, as Linux's dctcp_ssthresh).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(with = "u32", extend("default" = 1))]
            pub min_cwnd_after_cut: Option<u32>,
            /// The receiver delays ACKs: one ACK for every second packet, or
            /// `delayed_ack_timeout_us` after a lone one, at once for a
            /// packet out of order or a duplicate, and at once when the CE
            /// state of arriving packets changes (RFC 8257 section 3.2; the
            /// ACK held back goes first with the old state, as Linux's
            /// dctcp_ece_ack_update). Default: the profile's (testbed_kernel
            /// only).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(with = "bool", extend("default" = false))]
            pub delayed_ack: Option<bool>,
            /// Delayed-ACK timeout, microseconds (with `delayed_ack`).
            /// Linux's TCP_DELACK_MIN: 40 ms.
            #[serde(default = "d_delack")]
            pub delayed_ack_timeout_us: f64,
            $($extra)*
        }
        serde_default!($name);
        impl $name {
            /// The DCTCP settings it runs with: the profile's defaults with
            /// the fields given.
            pub fn dctcp_part(&self) -> DctcpSettings {
                let p = self.profile.defaults();
                DctcpSettings {
                    profile: self.profile,
                    buffer_bytes: self.buffer_bytes,
                    ecn_threshold_bytes: self.ecn_threshold_bytes,
                    g: self.g,
                    initial_alpha: self.initial_alpha.unwrap_or(p.initial_alpha),
                    init_cwnd: self.init_cwnd.unwrap_or(p.init_cwnd),
                    min_rto_us: self.min_rto_us.unwrap_or(p.min_rto_us),
                    max_rto_us: self.max_rto_us,
                    dupack_threshold: self.dupack_threshold,
                    min_cwnd_after_cut: self.min_cwnd_after_cut.unwrap_or(p.min_cwnd_after_cut),
                    delayed_ack_timeout_us: self.delayed_ack.unwrap_or(p.delayed_ack).then_some(self.delayed_ack_timeout_us),
                }
            }
        }
        fn $profile<'de, D: serde::Deserializer<'de>>(d: D) -> Result<DctcpProfile, D::Error> {
            DctcpProfile::deserialize_at(d, $path)
        }
    };
}

dctcp_params! {
    /// DCTCP (docs/protocols/dctcp.md; DCTCP paper section 3).
    DctcpParams, dctcp_profile = "dctcp_profile", "params.dctcp.profile" {}
}

dctcp_params! {
    /// D2TCP (docs/protocols/d2tcp.md; Vamanan, Hasan, Vijaykumar, "Deadline-Aware
    /// Datacenter TCP", SIGCOMM 2012, section 3): DCTCP whose window cut on ECN
    /// marks is W <- W (1 - p / 2) with p = alpha^d, d the deadline imminence.
    /// The DCTCP parts default to DCTCP's (pFabric Table 1), since the D2TCP
    /// paper runs over the same DCTCP switches.
    D2tcpParams, d2tcp_profile = "d2tcp_profile", "params.d2tcp.profile" {
        /// Smallest deadline imminence d (D2TCP section 3: d is capped below at
        /// 0.5, so a far-deadline flow cuts at most as alpha^0.5).
        #[serde(default = "d_d_min")]
        pub min_imminence: f64,
        /// Largest deadline imminence d (D2TCP section 3: capped above at 2).
        #[serde(default = "d_d_max")]
        pub max_imminence: f64,
        /// Imminence d of a flow whose deadline has passed. The paper's rule for
        /// a flow past its deadline (D <= 0) could not be confirmed from the
        /// text available here; the default follows the ns-3 D2tcpSocket port,
        /// which gives such a flow the smallest d (0.5: it backs off most, so
        /// flows that can still meet their deadlines go first).
        #[serde(default = "d_d_min")]
        pub past_deadline_imminence: f64,
    }
}

dctcp_params! {
    /// L2DCT (docs/protocols/l2dct.md; Munir et al., "Minimizing Flow Completion
    /// Times in Data Centers", INFOCOM 2013, section IV): DCTCP whose increase
    /// and decrease are scaled by a weight w_c that falls as the flow's bytes
    /// sent grow (least attained service first). On marks W <- W (1 - b / 2)
    /// with b = alpha^w_c; in congestion avoidance W grows by k = w_c / w_max
    /// per round trip. The DCTCP parts default to DCTCP's (pFabric Table 1).
    L2dctParams, l2dct_profile = "l2dct_profile", "params.l2dct.profile" {
        /// Smallest weight w_min, reached by flows that have sent the most.
        /// L2DCT section IV and the ns-3 L2dctSocket port: 0.125.
        #[serde(default = "d_w_min")]
        pub min_weight: f64,
        /// Largest weight w_max, held by flows that have sent little. L2DCT
        /// section IV and the ns-3 L2dctSocket port: 2.5.
        #[serde(default = "d_w_max")]
        pub max_weight: f64,
        /// Bytes sent up to which a flow keeps w_max. The paper's thresholds
        /// could not be confirmed from the text available here; the default
        /// follows the ns-3 L2dctSocket port: 200 segments of 1460 B.
        #[serde(default = "d_w_full")]
        pub full_weight_bytes: u64,
        /// Bytes sent at which the weight reaches w_min; between the two
        /// thresholds it falls linearly. Default from the ns-3 L2dctSocket port
        /// (not confirmed in the paper): 1000 segments of 1460 B.
        #[serde(default = "d_w_floor")]
        pub min_weight_bytes: u64,
    }
}

/// pFabric (docs/protocols/pfabric.md; pFabric paper section 4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PFabricParams {
    /// Buffer of every port, bytes. pFabric Table 1: 36 KB (24 packets).
    #[serde(default = "d_36k")]
    pub buffer_bytes: u64,
    /// Initial (and maximum) congestion window, packets: about one BDP.
    /// pFabric Table 1: 12.
    #[serde(default = "d_cwnd12")]
    pub init_cwnd: u32,
    /// Largest congestion window, packets. The pHost authors' pFabric
    /// configuration: 15 (`max_cwnd`).
    #[serde(default = "d_cwnd15")]
    pub max_cwnd: u32,
    /// Fixed retransmission timeout, microseconds (about 3 RTTs).
    /// pFabric Table 1: 45 us.
    #[serde(default = "d_rto45")]
    pub rto_us: f64,
    /// Enter probe mode after this many consecutive timeouts.
    #[serde(default = "d_probe_after")]
    pub probe_after_timeouts: u32,
    /// Whether probe mode is on (pFabric section 4.2; Figure 5(b) compares).
    #[serde(default = "d_true")]
    pub probe_mode: bool,
}
serde_default!(PFabricParams);

/// Checks the parameters DCTCP, D2TCP, L2DCT and PASE share, as their
/// profile and the fields given resolve them, under `proto`'s name.
pub(crate) fn dctcp_like(proto: &str, d: &DctcpSettings) -> Result<(), String> {
    at_least(&format!("{proto}.buffer_bytes"), d.buffer_bytes, 1500)?;
    at_least(&format!("{proto}.init_cwnd"), d.init_cwnd as u64, 1)?;
    positive(&format!("{proto}.min_rto_us"), d.min_rto_us)?;
    positive(&format!("{proto}.max_rto_us"), d.max_rto_us)?;
    at_least(&format!("{proto}.dupack_threshold"), d.dupack_threshold as u64, 1)?;
    at_least(&format!("{proto}.min_cwnd_after_cut"), d.min_cwnd_after_cut as u64, 1)?;
    unit_fraction(&format!("{proto}.g"), d.g)?;
    if !(0.0..=1.0).contains(&d.initial_alpha) {
        return Err(format!("params.{proto}.initial_alpha: must be in [0, 1], got {}", d.initial_alpha));
    }
    if let Some(t) = d.delayed_ack_timeout_us {
        positive(&format!("{proto}.delayed_ack_timeout_us"), t)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::testing::params;

    /// Each profile sets the values its doc comments name, for DCTCP, D2TCP
    /// and L2DCT alike; the default is `linux`, today's settings.
    #[test]
    fn each_profile_sets_its_documented_values() {
        let expect = [("linux", 1.0, 12, 200.0, 1, None), ("ns2", 0.0, 12, 200.0, 1, None), ("testbed_kernel", 1.0, 10, 200_000.0, 2, Some(40_000.0))];
        for (name, alpha, cwnd, rto, floor, delack) in expect {
            for proto in ["dctcp", "d2tcp", "l2dct"] {
                let p = params(&format!(r#"{{"{proto}":{{"profile":"{name}"}}}}"#)).unwrap();
                let s = match proto {
                    "dctcp" => p.dctcp.dctcp_part(),
                    "d2tcp" => p.d2tcp.dctcp_part(),
                    _ => p.l2dct.dctcp_part(),
                };
                assert_eq!(s.profile.as_str(), name);
                assert_eq!(
                    (s.initial_alpha, s.init_cwnd, s.min_rto_us, s.min_cwnd_after_cut, s.delayed_ack_timeout_us),
                    (alpha, cwnd, rto, floor, delack),
                    "{proto} {name}"
                );
            }
        }
        let d = DctcpParams::default().dctcp_part();
        assert_eq!(
            (d.profile, d.initial_alpha, d.init_cwnd, d.min_rto_us, d.min_cwnd_after_cut, d.delayed_ack_timeout_us),
            (DctcpProfile::Linux, 1.0, 12, 200.0, 1, None)
        );
    }

    #[test]
    fn fields_given_override_the_profile() {
        let p = params(
            r#"{"dctcp":{"profile":"testbed_kernel","initial_alpha":0,"init_cwnd":4,"min_rto_us":750,"min_cwnd_after_cut":1,"delayed_ack":false},
                           "d2tcp":{"profile":"ns2","delayed_ack":true,"delayed_ack_timeout_us":500}}"#,
        )
        .unwrap();
        let d = p.dctcp.dctcp_part();
        assert_eq!((d.initial_alpha, d.init_cwnd, d.min_rto_us, d.min_cwnd_after_cut, d.delayed_ack_timeout_us), (0.0, 4, 750.0, 1, None));
        let d = p.d2tcp.dctcp_part();
        assert_eq!((d.initial_alpha, d.init_cwnd, d.delayed_ack_timeout_us), (0.0, 12, Some(500.0)));
        // Unset fields stay unset when written back (so `sweep --vary
        // params.dctcp.profile=...` still changes them).
        let v = serde_json::to_value(DctcpParams::default()).unwrap();
        assert!(v.get("initial_alpha").is_none() && v.get("delayed_ack").is_none(), "{v}");
    }

    #[test]
    fn bad_profiles_and_values_name_the_field() {
        for (json, needle) in [
            (r#"{"dctcp":{"profile":"bsd"}}"#, "params.dctcp.profile: unknown DCTCP profile `bsd` (known: linux, ns2, testbed_kernel)"),
            (r#"{"d2tcp":{"profile":"Linux"}}"#, "params.d2tcp.profile"),
            (r#"{"l2dct":{"profile":3}}"#, "invalid type"),
            (r#"{"dctcp":{"initial_alpha":1.5}}"#, "params.dctcp.initial_alpha"),
            (r#"{"l2dct":{"profile":"testbed_kernel","delayed_ack_timeout_us":0}}"#, "params.l2dct.delayed_ack_timeout_us"),
            (r#"{"d2tcp":{"init_cwnd":0}}"#, "params.d2tcp.init_cwnd"),
            (r#"{"dctcp":{"min_cwnd_after_cut":0}}"#, "params.dctcp.min_cwnd_after_cut"),
        ] {
            let e = params(json).unwrap_err();
            assert!(e.contains(needle), "{json}: {e}");
        }
    }
}
