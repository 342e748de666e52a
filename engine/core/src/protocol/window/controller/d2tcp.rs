//! D2TCP's controller (Vamanan et al., SIGCOMM 2012, section 3): DCTCP
//! whose cut uses p = alpha^d, d the deadline imminence ([`Imminence`]); a
//! flow without a deadline has d = 1 and behaves as DCTCP. It is
//! [`Dctcp`] with the rule [`Deadline`].

use super::{AckEvent, Dctcp, DctcpConfig, DctcpRule};
use crate::protocol::window::params::D2tcpParams;
use crate::units::{SimTime, MSS};
use crate::workload::FlowSpec;

/// D2TCP's bounds of the deadline imminence d (section 3).
#[derive(Clone, Copy, Debug)]
pub struct Imminence {
    /// Smallest imminence d (section 3: 0.5).
    pub min_imminence: f64,
    /// Largest imminence d (section 3: 2).
    pub max_imminence: f64,
    /// d of a flow past its deadline (a choice, see `D2tcpParams`).
    pub past_deadline_imminence: f64,
}

impl Imminence {
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

/// D2TCP's parameters: DCTCP's and the imminence bounds.
#[derive(Clone, Copy, Debug)]
pub struct D2tcpConfig {
    /// DCTCP's part.
    pub dctcp: DctcpConfig,
    /// The bounds of d.
    pub imminence: Imminence,
}

impl D2tcpConfig {
    /// From D2TCP's parameters.
    pub fn new(p: &D2tcpParams) -> Self {
        D2tcpConfig {
            dctcp: DctcpConfig::new(&p.dctcp_part()),
            imminence: Imminence { min_imminence: p.min_imminence, max_imminence: p.max_imminence, past_deadline_imminence: p.past_deadline_imminence },
        }
    }
}

/// D2TCP's rule and per-flow state: the imminence bounds and the flow's
/// deadline; the cut uses p = alpha^d (section 3).
#[derive(Clone, Debug)]
pub struct Deadline {
    imminence: Imminence,
    /// Absolute deadline (arrival + the flow's deadline), `NEVER` without
    /// one.
    at: SimTime,
}

impl Deadline {
    /// Flow `f`'s deadline, with the bounds of d.
    pub fn new(imminence: Imminence, f: &FlowSpec) -> Self {
        Deadline { imminence, at: f.deadline.map_or(SimTime::NEVER, |d| f.arrival + d) }
    }
}

impl DctcpRule for Deadline {
    /// p = alpha^d (section 3), d from the bytes not yet sent, the window
    /// and the RTT now.
    #[inline(always)]
    fn cut_fraction(&self, alpha: f64, cwnd: f64, ack: &AckEvent) -> f64 {
        let left = ack.size - ack.bytes_sent();
        alpha.powf(self.imminence.imminence(left, cwnd, ack.srtt_ps, ack.now, self.at))
    }
}

/// One flow's D2TCP controller: DCTCP's state and the deadline.
pub type D2tcp = Dctcp<Deadline>;

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds() -> Imminence {
        D2tcpConfig::new(&D2tcpParams::default()).imminence
    }
    const RTT_PS: f64 = 100e6; // 100 us

    /// D2TCP section 3: for the same alpha, a near-deadline flow (d > 1)
    /// cuts less than DCTCP and a far-deadline flow (d < 1) cuts more.
    #[test]
    fn d2tcp_near_deadline_cuts_less_than_far_deadline() {
        let cc = bounds();
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

    /// D2TCP section 3, driven through the controller: on the same first
    /// marked window, a flow near its deadline cuts less than DCTCP (a flow
    /// without one) and a flow far from it cuts more.
    #[test]
    fn the_cut_follows_the_deadline() {
        use crate::protocol::window::controller::{Controller, Plain, RenoConfig, UNBOUNDED_CWND};
        let dctcp = DctcpConfig { reno: RenoConfig { init_cwnd: 20.0, max_cwnd: UNBOUNDED_CWND }, g: 1.0 / 16.0, initial_alpha: 0.5, min_cwnd_after_cut: 1.0 };
        let now = SimTime::from_us_f64(1000.0);
        // 100 packets, 20 sent: Tc = 116800 B x 100 us / (0.75 x 20 x 1460 B)
        // = 533 us.
        let f = crate::protocol::testing::flow(0, 0, 1, 100);
        let ack = AckEvent { newly: 1, ece: true, sack: 0, snd_una: 1, snd_nxt: 20, in_recovery: false, size: f.size, srtt_ps: RTT_PS, now };
        let after_marks = |deadline_us: Option<f64>| {
            let f = FlowSpec { deadline: deadline_us.map(|d| now + SimTime::from_us_f64(d)), ..f.clone() };
            let mut c = Dctcp::new(&dctcp, Deadline::new(bounds(), &f));
            c.on_ack(&ack);
            c.window()
        };
        let mut plain = Dctcp::new(&dctcp, Plain);
        plain.on_ack(&ack);
        let alpha = (1.0 - 1.0 / 16.0) * 0.5 + 1.0 / 16.0;
        assert_eq!(plain.window(), 20.0 * (1.0 - alpha / 2.0), "DCTCP: alpha / 2");
        assert_eq!(after_marks(None), plain.window(), "no deadline: d = 1");
        let (near, far) = (after_marks(Some(400.0)), after_marks(Some(2000.0)));
        assert!(near > plain.window() && plain.window() > far, "near {near}, DCTCP {}, far {far}", plain.window());
        assert_eq!(far, 20.0 * (1.0 - alpha.powf(0.5) / 2.0), "far: d capped at 0.5");
    }

    /// D2TCP section 3: d is capped to [0.5, 2]; no deadline means d = 1
    /// (DCTCP); past the deadline, `past_deadline_imminence`.
    #[test]
    fn d2tcp_imminence_is_clamped() {
        let cc = bounds();
        let now = SimTime::from_us_f64(1000.0);
        let d = |left: u64, deadline: SimTime| cc.imminence(left, 10.0, RTT_PS, now, deadline);
        assert_eq!(d(146_000, now + SimTime::from_us_f64(10.0)), 2.0, "very near: capped at 2");
        assert_eq!(d(1460, now + SimTime::from_us_f64(100_000.0)), 0.5, "very far: capped at 0.5");
        assert_eq!(d(146_000, SimTime::NEVER), 1.0, "no deadline: DCTCP");
        assert_eq!(d(146_000, now), cc.past_deadline_imminence, "deadline reached");
        assert_eq!(cc.imminence(146_000, 10.0, 0.0, now, now + SimTime::from_us_f64(10.0)), 1.0, "no RTT sample yet");
    }
}
