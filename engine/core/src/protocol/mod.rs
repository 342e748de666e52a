//! The protocol architecture (see `docs/architecture.md`, "The protocol interface").
//!
//! A protocol is a state machine the simulation drives through the
//! [`Protocol`] trait. It never touches the event list, the clock or the
//! wires: each call gets an [`Io`] to send packets and arm timers, and the
//! simulation carries those actions out after the call returns (quinn-proto
//! and smoltcp's shape: inputs in, actions out). The hooks are:
//!
//! * end hosts: flow arrivals, packets addressed to a host, timers;
//! * switch-resident logic: every packet entering an output port (RCP, PDQ
//!   and D3 read and rewrite headers there, and keep per-port state);
//! * control-plane entities: packets addressed to a switch (PASE's
//!   arbitrators), or to a host acting as an arbiter (Fastpass).
//!
//! All hooks but the first three default to doing nothing.
//!
//! Each protocol lives in its own folder (`<name>/`: the protocol, its
//! parameters, its switch logic, and its [`plugin::Plugin`], which tells
//! the rest of the engine its ports, how to build it, whether a run can be
//! split and what the page shows of it); `registry.rs` lists them once.
//! The window transports (TCP, DCTCP, D2TCP, L2DCT, pFabric) share one
//! folder, `window/`, and its congestion controllers (`window/controller/`).

pub mod fastpass;
pub mod flow_table;
pub mod ideal;
pub mod optimal_deadline;
pub mod params;
pub mod pase;
pub mod pdq;
pub mod phost;
pub mod plugin;
pub mod ports;
pub mod rcp;
pub mod registry;
pub mod scoreboard;
#[cfg(test)]
pub mod stop_and_wait;
#[cfg(test)]
pub(crate) mod testing;
pub mod timer;
pub mod window;

pub use registry::{control_code, control_events, ProtocolName, ProtocolParams, Visit};

use crate::ids::{FlowId, NodeId, PortId};
use crate::net::Network;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::trace::{Trace, TraceKind};
use crate::units::SimTime;
use crate::workload::FlowSpec;

/// What a protocol asks the simulation to do.
#[derive(Clone, Copy, Debug)]
pub enum Action<T> {
    /// Put a packet on the NIC queue of `packet.src` (a host), or route it
    /// from `packet.src` when that is a switch.
    Send(Packet),
    /// Call `on_timer` with this value at this time; the node is the one
    /// whose hook set it (it orders timers at equal times and says where
    /// the timer runs).
    Timer(SimTime, NodeId, T),
    /// The receiver of this flow holds every byte: the flow is complete.
    FlowDone(FlowId),
    /// The sender gave the flow up unfinished (Early Termination): it
    /// never completes, but no longer keeps the run or its request open.
    FlowTerminated(FlowId),
}

/// A protocol's window on the simulation during one call.
pub struct Io<'a, T> {
    /// The current simulated time.
    pub now: SimTime,
    /// The node whose hook runs: the host of `on_flow_arrival` and
    /// `on_packet`, the switch of `on_switch_packet`, the node owning the
    /// port of `on_port_enqueue`, the node that set the timer of
    /// `on_timer`. Timers set now run at this node.
    pub node: NodeId,
    /// The static network (for paths, rates, roles).
    pub net: &'a Network,
    /// Current queue length of each port, bytes (read-only).
    pub queue_bytes: &'a [u64],
    /// The protocol's own random stream.
    pub rng: &'a mut SimRng,
    /// The trace stream (check `trace.enabled` before building events).
    pub trace: &'a mut Trace,
    pub(crate) actions: &'a mut Vec<Action<T>>,
}

impl<T> Io<'_, T> {
    /// Sends a packet from `p.src`.
    #[inline]
    pub fn send(&mut self, p: Packet) {
        self.actions.push(Action::Send(p));
    }
    /// Arms a timer: `on_timer(value)` will be called at `at` (not before now).
    #[inline]
    pub fn set_timer(&mut self, at: SimTime, value: T) {
        self.actions.push(Action::Timer(at.max(self.now), self.node, value));
    }
    /// Reports that the receiver of `flow` now holds all its bytes.
    #[inline]
    pub fn flow_done(&mut self, flow: FlowId) {
        self.actions.push(Action::FlowDone(flow));
    }
    /// Reports that the sender gave `flow` up without completing it.
    #[inline]
    pub fn flow_terminated(&mut self, flow: FlowId) {
        self.actions.push(Action::FlowTerminated(flow));
    }
    /// Records a trace event at the current time, when tracing is on.
    #[inline]
    pub fn trace(&mut self, kind: impl FnOnce() -> TraceKind) {
        if self.trace.enabled {
            self.trace.push(self.now, kind());
        }
    }
}

/// A transport protocol, with its end-host, switch and control-plane parts.
pub trait Protocol: Clone {
    /// The protocol's timer values (which flow, which timer).
    type Timer: Copy + std::fmt::Debug;
    /// True when [`Protocol::on_port_enqueue`] does something, so that
    /// protocols without switch logic pay nothing for the hook.
    const HAS_PORT_LOGIC: bool = false;

    /// A flow arrived at its sender. The destination's
    /// [`Protocol::prepare_receiver`] has been called for it just before.
    fn on_flow_arrival(&mut self, flow: &FlowSpec, io: &mut Io<Self::Timer>);
    /// The destination of a new flow sets up its receiver state (the
    /// papers' receivers learn a flow's size from its first packets; here
    /// the state is ready when they arrive). Called at the flow's arrival,
    /// before [`Protocol::on_flow_arrival`], where the destination host is
    /// simulated. Every hook reads and writes only the state of the node
    /// it runs at (a host, or a switch and its ports): a host never looks
    /// at another host's state, so that the network can be split between
    /// threads (`crate::parallel`), each simulating its own nodes.
    fn prepare_receiver(&mut self, _flow: &FlowSpec) {}
    /// A packet arrived at its destination host.
    fn on_packet(&mut self, p: Packet, io: &mut Io<Self::Timer>);
    /// A timer armed with `set_timer` fired.
    fn on_timer(&mut self, t: Self::Timer, io: &mut Io<Self::Timer>);

    /// `workload.abort_at_deadline`: the flow's deadline passed before its
    /// sender finished (as it knows it): the sender stops sending the flow
    /// and forgets it. True if the sender was still at work (the flow
    /// then settles as terminated, if nothing settled it before), false if
    /// it had finished or given up already. Runs at the source host; every
    /// packet-level protocol implements it.
    fn abort_sender(&mut self, _flow: FlowId, _io: &mut Io<Self::Timer>) -> bool {
        false
    }
    /// `workload.abort_at_deadline`: the flow's deadline passed; its
    /// receiver forgets it (a later packet of it is treated as one of a
    /// flow that is over). Runs at the destination host, just after the
    /// sender's [`Protocol::abort_sender`].
    fn abort_receiver(&mut self, _flow: FlowId, _at: NodeId) {}

    /// Switch-resident logic: `p` is about to enter output port `port`
    /// (a switch port or a host NIC). It may rewrite the header.
    fn on_port_enqueue(&mut self, _port: PortId, _p: &mut Packet, _io: &mut Io<Self::Timer>) {}
    /// A packet addressed to switch `node` arrived there (control plane).
    fn on_switch_packet(&mut self, _node: NodeId, _p: Packet, _io: &mut Io<Self::Timer>) {}
    /// Name of the protocol, for reports.
    fn name(&self) -> &'static str;
    /// Arbitration messages processed so far (PASE's arbitrators: requests,
    /// releases, delegation reports and updates); `None` for protocols
    /// without arbitrators. `dcsim reproduce` compares PASE with and
    /// without its optimizations by it.
    fn arbitration_messages(&self) -> Option<u64> {
        None
    }
    /// Mean arbitration delay so far, microseconds: from the start of a
    /// flow's arbitration round at its source to the round's answer there
    /// (PASE); `None` for protocols without arbitrators or before any
    /// answer.
    fn arbitration_delay_us(&self) -> Option<f64> {
        None
    }
}
