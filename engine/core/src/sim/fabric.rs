//! The fabric: ports, wires and forwarding. A packet leaves its source
//! (`inject`), a switch picks an output port (`forward`, from the route
//! table), the port sends it at once when idle or queues it
//! (`enqueue`, `start_tx`), and it reaches the far node after the link's
//! delay (`arrive`), where a host or switch hands it to the protocol.
//! Drops are counted by the role of the port (`count_drop`).

use super::{tie, Event, Simulation};
use crate::event::EventList;
use crate::ids::{NodeId, PortId};
use crate::net::{LoadBalancing, Network, PortRole};
use crate::packet::{Packet, PacketId};
use crate::protocol::{Io, Protocol};
use crate::queue::{DropReason, EnqueueOutcome, Queue};
use crate::trace::TraceKind;
use crate::units::SimTime;
use std::collections::VecDeque;

/// Packets a port's wire holds in place (a power of two); more spill to
/// the port's overflow deque (see [`Port`]).
pub(super) const WIRE_INLINE: usize = 2;

/// Everything one output port reads or writes per packet, in one cache
/// line: the previous layout kept these fields with the queue in a
/// 168-byte struct and the wire in a separately allocated deque, so a hop
/// waited on the port, then its wire, then the packet, and the ports alone
/// outgrew the L1 cache. Here all ports' lines fit in a few kilobytes of
/// sequential memory; the queues (touched only when packets wait) and the
/// wires' overflow live in separate arrays.
///
/// The wire is a ring of up to [`WIRE_INLINE`] packets, oldest first; a
/// packet put on a full ring goes to the overflow deque, and `spilled`
/// says the deque is not empty (then the ring is full). Popping the ring
/// refills it from the deque, so the ring always holds the oldest packets.
#[derive(Clone)]
#[repr(C, align(64))]
pub(super) struct Port {
    /// The port is sending until this time.
    pub(super) busy_until: SimTime,
    /// Link delay to the far node (propagation plus processing).
    pub(super) delay: SimTime,
    /// Cut-through into a switch: the peer sees a packet this long after
    /// its transmission starts (header serialization plus delay); zero
    /// when the peer sees whole packets.
    pub(super) cut_through_lead: SimTime,
    /// Arrival times at the peer of the packets in the ring.
    pub(super) wire_at: [SimTime; WIRE_INLINE],
    /// The packets in the ring.
    pub(super) wire_id: [PacketId; WIRE_INLINE],
    /// Serialization picoseconds per byte when that is a whole number that
    /// fits (10 Gbps: 800), else 0 and the exact division is used.
    pub(super) ps_per_byte: u32,
    /// The buffer limit in bytes (saturated; compared with packet sizes).
    pub(super) limit: u32,
    /// The far node.
    pub(super) peer: NodeId,
    /// Ring slot of the oldest packet on the wire.
    pub(super) wire_head: u8,
    /// Packets in the ring.
    pub(super) wire_len: u8,
    /// A `TxDone` event is scheduled (only while a packet waits behind the
    /// one being sent, so an idle path costs one event per hop, not two).
    pub(super) tx_pending: bool,
    /// The overflow deque holds packets (the ring is full).
    pub(super) spilled: bool,
}

// One cache line per port (see above).
const _: () = assert!(std::mem::size_of::<Port>() == 64);

impl Port {
    /// Puts a packet arriving at the peer at `at` at the back of the
    /// wire; `overflow` is its deque. (The deque is named by the whole
    /// array and an index so that the common path computes nothing for it.)
    #[inline(always)]
    pub(super) fn wire_push(&mut self, at: SimTime, id: PacketId, overflow: &mut [VecDeque<(SimTime, PacketId)>], port: PortId) {
        // A spilled wire has a full ring: one test covers both.
        debug_assert!(!self.spilled || self.wire_len as usize == WIRE_INLINE);
        if self.wire_len as usize == WIRE_INLINE {
            self.spill(at, id, &mut overflow[port.idx()]);
            return;
        }
        let i = (self.wire_head as usize + self.wire_len as usize) & (WIRE_INLINE - 1);
        self.wire_at[i] = at;
        self.wire_id[i] = id;
        self.wire_len += 1;
    }

    /// Out of line: rare, and it keeps the deque code off the hot path.
    #[inline(never)]
    pub(super) fn spill(&mut self, at: SimTime, id: PacketId, overflow: &mut VecDeque<(SimTime, PacketId)>) {
        overflow.push_back((at, id));
        self.spilled = true;
    }

    /// Takes the packet at the front of the wire (which must not be
    /// empty); `overflow[port]` is its deque, as in `wire_push`.
    #[inline(always)]
    pub(super) fn wire_pop(&mut self, overflow: &mut [VecDeque<(SimTime, PacketId)>], port: PortId) -> PacketId {
        debug_assert!(self.wire_len > 0, "an arrival was scheduled");
        let h = self.wire_head as usize;
        let id = self.wire_id[h];
        self.wire_head = ((h + 1) & (WIRE_INLINE - 1)) as u8;
        self.wire_len -= 1;
        if self.spilled {
            self.unspill(&mut overflow[port.idx()]);
        }
        id
    }

    /// Moves the oldest overflow packet into the ring (which has room).
    #[inline(never)]
    pub(super) fn unspill(&mut self, overflow: &mut VecDeque<(SimTime, PacketId)>) {
        let (at, id) = overflow.pop_front().expect("spilled wire");
        self.spilled = !overflow.is_empty();
        let i = (self.wire_head as usize + self.wire_len as usize) & (WIRE_INLINE - 1);
        self.wire_at[i] = at;
        self.wire_id[i] = id;
        self.wire_len += 1;
    }

    /// Puts packet `p` (number `id`) on the wire of this idle port (number
    /// `port`) at time `now`; returns when its last bit leaves. The caller
    /// has looked up the port and the packet (for speed: each once per
    /// hop; as a method of the simulation, each lookup was repeated).
    /// Always inlined into its two callers.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn transmit<T: Copy>(
        &mut self,
        p: &mut Packet,
        id: PacketId,
        port: PortId,
        now: SimTime,
        events: &mut EventList<Event<T>>,
        overflow: &mut [VecDeque<(SimTime, PacketId)>],
        net: &Network,
        hold: bool,
        arrival_key: u64,
    ) -> SimTime {
        let serialization = match self.ps_per_byte {
            0 => net.ports[port.idx()].rate.serialization(p.size as u64),
            k => SimTime::from_ps(k as u64 * p.size as u64),
        };
        // `hold` (`Switching::waits_for_last_bit`): the port cannot finish
        // before the packet's last bit has arrived (ready_at); without it
        // (`Switching::CutThrough`, the pHost authors' model) it sends the
        // packet at its own rate. The same every packet: predicted.
        let end = if hold { (now + serialization).max(p.ready_at) } else { now + serialization };
        // Cut-through: the peer sees the header after its serialization.
        // A conditional move, not a branch: whether the peer is a switch
        // alternates along a path, and a branch on it was mispredicted.
        let arrive = std::hint::select_unpredictable(self.cut_through_lead != SimTime::ZERO, now + self.cut_through_lead, end + self.delay);
        p.ready_at = end + self.delay;
        p.hops = p.hops.saturating_add(1);
        self.busy_until = end;
        if self.wire_len == 0 {
            events.push(arrive, tie::arrive(arrival_key, arrive, port), Event::Arrive(port));
        }
        self.wire_push(arrive, id, overflow, port);
        end
    }

    /// Arrival time of the packet at the front of the wire, if any.
    #[inline(always)]
    pub(super) fn wire_front(&self) -> Option<SimTime> {
        (self.wire_len != 0).then(|| self.wire_at[self.wire_head as usize])
    }

    /// The packets on the wire, front first.
    pub(super) fn wire_iter<'a>(&'a self, overflow: &'a VecDeque<(SimTime, PacketId)>) -> impl Iterator<Item = PacketId> + 'a {
        let ring = (0..self.wire_len as usize).map(|k| self.wire_id[(self.wire_head as usize + k) & (WIRE_INLINE - 1)]);
        ring.chain(overflow.iter().map(|&(_, id)| id))
    }
}

/// One entry of the simulation's route table, packed in 4 bytes (for
/// speed: the table is read at every switch hop, and at 8 bytes an entry
/// it outgrew the L1 cache): the low 8 bits are the number of next hops
/// `n`, the rest `a`. With `n == 1`, `a` is the output port; otherwise the
/// `n` candidates are `route_ports[a..a + n]`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Route(u32);

impl Route {
    pub(super) fn new(a: u32, n: usize) -> Self {
        assert!(n < 256 && a < 1 << 24, "route table: {n} next hops at {a}");
        Route(a << 8 | n as u32)
    }
    #[inline(always)]
    pub(super) fn a(self) -> u32 {
        self.0 >> 8
    }
    #[inline(always)]
    pub(super) fn n(self) -> u32 {
        self.0 & 0xff
    }
}

/// The simulation's route table (see `Simulation::routes`). Entries with
/// the same candidates share them in `route_ports` (a ToR's uplinks serve
/// every remote destination).
pub(super) fn route_table(net: &Network) -> (Vec<Route>, Vec<PortId>) {
    let (h, n) = (net.n_hosts as usize, net.nodes.len());
    let mut routes = Vec::with_capacity((n - h) * n);
    let mut ports = Vec::new();
    let mut shared: std::collections::HashMap<Vec<PortId>, u32> = std::collections::HashMap::new();
    for node in h..n {
        for dst in 0..n {
            let hops = net.next_hops(NodeId(node as u32), NodeId(dst as u32));
            if hops.len() == 1 {
                routes.push(Route::new(hops[0].0, 1));
            } else {
                let a = *shared.entry(hops.to_vec()).or_insert_with(|| {
                    ports.extend_from_slice(hops);
                    (ports.len() - hops.len()) as u32
                });
                routes.push(Route::new(a, hops.len()));
            }
        }
    }
    (routes, ports)
}

impl<P: Protocol> Simulation<P> {
    /// A packet leaves its source node. Out of line (for speed: inlined
    /// into the action loop, the packet was copied field by field).
    #[inline(never)]
    pub(super) fn inject(&mut self, mut p: Packet) {
        p.ready_at = self.now;
        if p.kind.is_data() {
            self.counters.data_sent += 1;
            self.counters.data_bytes_sent += p.size as u64;
            if p.seq >= self.first_unsent[p.flow.idx()] {
                self.first_sent(p.flow, p.seq);
            }
        } else {
            self.counters.control_sent += 1;
            self.counters.control_bytes_sent += p.size as u64;
        }
        let (src, dst, size) = (p.src, p.dst, p.size as u64);
        let id = self.packets.insert(p);
        if self.net.is_host(src) {
            let nic = self.nics[src.idx()];
            self.nic_bytes[nic.idx()] += size;
            self.enqueue(nic, id);
        } else {
            self.forward(src, id, dst);
        }
    }

    /// A switch picks the output port towards `dst`, packet `id`'s
    /// destination (the caller has read it). Inlined into its two callers
    /// (for speed: it is a few instructions besides the call).
    #[inline(always)]
    pub(super) fn forward(&mut self, node: NodeId, id: PacketId, dst: NodeId) {
        let (h, nodes) = (self.net.n_hosts as usize, self.net.nodes.len());
        let route = self.routes[(node.idx() - h) * nodes + dst.idx()];
        let (a, n) = (route.a(), route.n());
        let port = match n {
            1 => PortId(a),
            // No path left (faults): the packet is dropped here.
            0 => return self.drop_unroutable(node, id),
            n => {
                let k = match self.cfg.load_balancing {
                    LoadBalancing::Spray => {
                        // Round robin per switch (the pHost authors' simulator:
                        // `spray_counter++ % 4`).
                        let k = self.spray_next[node.idx()];
                        self.spray_next[node.idx()] = k.wrapping_add(1);
                        // The same as `k % n`; a mask for the usual power of
                        // two (a division takes tens of cycles).
                        if n.is_power_of_two() {
                            k & (n - 1)
                        } else {
                            k % n
                        }
                    }
                    LoadBalancing::SprayRandom => self.spray.below(n),
                    LoadBalancing::Ecmp => {
                        let flow = self.packets.get(id).flow;
                        (mix(((flow.0 as u64) << 32) | node.0 as u64) % n as u64) as u32
                    }
                };
                self.route_ports[(a + k) as usize]
            }
        };
        self.enqueue(port, id);
    }

    /// A packet reaches output `port`. The idle-port fast path is inlined
    /// into the callers (for speed: most hops take it, and it saves a call
    /// with its register saves); a packet that has to wait goes to
    /// `enqueue_queued`, out of line.
    #[inline(always)]
    pub(super) fn enqueue(&mut self, port: PortId, id: PacketId) {
        if P::HAS_PORT_LOGIC {
            let mut io = io!(self, self.net.ports[port.idx()].node);
            self.proto.on_port_enqueue(port, self.packets.get_mut(id), &mut io);
            self.apply_actions();
        }
        let p = self.packets.get_mut(id);
        let st = &mut self.ports[port.idx()];
        // Fast path: an idle port with an empty buffer sends the arrival at
        // once, which is what every discipline would do (an empty queue
        // marks nothing and every buffer holds at least one MTU). A port
        // with packets waiting always has a `TxDone` pending (whoever
        // leaves a packet in the buffer schedules one), so `tx_pending`
        // alone says whether the buffer may hold packets.
        if !st.tx_pending && st.busy_until <= self.now && p.size as u32 <= st.limit {
            debug_assert_eq!(self.queue_bytes[port.idx()], 0, "packets wait at port {} with no TxDone pending", port.0);
            st.transmit(p, id, port, self.now, &mut self.events, &mut self.wire_overflow, &self.net, self.hold_for_last_bit, self.arrival_key);
            if self.trace.enabled {
                self.trace_pass_through(port, id);
            }
            return;
        }
        self.enqueue_queued(port, id);
    }

    /// Traces a packet that found its port idle (out of line: only with
    /// tracing).
    #[cold]
    #[inline(never)]
    pub(super) fn trace_pass_through(&mut self, port: PortId, id: PacketId) {
        let p = self.packets.get(id);
        self.trace.push(self.now, TraceKind::Enqueue { port, flow: p.flow, seq: p.seq, kind: p.kind, subqueue: p.class, queue_bytes: p.size as u64 });
        self.trace_dequeue(port, id);
    }

    /// A packet reaches a port that is busy or has packets waiting: the
    /// discipline takes it (or drops something).
    #[inline(never)]
    pub(super) fn enqueue_queued(&mut self, port: PortId, id: PacketId) {
        // A down or watched port has limit 0, so the fast path never takes it.
        if self.ports[port.idx()].limit == 0 && self.fault_drops_arrival(port, id) {
            return;
        }
        let q = &mut self.queues[port.idx()];
        let out = q.enqueue(id, &mut self.packets, &mut self.drops);
        let qb = q.bytes();
        self.queue_bytes[port.idx()] = qb;
        if out.marked {
            self.counters.ecn_marks += 1;
        }
        if self.trace.enabled || !self.drops.is_empty() {
            self.enqueue_report(port, id, out);
        }
        let st = &mut self.ports[port.idx()];
        if !st.tx_pending {
            if st.busy_until <= self.now {
                self.start_tx(port);
            } else if qb != 0 {
                st.tx_pending = true;
                let at = st.busy_until;
                self.events.push(at, tie::TX_DONE | port.0 as u64, Event::TxDone(port));
            }
        }
    }

    /// Traces an enqueue and counts and frees the packets it dropped (out
    /// of line: rare without tracing).
    #[cold]
    #[inline(never)]
    pub(super) fn enqueue_report(&mut self, port: PortId, id: PacketId, out: EnqueueOutcome) {
        if self.trace.enabled && out.accepted {
            let p = self.packets.get(id);
            let (flow, seq, kind, class) = (p.flow, p.seq, p.kind, p.class);
            let qb = self.queue_bytes[port.idx()];
            self.trace.push(self.now, TraceKind::Enqueue { port, flow, seq, kind, subqueue: class, queue_bytes: qb });
            if out.marked {
                self.trace.push(self.now, TraceKind::EcnMark { port, flow, seq });
            }
        }
        let mut drops = std::mem::take(&mut self.drops);
        for &(d, why) in &drops {
            let d = self.packets.remove(d);
            self.count_drop(port, &d, why);
        }
        drops.clear();
        self.drops = drops;
    }

    /// Counts a packet dropped at `port` (by the port's role, wasted
    /// upstream bytes, fault drops) and traces it.
    pub(super) fn count_drop(&mut self, port: PortId, p: &Packet, why: DropReason) {
        let role = self.net.ports[port.idx()].role;
        self.counters.count_drop(role, p);
        if p.hops == 0 {
            // Never sent: its NIC did not carry it (a host's packet is
            // dropped at its NIC, or a switch's where it starts).
            if role == PortRole::HostNic {
                self.nic_bytes[port.idx()] -= p.size as u64;
            }
        } else if p.kind.is_data() && self.net.is_host(p.src) {
            // Dropped after its first hop: the capacity it used from its
            // source on was wasted (PASE section 4.2).
            let nic = self.nics[p.src.idx()];
            self.wasted_bytes[nic.idx()] += p.size as u64;
            self.counters.data_bytes_wasted_upstream += p.size as u64;
        }
        if matches!(why, DropReason::LinkDown | DropReason::Injected) {
            self.counters.fault_drops += 1;
        }
        if self.trace.enabled {
            self.trace.push(self.now, TraceKind::Drop { port, flow: p.flow, seq: p.seq, kind: p.kind, reason: why });
        }
    }

    /// Begins sending the next queued packet; the port must be idle (its
    /// `TxDone` is due, or it has none). With more packets waiting,
    /// schedules the `TxDone` that sends the next.
    pub(super) fn start_tx(&mut self, port: PortId) {
        let st = &mut self.ports[port.idx()];
        st.tx_pending = false;
        let q = &mut self.queues[port.idx()];
        let Some(id) = q.dequeue(&self.packets) else { return };
        let qb = q.bytes();
        self.queue_bytes[port.idx()] = qb;
        let end = st.transmit(
            self.packets.get_mut(id),
            id,
            port,
            self.now,
            &mut self.events,
            &mut self.wire_overflow,
            &self.net,
            self.hold_for_last_bit,
            self.arrival_key,
        );
        if qb != 0 {
            st.tx_pending = true;
            self.events.push(end, tie::TX_DONE | port.0 as u64, Event::TxDone(port));
        }
        if self.trace.enabled {
            self.trace_dequeue(port, id);
        }
    }

    /// Traces a packet leaving `port` (out of line: only with tracing).
    #[cold]
    #[inline(never)]
    pub(super) fn trace_dequeue(&mut self, port: PortId, id: PacketId) {
        let p = self.packets.get(id);
        let qb = self.queue_bytes[port.idx()];
        let priority = match self.queues[port.idx()] {
            Queue::PFabric(_) => p.rank,
            _ => p.class as u64,
        };
        // `transmit` has set `ready_at`: when the last bit reaches the peer.
        self.trace.push(self.now, TraceKind::Dequeue { port, flow: p.flow, seq: p.seq, kind: p.kind, queue_bytes: qb, priority, arrive_ps: p.ready_at.ps() });
    }

    /// The packet at the head of `port`'s wire reaches the far node: a
    /// host or the switch it is addressed to hands it to the protocol, any
    /// other switch forwards it.
    pub(super) fn arrive(&mut self, port: PortId) {
        let st = &mut self.ports[port.idx()];
        let id = st.wire_pop(&mut self.wire_overflow, port);
        if let Some(next) = st.wire_front() {
            self.events.push(next, tie::arrive(self.arrival_key, next, port), Event::Arrive(port));
        }
        let node = st.peer;
        let p = self.packets.get(id);
        let dst = p.dst;
        if p.lost {
            return self.drop_lost(port, id);
        }
        if node == dst {
            let p = self.packets.remove(id);
            if self.net.is_host(node) {
                // Counted without branches (data and control packets
                // alternate unpredictably); the rarely wanted extras test
                // a flag that is constant over the run first.
                let data = p.kind.is_data();
                self.counters.data_delivered += data as u64;
                self.counters.data_bytes_delivered += std::hint::select_unpredictable(data, p.size as u64, 0);
                if self.delivery_extras && data {
                    self.delivery_accounting(&p);
                }
                let mut io = io!(self, node);
                self.proto.on_packet(p, &mut io);
            } else {
                let mut io = io!(self, node);
                self.proto.on_switch_packet(node, p, &mut io);
            }
            self.apply_actions();
        } else {
            debug_assert!(!self.net.is_host(node), "host {} got a packet for {}", node.0, dst.0);
            self.forward(node, id, dst);
        }
    }
}

/// A fixed integer mixer (SplitMix64's finalizer) for ECMP hashing, the
/// same on every platform.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
