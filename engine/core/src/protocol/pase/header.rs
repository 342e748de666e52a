//! PASE's control-message header (data and ACKs carry the window
//! transports' [`WindowHeader`](crate::protocol::window::WindowHeader)).

use crate::packet::{Fields, WireHeader};

/// What a PASE control message is (see `protocol/pase/`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum PaseMsg {
    /// An arbitration request on its way through the flow's arbitrators;
    /// `stage` names the next one, `queue` and `rate_bps` carry the
    /// decision so far, the packet's `rank` the flow's remaining bytes.
    #[default]
    Request,
    /// The final decision, back to the source.
    Response,
    /// The flow finished: a switch arbitrator forgets it.
    Release,
    /// A child arbitrator reports its demand on a delegated link (`rate_bps`;
    /// the packet's `seq` names the parent port, `rank` the child port).
    DelegationReport,
    /// A parent arbitrator hands a child its share (`rate_bps`) of a link.
    DelegationUpdate,
}

impl PaseMsg {
    /// Every message, in code order (`msg as u8` indexes it).
    const ALL: [PaseMsg; 5] = [PaseMsg::Request, PaseMsg::Response, PaseMsg::Release, PaseMsg::DelegationReport, PaseMsg::DelegationUpdate];
}

/// Header of PASE control messages (PASE paper section 3.1). Data and ACKs
/// carry a [`WindowHeader`](crate::protocol::window::WindowHeader); their
/// sub-queue is the packet's `class`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PaseHeader {
    /// What the message is.
    pub msg: PaseMsg,
    /// Priority queue decided so far (largest index along the path).
    pub queue: u8,
    /// Request: index of the arbitrator stop it is addressed to.
    pub stage: u8,
    /// Reference rate decided so far (smallest along the path), bits per
    /// second; delegation messages: the demand or share.
    pub rate_bps: f32,
    /// Request: the flow's deadline, microseconds after its arrival
    /// (`u32::MAX` without one), for EDF arbitrators.
    pub deadline_us: u32,
}

impl WireHeader for PaseHeader {
    const TAG: u8 = 5;
    #[inline]
    fn encode(&self) -> Fields {
        Fields { words: [self.rate_bps.to_bits(), self.deadline_us, 0], bytes: [self.msg as u8, self.queue, self.stage] }
    }
    #[inline]
    fn decode(f: &Fields) -> Self {
        PaseHeader {
            msg: PaseMsg::ALL[f.bytes[0] as usize],
            queue: f.bytes[1],
            stage: f.bytes[2],
            rate_bps: f32::from_bits(f.words[0]),
            deadline_us: f.words[1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PaseHeader, PaseMsg};
    use crate::packet::{Header, WireHeader};
    use crate::protocol::window::WindowHeader;

    #[test]
    fn every_pase_message_round_trips() {
        for (i, msg) in PaseMsg::ALL.into_iter().enumerate() {
            assert_eq!(msg as usize, i, "ALL is in code order");
            let h = PaseHeader { msg, queue: 7, stage: 255, rate_bps: 2.5e9, deadline_us: u32::MAX };
            assert_eq!(Header::new(h).read::<PaseHeader>(), h);
        }
    }

    /// PASE's packets carry two header types: each must know its own.
    #[test]
    fn pase_control_and_data_headers_are_told_apart() {
        assert_ne!(PaseHeader::TAG, WindowHeader::TAG);
        assert!(!Header::new(PaseHeader::default()).is::<WindowHeader>());
    }
}
