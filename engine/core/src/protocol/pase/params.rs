//! Parameters of PASE.

use crate::protocol::params::*;
use crate::protocol::window::params::{d_dup3, d_g, d_k, d_max_rto, dctcp_like, DctcpProfile, DctcpSettings, SIM_MIN_CUT_CWND};

defaults! {
    /// Alpha at flow start: 1, as RFC 8257 and Linux's DCTCP.
    d_alpha1: f64 = 1.0;
    /// Strict-priority queues per port: PASE section 4.4, "use 8 priority
    /// queues".
    d_queues8: u32 = 8;
    /// Queues that count as top for early pruning (a choice): 2.
    d_pase_top: u32 = 2;
    /// Re-apportioning period of delegated shares, base RTTs (a choice):
    /// 4.
    d_pase_deleg: f64 = 4.0;
    /// Fraction of a delegated link split equally among its children (a
    /// choice): 0.5.
    d_half: f64 = 0.5;
    /// Update periods after which an arbitrator forgets a flow (a
    /// choice): 3.
    d_pase_expiry: f64 = 3.0;
}
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which flows an arbitrator ranks as more critical (docs/protocols/pase.md).
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

/// How the queue index ceil(ADH / C) is read (docs/protocols/pase.md). Read
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

/// How a PASE end host sets its window (docs/protocols/pase.md).
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
/// it (PASE section 3.1, "delegation"; docs/protocols/pase.md). The paper
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

/// PASE (docs/protocols/pase.md; Munir et al., "Friends, not Foes:
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
    /// Period of a flow's arbitration updates, in its base RTTs (docs/protocols/pase.md: about once per RTT). Default 1.
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
    /// an intermediate queue (true) or holds one packet (false, docs/protocols/pase.md's reading); it probes instead of retransmitting either way.
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
serde_default!(PaseParams);
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
    pub(crate) fn validate(&self) -> Result<(), String> {
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
