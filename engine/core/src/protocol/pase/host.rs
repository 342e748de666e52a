//! PASE's end-host controller (Munir et al., SIGCOMM 2014, section 3.2;
//! docs/protocols/pase.md): DCTCP's cut on marks; otherwise the window
//! follows the queue the arbitration chose ([`PaseHost::on_decision`],
//! called by the source, `super`): the top queue holds the reference
//! rate's window, an intermediate queue grows from 1 packet, the lowest
//! holds 1 packet and probes once per probe interval instead of
//! retransmitting. It is [`Dctcp`] with the rule [`PaseQueue`], added to
//! the window transport as its [`ControllerExtension`].

use super::events::PROBE;
use crate::protocol::window::controller::{Controller, ControllerExtension, Dctcp, DctcpConfig, DctcpRule, ProbeInstead};
use crate::units::{SimTime, MTU};
use crate::workload::FlowSpec;

/// Where PASE's arbitration put a flow, as its window sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PaseMode {
    /// The top queue: the window is the reference rate times the RTT
    /// (set by the arbitration, not grown per ACK).
    #[default]
    Top,
    /// An intermediate queue: from 1 packet, + 1/cwnd per ACK.
    Middle,
    /// The lowest queue: 1 packet, and a header-only probe once per probe
    /// interval where a timeout would retransmit.
    Lowest,
}

/// PASE's end-host parameters: DCTCP's and two choices (`PaseParams`).
#[derive(Clone, Copy, Debug)]
pub struct PaseHostConfig {
    /// DCTCP's part.
    pub dctcp: DctcpConfig,
    /// The lowest queue's window grows as an intermediate queue's.
    pub lowest_grows: bool,
    /// The lowest queue probes instead of retransmitting (`probing`).
    pub probing: bool,
}

/// PASE's rule and per-flow state: the arbitrated queue, the probe
/// interval and the two choices (section 3.2).
#[derive(Clone, Debug)]
pub struct PaseQueue {
    /// Period of the lowest queue's probes (set at the flow's arrival from
    /// its base RTT; `NEVER` until then).
    probe_interval: SimTime,
    mode: PaseMode,
    lowest_grows: bool,
    probing: bool,
}

impl DctcpRule for PaseQueue {
    /// The window grows only in an intermediate queue (and the lowest,
    /// with `lowest_grows`); in the top queue it holds the arbitrated
    /// window (section 3.2).
    #[inline]
    fn grows(&self) -> bool {
        self.mode == PaseMode::Middle || (self.mode == PaseMode::Lowest && self.lowest_grows)
    }
    /// No timeout (hence no probe) sooner than one probe interval after
    /// progress in the lowest queue.
    #[inline]
    fn progress_wait(&self, rto: SimTime) -> SimTime {
        if self.mode == PaseMode::Lowest && self.probing {
            rto.max(self.probe_interval)
        } else {
            rto
        }
    }
    /// In the lowest queue packets may wait long behind higher queues: a
    /// timeout sends a header-only probe once per probe interval instead
    /// of retransmitting (section 3.2).
    #[inline]
    fn probe_instead_of_retransmit(&self) -> Option<ProbeInstead> {
        (self.probing && self.mode == PaseMode::Lowest).then_some(ProbeInstead { interval: self.probe_interval, traced_as: PROBE })
    }
}

/// One flow's PASE end-host controller: DCTCP's state (its cut on marks)
/// and PASE's queue.
pub type PaseHost = Dctcp<PaseQueue>;

impl ControllerExtension for PaseHost {
    type Config = PaseHostConfig;
    /// PASE's end hosts are DCTCP's, ECN-capable (section 3.2).
    const ECN_CAPABLE: bool = true;
    fn name(_: &PaseHostConfig) -> &'static str {
        "pase"
    }
    fn new_flow(c: &PaseHostConfig, _: &FlowSpec) -> Self {
        Dctcp::new(&c.dctcp, PaseQueue::new(c))
    }
    fn alpha(&self) -> Option<f64> {
        Some(Dctcp::alpha(self))
    }
}

impl PaseQueue {
    /// A flow's queue at its start: the top queue, no probe interval yet.
    pub fn new(c: &PaseHostConfig) -> Self {
        PaseQueue { probe_interval: SimTime::NEVER, mode: PaseMode::Top, lowest_grows: c.lowest_grows, probing: c.probing }
    }
}

impl PaseHost {
    /// The arbitrated queue, as the window sees it.
    pub fn mode(&self) -> PaseMode {
        self.rule().mode
    }
    /// Period of the lowest queue's probes.
    pub fn probe_interval(&self) -> SimTime {
        self.rule().probe_interval
    }
    /// Sets the period of the lowest queue's probes.
    pub fn set_probe_interval(&mut self, interval: SimTime) {
        self.rule_mut().probe_interval = interval;
    }
    /// Sets the window, in packets (at least 1), keeping slow start off.
    pub fn set_window(&mut self, cwnd: f64) {
        self.reno_mut().set_window(cwnd);
    }
    /// The arbitration put the flow in `mode` with reference rate
    /// `rate_bps` (section 3.2): in the top queue the window is the rate
    /// times the base RTT `rtt`; entering an intermediate queue, or the
    /// lowest (every time, unless the lowest grows), it is 1 packet;
    /// staying in one it keeps growing.
    pub fn on_decision(&mut self, mode: PaseMode, rate_bps: f64, rtt: SimTime) {
        let q = self.rule();
        match mode {
            PaseMode::Top => self.set_window(rate_bps * rtt.as_secs_f64() / (MTU as f64 * 8.0)),
            PaseMode::Middle if q.mode != PaseMode::Middle => self.set_window(1.0),
            PaseMode::Middle => {}
            PaseMode::Lowest if q.mode != PaseMode::Lowest || !q.lowest_grows => self.set_window(1.0),
            PaseMode::Lowest => {}
        }
        self.rule_mut().mode = mode;
    }
}
