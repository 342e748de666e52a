//! Packets. Every packet has the few fields the network itself reads
//! (addresses, size, priority, ECN bits) and one protocol header, a struct
//! owned by the protocol that reads it (docs/architecture.md: no single
//! header type that knows every protocol's fields).

use crate::ids::{FlowId, NodeId};
use crate::slab::Slab;
use crate::units::SimTime;

/// The number of a packet in [`Packets`].
pub type PacketId = u32;

/// Every packet inside the network (in a port's buffer or on a wire), by
/// number. Queues and wires hold the 4-byte number, so a packet is written
/// once when it leaves its source and read and updated in place at every
/// hop instead of being copied in and out of each buffer and wire.
pub type Packets = Slab<Packet>;

/// What a packet is, as far as the network and the metrics care.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PacketKind {
    /// Carries flow payload. Counted by conservation checks and drop rates.
    Data = 0,
    /// Acknowledgement of data.
    Ack = 1,
    /// A header-only or 1-byte probe (pFabric probe mode, PASE lowest queue).
    Probe = 2,
    /// Any other control message (RTS, token, grant, SYN, arbitration).
    Control = 3,
}

impl PacketKind {
    /// Every kind, in code order (`kind as u8`: the packet-kind column of
    /// the browser binding's records; `dcsim names` exports them).
    pub const ALL: [PacketKind; 4] = [PacketKind::Data, PacketKind::Ack, PacketKind::Probe, PacketKind::Control];
    /// True for packets that carry flow payload.
    #[inline]
    pub fn is_data(self) -> bool {
        matches!(self, PacketKind::Data)
    }
}

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
/// ride in [`Packet::rank`], which PDQ's FIFO ports never read: see
/// [`PdqHeader::pack_rank`].
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

/// Header of PASE control messages (PASE paper section 3.1). Data and ACKs
/// carry a [`WindowHeader`]; their sub-queue is the packet's `class`.
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

/// The protocol header carried by a packet.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Header {
    /// No protocol header (tests, raw traffic).
    #[default]
    None,
    /// TCP, DCTCP, pFabric.
    Window(WindowHeader),
    /// RCP.
    Rcp(RcpHeader),
    /// Fastpass.
    Fastpass(FastpassHeader),
    /// pHost (RTS, tokens, data, ACK; the deadline rides in `rank`).
    Phost(PhostHeader),
    /// PASE control messages.
    Pase(PaseHeader),
    /// PDQ (SYN, data, probes, ACKs, FIN; deadline and RTT ride in `rank`).
    Pdq(PdqHeader),
}

/// ECN bits as DCTCP uses them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ecn {
    /// ECN-capable transport: switches may mark instead of... (they never
    /// drop on marking; marking is independent of the buffer limit).
    pub capable: bool,
    /// Congestion experienced: set by a switch whose queue exceeded K.
    pub ce: bool,
}

/// A packet in flight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Packet {
    /// The flow this packet belongs to.
    pub flow: FlowId,
    /// Sending node.
    pub src: NodeId,
    /// Destination node.
    pub dst: NodeId,
    /// Data: packet index within the flow. ACK: see the header.
    pub seq: u32,
    /// Bytes on the wire, headers included (at most 65,535: packets are
    /// MTU-sized; 16 bits keep a packet within one cache line).
    pub size: u16,
    /// What kind of packet this is.
    pub kind: PacketKind,
    /// Sub-queue for `strict_priority` ports: 0 is served first.
    pub class: u8,
    /// Number of output ports this packet has already left (0 at the
    /// source NIC). Names the hop a drop happens at.
    pub hops: u8,
    /// The packet was on the wire of a link that failed: it is dropped
    /// where it arrives (see `crate::fault`).
    pub lost: bool,
    /// ECN bits.
    pub ecn: Ecn,
    /// pFabric priority: lower is more urgent (remaining flow bytes).
    pub rank: u64,
    /// When the sender put this packet on its NIC queue (for RTT samples);
    /// an ACK carries the acknowledged packet's value back (a timestamp echo).
    pub sent_at: SimTime,
    /// Cut-through: the earliest time the packet's last bit is available,
    /// so no port can finish sending it before then.
    pub ready_at: SimTime,
    /// The protocol's header.
    pub header: Header,
}

impl Packet {
    /// A packet with the common fields set and the rest zero.
    pub fn new(flow: FlowId, src: NodeId, dst: NodeId, kind: PacketKind, seq: u32, size: u32) -> Self {
        debug_assert!(size <= u16::MAX as u32, "packet of {size} bytes");
        let size = size as u16;
        Packet {
            flow,
            src,
            dst,
            seq,
            size,
            kind,
            class: 0,
            hops: 0,
            lost: false,
            ecn: Ecn::default(),
            rank: 0,
            sent_at: SimTime::ZERO,
            ready_at: SimTime::ZERO,
            header: Header::None,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_packet_fits_one_cache_line() {
        // Packets are copied at every hop: keep them at 64 bytes.
        assert!(std::mem::size_of::<super::Packet>() <= 64, "{}", std::mem::size_of::<super::Packet>());
    }
}
