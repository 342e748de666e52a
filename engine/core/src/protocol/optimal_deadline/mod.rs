//! The optimal deadline scheduler (the omniscient bound of the PDQ
//! paper's query-aggregation figures), flow-level like the Ideal
//! scheduler.
//!
//! Flows that arrive together towards one destination share its downlink,
//! the bottleneck of query aggregation (each sender sends one flow, every
//! link has the host rate). On one link, serving flows one after another
//! earliest deadline first and discarding as few as possible so that the
//! rest meet their deadlines is the single-machine problem of minimizing
//! the number of late jobs, which Moore and Hodgson's algorithm solves
//! exactly: add flows in deadline order, and whenever the last one added
//! would be late, discard the longest flow kept so far. Kept flows run
//! back to back in deadline order; discarded flows are never sent (they
//! are reported as terminated, missing their deadlines). Flows without a
//! deadline come after all deadline flows, shortest first.
//!
//! A flow's transmission time is its wire bytes at the host rate and its
//! FCT adds its path latency (its ideal FCT minus its own transmission),
//! as in `ideal.rs`, so a flow alone has slowdown 1. Exact for query
//! aggregation; for other workloads (batches to several destinations,
//! Poisson arrivals) each destination's batch is scheduled the same way
//! after the link's earlier work, which is a heuristic, not an optimum.

use crate::metrics::FlowRecord;
use crate::net::Network;
use crate::protocol::ideal::{wire_bytes, IdealRun};
use crate::units::SimTime;
use crate::workload::{FlowGenerator, FlowSpec};

/// One flow of a batch: transmission time and the latest time its
/// transmission may end (deadline minus path latency).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Transmission time at the bottleneck.
    pub p: SimTime,
    /// Latest end of transmission ([`SimTime::NEVER`] without a deadline).
    pub due: SimTime,
}

/// Moore–Hodgson: which jobs (by index) to keep so that, served from
/// `start` in due-date order, the most meet their due dates. Returns the
/// kept indices in service order (ties: shorter first, then index).
pub fn moore_hodgson(jobs: &[Job], start: SimTime) -> Vec<usize> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| (jobs[i].due, jobs[i].p, i));
    let mut kept: Vec<usize> = Vec::new();
    let mut t = start;
    for i in order {
        kept.push(i);
        t += jobs[i].p;
        if t > jobs[i].due {
            // Drop the longest job kept so far (the latest one on ties).
            let (pos, _) = kept.iter().enumerate().max_by_key(|&(k, &j)| (jobs[j].p, k)).unwrap();
            t = t - jobs[kept[pos]].p;
            kept.remove(pos);
        }
    }
    kept
}

/// Runs the optimal deadline scheduler over every flow `gen` produces.
pub fn run(net: &Network, mut gen: FlowGenerator, max_time: SimTime) -> IdealRun {
    let rate = net.host_rate;
    let mut records: Vec<FlowRecord> = Vec::new();
    let mut link_free = vec![SimTime::ZERO; net.n_hosts as usize];
    let mut next = gen.next_flow(net);
    let mut events = 0u64;
    // Completions not yet reported to the generator: (time, settled flow).
    let mut pending: Vec<(SimTime, u32)> = Vec::new();
    loop {
        let Some(first) = next.take() else {
            if pending.is_empty() {
                break;
            }
            // Closed-loop workloads start the next query once one completes.
            pending.sort();
            for (t, _) in pending.drain(..) {
                gen.on_flow_complete(t, net);
            }
            next = gen.next_flow(net);
            continue;
        };
        if first.arrival > max_time {
            break;
        }
        // The batch: every flow arriving at this time.
        let now = first.arrival;
        let mut batch: Vec<FlowSpec> = vec![first];
        loop {
            match gen.next_flow(net) {
                Some(f) if f.arrival == now => batch.push(f),
                other => {
                    next = other;
                    break;
                }
            }
        }
        events += 1;
        // Records by flow id (a batch's flows have consecutive ids; grouped
        // by destination below they would not be in id order).
        for f in &batch {
            debug_assert_eq!(f.id.idx(), records.len());
            records.push(FlowRecord::new(f));
        }
        let mut dsts: Vec<u32> = batch.iter().map(|f| f.dst.0).collect();
        dsts.sort_unstable();
        dsts.dedup();
        for d in dsts {
            let flows: Vec<&FlowSpec> = batch.iter().filter(|f| f.dst.0 == d).collect();
            let jobs: Vec<Job> = flows
                .iter()
                .map(|f| {
                    let p = rate.serialization(wire_bytes(f.size));
                    let latency = f.ideal_fct - p;
                    let due = f.deadline.map_or(SimTime::NEVER, |dl| (f.arrival + dl).saturating_sub(latency));
                    Job { p, due }
                })
                .collect();
            let start = link_free[d as usize].max(now);
            let kept = moore_hodgson(&jobs, start);
            let mut t = start;
            for &i in &kept {
                t += jobs[i].p;
                let f = flows[i];
                let end = t + (f.ideal_fct - jobs[i].p);
                records[f.id.idx()].end = Some(end);
                pending.push((end, f.id.0));
            }
            link_free[d as usize] = t;
            for (i, f) in flows.iter().enumerate() {
                if !kept.contains(&i) {
                    records[f.id.idx()].terminated = true;
                    pending.push((now, f.id.0));
                }
            }
        }
        // Report completions due before the next arrival, so closed-loop
        // generators see them in time order.
        pending.sort();
        let horizon = next.as_ref().map_or(SimTime::NEVER, |f| f.arrival);
        let due: Vec<(SimTime, u32)> = pending.iter().copied().filter(|&(t, _)| t <= horizon).collect();
        pending.retain(|&(t, _)| t > horizon);
        for (t, _) in due {
            gen.on_flow_complete(t, net);
        }
        if next.is_none() {
            next = gen.next_flow(net);
        }
    }
    records.sort_by_key(|r| r.id);
    let end = records.iter().filter_map(|r| r.end).max().unwrap_or(SimTime::ZERO);
    IdealRun { records, end, events }
}

crate::protocol::plugin::flow_level_plugin!(
    /// The optimal deadline scheduler as a plug-in.
    OptimalDeadlinePlugin,
    run,
    crate::protocol::plugin::Descriptor {
        label: "optimal deadline",
        summary: "The optimal deadline scheduler: flow-level, earliest deadline first with the fewest flows discarded (Moore-Hodgson; PDQ's bound)",
        // Ideal's black: both are the bounds the others are measured against.
        color: "#111111",
        list_rank: 12,
        flow_level: true,
        dctcp_profile: false,
        priority: crate::protocol::plugin::PriorityKey::None,
        fields: &[],
        controls: &[],
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    fn job(p: u64, due: u64) -> Job {
        Job { p: SimTime::from_us(p), due: SimTime::from_us(due) }
    }

    #[test]
    fn moore_hodgson_keeps_the_most_on_time_jobs() {
        // EDF alone would be late on jobs 1 and 2; dropping the long job 1
        // lets all the others make it.
        let jobs = [job(2, 3), job(5, 6), job(1, 7), job(2, 9)];
        assert_eq!(moore_hodgson(&jobs, SimTime::ZERO), vec![0, 2, 3]);
        // Everything fits: nothing is dropped, EDF order.
        let jobs = [job(1, 10), job(1, 2), job(1, 3)];
        assert_eq!(moore_hodgson(&jobs, SimTime::ZERO), vec![1, 2, 0]);
        // A job that cannot make it even alone is dropped.
        let jobs = [job(5, 4), job(1, 2)];
        assert_eq!(moore_hodgson(&jobs, SimTime::ZERO), vec![1]);
    }

    #[test]
    fn moore_hodgson_matches_brute_force() {
        let mut rng = crate::rng::SimRng::new(7, crate::rng::Stream::Sizes);
        for _ in 0..300 {
            let n = 1 + rng.below(8) as usize;
            let jobs: Vec<Job> = (0..n).map(|_| job(1 + rng.below(10) as u64, rng.below(40) as u64)).collect();
            let best = (0u32..1 << n)
                .filter(|&m| {
                    let mut idx: Vec<usize> = (0..n).filter(|i| m >> i & 1 == 1).collect();
                    idx.sort_by_key(|&i| jobs[i].due);
                    let mut t = SimTime::ZERO;
                    idx.iter().all(|&i| {
                        t += jobs[i].p;
                        t <= jobs[i].due
                    })
                })
                .map(|m| m.count_ones())
                .max()
                .unwrap();
            assert_eq!(moore_hodgson(&jobs, SimTime::ZERO).len() as u32, best, "{jobs:?}");
        }
    }
}
