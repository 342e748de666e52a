//! pHost's packet header.

use crate::packet::{Fields, WireHeader};

/// What a pHost packet is (pHost paper section 3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum PhostMsg {
    /// Request to send: announces a flow to its destination.
    #[default]
    Rts,
    /// A token: permission to send the packet named by `seq`.
    Token,
    /// A data packet, sent on a token.
    Data,
    /// The destination holds the whole flow.
    Ack,
}

impl PhostMsg {
    /// Every message, in code order (`msg as u8` indexes it).
    const ALL: [PhostMsg; 4] = [PhostMsg::Rts, PhostMsg::Token, PhostMsg::Data, PhostMsg::Ack];
}

/// Header of pHost packets (pHost paper section 3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhostHeader {
    /// Token: its number within the flow. Data: the number of the token it
    /// answers (free tokens are 0 .. free_tokens).
    pub token: u32,
    /// RTS and data: the flow's size in packets. Token: packets the
    /// destination still misses (the source's SRPT key).
    pub count: u32,
    /// The flow's tenant (tenant-fair policy).
    pub tenant: u16,
    /// Token and data: the priority (sub-queue) the token names for data.
    pub class: u8,
    /// What the packet is.
    pub msg: PhostMsg,
}

impl WireHeader for PhostHeader {
    const TAG: u8 = 4;
    #[inline]
    fn encode(&self) -> Fields {
        Fields { words: [self.token, self.count, self.tenant as u32], bytes: [self.class, self.msg as u8, 0] }
    }
    #[inline]
    fn decode(f: &Fields) -> Self {
        PhostHeader { token: f.words[0], count: f.words[1], tenant: f.words[2] as u16, class: f.bytes[0], msg: PhostMsg::ALL[f.bytes[1] as usize] }
    }
}

#[cfg(test)]
mod tests {
    use super::{PhostHeader, PhostMsg};
    use crate::packet::Header;

    #[test]
    fn every_phost_message_round_trips() {
        for (i, msg) in PhostMsg::ALL.into_iter().enumerate() {
            assert_eq!(msg as usize, i, "ALL is in code order");
            let h = PhostHeader { token: u32::MAX, count: 1 << 20, tenant: u16::MAX, class: 7, msg };
            assert_eq!(Header::new(h).read::<PhostHeader>(), h);
        }
    }
}
