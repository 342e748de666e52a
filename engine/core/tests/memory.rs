//! Memory follows the live flows (issue 19): a protocol forgets a flow's
//! state once the flow is over, so a run eight times longer (same load, so
//! about as many flows alive at once) needs no more memory than the flow
//! records it reports. Measured with the counting allocator, the heap
//! still live when every flow has finished and the simulation is still
//! in memory; the per-flow slope between two run lengths may not exceed
//! the output (a `FlowRecord` and a completion-order entry per flow) by
//! more than the peak-capacity slack below.

mod common;

use common::load;
use dcsim_core::heap::{live_bytes, CountingAllocator};
use dcsim_core::metrics::FlowRecord;
use dcsim_core::scenario::ProtocolName;
use dcsim_core::{prepare, RunOptions, Runner};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator;

/// Heap live at the end of an `n`-flow run of `p` (2-40 KB flows, load 0.4,
/// the default leaf-spine), the simulation not yet dropped.
fn live_at_end(p: ProtocolName, n: u64) -> (usize, usize) {
    let mut s = load("imc10-leaf-spine");
    s.protocol = p;
    s.workload.flows = n;
    // Small flows of similar sizes at a moderate load: the peak number of
    // packets in flight (the packet slab and event list keep their peak
    // capacity) is about the same in both runs.
    s.workload.sizes = dcsim_core::workload::SizeSpec::Uniform { min_bytes: 2_000, max_bytes: 40_000 };
    s.workload.load = 0.4;
    let before = live_bytes();
    let mut r: Box<dyn Runner> = prepare(&s, RunOptions::default()).unwrap();
    while r.run_events(1 << 20) {}
    let done = r.records().iter().filter(|x| x.end.is_some() || x.terminated).count();
    (live_bytes() - before, done)
}

/// Output bytes per flow: its record and its place in the completion order.
const OUTPUT_PER_FLOW: usize = std::mem::size_of::<FlowRecord>() + 4;

#[test]
fn protocol_state_is_forgotten_when_flows_finish() {
    // One test function: the allocator counts every thread, so the runs
    // must not overlap.
    let (short, long) = (2_000u64, 16_000u64);
    let mut failures = Vec::new();
    for p in ProtocolName::ALL {
        let (a, da) = live_at_end(p, short);
        let (b, db) = live_at_end(p, long);
        assert_eq!((da, db), (short as usize, long as usize), "{}: every flow settles", p.as_str());
        let per_flow = (b as f64 - a as f64) / (long - short) as f64;
        eprintln!("{:>16}: {a:>10} B at {short} flows, {b:>10} B at {long}: {per_flow:.1} B per extra flow", p.as_str());
        // 48 B of slack: vectors grow by doubling (the records' capacity is
        // not exactly proportional to the flow count) and the packet slab
        // and event list keep the capacity of their peak, which is higher
        // in the longer run (D3: its far-future timer heap doubles from
        // 8,192 to 16,384 entries, about 19 B per extra flow, the packet
        // slab about 7 B). Per-flow protocol state costs more (each
        // protocol's sender and receiver state is 100 B or more).
        if per_flow > (OUTPUT_PER_FLOW + 48) as f64 {
            failures.push(format!("{}: {per_flow:.1} B per flow (output is {OUTPUT_PER_FLOW})", p.as_str()));
        }
    }
    assert!(failures.is_empty(), "per-flow state kept after flows finish:\n{}", failures.join("\n"));
}
