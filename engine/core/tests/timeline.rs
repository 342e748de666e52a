//! The time-travel timeline (issue 16): seeking anywhere, backwards or
//! forwards, lands on exactly the state the uninterrupted run had at that
//! time, and the checkpoints stay within their memory budget (measured by
//! a counting allocator, as the browser binding measures them).

mod common;

use common::load;
use dcsim_core::heap::{live_bytes as live, CountingAllocator};
use dcsim_core::report::flows_csv;
use dcsim_core::scenario::ProtocolName;
use dcsim_core::timeline::{Timeline, TimelineConfig};
use dcsim_core::units::SimTime;
use dcsim_core::{prepare, RunOptions, Runner, Scenario};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator;

/// What identifies a state: clock, events, completions, buffers.
fn fingerprint(r: &dyn Runner) -> (u64, u64, Vec<u32>, Vec<u64>) {
    (r.now().ps(), r.events(), r.completion_order().iter().map(|f| f.0).collect(), r.queue_bytes())
}

fn scenario(p: ProtocolName, flows: u64) -> Scenario {
    let mut s = load("websearch-leaf-spine");
    s.workload.flows = flows;
    s.protocol = p;
    s
}

#[test]
fn seeking_anywhere_lands_on_the_uninterrupted_state() {
    for p in [ProtocolName::Pfabric, ProtocolName::Phost, ProtocolName::Dctcp] {
        let s = scenario(p, 400);
        let end = prepare(&s, RunOptions::default()).unwrap().finish();
        let end_ps = (end.summary.sim_time_us * 1e6) as u64;
        let cfg = TimelineConfig { interval_events: 200_000, ..TimelineConfig::default() };
        let mut tl = Timeline::new(prepare(&s, RunOptions::default()).unwrap(), cfg, Some(live));
        while tl.explore(100_000) {}
        assert!(tl.stats().explored_all && tl.stats().coarse > 3, "{}: {:?}", p.as_str(), tl.stats());
        // Times in a scrambled order, backwards and forwards, some equal
        // to event times and the two ends.
        let mut times: Vec<u64> = (0..12u64).map(|k| (k * 7 % 12) * end_ps / 11).collect();
        times.extend([end_ps / 3, end_ps / 3 - 1, 0]);
        for t in times {
            let t = SimTime::from_ps(t);
            tl.seek(t);
            let mut fresh = prepare(&s, RunOptions::default()).unwrap();
            fresh.run_until(t);
            assert_eq!(fingerprint(tl.run()), fingerprint(&*fresh), "{}: seek to {} ps", p.as_str(), t.ps());
        }
        // Continuing from a seek gives the uninterrupted results.
        tl.seek(SimTime::from_ps(end_ps / 2));
        assert_eq!(flows_csv(&tl.take_copy().finish().records), flows_csv(&end.records), "{}: finish after a seek", p.as_str());
    }
}

#[test]
fn stepping_back_uses_a_nearby_checkpoint() {
    let s = scenario(ProtocolName::Pfabric, 400);
    let cfg = TimelineConfig { interval_events: 1 << 40, ..TimelineConfig::default() };
    let mut tl = Timeline::new(prepare(&s, RunOptions::default()).unwrap(), cfg, Some(live));
    tl.set_trace(true);
    let t = SimTime::from_us(3000);
    let replayed = tl.seek(t);
    assert!(replayed > 100_000, "the first seek replays from zero ({replayed} events)");
    // One event back, then 10 us back: both from the fine checkpoint left
    // `fine_span` (100 us) before the target, so at most that much replay.
    let now = tl.run().now();
    let back = tl.seek(SimTime::from_ps(now.ps() - 1));
    let back2 = tl.seek(t - SimTime::from_us(10));
    assert!(back < replayed / 10 && back2 < replayed / 10, "step back replayed {back} and {back2} events (first seek {replayed})");
    assert!(tl.run().now() < now);
}

#[test]
fn a_seek_replays_the_traced_lead_in_even_to_a_nearby_time() {
    // The page rebuilds its event log and the packets on the wires from
    // the trace a seek records: every seek while animating must replay at
    // least `lead_in` with the trace on, also one that lands right behind
    // the run's own time (step back one event), where the run itself was
    // a valid starting point.
    let s = scenario(ProtocolName::Pfabric, 400);
    let cfg = TimelineConfig::default();
    let mut tl = Timeline::new(prepare(&s, RunOptions::default()).unwrap(), cfg, Some(live));
    tl.set_trace(true);
    let t = SimTime::from_us(3000);
    tl.seek(t);
    tl.run_mut().drain_trace();
    for target in [tl.run().now(), SimTime::from_ps(tl.run().now().ps() - 1), t - SimTime::from_us(1)] {
        tl.seek(target);
        let trace = tl.run_mut().drain_trace();
        let first = SimTime::from_ps(trace.first().map_or(u64::MAX, |e| e.t_ps));
        assert!(
            !trace.is_empty() && first <= target - cfg.lead_in + SimTime::from_us(2),
            "a seek to {} ps traced from {} ps ({} records)",
            target.ps(),
            first.ps(),
            trace.len()
        );
    }
}

#[test]
fn checkpoints_stay_within_the_budget() {
    let s = scenario(ProtocolName::Pfabric, 1500);
    let budget = 24 << 20;
    let cfg = TimelineConfig { interval_events: 50_000, budget_bytes: budget, ..TimelineConfig::default() };
    let mut tl = Timeline::new(prepare(&s, RunOptions::default()).unwrap(), cfg, Some(live));
    let mut peak = 0;
    while tl.explore(50_000) {
        peak = peak.max(tl.stats().bytes);
    }
    let st = tl.stats();
    assert!(st.bytes > 0, "the allocator measured the checkpoints");
    assert!(peak <= budget, "checkpoints held {peak} bytes, budget {budget}");
    assert!(st.interval_events > 50_000, "the grid was thinned: {st:?}");
    assert!(st.coarse >= 4, "still several checkpoints: {st:?}");
}

#[test]
fn a_branch_seeks_to_its_divergence_time_and_after_while_animating() {
    // A what-if branch's run starts at its divergence time: its first
    // checkpoint is there, not at zero. The page lands a new branch on the
    // time on screen (the divergence time) with the trace on, where the
    // lead-in would begin before anything the branch has: the seek must
    // land (it once asked for a checkpoint at zero and the worker failed,
    // leaving the page "computing the branch" for ever).
    let mut s = scenario(ProtocolName::Pfabric, 400);
    let at = SimTime::from_us(3000);
    s.branch = Some(
        serde_json::from_value(serde_json::json!({"name": "spine1 fails", "at_us": 3000.0, "change": {"kind": "switch_down", "node": "spine1"}})).unwrap(),
    );
    let mut tl = Timeline::new(prepare(&s, RunOptions::default()).unwrap(), TimelineConfig::default(), Some(live));
    tl.set_trace(true);
    let fresh = |t: SimTime| {
        let mut r = prepare(&s, RunOptions::default()).unwrap();
        r.run_until(t);
        fingerprint(&*r)
    };
    for target in [at, at + SimTime::from_us(1), at + SimTime::from_us(500), at] {
        tl.seek(target);
        assert_eq!(fingerprint(tl.run()), fresh(target), "a seek to {} ps", target.ps());
    }
    // Before the branch diverged there is nothing: the seek lands on its start.
    tl.seek(SimTime::from_us(1000));
    assert_eq!(fingerprint(tl.run()), fresh(at));
}
