//! Units as types: simulated time in integer picoseconds, link rates in bits
//! per second. Every conversion has a name, so a reader never has to guess
//! whether a number is in microseconds or nanoseconds (htsim's `timeFromUs`,
//! smoltcp's `time.rs`).

use core::ops::{Add, AddAssign, Sub};
use serde::{Deserialize, Serialize};

/// A point in simulated time, or a duration, in integer picoseconds.
///
/// Integer time makes runs bit-for-bit reproducible on every platform:
/// 1500 B at 10 Gbps is exactly 1,200,000 ps (docs/model.md#time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SimTime(pub u64);

impl SimTime {
    /// Time zero, the start of every run.
    pub const ZERO: SimTime = SimTime(0);
    /// A time later than any run reaches; used as "never".
    pub const NEVER: SimTime = SimTime(u64::MAX);

    /// `ps` picoseconds.
    pub const fn from_ps(ps: u64) -> Self {
        SimTime(ps)
    }
    /// `ns` nanoseconds.
    pub const fn from_ns(ns: u64) -> Self {
        SimTime(ns * 1_000)
    }
    /// `us` microseconds.
    pub const fn from_us(us: u64) -> Self {
        SimTime(us * 1_000_000)
    }
    /// `ms` milliseconds.
    pub const fn from_ms(ms: u64) -> Self {
        SimTime(ms * 1_000_000_000)
    }
    /// A fractional number of microseconds, rounded to the nearest picosecond.
    pub fn from_us_f64(us: f64) -> Self {
        SimTime((us * 1e6).round().max(0.0) as u64)
    }
    /// Picoseconds.
    pub const fn ps(self) -> u64 {
        self.0
    }
    /// Microseconds as a float (for reports only, never for scheduling).
    pub fn as_us_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    /// Seconds as a float (for reports only).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e12
    }
    /// `self - other`, or zero when `other` is later.
    pub fn saturating_sub(self, other: SimTime) -> SimTime {
        SimTime(self.0.saturating_sub(other.0))
    }
}

impl Add for SimTime {
    type Output = SimTime;
    fn add(self, o: SimTime) -> SimTime {
        SimTime(self.0 + o.0)
    }
}
impl AddAssign for SimTime {
    fn add_assign(&mut self, o: SimTime) {
        self.0 += o.0;
    }
}
impl Sub for SimTime {
    type Output = SimTime;
    fn sub(self, o: SimTime) -> SimTime {
        SimTime(self.0 - o.0)
    }
}

/// A link rate in bits per second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Rate(pub u64);

impl Rate {
    /// `g` gigabits per second.
    pub fn from_gbps(g: f64) -> Self {
        Rate((g * 1e9).round() as u64)
    }
    /// Bits per second.
    pub const fn bps(self) -> u64 {
        self.0
    }
    /// Gigabits per second as a float (for reports).
    pub fn as_gbps(self) -> f64 {
        self.0 as f64 / 1e9
    }
    /// Serialization time of `bytes` at this rate, rounded up to a whole
    /// picosecond: `bytes * 8 / rate`.
    pub fn serialization(self, bytes: u64) -> SimTime {
        let num = bytes as u128 * 8 * 1_000_000_000_000u128;
        let r = self.0 as u128;
        SimTime(num.div_ceil(r) as u64)
    }
    /// Bytes this rate carries in `t` (rounded down).
    pub fn bytes_in(self, t: SimTime) -> u64 {
        ((t.0 as u128 * self.0 as u128) / 8_000_000_000_000u128) as u64
    }
}

/// Bytes on the wire of a full data packet: the MTU (docs/model.md#packets).
pub const MTU: u32 = 1500;
/// Payload bytes of a full data packet: the MSS (docs/model.md#packets).
pub const MSS: u32 = 1460;
/// Header bytes of every packet, and the size of a control packet (ACK, RTS,
/// token, grant, SYN, arbitration message): 40 B (docs/model.md#packets).
pub const HEADER: u32 = 40;

/// Number of packets needed to carry `bytes` of payload in MSS-sized pieces.
pub fn packets_for(bytes: u64) -> u32 {
    bytes.div_ceil(MSS as u64).max(1) as u32
}

/// Wire size of data packet `seq` of a flow of `bytes` payload bytes: a full
/// MTU, except the last packet, which carries the remainder plus a header.
pub fn data_packet_wire_size(bytes: u64, seq: u32) -> u32 {
    let n = packets_for(bytes);
    if seq + 1 < n {
        MTU
    } else {
        let rem = bytes - (n as u64 - 1) * MSS as u64;
        rem as u32 + HEADER
    }
}

/// Payload bytes of data packet `seq` of a flow of `bytes` payload bytes.
pub fn data_packet_payload(bytes: u64, seq: u32) -> u32 {
    data_packet_wire_size(bytes, seq) - HEADER
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialization_matches_protocols_md() {
        assert_eq!(Rate::from_gbps(10.0).serialization(1500), SimTime(1_200_000));
        assert_eq!(Rate::from_gbps(40.0).serialization(1500), SimTime(300_000));
        assert_eq!(Rate::from_gbps(1.0).serialization(40), SimTime(320_000));
    }

    #[test]
    fn packetization_covers_every_byte_once() {
        for bytes in [1u64, 1459, 1460, 1461, 2920, 100_000, 20_000_000] {
            let n = packets_for(bytes);
            let total: u64 = (0..n).map(|s| data_packet_payload(bytes, s) as u64).sum();
            assert_eq!(total, bytes, "bytes={bytes}");
            assert!((0..n).all(|s| data_packet_wire_size(bytes, s) <= MTU));
        }
    }
}
