//! Parameters of every protocol, with the papers' defaults (pFabric's
//! Table 1 unless noted). A scenario may set any of them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Parameters of all protocols; the running protocol reads its own.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProtocolParams {
    /// TCP NewReno.
    #[serde(default)]
    pub tcp: TcpParams,
    /// DCTCP.
    #[serde(default)]
    pub dctcp: DctcpParams,
    /// pFabric.
    #[serde(default)]
    pub pfabric: PFabricParams,
    /// RCP.
    #[serde(default)]
    pub rcp: RcpParams,
    /// Fastpass.
    #[serde(default)]
    pub fastpass: FastpassParams,
    /// pHost.
    #[serde(default)]
    pub phost: PhostParams,
    /// D2TCP.
    #[serde(default)]
    pub d2tcp: D2tcpParams,
    /// L2DCT.
    #[serde(default)]
    pub l2dct: L2dctParams,
    /// PASE.
    #[serde(default)]
    pub pase: PaseParams,
    /// PDQ.
    #[serde(default)]
    pub pdq: PdqParams,
    /// D3: RCP's parameters, read the D3 way. alpha = 0.1 and beta = 1
    /// (the PDQ paper's D3) steer each port's estimate of the capacity it
    /// allocates; `rtt_us` is also the interval between a flow's requests.
    #[serde(default)]
    pub d3: RcpParams,
}

macro_rules! defaults {
    ($($f:ident: $t:ty = $v:expr;)*) => { $(fn $f() -> $t { $v })* };
}
defaults! {
    d_225k: u64 = 225_000;
    d_36k: u64 = 36_000;
    d_k: u64 = 22_500;
    d_cwnd12: u32 = 12;
    d_cwnd15: u32 = 15;
    d_rto200: f64 = 200.0;
    d_rto45: f64 = 45.0;
    d_dup3: u32 = 3;
    d_g: f64 = 1.0 / 16.0;
    d_alpha1: f64 = 1.0;
    d_delack: f64 = LINUX_DELACK_MIN_US;
    d_true: bool = true;
    d_probe_after: u32 = 5;
    d_rcp_alpha: f64 = 0.1;
    d_rcp_beta: f64 = 1.0;
    d_rcp_interval: f64 = 10.0;
    d_rcp_rtt: f64 = 10.0;
    d_rcp_rto: f64 = 1000.0;
    d_max_rto: f64 = 1_000_000.0;
    d_fp_epoch: u32 = 8;
    d_fp_arbiter: u32 = 0;
    d_zero: f64 = 0.0;
    d_half: f64 = 0.5;
    d_fp_timeout: f64 = 10.0;
    d_8: u32 = 8;
    d_ttl: f64 = 1.5;
    d_69: u32 = 69;
    d_1540: u64 = 1540;
    d_queues8: u32 = 8;
    d_rts_timeout: f64 = 100.0;
    d_d_min: f64 = 0.5;
    d_d_max: f64 = 2.0;
    d_w_min: f64 = 0.125;
    d_w_max: f64 = 2.5;
    d_w_full: u64 = 200 * 1460;
    d_w_floor: u64 = 1000 * 1460;
    d_one: f64 = 1.0;
    d_pase_expiry: f64 = 3.0;
    d_pase_deleg: f64 = 4.0;
    d_pase_top: u32 = 2;
    d_pdq_probe: f64 = 15.0;
    d_pdq_kappa: u32 = 100;
    d_pdq_k: f64 = 2.0;
    d_pdq_x: f64 = 0.2;
    d_pdq_damp: f64 = 10.0;
    d_one_f: f64 = 1.0;
    d_pdq_rtt: f64 = 10.0;
    d_pdq_min_rate: f64 = 0.01;
    d_pdq_et_rate: f64 = 0.9;
    d_pdq_et_rtts: f64 = 1.0;
    d_d3_life: f64 = 4.0;
    d_count_life: f64 = 10.0;
}

/// TCP NewReno with SACK (PROTOCOLS.md section 9; pFabric Table 1).
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
impl Default for TcpParams {
    fn default() -> Self {
        serde_json::from_str("{}").unwrap()
    }
}

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

/// A named set of DCTCP end-host defaults (issue 18): the initial alpha,
/// and for a testbed's kernel also the minimum RTO, the initial window and
/// delayed ACKs. DCTCP, D2TCP and L2DCT each take one (`params.dctcp.profile`,
/// ...); a field given explicitly overrides its profile. Results that depend
/// on the choice are reported under each (`engine/ARCHITECTURE.md`).
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
        impl Default for $name {
            fn default() -> Self {
                serde_json::from_str("{}").unwrap()
            }
        }
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
    /// DCTCP (PROTOCOLS.md section 9; DCTCP paper section 3).
    DctcpParams, dctcp_profile = "dctcp_profile", "params.dctcp.profile" {}
}

dctcp_params! {
    /// D2TCP (PROTOCOLS.md section 9; Vamanan, Hasan, Vijaykumar, "Deadline-Aware
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
    /// L2DCT (PROTOCOLS.md section 9; Munir et al., "Minimizing Flow Completion
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

/// pFabric (PROTOCOLS.md section 3; pFabric paper section 4).
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
impl Default for PFabricParams {
    fn default() -> Self {
        serde_json::from_str("{}").unwrap()
    }
}

/// RCP (Dukkipati and McKeown; PROTOCOLS.md section 9).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RcpParams {
    /// Buffer of every port, bytes (DropTail).
    #[serde(default = "d_225k")]
    pub buffer_bytes: u64,
    /// Weight of spare capacity in the rate update (RCP paper: 0.1).
    #[serde(default = "d_rcp_alpha")]
    pub alpha: f64,
    /// Weight of the standing queue in the rate update (RCP paper: 1).
    #[serde(default = "d_rcp_beta")]
    pub beta: f64,
    /// Rate update interval T, microseconds (RCP: at most the mean RTT).
    #[serde(default = "d_rcp_interval")]
    pub control_interval_us: f64,
    /// Base RTT of the rate update, microseconds: each port uses this plus
    /// its current queueing delay as the flows' mean RTT d.
    #[serde(default = "d_rcp_rtt")]
    pub rtt_us: f64,
    /// Retransmission timeout, microseconds (RCP rarely loses packets).
    #[serde(default = "d_rcp_rto")]
    pub rto_us: f64,
    /// D3 only: a port returns the allocation of a flow that made no
    /// request for this many RTTs (`rtt_us`). D3 assumes one path per
    /// flow; with per-packet spraying a flow's requests reach each spine
    /// only now and then and its release only one of them. A choice: 4.
    #[serde(default = "d_d3_life")]
    pub d3_allocation_lifetime_rtts: f64,
    /// RCP only: every port counts the flows crossing it exactly and uses
    /// that number N where standard RCP uses its estimate N^ = C / R.
    /// Default false (standard RCP). PDQ section 5 (its RCP baseline):
    /// "We implement RCP [10] and optimize it by counting the exact number
    /// of flows at switches. We found this improves the performance by
    /// converging to the fair share rate more quickly, significantly
    /// reducing the number of packet drops when encountering a sudden large
    /// influx of new flows". The paper says no more; the rest is this
    /// project's reading: a flow enters a port's count with its first
    /// packet there (data or rate refresh) and leaves it with a 40-B FIN
    /// its sender sends once every byte is acknowledged (or the flow is
    /// given up), or after `count_flows_lifetime_rtts` without a packet
    /// there (a lost FIN; with per-packet spraying a FIN crosses one spine
    /// of several). The rate update is R <- R + (T/d) (alpha (C - y) -
    /// beta q / d) / N, RCP's equation with N for N^; when a flow enters,
    /// R is capped at C / N at once, so that a sudden influx is not sent
    /// at the old rate for the control intervals the equation needs; an
    /// idle port restarts at C / N instead of C.
    #[serde(default)]
    pub count_flows: bool,
    /// RCP with `count_flows`: a port stops counting a flow it has seen no
    /// packet of for this many RTTs (`rtt_us`). A sending flow's packets
    /// (data, or a rate refresh each RTT when its pacing gap is longer)
    /// cross every port of its path at least about once per RTT; with
    /// per-packet spraying over k spines a spine sees each flow about every
    /// k RTTs. A choice: 10 (the leaf-spine default has 4 spines).
    #[serde(default = "d_count_life")]
    pub count_flows_lifetime_rtts: f64,
}
impl Default for RcpParams {
    fn default() -> Self {
        serde_json::from_str("{}").unwrap()
    }
}

/// PDQ (Hong, Caesar, Godfrey, SIGCOMM 2012; PROTOCOLS.md section 8).
/// The four enhancements are switches: all off is PDQ(Basic), then
/// `early_start` gives PDQ(ES), with `early_termination` PDQ(ES+ET), and
/// all four (the default) PDQ(Full) with Suppressed Probing and dampening.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PdqParams {
    /// Buffer of every port, bytes (DropTail). pFabric Table 1: 225 KB.
    #[serde(default = "d_225k")]
    pub buffer_bytes: u64,
    /// Retransmission timeout, microseconds. pFabric Table 1: 200 us.
    #[serde(default = "d_rto200")]
    pub rto_us: f64,
    /// Probing interval I_s, microseconds: a paused flow probes every
    /// I_H x max(this, its RTT). pFabric Table 1: 15 us.
    #[serde(default = "d_pdq_probe")]
    pub probe_interval_us: f64,
    /// Most flows a port's list holds (kappa). The PDQ paper keeps the
    /// 2 kappa most critical flows; 100 is a choice (the NetSys-lineage
    /// simulators use 100 to 200). A flow that finds the list full and is
    /// less critical than all of it is paused.
    #[serde(default = "d_pdq_kappa")]
    pub kappa: u32,
    /// Early Start: flows within `early_start_k` RTTs of finishing leave
    /// their bandwidth to the next flows (PDQ section 3.3.1).
    #[serde(default = "d_true")]
    pub early_start: bool,
    /// Early Start's K, RTTs. PDQ paper: 2.
    #[serde(default = "d_pdq_k")]
    pub early_start_k: f64,
    /// Early Termination: a flow that can no longer meet its deadline is
    /// given up (PDQ section 3.3.2).
    #[serde(default = "d_true")]
    pub early_termination: bool,
    /// Suppressed Probing: a paused flow at list index i probes every
    /// max(1, X i) RTTs (PDQ section 3.3.4).
    #[serde(default = "d_true")]
    pub suppressed_probing: bool,
    /// Suppressed Probing's X. PDQ paper: 0.2.
    #[serde(default = "d_pdq_x")]
    pub probing_x: f64,
    /// Dampening: after accepting a flow a port accepts no paused flow for
    /// `dampening_us` (PDQ section 3.3.3).
    #[serde(default = "d_true")]
    pub dampening: bool,
    /// Dampening window, microseconds. Not given by the paper; 10 us as
    /// the NetSys-lineage PDQ simulator.
    #[serde(default = "d_pdq_damp")]
    pub dampening_us: f64,
    /// Rate controller: each port grants at most C' = r C - q / (2 RTT)
    /// (q its queue, RTT the flows' mean), updated every two RTTs.
    #[serde(default = "d_true")]
    pub rate_control: bool,
    /// The rate controller's r. 1 is a choice: the paper gives the form.
    #[serde(default = "d_one_f")]
    pub rate_r: f64,
    /// A port grants no rate below this fraction of its link rate (it
    /// pauses the flow instead): PDQ's rates are nearly all or nothing, and
    /// a sliver left by rounding or the rate controller would stall a flow
    /// at one packet per many milliseconds. A choice; 0.01.
    #[serde(default = "d_pdq_min_rate")]
    pub min_rate_fraction: f64,
    /// One path per flow: PDQ schedules flows on single paths (the paper's
    /// PDQ; M-PDQ, which splits flows over paths, is not built here), so
    /// with this on a PDQ run hashes each flow to one path (ECMP) whatever
    /// the scenario's `load_balancing` says. Off, packets are sprayed and
    /// every port a flow's packets cross grants it its full rate (on the
    /// web search default the mean slowdown is then 20.8 against 2.3).
    #[serde(default = "d_true")]
    pub per_flow_paths: bool,
    /// RTT a sender assumes before its first sample, microseconds (also
    /// the switches' mean RTT before they see one).
    #[serde(default = "d_pdq_rtt")]
    pub init_rtt_us: f64,
    /// A flow paused at a port keeps its place there: the port counts the
    /// rate it asks for (R_H as it arrived) against every less critical
    /// flow, so bandwidth that frees goes to the most critical paused flow
    /// at its next probe, not to whichever flow probes first. A choice
    /// beyond the paper's Algorithm 2, which counts a paused flow's rate as
    /// 0 (false gives that reading). Measured (deadlines met, query
    /// aggregation, 3 seeds): 11 flows 0.958 against 0.921, 25 flows 0.873
    /// against 0.787; web search (3,000 flows) mean slowdown 1.74 against
    /// 1.81. See engine/ARCHITECTURE.md, "PDQ and D3".
    #[serde(default = "d_true")]
    pub paused_flows_hold_place: bool,
    /// The expected transmission time T_H counts the bytes not yet
    /// acknowledged instead of the bytes still to transmit (never sent, or
    /// deemed lost). Off by default: T_H is the time to transmit the rest
    /// of the flow (PDQ section 3.1), so Early Start's "within K RTTs of
    /// finishing" is measured on what the flow still has to send; counting
    /// the bytes in flight as well delays Early Start by about a round trip.
    #[serde(default)]
    pub expected_time_counts_in_flight: bool,
    /// The rate controller's RTT is the flows' mean RTT including this
    /// port's queueing delay (q / C added to the mean of the header RTTs,
    /// which are path RTTs without queueing), as RCP's router equation
    /// reads d and as this simulator's RCP does. Off, a queue of two RTTs of
    /// data sets C' to 0 and pauses every flow at the port until the next
    /// update; on, C' stays above C / 2 and the queue drains while the
    /// flows keep going. A choice: the paper gives the controller's form.
    /// Measured (deadlines met, query aggregation, 3 seeds, 11 / 25 / 50
    /// flows): 0.971 / 0.885 / 0.746 on, 0.958 / 0.873 / 0.727 off; web
    /// search (3,000 flows) mean slowdown 1.70 on, 1.74 off.
    #[serde(default = "d_true")]
    pub rate_control_rtt_with_queue: bool,
    /// On the reverse path (Algorithm 3) a port caps the rate an ACK
    /// carries back at what it can give the flow now, pausing the flow when
    /// that is nothing: a more critical flow may have been accepted between
    /// the forward packet and its ACK. When a query's SYNs arrive together
    /// each is granted the link if it is the most critical so far, and
    /// without this every such flow sends a round trip of data at full
    /// rate. Read literally, Algorithm 3 only records the rate. A choice.
    /// Measured (deadlines met, query aggregation, 3 seeds, 11 / 25 / 50
    /// flows): 0.979 / 0.899 / 0.762 on, 0.971 / 0.885 / 0.746 off; web
    /// search (3,000 flows) mean slowdown 1.63 on, 1.70 off.
    #[serde(default = "d_true")]
    pub ack_rechecks_rate: bool,
    /// Early Start's "within K RTTs of finishing" counts in the longer RTT
    /// of the finishing flow and the flow it would start. What Early Start
    /// hides is the next flow's start-up: its next probe (up to a probing
    /// period, one of its RTTs) and a round trip before its data reach the
    /// port. Counted in the finishing flow's RTT alone, a flow from the
    /// aggregator's own rack (RTT about 125 us on PDQ's tree) left too short
    /// a window for a next flow from another rack (about 230 us), and the
    /// link idled between them. A choice: the paper divides T_i by RTT_i.
    /// Measured (50 flows per query, seed 1): idle time between flows at the
    /// bottleneck 36 ms against 17 ms over 20 queries; deadlines met (3
    /// seeds, 25 / 50 flows) 0.904 / 0.770 against 0.899 / 0.762; web
    /// search (3,000 flows) mean slowdown 1.64 against 1.63.
    #[serde(default = "d_true")]
    pub early_start_longer_rtt: bool,
    /// The sender's Early Termination test (remaining transmission time
    /// past the deadline, PDQ section 3.3) counts the bytes in flight as
    /// still to transmit. Off by default: the test uses what T_H measures
    /// (`expected_time_counts_in_flight`), since bytes already sent reach
    /// the receiver within a one-way delay and a flow completes when the
    /// receiver has every byte. On, a flow near its deadline with a round
    /// trip of data in flight is given up after its last packet has left
    /// (with 50 flows per query, seed 5: one flow of 131 packets terminated
    /// 2 us after its last packet crossed the bottleneck). A choice.
    /// Measured (deadlines met, query aggregation, seeds 1-3, 11 / 25 / 50
    /// flows per query): 0.977 / 0.909 / 0.793 off, 0.971 / 0.898 / 0.764
    /// on.
    #[serde(default)]
    pub early_termination_counts_in_flight: bool,
    /// Early Termination (at the switches and at the sender) judges a
    /// flow's remaining transmission time T_H at this fraction of the NIC
    /// rate, not at the full rate: a flow PDQ accepts does not get the
    /// whole link (the paused flows' probes, Early Start's overlap and the
    /// rate controller share it; with 50 flows per query the bottleneck
    /// carries data of the flows that meet their deadlines 91% of the
    /// time), so a flow accepted with almost no slack nearly always misses
    /// after sending most of its bytes, bandwidth the flows behind it
    /// needed. Being proportional, the margin falls mostly on long flows,
    /// the ones the optimal scheduler gives up first. 1 is the literal
    /// reading ("the remaining flow transmission time is larger than the
    /// time to deadline", PDQ section 3.3.2). A choice. Measured (deadlines
    /// met, query aggregation, seeds 1-3, 11 / 25 / 50 flows per query;
    /// with one added RTT): 0.9 gives 0.977 / 0.909 / 0.793, 0.8 gives
    /// 0.973 / 0.907 / 0.794, 1 gives 0.979 / 0.905 / 0.782 (optimal
    /// 0.983 / 0.933 / 0.839); at 3 flows of mean 400 KB, where PDQ gets
    /// nearly the whole link, 0.9 gives 0.811, 0.8 0.789, 1 0.839
    /// (optimal 0.850).
    #[serde(default = "d_pdq_et_rate")]
    pub early_termination_rate_fraction: f64,
    /// Round trips (the flow's RTT) Early Termination adds to the
    /// remaining transmission time while anything is left to transmit: a
    /// paused flow needs a round trip before its data flows, and a sending
    /// flow's last byte still has a one-way delay and any queue to cross.
    /// The paper's third condition (paused, and less than an RTT to the
    /// deadline) is the case of a flow with nothing left but the round
    /// trip. A choice. Measured (as above, rate fraction 0.9): 1 RTT gives
    /// 0.977 / 0.909 / 0.793, none 0.979 / 0.903 / 0.781; 2, 3 or 4 RTTs
    /// at rate fraction 1 give 0.781, 0.770, 0.753 at 50 flows (a fixed
    /// margin does not single out long flows). Both margins off (the
    /// literal rule): 0.977 / 0.897 / 0.762.
    #[serde(default = "d_pdq_et_rtts")]
    pub early_termination_rtts: f64,
}
impl Default for PdqParams {
    fn default() -> Self {
        serde_json::from_str("{}").unwrap()
    }
}
impl PdqParams {
    /// The paper's named variants: "basic", "es", "es_et", "full".
    pub fn variant(name: &str) -> Option<PdqParams> {
        let (es, et, full) = match name {
            "basic" => (false, false, false),
            "es" => (true, false, false),
            "es_et" => (true, true, false),
            "full" => (true, true, true),
            _ => return None,
        };
        Some(PdqParams { early_start: es, early_termination: et, suppressed_probing: full, dampening: full, ..Default::default() })
    }
}

/// Fastpass as the pHost paper evaluates it (PROTOCOLS.md section 6;
/// Perry et al., SIGCOMM 2014; Gao et al., CoNEXT 2015, section 4): a
/// central arbiter allocates one-MTU timeslots in epochs, each timeslot a
/// matching of sources to destinations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FastpassParams {
    /// Buffer of every port, bytes (strict priority: control above data).
    /// The pHost paper gives every scheme pFabric's 36 KB ports.
    #[serde(default = "d_36k")]
    pub buffer_bytes: u64,
    /// Timeslots per epoch; a timeslot is one MTU transmission time at the
    /// host link rate (Fastpass paper section 3). PROTOCOLS.md section 6 and
    /// the pHost authors' simulator (`FASTPASS_EPOCH_PKTS`): 8. At most 32.
    /// Every epoch the arbiter sends one 40-B grant per flow it serves, so
    /// with very short epochs its own link, not the fabric, limits the run.
    #[serde(default = "d_fp_epoch")]
    pub epoch_slots: u32,
    /// Idle time at the end of every epoch, in timeslots. Default 0: the
    /// pHost paper (section 4.1) evaluates Fastpass with "an epoch size of
    /// 8 packets (Fastpass makes scheduling decisions every epoch with a
    /// recommended epoch interval of 8 MTU transmission times)", an epoch
    /// of exactly `epoch_slots` slots. 0.5 is the pHost authors' simulator,
    /// which makes an epoch 8.5 MTU times for 8 packets
    /// (`fastpass_epoch_time`): a guard in which the control packets that
    /// reach a receiver fed in every slot (grants, requests, ACKs) drain.
    #[serde(default = "d_zero")]
    pub epoch_guard_slots: f64,
    /// The host the arbiter runs on (0 to hosts - 1). The arbiter shares
    /// that host's NIC and link: requests reach it and grants leave it over
    /// the network, at the highest priority, ahead of the host's own data.
    /// (The pHost authors' simulator adds a dedicated 145th host under the
    /// first ToR; here the topology is left as the scenario defines it.)
    /// Default 0, the first host of the first rack.
    #[serde(default = "d_fp_arbiter")]
    pub arbiter_host: u32,
    /// Time the arbiter takes to compute an epoch's allocation,
    /// microseconds: grants leave this long after the epoch boundary at
    /// which the arbiter looked at its requests. The pHost paper's best
    /// case for Fastpass: 0.
    #[serde(default = "d_zero")]
    pub arbiter_processing_us: f64,
    /// Largest offset of a host's clock from the arbiter's, nanoseconds:
    /// each host's offset is drawn uniformly in [-skew, +skew] and shifts
    /// when it sends in its timeslots. The pHost paper's best case for
    /// Fastpass, perfect clock synchronization: 0.
    #[serde(default = "d_zero")]
    pub clock_skew_ns: f64,
    /// Loss recovery timer, microseconds: a source that has sent every
    /// packet and has no completion ACK this long after its last send asks
    /// the receiver which packets are missing; a source waiting for grants
    /// this long re-sends its request (doubling the wait each time nothing
    /// happens). The pHost authors' simulator re-requests unacknowledged
    /// packets `FASTPASS_EPOCH_TIME` = 10 us after the last send.
    #[serde(default = "d_fp_timeout")]
    pub retransmit_timeout_us: f64,
    /// When a source sends in its granted slots. Default false: at each
    /// slot's start by the arbiter's epoch clock (the Fastpass paper's
    /// timeslots; no host then sends or receives two packets in one slot).
    /// True: the source starts the granted epoch as soon as the grant
    /// arrives, as the pHost authors' simulator does (the Fastpass pHost
    /// evaluates, PROTOCOLS.md section 6): a packet waits up to one epoch
    /// less, and sources' slots are no longer aligned, so a receiver may
    /// get two packets at once.
    #[serde(default)]
    pub start_on_grant: bool,
}
impl Default for FastpassParams {
    fn default() -> Self {
        serde_json::from_str("{}").unwrap()
    }
}

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

/// pHost (PROTOCOLS.md section 5; pHost paper section 3). MTU-times are
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
    /// PROTOCOLS.md section 5 describe it; the authors' simulator gives free
    /// tokens only to flows that fit in them entirely (`init_capa_size`):
    /// set false for that.
    #[serde(default = "d_true")]
    pub free_tokens_long_flows: bool,
    /// Whether free tokens expire. PROTOCOLS.md section 5 has tokens expire
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
impl Default for PhostParams {
    fn default() -> Self {
        serde_json::from_str("{}").unwrap()
    }
}
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

impl FastpassParams {
    /// Checks the parameters that depend on the network: the arbiter must
    /// be one of its hosts.
    pub fn validate_for_hosts(&self, n_hosts: u32) -> Result<(), String> {
        if self.arbiter_host >= n_hosts {
            return Err(format!("params.fastpass.arbiter_host: must be a host index below {n_hosts}, got {}", self.arbiter_host));
        }
        Ok(())
    }
}

/// Which flows an arbitrator ranks as more critical (PROTOCOLS.md section 7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaseCriticality {
    /// Shortest remaining size first (the PASE paper's default, to minimize
    /// flow completion times). Ties: the earlier flow.
    #[default]
    Srpt,
    /// Earliest deadline first; flows without a deadline come after every
    /// flow with one, among themselves by remaining size.
    Edf,
}

/// How the queue index ceil(ADH / C) is read (PROTOCOLS.md section 7). Read
/// literally with the top queue as 0, only a flow with ADH = 0 is in the top
/// queue, and a flow with 0 < ADH < C, which still gets C - ADH, is in the
/// second: on a link faster than the flows' demand (a 10 Gbps uplink of
/// 1 Gbps hosts) every flow but one leaves the top queue. If the paper's
/// queues are numbered from 1 (top), the same formula puts every flow with
/// ADH <= C in the top queue, including one with ADH = C, which gets only
/// the base rate and, in the top queue, does not grow. `floor` keeps the
/// top queue for exactly the flows with ADH < C (the default). Measured:
/// on the testbed (all demands C, so ADH is a whole number of links)
/// `floor` equals `zero_based` and `one_based` has 20-25% higher AFCT at
/// loads 0.3 and 0.5; on the left-right tree `zero_based` has 6-18% and
/// `one_based` 7-8% higher AFCT than `floor`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaseQueueNumbering {
    /// Queue = floor(ADH / C): the top queue holds exactly the flows that
    /// get more than the base rate (ADH < C); a flow whose ADH is a whole
    /// number of links is where `zero_based` puts it, any other where
    /// `one_based` does.
    #[default]
    Floor,
    /// Queue = ceil(ADH / C): only flows with ADH = 0 are in the top queue.
    ZeroBased,
    /// Queue = max(ceil(ADH / C), 1) - 1 (sub-queue 0 is the paper's queue 1):
    /// every flow with ADH <= C is in the top queue.
    OneBased,
}

/// How a PASE end host sets its window (PROTOCOLS.md section 7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaseRateControl {
    /// PASE's own: reference rate in the top queue, base rate growing by
    /// 1/cwnd per ACK in intermediate queues, probes in the lowest; DCTCP's
    /// cut on ECN marks in all of them.
    #[default]
    Pase,
    /// PASE-DCTCP: arbitrated queues, plain DCTCP windows.
    Dctcp,
}

/// What a child arbitrator may hand out of a link its parent delegated to
/// it (PASE section 3.1, "delegation"; PROTOCOLS.md section 7). The paper
/// says the parent divides its link among the children and re-apportions
/// periodically; how much a child may admit between two re-apportionings,
/// when its siblings leave the link idle, it leaves open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaseDelegatedCapacity {
    /// Its share alone. A new flow at a child that had no demand at the
    /// last re-apportioning gets at most the child's part of
    /// `delegation_reserve` (on the left-right tree half a host's line
    /// rate), however idle the parent's link.
    Share,
    /// The larger of its share and the parent's capacity that the other
    /// children do not demand (C minus their reported demands), both as the
    /// parent last advertised them: a child is never held below its line
    /// rate while its siblings leave that much of the link unclaimed. Two
    /// children may borrow the same spare capacity between two
    /// re-apportionings (the end hosts' ECN reaction absorbs the excess).
    #[default]
    ShareOrSpare,
}

/// PASE (PROTOCOLS.md section 7; Munir et al., "Friends, not Foes:
/// Synthesizing Existing Transport Strategies for Data Center Networks",
/// SIGCOMM 2014): arbitrators per link decide each flow's priority queue
/// and reference rate, strict-priority switch queues with per-queue ECN
/// enforce the order, DCTCP-like end hosts adjust around the reference
/// rate. The DCTCP parts default to DCTCP's (pFabric Table 1); the testbed
/// scenario sets its 100-packet queues and K = 20 packets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaseParams {
    /// Buffer of every port, bytes, shared by its queues. As DCTCP: 225 KB.
    #[serde(default = "d_225k")]
    pub buffer_bytes: u64,
    /// Marking threshold K of every sub-queue, bytes of that sub-queue. As
    /// DCTCP: 22.5 KB.
    #[serde(default = "d_k")]
    pub ecn_threshold_bytes: u64,
    /// Weight g of the alpha estimator. DCTCP paper: 1/16.
    #[serde(default = "d_g")]
    pub g: f64,
    /// Alpha at flow start (RFC 8257 and Linux DCTCP: 1).
    #[serde(default = "d_alpha1")]
    pub initial_alpha: f64,
    /// Initial window, packets, of PASE-DCTCP (PASE's own rate control
    /// starts from the arbitration's decision instead). As DCTCP: 12.
    #[serde(default = "d_cwnd12")]
    pub init_cwnd: u32,
    /// Minimum retransmission timeout, microseconds. As DCTCP: 200 us.
    #[serde(default = "d_rto200")]
    pub min_rto_us: f64,
    /// Maximum retransmission timeout after backoff, microseconds.
    #[serde(default = "d_max_rto")]
    pub max_rto_us: f64,
    /// Duplicate ACKs that trigger fast retransmit.
    #[serde(default = "d_dup3")]
    pub dupack_threshold: u32,
    /// Number of strict-priority queues per port, 1 to 8 (the paper: 8
    /// commodity queues; 4 are almost as good).
    #[serde(default = "d_queues8")]
    pub queues: u32,
    /// Criticality order of the arbitrators' flow lists.
    #[serde(default)]
    pub criticality: PaseCriticality,
    /// How ceil(ADH / C) maps to a sub-queue (a choice: see the type).
    #[serde(default)]
    pub queue_numbering: PaseQueueNumbering,
    /// End-host rate control: PASE's or plain DCTCP (PASE-DCTCP).
    #[serde(default)]
    pub rate_control: PaseRateControl,
    /// Only the endpoints arbitrate (their access links); nothing goes to
    /// the switches' arbitrators (the paper's local-only variant).
    #[serde(default)]
    pub local_only: bool,
    /// Early pruning: an arbitration request goes further up only while the
    /// flow is in one of the top `pruning_queues` queues.
    #[serde(default = "d_true")]
    pub early_pruning: bool,
    /// How many top queues count as "top" for early pruning (a choice: the
    /// paper says the flows mapped to the top queues). Default 2.
    #[serde(default = "d_pase_top")]
    pub pruning_queues: u32,
    /// Delegation: each switch-arbitrated link hands shares of its capacity
    /// to the arbitrators one level below, which arbitrate against them
    /// (virtual links) without asking the switch.
    #[serde(default = "d_true")]
    pub delegation: bool,
    /// Re-apportioning period of delegated shares, in base RTTs of the
    /// network (a choice: the paper says periodically). Default 4.
    #[serde(default = "d_pase_deleg")]
    pub delegation_interval_rtts: f64,
    /// Fraction of a delegated link split equally among its children; the
    /// rest goes in proportion to their reported demand (a choice, so that
    /// a child with no demand can still admit a new flow: a small share
    /// makes ceil(ADH / share) large). Default 0.5 (on the left-right tree,
    /// measured with the 0-based queue reading:
    /// 0.1 gives 27% higher AFCT than 0.5 at load 0.2, and 1, no
    /// re-apportioning, 20% higher at load 0.45).
    #[serde(default = "d_half")]
    pub delegation_reserve: f64,
    /// What a child may hand out of a delegated link: its share, or also
    /// the capacity its siblings leave unclaimed (a choice: see the type).
    /// A child's reported demand counts at most its own link's capacity
    /// (it can carry no more).
    #[serde(default)]
    pub delegated_capacity: PaseDelegatedCapacity,
    /// An inter-rack flow (one whose arbitration visits arbitrators beyond
    /// its endpoints) waits for its arbitrators' answer: until the first
    /// decision of its whole chain reaches the source it holds a window of
    /// one packet (the base rate) in the queue its source gave it, so
    /// the arbitration latency is paid (PASE section 3.1: early pruning and
    /// delegation shorten it). Off: it starts at once with its source's
    /// decision and takes the chain's answer when it comes. Intra-rack
    /// flows, local-only arbitration and PASE-DCTCP (whose windows are
    /// DCTCP's) never wait.
    #[serde(default)]
    pub await_arbitration: bool,
    /// Period of a flow's arbitration updates, in its base RTTs (PROTOCOLS.md
    /// section 7: about once per RTT). Default 1.
    #[serde(default = "d_one")]
    pub update_interval_rtts: f64,
    /// A switch arbitrator forgets a flow not refreshed for this many update
    /// periods (soft state: pruned flows stop refreshing). Default 3.
    #[serde(default = "d_pase_expiry")]
    pub expiry_updates: f64,
    /// Period of the header-only probes of a flow in the lowest queue, in its
    /// base RTTs (section 7: once per RTT). Default 1.
    #[serde(default = "d_one")]
    pub probe_interval_rtts: f64,
    /// Whether a flow in the lowest queue probes: on a timeout it sends a
    /// header-only probe once per probe interval instead of retransmitting
    /// a full packet (PASE section 4.3.2: "flows mapped to the lowest
    /// priority queue send a header-only probe packet every RTT rather than
    /// a full-sized packet"). Default true; false is the paper's comparison
    /// without probing.
    #[serde(default = "d_true")]
    pub probing: bool,
    /// A flow's demand is min(line rate, remaining bytes / base RTT) (true),
    /// or its line rate (false, the default). A choice: the paper lets a
    /// flow state its demand; on the testbed setting the line rate gives
    /// equal or lower AFCT (load 0.7: 11% lower).
    #[serde(default)]
    pub demand_capped_by_remaining: bool,
    /// A flow in the lowest queue grows its window by 1/cwnd per ACK as in
    /// an intermediate queue (true) or holds one packet (false, PROTOCOLS.md
    /// section 7's reading); it probes instead of retransmitting either way.
    #[serde(default)]
    pub lowest_queue_grows: bool,
    /// Time an arbitrator takes to process one arbitration message
    /// (request, release, delegation report or update), microseconds.
    /// Each node's arbitration logic (a host's, deciding its two access
    /// links; a switch's, deciding its links and the shares delegated to
    /// it) is one FIFO server: a message waits for those before it, then
    /// takes this long, and its decision is made and sent on when it
    /// ends. Responses reaching a source and the source's own decision (no
    /// message) take no time. PASE section 4.3.1 credits delegation with
    /// part of the optimizations' AFCT gain "because of delegation, which
    /// reduces the arbitration delays": with a time per message, fewer
    /// messages (early pruning, delegation) mean less waiting. The paper
    /// gives no value: a choice for the user, to be reported as a
    /// sensitivity. Default 0: messages are processed as they arrive (the
    /// results before this option existed).
    #[serde(default = "d_zero")]
    pub arbitrator_service_us: f64,
}
impl Default for PaseParams {
    fn default() -> Self {
        serde_json::from_str("{}").unwrap()
    }
}
impl PaseParams {
    /// The DCTCP settings PASE's end hosts run with (its first eight
    /// fields; PASE reads no DCTCP profile, and its receivers ACK every
    /// packet).
    pub fn dctcp_part(&self) -> DctcpSettings {
        DctcpSettings {
            profile: DctcpProfile::Linux,
            buffer_bytes: self.buffer_bytes,
            ecn_threshold_bytes: self.ecn_threshold_bytes,
            g: self.g,
            initial_alpha: self.initial_alpha,
            init_cwnd: self.init_cwnd,
            min_rto_us: self.min_rto_us,
            max_rto_us: self.max_rto_us,
            dupack_threshold: self.dupack_threshold,
            min_cwnd_after_cut: SIM_MIN_CUT_CWND,
            delayed_ack_timeout_us: None,
        }
    }
    fn validate(&self) -> Result<(), String> {
        dctcp_like("pase", &self.dctcp_part())?;
        if !(1..=8).contains(&self.queues) {
            return Err(format!("params.pase.queues: must be 1 to 8 (commodity switches have at most 8 queues), got {}", self.queues));
        }
        if !(1..=self.queues).contains(&self.pruning_queues) {
            return Err(format!("params.pase.pruning_queues: must be 1 to queues ({}), got {}", self.queues, self.pruning_queues));
        }
        positive("pase.delegation_interval_rtts", self.delegation_interval_rtts)?;
        if !(0.0..=1.0).contains(&self.delegation_reserve) {
            return Err(format!("params.pase.delegation_reserve: must be in [0, 1], got {}", self.delegation_reserve));
        }
        positive("pase.update_interval_rtts", self.update_interval_rtts)?;
        if !(self.expiry_updates.is_finite() && self.expiry_updates >= 1.0) {
            return Err(format!(
                "params.pase.expiry_updates: must be a number >= 1 (an arbitrator must not forget a flow between two of its updates), got {}",
                self.expiry_updates
            ));
        }
        positive("pase.probe_interval_rtts", self.probe_interval_rtts)?;
        non_negative("pase.arbitrator_service_us", self.arbitrator_service_us)?;
        Ok(())
    }
}

fn non_negative(field: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(format!("params.{field}: must be a number >= 0, got {v}"))
    }
}

fn positive(field: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(format!("params.{field}: must be a positive number, got {v}"))
    }
}
/// `v` is in (0, 1] (a fraction that may not be zero).
fn unit_fraction(field: &str, v: f64) -> Result<(), String> {
    if v > 0.0 && v <= 1.0 {
        Ok(())
    } else {
        Err(format!("params.{field}: must be in (0, 1], got {v}"))
    }
}
fn at_least(field: &str, v: u64, min: u64) -> Result<(), String> {
    if v >= min {
        Ok(())
    } else {
        Err(format!("params.{field}: must be at least {min}, got {v}"))
    }
}

/// Checks the parameters DCTCP, D2TCP, L2DCT and PASE share, as their
/// profile and the fields given resolve them, under `proto`'s name.
fn dctcp_like(proto: &str, d: &DctcpSettings) -> Result<(), String> {
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

/// Checks RCP's parameters (RCP and D3 share them) under `proto`'s name.
fn rcp_like(proto: &str, r: &RcpParams) -> Result<(), String> {
    at_least(&format!("{proto}.buffer_bytes"), r.buffer_bytes, 1500)?;
    positive(&format!("{proto}.alpha"), r.alpha)?;
    positive(&format!("{proto}.beta"), r.beta)?;
    positive(&format!("{proto}.control_interval_us"), r.control_interval_us)?;
    positive(&format!("{proto}.rtt_us"), r.rtt_us)?;
    positive(&format!("{proto}.rto_us"), r.rto_us)?;
    positive(&format!("{proto}.d3_allocation_lifetime_rtts"), r.d3_allocation_lifetime_rtts)?;
    positive(&format!("{proto}.count_flows_lifetime_rtts"), r.count_flows_lifetime_rtts)
}

impl ProtocolParams {
    /// Checks every parameter; the error names the field and the reason.
    pub fn validate(&self) -> Result<(), String> {
        let t = &self.tcp;
        at_least("tcp.buffer_bytes", t.buffer_bytes, 1500)?;
        at_least("tcp.init_cwnd", t.init_cwnd as u64, 1)?;
        positive("tcp.min_rto_us", t.min_rto_us)?;
        positive("tcp.max_rto_us", t.max_rto_us)?;
        at_least("tcp.dupack_threshold", t.dupack_threshold as u64, 1)?;
        dctcp_like("dctcp", &self.dctcp.dctcp_part())?;
        let d = &self.d2tcp;
        dctcp_like("d2tcp", &d.dctcp_part())?;
        positive("d2tcp.min_imminence", d.min_imminence)?;
        if !(d.max_imminence.is_finite() && d.max_imminence >= d.min_imminence) {
            return Err(format!("params.d2tcp.max_imminence: must be a number >= min_imminence ({}), got {}", d.min_imminence, d.max_imminence));
        }
        positive("d2tcp.past_deadline_imminence", d.past_deadline_imminence)?;
        let l = &self.l2dct;
        dctcp_like("l2dct", &l.dctcp_part())?;
        positive("l2dct.min_weight", l.min_weight)?;
        if !(l.max_weight.is_finite() && l.max_weight >= l.min_weight) {
            return Err(format!("params.l2dct.max_weight: must be a number >= min_weight ({}), got {}", l.min_weight, l.max_weight));
        }
        at_least("l2dct.min_weight_bytes", l.min_weight_bytes, l.full_weight_bytes + 1)?;
        let p = &self.pfabric;
        at_least("pfabric.buffer_bytes", p.buffer_bytes, 1500)?;
        at_least("pfabric.init_cwnd", p.init_cwnd as u64, 1)?;
        at_least("pfabric.max_cwnd", p.max_cwnd as u64, p.init_cwnd as u64)?;
        positive("pfabric.rto_us", p.rto_us)?;
        at_least("pfabric.probe_after_timeouts", p.probe_after_timeouts as u64, 1)?;
        rcp_like("rcp", &self.rcp)?;
        rcp_like("d3", &self.d3)?;
        if self.d3.count_flows {
            return Err("params.d3.count_flows: RCP only (D3's ports already keep every flow's allocation); set params.rcp.count_flows".into());
        }
        let q = &self.pdq;
        at_least("pdq.buffer_bytes", q.buffer_bytes, 1500)?;
        positive("pdq.rto_us", q.rto_us)?;
        positive("pdq.probe_interval_us", q.probe_interval_us)?;
        at_least("pdq.kappa", q.kappa as u64, 1)?;
        positive("pdq.early_start_k", q.early_start_k)?;
        positive("pdq.probing_x", q.probing_x)?;
        non_negative("pdq.dampening_us", q.dampening_us)?;
        positive("pdq.rate_r", q.rate_r)?;
        unit_fraction("pdq.rate_r", q.rate_r)?;
        positive("pdq.init_rtt_us", q.init_rtt_us)?;
        non_negative("pdq.early_termination_rtts", q.early_termination_rtts)?;
        unit_fraction("pdq.early_termination_rate_fraction", q.early_termination_rate_fraction)?;
        if !(0.0..1.0).contains(&q.min_rate_fraction) {
            return Err(format!("params.pdq.min_rate_fraction: must be in [0, 1), got {}", q.min_rate_fraction));
        }
        let f = &self.fastpass;
        at_least("fastpass.buffer_bytes", f.buffer_bytes, 1500)?;
        at_least("fastpass.epoch_slots", f.epoch_slots as u64, 1)?;
        if f.epoch_slots > 32 {
            return Err(format!("params.fastpass.epoch_slots: must be at most 32, got {}", f.epoch_slots));
        }
        non_negative("fastpass.epoch_guard_slots", f.epoch_guard_slots)?;
        non_negative("fastpass.arbiter_processing_us", f.arbiter_processing_us)?;
        non_negative("fastpass.clock_skew_ns", f.clock_skew_ns)?;
        positive("fastpass.retransmit_timeout_us", f.retransmit_timeout_us)?;
        let h = &self.phost;
        at_least("phost.buffer_bytes", h.buffer_bytes, 1500)?;
        at_least("phost.priority_queues", h.priority_queues as u64, 3)?;
        if h.priority_queues > 8 {
            return Err(format!("params.phost.priority_queues: must be at most 8, got {}", h.priority_queues));
        }
        at_least("phost.free_tokens", h.free_tokens as u64, 0)?;
        positive("phost.token_ttl_mtu", h.token_ttl_mtu)?;
        at_least("phost.token_interval_bytes", h.token_interval_bytes, 40)?;
        at_least("phost.downgrade_window", h.downgrade_window as u64, 1)?;
        positive("phost.downgrade_mtu", h.downgrade_mtu())?;
        positive("phost.receiver_timeout_mtu", h.receiver_timeout_mtu())?;
        positive("phost.rts_timeout_us", h.rts_timeout_us)?;
        self.pase.validate()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(json: &str) -> Result<ProtocolParams, String> {
        let p: ProtocolParams = serde_json::from_str(json).map_err(|e| e.to_string())?;
        p.validate()?;
        Ok(p)
    }

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
        assert_eq!(PaseParams::default().dctcp_part().delayed_ack_timeout_us, None, "PASE reads no profile");
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
