//! DCTCP's controller (Alizadeh et al., SIGCOMM 2010, section 3.2): NewReno
//! whose response to ECN marks is a cut by alpha / 2 once per window, alpha
//! the estimated fraction of marked packets. D2TCP, L2DCT (and a protocol's
//! own member, see [`super::ControllerExtension`]) are the same controller
//! with another [`DctcpRule`]: the estimator, the once-per-window cut and
//! the growth are written once, here.

use super::{AckEvent, CongestionEvent, Controller, NewReno, ProbeInstead, RenoConfig, UNBOUNDED_CWND};
use crate::protocol::window::params::DctcpSettings;
use crate::units::SimTime;

/// DCTCP's parameters (a profile's defaults and the fields given).
#[derive(Clone, Copy, Debug)]
pub struct DctcpConfig {
    /// The window's bounds.
    pub reno: RenoConfig,
    /// Estimator weight g (1/16).
    pub g: f64,
    /// Alpha at flow start.
    pub initial_alpha: f64,
    /// The smallest window a cut leaves, packets (1; Linux's DCTCP: 2).
    pub min_cwnd_after_cut: f64,
}

impl DctcpConfig {
    /// From DCTCP's settings; the window is unbounded above.
    pub fn new(p: &DctcpSettings) -> Self {
        DctcpConfig {
            reno: RenoConfig { init_cwnd: p.init_cwnd as f64, max_cwnd: UNBOUNDED_CWND },
            g: p.g,
            initial_alpha: p.initial_alpha,
            min_cwnd_after_cut: p.min_cwnd_after_cut as f64,
        }
    }
}

/// What a member of the DCTCP family changes of DCTCP's rules, with the
/// per-flow state (and parameters) that takes; every answer defaults to
/// DCTCP's own.
pub trait DctcpRule {
    /// The fraction p of the cut on marks, cwnd x (1 - p / 2), given alpha,
    /// the window before the cut and the ACK (DCTCP section 3.2: alpha).
    #[inline(always)]
    fn cut_fraction(&self, alpha: f64, _cwnd: f64, _ack: &AckEvent) -> f64 {
        alpha
    }
    /// Whether the window may grow on an ACK DCTCP would grow on (DCTCP:
    /// always).
    #[inline]
    fn grows(&self) -> bool {
        true
    }
    /// The congestion-avoidance increase k, packets per window of ACKs
    /// (DCTCP: 1, as Reno's, RFC 5681 section 3.1).
    #[inline(always)]
    fn gain(&self, _ack: &AckEvent) -> f64 {
        1.0
    }
    /// [`Controller::progress_wait`] (DCTCP: the timeout).
    #[inline]
    fn progress_wait(&self, rto: SimTime) -> SimTime {
        rto
    }
    /// [`Controller::probe_instead_of_retransmit`] (DCTCP: never).
    #[inline]
    fn probe_instead_of_retransmit(&self) -> Option<ProbeInstead> {
        None
    }
}

/// DCTCP itself: every rule as the paper's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plain;

impl DctcpRule for Plain {}

/// One flow's DCTCP-family state: NewReno's window, the estimate alpha
/// and the windows it is counted over (DCTCP section 3.2), and the
/// member's rule `R` with its own state.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Dctcp<R = Plain> {
    /// The window (first: see the module's docs).
    reno: NewReno,
    /// The estimated fraction of marked packets.
    alpha: f64,
    g: f64,
    min_cwnd_after_cut: f64,
    /// Packets acknowledged, and those with ECN-Echo, in this window.
    win_acked: u32,
    win_marked: u32,
    /// The window's end: alpha is updated once `snd_una` passes it.
    win_end: u32,
    /// No second cut before an ACK for a packet at or past this one (one
    /// cut per window).
    cwr_end: u32,
    /// What the member changes, and its state.
    rule: R,
}

impl<R> Dctcp<R> {
    /// A flow's state at its start.
    pub fn new(c: &DctcpConfig, rule: R) -> Self {
        Dctcp {
            reno: NewReno::new(&c.reno),
            alpha: c.initial_alpha,
            g: c.g,
            min_cwnd_after_cut: c.min_cwnd_after_cut,
            win_acked: 0,
            win_marked: 0,
            win_end: 0,
            cwr_end: 0,
            rule,
        }
    }
    /// DCTCP's estimate alpha of the fraction of marked packets.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// The member's rule and state.
    pub fn rule(&self) -> &R {
        &self.rule
    }
    /// The member's rule and state, to change.
    pub fn rule_mut(&mut self) -> &mut R {
        &mut self.rule
    }
    /// Counts an ACK's packets, marked or not; once per window of data
    /// (when `snd_una` passes the window's end) alpha <- (1 - g) alpha +
    /// g F, F the fraction marked (DCTCP section 3.2, equation 1). Returns
    /// whether the ACK calls for a cut: it echoes a mark, it is the first
    /// since the last cut's window, and the sender is not in fast recovery.
    #[inline(always)]
    fn observe(&mut self, ack: &AckEvent) -> bool {
        if ack.newly == 0 {
            return false;
        }
        self.win_acked += ack.newly;
        if ack.ece {
            self.win_marked += ack.newly;
        }
        if ack.snd_una > self.win_end {
            let f = self.win_marked as f64 / self.win_acked.max(1) as f64;
            self.alpha = (1.0 - self.g) * self.alpha + self.g * f;
            self.win_acked = 0;
            self.win_marked = 0;
            self.win_end = ack.snd_nxt;
        }
        ack.ece && ack.sack >= self.cwr_end && !ack.in_recovery
    }
}

impl<R: DctcpRule> Controller for Dctcp<R> {
    fn reno(&self) -> &NewReno {
        &self.reno
    }
    fn reno_mut(&mut self) -> &mut NewReno {
        &mut self.reno
    }
    /// The estimate, then the cut if the ACK calls for one; the window
    /// grows (slow start, then k per window, RFC 5681 section 3.1) on an
    /// ACK that acknowledges packets, outside fast recovery and without a
    /// mark (DCTCP section 3.2: a marked ACK is answered by the cut alone),
    /// if the rule lets it.
    #[inline(always)]
    fn on_ack(&mut self, ack: &AckEvent) {
        if self.observe(ack) {
            self.on_congestion_event(CongestionEvent::Marks(ack));
        }
        if ack.newly > 0 && !ack.in_recovery && !ack.ece && self.rule.grows() {
            let k = self.rule.gain(ack);
            self.reno.grow(ack.newly, k);
        }
    }
    /// Loss: NewReno's halving. Marks: cwnd <- cwnd x (1 - p / 2), at
    /// least `min_cwnd_after_cut`, p the rule's (alpha for DCTCP, section
    /// 3.2, equation 2); no other cut until the packets sent so far are
    /// acknowledged.
    #[inline(always)]
    fn on_congestion_event(&mut self, event: CongestionEvent<'_>) {
        match event {
            CongestionEvent::DupAcks => self.reno.halve(),
            CongestionEvent::Marks(ack) => {
                let p = self.rule.cut_fraction(self.alpha, self.reno.cwnd, ack);
                self.reno.cut(p, self.min_cwnd_after_cut);
                self.cwr_end = ack.snd_nxt;
            }
        }
    }
    #[inline]
    fn progress_wait(&self, rto: SimTime) -> SimTime {
        self.rule.progress_wait(rto)
    }
    #[inline]
    fn probe_instead_of_retransmit(&self) -> Option<ProbeInstead> {
        self.rule.probe_instead_of_retransmit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dctcp(initial_alpha: f64, init_cwnd: f64) -> Dctcp {
        Dctcp::new(&DctcpConfig { reno: RenoConfig { init_cwnd, max_cwnd: UNBOUNDED_CWND }, g: 1.0 / 16.0, initial_alpha, min_cwnd_after_cut: 1.0 }, Plain)
    }

    /// An ACK for packet `seq` alone, in order, `snd_nxt` packets sent.
    fn ack(seq: u32, snd_nxt: u32, ece: bool) -> AckEvent {
        AckEvent { newly: 1, ece, sack: seq, snd_una: seq + 1, snd_nxt, in_recovery: false, size: 1 << 30, srtt_ps: 0.0, now: SimTime::ZERO }
    }

    /// DCTCP section 3.2, equation 1: after a window of 10 packets with
    /// half of them marked, alpha = (1 - g) alpha_0 + g x 0.5, and alpha
    /// does not move within the window.
    #[test]
    fn alpha_after_a_half_marked_window() {
        let mut c = dctcp(0.25, 10.0);
        // The first ACK closes the (empty) window at flow start.
        c.on_ack(&ack(0, 10, false));
        let alpha0 = c.alpha();
        assert_eq!(alpha0, (1.0 - 1.0 / 16.0) * 0.25, "the first window: no marks");
        // Packets 1..=10, sent by then up to 20: every second one marked.
        for seq in 1..10 {
            c.on_ack(&ack(seq, 20, seq % 2 == 0));
            assert_eq!(c.alpha(), alpha0, "no update before the window ends (seq {seq})");
        }
        c.on_ack(&ack(10, 20, true));
        assert_eq!(c.alpha(), (1.0 - 1.0 / 16.0) * alpha0 + 1.0 / 16.0 * 0.5);
    }

    /// DCTCP section 3.2: one cut per window of data, by alpha / 2; a
    /// marked ACK does not grow the window, an unmarked one does.
    #[test]
    fn one_cut_per_window() {
        let mut c = dctcp(1.0, 20.0);
        c.on_ack(&ack(0, 20, true));
        // The estimate (alpha = 1) first, then the cut by 1/2.
        assert_eq!(c.alpha(), 1.0);
        assert_eq!(c.window(), 10.0);
        assert_eq!(c.reno().ssthresh(), 10.0);
        // More marks from the same window: no second cut, no growth.
        for seq in 1..20 {
            c.on_ack(&ack(seq, 20, true));
            assert_eq!(c.window(), 10.0, "seq {seq}");
        }
        // The first marked ACK for a packet sent after the cut: cut again,
        // by the alpha the window just closed left (still 1).
        c.on_ack(&ack(20, 30, true));
        assert_eq!(c.window(), 5.0);
        // Unmarked: congestion avoidance, 1 / cwnd per packet.
        c.on_ack(&ack(21, 30, false));
        assert_eq!(c.window(), 5.0 + 1.0 / 5.0);
    }

    /// The cut never leaves less than `min_cwnd_after_cut`; in fast
    /// recovery a mark does not cut (the loss did).
    #[test]
    fn cut_floor_and_recovery() {
        let mut c = dctcp(1.0, 1.5);
        c.on_ack(&ack(0, 2, true));
        assert_eq!(c.window(), 1.0, "1.5 x 1/2 floored at 1");
        let mut c = dctcp(1.0, 20.0);
        c.on_congestion_event(CongestionEvent::DupAcks);
        assert_eq!(c.window(), 10.0, "NewReno's halving");
        c.on_ack(&AckEvent { in_recovery: true, ..ack(0, 20, true) });
        assert_eq!(c.window(), 10.0, "no cut and no growth in recovery");
    }
}
