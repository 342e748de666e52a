//! The simulation: one value that owns the clock, the event list, the
//! ports' queues and wires, the protocol and the metrics.
//!
//! A port is three steps (htsim's queue): a packet arrives and is enqueued
//! or dropped; when the port is idle it begins sending the next packet;
//! when the last bit has left, the port is idle again. A packet on a wire
//! reaches the far node after the link's delay. Each port keeps its wire as
//! a FIFO (arrivals from one port are in time order), so the event list
//! holds at most one arrival event per port.
//!
//! One data layout (the [`Simulation`] struct, here), its behaviour in
//! `impl` blocks by concern:
//! * `event_loop.rs`: running in slices, dispatching events, stopping;
//! * `fabric.rs`: ports, wires, routes and forwarding (the hot path);
//! * `flows.rs`: arrivals, the protocol's actions, settlement, aborts;
//! * `faults.rs`: links and switches down and up, one-time drops, buffer
//!   changes;
//! * `part.rs`: the hooks of a part of a run split between threads;
//! * `audit.rs`: the independent delivery audit and per-tenant bytes.

use crate::event::EventList;
use crate::fault::FaultAction;
use crate::ids::{FlowId, NodeId, PortId};
/// Why a run stopped (defined with the metrics; here too for the callers
/// that read it from the simulation).
pub use crate::metrics::StopReason;
use crate::metrics::{Counters, FlowRecord, Sample};
use crate::net::{LoadBalancing, Network, Switching};
use crate::packet::{Packet, PacketId, Packets};
use crate::protocol::{Action, Protocol};
use crate::queue::{Dropped, Queue};
use crate::rng::{SimRng, Stream};
use crate::trace::Trace;
use crate::units::{SimTime, HEADER};
use crate::workload::{FlowGenerator, FlowSpec};
use std::collections::VecDeque;

/// Builds an [`Io`] for a hook running at `node` from the simulation's
/// fields, leaving `proto` free.
macro_rules! io {
    ($s:ident, $node:expr) => {
        Io { now: $s.now, node: $node, net: &$s.net, queue_bytes: &$s.queue_bytes, rng: &mut $s.proto_rng, trace: &mut $s.trace, actions: &mut $s.actions }
    };
}

mod audit;
mod event_loop;
mod fabric;
mod faults;
mod flows;
mod part;

use fabric::{route_table, Port, Route, WIRE_INLINE};
use part::Part;
// What `crate::parallel` (not in the browser's build) reads.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use part::{Outgoing, PartOutput, Settlement};

/// Tie-breaks of events at the same picosecond (the event list orders by
/// (time, tie)): a class in the top three bits, then the port, node or
/// flow the event concerns. Never the order events were scheduled in, so
/// that a run split between threads orders them as one thread does
/// (`crate::parallel`). By class: a fault first (a link fails before
/// anything else happens at that instant), then ports finishing a
/// transmission (by port: the next packet is chosen among those already
/// there), then packets arriving at nodes (in an order of the ports they come
/// from drawn per instant from the seed, `tie::arrive`),
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
    /// The tie of a packet reaching the far end of `port`'s wire at `at`:
    /// `ARRIVE` and the port number under a permutation of the port
    /// numbers drawn afresh for every instant from the run's `key`
    /// ([`arrival_key`]). Packets that reach a switch at the same instant
    /// from several ports (senders on identical links run in lockstep)
    /// compete for the same buffer space; ordered by port number, the
    /// lowest-numbered sender would win every freed slot (N TCP flows into
    /// one drop-tail port: one flow took the link, issue 37). The order is
    /// a pure function of (seed, instant, port), so it is the same on one
    /// thread or several and natively or in WebAssembly.
    #[inline(always)]
    pub fn arrive(key: u64, at: crate::units::SimTime, port: crate::ids::PortId) -> u64 {
        // SplitMix64's finalizer of (key, instant): 64 well-mixed bits.
        let mut z = key ^ at.ps().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // A permutation of the 32-bit port numbers chosen by `z`: each
        // step (xor with a constant, product with an odd number, xorshift)
        // is a bijection, so two ports never share a tie.
        let mut x = port.0 ^ z as u32;
        x = x.wrapping_mul((z >> 32) as u32 | 1);
        x ^= x >> 16;
        ARRIVE | x as u64
    }
    /// The run's key of the arrival order, from its seed (a constant apart
    /// from the random streams' so that it is unrelated to their draws).
    pub fn arrival_key(seed: u64) -> u64 {
        seed ^ 0x6172_7269_7661_6C73 // "arrivals"
    }
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
    /// The run's key of the order of same-instant arrivals (`tie::arrive`).
    arrival_key: u64,
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
            arrival_key: tie::arrival_key(cfg.seed),
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

    /// The packets buffered at one port, in the order the port sends them
    /// if nothing else arrives (`Queue::service_order`), and the index in
    /// that list of the one a full buffer drops first (`Queue::drop_first`;
    /// None where the arrival is dropped instead).
    pub fn port_packets(&self, port: PortId) -> (Vec<Packet>, Option<usize>) {
        let q = &self.queues[port.idx()];
        let order = q.service_order(&self.packets);
        let first = q.drop_first().and_then(|d| order.iter().position(|&id| id == d));
        (order.into_iter().map(|id| *self.packets.get(id)).collect(), first)
    }

    /// Time of the next pending event, if any.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.events.peek_time()
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
