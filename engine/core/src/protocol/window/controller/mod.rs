//! Congestion controllers of the window transports (issue 29), in the shape
//! of quinn-proto's `congestion::Controller` and smoltcp's `congestion`
//! module: a controller is one flow's window and whatever state its rule
//! keeps, built per flow by a factory ([`ControllerConfig::new_flow`]), told
//! of ACKs ([`Controller::on_ack`]), congestion ([`Controller::on_congestion_event`])
//! and timeouts ([`Controller::on_timeout`]), and asked for the window
//! ([`Controller::window`]). The sender (`window/mod.rs`) keeps the loss
//! detection, the scoreboard, the RTT estimator and the timer; a controller
//! only moves the window, and answers the few policy questions the sender
//! asks (pFabric's probe mode, a probe instead of a retransmission and its
//! wait).
//!
//! Every controller here is TCP NewReno (RFC 5681, RFC 6582) with changes:
//! [`NewReno`] (window and slow-start threshold) is the part each one
//! holds, and the trait's defaults are NewReno's, on that part. DCTCP
//! ([`Dctcp`], DCTCP paper section 3.2) adds the marking estimator alpha
//! and its once-per-window cut. D2TCP ([`D2tcp`], D2TCP paper section 3),
//! L2DCT ([`L2dct`], L2DCT paper section IV) are the same DCTCP controller
//! with another [`DctcpRule`], which holds the member's own state (D2TCP:
//! the deadline) and answers what it changes (the cut's fraction, the
//! increase, when the window grows, probes instead of retransmissions),
//! so the family's arithmetic is written once. pFabric ([`PFabric`],
//! pFabric paper section 4.2) adds the run of timeouts and probe mode.
//!
//! A protocol outside this folder adds its own controller as a
//! [`ControllerExtension`]: the transport, its configuration and each
//! flow's [`FlowController`] take it as a type parameter (one more variant,
//! statically dispatched), and the transports here take [`NoExtension`],
//! a type with no values, whose variant the compiler leaves out.
//!
//! Parameters: each flow's controller holds a copy of the few parameters
//! its rule reads (the largest window, DCTCP's g and floor, the D2TCP
//! imminence bounds, the L2DCT weights: at most 56 bytes, L2DCT's), so one
//! `match` on the flow's own [`FlowController`] reaches both its state and
//! its parameters, with no second look-up in the transport's
//! configuration (a `match` on both would cost a check per hook). The
//! window's fields come first in every controller (`repr(C)`, the enum
//! `repr(u8)`), so [`Controller::window`] reads one offset whatever the
//! variant. Whatever takes an [`AckEvent`] on the ACK path is
//! `#[inline(always)]`: a call left out of line makes the event a struct
//! in memory, written on every ACK. (What each choice saves is in the
//! commit that made it, measured with callgrind.)
//!
//! This module and its files read nothing of the sender: what a rule needs
//! of the flow comes in an [`AckEvent`].

use crate::trace::ControlEvent;
use crate::units::{SimTime, MSS};
use crate::workload::FlowSpec;
use std::fmt::Debug;

mod d2tcp;
mod dctcp;
mod l2dct;
pub mod pfabric;
pub use d2tcp::{D2tcp, D2tcpConfig, Deadline, Imminence};
pub use dctcp::{Dctcp, DctcpConfig, DctcpRule, Plain};
pub use l2dct::{L2dct, L2dctConfig, Weights};
pub use pfabric::{PFabric, PFabricConfig};

/// The largest window of the transports that set none, packets (in effect
/// unbounded).
pub const UNBOUNDED_CWND: f64 = 1e9;

/// What an ACK tells a controller, after the sender's loss detection has
/// run on it.
#[derive(Clone, Copy, Debug)]
pub struct AckEvent {
    /// Packets this ACK newly acknowledged (cumulatively or selectively).
    pub newly: u32,
    /// The ACK echoes a CE mark (ECN-Echo).
    pub ece: bool,
    /// The packet the ACK was sent for (its selective ACK).
    pub sack: u32,
    /// The first packet not yet acknowledged cumulatively.
    pub snd_una: u32,
    /// The next packet never sent.
    pub snd_nxt: u32,
    /// The sender is in fast recovery (RFC 6582), after this ACK.
    pub in_recovery: bool,
    /// The flow's payload bytes.
    pub size: u64,
    /// The smoothed RTT, picoseconds (0 before the first sample).
    pub srtt_ps: f64,
    /// When the ACK arrived.
    pub now: SimTime,
}

impl AckEvent {
    /// Payload bytes sent at least once (packets below `snd_nxt`): what
    /// L2DCT's weight and D2TCP's remaining bytes are counted from.
    #[inline(always)]
    pub fn bytes_sent(&self) -> u64 {
        (self.snd_nxt as u64 * MSS as u64).min(self.size)
    }
}

/// Congestion the sender or the controller saw.
#[derive(Clone, Copy, Debug)]
pub enum CongestionEvent<'a> {
    /// Loss by duplicate ACKs: the sender enters fast recovery (RFC 5681
    /// section 3.2, RFC 6582).
    DupAcks,
    /// An ECN-Echo on this ACK, the first since the last cut's window
    /// (DCTCP section 3.2): the DCTCP family's cut.
    Marks(&'a AckEvent),
}

/// On a timeout, a header-only probe instead of a retransmission, as a
/// controller asks for it ([`Controller::probe_instead_of_retransmit`]).
#[derive(Clone, Copy, Debug)]
pub struct ProbeInstead {
    /// The wait for the next probe (the retransmission timer's).
    pub interval: SimTime,
    /// The control event the probe is traced as.
    pub traced_as: &'static ControlEvent,
}

/// One flow's congestion controller: its window and the state its rule
/// keeps. The defaults are TCP NewReno's (RFC 5681, RFC 6582), on the
/// [`NewReno`] part every controller here holds.
pub trait Controller {
    /// The NewReno part: the window and the slow-start threshold.
    fn reno(&self) -> &NewReno;
    /// The NewReno part, to change.
    fn reno_mut(&mut self) -> &mut NewReno;
    /// The congestion window, packets.
    fn window(&self) -> f64 {
        self.reno().cwnd
    }
    /// An ACK arrived, before anything else is done with it: pFabric's
    /// probe mode and its run of timeouts end (pFabric section 4.2).
    /// Returns whether the flow was in probe mode.
    fn on_ack_arrival(&mut self) -> bool {
        false
    }
    /// An ACK, after the sender's loss detection: the window grows (slow
    /// start, then congestion avoidance, RFC 5681 section 3.1) unless in
    /// fast recovery; the DCTCP family also estimates and answers marks.
    #[inline(always)]
    fn on_ack(&mut self, ack: &AckEvent) {
        if ack.newly > 0 && !ack.in_recovery {
            self.reno_mut().grow(ack.newly, 1.0);
        }
    }
    /// Congestion: loss by duplicate ACKs halves the window (RFC 5681
    /// section 3.2, RFC 6582); marks are the DCTCP family's (ignored
    /// without ECN).
    #[inline(always)]
    fn on_congestion_event(&mut self, event: CongestionEvent<'_>) {
        if let CongestionEvent::DupAcks = event {
            self.reno_mut().halve();
        }
    }
    /// A full ACK ended fast recovery: the window deflates to the
    /// slow-start threshold (RFC 6582 section 3.2, step 3).
    fn on_recovery_end(&mut self) {
        self.reno_mut().end_recovery();
    }
    /// The retransmission timer fired: the threshold halves and the window
    /// falls to one packet (RFC 5681 section 3.1, the loss window).
    fn on_timeout(&mut self) {
        self.reno_mut().collapse();
    }
    /// The sender sends only probes (pFabric's probe mode, section 4.2).
    fn in_probe_mode(&self) -> bool {
        false
    }
    /// How long after progress the retransmission timer fires, given the
    /// current timeout.
    fn progress_wait(&self, rto: SimTime) -> SimTime {
        rto
    }
    /// On a timeout: send a header-only probe instead of retransmitting,
    /// and wait its interval for the next.
    fn probe_instead_of_retransmit(&self) -> Option<ProbeInstead> {
        None
    }
}

/// NewReno's parameters: the window a flow starts with and the largest.
#[derive(Clone, Copy, Debug)]
pub struct RenoConfig {
    /// Initial window, packets.
    pub init_cwnd: f64,
    /// Largest window, packets.
    pub max_cwnd: f64,
}

/// TCP NewReno (RFC 5681, RFC 6582) with SACK-based pipe accounting in the
/// sender: slow start, congestion avoidance, halving on loss. Every other
/// controller holds one.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct NewReno {
    /// Congestion window, packets (first: see the module's docs).
    cwnd: f64,
    ssthresh: f64,
    max_cwnd: f64,
}

impl NewReno {
    /// A flow's window at its start (no slow-start threshold yet).
    pub fn new(c: &RenoConfig) -> Self {
        NewReno { cwnd: c.init_cwnd, ssthresh: f64::INFINITY, max_cwnd: c.max_cwnd }
    }
    /// The slow-start threshold, packets.
    pub fn ssthresh(&self) -> f64 {
        self.ssthresh
    }
    /// Sets the window, in packets, keeping slow start off (for a window
    /// set from outside rather than grown).
    pub fn set_window(&mut self, cwnd: f64) {
        self.cwnd = cwnd.max(1.0);
        self.ssthresh = self.cwnd;
    }
    /// `newly` packets acknowledged: per packet, + 1 below the threshold
    /// (slow start), else + k / cwnd (congestion avoidance: k packets per
    /// window, 1 for Reno, RFC 5681 section 3.1); then capped.
    #[inline]
    pub fn grow(&mut self, newly: u32, k: f64) {
        for _ in 0..newly {
            self.cwnd += if self.cwnd < self.ssthresh { 1.0 } else { k / self.cwnd };
        }
        self.cwnd = self.cwnd.min(self.max_cwnd);
    }
    /// Fast retransmit: threshold and window to half the window, at least
    /// 2 (RFC 5681 section 3.2, its equation 4 with cwnd for FlightSize;
    /// RFC 6582: the sender's SACK pipe, not an inflated window, paces the
    /// recovery).
    #[inline]
    fn halve(&mut self) {
        self.ssthresh = (self.cwnd / 2.0).max(2.0);
        self.cwnd = self.ssthresh;
    }
    /// End of fast recovery: the window deflates to the threshold (RFC
    /// 6582 section 3.2, step 3).
    #[inline]
    fn end_recovery(&mut self) {
        self.cwnd = self.ssthresh;
    }
    /// A timeout: threshold to half the window (at least 2), window to one
    /// packet (RFC 5681 section 3.1).
    #[inline]
    fn collapse(&mut self) {
        self.ssthresh = (self.cwnd / 2.0).max(2.0);
        self.cwnd = 1.0;
    }
    /// A cut on marks to `cwnd x (1 - p / 2)`, at least `floor`; the
    /// threshold follows (at least 2) (DCTCP section 3.2).
    #[inline]
    fn cut(&mut self, p: f64, floor: f64) {
        self.cwnd = (self.cwnd * (1.0 - p / 2.0)).max(floor);
        self.ssthresh = self.cwnd.max(2.0);
    }
}

impl Controller for NewReno {
    fn reno(&self) -> &NewReno {
        self
    }
    fn reno_mut(&mut self) -> &mut NewReno {
        self
    }
}

/// A controller that a protocol outside this folder adds to the window
/// transports: its parameters, its per-flow factory and the few answers
/// [`ControllerConfig`] and [`FlowController`] give for every variant.
pub trait ControllerExtension: Controller + Clone + Debug + Send + Sync {
    /// Its parameters (the factory's).
    type Config: Clone + Debug + Send + Sync;
    /// Its data are ECN-capable.
    const ECN_CAPABLE: bool;
    /// The protocol's name (`--protocol`).
    fn name(c: &Self::Config) -> &'static str;
    /// Flow `f`'s controller at its start.
    fn new_flow(c: &Self::Config, f: &FlowSpec) -> Self;
    /// DCTCP's estimate alpha, if it is of the DCTCP family.
    fn alpha(&self) -> Option<f64>;
}

/// No extension: the window transports' own controllers only. It has no
/// values, so its variant of [`FlowController`] takes no space and no arm
/// of a `match`.
#[derive(Clone, Copy, Debug)]
pub enum NoExtension {}

impl Controller for NoExtension {
    fn reno(&self) -> &NewReno {
        match *self {}
    }
    fn reno_mut(&mut self) -> &mut NewReno {
        match *self {}
    }
}

impl ControllerExtension for NoExtension {
    type Config = NoExtension;
    const ECN_CAPABLE: bool = false;
    fn name(c: &NoExtension) -> &'static str {
        match *c {}
    }
    fn new_flow(c: &NoExtension, _: &FlowSpec) -> Self {
        match *c {}
    }
    fn alpha(&self) -> Option<f64> {
        match *self {}
    }
}

/// A transport's controller parameters: the factory of its flows'
/// controllers ([`ControllerConfig::new_flow`]), held by its
/// `WindowConfig`; `X` is a protocol's own controller, if any.
#[derive(Clone, Debug)]
pub enum ControllerConfig<X: ControllerExtension = NoExtension> {
    /// TCP NewReno.
    NewReno(RenoConfig),
    /// DCTCP.
    Dctcp(DctcpConfig),
    /// D2TCP.
    D2tcp(D2tcpConfig),
    /// L2DCT.
    L2dct(L2dctConfig),
    /// pFabric's minimal rate control.
    PFabric(PFabricConfig),
    /// A protocol's own controller.
    Extension(X::Config),
}

impl<X: ControllerExtension> ControllerConfig<X> {
    /// The protocol's name (`--protocol`).
    pub fn name(&self) -> &'static str {
        match self {
            ControllerConfig::NewReno(_) => "tcp",
            ControllerConfig::Dctcp(_) => "dctcp",
            ControllerConfig::D2tcp(_) => "d2tcp",
            ControllerConfig::L2dct(_) => "l2dct",
            ControllerConfig::PFabric(_) => "pfabric",
            ControllerConfig::Extension(c) => X::name(c),
        }
    }
    /// Data are ECN-capable: the DCTCP family (DCTCP section 3.1).
    #[inline]
    pub fn ecn_capable(&self) -> bool {
        match self {
            ControllerConfig::NewReno(_) | ControllerConfig::PFabric(_) => false,
            ControllerConfig::Dctcp(_) | ControllerConfig::D2tcp(_) | ControllerConfig::L2dct(_) => true,
            ControllerConfig::Extension(_) => X::ECN_CAPABLE,
        }
    }
    /// Data carry the flow's remaining bytes as their priority (pFabric
    /// section 4.2; docs/protocols/pfabric.md).
    #[inline]
    pub fn prioritized(&self) -> bool {
        matches!(self, ControllerConfig::PFabric(_))
    }
    /// Flow `f`'s controller at its start.
    pub fn new_flow(&self, f: &FlowSpec) -> FlowController<X> {
        match self {
            ControllerConfig::NewReno(c) => FlowController::NewReno(NewReno::new(c)),
            ControllerConfig::Dctcp(c) => FlowController::Dctcp(Dctcp::new(c, Plain)),
            ControllerConfig::D2tcp(c) => FlowController::D2tcp(Dctcp::new(&c.dctcp, Deadline::new(c.imminence, f))),
            ControllerConfig::L2dct(c) => FlowController::L2dct(Dctcp::new(&c.dctcp, c.weights)),
            ControllerConfig::PFabric(c) => FlowController::PFabric(PFabric::new(c)),
            ControllerConfig::Extension(c) => FlowController::Extension(X::new_flow(c, f)),
        }
    }
}

/// One flow's controller, whichever it is, as the sender holds it (static
/// dispatch: a `match` per hook, inlined, instead of a call through a
/// vtable); `X` is a protocol's own controller, if any.
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum FlowController<X = NoExtension> {
    /// TCP NewReno.
    NewReno(NewReno),
    /// DCTCP.
    Dctcp(Dctcp),
    /// D2TCP.
    D2tcp(D2tcp),
    /// L2DCT.
    L2dct(L2dct),
    /// pFabric's minimal rate control.
    PFabric(PFabric),
    /// A protocol's own controller.
    Extension(X),
}

macro_rules! each {
    ($self:ident, $c:ident => $e:expr) => {
        match $self {
            FlowController::NewReno($c) => $e,
            FlowController::Dctcp($c) => $e,
            FlowController::D2tcp($c) => $e,
            FlowController::L2dct($c) => $e,
            FlowController::PFabric($c) => $e,
            FlowController::Extension($c) => $e,
        }
    };
}

impl<X: ControllerExtension> FlowController<X> {
    /// DCTCP's estimate alpha, for a controller of the DCTCP family.
    pub fn alpha(&self) -> Option<f64> {
        match self {
            FlowController::Dctcp(c) => Some(c.alpha()),
            FlowController::D2tcp(c) => Some(c.alpha()),
            FlowController::L2dct(c) => Some(c.alpha()),
            FlowController::Extension(c) => c.alpha(),
            FlowController::NewReno(_) | FlowController::PFabric(_) => None,
        }
    }
    /// The protocol's own controller, if it is one.
    pub fn extension(&self) -> Option<&X> {
        match self {
            FlowController::Extension(c) => Some(c),
            _ => None,
        }
    }
    /// The protocol's own controller, to change (say, to follow an
    /// arbitration).
    pub fn extension_mut(&mut self) -> Option<&mut X> {
        match self {
            FlowController::Extension(c) => Some(c),
            _ => None,
        }
    }
    /// Bytes from the controller's start to its window (the module's docs:
    /// the same for every variant).
    #[cfg(test)]
    pub(crate) fn window_offset(&self) -> usize {
        &self.reno().cwnd as *const f64 as usize - self as *const Self as usize
    }
}

impl<X: ControllerExtension> Controller for FlowController<X> {
    #[inline]
    fn reno(&self) -> &NewReno {
        each!(self, c => c.reno())
    }
    #[inline]
    fn reno_mut(&mut self) -> &mut NewReno {
        each!(self, c => c.reno_mut())
    }
    #[inline]
    fn window(&self) -> f64 {
        each!(self, c => c.window())
    }
    #[inline]
    fn on_ack_arrival(&mut self) -> bool {
        each!(self, c => c.on_ack_arrival())
    }
    #[inline(always)]
    fn on_ack(&mut self, ack: &AckEvent) {
        each!(self, c => c.on_ack(ack))
    }
    #[inline(always)]
    fn on_congestion_event(&mut self, event: CongestionEvent<'_>) {
        each!(self, c => c.on_congestion_event(event))
    }
    #[inline]
    fn on_recovery_end(&mut self) {
        each!(self, c => c.on_recovery_end())
    }
    #[inline]
    fn on_timeout(&mut self) {
        each!(self, c => c.on_timeout())
    }
    #[inline]
    fn in_probe_mode(&self) -> bool {
        each!(self, c => c.in_probe_mode())
    }
    #[inline]
    fn progress_wait(&self, rto: SimTime) -> SimTime {
        each!(self, c => c.progress_wait(rto))
    }
    #[inline]
    fn probe_instead_of_retransmit(&self) -> Option<ProbeInstead> {
        each!(self, c => c.probe_instead_of_retransmit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::testing;
    use crate::protocol::window::params::{D2tcpParams, DctcpParams, L2dctParams, PFabricParams};

    /// Every controller's window sits at one offset of the enum (the
    /// module's docs: [`Controller::window`] is one load), and the enum
    /// stays as small as the docs say.
    #[test]
    fn the_window_is_at_one_offset() {
        let dctcp = DctcpConfig::new(&DctcpParams::default().dctcp_part());
        let configs: [ControllerConfig; 5] = [
            ControllerConfig::NewReno(RenoConfig { init_cwnd: 10.0, max_cwnd: UNBOUNDED_CWND }),
            ControllerConfig::Dctcp(dctcp),
            ControllerConfig::D2tcp(D2tcpConfig::new(&D2tcpParams::default())),
            ControllerConfig::L2dct(L2dctConfig::new(&L2dctParams::default())),
            ControllerConfig::PFabric(PFabricConfig::new(&PFabricParams::default())),
        ];
        let f = testing::flow(0, 0, 1, 10);
        for c in &configs {
            assert_eq!(c.new_flow(&f).window_offset(), 8, "{}", c.name());
        }
        assert!(std::mem::size_of::<FlowController>() <= 104);
    }
}
