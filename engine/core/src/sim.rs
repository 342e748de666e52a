//! The simulation: one value that owns the clock, the event list, the
//! ports' queues and wires, the protocol and the metrics.
//!
//! A port is three steps (htsim's queue): a packet arrives and is enqueued
//! or dropped; when the port is idle it begins sending the next packet;
//! when the last bit has left, the port is idle again. A packet on a wire
//! reaches the far node after the link's delay. Each port keeps its wire as
//! a FIFO (arrivals from one port are in time order), so the event list
//! holds at most one arrival event per port.

use crate::event::EventList;
use crate::fault::FaultAction;
use crate::ids::{FlowId, NodeId, PortId};
/// Why a run stopped (defined with the metrics; here too for the callers
/// that read it from the simulation).
pub use crate::metrics::StopReason;
use crate::metrics::{Counters, FlowRecord, Sample};
use crate::net::{LoadBalancing, Network, PortRole, Switching};
use crate::packet::{Packet, PacketId, Packets};
use crate::protocol::{Action, Io, Protocol};
use crate::queue::{DropReason, Dropped, EnqueueOutcome, Queue};
use crate::rng::{SimRng, Stream};
use crate::trace::{Trace, TraceKind};
use crate::units::{SimTime, HEADER, MSS};
use crate::workload::{FlowGenerator, FlowSpec};
use std::collections::VecDeque;

/// Builds an [`Io`] for a hook running at `node` from the simulation's
/// fields, leaving `proto` free.
macro_rules! io {
    ($s:ident, $node:expr) => {
        Io { now: $s.now, node: $node, net: &$s.net, queue_bytes: &$s.queue_bytes, rng: &mut $s.proto_rng, trace: &mut $s.trace, actions: &mut $s.actions }
    };
}

/// Tie-breaks of events at the same picosecond (the event list orders by
/// (time, tie)): a class in the top three bits, then the port, node or
/// flow the event concerns. Never the order events were scheduled in, so
/// that a run split between threads orders them as one thread does
/// (`crate::parallel`). By class: a fault first (a link fails before
/// anything else happens at that instant), then ports finishing a
/// transmission (by port: the next packet is chosen among those already
/// there), then packets arriving at nodes (by the port they come from),
/// protocol timers (by the node that set them, then in the order that
/// node set them: first in, first out), flows given up at their deadline
/// (`workload.abort_at_deadline`: by flow, the sender then the receiver),
/// flow arrivals (by flow id), and the pending-bytes sample last (the
/// state after the instant). Ports
/// before arrivals is also the order insertion order gave most often: a
/// transmission's end is scheduled when it starts, a packet time before,
/// an arrival a link delay before.
pub(crate) mod tie {
    /// A scheduled fault, by its index.
    pub const FAULT: u64 = 0 << 61;
    /// A port's transmission ends.
    pub const TX_DONE: u64 = 1 << 61;
    /// The packet at the head of a port's wire reaches the far node.
    pub const ARRIVE: u64 = 2 << 61;
    /// A protocol timer: `TIMER | node << NODE_SHIFT | sequence`.
    pub const TIMER: u64 = 3 << 61;
    /// A flow is given up at its deadline: `ABORT | flow << 1`, plus 1 at
    /// the receiver.
    pub const ABORT: u64 = 4 << 61;
    /// A flow arrives, by flow id.
    pub const FLOW: u64 = 5 << 61;
    /// A pending-bytes sample.
    pub const SAMPLE: u64 = 6 << 61;
    /// Where a timer's node starts in its tie (below: the node's count of
    /// timers set, 2^40 of them at most).
    pub const NODE_SHIFT: u32 = 40;
    /// Most nodes a timer's tie can name (21 bits).
    pub const MAX_NODES: usize = 1 << 21;
    /// The node that set a timer, from its tie.
    #[inline(always)]
    pub fn timer_node(tie: u64) -> u32 {
        ((tie >> NODE_SHIFT) as u32) & (MAX_NODES as u32 - 1)
    }
}

/// An event the simulation schedules for itself.
#[derive(Clone, Copy, Debug)]
enum Event<T> {
    /// A port finished sending its current packet.
    TxDone(PortId),
    /// The packet at the head of a port's wire reaches the far node.
    Arrive(PortId),
    /// The next flow arrives.
    FlowArrival,
    /// A protocol timer.
    Timer(T),
    /// Record a sample of pending bytes (stability check, charts).
    Sample,
    /// A scheduled fault (index into `Simulation::faults`).
    Fault(u32),
    /// `workload.abort_at_deadline`: the flow's deadline at its sender.
    AbortSender(FlowId),
    /// The same at its receiver.
    AbortReceiver(FlowId),
}

/// Packets a port's wire holds in place (a power of two); more spill to
/// the port's overflow deque (see [`Port`]).
const WIRE_INLINE: usize = 2;

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
struct Port {
    /// The port is sending until this time.
    busy_until: SimTime,
    /// Link delay to the far node (propagation plus processing).
    delay: SimTime,
    /// Cut-through into a switch: the peer sees a packet this long after
    /// its transmission starts (header serialization plus delay); zero
    /// when the peer sees whole packets.
    cut_through_lead: SimTime,
    /// Arrival times at the peer of the packets in the ring.
    wire_at: [SimTime; WIRE_INLINE],
    /// The packets in the ring.
    wire_id: [PacketId; WIRE_INLINE],
    /// Serialization picoseconds per byte when that is a whole number that
    /// fits (10 Gbps: 800), else 0 and the exact division is used.
    ps_per_byte: u32,
    /// The buffer limit in bytes (saturated; compared with packet sizes).
    limit: u32,
    /// The far node.
    peer: NodeId,
    /// Ring slot of the oldest packet on the wire.
    wire_head: u8,
    /// Packets in the ring.
    wire_len: u8,
    /// A `TxDone` event is scheduled (only while a packet waits behind the
    /// one being sent, so an idle path costs one event per hop, not two).
    tx_pending: bool,
    /// The overflow deque holds packets (the ring is full).
    spilled: bool,
}

// One cache line per port (see above).
const _: () = assert!(std::mem::size_of::<Port>() == 64);

impl Port {
    /// Puts a packet arriving at the peer at `at` at the back of the
    /// wire; `overflow` is its deque. (The deque is named by the whole
    /// array and an index so that the common path computes nothing for it.)
    #[inline(always)]
    fn wire_push(&mut self, at: SimTime, id: PacketId, overflow: &mut [VecDeque<(SimTime, PacketId)>], port: PortId) {
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
    fn spill(&mut self, at: SimTime, id: PacketId, overflow: &mut VecDeque<(SimTime, PacketId)>) {
        overflow.push_back((at, id));
        self.spilled = true;
    }

    /// Takes the packet at the front of the wire (which must not be
    /// empty); `overflow[port]` is its deque, as in `wire_push`.
    #[inline(always)]
    fn wire_pop(&mut self, overflow: &mut [VecDeque<(SimTime, PacketId)>], port: PortId) -> PacketId {
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
    fn unspill(&mut self, overflow: &mut VecDeque<(SimTime, PacketId)>) {
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
    fn transmit<T: Copy>(
        &mut self,
        p: &mut Packet,
        id: PacketId,
        port: PortId,
        now: SimTime,
        events: &mut EventList<Event<T>>,
        overflow: &mut [VecDeque<(SimTime, PacketId)>],
        net: &Network,
        hold: bool,
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
            events.push(arrive, tie::ARRIVE | port.0 as u64, Event::Arrive(port));
        }
        self.wire_push(arrive, id, overflow, port);
        end
    }

    /// Arrival time of the packet at the front of the wire, if any.
    #[inline(always)]
    fn wire_front(&self) -> Option<SimTime> {
        (self.wire_len != 0).then(|| self.wire_at[self.wire_head as usize])
    }

    /// The packets on the wire, front first.
    fn wire_iter<'a>(&'a self, overflow: &'a VecDeque<(SimTime, PacketId)>) -> impl Iterator<Item = PacketId> + 'a {
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
struct Route(u32);

impl Route {
    fn new(a: u32, n: usize) -> Self {
        assert!(n < 256 && a < 1 << 24, "route table: {n} next hops at {a}");
        Route(a << 8 | n as u32)
    }
    #[inline(always)]
    fn a(self) -> u32 {
        self.0 >> 8
    }
    #[inline(always)]
    fn n(self) -> u32 {
        self.0 & 0xff
    }
}

/// The simulation's route table (see `Simulation::routes`). Entries with
/// the same candidates share them in `route_ports` (a ToR's uplinks serve
/// every remote destination).
fn route_table(net: &Network) -> (Vec<Route>, Vec<PortId>) {
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

/// A flow settling (completing at its receiver, or given up at its
/// sender) in one part of a split run (`crate::parallel`), with the key of
/// the event it happened in, so that the parts' settlements can be put in
/// the order one thread has them.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) struct Settlement {
    /// When.
    pub t: SimTime,
    /// The tie-break of the event it happened in (see `tie`).
    pub tie: u64,
    /// Its place among the part's settlements (orders those of one event).
    pub seq: u32,
    /// The flow.
    pub flow: FlowId,
    /// Completed (true) or terminated.
    pub done: bool,
}

/// One part's pending-bytes sample in a split run: its share of the
/// pending bytes (wrapping: a part takes off flows another part added),
/// the foreground flows it settled, and the foreground flows arrived.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) struct PartSample {
    pub t: SimTime,
    pub pending: u64,
    /// Its share of the bytes not yet sent once (wrapping, as `pending`).
    pub unsent: u64,
    pub settled: u64,
    pub arrived: u64,
}

/// What one part of a split run hands back at the end.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) struct PartOutput {
    /// Every flow's record (settled only where this part settled it).
    pub records: Vec<FlowRecord>,
    /// This part's settlements, in its order.
    pub settlements: Vec<Settlement>,
    /// This part's counters.
    pub counters: Counters,
    /// This part's samples.
    pub samples: Vec<PartSample>,
    /// Why the run stopped (the same in every part).
    pub stop: StopReason,
    /// Time of this part's last event (the time limit for a run stopped by it).
    pub now: SimTime,
    /// Events this part counted.
    pub events: u64,
    /// The protocol's name.
    pub name: &'static str,
}

/// The part of a split run a simulation is (`crate::parallel`).
#[derive(Clone)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
struct Part {
    /// Its number.
    index: usize,
    /// The part simulating each node.
    owner: Vec<u8>,
    /// Ports of this part's nodes whose far node another part simulates.
    /// Their wires' rings are kept full (`wire_len` at its maximum, so no
    /// arrival event is scheduled here), so every packet sent on them goes
    /// to the overflow deque, from which `take_outgoing` hands it over.
    remote_ports: Vec<PortId>,
    /// Settlements in this part so far.
    settlements: Vec<Settlement>,
    /// Settlements already published to the other parts.
    published: usize,
    /// Foreground flows settled here.
    settled: u64,
    /// Samples.
    samples: Vec<PartSample>,
}

impl Part {
    #[inline]
    fn owns(&self, node: NodeId) -> bool {
        self.owner[node.idx()] as usize == self.index
    }
}

/// Settings the simulation needs besides the protocol.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Store-and-forward or cut-through.
    pub switching: Switching,
    /// Spraying or ECMP.
    pub load_balancing: LoadBalancing,
    /// Run seed (spraying stream; the generator and protocol get their own).
    pub seed: u64,
    /// Stop at this time.
    pub max_time: SimTime,
    /// Stop after this many events.
    pub max_events: u64,
    /// Interval between pending-bytes samples.
    pub sample_interval: SimTime,
    /// Keep an independent per-flow record of delivered sequence numbers
    /// and check every completed flow received exactly its size (tests).
    pub audit: bool,
}

/// A packet-level simulation running protocol `P`. Cloning it is a
/// snapshot: the clone continues exactly as the original would.
#[derive(Clone)]
pub struct Simulation<P: Protocol> {
    now: SimTime,
    events: EventList<Event<P::Timer>>,
    net: Network,
    /// Per-packet port state, one cache line per port.
    ports: Vec<Port>,
    /// Each port's buffer.
    queues: Vec<Queue>,
    /// Each port's wire beyond its ring (see [`Port`]; almost always empty).
    wire_overflow: Vec<VecDeque<(SimTime, PacketId)>>,
    /// Every packet on a wire or in a buffer.
    packets: Packets,
    /// Packets the last `enqueue` dropped (empty between calls).
    drops: Dropped,
    queue_bytes: Vec<u64>,
    /// The protocol (public so tests can inspect its state).
    pub proto: P,
    generator: FlowGenerator,
    pending_arrival: Option<FlowSpec>,
    arrival_scheduled: bool,
    /// Flow records, indexed by flow id.
    pub records: Vec<FlowRecord>,
    /// Completed flows in the order they completed (the browser streams
    /// completions from here).
    pub completion_order: Vec<FlowId>,
    total_flows: u64,
    completed: u64,
    /// Background flows arrived so far (never counted as completed).
    background_flows: u64,
    pending_bytes: u64,
    /// Bytes of arrived foreground flows not yet sent once (see
    /// [`Sample::unsent_bytes`]).
    unsent_bytes: u64,
    /// Per flow, the first packet not yet sent: every packet below it has
    /// been sent once (`u32::MAX` once a flow given up has taken its
    /// unsent bytes away).
    first_unsent: Vec<u32>,
    /// Packet and byte counters.
    pub counters: Counters,
    /// Per port (a host's NIC; 0 elsewhere), wire bytes of the data
    /// packets its host sent that were dropped further on, at a later hop
    /// (`Counters::data_bytes_wasted_upstream` per source link).
    wasted_bytes: Vec<u64>,
    /// Per port (a host's NIC; 0 elsewhere), wire bytes its host has put
    /// on it, less those dropped there before being sent: with the bytes
    /// still queued there, what the link has sent.
    nic_bytes: Vec<u64>,
    /// Pending-bytes samples over time.
    pub samples: Vec<Sample>,
    /// Data bytes (on the wire) delivered per tenant, when there are two or
    /// more tenants (empty otherwise): pHost's tenant-fairness experiment.
    pub tenant_bytes_delivered: Vec<u64>,
    /// Deliveries need `delivery_accounting` (an audit, or two tenants).
    delivery_extras: bool,
    spray: SimRng,
    /// `cfg.switching.waits_for_last_bit()`, read on every transmission.
    hold_for_last_bit: bool,
    /// Round-robin spraying pointer per node.
    spray_next: Vec<u32>,
    /// The next hop per (switch, destination node), indexed like the
    /// network's route table: the network's table again, with the port
    /// itself where there is one choice (one load per hop instead of two,
    /// for speed; the choice is the same).
    routes: Vec<Route>,
    /// Candidate ports of the entries of `routes` with several.
    route_ports: Vec<PortId>,
    /// Each host's NIC port: the network's answer, in one small array (for
    /// speed: the network's own is a vector per node, two dependent loads).
    nics: Vec<PortId>,
    proto_rng: SimRng,
    actions: Vec<Action<P::Timer>>,
    /// Timers set so far by each node (the last part of a timer's tie).
    timers_set: Vec<u64>,
    /// `workload.abort_at_deadline`.
    abort_at_deadline: bool,
    /// The stop conditions are looked at once an event's time reaches
    /// this: the end of the current lookahead cell, or just past
    /// `max_time` if that comes first (see `boundary`).
    next_boundary: u64,
    /// The tie-break of the event being processed (see `tie`).
    cur_tie: u64,
    /// This simulation's part of a split run (`crate::parallel`); `None`
    /// for a whole run.
    part: Option<Box<Part>>,
    /// Width of a lookahead cell, ps: the least time from a port starting
    /// a transmission to the far node seeing the packet (header
    /// serialization plus link delay, over every port). A run stops only
    /// at the end of a cell, so that a run split between threads, which
    /// exchange packets once per cell, stops where one thread does.
    cell_ps: u64,
    /// The trace stream.
    pub trace: Trace,
    cfg: SimConfig,
    events_processed: u64,
    /// `step` stops the run at once when `events_processed` reaches this:
    /// well past the event limit, a run stuck at one instant (a protocol
    /// setting timers at `now` forever) that never reaches the end of its
    /// cell; 0 once the run has stopped.
    check_stop_at: u64,
    stopped: Option<StopReason>,
    audit: Vec<Vec<u64>>,
    audit_bytes: Vec<u64>,
    /// Scheduled faults, resolved to ports.
    faults: Vec<FaultAction>,
    /// Ports whose link is down now (`crate::fault`).
    down: Vec<bool>,
    /// Armed `drop_next` faults: the next data packet of the flow at the
    /// output port is dropped.
    drop_next: Vec<(PortId, FlowId)>,
    /// Buffer limits of ports while their link is down or a `drop_next`
    /// watches them: their `limit` is then 0, so that every arrival takes
    /// the slow path of `enqueue`, which looks at faults (for speed: the
    /// fast path pays nothing for faults).
    saved_limit: Vec<u32>,
}

impl<P: Protocol> Simulation<P> {
    /// A simulation of `net` with `queue_for(port)` as each port's queue,
    /// flows from `generator`, run by `proto`.
    pub fn new(net: Network, mut queue_for: impl FnMut(&Network, PortId) -> Queue, proto: P, generator: FlowGenerator, cfg: SimConfig) -> Self {
        let queues: Vec<Queue> = (0..net.ports.len()).map(|i| queue_for(&net, PortId(i as u32))).collect();
        let ports = (0..net.ports.len())
            .map(|i| {
                let bps = net.ports[i].rate.bps();
                let ps_per_byte = if 8_000_000_000_000 % bps == 0 { 8_000_000_000_000 / bps } else { 0 };
                let spec = &net.ports[i];
                Port {
                    busy_until: SimTime::ZERO,
                    delay: spec.delay,
                    cut_through_lead: if cfg.switching.is_cut_through() && !net.is_host(spec.peer) {
                        spec.rate.serialization(HEADER as u64) + spec.delay
                    } else {
                        SimTime::ZERO
                    },
                    wire_at: [SimTime::ZERO; WIRE_INLINE],
                    wire_id: [0; WIRE_INLINE],
                    ps_per_byte: u32::try_from(ps_per_byte).unwrap_or(0),
                    limit: u32::try_from(queues[i].limit()).unwrap_or(u32::MAX),
                    peer: spec.peer,
                    wire_head: 0,
                    wire_len: 0,
                    tx_pending: false,
                    spilled: false,
                }
            })
            .collect();
        let wire_overflow = (0..net.ports.len()).map(|_| VecDeque::new()).collect();
        let total_flows = generator.total_flows();
        let tenants = generator.tenants();
        let abort_at_deadline = generator.abort_at_deadline();
        let n_nodes = net.nodes.len();
        assert!(n_nodes <= tie::MAX_NODES, "{n_nodes} nodes: timers' ties name at most {} (the topology's validation bounds it)", tie::MAX_NODES);
        let cell_ps = lookahead(&net).ps().max(1);
        let (routes, route_ports) = route_table(&net);
        let nics = (0..net.n_hosts).map(|h| net.nic(NodeId(h))).collect();
        let mut sim = Simulation {
            now: SimTime::ZERO,
            events: EventList::default(),
            queue_bytes: vec![0; net.ports.len()],
            counters: Counters::new(),
            wasted_bytes: vec![0; net.ports.len()],
            nic_bytes: vec![0; net.ports.len()],
            net,
            ports,
            queues,
            wire_overflow,
            packets: Packets::default(),
            drops: Vec::new(),
            proto,
            generator,
            pending_arrival: None,
            arrival_scheduled: false,
            records: Vec::new(),
            completion_order: Vec::new(),
            total_flows,
            completed: 0,
            background_flows: 0,
            pending_bytes: 0,
            unsent_bytes: 0,
            first_unsent: Vec::new(),
            samples: Vec::new(),
            tenant_bytes_delivered: if tenants > 1 { vec![0; tenants as usize] } else { Vec::new() },
            delivery_extras: cfg.audit || tenants > 1,
            spray: SimRng::new(cfg.seed, Stream::Spraying),
            hold_for_last_bit: cfg.switching.waits_for_last_bit(),
            spray_next: vec![0; n_nodes],
            routes,
            route_ports,
            nics,
            proto_rng: SimRng::new(cfg.seed, Stream::Protocol),
            actions: Vec::new(),
            timers_set: vec![0; n_nodes],
            abort_at_deadline,
            cur_tie: 0,
            part: None,
            next_boundary: cell_ps.min(cfg.max_time.ps().saturating_add(1)),
            cell_ps,
            trace: Trace::default(),
            events_processed: 0,
            check_stop_at: runaway_events(cfg.max_events),
            stopped: None,
            audit: Vec::new(),
            audit_bytes: Vec::new(),
            faults: Vec::new(),
            drop_next: Vec::new(),
            down: Vec::new(),
            saved_limit: Vec::new(),
            cfg,
        };
        sim.schedule_next_arrival();
        sim.events.push(SimTime::ZERO, tie::SAMPLE, Event::Sample);
        sim
    }

    /// Width of a lookahead cell (see `cell_ps`).
    pub fn cell(&self) -> SimTime {
        SimTime::from_ps(self.cell_ps)
    }

    /// The current simulated time.
    pub fn now(&self) -> SimTime {
        self.now
    }
    /// The network.
    pub fn network(&self) -> &Network {
        &self.net
    }
    /// Events processed so far.
    pub fn events_processed(&self) -> u64 {
        self.events_processed
    }
    /// Flows completed so far, and the total the workload will produce.
    pub fn progress(&self) -> (u64, u64) {
        (self.completed, self.total_flows)
    }
    /// Why the run stopped, once it has.
    pub fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }
    /// The backlog now (this part's share in a split run): payload bytes
    /// of arrived, unsettled flows, and of those not yet sent once
    /// ([`Sample`]'s two series).
    pub fn backlog(&self) -> (u64, u64) {
        (self.pending_bytes, self.unsent_bytes)
    }
    /// What a port's link carried for nothing (see
    /// `Counters::data_bytes_wasted_upstream`): wire bytes of data packets
    /// its host sent there that were dropped at a later hop, and wire bytes
    /// the link has sent (a host's NIC; (0, 0) for other ports). In a split
    /// run, each part sees the drops at its own nodes.
    pub fn port_waste(&self, port: PortId) -> (u64, u64) {
        let i = port.idx();
        (self.wasted_bytes[i], self.nic_bytes[i] - self.queue_bytes[i])
    }
    /// Bytes buffered at each port now.
    pub fn queue_bytes(&self) -> &[u64] {
        &self.queue_bytes
    }
    /// Bytes buffered per sub-queue of one port.
    pub fn subqueue_bytes(&self, port: PortId) -> Vec<u64> {
        self.queues[port.idx()].subqueue_bytes()
    }

    /// The packets buffered at one port, in the discipline's storage order
    /// (the port inspector sorts them as the discipline sees them).
    pub fn port_packets(&self, port: PortId) -> Vec<Packet> {
        let mut v = Vec::new();
        self.queues[port.idx()].for_each(|id| v.push(*self.packets.get(id)));
        v
    }
    /// Time of the next pending event, if any.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.events.peek_time()
    }

    /// Runs at most `max` events; returns true while the run goes on.
    pub fn run_events(&mut self, max: u64) -> bool {
        for _ in 0..max {
            if !self.step() {
                return false;
            }
        }
        self.stopped.is_none()
    }

    /// Runs until simulated time `t` (events at `t` included) or the end.
    pub fn run_until(&mut self, t: SimTime) -> bool {
        let end = t.ps().saturating_add(1);
        while self.step_before(end, false) {}
        self.stopped.is_none()
    }

    /// Sets every port's buffer limit to `bytes` from now on (a what-if
    /// branch): packets already buffered stay, arrivals are dropped until
    /// there is room.
    pub fn set_buffer_limit(&mut self, bytes: u64) {
        let limit = u32::try_from(bytes).unwrap_or(u32::MAX);
        for (q, p) in self.queues.iter_mut().zip(self.ports.iter_mut()) {
            match q {
                Queue::Fifo(f) => f.limit = bytes,
                Queue::StrictPriority(f) => f.limit = bytes,
                Queue::PFabric(f) => f.limit = bytes,
            }
            p.limit = limit;
        }
        // A down or watched port keeps its fast-path limit of 0; it gets the
        // new limit when it comes back.
        if !self.saved_limit.is_empty() {
            self.saved_limit.fill(limit);
            for i in 0..self.ports.len() {
                self.ports[i].limit = self.fast_path_limit(i);
            }
        }
    }

    /// Runs until simulated time `t` (events at `t` included), the end, or
    /// `max` events, whichever comes first; true while the run goes on.
    pub fn run_until_max(&mut self, t: SimTime, max: u64) -> bool {
        let end = t.ps().saturating_add(1);
        let mut left = max;
        while left > 0 && self.step_before(end, false) {
            left -= 1;
        }
        self.stopped.is_none()
    }

    /// Runs to the end.
    pub fn run(&mut self) -> StopReason {
        while self.step() {}
        self.stopped.unwrap()
    }

    /// Processes one event; returns false once the run has stopped.
    /// Inlined into the run loops (for speed: one call per event saved).
    #[inline(always)]
    pub fn step(&mut self) -> bool {
        self.step_before(u64::MAX, true)
    }

    /// Processes the next event if it comes before `end` (picoseconds);
    /// false when it does not (nothing changes then, unless the list is
    /// empty and `idle_stops`: the run stops as `Idle`, as [`Self::step`]
    /// does) or the run has stopped. Inlined into the run loops.
    #[inline(always)]
    fn step_before(&mut self, end: u64, idle_stops: bool) -> bool {
        if self.events_processed >= self.check_stop_at && self.runaway() {
            return false;
        }
        let Some((t, tie, ev)) = self.events.pop_before(end) else {
            if idle_stops && self.events.is_empty() {
                self.stop(StopReason::Idle);
            }
            return false;
        };
        if t.ps() >= self.next_boundary && self.boundary(t) {
            return false;
        }
        self.now = t;
        self.cur_tie = tie;
        self.events_processed += 1;
        match ev {
            Event::TxDone(port) => self.start_tx(port),
            Event::Arrive(port) => self.arrive(port),
            Event::FlowArrival => self.flow_arrival(),
            Event::Timer(t) => {
                let mut io = io!(self, NodeId(tie::timer_node(tie)));
                self.proto.on_timer(t, &mut io);
                self.apply_actions();
            }
            Event::Fault(i) => {
                let action = self.faults[i as usize].clone();
                self.apply_fault(&action);
            }
            Event::AbortSender(flow) => self.abort_sender(flow),
            Event::AbortReceiver(flow) => self.proto.abort_receiver(flow, NodeId(self.records[flow.idx()].dst)),
            Event::Sample => {
                if let Some(part) = &mut self.part {
                    let arrived = self.records.len() as u64 - self.background_flows;
                    part.samples.push(PartSample { t: self.now, pending: self.pending_bytes, unsent: self.unsent_bytes, settled: part.settled, arrived });
                    // Every part samples; the event counts once.
                    self.events_processed -= (part.index != 0) as u64;
                } else {
                    self.samples.push(Sample {
                        t: self.now,
                        pending_bytes: self.pending_bytes,
                        active_flows: self.records.len() as u64 - self.completed - self.background_flows,
                        unsent_bytes: self.unsent_bytes,
                    });
                }
                self.events.push(self.now + self.cfg.sample_interval, tie::SAMPLE, Event::Sample);
            }
        }
        true
    }

    /// The next event, at `t`, is past the current lookahead cell or past
    /// `max_time`: the run stops if a reason to stop arose in the cell just
    /// ended (every flow done, then the event limit), else if `t` is past
    /// `max_time`; otherwise `t`'s cell begins. True when the run stopped
    /// (the event at `t` is then not processed). Stopping only between
    /// cells is what makes a run split between threads stop at the same
    /// event as one thread (`crate::parallel`).
    #[cold]
    #[inline(never)]
    fn boundary(&mut self, t: SimTime) -> bool {
        // A part of a split run leaves stopping to the parts together
        // (`crate::parallel`), which never let it past `max_time`.
        if self.part.is_none() {
            if let Some(why) = self.stop_reason() {
                self.stop(why);
                return true;
            }
        }
        if t > self.cfg.max_time {
            self.now = self.cfg.max_time;
            self.stop(StopReason::TimeLimit);
            return true;
        }
        let cell_end = (t.ps() / self.cell_ps + 1).saturating_mul(self.cell_ps);
        self.next_boundary = cell_end.min(self.cfg.max_time.ps().saturating_add(1));
        false
    }

    /// Why the run stops at the end of the current cell, if it does: every
    /// flow has arrived and settled, or the event limit is reached.
    fn stop_reason(&self) -> Option<StopReason> {
        if self.completed == self.total_flows && self.pending_arrival.is_none() {
            Some(StopReason::AllFlowsDone)
        } else if self.events_processed >= self.cfg.max_events {
            Some(StopReason::EventLimit)
        } else {
            None
        }
    }

    /// `events_processed` reached `check_stop_at`: the run has stopped, or
    /// it ran far past the event limit without leaving its cell (stopped
    /// now, with the event limit as the reason). True when stopped.
    #[cold]
    #[inline(never)]
    fn runaway(&mut self) -> bool {
        if self.stopped.is_none() {
            self.stop(StopReason::EventLimit);
        }
        true
    }

    fn stop(&mut self, why: StopReason) {
        self.stopped = Some(why);
        self.check_stop_at = 0;
        // Whatever is still queued or on a wire is in flight at the end
        // (a part of a split run counts the wires its nodes receive from).
        let remote = self.part.as_ref().map(|p| p.remote_ports.clone()).unwrap_or_default();
        for (i, p) in self.ports.iter().enumerate() {
            self.queues[i].for_each(|id| self.counters.count_in_flight(self.packets.get(id)));
            if remote.contains(&PortId(i as u32)) {
                continue;
            }
            for id in p.wire_iter(&self.wire_overflow[i]) {
                self.counters.count_in_flight(self.packets.get(id));
            }
        }
    }

    fn schedule_next_arrival(&mut self) {
        if self.pending_arrival.is_none() {
            self.pending_arrival = self.generator.next_flow(&self.net);
        }
        if let (Some(f), false) = (&self.pending_arrival, self.arrival_scheduled) {
            self.events.push(f.arrival.max(self.now), tie::FLOW | f.id.0 as u64, Event::FlowArrival);
            self.arrival_scheduled = true;
        }
    }

    fn flow_arrival(&mut self) {
        self.arrival_scheduled = false;
        let f = self.pending_arrival.take().expect("an arrival was scheduled");
        debug_assert_eq!(f.id.idx(), self.records.len());
        // Every part of a split run knows every flow; the sender runs where
        // the source is, the receiver where the destination is.
        let (at_src, at_dst) = match &self.part {
            None => (true, true),
            Some(part) => (part.owns(f.src), part.owns(f.dst)),
        };
        if f.background {
            self.background_flows += 1;
        } else if at_src {
            self.pending_bytes = self.pending_bytes.wrapping_add(f.size);
            self.unsent_bytes = self.unsent_bytes.wrapping_add(f.size);
        }
        self.records.push(FlowRecord::new(&f));
        self.first_unsent.push(0);
        if self.cfg.audit {
            self.audit.push(vec![0; (crate::units::packets_for(f.size) as usize).div_ceil(64)]);
            self.audit_bytes.push(0);
        }
        if self.trace.enabled {
            self.trace.push(self.now, TraceKind::FlowStart { flow: f.id });
        }
        if at_dst {
            self.proto.prepare_receiver(&f);
        }
        if let (true, Some(d), false) = (self.abort_at_deadline, f.deadline, f.background) {
            // Each end gives the flow up at its deadline, where it runs.
            let at = f.arrival + d;
            if at_src {
                self.events.push(at, tie::ABORT | (f.id.0 as u64) << 1, Event::AbortSender(f.id));
            }
            if at_dst {
                self.events.push(at, tie::ABORT | (f.id.0 as u64) << 1 | 1, Event::AbortReceiver(f.id));
            }
        }
        if at_src {
            let mut io = io!(self, f.src);
            self.proto.on_flow_arrival(&f, &mut io);
            self.apply_actions();
        } else {
            // Counted once, where the source is.
            self.events_processed -= 1;
        }
        self.schedule_next_arrival();
    }

    /// Carries out the actions the protocol asked for, in order. The check
    /// for none is inlined into the callers (for speed: about a third of
    /// the protocol's calls ask for nothing).
    #[inline(always)]
    fn apply_actions(&mut self) {
        if !self.actions.is_empty() {
            self.apply_pending_actions();
        }
    }

    #[inline(never)]
    fn apply_pending_actions(&mut self) {
        // The common case, one packet out (an ACK, a new data packet).
        if let [Action::Send(p)] = self.actions[..] {
            self.actions.clear();
            self.inject(p);
            return;
        }
        if P::HAS_PORT_LOGIC {
            // Switch logic at the port a packet enters may ask for more
            // actions, which `enqueue` carries out at once (a nested call):
            // take this batch out of the way first.
            while !self.actions.is_empty() {
                let mut batch = std::mem::take(&mut self.actions);
                for a in batch.drain(..) {
                    self.apply(a);
                }
                if self.actions.is_empty() {
                    self.actions = batch;
                }
            }
        } else {
            // No action adds actions: walk the list in place.
            let mut i = 0;
            while let Some(&a) = self.actions.get(i) {
                i += 1;
                self.apply(a);
            }
            self.actions.clear();
        }
    }

    #[inline(always)]
    fn apply(&mut self, a: Action<P::Timer>) {
        match a {
            Action::Send(p) => self.inject(p),
            Action::Timer(at, node, t) => {
                let n = &mut self.timers_set[node.idx()];
                let tie = tie::TIMER | (node.0 as u64) << tie::NODE_SHIFT | *n;
                *n += 1;
                self.events.push(at, tie, Event::Timer(t));
            }
            Action::FlowDone(flow) => self.flow_done(flow),
            Action::FlowTerminated(flow) => self.flow_terminated(flow),
        }
    }

    fn flow_done(&mut self, flow: FlowId) {
        let r = &mut self.records[flow.idx()];
        if r.end.is_some() || r.terminated {
            return;
        }
        r.end = Some(self.now);
        if self.cfg.audit {
            assert_eq!(
                self.audit_bytes[flow.idx()],
                r.size,
                "audit: flow {} completed with {} distinct payload bytes of {}",
                flow.0,
                self.audit_bytes[flow.idx()],
                r.size
            );
        }
        if self.trace.enabled {
            self.trace.push(self.now, TraceKind::FlowFinish { flow });
        }
        self.settle(flow, true);
    }

    /// The protocol gave `flow` up: it settles without an end time.
    fn flow_terminated(&mut self, flow: FlowId) {
        let r = &mut self.records[flow.idx()];
        if r.end.is_some() || r.terminated {
            return;
        }
        r.terminated = true;
        // What its source never sent will not be sent: no longer unsent.
        // (Flows are given up at their sources, where the count is kept.)
        let (src, size, background) = (NodeId(r.src), r.size, r.background);
        if !background && self.part.as_ref().is_none_or(|p| p.owns(src)) {
            let first = std::mem::replace(&mut self.first_unsent[flow.idx()], u32::MAX);
            if first != u32::MAX {
                self.unsent_bytes = self.unsent_bytes.wrapping_sub(size - size.min(first as u64 * MSS as u64));
            }
        }
        self.settle(flow, false);
    }

    /// What settling a flow (`done`: completed, else given up) does to the
    /// run: logged for a split run; a foreground flow is counted, its bytes
    /// are no longer pending, and a closed-loop generator may start the
    /// next request. Background flows are not measured and belong to no
    /// request.
    fn settle(&mut self, flow: FlowId, done: bool) {
        let (background, size) = (self.records[flow.idx()].background, self.records[flow.idx()].size);
        self.note_settled(flow, done, background);
        if background {
            return;
        }
        if done {
            self.completion_order.push(flow);
        }
        self.completed += 1;
        self.pending_bytes = self.pending_bytes.wrapping_sub(size);
        self.generator.on_flow_complete(self.now, &self.net);
        self.schedule_next_arrival();
    }

    /// A flow's deadline passed at its sender (`workload.abort_at_deadline`):
    /// the protocol stops sending it and, if it was still at work, the flow
    /// settles as terminated (unless it completed before).
    #[cold]
    #[inline(never)]
    fn abort_sender(&mut self, flow: FlowId) {
        let src = NodeId(self.records[flow.idx()].src);
        let mut io = io!(self, src);
        let running = self.proto.abort_sender(flow, &mut io);
        self.apply_actions();
        if running {
            if self.trace.enabled {
                self.trace.push(self.now, TraceKind::Control { flow, what: crate::trace::ControlEvent::DeadlineAbort });
            }
            self.flow_terminated(flow);
        }
    }

    /// Logs a settlement in a part of a split run (nothing otherwise).
    #[inline]
    fn note_settled(&mut self, flow: FlowId, done: bool, background: bool) {
        if let Some(part) = &mut self.part {
            let seq = part.settlements.len() as u32;
            part.settlements.push(Settlement { t: self.now, tie: self.cur_tie, seq, flow, done });
            part.settled += !background as u64;
        }
    }

    /// A packet leaves its source node. Out of line (for speed: inlined
    /// into the action loop, the packet was copied field by field).
    #[inline(never)]
    fn inject(&mut self, mut p: Packet) {
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

    /// Packet `seq` of `flow`, at or past its first unsent packet, is sent
    /// for the first time: the bytes up to it are no longer unsent.
    fn first_sent(&mut self, flow: FlowId, seq: u32) {
        let (size, background) = (self.records[flow.idx()].size, self.records[flow.idx()].background);
        let first = std::mem::replace(&mut self.first_unsent[flow.idx()], seq + 1);
        if !background {
            let sent = |k: u32| size.min(k as u64 * MSS as u64);
            self.unsent_bytes = self.unsent_bytes.wrapping_sub(sent(seq + 1) - sent(first));
        }
    }

    /// A switch picks the output port towards `dst`, packet `id`'s
    /// destination (the caller has read it). Inlined into its two callers
    /// (for speed: it is a few instructions besides the call).
    #[inline(always)]
    fn forward(&mut self, node: NodeId, id: PacketId, dst: NodeId) {
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
    fn enqueue(&mut self, port: PortId, id: PacketId) {
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
            st.transmit(p, id, port, self.now, &mut self.events, &mut self.wire_overflow, &self.net, self.hold_for_last_bit);
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
    fn trace_pass_through(&mut self, port: PortId, id: PacketId) {
        let p = self.packets.get(id);
        self.trace.push(self.now, TraceKind::Enqueue { port, flow: p.flow, seq: p.seq, kind: p.kind, subqueue: p.class, queue_bytes: p.size as u64 });
        self.trace_dequeue(port, id);
    }

    /// A packet reaches a port that is busy or has packets waiting: the
    /// discipline takes it (or drops something).
    #[inline(never)]
    fn enqueue_queued(&mut self, port: PortId, id: PacketId) {
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
    fn enqueue_report(&mut self, port: PortId, id: PacketId, out: EnqueueOutcome) {
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

    fn count_drop(&mut self, port: PortId, p: &Packet, why: DropReason) {
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
    fn start_tx(&mut self, port: PortId) {
        let st = &mut self.ports[port.idx()];
        st.tx_pending = false;
        let q = &mut self.queues[port.idx()];
        let Some(id) = q.dequeue(&self.packets) else { return };
        let qb = q.bytes();
        self.queue_bytes[port.idx()] = qb;
        let end = st.transmit(self.packets.get_mut(id), id, port, self.now, &mut self.events, &mut self.wire_overflow, &self.net, self.hold_for_last_bit);
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
    fn trace_dequeue(&mut self, port: PortId, id: PacketId) {
        let p = self.packets.get(id);
        let qb = self.queue_bytes[port.idx()];
        let priority = match self.queues[port.idx()] {
            Queue::PFabric(_) => p.rank,
            _ => p.class as u64,
        };
        // `transmit` has set `ready_at`: when the last bit reaches the peer.
        self.trace.push(self.now, TraceKind::Dequeue { port, flow: p.flow, seq: p.seq, kind: p.kind, queue_bytes: qb, priority, arrive_ps: p.ready_at.ps() });
    }

    fn arrive(&mut self, port: PortId) {
        let st = &mut self.ports[port.idx()];
        let id = st.wire_pop(&mut self.wire_overflow, port);
        if let Some(next) = st.wire_front() {
            self.events.push(next, tie::ARRIVE | port.0 as u64, Event::Arrive(port));
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

    /// Schedules faults, each at its time. Called once, before the run
    /// starts.
    pub fn schedule_faults(&mut self, faults: Vec<(SimTime, FaultAction)>) {
        for (at, action) in faults {
            self.events.push(at, tie::FAULT | self.faults.len() as u64, Event::Fault(self.faults.len() as u32));
            self.faults.push(action);
        }
    }

    /// Applies a fault now (a scheduled one, or a branch's change).
    pub fn apply_fault(&mut self, action: &FaultAction) {
        match *action {
            FaultAction::Ports { ref ports, up } => self.set_ports_down(ports, !up),
            FaultAction::DropNext { port, flow } => {
                self.init_fault_state();
                self.drop_next.push((port, flow));
                self.ports[port.idx()].limit = 0;
            }
        }
    }

    fn init_fault_state(&mut self) {
        if self.down.is_empty() {
            self.down = vec![false; self.ports.len()];
            self.saved_limit = self.ports.iter().map(|p| p.limit).collect();
        }
    }

    /// The limit the fast path of `enqueue` sees at port `i`: 0 while the
    /// port is down or watched by a `drop_next`, so that arrivals take the
    /// slow path.
    fn fast_path_limit(&self, i: usize) -> u32 {
        if self.down[i] || self.drop_next.iter().any(|&(p, _)| p.idx() == i) {
            0
        } else {
            self.saved_limit[i]
        }
    }

    /// At a port with a fast-path limit of 0: drops the arrival if the
    /// port is down or a `drop_next` waits for it (then disarmed); true if
    /// dropped.
    #[cold]
    #[inline(never)]
    fn fault_drops_arrival(&mut self, port: PortId, id: PacketId) -> bool {
        let i = port.idx();
        if self.down.get(i) == Some(&true) {
            let p = self.packets.remove(id);
            self.count_drop(port, &p, DropReason::LinkDown);
            return true;
        }
        let p = self.packets.get(id);
        let Some(k) = self.drop_next.iter().position(|&(q, f)| q == port && f == p.flow && p.kind.is_data()) else { return false };
        self.drop_next.remove(k);
        self.ports[i].limit = self.fast_path_limit(i);
        let p = self.packets.remove(id);
        self.count_drop(port, &p, DropReason::Injected);
        true
    }

    /// Takes `ports` down (`down`) or brings them up, now: a down port
    /// drops its buffer and everything that reaches it, packets on its wire
    /// are lost, and the routes are recomputed over the ports still up
    /// (`crate::fault`).
    pub fn set_ports_down(&mut self, ports: &[PortId], down: bool) {
        self.init_fault_state();
        for &port in ports {
            let i = port.idx();
            if self.down[i] == down {
                continue;
            }
            self.down[i] = down;
            if self.trace.enabled {
                self.trace.push(self.now, TraceKind::Fault { port, up: !down });
            }
            if !down {
                self.ports[i].limit = self.fast_path_limit(i);
                continue;
            }
            self.ports[i].limit = 0;
            // The buffer is lost...
            while let Some(id) = self.queues[i].dequeue(&self.packets) {
                let p = self.packets.remove(id);
                self.count_drop(port, &p, DropReason::LinkDown);
            }
            self.queue_bytes[i] = 0;
            // ... and so is what is on the wire (dropped where it arrives).
            let on_wire: Vec<PacketId> = self.ports[i].wire_iter(&self.wire_overflow[i]).collect();
            for id in on_wire {
                self.packets.get_mut(id).lost = true;
            }
        }
        if self.down.iter().any(|&d| d) {
            let table = crate::fault::routes_avoiding(&self.net, &self.down);
            let (h, n) = (self.net.n_hosts as usize, self.net.nodes.len());
            let mut routes = Vec::with_capacity((n - h) * n);
            let mut route_ports = Vec::new();
            for row in &table {
                for hops in row {
                    if hops.len() == 1 {
                        routes.push(Route::new(hops[0].0, 1));
                    } else {
                        routes.push(Route::new(route_ports.len() as u32, hops.len()));
                        route_ports.extend_from_slice(hops);
                    }
                }
            }
            self.routes = routes;
            self.route_ports = route_ports;
        } else {
            (self.routes, self.route_ports) = route_table(&self.net);
        }
    }

    /// A packet that was on a failed link's wire arrives: dropped.
    #[cold]
    #[inline(never)]
    fn drop_lost(&mut self, port: PortId, id: PacketId) {
        let p = self.packets.remove(id);
        self.count_drop(port, &p, DropReason::LinkDown);
    }

    /// A switch with no path left to a packet's destination drops it
    /// (counted at the port it arrived on the switch through... the
    /// switch's first port, for the role statistics).
    #[cold]
    #[inline(never)]
    fn drop_unroutable(&mut self, node: NodeId, id: PacketId) {
        let port = self.net.nodes[node.idx()].ports[0];
        let p = self.packets.remove(id);
        self.count_drop(port, &p, DropReason::LinkDown);
    }

    /// The audit and the per-tenant bytes of a delivered data packet.
    #[cold]
    #[inline(never)]
    fn delivery_accounting(&mut self, p: &Packet) {
        if self.cfg.audit {
            self.audit_delivery(p);
        }
        if !self.tenant_bytes_delivered.is_empty() {
            let t = self.records[p.flow.idx()].tenant as usize;
            self.tenant_bytes_delivered[t] += p.size as u64;
        }
    }

    fn audit_delivery(&mut self, p: &Packet) {
        let f = p.flow.idx();
        let (w, b) = (p.seq as usize / 64, p.seq % 64);
        if self.audit[f][w] & (1 << b) == 0 {
            self.audit[f][w] |= 1 << b;
            let size = self.records[f].size;
            assert_eq!(p.size as u32, crate::units::data_packet_wire_size(size, p.seq), "audit: flow {} packet {} has the wrong size", f, p.seq);
            self.audit_bytes[f] += crate::units::data_packet_payload(size, p.seq) as u64;
        }
    }
}

/// Packets for another part of a split run: (arrival time at the far node,
/// port, packet).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Outgoing = Vec<(SimTime, PortId, Packet)>;

/// A simulation as one part of a split run (`crate::parallel`, which the
/// browser's build leaves out).
#[cfg(not(target_arch = "wasm32"))]
impl<P: Protocol> Simulation<P> {
    /// Makes this simulation part `index` of a split run whose nodes are
    /// simulated by the parts `owner` names. Call before the first event.
    pub(crate) fn set_part(&mut self, index: usize, owner: &[u8]) {
        assert!(self.events_processed == 0 && !self.trace.enabled, "a part is set before the run starts, without a trace");
        let mut remote_ports = Vec::new();
        for (i, spec) in self.net.ports.iter().enumerate() {
            if owner[spec.node.idx()] as usize == index && owner[spec.peer.idx()] as usize != index {
                remote_ports.push(PortId(i as u32));
                // A full ring: sends go to the overflow deque, and no
                // arrival is scheduled here (see `Part::remote_ports`).
                let st = &mut self.ports[i];
                st.wire_len = WIRE_INLINE as u8;
                st.spilled = true;
            }
        }
        self.part = Some(Box::new(Part { index, owner: owner.to_vec(), remote_ports, settlements: Vec::new(), published: 0, settled: 0, samples: Vec::new() }));
    }

    /// The event limit and the time limit.
    pub(crate) fn limits(&self) -> (u64, SimTime) {
        (self.cfg.max_events, self.cfg.max_time)
    }

    /// Processes every event before `end`; false if the part stopped
    /// itself (far past the event limit within the cell).
    pub(crate) fn run_window(&mut self, end: SimTime) -> bool {
        match end.ps().checked_sub(1) {
            Some(last) => self.run_until(SimTime::from_ps(last)),
            None => self.stopped.is_none(),
        }
    }

    /// Hands the packets sent towards other parts' nodes since the last
    /// call to `out[part]`, in the order each port sent them; returns the
    /// earliest time one of them arrives (`u64::MAX`: none).
    pub(crate) fn take_outgoing(&mut self, out: &mut [Outgoing]) -> u64 {
        let Some(part) = &self.part else { return u64::MAX };
        let mut first = u64::MAX;
        for &port in &part.remote_ports {
            let q = &mut self.wire_overflow[port.idx()];
            if q.is_empty() {
                continue;
            }
            let to = part.owner[self.net.ports[port.idx()].peer.idx()] as usize;
            // A wire's packets arrive in the order they were sent.
            first = first.min(q[0].0.ps());
            for (at, id) in q.drain(..) {
                out[to].push((at, port, self.packets.remove(id)));
            }
        }
        first
    }

    /// A packet another part sent on `port` (towards this part's node)
    /// reaches the far end of the wire at `at`.
    pub(crate) fn deliver(&mut self, at: SimTime, port: PortId, p: Packet) {
        let id = self.packets.insert(p);
        let st = &mut self.ports[port.idx()];
        if st.wire_len == 0 {
            self.events.push(at, tie::ARRIVE | port.0 as u64, Event::Arrive(port));
        }
        st.wire_push(at, id, &mut self.wire_overflow, port);
    }

    /// Appends the foreground flows this part settled since the last call.
    pub(crate) fn take_new_settled(&mut self, out: &mut Vec<FlowId>) {
        let Some(part) = &mut self.part else { return };
        for s in &part.settlements[part.published..] {
            if !self.records[s.flow.idx()].background {
                out.push(s.flow);
            }
        }
        part.published = part.settlements.len();
    }

    /// Time of the last event processed.
    pub(crate) fn last_event_time(&self) -> SimTime {
        self.now
    }

    /// Every flow of the workload has arrived.
    pub(crate) fn arrivals_done(&self) -> bool {
        self.pending_arrival.is_none()
    }

    /// Stops this part, as all parts stop together, at time `now`.
    pub(crate) fn stop_part(&mut self, why: StopReason, now: SimTime) {
        if self.stopped.is_none() {
            self.stop(why);
        }
        self.stopped = Some(why);
        self.now = now;
    }

    /// What the part hands back.
    pub(crate) fn into_part_output(self) -> PartOutput {
        let part = self.part.expect("a part of a split run");
        PartOutput {
            records: self.records,
            settlements: part.settlements,
            counters: self.counters,
            samples: part.samples,
            stop: self.stopped.unwrap_or(StopReason::Idle),
            now: self.now,
            events: self.events_processed,
            name: self.proto.name(),
        }
    }
}

/// The least time from a port starting to send a packet to the far node
/// seeing it, over every port: the serialization of a header (the
/// smallest packet; a cut-through switch sees a packet once its header is
/// in) plus the link's delay. Nothing a node does at time t can reach
/// another node before t plus this (the lookahead of `crate::parallel`).
pub fn lookahead(net: &Network) -> SimTime {
    net.ports.iter().map(|p| p.rate.serialization(HEADER as u64) + p.delay).min().unwrap_or(SimTime::from_ps(1))
}

/// The event count at which a run that never leaves its lookahead cell is
/// stopped (see `check_stop_at`): the limit plus as much again (at least a
/// million events).
fn runaway_events(max_events: u64) -> u64 {
    max_events.saturating_add(max_events.max(1_000_000))
}

/// A fixed integer mixer (SplitMix64's finalizer) for ECMP hashing, the
/// same on every platform.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
