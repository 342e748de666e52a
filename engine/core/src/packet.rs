//! Packets. Every packet has the few fields the network itself reads
//! (addresses, size, priority, ECN bits) and one protocol header, opaque
//! here: a struct in the folder of the protocol that reads it packs itself
//! into the packet's [`Header`] through [`WireHeader`] (docs/architecture.md:
//! no single header type that knows every protocol's fields).

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

/// A protocol header's fields as a packet carries them: three 32-bit
/// words and three bytes, what fits beside the tag in the 16 bytes a
/// 64-byte [`Packet`] leaves for its header. A [`WireHeader`] packs its
/// fields into these explicitly (a rate as `f32::to_bits`, small fields
/// side by side with shifts), so packing is a few moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fields {
    /// Three 32-bit fields.
    pub words: [u32; 3],
    /// Three one-byte fields.
    pub bytes: [u8; 3],
}

/// The protocol header a packet carries, opaque to the network: the
/// [`Fields`] that only the protocol reads, packed and unpacked by the
/// protocol's own [`WireHeader`] type, and the tag of the type that packed
/// them. [`Header::NONE`] is a packet without one (tests, raw traffic).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Header {
    /// [`Fields::words`] as [`WireHeader::encode`] packed them (kept
    /// apart from `bytes` so the tag fills the padding a nested
    /// [`Fields`] would leave).
    words: [u32; 3],
    /// [`Fields::bytes`] as packed.
    bytes: [u8; 3],
    /// [`WireHeader::TAG`] of the type that packed them; 0: no header.
    tag: u8,
}

/// A protocol's packet header: a plain `Copy` struct in the protocol's
/// folder, with its fields' meanings in doc comments, that packs itself
/// into a [`Header`] and back.
///
/// A protocol writes a packet's header with `p.header = Header::new(h)`,
/// reads it with `let h: MyHeader = p.header.read()`, and rewrites it in
/// place (a switch lowering a rate) through `p.header.edit::<MyHeader>()`.
/// A round-trip test beside the type proves `decode` undoes `encode`.
pub trait WireHeader: Copy {
    /// Names the type in the packets it writes; reading a packet written
    /// by another type fails loudly ([`Header::read`]). Nonzero (0 is
    /// [`Header::NONE`]) and different from the other header types in use
    /// (`grep -rn "const TAG" engine/core/src/protocol` lists them).
    const TAG: u8;
    /// Packs the fields.
    fn encode(&self) -> Fields;
    /// Unpacks the fields [`WireHeader::encode`] packed.
    fn decode(f: &Fields) -> Self;
}

impl Header {
    /// No protocol header.
    pub const NONE: Header = Header { words: [0; 3], bytes: [0; 3], tag: 0 };

    /// The header `h` packed.
    #[inline]
    pub fn new<H: WireHeader>(h: H) -> Header {
        const { assert!(H::TAG != 0, "tag 0 is Header::NONE") };
        let Fields { words, bytes } = h.encode();
        Header { words, bytes, tag: H::TAG }
    }

    /// True when the header was written by type `H`.
    #[inline]
    pub fn is<H: WireHeader>(&self) -> bool {
        self.tag == H::TAG
    }

    /// The header unpacked as type `H`.
    ///
    /// # Panics
    /// When the packet's header was written by another type (or is
    /// [`Header::NONE`]): a protocol reading the wrong header is a bug
    /// that no run may hide.
    #[inline]
    pub fn read<H: WireHeader>(&self) -> H {
        if self.tag != H::TAG {
            wrong_header(self.tag, H::TAG, std::any::type_name::<H>());
        }
        H::decode(&Fields { words: self.words, bytes: self.bytes })
    }

    /// The header unpacked as type `H` for rewriting in place: the
    /// changes are packed back when the returned guard is dropped.
    ///
    /// # Panics
    /// As [`Header::read`].
    #[inline]
    pub fn edit<H: WireHeader>(&mut self) -> HeaderMut<'_, H> {
        let value = self.read();
        HeaderMut { header: self, value }
    }
}

/// The panic of [`Header::read`], out of the hot path.
#[cold]
#[inline(never)]
fn wrong_header(written: u8, wanted: u8, name: &str) -> ! {
    panic!("a packet header written with tag {written} was read as {name} (tag {wanted})")
}

/// A header being rewritten in place ([`Header::edit`]): reads and writes
/// as the protocol's type, packed back into the packet when dropped.
pub struct HeaderMut<'a, H: WireHeader> {
    /// The packet's header.
    header: &'a mut Header,
    /// Its fields, unpacked.
    value: H,
}

impl<H: WireHeader> std::ops::Deref for HeaderMut<'_, H> {
    type Target = H;
    #[inline]
    fn deref(&self) -> &H {
        &self.value
    }
}

impl<H: WireHeader> std::ops::DerefMut for HeaderMut<'_, H> {
    #[inline]
    fn deref_mut(&mut self) -> &mut H {
        &mut self.value
    }
}

impl<H: WireHeader> Drop for HeaderMut<'_, H> {
    #[inline]
    fn drop(&mut self) {
        *self.header = Header::new(self.value);
    }
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
            header: Header::NONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packet_fits_one_cache_line() {
        // Packets are copied at every hop: keep them at 64 bytes.
        assert!(std::mem::size_of::<Packet>() <= 64, "{}", std::mem::size_of::<Packet>());
    }

    /// A header filling every field the packet has room for.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Full {
        a: u32,
        b: f32,
        c: u16,
        d: u16,
        e: bool,
        f: u8,
        g: u8,
    }

    impl WireHeader for Full {
        const TAG: u8 = 255;
        fn encode(&self) -> Fields {
            Fields { words: [self.a, self.b.to_bits(), self.c as u32 | (self.d as u32) << 16], bytes: [self.e as u8, self.f, self.g] }
        }
        fn decode(f: &Fields) -> Self {
            let [a, b, cd] = f.words;
            Full { a, b: f32::from_bits(b), c: cd as u16, d: (cd >> 16) as u16, e: f.bytes[0] != 0, f: f.bytes[1], g: f.bytes[2] }
        }
    }

    /// A header of another type.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Other(u8);

    impl WireHeader for Other {
        const TAG: u8 = 254;
        fn encode(&self) -> Fields {
            Fields { bytes: [self.0, 0, 0], ..Fields::default() }
        }
        fn decode(f: &Fields) -> Self {
            Other(f.bytes[0])
        }
    }

    #[test]
    fn a_full_header_round_trips_and_edits_in_place() {
        let h = Full { a: u32::MAX, b: -0.0, c: 0xfffe, d: 0x0102, e: true, f: 254, g: 7 };
        let mut packed = Header::new(h);
        let back: Full = packed.read();
        assert_eq!((back, back.b.to_bits()), (h, (-0.0f32).to_bits()));
        assert!(packed.is::<Full>() && !packed.is::<Other>() && !Header::NONE.is::<Full>());
        packed.edit::<Full>().d = 9;
        assert_eq!(packed.read::<Full>(), Full { d: 9, ..h });
        assert_eq!(Packet::new(FlowId(0), NodeId(0), NodeId(1), PacketKind::Data, 0, 1500).header, Header::NONE);
    }

    #[test]
    #[should_panic(expected = "written with tag 254 was read as")]
    fn reading_a_header_as_another_type_fails_loudly() {
        Header::new(Other(1)).read::<Full>();
    }

    #[test]
    #[should_panic(expected = "written with tag 0 was read as")]
    fn reading_a_packet_without_a_header_fails_loudly() {
        Header::NONE.read::<Other>();
    }
}
