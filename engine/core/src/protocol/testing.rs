//! A protocol driven by hand in unit tests: packets and timers in, actions
//! out, with no network in between (quinn's `Pair` and smoltcp's socket
//! fixtures, reduced to one endpoint). pHost's and the window transports'
//! tests use it.

use super::{Action, Io, Protocol};
use crate::ids::{FlowId, NodeId};
use crate::net::Network;
use crate::packet::Packet;
use crate::rng::{SimRng, Stream};
use crate::trace::Trace;
use crate::units::{SimTime, MSS};
use crate::workload::FlowSpec;

/// One protocol value, the read-only world its [`Io`] shows (a network,
/// empty queues), its random stream and trace (on), and the timers it armed.
pub(crate) struct Harness<P: Protocol> {
    /// The network the protocol sees (paths, rates).
    pub net: Network,
    /// The protocol under test.
    pub proto: P,
    /// Its random stream.
    pub rng: SimRng,
    /// Its trace (enabled).
    pub trace: Trace,
    /// Every port's queue, empty.
    pub queue_bytes: Vec<u64>,
    /// Timers armed and not yet fired, in arming order.
    pub timers: Vec<(SimTime, P::Timer)>,
}

impl<P: Protocol> Harness<P> {
    /// Drives `proto` on `net`.
    pub fn new(net: Network, proto: P) -> Self {
        let mut trace = Trace::default();
        trace.enabled = true;
        Harness { queue_bytes: vec![0; net.ports.len()], net, proto, rng: SimRng::new(1, Stream::Protocol), trace, timers: Vec::new() }
    }
    /// Runs `f` at time `now`; returns the packets it sent (the timers it
    /// armed join `timers`).
    pub fn at(&mut self, now: SimTime, f: impl FnOnce(&mut P, &mut Io<P::Timer>)) -> Vec<Packet> {
        let mut actions = Vec::new();
        let mut io = Io {
            now,
            node: crate::ids::NodeId(0),
            net: &self.net,
            queue_bytes: &self.queue_bytes,
            rng: &mut self.rng,
            trace: &mut self.trace,
            actions: &mut actions,
        };
        f(&mut self.proto, &mut io);
        let mut sent = Vec::new();
        for a in actions {
            match a {
                Action::Send(p) => sent.push(p),
                Action::Timer(t, _, v) => self.timers.push((t, v)),
                Action::FlowDone(_) | Action::FlowTerminated(_) => {}
            }
        }
        sent
    }
    /// Fires every armed timer up to `until` in time order; returns the
    /// packets sent, with their times.
    pub fn run_timers(&mut self, until: SimTime) -> Vec<(SimTime, Packet)> {
        let mut out = Vec::new();
        while let Some(i) = (0..self.timers.len()).filter(|&i| self.timers[i].0 <= until).min_by_key(|&i| (self.timers[i].0, i)) {
            let (t, v) = self.timers.remove(i);
            for p in self.at(t, |x, io| x.on_timer(v, io)) {
                out.push((t, p));
            }
        }
        out
    }
}

/// Parameters of every protocol read from `json` and checked, as a
/// scenario's `params`.
pub(crate) fn params(json: &str) -> Result<super::ProtocolParams, String> {
    let p: super::ProtocolParams = serde_json::from_str(json).map_err(|e| e.to_string())?;
    p.validate()?;
    Ok(p)
}

/// A flow of `packets` full packets from host `src` to host `dst`,
/// arriving at time 0, with no deadline: the protocols' unit tests' flow.
pub(crate) fn flow(id: u32, src: u32, dst: u32, packets: u64) -> FlowSpec {
    FlowSpec {
        id: FlowId(id),
        src: NodeId(src),
        dst: NodeId(dst),
        size: packets * MSS as u64,
        arrival: SimTime::ZERO,
        deadline: None,
        tenant: 0,
        request: None,
        ideal_fct: SimTime::ZERO,
        background: false,
    }
}
