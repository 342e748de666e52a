//! Fastpass's packet header.

use crate::packet::{Fields, WireHeader};

/// What a Fastpass control message is (see `protocol/fastpass/`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum FastpassMsg {
    /// A data packet.
    #[default]
    Data,
    /// Source to arbiter: the flow needs `value` more timeslots; the
    /// packet's `seq` names the destination host.
    Request,
    /// Arbiter to source: timeslots `slots` (a bit per slot) of epoch `value`.
    Grant,
    /// Source to receiver: which packets are missing?
    Query,
    /// Receiver to source: packets `seq` to `seq + value - 1` are missing;
    /// `slots` is 1 on the last NACK of a reply.
    Nack,
    /// Receiver to source: the flow is complete.
    Ack,
}

impl FastpassMsg {
    /// Every message, in code order (`msg as u8` indexes it).
    const ALL: [FastpassMsg; 6] = [FastpassMsg::Data, FastpassMsg::Request, FastpassMsg::Grant, FastpassMsg::Query, FastpassMsg::Nack, FastpassMsg::Ack];
}

/// Header of Fastpass (Perry et al., SIGCOMM 2014).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastpassHeader {
    /// What the message is.
    pub msg: FastpassMsg,
    /// Request: the packets the source still needs timeslots for. Grant:
    /// the epoch number. NACK: how many packets are missing from `seq` on.
    pub value: u32,
    /// Grant: bit i set when slot i of the epoch is the flow's. NACK: 1 on
    /// the last NACK of a reply.
    pub slots: u32,
}

impl WireHeader for FastpassHeader {
    const TAG: u8 = 3;
    #[inline]
    fn encode(&self) -> Fields {
        Fields { words: [self.value, self.slots, 0], bytes: [self.msg as u8, 0, 0] }
    }
    #[inline]
    fn decode(f: &Fields) -> Self {
        FastpassHeader { msg: FastpassMsg::ALL[f.bytes[0] as usize], value: f.words[0], slots: f.words[1] }
    }
}

#[cfg(test)]
mod tests {
    use super::{FastpassHeader, FastpassMsg};
    use crate::packet::Header;

    #[test]
    fn every_fastpass_message_round_trips() {
        for (i, msg) in FastpassMsg::ALL.into_iter().enumerate() {
            assert_eq!(msg as usize, i, "ALL is in code order");
            let h = FastpassHeader { msg, value: u32::MAX - i as u32, slots: 0x8000_0001 };
            assert_eq!(Header::new(h).read::<FastpassHeader>(), h);
        }
    }
}
