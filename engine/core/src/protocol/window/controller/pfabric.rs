//! pFabric's minimal rate control (Alizadeh et al., SIGCOMM 2013, section
//! 4.2): NewReno's window between a fixed initial and largest window, a
//! fixed timeout and no fast retransmit (both the sender's configuration),
//! data carrying their remaining bytes as priority, and after some
//! timeouts in a row probe mode: the sender only probes with 1-byte
//! packets until an ACK comes back.

use super::{Controller, NewReno, RenoConfig};
use crate::protocol::window::params::PFabricParams;
use crate::trace::ControlEvent;

/// pFabric's 1-byte probe in probe mode, traced (section 4.2).
pub const PROBE: &ControlEvent = &ControlEvent { name: "probe", text: "probe sent", gives_up: false };

/// pFabric's parameters.
#[derive(Clone, Copy, Debug)]
pub struct PFabricConfig {
    /// The window's bounds (Table 1: 12 packets to start).
    pub reno: RenoConfig,
    /// Consecutive timeouts before probe mode; `None`: never (probe mode
    /// off, Figure 5(b)).
    pub probe_after_timeouts: Option<u32>,
}

impl PFabricConfig {
    /// From pFabric's parameters.
    pub fn new(p: &PFabricParams) -> Self {
        PFabricConfig {
            reno: RenoConfig { init_cwnd: p.init_cwnd as f64, max_cwnd: p.max_cwnd as f64 },
            probe_after_timeouts: p.probe_mode.then_some(p.probe_after_timeouts),
        }
    }
}

/// One flow's pFabric state: the window, the run of timeouts and whether
/// it is in probe mode (section 4.2).
#[derive(Clone, Debug)]
#[repr(C)]
pub struct PFabric {
    /// The window (first: see the module's docs).
    reno: NewReno,
    probe_after_timeouts: Option<u32>,
    /// Timeouts since the last ACK.
    timeouts_in_row: u32,
    /// Probe mode is on.
    probe_mode: bool,
}

impl PFabric {
    /// A flow's pFabric state at its start.
    pub fn new(c: &PFabricConfig) -> Self {
        PFabric { reno: NewReno::new(&c.reno), probe_after_timeouts: c.probe_after_timeouts, timeouts_in_row: 0, probe_mode: false }
    }
    /// Timeouts since the last ACK.
    pub fn timeouts_in_row(&self) -> u32 {
        self.timeouts_in_row
    }
}

impl Controller for PFabric {
    fn reno(&self) -> &NewReno {
        &self.reno
    }
    fn reno_mut(&mut self) -> &mut NewReno {
        &mut self.reno
    }
    /// Any ACK ends probe mode and the run of timeouts (section 4.2).
    #[inline]
    fn on_ack_arrival(&mut self) -> bool {
        self.timeouts_in_row = 0;
        std::mem::take(&mut self.probe_mode)
    }
    /// NewReno's collapse; after `probe_after_timeouts` in a row, probe
    /// mode (section 4.2).
    #[inline]
    fn on_timeout(&mut self) {
        self.timeouts_in_row += 1;
        self.reno.collapse();
        if self.probe_after_timeouts.is_some_and(|n| self.timeouts_in_row >= n) {
            self.probe_mode = true;
        }
    }
    #[inline]
    fn in_probe_mode(&self) -> bool {
        self.probe_mode
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::window::params::PFabricParams;

    /// pFabric section 4.2: probe mode after `probe_after_timeouts`
    /// timeouts in a row, not before; an ACK ends it and restarts the
    /// count; with probe mode off, never.
    #[test]
    fn probe_mode_after_timeouts_in_a_row() {
        let p = PFabricParams::default();
        let n = p.probe_after_timeouts;
        let mut c = PFabric::new(&PFabricConfig::new(&p));
        for _ in 1..n {
            c.on_timeout();
        }
        assert!(!c.in_probe_mode(), "{} timeouts", n - 1);
        assert_eq!(c.window(), 1.0);
        c.on_timeout();
        assert!(c.in_probe_mode(), "{n} timeouts");
        assert!(c.on_ack_arrival(), "the ACK found it probing");
        assert!(!c.in_probe_mode());
        c.on_timeout();
        assert!(!c.in_probe_mode() || n == 1, "the count restarted");
        let mut off = PFabric::new(&PFabricConfig::new(&PFabricParams { probe_mode: false, ..p }));
        for _ in 0..10 * n {
            off.on_timeout();
        }
        assert!(!off.in_probe_mode());
    }
}
