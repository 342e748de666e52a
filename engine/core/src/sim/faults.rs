//! Faults and buffer changes: links and switches going down and up, one-time
//! drops, and a what-if branch's new buffer limit. A down or watched port
//! gets a fast-path limit of 0, so the hot path pays nothing for faults
//! (`crate::fault`).

use super::fabric::{route_table, Route};
use super::{tie, Event, Simulation};
use crate::fault::FaultAction;
use crate::ids::{NodeId, PortId};
use crate::packet::PacketId;
use crate::protocol::Protocol;
use crate::queue::{DropReason, Queue};
use crate::trace::TraceKind;
use crate::units::SimTime;

impl<P: Protocol> Simulation<P> {
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

    /// Sets up the per-port fault state on the first fault.
    pub(super) fn init_fault_state(&mut self) {
        if self.down.is_empty() {
            self.down = vec![false; self.ports.len()];
            self.saved_limit = self.ports.iter().map(|p| p.limit).collect();
        }
    }

    /// The limit the fast path of `enqueue` sees at port `i`: 0 while the
    /// port is down or watched by a `drop_next`, so that arrivals take the
    /// slow path.
    pub(super) fn fast_path_limit(&self, i: usize) -> u32 {
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
    pub(super) fn fault_drops_arrival(&mut self, port: PortId, id: PacketId) -> bool {
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
    pub(super) fn drop_lost(&mut self, port: PortId, id: PacketId) {
        let p = self.packets.remove(id);
        self.count_drop(port, &p, DropReason::LinkDown);
    }

    /// A switch with no path left to a packet's destination drops it
    /// (counted at the port it arrived on the switch through... the
    /// switch's first port, for the role statistics).
    #[cold]
    #[inline(never)]
    pub(super) fn drop_unroutable(&mut self, node: NodeId, id: PacketId) {
        let port = self.net.nodes[node.idx()].ports[0];
        let p = self.packets.remove(id);
        self.count_drop(port, &p, DropReason::LinkDown);
    }
}
