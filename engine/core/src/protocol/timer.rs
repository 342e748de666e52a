//! Timing pieces the protocols share (issue 19), each written once: a lazy
//! retransmission timer, a pacer and an RTT estimator.
//!
//! They hold state only; scheduling stays with the protocol (which knows
//! its timer type): a method that needs an event says when, and the
//! caller passes that to `Io::set_timer`.

use crate::units::{SimTime, MTU};

/// A deadline kept with at most the events it needs: moving the deadline
/// later costs nothing until the pending event fires, which then re-arms
/// at the new deadline (ns-2's and Linux's lazy retransmission timer).
/// Used for the retransmission timeouts of the window transports, PDQ and
/// RCP/D3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LazyTimer {
    deadline: SimTime,
    /// When the earliest pending event fires (`None`: no event pending).
    armed_at: Option<SimTime>,
}

/// What a fired event of a [`LazyTimer`] means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fired {
    /// An earlier event replaced this one: nothing to do.
    Stale,
    /// The deadline was cleared or moved later: nothing to do but
    /// [`LazyTimer::arm`] for the new deadline.
    NotDue,
    /// The deadline is now: the timeout happens.
    Due,
}

impl Default for LazyTimer {
    fn default() -> Self {
        Self::new()
    }
}

impl LazyTimer {
    /// No deadline, no event.
    pub const fn new() -> Self {
        LazyTimer { deadline: SimTime::NEVER, armed_at: None }
    }
    /// True when a deadline is set.
    pub fn is_set(&self) -> bool {
        self.deadline != SimTime::NEVER
    }
    /// Sets the deadline (call [`LazyTimer::arm`] after).
    pub fn set(&mut self, at: SimTime) {
        self.deadline = at;
    }
    /// Sets the deadline unless one is set.
    pub fn set_if_unset(&mut self, at: SimTime) {
        if self.deadline == SimTime::NEVER {
            self.deadline = at;
        }
    }
    /// Clears the deadline; a pending event will find nothing due.
    pub fn clear(&mut self) {
        self.deadline = SimTime::NEVER;
    }
    /// Keeps an event pending at or before the deadline (at `now` when the
    /// deadline has passed): returns the time of the event the caller must
    /// schedule, if one is needed. (A deadline set in the past and armed
    /// later used to record the past time while the event, scheduled no
    /// earlier than now, fired later and was taken for stale: the timer
    /// never fired again and the flow stalled. RCP on the deadline and
    /// query-aggregation scenarios hit it.)
    #[must_use]
    pub fn arm(&mut self, now: SimTime) -> Option<SimTime> {
        if self.deadline == SimTime::NEVER {
            return None;
        }
        let at = self.deadline.max(now);
        if self.armed_at.is_none_or(|a| at < a) {
            self.armed_at = Some(at);
            return Some(at);
        }
        None
    }
    /// An event of this timer fired at `now`. A stale event (an earlier
    /// one replaced it) changes nothing; otherwise the timer has no event
    /// pending any more and says whether the deadline is due.
    pub fn fire(&mut self, now: SimTime) -> Fired {
        if self.armed_at != Some(now) {
            return Fired::Stale;
        }
        self.armed_at = None;
        if now < self.deadline {
            Fired::NotDue
        } else {
            Fired::Due
        }
    }
}

/// A rate pacer: one data packet, then the next one packet-time later at
/// the current rate. Its events carry a token so that a rescheduled or
/// cancelled event is recognised as stale when it fires. Used by PDQ and
/// RCP/D3 senders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pacer {
    /// A paced packet is scheduled (or being sent).
    pub pacing: bool,
    token: u32,
    next_at: SimTime,
}

impl Default for Pacer {
    fn default() -> Self {
        Self::new()
    }
}

impl Pacer {
    /// Not pacing, nothing scheduled.
    pub const fn new() -> Self {
        Pacer { pacing: false, token: 0, next_at: SimTime::NEVER }
    }
    /// The time `bytes` take at `rate_bps`, rounded up to the picosecond.
    pub fn gap(bytes: u32, rate_bps: f64) -> SimTime {
        SimTime::from_ps((bytes as f64 * 8.0 / rate_bps * 1e12).ceil() as u64)
    }
    /// Schedules the next packet at `at`: returns the token its event must
    /// carry.
    #[must_use]
    pub fn schedule(&mut self, at: SimTime) -> u32 {
        self.pacing = true;
        self.token = self.token.wrapping_add(1);
        self.next_at = at;
        self.token
    }
    /// A higher rate arrived: if one MTU at `rate_bps` from `now` is
    /// earlier than the packet scheduled, reschedules it then; returns the
    /// new event's time and token.
    #[must_use]
    pub fn bring_forward(&mut self, now: SimTime, rate_bps: f64) -> Option<(SimTime, u32)> {
        let at = now + Self::gap(MTU, rate_bps);
        (at < self.next_at).then(|| (at, self.schedule(at)))
    }
    /// When the next packet is due.
    pub fn next_at(&self) -> SimTime {
        self.next_at
    }
    /// True if an event with `token` is the current one.
    pub fn is_current(&self, token: u32) -> bool {
        self.token == token
    }
    /// Stops pacing and makes the pending event stale.
    pub fn cancel(&mut self) {
        self.pacing = false;
        self.token = self.token.wrapping_add(1);
    }
}

/// The RFC 6298 round-trip estimator (smoothed RTT and its variation,
/// gains 1/8 and 1/4) and the smallest sample, in picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RttEstimator {
    srtt_ps: f64,
    rttvar_ps: f64,
    min: Option<SimTime>,
}

impl RttEstimator {
    /// Takes a sample.
    pub fn sample(&mut self, rtt: SimTime) {
        let r = rtt.ps() as f64;
        if self.srtt_ps == 0.0 {
            self.srtt_ps = r;
            self.rttvar_ps = r / 2.0;
        } else {
            self.rttvar_ps = 0.75 * self.rttvar_ps + 0.25 * (self.srtt_ps - r).abs();
            self.srtt_ps = 0.875 * self.srtt_ps + 0.125 * r;
        }
        self.min = Some(self.min.map_or(rtt, |m| m.min(rtt)));
    }
    /// The smoothed RTT, picoseconds (0 before the first sample).
    pub fn srtt_ps(&self) -> f64 {
        self.srtt_ps
    }
    /// The smoothed RTT, `None` before the first sample.
    pub fn srtt(&self) -> Option<SimTime> {
        (self.srtt_ps > 0.0).then(|| SimTime::from_ps(self.srtt_ps as u64))
    }
    /// The smallest sample, `None` before the first.
    pub fn min(&self) -> Option<SimTime> {
        self.min
    }
    /// RFC 6298's timeout, SRTT + 4 RTTVAR, within [`min`, `max`].
    pub fn rto(&self, min: SimTime, max: SimTime) -> SimTime {
        SimTime::from_ps((self.srtt_ps + 4.0 * self.rttvar_ps) as u64).max(min).min(max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(x: u64) -> SimTime {
        SimTime::from_us(x)
    }

    #[test]
    fn a_lazy_timer_fires_once_at_its_latest_deadline() {
        let mut t = LazyTimer::new();
        assert_eq!(t.arm(us(0)), None, "no deadline, no event");
        t.set(us(10));
        assert_eq!(t.arm(us(0)), Some(us(10)));
        // Later deadlines cost no event...
        t.set(us(30));
        assert_eq!(t.arm(us(0)), None);
        // ... the event at 10 finds nothing due and re-arms at 30.
        assert_eq!(t.fire(us(10)), Fired::NotDue);
        assert_eq!(t.arm(us(0)), Some(us(30)));
        // An earlier deadline needs an earlier event; the one at 30 is stale.
        t.set(us(20));
        assert_eq!(t.arm(us(0)), Some(us(20)));
        assert_eq!(t.fire(us(20)), Fired::Due);
        assert_eq!(t.fire(us(30)), Fired::Stale);
        t.clear();
        assert_eq!(t.arm(us(0)), None);
        // A deadline already past when armed: the event is now, and fires due.
        t.set(us(5));
        assert_eq!(t.arm(us(40)), Some(us(40)));
        assert_eq!(t.fire(us(40)), Fired::Due);
    }

    #[test]
    fn a_pacer_recognises_its_stale_events() {
        let mut p = Pacer::default();
        let a = p.schedule(us(10));
        assert!(p.pacing && p.is_current(a));
        // A rate of 12 Gbps makes one MTU (1500 B) due 1 us after 0.
        let (at, b) = p.bring_forward(us(0), 12e9).expect("sooner");
        assert_eq!(at, us(1));
        assert!(!p.is_current(a) && p.is_current(b));
        assert_eq!(p.bring_forward(us(0), 1e9), None, "a slower rate does not delay it");
        p.cancel();
        assert!(!p.pacing && !p.is_current(b));
        assert_eq!(Pacer::gap(1500, 10e9), SimTime::from_ps(1_200_000));
    }

    #[test]
    fn rtt_estimator_follows_rfc_6298() {
        let mut e = RttEstimator::default();
        assert_eq!(e.srtt(), None);
        e.sample(us(100));
        // First sample: SRTT = R, RTTVAR = R / 2, RTO = R + 4 R / 2 = 3 R.
        assert_eq!(e.rto(SimTime::ZERO, us(10_000)), us(300));
        e.sample(us(60));
        // RTTVAR = 3/4 x 50 + 1/4 x 40 = 47.5; SRTT = 7/8 x 100 + 1/8 x 60 = 95.
        assert_eq!(e.srtt(), Some(us(95)));
        assert_eq!(e.rto(SimTime::ZERO, us(10_000)), us(95 + 190));
        assert_eq!(e.rto(us(1000), us(10_000)), us(1000), "never below the minimum");
        assert_eq!(e.min(), Some(us(60)));
    }
}
