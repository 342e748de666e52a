//! PDQ's packet header and its flags.

use crate::packet::{Fields, WireHeader};

/// Flag bits of [`PdqHeader::flags`].
pub mod pdq_flags {
    /// The flow's first packet (SYN); on the reply, SYN-ACK.
    pub const SYN: u8 = 1;
    /// The flow is over (all acknowledged): switches forget it.
    pub const FIN: u8 = 2;
    /// A switch or the sender terminated the flow (Early Termination).
    pub const TERM: u8 = 4;
    /// A header-only probe of a paused flow (and its reply).
    pub const PROBE: u8 = 8;
}

/// PDQ's scheduling header (Hong et al., SIGCOMM 2012, section 3.1),
/// compressed so a packet stays 64 bytes. The deadline D_H and the RTT
/// ride in [`Packet::rank`](crate::packet::Packet::rank), which PDQ's FIFO
/// ports never read: see [`PdqHeader::pack_rank`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PdqHeader {
    /// R_H: the rate the path grants so far, bits per second (the sender
    /// asks for its NIC rate; each switch lowers it; 0 when paused).
    pub rate_bps: f32,
    /// Forward: T_H, the expected transmission time of the flow's
    /// remaining bytes at the NIC rate, nanoseconds (saturating).
    /// Reverse (ACK): the cumulative ACK.
    pub aux: u32,
    /// P_H: the port that paused the flow, plus one (0: not paused).
    pub pauseby: u16,
    /// I_H: the inter-probing time in tenths of an RTT (Suppressed
    /// Probing raises it; 10 = probe every RTT).
    pub probe_tenths: u8,
    /// [`pdq_flags`] bits.
    pub flags: u8,
}

impl PdqHeader {
    /// Deadline field of a packed rank meaning "no deadline".
    const NO_DEADLINE_NS: u64 = (1 << 40) - 1;
    /// `Packet::rank` for PDQ: the absolute deadline in nanoseconds in the
    /// high 40 bits (about 1,100 s; all ones: none) and the sender's RTT
    /// in units of 100 ns in the low 24 bits (at most 1.6 s).
    pub fn pack_rank(deadline_ps: Option<u64>, rtt_ps: u64) -> u64 {
        let d = deadline_ps.map_or(Self::NO_DEADLINE_NS, |d| (d / 1000).min(Self::NO_DEADLINE_NS - 1));
        (d << 24) | (rtt_ps / 100_000).clamp(1, (1 << 24) - 1)
    }
    /// The absolute deadline (ps) and RTT (ps) of a packed rank.
    pub fn unpack_rank(rank: u64) -> (Option<u64>, u64) {
        let d = rank >> 24;
        ((d != Self::NO_DEADLINE_NS).then_some(d * 1000), (rank & ((1 << 24) - 1)) * 100_000)
    }
}

impl WireHeader for PdqHeader {
    const TAG: u8 = 6;
    #[inline]
    fn encode(&self) -> Fields {
        // The third word holds P_H, I_H and the flags side by side, in
        // the order the struct keeps them (a switch rewrites the header of
        // every packet: unpacking and packing stay a copy).
        let small = self.pauseby as u32 | (self.probe_tenths as u32) << 16 | (self.flags as u32) << 24;
        Fields { words: [self.rate_bps.to_bits(), self.aux, small], bytes: [0; 3] }
    }
    #[inline]
    fn decode(f: &Fields) -> Self {
        let small = f.words[2];
        PdqHeader {
            rate_bps: f32::from_bits(f.words[0]),
            aux: f.words[1],
            pauseby: small as u16,
            probe_tenths: (small >> 16) as u8,
            flags: (small >> 24) as u8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{pdq_flags, PdqHeader};
    use crate::packet::Header;

    #[test]
    fn a_pdq_header_round_trips() {
        let h = PdqHeader { rate_bps: 1e10, aux: u32::MAX, pauseby: u16::MAX, probe_tenths: 250, flags: pdq_flags::SYN | pdq_flags::PROBE };
        assert_eq!(Header::new(h).read::<PdqHeader>(), h);
        let mut packed = Header::new(h);
        packed.edit::<PdqHeader>().rate_bps = 0.0;
        assert_eq!(packed.read::<PdqHeader>(), PdqHeader { rate_bps: 0.0, ..h });
    }
}
