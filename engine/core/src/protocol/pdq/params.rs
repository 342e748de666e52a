//! Parameters of PDQ.

use crate::protocol::params::*;

defaults! {
    /// Probing interval I_s, microseconds: pFabric paper Table 1 for PDQ,
    /// `probingInterval = 15µs`.
    d_pdq_probe: f64 = 15.0;
    /// Most flows a port's list holds, kappa (a choice; the NetSys-lineage
    /// simulators use 100 to 200): 100.
    d_pdq_kappa: u32 = 100;
    /// Early Start's K, RTTs: PDQ section 3.3.1 and pFabric paper Table 1,
    /// `K = 2 (for Early Start)`.
    d_pdq_k: f64 = 2.0;
    /// Suppressed Probing's X: PDQ section 3.3.4, 0.2.
    d_pdq_x: f64 = 0.2;
    /// Dampening window, microseconds (not in the paper): 10, as the
    /// NetSys-lineage PDQ simulator.
    d_pdq_damp: f64 = 10.0;
    /// RTT assumed before the first sample, microseconds: 10.
    d_pdq_rtt: f64 = 10.0;
    /// Smallest rate a port grants, as a fraction of its link (a choice):
    /// 0.01.
    d_pdq_min_rate: f64 = 0.01;
    /// Early Termination's rate factor (a choice): 0.9.
    d_pdq_et_rate: f64 = 0.9;
    /// Early Termination's RTTs to the deadline (a choice): 1.
    d_pdq_et_rtts: f64 = 1.0;
}
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// PDQ (Hong, Caesar, Godfrey, SIGCOMM 2012; docs/protocols/pdq.md).
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
    #[serde(default = "d_one")]
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
    /// 0 (false gives that reading). Measured effect:
    /// docs/protocols/pdq.md.
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
    /// Measured effect: docs/protocols/pdq.md.
    #[serde(default = "d_true")]
    pub rate_control_rtt_with_queue: bool,
    /// On the reverse path (Algorithm 3) a port caps the rate an ACK
    /// carries back at what it can give the flow now, pausing the flow when
    /// that is nothing: a more critical flow may have been accepted between
    /// the forward packet and its ACK. When a query's SYNs arrive together
    /// each is granted the link if it is the most critical so far, and
    /// without this every such flow sends a round trip of data at full
    /// rate. Read literally, Algorithm 3 only records the rate. A choice.
    /// Measured effect: docs/protocols/pdq.md.
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
    /// Measured effect: docs/protocols/pdq.md.
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
    /// Measured effect: docs/protocols/pdq.md.
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
    /// time to deadline", PDQ section 3.3.2). A choice. Measured effect:
    /// docs/protocols/pdq.md.
    #[serde(default = "d_pdq_et_rate")]
    pub early_termination_rate_fraction: f64,
    /// Round trips (the flow's RTT) Early Termination adds to the
    /// remaining transmission time while anything is left to transmit: a
    /// paused flow needs a round trip before its data flows, and a sending
    /// flow's last byte still has a one-way delay and any queue to cross.
    /// The paper's third condition (paused, and less than an RTT to the
    /// deadline) is the case of a flow with nothing left but the round
    /// trip. A choice. Measured effect:
    /// docs/protocols/pdq.md.
    #[serde(default = "d_pdq_et_rtts")]
    pub early_termination_rtts: f64,
}
serde_default!(PdqParams);
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
