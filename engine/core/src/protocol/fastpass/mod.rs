//! Fastpass (Perry et al., SIGCOMM 2014) as the pHost paper evaluates it
//! (Gao et al., CoNEXT 2015, section 4; docs/protocols/fastpass.md): a central
//! arbiter decides when every packet is sent.
//!
//! * **Time** is cut into timeslots of one MTU transmission time at the
//!   host link rate (Fastpass section 3), grouped into epochs of
//!   `epoch_slots` slots (8: docs/protocols/fastpass.md, the pHost authors'
//!   simulator's `FASTPASS_EPOCH_PKTS`) followed by an idle guard of
//!   `epoch_guard_slots` (default 0, the pHost paper's "epoch interval of
//!   8 MTU transmission times"; 0.5 is that simulator's epoch of 8.5 MTU
//!   times). Without a guard a receiver fed in every slot has no idle
//!   time in which the control packets that also reach it drain.
//!   Epoch `e` starts at `e * epoch`, slot `i` of it `i` slots later; every
//!   host knows the arbiter's clock (`clock_skew_ns` = 0: perfect
//!   synchronization, pHost's best case).
//! * **Requests**: when a flow arrives, its source sends a 40-B request
//!   (control, sub-queue 0) to the arbiter on host `arbiter_host`, carrying
//!   the destination and the number of packets that still need a timeslot.
//!   A request states the whole current demand, not an increment, so a
//!   repeated or re-sent request is harmless.
//! * **The arbiter** wakes at every epoch boundary while it has demand.
//!   At boundary `k` it allocates epoch `k + 1` (plus as many epochs as the
//!   processing time `arbiter_processing_us` spans): slot by slot, it walks
//!   the flows in SRPT order, fewest unallocated packets first (ties: the
//!   earlier flow), and gives a flow the slot when neither its source nor
//!   its destination has one yet, a greedy maximal matching (the pHost
//!   authors' simulator `FastpassArbiter::schedule_timeslot`, whose
//!   priority queue orders flows by `arbiter_remaining_num_pkts`; the
//!   Fastpass paper's allocator also offers an SJF order). So no host sends
//!   two packets and no host receives two packets in one slot.
//! * **Grants** leave the arbiter's host `arbiter_processing_us` after the
//!   boundary (pHost's best case: at once), one 40-B control packet per
//!   flow and epoch naming its slots as a bit mask, flows with earlier
//!   slots first. They cross the network like any packet, at the highest
//!   priority; the epoch of lead gives them time to arrive. The arbiter's
//!   own host sends its data through the same NIC, behind the grants, so
//!   the arbiter leaves that host as many slots free at the end of the
//!   next epoch it allocates as its last batch of grants took beyond the
//!   guard (rounded up to whole slots, at most all slots but one); without
//!   this, that host's data fell further behind every epoch and overflowed
//!   its NIC. With one grant per flow and epoch, very short epochs make the
//!   arbiter's link the bottleneck: at load 0.6 on 144 hosts a batch is
//!   about 90 grants (3.6 KB, three slots' time).
//! * **Sources** send each granted packet at its slot's start time. A run
//!   of consecutive granted slots of full-size packets is handed to the NIC
//!   at the first slot's start; the NIC then sends one packet per slot,
//!   back to back, exactly as one send per slot would (only control packets
//!   can interleave, as they would anyway), at a fraction of the events. A
//!   grant that arrives after one of its slots has begun loses that slot:
//!   the source re-requests the packets.
//! * **Receivers** acknowledge once, when the flow is complete (40 B).
//! * **Losses** are rare, since no host link is ever asked to carry two
//!   packets in one slot, but fabric ports, the arbiter's own link and
//!   oversubscribed topologies can still drop. A source that has sent every
//!   packet and holds no ACK `retransmit_timeout_us` after its last send asks
//!   its receiver (a 40-B query); the receiver answers with a NACK per run
//!   of missing packets (or the ACK again), and the source requests slots
//!   for them. A source that has waited for grants that long beyond the
//!   time a grant takes on an idle arbiter re-sends its request (a lost
//!   request or grant). Each timeout without progress doubles the next
//!   wait. A re-sent request states the current demand; if a grant was
//!   still on its way, the arbiter allocates those packets twice and the
//!   source leaves the extra slots unused (counted in `wasted_slots`).
//!
//! Where this differs from the pHost authors' simulator: there the arbiter
//! is a dedicated 145th host under the first ToR, every data packet is
//! acknowledged, and a source starts its epoch as soon as the grant
//! arrives; here the arbiter shares a host of the topology (the scenario's
//! topology is left alone), the receiver acknowledges once, and sources
//! wait for the slot's start, as the Fastpass paper's sources do
//! (`start_on_grant` gives the authors' reading). Neither
//! assigns paths (the Fastpass paper's path selection): the leaf-spine
//! fabric has full bisection and sprays packets, so only host links need
//! the matching; on an oversubscribed tree the fabric can still queue and
//! drop, and loss recovery covers it.

use crate::ids::{FlowId, NodeId};
use crate::net::Network;
use crate::packet::{Header, Packet, PacketKind};
use crate::protocol::flow_table::FlowTable;
use crate::protocol::{Io, Protocol};
use crate::trace::TraceKind;
use crate::units::{data_packet_wire_size, packets_for, SimTime, HEADER, MTU};
use crate::workload::FlowSpec;
pub use header::{FastpassHeader, FastpassMsg};
use params::FastpassParams;
use std::collections::{BTreeSet, VecDeque};

pub mod events;
mod header;
pub mod params;
mod plugin;
pub use plugin::FastpassPlugin;

/// Sub-queue of control packets (requests, grants, queries, NACKs, ACKs):
/// served first.
pub const CONTROL_CLASS: u8 = 0;
/// Sub-queue of data packets.
pub const DATA_CLASS: u8 = 1;

/// Doubling of the recovery wait stops here (2^20 timeouts), only to keep
/// the arithmetic finite; a run never gets near it.
const MAX_BACKOFF: u32 = 20;

/// Fastpass timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastpassTimer {
    /// An epoch boundary at the arbiter: allocate the epoch ahead.
    Epoch,
    /// Grants computed at a boundary are ready to leave (processing time).
    SendGrants,
    /// A flow's next granted slot begins (the number tells stale timers).
    Slot(FlowId, u32),
    /// A flow's loss-recovery timer.
    Retry(FlowId),
}

/// A source's state for one flow, until the completion ACK arrives.
#[derive(Clone)]
struct Source {
    src: NodeId,
    dst: NodeId,
    size: u64,
    /// Packets in the flow.
    n: u32,
    /// Next packet never sent.
    next_new: u32,
    /// Packets the receiver reported missing, to send again.
    retx: BTreeSet<u32>,
    /// Granted slots not yet used: (epoch, bit mask, when the epoch's
    /// first slot starts at this source), in epoch order.
    grants: VecDeque<(u32, u32, SimTime)>,
    /// Number of bits set in `grants`.
    granted: u32,
    /// The pending slot timer's number and time.
    slot_token: u32,
    slot_armed: Option<SimTime>,
    retry_deadline: SimTime,
    retry_armed: bool,
    backoff: u32,
}

impl Source {
    /// Packets that need a slot (never sent, or to resend).
    fn to_send(&self) -> u32 {
        self.n - self.next_new + self.retx.len() as u32
    }
    /// Packets that need a slot and have none granted yet: the demand.
    fn need(&self) -> u32 {
        self.to_send().saturating_sub(self.granted)
    }
}

/// A receiver's record of one flow's packets, until it holds them all.
#[derive(Clone)]
struct Receiver {
    got: Vec<u64>,
    count: u32,
    n: u32,
}

impl Receiver {
    fn new(n: u32) -> Self {
        Receiver { got: vec![0; (n as usize).div_ceil(64)], count: 0, n }
    }
    fn complete(&self) -> bool {
        self.count == self.n
    }
    /// Records packet `seq`; true when it completes the flow.
    fn receive(&mut self, seq: u32) -> bool {
        if self.complete() {
            return false;
        }
        let (w, b) = (seq as usize / 64, seq % 64);
        if self.got[w] & (1 << b) == 0 {
            self.got[w] |= 1 << b;
            self.count += 1;
            if self.complete() {
                self.got = Vec::new();
                return true;
            }
        }
        false
    }
    fn missing(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.n).filter(|&s| self.got.get(s as usize / 64).is_some_and(|w| w & (1 << (s % 64)) == 0))
    }
}

/// The arbiter's view of one flow with demand. A flow whose packets are
/// all allocated is dropped at the next boundary: a later request (a
/// re-request, or one that arrives after the flow is over) states the
/// whole demand, so a new entry is the same as the old one would be.
#[derive(Clone, Copy)]
struct ArbFlow {
    /// The flow's id.
    flow: u32,
    src: u32,
    dst: u32,
    /// Packets requested and not yet allocated.
    remaining: u32,
    /// The last epoch this flow got slots in, and the index of its grant
    /// in the batch being built.
    epoch: u32,
    grant: u32,
}

/// One data packet a source sent, with the slot it was granted (tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotSend {
    /// Global slot number: epoch * epoch_slots + slot.
    pub slot: u64,
    /// Sending host.
    pub src: NodeId,
    /// Receiving host.
    pub dst: NodeId,
    /// The flow.
    pub flow: FlowId,
}

/// Fastpass: sources, receivers and the arbiter.
#[derive(Clone)]
pub struct Fastpass {
    p: FastpassParams,
    /// One timeslot: an MTU at the host link rate.
    slot: SimTime,
    /// One epoch: `epoch_slots` slots and the guard.
    epoch: SimTime,
    /// Epochs between the boundary where an allocation is made and the
    /// start of the epoch it allocates.
    lead_epochs: u64,
    arbiter: NodeId,
    /// Most packets a source hands its NIC at once (a run of slots): what
    /// the NIC buffer holds with room for one more packet of control.
    max_run: u64,
    /// Sources by flow id, until the completion ACK (then retired: a late
    /// grant only counts its slots as wasted, late timers and NACKs are
    /// ignored).
    sources: FlowTable<Source>,
    /// Receivers by flow id, until the flow is complete (then retired: a
    /// late data packet is ignored, a late query answered with the ACK).
    receivers: FlowTable<Receiver>,
    /// Each host's clock offset from the arbiter's, picoseconds (drawn on
    /// first use).
    clock_offset: Vec<Option<i64>>,
    /// The arbiter's flows with requests, in SRPT order after each sort
    /// (only flows with demand, or allocated since the last boundary).
    active: Vec<ArbFlow>,
    /// Per-host marks: the host sends (receives) in the slot being matched.
    src_mark: Vec<u64>,
    dst_mark: Vec<u64>,
    mark: u64,
    /// Slots at the end of the epoch being allocated in which the arbiter's
    /// own host does not send: the time its last batch of grants took on
    /// its NIC, rounded up to whole slots.
    reserved_slots: u32,
    /// The epoch timer is set.
    epoch_armed: bool,
    /// The first epoch boundary not yet used for an allocation.
    next_boundary: u64,
    /// With `start_on_grant`: per host, the last epoch it started and when.
    epoch_start: Vec<(u32, SimTime)>,
    /// Grants waiting for the processing time: (leave at, grants).
    pending_grants: VecDeque<(SimTime, Vec<Packet>)>,
    /// Every data packet sent with its granted slot, when `log_sends` is on.
    pub sends: Vec<SlotSend>,
    /// Record `sends` (tests).
    pub log_sends: bool,
    /// Granted slots a source could not use because the grant came late.
    pub missed_slots: u64,
    /// Granted slots a source had nothing to send in.
    pub wasted_slots: u64,
}

impl Fastpass {
    /// Fastpass on `net` with parameters `p` (validated by the scenario).
    pub fn new(p: FastpassParams, net: &Network) -> Self {
        let slot = net.host_rate.serialization(MTU as u64);
        let guard = (slot.ps() as f64 * p.epoch_guard_slots).round() as u64;
        let epoch = SimTime::from_ps(slot.ps() * p.epoch_slots as u64 + guard);
        let proc = SimTime::from_us_f64(p.arbiter_processing_us);
        let n = net.n_hosts as usize;
        Fastpass {
            slot,
            epoch,
            lead_epochs: 1 + proc.ps().div_ceil(epoch.ps()),
            arbiter: NodeId(p.arbiter_host),
            max_run: (p.buffer_bytes / MTU as u64).saturating_sub(1).max(1),
            p,
            sources: FlowTable::default(),
            receivers: FlowTable::default(),
            clock_offset: vec![None; n],
            active: Vec::new(),
            src_mark: vec![0; n],
            dst_mark: vec![0; n],
            mark: 0,
            reserved_slots: 0,
            epoch_armed: false,
            next_boundary: 0,
            pending_grants: VecDeque::new(),
            epoch_start: vec![(u32::MAX, SimTime::ZERO); n],
            sends: Vec::new(),
            log_sends: false,
            missed_slots: 0,
            wasted_slots: 0,
        }
    }

    /// Length of one timeslot.
    pub fn slot_time(&self) -> SimTime {
        self.slot
    }
    /// Length of one epoch.
    pub fn epoch_time(&self) -> SimTime {
        self.epoch
    }

    fn control(&self, flow: FlowId, src: NodeId, dst: NodeId, seq: u32, h: FastpassHeader) -> Packet {
        let mut p = Packet::new(flow, src, dst, PacketKind::Control, seq, HEADER);
        p.class = CONTROL_CLASS;
        p.header = Header::new(h);
        p
    }

    /// When host `h` starts slot `i` of epoch `e`, by the arbiter's clock.
    fn slot_start(&mut self, h: NodeId, e: u32, i: u32, io: &mut Io<FastpassTimer>) -> SimTime {
        let base = (e as u64 * self.epoch.ps() + i as u64 * self.slot.ps()) as i64;
        let off = match self.clock_offset[h.idx()] {
            Some(o) => o,
            None => {
                let skew = self.p.clock_skew_ns * 1000.0;
                let o = if skew > 0.0 { io.rng.uniform(-skew, skew).round() as i64 } else { 0 };
                self.clock_offset[h.idx()] = Some(o);
                o
            }
        };
        SimTime::from_ps((base + off).max(0) as u64)
    }

    fn send_request(&mut self, flow: FlowId, io: &mut Io<FastpassTimer>) {
        let Some(s) = self.sources.get(flow.idx()) else { return };
        let h = FastpassHeader { msg: FastpassMsg::Request, value: s.need(), slots: 0 };
        let p = self.control(flow, s.src, self.arbiter, s.dst.0, h);
        io.send(p);
        io.trace(|| TraceKind::Control { flow, what: events::REQUEST });
    }

    /// Moves a flow's recovery deadline to `at` and makes sure a timer runs.
    fn retry_at(&mut self, flow: FlowId, at: SimTime, io: &mut Io<FastpassTimer>) {
        let Some(s) = self.sources.get_mut(flow.idx()) else { return };
        s.retry_deadline = at;
        if !s.retry_armed {
            s.retry_armed = true;
            io.set_timer(at, FastpassTimer::Retry(flow));
        }
    }

    /// The longest a request waits for its first grant when the arbiter
    /// has room: up to an epoch for the next boundary, then the epochs of
    /// lead. A source waiting for grants re-sends its request only after
    /// this plus the recovery timeout, so an unloaded network never sees a
    /// second request.
    fn grant_wait(&self) -> SimTime {
        SimTime::from_ps(self.epoch.ps() * (1 + self.lead_epochs))
    }

    fn timeout(&self, backoff: u32) -> SimTime {
        SimTime::from_ps(SimTime::from_us_f64(self.p.retransmit_timeout_us).ps() << backoff.min(MAX_BACKOFF))
    }

    /// Arms the slot timer for the flow's earliest granted slot.
    fn arm_slot(&mut self, flow: FlowId, io: &mut Io<FastpassTimer>) {
        let slot = self.slot;
        let Some(s) = self.sources.get_mut(flow.idx()) else { return };
        let Some(&(_, mask, base)) = s.grants.front() else { return };
        let at = base + SimTime::from_ps(slot.ps() * mask.trailing_zeros() as u64);
        if s.slot_armed.is_none_or(|t| at < t) {
            s.slot_token = s.slot_token.wrapping_add(1);
            s.slot_armed = Some(at);
            io.set_timer(at, FastpassTimer::Slot(flow, s.slot_token));
        }
    }

    /// Sends the packets of the run of granted slots that starts now.
    fn use_slots(&mut self, flow: FlowId, io: &mut Io<FastpassTimer>) {
        let slots_per_epoch = self.p.epoch_slots as u64;
        let Some(s) = self.sources.get_mut(flow.idx()) else { return };
        s.slot_armed = None;
        let Some(&(e, mut mask, _)) = s.grants.front() else { return };
        let mut i = mask.trailing_zeros();
        let mut sent = 0u64;
        loop {
            mask &= !(1 << i);
            s.granted -= 1;
            let seq = match s.retx.pop_first() {
                Some(q) => q,
                None if s.next_new < s.n => {
                    s.next_new += 1;
                    s.next_new - 1
                }
                None => {
                    self.wasted_slots += 1;
                    break;
                }
            };
            let size = data_packet_wire_size(s.size, seq);
            let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Data, seq, size);
            p.class = DATA_CLASS;
            p.sent_at = io.now;
            p.header = Header::new(FastpassHeader::default());
            io.send(p);
            if self.log_sends {
                self.sends.push(SlotSend { slot: e as u64 * slots_per_epoch + i as u64, src: s.src, dst: s.dst, flow });
            }
            sent += 1;
            // The next slot's packet may wait in the NIC behind this one
            // only if this one fills its slot exactly.
            if size != MTU || i + 1 >= 32 || mask & (1 << (i + 1)) == 0 || sent >= self.max_run {
                break;
            }
            i += 1;
        }
        if mask == 0 {
            s.grants.pop_front();
        } else {
            s.grants.front_mut().unwrap().1 = mask;
        }
        // The recovery timer matters only once no granted slot is left:
        // it starts when the last packet sent here has left the NIC.
        let (granted, backoff) = (s.granted, s.backoff);
        if granted == 0 {
            let at = io.now + SimTime::from_ps(self.slot.ps() * sent) + self.timeout(backoff);
            self.retry_at(flow, at, io);
        }
        self.arm_slot(flow, io);
    }

    fn on_grant(&mut self, flow: FlowId, e: u32, mut mask: u32, io: &mut Io<FastpassTimer>) {
        let Some(s) = self.sources.get(flow.idx()) else {
            // The flow is over (its source is retired): the slots go unused.
            self.wasted_slots += mask.count_ones() as u64;
            return;
        };
        let src = s.src;
        let base = if self.p.start_on_grant {
            // The pHost authors' simulator: the source starts the epoch as
            // the grant arrives (every grant of one epoch at a host shares
            // the start of its first; a host's epochs never overlap).
            let (last_e, last_t) = self.epoch_start[src.idx()];
            if last_e == e {
                last_t
            } else {
                let t = if last_e == u32::MAX { io.now } else { io.now.max(last_t + self.epoch) };
                self.epoch_start[src.idx()] = (e, t);
                t
            }
        } else {
            self.slot_start(src, e, 0, io)
        };
        // Slots that began before the grant arrived are lost.
        let mut missed = 0;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros();
            m &= !(1 << i);
            if base + SimTime::from_ps(self.slot.ps() * i as u64) < io.now {
                mask &= !(1 << i);
                missed += 1;
            }
        }
        self.missed_slots += missed as u64;
        let s = self.sources.get_mut(flow.idx()).expect("not retired");
        s.backoff = 0;
        if mask != 0 {
            let pos = s.grants.iter().position(|g| g.0 > e).unwrap_or(s.grants.len());
            s.grants.insert(pos, (e, mask, base));
            s.granted += mask.count_ones();
        }
        if missed > 0 {
            io.trace(|| TraceKind::Control { flow, what: events::MISSED_SLOT });
            self.send_request(flow, io);
        }
        if self.sources.get(flow.idx()).is_some_and(|s| s.granted == 0) {
            // Every slot of this grant was lost: wait for the next grant.
            let at = io.now + self.grant_wait() + self.timeout(0);
            self.retry_at(flow, at, io);
        }
        self.arm_slot(flow, io);
    }

    /// The arbiter heard a request: the flow needs `need` more slots.
    fn on_request(&mut self, flow: FlowId, src: NodeId, dst: u32, need: u32, io: &mut Io<FastpassTimer>) {
        match self.active.iter_mut().find(|a| a.flow == flow.0) {
            Some(a) => {
                a.src = src.0;
                a.dst = dst;
                a.remaining = need;
            }
            // A flow the arbiter does not hold: new, or dropped once all
            // its packets were allocated (its last epoch is past, so a new
            // entry is the same as the old one).
            None if need > 0 => self.active.push(ArbFlow { flow: flow.0, src: src.0, dst, remaining: need, epoch: u32::MAX, grant: 0 }),
            None => {}
        }
        if need > 0 && !self.epoch_armed {
            let k = io.now.ps().div_ceil(self.epoch.ps()).max(self.next_boundary);
            self.epoch_armed = true;
            io.set_timer(SimTime::from_ps(k * self.epoch.ps()), FastpassTimer::Epoch);
        }
    }

    /// An epoch boundary: allocate the epoch `lead_epochs` ahead.
    fn allocate(&mut self, io: &mut Io<FastpassTimer>) {
        self.epoch_armed = false;
        let k = io.now.ps() / self.epoch.ps();
        self.next_boundary = k + 1;
        let target = (k + self.lead_epochs) as u32;
        // Drop flows without demand (the arbiter forgets them); count the
        // hosts that could be matched.
        self.active.retain(|a| a.remaining > 0);
        self.mark += 1;
        let (mut n_src, mut n_dst) = (0, 0);
        for a in &self.active {
            if self.src_mark[a.src as usize] != self.mark {
                self.src_mark[a.src as usize] = self.mark;
                n_src += 1;
            }
            if self.dst_mark[a.dst as usize] != self.mark {
                self.dst_mark[a.dst as usize] = self.mark;
                n_dst += 1;
            }
        }
        let most = n_src.min(n_dst);
        // (flow, its source, slot mask) per flow granted in this batch.
        let mut grants: Vec<(u32, u32, u32)> = Vec::new();
        // Positions in `active` matched in the current slot.
        let mut matched: Vec<u32> = Vec::new();
        for i in 0..self.p.epoch_slots {
            // SRPT: fewest unallocated packets first, then the earlier flow.
            self.active.sort_by_key(|a| (a.remaining, a.flow));
            self.mark += 1;
            matched.clear();
            if i + self.reserved_slots >= self.p.epoch_slots {
                // The arbiter's host keeps these slots free for its grants.
                self.src_mark[self.arbiter.idx()] = self.mark;
            }
            for (j, a) in self.active.iter().enumerate() {
                if a.remaining == 0 || self.src_mark[a.src as usize] == self.mark || self.dst_mark[a.dst as usize] == self.mark {
                    continue;
                }
                self.src_mark[a.src as usize] = self.mark;
                self.dst_mark[a.dst as usize] = self.mark;
                matched.push(j as u32);
                if matched.len() == most {
                    break;
                }
            }
            if matched.is_empty() {
                break;
            }
            for &j in &matched {
                let a = &mut self.active[j as usize];
                a.remaining -= 1;
                if a.epoch != target {
                    a.epoch = target;
                    a.grant = grants.len() as u32;
                    grants.push((a.flow, a.src, 0));
                }
                grants[a.grant as usize].2 |= 1 << i;
            }
        }
        let packets: Vec<Packet> = grants
            .iter()
            .map(|&(f, src, mask)| {
                let h = FastpassHeader { msg: FastpassMsg::Grant, value: target, slots: mask };
                self.control(FlowId(f), self.arbiter, NodeId(src), target, h)
            })
            .collect();
        // This batch's grants leave the arbiter's host ahead of its data;
        // it gives up as many slots at the end of the next epoch it
        // allocates, so its own data never falls further behind.
        // The guard at the end of each epoch already leaves its NIC idle
        // that long; it always keeps one slot, so it is never starved.
        let guard_bytes = (self.epoch.ps() - self.slot.ps() * self.p.epoch_slots as u64) * MTU as u64 / self.slot.ps();
        let burst = (grants.len() as u64 * HEADER as u64).saturating_sub(guard_bytes);
        self.reserved_slots = (burst.div_ceil(MTU as u64) as u32).min(self.p.epoch_slots - 1);
        let proc = SimTime::from_us_f64(self.p.arbiter_processing_us);
        if proc == SimTime::ZERO {
            Self::send_grants(packets, io);
        } else if !packets.is_empty() {
            self.pending_grants.push_back((io.now + proc, packets));
            io.set_timer(io.now + proc, FastpassTimer::SendGrants);
        }
        if self.active.iter().any(|a| a.remaining > 0) {
            self.epoch_armed = true;
            io.set_timer(SimTime::from_ps((k + 1) * self.epoch.ps()), FastpassTimer::Epoch);
        }
    }

    fn send_grants(packets: Vec<Packet>, io: &mut Io<FastpassTimer>) {
        for p in packets {
            let flow = p.flow;
            io.send(p);
            io.trace(|| TraceKind::Control { flow, what: events::GRANT });
        }
    }

    /// The receiver (on `from`) tells the source (on `to`) that the flow
    /// is complete.
    fn send_ack(&self, flow: FlowId, from: NodeId, to: NodeId, io: &mut Io<FastpassTimer>) {
        let h = FastpassHeader { msg: FastpassMsg::Ack, value: 0, slots: 0 };
        let mut a = self.control(flow, from, to, 0, h);
        a.kind = PacketKind::Ack;
        io.send(a);
        io.trace(|| TraceKind::Control { flow, what: events::ACK });
    }

    fn on_retry(&mut self, flow: FlowId, io: &mut Io<FastpassTimer>) {
        // A retired source (the flow is over) has nothing to recover.
        let Some(s) = self.sources.get_mut(flow.idx()) else { return };
        s.retry_armed = false;
        if io.now < s.retry_deadline {
            s.retry_armed = true;
            io.set_timer(s.retry_deadline, FastpassTimer::Retry(flow));
            return;
        }
        if s.granted > 0 {
            // Slots are coming: the timer starts again after the last one.
            return;
        }
        let all_sent = s.to_send() == 0;
        s.backoff = (s.backoff + 1).min(MAX_BACKOFF);
        let (src, dst, backoff) = (s.src, s.dst, s.backoff);
        io.trace(|| TraceKind::Timeout { flow, probe_mode: false });
        if all_sent {
            // Every packet went out but no ACK came: ask what is missing.
            let h = FastpassHeader { msg: FastpassMsg::Query, value: 0, slots: 0 };
            let p = self.control(flow, src, dst, 0, h);
            io.send(p);
            io.trace(|| TraceKind::Control { flow, what: events::QUERY });
        } else {
            // Waiting for grants: the request (or its grant) may be lost.
            self.send_request(flow, io);
        }
        let wait = if all_sent { SimTime::ZERO } else { self.grant_wait() };
        let at = io.now + wait + self.timeout(backoff);
        self.retry_at(flow, at, io);
    }
}

impl Protocol for Fastpass {
    type Timer = FastpassTimer;

    fn name(&self) -> &'static str {
        "fastpass"
    }

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<FastpassTimer>) {
        let n = packets_for(f.size);
        self.sources.push(
            f.id.idx(),
            Source {
                src: f.src,
                dst: f.dst,
                size: f.size,
                n,
                next_new: 0,
                retx: BTreeSet::new(),
                grants: VecDeque::new(),
                granted: 0,
                slot_token: 0,
                slot_armed: None,
                retry_deadline: SimTime::NEVER,
                retry_armed: false,
                backoff: 0,
            },
        );
        self.send_request(f.id, io);
        let at = io.now + self.grant_wait() + self.timeout(0);
        self.retry_at(f.id, at, io);
    }

    fn prepare_receiver(&mut self, f: &FlowSpec) {
        self.receivers.push(f.id.idx(), Receiver::new(packets_for(f.size)));
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<FastpassTimer>) {
        let h: FastpassHeader = p.header.read();
        let flow = p.flow;
        match h.msg {
            FastpassMsg::Data => {
                // A retired receiver (complete) ignores late data, as a
                // complete one did.
                if self.receivers.get_mut(flow.idx()).is_some_and(|r| r.receive(p.seq)) {
                    // Complete: nothing the receiver holds is needed again
                    // (a late query is answered with the ACK, below).
                    self.receivers.retire(flow.idx());
                    io.flow_done(flow);
                    self.send_ack(flow, p.dst, p.src, io);
                }
            }
            FastpassMsg::Request => self.on_request(flow, p.src, p.seq, h.value, io),
            FastpassMsg::Grant => self.on_grant(flow, h.value, h.slots, io),
            FastpassMsg::Query => match self.receivers.get(flow.idx()).filter(|r| !r.complete()) {
                // Retired (or complete): the receiver had every packet.
                None => self.send_ack(flow, p.dst, p.src, io),
                Some(r) => {
                    // One NACK per run of missing packets: (first, count).
                    let mut runs: Vec<(u32, u32)> = Vec::new();
                    for seq in r.missing() {
                        match runs.last_mut() {
                            Some((first, count)) if *first + *count == seq => *count += 1,
                            _ => runs.push((seq, 1)),
                        }
                    }
                    let last = runs.len().saturating_sub(1);
                    for (j, (seq, count)) in runs.into_iter().enumerate() {
                        let h = FastpassHeader { msg: FastpassMsg::Nack, value: count, slots: (j == last) as u32 };
                        let n = self.control(flow, p.dst, p.src, seq, h);
                        io.send(n);
                        io.trace(|| TraceKind::Control { flow, what: events::NACK });
                    }
                }
            },
            FastpassMsg::Nack => {
                // A retired source (the flow is over) needs nothing resent.
                let Some(s) = self.sources.get_mut(flow.idx()) else { return };
                s.backoff = 0;
                let end = p.seq.saturating_add(h.value).min(s.next_new);
                s.retx.extend(p.seq..end);
                // One request once the receiver's list is in.
                if h.slots == 1 {
                    self.send_request(flow, io);
                    let at = io.now + self.grant_wait() + self.timeout(0);
                    self.retry_at(flow, at, io);
                }
            }
            FastpassMsg::Ack => {
                // The flow is over: its granted slots go unused, and the
                // source is forgotten (a duplicate ACK finds nothing).
                if let Some(s) = self.sources.get(flow.idx()) {
                    self.wasted_slots += s.granted as u64;
                    self.sources.retire(flow.idx());
                }
            }
        }
    }

    fn abort_sender(&mut self, flow: FlowId, io: &mut Io<FastpassTimer>) -> bool {
        let Some(s) = self.sources.get(flow.idx()) else { return false };
        // The arbiter hears that the demand is gone (a request for no
        // packets), so it stops giving the flow slots; slots granted
        // already go unused.
        let h = FastpassHeader { msg: FastpassMsg::Request, value: 0, slots: 0 };
        let p = self.control(flow, s.src, self.arbiter, s.dst.0, h);
        io.send(p);
        self.wasted_slots += s.granted as u64;
        self.sources.retire(flow.idx());
        true
    }

    fn abort_receiver(&mut self, flow: FlowId, _at: NodeId) {
        // Late data are ignored, a query is answered with the ACK, as for
        // a flow that is over.
        self.receivers.retire(flow.idx());
    }

    fn on_timer(&mut self, t: FastpassTimer, io: &mut Io<FastpassTimer>) {
        match t {
            FastpassTimer::Epoch => self.allocate(io),
            FastpassTimer::SendGrants => {
                if let Some((_, packets)) = self.pending_grants.pop_front() {
                    Self::send_grants(packets, io);
                }
            }
            FastpassTimer::Slot(flow, token) => {
                if self.sources.get(flow.idx()).is_some_and(|s| s.slot_token == token) {
                    self.use_slots(flow, io);
                }
            }
            FastpassTimer::Retry(flow) => self.on_retry(flow, io),
        }
    }
}

#[cfg(test)]
mod tests;
