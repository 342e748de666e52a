//! The window transports' packet header (TCP, DCTCP, D2TCP, L2DCT,
//! pFabric, and PASE's data and ACKs).

use crate::packet::{Fields, WireHeader};

/// Header of the window-based transports (TCP, DCTCP, pFabric).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowHeader {
    /// On ACKs: the next packet the receiver expects (cumulative ACK).
    pub cum_ack: u32,
    /// On ACKs: the packet this ACK acknowledges (selective ACK).
    pub sack: u32,
    /// On ACKs: ECN-echo, set when the acknowledged packet was CE-marked.
    pub ece: bool,
}

impl WireHeader for WindowHeader {
    const TAG: u8 = 1;
    #[inline]
    fn encode(&self) -> Fields {
        Fields { words: [self.cum_ack, self.sack, 0], bytes: [self.ece as u8, 0, 0] }
    }
    #[inline]
    fn decode(f: &Fields) -> Self {
        WindowHeader { cum_ack: f.words[0], sack: f.words[1], ece: f.bytes[0] != 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::WindowHeader;
    use crate::packet::Header;

    #[test]
    fn a_window_header_round_trips() {
        let h = WindowHeader { cum_ack: u32::MAX, sack: 7, ece: true };
        assert_eq!(Header::new(h).read::<WindowHeader>(), h);
        assert_eq!(Header::new(WindowHeader::default()).read::<WindowHeader>(), WindowHeader::default());
    }
}
