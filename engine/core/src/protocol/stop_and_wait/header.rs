//! Stop-and-wait's packet header.

use crate::packet::{Fields, WireHeader};

/// Header of stop-and-wait's data packets and ACKs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StopAndWaitHeader {
    /// Data: how many packets the flow has (the receiver learns the
    /// flow's length from any of them). ACK: echoed.
    pub packets: u32,
    /// ACK: the next packet the receiver expects (every one before it
    /// has arrived). Data: 0.
    pub next: u32,
}

impl WireHeader for StopAndWaitHeader {
    const TAG: u8 = 7;
    #[inline]
    fn encode(&self) -> Fields {
        Fields { words: [self.packets, self.next, 0], bytes: [0; 3] }
    }
    #[inline]
    fn decode(f: &Fields) -> Self {
        StopAndWaitHeader { packets: f.words[0], next: f.words[1] }
    }
}
