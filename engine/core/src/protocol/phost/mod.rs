//! pHost (Gao et al., CoNEXT 2015; docs/protocols/phost.md): receiver-driven
//! tokens over commodity priority queues, all logic at the end hosts.
//!
//! * **Source** (paper section 3.1): on flow arrival it sends an RTS
//!   (40 B, highest priority) carrying the flow's size (and deadline and
//!   tenant for the EDF and tenant-fair policies) and holds `free_tokens`
//!   free tokens, so a flow of at most a BDP can finish without waiting a
//!   round trip. Whenever its NIC is idle it sends the data packet named by
//!   its most preferred unexpired token. A token expires `token_ttl_mtu`
//!   MTU-times after the source got it (section 3.2).
//! * **Destination** (section 3.1): once per token interval (one MTU
//!   transmission time plus a token's, as the authors' simulator paces) it
//!   picks one pending flow by policy and sends its source a token naming
//!   one packet (the next one it still misses, round robin, so lost packets
//!   are named again) and reporting the flow's remaining packets. Tokens go
//!   at the highest priority; data goes at the priority the source's flow
//!   size gives (short flows second, long flows third: section 3.3).
//!   A new flow's free-token packets already take the destination's
//!   downlink, so it skips token slots first (the authors' simulator's
//!   `hold_on`): as many as those packets take, less a round trip, so that
//!   the first tokens reach the source just as its free packets end (the
//!   one-way delay is measured from the RTS's timestamp).
//! * **Downgrade** (section 3.2): a destination counts the tokens a flow
//!   left unanswered; with `downgrade_window` (a BDP) unanswered it stops
//!   granting that flow until `downgrade_mtu` MTU-times after its last token,
//!   then grants one more.
//! * **Receiver timeout** (section 3.2): once every packet of a flow has
//!   been named by a token, the destination waits `receiver_timeout_mtu`
//!   MTU-times and then names the still-missing packets again.
//! * When the destination holds every packet it reports the flow complete
//!   (FCT ends at the receiver, as for every protocol here) and sends one
//!   40-B ACK so the source forgets the flow.
//!
//! Choices the paper leaves open, each a parameter in [`PhostParams`]:
//! the token interval (the authors' simulator: MTU + token bytes), the
//! threshold between short and long flows for the data priority, and an
//! RTS retransmission timer (with backoff) for the rare lost RTS.
//!
//! The source paces its own data at its NIC's rate (the authors' simulator
//! hands the NIC one packet at a time), so its NIC queue holds at most one
//! data packet and pHost drops almost nothing at the first hop.

use crate::ids::{FlowId, NodeId};
use crate::packet::{Header, Packet, PacketKind};
use crate::protocol::flow_table::FlowTable;
use crate::protocol::{Io, Protocol};
use crate::trace::TraceKind;
use crate::units::{data_packet_wire_size, packets_for, SimTime, HEADER, MTU};
use crate::workload::FlowSpec;
pub use header::{PhostHeader, PhostMsg};
use params::{PhostParams, PhostPolicy};

pub mod events;
mod header;
pub mod params;
mod plugin;
pub use plugin::PhostPlugin;

/// pHost timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhostTimer {
    /// A host's NIC is free again: send the next data packet.
    Send(NodeId),
    /// A destination's next token.
    Token(NodeId),
    /// A source's RTS got no answer yet: send it again.
    Rts(FlowId),
}

/// A token at the source.
#[derive(Clone, Copy, Debug)]
struct Token {
    /// The token is void after this time.
    expiry: SimTime,
    /// The token's number within its flow (free tokens: 0 .. free).
    number: u32,
    /// The data packet it names.
    seq: u32,
    /// The priority (sub-queue) it names for that packet.
    class: u8,
    /// A free token (held from the flow's arrival, not sent by the destination).
    free: bool,
}

/// Source side of one flow.
#[derive(Clone, Debug)]
struct Source {
    src: NodeId,
    dst: NodeId,
    size: u64,
    pkts: u32,
    tenant: u16,
    /// Absolute deadline (`SimTime::NEVER` without one).
    deadline: SimTime,
    /// Unused tokens, by expiry.
    tokens: std::collections::VecDeque<Token>,
    /// Packets the destination still misses, from its latest token.
    remaining: u32,
    /// A token or the ACK arrived (the RTS got through).
    heard: bool,
    /// The destination's ACK arrived: the flow is over at the source.
    acked: bool,
    /// Current RTS retransmission timeout.
    rts_timeout: SimTime,
}

/// Destination side of one flow.
#[derive(Clone, Debug)]
struct Sink {
    src: NodeId,
    pkts: u32,
    tenant: u16,
    deadline: SimTime,
    /// One bit per packet received.
    received: Vec<u64>,
    received_count: u32,
    /// Every packet below this one has been received.
    received_until: u32,
    /// Tokens issued so far, free tokens included (the next token's number).
    issued: u32,
    /// Tokens to issue before the receiver timeout starts.
    goal: u32,
    /// Highest token number seen in a data packet, plus one (at least the
    /// number of free tokens).
    answered: u32,
    /// When the last token went out.
    last_token_at: SimTime,
    /// Packet named by the last token (round robin over missing packets).
    last_named: u32,
    /// Receiver timeout: no tokens for this flow before this time.
    wait_until: Option<SimTime>,
    /// The flow is downgraded (traced once per downgrade).
    downgraded: bool,
    done: bool,
}

impl Sink {
    fn new(src: NodeId, pkts: u32, tenant: u16, deadline: SimTime, free: u32, now: SimTime, receiver_timeout: SimTime) -> Self {
        let n = pkts.max(1);
        Sink {
            src,
            pkts: n,
            tenant,
            deadline,
            received: vec![0; (n as usize).div_ceil(64)],
            received_count: 0,
            received_until: 0,
            issued: free,
            goal: n,
            // Free tokens are answered by data already on its way: only
            // tokens this destination sends count towards a downgrade.
            answered: free,
            last_token_at: now,
            last_named: free.wrapping_sub(1),
            // A flow the free tokens cover entirely waits for its data
            // before any token names a packet again.
            wait_until: (free >= n).then_some(now + receiver_timeout),
            downgraded: false,
            done: false,
        }
    }
    fn has(&self, seq: u32) -> bool {
        self.received[seq as usize / 64] & (1 << (seq % 64)) != 0
    }
    fn remaining(&self) -> u32 {
        self.pkts - self.received_count
    }
    /// Records packet `seq`; true when it is new.
    fn receive(&mut self, seq: u32) -> bool {
        if seq >= self.pkts || self.has(seq) {
            return false;
        }
        self.received[seq as usize / 64] |= 1 << (seq % 64);
        self.received_count += 1;
        while self.received_until < self.pkts && self.has(self.received_until) {
            self.received_until += 1;
        }
        true
    }
    /// The next packet still missing after the last one named, wrapping
    /// around to the first missing one (the authors' round robin).
    fn next_missing(&self) -> u32 {
        let start = self.last_named.wrapping_add(1);
        let start = if start >= self.pkts { self.received_until } else { start };
        self.first_missing_from(start).or_else(|| self.first_missing_from(self.received_until)).expect("a flow that is not done misses a packet")
    }
    fn first_missing_from(&self, from: u32) -> Option<u32> {
        let mut w = from as usize / 64;
        let mut bits = !self.received.get(w)? & (!0u64 << (from % 64));
        loop {
            if bits != 0 {
                let seq = (w * 64) as u32 + bits.trailing_zeros();
                return (seq < self.pkts).then_some(seq);
            }
            w += 1;
            bits = !*self.received.get(w)?;
        }
    }
}

/// Per-host state: its sending and receiving flows and its two pacers.
#[derive(Clone, Debug, Default)]
struct Host {
    /// Flows this host sends that are not yet acknowledged.
    sending: Vec<FlowId>,
    /// Flows this host receives that are not complete.
    receiving: Vec<FlowId>,
    /// The NIC finishes the current data packet at this time.
    nic_free_at: SimTime,
    /// A `Send` timer is armed for this time.
    send_at: Option<SimTime>,
    /// Tokens this source holds over all its flows, expired ones included
    /// until they are found: with none, a free NIC needs no timer (a token
    /// that arrives later is used at once).
    tokens_held: u32,
    /// A `Token` timer is armed for this time.
    token_at: Option<SimTime>,
    /// When this host last sent a token.
    last_token_at: Option<SimTime>,
    /// Token slots this destination skips because free-token data is
    /// already coming its way (the authors' simulator's `hold_on`).
    hold: u32,
    /// Tenant-fair policy: tokens granted per tenant by this destination.
    granted: Vec<u64>,
    /// Tenant-fair policy: data packets sent per tenant by this source.
    sent: Vec<u64>,
}

/// `k` MTU-times of a NIC whose MTU takes `mtu`, to the picosecond.
fn scaled(mtu: SimTime, k: f64) -> SimTime {
    SimTime::from_ps((mtu.ps() as f64 * k).round() as u64)
}

/// The parameters' durations per host, computed once (they are read on
/// every token and every data packet).
#[derive(Clone)]
struct HostTimes {
    token_interval: Vec<SimTime>,
    downgrade: Vec<SimTime>,
    receiver_timeout: Vec<SimTime>,
    token_ttl: Vec<SimTime>,
    /// Picoseconds per byte on the host's NIC when a whole number (10 Gbps:
    /// 800), else 0 and the exact division is used (as the simulation does);
    /// `u64::MAX` until the host first sends.
    ps_per_byte: Vec<u64>,
}

/// pHost over `strict_priority` ports.
#[derive(Clone)]
pub struct Phost {
    p: PhostParams,
    /// Per host, the time one MTU takes on its NIC.
    mtu_time: Vec<SimTime>,
    times: HostTimes,
    /// Source side by flow id, from the flow's arrival until its ACK
    /// reaches the source (then retired: memory follows the live flows).
    sources: FlowTable<Source>,
    /// Destination side by flow id: `None` until the RTS or first data
    /// packet arrives; retired once the sink holds every packet (a late
    /// RTS is answered with the ACK, late data change nothing). Kept apart
    /// from the sources and retired by the destination's own events, so
    /// that a host's code reads only its own state (`crate::parallel`).
    sinks: FlowTable<Option<Sink>>,
    hosts: Vec<Host>,
}

/// Data priority (strict-priority sub-queue) of a flow of `pkts` packets:
/// control is 0, short flows 1, long flows 2 (pHost section 3.3); with
/// `data_priorities` off every flow's data is 1 (section 4.4).
pub fn data_class(p: &PhostParams, pkts: u32) -> u8 {
    if pkts <= p.short_flow_packets || !p.data_priorities {
        1
    } else {
        2
    }
}

/// Free tokens of a flow of `pkts` packets: all its packets when it fits
/// in `free_tokens`; for longer flows `free_tokens` if
/// `free_tokens_long_flows` is on, else none (the authors' simulator:
/// `init_capa_size`).
pub fn free_tokens(p: &PhostParams, pkts: u32) -> u32 {
    if pkts <= p.free_tokens {
        pkts
    } else if p.free_tokens_long_flows {
        p.free_tokens
    } else {
        0
    }
}

impl Phost {
    /// pHost with parameters `p` on a network whose host `h` has NIC rate
    /// giving `mtu_time[h]` per MTU.
    pub fn new(p: PhostParams, mtu_time: Vec<SimTime>) -> Self {
        let hosts = (0..mtu_time.len()).map(|_| Host::default()).collect();
        let times = |k: f64| mtu_time.iter().map(|m| scaled(*m, k)).collect::<Vec<_>>();
        let times = HostTimes {
            token_interval: times(p.token_interval_bytes as f64 / MTU as f64),
            downgrade: times(p.downgrade_mtu()),
            receiver_timeout: times(p.receiver_timeout_mtu()),
            token_ttl: times(p.token_ttl_mtu),
            ps_per_byte: vec![u64::MAX; mtu_time.len()],
        };
        Phost { p, mtu_time, times, sources: FlowTable::default(), sinks: FlowTable::default(), hosts }
    }

    fn mtus(&self, host: NodeId, k: f64) -> SimTime {
        scaled(self.mtu_time[host.idx()], k)
    }

    fn token_interval(&self, host: NodeId) -> SimTime {
        self.times.token_interval[host.idx()]
    }

    /// A 40-B control packet (RTS, token, ACK) at the highest priority.
    fn control(flow: FlowId, src: NodeId, dst: NodeId, seq: u32, h: PhostHeader, kind: PacketKind) -> Packet {
        let mut p = Packet::new(flow, src, dst, kind, seq, HEADER);
        p.class = 0;
        p.header = Header::new(h);
        p
    }

    fn send_rts(&self, flow: FlowId, s: &Source, io: &mut Io<PhostTimer>) {
        let h = PhostHeader { token: 0, count: s.pkts, tenant: s.tenant, class: 0, msg: PhostMsg::Rts };
        let mut p = Self::control(flow, s.src, s.dst, 0, h, PacketKind::Control);
        p.rank = s.deadline.ps();
        p.sent_at = io.now;
        io.send(p);
        io.trace(|| TraceKind::Control { flow, what: events::RTS });
    }

    /// Source scheduling key (lower is preferred); `sent` is the host's
    /// data packets per tenant.
    fn source_key(policy: PhostPolicy, sent: &[u64], s: &Source, flow: FlowId) -> (u64, u64, u32) {
        match policy {
            PhostPolicy::Srpt => (s.remaining as u64, 0, flow.0),
            PhostPolicy::Edf => (s.deadline.ps(), s.remaining as u64, flow.0),
            PhostPolicy::TenantFair => (sent.get(s.tenant as usize).copied().unwrap_or(0), s.remaining as u64, flow.0),
        }
    }

    /// Destination scheduling key (lower is preferred); `granted` is the
    /// host's tokens per tenant.
    fn sink_key(policy: PhostPolicy, granted: &[u64], k: &Sink, flow: FlowId) -> (u64, u64, u32) {
        match policy {
            PhostPolicy::Srpt => (k.remaining() as u64, 0, flow.0),
            PhostPolicy::Edf => (k.deadline.ps(), k.remaining() as u64, flow.0),
            PhostPolicy::TenantFair => (granted.get(k.tenant as usize).copied().unwrap_or(0), k.remaining() as u64, flow.0),
        }
    }

    fn arm_send(&mut self, host: NodeId, at: SimTime, io: &mut Io<PhostTimer>) {
        let h = &mut self.hosts[host.idx()];
        if h.send_at.is_none_or(|t| t > at) {
            h.send_at = Some(at);
            io.set_timer(at, PhostTimer::Send(host));
        }
    }

    fn arm_token(&mut self, host: NodeId, at: SimTime, io: &mut Io<PhostTimer>) {
        let h = &mut self.hosts[host.idx()];
        let at = match h.last_token_at {
            Some(last) => at.max(last + self.token_interval(host)),
            None => at,
        }
        .max(io.now);
        let h = &mut self.hosts[host.idx()];
        if h.token_at.is_none_or(|t| t > at) {
            h.token_at = Some(at);
            io.set_timer(at, PhostTimer::Token(host));
        }
    }

    /// The source `host` sends the data packet of its most preferred
    /// unexpired token, if its NIC is free (paper section 3.1).
    fn try_send(&mut self, host: NodeId, io: &mut Io<PhostTimer>) {
        let now = io.now;
        if self.hosts[host.idx()].nic_free_at > now {
            let at = self.hosts[host.idx()].nic_free_at;
            self.arm_send(host, at, io);
            return;
        }
        let mut best: Option<((u64, u64, u32), FlowId)> = None;
        let policy = self.p.policy;
        // The host's fields borrowed one by one, beside the sources (for
        // speed: no moving the list out and back on every call).
        let Host { sending, tokens_held, sent, .. } = &mut self.hosts[host.idx()];
        for &f in sending.iter() {
            let s = self.sources.get_mut(f.idx()).expect("a sending flow has a source");
            while s.tokens.front().is_some_and(|t| t.expiry < now) {
                let t = s.tokens.pop_front().unwrap();
                *tokens_held -= 1;
                io.trace(|| TraceKind::Control { flow: f, what: if t.free { events::FREE_TOKEN_EXPIRED } else { events::TOKEN_EXPIRED } });
            }
            if s.tokens.is_empty() {
                continue;
            }
            let key = Self::source_key(policy, sent, s, f);
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, f));
            }
        }
        let Some((_, flow)) = best else { return };
        let s = self.sources.get_mut(flow.idx()).unwrap();
        let t = s.tokens.pop_front().unwrap();
        self.hosts[host.idx()].tokens_held -= 1;
        let size = data_packet_wire_size(s.size, t.seq);
        let mut p = Packet::new(flow, s.src, s.dst, PacketKind::Data, t.seq, size);
        p.class = t.class;
        p.rank = s.deadline.ps();
        p.sent_at = now;
        p.header = Header::new(PhostHeader { token: t.number, count: s.pkts, tenant: s.tenant, class: t.class, msg: PhostMsg::Data });
        let tenant = s.tenant as usize;
        io.send(p);
        let h = &mut self.hosts[host.idx()];
        if h.sent.len() <= tenant {
            h.sent.resize(tenant + 1, 0);
        }
        h.sent[tenant] += 1;
        let mut k = self.times.ps_per_byte[host.idx()];
        if k == u64::MAX {
            let bps = io.net.ports[io.net.nic(host).idx()].rate.bps();
            k = if 8_000_000_000_000 % bps == 0 { 8_000_000_000_000 / bps } else { 0 };
            self.times.ps_per_byte[host.idx()] = k;
        }
        let free_at = now
            + match k {
                0 => io.net.ports[io.net.nic(host).idx()].rate.serialization(size as u64),
                k => SimTime::from_ps(k * size as u64),
            };
        self.hosts[host.idx()].nic_free_at = free_at;
        if self.hosts[host.idx()].tokens_held > 0 {
            self.arm_send(host, free_at, io);
        }
    }

    /// The destination `host` grants one token, by policy, to a flow that
    /// is neither downgraded nor in its receiver timeout (section 3.1-3.2).
    fn token_tick(&mut self, host: NodeId, io: &mut Io<PhostTimer>) {
        let now = io.now;
        let downgrade = self.times.downgrade[host.idx()];
        let receiver_timeout = self.times.receiver_timeout[host.idx()];
        let window = self.p.downgrade_window;
        let mut wake = SimTime::NEVER;
        let mut best: Option<((u64, u64, u32), FlowId)> = None;
        let hs = &mut self.hosts[host.idx()];
        if hs.hold > 0 {
            // This slot of the downlink belongs to a free-token packet.
            hs.hold -= 1;
            hs.last_token_at = Some(now);
            self.arm_token(host, now, io);
            return;
        }
        let policy = self.p.policy;
        // One pass both drops completed flows from the list and picks the
        // flow to grant (for speed: before, a `retain` pass went first).
        let Host { receiving, granted, .. } = &mut self.hosts[host.idx()];
        let mut kept = 0;
        for i in 0..receiving.len() {
            let f = receiving[i];
            // Done and retired flows leave the list.
            let Some(k) = self.sinks.get_mut(f.idx()).and_then(|k| k.as_mut()).filter(|k| !k.done) else { continue };
            receiving[kept] = f;
            kept += 1;
            if let Some(w) = k.wait_until {
                if w > now {
                    wake = wake.min(w);
                    continue;
                }
                // Receiver timeout over: name the missing packets again.
                k.wait_until = None;
                k.goal = k.issued + k.remaining();
                io.trace(|| TraceKind::Control { flow: f, what: events::RECEIVER_TIMEOUT });
            }
            if k.issued - k.answered >= window {
                let until = k.last_token_at + downgrade;
                if now < until {
                    if !k.downgraded {
                        k.downgraded = true;
                        io.trace(|| TraceKind::Control { flow: f, what: events::DOWNGRADE });
                    }
                    wake = wake.min(until);
                    continue;
                }
                // Downgrade over: allow one more token (the authors' relax).
                k.answered = k.issued + 1 - window;
            }
            k.downgraded = false;
            let key = Self::sink_key(policy, granted, k, f);
            if best.is_none_or(|(b, _)| key < b) {
                best = Some((key, f));
            }
        }
        receiving.truncate(kept);
        if let Some((_, flow)) = best {
            let k = self.sinks.get_mut(flow.idx()).and_then(|k| k.as_mut()).unwrap();
            let seq = k.next_missing();
            k.last_named = seq;
            let number = k.issued;
            k.issued += 1;
            k.last_token_at = now;
            if k.issued >= k.goal {
                k.wait_until = Some(now + receiver_timeout);
            }
            let class = data_class(&self.p, k.pkts);
            let h = PhostHeader { token: number, count: k.remaining(), tenant: k.tenant, class, msg: PhostMsg::Token };
            let t = Self::control(flow, host, k.src, seq, h, PacketKind::Control);
            let tenant = k.tenant as usize;
            io.send(t);
            io.trace(|| TraceKind::Control { flow, what: events::TOKEN });
            let hs = &mut self.hosts[host.idx()];
            hs.last_token_at = Some(now);
            if hs.granted.len() <= tenant {
                hs.granted.resize(tenant + 1, 0);
            }
            hs.granted[tenant] += 1;
            self.arm_token(host, now, io);
        } else if wake != SimTime::NEVER {
            self.arm_token(host, wake, io);
        }
    }

    /// The destination learns of a flow from its RTS or first data packet.
    /// True when this packet created it (false: it was known already).
    /// The flow is not retired (callers check). Inlined, with the creation
    /// out of line (for speed: a known flow, the case of every data packet,
    /// is one check).
    #[inline(always)]
    fn sink_for(&mut self, p: &Packet, h: &PhostHeader, io: &mut Io<PhostTimer>) -> bool {
        if self.sinks.get(p.flow.idx()).is_some_and(|k| k.is_some()) {
            return false;
        }
        self.new_sink(p, h, io);
        true
    }

    #[inline(never)]
    fn new_sink(&mut self, p: &Packet, h: &PhostHeader, io: &mut Io<PhostTimer>) {
        let free = free_tokens(&self.p, h.count);
        let rt = self.times.receiver_timeout[p.dst.idx()];
        *self.sinks.get_mut(p.flow.idx()).expect("the flow arrived and is not retired") =
            Some(Sink::new(p.src, h.count, h.tenant, SimTime::from_ps(p.rank), free, io.now, rt));
        self.hosts[p.dst.idx()].receiving.push(p.flow);
        // Free packets occupy the downlink for `free` MTU-times from about
        // one one-way delay after the RTS left; tokens sent now produce data
        // here a round trip later.
        let one_way = io.now.saturating_sub(p.sent_at);
        let busy = SimTime::from_ps(self.mtu_time[p.dst.idx()].ps() * free as u64);
        let slots = busy.saturating_sub(one_way + one_way).ps() / self.token_interval(p.dst).ps().max(1);
        let hs = &mut self.hosts[p.dst.idx()];
        hs.hold += slots as u32;
        // Free packets count as granted for the tenant-fair policy.
        if hs.granted.len() <= h.tenant as usize {
            hs.granted.resize(h.tenant as usize + 1, 0);
        }
        hs.granted[h.tenant as usize] += free as u64;
        self.arm_token(p.dst, io.now, io);
    }

    fn send_ack(flow: FlowId, host: NodeId, src: NodeId, io: &mut Io<PhostTimer>) {
        let h = PhostHeader { token: 0, count: 0, tenant: 0, class: 0, msg: PhostMsg::Ack };
        io.send(Self::control(flow, host, src, 0, h, PacketKind::Ack));
    }
}

impl Protocol for Phost {
    type Timer = PhostTimer;

    fn on_flow_arrival(&mut self, f: &FlowSpec, io: &mut Io<PhostTimer>) {
        let pkts = packets_for(f.size);
        let free = free_tokens(&self.p, pkts);
        // Free tokens come from no destination's schedule, so by default
        // they do not expire; the authors' simulator voids them after
        // sending them all plus one token's lifetime (`free_tokens_expire`).
        let expiry = if self.p.free_tokens_expire { io.now + self.mtus(f.src, free as f64 + self.p.token_ttl_mtu) } else { SimTime::NEVER };
        let class = data_class(&self.p, pkts);
        let tokens = (0..free).map(|i| Token { expiry, number: i, seq: i, class, free: true }).collect();
        let s = Source {
            src: f.src,
            dst: f.dst,
            size: f.size,
            pkts,
            tenant: f.tenant,
            deadline: f.deadline.map_or(SimTime::NEVER, |d| f.arrival + d),
            tokens,
            remaining: pkts,
            heard: false,
            acked: false,
            rts_timeout: SimTime::from_us_f64(self.p.rts_timeout_us),
        };
        self.send_rts(f.id, &s, io);
        io.set_timer(io.now + s.rts_timeout, PhostTimer::Rts(f.id));
        self.sources.push(f.id.idx(), s);
        self.hosts[f.src.idx()].sending.push(f.id);
        self.hosts[f.src.idx()].tokens_held += free;
        self.try_send(f.src, io);
    }

    fn prepare_receiver(&mut self, f: &FlowSpec) {
        self.sinks.push(f.id.idx(), None);
    }

    fn on_packet(&mut self, p: Packet, io: &mut Io<PhostTimer>) {
        let h: PhostHeader = p.header.read();
        if matches!(h.msg, PhostMsg::Rts | PhostMsg::Data) && self.sinks.get(p.flow.idx()).is_none() {
            // A retired sink holds every packet: a late RTS is answered
            // with the ACK again, as a done sink does; late data change
            // nothing. (Tokens and ACKs reach the source, which checks its
            // own state below.)
            if matches!(h.msg, PhostMsg::Rts) {
                Self::send_ack(p.flow, p.dst, p.src, io);
            }
            return;
        }
        match h.msg {
            PhostMsg::Rts => {
                let new = self.sink_for(&p, &h, io);
                if !new {
                    // A repeated RTS: the first got through, or the flow is
                    // over and the ACK was lost.
                    let k = self.sinks.get(p.flow.idx()).and_then(|k| k.as_ref()).unwrap();
                    if k.done {
                        Self::send_ack(p.flow, p.dst, p.src, io);
                    }
                }
            }
            PhostMsg::Data => {
                self.sink_for(&p, &h, io);
                let k = self.sinks.get_mut(p.flow.idx()).and_then(|k| k.as_mut()).unwrap();
                if k.done {
                    return;
                }
                k.answered = k.answered.max(h.token + 1);
                k.receive(p.seq);
                if k.received_count == k.pkts {
                    k.done = true;
                    k.received = Vec::new();
                    io.flow_done(p.flow);
                    Self::send_ack(p.flow, p.dst, p.src, io);
                    // Nothing of the sink is needed again (the token
                    // scheduler drops retired flows as it drops done ones).
                    self.sinks.retire(p.flow.idx());
                } else {
                    // Answered tokens may lift a downgrade.
                    self.arm_token(p.dst, io.now, io);
                }
            }
            PhostMsg::Token => {
                let ttl = self.times.token_ttl[p.dst.idx()];
                let Some(s) = self.sources.get_mut(p.flow.idx()) else { return };
                if s.acked {
                    return;
                }
                s.heard = true;
                s.remaining = h.count;
                let t = Token { expiry: io.now + ttl, number: h.token, seq: p.seq, class: h.class, free: false };
                // Tokens arrive in expiry order, except behind free tokens.
                if s.tokens.back().is_none_or(|x| x.expiry <= t.expiry) {
                    s.tokens.push_back(t);
                } else {
                    let at = s.tokens.iter().rposition(|x| x.expiry <= t.expiry).map_or(0, |i| i + 1);
                    s.tokens.insert(at, t);
                }
                self.hosts[p.dst.idx()].tokens_held += 1;
                self.try_send(p.dst, io);
            }
            PhostMsg::Ack => {
                let Some(s) = self.sources.get_mut(p.flow.idx()) else { return };
                if s.acked {
                    return;
                }
                s.acked = true;
                s.heard = true;
                let held = s.tokens.len() as u32;
                s.tokens.clear();
                let host = s.src;
                self.hosts[host.idx()].tokens_held -= held;
                self.hosts[host.idx()].sending.retain(|&f| f != p.flow);
                // The ACK comes from a done sink: nothing of the source
                // is needed any more.
                self.sources.retire(p.flow.idx());
            }
        }
    }

    fn abort_sender(&mut self, flow: FlowId, _io: &mut Io<PhostTimer>) -> bool {
        let Some(s) = self.sources.get(flow.idx()) else { return false };
        if s.acked {
            return false;
        }
        // The source forgets the flow: its tokens go, and its NIC no
        // longer picks it (late tokens and its RTS timer find nothing).
        let (host, held) = (s.src, s.tokens.len() as u32);
        let h = &mut self.hosts[host.idx()];
        h.tokens_held -= held;
        h.sending.retain(|&f| f != flow);
        self.sources.retire(flow.idx());
        true
    }

    fn abort_receiver(&mut self, flow: FlowId, _at: NodeId) {
        // The token scheduler drops a retired sink as it drops a done one;
        // late data change nothing, a late RTS is answered with the ACK.
        self.sinks.retire(flow.idx());
    }

    fn on_timer(&mut self, t: PhostTimer, io: &mut Io<PhostTimer>) {
        match t {
            PhostTimer::Send(host) => {
                if self.hosts[host.idx()].send_at == Some(io.now) {
                    self.hosts[host.idx()].send_at = None;
                    self.try_send(host, io);
                }
            }
            PhostTimer::Token(host) => {
                if self.hosts[host.idx()].token_at == Some(io.now) {
                    self.hosts[host.idx()].token_at = None;
                    self.token_tick(host, io);
                }
            }
            PhostTimer::Rts(flow) => {
                // A retired flow was acknowledged.
                let Some(s) = self.sources.get_mut(flow.idx()) else { return };
                if s.heard || s.acked {
                    return;
                }
                s.rts_timeout = s.rts_timeout + s.rts_timeout;
                let next = io.now + s.rts_timeout;
                let s = self.sources.get(flow.idx()).unwrap();
                self.send_rts(flow, s, io);
                io.set_timer(next, PhostTimer::Rts(flow));
            }
        }
    }

    fn name(&self) -> &'static str {
        "phost"
    }
}

#[cfg(test)]
mod tests;
