//! Congestion controllers of the window transports, one shape (issue 19):
//! each controller owns its parameters and answers the same few questions
//! the shared sender (`window.rs`) asks on every ACK and timeout; the
//! defaults are TCP NewReno's (RFC 5681, RFC 6582). The shape follows
//! smoltcp's `congestion` controllers and quinn's `congestion.rs`: the
//! sender keeps the loss detection, the scoreboard and the timer; the
//! controller only moves the window.
//!
//! Per-flow state every controller reads (window, slow-start threshold,
//! RTT, DCTCP's alpha, PASE's queue) stays in [`Sender`]; a controller
//! adds no per-flow state of its own.

use super::params::{D2tcpParams, DctcpSettings, L2dctParams, PFabricParams};
use crate::protocol::window::{PaseMode, Sender};
use crate::units::{SimTime, MSS};

/// What a controller decides; every hook has TCP NewReno's answer as its
/// default.
pub trait CongestionControl {
    /// The protocol's name (`--protocol`).
    fn name(&self) -> &'static str;
    /// DCTCP's marking response, if the controller has one: data are
    /// ECN-capable, alpha is estimated once per window with gain `g`, and
    /// the window is cut once per window of marks by
    /// [`CongestionControl::cut`] / 2 (DCTCP paper section 3.2).
    fn dctcp(&self) -> Option<&Dctcp> {
        None
    }
    /// The fraction p of a DCTCP cut (cwnd x (1 - p / 2)): alpha for DCTCP.
    fn cut(&self, s: &Sender, _now: SimTime) -> f64 {
        s.alpha
    }
    /// Whether the window grows on this ACK (PASE: only outside the top
    /// queue, section 3.2).
    fn grows(&self, _s: &Sender) -> bool {
        true
    }
    /// Congestion-avoidance increase, packets per window of ACKs (1 for
    /// Reno; L2DCT's w_c / w_max).
    fn avoidance_gain(&self, _s: &Sender) -> f64 {
        1.0
    }
    /// How long after progress the retransmission timer fires.
    fn progress_wait(&self, s: &Sender) -> SimTime {
        s.rto
    }
    /// On a timeout: send a header-only probe instead of retransmitting
    /// (PASE's lowest queue, section 3.2).
    fn probes_instead_of_retransmitting(&self, _s: &Sender) -> bool {
        false
    }
    /// Consecutive timeouts after which the sender enters probe mode
    /// (pFabric section 4.2); `None`: never.
    fn probe_mode_after(&self) -> Option<u32> {
        None
    }
    /// Data carry the flow's remaining bytes as their priority (pFabric).
    fn prioritized(&self) -> bool {
        false
    }
}

/// TCP NewReno (RFC 6582) with SACK-based pipe accounting: every default of
/// [`CongestionControl`].
#[derive(Clone, Debug)]
pub struct NewReno;

impl CongestionControl for NewReno {
    fn name(&self) -> &'static str {
        "tcp"
    }
}

/// DCTCP (Alizadeh et al. 2010, section 3.2): NewReno whose response to
/// ECN marks is a cut by alpha / 2 once per window.
#[derive(Clone, Debug)]
pub struct Dctcp {
    /// Estimator weight g (1/16).
    pub g: f64,
    /// Alpha at flow start.
    pub initial_alpha: f64,
}

impl Dctcp {
    /// From DCTCP's settings (a profile's defaults and the fields given).
    pub fn new(p: &DctcpSettings) -> Self {
        Dctcp { g: p.g, initial_alpha: p.initial_alpha }
    }
}

impl CongestionControl for Dctcp {
    fn name(&self) -> &'static str {
        "dctcp"
    }
    fn dctcp(&self) -> Option<&Dctcp> {
        Some(self)
    }
}

/// D2TCP (Vamanan et al. 2012, section 3): DCTCP whose cut uses
/// p = alpha^d, d the deadline imminence ([`D2tcp::imminence`]); a flow
/// without a deadline has d = 1 and behaves as DCTCP.
#[derive(Clone, Debug)]
pub struct D2tcp {
    /// DCTCP's part.
    pub dctcp: Dctcp,
    /// Smallest imminence d (section 3: 0.5).
    pub min_imminence: f64,
    /// Largest imminence d (section 3: 2).
    pub max_imminence: f64,
    /// d of a flow past its deadline (a choice, see `D2tcpParams`).
    pub past_deadline_imminence: f64,
}

impl D2tcp {
    /// From D2TCP's parameters.
    pub fn new(p: &D2tcpParams) -> Self {
        D2tcp {
            dctcp: Dctcp::new(&p.dctcp_part()),
            min_imminence: p.min_imminence,
            max_imminence: p.max_imminence,
            past_deadline_imminence: p.past_deadline_imminence,
        }
    }

    /// D2TCP's deadline imminence d (section 3): d = Tc / D, where
    /// Tc = B / ((3/4) W / RTT) is the time the flow needs to send its
    /// remaining B bytes at its average DCTCP window (3/4 of W, the
    /// sawtooth's mean) and D the time left to its deadline; d is capped to
    /// [`min_imminence`, `max_imminence`] (0.5 and 2 in the paper). A flow
    /// without a deadline, or before its first RTT sample, has d = 1 (plain
    /// DCTCP); a flow past its deadline gets `past_deadline_imminence`.
    pub fn imminence(&self, remaining_bytes: u64, cwnd: f64, srtt_ps: f64, now: SimTime, deadline: SimTime) -> f64 {
        if deadline == SimTime::NEVER || srtt_ps <= 0.0 {
            return 1.0;
        }
        if now >= deadline {
            return self.past_deadline_imminence;
        }
        let tc_ps = remaining_bytes as f64 * srtt_ps / (0.75 * cwnd.max(1.0) * MSS as f64);
        let d = tc_ps / (deadline - now).ps() as f64;
        d.clamp(self.min_imminence, self.max_imminence)
    }
}

impl CongestionControl for D2tcp {
    fn name(&self) -> &'static str {
        "d2tcp"
    }
    fn dctcp(&self) -> Option<&Dctcp> {
        Some(&self.dctcp)
    }
    fn cut(&self, s: &Sender, now: SimTime) -> f64 {
        let left = s.size - s.bytes_sent();
        s.alpha.powf(self.imminence(left, s.cwnd, s.srtt_ps(), now, s.deadline))
    }
}

/// L2DCT (Munir et al. 2013, section IV): DCTCP whose cut uses
/// b = alpha^w_c and whose congestion-avoidance increase is w_c / w_max
/// per round trip, w_c falling with the bytes sent ([`L2dct::weight`]).
#[derive(Clone, Debug)]
pub struct L2dct {
    /// DCTCP's part.
    pub dctcp: Dctcp,
    /// Smallest weight w_min.
    pub min_weight: f64,
    /// Largest weight w_max.
    pub max_weight: f64,
    /// Bytes sent up to which the weight is w_max.
    pub full_weight_bytes: u64,
    /// Bytes sent from which the weight is w_min.
    pub min_weight_bytes: u64,
}

impl L2dct {
    /// From L2DCT's parameters.
    pub fn new(p: &L2dctParams) -> Self {
        L2dct {
            dctcp: Dctcp::new(&p.dctcp_part()),
            min_weight: p.min_weight,
            max_weight: p.max_weight,
            full_weight_bytes: p.full_weight_bytes,
            min_weight_bytes: p.min_weight_bytes,
        }
    }

    /// L2DCT's weight w_c of a flow that has sent `bytes_sent` payload
    /// bytes (section IV, least attained service): w_max up to
    /// `full_weight_bytes`, then falling linearly to w_min at
    /// `min_weight_bytes` and staying there. The thresholds' defaults come
    /// from the ns-3 L2dctSocket port (200 and 1000 segments), see
    /// `L2dctParams`.
    pub fn weight(&self, bytes_sent: u64) -> f64 {
        if bytes_sent <= self.full_weight_bytes {
            return self.max_weight;
        }
        let span = (self.min_weight_bytes - self.full_weight_bytes) as f64;
        let f = ((bytes_sent - self.full_weight_bytes) as f64 / span).min(1.0);
        self.max_weight - (self.max_weight - self.min_weight) * f
    }
}

impl CongestionControl for L2dct {
    fn name(&self) -> &'static str {
        "l2dct"
    }
    fn dctcp(&self) -> Option<&Dctcp> {
        Some(&self.dctcp)
    }
    fn cut(&self, s: &Sender, _now: SimTime) -> f64 {
        s.alpha.powf(self.weight(s.bytes_sent()))
    }
    fn avoidance_gain(&self, s: &Sender) -> f64 {
        self.weight(s.bytes_sent()) / self.max_weight
    }
}

/// pFabric's minimal rate control (pFabric paper section 4.2): a fixed
/// timeout, no fast retransmit (set in the sender's configuration), data
/// carry their remaining bytes as priority, and after some timeouts in a
/// row the sender probes with 1-byte packets (probe mode).
#[derive(Clone, Debug)]
pub struct PFabric {
    /// Probe mode is on.
    pub probe_mode: bool,
    /// Consecutive timeouts before probe mode.
    pub probe_after_timeouts: u32,
}

impl PFabric {
    /// From pFabric's parameters.
    pub fn new(p: &PFabricParams) -> Self {
        PFabric { probe_mode: p.probe_mode, probe_after_timeouts: p.probe_after_timeouts }
    }
}

impl CongestionControl for PFabric {
    fn name(&self) -> &'static str {
        "pfabric"
    }
    fn probe_mode_after(&self) -> Option<u32> {
        self.probe_mode.then_some(self.probe_after_timeouts)
    }
    fn prioritized(&self) -> bool {
        true
    }
}

/// PASE's end hosts (PASE paper section 3.2, PROTOCOLS.md section 7):
/// DCTCP's cut on marks; the window otherwise follows the arbitrated queue
/// ([`PaseMode`], set by `protocol/pase/`): the top queue holds the
/// reference rate's window, an intermediate queue grows from 1 packet, the
/// lowest holds 1 packet and probes once per probe interval instead of
/// retransmitting.
#[derive(Clone, Debug)]
pub struct PaseHost {
    /// DCTCP's part.
    pub dctcp: Dctcp,
    /// The lowest queue's window grows as an intermediate queue's.
    pub lowest_grows: bool,
    /// The lowest queue probes instead of retransmitting (`probing`).
    pub probing: bool,
}

impl CongestionControl for PaseHost {
    fn name(&self) -> &'static str {
        "pase"
    }
    fn dctcp(&self) -> Option<&Dctcp> {
        Some(&self.dctcp)
    }
    fn grows(&self, s: &Sender) -> bool {
        s.mode == PaseMode::Middle || (s.mode == PaseMode::Lowest && self.lowest_grows)
    }
    fn progress_wait(&self, s: &Sender) -> SimTime {
        // No timeout (hence no probe) sooner than one probe interval after
        // progress in the lowest queue.
        if s.mode == PaseMode::Lowest && self.probing {
            s.rto.max(s.probe_interval)
        } else {
            s.rto
        }
    }
    fn probes_instead_of_retransmitting(&self, s: &Sender) -> bool {
        self.probing && s.mode == PaseMode::Lowest
    }
}

/// The controllers, as one value the sender holds (static dispatch: a
/// `match` per hook, inlined, instead of a call through a vtable).
#[derive(Clone, Debug)]
pub enum Controller {
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
    /// PASE's end hosts (PASE-DCTCP is [`Controller::Dctcp`]).
    Pase(PaseHost),
}

macro_rules! each {
    ($self:ident, $c:ident => $e:expr) => {
        match $self {
            Controller::NewReno($c) => $e,
            Controller::Dctcp($c) => $e,
            Controller::D2tcp($c) => $e,
            Controller::L2dct($c) => $e,
            Controller::PFabric($c) => $e,
            Controller::Pase($c) => $e,
        }
    };
}

impl CongestionControl for Controller {
    #[inline]
    fn name(&self) -> &'static str {
        each!(self, c => c.name())
    }
    #[inline]
    fn dctcp(&self) -> Option<&Dctcp> {
        each!(self, c => c.dctcp())
    }
    #[inline]
    fn cut(&self, s: &Sender, now: SimTime) -> f64 {
        each!(self, c => c.cut(s, now))
    }
    #[inline]
    fn grows(&self, s: &Sender) -> bool {
        each!(self, c => c.grows(s))
    }
    #[inline]
    fn avoidance_gain(&self, s: &Sender) -> f64 {
        each!(self, c => c.avoidance_gain(s))
    }
    #[inline]
    fn progress_wait(&self, s: &Sender) -> SimTime {
        each!(self, c => c.progress_wait(s))
    }
    #[inline]
    fn probes_instead_of_retransmitting(&self, s: &Sender) -> bool {
        each!(self, c => c.probes_instead_of_retransmitting(s))
    }
    #[inline]
    fn probe_mode_after(&self) -> Option<u32> {
        each!(self, c => c.probe_mode_after())
    }
    #[inline]
    fn prioritized(&self) -> bool {
        each!(self, c => c.prioritized())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d2tcp() -> D2tcp {
        D2tcp::new(&D2tcpParams::default())
    }
    fn l2dct() -> L2dct {
        L2dct::new(&L2dctParams::default())
    }
    const RTT_PS: f64 = 100e6; // 100 us

    /// D2TCP section 3: for the same alpha, a near-deadline flow (d > 1)
    /// cuts less than DCTCP and a far-deadline flow (d < 1) cuts more.
    #[test]
    fn d2tcp_near_deadline_cuts_less_than_far_deadline() {
        let cc = d2tcp();
        let now = SimTime::from_us_f64(1000.0);
        // 146 KB left at a 10-packet window and 100 us RTT: Tc = 146000 x
        // 100 us / (0.75 x 14600) = 1333 us.
        let (left, cwnd) = (146_000, 10.0);
        let near = cc.imminence(left, cwnd, RTT_PS, now, now + SimTime::from_us_f64(1000.0));
        let far = cc.imminence(left, cwnd, RTT_PS, now, now + SimTime::from_us_f64(2000.0));
        assert!((near - 1333.33 / 1000.0).abs() < 1e-3, "near d = {near}");
        assert!((far - 1333.33 / 2000.0).abs() < 1e-3, "far d = {far}");
        let alpha: f64 = 0.4;
        let (p_near, p_far) = (alpha.powf(near), alpha.powf(far));
        assert!(p_near < alpha && alpha < p_far, "p near {p_near}, DCTCP {alpha}, p far {p_far}");
        let w = 20.0;
        assert!(w * (1.0 - p_near / 2.0) > w * (1.0 - p_far / 2.0));
    }

    /// D2TCP section 3: d is capped to [0.5, 2]; no deadline means d = 1
    /// (DCTCP); past the deadline, `past_deadline_imminence`.
    #[test]
    fn d2tcp_imminence_is_clamped() {
        let cc = d2tcp();
        let now = SimTime::from_us_f64(1000.0);
        let d = |left: u64, deadline: SimTime| cc.imminence(left, 10.0, RTT_PS, now, deadline);
        assert_eq!(d(146_000, now + SimTime::from_us_f64(10.0)), 2.0, "very near: capped at 2");
        assert_eq!(d(1460, now + SimTime::from_us_f64(100_000.0)), 0.5, "very far: capped at 0.5");
        assert_eq!(d(146_000, SimTime::NEVER), 1.0, "no deadline: DCTCP");
        assert_eq!(d(146_000, now), cc.past_deadline_imminence, "deadline reached");
        assert_eq!(cc.imminence(146_000, 10.0, 0.0, now, now + SimTime::from_us_f64(10.0)), 1.0, "no RTT sample yet");
    }

    /// L2DCT section IV: the weight falls with bytes sent, so a flow that
    /// has sent more grows slower (k = w / w_max) and cuts more
    /// (b = alpha^w with alpha < 1).
    #[test]
    fn l2dct_weight_favours_flows_that_sent_less() {
        let cc = l2dct();
        let (full, floor) = (cc.full_weight_bytes, cc.min_weight_bytes);
        assert_eq!(cc.weight(0), 2.5);
        assert_eq!(cc.weight(full), 2.5);
        assert!((cc.weight((full + floor) / 2) - (2.5 + 0.125) / 2.0).abs() < 1e-9, "linear in between");
        assert_eq!(cc.weight(floor), 0.125);
        assert_eq!(cc.weight(100 * floor), 0.125);
        let (small, large) = (cc.weight(100_000), cc.weight(1_000_000));
        assert!(small > large);
        assert!(small / cc.max_weight > large / cc.max_weight, "the larger flow grows slower");
        let alpha: f64 = 0.3;
        assert!(alpha.powf(small) < alpha.powf(large), "the larger flow cuts more");
    }
}
