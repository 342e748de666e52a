//! Parameters of Fastpass.

use crate::protocol::params::*;

defaults! {
    /// Timeslots per epoch: 8, docs/protocols/fastpass.md and the pHost
    /// authors' simulator (`FASTPASS_EPOCH_PKTS`).
    d_fp_epoch: u32 = 8;
    /// The arbiter's host: 0, the first host of the first rack.
    d_fp_arbiter: u32 = 0;
    /// Wait before a source re-sends its request, microseconds: 10, the
    /// pHost authors' simulator (`FASTPASS_EPOCH_TIME`).
    d_fp_timeout: f64 = 10.0;
}
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Fastpass as the pHost paper evaluates it (docs/protocols/fastpass.md;
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
    /// host link rate (Fastpass paper section 3). docs/protocols/fastpass.md and
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
    /// evaluates, docs/protocols/fastpass.md): a packet waits up to one epoch
    /// less, and sources' slots are no longer aligned, so a receiver may
    /// get two packets at once.
    #[serde(default)]
    pub start_on_grant: bool,
}
serde_default!(FastpassParams);

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
