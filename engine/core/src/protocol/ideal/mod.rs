//! The Ideal scheduler (docs/protocols/ideal.md): flow-level, not
//! packet-level. At each flow arrival or completion the active flows are
//! sorted by remaining size and walked greedily: a flow gets its full
//! access rate when neither its source nor its destination is taken yet
//! (a maximal matching in the "big switch" model). Between events the
//! schedule is fixed, so completions follow exactly.
//!
//! Remaining work is kept as integer picoseconds of transmission at the
//! access rate, so the schedule is exact. A flow's FCT is the time its last
//! byte leaves the source under the schedule plus its path latency (OPT
//! minus its own serialization), so a flow alone has slowdown 1.

use crate::ids::FlowId;
use crate::metrics::FlowRecord;
use crate::net::Network;
use crate::units::{data_packet_wire_size, packets_for, SimTime};
use crate::workload::{FlowGenerator, FlowSpec};

struct Active {
    id: FlowId,
    src: u32,
    dst: u32,
    /// Transmission time left at the access rate.
    remaining: SimTime,
    /// OPT minus the flow's own serialization time.
    latency: SimTime,
    /// `workload.abort_at_deadline`: given up at this time if its last
    /// byte has not left by then (`SimTime::NEVER`: never).
    abort_at: SimTime,
}

pub use crate::protocol::plugin::IdealRun;

/// Wire bytes of a whole flow.
pub(crate) fn wire_bytes(size: u64) -> u64 {
    let n = packets_for(size);
    (n as u64 - 1) * data_packet_wire_size(size, 0) as u64 + data_packet_wire_size(size, n - 1) as u64
}

/// Runs the Ideal scheduler over every flow `gen` produces, up to `max_time`.
pub fn run(net: &Network, mut gen: FlowGenerator, max_time: SimTime) -> IdealRun {
    let rate = net.host_rate;
    let mut records: Vec<FlowRecord> = Vec::new();
    let mut active: Vec<Active> = Vec::new();
    let mut next: Option<FlowSpec> = gen.next_flow(net);
    let mut now = SimTime::ZERO;
    let mut src_busy = vec![false; net.n_hosts as usize];
    let mut dst_busy = vec![false; net.n_hosts as usize];
    let mut chosen: Vec<usize> = Vec::new();
    let mut events = 0u64;
    let abort = gen.abort_at_deadline();
    loop {
        // Admit every flow arriving now.
        while let Some(f) = next.take_if(|f| f.arrival <= now) {
            if f.background {
                // Under SRPT with instant preemption a long-lived flow never
                // delays a shorter one, and it is not reported: leave it out.
                records.push(FlowRecord::new(&f));
                next = gen.next_flow(net);
                continue;
            }
            let ser = rate.serialization(wire_bytes(f.size));
            records.push(FlowRecord::new(&f));
            let abort_at = match (abort, f.deadline) {
                (true, Some(d)) => f.arrival + d,
                _ => SimTime::NEVER,
            };
            active.push(Active { id: f.id, src: f.src.0, dst: f.dst.0, remaining: ser, latency: f.ideal_fct - ser, abort_at });
            next = gen.next_flow(net);
        }
        if active.is_empty() && next.is_none() {
            break;
        }
        events += 1;
        // Greedy matching in SRPT order (ties: earlier flow first).
        active.sort_unstable_by(|a, b| a.remaining.cmp(&b.remaining).then(a.id.cmp(&b.id)));
        src_busy.iter_mut().for_each(|b| *b = false);
        dst_busy.iter_mut().for_each(|b| *b = false);
        chosen.clear();
        for (i, a) in active.iter().enumerate() {
            if !src_busy[a.src as usize] && !dst_busy[a.dst as usize] {
                src_busy[a.src as usize] = true;
                dst_busy[a.dst as usize] = true;
                chosen.push(i);
            }
        }
        // Advance to the next completion or arrival.
        let first_done = chosen.iter().map(|&i| active[i].remaining).min().unwrap_or(SimTime::NEVER);
        let until_arrival = next.as_ref().map_or(SimTime::NEVER, |f| f.arrival.saturating_sub(now));
        let first_abort = active.iter().map(|a| a.abort_at).min().unwrap_or(SimTime::NEVER);
        let until_abort = if first_abort == SimTime::NEVER { SimTime::NEVER } else { first_abort.saturating_sub(now) };
        let dt = first_done.min(until_arrival).min(until_abort);
        if dt == SimTime::NEVER || now + dt > max_time {
            now = max_time;
            break;
        }
        now += dt;
        for &i in &chosen {
            active[i].remaining = active[i].remaining - dt;
        }
        let mut finished = 0u32;
        active.retain(|a| {
            if a.remaining == SimTime::ZERO {
                records[a.id.idx()].end = Some(now + a.latency);
                finished += 1;
                false
            } else if a.abort_at <= now {
                // Its deadline passed with bytes still to send: given up.
                records[a.id.idx()].terminated = true;
                finished += 1;
                false
            } else {
                true
            }
        });
        // Closed-loop workloads start the next request once one completes.
        for _ in 0..finished {
            gen.on_flow_complete(now, net);
        }
        if finished > 0 && next.is_none() {
            next = gen.next_flow(net);
        }
    }
    let end = records.iter().filter_map(|r| r.end).max().unwrap_or(now);
    IdealRun { records, end, events }
}

crate::protocol::plugin::flow_level_plugin!(
    /// The Ideal scheduler as a plug-in.
    IdealPlugin,
    run,
    crate::protocol::plugin::Descriptor {
        label: "Ideal",
        summary: "Ideal: the flow-level oracle, greedy SRPT matching of sources and destinations (pFabric section 4)",
        color: "#111111",
        list_rank: 11,
        flow_level: true,
        dctcp_profile: false,
        priority: crate::protocol::plugin::PriorityKey::None,
        fields: &[],
        controls: &[],
    }
);
