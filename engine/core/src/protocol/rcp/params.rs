//! Parameters of RCP and of D3, which reads the same ones its own way.

use crate::protocol::params::*;

defaults! {
    /// Weight alpha of spare capacity in RCP's rate update: RCP paper, 0.1.
    d_rcp_alpha: f64 = 0.1;
    /// Weight beta of the standing queue in RCP's rate update: RCP paper, 1.
    d_rcp_beta: f64 = 1.0;
    /// RCP's rate update interval T, microseconds (at most the mean RTT): 10.
    d_rcp_interval: f64 = 10.0;
    /// Base RTT of RCP's rate update, microseconds: 10.
    d_rcp_rtt: f64 = 10.0;
    /// RCP's retransmission timeout, microseconds (it rarely loses
    /// packets): 1000.
    d_rcp_rto: f64 = 1000.0;
    /// RTTs after which a D3 port returns a silent flow's allocation (a
    /// choice): 4.
    d_d3_life: f64 = 4.0;
    /// RTTs after which an RCP port stops counting a silent flow (a
    /// choice): 10.
    d_count_life: f64 = 10.0;
}
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// RCP (Dukkipati and McKeown; docs/protocols/rcp.md).
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
    /// D3 only: one path per flow. D3's ports keep each flow's allocation
    /// and a flow sends at the least its path's ports grant, which assumes
    /// a flow's packets keep to one path (as PDQ's do:
    /// `PdqParams::per_flow_paths`), so with this on a D3 run hashes each
    /// flow to one path (ECMP) whatever the scenario's `load_balancing`
    /// says. Off, packets are sprayed and each spine's ports see a flow's
    /// requests only now and then, holding stale allocations: on the web
    /// search leaf-spine (300 flows, seed 1) the mean slowdown is then 3.08
    /// against 2.21, and it falls as spines are taken away (2.95 with 3,
    /// 2.90 with 2) where with one path per flow it rises (2.23, 2.30).
    #[serde(default = "d_true")]
    pub d3_per_flow_paths: bool,
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
    /// idle interval raises R by (T/d) alpha C / N, the same equation.
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
serde_default!(RcpParams);

/// Checks RCP's parameters (RCP and D3 share them) under `proto`'s name.
pub(crate) fn rcp_like(proto: &str, r: &RcpParams) -> Result<(), String> {
    at_least(&format!("{proto}.buffer_bytes"), r.buffer_bytes, 1500)?;
    positive(&format!("{proto}.alpha"), r.alpha)?;
    positive(&format!("{proto}.beta"), r.beta)?;
    positive(&format!("{proto}.control_interval_us"), r.control_interval_us)?;
    positive(&format!("{proto}.rtt_us"), r.rtt_us)?;
    positive(&format!("{proto}.rto_us"), r.rto_us)?;
    positive(&format!("{proto}.d3_allocation_lifetime_rtts"), r.d3_allocation_lifetime_rtts)?;
    positive(&format!("{proto}.count_flows_lifetime_rtts"), r.count_flows_lifetime_rtts)
}
