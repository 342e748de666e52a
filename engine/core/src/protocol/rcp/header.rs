//! RCP's (and D3's) packet header.

use crate::packet::{Fields, WireHeader};

/// Header of RCP (Dukkipati et al.): the rate the path can give this flow.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RcpHeader {
    /// On data: the smallest fair-share rate along the path so far, in bits
    /// per second; each switch lowers it to its own rate. On ACKs: echoed.
    /// Single precision (7 significant digits) is plenty for a rate and
    /// keeps the header, and so every packet, small.
    pub rate_bps: f32,
    /// On ACKs: the cumulative ACK.
    pub cum_ack: u32,
    /// On ACKs: the packet acknowledged.
    pub sack: u32,
}

impl WireHeader for RcpHeader {
    const TAG: u8 = 2;
    #[inline]
    fn encode(&self) -> Fields {
        Fields { words: [self.rate_bps.to_bits(), self.cum_ack, self.sack], bytes: [0; 3] }
    }
    #[inline]
    fn decode(f: &Fields) -> Self {
        RcpHeader { rate_bps: f32::from_bits(f.words[0]), cum_ack: f.words[1], sack: f.words[2] }
    }
}

#[cfg(test)]
mod tests {
    use super::RcpHeader;
    use crate::packet::Header;

    #[test]
    fn an_rcp_header_round_trips() {
        let h = RcpHeader { rate_bps: 9.87e9, cum_ack: u32::MAX, sack: 12 };
        assert_eq!(Header::new(h).read::<RcpHeader>(), h);
        let open = Header::new(RcpHeader { rate_bps: f32::INFINITY, cum_ack: 0, sack: 0 }).read::<RcpHeader>();
        assert_eq!(open.rate_bps, f32::INFINITY);
    }
}
